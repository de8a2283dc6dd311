//! The eager memory files in the read-file state (spec claude-code.md §4.4, §9.4, §9.11):
//! when the interactive client seeds them (startup, before the first prompt), that it does
//! not seed them again after a compaction, and which user context a request carries after
//! an auto-compaction in the middle of a turn. Each was found by the conformance lab.

mod common;

use common::read;
use context_assembly::attachment::AttachmentKind;
use context_assembly::session::{
    CompactionOptions, FileStateRow, ResponseBlock, Session, SessionConfig, Turn,
};
use context_assembly::Profile;

fn session(profile: Profile, config: SessionConfig) -> Session {
    common::session_in(profile, Some("/home/u"), config)
}

fn row(s: &Session, path: &str) -> Option<FileStateRow> {
    s.file_state().into_iter().find(|row| row.path == path)
}

fn user_context(turn: &Turn) -> String {
    let request = turn.request.as_ref().expect("a request");
    request
        .user_context
        .iter()
        .map(|b| b.text.as_str())
        .collect()
}

/// A workspace whose eager memory (CLAUDE.md, .claude/CLAUDE.md) and nested memory
/// (src/CLAUDE.md) were all written at 0.
fn workspace(profile: Profile) -> Session {
    let mut s = session(profile, SessionConfig::default());
    s.write_file("CLAUDE.md", "Root rules.\n", 0).unwrap();
    s.write_file(".claude/CLAUDE.md", "Dot rules.\n", 0)
        .unwrap();
    s.write_file("src/CLAUDE.md", "Source rules.\n", 0).unwrap();
    s.write_file("src/a.ts", "export const a = 1;\n", 0)
        .unwrap();
    s
}

#[test]
fn startup_seeds_eager_memory_just_before_the_first_prompt() {
    let mut s = workspace(Profile::claude_code_2_1_88());
    // The mention loads src/CLAUDE.md in the first turn, stamped with the turn's time.
    s.submit("look at @src/a.ts", 1_000);
    let stamp = |path: &str| row(&s, path).map(|r| r.timestamp);
    assert_eq!(stamp("/p/CLAUDE.md"), Some(999), "{:#?}", s.file_state());
    assert_eq!(stamp("/p/.claude/CLAUDE.md"), Some(999));
    assert_eq!(stamp("/p/src/CLAUDE.md"), Some(1_000));
    // So the nested file ranks above the eager one in the restore, as in the client
    // (§9.4 step 3; /p/CLAUDE.md is one of the paths the restore leaves out).
    s.respond(vec![ResponseBlock::Text("Done.".into())], 2_000)
        .unwrap();
    let report = s
        .compact(CompactionOptions::default(), None, 3_000)
        .unwrap();
    let restored: Vec<&str> = report.restored.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(
        restored,
        ["/p/src/CLAUDE.md", "/p/.claude/CLAUDE.md", "/p/src/a.ts"]
    );
}

#[test]
fn startup_never_precedes_a_memory_file_nor_time_zero() {
    // A memory file written in the prompt's own millisecond existed at startup: the seed
    // is not older than it, so no change is reported.
    let mut s = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    s.write_file("CLAUDE.md", "Use tabs.\n", 1_000).unwrap();
    let turn = s.submit("hello", 1_000);
    assert_eq!(row(&s, "/p/CLAUDE.md").map(|r| r.timestamp), Some(1_000));
    assert!(turn
        .attachments
        .iter()
        .all(|a| a.kind != AttachmentKind::EditedTextFile));
    // No millisecond comes before 0.
    let mut s = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    s.write_file("CLAUDE.md", "Use tabs.\n", 0).unwrap();
    s.submit("hello", 0);
    assert_eq!(row(&s, "/p/CLAUDE.md").map(|r| r.timestamp), Some(0));
}

#[test]
fn a_compaction_does_not_seed_eager_memory_again_unless_fixed() {
    for (reseed, seeded_after) in [(false, false), (true, true)] {
        let mut profile = Profile::claude_code_2_1_88();
        profile.file_context.reseed_memory_after_compaction = reseed;
        let mut s = session(profile, SessionConfig::default());
        s.write_file("CLAUDE.md", "Use tabs.\n", 0).unwrap();
        s.write_file("src/a.ts", "export const a = 1;\n", 0)
            .unwrap();
        s.submit("hello", 1_000);
        s.respond(vec![ResponseBlock::Text("Hi.".into())], 2_000)
            .unwrap();
        s.compact(CompactionOptions::default(), None, 3_000)
            .unwrap();
        let turn = s.submit("go on", 4_000);
        assert!(user_context(&turn).contains("Use tabs."));
        let seeded = row(&s, "/p/CLAUDE.md");
        assert_eq!(
            seeded.is_some(),
            seeded_after,
            "reseed {reseed}: {seeded:?}"
        );
    }
}

#[test]
fn a_restored_include_keeps_its_restore_entry_and_a_mention_of_it_is_already_read() {
    // Seed 100 of the lab: the @include is restored after the compaction, stamped with its
    // mtime; the client does not seed it again, so the next prompt's mention of it is
    // already read and sends nothing.
    let mut s = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    s.write_file("CLAUDE.md", "See @docs/style.md\n", 0)
        .unwrap();
    s.write_file("docs/style.md", "Use tabs.\n", 0).unwrap();
    s.submit("hello", 1_000);
    s.respond(vec![ResponseBlock::Text("Hi.".into())], 2_000)
        .unwrap();
    let report = s
        .compact(CompactionOptions::default(), None, 3_000)
        .unwrap();
    assert!(report.restored.iter().any(|r| r.path == "/p/docs/style.md"));
    let turn = s.submit("follow @./docs/style.md", 4_000);
    let entry = row(&s, "/p/docs/style.md").expect("restored");
    assert_eq!((entry.timestamp, entry.offset), (0, Some(1)));
    let mentioned: Vec<&str> = turn
        .attachments
        .iter()
        .filter(|a| a.path.as_deref() == Some("/p/docs/style.md"))
        .map(|a| a.kind.as_str())
        .collect();
    assert_eq!(mentioned, ["already_read_file"], "{:#?}", turn.attachments);
}

#[test]
fn a_mid_turn_auto_compaction_keeps_the_turns_user_context_unless_fixed() {
    for (kept, expected) in [(true, "Use tabs."), (false, "Use spaces.")] {
        let mut profile = Profile::claude_code_2_1_88();
        profile.attachments.user_context_kept_through_turn = kept;
        let config = SessionConfig {
            context_window: 30_000,
            output_reserve: 8_000,
            ..SessionConfig::default()
        };
        let mut s = session(profile, config);
        s.write_file("CLAUDE.md", "Use tabs.\n", 1).unwrap();
        let big: String = (0..1_100)
            .map(|i| format!("let big_{i} = compute({i}) + offset;\n"))
            .collect();
        s.write_file("big.ts", big.as_str(), 1).unwrap();
        s.submit("read big.ts", 1_000);
        // The memory changes in the middle of the turn, before the compaction.
        s.write_file("CLAUDE.md", "Use spaces.\n", 1_500).unwrap();
        let turn = s.respond(vec![read("r1", "big.ts")], 2_000).unwrap();
        assert!(!turn.compaction.is_empty(), "auto-compaction ran");
        let context = user_context(&turn);
        assert!(context.contains(expected), "kept {kept}: {context}");
        // The next human turn computes it afresh either way.
        s.respond(vec![ResponseBlock::Text("Read.".into())], 3_000)
            .unwrap();
        let turn = s.submit("go on", 4_000);
        assert!(user_context(&turn).contains("Use spaces."));
    }
}
