//! Snapshot [C]'s World State as switches (codex.md §10): the bundle order of X28, AGENTS.md
//! diffed against what the history holds (§10.8), the truncation warning (§10.11).

use context_assembly::codex::rules::CodexRules;
use context_assembly::scenario::{parse_scenario, run_scenario, Trace};

/// The switches that turn `codex-0.139.0` ([B], the release before the snapshot) into
/// [`CodexRules::world_state`].
const WORLD_STATE: &str = r#""codex.remoteCompactionV2": true, "codex.truncationWarning": true,
    "codex.agentsMdWorldState": true, "codex.worldStateStepCapture": true, "codexContext.developerInstructionsFirst": true"#;

fn run(switches: &str, steps: &str) -> Trace {
    let json = format!(
        r#"{{"profile": "codex-0.139.0", "cwd": "/repo", "switches": {{{switches}}},
            "files": {{"/repo/.git/HEAD": "ref: refs/heads/main\n", "/repo/AGENTS.md": "Old rules."}},
            "steps": [{{"kind": "turnSettings", "developerInstructions": "Be brief."}},
                      {{"kind": "user", "prompt": "one"}},
                      {{"kind": "assistant", "blocks": [{{"type": "text", "text": "ok"}}]}},
                      {steps}]}}"#
    );
    run_scenario(&parse_scenario(&json).unwrap()).unwrap()
}

/// The last request's blocks, `role: text`.
fn blocks(trace: &Trace) -> Vec<String> {
    let request = (0..trace.steps.len())
        .rev()
        .find_map(|i| trace.request(i))
        .unwrap();
    (request.messages.iter())
        .flat_map(|m| {
            m.content
                .iter()
                .map(move |b| format!("{}: {}", m.role.as_str(), b.text))
        })
        .collect()
}

#[test]
fn the_switches_are_the_world_state_preset() {
    let rules = CodexRules::world_state();
    assert!(rules.remote_compaction_v2 && rules.truncation_warning && rules.agents_md_world_state);
    assert!(rules.world_state_step_capture);
    assert!(rules.context.developer_instructions_first);
    assert_eq!(
        CodexRules {
            remote_compaction_v2: false,
            world_state_step_capture: false,
            truncation_warning: false,
            agents_md_world_state: false,
            context: CodexRules::codex_0_139_0().context,
            ..rules
        },
        CodexRules::codex_0_139_0()
    );
}

#[test]
fn developer_instructions_come_before_the_permissions() {
    let c = blocks(&run(WORLD_STATE, r#"{"kind": "user", "prompt": "two"}"#));
    assert_eq!(c[0], "developer: Be brief.");
    assert!(c[1].starts_with("developer: <permissions instructions>"));
    let b = blocks(&run("", r#"{"kind": "user", "prompt": "two"}"#));
    assert!(b[0].starts_with("developer: <permissions instructions>"));
    assert_eq!(b[1], "developer: Be brief.");
}

#[test]
fn a_resumed_thread_gets_the_changed_agents_md_with_a_supersede_notice() {
    let steps = r#"{"kind": "writeFile", "path": "/repo/AGENTS.md", "content": "New rules."},
                   {"kind": "resume"}, {"kind": "user", "prompt": "two"}"#;
    let c = blocks(&run(WORLD_STATE, steps));
    let block = &c[c.len() - 2];
    assert!(block.starts_with("user: # AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nThese AGENTS.md instructions replace"), "{block}");
    assert!(
        block.ends_with("\n\nNew rules.\n</INSTRUCTIONS>"),
        "{block}"
    );
    // [B] never sends AGENTS.md again (X19)
    let b = blocks(&run("", steps));
    assert_eq!(b[b.len() - 2], "assistant: ok");
    // without a resume the session keeps the AGENTS.md it loaded, in [C] too
    let live = blocks(&run(
        WORLD_STATE,
        r#"{"kind": "writeFile", "path": "/repo/AGENTS.md", "content": "New rules."},
                                          {"kind": "user", "prompt": "two"}"#,
    ));
    assert_eq!(live[live.len() - 2], "assistant: ok");
}

#[test]
fn removed_agents_md_is_withdrawn() {
    let c = blocks(&run(
        WORLD_STATE,
        r#"{"kind": "deleteFile", "path": "/repo/AGENTS.md"}, {"kind": "resume"},
                                        {"kind": "user", "prompt": "two"}"#,
    ));
    assert!(c[c.len() - 2].contains("<INSTRUCTIONS>\nThe AGENTS.md instructions given earlier in this conversation no longer apply.\n</INSTRUCTIONS>"));
}

#[test]
fn a_cut_exec_output_opens_with_the_warning() {
    let output: String = (1..=20_000).map(|i| format!("{i}\\n")).collect();
    let steps = format!(
        r#"{{"kind": "user", "prompt": "count"}},
           {{"kind": "assistant", "blocks": [{{"type": "tool_use", "id": "c1", "name": "exec_command",
             "input": {{"cmd": "seq 20000"}}, "output": "{output}"}}]}}"#
    );
    let trace = run(WORLD_STATE, &steps);
    let result = &trace.steps.last().unwrap().turn.tool_results[0].content;
    assert!(result.contains("\nOutput:\nWarning: truncated output (original token count: 27224)\nTotal output lines: 20000\n\n1\n"), "{}", &result[..200]);
}

#[test]
fn a_date_rollover_inside_a_turn_reaches_the_tool_round_request() {
    // The turn starts ten seconds before midnight; the model's tool call comes after it.
    let run_at = |switches: &str| {
        let json = format!(
            r#"{{"profile": "codex-0.139.0", "cwd": "/repo", "startMs": 1764633590000, "switches": {{{switches}}},
                "steps": [{{"kind": "user", "prompt": "build"}}, {{"kind": "advanceTime", "ms": 20000}},
                  {{"kind": "assistant", "blocks": [{{"type": "tool_use", "id": "c1", "name": "exec_command",
                    "input": {{"cmd": "make"}}, "output": "ok"}}]}}]}}"#
        );
        blocks(&run_scenario(&parse_scenario(&json).unwrap()).unwrap())
    };
    let c = run_at(WORLD_STATE);
    let last = c.last().unwrap();
    assert!(
        last.starts_with("user: <environment_context>")
            && last.contains("<current_date>2025-12-02</current_date>"),
        "{last}"
    );
    let b = run_at("");
    assert!(!b.last().unwrap().starts_with("user: <environment_context>"));
}
