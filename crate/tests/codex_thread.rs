//! Codex threads reopened, forked and rolled back as scenario steps (codex.md §2.7, §2.8, X26):
//! what the next request holds after each, under Codex 0.139.0 (`codex-0.139.0`), whose layout
//! after a compaction the spec describes (§4.5).

use context_assembly::codex::compact::SUMMARY_PREFIX;
use context_assembly::scenario::{parse_scenario, run_scenario, Trace};

fn run(steps: &str) -> Trace {
    let json = format!(
        r#"{{"profile": "codex-0.139.0", "cwd": "/repo",
            "files": {{"/repo/.git/HEAD": "ref: refs/heads/main\n", "/repo/AGENTS.md": "Keep it short."}},
            "steps": [{steps}]}}"#
    );
    run_scenario(&parse_scenario(&json).unwrap()).unwrap()
}

/// The last request's messages as `role: first line of each block`.
fn last_request(trace: &Trace) -> Vec<String> {
    let request = (0..trace.steps.len())
        .rev()
        .find_map(|index| trace.request(index))
        .unwrap();
    let mut lines = Vec::new();
    for message in &request.messages {
        for block in &message.content {
            let first = block.text.lines().next().unwrap_or("");
            lines.push(format!("{}: {first}", message.role.as_str()));
        }
    }
    lines
}

const TWO_TURNS: &str = r#"
    {"kind": "user", "prompt": "one"},
    {"kind": "assistant", "blocks": [{"type": "text", "text": "answer one"}]},
    {"kind": "user", "prompt": "two"},
    {"kind": "assistant", "blocks": [{"type": "text", "text": "answer two"}]}"#;

#[test]
fn a_resume_keeps_the_history_and_diffs_against_the_last_turn() {
    let resumed = run(&format!(
        r#"{TWO_TURNS}, {{"kind": "resume"}}, {{"kind": "user", "prompt": "three"}}"#
    ));
    let plain = run(&format!(
        r#"{TWO_TURNS}, {{"kind": "user", "prompt": "three"}}"#
    ));
    assert_eq!(last_request(&resumed), last_request(&plain));
    // nothing changed since the second turn: no context item before the third prompt
    let lines = last_request(&resumed);
    assert_eq!(
        &lines[lines.len() - 2..],
        ["assistant: answer two", "user: three"]
    );
}

#[test]
fn a_resume_with_another_model_opens_the_next_turn_with_a_model_switch() {
    let trace = run(&format!(
        r#"{TWO_TURNS}, {{"kind": "resume"}},
           {{"kind": "turnSettings", "model": "gpt-5.4", "modelInstructions": "New rules."}},
           {{"kind": "user", "prompt": "three"}}"#
    ));
    let lines = last_request(&trace);
    assert_eq!(lines[lines.len() - 2], "developer: <model_switch>");
}

#[test]
fn a_rollback_drops_the_turn_and_the_context_recorded_before_it() {
    let trace = run(&format!(
        r#"{TWO_TURNS},
           {{"kind": "turnSettings", "sandboxMode": "read-only"}},
           {{"kind": "user", "prompt": "three"}},
           {{"kind": "rollback", "turns": 1}},
           {{"kind": "user", "prompt": "three again"}}"#
    ));
    let lines = last_request(&trace);
    assert!(
        !lines.iter().any(|line| line == "user: three"),
        "{lines:#?}"
    );
    // The baseline stayed at the rolled-back turn's settings (read-only): the permissions
    // update went with the turn and is not sent again.
    assert_eq!(
        &lines[lines.len() - 2..],
        ["assistant: answer two", "user: three again"]
    );
    let rollback = &trace.steps[6].turn.decisions[0];
    assert!(
        rollback.reason.starts_with("1 of 1 user turns dropped"),
        "{}",
        rollback.reason
    );
}

#[test]
fn rolling_back_the_first_turn_keeps_the_initial_context_and_the_baseline() {
    let trace = run(&format!(
        r#"{TWO_TURNS}, {{"kind": "rollback", "turns": 5}}, {{"kind": "user", "prompt": "again"}}"#
    ));
    // The walk up never crosses the first turn: the initial context stays, and the next
    // turn sends no context again.
    let lines = last_request(&trace);
    assert_eq!(lines[0], "developer: <permissions instructions>");
    assert_eq!(lines[1], "user: # AGENTS.md instructions for /repo");
    assert_eq!(&lines[3..], ["user: again"]);
}

#[test]
fn rolling_back_a_turn_that_resent_the_initial_context_clears_the_baseline() {
    // After a pre-turn (manual) compaction the next turn sends the whole initial context;
    // rolling that turn back removes its bundle, so the turn after sends it again.
    let trace = run(&format!(
        r#"{TWO_TURNS},
           {{"kind": "turnSettings", "developerInstructions": "Answer in French."}},
           {{"kind": "compact", "policy": "codex.local", "summary": "Two answers given."}},
           {{"kind": "user", "prompt": "three"}},
           {{"kind": "rollback", "turns": 1}},
           {{"kind": "user", "prompt": "three again"}}"#
    ));
    let lines = last_request(&trace);
    let tail = &lines[lines.len() - 5..];
    assert_eq!(tail[0], "developer: <permissions instructions>");
    assert_eq!(tail[1], "developer: Answer in French.");
    assert_eq!(tail[4], "user: three again");
    assert!(trace.steps[7].turn.decisions[0]
        .reason
        .contains("the next turn sends the whole initial context"));
}

#[test]
fn a_fork_keeps_the_turns_before_it_and_the_parent_baseline() {
    let trace = run(&format!(
        r#"{TWO_TURNS}, {{"kind": "fork", "beforeUserTurn": 1}},
           {{"kind": "turnSettings", "collaborationMode": "Plan first."}},
           {{"kind": "user", "prompt": "other two"}}"#
    ));
    let lines = last_request(&trace);
    assert!(
        !lines
            .iter()
            .any(|line| line.contains("two") && line != "user: other two"),
        "{lines:#?}"
    );
    // X26: only the change is sent, not the whole initial context
    assert_eq!(
        &lines[lines.len() - 3..],
        [
            "assistant: answer one",
            "developer: <collaboration_mode>Plan first.</collaboration_mode>",
            "user: other two"
        ]
    );
}

#[test]
fn thread_steps_are_codex_only_and_a_fork_cannot_reach_behind_a_compaction() {
    let json = r#"{"profile": "claude-code", "steps": [{"kind": "resume"}]}"#;
    let error = run_scenario(&parse_scenario(json).unwrap()).unwrap_err();
    assert!(
        format!("{error}").contains("is a Codex thread operation"),
        "{error}"
    );
    let json = format!(
        r#"{{"profile": "codex-0.139.0", "steps": [{TWO_TURNS},
            {{"kind": "compact", "policy": "codex.local"}}, {{"kind": "fork", "beforeUserTurn": 0}}]}}"#
    );
    let error = run_scenario(&parse_scenario(&json).unwrap()).unwrap_err();
    assert!(
        format!("{error}").contains("were replaced by a compaction"),
        "{error}"
    );
    let json = r#"{"profile": "codex-0.139.0", "steps": [{"kind": "rollback", "turns": 0}]}"#;
    assert!(parse_scenario(json).is_err());
}

#[test]
fn a_prompt_answers_calls_still_awaiting_results_with_aborted() {
    // The host never ran the call: Codex's request normalisation gives it `aborted` (§5.3).
    let trace = run(r#"{"kind": "user", "prompt": "run it"},
           {"kind": "assistant", "blocks": [{"type": "tool_use", "id": "call_1", "name": "exec_command", "input": {"cmd": "make"}}]},
           {"kind": "user", "prompt": "never mind"}"#);
    let request = trace.request(2).unwrap();
    let outputs: Vec<&str> = (request.messages.iter())
        .flat_map(|message| &message.content)
        .filter(|block| {
            block.tool_use_id.as_deref() == Some("call_1") && block.source != "assistant"
        })
        .map(|block| block.text.as_str())
        .collect();
    assert!(
        outputs.iter().any(|text| text.ends_with("aborted")),
        "{outputs:?}"
    );
}

#[test]
fn with_fork_full_context_the_fork_sends_the_whole_initial_context() {
    let steps = format!(
        r#"{TWO_TURNS}, {{"kind": "fork", "beforeUserTurn": 1}}, {{"kind": "user", "prompt": "other two"}}"#
    );
    let json = format!(
        r#"{{"profile": "codex-0.139.0", "cwd": "/repo", "switches": {{"codex.forkFullContext": true}},
            "files": {{"/repo/.git/HEAD": "ref: refs/heads/main\n"}}, "steps": [{steps}]}}"#
    );
    let trace = run_scenario(&parse_scenario(&json).unwrap()).unwrap();
    let lines = last_request(&trace);
    assert_eq!(
        &lines[lines.len() - 3..],
        [
            "developer: <permissions instructions>",
            "user: <environment_context>",
            "user: other two"
        ]
    );
}

/// A long prompt: `tokens` of Codex's estimate (4 bytes a token), one word repeated.
fn long_prompt(word: &str, tokens: usize) -> String {
    format!("{word} ").repeat(tokens * 4 / (word.len() + 1))
}

/// Three turns of about 12,000 tokens each under a 200,000-token window, a turn-settings
/// step, then a fourth prompt.
fn downshift(settings: &str) -> Trace {
    let json = format!(
        r#"{{"profile": "codex-0.139.0", "cwd": "/repo", "config": {{"contextWindow": 200000}},
            "files": {{"/repo/.git/HEAD": "ref: refs/heads/main\n"}},
            "steps": [
              {{"kind": "user", "prompt": "{one}"}},
              {{"kind": "assistant", "blocks": [{{"type": "text", "text": "answer one"}}]}},
              {{"kind": "user", "prompt": "{two}"}},
              {{"kind": "assistant", "blocks": [{{"type": "text", "text": "answer two"}}]}},
              {{"kind": "user", "prompt": "{three}"}},
              {{"kind": "assistant", "blocks": [{{"type": "text", "text": "answer three"}}]}},
              {{"kind": "turnSettings", {settings}}},
              {{"kind": "user", "prompt": "four"}}]}}"#,
        one = long_prompt("alpha", 12_000),
        two = long_prompt("beta", 12_000),
        three = long_prompt("gamma", 12_000),
    );
    run_scenario(&parse_scenario(&json).unwrap()).unwrap()
}

/// The last step's decision on `subject`: its verdict and reason.
fn last_decision(trace: &Trace, subject: &str) -> Option<(String, String)> {
    let turn = &trace.steps.last().unwrap().turn;
    (turn.decisions.iter())
        .find(|decision| decision.subject == subject)
        .map(|decision| {
            (
                decision.verdict.as_str().to_string(),
                decision.reason.clone(),
            )
        })
}

#[test]
fn a_switch_to_a_model_with_a_smaller_window_compacts_before_the_turn() {
    // codex.md §4.2 item 1: 42,000 tokens or so are over the new model's limit (90 % of
    // 45,000) though far under the old one's, so the history is compacted first, under the
    // previous model's settings; the incoming message is not summarised (X9) and the
    // whole initial context follows the summary, the model switch first (§2.5, §2.6).
    let trace = downshift(
        r#""model": "gpt-5.4-mini", "modelInstructions": "Small model rules.", "contextWindow": 45000"#,
    );
    let turn = &trace.steps.last().unwrap().turn;
    assert_eq!(turn.compaction.len(), 1, "{:#?}", turn.decisions);
    assert!(turn.compaction[0].applied);
    let (verdict, reason) = last_decision(&trace, "model-downshift compaction").unwrap();
    assert_eq!(verdict, "needed");
    assert!(
        reason.contains("gpt-5.3-codex (effective window 190000)"),
        "{reason}"
    );
    assert!(
        reason.contains("gpt-5.4-mini (effective window 42750, auto-compact limit 40500)"),
        "{reason}"
    );
    assert!(
        reason.contains("over the new auto-compact limit"),
        "{reason}"
    );
    // the regular pre-turn check then finds the context under the new limit
    assert!(last_decision(&trace, "auto-compaction").is_none());
    let summary = turn.compaction[0].summary.as_deref().unwrap();
    assert!(!summary.contains("four"));
    // the prompts are long: each line is cut to its first 40 characters
    let lines: Vec<String> = (last_request(&trace).iter())
        .map(|line| line.chars().take(40).collect())
        .collect();
    let prefix: String = SUMMARY_PREFIX.chars().take(34).collect();
    let summary_at = (lines.iter())
        .position(|line| *line == format!("user: {prefix}"))
        .unwrap();
    assert_eq!(
        lines[summary_at - 1],
        "user: gamma gamma gamma gamma gamma gamm"
    );
    assert_eq!(
        lines[summary_at + 1],
        "developer: <model_switch>",
        "{lines:#?}"
    );
    assert_eq!(lines[lines.len() - 2], "user: <environment_context>");
    assert_eq!(lines[lines.len() - 1], "user: four");
}

#[test]
fn no_downshift_compaction_without_a_model_change_a_smaller_window_or_an_overfull_context() {
    // codex.md §4.2 item 1: each condition is needed. The same model with a smaller window
    // is the ordinary pre-turn check's (here over the limit: it compacts, as that check);
    // a larger window, or a context under the new limit, compacts nothing first.
    let same_model = downshift(r#""contextWindow": 40000"#);
    assert!(last_decision(&same_model, "model-downshift compaction").is_none());
    let (verdict, _) = last_decision(&same_model, "auto-compaction").unwrap();
    assert_eq!(verdict, "needed");
    let larger = downshift(r#""model": "gpt-5.4", "contextWindow": 1000000"#);
    assert!(last_decision(&larger, "model-downshift compaction").is_none());
    assert!(larger.steps.last().unwrap().turn.compaction.is_empty());
    let fits = downshift(r#""model": "gpt-5.4-mini", "contextWindow": 100000"#);
    let (verdict, reason) = last_decision(&fits, "model-downshift compaction").unwrap();
    assert_eq!(verdict, "not-applied");
    assert!(reason.contains("fits the new model's limit"), "{reason}");
    assert!(fits.steps.last().unwrap().turn.compaction.is_empty());
}

#[test]
fn a_context_window_below_the_output_reserve_is_refused_where_it_was_given() {
    let json = r#"{"profile": "codex", "config": {"contextWindow": 50000, "outputReserve": 8000},
        "steps": [{"kind": "turnSettings", "contextWindow": 5000}]}"#;
    let error = run_scenario(&parse_scenario(json).unwrap())
        .unwrap_err()
        .to_string();
    assert!(error.contains("steps[0].contextWindow"), "{error}");
    assert!(error.contains("output reserve (8000)"), "{error}");
}

/// Two turns of about 30,000 tokens under a 50,000-token window (Codex's limit: 45,000),
/// with the host's `autoCompact` off and `switches` as given.
fn over_the_limit_with_auto_compact_off(profile: &str, switches: &str) -> Trace {
    let json = format!(
        r#"{{"profile": "{profile}", "cwd": "/repo", "switches": {{{switches}}},
            "config": {{"contextWindow": 50000, "outputReserve": 8000, "autoCompact": false}},
            "steps": [
              {{"kind": "user", "prompt": "{one}"}},
              {{"kind": "assistant", "blocks": [{{"type": "text", "text": "answer one"}}]}},
              {{"kind": "user", "prompt": "{two}"}},
              {{"kind": "assistant", "blocks": [{{"type": "text", "text": "answer two"}}]}},
              {{"kind": "user", "prompt": "three"}}]}}"#,
        one = long_prompt("alpha", 25_000),
        two = long_prompt("beta", 25_000),
    );
    run_scenario(&parse_scenario(&json).unwrap()).unwrap()
}

#[test]
fn codex_compacts_at_its_limit_even_when_the_host_switched_auto_compaction_off() {
    // codex.md §4.1, X8: the client's limit can be lowered, never removed, so the host's
    // switch does not hold under Codex's profiles; the decision says it was ignored.
    for profile in ["codex", "codex-0.139.0"] {
        let trace = over_the_limit_with_auto_compact_off(profile, "");
        let turn = &trace.steps.last().unwrap().turn;
        assert_eq!(turn.compaction.len(), 1, "{profile}");
        let (verdict, reason) = last_decision(&trace, "autoCompact").unwrap();
        assert_eq!(verdict, "skipped");
        assert!(reason.contains("has no such setting"), "{reason}");
    }
    // Claude Code's switch holds, and so does Codex's with the switch honoured
    let claude = over_the_limit_with_auto_compact_off("claude-code", "");
    assert!(claude
        .steps
        .iter()
        .all(|step| step.turn.compaction.is_empty()));
    let honoured = over_the_limit_with_auto_compact_off(
        "codex",
        r#""compaction.honourAutoCompactSwitch": true"#,
    );
    assert!(honoured
        .steps
        .iter()
        .all(|step| step.turn.compaction.is_empty()));
    assert!(last_decision(&honoured, "autoCompact").is_none());
}
