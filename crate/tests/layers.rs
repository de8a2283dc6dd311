//! The core's layers (ARCHITECTURE.md), enforced: every top-level module of `crate/src` has a
//! layer, and a file may import from its own layer or the layers below it, never above. Within
//! a layer the modules must not import each other in a loop either.
//!
//! The check reads the sources, so it sees every `use crate::…` (grouped or not) and every
//! `crate::module::…` path written in code, tests included; comments are skipped.

use std::collections::{BTreeMap, BTreeSet};
use std::fs;
use std::path::{Path, PathBuf};

/// Bottom to top. A module may import from its own row and the rows above it in this list.
const LAYERS: &[(&str, &[&str])] = &[
    (
        "foundation",
        &["error", "js", "sort", "switch", "vocabulary"],
    ),
    (
        "text engines",
        &["tokens", "diff", "path", "mention", "search"],
    ),
    ("host inputs", &["host"]),
    ("wording", &["wording"]),
    (
        "workspace",
        &["vfs", "deny", "read", "file_state", "memory", "workspace"],
    ),
    ("vocabulary of attachments", &["attachment"]),
    ("codex context", &["codex"]),
    ("transcript", &["transcript"]),
    ("collectors", &["collectors"]),
    ("strategies", &["compact", "cache"]),
    ("request assembly", &["request"]),
    ("profiles", &["profile"]),
    ("session", &["session"]),
    ("scenarios", &["scenario"]),
    ("scenario tools", &["import", "redact", "snapshot"]),
];

/// Names the crate root re-exports, and the module each comes from.
const ROOT_REEXPORTS: &[(&str, &str)] = &[
    ("Error", "error"),
    ("Profile", "profile"),
    ("ProfileName", "profile"),
];

fn layer_of(module: &str) -> Option<usize> {
    LAYERS
        .iter()
        .position(|(_, modules)| modules.contains(&module))
}

fn source_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in fs::read_dir(dir).expect("crate/src is readable") {
        let path = entry.expect("a directory entry").path();
        if path.is_dir() {
            source_files(&path, out);
        } else if path.extension().is_some_and(|ext| ext == "rs") {
            out.push(path);
        }
    }
}

/// The top-level module a file belongs to (`session/mod.rs` → `session`, `path.rs` → `path`).
fn module_of(src: &Path, file: &Path) -> String {
    let relative = file.strip_prefix(src).expect("a file under crate/src");
    let first = relative.components().next().expect("a non-empty path");
    let name = first.as_os_str().to_string_lossy();
    name.trim_end_matches(".rs").to_string()
}

/// The modules a `use crate::` tree names at its top: `{a::X, b}` → a, b; `c::Y` → c.
fn used_modules(tree: &str) -> Vec<String> {
    let tree = tree.trim();
    let Some(group) = tree.strip_prefix('{') else {
        return leading_ident(tree).into_iter().collect();
    };
    let mut names = Vec::new();
    let mut depth = 0usize;
    let mut item = String::new();
    for ch in group.chars() {
        match ch {
            '{' => depth += 1,
            '}' if depth == 0 => break,
            '}' => depth -= 1,
            ',' if depth == 0 => {
                names.extend(leading_ident(&item));
                item.clear();
                continue;
            }
            _ => {}
        }
        item.push(ch);
    }
    names.extend(leading_ident(&item));
    names
}

fn leading_ident(text: &str) -> Option<String> {
    let ident: String = text
        .trim()
        .chars()
        .take_while(|c| c.is_alphanumeric() || *c == '_')
        .collect();
    (!ident.is_empty() && ident != "self").then_some(ident)
}

fn resolve(name: &str) -> String {
    ROOT_REEXPORTS
        .iter()
        .find(|(export, _)| *export == name)
        .map_or(name, |(_, module)| module)
        .to_string()
}

/// Every (line, imported module) of one file, comments skipped.
fn imports(text: &str) -> Vec<(usize, String)> {
    let mut found = Vec::new();
    let mut pending: Option<(usize, String)> = None;
    for (index, line) in text.lines().enumerate() {
        let code = line.split("//").next().unwrap_or("");
        if let Some((start, mut statement)) = pending.take() {
            statement.push_str(code);
            if statement.contains(';') {
                found.extend(used_modules(&statement).into_iter().map(|m| (start, m)));
            } else {
                pending = Some((start, statement));
            }
            continue;
        }
        if let Some(at) = code.find("use crate::") {
            let rest = &code[at + "use crate::".len()..];
            if rest.contains(';') {
                found.extend(used_modules(rest).into_iter().map(|m| (index + 1, m)));
            } else {
                pending = Some((index + 1, rest.to_string()));
            }
            continue;
        }
        let mut rest = code;
        while let Some(at) = rest.find("crate::") {
            let preceded_by_ident = rest[..at]
                .chars()
                .last()
                .is_some_and(|c| c.is_alphanumeric() || c == '_');
            rest = &rest[at + "crate::".len()..];
            if !preceded_by_ident {
                found.extend(leading_ident(rest).map(|m| (index + 1, m)));
            }
        }
    }
    found
        .into_iter()
        .map(|(line, module)| (line, resolve(&module)))
        .collect()
}

struct Graph {
    /// (from, to) → the first place it happens.
    edges: BTreeMap<(String, String), String>,
    modules: BTreeSet<String>,
}

fn graph() -> Graph {
    let src = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut files = Vec::new();
    source_files(&src, &mut files);
    files.sort();
    let mut edges = BTreeMap::new();
    let mut modules = BTreeSet::new();
    for file in files {
        let from = module_of(&src, &file);
        if from == "lib" {
            continue;
        }
        modules.insert(from.clone());
        let text = fs::read_to_string(&file).expect("a readable source file");
        let shown = file.strip_prefix(&src).unwrap().display().to_string();
        for (line, to) in imports(&text) {
            if to != from {
                edges
                    .entry((from.clone(), to))
                    .or_insert_with(|| format!("crate/src/{shown}:{line}"));
            }
        }
    }
    Graph { edges, modules }
}

#[test]
fn every_module_has_a_layer() {
    let unplaced: Vec<_> = graph()
        .modules
        .into_iter()
        .filter(|m| layer_of(m).is_none())
        .collect();
    assert!(
        unplaced.is_empty(),
        "modules with no layer: {unplaced:?}; add each to LAYERS here and to ARCHITECTURE.md"
    );
}

#[test]
fn no_module_imports_from_a_layer_above_its_own() {
    let graph = graph();
    let mut upward = Vec::new();
    for ((from, to), at) in &graph.edges {
        let (Some(own), Some(target)) = (layer_of(from), layer_of(to)) else {
            continue;
        };
        if target > own {
            upward.push(format!(
                "{at}: `{from}` ({}) imports `{to}` ({})",
                LAYERS[own].0, LAYERS[target].0
            ));
        }
    }
    assert!(
        upward.is_empty(),
        "imports from a higher layer:\n{}",
        upward.join("\n")
    );
}

#[test]
fn modules_do_not_import_each_other_in_a_loop() {
    let graph = graph();
    let mut next: BTreeMap<&str, Vec<&str>> = BTreeMap::new();
    for (from, to) in graph.edges.keys() {
        next.entry(from).or_default().push(to);
    }
    // Depth-first search; a module met again while still on the path closes a loop.
    fn visit<'a>(
        module: &'a str,
        next: &BTreeMap<&'a str, Vec<&'a str>>,
        path: &mut Vec<&'a str>,
        done: &mut BTreeSet<&'a str>,
    ) -> Option<Vec<&'a str>> {
        if let Some(at) = path.iter().position(|m| *m == module) {
            let mut cycle = path[at..].to_vec();
            cycle.push(module);
            return Some(cycle);
        }
        if !done.insert(module) {
            return None;
        }
        path.push(module);
        for to in next.get(module).into_iter().flatten() {
            if let Some(cycle) = visit(to, next, path, done) {
                return Some(cycle);
            }
        }
        path.pop();
        None
    }
    let mut done = BTreeSet::new();
    for module in &graph.modules {
        let mut path = Vec::new();
        if let Some(cycle) = visit(module, &next, &mut path, &mut done) {
            panic!("import loop: {}", cycle.join(" → "));
        }
    }
}

#[test]
fn the_checker_sees_grouped_multi_line_and_inline_imports() {
    let text = "use crate::{\n    attachment::Decision,\n    session::X,\n};\n// use crate::codex;\nlet a = crate::compact::f();\nlet b = my_crate::vfs::g();\nuse crate::Error;\n";
    let found = imports(text);
    assert_eq!(
        found,
        [
            (1, "attachment".to_string()),
            (1, "session".to_string()),
            (6, "compact".to_string()),
            (8, "error".to_string()),
        ]
    );
}
