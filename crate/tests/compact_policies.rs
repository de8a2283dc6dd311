//! The cheap compaction policies (spec/strategies.md §2, §6, §9, §10, §10.3, §13): examples, and the
//! invariants over generated transcripts.

use std::collections::BTreeSet;

use context_assembly::compact::policies::{
    clear_thinking::{self, ClearThinkingParams, KeepThinking},
    clear_tool_uses::{self, ClearToolInputs, ClearToolUsesParams, Trigger},
    continue_counting::{self, cl100k_estimate, tool_definitions_tokens, ContinueCountingParams},
    masking::{self, MaskingParams},
    prune::{self, PruneParams},
    truncate::{self, TruncateParams, TruncationMode},
    PolicyOutcome,
};
use context_assembly::request::ToolDefinition;
use context_assembly::tokens::{estimate_tokens, TokenMethod};
use context_assembly::transcript::{AssistantBlock, Message, Record, ToolResultBlock, ToolUse};
use context_assembly::vocabulary::Verdict;
use proptest::prelude::*;

const METHOD: TokenMethod = TokenMethod::ClaudeCode;

/// Builds transcripts with ids and response numbers as a session would.
#[derive(Default)]
struct Builder {
    records: Vec<Message>,
    response: u64,
    call: u64,
}

impl Builder {
    fn push(&mut self, record: Record) {
        let id = self.records.len() as u64;
        self.records.push(Message { id, record });
    }

    fn prompt(&mut self, text: &str) -> &mut Self {
        self.push(Record::Prompt { text: text.into() });
        self
    }

    /// A thinking block in the next response (the one `response` writes next).
    fn think(&mut self, thinking: &str) -> &mut Self {
        let response = self.response;
        self.push(Record::Assistant {
            response,
            block: AssistantBlock::Thinking {
                thinking: thinking.into(),
            },
        });
        self
    }

    /// One response: an optional text, then calls, then one batch with their results.
    fn response(&mut self, text: Option<&str>, calls: &[(&str, &str, bool)]) -> &mut Self {
        let response = self.response;
        self.response += 1;
        if let Some(text) = text {
            self.push(Record::Assistant {
                response,
                block: AssistantBlock::text(text),
            });
        }
        let mut results = Vec::new();
        for (name, content, is_error) in calls {
            let id = format!("toolu_{}", self.call);
            self.call += 1;
            self.push(Record::Assistant {
                response,
                block: AssistantBlock::ToolUse(ToolUse {
                    id: id.clone(),
                    name: (*name).into(),
                    input: format!("{{\"n\":{}}}", self.call),
                }),
            });
            results.push(ToolResultBlock {
                tool_use_id: id,
                content: (*content).into(),
                is_error: *is_error,
            });
        }
        if !results.is_empty() {
            self.push(Record::ToolResults { results });
        }
        self
    }
}

fn results(records: &[Message]) -> Vec<&ToolResultBlock> {
    records
        .iter()
        .flat_map(|m| match &m.record {
            Record::ToolResults { results } => results.iter().collect(),
            _ => Vec::new(),
        })
        .collect()
}

fn call_ids(records: &[Message]) -> BTreeSet<String> {
    records
        .iter()
        .filter_map(|m| match &m.record {
            Record::Assistant {
                block: AssistantBlock::ToolUse(call),
                ..
            } => Some(call.id.clone()),
            _ => None,
        })
        .collect()
}

fn result_ids(records: &[Message]) -> BTreeSet<String> {
    results(records)
        .iter()
        .map(|r| r.tool_use_id.clone())
        .collect()
}

fn lines(n: usize) -> String {
    (0..n)
        .map(|i| format!("line {i} of a long tool output with several words\n"))
        .collect()
}

// ---- examples -------------------------------------------------------------------------------

#[test]
fn every_policy_leaves_an_empty_transcript_alone_and_says_why() {
    let outcomes = [
        prune::apply(&[], &PruneParams::default(), METHOD),
        masking::apply(&[], &MaskingParams::default(), METHOD),
        clear_tool_uses::apply(&[], &ClearToolUsesParams::default(), METHOD),
        clear_thinking::apply(&[], &ClearThinkingParams::default(), METHOD),
        truncate::apply(&[], &TruncateParams::default(), METHOD),
        truncate::apply(
            &[],
            &TruncateParams {
                mode: Some(TruncationMode::None),
                ..TruncateParams::default()
            },
            METHOD,
        ),
    ];
    for outcome in outcomes {
        assert!(outcome.records.is_empty());
        assert_eq!(outcome.decisions.len(), 1);
        assert_eq!(outcome.decisions[0].verdict, Verdict::NotApplied);
        assert!(!outcome.decisions[0].reason.is_empty());
        assert_eq!((outcome.tokens_before, outcome.tokens_after), (0, 0));
    }
}

#[test]
fn prune_clears_outputs_beyond_the_protected_40k_and_keeps_the_last_two_turns() {
    // 10 old outputs of 10,000 tokens each (40,000 UTF-16 units / 4), then two recent turns.
    let big = "x".repeat(40_000);
    let mut b = Builder::default();
    b.prompt("start");
    for _ in 0..10 {
        b.response(None, &[("Bash", &big, false)]);
    }
    b.prompt("second").response(None, &[("Bash", &big, false)]);
    b.prompt("third").response(None, &[("Bash", &big, false)]);
    let outcome = prune::apply(&b.records, &PruneParams::default(), METHOD);
    let out = results(&outcome.records);
    // Newest first outside the last two turns: four outputs make 40,000, the rest go.
    let cleared = out
        .iter()
        .filter(|r| r.content == prune::PLACEHOLDER)
        .count();
    assert_eq!(cleared, 6);
    assert_eq!(out[6].content, big);
    assert_eq!(out[10].content, big);
    assert_eq!(out[11].content, big);
    assert_eq!(
        outcome.tokens_before - outcome.tokens_after,
        6 * (10_000 - 8)
    );
    // The first record changed is the batch of the oldest output.
    assert_eq!(outcome.prefix_kept, 2);
    // Applying it again stops at the first placeholder: nothing more to do.
    let again = prune::apply(&outcome.records, &PruneParams::default(), METHOD);
    assert_eq!(again.records, outcome.records);
    assert_eq!(again.decisions[0].verdict, Verdict::NotApplied);
}

#[test]
fn prune_stops_at_a_summary_past_the_protected_turns() {
    // spec/strategies.md §6.3: the walk stops at a summary message; outputs it replaced are
    // not sent any more, so pruning them frees nothing. 10 outputs of 10,000 tokens before
    // the summary, 5 after it, then two protected turns.
    let big = "x".repeat(40_000);
    let mut b = Builder::default();
    b.prompt("start");
    for _ in 0..10 {
        b.response(None, &[("Bash", &big, false)]);
    }
    b.push(Record::Summary {
        text: "summary of the work so far".into(),
    });
    for _ in 0..5 {
        b.response(None, &[("Bash", &big, false)]);
    }
    b.prompt("second").prompt("third");
    let outcome = prune::apply(&b.records, &PruneParams::default(), METHOD);
    let out = results(&outcome.records);
    let cleared: Vec<usize> = (0..out.len())
        .filter(|&i| out[i].content == prune::PLACEHOLDER)
        .collect();
    // Four of the five newest make 40,000 tokens; the fifth would free 10,000, under the
    // 20,000 minimum, and the older ten lie behind the summary.
    assert!(cleared.is_empty(), "cleared {cleared:?}");
    assert!(outcome.decisions[0]
        .reason
        .contains("would free only 10,000 tokens"));

    // Inside the protected turns a summary does not stop the walk: it counts as a turn.
    let mut recent = Builder::default();
    recent.prompt("start");
    for _ in 0..10 {
        recent.response(None, &[("Bash", &big, false)]);
    }
    recent.prompt("second");
    recent.push(Record::Summary {
        text: "summary".into(),
    });
    let outcome = prune::apply(&recent.records, &PruneParams::default(), METHOD);
    let cleared = results(&outcome.records)
        .iter()
        .filter(|r| r.content == prune::PLACEHOLDER)
        .count();
    assert_eq!(cleared, 6);
}

#[test]
fn prune_does_nothing_below_its_minimum_and_says_how_much_it_would_free() {
    let mut b = Builder::default();
    b.prompt("start")
        .response(None, &[("Bash", &"x".repeat(48_000), false)])
        .response(None, &[("Bash", &"y".repeat(160_000), false)]);
    b.prompt("a").prompt("b");
    let outcome = prune::apply(&b.records, &PruneParams::default(), METHOD);
    assert_eq!(outcome.records, b.records);
    assert_eq!(
        outcome.decisions[0].reason,
        "would free only 12,000 tokens; needs more than 20,000"
    );
}

#[test]
fn prune_exempts_skill_output_and_errors() {
    let big = "x".repeat(200_000);
    let mut b = Builder::default();
    b.prompt("start")
        .response(None, &[("skill", &big, false), ("Bash", &big, true)])
        .prompt("a")
        .prompt("b");
    let outcome = prune::apply(&b.records, &PruneParams::default(), METHOD);
    assert_eq!(outcome.records, b.records);
}

#[test]
fn masking_keeps_the_last_n_and_counts_lines_of_the_rest() {
    let mut b = Builder::default();
    b.prompt("task");
    for i in 1..=12 {
        b.response(Some("thinking aloud"), &[("Bash", &lines(i), false)]);
    }
    let outcome = masking::apply(&b.records, &MaskingParams::default(), METHOD);
    let out = results(&outcome.records);
    assert_eq!(out[0].content, "Old environment output: (1 lines omitted)");
    assert_eq!(out[1].content, "Old environment output: (2 lines omitted)");
    for (i, result) in out.iter().enumerate().skip(2) {
        assert_eq!(result.content, lines(i + 1));
    }
    assert!(outcome
        .decisions
        .iter()
        .all(|d| d.verdict == Verdict::Masked));
    assert_eq!(outcome.decisions.len(), 2);
}

#[test]
fn masking_with_polling_moves_the_cut_in_steps_and_tags_win() {
    let mut b = Builder::default();
    b.prompt("task");
    for _ in 0..7 {
        b.response(None, &[("Bash", &lines(3), false)]);
    }
    b.response(None, &[("Read", &lines(3), false)]);
    let params = MaskingParams {
        n: 3,
        polling: 4,
        always_keep_tools: vec!["Bash".into()],
        ..MaskingParams::default()
    };
    // 8 observations: cut = 8 / 4 * 4 − 3 = 5, but every Bash output is kept.
    let outcome = masking::apply(&b.records, &params, METHOD);
    assert_eq!(outcome.records, b.records);
    let params = MaskingParams {
        n: 3,
        polling: 4,
        keep_first_observation: true,
        always_remove_tools: vec!["Read".into()],
        ..MaskingParams::default()
    };
    let outcome = masking::apply(&b.records, &params, METHOD);
    let masked: Vec<bool> = results(&outcome.records)
        .iter()
        .map(|r| r.content.starts_with(masking::PLACEHOLDER_PREFIX))
        .collect();
    assert_eq!(
        masked,
        [false, true, true, true, true, false, false, true],
        "first kept, 1–4 cut, the last three kept except the always-removed Read"
    );
}

#[test]
fn clear_tool_uses_keeps_the_last_three_and_reports_like_the_api() {
    let mut b = Builder::default();
    b.prompt("go");
    for name in ["Read", "Grep", "Read", "Bash", "Read", "Bash"] {
        b.response(None, &[(name, &lines(40), false)]);
    }
    let params = ClearToolUsesParams {
        trigger: Trigger::ToolUses(6),
        exclude_tools: vec!["Grep".into()],
        clear_tool_inputs: ClearToolInputs::Tools(vec!["Read".into()]),
        ..ClearToolUsesParams::default()
    };
    let outcome = clear_tool_uses::apply(&b.records, &params, METHOD);
    let out = results(&outcome.records);
    let cleared: Vec<bool> = out
        .iter()
        .map(|r| r.content == clear_tool_uses::RESULT_PLACEHOLDER)
        .collect();
    assert_eq!(cleared, [true, false, true, false, false, false]);
    let report = outcome.decisions.last().unwrap();
    assert_eq!(report.subject, "anthropic.clear_tool_uses");
    let freed = outcome.tokens_before - outcome.tokens_after;
    assert_eq!(
        report.detail.as_deref().unwrap(),
        format!(
            "{{\"type\":\"clear_tool_uses_20250919\",\"cleared_tool_uses\":2,\"cleared_input_tokens\":{freed}}}"
        )
    );
    // Read's inputs went too.
    let inputs: Vec<&str> = outcome
        .records
        .iter()
        .filter_map(|m| match &m.record {
            Record::Assistant {
                block: AssistantBlock::ToolUse(call),
                ..
            } => Some(call.input.as_str()),
            _ => None,
        })
        .collect();
    assert_eq!(inputs[0], clear_tool_uses::INPUT_PLACEHOLDER);
    assert_ne!(inputs[1], clear_tool_uses::INPUT_PLACEHOLDER);
}

#[test]
fn clear_tool_uses_waits_for_its_trigger_and_its_minimum() {
    let mut b = Builder::default();
    b.prompt("go");
    for _ in 0..5 {
        b.response(None, &[("Bash", &lines(40), false)]);
    }
    let defaults = clear_tool_uses::apply(&b.records, &ClearToolUsesParams::default(), METHOD);
    assert!(defaults.decisions[0]
        .reason
        .ends_with("the trigger is 100,000"));
    let params = ClearToolUsesParams {
        trigger: Trigger::InputTokens(10),
        clear_at_least: Some(1_000_000),
        ..ClearToolUsesParams::default()
    };
    let outcome = clear_tool_uses::apply(&b.records, &params, METHOD);
    assert_eq!(outcome.records, b.records);
    assert!(outcome.decisions[0].reason.ends_with("needs 1,000,000"));
}

/// The thinking texts left, in order.
fn thinking_left(records: &[Message]) -> Vec<&str> {
    records
        .iter()
        .filter_map(|m| match &m.record {
            Record::Assistant {
                block: AssistantBlock::Thinking { thinking },
                ..
            } => Some(thinking.as_str()),
            _ => None,
        })
        .collect()
}

/// Three thinking turns (two blocks in the first), and one answer that did not think.
fn thinking_transcript() -> Vec<Message> {
    let mut b = Builder::default();
    b.prompt("go");
    b.think(&lines(20))
        .think("and more")
        .response(Some("first"), &[("Read", &lines(5), false)]);
    b.think("second thought")
        .response(Some("second"), &[("Bash", "ok", false)]);
    b.response(Some("no thinking here"), &[]);
    b.think("third thought").response(Some("third"), &[]);
    b.records
}

#[test]
fn clear_thinking_keeps_the_last_thinking_turn_by_default_and_reports_like_the_api() {
    // §10.3: the default keeps the last assistant turn's thinking; §10.4: the report counts
    // `cleared_thinking_turns`.
    let records = thinking_transcript();
    let outcome = clear_thinking::apply(&records, &ClearThinkingParams::default(), METHOD);
    assert_eq!(thinking_left(&outcome.records), ["third thought"]);
    // Only thinking went: every text, call and result is still there.
    assert_eq!(outcome.records.len(), records.len() - 3);
    assert_eq!(call_ids(&outcome.records), call_ids(&records));
    assert_eq!(result_ids(&outcome.records), result_ids(&records));
    let report = outcome.decisions.last().unwrap();
    assert_eq!(report.subject, "anthropic.clear_thinking");
    let freed = outcome.tokens_before - outcome.tokens_after;
    assert!(freed > 0);
    assert_eq!(
        report.detail.as_deref().unwrap(),
        format!(
            "{{\"type\":\"clear_thinking_20251015\",\"cleared_thinking_turns\":2,\"cleared_input_tokens\":{freed}}}"
        )
    );
    // One decision per block cleared, each with its reason, then the report.
    assert_eq!(outcome.decisions.len(), 4);
    assert!(outcome.decisions[..3].iter().all(
        |d| d.verdict == Verdict::Cleared && d.reason.contains("1 most recent thinking turns")
    ));
    // The cache prefix holds up to the first thinking block.
    assert_eq!(outcome.prefix_kept, 1);
}

#[test]
fn clear_thinking_counts_only_turns_that_thought_and_keeps_all_when_asked() {
    // §10.3 `keep: {type: "thinking_turns", value: N}`: the answer without thinking is no turn.
    let records = thinking_transcript();
    let two = ClearThinkingParams {
        keep: KeepThinking::ThinkingTurns(2),
    };
    let outcome = clear_thinking::apply(&records, &two, METHOD);
    assert_eq!(
        thinking_left(&outcome.records),
        ["second thought", "third thought"]
    );
    // §10.3 `keep: "all"`: nothing changes, and the decision says why.
    let all = ClearThinkingParams {
        keep: KeepThinking::All,
    };
    let outcome = clear_thinking::apply(&records, &all, METHOD);
    assert_eq!(outcome.records, records);
    assert_eq!(outcome.decisions[0].verdict, Verdict::NotApplied);
    assert!(outcome.decisions[0].reason.contains("\"all\""));
    let three = ClearThinkingParams {
        keep: KeepThinking::ThinkingTurns(3),
    };
    let outcome = clear_thinking::apply(&records, &three, METHOD);
    assert_eq!(outcome.records, records);
    assert_eq!(
        outcome.decisions[0].reason,
        "3 thinking turns; the 3 most recent keep their thinking"
    );
}

#[test]
fn continue_counts_tool_definitions_by_the_community_formula() {
    // strategies.md §13.1 `tool_definitions`: 12, per function its name, description and
    // properties (2 + type, 2 + description, 3 per enum value less 3, 5 for a value that is
    // not a string), then 12.
    let c = cl100k_estimate;
    let tool = ToolDefinition {
        name: "Bash".into(),
        description: "Runs a command".into(),
        input_schema: r#"{"type":"object","properties":{"command":{"type":"string","description":"The command"},"mode":{"type":"string","enum":["fast","safe",1]}},"required":["command"]}"#.into(),
        deferred: false,
    };
    let command = c("command") + 2 + c("string") + 2 + c("The command");
    let mode = c("mode") + 2 + c("string") + (3 + c("fast")) + (3 + c("safe")) + (3 + 5) - 3;
    let expected = 12 + c("Bash") + c("Runs a command") + command + mode + 12;
    assert_eq!(
        tool_definitions_tokens(std::slice::from_ref(&tool)),
        expected
    );
    assert_eq!(tool_definitions_tokens(&[]), 0);
}

#[test]
fn continue_sets_the_tool_definitions_aside_before_pruning() {
    // strategies.md §13.2 and §13.4: the tools are part of the count and of what is fixed,
    // so with a large definition more of the oldest history goes.
    let records: Vec<Message> = (0..5)
        .map(|id| Message {
            id,
            record: Record::Prompt {
                text: "word ".repeat(2_000),
            },
        })
        .collect();
    let per = continue_counting::count(&records[..1], "gpt");
    let without = ContinueCountingParams {
        model: "gpt".into(),
        context_length: 1_000 + 6 * per,
        ..ContinueCountingParams::default()
    };
    let outcome = continue_counting::apply(&records, &without, METHOD);
    assert_eq!(outcome.records, records);
    assert!(outcome.decisions[0].reason.contains("0 tool definitions 0"));
    let with = ContinueCountingParams {
        tools: vec![ToolDefinition {
            name: "Search".into(),
            description: "word ".repeat(4_000),
            input_schema: r#"{"type":"object","properties":{}}"#.into(),
            deferred: false,
        }],
        ..without
    };
    let outcome = continue_counting::apply(&records, &with, METHOD);
    assert!(outcome.records.len() < records.len());
    assert_eq!(outcome.records.last(), records.last());
    assert!(outcome.decisions[0].reason.contains("1 tool definitions "));
}

#[test]
fn truncate_keeps_the_first_pair_drops_half_and_writes_the_notice() {
    let mut b = Builder::default();
    b.prompt("the task").response(Some("first reply"), &[]);
    for i in 0..8 {
        b.prompt(&lines(20))
            .response(Some(&format!("reply {i}")), &[]);
    }
    let params = TruncateParams {
        mode: Some(TruncationMode::Half),
        replace_first_prompt: true,
        ..TruncateParams::default()
    };
    let outcome = truncate::apply(&b.records, &params, METHOD);
    // 18 messages: 16 after the pair, half of them (8) go: messages 2–9.
    let texts: Vec<String> = outcome
        .records
        .iter()
        .map(|m| match &m.record {
            Record::Prompt { text } => text.clone(),
            Record::Assistant {
                block: AssistantBlock::Text { text },
                ..
            } => text.clone(),
            _ => String::new(),
        })
        .collect();
    assert_eq!(texts.len(), 10);
    assert_eq!(texts[0], "[Continue assisting the user!]");
    assert!(texts[1].starts_with("[NOTE] "));
    assert_eq!(texts[3], "reply 4");
    assert_eq!(outcome.prefix_kept, 0);
}

#[test]
fn truncate_repairs_pairs_cut_at_the_edge() {
    let mut b = Builder::default();
    b.prompt("task")
        .response(Some("first"), &[("Read", &lines(30), false)]);
    for _ in 0..4 {
        b.prompt(&lines(30))
            .response(Some("ok"), &[("Bash", &lines(30), false)]);
    }
    let params = TruncateParams {
        mode: Some(TruncationMode::Quarter),
        ..TruncateParams::default()
    };
    let outcome = truncate::apply(&b.records, &params, METHOD);
    assert_pairs_whole(&b.records, &outcome);
    assert!(outcome.tokens_after < outcome.tokens_before);
}

#[test]
fn truncate_waits_for_cline_thresholds() {
    assert_eq!(truncate::max_allowed_size(64_000), 37_000);
    assert_eq!(truncate::max_allowed_size(128_000), 98_000);
    assert_eq!(truncate::max_allowed_size(1_000_000), 960_000);
    assert_eq!(truncate::max_allowed_size(0), 0);
    assert_eq!(truncate::messages_to_remove(16, TruncationMode::Half), 8);
    assert_eq!(
        truncate::messages_to_remove(16, TruncationMode::Quarter),
        12
    );
    assert_eq!(truncate::messages_to_remove(7, TruncationMode::Half), 2);
    assert_eq!(truncate::messages_to_remove(1, TruncationMode::LastTwo), 0);
}

// ---- invariants -----------------------------------------------------------------------------

fn assert_pairs_whole(input: &[Message], outcome: &PolicyOutcome) {
    let paired: BTreeSet<String> = call_ids(input)
        .intersection(&result_ids(input))
        .cloned()
        .collect();
    let (calls, results) = (call_ids(&outcome.records), result_ids(&outcome.records));
    for id in paired {
        assert_eq!(
            calls.contains(&id),
            results.contains(&id),
            "pair {id} split"
        );
    }
}

type Call = (usize, String, bool);
type Response = (Option<String>, Vec<Call>);
type Turn = (String, Vec<Response>);

const TOOLS: [&str; 4] = ["Bash", "Read", "skill", "Grep"];

fn transcript() -> impl Strategy<Value = Vec<Message>> {
    let content = prop_oneof![
        "[a-z \n]{0,20}",
        (1usize..40).prop_map(lines),
        "[\\PC\r\n]{0,60}",
    ];
    let call = (0..TOOLS.len(), content, any::<bool>());
    let response = (
        proptest::option::of("[a-z ]{0,30}"),
        proptest::collection::vec(call, 0..4),
    );
    let turn = ("[a-z ]{0,30}", proptest::collection::vec(response, 0..3));
    proptest::collection::vec(turn, 0..7).prop_map(|turns: Vec<Turn>| {
        let mut b = Builder::default();
        for (prompt, responses) in &turns {
            b.prompt(prompt);
            for (text, calls) in responses {
                let calls: Vec<(&str, &str, bool)> = calls
                    .iter()
                    .map(|(t, c, e)| (TOOLS[*t], c.as_str(), *e))
                    .collect();
                b.response(text.as_deref(), &calls);
            }
        }
        b.records
    })
}

fn check_common(input: &[Message], outcome: &PolicyOutcome, again: &PolicyOutcome) {
    assert_eq!(outcome, again, "not deterministic");
    assert_pairs_whole(input, outcome);
    assert!(outcome.tokens_after <= outcome.tokens_before);
    assert!(!outcome.decisions.is_empty());
    assert!(outcome.prefix_kept <= outcome.records.len().min(input.len()));
    assert_eq!(
        outcome.records[..outcome.prefix_kept],
        input[..outcome.prefix_kept]
    );
    if outcome.records != input {
        assert!(outcome
            .decisions
            .iter()
            .any(|d| d.verdict != Verdict::NotApplied));
    }
}

fn small_prune() -> PruneParams {
    PruneParams {
        minimum_tokens: 10,
        protect_recent_tokens: 40,
        ..PruneParams::default()
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(200))]

    #[test]
    fn prune_keeps_pairs_and_never_touches_the_last_two_turns(records in transcript()) {
        let params = small_prune();
        let outcome = prune::apply(&records, &params, METHOD);
        check_common(&records, &outcome, &prune::apply(&records, &params, METHOD));
        let prompts: Vec<usize> = records
            .iter()
            .enumerate()
            .filter(|(_, m)| matches!(m.record, Record::Prompt { .. }))
            .map(|(i, _)| i)
            .collect();
        let protected_from = prompts.len().checked_sub(2).map_or(0, |i| prompts[i]);
        prop_assert_eq!(&outcome.records[protected_from..], &records[protected_from..]);
        prop_assert_eq!(outcome.records.len(), records.len());
    }

    #[test]
    fn masking_keeps_exactly_the_last_n_observations(records in transcript(), n in 0usize..6) {
        let params = MaskingParams { n, ..MaskingParams::default() };
        let outcome = masking::apply(&records, &params, METHOD);
        check_common(&records, &outcome, &masking::apply(&records, &params, METHOD));
        let (before, after) = (results(&records), results(&outcome.records));
        prop_assert_eq!(before.len(), after.len());
        let cut = before.len().saturating_sub(n);
        for (i, (old, new)) in before.iter().zip(&after).enumerate() {
            prop_assert_eq!(&old.tool_use_id, &new.tool_use_id);
            if i >= cut {
                prop_assert_eq!(old, new);
            } else if old.content != new.content {
                prop_assert_eq!(&new.content, &masking::placeholder(masking::line_count(&old.content)));
            } else {
                // Left as it is only when the placeholder would cost more, or it is one already.
                let placeholder = masking::placeholder(masking::line_count(&old.content));
                prop_assert!(
                    estimate_tokens(&placeholder, METHOD, None) > estimate_tokens(&old.content, METHOD, None)
                        || old.content.starts_with(masking::PLACEHOLDER_PREFIX)
                );
            }
        }
    }

    #[test]
    fn clear_tool_uses_keeps_pairs_and_the_most_recent_uses(records in transcript(), keep in 0usize..5, inputs in any::<bool>()) {
        let params = ClearToolUsesParams {
            trigger: Trigger::ToolUses(0),
            keep_tool_uses: keep,
            clear_tool_inputs: if inputs { ClearToolInputs::Always } else { ClearToolInputs::Never },
            ..ClearToolUsesParams::default()
        };
        let outcome = clear_tool_uses::apply(&records, &params, METHOD);
        check_common(&records, &outcome, &clear_tool_uses::apply(&records, &params, METHOD));
        let (before, after) = (results(&records), results(&outcome.records));
        let kept_from = before.len().saturating_sub(keep);
        prop_assert_eq!(&before[kept_from..], &after[kept_from..]);
        prop_assert_eq!(outcome.records.len(), records.len());
    }

    #[test]
    fn truncate_keeps_pairs_and_the_first_prompt(records in transcript(), mode in 0usize..5) {
        let mode = [
            None,
            Some(TruncationMode::Half),
            Some(TruncationMode::Quarter),
            Some(TruncationMode::LastTwo),
            Some(TruncationMode::None),
        ][mode];
        let params = TruncateParams { mode, context_window: 1_000, ..TruncateParams::default() };
        let outcome = truncate::apply(&records, &params, METHOD);
        check_common(&records, &outcome, &truncate::apply(&records, &params, METHOD));
        if let (Some(first), Some(kept)) = (records.first(), outcome.records.first()) {
            prop_assert_eq!(first, kept);
        }
        let ids: Vec<u64> = outcome.records.iter().map(|m| m.id).collect();
        prop_assert!(ids.windows(2).all(|w| w[0] < w[1]), "order kept, nothing added");
    }

    #[test]
    fn policies_compose_without_splitting_pairs(records in transcript()) {
        let masked = masking::apply(&records, &MaskingParams { n: 2, ..MaskingParams::default() }, METHOD);
        let pruned = prune::apply(&masked.records, &small_prune(), METHOD);
        let truncated = truncate::apply(
            &pruned.records,
            &TruncateParams { mode: Some(TruncationMode::Half), ..TruncateParams::default() },
            METHOD,
        );
        assert_pairs_whole(&records, &truncated);
    }
}
