//! The `opencode-style` and `aider-style` profiles: Claude Code's requests with OpenCode's or
//! Aider's compaction (strategies.md §6–§7, §12.8). A 100,000-token window with a 20,000-token
//! output limit overflows OpenCode's usable window at 80,000 tokens, and Aider's history budget
//! is 100,000 / 16 = 6,250 tokens. The token method is Claude Code's, a quarter of the length,
//! so a tool output of `4 × n` characters is `n` tokens.

use context_assembly::compact::report::CompactionReport;
use context_assembly::scenario::{compare_profiles, parse_scenario, run_scenario, Scenario, Trace};
use context_assembly::vocabulary::Verdict;
use context_assembly::{Profile, ProfileName};
use serde_json::{json, Value};

/// A user turn: prompt `n`, one Bash call whose output is `output_tokens` tokens, an answer.
fn turn(n: usize, output_tokens: usize) -> [Value; 3] {
    [
        json!({"kind": "user", "prompt": format!("Task {n}: run the step.")}),
        json!({"kind": "assistant", "blocks": [{
            "type": "tool_use", "id": format!("b{n}"), "name": "Bash",
            "input": {"command": format!("run {n}")},
            "output": format!("OUT{n}:{}", "o".repeat(output_tokens * 4 - 5)),
        }]}),
        json!({"kind": "assistant", "blocks": [{"type": "text", "text": format!("Task {n} is done.")}]}),
    ]
}

/// A scenario of turns with these outputs under `profile`, in a window of `window` tokens.
fn scenario_in(window: u64, profile: &str, outputs: &[usize]) -> Scenario {
    let steps: Vec<Value> = (outputs.iter().enumerate())
        .flat_map(|(i, tokens)| turn(i + 1, *tokens))
        .collect();
    let json = json!({
        "profile": profile,
        "config": {"contextWindow": window, "outputReserve": 20_000},
        "steps": steps,
    });
    parse_scenario(&json.to_string()).expect("a valid scenario")
}

/// [`scenario_in`] a 100K window: Aider's budget is a sixteenth of it, 6,250.
fn scenario(profile: &str, outputs: &[usize]) -> Scenario {
    scenario_in(100_000, profile, outputs)
}

/// [`scenario_in`] a 123K window: about 100K once Claude Code 2.1.88's prefix (about 23,000
/// tokens) is sent, so OpenCode's limits read 103,000.
fn opencode_scenario(outputs: &[usize]) -> Scenario {
    scenario_in(123_000, "opencode-style", outputs)
}

/// The first step that compacted, with its reports.
fn first_compaction(trace: &Trace) -> (usize, &[CompactionReport]) {
    (trace.steps.iter().enumerate())
        .find(|(_, step)| !step.turn.compaction.is_empty())
        .map(|(index, step)| (index, step.turn.compaction.as_slice()))
        .expect("the scenario compacts")
}

/// The request a step sent, as JSON text.
fn request_text(trace: &Trace, step: usize) -> String {
    serde_json::to_string(&trace.request(step).expect("the step sent a request")).unwrap()
}

/// The reason of the step's auto-compaction decision.
fn auto_compaction_reason(trace: &Trace, step: usize) -> String {
    let decision = (trace.steps[step].turn.decisions.iter())
        .find(|d| d.subject == "auto-compaction")
        .expect("auto-compaction says why it ran");
    assert_eq!(decision.verdict, Verdict::Needed);
    decision.reason.clone()
}

#[test]
fn the_presets_are_claude_codes_requests_with_another_compaction() {
    for (name, preset) in [
        (ProfileName::OpenCode, Profile::opencode_style()),
        (ProfileName::Aider, Profile::aider_style()),
    ] {
        assert_eq!(Profile::preset(name), preset);
        assert_eq!(name.as_str().parse::<ProfileName>(), Ok(name));
        let claude_code = Profile::claude_code_2_1_88();
        assert_eq!(preset.attachments, claude_code.attachments);
        assert_eq!(preset.token_method, claude_code.token_method);
        assert_ne!(preset.compaction, claude_code.compaction);
    }
    assert_eq!(ProfileName::OpenCode.as_str(), "opencode-style");
    assert_eq!(ProfileName::Aider.as_str(), "aider-style");
}

#[test]
fn opencode_prunes_at_its_overflow_limit_and_stops_when_that_is_enough() {
    // Three turns of 25K and one of 5K: the fourth turn's tool round reaches 80K. The last two
    // turns are protected (the prefix counts too); of the older outputs the newest 40K stay, so turn 1's 25K go,
    // which is more than the 20K minimum and brings the context under the limit.
    let trace = run_scenario(&opencode_scenario(&[25_000, 25_000, 25_000, 5_000])).unwrap();
    let (step, reports) = first_compaction(&trace);
    let reason = auto_compaction_reason(&trace, step);
    assert!(
        reason.contains("at or above OpenCode's overflow limit of 103,000")
            && reason.contains("newest 40,000 tokens")
            && reason.contains("more than 20,000"),
        "{reason}"
    );
    assert_eq!(reports.len(), 1, "the prune was enough: no summary");
    let prune = &reports[0];
    assert_eq!(prune.policy.as_str(), "opencode.prune");
    assert!(prune.applied && prune.tokens_before >= 103_000 && prune.tokens_after < 103_000);
    // Turn 1's 25,000 tokens less the placeholder's 8.
    assert_eq!(prune.tokens_before - prune.tokens_after, 24_992);
    let after = request_text(&trace, step);
    assert!(after.contains("[Old tool result content cleared]"));
    for kept in ["OUT2:", "OUT3:", "OUT4:"] {
        assert!(after.contains(kept), "{kept} is protected");
    }
    assert!(!after.contains("OUT1:"));
}

#[test]
fn opencode_summarises_with_a_verbatim_tail_when_the_prune_frees_too_little() {
    // 25K, then 50K, then a 5K turn that reaches 80K: the two protected turns hold the large
    // output, and turn 1's 25K is within the 40K protected, so the prune frees nothing and the
    // anchored summary follows. Its tail (a quarter of the 80K usable, clamped to 8,000)
    // holds the last turn whole and the end of the 50K turn.
    let trace = run_scenario(&opencode_scenario(&[25_000, 50_000, 5_000])).unwrap();
    let (step, reports) = first_compaction(&trace);
    let policies: Vec<&str> = reports.iter().map(|r| r.policy.as_str()).collect();
    assert_eq!(policies, ["opencode.prune", "opencode.summary"]);
    assert!(!reports[0].applied);
    assert!(
        reports[0].reason.contains("needs more than 20,000"),
        "{}",
        reports[0].reason
    );
    let summary = &reports[1];
    assert!(summary.applied && summary.tokens_after < 103_000);
    let tail = (summary.decisions.iter())
        .find(|d| d.subject == "verbatim tail")
        .expect("the tail is reported");
    let detail = tail.detail.as_deref().unwrap_or_default();
    assert!(
        detail.contains("1 whole turns and the end of a split one"),
        "{detail}"
    );
    assert!(detail.contains("of 8,000 preserve tokens"), "{detail}");
    let after = request_text(&trace, step);
    assert!(after.contains("OUT3:") && after.contains("Task 2 is done."));
    assert!(!after.contains("OUT1:") && !after.contains("OUT2:"));
}

#[test]
fn aider_summarises_the_history_once_it_exceeds_its_budget() {
    // Outputs of 2,400 tokens: two turns stay within 6,250, the third's tool round does not.
    let trace = run_scenario(&scenario("aider-style", &[2_400, 2_400, 2_400])).unwrap();
    let (step, reports) = first_compaction(&trace);
    assert_eq!(step, 7, "the third turn's tool round");
    let reason = auto_compaction_reason(&trace, step);
    assert!(
        reason.contains("over Aider's budget of 6,250") && reason.contains("§12.8"),
        "{reason}"
    );
    assert_eq!(reports.len(), 1);
    let report = &reports[0];
    assert_eq!(report.policy.as_str(), "aider.budgets");
    assert!(report.applied && report.summary.is_some());
    // The newest messages under half the budget (3,125) stay: the third turn and the second's
    // answer; the split then moves back until the summarised head ends with an assistant
    // message, which keeps the second output (on the user's side) and its call too.
    let after = request_text(&trace, step);
    assert!(after.contains("OUT3:") && after.contains("OUT2:"));
    assert!(!after.contains("OUT1:"));
    let kept = (report.decisions.iter())
        .find(|d| d.subject == "chat history")
        .and_then(|d| d.detail.as_deref());
    assert_eq!(kept, Some("6 records kept verbatim"));
}

#[test]
fn claude_code_compacts_the_same_session_at_its_own_threshold() {
    // The same scenario as the prune above: Claude Code summarises everything at 67,000.
    let trace = run_scenario(&scenario("claude-code", &[25_000, 25_000, 25_000, 5_000])).unwrap();
    let (_, reports) = first_compaction(&trace);
    let policies: Vec<&str> = reports.iter().map(|r| r.policy.as_str()).collect();
    assert_eq!(policies, ["claude-code.full"]);
}

#[test]
fn compare_profiles_runs_both_presets() {
    // The peers are built on Claude Code 2.1.88, so they are compared with it.
    let scenario = scenario("claude-code-2.1.88", &[25_000, 50_000, 5_000]);
    let profiles = [
        ProfileName::ClaudeCode2188,
        ProfileName::OpenCode,
        ProfileName::Aider,
    ];
    let comparison = compare_profiles(&scenario, &profiles, &[]).unwrap();
    let policies: Vec<(ProfileName, Vec<&str>)> = (comparison.runs.iter())
        .map(|(name, run)| {
            let seen = (run.steps.iter())
                .filter_map(|s| s.compacted.as_ref())
                .map(|c| c.policy.as_str())
                .collect();
            (*name, seen)
        })
        .collect();
    assert_eq!(
        policies[0],
        (ProfileName::ClaudeCode2188, vec!["claude-code.full"])
    );
    // OpenCode prunes first; here the prune never makes enough room, so a summary follows.
    assert_eq!(policies[1].0, ProfileName::OpenCode);
    assert!(
        policies[1].1.iter().all(|p| p.starts_with("opencode."))
            && policies[1].1.last() == Some(&"opencode.summary"),
        "{policies:?}"
    );
    assert_eq!(policies[2].0, ProfileName::Aider);
    assert!(
        !policies[2].1.is_empty() && policies[2].1.iter().all(|p| *p == "aider.budgets"),
        "{policies:?}"
    );
    // A summary's call is billed to the step that compacted, whichever agent's it is.
    for (name, run) in &comparison.runs {
        assert!(
            run.steps.iter().any(|s| s.summary_call.is_some()),
            "{}",
            name.as_str()
        );
    }
}

#[test]
fn aider_summarises_again_while_one_pass_leaves_the_history_over_its_budget() {
    // Ten tool rounds in one turn, the fifth printing 10,000 tokens. The first pass keeps the
    // newest messages verbatim, and that output with its call is among them, so the result is
    // still over the budget: §12.8's summariser recurses on its own result, down to summarising
    // everything past depth 3, and the history fits again. (Before the recursion, the breaker
    // failed three rounds in a row here and stopped trying for the rest of the turn.)
    let mut steps = vec![json!({"kind": "user", "prompt": "Go."})];
    for n in 0..10 {
        let output = if n == 4 {
            "o".repeat(40_000)
        } else {
            "o".repeat(40)
        };
        steps.push(json!({"kind": "assistant", "blocks": [{
            "type": "tool_use", "id": format!("b{n}"), "name": "Bash",
            "input": {"command": format!("run {n}")}, "output": output,
        }]}));
    }
    let json = json!({
        "profile": "aider-style",
        "config": {"contextWindow": 100_000, "outputReserve": 20_000},
        "steps": steps,
    });
    let trace = run_scenario(&parse_scenario(&json.to_string()).unwrap()).unwrap();
    let needed = |step: usize| {
        (trace.steps[step].turn.decisions.iter())
            .any(|d| d.subject == "auto-compaction" && d.verdict == Verdict::Needed)
    };
    assert!(!needed(4));
    assert!(needed(5));
    assert!((6..=10).all(|step| !needed(step)));
    let passes: Vec<&str> = (trace.steps[5].turn.compaction.iter())
        .flat_map(|report| &report.decisions)
        .filter(|d| d.subject.starts_with("chat history"))
        .map(|d| d.reason.as_str())
        .collect();
    assert!(passes.len() >= 2, "{passes:#?}");
    assert!(passes[1].contains("still at or over the budget of 6,250: summarised again at depth 1"));
    let failed = (trace.steps.iter())
        .flat_map(|step| &step.turn.decisions)
        .any(|d| d.verdict == Verdict::Failed);
    assert!(!failed);
}
