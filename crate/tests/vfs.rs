//! Paths and the virtual file system: the shared fixture (tests/fixtures/paths.json) and
//! generated inputs, including random operation sequences checked against a flat model.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::PathBuf;

use context_assembly::path::{expand_path, lexical_normalize, ExpandRules};
use context_assembly::vfs::{Content, EntryKind, FsError, TransientError, Vfs};
use proptest::prelude::*;
use serde_json::Value;
use unicode_normalization::is_nfc;

fn fixture(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

/// A case without `profile` holds for every profile.
#[test]
fn expand_path_fixture() {
    let presets = [
        ("claude-code", ExpandRules::claude_code()),
        ("recommended", ExpandRules::recommended()),
    ];
    let cases = fixture("paths.json");
    for case in cases["cases"].as_array().expect("cases") {
        let field = |key: &str| {
            case[key]
                .as_str()
                .unwrap_or_else(|| panic!("{key}: {case}"))
        };
        let (input, cwd, home) = (field("input"), field("cwd"), field("home"));
        for (name, rules) in &presets {
            if case.get("profile").is_some_and(|profile| profile != name) {
                continue;
            }
            let got = expand_path(input, cwd, home, rules);
            match (case["expected"].as_str(), case["error"].as_str(), got) {
                (Some(expected), None, Ok(path)) => assert_eq!(path, expected, "{name}: {case}"),
                (None, Some(fragment), Err(err)) => {
                    let message = err.to_string();
                    assert!(message.contains(fragment), "{name}: {case}: {message}");
                    let named = [input, cwd, home]
                        .iter()
                        .any(|p| message.contains(&format!("{p:?}")));
                    assert!(named, "{name}: the message names the path: {message}");
                }
                (_, _, got) => panic!("{name}: {case}: got {got:?}"),
            }
        }
    }
}

fn path_input() -> impl Strategy<Value = String> {
    let piece = prop_oneof![
        Just("/"),
        Just("//"),
        Just("."),
        Just(".."),
        Just("~"),
        Just("~u"),
        Just("a"),
        Just("é"),
        Just("e\u{301}"),
        Just(" "),
        Just("\u{feff}"),
        Just("\0"),
    ];
    prop_oneof![
        prop::collection::vec(piece, 0..12).prop_map(|pieces| pieces.concat()),
        any::<String>(),
    ]
}

fn base_dir() -> impl Strategy<Value = String> {
    prop::collection::vec(prop_oneof![Just("a"), Just("b"), Just("é")], 0..4)
        .prop_map(|segments| format!("/{}", segments.join("/")))
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn expanded_paths_are_canonical_and_confined(
        input in path_input(),
        cwd in base_dir(),
        home in base_dir(),
        recommended in any::<bool>(),
    ) {
        let rules = if recommended { ExpandRules::recommended() } else { ExpandRules::claude_code() };
        match expand_path(&input, &cwd, &home, &rules) {
            Ok(path) => {
                prop_assert!(path.starts_with('/'), "{path:?}");
                prop_assert!(!path.contains("//"), "{path:?}");
                prop_assert!(path == "/" || !path.ends_with('/'), "{path:?}");
                prop_assert!(path.split('/').all(|s| s != ".." && s != "."), "{path:?}");
                prop_assert!(!path.contains('\0'));
                prop_assert!(is_nfc(&path), "{path:?}");
                prop_assert_eq!(lexical_normalize(&path), path.clone());
                // Canonical means a fixed point: expanding it again changes nothing (unless
                // its last name ends with spaces, which expanding trims).
                if !path.ends_with(|c: char| c.is_whitespace() || c == '\u{feff}') {
                    prop_assert_eq!(expand_path(&path, &cwd, &home, &rules), Ok(path));
                }
            }
            Err(err) => prop_assert!(!err.to_string().is_empty()),
        }
        if input.contains('\0') {
            prop_assert!(expand_path(&input, &cwd, &home, &rules).is_err());
        }
    }
}

/// The file system as flat sets, with the POSIX rules spelled out one by one.
#[derive(Default, Debug)]
struct Model {
    files: BTreeMap<String, Vec<u8>>,
    dirs: BTreeSet<String>,
    transient: BTreeMap<String, TransientError>,
}

const INVALID: &str = "ERR_INVALID_ARG_VALUE";

fn canonical(path: &str) -> bool {
    path == "/"
        || path.starts_with('/') && path[1..].split('/').all(|s| !matches!(s, "" | "." | ".."))
}

/// Proper ancestors of a canonical path, top down, without `/`.
fn ancestors(path: &str) -> Vec<&str> {
    path.match_indices('/')
        .skip(1)
        .map(|(i, _)| &path[..i])
        .collect()
}

fn under(path: &str, dir: &str) -> bool {
    let prefix = if dir == "/" {
        String::from("/")
    } else {
        format!("{dir}/")
    };
    path.starts_with(&prefix) && path != dir
}

impl Model {
    fn kind(&self, path: &str) -> Option<EntryKind> {
        if path == "/" || self.dirs.contains(path) {
            Some(EntryKind::Directory)
        } else if self.files.contains_key(path) {
            Some(EntryKind::File)
        } else {
            None
        }
    }

    fn walk(&self, path: &str) -> Result<(), &'static str> {
        for dir in ancestors(path) {
            match self.kind(dir) {
                Some(EntryKind::File) => return Err("ENOTDIR"),
                None => return Err("ENOENT"),
                Some(EntryKind::Directory) => {}
            }
        }
        Ok(())
    }

    fn lookup(&self, path: &str) -> Result<EntryKind, &'static str> {
        if !canonical(path) {
            return Err(INVALID);
        }
        if let Some(error) = self.transient.get(path) {
            return Err(match error {
                TransientError::PermissionDenied => "EACCES",
                TransientError::Busy => "EBUSY",
            });
        }
        self.walk(path)?;
        self.kind(path).ok_or("ENOENT")
    }

    fn children(&self, dir: &str) -> Vec<String> {
        let all = self.files.keys().chain(&self.dirs);
        let mut names: Vec<String> = all
            .filter(|p| under(p, dir) && !p[dir.len()..].trim_start_matches('/').contains('/'))
            .map(|p| p.rsplit('/').next().unwrap_or_default().to_string())
            .collect();
        names.sort();
        names
    }

    /// Creates the missing ancestors; fails only when one is a file.
    fn make_parents(&mut self, path: &str) -> Result<(), &'static str> {
        for dir in ancestors(path) {
            match self.kind(dir) {
                Some(EntryKind::File) => return Err("ENOTDIR"),
                Some(EntryKind::Directory) => {}
                None => {
                    self.dirs.insert(dir.to_string());
                }
            }
        }
        Ok(())
    }

    fn write(&mut self, path: &str, bytes: &[u8]) -> Result<(), &'static str> {
        if !canonical(path) {
            return Err(INVALID);
        }
        if path == "/" {
            return Err("EISDIR");
        }
        // The first missing ancestor means nothing below it exists, so no file is in the way.
        for dir in ancestors(path) {
            match self.kind(dir) {
                Some(EntryKind::File) => return Err("ENOTDIR"),
                None => break,
                Some(EntryKind::Directory) => {}
            }
        }
        if self.kind(path) == Some(EntryKind::Directory) {
            return Err("EISDIR");
        }
        self.make_parents(path)?;
        self.files.insert(path.to_string(), bytes.to_vec());
        Ok(())
    }

    fn mkdir(&mut self, path: &str) -> Result<(), &'static str> {
        if !canonical(path) {
            return Err(INVALID);
        }
        for dir in ancestors(path) {
            match self.kind(dir) {
                Some(EntryKind::File) => return Err("ENOTDIR"),
                None => break,
                Some(EntryKind::Directory) => {}
            }
        }
        match self.kind(path) {
            Some(EntryKind::File) => Err("EEXIST"),
            Some(EntryKind::Directory) => Ok(()),
            None => {
                self.make_parents(path)?;
                self.dirs.insert(path.to_string());
                Ok(())
            }
        }
    }

    fn delete(&mut self, path: &str) -> Result<(), &'static str> {
        if !canonical(path) {
            return Err(INVALID);
        }
        if path == "/" {
            return Err("EBUSY");
        }
        self.walk(path)?;
        match self.kind(path) {
            None => Err("ENOENT"),
            Some(EntryKind::Directory) if !self.children(path).is_empty() => Err("ENOTEMPTY"),
            Some(_) => {
                self.files.remove(path);
                self.dirs.remove(path);
                Ok(())
            }
        }
    }

    fn rename(&mut self, from: &str, to: &str) -> Result<(), &'static str> {
        if !canonical(from) || !canonical(to) {
            return Err(INVALID);
        }
        if from == "/" || to == "/" {
            return Err("EBUSY");
        }
        self.walk(from)?;
        let moving = self.kind(from).ok_or("ENOENT")?;
        if from == to {
            return Ok(());
        }
        if moving == EntryKind::Directory && under(to, from) {
            return Err("EINVAL");
        }
        self.walk(to)?;
        match (moving, self.kind(to)) {
            (EntryKind::File, Some(EntryKind::Directory)) => return Err("EISDIR"),
            (EntryKind::Directory, Some(EntryKind::File)) => return Err("ENOTDIR"),
            (EntryKind::Directory, Some(EntryKind::Directory)) if !self.children(to).is_empty() => {
                return Err("ENOTEMPTY")
            }
            _ => {}
        }
        self.files.remove(to);
        self.dirs.remove(to);
        let moved =
            |p: &str| (p == from || under(p, from)).then(|| format!("{to}{}", &p[from.len()..]));
        self.files = std::mem::take(&mut self.files)
            .into_iter()
            .map(|(p, bytes)| (moved(&p).unwrap_or(p), bytes))
            .collect();
        self.dirs = std::mem::take(&mut self.dirs)
            .into_iter()
            .map(|p| moved(&p).unwrap_or(p))
            .collect();
        Ok(())
    }
}

#[derive(Debug, Clone)]
enum Op {
    Write(String, Vec<u8>),
    Delete(String),
    Rename(String, String),
    Mkdir(String),
    Transient(String, Option<TransientError>),
}

/// Valid paths of depth 1 to 3 over three names, plus a few that are not canonical.
fn universe() -> Vec<String> {
    let names = ["a", "b", "é"];
    let mut paths = vec![String::from("/")];
    let mut level = vec![String::new()];
    for _ in 0..3 {
        level = level
            .iter()
            .flat_map(|parent| names.iter().map(move |name| format!("{parent}/{name}")))
            .collect();
        paths.extend(level.iter().cloned());
    }
    paths
}

fn any_path() -> impl Strategy<Value = String> {
    let valid = prop::sample::select(universe());
    let invalid =
        prop::sample::select(vec!["a", "/a/", "/a/../b", "/a//b", ""]).prop_map(String::from);
    prop_oneof![20 => valid, 1 => invalid]
}

fn op() -> impl Strategy<Value = Op> {
    let bytes = prop_oneof![
        prop::collection::vec(any::<u8>(), 0..4),
        "[a-c]{0,3}".prop_map(String::into_bytes),
    ];
    let transient = prop_oneof![
        Just(None),
        Just(Some(TransientError::Busy)),
        Just(Some(TransientError::PermissionDenied)),
    ];
    prop_oneof![
        4 => (any_path(), bytes).prop_map(|(p, b)| Op::Write(p, b)),
        2 => any_path().prop_map(Op::Delete),
        3 => (any_path(), any_path()).prop_map(|(a, b)| Op::Rename(a, b)),
        2 => any_path().prop_map(Op::Mkdir),
        1 => (any_path(), transient).prop_map(|(p, t)| Op::Transient(p, t)),
    ]
}

fn outcome(result: Result<(), FsError>) -> Result<(), &'static str> {
    result.map_err(|err| err.code())
}

/// The files under `dir` (or `dir` itself), by their path relative to it.
fn subtree(model: &Model, dir: &str) -> Vec<(String, Vec<u8>)> {
    let files = model
        .files
        .iter()
        .filter(|(p, _)| *p == dir || under(p, dir));
    files
        .map(|(p, bytes)| (p[dir.len()..].to_string(), bytes.clone()))
        .collect()
}

/// Everything the file system answers agrees with the model, for every path.
fn assert_agrees(vfs: &Vfs, model: &Model) -> Result<(), TestCaseError> {
    for path in universe() {
        let expected = model.lookup(&path);
        let stat = vfs.stat(&path).map_err(|e| e.code());
        prop_assert_eq!(stat.map(|s| s.kind), expected, "stat {}", path);
        let read = vfs.read(&path).map_err(|e| e.code());
        match expected {
            Ok(EntryKind::File) => {
                let content = read.map(|c| c.as_bytes().to_vec());
                prop_assert_eq!(content.as_ref(), Ok(&model.files[&path]), "read {}", path);
                let size = vfs.stat(&path).map(|s| s.size as usize);
                prop_assert_eq!(size, Ok(model.files[&path].len()));
            }
            Ok(EntryKind::Directory) => prop_assert_eq!(read.err(), Some("EISDIR")),
            Err(code) => prop_assert_eq!(read.err(), Some(code)),
        }
        let listing = vfs.list_dir(&path).map_err(|e| e.code());
        if expected == Ok(EntryKind::Directory) {
            let entries = listing.unwrap_or_default();
            let names: Vec<String> = entries.iter().map(|e| e.name.clone()).collect();
            prop_assert_eq!(&names, &model.children(&path), "list {}", path);
            prop_assert!(
                names.windows(2).all(|w| w[0] < w[1]),
                "sorted, no duplicate"
            );
            for entry in &entries {
                let child = if path == "/" {
                    format!("/{}", entry.name)
                } else {
                    format!("{path}/{}", entry.name)
                };
                prop_assert_eq!(model.kind(&child), Some(entry.kind), "listed {}", child);
            }
        }
    }
    let bytes: usize = model.files.values().map(Vec::len).sum();
    prop_assert_eq!(vfs.total_bytes(), bytes as u64);
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn operations_agree_with_a_flat_model(ops in prop::collection::vec(op(), 1..40)) {
        let mut vfs = Vfs::new();
        let mut model = Model::default();
        for (at, op) in (1u64..).zip(&ops) {
            let (got, expected) = match op {
                Op::Write(p, b) => (outcome(vfs.write_file(p, Content::from(b.clone()), at)), model.write(p, b)),
                Op::Delete(p) => (outcome(vfs.delete(p, at)), model.delete(p)),
                Op::Mkdir(p) => (outcome(vfs.mkdir(p, at)), model.mkdir(p)),
                Op::Rename(from, to) => {
                    let before = subtree(&model, from);
                    let expected = model.rename(from, to);
                    let got = outcome(vfs.rename(from, to, at));
                    for (relative, bytes) in before.iter().filter(|_| got.is_ok()) {
                        let moved = format!("{to}{relative}");
                        if !model.transient.contains_key(&moved) {
                            let content = vfs.read(&moved).map(|c| c.as_bytes().to_vec());
                            prop_assert_eq!(content.as_ref(), Ok(bytes), "{} keeps its content", moved);
                        }
                    }
                    (got, expected)
                }
                Op::Transient(p, t) => {
                    let expected = if canonical(p) { Ok(()) } else { Err(INVALID) };
                    if expected.is_ok() {
                        match t {
                            Some(t) => model.transient.insert(p.clone(), *t),
                            None => model.transient.remove(p),
                        };
                    }
                    (outcome(vfs.set_transient_error(p, *t)), expected)
                }
            };
            prop_assert_eq!(got, expected, "{:?}", op);
            assert_agrees(&vfs, &model)?;
        }
    }
}
