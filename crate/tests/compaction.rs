//! Compaction of a live session: the two phases, what is cleared and restored, the order
//! and placement of the post-compact attachments (Q58), the survival report, bad input,
//! auto-compaction, and the cheap policies' report — for `claude-code` and `recommended`.

use context_assembly::attachment::{AttachmentKind, AttachmentRules};
use context_assembly::compact::policies::masking::MaskingParams;
use context_assembly::compact::restore::{
    POST_COMPACT_MAX_FILES_TO_RESTORE, POST_COMPACT_MAX_TOKENS_PER_FILE, POST_COMPACT_TOKEN_BUDGET,
};
use context_assembly::compact::rules::CompactionRules;
use context_assembly::session::{
    CompactionOptions, CompactionReport, Fate, PermissionMode, Policy, ResponseBlock, Session,
    SessionConfig, SessionOptions, ToolCall, ToolInvocation, Trigger,
};
use context_assembly::tokens::{estimate_tokens, TokenMethod};
use context_assembly::Profile;
use proptest::prelude::*;

fn session(profile: Profile, config: SessionConfig) -> Session {
    Session::new(SessionOptions {
        profile,
        cwd: "/p".into(),
        home: None,
        config,
    })
    .unwrap()
}

fn call(id: &str, name: &str, input: &str, invocation: ToolInvocation) -> ResponseBlock {
    ResponseBlock::ToolUse(ToolCall {
        id: Some(id.into()),
        name: name.into(),
        input: input.into(),
        invocation,
    })
}

fn read(id: &str, path: &str) -> ResponseBlock {
    let invocation = ToolInvocation::Read {
        file_path: path.into(),
        offset: None,
        limit: None,
    };
    call(
        id,
        "Read",
        &format!("{{\"file_path\":\"{path}\"}}"),
        invocation,
    )
}

fn bash(id: &str, command: &str, output: &str) -> ResponseBlock {
    let invocation = ToolInvocation::External {
        output: Some(output.into()),
    };
    call(
        id,
        "Bash",
        &format!("{{\"command\":\"{command}\"}}"),
        invocation,
    )
}

/// `lines` lines of about ten tokens each.
fn text(lines: usize, tag: &str) -> String {
    (0..lines)
        .map(|i| format!("let {tag}_{i} = compute({i}) + offset;\n"))
        .collect()
}

/// A session that read `files` files of `lines` lines each (written at increasing mtimes)
/// and ran a command.
fn worked_session(profile: Profile, files: usize, lines: usize) -> Session {
    let mut s = session(profile, SessionConfig::default());
    for i in 0..files {
        s.write_file(
            &format!("src/f{i}.ts"),
            text(lines, &format!("f{i}")).as_str(),
            1_000 + i as u64,
        )
        .unwrap();
    }
    s.submit("look at the sources", 10_000);
    let reads = (0..files)
        .map(|i| read(&format!("r{i}"), &format!("src/f{i}.ts")))
        .collect();
    s.respond(reads, 11_000).unwrap();
    s.respond(vec![bash("b1", "make test", &text(40, "log"))], 12_000)
        .unwrap();
    s.respond(vec![ResponseBlock::Text("All read.".into())], 13_000)
        .unwrap();
    s
}

fn full() -> CompactionOptions {
    CompactionOptions::default()
}

fn fate(report: &CompactionReport, item: &str) -> Fate {
    report
        .survival
        .iter()
        .find(|s| s.item == item)
        .unwrap_or_else(|| panic!("no {item} in the survival list"))
        .fate
}

#[test]
fn planning_an_empty_transcript_does_nothing_and_says_why() {
    let mut s = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    let plan = s.plan_compaction(full(), 0);
    assert!(!plan.applies);
    assert!(plan.reason.contains("nothing to compact"));
    let report = s.apply_compaction(&plan, None, 0).unwrap();
    assert!(!report.applied);
    assert_eq!(report.tokens_before, report.tokens_after);
}

#[test]
fn planning_changes_nothing_and_applying_clears_then_restores() {
    let mut s = worked_session(Profile::claude_code_2_1_88(), 7, 20);
    let before = s.current_request(14_000);
    let plan = s.plan_compaction(full(), 14_000);
    assert_eq!(
        s.current_request(14_000),
        before,
        "planning must not change the session"
    );
    assert!(plan.applies);
    assert_eq!(plan.cleared.read_files.len(), 7);
    assert!(plan
        .summary_request
        .as_deref()
        .is_some_and(|r| r.contains("<summary>")));
    // §9.4: five slots, newest mtime first; the plan lists them in order.
    let files: Vec<_> = plan
        .post_compact
        .iter()
        .filter(|a| a.kind.as_str() == "file")
        .collect();
    assert_eq!(files.len(), POST_COMPACT_MAX_FILES_TO_RESTORE);
    assert_eq!(files[0].path.as_deref(), Some("/p/src/f6.ts"));
    let report = s.apply_compaction(&plan, None, 14_000).unwrap();
    assert_eq!(report.summary_source.as_str(), "extractive");
    assert_eq!(report.restored.len(), 5);
    assert!(report.tokens_after < report.tokens_before);
    // The restore's reads repopulate the file state; the other two are gone from it.
    assert_eq!(s.file_state().len(), 5);
    assert_eq!(fate(&report, "/p/src/f0.ts"), Fate::Dropped);
    assert_eq!(fate(&report, "/p/src/f6.ts"), Fate::Restored);
    assert_eq!(fate(&report, "conversation"), Fate::Summarised);
    assert_eq!(fate(&report, "system prompt"), Fate::Kept);
    // Full compaction keeps no message: only the summary and the attachments remain.
    assert!(report.visible.commands.is_empty());
}

#[test]
fn a_file_under_the_limit_is_restored_though_its_rendering_is_over() {
    // 340 lines of 56 characters: 4,845 tokens of content, over 5,000 once numbered, noted
    // and wrapped. The original's restore gates the content, so the file comes back whole.
    let line = "x".repeat(56) + "\n";
    let mut s = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    s.write_file("src/big.ts", line.repeat(340).as_str(), 1_000)
        .unwrap();
    s.submit("read it", 2_000);
    s.respond(vec![read("r1", "src/big.ts")], 3_000).unwrap();
    s.respond(vec![ResponseBlock::Text("Read.".into())], 4_000)
        .unwrap();
    let report = s.compact(full(), None, 5_000).unwrap();
    assert_eq!(fate(&report, "/p/src/big.ts"), Fate::Restored);
    assert!(report.restored[0].tokens > POST_COMPACT_MAX_TOKENS_PER_FILE);
}

#[test]
fn restored_files_respect_the_slot_and_token_limits() {
    let mut s = worked_session(Profile::claude_code_2_1_88(), 9, 900);
    let report = s.compact(full(), None, 14_000).unwrap();
    assert!(report.restored.len() <= POST_COMPACT_MAX_FILES_TO_RESTORE);
    assert!(report
        .restored
        .iter()
        .all(|r| r.tokens <= POST_COMPACT_MAX_TOKENS_PER_FILE));
    assert!(report.restored.iter().map(|r| r.tokens).sum::<u64>() <= POST_COMPACT_TOKEN_BUDGET);
    // 900 lines are over 5,000 tokens: each comes back as a reference to its path.
    assert!(report
        .reinjected
        .iter()
        .any(|r| r.kind == AttachmentKind::CompactFileReference));
    assert_eq!(fate(&report, "/p/src/f8.ts"), Fate::Referenced);
}

#[test]
fn q58_attachments_float_above_the_summary_in_the_original_and_follow_it_when_fixed() {
    // 2.1.88 floats them (Q58); 2.1.332's rules no longer do.
    let release_2_1_332 = Profile {
        attachments: AttachmentRules::claude_code_2_1_332(),
        ..Profile::claude_code()
    };
    for (profile, summary_first) in [
        (Profile::claude_code_2_1_88(), false),
        (release_2_1_332, true),
        (Profile::recommended(), true),
    ] {
        let mut s = worked_session(profile, 2, 5);
        // Enough later records that recommended's kept tail holds no Read.
        for i in 0..6 {
            s.submit(&format!("question {i}"), 14_000 + i * 10);
            s.respond(vec![ResponseBlock::Text("answer".into())], 14_005 + i * 10)
                .unwrap();
        }
        s.compact(full(), None, 14_500).unwrap();
        let request = s.current_request(14_500);
        let first: Vec<_> = request
            .messages
            .iter()
            .flat_map(|m| m.content.iter())
            .collect();
        let summary_at = first
            .iter()
            .position(|b| b.source == "compact_summary")
            .unwrap();
        let sources: Vec<&str> = first.iter().map(|b| b.source.as_str()).collect();
        let file_at = first
            .iter()
            .position(|b| b.source == "file")
            .unwrap_or_else(|| panic!("{sources:?}"));
        assert_eq!(summary_at < file_at, summary_first);
    }
}

#[test]
fn plan_mode_and_the_plan_file_come_back_after_the_files() {
    let mut s = worked_session(Profile::claude_code_2_1_88(), 2, 5);
    s.write_file("~/.claude/plans/plan.md", "1. fix it\n", 13_500)
        .unwrap();
    s.set_mode(PermissionMode::Plan);
    let plan = s.plan_compaction(full(), 14_000);
    let kinds: Vec<&str> = plan.post_compact.iter().map(|a| a.kind.as_str()).collect();
    assert_eq!(kinds, ["file", "file", "plan_file_reference", "plan_mode"]);
}

#[test]
fn a_blank_or_oversized_summary_is_refused_and_nothing_changes() {
    let mut s = worked_session(Profile::claude_code_2_1_88(), 2, 5);
    let before = s.current_request(14_000);
    let plan = s.plan_compaction(full(), 14_000);
    let blank = s.apply_compaction(
        &plan,
        Some("<analysis>only thinking</analysis>\n  "),
        14_000,
    );
    assert!(blank
        .unwrap_err()
        .to_string()
        .starts_with("summary: is empty"));
    let huge = "word ".repeat(900_000);
    let error = s
        .apply_compaction(&plan, Some(&huge), 14_000)
        .unwrap_err()
        .to_string();
    assert!(
        error.contains("larger than the context window of 200000"),
        "{error}"
    );
    assert_eq!(s.current_request(14_000), before);
    assert_eq!(s.file_state().len(), 2);
}

#[test]
fn a_host_summary_is_formatted_and_a_stale_plan_is_refused() {
    let mut s = worked_session(Profile::claude_code_2_1_88(), 1, 5);
    let plan = s.plan_compaction(full(), 14_000);
    s.submit("one more thing", 14_500);
    let stale = s.apply_compaction(&plan, None, 15_000).unwrap_err();
    assert!(stale.to_string().starts_with("plan: plan "));
    let plan = s.plan_compaction(full(), 15_000);
    let report = s
        .apply_compaction(
            &plan,
            Some("<analysis>x</analysis><summary>Fixed A.</summary>"),
            15_000,
        )
        .unwrap();
    assert_eq!(report.summary_source.as_str(), "host");
    assert!(report.summary.unwrap().contains("Summary:\nFixed A."));
}

#[test]
fn invoked_skills_are_reinjected_newest_first() {
    let mut s = worked_session(Profile::claude_code_2_1_88(), 1, 5);
    s.submit("use the skills", 14_000);
    let skill = |id: &str, name: &str, body: &str| {
        let invocation = ToolInvocation::External {
            output: Some(body.into()),
        };
        call(
            id,
            "Skill",
            &format!("{{\"skill\":\"{name}\"}}"),
            invocation,
        )
    };
    s.respond(vec![skill("s1", "pdf", "Read PDFs page by page.")], 15_000)
        .unwrap();
    s.respond(vec![skill("s2", "lint", "Run the linter first.")], 16_000)
        .unwrap();
    let report = s.compact(full(), None, 17_000).unwrap();
    let skills = report
        .reinjected
        .iter()
        .find(|r| r.kind == AttachmentKind::InvokedSkills)
        .unwrap();
    assert!(skills.tokens > 0);
    let summary_request = s.current_request(17_000);
    // The restored files come first, each a call note message and a result message.
    let text: String = summary_request
        .messages
        .iter()
        .flat_map(|m| m.content.iter().map(|b| b.text.as_str()))
        .collect();
    let (lint, pdf) = (text.find("### Skill: lint"), text.find("### Skill: pdf"));
    assert!(lint.is_some() && lint < pdf, "{text}");
    assert_eq!(fate(&report, "pdf"), Fate::Reinjected);
}

#[test]
fn session_memory_compaction_keeps_the_file_state_and_a_tail() {
    let mut s = worked_session(Profile::claude_code_2_1_88(), 3, 400);
    for i in 0..6 {
        s.submit(&format!("explain part {i}"), 14_000 + i * 10);
        let answer = ResponseBlock::Text(text(250, "answer"));
        s.respond(vec![answer], 14_005 + i * 10).unwrap();
    }
    let options = CompactionOptions {
        policy: Policy::SessionMemory,
        ..full()
    };
    let plan = s.plan_compaction(options, 14_000);
    assert!(plan.cleared.read_files.is_empty());
    assert!(plan.kept_records > 0, "{:#?}", plan.decisions);
    let report = s.apply_compaction(&plan, None, 14_000).unwrap();
    assert!(report.restored.is_empty());
    assert_eq!(s.file_state().len(), 3);
    assert!(report.summary.unwrap().contains("word for word"));
}

#[test]
fn session_memory_gives_way_to_full_compaction_when_its_tail_is_too_large() {
    let config = SessionConfig {
        context_window: 60_000,
        output_reserve: 8_000,
        auto_compact: false,
        ..SessionConfig::default()
    };
    let mut s = session(Profile::claude_code_2_1_88(), config);
    for i in 0..4 {
        s.write_file(
            &format!("f{i}.ts"),
            text(1_300, &format!("f{i}")).as_str(),
            i,
        )
        .unwrap();
    }
    s.submit("read them", 100);
    for i in 0..4 {
        s.respond(vec![read(&format!("r{i}"), &format!("f{i}.ts"))], 200 + i)
            .unwrap();
    }
    let options = CompactionOptions {
        policy: Policy::SessionMemory,
        ..full()
    };
    let report = s.compact(options, None, 1_000).unwrap();
    let skipped = report
        .decisions
        .iter()
        .find(|d| d.subject == "session-memory compaction")
        .unwrap();
    assert!(
        skipped
            .reason
            .contains("threshold: a full compaction runs instead"),
        "{}",
        skipped.reason
    );
    assert!(!report.summary.unwrap().contains("word for word"));
    assert!(report.tokens_after < 39_000);
}

#[test]
fn masking_reports_the_same_shape_and_keeps_the_prefix_before_the_first_mask() {
    let mut s = worked_session(Profile::claude_code_2_1_88(), 4, 30);
    let options = CompactionOptions {
        policy: Policy::Masking(MaskingParams {
            n: 2,
            ..MaskingParams::default()
        }),
        ..full()
    };
    let report = s.compact(options, None, 14_000).unwrap();
    assert!(report.applied);
    assert_eq!(report.masked.len(), 3, "{:?}", report.masked);
    assert!(report.prefix_kept > 0 && report.prefix_kept < report.tokens_after);
    assert_eq!(fate(&report, "/p/src/f0.ts"), Fate::Masked);
    assert_eq!(fate(&report, "conversation"), Fate::Masked);
    assert_eq!(report.visible.commands, ["make test"]);
}

#[test]
fn the_memory_tool_warns_before_the_first_clearing() {
    use context_assembly::compact::policies::clear_tool_uses::{
        ClearToolUsesParams, Trigger as Clear,
    };
    let mut s = worked_session(Profile::claude_code_2_1_88(), 5, 30);
    let params = ClearToolUsesParams {
        trigger: Clear::ToolUses(2),
        keep_tool_uses: 1,
        ..Default::default()
    };
    let options = CompactionOptions {
        policy: Policy::ClearToolUses {
            params,
            memory_tool: true,
        },
        ..full()
    };
    let first = s.compact(options.clone(), None, 14_000).unwrap();
    assert!(first.masked.is_empty());
    assert!(
        first.tokens_after > first.tokens_before,
        "the warning is added, nothing cleared"
    );
    let second = s.compact(options, None, 15_000).unwrap();
    assert!(!second.masked.is_empty());
}

#[test]
fn auto_compaction_fires_at_the_threshold_and_the_breaker_resets_per_turn() {
    let config = SessionConfig {
        context_window: 30_000,
        output_reserve: 8_000,
        ..SessionConfig::default()
    };
    // The engine's own short prefix: the release's 23,000-token prefix would not fit this
    // small window, and the mechanism is the same.
    let profile = Profile {
        claude_prefix: None,
        ..Profile::claude_code_2_1_88()
    };
    let mut s = session(profile, config);
    s.write_file("big.ts", text(1_100, "big").as_str(), 1)
        .unwrap();
    s.submit("read big.ts", 1_000);
    let turn = s.respond(vec![read("r1", "big.ts")], 2_000).unwrap();
    let request = turn.request.unwrap();
    // 30,000 − 8,000 − 13,000: the auto-compact threshold.
    assert_eq!(request.window.autocompact, 9_000);
    let report = turn.compaction.first().expect("auto-compaction ran");
    assert_eq!(report.trigger, Trigger::Auto);
    assert!(report.tokens_before >= 9_000);
    assert!(request.tokens.total < 9_000);
    assert!(report
        .summary
        .as_deref()
        .is_some_and(|m| m.contains("Continue the last task")));
}

#[test]
fn cache_aware_timing_waits_for_the_blocking_limit_then_weighs_the_cheap_stage_against_a_summary() {
    let config = SessionConfig {
        context_window: 60_000,
        output_reserve: 8_000,
        ..SessionConfig::default()
    };
    let mut profile = Profile::recommended();
    profile.compaction = CompactionRules::cache_aware();
    // The engine's own short prefix, so that the window's numbers read plainly.
    profile.claude_prefix = None;
    let mut s = session(profile, config);
    let mut deferred = 0;
    for turn in 0..60u64 {
        let asked = s.submit(&format!("run the suite, take {turn}"), turn * 10_000);
        deferred += asked
            .decisions
            .iter()
            .filter(|d| d.subject == "auto-compaction" && d.verdict.as_str() == "deferred")
            .count();
        let out = text(200, &format!("run{turn}"));
        let turn_out = s
            .respond(
                vec![bash(&format!("b{turn}"), "make test", &out)],
                turn * 10_000 + 1_000,
            )
            .unwrap();
        let verdict = |subject: &str| {
            turn_out
                .decisions
                .iter()
                .find(|d| d.subject == subject)
                .map(|d| (d.verdict.as_str(), d.reason.clone()))
        };
        if let Some(first) = turn_out.compaction.first() {
            // 60,000 − 8,000 − 3,000: it waited past the threshold (39,000) until here.
            assert!(first.tokens_before >= 49_000, "{}", first.tokens_before);
            assert!(deferred > 0, "it waited while the request fit");
            let (_, reason) = verdict("cheap stage or summary").expect("the choice is explained");
            let summarised = reason.ends_with("summarising");
            assert_eq!(
                first.policy.as_str() == "opencode.prune",
                !summarised,
                "{reason}"
            );
            assert!(reason.contains("input tokens a request"), "{reason}");
            return;
        }
        if let Some((verdict, reason)) = verdict("auto-compaction") {
            assert_eq!(verdict, "deferred", "{reason}");
            assert!(
                reason.contains("under the blocking limit (49,000)"),
                "{reason}"
            );
            deferred += 1;
        }
        s.respond(
            vec![ResponseBlock::Text("done".into())],
            turn * 10_000 + 2_000,
        )
        .unwrap();
    }
    panic!("no compaction in sixty turns of output");
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(24))]

    /// Over generated sessions: the restore's limits hold, and no policy splits a tool call
    /// from its result.
    #[test]
    fn limits_and_pairs_hold_for_every_policy(files in 1usize..12, lines in proptest::collection::vec(1usize..1_200, 12), policy in 0usize..5) {
        let mut s = session(Profile::claude_code_2_1_88(), SessionConfig::default());
        for (i, count) in lines.iter().take(files).enumerate() {
            s.write_file(&format!("f{i}.ts"), text(*count, "x").as_str(), i as u64).unwrap();
        }
        s.submit("go", 100);
        for i in 0..files {
            s.respond(vec![read(&format!("r{i}"), &format!("f{i}.ts"))], 200 + i as u64).unwrap();
        }
        let policy = match policy {
            0 => Policy::Full,
            1 => Policy::SessionMemory,
            2 => Policy::Masking(MaskingParams { n: 2, ..MaskingParams::default() }),
            3 => Policy::Prune(Default::default()),
            _ => Policy::Truncate { params: Default::default(), dedupe: Default::default() },
        };
        let report = s.compact(CompactionOptions { policy, ..full() }, None, 10_000).unwrap();
        prop_assert!(report.restored.len() <= POST_COMPACT_MAX_FILES_TO_RESTORE);
        // The per-file limit is on the content the Read gate sees, not on the rendering.
        for restored in &report.restored {
            let index: usize = restored.path.trim_start_matches("/p/f").trim_end_matches(".ts").parse().unwrap();
            let content = text(lines[index], "x");
            prop_assert!(estimate_tokens(&content, TokenMethod::ClaudeCode, Some("ts")) <= POST_COMPACT_MAX_TOKENS_PER_FILE);
        }
        prop_assert!(report.restored.iter().map(|r| r.tokens).sum::<u64>() <= POST_COMPACT_TOKEN_BUDGET);
        let request = s.current_request(10_000);
        let mut calls = Vec::new();
        for message in &request.messages {
            for block in &message.content {
                match block.block_type.as_str() {
                    "tool_use" => calls.push(block.tool_use_id.clone()),
                    "tool_result" => prop_assert!(calls.contains(&block.tool_use_id), "a result without its call"),
                    _ => {}
                }
            }
        }
    }
}

#[test]
fn q57_the_breaker_stops_failing_auto_compactions_per_turn_or_for_the_session() {
    // The context is over the auto-compact threshold before anything was said: an
    // auto-compaction finds nothing to summarise, which the original counts as a failure.
    // Claude Code's own estimate counts its messages and the user context, not the system
    // prompt (§6.3), so there it is CLAUDE.md that is long; Codex counts its instructions.
    let attempts = |profile: Profile, lines: usize| {
        let rules = "Always write tests first.\n".repeat(lines);
        let codex = profile.codex.turn_context;
        let config = SessionConfig {
            context_window: 30_000,
            output_reserve: 1_000,
            system_prompt: codex.then(|| rules.clone()),
            ..SessionConfig::default()
        };
        let mut s = session(profile, config);
        if !codex {
            s.write_file("CLAUDE.md", rules.as_str(), 1).unwrap();
        }
        let mut verdicts = Vec::new();
        for round in 0..5 {
            let turn = s.tool_round(10 + round);
            // Each attempt first says how large the context was (`needed`), then how it went.
            let decision = turn
                .decisions
                .iter()
                .find(|d| d.subject == "auto-compaction" && d.verdict.as_str() != "needed");
            verdicts.push(decision.map_or("none", |d| d.verdict.as_str()));
        }
        let turn = s.submit("go on", 100);
        let after_turn = turn
            .decisions
            .iter()
            .find(|d| d.subject == "auto-compaction" && d.verdict.as_str() != "needed");
        (
            verdicts,
            after_turn.map(|d| d.verdict.as_str()),
            turn.compaction.len(),
        )
    };
    let three_then_open = ["failed", "failed", "failed", "skipped", "skipped"];
    // Claude Code forgets the failures when the human turn begins, and compacts again.
    let (verdicts, after, compactions) = attempts(Profile::claude_code_2_1_88(), 3_300);
    assert_eq!(verdicts, three_then_open);
    assert_eq!((after, compactions), (None, 1));
    // Fixed, the breaker is the session's: it stays open. (Recommended waits for the
    // blocking limit, so its system prompt must reach that.)
    let (verdicts, after, compactions) = attempts(Profile::recommended(), 5_500);
    assert_eq!(verdicts, three_then_open);
    assert_eq!((after, compactions), (Some("skipped"), 0));
    // Codex has no breaker: it tries every time.
    let (verdicts, _, _) = attempts(Profile::codex(), 4_300);
    assert_eq!(verdicts, ["failed"; 5]);
}

/// Issue 31: prompts the model never answers used to make an extractive summary quoting
/// every one of them, until the summary alone passed the threshold and every later turn
/// compacted again, over a longer summary each time (1,500 prompts took 12 s natively for
/// their last 500). The user's messages are quoted up to a cap, so a compaction leaves the
/// context under the threshold and the next one waits for the window to fill again.
#[test]
fn unanswered_prompts_compact_only_as_often_as_the_window_fills() {
    let config = SessionConfig {
        context_window: 100_000,
        ..SessionConfig::default()
    };
    let mut s = session(Profile::recommended(), config);
    let prompt = "the build fails again; ".repeat(45);
    let mut compactions = 0;
    for turn in 1..=700u64 {
        let turn = s.submit(&prompt, 1_000 * turn);
        if turn.compaction.iter().any(|report| report.applied) {
            compactions += 1;
            let request = turn.request.expect("a turn sends a request");
            assert!(
                request.tokens.total < request.window.autocompact,
                "{} tokens after a compaction, threshold {}",
                request.tokens.total,
                request.window.autocompact
            );
        }
    }
    assert!((2..=6).contains(&compactions), "{compactions} compactions");
}
