//! Redaction keeps the meter: every teaching scenario, every imported fixture log and
//! generated scenarios replay redacted to the same per-request token totals, and no content
//! word of four characters or more survives in the redacted text.

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;

use context_assembly::scenario::{
    import_session, parse_scenario, redact_scenario, run_scenario, PathMode, RedactOptions,
};
use proptest::prelude::*;
use serde_json::Value;

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every scenario of `web/scenarios` and the scenarios the fixture logs import as.
fn corpus() -> Vec<(String, String)> {
    let index = fs::read_to_string(root().join("web/scenarios/index.json")).unwrap();
    let index: Value = serde_json::from_str(&index).unwrap();
    let mut out: Vec<(String, String)> = index
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            let file = entry["file"].as_str().unwrap().to_string();
            let text = fs::read_to_string(root().join("web/scenarios").join(&file)).unwrap();
            (file, text)
        })
        .collect();
    for log in ["claude-code-session.jsonl", "codex-rollout.jsonl"] {
        let text = fs::read_to_string(root().join("tests/fixtures/import").join(log)).unwrap();
        out.push((
            log.into(),
            import_session(&text, None).unwrap().scenario_json,
        ));
    }
    out
}

/// Each step's request total (`None` for a step without a request).
fn request_totals(json: &str) -> Vec<Option<u64>> {
    let scenario = parse_scenario(json).unwrap();
    let trace = run_scenario(&scenario).unwrap();
    (0..trace.steps.len())
        .map(|index| trace.request(index).map(|request| request.tokens.total))
        .collect()
}

/// The largest difference between two replays' request totals, in tokens and as a share.
fn deviation(original: &[Option<u64>], redacted: &[Option<u64>]) -> (u64, f64) {
    assert_eq!(original.len(), redacted.len(), "the step count changed");
    assert!(
        original.iter().any(Option::is_some),
        "no request to compare"
    );
    let mut worst = (0, 0.0);
    for (a, b) in original.iter().zip(redacted) {
        assert_eq!(a.is_some(), b.is_some(), "a request appeared or vanished");
        if let (Some(a), Some(b)) = (a, b) {
            let tokens = a.abs_diff(*b);
            let share = tokens as f64 / (*a).max(1) as f64;
            if tokens > worst.0 {
                worst = (tokens, share);
            }
        }
    }
    worst
}

/// The texts redaction must replace: file contents, prompts, the assistant's words, tool
/// outputs and results.
fn content_texts(scenario: &Value) -> Vec<String> {
    let mut texts = Vec::new();
    match &scenario["files"] {
        Value::Object(files) => {
            texts.extend(files.values().filter_map(|v| v.as_str().map(String::from)))
        }
        Value::Array(files) => texts.extend(
            files
                .iter()
                .filter_map(|f| f["content"].as_str().map(String::from)),
        ),
        _ => {}
    }
    for step in scenario["steps"].as_array().into_iter().flatten() {
        for key in ["prompt", "content"] {
            texts.extend(step[key].as_str().map(String::from));
        }
        for block in step["blocks"].as_array().into_iter().flatten() {
            for key in ["text", "thinking", "output"] {
                texts.extend(block[key].as_str().map(String::from));
            }
        }
        for result in step["results"].as_array().into_iter().flatten() {
            texts.extend(result["content"].as_str().map(String::from));
        }
    }
    texts
}

/// Words of four characters or more, mentions (kept by design) left out.
fn long_words(text: &str) -> BTreeSet<String> {
    text.split_whitespace()
        .filter(|token| !token.starts_with('@'))
        .flat_map(|token| {
            token.split(|c: char| {
                !(c.is_ascii_alphanumeric() || (!c.is_ascii() && c.is_alphabetic()))
            })
        })
        .filter(|word| word.chars().count() >= 4)
        .map(String::from)
        .collect()
}

/// Original content words found again in the redacted content.
fn survivors(original: &str, redacted: &str) -> BTreeSet<String> {
    let original: Value = serde_json::from_str(original).unwrap();
    let redacted: Value = serde_json::from_str(redacted).unwrap();
    let before: BTreeSet<String> = content_texts(&original)
        .iter()
        .flat_map(|t| long_words(t))
        .collect();
    let after: BTreeSet<String> = content_texts(&redacted)
        .iter()
        .flat_map(|t| long_words(t))
        .collect();
    before.intersection(&after).cloned().collect()
}

fn check(name: &str, json: &str, paths: PathMode) -> (u64, f64) {
    let redacted = redact_scenario(json, RedactOptions { paths })
        .unwrap_or_else(|error| panic!("{name}: {error}"));
    let survived = survivors(json, &redacted.scenario_json);
    assert!(
        survived.is_empty(),
        "{name} ({paths:?}): words survived: {survived:?}"
    );
    deviation(
        &request_totals(json),
        &request_totals(&redacted.scenario_json),
    )
}

#[test]
fn every_scenario_replays_redacted_to_the_same_totals() {
    for paths in PathMode::ALL.iter().copied() {
        for (name, json) in corpus() {
            let (tokens, share) = check(&name, &json, paths);
            println!(
                "{name} ({}): max deviation {tokens} tokens ({:.3} %)",
                paths.as_str(),
                share * 100.0
            );
            assert_eq!(
                tokens,
                0,
                "{name} ({}): request totals moved",
                paths.as_str()
            );
        }
    }
}

#[test]
fn redaction_is_deterministic_and_says_what_it_replaced() {
    let json = fs::read_to_string(root().join("web/scenarios/external-edit.json")).unwrap();
    let first = redact_scenario(&json, RedactOptions::default()).unwrap();
    let second = redact_scenario(&json, RedactOptions::default()).unwrap();
    assert_eq!(first.scenario_json, second.scenario_json);
    assert!(first.replaced.files > 0 && first.replaced.prompts > 0 && first.replaced.words > 0);
    assert_eq!(first.replaced.paths, 0);
    let hashed = redact_scenario(
        &json,
        RedactOptions {
            paths: PathMode::Hash,
        },
    )
    .unwrap();
    assert!(hashed.replaced.paths > 0);
    assert!(!hashed.scenario_json.contains("src/util.ts"));
}

#[test]
fn a_bad_scenario_is_refused_with_the_parser_s_error() {
    let error = redact_scenario(
        r#"{"steps": [{"kind": "dance"}]}"#,
        RedactOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("steps[0].kind"), "{error}");
}

const WORDS: &[&str] = &[
    "alpha",
    "parseConfig",
    "naïve",
    "日本語の",
    "Привет",
    "x",
    "if",
    "let",
    "42",
    "2024",
    "UUID",
    "a1b2c3d4",
    "render",
    "Render",
    "RENDER",
    "über",
    "한국어",
    "snake_case_name",
    "ok",
];

fn line() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(prop::sample::select(WORDS), 0..8),
        prop::sample::select(&["", "  ", "\t"][..]),
    )
        .prop_map(|(words, indent)| format!("{indent}{}", words.join(" ")))
}

fn content() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(line(), 1..12)
}

/// A generated scenario: two files, a prompt mentioning one (with a line range), Reads, an
/// Edit of a whole line, an external rewrite, a tool with its own output, a final answer.
fn scenario() -> impl Strategy<Value = String> {
    (
        prop::sample::select(&["claude-code", "codex", "recommended", "world-state", "opencode-style", "aider-style"][..]),
        content(),
        content(),
        line(),
        line(),
        1u64..4,
    )
        .prop_map(|(profile, a, b, prompt, answer, offset)| {
            let file_a = a.join("\n") + "\n";
            let file_b = b.join("\n") + "\n";
            let old_line = a.iter().find(|l| !l.trim().is_empty()).cloned();
            let mut rewritten = b.clone();
            rewritten.push("render alpha über".into());
            let mut steps = vec![
                serde_json::json!({"kind": "user", "prompt": format!("{prompt} @src/one.ts#L1-2 and @lib/two.md")}),
                serde_json::json!({"kind": "assistant", "blocks": [
                    {"type": "thinking", "thinking": answer},
                    {"type": "tool_use", "name": "Read", "input": {"file_path": "/project/src/one.ts", "offset": offset, "limit": 3}},
                    {"type": "tool_use", "name": "Bash", "input": {"command": format!("grep {prompt}")}, "output": file_b.clone()}
                ]}),
            ];
            if let Some(old) = old_line {
                steps.push(serde_json::json!({"kind": "assistant", "blocks": [
                    {"type": "tool_use", "name": "Read", "input": {"file_path": "/project/src/one.ts"}},
                    {"type": "tool_use", "name": "Edit", "input": {"file_path": "/project/src/one.ts", "old_string": old, "new_string": "render Render"}}
                ]}));
            }
            steps.push(serde_json::json!({"kind": "writeFile", "path": "lib/two.md", "content": rewritten.join("\n")}));
            steps.push(serde_json::json!({"kind": "user", "prompt": format!("{answer} again")}));
            steps.push(serde_json::json!({"kind": "assistant", "blocks": [{"type": "text", "text": answer}]}));
            serde_json::json!({
                "profile": profile,
                "files": {"src/one.ts": file_a, "lib/two.md": file_b, "CLAUDE.md": "Prefer parseConfig over Render.\n"},
                "steps": steps,
            })
            .to_string()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn generated_scenarios_replay_redacted_to_the_same_totals(json in scenario(), hash in any::<bool>()) {
        let paths = if hash { PathMode::Hash } else { PathMode::Keep };
        let (tokens, _) = check("generated", &json, paths);
        prop_assert_eq!(tokens, 0);
    }
}
