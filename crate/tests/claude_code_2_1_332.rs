//! Claude Code 2.1.332 (the `claude-code` preset) as the conformance lab found it
//! (docs/versions.md), against 2.1.88:
//! the tools it dropped are refused, the deferred tools and agent types are listed, a Read
//! carries no malware note, an unchanged re-read gets the contents again, and the repository's
//! state comes under its `# gitStatus` heading, Edit and Write need no read first, only a
//! small file read whole makes a re-mention redundant, and a compaction restores no
//! ancestor's `CLAUDE.md`; and the quirks it fixed (Q11, Q17, Q21).

use context_assembly::compact::options::CompactionOptions;
use context_assembly::session::{
    PermissionMode, PlanApproval, ResponseBlock, Session, SessionConfig, SessionOptions, ToolCall,
    ToolInvocation, Turn,
};
use context_assembly::transcript::ToolResultBlock;
use context_assembly::Profile;

fn session(profile: Profile, config: SessionConfig) -> Session {
    let mut session = Session::new(SessionOptions {
        profile,
        cwd: "/p".into(),
        home: Some("/home/u".into()),
        config,
    })
    .expect("valid options");
    session
        .write_file("a.ts", "export const a = 1;\n", 1_000)
        .unwrap();
    session
}

fn respond(s: &mut Session, name: &str, invocation: ToolInvocation, at_ms: u64) -> ToolResultBlock {
    let call = ResponseBlock::ToolUse(ToolCall {
        id: None,
        name: name.into(),
        input: "{}".into(),
        invocation,
    });
    s.respond(vec![call], at_ms).unwrap().tool_results[0].clone()
}

fn read_a() -> ToolInvocation {
    ToolInvocation::Read {
        file_path: "/p/a.ts".into(),
        offset: None,
        limit: None,
    }
}

fn attachment_text<'a>(turn: &'a Turn, kind: &str) -> Option<&'a str> {
    (turn.attachments.iter())
        .find(|attachment| attachment.kind.as_str() == kind)
        .map(|attachment| attachment.text.as_str())
}

#[test]
fn the_tools_2_1_332_dropped_are_refused_and_2_1_88_runs_them() {
    let glob = || ToolInvocation::Glob {
        pattern: "*.ts".into(),
        path: None,
    };
    let mut current = session(Profile::claude_code(), SessionConfig::default());
    current.submit("list", 2_000);
    let refused = respond(&mut current, "Glob", glob(), 3_000);
    assert!(refused.is_error);
    assert!(refused.content.contains("No such tool available: Glob"));
    assert!(refused.content.contains("Claude Code 2.1.332"));
    let mut seed = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    seed.submit("list", 2_000);
    let listed = respond(&mut seed, "Glob", glob(), 3_000);
    assert!(!listed.is_error);
    assert!(listed.content.contains("a.ts"));
}

#[test]
fn a_host_that_declares_its_tools_keeps_them() {
    let config = SessionConfig {
        tools: vec![context_assembly::request::ToolDefinition {
            name: "Glob".into(),
            description: "lists files".into(),
            input_schema: "{}".into(),
            deferred: false,
        }],
        ..SessionConfig::default()
    };
    let mut s = session(Profile::claude_code(), config);
    let turn = s.submit("list", 2_000);
    assert_eq!(attachment_text(&turn, "agent_listing_delta"), None);
    let result = respond(
        &mut s,
        "Glob",
        ToolInvocation::Glob {
            pattern: "*.ts".into(),
            path: None,
        },
        3_000,
    );
    assert!(!result.is_error);
}

#[test]
fn the_first_pass_lists_the_deferred_tools_and_the_agent_types() {
    let mut current = session(Profile::claude_code(), SessionConfig::default());
    let turn = current.submit("hello", 2_000);
    let deferred = attachment_text(&turn, "deferred_tools_delta").expect("listed");
    assert!(deferred.contains("\nWebFetch\n"), "{deferred}");
    let agents = attachment_text(&turn, "agent_listing_delta").expect("listed");
    assert!(agents.contains("\n- Explore: "), "{agents}");
    assert!(agents.contains("(Tools: Read, Edit)"), "{agents}");
    // Listed once: the next pass announces nothing new.
    let next = current.submit("again", 3_000);
    assert_eq!(attachment_text(&next, "deferred_tools_delta"), None);
    let mut seed = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    let turn = seed.submit("hello", 2_000);
    assert_eq!(attachment_text(&turn, "deferred_tools_delta"), None);
    assert_eq!(attachment_text(&turn, "agent_listing_delta"), None);
}

#[test]
fn a_read_has_no_malware_note_and_an_unchanged_re_read_gets_the_contents() {
    let mut current = session(Profile::claude_code(), SessionConfig::default());
    current.submit("read it", 2_000);
    let first = respond(&mut current, "Read", read_a(), 3_000);
    assert!(
        !first.content.contains("system-reminder"),
        "{}",
        first.content
    );
    let again = respond(&mut current, "Read", read_a(), 4_000);
    assert_eq!(again.content, first.content);
    let mut seed = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    seed.submit("read it", 2_000);
    let first = respond(&mut seed, "Read", read_a(), 3_000);
    assert!(first.content.contains("malware"));
    let again = respond(&mut seed, "Read", read_a(), 4_000);
    assert!(!again.content.contains("export const a"), "the stub");
}

#[test]
fn the_repository_state_comes_under_its_heading() {
    let config = SessionConfig {
        git_status: Some("Current branch: main".into()),
        ..SessionConfig::default()
    };
    let mut current = session(Profile::claude_code(), config);
    let turn = current.submit("hello", 2_000);
    let state = attachment_text(&turn, "session_context").expect("sent");
    assert!(state.contains("\n# gitStatus\n"), "{state}");
    assert!(state.contains("Current branch: main"));
}

#[test]
fn a_range_of_only_the_empty_last_piece_is_that_line_numbered() {
    let at_the_end = || ToolInvocation::Read {
        file_path: "/p/three.txt".into(),
        offset: Some(4),
        limit: None,
    };
    let mut current = session(Profile::claude_code(), SessionConfig::default());
    current.write_file("three.txt", "a\nb\nc\n", 1_500).unwrap();
    current.submit("read the end", 2_000);
    assert_eq!(
        respond(&mut current, "Read", at_the_end(), 3_000).content,
        "4\t"
    );
    let mut seed = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    seed.write_file("three.txt", "a\nb\nc\n", 1_500).unwrap();
    seed.submit("read the end", 2_000);
    let warned = respond(&mut seed, "Read", at_the_end(), 3_000).content;
    assert!(warned.contains("shorter"), "{warned}");
}

#[test]
fn a_tool_wide_read_deny_stops_mentions_and_an_empty_file_is_called_empty() {
    let config = SessionConfig {
        deny: vec!["Read".into()],
        ..SessionConfig::default()
    };
    let mut current = session(Profile::claude_code(), config);
    let turn = current.submit("look at @a.ts", 2_000);
    assert!(!format!("{:?}", turn.request).contains("export const a"));
    let mut current = session(Profile::claude_code(), SessionConfig::default());
    current.write_file("empty.txt", "", 1_500).unwrap();
    current.submit("read it", 2_000);
    let read = ToolInvocation::Read {
        file_path: "/p/empty.txt".into(),
        offset: None,
        limit: None,
    };
    let result = respond(&mut current, "Read", read, 3_000).content;
    assert!(result.contains("empty"), "{result}");
    assert!(!result.contains("offset"), "{result}");
}

#[test]
fn an_oversized_mention_gets_a_reference_where_2_1_88_sends_nothing() {
    let huge = "x".repeat(300 * 1024);
    let reference = |profile: Profile| {
        let mut s = session(profile, SessionConfig::default());
        s.write_file("huge.txt", huge.as_str(), 1_500).unwrap();
        let turn = s.submit("look at @huge.txt", 2_000);
        attachment_text(&turn, "at_mention_reference").map(String::from)
    };
    let note = reference(Profile::claude_code()).expect("referenced");
    assert!(
        note.contains("/p/huge.txt") && note.contains("Read"),
        "{note}"
    );
    assert_eq!(reference(Profile::claude_code_2_1_88()), None);
}

#[test]
fn plan_mode_entered_again_is_reminded_at_once_where_2_1_88_waits_for_its_cadence() {
    let reentered = |profile: Profile| {
        let mut s = session(profile, SessionConfig::default());
        s.set_mode(PermissionMode::Plan);
        s.submit("plan it", 2_000);
        let plan = s.plan_file();
        s.write_file(&plan, "# Plan\n", 2_500).unwrap();
        let approval = PlanApproval {
            approved: true,
            feedback: None,
        };
        respond(
            &mut s,
            "ExitPlanMode",
            ToolInvocation::ExitPlanMode { approval },
            3_000,
        );
        s.submit("thanks", 4_000);
        s.set_mode(PermissionMode::Plan);
        let turn = s.submit("plan the next one", 5_000);
        (turn.attachments.iter())
            .map(|attachment| attachment.kind.as_str().to_string())
            .collect::<Vec<_>>()
    };
    let current = reentered(Profile::claude_code());
    assert!(
        current.contains(&"plan_mode_reentry".to_string()),
        "{current:?}"
    );
    assert!(current.contains(&"plan_mode".to_string()), "{current:?}");
    let seed = reentered(Profile::claude_code_2_1_88());
    assert!(
        !seed.iter().any(|kind| kind.starts_with("plan_mode")),
        "{seed:?}"
    );
}

/// The text of every attachment of `turn`, joined.
fn all_text(turn: &Turn) -> String {
    turn.attachments.iter().map(|a| a.text.as_str()).collect()
}

#[test]
fn a_file_read_in_part_is_attached_whole_when_mentioned_where_2_1_88_sends_nothing() {
    let mention_after_a_part = |profile: Profile| {
        let mut s = session(profile, SessionConfig::default());
        s.write_file("b.txt", "b1\nb2\nb3\n", 1_500).unwrap();
        s.submit("look at @b.txt#L2", 2_000);
        all_text(&s.submit("now all of @b.txt", 3_000))
    };
    assert!(mention_after_a_part(Profile::claude_code()).contains("1\tb1"));
    assert!(!mention_after_a_part(Profile::claude_code_2_1_88()).contains("1\tb1"));
    // A mention the earlier read covered still sends nothing, and says nothing.
    let mut s = session(Profile::claude_code(), SessionConfig::default());
    s.submit("look at @a.ts", 2_000);
    s.respond(vec![ResponseBlock::Text("Seen.".into())], 2_500)
        .unwrap();
    let again = s.submit("and @a.ts again", 3_000);
    assert!(!all_text(&again).contains("export const a"));
    assert_eq!(attachment_text(&again, "already_read_file"), Some(""));
}

#[test]
fn a_call_note_shows_only_a_range_the_read_tool_accepts() {
    let mut s = session(Profile::claude_code(), SessionConfig::default());
    s.write_file("b.txt", "b1\nb2\nb3\n", 1_500).unwrap();
    let ranged = all_text(&s.submit("look at @b.txt#L2-3", 2_000));
    assert!(ranged.contains(r#""offset":2,"limit":2"#), "{ranged}");
    s.write_file("c.txt", "c1\nc2\n", 2_500).unwrap();
    let from_zero = all_text(&s.submit("and @c.txt#L0", 3_000));
    assert!(from_zero.contains("0\tc1"), "{from_zero}");
    assert!(!from_zero.contains("offset"), "{from_zero}");
}

#[test]
fn an_offset_past_an_empty_file_gets_the_shorter_than_offset_warning() {
    let mut s = session(Profile::claude_code(), SessionConfig::default());
    s.write_file("empty.txt", "", 1_500).unwrap();
    s.submit("read it", 2_000);
    let read = ToolInvocation::Read {
        file_path: "/p/empty.txt".into(),
        offset: Some(5),
        limit: None,
    };
    let result = respond(&mut s, "Read", read, 3_000).content;
    assert!(
        result.contains('5') && !result.contains("empty"),
        "{result}"
    );
}

#[test]
fn a_mention_in_brackets_is_no_mention_in_either_release() {
    let bracketed = |profile: Profile| {
        let mut s = session(profile, SessionConfig::default());
        all_text(&s.submit("check it (@a.ts) please", 2_000))
    };
    assert!(!bracketed(Profile::claude_code()).contains("export const a = 1;"));
    assert!(!bracketed(Profile::claude_code_2_1_88()).contains("export const a = 1;"));
}

fn edit_a(old: &str, new: &str) -> ToolInvocation {
    ToolInvocation::Edit {
        file_path: "/p/a.ts".into(),
        old_string: old.into(),
        new_string: new.into(),
    }
}

#[test]
fn an_edit_needs_no_read_and_says_when_the_file_changed_on_disk() {
    let mut seed = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    seed.submit("edit it", 2_000);
    let refused = respond(&mut seed, "Edit", edit_a("1", "2"), 3_000);
    assert!(refused.is_error, "{}", refused.content);

    let mut s = session(Profile::claude_code(), SessionConfig::default());
    s.submit("edit it", 2_000);
    let unread = respond(&mut s, "Edit", edit_a("1", "2"), 3_000);
    assert!(!unread.is_error, "{}", unread.content);
    assert!(!unread.content.contains('('), "{}", unread.content);
    respond(&mut s, "Read", read_a(), 4_000);
    let current = respond(&mut s, "Edit", edit_a("2", "3"), 5_000);
    assert!(
        current.content.contains("no need to read it back"),
        "{}",
        current.content
    );
    s.write_file("a.ts", "// header\nexport const a = 3;\n", 6_000)
        .unwrap();
    let stale = respond(&mut s, "Edit", edit_a("3", "4"), 7_000);
    assert!(!stale.is_error, "{}", stale.content);
    assert!(
        stale.content.contains("changed on disk"),
        "{}",
        stale.content
    );
    s.write_file("a.ts", "// rewritten\n", 8_000).unwrap();
    let overwrite = ToolInvocation::Write {
        file_path: "/p/a.ts".into(),
        content: "export const a = 9;\n".into(),
    };
    let refused = respond(&mut s, "Write", overwrite, 9_000);
    assert!(
        refused.is_error,
        "a Write over a file changed since its read is refused"
    );
}

#[test]
fn a_re_mention_is_left_out_only_for_a_small_file_read_whole() {
    let second_mentions = |profile: Profile| {
        let mut s = session(profile, SessionConfig::default());
        let big = "row of text that fills the file\n".repeat(200);
        s.write_file("big.txt", big.as_str(), 1_500).unwrap();
        s.write_file("b.txt", "b1\nb2\nb3\n", 1_500).unwrap();
        s.submit("see @a.ts @big.txt @b.txt#L2-3", 2_000);
        s.respond(vec![ResponseBlock::Text("Seen.".into())], 2_500)
            .unwrap();
        all_text(&s.submit("again @a.ts @big.txt @b.txt#L2-3", 3_000))
    };
    let current = second_mentions(Profile::claude_code());
    assert!(!current.contains("export const a"), "{current}");
    assert!(
        current.contains("row of text"),
        "a file over 4 KiB is sent again"
    );
    assert!(current.contains("2\tb2"), "a ranged read never counts");
    let seed = second_mentions(Profile::claude_code_2_1_88());
    assert!(
        !seed.contains("row of text") && !seed.contains("2\tb2"),
        "{seed}"
    );
}

#[test]
fn a_compaction_restores_no_claude_md_of_a_directory_above_the_working_directory() {
    let restored = |profile: Profile| {
        let mut s = Session::new(SessionOptions {
            profile,
            cwd: "/p/app".into(),
            home: Some("/home/u".into()),
            config: SessionConfig::default(),
        })
        .expect("valid options");
        s.write_file("/p/CLAUDE.md", "Ancestor rule.\n", 1_000)
            .unwrap();
        s.write_file("/p/app/a.ts", "export const a = 1;\n", 1_000)
            .unwrap();
        s.submit("read them", 2_000);
        for (file_path, at_ms) in [("/p/CLAUDE.md", 2_500), ("/p/app/a.ts", 3_000)] {
            let read = ToolInvocation::Read {
                file_path: file_path.into(),
                offset: None,
                limit: None,
            };
            respond(&mut s, "Read", read, at_ms);
        }
        s.respond(vec![ResponseBlock::Text("Done.".into())], 4_000)
            .unwrap();
        let report = s
            .compact(CompactionOptions::default(), None, 5_000)
            .unwrap();
        let paths: Vec<String> = report.restored.iter().map(|r| r.path.clone()).collect();
        paths
    };
    assert_eq!(restored(Profile::claude_code()), ["/p/app/a.ts"]);
    assert_eq!(
        restored(Profile::claude_code_2_1_88()),
        ["/p/CLAUDE.md", "/p/app/a.ts"]
    );
}

#[test]
fn a_write_loads_the_nested_memory_a_read_would() {
    let after_write = |profile: Profile| {
        let mut s = session(profile, SessionConfig::default());
        s.write_file(
            "lib/CLAUDE.md",
            "Library code has no side effects.\n",
            1_200,
        )
        .unwrap();
        s.submit("write it", 2_000);
        let write = ToolInvocation::Write {
            file_path: "/p/lib/new.ts".into(),
            content: "export const n = 1;\n".into(),
        };
        let call = ResponseBlock::ToolUse(ToolCall {
            id: None,
            name: "Write".into(),
            input: "{}".into(),
            invocation: write,
        });
        let round = s.respond(vec![call], 3_000).unwrap();
        all_text(&round) + &all_text(&s.submit("go on", 4_000))
    };
    assert!(after_write(Profile::claude_code()).contains("no side effects"));
    assert!(!after_write(Profile::claude_code_2_1_88()).contains("no side effects"));
}

#[test]
fn a_compaction_names_the_tools_used_and_keeps_the_last_answer() {
    let compacted = |profile: Profile| {
        let mut s = session(profile, SessionConfig::default());
        s.submit("read it", 2_000);
        respond(&mut s, "Read", read_a(), 3_000);
        s.respond(vec![ResponseBlock::Text("Done reading.".into())], 4_000)
            .unwrap();
        s.compact(CompactionOptions::default(), None, 5_000)
            .unwrap();
        let request = s.submit("go on", 6_000).request.expect("a request");
        let first = request.messages[0].content[0].text.clone();
        let second = request.messages[1].content[0].text.clone();
        (first, second)
    };
    let (summary, kept) = compacted(Profile::claude_code());
    assert!(summary.contains("<tools-used-before-summary>Read</tools-used-before-summary>"));
    assert!(summary.contains("word for word"), "{summary}");
    assert_eq!(kept, "Done reading.");
    let (summary, kept) = compacted(Profile::claude_code_2_1_88());
    assert!(!summary.contains("tools-used-before-summary"));
    assert_ne!(kept, "Done reading.");
}

/// A session in a `window`-token window whose two responses report `first` and `second`
/// tokens; whether either request after them was compacted.
fn compacts_after_second_response(profile: Profile, window: u64, first: u64, second: u64) -> bool {
    use context_assembly::compact::context_size::ProviderUsage;
    let config = SessionConfig {
        context_window: window,
        ..SessionConfig::default()
    };
    let mut s = session(profile, config);
    let usage = |tokens: u64| {
        Some(ProviderUsage {
            input_tokens: tokens,
            ..ProviderUsage::default()
        })
    };
    s.submit("hi", 2_000);
    let text = |t: &str| vec![ResponseBlock::Text(t.into())];
    s.respond_with_usage(text("Hello."), usage(first), 3_000)
        .unwrap();
    let after_first = s.submit("again", 4_000);
    s.respond_with_usage(text("Done."), usage(second), 5_000)
        .unwrap();
    let after_second = s.submit("once more", 6_000);
    [after_first, after_second]
        .iter()
        .any(|turn| turn.compaction.iter().any(|r| r.applied))
}

#[test]
fn auto_compaction_reads_no_first_response_and_no_window_under_100_000() {
    let current = Profile::claude_code;
    // The first response's 190,000 of a 200,000-token window compact nothing.
    assert!(!compacts_after_second_response(
        current(),
        200_000,
        190_000,
        1_000
    ));
    assert!(compacts_after_second_response(
        Profile::claude_code_2_1_88(),
        200_000,
        190_000,
        1_000
    ));
    // The second response's count is read: 128,000 compacts at 95,000.
    assert!(!compacts_after_second_response(
        current(),
        128_000,
        1_000,
        94_900
    ));
    assert!(compacts_after_second_response(
        current(),
        128_000,
        1_000,
        95_100
    ));
    // An 80,000-token window is read as 100,000: 47,100 is not enough, 67,100 is.
    assert!(!compacts_after_second_response(
        current(),
        80_000,
        1_000,
        47_100
    ));
    assert!(compacts_after_second_response(
        current(),
        80_000,
        1_000,
        67_100
    ));
    assert!(compacts_after_second_response(
        Profile::claude_code_2_1_88(),
        80_000,
        1_000,
        47_100
    ));
}

#[test]
fn an_auto_compaction_sends_the_sessions_context_with_its_summary_and_keeps_the_last_answer() {
    use context_assembly::compact::context_size::ProviderUsage;
    let config = SessionConfig {
        context_window: 128_000,
        ..SessionConfig::default()
    };
    let mut s = session(Profile::claude_code(), config);
    s.write_file("CLAUDE.md", "Use tabs.\n", 1_500).unwrap();
    let usage = |tokens: u64| {
        Some(ProviderUsage {
            input_tokens: tokens,
            ..ProviderUsage::default()
        })
    };
    let text = |t: &str| vec![ResponseBlock::Text(t.into())];
    s.submit("hi", 2_000);
    s.respond_with_usage(text("Hello."), usage(1_000), 3_000)
        .unwrap();
    s.submit("again", 4_000);
    s.respond_with_usage(text("Done."), usage(96_000), 5_000)
        .unwrap();
    let turn = s.submit("once more", 6_000);
    assert!(turn.compaction.iter().any(|r| r.applied));
    let request = turn.request.expect("a request");
    let sources: Vec<String> = (request.messages.iter())
        .flat_map(|m| {
            m.content
                .iter()
                .map(move |b| format!("{:?}:{}", m.role, b.source))
        })
        .collect();
    let at = |wanted: &str| {
        sources
            .iter()
            .position(|s| s.ends_with(wanted))
            .unwrap_or_else(|| panic!("no {wanted} in {sources:?}"))
    };
    assert!(at(":instructions") < at(":compact_summary"), "{sources:?}");
    assert_eq!(at(":date"), at(":compact_summary") + 1, "{sources:?}");
    assert_eq!(
        sources[at(":date") + 1],
        "Assistant:assistant",
        "the last answer is kept"
    );
    assert!(at(":remote_session_change") < at(":prompt"), "{sources:?}");
    assert_eq!(
        sources.iter().filter(|s| s.ends_with(":date")).count(),
        1,
        "the date is not sent again by the turn's pass"
    );
}

/// The kinds of a request's `system`-role notes, in order.
fn system_notes(turn: &Turn) -> Vec<String> {
    let request = turn.request.as_ref().expect("a request");
    (request.messages.iter())
        .filter(|message| message.role == context_assembly::codex::items::Role::System)
        .flat_map(|message| message.content.iter().map(|block| block.source.clone()))
        .collect()
}

#[test]
fn a_typed_compact_announces_the_environment_before_the_next_prompts_own_notes() {
    let mut s = session(Profile::claude_code(), SessionConfig::default());
    s.write_file("huge.txt", "x".repeat(300 * 1024).as_str(), 1_500)
        .unwrap();
    // The session's first pass: a mention's reference comes before the environment.
    let first = system_notes(&s.submit("look at @huge.txt", 2_000));
    let at = |notes: &[String], kind: &str| notes.iter().position(|k| k == kind).unwrap();
    assert!(
        at(&first, "at_mention_reference") < at(&first, "environment"),
        "{first:?}"
    );
    s.respond(vec![ResponseBlock::Text("It is big.".into())], 3_000)
        .unwrap();
    let report = s
        .compact(CompactionOptions::default(), None, 4_000)
        .unwrap();
    assert!(report
        .decisions
        .iter()
        .any(|d| d.subject == "environment" && d.reason.contains("typed /compact")));
    // After it: the environment, then the new prompt's reference, then the date.
    let after = system_notes(&s.submit("again @huge.txt", 5_000));
    assert!(
        at(&after, "environment") < at(&after, "at_mention_reference"),
        "{after:?}"
    );
    assert!(
        at(&after, "at_mention_reference") < at(&after, "date"),
        "{after:?}"
    );
    assert_eq!(after.iter().filter(|k| *k == "environment").count(), 1);
}

#[test]
fn a_refused_summary_request_keeps_one_more_turn_where_2_1_88_leaves_the_oldest_rounds_out() {
    use context_assembly::compact::prompt_too_long::PromptTooLong;
    let compacted = |profile: Profile| {
        let mut s = session(profile, SessionConfig::default());
        for (i, prompt) in ["first", "second", "third"].into_iter().enumerate() {
            let at = 2_000 + 10_000 * i as u64;
            s.submit(prompt, at);
            s.respond(vec![ResponseBlock::Text(format!("answer {i}"))], at + 1_000)
                .unwrap();
        }
        let plan = s.plan_compaction(CompactionOptions::default(), 40_000);
        let refusals = [PromptTooLong::default(); 2];
        let report = (s.apply_compaction_after_refusals(&plan, &refusals, None, 40_000)).unwrap();
        (report.kept_records, report.decisions)
    };
    // Two refusals: the summary ends at the second prompt from the end; its answer, the
    // last prompt and the last answer stay word for word.
    let (kept, decisions) = compacted(Profile::claude_code());
    assert_eq!(kept, 3);
    let retries: Vec<_> = (decisions.iter())
        .filter(|d| d.subject == "summary request")
        .collect();
    assert_eq!(retries.len(), 2);
    assert!(
        retries[1].reason.contains("retry 2 of 3"),
        "{}",
        retries[1].reason
    );
    // 2.1.88 keeps nothing and leaves the oldest rounds out of the summary instead.
    let (kept, decisions) = compacted(Profile::claude_code_2_1_88());
    assert_eq!(kept, 0);
    assert!(decisions
        .iter()
        .any(|d| d.reason.contains("leaves out the oldest")));
}

/// A `claude-code` (2.1.332) session in print mode (`-p`) or in the terminal UI.
fn current_session(print_mode: bool) -> Session {
    let config = SessionConfig {
        print_mode,
        ..SessionConfig::default()
    };
    session(Profile::claude_code(), config)
}

#[test]
fn the_terminal_ui_lists_one_deferred_tool_and_one_agent_more_than_print_mode() {
    let listed = |print_mode: bool| {
        let mut s = current_session(print_mode);
        let turn = s.submit("hello", 2_000);
        let deferred = attachment_text(&turn, "deferred_tools_delta").map(String::from);
        let agents = attachment_text(&turn, "agent_listing_delta").map(String::from);
        (deferred.expect("listed"), agents.expect("listed"))
    };
    let (deferred, agents) = listed(false);
    assert!(deferred.contains("\nDesignSync\n"), "{deferred}");
    assert!(agents.contains("\n- claude-code-guide: "), "{agents}");
    let (deferred, agents) = listed(true);
    assert!(!deferred.contains("DesignSync"), "{deferred}");
    assert!(!agents.contains("claude-code-guide"), "{agents}");
}

#[test]
fn a_typed_compact_prints_its_result_dimmed_in_the_terminal_and_plain_in_print_mode() {
    let output = |print_mode: bool| {
        let mut s = current_session(print_mode);
        s.submit("hello", 2_000);
        s.respond(vec![ResponseBlock::Text("Hi.".into())], 3_000)
            .unwrap();
        s.compact(CompactionOptions::default(), None, 4_000)
            .unwrap();
        let request = s.submit("go on", 5_000).request.expect("a request");
        (request.messages.iter())
            .flat_map(|message| message.content.iter())
            .find(|block| block.text.starts_with("<local-command-stdout>"))
            .map(|block| String::from(block.text.trim_end()))
            .expect("the command's output is kept")
    };
    assert_eq!(
        output(true),
        "<local-command-stdout>Compacted</local-command-stdout>"
    );
    let terminal = output(false);
    assert!(
        terminal.starts_with("<local-command-stdout>\u{1b}[2mCompacted ("),
        "{terminal:?}"
    );
    assert!(
        terminal.ends_with("\u{1b}[22m</local-command-stdout>"),
        "{terminal:?}"
    );
}
