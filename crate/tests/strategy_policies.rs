//! The strategies.md policies beyond the cheap ones (§4, §5, §7, §8, §10.3, §11–§13) on a live
//! session, chosen as a `compact` step or a compaction preview chooses them: by id, with
//! their knobs under camelCase names; and the two that a session keeps on
//! (`config.policies`), which act: the file tracker's list reaches the next request (§4.3–§4.4),
//! the read guard refuses a stale write (§8.1).
#![cfg(feature = "serde")]

mod common;

use common::{read, session_in};

use context_assembly::compact::policies::file_tracker::{EXPLANATION, HEADING};
use context_assembly::compact::policies::read_guard::GuardError;
use context_assembly::profile::ProfileName;
use context_assembly::scenario::{parse_compaction_options, parse_scenario, run_scenario, Trace};
use context_assembly::session::{
    CompactionPlan, PolicyId, ResponseBlock, Session, SessionConfig, SessionOptions, SummarySource,
};
use context_assembly::snapshot::{JournaledSession, SessionSpec};
use context_assembly::vocabulary::{Decision, Verdict};
use context_assembly::Profile;

fn session(context_window: u64) -> Session {
    let config = SessionConfig {
        context_window,
        ..SessionConfig::default()
    };
    // The engine's own short prefix: these policies' windows are small, and what they do
    // to the history does not depend on the release's prefix.
    let profile = Profile {
        claude_prefix: None,
        ..Profile::claude_code_2_1_88()
    };
    session_in(profile, None, config)
}

/// `lines` lines of about ten tokens each.
fn text(lines: usize, tag: &str) -> String {
    (0..lines)
        .map(|i| format!("let {tag}_{i} = compute({i}) + offset;\n"))
        .collect()
}

/// Three turns, each reading a file of `lines` lines and answering.
fn worked(context_window: u64, lines: usize) -> Session {
    let mut s = session(context_window);
    for turn in 0..3u64 {
        let path = format!("src/f{turn}.ts");
        let at = 1_000 + turn * 10_000;
        s.write_file(&path, text(lines, &format!("f{turn}")).as_str(), at)
            .unwrap();
        s.submit(&format!("look at f{turn}"), at + 1);
        s.respond(vec![read(&format!("r{turn}"), &path)], at + 2)
            .unwrap();
        s.respond(vec![ResponseBlock::Text(format!("f{turn} read."))], at + 3)
            .unwrap();
    }
    s
}

fn plan(s: &mut Session, options: &str) -> CompactionPlan {
    let (options, _) = parse_compaction_options(options).unwrap();
    s.plan_compaction(options, 40_000)
}

fn verdict_of(plan: &CompactionPlan, subject: &str) -> Verdict {
    plan.decisions
        .iter()
        .find(|d| d.subject == subject)
        .unwrap_or_else(|| panic!("no decision about {subject}: {:#?}", plan.decisions))
        .verdict
}

#[test]
fn opencode_summary_keeps_a_verbatim_tail_and_asks_in_its_own_shape() {
    let mut s = worked(200_000, 400);
    // A 2,000-token preserve budget keeps the last turn (~20 records' worth is too much).
    let plan = plan(
        &mut s,
        r#"{"policy":"opencode.summary","instructions":"keep test names","params":{"preserveRecentTokens":2000}}"#,
    );
    assert!(plan.applies, "{}", plan.reason);
    assert!(plan.summarised_records > 0);
    let request = plan.summary_request.as_deref().unwrap();
    assert!(request.contains("## Critical Context"));
    assert!(request.ends_with("Also: keep test names\n"));
    assert_eq!(verdict_of(&plan, "verbatim tail"), Verdict::Kept);
    let report = s
        .apply_compaction(&plan, Some("<summary>Read f0 and f1.</summary>"), 40_000)
        .unwrap();
    assert!(report.applied);
    assert!(report.tokens_after < report.tokens_before);
    assert_eq!(report.summary_source, SummarySource::Host);
    assert!(report
        .summary
        .as_deref()
        .unwrap()
        .contains("Read f0 and f1."));
}

#[test]
fn the_file_tracker_and_the_read_guard_see_an_outside_edit() {
    let mut s = worked(200_000, 10);
    s.write_file("src/f1.ts", "changed outside\n", 35_000)
        .unwrap();
    let tracked = plan(&mut s, r#"{"policy":"cline.file_tracker"}"#);
    assert!(!tracked.applies);
    assert_eq!(verdict_of(&tracked, "/p/src/f1.ts"), Verdict::Included);
    assert_eq!(verdict_of(&tracked, "/p/src/f0.ts"), Verdict::Unchanged);
    let section = tracked.decisions[0].detail.as_deref().unwrap();
    assert!(section.starts_with(HEADING));
    assert!(section.ends_with("\n/p/src/f1.ts"));
    let guarded = plan(&mut s, r#"{"policy":"opencode.read_guard"}"#);
    assert_eq!(verdict_of(&guarded, "/p/src/f1.ts"), Verdict::Denied);
    assert_eq!(verdict_of(&guarded, "/p/src/f2.ts"), Verdict::Included);
}

#[test]
fn aider_summarises_history_over_its_budget() {
    // A 16,384-token window gives a 1,024-token history budget.
    let mut s = worked(16_384, 60);
    let plan = plan(&mut s, r#"{"policy":"aider.budgets"}"#);
    assert!(plan.applies, "{}", plan.reason);
    assert_eq!(verdict_of(&plan, "chat history"), Verdict::Replaced);
    assert_eq!(verdict_of(&plan, "/p/src/f0.ts"), Verdict::Included);
    let budget = plan
        .decisions
        .iter()
        .find(|d| d.subject == "repo map")
        .unwrap();
    assert!(budget.reason.contains("a budget of 2,048 tokens"));
}

#[test]
fn continue_prunes_the_oldest_history_in_a_small_window() {
    let mut s = worked(6_000, 100);
    let plan = plan(
        &mut s,
        r#"{"policy":"continue.counting","params":{"model":"claude-sonnet"}}"#,
    );
    assert!(plan.applies, "{}", plan.reason);
    assert!(plan.decisions[0].reason.contains("× 1.230"));
    assert!(plan.decisions.iter().any(|d| d.verdict == Verdict::Dropped));
}

#[test]
fn clear_thinking_is_chosen_by_id_and_clears_older_turns_thinking() {
    // strategies.md §10.3, on a live session: two turns that thought; the default keeps the
    // last one's thinking.
    let mut s = session(200_000);
    for turn in 0..2u64 {
        let at = 1_000 + turn * 10_000;
        s.submit(&format!("question {turn}"), at);
        s.respond(
            vec![
                ResponseBlock::Thinking(text(30, &format!("t{turn}"))),
                ResponseBlock::Text(format!("answer {turn}")),
            ],
            at + 1,
        )
        .unwrap();
    }
    let cleared = plan(&mut s, r#"{"policy":"anthropic.clear_thinking"}"#);
    assert!(cleared.applies, "{}", cleared.reason);
    assert_eq!(
        verdict_of(&cleared, "anthropic.clear_thinking"),
        Verdict::Cleared
    );
    assert!(verdict_of(&cleared, "thinking of response 0") == Verdict::Cleared);
    let kept_all = plan(
        &mut s,
        r#"{"policy":"anthropic.clear_thinking","params":{"keepAll":true}}"#,
    );
    assert!(!kept_all.applies);
    let error = parse_compaction_options(
        r#"{"policy":"anthropic.clear_thinking","params":{"keepThinkingTurns":2,"keepAll":true}}"#,
    )
    .unwrap_err();
    assert!(
        error
            .to_string()
            .contains("keepThinkingTurns or keepAll, not both"),
        "{error}"
    );
}

#[test]
fn condense_and_provider_compaction_report_their_triggers() {
    let mut s = worked(200_000, 10);
    let classic = plan(&mut s, r#"{"policy":"cline.condense"}"#);
    assert!(!classic.applies);
    assert!(classic.reason.contains("under the trigger of 160,000"));
    let openai = plan(
        &mut s,
        r#"{"policy":"openai.compaction","params":{"compactThreshold":100}}"#,
    );
    assert!(!openai.applies);
    assert_eq!(verdict_of(&openai, "server compaction"), Verdict::Needed);
    let error = parse_compaction_options(r#"{"policy":"cline.condense","params":{"variant":"x"}}"#)
        .unwrap_err();
    assert!(error.to_string().starts_with("params.variant:"), "{error}");
}

// ---- The policies a session keeps on (`config.policies`): they act, not only report ----

/// Runs `steps` under `claude-code` with `config.policies` set to `policies`, `src/a.ts`
/// and `src/b.ts` on disk.
fn kept_on(policies: &[&str], steps: serde_json::Value) -> Trace {
    let scenario = serde_json::json!({
        "profile": "claude-code",
        "cwd": "/p",
        "config": { "policies": policies },
        "files": { "src/a.ts": "export const a = 1;\n", "src/b.ts": "export const b = 2;\n" },
        "steps": steps,
    });
    run_scenario(&parse_scenario(&scenario.to_string()).unwrap()).unwrap()
}

fn tool(id: &str, name: &str, input: serde_json::Value) -> serde_json::Value {
    serde_json::json!({ "kind": "assistant", "blocks": [
        { "type": "tool_use", "id": id, "name": name, "input": input }
    ] })
}

fn user(prompt: &str) -> serde_json::Value {
    serde_json::json!({ "kind": "user", "prompt": prompt })
}

fn outside_write(path: &str, content: &str) -> serde_json::Value {
    serde_json::json!({ "kind": "writeFile", "path": path, "content": content })
}

fn done() -> serde_json::Value {
    serde_json::json!({ "kind": "assistant", "blocks": [{ "type": "text", "text": "Done." }] })
}

/// The `recently_modified_files` attachments of step `i`.
fn tracker_notes(trace: &Trace, i: usize) -> Vec<String> {
    (trace.steps[i].turn.attachments.iter())
        .filter(|a| a.kind.as_str() == "recently_modified_files")
        .map(|a| a.text.clone())
        .collect()
}

/// Whether step `i`'s request carries `needle` in a message.
fn request_has(trace: &Trace, i: usize, needle: &str) -> bool {
    let request = trace.request(i).expect("the step has a request");
    (request.messages.iter()).any(|m| m.content.iter().any(|b| b.text.contains(needle)))
}

/// Step `i`'s decision about `subject` whose reason names `policy`.
fn decision<'t>(trace: &'t Trace, i: usize, subject: &str, policy: &str) -> Option<&'t Decision> {
    (trace.steps[i].turn.decisions.iter())
        .find(|d| d.subject == subject && d.reason.contains(policy))
}

#[test]
fn the_file_tracker_lists_an_outside_change_once_in_the_next_request() {
    // strategies.md §4.3: a watcher on every file whose contents entered the context; the
    // next request drains the changed ones. §4.4: "# Recently Modified Files", an
    // explanation line, then paths only, in the environment details.
    let trace = kept_on(
        &["cline.file_tracker"],
        serde_json::json!([
            user("Look at the code."),
            tool(
                "r1",
                "Read",
                serde_json::json!({ "file_path": "/p/src/a.ts" })
            ),
            done(),
            outside_write("src/a.ts", "export const a = 10;\n"),
            outside_write("src/b.ts", "export const b = 20;\n"),
            user("Carry on."),
            done(),
            user("And now?"),
        ]),
    );
    assert!(tracker_notes(&trace, 1).is_empty(), "nothing changed yet");
    let notes = tracker_notes(&trace, 5);
    let expected = format!(
        "<environment_details>\n{HEADING}\n{EXPLANATION}\nsrc/a.ts\n</environment_details>"
    );
    // b.ts never entered the context: it is not watched.
    assert_eq!(notes, std::slice::from_ref(&expected));
    assert!(
        request_has(&trace, 5, &expected),
        "the section reaches the request"
    );
    let listed = decision(&trace, 5, "/p/src/a.ts", "cline.file_tracker")
        .expect("a decision for the listed file");
    assert_eq!(listed.verdict, Verdict::Included);
    assert!(listed.reason.contains("§4.3–§4.4"), "{}", listed.reason);
    // Drained: the next request lists nothing until another change.
    assert!(tracker_notes(&trace, 7).is_empty());
}

#[test]
fn the_file_tracker_ignores_the_agents_own_writes_and_deletions() {
    // strategies.md §4.3: a write the agent makes is in `recentlyEditedByCline`, so its
    // change event is ignored; §4.6: a deletion raises no change event, and a touch is a
    // change. A mentioned file is tracked (§4.2, `file_mentioned`).
    let trace = kept_on(
        &["cline.file_tracker"],
        serde_json::json!([
            user("Fix @src/b.ts please."),
            tool("r1", "Read", serde_json::json!({ "file_path": "src/a.ts" })),
            tool("e1", "Edit", serde_json::json!({
                "file_path": "src/a.ts", "old_string": "= 1", "new_string": "= 3"
            })),
            done(),
            { "kind": "deleteFile", "path": "src/a.ts" },
            // §4.6: no content hashing, so a touch that keeps the bytes is a change.
            { "kind": "touch", "path": "src/b.ts" },
            user("Next."),
        ]),
    );
    assert!(
        tracker_notes(&trace, 2).is_empty(),
        "the agent's own edit is not listed"
    );
    assert_eq!(
        tracker_notes(&trace, 6),
        [format!(
            "<environment_details>\n{HEADING}\n{EXPLANATION}\nsrc/b.ts\n</environment_details>"
        )]
    );
    let gone = decision(&trace, 6, "/p/src/a.ts", "cline.file_tracker")
        .expect("a decision for the deleted file");
    assert_eq!(gone.verdict, Verdict::NotFound);
    assert!(gone.reason.contains("§4.6"), "{}", gone.reason);
}

#[test]
fn without_the_policy_no_list_is_sent() {
    // strategies.md §4: the tracker is a policy; a session without it sends no list.
    let trace = kept_on(
        &[],
        serde_json::json!([
            user("Look."),
            tool("r1", "Read", serde_json::json!({ "file_path": "src/a.ts" })),
            done(),
            outside_write("src/a.ts", "changed\n"),
            user("Again."),
        ]),
    );
    assert!(tracker_notes(&trace, 4).is_empty());
    assert!(!request_has(&trace, 4, HEADING));
}

#[test]
fn the_read_guard_refuses_an_edit_of_a_file_never_read() {
    // strategies.md §8.1: "if path was never read in this session: fail with error E1".
    let trace = kept_on(
        &["opencode.read_guard"],
        serde_json::json!([
            user("Change a."),
            tool(
                "e1",
                "Edit",
                serde_json::json!({
                    "file_path": "src/a.ts", "old_string": "= 1", "new_string": "= 3"
                })
            ),
            // A new file has nothing to overwrite: the guard lets it be created.
            tool(
                "w1",
                "Write",
                serde_json::json!({ "file_path": "src/new.ts", "content": "x\n" })
            ),
        ]),
    );
    let refusal = GuardError::NeverRead {
        path: "/p/src/a.ts".into(),
    }
    .message();
    let result = &trace.steps[1].turn.tool_results[0];
    assert!(result.is_error);
    assert_eq!(result.content, refusal);
    let denied =
        decision(&trace, 1, "/p/src/a.ts", "opencode.read_guard").expect("the refusal's decision");
    assert_eq!(denied.verdict, Verdict::Denied);
    assert!(denied.reason.contains("§8.1, E1"), "{}", denied.reason);
    assert!(
        !trace.steps[2].turn.tool_results[0].is_error,
        "a new file is written"
    );
}

#[test]
fn the_read_guard_refuses_a_write_over_a_file_changed_since_it_was_read() {
    // strategies.md §8.1: "if mtime(path) > read[session][path]: fail with error E2", and
    // the comparison is of times, not contents: an outside write of the same bytes is a
    // change. The guard answers before the client's own check (which would refuse in its
    // own words), with E2's layout.
    let scenario = serde_json::json!({
        "profile": "claude-code",
        "cwd": "/p",
        "config": { "policies": ["opencode.read_guard"] },
        "files": { "src/a.ts": "export const a = 1;\n" },
        "steps": [
            user("Read a."),
            tool("r1", "Read", serde_json::json!({ "file_path": "src/a.ts" })),
            done(),
            { "kind": "writeFile", "path": "src/a.ts", "content": "export const a = 1;\n" },
            tool("e1", "Edit", serde_json::json!({
                "file_path": "src/a.ts", "old_string": "= 1", "new_string": "= 3"
            })),
            tool("r2", "Read", serde_json::json!({ "file_path": "src/a.ts" })),
            tool("e2", "Edit", serde_json::json!({
                "file_path": "src/a.ts", "old_string": "= 1", "new_string": "= 3"
            })),
        ],
    });
    let trace = run_scenario(&parse_scenario(&scenario.to_string()).unwrap()).unwrap();
    let (read_at, written_at) = (trace.steps[1].at_ms, trace.steps[3].at_ms);
    let result = &trace.steps[4].turn.tool_results[0];
    assert!(result.is_error);
    assert_eq!(
        result.content,
        GuardError::ModifiedSinceRead {
            path: "/p/src/a.ts".into(),
            mtime_ms: written_at,
            read_ms: read_at
        }
        .message()
    );
    let lines: Vec<&str> = result.content.lines().collect();
    assert_eq!(
        lines[1..4],
        [
            format!("Last modification: {written_at}"),
            format!("Last read: {read_at}"),
            String::new()
        ]
    );
    let denied =
        decision(&trace, 4, "/p/src/a.ts", "opencode.read_guard").expect("the refusal's decision");
    assert_eq!(denied.verdict, Verdict::Denied);
    assert!(denied.reason.contains("§8.1, E2"), "{}", denied.reason);
    // The file was not changed (the same `= 1` is still there to replace): after a new
    // read the same edit goes through.
    assert!(
        !trace.steps[6].turn.tool_results[0].is_error,
        "{:?}",
        trace.steps[6].turn.tool_results
    );
}

#[test]
fn the_policies_are_set_on_a_js_session_as_in_a_scenario() {
    // The wasm `Session` takes a scenario's `config` (strategies.md §4.3, §8.1): the guard
    // refuses a direct Edit, the tracker lists a direct outside write.
    let spec = SessionSpec {
        profile: ProfileName::ClaudeCode,
        cwd: "/p".into(),
        home: None,
        config: Some(r#"{"policies":["cline.file_tracker","opencode.read_guard"]}"#.into()),
    };
    let mut session = JournaledSession::new(spec).unwrap();
    session.write_file("a.ts", "one\n".into(), 1_000).unwrap();
    let refused = session.edit("a.ts", "one", "two", 2_000).unwrap();
    assert_eq!(
        refused.content,
        GuardError::NeverRead {
            path: "/p/a.ts".into()
        }
        .message()
    );
    assert_eq!(
        session.session().read_file_text("a.ts").unwrap().as_deref(),
        Some("one\n")
    );
    session.read("a.ts", None, None, 3_000).unwrap();
    session.write_file("a.ts", "uno\n".into(), 4_000).unwrap();
    let turn = session.submit("go on", 5_000).unwrap();
    let notes: Vec<&str> = (turn.attachments.iter())
        .filter(|a| a.kind.as_str() == "recently_modified_files")
        .map(|a| a.text.as_str())
        .collect();
    assert_eq!(notes.len(), 1);
    assert!(notes[0].ends_with("\na.ts\n</environment_details>"));
    let denied = (turn.decisions.iter()).find(|d| d.verdict == Verdict::Denied);
    assert!(
        denied.is_some_and(|d| d.subject == "/p/a.ts"),
        "{:#?}",
        turn.decisions
    );
}

#[test]
fn config_policies_takes_only_the_policies_a_session_keeps_on() {
    // strategies.md §4 and §8 are trackers; the compaction policies run from a compact step.
    let error = |policies: &str| {
        let text = format!(r#"{{"config":{{"policies":{policies}}},"steps":[]}}"#);
        parse_scenario(&text).unwrap_err().to_string()
    };
    assert_eq!(
        error(r#"["opencode.prune"]"#),
        "config.policies[0]: \"opencode.prune\" is a compaction policy, run by a `compact` step; a session keeps on only \"cline.file_tracker\", \"opencode.read_guard\""
    );
    assert_eq!(
        error(r#"["opencode.read_guard","opencode.read_guard"]"#),
        "config.policies[1]: \"opencode.read_guard\" is named twice"
    );
    assert!(error(r#"["cline.tracker"]"#)
        .starts_with("config.policies[0]: unknown policy \"cline.tracker\""));
    // A Rust host's `SessionConfig` is held to the same rule.
    let config = SessionConfig {
        policies: vec![PolicyId::FileTracker, PolicyId::OpencodeSummary],
        ..SessionConfig::default()
    };
    let options = SessionOptions {
        profile: Profile::claude_code(),
        cwd: "/p".into(),
        home: None,
        config,
    };
    assert_eq!(
        Session::new(options).unwrap_err().to_string(),
        "config.policies[1]: \"opencode.summary\" is a compaction policy, run by a `compact` step; a session keeps on only \"cline.file_tracker\", \"opencode.read_guard\""
    );
}

#[test]
fn under_codex_the_list_reaches_a_human_turns_request_too() {
    // strategies.md §4.4: the list goes with the next request, whichever client's context
    // the session assembles; Codex's human turn runs no attachment pass of its own.
    let scenario = serde_json::json!({
        "profile": "codex",
        "cwd": "/p",
        "config": { "policies": ["cline.file_tracker"] },
        "files": { "src/a.ts": "export const a = 1;\n" },
        "steps": [
            user("Look."),
            tool("r1", "Read", serde_json::json!({ "file_path": "src/a.ts" })),
            done(),
            outside_write("src/a.ts", "export const a = 2;\n"),
            user("Again."),
        ],
    });
    let trace = run_scenario(&parse_scenario(&scenario.to_string()).unwrap()).unwrap();
    assert_eq!(tracker_notes(&trace, 4).len(), 1);
    assert!(request_has(&trace, 4, "\nsrc/a.ts\n</environment_details>"));
}
