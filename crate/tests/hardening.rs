//! Issue 11's invariants over generated inputs: a trace's shared requests are exactly the
//! requests the session sent; every parser turns any text into a value or an error with a
//! message, never a panic; the file system's limits hold; the clock only moves forward.

use context_assembly::scenario::{
    apply_step, parse_compaction_options, parse_compare_options, parse_scenario,
    parse_session_config, run_scenario, MAX_TRACE_BYTES,
};
use context_assembly::session::{Session, SessionConfig, SessionOptions};
use context_assembly::vfs::{Content, Vfs, MAX_FILE_BYTES, MAX_TOTAL_BYTES};
use context_assembly::{Error, Profile, ProfileName};
use proptest::prelude::*;
use serde_json::{json, Value};

/// One generated step, as a scenario writes it.
fn step() -> impl Strategy<Value = Value> {
    let path = prop::sample::select(vec![
        "a.txt",
        "src/b.rs",
        "./a.txt",
        "src//b.rs",
        "CLAUDE.md",
    ]);
    let text = "[a-z \n]{0,24}";
    prop_oneof![
        (text, path.clone())
            .prop_map(|(t, p)| json!({"kind": "user", "prompt": format!("{t} @{p}")})),
        text.prop_map(|t| json!({"kind": "assistant", "blocks": [{"type": "text", "text": t}]})),
        path.clone()
            .prop_map(|p| json!({"kind": "assistant", "blocks": [
                {"type": "tool_use", "name": "Read", "input": {"file_path": p}}
            ]})),
        (path.clone(), text).prop_map(|(p, t)| json!({"kind": "assistant", "blocks": [
            {"type": "tool_use", "name": "Write", "input": {"file_path": p, "content": t}}
        ]})),
        (path.clone(), text)
            .prop_map(|(p, t)| json!({"kind": "writeFile", "path": p, "content": t})),
        path.prop_map(|p| json!({"kind": "touch", "path": p})),
        Just(json!({"kind": "advanceTime", "ms": 400_000})),
        Just(json!({"kind": "compact", "policy": "claude-code.full", "summary": "so far"})),
        Just(json!({"kind": "setMode", "mode": "plan"})),
        Just(json!({"kind": "setMode", "mode": "default"})),
    ]
}

fn scenario(profile: &str, steps: Vec<Value>) -> Value {
    json!({
        "profile": profile,
        "files": {"a.txt": "one\ntwo\n", "src/b.rs": "fn main() {}\n", "CLAUDE.md": "Be brief.\n"},
        "steps": steps,
    })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// The trace keeps each request shared with its neighbours; materialised, it is the very
    /// request the session sent when the step ran.
    #[test]
    fn a_shared_trace_gives_back_every_request_the_session_sent(
        profile in prop::sample::select(vec!["claude-code", "codex", "claude-code-2.1.88", "codex-0.139.0", "recommended", "world-state", "opencode-style", "aider-style"]),
        steps in prop::collection::vec(step(), 1..24),
    ) {
        let json = scenario(profile, steps).to_string();
        let parsed = parse_scenario(&json).unwrap();
        let trace = run_scenario(&parsed).unwrap();
        let mut session = Session::new(SessionOptions {
            profile: Profile::preset(parsed.profile),
            cwd: parsed.cwd.clone(),
            home: Some(parsed.home.clone()),
            config: parsed.config.clone(),
        }).unwrap();
        for file in &parsed.files {
            session.write_file(&file.path, file.content.as_str(), parsed.start_ms).unwrap();
        }
        for (index, step) in trace.steps.iter().enumerate() {
            let turn = apply_step(&mut session, &step.input, step.at_ms).unwrap();
            prop_assert_eq!(trace.request(index), turn.request, "step {}", index);
            prop_assert!(step.turn.request.is_none(), "the trace keeps requests apart");
        }
        // The full serialisation writes each step's request in its turn.
        let full: Value = serde_json::to_value(&trace).unwrap();
        for (index, step) in full["steps"].as_array().unwrap().iter().enumerate() {
            let expected = trace.request(index).map(|r| serde_json::to_value(r).unwrap());
            prop_assert_eq!(step["turn"].get("request").cloned(), expected);
        }
    }

    /// Every parser maps any text to a value or an error that says something.
    #[test]
    fn parsers_answer_any_text(text in "\\PC{0,120}") {
        let messages = [
            parse_scenario(&text).err(),
            parse_compaction_options(&text).err(),
            parse_session_config(&text).err(),
            parse_compare_options(&text).err(),
        ];
        for message in messages.into_iter().flatten() {
            prop_assert!(!message.to_string().is_empty());
        }
    }

    /// Valid JSON of the wrong shape, at any depth, is an error naming a place.
    #[test]
    fn parsers_answer_any_json(value in json_value()) {
        let text = value.to_string();
        let wrapped = json!({"steps": [value.clone()], "config": value.clone(), "files": value}).to_string();
        for result in [parse_scenario(&text), parse_scenario(&wrapped)] {
            if let Err(error) = result {
                prop_assert!(!error.to_string().is_empty());
            }
        }
        let _ = parse_compaction_options(&text);
        let _ = parse_session_config(&text);
        let _ = parse_compare_options(&text);
    }
}

fn json_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        (-1e20f64..1e20).prop_map(Value::from),
        "\\PC{0,12}".prop_map(Value::from),
        prop::sample::select(vec![
            "user",
            "assistant",
            "Read",
            "kind",
            "steps",
            "../x",
            "~/y"
        ])
        .prop_map(Value::from),
    ];
    leaf.prop_recursive(3, 24, 4, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..4).prop_map(Value::from),
            prop::collection::btree_map(
                prop::sample::select(vec![
                    "kind", "prompt", "blocks", "path", "deny", "policy", "steps", "x"
                ])
                .prop_map(String::from),
                inner,
                0..4,
            )
            .prop_map(|map| Value::Object(map.into_iter().collect())),
        ]
    })
}

#[test]
fn a_file_over_the_limit_is_refused_and_changes_nothing() {
    let mut vfs = Vfs::new();
    vfs.write_file("/p/a", Content::from("small"), 1).unwrap();
    let big = Content::from(vec![b'x'; MAX_FILE_BYTES + 1]);
    let error = vfs.write_file("/p/a", big, 2).unwrap_err();
    assert_eq!(error.code(), "EFBIG");
    assert_eq!(vfs.read("/p/a").unwrap(), Content::from("small"));
    let error = vfs
        .write_file("/q/new", Content::from(vec![b'x'; MAX_FILE_BYTES + 1]), 3)
        .unwrap_err();
    assert_eq!(error.code(), "EFBIG");
    assert!(
        vfs.stat("/q").is_err(),
        "no parent directory was made for a refused file"
    );
}

#[test]
fn the_workspace_holds_at_most_its_total() {
    let mut vfs = Vfs::new();
    let file = vec![b'x'; MAX_FILE_BYTES];
    let fits = (MAX_TOTAL_BYTES / MAX_FILE_BYTES as u64) as usize;
    for index in 0..fits {
        vfs.write_file(&format!("/p/{index}"), Content::from(file.clone()), 1)
            .unwrap();
    }
    let error = vfs
        .write_file("/p/one-more", Content::from("x"), 2)
        .unwrap_err();
    assert_eq!(error.code(), "ENOSPC");
    // Replacing a file with one of the same size still fits: the old bytes are given back.
    vfs.write_file("/p/0", Content::from(file), 3).unwrap();
    assert_eq!(vfs.total_bytes(), MAX_TOTAL_BYTES);
}

#[test]
fn an_agent_write_past_the_limit_is_the_tool_error_and_the_file_stays() {
    let mut session = session(ProfileName::Recommended);
    session.write_file("a.txt", "small\n", 1).unwrap();
    session.read("a.txt", None, None, 2).unwrap();
    let huge = "x".repeat(MAX_FILE_BYTES + 1);
    let result = session.write("a.txt", &huge, 3).unwrap();
    assert!(result.is_error);
    assert!(result.content.contains("EFBIG"), "{}", result.content);
    assert_eq!(
        session.read_file_text("a.txt").unwrap().as_deref(),
        Some("small\n")
    );
}

#[test]
fn the_clock_only_moves_forward_and_a_step_is_checked_against_it() {
    let mut session = session(ProfileName::ClaudeCode);
    apply_step(&mut session, r#"{"kind": "user", "prompt": "one"}"#, 5_000).unwrap();
    let error =
        apply_step(&mut session, r#"{"kind": "user", "prompt": "two"}"#, 4_000).unwrap_err();
    assert_eq!(
        error.to_string(),
        "step.atMs: 4000 is before the session's clock (5000): time only moves forward"
    );
    apply_step(&mut session, r#"{"kind": "user", "prompt": "two"}"#, 5_000).unwrap();
}

#[test]
fn a_response_with_an_unusable_path_changes_nothing() {
    let mut session = session(ProfileName::Recommended);
    apply_step(&mut session, r#"{"kind": "user", "prompt": "go"}"#, 1_000).unwrap();
    let response = r#"{"kind": "assistant", "blocks": [
        {"type": "tool_use", "id": "w", "name": "Write", "input": {"file_path": "new.txt", "content": "x"}},
        {"type": "tool_use", "id": "r", "name": "Read", "input": {"file_path": "../../../x"}}
    ]}"#;
    let before = session.current_request(2_000);
    let error = apply_step(&mut session, response, 2_000).unwrap_err();
    assert!(
        error
            .to_string()
            .starts_with("step.blocks[1].input.file_path: path \"../../../x\""),
        "{error}"
    );
    assert!(
        session.stat("new.txt").is_err(),
        "the first call's write was not applied"
    );
    assert_eq!(session.current_request(2_000), before);
    let fixed = response.replace("../../../x", "new.txt");
    let turn = apply_step(&mut session, &fixed, 3_000).unwrap();
    assert_eq!(turn.tool_results.len(), 2, "the refused step used no id");
}

#[test]
fn a_bad_rule_and_a_repeated_file_are_named_where_they_were_given() {
    let bad_rule = parse_scenario(r#"{"config": {"deny": ["Read(.env"]}, "steps": []}"#).unwrap();
    let error = run_scenario(&bad_rule).unwrap_err();
    assert!(
        matches!(&error, Error::InvalidConfig { field, .. } if field == "config.deny[0]"),
        "{error}"
    );
    let repeated = parse_scenario(r#"{"files": {"a": "1", "./a": "2"}, "steps": []}"#).unwrap();
    assert_eq!(
        run_scenario(&repeated).unwrap_err().to_string(),
        "files[1]: \"./a\" is /project/a, the same file as files[0] (\"a\"): give each file once"
    );
}

#[test]
fn prompts_that_never_get_an_answer_stop_at_the_trace_limit() {
    let steps: Vec<Value> = (0..2_500)
        .map(|i| json!({"kind": "user", "prompt": format!("step {i} please")}))
        .collect();
    let parsed = parse_scenario(&json!({"steps": steps}).to_string()).unwrap();
    let error = run_scenario(&parsed).unwrap_err().to_string();
    assert!(
        error.contains(&format!("more than its limit of {MAX_TRACE_BYTES}")),
        "{error}"
    );
    assert!(error.starts_with("steps["), "{error}");
}

fn session(profile: ProfileName) -> Session {
    Session::new(SessionOptions {
        profile: Profile::preset(profile),
        cwd: "/p".into(),
        home: None,
        config: SessionConfig::default(),
    })
    .unwrap()
}
