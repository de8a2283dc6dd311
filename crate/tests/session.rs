//! The file-context engine end to end: a session, its tools, and what each turn attaches
//! and decides, under `claude-code` and `recommended` (spec claude-code.md §1–5, §8).

use context_assembly::attachment::AttachmentKind;
use context_assembly::session::Turn;
use context_assembly::session::{McpResource, Session, SessionConfig, SessionOptions};
use context_assembly::vfs::TransientError;
use context_assembly::Profile;

fn session(profile: Profile, deny: &[&str]) -> Session {
    let config = SessionConfig {
        deny: deny.iter().map(|rule| rule.to_string()).collect(),
        mcp_resources: vec![McpResource {
            server: "docs".into(),
            uri: "guide".into(),
            text: Some("The guide.".into()),
            ..McpResource::default()
        }],
        agents: vec!["reviewer".into()],
        additional_directories: vec![],
        ..SessionConfig::default()
    };
    let mut session = Session::new(SessionOptions {
        profile,
        cwd: "/p".into(),
        home: Some("/home/u".into()),
        config,
    })
    .expect("valid options");
    // The first pass announces the agent listing (a delta); these tests are about file
    // context, so it is spent here, before any file exists.
    let first = session.tool_round(0);
    let announced: Vec<&str> = first.attachments.iter().map(|a| a.kind.as_str()).collect();
    let expected: &[&str] = if session.profile().attachments.reminders {
        &["agent_listing_delta"]
    } else {
        &[]
    };
    assert_eq!(announced, expected);
    session
}

fn lines(n: usize) -> String {
    (1..=n).map(|i| format!("line{i}\n")).collect()
}

fn kinds(turn: &Turn) -> Vec<&str> {
    turn.attachments.iter().map(|a| a.kind.as_str()).collect()
}

fn verdict_of(turn: &Turn, subject: &str) -> Option<&'static str> {
    turn.decisions
        .iter()
        .find(|d| d.subject == subject)
        .map(|d| d.verdict.as_str())
}

#[test]
fn an_edit_outside_the_agent_comes_back_as_a_snippet_once() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    s.write_file("a.txt", lines(30), 1_000).unwrap();
    s.read("a.txt", None, None, 2_000).unwrap();
    let edited = s.edit("a.txt", "line1\n", "LINE1\n", 3_000).unwrap();
    assert!(!edited.is_error, "{}", edited.content);
    s.write_file(
        "a.txt",
        lines(30)
            .replace("line15\n", "LINE15\n")
            .replace("line1\n", "LINE1\n"),
        4_000,
    )
    .unwrap();
    let turn = s.submit("continue", 5_000);
    assert_eq!(kinds(&turn), ["edited_text_file"]);
    let text = &turn.attachments[0].text;
    assert!(text.contains("/p/a.txt"), "{text}");
    assert!(
        text.contains("7\tline7\n")
            && text.contains("15\tLINE15\n")
            && text.ends_with("23\tline23\n</system-reminder>"),
        "{text}"
    );
    assert!(turn.attachments[0].tokens > 0);
    // The detection re-read stored offset 1: the entry is disarmed (Q32).
    s.write_file("a.txt", "changed again\n", 6_000).unwrap();
    assert!(s.tool_round(7_000).attachments.is_empty());
}

#[test]
fn files_only_read_are_watched_only_when_the_fix_is_on() {
    for (profile, watched) in [
        (Profile::claude_code_2_1_88(), false),
        (Profile::recommended(), true),
    ] {
        let mut s = session(profile, &[]);
        s.write_file("a.txt", "a\nb\n", 1_000).unwrap();
        s.read("a.txt", None, None, 2_000).unwrap();
        s.write_file("a.txt", "a\nB\n", 3_000).unwrap();
        let turn = s.tool_round(4_000);
        assert_eq!(kinds(&turn) == ["edited_text_file"], watched, "{turn:?}");
    }
}

#[test]
fn a_change_that_keeps_its_mtime_is_caught_only_by_content_comparison() {
    for (profile, caught) in [
        (Profile::claude_code_2_1_88(), false),
        (Profile::recommended(), true),
    ] {
        let mut s = session(profile, &[]);
        s.write("a.txt", "x\n", 1_000).unwrap();
        s.write_file("a.txt", "y\n", 1_000).unwrap();
        assert_eq!(kinds(&s.tool_round(2_000)) == ["edited_text_file"], caught);
    }
}

#[test]
fn a_touch_without_a_change_says_nothing() {
    for profile in [Profile::claude_code_2_1_88(), Profile::recommended()] {
        let mut s = session(profile, &[]);
        s.write("a.txt", "x\n", 1_000).unwrap();
        s.write_file("a.txt", "x\n", 5_000).unwrap();
        let turn = s.tool_round(6_000);
        assert!(turn.attachments.is_empty(), "{turn:?}");
        assert_eq!(verdict_of(&turn, "/p/a.txt"), Some("unchanged"));
    }
}

#[test]
fn deleted_and_emptied_files_get_a_note_only_with_the_fix() {
    for (profile, noted) in [
        (Profile::claude_code_2_1_88(), false),
        (Profile::recommended(), true),
    ] {
        let mut s = session(profile, &[]);
        s.write("gone.txt", "x\n", 1_000).unwrap();
        s.write("empty.txt", "x\n", 1_000).unwrap();
        s.delete_file("gone.txt", 2_000).unwrap();
        s.write_file("empty.txt", "", 2_000).unwrap();
        let turn = s.tool_round(3_000);
        assert_eq!(verdict_of(&turn, "/p/gone.txt"), Some("evicted"));
        assert_eq!(kinds(&turn).contains(&"deleted_file"), noted);
        assert_eq!(kinds(&turn).contains(&"emptied_file"), noted);
        assert!(!s.file_state().iter().any(|row| row.path == "/p/gone.txt"));
    }
}

#[test]
fn a_transient_error_keeps_the_entry_and_the_change_arrives_later() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    s.write("a.txt", "x\n", 1_000).unwrap();
    s.write_file("a.txt", "y\n", 2_000).unwrap();
    s.set_transient_error("a.txt", Some(TransientError::Busy))
        .unwrap();
    let turn = s.tool_round(3_000);
    assert!(turn.attachments.is_empty());
    assert_eq!(verdict_of(&turn, "/p/a.txt"), Some("failed"));
    s.set_transient_error("a.txt", None).unwrap();
    assert_eq!(kinds(&s.tool_round(4_000)), ["edited_text_file"]);
}

#[test]
fn mentions_become_file_attachments_with_ranges() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    s.write_file("src/a.ts", "l1\nl2\nl3\nl4\n", 1_000).unwrap();
    let turn = s.submit("look at @src/a.ts#L2-3", 2_000);
    assert_eq!(kinds(&turn), ["file"]);
    let text = &turn.attachments[0].text;
    assert!(text.starts_with("<system-reminder>\n"), "{text}");
    assert!(
        text.contains("{\"file_path\":\"/p/src/a.ts\"}"),
        "the call note shows only the path (Q21): {text}"
    );
    assert!(
        text.contains("\n2\tl2\n3\tl3\n\n<system-reminder>\n"),
        "numbered lines, then the nested reminder (Q23): {text}"
    );
    let row = &s.file_state()[0];
    assert_eq!(
        (row.path.as_str(), row.offset, row.limit),
        ("/p/src/a.ts", Some(2), Some(2))
    );
}

#[test]
fn one_file_mentioned_twice_in_a_prompt_attaches_each_time_in_the_original() {
    // Q2: the original checks "already read" for all of a prompt's mentions before it
    // records any of them, so every spelling and every range of one file attaches.
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    s.write_file("src/a.ts", "l1\nl2\nl3\nl4\nl5\nl6\n", 1_000)
        .unwrap();
    let turn = s.submit("compare @src/a.ts#L1-2 with @src/a.ts#L5-6", 2_000);
    assert_eq!(kinds(&turn), ["file", "file"]);
    assert!(
        turn.attachments[1].text.contains("\n5\tl5\n6\tl6\n"),
        "{turn:?}"
    );
    let turn = s.submit("@src/b.ts @src/a.ts @./src/a.ts @/p/src/a.ts", 3_000);
    assert_eq!(verdict_of(&turn, "@src/a.ts"), Some("already-in-context"));
    s.write_file("src/a.ts", "l1\n", 4_000).unwrap();
    s.tool_round(5_000);
    let turn = s.submit("@src/a.ts @./src/a.ts @/p/src/a.ts", 6_000);
    assert_eq!(kinds(&turn), ["file", "file", "file"]);
    for subject in ["@src/a.ts", "@./src/a.ts", "@/p/src/a.ts"] {
        assert_eq!(verdict_of(&turn, subject), Some("included"), "{subject}");
    }
    // The fix (Q2): spellings of one relative path collapse when extracted; the absolute
    // spelling is read once and then pointed at, as is a range the full read covers.
    let mut s = session(Profile::recommended(), &[]);
    s.write_file("src/a.ts", "l1\nl2\nl3\nl4\nl5\nl6\n", 1_000)
        .unwrap();
    let turn = s.submit("@src/a.ts @./src/a.ts @/p/src/a.ts", 2_000);
    assert_eq!(kinds(&turn), ["file", "already_read_file"]);
    let turn = s.submit("compare @src/a.ts#L1-2 with @src/a.ts#L5-6", 3_000);
    assert_eq!(kinds(&turn), ["already_read_file", "already_read_file"]);
}

#[test]
fn an_unchanged_file_already_read_sends_nothing_in_the_original() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    s.write_file("a.txt", "a\nb\n", 1_000).unwrap();
    s.read("a.txt", None, Some(1), 2_000).unwrap();
    let turn = s.submit("@a.txt", 3_000);
    assert_eq!(kinds(&turn), ["already_read_file"]);
    assert!(turn.attachments[0].kind.renders_to_nothing());
    assert_eq!(turn.attachments[0].text, "");
    assert_eq!(verdict_of(&turn, "@a.txt"), Some("already-in-context"));
    // The fix: an earlier read of line 1 does not cover the whole file.
    let mut s = session(Profile::recommended(), &[]);
    s.write_file("a.txt", "a\nb\n", 1_000).unwrap();
    s.read("a.txt", None, Some(1), 2_000).unwrap();
    assert_eq!(kinds(&s.submit("@a.txt", 3_000)), ["file"]);
}

#[test]
fn deny_rules_keep_mentions_out_at_any_depth_in_the_original() {
    let mut s = session(Profile::claude_code_2_1_88(), &["Read(./.env)"]);
    s.write_file(".env", "SECRET=1\n", 1_000).unwrap();
    s.write_file("a/b/.env", "SECRET=2\n", 1_000).unwrap();
    let turn = s.submit("@.env and @a/b/.env", 2_000);
    assert!(turn.attachments.is_empty());
    assert_eq!(verdict_of(&turn, "@.env"), Some("denied"));
    assert_eq!(
        verdict_of(&turn, "@a/b/.env"),
        Some("denied"),
        "unanchored ./ pattern (Q12)"
    );
    let denial = turn
        .decisions
        .iter()
        .find(|d| d.subject == "@.env")
        .unwrap();
    assert_eq!(denial.detail.as_deref(), Some("Read(./.env)"));
    // Bypass attempts through the path spelling still hit the rule.
    for spelling in ["@./.env", "@a/../.env", "@/p//.env"] {
        let turn = s.submit(spelling, 3_000);
        assert_eq!(verdict_of(&turn, spelling), Some("denied"), "{spelling}");
    }
    // The fix anchors ./ patterns at the root.
    let mut s = session(Profile::recommended(), &["Read(./.env)"]);
    s.write_file("a/b/.env", "SECRET=2\n", 1_000).unwrap();
    assert_eq!(kinds(&s.submit("@a/b/.env", 2_000)), ["file"]);
}

#[test]
fn a_directory_mention_lists_at_most_1000_entries() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    for i in 0..1005 {
        s.write_file(&format!("big/f{i:04}"), "", 1_000).unwrap();
    }
    let turn = s.submit("@big", 2_000);
    assert_eq!(kinds(&turn), ["directory"]);
    let text = &turn.attachments[0].text;
    assert!(
        text.contains("{\"command\":\"ls /p/big\",\"description\":\"Lists files in /p/big\"}"),
        "{text}"
    );
    assert!(text.contains("f0999\n… and 5 more entries"), "{text}");
    assert!(!text.contains("f1000"));
}

#[test]
fn an_oversized_mention_is_dropped_by_the_original_and_truncated_by_the_fix() {
    let big: String = (0..30_000)
        .map(|i| format!("line {i} of a large file\n"))
        .collect();
    for (profile, expected) in [
        (Profile::claude_code_2_1_88(), "too-large"),
        (Profile::recommended(), "truncated"),
    ] {
        let mut s = session(profile, &[]);
        s.write_file("big.txt", big.as_str(), 1_000).unwrap();
        let turn = s.submit("@big.txt", 2_000);
        assert_eq!(verdict_of(&turn, "@big.txt"), Some(expected), "{turn:?}");
    }
}

#[test]
fn missing_files_agents_and_resources_are_decisions_not_silence() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    let turn = s.submit(
        "@nope.ts @agent-reviewer @agent-ghost @docs:guide @docs:other",
        1_000,
    );
    assert_eq!(verdict_of(&turn, "@nope.ts"), Some("not-found"));
    assert_eq!(verdict_of(&turn, "@agent-ghost"), Some("not-found"));
    assert_eq!(verdict_of(&turn, "@docs:other"), Some("not-found"));
    assert_eq!(kinds(&turn), ["mcp_resource", "agent_mention"]);
    assert!(turn.attachments[0].text.contains("The guide."));
}

#[test]
fn a_read_brings_in_nested_memory_once() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    s.write_file("src/CLAUDE.md", "---\npaths: x\n---\nUse tabs.\n", 1_000)
        .unwrap();
    s.write_file("src/a.ts", "x\n", 1_000).unwrap();
    s.read("src/a.ts", None, None, 2_000).unwrap();
    let turn = s.tool_round(3_000);
    assert_eq!(kinds(&turn), ["nested_memory"]);
    assert!(turn.attachments[0]
        .text
        .starts_with("<system-reminder>\nContents of /p/src/CLAUDE.md:\n\n"));
    assert!(turn.attachments[0].text.contains("Use tabs."));
    let row = s
        .file_state()
        .into_iter()
        .find(|r| r.path == "/p/src/CLAUDE.md")
        .unwrap();
    assert!(
        row.partial_view,
        "frontmatter stripped: the model saw another text"
    );
    s.read("src/a.ts", Some(1), Some(1), 4_000).unwrap();
    assert!(s.tool_round(5_000).attachments.is_empty());
}

#[test]
fn the_agent_must_read_before_it_writes_and_see_external_changes() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    s.write_file("a.txt", "x\n", 1_000).unwrap();
    assert!(s.edit("a.txt", "x", "y", 2_000).unwrap().is_error);
    s.read("a.txt", None, None, 3_000).unwrap();
    s.write_file("a.txt", "z\n", 4_000).unwrap();
    let refused = s.write("a.txt", "w\n", 5_000).unwrap();
    assert!(
        refused.is_error && refused.content.contains("changed since it was read"),
        "{}",
        refused.content
    );
    assert!(!s.write("new.txt", "fresh\n", 6_000).unwrap().is_error);
}

#[test]
fn reading_the_same_unchanged_range_again_returns_the_stub() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    s.write_file("a.txt", "x\n", 1_000).unwrap();
    let first = s.read("a.txt", None, None, 2_000).unwrap();
    assert!(first.content.starts_with("1\tx\n2\t"));
    let again = s.read("a.txt", None, None, 3_000).unwrap();
    assert_eq!(
        again.content,
        context_assembly::session::FILE_UNCHANGED_STUB
    );
}

#[test]
fn codex_sends_no_file_context() {
    let mut s = session(Profile::codex(), &[]);
    s.write_file("a.txt", "x\n", 1_000).unwrap();
    let turn = s.submit("@a.txt", 2_000);
    assert!(turn.attachments.is_empty());
    assert_eq!(verdict_of(&turn, "@a.txt"), Some("skipped"));
}

#[test]
fn paths_that_escape_the_root_or_hold_nul_are_errors_naming_the_path() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    for bad in ["../../../etc/passwd", "a\0b", "//server/share"] {
        let error = s.write_file(bad, "x", 1).unwrap_err().to_string();
        assert!(error.contains(&format!("{bad:?}")), "{error}");
    }
    assert!(Session::new(SessionOptions {
        profile: Profile::claude_code_2_1_88(),
        cwd: "relative".into(),
        home: None,
        config: SessionConfig::default(),
    })
    .is_err());
}

/// A PNG header: signature, then an IHDR chunk with the dimensions.
fn png(width: u32, height: u32) -> Vec<u8> {
    let mut bytes = b"\x89PNG\r\n\x1a\n\0\0\0\x0dIHDR".to_vec();
    bytes.extend(width.to_be_bytes());
    bytes.extend(height.to_be_bytes());
    bytes.extend([8, 6, 0, 0, 0, 0, 0, 0, 0]);
    bytes
}

#[test]
fn a_mentioned_image_shows_its_ladder_as_decisions_and_costs_its_estimate() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    s.write_file("shot.png", png(800, 600), 1_000).unwrap();
    let turn = s.submit("see @shot.png", 2_000);
    assert_eq!(kinds(&turn), ["file"]);
    let attachment = &turn.attachments[0];
    assert!(attachment.text.contains("800×600"), "{}", attachment.text);
    assert!(
        attachment.tokens >= 2000,
        "the flat image estimate (Q44) is counted"
    );
    assert!(turn
        .decisions
        .iter()
        .any(|d| d.subject == "@shot.png (image)" && d.verdict.as_str() == "included"));
    assert!(s.file_state().is_empty(), "images are not cached (Q42)");
    let request = turn.request.expect("a human turn has a request");
    // The call note and the image are two messages (§3.11); the image's block carries it.
    let blocks: Vec<_> = request
        .messages
        .iter()
        .flat_map(|m| m.content.iter())
        .filter(|b| b.source == "file")
        .collect();
    assert_eq!(blocks.len(), 2);
    assert!(
        blocks[1].media_tokens >= 2000,
        "the request counts the image too"
    );
    assert_eq!(blocks[0].tokens + blocks[1].tokens, attachment.tokens);
}

#[test]
fn a_changed_image_is_noted_only_when_images_are_tracked() {
    let mut s = session(Profile::recommended(), &[]);
    s.write_file("shot.png", png(10, 10), 1_000).unwrap();
    s.read("shot.png", None, None, 2_000).unwrap();
    assert!(s.tool_round(3_000).attachments.is_empty());
    s.write_file("shot.png", png(20, 20), 4_000).unwrap();
    assert_eq!(kinds(&s.tool_round(5_000)), ["edited_image_file"]);
    assert!(s.tool_round(6_000).attachments.is_empty(), "reported once");
}

#[test]
fn invalid_utf8_is_binary_with_a_decision_not_a_panic() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    s.write_file("blob.txt", vec![0x66, 0xff, 0xfe, 0x00], 1_000)
        .unwrap();
    let turn = s.submit("@blob.txt", 2_000);
    assert!(turn.attachments.is_empty());
    let decision = turn
        .decisions
        .iter()
        .find(|d| d.subject == "@blob.txt")
        .unwrap();
    assert_eq!(decision.verdict.as_str(), "failed");
    assert!(decision.reason.contains("not UTF-8"), "{}", decision.reason);
    assert!(s.read("blob.txt", None, None, 3_000).unwrap().is_error);
}

mod generated {
    use super::*;
    use proptest::prelude::*;

    #[derive(Debug, Clone)]
    enum Op {
        External(u8, u16),
        Read(u8),
        Edit(u8),
        Delete(u8),
        Submit(u8),
        Round,
    }

    fn op() -> impl Strategy<Value = Op> {
        prop_oneof![
            (0u8..120, 0u16..400).prop_map(|(f, n)| Op::External(f, n)),
            (0u8..120).prop_map(Op::Read),
            (0u8..120).prop_map(Op::Edit),
            (0u8..120).prop_map(Op::Delete),
            (0u8..120).prop_map(Op::Submit),
            Just(Op::Round),
        ]
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(48))]
        #[test]
        fn limits_hold_and_every_attachment_is_counted(
            ops in prop::collection::vec(op(), 1..120),
            recommended in any::<bool>(),
        ) {
            let profile = if recommended { Profile::recommended() } else { Profile::claude_code_2_1_88() };
            let method = profile.token_method;
            let mut s = session(profile, &["Read(secret/**)"]);
            for (step, op) in ops.into_iter().enumerate() {
                let at = 1_000 * (step as u64 + 1);
                match op {
                    Op::External(f, n) => { s.write_file(&format!("d{}/f{f}.txt", f % 7), lines(n as usize), at).unwrap(); }
                    Op::Read(f) => { s.read(&format!("d{}/f{f}.txt", f % 7), None, None, at).unwrap(); }
                    Op::Edit(f) => { s.edit(&format!("d{}/f{f}.txt", f % 7), "line1\n", "first\n", at).unwrap(); }
                    Op::Delete(f) => { let _ = s.delete_file(&format!("d{}/f{f}.txt", f % 7), at); }
                    Op::Submit(f) => {
                        let turn = s.submit(&format!("look at @d{}/f{f}.txt and @d{} and @secret/x", f % 7, f % 7), at);
                        for a in &turn.attachments {
                            if a.kind != AttachmentKind::File || !a.text.contains("image") {
                                // Each part of the text is counted as the block it is sent as.
                                let counted: u64 = a.messages().iter().map(|part| context_assembly::tokens::estimate_tokens(part, method, None)).sum();
                                prop_assert_eq!(a.tokens, counted);
                            }
                        }
                        prop_assert!(turn.attachments.iter().all(|a| a.path.as_deref().is_none_or(|p| !p.starts_with("/p/secret"))));
                    }
                    Op::Round => { s.tool_round(at); }
                }
                let state = s.file_state();
                prop_assert!(state.len() <= 100);
                prop_assert!(state.iter().map(|r| r.bytes.max(1)).sum::<u64>() <= 25 * 1024 * 1024);
                prop_assert!(state.iter().all(|r| r.path.starts_with('/') && !r.path.contains("/../")));
            }
        }
    }
}

#[test]
fn the_change_scan_reverses_recency_in_the_original_only() {
    for (profile, reversed) in [
        (Profile::claude_code_2_1_88(), true),
        (Profile::recommended(), false),
    ] {
        let mut s = session(profile, &[]);
        for name in ["a", "b", "c"] {
            s.write(name, "x\n", 1_000).unwrap();
        }
        let before: Vec<String> = s.file_state().into_iter().map(|r| r.path).collect();
        assert_eq!(before, ["/p/c", "/p/b", "/p/a"]);
        s.tool_round(2_000);
        let after: Vec<String> = s.file_state().into_iter().map(|r| r.path).collect();
        let expected = if reversed {
            ["/p/a", "/p/b", "/p/c"]
        } else {
            ["/p/c", "/p/b", "/p/a"]
        };
        assert_eq!(after, expected, "Q27");
    }
}

#[test]
fn a_change_too_large_to_read_is_silent_in_the_original_and_noted_once_by_the_fix() {
    let big: String = (0..12_000)
        .map(|i| format!("line {i} of a file that is too large\n"))
        .collect();
    for (profile, noted) in [
        (Profile::claude_code_2_1_88(), false),
        (Profile::recommended(), true),
    ] {
        let mut s = session(profile, &[]);
        s.write("big.txt", "small\n", 1_000).unwrap();
        s.write_file("big.txt", big.as_str(), 2_000).unwrap();
        let turn = s.tool_round(3_000);
        assert_eq!(
            kinds(&turn) == ["changed_file_too_large"],
            noted,
            "{turn:?}"
        );
        let again = s.tool_round(4_000);
        assert!(again.attachments.is_empty());
        if noted {
            assert!(
                s.edit("big.txt", "line 1 ", "x", 5_000).unwrap().is_error,
                "must read before editing"
            );
        } else {
            assert_eq!(
                verdict_of(&again, "/p/big.txt"),
                Some("failed"),
                "Q39: skipped on every pass"
            );
        }
    }
}

#[test]
fn a_mention_over_the_token_gate_is_cut_to_2000_lines_with_a_note() {
    // Under 256 KiB but over 25,000 estimated tokens: the truncated fallback (§3.7 step 7).
    let text: String = (1..=5000)
        .map(|i| format!("line number {i} of a long file\n"))
        .collect();
    for (profile, range) in [
        (Profile::claude_code_2_1_88(), "its first 2000 lines"),
        (Profile::recommended(), "lines 1 to 2000"),
    ] {
        let mut s = session(profile, &[]);
        s.write_file("long.txt", text.as_str(), 1_000).unwrap();
        let turn = s.submit("@long.txt", 2_000);
        assert_eq!(kinds(&turn), ["file"], "{:?}", turn.decisions);
        assert_eq!(verdict_of(&turn, "@long.txt"), Some("truncated"));
        let text = &turn.attachments[0].text;
        assert!(
            text.contains(range),
            "Q22: {}",
            &text[text.len().saturating_sub(300)..]
        );
    }
}

#[test]
fn a_range_read_before_a_change_is_named_for_a_reread_not_diffed() {
    let mut s = session(Profile::recommended(), &[]);
    s.write_file("a.txt", lines(40), 1_000).unwrap();
    assert_eq!(kinds(&s.submit("@a.txt#L10-20", 2_000)), ["file"]);
    assert!(
        s.tool_round(3_000).attachments.is_empty(),
        "the slice is not the file: no false change"
    );
    s.write_file("a.txt", lines(41), 4_000).unwrap();
    let turn = s.tool_round(5_000);
    assert_eq!(kinds(&turn), ["edited_text_file"]);
    assert!(
        turn.attachments[0].text.contains("lines 10 to 20"),
        "{}",
        turn.attachments[0].text
    );
    assert!(
        s.tool_round(6_000).attachments.is_empty(),
        "once per change"
    );
}

#[test]
fn glob_lists_oldest_first_and_grep_newest_first_relative_to_the_cwd() {
    use context_assembly::session::{GrepOutputMode, ResponseBlock, ToolCall, ToolInvocation};
    let search = |name: &str, invocation: ToolInvocation| {
        ResponseBlock::ToolUse(ToolCall {
            id: None,
            name: name.into(),
            input: "{}".into(),
            invocation,
        })
    };
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    // Tree order is a, b, c; modification order is b, c, a.
    s.write_file("src/a.ts", "needle\n", 3_000).unwrap();
    s.write_file("src/b.ts", "needle\n", 1_000).unwrap();
    s.write_file("src/c.ts", "needle\n", 2_000).unwrap();
    s.submit("search", 4_000);
    let glob = ToolInvocation::Glob {
        pattern: "*.ts".into(),
        path: None,
    };
    let turn = s.respond(vec![search("Glob", glob)], 5_000).unwrap();
    assert_eq!(turn.tool_results[0].content, "src/b.ts\nsrc/c.ts\nsrc/a.ts");
    let grep = ToolInvocation::Grep {
        pattern: "needle".into(),
        path: Some("src".into()),
        output_mode: GrepOutputMode::FilesWithMatches,
    };
    let turn = s.respond(vec![search("Grep", grep)], 6_000).unwrap();
    assert_eq!(
        turn.tool_results[0].content,
        "Found 3 files\nsrc/a.ts\nsrc/c.ts\nsrc/b.ts"
    );
    let none = ToolInvocation::Glob {
        pattern: "*.rs".into(),
        path: None,
    };
    let turn = s.respond(vec![search("Glob", none)], 7_000).unwrap();
    assert_eq!(turn.tool_results[0].content, "No files found");
}

#[test]
fn grep_matches_a_regular_expression_and_prints_lines_in_content_mode() {
    use context_assembly::session::{GrepOutputMode, ResponseBlock, ToolCall, ToolInvocation};
    let grep = |pattern: &str, output_mode: GrepOutputMode| {
        ResponseBlock::ToolUse(ToolCall {
            id: None,
            name: "Grep".into(),
            input: "{}".into(),
            invocation: ToolInvocation::Grep {
                pattern: pattern.into(),
                path: None,
                output_mode,
            },
        })
    };
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    s.write_file("src/a.ts", "let needle = 1;\nother\nneeedle()\n", 1_000)
        .unwrap();
    s.write_file("src/b.ts", "no match here\n", 2_000).unwrap();
    s.write_file("src/c.ts", "a needle\n", 3_000).unwrap();
    s.submit("search", 4_000);
    let turn = s
        .respond(vec![grep("ne+dle", GrepOutputMode::Content)], 5_000)
        .unwrap();
    assert_eq!(
        turn.tool_results[0].content,
        "src/a.ts:1:let needle = 1;\nsrc/a.ts:3:neeedle()\nsrc/c.ts:1:a needle"
    );
    let turn = s
        .respond(
            vec![grep("^ne+dle\\(", GrepOutputMode::FilesWithMatches)],
            6_000,
        )
        .unwrap();
    assert_eq!(turn.tool_results[0].content, "Found 1 file\nsrc/a.ts");
    let turn = s
        .respond(vec![grep("haystack", GrepOutputMode::Content)], 7_000)
        .unwrap();
    assert_eq!(turn.tool_results[0].content, "No matches found");
    let turn = s
        .respond(vec![grep("needle(", GrepOutputMode::Content)], 8_000)
        .unwrap();
    let result = &turn.tool_results[0];
    assert!(result.is_error, "{result:?}");
    assert!(
        result
            .content
            .contains("\"needle(\" is not a valid regular expression")
            && result.content.contains("unclosed group"),
        "{}",
        result.content
    );
}

#[test]
fn a_mentioned_file_is_sent_as_a_call_note_message_then_its_result_in_the_original() {
    use context_assembly::session::ResponseBlock;
    let blocks_of = |turn: &Turn| -> Vec<Vec<(String, u64)>> {
        let messages = &turn.request.as_ref().expect("a request").messages;
        let last_answer = messages
            .iter()
            .rposition(|m| m.role.as_str() == "assistant");
        messages[last_answer.map_or(0, |i| i + 1)..]
            .iter()
            .map(|m| {
                m.content
                    .iter()
                    .map(|b| (b.text.clone(), b.tokens))
                    .collect()
            })
            .collect()
    };
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    s.write_file("src/a.ts", "l1\nl2\nl3\nl4\n", 1_000).unwrap();
    s.write_file("src/b.ts", "b1\n", 1_000).unwrap();
    s.submit("hello", 2_000);
    s.respond(vec![ResponseBlock::Text("hi".into())], 3_000)
        .unwrap();
    let turn = s.submit("look at @src/a.ts#L2-3 and @src/b.ts", 4_000);
    let messages = blocks_of(&turn);
    // The first attachment's call note is a user message of its own; its result starts the
    // next, into which the second attachment (call note, result) and the prompt merge.
    assert_eq!(messages.len(), 2, "{messages:#?}");
    assert_eq!(messages[0].len(), 1);
    let call = &messages[0][0].0;
    assert!(
        call.starts_with("<system-reminder>\n")
            && call.ends_with("{\"file_path\":\"/p/src/a.ts\"}\n</system-reminder>"),
        "{call}"
    );
    let texts: Vec<&str> = messages[1].iter().map(|(text, _)| text.as_str()).collect();
    assert_eq!(texts.len(), 4, "{texts:#?}");
    assert!(texts[0].contains("\n2\tl2\n3\tl3\n") && texts[0].ends_with("</system-reminder>\n"));
    assert!(texts[1].ends_with("{\"file_path\":\"/p/src/b.ts\"}\n</system-reminder>\n"));
    assert!(texts[2].contains("\n1\tb1\n"));
    assert_eq!(texts[3], "look at @src/a.ts#L2-3 and @src/b.ts");
    // Each attachment's tokens are what its blocks cost apart.
    let file_tokens: u64 = turn.attachments.iter().map(|a| a.tokens).sum();
    let call_a = context_assembly::tokens::estimate_tokens(
        call,
        context_assembly::tokens::TokenMethod::ClaudeCode,
        None,
    );
    assert_eq!(
        turn.attachments[0].tokens,
        call_a + {
            let result = texts[0].strip_suffix('\n').unwrap();
            context_assembly::tokens::estimate_tokens(
                result,
                context_assembly::tokens::TokenMethod::ClaudeCode,
                None,
            )
        }
    );
    assert!(file_tokens > 0);
    // The fix keeps each attachment one block.
    let mut s = session(Profile::recommended(), &[]);
    s.write_file("src/a.ts", "l1\n", 1_000).unwrap();
    s.submit("hello", 2_000);
    s.respond(vec![ResponseBlock::Text("hi".into())], 3_000)
        .unwrap();
    let messages = blocks_of(&s.submit("@src/a.ts", 4_000));
    assert_eq!(messages.len(), 1, "{messages:#?}");
    assert_eq!(messages[0].len(), 2);
}

#[test]
fn a_headless_session_never_seeds_claude_md_so_its_change_is_not_reported() {
    for (headless, reported) in [(false, true), (true, false)] {
        let mut profile = Profile::claude_code_2_1_88();
        profile.file_context.headless = headless;
        let mut s = Session::new(SessionOptions {
            profile,
            cwd: "/p".into(),
            home: Some("/home/u".into()),
            config: SessionConfig::default(),
        })
        .expect("valid options");
        s.write_file("CLAUDE.md", "Use tabs.\n", 1_000).unwrap();
        let turn = s.submit("hello", 2_000);
        let user_context = &turn.request.as_ref().expect("a request").user_context;
        assert!(
            user_context.iter().any(|b| b.text.contains("Use tabs.")),
            "the memory is sent either way"
        );
        let seeded = s.file_state().iter().any(|row| row.path == "/p/CLAUDE.md");
        assert_eq!(seeded, !headless);
        s.write_file("CLAUDE.md", "Use spaces.\n", 3_000).unwrap();
        let turn = s.tool_round(4_000);
        let noted = turn.attachments.iter().any(|a| {
            a.kind == AttachmentKind::EditedTextFile && a.path.as_deref() == Some("/p/CLAUDE.md")
        });
        assert_eq!(noted, reported, "headless: {headless}: {turn:?}");
    }
}
