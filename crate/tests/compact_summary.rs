//! The summary hand-off and the post-compact restore (spec claude-code.md §9.3–§9.5, §6.5):
//! golden formatting, the quirks as examples under both rule sets, and the budgets and the
//! extractive summary's traceability over generated inputs.

use context_assembly::attachment::Verdict;
use context_assembly::compact::restore::{
    select_restores, select_skills, RestoreBudget, RestoreCandidate, RestorePlan,
    POST_COMPACT_MAX_FILES_TO_RESTORE, POST_COMPACT_MAX_TOKENS_PER_FILE,
    POST_COMPACT_MAX_TOKENS_PER_SKILL, POST_COMPACT_SKILLS_TOKEN_BUDGET, POST_COMPACT_TOKEN_BUDGET,
    SKILL_TRUNCATION_MARKER,
};
use context_assembly::compact::rules::CompactionRules;
use context_assembly::compact::summary::{
    extractive_summary, format_compact_summary, summary_message, summary_request,
};
use context_assembly::tokens::{estimate_tokens, TokenMethod};
use context_assembly::transcript::{AssistantBlock, Message, Record, ToolResultBlock, ToolUse};
use proptest::prelude::*;

// ---------------------------------------------------------------- summary text

#[test]
fn format_compact_summary_golden() {
    let cases = [
        ("", ""),
        ("<analysis>x</analysis>", ""),
        (
            "<analysis>\nthink\n</analysis>\n\n<summary>\n1. A:\n   a\n\n\n\n2. B:\n   b\n</summary>",
            "Summary:\n1. A:\n   a\n\n2. B:\n   b",
        ),
        // Only the first analysis block is removed; the second stays.
        (
            "<analysis>1</analysis><analysis>2</analysis><summary>s</summary>",
            "<analysis>2</analysis>Summary:\ns",
        ),
        // A summary without its closing tag is left as written.
        ("<summary>open", "<summary>open"),
        // Text around the summary stays, blank lines collapse everywhere.
        ("pre\n\n\n<summary> s </summary>\n\n\npost", "pre\n\nSummary:\ns\n\npost"),
        ("<summary></summary>", "Summary:"),
        // `$` patterns are literal here (see the function's docs).
        ("<summary>costs $& and $$</summary>", "Summary:\ncosts $& and $$"),
    ];
    for (raw, expected) in cases {
        assert_eq!(format_compact_summary(raw), expected, "{raw:?}");
    }
}

#[test]
fn summary_message_separators() {
    let bare = summary_message("Summary:\nS", None, false, false);
    let (preamble, rest) = bare.split_once("\n\n").unwrap();
    assert!(!preamble.is_empty() && !preamble.contains('\n'));
    assert_eq!(rest, "Summary:\nS");

    let full = summary_message("Summary:\nS", Some("/p/t.jsonl"), true, true);
    let tail = full
        .strip_prefix(&format!("{preamble}\n\nSummary:\nS\n\n"))
        .unwrap();
    let (transcript, tail) = tail.split_once("\n\n").unwrap();
    assert!(transcript.ends_with("/p/t.jsonl"));
    let (memory, follow_up) = tail.split_once('\n').unwrap();
    assert!(!memory.is_empty() && !follow_up.is_empty() && !follow_up.contains('\n'));

    let follow_only = summary_message("Summary:\nS", None, false, true);
    assert_eq!(follow_only, format!("{bare}\n{follow_up}"));
}

#[test]
fn summary_request_places_custom_instructions_before_the_trailer() {
    let plain = summary_request(None);
    let custom = summary_request(Some("Keep the SQL."));
    let at = custom
        .find("\n\nAdditional Instructions:\nKeep the SQL.")
        .unwrap();
    assert_eq!(custom[..at], plain[..at]);
    assert_eq!(
        custom[at..].replace("\n\nAdditional Instructions:\nKeep the SQL.", ""),
        plain[at..]
    );
    assert_eq!(summary_request(Some("")), plain);
}

// ---------------------------------------------------------------- restore

fn file(path: &str, timestamp: u64) -> RestoreCandidate {
    RestoreCandidate {
        path: path.into(),
        timestamp,
        stamp_order: 0,
        last_access: 0,
        is_memory_file: false,
        was_edited: false,
        content_tokens: 900,
        tokens_rendered: 1_000,
        record_json_tokens: 1_200,
        readable: true,
        preserved_in_tail: false,
    }
}

/// The original's plan: Claude Code's rules and budgets, nothing excluded.
fn original_plan(candidates: &[RestoreCandidate]) -> RestorePlan {
    select_restores(
        candidates,
        &[],
        None,
        &CompactionRules::claude_code(),
        RestoreBudget::ORIGINAL,
    )
}

fn restored_paths(candidates: &[RestoreCandidate], rules: &CompactionRules) -> Vec<String> {
    let plan = select_restores(candidates, &[], None, rules, RestoreBudget::ORIGINAL);
    plan.restored.into_iter().map(|(path, _)| path).collect()
}

#[test]
fn q59_memory_files_outside_the_exact_paths_win_slots() {
    let mut rule = file("/w/.claude/rules/style.md", 9);
    rule.is_memory_file = true;
    let mut root = file("/w/CLAUDE.md", 9);
    root.is_memory_file = true;
    let candidates = [rule, root, file("/w/a.rs", 1)];
    let excluded = ["/w/CLAUDE.md".to_string()];
    let original = select_restores(
        &candidates,
        &excluded,
        None,
        &CompactionRules::claude_code(),
        RestoreBudget::ORIGINAL,
    );
    let paths: Vec<_> = original.restored.iter().map(|(p, _)| p.as_str()).collect();
    assert_eq!(paths, ["/w/.claude/rules/style.md", "/w/a.rs"]);
    let root = original
        .decisions
        .iter()
        .find(|d| d.subject == "/w/CLAUDE.md")
        .unwrap();
    assert_eq!(root.verdict, Verdict::Excluded);
    let fixed = select_restores(
        &candidates,
        &excluded,
        None,
        &CompactionRules::recommended(),
        RestoreBudget::ORIGINAL,
    );
    assert_eq!(fixed.restored, [("/w/a.rs".to_string(), 1_000)]);
}

#[test]
fn q60_rank_by_timestamp_or_by_last_access() {
    // Seven files: the old-mtime ones were used last.
    let candidates: Vec<_> = (0..7u64)
        .map(|i| RestoreCandidate {
            last_access: 100 - i,
            ..file(&format!("/w/{i}"), i)
        })
        .collect();
    let original = restored_paths(&candidates, &CompactionRules::claude_code());
    assert_eq!(original, ["/w/6", "/w/5", "/w/4", "/w/3", "/w/2"]);
    let fixed = restored_paths(&candidates, &CompactionRules::recommended());
    assert_eq!(fixed, ["/w/0", "/w/1", "/w/2", "/w/3", "/w/4"]);
}

#[test]
fn ties_keep_the_most_recently_used_first() {
    let candidates: Vec<_> = (0..7).map(|i| file(&format!("/w/{i}"), 5)).collect();
    let paths = restored_paths(&candidates, &CompactionRules::claude_code());
    assert_eq!(paths, ["/w/0", "/w/1", "/w/2", "/w/3", "/w/4"]);
}

#[test]
fn a_later_stamp_in_the_same_millisecond_breaks_the_tie() {
    // Nested memory of one pass: the walk's later step was stamped after the earlier one,
    // which the recency order no longer shows. A newer millisecond still outranks both.
    let earlier = file("/w/src/CLAUDE.local.md", 5);
    let later = RestoreCandidate {
        stamp_order: 1,
        ..file("/w/src/lib/CLAUDE.md", 5)
    };
    let newer = file("/w/a.rs", 6);
    let candidates = [earlier, later, newer];
    let paths = restored_paths(&candidates, &CompactionRules::claude_code());
    assert_eq!(
        paths,
        ["/w/a.rs", "/w/src/lib/CLAUDE.md", "/w/src/CLAUDE.local.md"]
    );
}

#[test]
fn q61_failed_slots_backfilled_only_when_fixed() {
    let mut candidates: Vec<_> = (0..6u64)
        .map(|i| file(&format!("/w/{i}"), 10 - i))
        .collect();
    candidates[1].readable = false;
    candidates[3].readable = false;
    let original = original_plan(&candidates);
    assert_eq!(original.restored.len(), 3);
    let last = original.decisions.last().unwrap();
    assert_eq!(
        (last.subject.as_str(), last.verdict),
        ("/w/5", Verdict::Skipped)
    );
    let fixed = restored_paths(&candidates, &CompactionRules::recommended());
    assert_eq!(fixed, ["/w/0", "/w/2", "/w/4", "/w/5"]);
}

#[test]
fn q46_the_budget_measure_and_the_filter_that_does_not_break() {
    // Five files of 4,000 rendered tokens whose records count 12,000 (escapes, metadata).
    let mut candidates: Vec<_> = (0..5u64)
        .map(|i| RestoreCandidate {
            tokens_rendered: 4_000,
            record_json_tokens: 12_000,
            ..file(&format!("/w/{i}"), 10 - i)
        })
        .collect();
    let original = original_plan(&candidates);
    assert_eq!(original.restored.len(), 4);
    assert_eq!(original.decisions[4].verdict, Verdict::OverBudget);
    let fixed = select_restores(
        &candidates,
        &[],
        None,
        &CompactionRules::recommended(),
        RestoreBudget::ORIGINAL,
    );
    assert_eq!(fixed.restored.iter().map(|(_, t)| t).sum::<u64>(), 20_000);
    // A filter, not a break: after a file that does not fit, a smaller one still does.
    candidates[4].record_json_tokens = 2_000;
    candidates[3].record_json_tokens = 15_000;
    let original = restored_paths(&candidates, &CompactionRules::claude_code());
    assert_eq!(original, ["/w/0", "/w/1", "/w/2", "/w/4"]);
}

#[test]
fn large_files_become_references_and_keep_their_slot() {
    let mut candidates: Vec<_> = (0..6u64)
        .map(|i| file(&format!("/w/{i}"), 10 - i))
        .collect();
    candidates[0].content_tokens = POST_COMPACT_MAX_TOKENS_PER_FILE + 1;
    for rules in [
        CompactionRules::claude_code(),
        CompactionRules::recommended(),
    ] {
        let plan = select_restores(&candidates, &[], None, &rules, RestoreBudget::ORIGINAL);
        let references: Vec<_> = plan.references.iter().map(|(p, _)| p.as_str()).collect();
        assert_eq!(references, ["/w/0"]);
        assert_eq!(plan.restored.len(), 4);
        assert_eq!(plan.decisions[0].verdict, Verdict::TooLarge);
    }
}

#[test]
fn the_per_file_limit_gates_the_content_not_the_rendered_text() {
    // 4,900 tokens of content render to 5,300 with the call note, the line numbers and the
    // reminder: the original restores it, since its Read gate sees only the content.
    let candidate = RestoreCandidate {
        content_tokens: 4_900,
        tokens_rendered: 5_300,
        record_json_tokens: 6_000,
        ..file("/w/a.rs", 1)
    };
    for rules in [
        CompactionRules::claude_code(),
        CompactionRules::recommended(),
    ] {
        let plan = select_restores(
            std::slice::from_ref(&candidate),
            &[],
            None,
            &rules,
            RestoreBudget::ORIGINAL,
        );
        assert_eq!(plan.restored.len(), 1, "{:?}", plan.decisions);
        assert!(plan.references.is_empty());
    }
}

#[test]
fn references_count_toward_the_budget() {
    // A reference's record costs 60 tokens, then four files of 12,490: 50,020 in all.
    let mut candidates = vec![RestoreCandidate {
        content_tokens: 9_000,
        tokens_rendered: 40,
        record_json_tokens: 60,
        ..file("/w/big", 10)
    }];
    candidates.extend((0..4u64).map(|i| RestoreCandidate {
        record_json_tokens: 12_490,
        ..file(&format!("/w/{i}"), 9 - i)
    }));
    let plan = original_plan(&candidates);
    assert_eq!(plan.references, [("/w/big".to_string(), 60)]);
    assert_eq!(plan.restored.len(), 3);
    let last = plan.decisions.last().unwrap();
    assert_eq!(last.verdict, Verdict::OverBudget);
    assert!(last.reason.contains("50020"), "{}", last.reason);
    assert!(
        plan.decisions[0].reason.contains("60 tokens"),
        "{}",
        plan.decisions[0].reason
    );
}

#[test]
fn plan_file_tail_and_edited_first() {
    let mut edited = file("/w/old-edit.rs", 1);
    edited.was_edited = true;
    let mut kept = file("/w/kept.rs", 50);
    kept.preserved_in_tail = true;
    let mut candidates = vec![file("/w/plan.md", 99), kept, edited];
    candidates.extend((0..5u64).map(|i| file(&format!("/w/{i}"), 10 - i)));
    let original = select_restores(
        &candidates,
        &[],
        Some("/w/plan.md"),
        &CompactionRules::claude_code(),
        RestoreBudget::ORIGINAL,
    );
    assert_eq!(original.decisions[0].verdict, Verdict::Excluded);
    assert_eq!(original.decisions[1].verdict, Verdict::AlreadyInContext);
    assert!(!original.restored.iter().any(|(p, _)| p == "/w/old-edit.rs"));
    let fixed = select_restores(
        &candidates,
        &[],
        Some("/w/plan.md"),
        &CompactionRules::recommended(),
        RestoreBudget::ORIGINAL,
    );
    assert_eq!(fixed.restored[0].0, "/w/old-edit.rs");
}

fn candidate() -> impl Strategy<Value = RestoreCandidate> {
    (
        (0u8..12, 0u64..20, 0u64..20, any::<bool>(), any::<bool>()),
        (0u64..9_000, 0u64..30_000, any::<bool>(), any::<bool>()),
        0u64..9_000,
    )
        .prop_map(
            |(
                (name, timestamp, last_access, memory, edited),
                (rendered, json, readable, tail),
                content,
            )| {
                RestoreCandidate {
                    path: format!("/w/{name}"),
                    timestamp,
                    stamp_order: 0,
                    last_access,
                    is_memory_file: memory,
                    was_edited: edited,
                    content_tokens: content,
                    tokens_rendered: rendered,
                    record_json_tokens: json,
                    readable,
                    preserved_in_tail: tail,
                }
            },
        )
}

proptest! {
    #[test]
    fn restore_budgets_hold(candidates in proptest::collection::vec(candidate(), 0..16), backfill: bool) {
        for mut rules in [CompactionRules::claude_code(), CompactionRules::recommended()] {
            rules.backfill_failed_slots = backfill;
            let excluded = ["/w/1".to_string()];
            let plan = select_restores(&candidates, &excluded, Some("/w/2"), &rules, RestoreBudget::ORIGINAL);
            prop_assert!(plan.restored.len() + plan.references.len() <= POST_COMPACT_MAX_FILES_TO_RESTORE);
            // References count against the budget too (§9.4 item 5).
            let used: u64 = plan.restored.iter().chain(&plan.references).map(|(_, t)| t).sum();
            prop_assert!(used <= POST_COMPACT_TOKEN_BUDGET);
            prop_assert_eq!(plan.decisions.len(), candidates.len());
            for (path, tokens) in &plan.restored {
                // Paths may repeat in generated input: some readable candidate of that path
                // within the per-file limit must account for the tokens.
                let accounted = candidates.iter().any(|c| {
                    &c.path == path
                        && c.readable
                        && c.content_tokens <= POST_COMPACT_MAX_TOKENS_PER_FILE
                        && (*tokens == c.tokens_rendered || *tokens == c.record_json_tokens)
                });
                prop_assert!(accounted);
                prop_assert!(path != "/w/1" && path != "/w/2");
            }
        }
    }
}

proptest! {
    // Long skills cost several estimates each; fewer cases keep the suite quick.
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn skill_budgets_hold(
        skills in proptest::collection::vec(("[a-z]{1,8}", "[a-z 日本😀\n]{0,40}", 0usize..1_500), 0..10),
    ) {
        let invoked: Vec<(String, String)> = skills
            .into_iter()
            .enumerate()
            .map(|(i, (name, unit, times))| (format!("{i}{name}"), unit.repeat(times)))
            .collect();
        for method in TokenMethod::ALL {
            let selection = select_skills(&invoked, method);
            prop_assert_eq!(selection.decisions.len(), invoked.len());
            let mut total = 0;
            for (name, content, tokens) in &selection.skills {
                prop_assert!(*tokens <= POST_COMPACT_MAX_TOKENS_PER_SKILL);
                prop_assert_eq!(*tokens, estimate_tokens(content, method, None));
                let original = &invoked.iter().find(|(n, _)| n == name).unwrap().1;
                prop_assert!(content == original || content.ends_with(SKILL_TRUNCATION_MARKER));
                total += tokens;
            }
            prop_assert!(total <= POST_COMPACT_SKILLS_TOKEN_BUDGET);
        }
    }
}

#[test]
fn skills_are_a_filter_newest_first() {
    let skill = |name: &str, n: usize| (name.to_string(), "abcd".repeat(n));
    // 5,000 + 5,000 (cut) + 5,000 + 5,000 + 4,000 = 24,000, then 2,000 does not fit, 1,000 does.
    let invoked = [
        skill("a", 5_000),
        skill("b", 9_000),
        skill("c", 5_000),
        skill("d", 5_000),
        skill("e", 4_000),
        skill("f", 2_000),
        skill("g", 1_000),
    ];
    let selection = select_skills(&invoked, TokenMethod::ClaudeCode);
    let names: Vec<_> = selection
        .skills
        .iter()
        .map(|(n, _, _)| n.as_str())
        .collect();
    assert_eq!(names, ["a", "b", "c", "d", "e", "g"]);
    let verdicts: Vec<_> = selection.decisions.iter().map(|d| d.verdict).collect();
    assert_eq!(verdicts[1], Verdict::Truncated);
    assert_eq!(verdicts[5], Verdict::OverBudget);
}

// ---------------------------------------------------------------- extractive summary

#[derive(Debug, Clone)]
enum Event {
    Prompt(String),
    Text(String),
    Call(&'static str, String),
    Raw(String, String),
    Error(String),
}

fn json(value: serde_json::Value) -> String {
    serde_json::to_string(&value).unwrap()
}

fn event() -> impl Strategy<Value = Event> {
    let text = "[a-zA-Z0-9 ./_\\-\"\\\\é日😀\n]{0,60}";
    prop_oneof![
        text.prop_map(Event::Prompt),
        text.prop_map(Event::Text),
        (prop::sample::select(vec!["Read", "Edit", "Write"]), text).prop_map(|(tool, path)| {
            Event::Call(tool, json(serde_json::json!({ "file_path": path })))
        }),
        text.prop_map(|c| Event::Call("Bash", json(serde_json::json!({ "command": c })))),
        proptest::collection::vec(
            (
                text,
                prop::sample::select(vec!["pending", "in_progress", "completed"])
            ),
            0..4
        )
        .prop_map(|items| {
            let todos: Vec<_> = items
                .iter()
                .map(|(c, s)| serde_json::json!({"content": c, "status": s}))
                .collect();
            Event::Call("TodoWrite", json(serde_json::json!({ "todos": todos })))
        }),
        ("[A-Za-z]{1,6}", ".{0,40}").prop_map(|(name, input)| Event::Raw(name, input)),
        text.prop_map(Event::Error),
    ]
}

fn records(events: &[Event]) -> Vec<Message> {
    let mut out = Vec::new();
    for (i, event) in events.iter().enumerate() {
        let id = i as u64;
        let assistant = |block| Record::Assistant {
            response: id,
            block,
        };
        let call = |name: &str, input: &str| {
            assistant(AssistantBlock::ToolUse(ToolUse {
                id: format!("c{i}"),
                name: name.into(),
                input: input.into(),
            }))
        };
        let record = match event {
            Event::Prompt(text) => Record::Prompt { text: text.clone() },
            Event::Text(text) => assistant(AssistantBlock::Text { text: text.clone() }),
            Event::Call(name, input) => call(name, input),
            Event::Raw(name, input) => call(name, input),
            Event::Error(content) => Record::ToolResults {
                results: vec![ToolResultBlock {
                    tool_use_id: format!("c{}", i.saturating_sub(1)),
                    content: content.clone(),
                    is_error: true,
                }],
            },
        };
        out.push(Message { id, record });
    }
    out
}

/// Every text a record holds: prompts and texts as they are, tool inputs as their string
/// values, results as their content.
fn record_texts(message: &Message) -> Vec<String> {
    fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::String(s) => out.push(s.clone()),
            serde_json::Value::Array(items) => items.iter().for_each(|v| strings(v, out)),
            serde_json::Value::Object(map) => map.values().for_each(|v| strings(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    match &message.record {
        Record::Prompt { text } => out.push(text.clone()),
        Record::Assistant {
            block: AssistantBlock::Text { text },
            ..
        } => out.push(text.clone()),
        Record::Assistant {
            block: AssistantBlock::ToolUse(call),
            ..
        } => {
            if let Ok(value) = serde_json::from_str::<serde_json::Value>(&call.input) {
                strings(&value, &mut out);
            }
        }
        Record::ToolResults { results } => out.extend(results.iter().map(|r| r.content.clone())),
        _ => {}
    }
    out
}

/// The quoted part of a summary line: without its bullet, its cut marker and its
/// parenthesised tag (tool names, todo status).
fn quoted_keys(line: &str) -> Vec<String> {
    let body = line.strip_prefix("   - ").unwrap_or(line);
    let body = body.trim_end_matches(" […]");
    let mut keys = vec![body.to_string()];
    if let Some(at) = body.rfind(" (") {
        keys.push(body[..at].trim_end_matches(" […]").to_string());
    }
    keys
}

proptest! {
    #[test]
    fn extractive_lines_trace_to_their_records(events in proptest::collection::vec(event(), 0..40)) {
        let records = records(&events);
        let summary = extractive_summary(&records);
        prop_assert_eq!(&summary, &extractive_summary(&records));
        prop_assert!(summary.text.starts_with("<summary>\n") && summary.text.ends_with("</summary>"));
        prop_assert!(format_compact_summary(&summary.text).starts_with("Summary:\n1. "));
        for (line, index) in &summary.sources {
            prop_assert!(summary.text.contains(line.as_str()));
            let texts = record_texts(&records[*index]);
            let traced = quoted_keys(line).iter().any(|key| texts.iter().any(|t| t.contains(key.as_str())));
            prop_assert!(traced, "{line:?} not in record {index}: {texts:?}");
        }
    }

    #[test]
    fn extractive_never_panics(inputs in proptest::collection::vec((".{0,8}", ".{0,80}", any::<bool>()), 0..30)) {
        let records: Vec<Message> = inputs
            .iter()
            .enumerate()
            .map(|(i, (name, input, error))| {
                let record = match (i % 3, error) {
                    (0, _) => Record::Prompt { text: input.clone() },
                    (1, _) => Record::Assistant {
                        response: 0,
                        block: AssistantBlock::ToolUse(ToolUse { id: name.clone(), name: name.clone(), input: input.clone() }),
                    },
                    (_, error) => Record::ToolResults {
                        results: vec![ToolResultBlock { tool_use_id: name.clone(), content: input.clone(), is_error: *error }],
                    },
                };
                Message { id: i as u64, record }
            })
            .collect();
        let summary = extractive_summary(&records);
        prop_assert!(summary.sources.iter().all(|(_, i)| *i < records.len()));
    }
}

#[test]
fn extractive_summary_of_a_session() {
    let events = [
        Event::Prompt("Make the parser accept tabs".into()),
        Event::Call(
            "Read",
            json(serde_json::json!({"file_path": "/w/src/parse.rs"})),
        ),
        Event::Call(
            "Bash",
            json(serde_json::json!({"command": "cargo test\n--all"})),
        ),
        Event::Error("error[E0308]: mismatched types\n  --> src/parse.rs:3".into()),
        Event::Call(
            "Edit",
            json(serde_json::json!({"file_path": "/w/src/parse.rs", "old_string": "a"})),
        ),
        Event::Call(
            "TodoWrite",
            json(serde_json::json!({"todos": [
            {"content": "accept tabs", "status": "completed"},
            {"content": "add a test", "status": "in_progress"},
            {"content": "update docs", "status": "pending"}]})),
        ),
        Event::Text("Tabs are accepted; writing the test now.".into()),
    ];
    let summary = extractive_summary(&records(&events));
    let formatted = format_compact_summary(&summary.text);
    let expected = "Summary:
1. Primary Request and Intent:
   - Make the parser accept tabs

2. Key Technical Concepts:
   (not extracted: this summary quotes the records and does not interpret them)

3. Files and Code Sections:
   - /w/src/parse.rs (Read, Edit)

4. Errors and Fixes:
   - error[E0308]: mismatched types (Bash)

5. Problem Solving:
   Commands run:
   - cargo test […]

6. All User Messages:
   - Make the parser accept tabs

7. Pending Tasks:
   - add a test (in_progress)
   - update docs (pending)

8. Current Work:
   - Tabs are accepted; writing the test now.

9. Optional Next Step:
   - add a test (in_progress)";
    assert_eq!(formatted, expected);
    let indices: Vec<_> = summary.sources.iter().map(|(_, i)| *i).collect();
    assert_eq!(indices, [0, 1, 3, 2, 0, 5, 5, 6, 5]);
}
