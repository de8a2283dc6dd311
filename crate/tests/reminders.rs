//! The reminder collectors over simulated sessions: cadences against independent counts,
//! deltas only on change, budgets and caps for generated inputs (spec claude-code.md
//! §7.5–7.8, §7.10, §9.10; Q47–Q49, Q52, Q62).

use std::collections::BTreeSet;

use context_assembly::attachment::{AttachmentRules, Collected, Verdict};
use context_assembly::collectors::reminders::{self, PassInput, ReminderState};
use context_assembly::session::{
    BackgroundStatus, Diagnostic, DiagnosticFile, IdeSelection, McpServer, PermissionMode,
    Severity, Skill, TaskItem, TodoItem,
};
use context_assembly::tokens::TokenMethod;
use context_assembly::transcript::{AssistantBlock, Record, ToolResultBlock, ToolUse, Transcript};
use proptest::prelude::*;

type Producer =
    fn(&PassInput<'_>, &mut ReminderState, &AttachmentRules, TokenMethod, &mut Collected);

const METHOD: TokenMethod = TokenMethod::ClaudeCode;

/// What the host knows besides the transcript; `input` lends it to one pass.
struct Setup {
    mode: PermissionMode,
    tools: Vec<&'static str>,
    deferred: Vec<String>,
    agents: Vec<String>,
    mcp: Vec<McpServer>,
    skills: Vec<Skill>,
    todos: Vec<TodoItem>,
    tasks: Vec<TaskItem>,
    context_window: u64,
    effective_window: u64,
    context_tokens: u64,
    compaction_reminders: bool,
    today: String,
    plan_exists: bool,
}

impl Default for Setup {
    fn default() -> Self {
        Setup {
            mode: PermissionMode::Default,
            tools: vec!["Read", "Edit", "Bash"],
            deferred: vec![],
            agents: vec![],
            mcp: vec![],
            skills: vec![],
            todos: vec![],
            tasks: vec![],
            context_window: 200_000,
            effective_window: 180_000,
            context_tokens: 0,
            compaction_reminders: false,
            today: "2026-03-31".into(),
            plan_exists: false,
        }
    }
}

impl Setup {
    fn input<'a>(&'a self, transcript: &'a Transcript, prompt: Option<&'a str>) -> PassInput<'a> {
        PassInput {
            prompt,
            mode: self.mode,
            plan_file: "/home/u/.claude/plans/plan.md",
            plan_exists: self.plan_exists,
            today: &self.today,
            tool_names: &self.tools,
            deferred_tools: &self.deferred,
            agents: &self.agents,
            mcp_servers: &self.mcp,
            skills: &self.skills,
            todos: &self.todos,
            tasks: &self.tasks,
            context_window: self.context_window,
            effective_window: self.effective_window,
            context_tokens: self.context_tokens,
            compaction_reminders: self.compaction_reminders,
            ..PassInput::new(transcript)
        }
    }
}

/// A session in miniature: passes run producers and store their attachments after the
/// prompt, as the session does.
struct Sim {
    transcript: Transcript,
    state: ReminderState,
    rules: AttachmentRules,
    setup: Setup,
}

impl Sim {
    fn new(rules: AttachmentRules, setup: Setup) -> Sim {
        Sim {
            transcript: Transcript::default(),
            state: ReminderState::default(),
            rules,
            setup,
        }
    }

    fn pass(&mut self, prompt: Option<&str>, producers: &[Producer]) -> Collected {
        let mut out = Collected::default();
        let input = self.setup.input(&self.transcript, prompt);
        for producer in producers {
            producer(&input, &mut self.state, &self.rules, METHOD, &mut out);
        }
        if let Some(text) = prompt {
            self.transcript.push(Record::Prompt { text: text.into() });
        }
        for attachment in &out.attachments {
            self.transcript.push(Record::Attachment(attachment.clone()));
        }
        out
    }

    /// One response of `blocks`, and the results of its tool calls.
    fn respond(&mut self, blocks: Vec<AssistantBlock>) {
        let response = self.transcript.next_response();
        let mut results = Vec::new();
        for block in blocks {
            if let AssistantBlock::ToolUse(call) = &block {
                results.push(ToolResultBlock {
                    tool_use_id: call.id.clone(),
                    content: "ok".into(),
                    is_error: false,
                });
            }
            self.transcript.push(Record::Assistant { response, block });
        }
        if !results.is_empty() {
            self.transcript.push(Record::ToolResults { results });
        }
    }
}

fn call(name: &str) -> AssistantBlock {
    AssistantBlock::ToolUse(ToolUse {
        id: format!("id-{name}"),
        name: name.into(),
        input: "{}".into(),
    })
}

fn kinds(out: &Collected) -> Vec<&str> {
    out.attachments.iter().map(|a| a.kind.as_str()).collect()
}

fn utf16(text: &str) -> usize {
    text.encode_utf16().count()
}

// ---------------------------------------------------------------- plan mode (§7.5, Q48)

const PLAN: &[Producer] = &[reminders::plan_mode, reminders::plan_mode_exit];

/// Drives `tool_rounds[i]` tool rounds after human turn i in plan mode, and checks every
/// pass against a counter of prompts since the last reminder.
fn check_plan_cadence(tool_rounds: &[u8], counts_new_prompt: bool) {
    let rules = AttachmentRules {
        plan_counts_new_prompt: counts_new_prompt,
        ..AttachmentRules::claude_code()
    };
    let setup = Setup {
        mode: PermissionMode::Plan,
        ..Setup::default()
    };
    let mut sim = Sim::new(rules, setup);
    let mut since: Option<u64> = None;
    let mut reminders = 0u64;
    for (turn, &rounds) in tool_rounds.iter().enumerate() {
        for round in 0..=rounds {
            let human = round == 0;
            let prompt = human.then_some("next");
            let counted = since.map(|s| s + u64::from(human && counts_new_prompt));
            let due = counted.is_none_or(|n| n >= 5);
            let out = sim.pass(prompt, PLAN);
            if due {
                reminders += 1;
                let full = reminders % 5 == 1;
                assert_eq!(kinds(&out), ["plan_mode"], "turn {turn} round {round}");
                let text = &out.attachments[0].text;
                assert_eq!(
                    text.contains("## Plan File Info:"),
                    full,
                    "reminder {reminders}"
                );
                let variant = if full { "full" } else { "sparse" };
                assert!(out.decisions[0].reason.starts_with(variant));
                if counts_new_prompt {
                    assert!(human, "with Q48 fixed a reminder lands on a human turn");
                }
                since = Some(0);
            } else {
                assert!(out.attachments.is_empty(), "turn {turn} round {round}");
                assert_eq!(out.decisions[0].verdict, Verdict::Throttled);
                let n = counted.unwrap_or_default();
                assert_eq!(
                    out.decisions[0].reason,
                    format!("{n} of 5 human turns since the last reminder")
                );
                if human {
                    since = since.map(|s| s + 1);
                }
            }
            sim.respond(vec![call("Read")]);
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn plan_mode_cadence_over_200_human_turns(
        rounds in prop::collection::vec(prop_oneof![3 => Just(0u8), 1 => 1u8..4], 200),
    ) {
        check_plan_cadence(&rounds, false);
        check_plan_cadence(&rounds, true);
    }
}

#[test]
fn with_q48_fixed_reminders_fall_on_every_fifth_human_turn() {
    for rounds in [0u8, 2] {
        let setup = Setup {
            mode: PermissionMode::Plan,
            ..Setup::default()
        };
        let mut sim = Sim::new(AttachmentRules::recommended(), setup);
        let mut turns_with_reminder = Vec::new();
        for turn in 1..=30 {
            if !sim.pass(Some("go"), PLAN).attachments.is_empty() {
                turns_with_reminder.push(turn);
            }
            for _ in 0..rounds {
                sim.respond(vec![call("Grep")]);
                assert!(sim.pass(None, PLAN).attachments.is_empty());
            }
        }
        assert_eq!(turns_with_reminder, [1, 6, 11, 16, 21, 26]);
    }
}

#[test]
fn the_original_fires_on_a_tool_round_of_the_sixth_turn() {
    let setup = Setup {
        mode: PermissionMode::Plan,
        ..Setup::default()
    };
    let mut sim = Sim::new(AttachmentRules::claude_code(), setup);
    let mut fired = Vec::new();
    for turn in 1..=11 {
        if !sim.pass(Some("go"), PLAN).attachments.is_empty() {
            fired.push((turn, "prompt"));
        }
        sim.respond(vec![call("Grep")]);
        if !sim.pass(None, PLAN).attachments.is_empty() {
            fired.push((turn, "tool round"));
        }
        sim.respond(vec![AssistantBlock::text("done")]);
    }
    // History without the new prompt: five human turns are complete only after turn 6's
    // prompt has been stored, so the reminder comes on that turn's tool round.
    assert_eq!(
        fired,
        [(1, "prompt"), (6, "tool round"), (11, "tool round")]
    );
}

#[test]
fn leaving_and_reentering_plan_mode() {
    let setup = Setup {
        mode: PermissionMode::Plan,
        plan_exists: true,
        ..Setup::default()
    };
    let mut sim = Sim::new(AttachmentRules::recommended(), setup);
    for _ in 0..7 {
        sim.pass(Some("plan"), PLAN);
        sim.respond(vec![AssistantBlock::text("ok")]);
    }
    sim.state.exit_plan_mode(true);
    sim.setup.mode = PermissionMode::Default;
    let out = sim.pass(None, PLAN);
    assert_eq!(kinds(&out), ["plan_mode_exit"]);
    assert!(out.attachments[0].text.contains("## Exited Plan Mode\n\n"));
    assert!(sim.pass(Some("build it"), PLAN).attachments.is_empty());
    sim.state.enter_plan_mode();
    sim.setup.mode = PermissionMode::Plan;
    // Fewer than five human turns since the last plan_mode: the re-entry waits too.
    assert!(sim.pass(Some("more"), PLAN).attachments.is_empty());
    assert!(sim.pass(Some("more"), PLAN).attachments.is_empty());
    let out = sim.pass(Some("more"), PLAN);
    assert_eq!(kinds(&out), ["plan_mode_reentry", "plan_mode"]);
    // The first plan_mode since the exit is a full one.
    assert!(out.attachments[1].text.contains("## Plan File Info:\n"));
    assert!(sim.pass(Some("more"), PLAN).attachments.is_empty());
}

#[test]
fn auto_mode_follows_the_same_cadence_only_when_available() {
    let producers: &[Producer] = &[reminders::auto_mode, reminders::auto_mode_exit];
    let setup = Setup {
        mode: PermissionMode::Auto,
        ..Setup::default()
    };
    let mut sim = Sim::new(AttachmentRules::recommended(), setup);
    assert!(sim.pass(Some("x"), producers).attachments.is_empty());
    let mut fired = Vec::new();
    for turn in 1..=11 {
        let transcript = &sim.transcript;
        let input = PassInput {
            auto_mode_available: true,
            ..sim.setup.input(transcript, Some("go"))
        };
        let mut out = Collected::default();
        for producer in producers {
            producer(&input, &mut sim.state, &sim.rules, METHOD, &mut out);
        }
        sim.transcript.push(Record::Prompt { text: "go".into() });
        for attachment in out.attachments {
            fired.push((turn, attachment.text.contains("## Auto Mode")));
            sim.transcript.push(Record::Attachment(attachment));
        }
    }
    assert_eq!(fired, [(1, true), (6, false), (11, false)]);
    sim.state.exit_auto_mode();
    sim.setup.mode = PermissionMode::Default;
    assert_eq!(kinds(&sim.pass(None, producers)), ["auto_mode_exit"]);
    assert!(sim.pass(None, producers).attachments.is_empty());
}

// ------------------------------------------------------------- todo reminders (§7.6, Q47)

/// One generated response: its blocks (a thinking block, then tool calls, some of them
/// `writer`), and whether a tool round follows.
fn response_blocks(spec: &(bool, Vec<bool>), writer: &str) -> Vec<AssistantBlock> {
    let (thinking, calls) = spec;
    let mut blocks = Vec::new();
    if *thinking {
        blocks.push(AssistantBlock::Thinking {
            thinking: "…".into(),
        });
    }
    for &writes in calls {
        blocks.push(call(if writes { writer } else { "Read" }));
    }
    if calls.is_empty() && !thinking {
        blocks.push(AssistantBlock::text("done"));
    }
    blocks
}

fn check_todo_cadence(responses: &[(bool, Vec<bool>)], by_response: bool, tasks: bool) {
    let rules = AttachmentRules {
        todo_counts_responses: by_response,
        ..AttachmentRules::claude_code()
    };
    let (tools, writer, kind) = if tasks {
        (
            vec!["Read", "TaskCreate", "TaskUpdate", "TodoWrite"],
            "TaskUpdate",
            "task_reminder",
        )
    } else {
        (vec!["Read", "TodoWrite"], "TodoWrite", "todo_reminder")
    };
    let setup = Setup {
        tools,
        todos: vec![TodoItem {
            content: "write tests".into(),
            status: "in_progress".into(),
            active_form: None,
        }],
        tasks: vec![TaskItem {
            id: 1,
            subject: "write tests".into(),
            status: "pending".into(),
        }],
        ..Setup::default()
    };
    let mut sim = Sim::new(rules, setup);
    let producers: &[Producer] = &[reminders::todo_reminders];
    let (mut since_write, mut since_reminder) = (0u64, 0u64);
    for (i, spec) in responses.iter().enumerate() {
        let prompt = (i % 4 == 0).then_some("go on");
        let due = !sim.transcript.is_empty() && since_write >= 10 && since_reminder >= 10;
        let out = sim.pass(prompt, producers);
        if due {
            assert_eq!(kinds(&out), [kind], "response {i}");
            since_reminder = 0;
        } else {
            assert!(out.attachments.is_empty(), "response {i}");
        }
        let blocks = response_blocks(spec, writer);
        let counted = blocks
            .iter()
            .filter(|b| !matches!(b, AssistantBlock::Thinking { .. }))
            .count() as u64;
        if by_response {
            let writes = spec.1.iter().any(|&w| w);
            since_reminder += u64::from(counted > 0);
            since_write = if writes {
                0
            } else {
                since_write + u64::from(counted > 0)
            };
        } else {
            for &writes in &spec.1 {
                since_write = if writes { 0 } else { since_write + 1 };
            }
            if spec.1.is_empty() && !spec.0 {
                since_write += 1;
            }
            since_reminder += counted;
        }
        sim.respond(blocks);
    }
}

fn responses() -> impl Strategy<Value = Vec<(bool, Vec<bool>)>> {
    let calls = prop::collection::vec(prop::bool::weighted(0.05), 0..5);
    prop::collection::vec((prop::bool::weighted(0.2), calls), 1..160)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn todo_reminders_follow_the_ten_and_ten_rule(responses in responses()) {
        for (by_response, tasks) in [(false, false), (true, false), (false, true), (true, true)] {
            check_todo_cadence(&responses, by_response, tasks);
        }
    }
}

#[test]
fn three_calls_count_three_records_in_the_original_and_one_response_fixed() {
    let responses: Vec<(bool, Vec<bool>)> = vec![(false, vec![false, false, false]); 12];
    for (rules, first) in [
        (AttachmentRules::claude_code(), 4),
        (AttachmentRules::recommended(), 10),
    ] {
        let setup = Setup {
            tools: vec!["TodoWrite"],
            ..Setup::default()
        };
        let mut sim = Sim::new(rules, setup);
        let mut at = None;
        for (i, spec) in responses.iter().enumerate() {
            if at.is_none()
                && !sim
                    .pass(None, &[reminders::todo_reminders])
                    .attachments
                    .is_empty()
            {
                at = Some(i);
            }
            sim.respond(response_blocks(spec, "TodoWrite"));
        }
        assert_eq!(at, Some(first));
    }
}

#[test]
fn the_todo_list_layout_follows_q49() {
    let todos = [
        TodoItem {
            content: "a".into(),
            status: "pending".into(),
            active_form: None,
        },
        TodoItem {
            content: "b".into(),
            status: "completed".into(),
            active_form: None,
        },
    ];
    let render = |plain: bool| {
        let rules = AttachmentRules {
            todo_plain_list: plain,
            todo_turns_since_write: 0,
            todo_turns_between: 0,
            ..AttachmentRules::claude_code()
        };
        let mut transcript = Transcript::default();
        transcript.push(Record::Prompt { text: "x".into() });
        let input = PassInput {
            tool_names: &["TodoWrite"],
            todos: &todos,
            ..PassInput::new(&transcript)
        };
        let mut out = Collected::default();
        reminders::todo_reminders(
            &input,
            &mut ReminderState::default(),
            &rules,
            METHOD,
            &mut out,
        );
        out.attachments.remove(0).text
    };
    let original = render(false);
    assert!(
        original.contains(".\n\n\n"),
        "three newlines after the nudge"
    );
    assert!(original.ends_with(":\n\n[1. [pending] a\n2. [completed] b]\n</system-reminder>"));
    let fixed = render(true);
    assert!(fixed.ends_with(
        ".\n\nThis is the current todo list:\n1. [pending] a\n2. [completed] b\n</system-reminder>"
    ));
}

#[test]
fn no_todo_reminder_with_the_brief_tool_or_an_empty_transcript() {
    let rules = AttachmentRules {
        todo_turns_since_write: 0,
        todo_turns_between: 0,
        ..AttachmentRules::claude_code()
    };
    let mut transcript = Transcript::default();
    let mut out = Collected::default();
    let input = PassInput {
        tool_names: &["TodoWrite"],
        ..PassInput::new(&transcript)
    };
    reminders::todo_reminders(
        &input,
        &mut ReminderState::default(),
        &rules,
        METHOD,
        &mut out,
    );
    transcript.push(Record::Prompt { text: "x".into() });
    let input = PassInput {
        tool_names: &["TodoWrite", "SendUserMessage"],
        ..PassInput::new(&transcript)
    };
    reminders::todo_reminders(
        &input,
        &mut ReminderState::default(),
        &rules,
        METHOD,
        &mut out,
    );
    assert!(out.attachments.is_empty() && out.decisions.is_empty());
}

// ---------------------------------------------------------------- deltas and skills

const POOL: [&str; 6] = ["alpha", "beta", "gamma", "delta", "epsilon", "zeta"];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn deltas_are_sent_only_on_change(
        steps in prop::collection::vec(prop::collection::vec(0usize..6, 0..8), 1..40),
        compact_at in 0usize..40,
    ) {
        let mut sim = Sim::new(AttachmentRules::claude_code(), Setup::default());
        let producers: &[Producer] = &[
            reminders::deferred_tools_delta,
            reminders::agent_listing_delta,
            reminders::mcp_instructions_delta,
        ];
        let mut announced: BTreeSet<&str> = BTreeSet::new();
        for (i, step) in steps.iter().enumerate() {
            if i == compact_at {
                sim.state.after_compaction();
                announced.clear();
            }
            let names: Vec<String> = step.iter().map(|&n| POOL[n].to_string()).collect();
            sim.setup.deferred = names.clone();
            sim.setup.agents = names.iter().rev().cloned().collect();
            sim.setup.mcp = names
                .iter()
                .map(|name| McpServer { name: name.clone(), instructions: Some(format!("use {name}")) })
                .chain([McpServer { name: "silent".into(), instructions: None }])
                .collect();
            let current: BTreeSet<&str> = step.iter().map(|&n| POOL[n]).collect();
            let out = sim.pass(None, producers);
            if current == announced {
                prop_assert!(out.attachments.is_empty());
                continue;
            }
            prop_assert_eq!(
                kinds(&out),
                ["deferred_tools_delta", "agent_listing_delta", "mcp_instructions_delta"]
            );
            for attachment in &out.attachments {
                for name in current.difference(&announced).chain(announced.difference(&current)) {
                    prop_assert!(attachment.text.contains(name), "{} misses {}", attachment.kind, name);
                }
                for name in current.intersection(&announced) {
                    prop_assert!(!attachment.text.contains(name), "{} repeats {}", attachment.kind, name);
                }
                prop_assert!(!attachment.text.contains("silent"));
            }
            announced = current;
        }
    }
}

#[test]
fn changed_mcp_instructions_are_announced_again() {
    let mut sim = Sim::new(AttachmentRules::claude_code(), Setup::default());
    let producers: &[Producer] = &[reminders::mcp_instructions_delta];
    let server = |text: &str| McpServer {
        name: "docs".into(),
        instructions: Some(text.into()),
    };
    sim.setup.mcp = vec![server("first")];
    assert!(sim.pass(None, producers).attachments[0]
        .text
        .contains("## docs\nfirst"));
    assert!(sim.pass(None, producers).attachments.is_empty());
    sim.setup.mcp = vec![server("second")];
    let out = sim.pass(None, producers);
    assert!(out.attachments[0].text.contains("## docs\nsecond"));
    sim.setup.mcp = vec![];
    let out = sim.pass(None, producers);
    assert!(out.attachments[0]
        .text
        .contains("no longer apply:\ndocs\n</system-reminder>"));
}

fn text_strategy(max: usize) -> impl Strategy<Value = String> {
    const CHARS: [char; 5] = ['a', 'é', '😀', ' ', '語'];
    prop::collection::vec(0..CHARS.len(), 0..max)
        .prop_map(|picks| picks.into_iter().map(|i| CHARS[i]).collect())
}

/// The entries of a skill listing: the lines after the intro's blank line.
fn listing_entries(text: &str) -> Vec<&str> {
    let body = text
        .strip_suffix("\n</system-reminder>")
        .and_then(|t| t.split_once("\n\n"))
        .map(|(_, entries)| entries)
        .expect("listing shape");
    body.split('\n').collect()
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn the_skill_listing_keeps_its_budget(
        descriptions in prop::collection::vec(text_strategy(400), 0..60),
        window in 0u64..400_000,
        more in text_strategy(300),
    ) {
        let rules = AttachmentRules::claude_code();
        let budget = (window * 4 / 100) as usize;
        let skills: Vec<Skill> = descriptions
            .iter()
            .enumerate()
            .map(|(i, d)| Skill { name: format!("s{i}"), description: d.clone() })
            .collect();
        let setup = Setup { skills, context_window: window, ..Setup::default() };
        let mut sim = Sim::new(rules, setup);
        let producers: &[Producer] = &[reminders::skill_listing];
        let out = sim.pass(Some("hi"), producers);
        let mut listed = BTreeSet::new();
        if let Some(listing) = out.attachments.first() {
            let entries = listing_entries(&listing.text);
            prop_assert!(utf16(&entries.join("\n")) <= budget);
            for entry in entries {
                let (name, description) = entry
                    .strip_prefix("- ")
                    .and_then(|e| e.split_once(": "))
                    .expect("entry shape");
                let source = &sim.setup.skills[name[1..].parse::<usize>().unwrap()].description;
                if let Some(kept) = description.strip_suffix('…').filter(|_| utf16(source) > 250) {
                    prop_assert!(utf16(kept) <= 250 && source.starts_with(kept));
                } else {
                    prop_assert_eq!(description, source.as_str());
                }
                listed.insert(name.to_string());
            }
        }
        let over: BTreeSet<String> = out
            .decisions
            .iter()
            .filter(|d| d.verdict == Verdict::OverBudget)
            .map(|d| d.subject.clone())
            .collect();
        prop_assert_eq!(listed.len() + over.len(), sim.setup.skills.len());
        prop_assert!(listed.is_disjoint(&over));
        // Nothing again, not even after compaction; a new skill alone.
        sim.state.after_compaction();
        prop_assert!(sim.pass(None, producers).attachments.is_empty());
        sim.setup.skills.push(Skill { name: "new".into(), description: more });
        let out = sim.pass(None, producers);
        let entries: Vec<String> = out
            .attachments
            .first()
            .map(|a| listing_entries(&a.text).iter().map(|e| e.to_string()).collect())
            .unwrap_or_default();
        prop_assert!(entries.len() <= 1);
        prop_assert!(entries.iter().all(|e| e.starts_with("- new: ")));
    }
}

// ------------------------------------------------------------------------ IDE (§7.8, Q52)

fn ide_pass(
    rules: &AttachmentRules,
    selection: Option<&IdeSelection>,
    opened: Option<&str>,
    diagnostics: &[DiagnosticFile],
    denied: &dyn Fn(&str) -> Option<String>,
) -> Collected {
    let transcript = Transcript::default();
    let input = PassInput {
        tool_names: &["Bash"],
        selection,
        opened_file: opened,
        diagnostics,
        is_denied: denied,
        ..PassInput::new(&transcript)
    };
    let mut out = Collected::default();
    let mut state = ReminderState::default();
    for producer in [
        reminders::ide_selection,
        reminders::ide_opened_file,
        reminders::diagnostics,
    ] {
        producer(&input, &mut state, rules, METHOD, &mut out);
    }
    out
}

fn no_rule(_: &str) -> Option<String> {
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn the_selection_cap_holds(text in text_strategy(2600), start in 0u64..100, count in 1u64..50, at_zero: bool) {
        let selection = IdeSelection {
            path: "/w/a.rs".into(),
            line_start: start,
            line_count: count,
            ends_at_line_start: at_zero,
            text: text.clone(),
        };
        for rules in [AttachmentRules::claude_code(), AttachmentRules::recommended()] {
            let out = ide_pass(&rules, Some(&selection), Some("/w/a.rs"), &[], &no_rule);
            if text.is_empty() {
                prop_assert_eq!(kinds(&out), ["opened_file_in_ide"]);
                continue;
            }
            prop_assert_eq!(kinds(&out), ["selected_lines_in_ide"]);
            let shift = u64::from(rules.selection_one_based);
            let lines = count - u64::from(at_zero);
            let last = start + shift + lines.max(1) - 1;
            let body = &out.attachments[0].text;
            let header = format!("lines {} to {last} of /w/a.rs in the IDE:\n", start + shift);
            let content = body.split_once(&header).map(|(_, c)| c).expect("header");
            let content = content.rsplit_once("\n\n").map(|(c, _)| c).expect("caveat");
            match content.strip_suffix("\n... (truncated)").filter(|_| utf16(&text) > 2000) {
                Some(kept) => {
                    prop_assert!(utf16(kept) <= 2000 && utf16(kept) >= 1999);
                    prop_assert!(text.starts_with(kept));
                    prop_assert_eq!(out.decisions[0].verdict, Verdict::Truncated);
                }
                None => prop_assert_eq!(content, text.as_str()),
            }
        }
    }

    #[test]
    fn the_diagnostics_cap_holds(
        messages in prop::collection::vec((text_strategy(300), 0u64..5000, 0u64..200, any::<bool>()), 1..40),
    ) {
        let severities = [Severity::Error, Severity::Warning, Severity::Info, Severity::Hint];
        let items: Vec<Diagnostic> = messages
            .iter()
            .enumerate()
            .map(|(i, (message, line, column, coded))| Diagnostic {
                severity: severities[i % 4],
                line: *line,
                column: *column,
                message: message.clone(),
                code: coded.then(|| "E1".to_string()),
                source: Some("rustc".into()),
            })
            .collect();
        let files = vec![
            DiagnosticFile { path: "/w/src/a.rs".into(), items: items.clone() },
            DiagnosticFile { path: "/w/b.rs".into(), items },
        ];
        let summary = |rules: &AttachmentRules| {
            let out = ide_pass(rules, None, None, &files, &no_rule);
            let text = &out.attachments[0].text;
            let start = text.find("\n\n").expect("intro") + 2;
            let end = text.rfind("</new-diagnostics>").expect("closing tag");
            (text[start..end].to_string(), out.decisions)
        };
        let unlimited = AttachmentRules { diagnostics_cap: usize::MAX, ..AttachmentRules::claude_code() };
        let (full, _) = summary(&unlimited);
        prop_assert!(full.starts_with("a.rs:\n  ✘ [Line "));
        let (capped, decisions) = summary(&AttachmentRules::claude_code());
        prop_assert!(utf16(&capped) <= 4000);
        if utf16(&full) <= 4000 {
            prop_assert_eq!(capped, full);
        } else {
            let kept = capped.strip_suffix("…[truncated]").expect("marker");
            prop_assert!(full.starts_with(kept) && utf16(kept) >= 3987);
            prop_assert_eq!(decisions[0].verdict, Verdict::Truncated);
        }
    }
}

#[test]
fn denied_files_are_decisions_not_attachments() {
    let selection = IdeSelection {
        path: "/w/.env".into(),
        line_start: 0,
        line_count: 1,
        ends_at_line_start: false,
        text: "SECRET=1".into(),
    };
    let deny = |path: &str| path.ends_with(".env").then(|| "Read(./.env)".to_string());
    let rules = AttachmentRules::claude_code();
    let out = ide_pass(&rules, Some(&selection), Some("/w/.env"), &[], &deny);
    assert!(out.attachments.is_empty());
    assert_eq!(out.decisions[0].verdict, Verdict::Denied);
    assert_eq!(out.decisions[0].detail.as_deref(), Some("Read(./.env)"));
    // An opened file with no selection text is denied by itself.
    let out = ide_pass(&rules, None, Some("/w/.env"), &[], &deny);
    assert_eq!((out.attachments.len(), out.decisions.len()), (0, 1));
    let out = ide_pass(&rules, None, Some("/w/main.rs"), &[], &deny);
    assert!(out.attachments[0].text.contains("/w/main.rs"));
}

#[test]
fn the_original_shows_the_ides_line_numbers_as_given() {
    let selection = IdeSelection {
        path: "/w/a.rs".into(),
        line_start: 0,
        line_count: 2,
        ends_at_line_start: false,
        text: "a\nb".into(),
    };
    let out = ide_pass(
        &AttachmentRules::claude_code(),
        Some(&selection),
        None,
        &[],
        &no_rule,
    );
    assert!(out.attachments[0].text.contains("lines 0 to 1 of /w/a.rs"));
    let out = ide_pass(
        &AttachmentRules::recommended(),
        Some(&selection),
        None,
        &[],
        &no_rule,
    );
    assert!(out.attachments[0].text.contains("lines 1 to 2 of /w/a.rs"));
}

// ------------------------------------------------------------------ events (§7.7, §9.10)

#[test]
fn date_change_first_records_then_reports_changes() {
    let mut sim = Sim::new(AttachmentRules::claude_code(), Setup::default());
    let producers: &[Producer] = &[reminders::date_change];
    let mut sent = Vec::new();
    for today in [
        "2026-03-31",
        "2026-03-31",
        "2026-04-01",
        "2026-04-01",
        "2026-04-02",
    ] {
        sim.setup.today = today.into();
        if !sim.pass(None, producers).attachments.is_empty() {
            sent.push(today);
        }
    }
    assert_eq!(sent, ["2026-04-01", "2026-04-02"]);
}

proptest! {
    #[test]
    fn the_compaction_reminder_once_per_crossing_q62(
        tokens in prop::collection::vec(0u64..600_000, 1..60),
        window in prop_oneof![Just(200_000u64), Just(1_000_000u64)],
    ) {
        for rules in [AttachmentRules::claude_code(), AttachmentRules::recommended()] {
            let setup = Setup {
                compaction_reminders: true,
                context_window: window,
                effective_window: window - 20_000,
                ..Setup::default()
            };
            let mut sim = Sim::new(rules.clone(), setup);
            let threshold = (window - 20_000) / 4;
            let mut was_above = false;
            for &t in &tokens {
                sim.setup.context_tokens = t;
                let out = sim.pass(None, &[reminders::compaction_reminder]);
                let applies = window >= 1_000_000 || !rules.compaction_reminder_needs_1m;
                let above = applies && t >= threshold;
                let expected = above && (!rules.compaction_reminder_once || !was_above);
                prop_assert_eq!(out.attachments.len(), usize::from(expected));
                was_above = above;
            }
        }
    }
}

#[test]
fn a_1m_window_is_reminded_from_245k_tokens() {
    let setup = Setup {
        compaction_reminders: true,
        context_window: 1_000_000,
        effective_window: 980_000,
        context_tokens: 244_999,
        ..Setup::default()
    };
    let mut sim = Sim::new(AttachmentRules::claude_code(), setup);
    assert!(sim
        .pass(None, &[reminders::compaction_reminder])
        .attachments
        .is_empty());
    sim.setup.context_tokens = 245_000;
    assert_eq!(
        sim.pass(None, &[reminders::compaction_reminder])
            .attachments
            .len(),
        1
    );
    assert_eq!(
        sim.pass(None, &[reminders::compaction_reminder])
            .attachments
            .len(),
        1
    );
}

#[test]
fn usage_lines_keep_their_format() {
    let transcript = Transcript::default();
    let tasks = [
        (
            "a1".to_string(),
            "index the repo".to_string(),
            BackgroundStatus::Running,
        ),
        (
            "b2".to_string(),
            "run tests".to_string(),
            BackgroundStatus::Killed,
        ),
    ];
    let input = PassInput {
        token_usage_reminder: true,
        last_request_tokens: Some(190_000),
        budget_usd_cents: Some(1000),
        spent_usd_cents: 250,
        output_token_budget: Some(5000),
        output_tokens: 1200,
        output_style: Some("Explanatory"),
        critical_reminder: Some("Never push."),
        queued: &["also fix the docs".to_string()],
        prompt: Some("Ultrathink about it"),
        task_statuses: &tasks,
        ..PassInput::new(&transcript)
    };
    let mut out = Collected::default();
    let mut state = ReminderState::default();
    let rules = AttachmentRules::claude_code();
    let all: [Producer; 9] = [
        reminders::queued_commands,
        reminders::ultrathink_effort,
        reminders::critical_system_reminder,
        reminders::output_style,
        reminders::task_status,
        reminders::token_usage,
        reminders::budget_usd,
        reminders::output_token_usage,
        reminders::date_change,
    ];
    for producer in all {
        producer(&input, &mut state, &rules, METHOD, &mut out);
    }
    let texts: Vec<&str> = out.attachments.iter().map(|a| a.text.as_str()).collect();
    assert!(texts[0].contains(":\nalso fix the docs\n\nIMPORTANT"));
    assert!(texts[1].contains("level high"));
    assert_eq!(
        texts[2],
        "<system-reminder>\nNever push.\n</system-reminder>"
    );
    assert!(texts[3].contains("Explanatory output style"));
    assert!(
        texts[4].contains("\"index the repo\" (a1)") && texts[5].contains("\"run tests\" (b2)")
    );
    assert_eq!(
        texts[6],
        "<system-reminder>\nToken usage: 190000/180000; -10000 remaining\n</system-reminder>"
    );
    assert_eq!(
        texts[7],
        "<system-reminder>\nUSD budget: $2.50/$10.00; $7.50 remaining\n</system-reminder>"
    );
    assert!(texts[8].contains("Output tokens: 1200/5000; 3800 remaining"));
    assert_eq!(texts.len(), 9, "date_change only records on its first call");
    // A sub-agent gets none of the main thread's kinds.
    let input = PassInput {
        is_sub_agent: true,
        ..input
    };
    let mut sub = Collected::default();
    for producer in all {
        producer(&input, &mut state, &rules, METHOD, &mut sub);
    }
    assert_eq!(
        kinds(&sub),
        [
            "queued_command",
            "ultrathink_effort",
            "critical_system_reminder"
        ]
    );
}

#[test]
fn the_emission_order_lists_every_producer_once() {
    use context_assembly::collectors::{CollectorId, Phase, EMISSION_ORDER};
    let labels: Vec<&str> = EMISSION_ORDER
        .iter()
        .filter(|entry| entry.collector.reminder().is_some())
        .map(|entry| entry.collector.as_str())
        .collect();
    let unique: BTreeSet<&str> = labels.iter().copied().collect();
    assert_eq!(unique.len(), labels.len());
    assert_eq!(labels.len(), 22);
    let first = |phase: Phase| {
        let entry = EMISSION_ORDER.iter().find(|entry| entry.phase == phase);
        entry.map(|entry| entry.collector)
    };
    assert_eq!(first(Phase::AllThreads), Some(CollectorId::QueuedCommands));
    assert_eq!(first(Phase::MainThread), Some(CollectorId::IdeSelection));
}

// ------------------------------------ the skill listing over a session (§7.10, §9.3)

mod skills_in_a_session {
    use context_assembly::attachment::Verdict;
    use context_assembly::scenario::{parse_scenario, run_scenario};
    use serde_json::{json, Value};

    /// The entries of every `skill_listing` each step produced, and the over-budget
    /// decisions, by step.
    fn listings(scenario: Value) -> Vec<(Vec<String>, Vec<String>)> {
        let scenario = parse_scenario(&scenario.to_string()).unwrap();
        let trace = run_scenario(&scenario).unwrap();
        trace
            .steps
            .iter()
            .map(|step| {
                let listed = step
                    .turn
                    .attachments
                    .iter()
                    .filter(|a| a.kind.as_str() == "skill_listing")
                    .flat_map(|a| super::listing_entries(&a.text))
                    .map(String::from)
                    .collect();
                let over = step
                    .turn
                    .decisions
                    .iter()
                    .filter(|d| d.verdict == Verdict::OverBudget)
                    .map(|d| d.subject.clone())
                    .collect();
                (listed, over)
            })
            .collect()
    }

    fn skill(name: &str, description: &str) -> Value {
        json!({ "name": name, "description": description })
    }

    /// claude-code.md §7.10 and §7.3 (cadence D): the listing goes out once in full; a
    /// `registry` step that adds skills sends only the new ones, on the next pass, a tool
    /// round included; a skill taken away and given back is not listed again; after a
    /// compaction nothing is re-sent (§9.3 item 5: `sentSkillNames` is not cleared), but a
    /// skill added after it still is.
    #[test]
    fn a_registry_step_that_adds_skills_lists_only_the_new_ones() {
        let steps = listings(json!({
            "profile": "claude-code",
            "config": { "skills": [skill("pdf", "Reads PDFs."), skill("lint", "Runs the linter.")] },
            "steps": [
                { "kind": "user", "prompt": "hello" },
                { "kind": "assistant", "blocks": [{ "type": "text", "text": "hi" }] },
                { "kind": "registry", "skills": [skill("pdf", "Reads PDFs."), skill("lint", "Runs the linter."), skill("deploy", "Ships it.")] },
                { "kind": "user", "prompt": "again" },
                { "kind": "assistant", "blocks": [{ "type": "tool_use", "id": "t1", "name": "Bash", "input": { "command": "ls" } }] },
                { "kind": "registry", "skills": [skill("deploy", "Ships it."), skill("chart", "Draws charts.")] },
                { "kind": "toolResults", "results": [{ "toolUseId": "t1", "content": "a.ts" }] },
                { "kind": "assistant", "blocks": [{ "type": "text", "text": "done" }] },
                { "kind": "registry", "skills": [skill("pdf", "Reads PDFs."), skill("chart", "Draws charts.")] },
                { "kind": "compact", "summary": "<summary>work so far</summary>" },
                { "kind": "user", "prompt": "after the summary" },
                { "kind": "assistant", "blocks": [{ "type": "text", "text": "ok" }] },
                { "kind": "registry", "skills": [skill("pdf", "Reads PDFs."), skill("review", "Reviews a diff.")] },
                { "kind": "user", "prompt": "one more" }
            ]
        }));
        let listed: Vec<(usize, Vec<String>)> = steps
            .iter()
            .enumerate()
            .filter(|(_, (listed, _))| !listed.is_empty())
            .map(|(i, (listed, _))| (i, listed.clone()))
            .collect();
        assert_eq!(
            listed,
            [
                (
                    0,
                    vec![
                        "- pdf: Reads PDFs.".into(),
                        "- lint: Runs the linter.".into()
                    ]
                ),
                (3, vec!["- deploy: Ships it.".into()]),
                (6, vec!["- chart: Draws charts.".into()]),
                (13, vec!["- review: Reviews a diff.".into()]),
            ]
        );
    }

    /// claude-code.md §7.10: each delta has the whole budget, 1 % of the context window at 4
    /// characters a token; a new skill over it is left out (and not offered again), a
    /// later, shorter one still fits. The window is the model's when the configuration names
    /// one (§9.1): `[1m]` gives 40,000 characters.
    #[test]
    fn a_delta_keeps_the_budget_rules() {
        let long = "x".repeat(250);
        let entry = |name: &str| format!("- {name}: {long}");
        let many: Vec<Value> = (0..5).map(|i| skill(&format!("s{i}"), &long)).collect();
        // 5,000 tokens: a 200-character budget holds none of the 256-character entries.
        let mut registry: Vec<Value> = many.clone();
        registry.push(skill("tiny", "t"));
        let steps = listings(json!({
            "profile": "claude-code",
            "config": { "contextWindow": 5000, "outputReserve": 1000, "skills": [skill("a", "first")] },
            "steps": [
                { "kind": "user", "prompt": "hello" },
                { "kind": "assistant", "blocks": [{ "type": "text", "text": "hi" }] },
                { "kind": "registry", "skills": registry },
                { "kind": "user", "prompt": "again" },
                { "kind": "assistant", "blocks": [{ "type": "text", "text": "hi" }] },
                { "kind": "registry", "skills": [skill("s0", "short now")] },
                { "kind": "user", "prompt": "and again" }
            ]
        }));
        assert_eq!(steps[0].0, ["- a: first"]);
        assert_eq!(steps[3].0, ["- tiny: t"]);
        assert_eq!(steps[3].1, ["s0", "s1", "s2", "s3", "s4"]);
        assert!(
            steps[6].0.is_empty() && steps[6].1.is_empty(),
            "{:?}",
            steps[6]
        );
        // The window a named model gives: 1M tokens, 40,000 characters; the first listing
        // takes what fits, the delta has the whole budget again.
        let wide: Vec<Value> = (0..200).map(|i| skill(&format!("w{i}"), &long)).collect();
        let later: Vec<Value> = (0..200)
            .map(|i| skill(&format!("w{i}"), &long))
            .chain((0..100).map(|i| skill(&format!("n{i}"), &long)))
            .collect();
        let steps = listings(json!({
            "profile": "claude-code",
            "config": { "model": "claude-sonnet-4-6[1m]", "skills": wide },
            "steps": [
                { "kind": "user", "prompt": "hello" },
                { "kind": "assistant", "blocks": [{ "type": "text", "text": "hi" }] },
                { "kind": "registry", "skills": later },
                { "kind": "user", "prompt": "again" }
            ]
        }));
        // Entries of 256 to 258 characters and a newline between: 154 fit in 40,000.
        let mut used = 0;
        let fit = (0..200)
            .take_while(|i| {
                used += entry(&format!("w{i}")).len() + usize::from(*i > 0);
                used <= 40_000
            })
            .count();
        assert_eq!(fit, 154);
        assert_eq!(steps[0].0.len(), fit);
        assert_eq!(steps[0].0[0], entry("w0"));
        assert_eq!(steps[0].1.len(), 200 - fit);
        assert_eq!(steps[3].0.len(), 100);
        assert!(steps[3].0.iter().all(|e| e.starts_with("- n")));
    }
}

/// claude-code.md §7.10 and §10.1: `SLASH_COMMAND_TOOL_CHAR_BUDGET`, a host setting, replaces
/// the window's share as every listing's budget, the deltas' too.
#[test]
fn the_host_s_character_budget_replaces_the_window_s_share() {
    use serde_json::json;
    let long = "y".repeat(100);
    let skills = |names: &[&str]| -> Vec<serde_json::Value> {
        names
            .iter()
            .map(|n| json!({ "name": n, "description": long }))
            .collect()
    };
    let scenario = json!({
        "profile": "claude-code",
        "config": { "skillListingCharBudget": 250, "skills": skills(&["a", "b", "c"]) },
        "steps": [
            { "kind": "user", "prompt": "hello" },
            { "kind": "assistant", "blocks": [{ "type": "text", "text": "hi" }] },
            { "kind": "registry", "skills": skills(&["a", "b", "c", "d", "e", "f"]) },
            { "kind": "user", "prompt": "again" }
        ]
    });
    let scenario = context_assembly::scenario::parse_scenario(&scenario.to_string()).unwrap();
    let trace = context_assembly::scenario::run_scenario(&scenario).unwrap();
    let names = |step: usize| -> Vec<String> {
        let turn = &trace.steps[step].turn;
        let listing = turn
            .attachments
            .iter()
            .find(|a| a.kind.as_str() == "skill_listing");
        let entries = listing
            .map(|a| listing_entries(&a.text))
            .unwrap_or_default();
        entries.iter().map(|e| e[2..3].to_string()).collect()
    };
    // 105 characters an entry, a newline between: two fit in 250, not three.
    assert_eq!(names(0), ["a", "b"]);
    assert_eq!(names(3), ["d", "e"]);
    let detail = trace.steps[3]
        .turn
        .decisions
        .iter()
        .find(|d| d.subject == "skill_listing");
    assert_eq!(
        detail.and_then(|d| d.detail.as_deref()),
        Some("211 of 250 characters")
    );
}
