//! Eager memory: the CLAUDE.md hierarchy of the user context, its order, includes, skips and
//! rendering (spec claude-code.md §7.11, §8.6).

use std::collections::BTreeMap;
use std::rc::Rc;

use context_assembly::memory::*;
use proptest::prelude::*;

/// Files in a map; directories are implied by the paths.
struct Tree(BTreeMap<String, Rc<str>>);

impl Tree {
    fn new(files: &[(&str, &str)]) -> Tree {
        Tree(
            files
                .iter()
                .map(|(path, text)| (path.to_string(), Rc::from(*text)))
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
        let mut entries = BTreeMap::new();
        for path in self.0.keys() {
            if let Some(rest) = path.strip_prefix(&prefix) {
                match rest.split_once('/') {
                    Some((dir, _)) => entries.insert(dir.to_string(), true),
                    None => entries.insert(rest.to_string(), false),
                };
            }
        }
        // Reversed, to show the walk sorts what it lists.
        entries.into_iter().rev().collect()
    }
}

fn load(tree: &Tree, roots: &MemoryRoots) -> NestedMemory {
    eager_memory(roots, tree, &MemoryRules::claude_code())
}

fn paths(found: &NestedMemory) -> Vec<&str> {
    found.files.iter().map(|f| f.path.as_str()).collect()
}

fn skips(found: &NestedMemory) -> Vec<(&str, SkipReason)> {
    found
        .skipped
        .iter()
        .map(|s| (s.path.as_str(), s.reason))
        .collect()
}

fn full_roots() -> MemoryRoots {
    MemoryRoots {
        original_cwd: "/w/p".into(),
        additional_dirs: vec!["/x".into()],
        home: Some("/h".into()),
        managed_dir: Some("/org".into()),
    }
}

#[test]
fn order_managed_user_root_down_to_cwd_then_additional() {
    let tree = Tree::new(&[
        ("/CLAUDE.md", "the root: never eager"),
        ("/org/CLAUDE.md", "managed"),
        ("/org/.claude/rules/m.md", "managed rule"),
        ("/h/.claude/CLAUDE.md", "user"),
        ("/h/.claude/rules/z.md", "user rule z"),
        ("/h/.claude/rules/a/y.md", "user rule y"),
        ("/w/CLAUDE.local.md", "w local"),
        ("/w/CLAUDE.md", "w"),
        ("/w/p/CLAUDE.local.md", "p local"),
        ("/w/p/.claude/rules/b.md", "p rule b"),
        ("/w/p/.claude/rules/a.md", "p rule a"),
        (
            "/w/p/.claude/rules/c.md",
            "---\npaths: src/**\n---\nconditional",
        ),
        ("/w/p/.claude/CLAUDE.md", "p dot"),
        ("/w/p/CLAUDE.md", "p"),
        ("/w/p/src/CLAUDE.md", "nested, not eager"),
        ("/x/CLAUDE.md", "additional"),
        ("/x/.claude/rules/r.md", "additional rule"),
    ]);
    let found = load(&tree, &full_roots());
    assert_eq!(
        paths(&found),
        [
            "/org/CLAUDE.md",
            "/org/.claude/rules/m.md",
            "/h/.claude/CLAUDE.md",
            "/h/.claude/rules/a/y.md",
            "/h/.claude/rules/z.md",
            "/w/CLAUDE.md",
            "/w/CLAUDE.local.md",
            "/w/p/CLAUDE.md",
            "/w/p/.claude/CLAUDE.md",
            "/w/p/.claude/rules/a.md",
            "/w/p/.claude/rules/b.md",
            "/w/p/CLAUDE.local.md",
            "/x/CLAUDE.md",
            "/x/.claude/rules/r.md",
        ]
    );
    let kinds: Vec<MemoryKind> = found.files.iter().map(|f| f.kind).collect();
    use MemoryKind::*;
    assert_eq!(
        kinds,
        [
            Managed,
            Managed,
            User,
            User,
            User,
            Project,
            Local,
            Project,
            Project,
            ProjectRule,
            ProjectRule,
            Local,
            Project,
            ProjectRule
        ]
    );
    assert!(found
        .files
        .iter()
        .all(|f| f.reason == LoadReason::NestedTraversal && f.include_depth == 0));
    assert_eq!(
        skips(&found),
        [("/w/p/.claude/rules/c.md", SkipReason::PathsNotMatched)],
        "conditional rules wait for nested memory"
    );
    assert_eq!(found.files[7].display_path.as_deref(), Some("CLAUDE.md"));
    assert_eq!(found.files[5].display_path, None, "above the cwd");
}

#[test]
fn without_home_or_managed_only_the_project_loads() {
    let tree = Tree::new(&[("/h/.claude/CLAUDE.md", "user"), ("/w/CLAUDE.md", "w")]);
    let found = load(&tree, &MemoryRoots::new("/w"));
    assert_eq!(paths(&found), ["/w/CLAUDE.md"]);
}

#[test]
fn includes_follow_their_includer_at_increasing_depth() {
    let tree = Tree::new(&[
        ("/w/CLAUDE.md", "top @./docs/a.md\n\n`@./code.md` is code\n"),
        ("/w/docs/a.md", "a, see @b.md"),
        ("/w/docs/b.md", "b"),
        ("/w/code.md", "never included"),
        ("/w/CLAUDE.local.md", "local"),
    ]);
    let found = load(&tree, &MemoryRoots::new("/w"));
    assert_eq!(
        paths(&found),
        [
            "/w/CLAUDE.md",
            "/w/docs/a.md",
            "/w/docs/b.md",
            "/w/CLAUDE.local.md"
        ]
    );
    let b = &found.files[2];
    assert_eq!(b.reason, LoadReason::Include);
    assert_eq!(b.include_depth, 2);
    assert_eq!(b.included_by.as_deref(), Some("/w/docs/a.md"));
    assert_eq!(
        b.kind,
        MemoryKind::Project,
        "an include takes its includer's kind"
    );
}

#[test]
fn an_include_cycle_is_cut_and_reported() {
    let tree = Tree::new(&[
        ("/w/CLAUDE.md", "one @./two.md"),
        ("/w/two.md", "two @./three.md"),
        ("/w/three.md", "three @./CLAUDE.md"),
    ]);
    let found = load(&tree, &MemoryRoots::new("/w"));
    assert_eq!(paths(&found), ["/w/CLAUDE.md", "/w/two.md", "/w/three.md"]);
    assert_eq!(skips(&found), [("/w/CLAUDE.md", SkipReason::IncludeCycle)]);
}

#[test]
fn include_depth_is_bounded() {
    let mut files = vec![("/w/CLAUDE.md".to_string(), "@./i1.md".to_string())];
    for i in 1..=8 {
        files.push((format!("/w/i{i}.md"), format!("level {i} @./i{}.md", i + 1)));
    }
    let refs: Vec<(&str, &str)> = files
        .iter()
        .map(|(p, t)| (p.as_str(), t.as_str()))
        .collect();
    let found = load(&Tree::new(&refs), &MemoryRoots::new("/w"));
    assert_eq!(found.files.len(), MAX_INCLUDE_DEPTH);
    assert_eq!(skips(&found), [("/w/i5.md", SkipReason::IncludeTooDeep)]);
}

#[test]
fn empty_files_are_skipped_with_a_reason() {
    let tree = Tree::new(&[
        ("/w/CLAUDE.md", "   \n\n"),
        (
            "/w/.claude/CLAUDE.md",
            "---\ndescription: only frontmatter\n---\n",
        ),
        ("/w/CLAUDE.local.md", "<!-- a note for humans -->\n"),
        ("/w/.claude/rules/ok.md", "kept"),
    ]);
    let found = load(&tree, &MemoryRoots::new("/w"));
    assert_eq!(paths(&found), ["/w/.claude/rules/ok.md"]);
    assert_eq!(
        skips(&found),
        [
            ("/w/CLAUDE.md", SkipReason::Empty),
            ("/w/.claude/CLAUDE.md", SkipReason::Empty),
            ("/w/CLAUDE.local.md", SkipReason::Empty),
        ]
    );
}

#[test]
fn project_files_include_only_inside_the_cwd_user_files_anywhere() {
    let tree = Tree::new(&[
        ("/h/.claude/CLAUDE.md", "@/shared/style.md"),
        ("/shared/style.md", "house style"),
        ("/w/CLAUDE.md", "@/shared/other.md @~/notes.md"),
        ("/shared/other.md", "other"),
        ("/h/notes.md", "notes"),
    ]);
    let roots = MemoryRoots {
        home: Some("/h".into()),
        ..MemoryRoots::new("/w")
    };
    let found = load(&tree, &roots);
    assert_eq!(
        paths(&found),
        ["/h/.claude/CLAUDE.md", "/shared/style.md", "/w/CLAUDE.md"]
    );
    assert_eq!(
        skips(&found),
        [
            ("/shared/other.md", SkipReason::IncludeOutsideCwd),
            ("/h/notes.md", SkipReason::IncludeOutsideCwd),
        ]
    );
}

#[test]
fn a_file_loads_once_per_load() {
    let tree = Tree::new(&[("/w/CLAUDE.md", "@./p/CLAUDE.md"), ("/w/p/CLAUDE.md", "p")]);
    // Included from above the cwd, /w/p/CLAUDE.md loads there and not again in its own
    // directory.
    let found = load(&tree, &MemoryRoots::new("/w/p"));
    assert_eq!(paths(&found), ["/w/CLAUDE.md", "/w/p/CLAUDE.md"]);
    assert_eq!(found.files[1].reason, LoadReason::Include);
    assert_eq!(
        skips(&found),
        [("/w/p/CLAUDE.md", SkipReason::AlreadyProcessed)]
    );
    // With the cwd at /w, the include is fine but the file is not part of the hierarchy.
    let found = load(&tree, &MemoryRoots::new("/w"));
    assert_eq!(paths(&found), ["/w/CLAUDE.md", "/w/p/CLAUDE.md"]);
    assert!(found.skipped.is_empty());
}

#[test]
fn transforms_keep_the_raw_text_for_the_file_state() {
    let raw = "---\nname: x\n---\n<!-- internal -->\nUse tabs.\n";
    let found = load(
        &Tree::new(&[("/w/CLAUDE.md", raw)]),
        &MemoryRoots::new("/w"),
    );
    let file = &found.files[0];
    assert_eq!(file.content, "Use tabs.\n");
    assert_eq!(&*file.raw, raw);
    assert!(file.content_differs_from_disk);
}

#[test]
fn render_claude_md_joins_the_files_after_a_preamble() {
    let tree = Tree::new(&[
        ("/w/CLAUDE.md", "\n  Project rules.  \n"),
        ("/w/CLAUDE.local.md", "Mine."),
    ]);
    let roots = MemoryRoots {
        home: Some("/h".into()),
        ..MemoryRoots::new("/w")
    };
    let found = load(&tree, &roots);
    let text = render_claude_md(&found.files).expect("two files");
    let (preamble, rest) = text.split_once("\n\n").expect("a preamble");
    assert!(preamble.contains("IMPORTANT"), "{preamble}");
    assert_eq!(
        rest,
        "Contents of /w/CLAUDE.md (project instructions, kept in the repository):\n\n\
         Project rules.\n\n\
         Contents of /w/CLAUDE.local.md (the user's private instructions for this project, \
         not checked in):\n\nMine."
    );
    assert_eq!(render_claude_md(&[]), None);
    let nothing = load(&Tree::new(&[]), &roots);
    assert!(nothing.files.is_empty() && nothing.skipped.is_empty());
    assert_eq!(render_claude_md(&nothing.files), None);
}

fn arbitrary_tree() -> impl Strategy<Value = Vec<(String, String)>> {
    let dir = prop::sample::select(vec!["/w", "/w/p", "/h/.claude", "/w/p/.claude/rules", "/q"]);
    let name = prop::sample::select(vec![
        "CLAUDE.md",
        "CLAUDE.local.md",
        "a.md",
        "b.md",
        "c.txt",
    ]);
    let text = prop::sample::select(vec![
        "",
        "x",
        "@./a.md",
        "@./b.md @../CLAUDE.md",
        "@/q/a.md",
        "---\npaths: '*.rs'\n---\ny",
        "<!-- c -->",
        "@~/.claude/a.md",
    ]);
    prop::collection::vec(
        (dir, name, text).prop_map(|(d, n, t)| (format!("{d}/{n}"), t.to_string())),
        0..12,
    )
}

proptest! {
    #[test]
    fn every_loaded_file_is_unique_nonempty_and_within_the_include_depth(files in arbitrary_tree()) {
        let refs: Vec<(&str, &str)> = files.iter().map(|(p, t)| (p.as_str(), t.as_str())).collect();
        let tree = Tree::new(&refs);
        let roots = MemoryRoots { home: Some("/h".into()), ..MemoryRoots::new("/w/p") };
        let found = load(&tree, &roots);
        let mut seen = std::collections::BTreeSet::new();
        for file in &found.files {
            prop_assert!(seen.insert(file.path.clone()), "{} twice", file.path);
            prop_assert!(!file.content.trim().is_empty());
            prop_assert!(file.include_depth < MAX_INCLUDE_DEPTH);
        }
        prop_assert_eq!(found.clone(), load(&tree, &roots), "deterministic");
        prop_assert_eq!(render_claude_md(&found.files).is_some(), !found.files.is_empty());
    }
}
