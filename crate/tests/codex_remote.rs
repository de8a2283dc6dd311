//! Remote compaction's pre-trim (codex.md §4.6 step 1, X13) and v2's replacement history
//! (§4.7) in a session, under Codex 0.139.0 (`codex-0.139.0`), whose layout after a compaction
//! the spec describes (§4.5).

use context_assembly::scenario::{parse_scenario, run_scenario, Trace};

fn run(switches: &str, steps: &str) -> Trace {
    let json = format!(
        r#"{{"profile": "codex-0.139.0", "cwd": "/repo", "config": {{"contextWindow": 1000000}},
            "switches": {{{switches}}}, "steps": [{steps}]}}"#
    );
    run_scenario(&parse_scenario(&json).unwrap()).unwrap()
}

fn big_turns() -> String {
    (0..3)
        .map(|i| {
            let prompt = char::from(b'a' + i).to_string().repeat(120_000);
            format!(
                r#"{{"kind": "user", "prompt": "{prompt}"}},
                   {{"kind": "assistant", "blocks": [{{"type": "text", "text": "ok"}}]}},"#
            )
        })
        .collect()
}

fn first_kept_user_len(trace: &Trace) -> usize {
    let request = trace.request(trace.steps.len() - 1).unwrap();
    let first_user = request
        .messages
        .iter()
        .find(|m| m.role.as_str() == "user")
        .unwrap();
    first_user.content[0].text.len()
}

#[test]
fn v2_keeps_sixty_four_thousand_tokens_of_user_messages_v1_keeps_them_all() {
    let steps = format!(
        r#"{}{{"kind": "compact", "policy": "codex.remote"}}, {{"kind": "user", "prompt": "next"}}"#,
        big_turns()
    );
    let v1 = run("", &steps);
    let v2 = run(r#""codex.remoteCompactionV2": true"#, &steps);
    assert_eq!(first_kept_user_len(&v1), 120_000);
    // 30,000 + 30,000 tokens whole, the oldest cut to the 4,000 left (16,000 bytes and the marker)
    let cut = first_kept_user_len(&v2);
    assert!((16_000..16_100).contains(&cut), "{cut}");
}

#[test]
fn a_remote_compaction_over_the_window_rewrites_trailing_tool_outputs_first() {
    let output = "x".repeat(60_000);
    let steps = format!(
        r#"{{"kind": "user", "prompt": "run"}},
           {{"kind": "assistant", "blocks": [{{"type": "tool_use", "id": "c1", "name": "exec_command",
             "input": {{"cmd": "cat big"}}, "output": "{output}"}}]}},
           {{"kind": "compact", "policy": "codex.remote"}}"#
    );
    // The tool output (cut to 10,000 tokens when recorded) is over this small window;
    // auto-compaction is off, and the switch that honours it under Codex on (the client has
    // no such setting, codex.md §4.1), so that only the manual remote compaction runs.
    let json = format!(
        r#"{{"profile": "codex-0.139.0", "config": {{"contextWindow": 8000, "outputReserve": 100, "autoCompact": false}},
            "switches": {{"compaction.honourAutoCompactSwitch": true}},
            "steps": [{steps}]}}"#
    );
    let trace = run_scenario(&parse_scenario(&json).unwrap()).unwrap();
    let report = trace
        .steps
        .iter()
        .rev()
        .find_map(|s| s.turn.compaction.first())
        .unwrap();
    let pretrim = report
        .decisions
        .iter()
        .find(|d| d.subject.starts_with("function_call_output"))
        .unwrap_or_else(|| panic!("{:#?}", report.decisions));
    assert!(
        pretrim.reason.contains("before remote compaction"),
        "{}",
        pretrim.reason
    );
}

#[test]
fn pinning_the_first_user_message_keeps_the_task_through_local_compaction() {
    let steps = format!(
        r#"{}{{"kind": "compact", "policy": "codex.local", "summary": "s"}}, {{"kind": "user", "prompt": "next"}}"#,
        big_turns()
    );
    let reference = run("", &steps);
    let pinned = run(r#""codex.pinFirstUserMessage": true"#, &steps);
    // 20,000 tokens newest first: only a cut of the newest message survives
    assert!(first_kept_user_len(&reference) < 81_000);
    assert_eq!(first_kept_user_len(&pinned), 120_000);
}
