//! Claude Code's context size for its thresholds (spec claude-code.md §6.3), through
//! scenarios: an `assistant` step's `usage` plus the estimate of what was stored after the
//! response's first block decides auto-compaction (2.1.88's reading: `claude-code-2.1.88`; 2.1.332's
//! is tested in claude_code_2_1_332.rs).
#![cfg(feature = "serde")]

use context_assembly::scenario::{parse_scenario, run_scenario, Trace};
use context_assembly::vocabulary::Verdict;

/// A 50,000-token window: the auto-compact threshold is 50,000 − 20,000 − 13,000 = 17,000.
fn scenario(profile: &str, calls: &str, usage: &str) -> String {
    format!(
        r#"{{
  "profile": "{profile}",
  "config": {{ "contextWindow": 50000 }},
  "steps": [
    {{ "kind": "user", "prompt": "hello" }},
    {{ "kind": "assistant", "blocks": [{calls}], "usage": {usage} }},
    {{ "kind": "assistant", "blocks": [{{ "type": "text", "text": "done" }}] }}
  ]
}}"#
    )
}

/// One Bash call printing 4,000 characters: its result is estimated at 1,000 tokens.
const ONE_CALL: &str =
    r#"{ "type": "tool_use", "name": "Bash", "input": { "command": "ls" }, "output": "OUTPUT" }"#;

fn one_call() -> String {
    ONE_CALL.replace("OUTPUT", &"x".repeat(4_000))
}

fn run(json: &str) -> Trace {
    run_scenario(&parse_scenario(json).unwrap()).unwrap()
}

/// The auto-compaction decision of the tool round (step 1), if the threshold was reached.
fn auto_compaction(trace: &Trace) -> Option<String> {
    let turn = &trace.steps[1].turn;
    turn.decisions
        .iter()
        .find(|d| d.subject == "auto-compaction" && d.verdict == Verdict::Needed)
        .map(|d| d.reason.clone())
}

fn compacted(trace: &Trace) -> bool {
    trace.steps[1].turn.compaction.iter().any(|r| r.applied)
}

#[test]
fn reported_usage_plus_the_estimate_after_it_reaches_the_threshold_exactly() {
    // 15,900 + 50 reported, 1,000 estimated for the result: 16,950, under 17,000.
    let under = r#"{ "inputTokens": 15000, "cacheReadTokens": 900, "outputTokens": 50 }"#;
    let trace = run(&scenario("claude-code-2.1.88", &one_call(), under));
    assert_eq!(auto_compaction(&trace), None);
    assert!(!compacted(&trace));
    // 50 more output tokens: 17,000, the threshold itself.
    let at = r#"{ "inputTokens": 15000, "cacheReadTokens": 900, "outputTokens": 100 }"#;
    let trace = run(&scenario("claude-code-2.1.88", &one_call(), at));
    let reason = auto_compaction(&trace).expect("the threshold is reached");
    assert!(
        reason.starts_with(
            "the context is 17000 tokens: response 0 reported 16000 (input 15000 + cache \
             writes 0 + cache reads 900 + output 100), and the 1 records after its first are \
             estimated at 1000"
        ),
        "{reason}"
    );
    assert!(compacted(&trace));
}

#[test]
fn without_usage_the_whole_request_is_estimated_and_says_so() {
    let trace = run(&scenario("claude-code-2.1.88", &one_call(), "{}"));
    // An empty usage reports 0: the size is the result's estimate alone.
    assert_eq!(auto_compaction(&trace), None);
    let json = scenario("claude-code-2.1.88", &one_call(), "{}").replace(r#", "usage": {}"#, "");
    let small_window = json.replace("50000", "33500"); // threshold 500
    let trace = run(&small_window);
    let reason = auto_compaction(&trace).expect("the request alone is over 500");
    assert!(
        reason.contains(
            "estimated from the whole request (no response since the last summary reported usage)"
        ),
        "{reason}"
    );
}

#[test]
fn the_walk_back_estimates_the_later_blocks_of_the_same_response() {
    // Two calls in one response: two records sharing one message id. The count anchors on
    // the first, so the second call's block (Bash + its input) is estimated as well.
    let second = format!(
        r#"{{ "type": "tool_use", "name": "Bash", "input": {{ "command": "{}" }}, "output": "" }}"#,
        "c".repeat(396)
    );
    let calls = format!("{}, {second}", one_call());
    // The second block: `Bash{"command":"ccc…"}` is 4 + 14 + 396 = 414 characters: 104
    // tokens (rounded); the empty output becomes a sentence of a few tokens.
    let trace = run(&scenario(
        "claude-code-2.1.88",
        &calls,
        r#"{ "inputTokens": 15800, "outputTokens": 90 }"#,
    ));
    let reason = auto_compaction(&trace).expect("the second block tips the count over");
    assert!(
        reason.contains("the 2 records after its first are estimated at"),
        "{reason}"
    );
    assert!(compacted(&trace));
}

#[test]
fn codex_reads_the_usage_from_its_last_model_item_and_recommended_as_claude_code() {
    // Codex's limit in a 50,000 window is 45,000 (90 %): 16,000 reported is far under it.
    let at = r#"{ "inputTokens": 16000 }"#;
    let codex = run(&scenario("codex", &one_call(), at));
    assert!(!compacted(&codex));
    // 44,500 reported and the call's result estimated after the last model item: over.
    let over = run(&scenario(
        "codex",
        &one_call(),
        r#"{ "inputTokens": 44500 }"#,
    ));
    let reason = auto_compaction(&over).expect("codex reads the usage");
    assert!(
        reason.contains("response 0 reported 44500")
            && reason.contains("after the last model-generated item")
            && reason.contains("codex.md §3.6"),
        "{reason}"
    );
    // Recommended reads the usage too, and compacts at the threshold; the decision gives
    // the size it read.
    let recommended = run(&scenario("recommended", &one_call(), at));
    let needed = recommended.steps[1]
        .turn
        .decisions
        .iter()
        .find(|d| d.subject == "auto-compaction" && d.verdict == Verdict::Needed)
        .expect("recommended reads the usage");
    assert!(
        needed.reason.contains("response 0 reported 16000"),
        "{}",
        needed.reason
    );
    assert!(compacted(&recommended));
}

#[test]
fn a_summary_forgets_the_usage_it_replaced() {
    // An 80,000-token window, threshold 47,000: the usage reaches it with the result's 1,000,
    // and after the summary the request (the release's prefix of about 23,000 tokens
    // included) is well under it.
    let at = r#"{ "inputTokens": 46000 }"#;
    let mut json = scenario("claude-code-2.1.88", &one_call(), at).replace("50000", "80000");
    // Another round after the compaction: the old usage no longer counts.
    json = json.replace(
        r#"{ "kind": "assistant", "blocks": [{ "type": "text", "text": "done" }] }"#,
        &format!(r#"{{ "kind": "assistant", "blocks": [{}] }}"#, one_call()),
    );
    let trace = run(&json);
    assert!(compacted(&trace));
    let after = &trace.steps[2].turn;
    assert!(after.compaction.is_empty(), "no second compaction");
    assert!(!after
        .decisions
        .iter()
        .any(|d| d.subject == "auto-compaction"));
}

#[test]
fn the_compaction_reminder_reads_the_same_size() {
    // A 1M window: the reminder comes at 25 % of the 980,000-token effective window, 245,000.
    let with_usage = |usage: &str| {
        scenario("claude-code-2.1.88", &one_call(), usage).replace(
            r#""contextWindow": 50000"#,
            r#""contextWindow": 1000000, "compactionReminders": true"#,
        )
    };
    let reminded = |json: &str| {
        let trace = run(json);
        trace.steps[1]
            .turn
            .attachments
            .iter()
            .any(|a| a.kind.as_str() == "compaction_reminder")
    };
    assert!(reminded(&with_usage(r#"{ "inputTokens": 245000 }"#)));
    assert!(!reminded(&with_usage(r#"{ "inputTokens": 240000 }"#)));
}

/// A session whose first prompt is dense (48,000 characters the calibrated counter takes
/// for about 31,600 tokens and `length / 4` for 12,000), with `simulateUsage` as given, in an
/// 80,000-token window (threshold 47,000) after Claude Code 2.1.88's prefix (about 23,300
/// tokens by `length / 4`, 21,700 by the calibrated counter).
fn long_prompt(simulate: bool) -> String {
    let prompt = "x=1;y=2;".repeat(6_000);
    format!(
        r#"{{
  "profile": "claude-code-2.1.88",
  "simulateUsage": {simulate},
  "config": {{ "contextWindow": 80000 }},
  "steps": [
    {{ "kind": "user", "prompt": "{prompt}" }},
    {{ "kind": "assistant", "blocks": [{}] }},
    {{ "kind": "assistant", "blocks": [{{ "type": "text", "text": "done" }}] }}
  ]
}}"#,
        one_call()
    )
}

#[test]
fn a_simulated_provider_reports_its_count_of_the_request_answered() {
    // The provider's count of the first request is past the threshold of 47,000.
    let reported = auto_compaction(&run(&long_prompt(true))).expect("over the threshold");
    assert!(reported.contains("response 0 reported"), "{reported}");
    // Without it, Claude Code has no usage, and its own estimate stays under.
    assert_eq!(auto_compaction(&run(&long_prompt(false))), None);
}

#[test]
fn usage_a_step_gives_wins_over_the_simulated_one() {
    let given = long_prompt(true).replacen(
        r#""blocks": [{ "type": "tool_use""#,
        r#""usage": { "inputTokens": 50000 }, "blocks": [{ "type": "tool_use""#,
        1,
    );
    let reason = auto_compaction(&run(&given)).expect("over the threshold");
    assert!(reason.contains("response 0 reported 50000"), "{reason}");
}
