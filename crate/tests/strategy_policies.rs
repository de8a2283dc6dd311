//! The strategies.md policies beyond the cheap ones (§4, §5, §7, §8, §10.3, §11–§13) on a live
//! session, chosen as a `compact` step or a compaction preview chooses them: by id, with
//! their knobs under camelCase names.
#![cfg(feature = "serde")]

mod common;

use common::{read, session_in};

use context_assembly::compact::policies::file_tracker::HEADING;
use context_assembly::scenario::parse_compaction_options;
use context_assembly::session::{
    CompactionPlan, ResponseBlock, Session, SessionConfig, SummarySource,
};
use context_assembly::vocabulary::Verdict;
use context_assembly::Profile;

fn session(context_window: u64) -> Session {
    let config = SessionConfig {
        context_window,
        ..SessionConfig::default()
    };
    session_in(Profile::claude_code_2_1_88(), None, config)
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
