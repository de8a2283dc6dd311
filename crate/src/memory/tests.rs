use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec;
use alloc::vec::Vec;

use super::*;

/// Files in a map; directories are implied by the paths.
struct Tree(BTreeMap<String, Rc<str>>);

impl Tree {
    fn new(files: &[(&str, &str)]) -> Tree {
        Tree(
            files
                .iter()
                .map(|(p, c)| (p.to_string(), Rc::from(*c)))
                .collect(),
        )
    }
}

impl MemorySource for Tree {
    fn read_text(&self, abs_path: &str) -> Option<Rc<str>> {
        self.0.get(abs_path).cloned()
    }

    fn list_dir(&self, abs_dir: &str) -> Vec<(String, bool)> {
        let prefix = format!("{}/", abs_dir.trim_end_matches('/'));
        let mut entries: Vec<(String, bool)> = Vec::new();
        for path in self.0.keys() {
            if let Some(rest) = path.strip_prefix(&prefix) {
                let (name, is_dir) = match rest.split_once('/') {
                    Some((dir, _)) => (dir, true),
                    None => (rest, false),
                };
                if !entries.iter().any(|(n, _)| n == name) {
                    entries.push((name.to_string(), is_dir));
                }
            }
        }
        entries
    }
}

fn absent(_: &str) -> StateView {
    StateView::Absent
}

fn run(tree: &Tree, roots: &MemoryRoots, target: &str, rules: &MemoryRules) -> NestedMemory {
    nested_memory(
        target,
        roots,
        tree,
        rules,
        &mut LoadedMemory::default(),
        &absent,
    )
}

fn paths(found: &NestedMemory) -> Vec<&str> {
    found.files.iter().map(|f| f.path.as_str()).collect()
}

fn skips(found: &NestedMemory) -> Vec<(&str, &'static str)> {
    found
        .skipped
        .iter()
        .map(|s| (s.path.as_str(), s.reason.as_str()))
        .collect()
}

const BOTH: [MemoryRules; 2] = [MemoryRules::claude_code(), MemoryRules::recommended()];

#[test]
fn order_managed_user_nested_then_cwd_level() {
    let tree = Tree::new(&[
        (
            "/org/.claude/rules/m.md",
            "---\npaths: \"**/*.rs\"\n---\nmanaged",
        ),
        ("/org/.claude/rules/uncond.md", "eager, not nested"),
        (
            "/home/u/.claude/rules/u.md",
            "---\npaths: src/**\n---\nuser",
        ),
        (
            "/w/.claude/rules/top.md",
            "---\npaths: p/src/*.rs\n---\nabove cwd",
        ),
        ("/w/p/CLAUDE.md", "cwd file: eager, not nested"),
        (
            "/w/p/.claude/rules/c.md",
            "---\npaths: \"*.rs\"\n---\ncwd rule",
        ),
        ("/w/p/src/CLAUDE.md", "src"),
        ("/w/p/src/.claude/CLAUDE.md", "src dot"),
        ("/w/p/src/CLAUDE.local.md", "src local"),
        ("/w/p/src/.claude/rules/b.md", "unconditional b"),
        (
            "/w/p/src/.claude/rules/a/z.md",
            "---\npaths: lib.rs\n---\nconditional",
        ),
        ("/w/p/src/.claude/rules/a.md", "unconditional a"),
        (
            "/w/p/src/.claude/rules/n.md",
            "---\npaths: other.rs\n---\nnot matched",
        ),
        ("/w/p/src/deep/CLAUDE.md", "deep, not on the way"),
    ]);
    let roots = MemoryRoots {
        original_cwd: "/w/p".into(),
        additional_dirs: vec![],
        home: Some("/home/u".into()),
        managed_dir: Some("/org".into()),
    };
    for rules in BOTH {
        let found = run(&tree, &roots, "/w/p/src/lib.rs", &rules);
        assert_eq!(
            paths(&found),
            [
                "/org/.claude/rules/m.md",
                "/home/u/.claude/rules/u.md",
                "/w/p/src/CLAUDE.md",
                "/w/p/src/.claude/CLAUDE.md",
                "/w/p/src/CLAUDE.local.md",
                "/w/p/src/.claude/rules/a.md",
                "/w/p/src/.claude/rules/b.md",
                "/w/p/src/.claude/rules/a/z.md",
                "/w/.claude/rules/top.md",
                "/w/p/.claude/rules/c.md",
            ]
        );
        let kinds: Vec<MemoryKind> = found.files.iter().map(|f| f.kind).collect();
        use MemoryKind::*;
        assert_eq!(
            kinds,
            [
                Managed,
                User,
                Project,
                Project,
                Local,
                ProjectRule,
                ProjectRule,
                ConditionalRule,
                ConditionalRule,
                ConditionalRule
            ]
        );
        // One stamp per awaited step: managed and user rules, src, then /w's and /w/p's rules.
        let steps: Vec<usize> = found.files.iter().map(|f| f.walk_step).collect();
        assert_eq!(steps, [0, 0, 1, 1, 1, 1, 1, 1, 2, 3]);
        assert_eq!(found.files[7].reason, LoadReason::PathGlobMatch);
        assert_eq!(found.files[2].reason, LoadReason::NestedTraversal);
        assert_eq!(
            found.files[2].display_path.as_deref(),
            Some("src/CLAUDE.md")
        );
        assert_eq!(found.files[0].display_path, None);
        assert_eq!(
            skips(&found),
            [("/w/p/src/.claude/rules/n.md", "paths_not_matched")]
        );
    }
}

#[test]
fn target_outside_the_working_directories_brings_nothing() {
    let tree = Tree::new(&[("/a/b/CLAUDE.md", "x"), ("/a/bc/CLAUDE.md", "y")]);
    for rules in BOTH {
        let found = run(&tree, &MemoryRoots::new("/a/b"), "/a/bc/f.ts", &rules);
        assert!(found.files.is_empty());
        assert_eq!(
            skips(&found),
            [("/a/bc/f.ts", "target_outside_working_dirs")]
        );
    }
}

#[test]
fn q53_string_prefix_lets_a_sibling_directory_in() {
    let tree = Tree::new(&[
        ("/a/bc/CLAUDE.md", "sibling"),
        ("/a/bc/x/CLAUDE.md", "deeper"),
    ]);
    let roots = MemoryRoots {
        additional_dirs: vec!["/a/bc".into()],
        ..MemoryRoots::new("/a/b")
    };
    let quirk = run(&tree, &roots, "/a/bc/x/f.ts", &MemoryRules::claude_code());
    assert_eq!(paths(&quirk), ["/a/bc/CLAUDE.md", "/a/bc/x/CLAUDE.md"]);
    let fixed = run(&tree, &roots, "/a/bc/x/f.ts", &MemoryRules::recommended());
    assert!(fixed.files.is_empty());
}

#[test]
fn conditional_rules_match_relative_to_the_directory_holding_claude() {
    let tree = Tree::new(&[
        (
            "/p/pkg/.claude/rules/r.md",
            "---\npaths: src/*.ts\n---\nrule",
        ),
        (
            "/p/pkg/.claude/rules/anchored.md",
            "---\npaths: pkg/src/*.ts\n---\nno",
        ),
        (
            "/p/.claude/rules/cwd.md",
            "---\npaths: pkg/src/*.ts\n---\ncwd",
        ),
    ]);
    for rules in BOTH {
        let found = run(&tree, &MemoryRoots::new("/p"), "/p/pkg/src/a.ts", &rules);
        assert_eq!(
            paths(&found),
            ["/p/pkg/.claude/rules/r.md", "/p/.claude/rules/cwd.md"]
        );
        assert_eq!(
            skips(&found),
            [("/p/pkg/.claude/rules/anchored.md", "paths_not_matched")]
        );
    }
}

#[test]
fn only_double_star_paths_make_a_rule_unconditional() {
    let tree = Tree::new(&[("/p/d/.claude/rules/all.md", "---\npaths: \"**\"\n---\nall")]);
    let found = run(
        &tree,
        &MemoryRoots::new("/p"),
        "/p/d/x.rs",
        &MemoryRules::claude_code(),
    );
    assert_eq!(found.files[0].kind, MemoryKind::ProjectRule);
    assert_eq!(found.files[0].reason, LoadReason::NestedTraversal);
}

#[test]
fn includes_follow_their_includer() {
    let tree = Tree::new(&[
        (
            "/p/d/CLAUDE.md",
            "@./a.md and @~/h.md and @../../etc/x.md\n",
        ),
        ("/p/d/a.md", "a then @b/b.md"),
        ("/p/d/b/b.md", "b"),
        ("/p/d/.claude/CLAUDE.md", "second"),
        ("/home/h.md", "home"),
    ]);
    let roots = MemoryRoots {
        home: Some("/home".into()),
        ..MemoryRoots::new("/p")
    };
    let found = run(&tree, &roots, "/p/d/f.rs", &MemoryRules::claude_code());
    assert_eq!(
        paths(&found),
        [
            "/p/d/CLAUDE.md",
            "/p/d/a.md",
            "/p/d/b/b.md",
            "/p/d/.claude/CLAUDE.md"
        ]
    );
    assert_eq!(found.files[2].include_depth, 2);
    assert_eq!(found.files[2].included_by.as_deref(), Some("/p/d/a.md"));
    assert_eq!(found.files[1].reason, LoadReason::Include);
    assert_eq!(
        skips(&found),
        [
            ("/home/h.md", "include_outside_cwd"),
            ("/etc/x.md", "include_outside_cwd")
        ]
    );
}

#[test]
fn external_includes_of_user_rules_load() {
    let tree = Tree::new(&[
        (
            "/home/.claude/rules/r.md",
            "---\npaths: \"*.rs\"\n---\n@~/shared.md",
        ),
        ("/home/shared.md", "shared"),
    ]);
    let roots = MemoryRoots {
        home: Some("/home".into()),
        ..MemoryRoots::new("/p")
    };
    let found = run(&tree, &roots, "/p/x.rs", &MemoryRules::claude_code());
    assert_eq!(
        paths(&found),
        ["/home/.claude/rules/r.md", "/home/shared.md"]
    );
    assert_eq!(found.files[1].kind, MemoryKind::User);
}

#[test]
fn include_depth_is_bounded() {
    let mut files: Vec<(String, String)> = (0..8)
        .map(|i| (format!("/p/d/f{i}.md"), format!("level {i} @f{}.md", i + 1)))
        .collect();
    files.push(("/p/d/CLAUDE.md".into(), "@f0.md".into()));
    let tree = Tree(
        files
            .iter()
            .map(|(p, c)| (p.clone(), Rc::from(c.as_str())))
            .collect(),
    );
    let found = run(
        &tree,
        &MemoryRoots::new("/p"),
        "/p/d/x",
        &MemoryRules::claude_code(),
    );
    assert_eq!(
        paths(&found),
        [
            "/p/d/CLAUDE.md",
            "/p/d/f0.md",
            "/p/d/f1.md",
            "/p/d/f2.md",
            "/p/d/f3.md"
        ]
    );
    assert_eq!(found.files.iter().map(|f| f.include_depth).max(), Some(4));
    assert_eq!(skips(&found), [("/p/d/f4.md", "include_too_deep")]);
}

#[test]
fn include_cycles_and_repeats_are_cut() {
    let tree = Tree::new(&[
        ("/p/d/CLAUDE.md", "@a.md @b.md"),
        ("/p/d/a.md", "@b.md @CLAUDE.md"),
        ("/p/d/b.md", "@a.md"),
        ("/p/d/CLAUDE.local.md", "@a.md @gone.md @pic.png"),
        ("/p/d/pic.png", "not text"),
    ]);
    let found = run(
        &tree,
        &MemoryRoots::new("/p"),
        "/p/d/x",
        &MemoryRules::claude_code(),
    );
    assert_eq!(
        paths(&found),
        [
            "/p/d/CLAUDE.md",
            "/p/d/a.md",
            "/p/d/b.md",
            "/p/d/CLAUDE.local.md"
        ]
    );
    assert_eq!(
        skips(&found),
        [
            ("/p/d/a.md", "include_cycle"),
            ("/p/d/CLAUDE.md", "include_cycle"),
            ("/p/d/b.md", "already_processed"),
            ("/p/d/a.md", "already_processed"),
            ("/p/d/gone.md", "not_found"),
            ("/p/d/pic.png", "non_text_extension"),
        ]
    );
}

#[test]
fn empty_files_are_skipped_after_the_transforms() {
    let tree = Tree::new(&[
        (
            "/p/d/CLAUDE.md",
            "---\npaths: x\n---\n<!-- only a comment -->\n  \n",
        ),
        ("/p/d/CLAUDE.local.md", "   \n"),
    ]);
    let found = run(
        &tree,
        &MemoryRoots::new("/p"),
        "/p/d/x",
        &MemoryRules::claude_code(),
    );
    assert!(found.files.is_empty());
    assert_eq!(
        skips(&found),
        [
            ("/p/d/CLAUDE.md", "empty"),
            ("/p/d/CLAUDE.local.md", "empty")
        ]
    );
}

#[test]
fn content_is_transformed_and_raw_kept() {
    let raw = "---\nname: x\n---\n<!-- hidden -->\nVisible\n```\n<!-- shown -->\n```\n";
    let tree = Tree::new(&[("/p/d/CLAUDE.md", raw)]);
    let found = run(
        &tree,
        &MemoryRoots::new("/p"),
        "/p/d/x",
        &MemoryRules::claude_code(),
    );
    let file = &found.files[0];
    assert_eq!(file.content, "Visible\n```\n<!-- shown -->\n```\n");
    assert_eq!(&*file.raw, raw);
    assert!(file.content_differs_from_disk);
    let plain = Tree::new(&[("/p/d/CLAUDE.md", "plain\n")]);
    let found = run(
        &plain,
        &MemoryRoots::new("/p"),
        "/p/d/x",
        &MemoryRules::claude_code(),
    );
    assert!(!found.files[0].content_differs_from_disk);
}

#[test]
fn loaded_memory_deduplicates_across_calls_until_cleared() {
    let tree = Tree::new(&[("/p/d/CLAUDE.md", "x")]);
    let roots = MemoryRoots::new("/p");
    let rules = MemoryRules::claude_code();
    let mut loaded = LoadedMemory::default();
    let first = nested_memory("/p/d/a", &roots, &tree, &rules, &mut loaded, &absent);
    assert_eq!(first.files.len(), 1);
    let again = nested_memory("/p/d/b", &roots, &tree, &rules, &mut loaded, &absent);
    assert_eq!(skips(&again), [("/p/d/CLAUDE.md", "already_loaded")]);
    loaded.clear(); // compaction
    let after = nested_memory("/p/d/b", &roots, &tree, &rules, &mut loaded, &absent);
    assert_eq!(after.files.len(), 1);
}

#[test]
fn q55_partial_view_suppresses_only_in_the_original() {
    let tree = Tree::new(&[("/p/d/CLAUDE.md", "x")]);
    let roots = MemoryRoots::new("/p");
    let partial = |_: &str| StateView::Partial;
    let full = |_: &str| StateView::Full;
    for (rules, suppressed) in [
        (MemoryRules::claude_code(), true),
        (MemoryRules::recommended(), false),
    ] {
        let found = nested_memory(
            "/p/d/a",
            &roots,
            &tree,
            &rules,
            &mut LoadedMemory::default(),
            &partial,
        );
        assert_eq!(found.files.is_empty(), suppressed);
        let found = nested_memory(
            "/p/d/a",
            &roots,
            &tree,
            &rules,
            &mut LoadedMemory::default(),
            &full,
        );
        assert_eq!(skips(&found), [("/p/d/CLAUDE.md", "already_in_file_state")]);
    }
}

#[test]
fn q54_is_a_switch_for_the_session() {
    assert!(!MemoryRules::claude_code().trigger_on_writes);
    assert!(MemoryRules::recommended().trigger_on_writes);
}

#[test]
fn q56_rendering() {
    let tree = Tree::new(&[("/p/d/.claude/rules/r.md", "\n  Rule.\n\n")]);
    let found = run(
        &tree,
        &MemoryRoots::new("/p"),
        "/p/d/x",
        &MemoryRules::claude_code(),
    );
    let file = &found.files[0];
    assert_eq!(
        render_nested(file, &MemoryRules::claude_code()),
        "Contents of /p/d/.claude/rules/r.md:\n\n\n  Rule.\n\n"
    );
    assert_eq!(
        render_nested(file, &MemoryRules::recommended()),
        "Contents of /p/d/.claude/rules/r.md (project instructions, kept in the repository):\n\nRule."
    );
}

#[test]
fn relative_targets_resolve_against_the_cwd() {
    let tree = Tree::new(&[("/p/d/CLAUDE.md", "x")]);
    let found = run(
        &tree,
        &MemoryRoots::new("/p/"),
        "d/../d/a.rs",
        &MemoryRules::recommended(),
    );
    assert_eq!(paths(&found), ["/p/d/CLAUDE.md"]);
}
