//! Which memory files one target brings in, in order (spec claude-code.md §8.2): managed
//! and user conditional rules, the directories from the original cwd down to the target,
//! the cwd-level conditional rules, each file followed by what it `@include`s.

use alloc::collections::BTreeSet;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::content::{has_text_extension, parse_memory, ParsedMemory};
use super::{
    LoadReason, MemoryFile, MemoryKind, MemoryRoots, MemoryRules, MemorySkip, MemorySource,
    NestedMemory, SkipReason, MAX_INCLUDE_DEPTH,
};
use crate::deny::gitignore::Gitignore;
use crate::js::is_whitespace as is_js_space;
use crate::path::lexical_normalize;

/// Deepest directory level a rules walk descends to, and most entries it lists: the
/// bounds that keep a pathological tree from costing unbounded work.
const MAX_RULES_DEPTH: usize = 16;
const MAX_RULES_ENTRIES: usize = 4096;

/// The normalised roots every comparison uses.
pub(super) struct Roots {
    pub(super) cwd: String,
    pub(super) additional: Vec<String>,
    pub(super) home: Option<String>,
    pub(super) managed: Option<String>,
}

impl Roots {
    pub(super) fn new(roots: &MemoryRoots) -> Roots {
        Roots {
            cwd: normalize_dir(&roots.original_cwd),
            additional: roots
                .additional_dirs
                .iter()
                .map(|d| normalize_dir(d))
                .collect(),
            home: roots.home.as_deref().map(normalize_dir),
            managed: roots.managed_dir.as_deref().map(normalize_dir),
        }
    }
}

/// Whether a rule may pull in files outside the original cwd (`includeExternal`).
#[derive(Clone, Copy, PartialEq, Eq)]
pub(super) enum Scope {
    Internal,
    External,
}

/// One target's discovery: `processedPaths` and the results so far.
pub(super) struct Walk<'a> {
    pub(super) roots: &'a Roots,
    pub(super) source: &'a dyn MemorySource,
    pub(super) target: &'a str,
    pub(super) processed: BTreeSet<String>,
    pub(super) out: NestedMemory,
    /// The walk step under way (see [`MemoryFile::walk_step`]).
    pub(super) step: usize,
}

/// Discovers the memory files `target` brings in, without cross-call de-duplication.
pub(super) fn discover(
    target: &str,
    roots: &MemoryRoots,
    source: &dyn MemorySource,
    rules: &MemoryRules,
) -> NestedMemory {
    let roots = Roots::new(roots);
    let target = if target.starts_with('/') {
        lexical_normalize(target)
    } else {
        lexical_normalize(&join(&roots.cwd, target))
    };
    let mut walk = Walk {
        roots: &roots,
        source,
        target: &target,
        processed: BTreeSet::new(),
        out: NestedMemory::default(),
        step: 0,
    };
    let allowed = core::iter::once(&roots.cwd)
        .chain(&roots.additional)
        .any(|root| is_within(&target, root));
    if !allowed {
        walk.skip(&target, SkipReason::TargetOutsideWorkingDirs);
        return walk.out;
    }
    // The steps the original awaits one after the other, each stamped on its own (§8).
    walk.managed_and_user_rules();
    for dir in nested_dirs(&target, &roots.cwd, rules.string_prefix_dirs) {
        walk.step += 1;
        walk.nested_dir(&dir);
    }
    for dir in cwd_level_dirs(&roots.cwd) {
        walk.step += 1;
        let rules_dir = join(&join(&dir, ".claude"), "rules");
        walk.rules(
            &rules_dir,
            None,
            MemoryKind::ConditionalRule,
            &dir,
            Scope::Internal,
        );
    }
    walk.out
}

/// `nestedDirs`: from the target's directory up towards the cwd, the cwd excluded, kept
/// when under the cwd (Q53: as a plain string prefix), then reversed.
fn nested_dirs(target: &str, cwd: &str, string_prefix: bool) -> Vec<String> {
    let mut dirs = Vec::new();
    let mut dir = dirname(target);
    while dir != cwd && dir != "/" {
        let inside = if string_prefix {
            dir.starts_with(cwd)
        } else {
            is_within(dir, cwd)
        };
        if inside {
            dirs.push(dir.to_string());
        }
        dir = dirname(dir);
    }
    dirs.reverse();
    dirs
}

/// `cwdLevelDirs`: the cwd and its ancestors, the filesystem root excluded, root first.
pub(super) fn cwd_level_dirs(cwd: &str) -> Vec<String> {
    let mut dirs = Vec::new();
    let mut dir = cwd;
    while dir != "/" && !dir.is_empty() {
        dirs.push(dir.to_string());
        dir = dirname(dir);
    }
    dirs.reverse();
    dirs
}

impl Walk<'_> {
    fn skip(&mut self, path: &str, reason: SkipReason) {
        self.out.skipped.push(MemorySkip {
            path: path.to_string(),
            reason,
        });
    }

    fn managed_and_user_rules(&mut self) {
        let roots = self.roots;
        let sources = [
            (roots.managed.as_deref(), MemoryKind::Managed),
            (roots.home.as_deref(), MemoryKind::User),
        ];
        for (base, kind) in sources {
            if let Some(base) = base {
                let rules_dir = join(&join(base, ".claude"), "rules");
                self.rules(&rules_dir, None, kind, &roots.cwd, Scope::External);
            }
        }
    }

    fn nested_dir(&mut self, dir: &str) {
        let claude_dir = join(dir, ".claude");
        let files = [
            (join(dir, "CLAUDE.md"), MemoryKind::Project),
            (join(&claude_dir, "CLAUDE.md"), MemoryKind::Project),
            (join(dir, "CLAUDE.local.md"), MemoryKind::Local),
        ];
        for (path, kind) in files {
            if let Some(raw) = self.source.read_text(&path) {
                let parsed = parse_memory(&raw);
                let origin = Origin::root(kind, LoadReason::NestedTraversal, Scope::Internal);
                self.take(path, raw, parsed, origin, &mut Vec::new());
            }
        }
        let rules_dir = join(&claude_dir, "rules");
        let unconditional = Some(MemoryKind::ProjectRule);
        self.rules(
            &rules_dir,
            unconditional,
            MemoryKind::ConditionalRule,
            dir,
            Scope::Internal,
        );
    }

    /// The rules of one `.claude/rules` directory: the unconditional ones (when
    /// `unconditional` gives them a kind), then the conditional ones whose globs match
    /// the target relative to `base`.
    pub(super) fn rules(
        &mut self,
        rules_dir: &str,
        unconditional: Option<MemoryKind>,
        conditional: MemoryKind,
        base: &str,
        scope: Scope,
    ) {
        let mut parsed = Vec::new();
        for path in self.rule_paths(rules_dir) {
            if let Some(raw) = self.source.read_text(&path) {
                let memory = parse_memory(&raw);
                parsed.push((path, raw, memory));
            } else {
                self.skip(&path, SkipReason::NotFound);
            }
        }
        if let Some(kind) = unconditional {
            for (path, raw, memory) in &parsed {
                if memory.globs.is_none() {
                    let origin = Origin::root(kind, LoadReason::NestedTraversal, scope);
                    self.take(
                        path.clone(),
                        raw.clone(),
                        memory.clone(),
                        origin,
                        &mut Vec::new(),
                    );
                }
            }
        }
        let relative = relative_for_globs(base, self.target);
        for (path, raw, memory) in parsed {
            let Some(globs) = &memory.globs else {
                continue;
            };
            // `ignore().add(globs).ignores(relPath)` with `ignore`'s defaults (case folded), the
            // same matcher the deny rules use.
            let matched = relative.is_some_and(|rel| Gitignore::new(globs, true).ignores(rel));
            if matched {
                let origin = Origin::root(conditional, LoadReason::PathGlobMatch, scope);
                self.take(path, raw, memory, origin, &mut Vec::new());
            } else {
                self.skip(&path, SkipReason::PathsNotMatched);
            }
        }
    }

    /// Every `.md` file under `rules_dir`, depth first, each directory's entries in byte
    /// order.
    fn rule_paths(&mut self, rules_dir: &str) -> Vec<String> {
        let mut found = Vec::new();
        let mut listed = 0;
        self.walk_rules_dir(rules_dir, 0, &mut listed, &mut found);
        found
    }

    fn walk_rules_dir(
        &mut self,
        dir: &str,
        depth: usize,
        listed: &mut usize,
        found: &mut Vec<String>,
    ) {
        let mut entries = self.source.list_dir(dir);
        *listed += entries.len();
        if *listed > MAX_RULES_ENTRIES || depth > MAX_RULES_DEPTH {
            self.skip(dir, SkipReason::RulesWalkLimit);
            return;
        }
        crate::sort::sort(&mut entries);
        for (name, is_dir) in entries {
            if name.is_empty() || name.contains('/') || name == "." || name == ".." {
                continue;
            }
            let path = join(dir, &name);
            if is_dir {
                self.walk_rules_dir(&path, depth + 1, listed, found);
            } else if name.ends_with(".md") {
                found.push(path);
            }
        }
    }

    /// `processMemoryFile` for a file already read: `processedPaths`, then accept.
    pub(super) fn take(
        &mut self,
        path: String,
        raw: Rc<str>,
        parsed: ParsedMemory,
        origin: Origin,
        chain: &mut Vec<String>,
    ) {
        if self.processed.contains(&path) {
            self.skip(&path, SkipReason::AlreadyProcessed);
            return;
        }
        self.processed.insert(path.clone());
        if !has_text_extension(&path) {
            self.skip(&path, SkipReason::NonTextExtension);
            return;
        }
        if parsed.content.trim_matches(is_js_space).is_empty() {
            self.skip(&path, SkipReason::Empty);
            return;
        }
        let display_path = relative_within(&self.roots.cwd, &path).map(ToString::to_string);
        let includes = parsed.includes;
        self.out.files.push(MemoryFile {
            content_differs_from_disk: parsed.content.as_str() != &*raw,
            path: path.clone(),
            display_path,
            kind: origin.kind,
            reason: origin.reason,
            content: parsed.content,
            raw,
            include_depth: origin.depth,
            included_by: chain.last().cloned(),
            walk_step: self.step,
        });
        chain.push(path.clone());
        for include in includes {
            self.include(&path, &include, origin, chain);
        }
        chain.pop();
    }

    /// One `@include` of the file `from`, loaded right after it.
    fn include(&mut self, from: &str, include: &str, parent: Origin, chain: &mut Vec<String>) {
        let resolved = if let Some(rest) = include.strip_prefix("~/") {
            match &self.roots.home {
                Some(home) => lexical_normalize(&join(home, rest)),
                None => {
                    self.skip(include, SkipReason::IncludeUnresolvable);
                    return;
                }
            }
        } else if include.starts_with('/') {
            lexical_normalize(include)
        } else {
            lexical_normalize(&join(dirname(from), include))
        };
        let path = resolved.trim_end_matches('/').to_string();
        let depth = parent.depth + 1;
        let reason = if parent.scope == Scope::Internal && !is_within(&path, &self.roots.cwd) {
            Some(SkipReason::IncludeOutsideCwd)
        } else if chain.contains(&path) {
            Some(SkipReason::IncludeCycle)
        } else if self.processed.contains(&path) {
            Some(SkipReason::AlreadyProcessed)
        } else if depth >= MAX_INCLUDE_DEPTH {
            Some(SkipReason::IncludeTooDeep)
        } else {
            None
        };
        if let Some(reason) = reason {
            self.skip(&path, reason);
            return;
        }
        let Some(raw) = self.source.read_text(&path) else {
            self.processed.insert(path.clone());
            self.skip(&path, SkipReason::NotFound);
            return;
        };
        let parsed = parse_memory(&raw);
        let origin = Origin {
            reason: LoadReason::Include,
            depth,
            ..parent
        };
        self.take(path, raw, parsed, origin, chain);
    }
}

/// Where a file comes from: its kind, why it loads, its include depth and scope.
#[derive(Clone, Copy)]
pub(super) struct Origin {
    kind: MemoryKind,
    reason: LoadReason,
    depth: usize,
    scope: Scope,
}

impl Origin {
    pub(super) fn root(kind: MemoryKind, reason: LoadReason, scope: Scope) -> Origin {
        Origin {
            kind,
            reason,
            depth: 0,
            scope,
        }
    }
}

fn normalize_dir(dir: &str) -> String {
    let normal = lexical_normalize(dir);
    match normal.strip_suffix('/') {
        Some(trimmed) if !trimmed.is_empty() => trimmed.to_string(),
        _ => normal,
    }
}

/// Node's `path.dirname` for a normalised absolute path.
fn dirname(path: &str) -> &str {
    match path.rfind('/') {
        Some(0) | None => "/",
        Some(i) => &path[..i],
    }
}

pub(super) fn join(dir: &str, name: &str) -> String {
    let mut path = String::with_capacity(dir.len() + name.len() + 1);
    path.push_str(dir);
    if !dir.ends_with('/') {
        path.push('/');
    }
    path.push_str(name);
    path
}

/// Whether `path` is `dir` or below it, on path-component boundaries.
pub(super) fn is_within(path: &str, dir: &str) -> bool {
    relative_within(dir, path).is_some()
}

/// `path` relative to `dir` when it is `dir` (`""`) or below it.
fn relative_within<'p>(dir: &str, path: &'p str) -> Option<&'p str> {
    if dir == "/" {
        return path.strip_prefix('/');
    }
    let rest = path.strip_prefix(dir)?;
    if rest.is_empty() {
        return Some("");
    }
    rest.strip_prefix('/')
}

/// The relative path conditional globs see: `None` when Claude Code would never match it
/// (empty, starting with `..`, or not below `base` at all).
fn relative_for_globs<'t>(base: &str, target: &'t str) -> Option<&'t str> {
    relative_within(base, target).filter(|rel| !rel.is_empty() && !rel.starts_with(".."))
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn nested_dirs_string_prefix_quirk() {
        assert_eq!(
            nested_dirs("/a/bc/x/f.ts", "/a/b", true),
            vec!["/a/bc", "/a/bc/x"]
        );
        assert!(nested_dirs("/a/bc/x/f.ts", "/a/b", false).is_empty());
        assert_eq!(
            nested_dirs("/a/b/x/y/f.ts", "/a/b", false),
            vec!["/a/b/x", "/a/b/x/y"]
        );
        assert!(nested_dirs("/a/b/f.ts", "/a/b", true).is_empty());
    }

    #[test]
    fn cwd_level_dirs_run_from_the_root_down_without_it() {
        assert_eq!(cwd_level_dirs("/a/b"), vec!["/a", "/a/b"]);
        assert!(cwd_level_dirs("/").is_empty());
    }

    #[test]
    fn relative_paths_for_globs() {
        assert_eq!(relative_for_globs("/p", "/p/src/a.ts"), Some("src/a.ts"));
        assert_eq!(relative_for_globs("/p", "/p"), None);
        assert_eq!(relative_for_globs("/p", "/q/a.ts"), None);
        assert_eq!(relative_for_globs("/p", "/pq/a.ts"), None);
        assert_eq!(
            relative_for_globs("/p", "/p/..x/a.ts"),
            None,
            "`..`-prefixed, as Node's"
        );
        assert_eq!(relative_for_globs("/", "/a"), Some("a"));
    }

    #[test]
    fn dirname_and_join() {
        assert_eq!(dirname("/a/b"), "/a");
        assert_eq!(dirname("/a"), "/");
        assert_eq!(dirname("/"), "/");
        assert_eq!(join("/", "a"), "/a");
        assert_eq!(join("/a", "b"), "/a/b");
        assert_eq!(normalize_dir("/a/b/"), "/a/b");
        assert_eq!(normalize_dir("/"), "/");
    }
}
