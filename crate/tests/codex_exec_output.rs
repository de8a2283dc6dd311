//! `exec_command` outputs as Codex CLI 0.139.0 records them (docs/conformance.md, "Codex"): the
//! unified-exec wrapper and the cut at the policy (10,000 tokens), not at 1.2 × the policy.

use context_assembly::codex::truncate::{
    exec_command_output, truncate_for_record, truncation_policy_for_model, TruncationPolicy,
};

/// What `seq n` prints.
fn seq(n: u32) -> String {
    (1..=n).map(|i| format!("{i}\n")).collect()
}

#[test]
fn a_short_output_is_wrapped_whole() {
    let text = exec_command_output(
        "c3c386",
        0,
        0,
        "first line\nsecond line\n",
        TruncationPolicy::Tokens(10_000),
    );
    assert_eq!(
        text,
        "Chunk ID: c3c386\nWall time: 0.0000 seconds\nProcess exited with code 0\n\
         Original token count: 6\nOutput:\nfirst line\nsecond line\n"
    );
}

#[test]
fn an_output_under_the_limit_is_kept_whole() {
    // 33,893 bytes: 8,474 tokens, under 10,000
    let output = seq(7000);
    let text = exec_command_output("000000", 0, 0, &output, TruncationPolicy::Tokens(10_000));
    assert!(text.contains("\nOriginal token count: 8474\nOutput:\n1\n2\n"));
    assert!(text.ends_with("\n6999\n7000\n"));
}

#[test]
fn a_long_output_is_cut_at_ten_thousand_tokens_and_left_alone_when_recorded() {
    // 108,894 bytes: 27,224 tokens, cut to 40,000 bytes with 17,224 tokens left out
    let output = seq(20_000);
    let policy = truncation_policy_for_model("gpt-5.3-codex");
    let text = exec_command_output("000000", 0, 0, &output, policy);
    let body = text.split_once("\nOutput:\n").unwrap().1;
    assert!(text.contains("\nOriginal token count: 27224\n"));
    assert!(body.starts_with("Total output lines: 20000\n\n1\n2\n3\n"));
    assert!(body.contains("\u{2026}17224 tokens truncated\u{2026}"));
    let marker = "\u{2026}17224 tokens truncated\u{2026}".len();
    assert_eq!(
        body.len(),
        "Total output lines: 20000\n\n".len() + 40_000 + marker
    );
    assert!(body.ends_with("\n19999\n20000\n"));
    // the record-time pass (1.2 × the policy) has nothing more to cut
    assert_eq!(truncate_for_record(&text, policy), text);
}

/// The session records an `exec_command` result in the wrapper under `codex`, and only then.
#[test]
fn a_codex_session_records_exec_command_results_in_the_wrapper() {
    use context_assembly::scenario::{parse_scenario, run_scenario};
    let scenario = |profile: &str, name: &str| {
        let json = format!(
            r#"{{"profile": "{profile}", "steps": [
                {{"kind": "user", "prompt": "count"}},
                {{"kind": "assistant", "blocks": [{{"type": "tool_use", "id": "call_1", "name": "{name}",
                  "input": {{"cmd": "seq 3"}}, "output": "1\n2\n3\n"}}]}}
            ]}}"#
        );
        let trace = run_scenario(&parse_scenario(&json).unwrap()).unwrap();
        trace.steps[1].turn.tool_results[0].content.clone()
    };
    let wrapped = scenario("codex", "exec_command");
    assert!(
        wrapped.starts_with("Chunk ID: ")
            && wrapped.contains("\nWall time: 0.0000 seconds\nProcess exited with code 0\n"),
        "{wrapped}"
    );
    assert!(wrapped.ends_with("Output:\n1\n2\n3\n"), "{wrapped}");
    assert_eq!(
        wrapped,
        scenario("codex", "exec_command"),
        "the chunk id is deterministic"
    );
    assert_eq!(
        scenario("codex", "shell"),
        "1\n2\n3\n",
        "another tool is recorded as it is"
    );
    assert_eq!(
        scenario("claude-code", "exec_command"),
        "1\n2\n3\n",
        "Claude Code has no wrapper"
    );
}

/// With `wrapShellOutput` (a model whose tool is `shell_command`, §3.3), the result takes the
/// shell layout; the line count appears only when the cut changed it.
#[test]
fn the_shell_layout_switch_wraps_shell_command_results() {
    use context_assembly::scenario::{parse_scenario, run_scenario};
    let result = |output: &str| {
        let json = format!(
            r#"{{"profile": "codex-0.139.0", "switches": {{"codex.wrapShellOutput": true}}, "steps": [
                {{"kind": "user", "prompt": "count"}},
                {{"kind": "assistant", "blocks": [{{"type": "tool_use", "id": "call_1", "name": "shell_command",
                  "input": {{"command": "seq"}}, "output": "{output}"}}]}}
            ]}}"#
        );
        let trace = run_scenario(&parse_scenario(&json).unwrap()).unwrap();
        trace.steps[1].turn.tool_results[0].content.clone()
    };
    assert_eq!(
        result("1\\n2\\n3\\n"),
        "Exit code: 0\nWall time: 0 seconds\nOutput:\n1\n2\n3\n"
    );
    // 20,000 lines (108,894 bytes) cut at 40,000 bytes: the line count is given
    let long: String = (1..=20_000).map(|i| format!("{i}\\n")).collect();
    let text = result(&long);
    assert!(
        text.starts_with(
            "Exit code: 0\nWall time: 0 seconds\nTotal output lines: 20000\nOutput:\n1\n"
        ),
        "{}",
        &text[..80]
    );
    assert!(text.contains("\u{2026}17224 tokens truncated\u{2026}"));
}
