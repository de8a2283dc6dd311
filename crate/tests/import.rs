//! Importing session logs: the hand-written fixtures of `tests/fixtures/import/` (in our own
//! words, shaped as Claude Code and Codex write their logs) cover the edge cases: a line
//! that is not JSON, an unknown line type, a rewound branch, a subagent's line, a truncated
//! last line, a compaction, a file seen in part, plans rejected with and without a stop,
//! Codex's settings changes, its compactions in the middle of a turn (local and remote), the
//! global AGENTS.md, an exec output the client cut before recording it, and Codex 0.171.0's
//! rollout (prompts as response items alone, its new line types).

use std::fs;
use std::path::PathBuf;

use context_assembly::import::{import_session, Imported, LogFormat, SessionImporter, WarningKind};
use context_assembly::scenario::{run_scenario, MAX_STEPS};
use serde_json::{json, Value};

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/import")
        .join(name);
    fs::read_to_string(path).unwrap()
}

fn document(imported: &Imported) -> Value {
    serde_json::from_str(&imported.scenario_json).unwrap()
}

fn kinds(document: &Value) -> Vec<&str> {
    document["steps"]
        .as_array()
        .unwrap()
        .iter()
        .map(|step| step["kind"].as_str().unwrap())
        .collect()
}

fn warnings(imported: &Imported) -> Vec<(usize, WarningKind)> {
    imported.warnings.iter().map(|w| (w.line, w.kind)).collect()
}

#[test]
fn a_claude_code_log_becomes_its_main_thread() {
    let imported = import_session(&fixture("claude-code-session.jsonl"), None).unwrap();
    assert_eq!(imported.format, LogFormat::ClaudeCode);
    let doc = document(&imported);
    assert_eq!(doc["profile"], "claude-code");
    assert_eq!(doc["cwd"], "/work/shop");
    // The home and the transcript's place come from the path the summary names.
    assert_eq!(doc["home"], "/home/dev");
    assert_eq!(
        doc["config"],
        json!({
            "permissionMode": "default",
            "autoCompact": false,
            "transcriptPath": "/home/dev/.claude/projects/-work-shop/s-1.jsonl"
        })
    );
    assert_eq!(doc["startMs"], 1_764_579_600_000_u64);
    assert_eq!(
        kinds(&doc),
        [
            "user",
            "assistant",
            "assistant",
            "assistant",
            "advanceTime",
            "setMode",
            "user",
            "assistant",
            "advanceTime",
            "assistant",
            "advanceTime",
            "compact",
            "advanceTime",
            "user",
            "assistant",
            "advanceTime",
            "setMode",
            "user",
            "assistant",
            "assistant"
        ]
    );
    let steps = &doc["steps"];
    // A rejected plan carries the user's words; one the user stopped the turn at does not.
    assert_eq!(
        steps[18]["blocks"][0]["approval"],
        json!({ "approved": false, "feedback": "Use the shared rounding helper." })
    );
    assert_eq!(
        steps[19]["blocks"][0]["approval"],
        json!({ "approved": false })
    );
    // The three lines of one response are one step, whatever branch their results hang on.
    assert_eq!(steps[1]["blocks"].as_array().unwrap().len(), 3);
    // The rewound prompt is not there; the one that replaced it is, after the mode change.
    assert_eq!(steps[6]["prompt"], "Keep the rounding; now run the tests.");
    assert_eq!(steps[5]["mode"], "acceptEdits");
    // Tools the engine cannot run keep the output the log shows; Read and Edit run again.
    assert_eq!(steps[7]["blocks"][0]["output"], "3 passing");
    assert!(steps[2]["blocks"][0].get("output").is_none());
    assert_eq!(
        steps[11],
        json!({
            "kind": "compact",
            "trigger": "manual",
            "instructions": "Mention the tests.",
            "summary": "<summary>The cart rounds prices to cents and the tests pass.</summary>"
        })
    );
    // Files: the Read result whole, the partial one with blank lines around what was seen.
    assert_eq!(
        doc["files"]["/work/shop/src/cart.ts"],
        "export const total = (items) => items.reduce((s, i) => s + i.price, 0);\n"
    );
    assert_eq!(
        doc["files"]["/work/shop/src/tax.ts"],
        format!(
            "{}export const rate = 0.2;\nexport const round = (x) => x;\n",
            "\n".repeat(9)
        )
    );
    assert_eq!(
        warnings(&imported),
        [
            (7, WarningKind::PartialFile),
            (8, WarningKind::BadLine),
            (12, WarningKind::Unknown),
            (13, WarningKind::AbandonedBranch),
            (17, WarningKind::Sidechain),
            (33, WarningKind::TruncatedLine),
        ]
    );
    // One figure per response of the main thread, tied to its step.
    let recorded: Vec<(Option<usize>, u64, u64, u64, u64)> = imported
        .recorded
        .iter()
        .map(|r| {
            (
                r.step,
                r.input_tokens,
                r.cache_creation_tokens,
                r.cache_read_tokens,
                r.output_tokens,
            )
        })
        .collect();
    assert_eq!(
        recorded,
        [
            (Some(1), 120, 80, 0, 31),
            (Some(2), 400, 0, 200, 50),
            (Some(3), 450, 0, 600, 12),
            (Some(7), 520, 0, 600, 20),
            (Some(9), 40, 30, 1100, 8),
            (Some(14), 300, 0, 0, 7),
            (Some(18), 90, 0, 800, 15),
            (Some(19), 90, 0, 800, 15),
        ]
    );
    assert_eq!(imported.recorded[4].prompt_tokens(), 1170);
    run_scenario(&imported.scenario).unwrap();
}

#[test]
fn a_codex_rollout_becomes_its_turns() {
    let imported = import_session(&fixture("codex-rollout.jsonl"), None).unwrap();
    assert_eq!(imported.format, LogFormat::Codex);
    let doc = document(&imported);
    // Written by a release before 0.162.0 (a test version): it replays under 0.139.0's preset.
    assert_eq!(doc["profile"], "codex-0.139.0");
    assert_eq!(doc["cwd"], "/work/api");
    // The client reports 95% of the window.
    assert_eq!(doc["config"]["contextWindow"], 100_000);
    assert_eq!(
        doc["files"],
        json!({ "/work/api/AGENTS.md": "Keep handlers small.\n" })
    );
    assert_eq!(
        kinds(&doc),
        [
            "user",
            "assistant",
            "assistant",
            "advanceTime",
            "turnSettings",
            "user",
            "assistant",
            "assistant"
        ]
    );
    let steps = &doc["steps"];
    // The exec header goes; the engine writes its own.
    assert_eq!(steps[1]["blocks"][0]["output"], "users.ts\norders.ts\n");
    // The first turn context matches the engine's defaults; the second changes the model
    // (whose instructions come from the `<model_switch>` message before it), the approvals and
    // the sandbox, and the developer message's untagged part is the developer instructions.
    assert_eq!(
        steps[4],
        json!({
            "kind": "turnSettings",
            "model": "gpt-5.4",
            "approvalPolicy": "never",
            "sandboxMode": "danger-full-access",
            "developerInstructions": "Prefer small diffs.",
            "modelInstructions": "The second model's rules, also ours."
        })
    );
    // The summary request's answer is the compaction's summary, not a turn. The client
    // compacted in the middle of the turn, after the call's output and before the request
    // that sends it: the compaction goes on the call's step, before its tool round.
    assert_eq!(
        steps[6]["compactBeforeToolRound"],
        json!({
            "policy": "codex.local",
            "trigger": "auto",
            "summary": "Routes listed, health route under way.",
            "params": { "midTurn": true }
        })
    );
    assert_eq!(
        warnings(&imported),
        [(16, WarningKind::BadLine), (31, WarningKind::Unknown)]
    );
    let recorded: Vec<(Option<usize>, bool, u64, u64)> = imported
        .recorded
        .iter()
        .map(|r| (r.step, r.summary, r.input_tokens, r.cache_read_tokens))
        .collect();
    // The repeated count (line 12) is the client refreshing, not a request.
    assert_eq!(
        recorded,
        [
            (Some(1), false, 1000, 0),
            (Some(2), false, 160, 900),
            (Some(6), false, 150, 1000),
            (Some(6), true, 1180, 0),
            (Some(7), false, 380, 0),
        ]
    );
    assert_eq!(imported.recorded[0].context_window, Some(95_000));
    let trace = run_scenario(&imported.scenario).unwrap();
    let tool_round = &trace.steps[6].turn;
    assert_eq!(tool_round.round.as_str(), "tool-round");
    assert_eq!(
        tool_round.compaction.len(),
        1,
        "compacted before the request"
    );
    assert!(tool_round.compaction[0].applied);
    // The request after it has the summary, not the call it summarised.
    let request = serde_json::to_string(&trace.request(6)).unwrap();
    assert!(
        request.contains("Routes listed, health route under way."),
        "{request}"
    );
    assert!(!request.contains("touch routes/health.ts"), "{request}");
}

/// A rollout shaped as Codex 0.171.0 writes it: the prompts only as `user` response items
/// (0.139.0 also wrote a `user_message` event for each: `codex-rollout.jsonl`, read once), and
/// `world_state` and `token_usage_record` lines, which restate what other lines carry.
#[test]
fn a_codex_0_171_0_rollout_finds_its_prompts_without_unknown_lines() {
    let imported = import_session(&fixture("codex-0.171.0-rollout.jsonl"), None).unwrap();
    assert_eq!(imported.format, LogFormat::Codex);
    assert_eq!(warnings(&imported), []);
    let doc = document(&imported);
    assert_eq!(doc["profile"], "codex");
    assert_eq!(
        kinds(&doc),
        [
            "turnSettings",
            "user",
            "assistant",
            "assistant",
            "advanceTime",
            "compact",
            "user",
            "assistant"
        ]
    );
    let steps = &doc["steps"];
    assert_eq!(steps[1]["prompt"], "Count the products.");
    assert_eq!(steps[2]["blocks"][0]["output"], "42 products.csv\n");
    assert_eq!(steps[5]["summary"], "The products were counted: 42.");
    assert_eq!(steps[5]["params"], json!({ "midTurn": false }));
    assert_eq!(steps[6]["prompt"], "Now list the prices.");
    assert_eq!(
        doc["files"],
        json!({ "/work/shop/AGENTS.md": "Run the linter first.\n" })
    );
    let recorded: Vec<(Option<usize>, bool, u64)> = (imported.recorded.iter())
        .map(|r| (r.step, r.summary, r.input_tokens))
        .collect();
    assert_eq!(
        recorded,
        [
            (Some(2), false, 1200),
            (Some(3), false, 1300),
            (Some(5), true, 1400),
            (Some(7), false, 900)
        ]
    );
    run_scenario(&imported.scenario).unwrap();
}

/// 0.171.0 heads the global AGENTS.md sent alone (no project doc) without a directory: it is
/// the global doc, not a prompt.
#[test]
fn claude_code_2_1_332_bookkeeping_lines_are_known_not_unknown() {
    // The line types 2.1.332 writes beside its records (issue 26): each is recognised and
    // left out, so "unknown line type" stays for types no supported release writes.
    let record = r#"{"type":"user","uuid":"u1","parentUuid":null,"isSidechain":false,"cwd":"/w","sessionId":"s","timestamp":"2026-11-30T09:00:00.000Z","version":"2.1.332","message":{"role":"user","content":"hello"}}"#;
    let mut log = String::from(record);
    for kind in [
        "tools-used",
        "atis-latch",
        "api-request-shape",
        "api-request-blob",
        "api-request",
        "cost-state",
    ] {
        log.push_str(&format!("\n{{\"type\":\"{kind}\",\"sessionId\":\"s\"}}"));
    }
    log.push_str("\n{\"type\":\"not-a-type-any-release-writes\"}\n");
    let imported = import_session(&log, None).unwrap();
    assert_eq!(warnings(&imported), [(8, WarningKind::Unknown)]);
    assert_eq!(kinds(&document(&imported)), ["user"]);
}

#[test]
fn an_untitled_agents_md_message_is_the_global_doc() {
    let line = |kind: &str, payload: Value| {
        json!({ "timestamp": "2026-11-25T09:00:00.000Z", "type": kind, "payload": payload })
            .to_string()
    };
    let user = |text: &str| json!({ "type": "message", "role": "user", "content": [{ "type": "input_text", "text": text }] });
    let log = [
        line(
            "session_meta",
            json!({ "cwd": "/work/shop", "cli_version": "0.171.0" }),
        ),
        line(
            "response_item",
            user("# AGENTS.md instructions\n\n<INSTRUCTIONS>\nMy own habits.\n</INSTRUCTIONS>"),
        ),
        line("response_item", user("Go.")),
    ]
    .join("\n");
    let imported = import_session(&log, None).unwrap();
    let doc = document(&imported);
    assert_eq!(kinds(&doc), ["user"]);
    assert_eq!(doc["steps"][0]["prompt"], "Go.");
    assert_eq!(
        doc["files"],
        json!({ "/home/user/.codex/AGENTS.md": "My own habits." })
    );
}

#[test]
fn chunks_cut_anywhere_import_as_the_whole_text() {
    for name in [
        "claude-code-session.jsonl",
        "codex-rollout.jsonl",
        "codex-0.171.0-rollout.jsonl",
    ] {
        let text = fixture(name);
        let whole = import_session(&text, None).unwrap();
        for size in [1, 7, 64, 4096] {
            let mut importer = SessionImporter::new(None);
            for chunk in text.as_bytes().chunks(size) {
                importer.push_chunk(chunk);
            }
            assert_eq!(importer.progress().bytes, text.len() as u64);
            assert_eq!(
                importer.finish().unwrap(),
                whole,
                "{name} in chunks of {size}"
            );
        }
        let mut importer = SessionImporter::new(Some(whole.format));
        let mut lines = text.split('\n').peekable();
        while let Some(line) = lines.next() {
            if lines.peek().is_some() {
                importer.push_line(line);
            } else {
                importer.push_chunk(line.as_bytes());
            }
        }
        assert_eq!(importer.finish().unwrap(), whole, "{name} line by line");
    }
}

#[test]
fn nothing_readable_is_one_error_naming_the_first_bad_line() {
    let error = import_session("hello\nworld\n", None).unwrap_err();
    assert!(
        error.to_string().starts_with(
            "session log line 1: invalid JSON: expected value at line 1 column 1; nothing could \
             be read: expected one JSON object per line"
        ),
        "{error}"
    );
    let error = import_session("{\"a\":1}\n{\"b\":2}\n", None).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("session log line 1: not recognisable as either format"),
        "{error}"
    );
    let error = import_session("", Some(LogFormat::Codex)).unwrap_err();
    assert_eq!(
        error.to_string(),
        "session log: no lines; nothing could be read: expected a Codex rollout line: a JSON \
         object { \"timestamp\", \"type\", \"payload\" }"
    );
    let error = import_session("{\"type\":\"user\",\"uuid\":\"u1\",\"mess", None).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("session log line 1: invalid JSON"),
        "{error}"
    );
}

#[test]
fn a_log_past_the_format_limits_keeps_what_one_scenario_holds() {
    let mut importer = SessionImporter::new(None);
    let mut parent = String::from("null");
    for n in 0..MAX_STEPS + 50 {
        let uuid = format!("\"u{n}\"");
        importer.push_line(&format!(
            "{{\"type\":\"user\",\"uuid\":{uuid},\"parentUuid\":{parent},\"cwd\":\"/w\",\"message\":{{\"role\":\"user\",\"content\":\"prompt {n}\"}}}}"
        ));
        parent = uuid;
    }
    let imported = importer.finish().unwrap();
    assert_eq!(imported.scenario.steps.len(), MAX_STEPS);
    let last = imported.warnings.last().unwrap();
    assert_eq!(last.kind, WarningKind::OverLimit);
    assert_eq!(last.line, MAX_STEPS + 1);
    assert!(
        last.message.ends_with("50 steps from here on are left out"),
        "{}",
        last.message
    );
}

/// A headless run compacts in the middle of a turn and never writes the record its boundary
/// names as logical parent: the session goes on from the record written before the boundary,
/// so the turns before the compaction stay on the main thread.
#[test]
fn a_boundary_whose_logical_parent_was_never_written_continues_the_thread() {
    let lines = [
        json!({"type": "user", "uuid": "u1", "parentUuid": null, "cwd": "/w", "timestamp": "2026-01-01T00:00:00.000Z",
               "message": {"role": "user", "content": "First question"}}),
        json!({"type": "assistant", "uuid": "a1", "parentUuid": "u1", "timestamp": "2026-01-01T00:00:01.000Z",
               "message": {"id": "m1", "role": "assistant", "content": [{"type": "text", "text": "First answer"}],
                           "usage": {"input_tokens": 10, "output_tokens": 2}}}),
        json!({"type": "system", "subtype": "compact_boundary", "uuid": "b1", "parentUuid": null,
               "logicalParentUuid": "never-written", "timestamp": "2026-01-01T00:00:02.000Z",
               "compactMetadata": {"trigger": "auto", "preTokens": 900}}),
        json!({"type": "user", "uuid": "s1", "parentUuid": "b1", "isCompactSummary": true, "timestamp": "2026-01-01T00:00:03.000Z",
               "message": {"role": "user", "content": "Summary:\nWe talked."}}),
        json!({"type": "user", "uuid": "u2", "parentUuid": "s1", "timestamp": "2026-01-01T00:00:04.000Z",
               "message": {"role": "user", "content": "Second question"}}),
    ];
    let text: String = lines.iter().map(|line| format!("{line}\n")).collect();
    let imported = import_session(&text, Some(LogFormat::ClaudeCode)).unwrap();
    let prompts: Vec<String> = document(&imported)["steps"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|step| step["kind"] == "user")
        .map(|step| step["prompt"].as_str().unwrap_or_default().to_string())
        .collect();
    assert_eq!(prompts, ["First question", "Second question"]);
    assert_on_main_thread(&imported);
}

/// No line of the log was left out as a branch the session left.
fn assert_on_main_thread(imported: &Imported) {
    let abandoned = warnings(imported)
        .iter()
        .any(|(_, kind)| *kind == WarningKind::AbandonedBranch);
    assert!(!abandoned, "{:?}", imported.warnings);
}

/// The step kinds of an imported log, prompts and answers by their text.
fn outline_of(imported: &Imported) -> Vec<String> {
    (document(imported)["steps"].as_array().unwrap().iter())
        .map(|step| match step["kind"].as_str().unwrap_or_default() {
            "user" => format!("user {}", step["prompt"].as_str().unwrap_or_default()),
            "assistant" => format!(
                "assistant {}",
                step["blocks"][0]["text"].as_str().unwrap_or("call")
            ),
            other => String::from(other),
        })
        .collect()
}

/// 2.1.88's terminal UI writes an auto-compaction as a branch of its own: the boundary under
/// the record before it and the summary under the boundary, while the turn's answer names the
/// record before the boundary as its parent. Whichever branch the last record leads back to,
/// the compaction and the answer both stay, the compaction first.
#[test]
fn a_compaction_on_a_side_branch_of_the_thread_is_kept_in_place() {
    let record = |kind: &str, uuid: &str, parent: Option<&str>, extra: Value| {
        let mut line = json!({"type": kind, "uuid": uuid, "parentUuid": parent, "cwd": "/w",
                              "timestamp": "2026-01-01T00:00:00.000Z", "entrypoint": "cli"});
        line.as_object_mut()
            .unwrap()
            .extend(extra.as_object().unwrap().clone());
        line
    };
    let prompt = |uuid: &str, parent: Option<&str>, text: &str| {
        record(
            "user",
            uuid,
            parent,
            json!({"message": {"role": "user", "content": text}}),
        )
    };
    let answer = |uuid: &str, parent: &str, id: &str, text: &str| {
        record(
            "assistant",
            uuid,
            Some(parent),
            json!({"message": {"id": id, "role": "assistant",
            "content": [{"type": "text", "text": text}], "usage": {"input_tokens": 10, "output_tokens": 2}}}),
        )
    };
    let boundary = record(
        "system",
        "b1",
        None,
        json!({"subtype": "compact_boundary",
        "logicalParentUuid": "u2", "compactMetadata": {"trigger": "auto", "preTokens": 900}}),
    );
    let summary = record(
        "user",
        "s1",
        Some("b1"),
        json!({"isCompactSummary": true,
        "message": {"role": "user", "content": "Summary:\nWe talked."}}),
    );
    let head = [
        prompt("u1", None, "First"),
        answer("a1", "u1", "m1", "One."),
        prompt("u2", Some("a1"), "Second"),
    ];
    // The turn goes on after the compaction: the last record leads around the boundary.
    let around = [
        boundary.clone(),
        answer("a2", "u2", "m2", "Two."),
        summary.clone(),
        prompt("u3", Some("a2"), "Third"),
    ];
    // The session ends with the compaction: the last record leads through it, the answer is off.
    let through = [boundary, answer("a2", "u2", "m2", "Two."), summary];
    for tail in [&around[..], &through[..]] {
        let text: String = head
            .iter()
            .chain(tail)
            .map(|line| format!("{line}\n"))
            .collect();
        let imported = import_session(&text, Some(LogFormat::ClaudeCode)).unwrap();
        let outline = outline_of(&imported);
        let compact = outline
            .iter()
            .position(|s| s == "compact")
            .unwrap_or_else(|| panic!("{outline:?}"));
        let second = outline.iter().position(|s| s == "user Second").unwrap();
        let two = outline
            .iter()
            .position(|s| s == "assistant Two.")
            .unwrap_or_else(|| panic!("{outline:?}"));
        assert!(second < compact && compact < two, "{outline:?}");
        assert_on_main_thread(&imported);
    }
}

/// Each recorded request's injected items as `kind: label`, or `None` where the log does not
/// record them.
fn injected(imported: &Imported) -> Vec<Option<Vec<String>>> {
    imported
        .recorded
        .iter()
        .map(|usage| {
            usage.injected.as_ref().map(|items| {
                items
                    .iter()
                    .map(|item| format!("{}: {}", item.kind, item.label))
                    .collect()
            })
        })
        .collect()
}

#[test]
fn a_claude_code_log_shows_what_was_injected_where_it_records_it() {
    let imported = import_session(&fixture("claude-code-injected.jsonl"), None).unwrap();
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    assert_eq!(
        injected(&imported),
        [
            Some(vec![
                "reminder: A note our test made up: the watering rota changed last week…".into(),
                "meta: Made-up meta line: the gardener prefers short answers.".into(),
                "file: /work/garden/beds.md".into(),
            ]),
            Some(vec![]),
        ]
    );
    // The reminder beside the prompt is not part of the prompt.
    let document = document(&imported);
    assert_eq!(
        document["steps"][0]["prompt"],
        "Which beds need water today? See @beds.md"
    );
    // A log that records no injected item anywhere says nothing either way.
    let silent = concat!(
        r#"{"type":"user","uuid":"u1","parentUuid":null,"cwd":"/w","timestamp":"2025-12-01T10:00:00.000Z","message":{"role":"user","content":"Hello"}}"#,
        "\n",
        r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","cwd":"/w","timestamp":"2025-12-01T10:00:01.000Z","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Hi."}],"usage":{"input_tokens":12,"output_tokens":3}}}"#,
        "\n",
    );
    let silent = import_session(silent, None).unwrap();
    assert_eq!(silent.recorded[0].injected, None);
    // Nor does one whose only such lines are meta lines (a caveat before a local command's
    // output): it shows nothing of the attachments.
    let caveat = import_session(&fixture("claude-code-session.jsonl"), None).unwrap();
    assert!(caveat.recorded.iter().all(|usage| usage.injected.is_none()));
}

#[test]
fn a_codex_rollout_shows_the_context_messages_of_each_request() {
    let imported = import_session(&fixture("codex-injected.jsonl"), None).unwrap();
    assert_eq!(
        injected(&imported),
        [
            Some(vec![
                "permissions: Made-up rules for this test.".into(),
                "environment_context: environment_context".into(),
            ]),
            Some(vec![]),
        ]
    );
}

/// The client cut a long exec output before recording it: the scenario stands in for the
/// cut middle with blank lines as long as it was, so the engine's own cut gives back the
/// recorded text, counts included, rather than cutting the cut text again.
#[test]
fn an_exec_output_the_client_cut_replays_as_recorded() {
    let log = fixture("codex-cut-output.jsonl");
    let imported = import_session(&log, None).unwrap();
    assert_eq!(warnings(&imported), [(6, WarningKind::LeftOut)]);
    let recorded_line: Value = serde_json::from_str(log.lines().nth(5).unwrap()).unwrap();
    let recorded = recorded_line["payload"]["output"].as_str().unwrap();
    let doc = document(&imported);
    let output = doc["steps"][1]["blocks"][0]["output"].as_str().unwrap();
    assert_eq!(output.len(), 35_974 * 4, "as long as the original");
    assert_eq!(
        output.lines().count(),
        5_000,
        "as many lines as the original"
    );
    let trace = run_scenario(&imported.scenario).unwrap();
    let replayed = &trace.steps[1].turn.tool_results[0].content;
    // The chunk id and the wall time are the engine's own.
    let from_exit_code = |text: &str| {
        let at = text.find("Process exited").unwrap();
        String::from(&text[at..])
    };
    assert_eq!(from_exit_code(replayed), from_exit_code(recorded));
}

/// The AGENTS.md text holds the user's global doc before the project-doc separator: it is
/// the Codex home's AGENTS.md (outside the project docs' budget), the rest the cwd's.
#[test]
fn the_global_agents_md_goes_to_the_codex_home() {
    let imported = import_session(&fixture("codex-global-agents-md.jsonl"), None).unwrap();
    assert_eq!(warnings(&imported), []);
    assert_eq!(
        document(&imported)["files"],
        json!({
            "/home/user/.codex/AGENTS.md": "My own habits: short commits.",
            "/work/shop/AGENTS.md": "The shop's rules: no new dependencies.\n"
        })
    );
    let trace = run_scenario(&imported.scenario).unwrap();
    let request = (0..trace.steps.len())
        .find_map(|i| trace.request(i))
        .unwrap();
    let request = serde_json::to_string(&request).unwrap();
    let joined = serde_json::to_string(
        "My own habits: short commits.\n\n--- project-doc ---\n\nThe shop's rules: no new \
         dependencies.\n",
    )
    .unwrap();
    assert!(request.contains(&joined[1..joined.len() - 1]), "{request}");
}

/// A remote compaction (the history keeps the server's opaque compaction item, no summary
/// request before it) is `codex.remote`, without the summary the log cannot show; in the
/// middle of the turn, before the tool round's request.
#[test]
fn a_remote_compaction_is_codex_remote() {
    let imported = import_session(&fixture("codex-remote-compaction.jsonl"), None).unwrap();
    assert_eq!(warnings(&imported), []);
    let doc = document(&imported);
    assert_eq!(kinds(&doc), ["user", "assistant", "assistant"]);
    assert_eq!(
        doc["steps"][1]["compactBeforeToolRound"],
        json!({ "policy": "codex.remote", "trigger": "auto", "params": { "midTurn": true } })
    );
    let trace = run_scenario(&imported.scenario).unwrap();
    assert_eq!(trace.steps[1].turn.compaction.len(), 1);
}

#[test]
fn a_2_1_332_log_s_attachments_rebuild_the_workspace_the_client_saw() {
    let imported = import_session(&fixture("claude-code-2.1.332-attachments.jsonl"), None).unwrap();
    assert!(imported.warnings.is_empty(), "{:?}", imported.warnings);
    let doc = document(&imported);
    // The memory files the client loaded, and the mentioned file's content, are the
    // workspace's; the user's memory tells where the home is.
    assert_eq!(doc["home"], "/home/gardener");
    assert_eq!(
        doc["files"]["/home/gardener/.claude/CLAUDE.md"],
        "Answer in one line."
    );
    assert_eq!(doc["files"]["/work/garden/CLAUDE.md"], "Water before noon.");
    assert_eq!(
        doc["files"]["/work/garden/notes.txt"],
        "tomatoes\nbeans\nherbs"
    );
    // The recorded git status, without the client's opening paragraph.
    assert_eq!(
        doc["config"]["gitStatus"],
        "Current branch: main\n\nStatus:\nM notes.txt"
    );
    // The change note on the file the agent edited becomes the change, made before the
    // prompt that noticed it, a moment after the reads before it.
    assert_eq!(
        kinds(&doc),
        [
            "user",
            "advanceTime",
            "assistant",
            "advanceTime",
            "assistant",
            "advanceTime",
            "advanceTime",
            "writeFile",
            "user",
            "advanceTime",
            "assistant"
        ]
    );
    assert_eq!(doc["steps"][6]["ms"], 1);
    // The note's one line in place of the agent's "green beans", the rest as it left them.
    assert_eq!(doc["steps"][7]["content"], "tomatoes\nbroad beans\nherbs");
    let trace = run_scenario(&imported.scenario).unwrap();
    let noticed: Vec<&str> = trace.steps[8]
        .turn
        .attachments
        .iter()
        .map(|attachment| attachment.kind.as_str())
        .collect();
    assert_eq!(noticed, ["edited_text_file"]);
    // The system prompt's snapshot is not an injected message, and the model's identity
    // is a part of the environment note.
    assert_eq!(
        injected(&imported)[0].as_ref().unwrap(),
        &[
            "environment: environment",
            "environment: model",
            "instructions: instructions",
            "session_context: session_context",
            "deferred_tools_delta: deferred_tools_delta",
            "agent_listing_delta: agent_listing_delta",
            "date: date",
            "remote_session_change: remote_session_change",
            "file: /work/garden/notes.txt",
        ]
    );
}
