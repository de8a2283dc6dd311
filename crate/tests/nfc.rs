//! Native = wasm for text in either Unicode form: `tests/fixtures/nfc.json` gives NFD and NFC
//! input to every entry point of the JS API (a path written in one form, used in the other);
//! this test runs each case through the core with its `nfc` feature and checks the results
//! kept in the fixture, which `tests/node/nfc.test.mjs` checks the wasm package against (it
//! normalises through JavaScript's `String.prototype.normalize` instead).
//! `UPDATE_GOLDEN=1 cargo test --features serde --test nfc` rewrites the results (review the
//! diff).

use std::fs;
use std::path::PathBuf;

use context_assembly::mention::extract_mentions;
use context_assembly::scenario::{
    apply_step, compaction_preview, compare_profiles, kept_plan_of, parse_compaction_options,
    parse_scenario, parse_session_config, run_scenario,
};
use context_assembly::search::DEFAULT_LIMIT;
use context_assembly::session::{Session, SessionOptions};
use context_assembly::tokens::estimate_tokens;
use context_assembly::vfs::{Content, TransientError};
use context_assembly::{Error, Profile, ProfileName};
use serde_json::{json, Map, Value};

fn fixture_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/nfc.json")
}

/// A core result as the JS API returns it: the value, or `{ "error": message }`.
fn answer<T: serde::Serialize>(result: Result<T, Error>) -> Value {
    match result {
        Ok(value) => serde_json::to_value(value).unwrap(),
        Err(error) => json!({ "error": error.to_string() }),
    }
}

fn text(value: &Value) -> &str {
    value.as_str().expect("a string argument")
}

fn number(value: &Value) -> u64 {
    value.as_u64().expect("a whole-number argument")
}

fn profile(options: &Value, key: &str) -> ProfileName {
    options[key]
        .as_str()
        .map_or(ProfileName::default(), |name| name.parse().unwrap())
}

/// A function of the JS API, called natively.
fn call(entry: &str, args: &[Value]) -> Value {
    match entry {
        "runScenario" => {
            answer(parse_scenario(&args[0].to_string()).and_then(|s| run_scenario(&s)))
        }
        "compactScenario" => answer((|| {
            let scenario = parse_scenario(&args[0].to_string())?;
            let (options, summary) = parse_compaction_options(&args[1].to_string())?;
            let steps = args[2].as_u64().map(|n| n as usize);
            compaction_preview(&scenario, options, summary.as_deref(), steps)
        })()),
        "compareProfiles" => answer((|| {
            let scenario = parse_scenario(&args[0].to_string())?;
            let names: Vec<ProfileName> = (args[1].as_array().unwrap().iter())
                .map(|name| text(name).parse().unwrap())
                .collect();
            compare_profiles(&scenario, &names, &[])
        })()),
        "extractMentions" => {
            let rules = Profile::preset(profile(&args[1], "profile")).mentions;
            mentions_in_utf16(text(&args[0]), &extract_mentions(text(&args[0]), &rules))
        }
        "estimateTokens" => {
            let method = args[1]["method"].as_str().unwrap().parse().unwrap();
            json!(estimate_tokens(text(&args[0]), method, None))
        }
        "diffSnippetReport" => {
            let report = Profile::preset(profile(&args[2], "profile"));
            answer(Ok(report.snippet_report(text(&args[0]), text(&args[1]))))
        }
        other => panic!("no entry point {other}"),
    }
}

/// `extractMentions`'s shape: byte spans as UTF-16 `start` and `end`, absent fields left out.
fn mentions_in_utf16(text: &str, mentions: &context_assembly::mention::Mentions) -> Value {
    let utf16 = |byte: usize| json!(text[..byte].encode_utf16().count());
    let mut value = serde_json::to_value(mentions).unwrap();
    for list in value.as_object_mut().unwrap().values_mut() {
        for mention in list.as_array_mut().unwrap() {
            let mention = mention.as_object_mut().unwrap();
            let span = mention.remove("span").unwrap();
            mention.insert(
                "start".into(),
                utf16(span["start"].as_u64().unwrap() as usize),
            );
            mention.insert("end".into(), utf16(span["end"].as_u64().unwrap() as usize));
            mention.retain(|_, field| !field.is_null());
        }
    }
    value
}

/// A `new Session` and its method calls, each answered as the JS API answers it
/// (`undefined` as `null`).
fn session_calls(options: &Value, calls: &[Value]) -> Value {
    let config = parse_session_config(&options["config"].to_string()).unwrap();
    let mut session = Session::new(SessionOptions {
        profile: Profile::preset(profile(options, "profile")),
        cwd: text(&options["cwd"]).into(),
        home: None,
        config,
    })
    .unwrap();
    let mut latest_plan = Value::Null;
    let answers = calls.iter().map(|call| {
        let args = call["args"].as_array().unwrap();
        let method = text(&call["method"]);
        let answer = method_call(&mut session, method, args, &latest_plan);
        if method == "planCompaction" {
            latest_plan = answer.clone();
        }
        answer
    });
    Value::Array(answers.collect())
}

fn method_call(session: &mut Session, method: &str, args: &[Value], plan: &Value) -> Value {
    let at = |session: &mut Session, index: usize| clock(session, &args[index]);
    match method {
        "writeFile" => {
            let content = Content::from(text(&args[1]).to_string());
            answer(session.write_file(text(&args[0]), content, number(&args[2])))
        }
        "deleteFile" => answer(session.delete_file(text(&args[0]), number(&args[1]))),
        "rename" => answer(session.rename(text(&args[0]), text(&args[1]), number(&args[2]))),
        "mkdir" => answer(session.mkdir(text(&args[0]), number(&args[1]))),
        "setTransientError" => {
            let kind = args[1].as_str().map(|kind| match kind {
                "EBUSY" => TransientError::Busy,
                _ => TransientError::PermissionDenied,
            });
            answer(session.set_transient_error(text(&args[0]), kind))
        }
        "listDir" => answer(session.list_dir(text(&args[0]))),
        "searchFiles" => {
            let limit = args[1]["limit"]
                .as_u64()
                .map_or(DEFAULT_LIMIT, |n| n as usize);
            answer(Ok(session.search_files(text(&args[0]), limit)))
        }
        "stat" => answer(session.stat(text(&args[0]))),
        "readFileText" => answer(session.read_file_text(text(&args[0]))),
        "read" => {
            let at_ms = at(session, 2);
            answer(at_ms.and_then(|at_ms| session.read(text(&args[0]), None, None, at_ms)))
        }
        "edit" => {
            let at_ms = at(session, 3);
            let (path, old, new) = (text(&args[0]), text(&args[1]), text(&args[2]));
            answer(at_ms.and_then(|at_ms| session.edit(path, old, new, at_ms)))
        }
        "write" => {
            let at_ms = at(session, 2);
            answer(at_ms.and_then(|at_ms| session.write(text(&args[0]), text(&args[1]), at_ms)))
        }
        "submit" => {
            let at_ms = at(session, 1);
            answer(at_ms.map(|at_ms| session.submit(text(&args[0]), at_ms)))
        }
        "toolRound" => answer(at(session, 0).map(|at_ms| session.tool_round(at_ms))),
        "step" => {
            let at_ms = at(session, 1);
            answer(at_ms.and_then(|at_ms| apply_step(session, &args[0].to_string(), at_ms)))
        }
        "currentRequest" => answer(at(session, 0).map(|at_ms| session.current_request(at_ms))),
        "fileState" => answer(Ok(session.file_state())),
        "planCompaction" => {
            let at_ms = at(session, 1);
            answer(at_ms.and_then(|at_ms| {
                let (options, _) = parse_compaction_options(&args[0].to_string())?;
                Ok(session.plan_compaction(options, at_ms))
            }))
        }
        // The latest plan, handed back as planCompaction returned it.
        "applyCompaction" => answer((|| {
            let kept = kept_plan_of(session, &plan.to_string())?;
            let at_ms = clock(session, &args[0])?;
            session.apply_compaction(&kept, None, at_ms)
        })()),
        other => panic!("no Session method {other}"),
    }
}

/// The time of a method that takes one: the JS API advances the clock first.
fn clock(session: &mut Session, at_ms: &Value) -> Result<u64, Error> {
    let at_ms = number(at_ms);
    session.advance_clock(at_ms).map(|()| at_ms)
}

fn native_answer(case: &Map<String, Value>) -> Value {
    let entry = text(&case["entry"]);
    match entry {
        "Session" => session_calls(&case["options"], case["calls"].as_array().unwrap()),
        _ => call(entry, case["args"].as_array().unwrap()),
    }
}

#[test]
fn every_entry_point_answers_nfd_and_nfc_input_as_the_fixture_says() {
    let mut fixture: Value =
        serde_json::from_str(&fs::read_to_string(fixture_path()).unwrap()).unwrap();
    let update = std::env::var_os("UPDATE_GOLDEN").is_some();
    let cases = fixture["cases"].as_array_mut().unwrap();
    assert!(cases.len() >= 7, "every kind of entry point");
    for case in cases.iter_mut() {
        let case = case.as_object_mut().unwrap();
        let answer = native_answer(case);
        if update {
            case.insert("expected".into(), answer);
            continue;
        }
        let name = text(&case["name"]).to_string();
        assert!(case.get("expected") == Some(&answer), "{name}: the native answer differs from the fixture; run with UPDATE_GOLDEN=1 and review");
    }
    if update {
        fs::write(
            fixture_path(),
            serde_json::to_string_pretty(&fixture).unwrap() + "\n",
        )
        .unwrap();
    }
}
