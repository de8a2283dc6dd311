//! Eager memory: the `CLAUDE.md` hierarchy Claude Code loads at startup and puts into the
//! user context of every request, under `# claudeMd` (spec claude-code.md §7.11, §8.6), and
//! whose files it seeds into the read-file state (§4.4).
//!
//! # Load order
//!
//! 1. Managed (when [`MemoryRoots::managed_dir`] is set): `<managed>/CLAUDE.md`, then the
//!    unconditional rules of `<managed>/.claude/rules/**/*.md`.
//! 2. The user's (when [`MemoryRoots::home`] is set): `~/.claude/CLAUDE.md`, then the
//!    unconditional rules of `~/.claude/rules/**/*.md`.
//! 3. Each directory from the top down to the original cwd, the filesystem root itself
//!    excluded (Claude Code's walk stops below `/`, as `cwdLevelDirs` does in §8.2):
//!    `CLAUDE.md`, `.claude/CLAUDE.md`, the unconditional rules of
//!    `.claude/rules/**/*.md`, then `CLAUDE.local.md`. Note the order differs from nested
//!    memory, which puts `CLAUDE.local.md` before the rules.
//! 4. Each additional directory, in the order given, the same four entries (only the
//!    directory itself, not its ancestors). Claude Code does this only when
//!    `CLAUDE_CODE_ADDITIONAL_DIRECTORIES_CLAUDE_MD` is set: a host modelling it unset
//!    passes roots without additional directories.
//!
//! Each file is followed by what it `@include`s, with the include rules of nested memory
//! ([`MAX_INCLUDE_DEPTH`](super::MAX_INCLUDE_DEPTH), cycles cut, a path loads once per
//! load). Managed and user files may include files anywhere; project files only inside the
//! original cwd (Claude Code's `includeExternal` before the user approves external
//! includes). Contents go through the same transforms (frontmatter, block HTML comments);
//! a file left empty is skipped with [`SkipReason::Empty`].
//!
//! Conditional rules (`paths:` frontmatter) are not eager: they load with nested memory when
//! the agent reads a matching file, and are listed here as skipped with
//! [`SkipReason::PathsNotMatched`], since no file has been read yet. The auto-memory index
//! (`MEMORY.md`) is not part of this hierarchy.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use super::content::parse_memory;
use super::discovery::{cwd_level_dirs, join, Origin, Roots, Scope, Walk};
use super::{
    render_nested, LoadReason, MemoryFile, MemoryKind, MemoryRoots, MemoryRules, MemorySource,
    NestedMemory,
};
use crate::wording::memory::CLAUDE_MD_PREAMBLE;

/// Loads the eager memory hierarchy: the files in load order (see the [`memory`
/// module](crate::memory)), and every file considered and not loaded with its reason. No switch of
/// `rules` changes the eager load; it is taken so one rules value serves both loads.
///
/// The caller seeds each returned file into the read-file state (`raw`, a partial view when
/// `content_differs_from_disk`, spec §4.4), which is what keeps nested memory from
/// injecting it again.
///
/// # Example
/// ```
/// use std::collections::BTreeMap;
/// use std::rc::Rc;
/// use context_assembly::memory::*;
///
/// struct Files(BTreeMap<&'static str, &'static str>);
/// impl MemorySource for Files {
///     fn read_text(&self, p: &str) -> Option<Rc<str>> { self.0.get(p).map(|t| Rc::from(*t)) }
///     fn list_dir(&self, _: &str) -> Vec<(String, bool)> { Vec::new() }
/// }
/// let files = Files(BTreeMap::from([
///     ("/CLAUDE.md", "Never loaded: the walk stops below the root."),
///     ("/p/CLAUDE.md", "Use tabs.\n@./a.md"),
///     ("/p/a.md", "See @./CLAUDE.md"), // a cycle back to its includer
///     ("/p/CLAUDE.local.md", "<!-- nothing but a comment -->"),
/// ]));
/// let loaded = eager_memory(&MemoryRoots::new("/p"), &files, &MemoryRules::claude_code());
/// let paths: Vec<_> = loaded.files.iter().map(|f| f.path.as_str()).collect();
/// assert_eq!(paths, ["/p/CLAUDE.md", "/p/a.md"]);
/// let skipped: Vec<_> = loaded.skipped.iter().map(|s| (s.path.as_str(), s.reason)).collect();
/// assert_eq!(skipped, [("/p/CLAUDE.md", SkipReason::IncludeCycle), ("/p/CLAUDE.local.md", SkipReason::Empty)]);
/// ```
pub fn eager_memory(
    roots: &MemoryRoots,
    source: &dyn MemorySource,
    _rules: &MemoryRules,
) -> NestedMemory {
    let roots = Roots::new(roots);
    let mut walk = Walk {
        roots: &roots,
        source,
        // No file has been read: no conditional rule can match.
        target: "",
        processed: BTreeSet::new(),
        out: NestedMemory::default(),
        step: 0,
    };
    if let Some(managed) = roots.managed.as_deref() {
        walk.eager_file(
            join(managed, "CLAUDE.md"),
            MemoryKind::Managed,
            Scope::External,
        );
        let rules_dir = join(&join(managed, ".claude"), "rules");
        walk.eager_rules(&rules_dir, MemoryKind::Managed, managed, Scope::External);
    }
    if let Some(home) = roots.home.as_deref() {
        let claude_dir = join(home, ".claude");
        walk.eager_file(
            join(&claude_dir, "CLAUDE.md"),
            MemoryKind::User,
            Scope::External,
        );
        let rules_dir = join(&claude_dir, "rules");
        walk.eager_rules(&rules_dir, MemoryKind::User, home, Scope::External);
    }
    let project_dirs = cwd_level_dirs(&roots.cwd).into_iter();
    for dir in project_dirs.chain(roots.additional.iter().cloned()) {
        walk.eager_dir(&dir);
    }
    walk.out
}

impl Walk<'_> {
    /// One directory of the project hierarchy, in Claude Code's eager order.
    fn eager_dir(&mut self, dir: &str) {
        let claude_dir = join(dir, ".claude");
        self.eager_file(join(dir, "CLAUDE.md"), MemoryKind::Project, Scope::Internal);
        let dot_claude = join(&claude_dir, "CLAUDE.md");
        self.eager_file(dot_claude, MemoryKind::Project, Scope::Internal);
        let rules_dir = join(&claude_dir, "rules");
        self.eager_rules(&rules_dir, MemoryKind::ProjectRule, dir, Scope::Internal);
        let local = join(dir, "CLAUDE.local.md");
        self.eager_file(local, MemoryKind::Local, Scope::Internal);
    }

    /// A file at a fixed place; a missing one is not worth a skip (most directories have
    /// none).
    fn eager_file(&mut self, path: String, kind: MemoryKind, scope: Scope) {
        if let Some(raw) = self.source.read_text(&path) {
            let parsed = parse_memory(&raw);
            let origin = Origin::root(kind, LoadReason::NestedTraversal, scope);
            self.take(path, raw, parsed, origin, &mut Vec::new());
        }
    }

    /// The unconditional rules of a rules directory; the conditional ones are skipped.
    fn eager_rules(&mut self, rules_dir: &str, kind: MemoryKind, base: &str, scope: Scope) {
        self.rules(rules_dir, Some(kind), kind, base, scope);
    }
}

/// The `# claudeMd` section of the user context (spec §7.11, §8.6): `None` when no file has
/// content; otherwise a preamble saying the instructions must be followed, then each file as
/// `Contents of {path} ({kind description}):\n\n{trimmed content}`, all joined with
/// `"\n\n"`. Files with empty content are left out, as Claude Code does.
///
/// # Example
/// ```
/// use std::rc::Rc;
/// use context_assembly::memory::*;
/// assert_eq!(render_claude_md(&[]), None); // no section at all, not an empty one
/// let file = MemoryFile {
///     path: "/p/CLAUDE.md".into(), display_path: Some("CLAUDE.md".into()),
///     kind: MemoryKind::Project, reason: LoadReason::NestedTraversal,
///     content: "\n  Use tabs.\n\n".into(), raw: Rc::from("\n  Use tabs.\n\n"),
///     content_differs_from_disk: false, include_depth: 0, included_by: None, walk_step: 0,
/// };
/// let text = render_claude_md(&[file]).unwrap();
/// assert!(text.ends_with(
///     "\n\nContents of /p/CLAUDE.md (project instructions, kept in the repository):\n\nUse tabs."
/// ));
/// ```
pub fn render_claude_md(files: &[MemoryFile]) -> Option<String> {
    // The eager form is the one Q56's fix gives nested memory: one rendering for both.
    let eager_form = MemoryRules {
        render_like_eager: true,
        ..MemoryRules::claude_code()
    };
    let mut sections = files
        .iter()
        .filter(|file| !file.content.is_empty())
        .map(|file| render_nested(file, &eager_form))
        .peekable();
    sections.peek()?;
    let mut text = String::from(CLAUDE_MD_PREAMBLE);
    for section in sections {
        text.push_str("\n\n");
        text.push_str(&section);
    }
    Some(text)
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::collections::BTreeMap;
    use alloc::rc::Rc;
    use alloc::string::ToString;

    struct Files(BTreeMap<String, Rc<str>>);

    impl MemorySource for Files {
        fn read_text(&self, path: &str) -> Option<Rc<str>> {
            self.0.get(path).cloned()
        }

        fn list_dir(&self, _: &str) -> Vec<(String, bool)> {
            Vec::new()
        }
    }

    #[test]
    fn a_cwd_at_the_root_loads_only_the_user_files() {
        let files = Files(BTreeMap::from([
            ("/CLAUDE.md".to_string(), Rc::from("root")),
            ("/h/.claude/CLAUDE.md".to_string(), Rc::from("mine")),
        ]));
        let roots = MemoryRoots {
            home: Some("/h".into()),
            ..MemoryRoots::new("/")
        };
        let loaded = eager_memory(&roots, &files, &MemoryRules::claude_code());
        assert_eq!(loaded.files.len(), 1);
        assert_eq!(loaded.files[0].kind, MemoryKind::User);
    }

    #[test]
    fn render_skips_empty_contents() {
        let file = MemoryFile {
            path: "/p/CLAUDE.md".into(),
            display_path: None,
            kind: MemoryKind::Project,
            reason: LoadReason::NestedTraversal,
            content: String::new(),
            raw: Rc::from(""),
            content_differs_from_disk: false,
            include_depth: 0,
            included_by: None,
            walk_step: 0,
        };
        assert_eq!(render_claude_md(&[file]), None);
    }
}
