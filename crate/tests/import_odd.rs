//! Imports degrade, never fail whole: a tool-call id seen twice, a byte-order mark, a line
//! past the size limits and lines of odd shapes each cost a warning that says what was kept,
//! and the scenario built still reads back and replays. The logs here are written for these
//! tests, shaped as Claude Code and Codex write theirs.

use std::fs;
use std::path::PathBuf;

use context_assembly::import::{
    import_session, Imported, SessionImporter, WarningKind, MAX_LINE_BYTES, MAX_LINE_VALUES,
};
use context_assembly::scenario::run_scenario;
use serde_json::{json, Value};

fn fixture(name: &str) -> String {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures/import")
        .join(name);
    fs::read_to_string(path).unwrap()
}

const FIXTURES: [&str; 8] = [
    "claude-code-session.jsonl",
    "claude-code-injected.jsonl",
    "claude-code-2.1.332-attachments.jsonl",
    "codex-rollout.jsonl",
    "codex-cut-output.jsonl",
    "codex-global-agents-md.jsonl",
    "codex-injected.jsonl",
    "codex-remote-compaction.jsonl",
];

/// A log of one JSON value per line.
fn log(lines: &[Value]) -> String {
    lines.iter().map(|line| format!("{line}\n")).collect()
}

/// Imports `text` and replays what it gave: both must work.
fn import_and_replay(text: &str) -> Imported {
    let imported = import_session(text, None).unwrap();
    run_scenario(&imported.scenario).unwrap();
    imported
}

fn steps(imported: &Imported) -> Vec<Value> {
    let document: Value = serde_json::from_str(&imported.scenario_json).unwrap();
    document["steps"].as_array().unwrap().clone()
}

/// The warnings of one kind: (line, message).
fn warnings(imported: &Imported, kind: WarningKind) -> Vec<(usize, &str)> {
    imported
        .warnings
        .iter()
        .filter(|warning| warning.kind == kind)
        .map(|warning| (warning.line, warning.message.as_str()))
        .collect()
}

/// A Claude Code record.
fn claude(kind: &str, uuid: &str, parent: Option<&str>, message: Value) -> Value {
    json!({
        "type": kind, "uuid": uuid, "parentUuid": parent, "isSidechain": false,
        "cwd": "/work/shop", "sessionId": "s", "timestamp": "2025-12-01T09:00:00.000Z",
        "message": message,
    })
}

fn prompt(uuid: &str, parent: Option<&str>, text: &str) -> Value {
    claude(
        "user",
        uuid,
        parent,
        json!({ "role": "user", "content": text }),
    )
}

fn answer(uuid: &str, parent: &str, id: &str, content: Value) -> Value {
    claude(
        "assistant",
        uuid,
        Some(parent),
        json!({ "id": id, "role": "assistant", "model": "m", "content": [content],
                "usage": { "input_tokens": 10, "output_tokens": 2 } }),
    )
}

fn bash(id: &str, command: &str) -> Value {
    json!({ "type": "tool_use", "id": id, "name": "Bash", "input": { "command": command } })
}

fn result(uuid: &str, parent: &str, id: &str, output: &str) -> Value {
    let mut line = claude(
        "user",
        uuid,
        Some(parent),
        json!({ "role": "user", "content": [{ "type": "tool_result", "tool_use_id": id, "content": output }] }),
    );
    line["toolUseResult"] = json!({ "stdout": output, "stderr": "" });
    line
}

/// The tool calls of the assistant steps: (id, output).
fn calls(imported: &Imported) -> Vec<(String, Value)> {
    steps(imported)
        .iter()
        .filter_map(|step| step["blocks"].as_array().cloned())
        .flatten()
        .filter(|block| block["type"] == "tool_use")
        .map(|block| {
            (
                block["id"].as_str().unwrap().into(),
                block["output"].clone(),
            )
        })
        .collect()
}

#[test]
fn a_claude_code_call_reusing_an_id_is_kept_under_a_new_one_with_its_result() {
    let text = log(&[
        prompt("u1", None, "Run the checks."),
        answer("a1", "u1", "m1", bash("t1", "make check")),
        result("r1", "a1", "t1", "checks pass"),
        answer("a2", "r1", "m2", bash("t1", "make lint")),
        result("r2", "a2", "t1", "lint is clean"),
        answer(
            "a3",
            "r2",
            "m3",
            json!({ "type": "text", "text": "Both pass." }),
        ),
    ]);
    let imported = import_and_replay(&text);
    assert_eq!(
        calls(&imported),
        [
            ("t1".into(), json!("checks pass")),
            ("t1~2".into(), json!("lint is clean"))
        ]
    );
    assert_eq!(
        warnings(&imported, WarningKind::DuplicateId),
        [(
            4,
            "tool call \"t1\" (Bash) reuses the id of a different call on line 2: both are \
             kept, this one as \"t1~2\", with the result that answers it"
        )]
    );
}

#[test]
fn a_claude_code_response_or_result_logged_twice_is_kept_once() {
    let call = answer("a1", "u1", "m1", bash("t1", "make check"));
    let mut copy = call.clone();
    copy["uuid"] = json!("a1-copy");
    copy["parentUuid"] = json!("a1");
    let text = log(&[
        prompt("u1", None, "Run the checks."),
        call,
        copy,
        result("r1", "a1", "t1", "checks pass"),
        result("r1-again", "a1", "t1", "checks pass, run again"),
        answer(
            "a2",
            "r1",
            "m2",
            json!({ "type": "text", "text": "They pass." }),
        ),
    ]);
    let imported = import_and_replay(&text);
    assert_eq!(calls(&imported), [("t1".into(), json!("checks pass"))]);
    assert_eq!(
        warnings(&imported, WarningKind::DuplicateId),
        [
            (
                3,
                "tool call \"t1\" (Bash) is written again, the same call as on line 2: the one \
                 on line 2 is kept, this repeat is left out"
            ),
            (
                5,
                "a second result for tool call \"t1\": the one on line 4 answers the call and is \
                 kept, this one is left out"
            ),
        ]
    );
}

/// A Codex rollout line.
fn codex(kind: &str, payload: Value) -> Value {
    json!({ "timestamp": "2025-12-01T10:00:00.000Z", "type": kind, "payload": payload })
}

fn codex_call(id: &str, arguments: &str) -> Value {
    codex(
        "response_item",
        json!({ "type": "function_call", "name": "exec_command", "arguments": arguments, "call_id": id }),
    )
}

fn codex_output(id: &str, output: &str) -> Value {
    codex(
        "response_item",
        json!({ "type": "function_call_output", "call_id": id, "output": output }),
    )
}

fn codex_prompt(text: &str) -> Value {
    codex(
        "event_msg",
        json!({ "type": "user_message", "message": text }),
    )
}

#[test]
fn a_codex_call_or_output_seen_twice_is_kept_once_and_a_reused_id_is_renamed() {
    let call = codex_call("c1", r#"{"cmd":"make check"}"#);
    let output = codex_output("c1", "checks pass");
    let text = log(&[
        codex("session_meta", json!({ "cwd": "/work/api" })),
        codex_prompt("Check it."),
        call.clone(),
        call,
        output.clone(),
        output,
        codex_prompt("And lint it."),
        codex_call("c1", r#"{"cmd":"make lint"}"#),
        codex_output("c1", "lint is clean"),
    ]);
    let imported = import_and_replay(&text);
    assert_eq!(
        calls(&imported),
        [
            ("c1".into(), json!("checks pass")),
            ("c1~2".into(), json!("lint is clean"))
        ]
    );
    assert_eq!(
        warnings(&imported, WarningKind::DuplicateId),
        [
            (
                4,
                "tool call \"c1\" (exec_command) is written again, the same call as on line 3: \
                 the one on line 3 is kept, this repeat is left out"
            ),
            (
                6,
                "a second output for call \"c1\": the first, on line 5, is kept; this one is left \
                 out"
            ),
            (
                8,
                "tool call \"c1\" (exec_command) reuses the id of a different call on line 3: \
                 both are kept, this one as \"c1~2\", with the result that answers it"
            ),
        ]
    );
}

#[test]
fn a_key_repeated_in_a_tool_input_keeps_its_last_value() {
    let claude_log = concat!(
        r#"{"type":"user","uuid":"u1","parentUuid":null,"cwd":"/w","message":{"role":"user","content":"Go."}}"#,
        "\n",
        r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","cwd":"/w","message":{"id":"m1","role":"assistant","content":[{"type":"tool_use","id":"t1","name":"Bash","input":{"command":"rm -rf /","command":"make"}}]}}"#,
        "\n",
    );
    let codex_log = log(&[
        codex("session_meta", json!({ "cwd": "/w" })),
        codex_prompt("Go."),
        codex_call("c1", r#"{"cmd":"a","timeout":1,"cmd":"b"}"#),
        codex_output("c1", "done"),
    ]);
    for (text, input) in [
        (claude_log.to_string(), json!({ "command": "make" })),
        (codex_log, json!({ "cmd": "b", "timeout": 1 })),
    ] {
        let imported = import_and_replay(&text);
        let steps = steps(&imported);
        let call = &steps
            .iter()
            .find(|step| step["kind"] == "assistant")
            .unwrap()["blocks"][0];
        assert_eq!(call["input"], input);
        let warning = &warnings(&imported, WarningKind::BadLine)[0];
        assert!(
            warning
                .1
                .ends_with("more than once: the last value is kept, as JSON.parse reads it"),
            "{warning:?}"
        );
    }
}

#[test]
fn a_byte_order_mark_is_skipped_whole_or_cut_across_chunks() {
    for name in FIXTURES {
        let text = fixture(name);
        let plain = import_session(&text, None).unwrap();
        let marked = format!("\u{feff}{text}");
        assert_eq!(import_session(&marked, None).unwrap(), plain, "{name}");
        for size in [1, 2, 5] {
            let mut importer = SessionImporter::new(None);
            for chunk in marked.as_bytes().chunks(size) {
                importer.push_chunk(chunk);
            }
            assert_eq!(
                importer.finish().unwrap(),
                plain,
                "{name} in chunks of {size}"
            );
        }
    }
}

/// A Claude Code log whose second prompt is `length` bytes long.
fn log_with_a_long_prompt(length: usize) -> (String, usize) {
    let head = log(&[
        prompt("u1", None, "First question."),
        answer(
            "a1",
            "u1",
            "m1",
            json!({ "type": "text", "text": "First answer." }),
        ),
    ]);
    // Written by hand rather than serialised: the text needs no escaping.
    let long = prompt("u2", Some("a1"), "").to_string().replace(
        r#""content":"""#,
        &format!(r#""content":"{}""#, "x".repeat(length)),
    );
    let tail = log(&[answer(
        "a2",
        "u2",
        "m2",
        json!({ "type": "text", "text": "Second answer." }),
    )]);
    (format!("{head}{long}\n{tail}"), long.len())
}

#[test]
fn a_line_past_the_limit_is_refused_and_its_record_keeps_the_thread() {
    let (text, length) = log_with_a_long_prompt(MAX_LINE_BYTES);
    let whole = import_and_replay(&text);
    let said: Vec<Value> = steps(&whole)
        .iter()
        .filter_map(|step| match step["kind"].as_str() {
            Some("user") => Some(step["prompt"].clone()),
            Some("assistant") => Some(step["blocks"][0]["text"].clone()),
            _ => None,
        })
        .collect();
    assert_eq!(
        said,
        [
            json!("First question."),
            json!("First answer."),
            json!("Second answer.")
        ]
    );
    assert_eq!(
        warnings(&whole, WarningKind::LineTooLong),
        [(
            3,
            format!(
                "a line of {length} bytes, over the 32 MiB a line may hold, not read: its \
                 content is left out; the record keeps its place in the thread"
            )
            .as_str()
        )]
    );
    let mut importer = SessionImporter::new(None);
    for chunk in text.as_bytes().chunks(1 << 16) {
        importer.push_chunk(chunk);
    }
    assert_eq!(importer.finish().unwrap(), whole, "streamed in chunks");
    let (under, _) = log_with_a_long_prompt(MAX_LINE_BYTES - 200);
    let read = import_session(&under, None).unwrap();
    assert!(warnings(&read, WarningKind::LineTooLong).is_empty());
    assert_eq!(
        steps(&read)[2]["kind"],
        "user",
        "a line under the limit is read"
    );
}

#[test]
fn a_long_line_of_too_many_values_is_refused() {
    let values = vec![0; MAX_LINE_VALUES as usize];
    let text = log(&[
        codex("session_meta", json!({ "cwd": "/w" })),
        codex(
            "event_msg",
            json!({ "type": "token_count", "rate_limits": values }),
        ),
        codex_prompt("Still read."),
    ]);
    let imported = import_and_replay(&text);
    let refused = warnings(&imported, WarningKind::LineTooLong);
    assert_eq!(refused.len(), 1);
    assert_eq!(refused[0].0, 2);
    assert!(
        refused[0].1.contains(&format!(
            "JSON values, over the {MAX_LINE_VALUES} a line may hold, not read: the line is left \
             out"
        )),
        "{}",
        refused[0].1
    );
    assert_eq!(steps(&imported)[0]["prompt"], "Still read.");
}

/// Every string, number and container of `value`, by its path.
fn places(value: &Value, path: &mut Vec<Value>, out: &mut Vec<Vec<Value>>) {
    let children: Vec<(Value, &Value)> = match value {
        Value::Object(map) => map.iter().map(|(k, v)| (json!(k), v)).collect(),
        Value::Array(items) => items
            .iter()
            .enumerate()
            .map(|(i, v)| (json!(i), v))
            .collect(),
        _ => return,
    };
    for (key, child) in children {
        path.push(key);
        out.push(path.clone());
        places(child, path, out);
        path.pop();
    }
}

fn replace(value: &mut Value, path: &[Value], with: Value) {
    let mut here = value;
    for key in path {
        here = match key {
            Value::String(key) => &mut here[key.as_str()],
            _ => &mut here[key.as_u64().unwrap() as usize],
        };
    }
    *here = with;
}

/// Lines of odd shapes and values (every value of every fixture line replaced in turn; lines
/// dropped, repeated, swapped; lines that are not objects or lack what their type needs):
/// each import works and replays.
#[test]
fn odd_lines_are_warnings_never_an_error() {
    let odd_values = [
        json!(""),
        json!("rel/a.ts"),
        json!("\u{0}"),
        json!(-1),
        json!(1.5),
        json!(u64::MAX),
        Value::Null,
        json!([]),
        json!({}),
    ];
    let odd_lines = [
        "[]",
        "7",
        "\"text\"",
        "{}",
        "null",
        r#"{"type":"user"}"#,
        r#"{"type":7}"#,
    ];
    let mut tried = 0;
    for name in FIXTURES {
        let lines: Vec<String> = fixture(name).lines().map(String::from).collect();
        let mut variants: Vec<(String, Vec<String>)> = Vec::new();
        for (at, line) in lines.iter().enumerate() {
            let mut dropped = lines.clone();
            dropped.remove(at);
            variants.push((format!("line {} dropped", at + 1), dropped));
            let mut repeated = lines.clone();
            repeated.insert(at, line.clone());
            variants.push((format!("line {} repeated", at + 1), repeated));
            if at + 1 < lines.len() {
                let mut swapped = lines.clone();
                swapped.swap(at, at + 1);
                variants.push((format!("lines {} and {} swapped", at + 1, at + 2), swapped));
            }
            let odd = odd_lines[at % odd_lines.len()];
            let mut inserted = lines.clone();
            inserted.insert(at, odd.into());
            variants.push((format!("{odd} before line {}", at + 1), inserted));
            let Ok(value) = serde_json::from_str::<Value>(line) else {
                continue;
            };
            let mut paths = Vec::new();
            places(&value, &mut Vec::new(), &mut paths);
            for (n, path) in paths.iter().enumerate() {
                // One odd value per place, taking turns, keeps the run short.
                let with = &odd_values[(at + n) % odd_values.len()];
                let mut changed = value.clone();
                replace(&mut changed, path, with.clone());
                let mut variant = lines.clone();
                variant[at] = changed.to_string();
                variants.push((format!("line {} at {path:?} = {with}", at + 1), variant));
            }
        }
        for (what, variant) in variants {
            tried += 1;

            let text = variant.join("\n");
            let imported = import_session(&text, None)
                .unwrap_or_else(|error| panic!("{name}, {what}: {error}"));
            if let Err(error) = run_scenario(&imported.scenario) {
                panic!("{name}, {what}: the import does not replay: {error}");
            }
        }
    }
    assert!(tried > 1_000, "{tried} variants");
}
