//! The teaching scenarios of `web/scenarios` replayed against their golden traces in
//! `tests/fixtures/scenarios`. `UPDATE_GOLDEN=1 cargo test --test scenarios` rewrites them
//! after a deliberate change (review the diff).

use std::fs;
use std::path::PathBuf;

use context_assembly::scenario::{parse_scenario, run_scenario};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

fn scenario_files() -> Vec<String> {
    let index = fs::read_to_string(root().join("web/scenarios/index.json")).unwrap();
    let index: serde_json::Value = serde_json::from_str(&index).unwrap();
    index
        .as_array()
        .unwrap()
        .iter()
        // The long measuring scenarios have no golden trace (tens of megabytes); the
        // profile comparison covers them.
        .filter(|entry| entry["golden"].as_bool() != Some(false))
        .map(|entry| entry["file"].as_str().unwrap().to_string())
        .collect()
}

fn trace_of(file: &str) -> String {
    let json = fs::read_to_string(root().join("web/scenarios").join(file)).unwrap();
    let scenario = parse_scenario(&json).unwrap_or_else(|e| panic!("{file}: {e}"));
    let trace = run_scenario(&scenario).unwrap_or_else(|e| panic!("{file}: {e}"));
    serde_json::to_string_pretty(&trace).unwrap() + "\n"
}

#[test]
fn every_teaching_scenario_matches_its_golden_trace() {
    let files = scenario_files();
    assert!(files.len() >= 8, "one scenario per mechanism");
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    for file in files {
        let trace = trace_of(&file);
        let golden = root()
            .join("tests/fixtures/scenarios")
            .join(file.replace(".json", ".trace.json"));
        if update {
            fs::create_dir_all(golden.parent().unwrap()).unwrap();
            fs::write(&golden, &trace).unwrap();
            continue;
        }
        let expected = fs::read_to_string(&golden)
            .unwrap_or_else(|_| panic!("{}: missing; run with UPDATE_GOLDEN=1", golden.display()));
        assert!(
            trace == expected,
            "{file}: the trace differs from {}",
            golden.display()
        );
    }
}

#[test]
fn a_scenario_replayed_twice_gives_the_same_bytes() {
    for file in scenario_files() {
        assert_eq!(trace_of(&file), trace_of(&file), "{file}");
    }
}

#[test]
fn every_request_adds_up() {
    for file in scenario_files() {
        let json = fs::read_to_string(root().join("web/scenarios").join(&file)).unwrap();
        let trace = run_scenario(&parse_scenario(&json).unwrap()).unwrap();
        for index in 0..trace.steps.len() {
            let Some(request) = trace.request(index) else {
                continue;
            };
            let t = &request.tokens;
            let channels = t.by_channel.system
                + t.by_channel.tools
                + t.by_channel.user_context
                + t.by_channel.messages;
            let c = &t.by_category;
            let categories = c.system + c.tools + c.memory + c.attachments + c.conversation;
            assert_eq!(channels, t.total, "{file} step {index}");
            assert_eq!(categories, t.total, "{file} step {index}");
            let blocks: u64 = request
                .system
                .iter()
                .chain(&request.tools)
                .chain(&request.user_context)
                .chain(request.messages.iter().flat_map(|m| m.content.iter()))
                .map(|b| b.tokens)
                .sum();
            assert_eq!(blocks, t.total, "{file} step {index}");
            assert_eq!(
                request.window.free + t.total - request.window.over,
                request.window.context
            );
        }
    }
}

/// Scenarios that parse but cannot run: the error names the JSON path and what is allowed.
/// `UPDATE_GOLDEN=1` fills in the messages (review them).
#[test]
fn run_errors_name_the_json_path() {
    let path = root().join("tests/fixtures/scenario-run-errors.json");
    let mut cases: Vec<serde_json::Value> =
        serde_json::from_str(&fs::read_to_string(&path).unwrap()).unwrap();
    assert!(cases.len() >= 10);
    for case in &mut cases {
        let name = case["name"].as_str().unwrap().to_string();
        let json = serde_json::to_string(&case["scenario"]).unwrap();
        let scenario = parse_scenario(&json).unwrap_or_else(|e| panic!("{name}: parses: {e}"));
        let error = run_scenario(&scenario).expect_err(&name).to_string();
        if std::env::var_os("UPDATE_GOLDEN").is_some() {
            case["error"] = serde_json::Value::String(error);
        } else {
            assert_eq!(Some(error.as_str()), case["error"].as_str(), "{name}");
        }
    }
    if std::env::var_os("UPDATE_GOLDEN").is_some() {
        fs::write(&path, serde_json::to_string_pretty(&cases).unwrap() + "\n").unwrap();
    }
}
