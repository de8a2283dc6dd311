//! When nested memory files were loaded, as the post-compact restore ranks them (spec
//! claude-code.md §8, §9.4 step 3; the conformance lab's finding, docs/conformance.md).
//!
//! Claude Code 2.1.88 stamps each step of its directory walk (the managed and user rules,
//! then each directory from the cwd down to the file, then the rules of each cwd level) with
//! its own `Date.now()`, after awaiting that step's reads: a later step is newer and ranks
//! first when the restore sorts by timestamp, whatever the change scans did to the recency
//! order in between (Q27). Files of one step share their stamp, and their tie keeps the
//! recency order.

mod common;

use common::read;
use context_assembly::session::{CompactionOptions, ResponseBlock, Session, SessionConfig};
use context_assembly::Profile;

fn session() -> Session {
    common::session_in(
        Profile::claude_code_2_1_88(),
        None,
        SessionConfig::default(),
    )
}

/// Reads `path` in one round (its nested memory loads in the next pass, at 10_001), then
/// `extra` more rounds (each next pass's change scan reverses the recency order, Q27), ends
/// the turn (no pass) and compacts: the restored paths, in order.
fn restored_after(files: &[(&str, &str)], path: &str, extra: u64) -> Vec<String> {
    let mut s = session();
    for (file, text) in files {
        s.write_file(file, *text, 1_000).unwrap();
    }
    s.submit("look", 10_000);
    s.respond(vec![read("r1", path)], 10_001).unwrap();
    for i in 0..extra {
        s.respond(vec![read(&format!("again{i}"), path)], 10_002 + i)
            .unwrap();
    }
    s.respond(vec![ResponseBlock::Text("Read.".into())], 10_100)
        .unwrap();
    let report = s
        .compact(CompactionOptions::default(), None, 20_000)
        .unwrap();
    report.restored.into_iter().map(|r| r.path).collect()
}

#[test]
fn a_deeper_directory_loaded_later_in_the_walk_ranks_first() {
    let files = [
        ("src/CLAUDE.local.md", "Mine.\n"),
        ("src/lib/CLAUDE.md", "Library rules.\n"),
        ("src/lib/a.ts", "a\n"),
    ];
    // Whatever the parity of the change scans since the load, the walk's later step wins.
    for extra in 0..3 {
        let order = restored_after(&files, "src/lib/a.ts", extra);
        assert_eq!(
            order[..2],
            ["/p/src/lib/CLAUDE.md", "/p/src/CLAUDE.local.md"],
            "after {extra} more passes: {order:?}"
        );
    }
}

#[test]
fn the_cwd_levels_rules_come_after_the_nested_directories() {
    let files = [
        ("src/CLAUDE.local.md", "Mine.\n"),
        (
            ".claude/rules/ts.md",
            "---\npaths: \"**/*.ts\"\n---\nUse strict types.\n",
        ),
        ("src/a.ts", "a\n"),
    ];
    for extra in 0..3 {
        let order = restored_after(&files, "src/a.ts", extra);
        assert_eq!(
            order[..2],
            ["/p/.claude/rules/ts.md", "/p/src/CLAUDE.local.md"],
            "after {extra} more passes: {order:?}"
        );
    }
}

#[test]
fn files_of_one_directory_share_a_stamp_and_keep_the_recency_order() {
    let files = [
        ("src/CLAUDE.md", "Sources.\n"),
        ("src/CLAUDE.local.md", "Mine.\n"),
        ("src/a.ts", "a\n"),
    ];
    // Loaded CLAUDE.md then CLAUDE.local.md with one stamp, so CLAUDE.local.md is the more
    // recently used; each later pass's change scan flips them.
    let first: Vec<String> = (0..3)
        .map(|extra| restored_after(&files, "src/a.ts", extra)[0].clone())
        .collect();
    assert_eq!(
        first,
        [
            "/p/src/CLAUDE.local.md",
            "/p/src/CLAUDE.md",
            "/p/src/CLAUDE.local.md"
        ]
    );
}
