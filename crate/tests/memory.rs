//! Nested memory: the shared fixture scenarios (tests/fixtures/memory.json) and property
//! tests of the invariants.

use std::collections::{BTreeMap, BTreeSet};
use std::rc::Rc;

use context_assembly::memory::*;
use proptest::prelude::*;
use serde_json::Value;

/// Files in a map; directories are implied by the paths.
#[derive(Debug, Clone)]
struct Tree(BTreeMap<String, Rc<str>>);

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
        entries.into_iter().collect()
    }
}

fn kind_name(kind: MemoryKind) -> &'static str {
    match kind {
        MemoryKind::Project => "project",
        MemoryKind::Local => "local",
        MemoryKind::ProjectRule => "project-rule",
        MemoryKind::ConditionalRule => "conditional-rule",
        MemoryKind::Managed => "managed",
        MemoryKind::User => "user",
    }
}

fn text(value: &Value) -> Option<String> {
    value.as_str().map(str::to_string)
}

fn roots_of(case: &Value) -> MemoryRoots {
    let roots = &case["roots"];
    MemoryRoots {
        original_cwd: text(&roots["originalCwd"]).expect("originalCwd"),
        additional_dirs: roots["additionalDirs"]
            .as_array()
            .map(|dirs| dirs.iter().filter_map(text).collect())
            .unwrap_or_default(),
        home: text(&roots["home"]),
        managed_dir: text(&roots["managedDir"]),
    }
}

fn run_case(case: &Value) {
    let name = case["name"].as_str().unwrap_or("?");
    let rules = match case["profile"].as_str() {
        Some("claude-code") => MemoryRules::claude_code(),
        Some("recommended") => MemoryRules::recommended(),
        other => panic!("{name}: unknown profile {other:?}"),
    };
    let files = case["files"].as_object().expect("files");
    let tree = Tree(
        files
            .iter()
            .map(|(p, c)| (p.clone(), Rc::from(c.as_str().expect("file text"))))
            .collect(),
    );
    let state: BTreeMap<String, StateView> = case["fileState"]
        .as_object()
        .map(|entries| {
            entries
                .iter()
                .map(|(p, v)| {
                    let view = match v.as_str() {
                        Some("partial") => StateView::Partial,
                        Some("full") => StateView::Full,
                        other => panic!("{name}: bad fileState {other:?}"),
                    };
                    (p.clone(), view)
                })
                .collect()
        })
        .unwrap_or_default();
    let file_state = |p: &str| state.get(p).copied().unwrap_or(StateView::Absent);
    let roots = roots_of(case);
    let mut loaded = LoadedMemory::default();
    for (i, step) in case["steps"].as_array().expect("steps").iter().enumerate() {
        if step["clear"].as_bool() == Some(true) {
            loaded.clear();
            continue;
        }
        let target = step["target"].as_str().expect("target");
        let found = nested_memory(target, &roots, &tree, &rules, &mut loaded, &file_state);
        let expected = step["files"].as_array().expect("files");
        let got: Vec<(&str, &str, &str)> = found
            .files
            .iter()
            .map(|f| (f.path.as_str(), kind_name(f.kind), f.reason.as_str()))
            .collect();
        let want: Vec<(&str, &str, &str)> = expected
            .iter()
            .map(|f| {
                let field = |k: &str| f[k].as_str().unwrap_or("");
                (field("path"), field("kind"), field("reason"))
            })
            .collect();
        assert_eq!(got, want, "{name}, step {i}: files");
        for (file, want) in found.files.iter().zip(expected) {
            if let Some(content) = want["content"].as_str() {
                assert_eq!(
                    file.content, content,
                    "{name}, step {i}: content of {}",
                    file.path
                );
            }
            if let Some(rendered) = want["rendered"].as_str() {
                assert_eq!(render_nested(file, &rules), rendered, "{name}, step {i}");
            }
        }
        let skipped: Vec<(&str, &str)> = found
            .skipped
            .iter()
            .map(|s| (s.path.as_str(), s.reason.as_str()))
            .collect();
        let want_skipped: Vec<(&str, &str)> = step["skipped"]
            .as_array()
            .expect("skipped")
            .iter()
            .map(|pair| {
                (
                    pair[0].as_str().unwrap_or(""),
                    pair[1].as_str().unwrap_or(""),
                )
            })
            .collect();
        assert_eq!(skipped, want_skipped, "{name}, step {i}: skipped");
    }
}

#[test]
fn fixture_scenarios() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/memory.json");
    let json: Value =
        serde_json::from_str(&std::fs::read_to_string(path).expect("fixture")).expect("valid JSON");
    let cases = json["cases"].as_array().expect("cases");
    assert!(cases.len() >= 5);
    for case in cases {
        run_case(case);
    }
}

/// Directory names from a small alphabet, so that generated paths collide and nest.
fn name() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("a".to_string()),
        Just("b".to_string()),
        Just("ab".to_string()),
        Just(".claude".to_string()),
        Just("rules".to_string()),
        Just("..".to_string()),
        Just("CLAUDE.md".to_string()),
        Just("CLAUDE.local.md".to_string()),
        Just("r.md".to_string()),
        Just("x.png".to_string()),
    ]
}

fn abs_path() -> impl Strategy<Value = String> {
    prop::collection::vec(name(), 1..6).prop_map(|parts| format!("/{}", parts.join("/")))
}

/// Memory-file text mixing frontmatter, comments, fences and includes.
fn memory_text(paths: Vec<String>) -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("---\npaths: a/**, {a,b}/*.md\n---\n".to_string()),
        Just("---\npaths:\n  - \"**\"\n---\n".to_string()),
        Just("<!-- c -->\n".to_string()),
        Just("```\n@CLAUDE.md\n".to_string()),
        Just("```\n".to_string()),
        Just("`@r.md` ".to_string()),
        Just("@../CLAUDE.md ".to_string()),
        Just("@./r.md\n".to_string()),
        Just("@CLAUDE.local.md ".to_string()),
        Just("text\n".to_string()),
        "[ -~\\n]{0,12}".prop_map(|s| s),
        prop::sample::select(paths).prop_map(|p| format!("@{p}\n")),
    ];
    prop::collection::vec(piece, 0..8).prop_map(|pieces| pieces.concat())
}

fn scenario() -> impl Strategy<Value = (Tree, String, MemoryRoots)> {
    let cwd = prop_oneof![
        Just("/a".to_string()),
        Just("/a/b".to_string()),
        Just("/".to_string())
    ];
    (
        prop::collection::vec(abs_path(), 1..12),
        abs_path(),
        cwd,
        any::<bool>(),
    )
        .prop_flat_map(|(paths, target, cwd, additional)| {
            let texts = prop::collection::vec(memory_text(paths.clone()), paths.len());
            (
                Just(paths),
                texts,
                Just(target),
                Just(cwd),
                Just(additional),
            )
        })
        .prop_map(|(paths, texts, target, cwd, additional)| {
            let files = paths
                .into_iter()
                .zip(texts)
                .map(|(p, t)| (p, Rc::from(t)))
                .collect();
            let roots = MemoryRoots {
                original_cwd: cwd,
                additional_dirs: if additional {
                    vec!["/ab".into()]
                } else {
                    vec![]
                },
                home: None,
                managed_dir: None,
            };
            (Tree(files), target, roots)
        })
}

fn within(path: &str, dir: &str) -> bool {
    dir == "/" || path == dir || path.starts_with(&format!("{dir}/"))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn invariants_hold((tree, target, roots) in scenario(), recommended in any::<bool>()) {
        let rules = if recommended { MemoryRules::recommended() } else { MemoryRules::claude_code() };
        let mut loaded = LoadedMemory::default();
        let found = nested_memory(&target, &roots, &tree, &rules, &mut loaded, &|_| StateView::Absent);
        let cwd = roots.original_cwd.trim_end_matches('/');
        let cwd = if cwd.is_empty() { "/" } else { cwd };
        let mut seen = BTreeSet::new();
        for file in &found.files {
            prop_assert!(seen.insert(file.path.clone()), "listed twice: {}", file.path);
            prop_assert!(file.include_depth < MAX_INCLUDE_DEPTH);
            prop_assert!(tree.0.contains_key(&file.path), "not a file: {}", file.path);
            // Everything comes from the cwd (its own rules, nested directories, includes
            // without includeExternal), an ancestor's rules, or an additional directory.
            let from_rules_of_ancestor = file.path.contains("/.claude/rules/")
                && within(cwd, file.path.split("/.claude/rules/").next().unwrap_or("-"));
            let from_additional = roots.additional_dirs.iter().any(|d| {
                if rules.string_prefix_dirs { file.path.starts_with(d.as_str()) } else { within(&file.path, d) }
            });
            let from_cwd = if rules.string_prefix_dirs { file.path.starts_with(cwd) } else { within(&file.path, cwd) };
            prop_assert!(from_cwd || from_rules_of_ancestor || from_additional, "outside: {} for {target}", file.path);
        }
        // A second read of the same target loads nothing new.
        let again = nested_memory(&target, &roots, &tree, &rules, &mut loaded, &|_| StateView::Absent);
        prop_assert!(again.files.is_empty());
    }

    #[test]
    fn no_panic_on_arbitrary_text(raw in "\\PC{0,200}", target in "\\PC{0,30}", cwd in "\\PC{0,10}") {
        let files = [
            ("/p/d/CLAUDE.md".to_string(), Rc::from(raw.as_str())),
            ("/p/d/.claude/rules/r.md".to_string(), Rc::from(raw.as_str())),
        ];
        let tree = Tree(files.into_iter().collect());
        for rules in [MemoryRules::claude_code(), MemoryRules::recommended()] {
            for cwd in ["/p", cwd.as_str()] {
                let found = nested_memory(&target, &MemoryRoots::new(cwd), &tree, &rules,
                    &mut LoadedMemory::default(), &|_| StateView::Partial);
                for file in &found.files {
                    let _ = render_nested(file, &rules);
                }
            }
            let found = nested_memory("/p/d/x", &MemoryRoots::new("/p"), &tree, &rules,
                &mut LoadedMemory::default(), &|_| StateView::Absent);
            for file in &found.files {
                let _ = render_nested(file, &rules);
            }
        }
        let _ = truncate_memory_index(&raw);
    }
}
