//! Nested memory: which `CLAUDE.md` and `.claude/rules` files load lazily when the agent
//! reads a file (spec claude-code.md §8), and how they are shown to the model.
//!
//! [`nested_memory`] takes one target (a file the agent Read) and returns the memory files
//! it brings in, in order, each with why it loaded ([`LoadReason`]), and a [`MemorySkip`]
//! with a [`SkipReason`] for every file it considered and did not load. Files are read
//! through [`MemorySource`], so the module does not depend on the virtual file system.
//!
//! # Order for one target
//!
//! 1. Managed and user conditional rules (`<managed>/.claude/rules`, `~/.claude/rules`),
//!    matched relative to the original cwd.
//! 2. Each directory from the original cwd (excluded) down to the target's directory:
//!    `CLAUDE.md`, `.claude/CLAUDE.md`, `CLAUDE.local.md`, the unconditional rules of
//!    `.claude/rules/**/*.md`, then its conditional rules matching the target relative to
//!    that directory.
//! 3. The original cwd and its ancestors (the root excluded), root first: their
//!    conditional rules only.
//!
//! Each file is followed by the files it `@include`s (depth below [`MAX_INCLUDE_DEPTH`],
//! cycles cut). Within one target a path loads once; across targets and turns,
//! [`LoadedMemory`] and the read-file state keep a file from loading twice.
//!
//! # Switches
//!
//! | switch | claude-code | recommended |
//! |---|---|---|
//! | [`MemoryRules::string_prefix_dirs`] (Q53) | `/a/bc` counts as inside `/a/b` | path components compared |
//! | [`MemoryRules::trigger_on_writes`] (Q54) | only Read triggers | Edit and Write trigger too (read by the session) |
//! | [`MemoryRules::suppress_on_partial_view`] (Q55) | any file-state entry suppresses | only a full view does |
//! | [`MemoryRules::render_like_eager`] (Q56) | `Contents of {path}:` + content as is | type described, content trimmed |
//! | [`MemoryRules::nested_stamped_with_mtime`] (2.1.332) | stamped when loaded | stamped when loaded (the restore ranks by last access) |
//!
//! Not done here: deny rules are not applied to memory files in Claude Code (Q15); the
//! session decides that. Rules globs are matched by the shared gitignore matcher,
//! [`crate::deny::gitignore`].
//!
//! # Example
//! ```
//! use std::collections::BTreeMap;
//! use std::rc::Rc;
//! use context_assembly::memory::*;
//!
//! struct Files(BTreeMap<String, Rc<str>>);
//! impl MemorySource for Files {
//!     fn read_text(&self, path: &str) -> Option<Rc<str>> { self.0.get(path).cloned() }
//!     fn list_dir(&self, _dir: &str) -> Vec<(String, bool)> { Vec::new() }
//! }
//! let files = Files(BTreeMap::from([
//!     ("/p/src/CLAUDE.md".to_string(), Rc::from("<!-- for maintainers -->\nUse tabs.\n")),
//! ]));
//! let roots = MemoryRoots::new("/p");
//! let rules = MemoryRules::claude_code();
//! let mut loaded = LoadedMemory::default();
//! let none = |_: &str| StateView::Absent;
//! let first = nested_memory("/p/src/main.rs", &roots, &files, &rules, &mut loaded, &none);
//! assert_eq!(first.files[0].content, "Use tabs.\n");
//! assert!(first.files[0].content_differs_from_disk); // the entry is a partial view
//! assert_eq!(render_nested(&first.files[0], &rules), "Contents of /p/src/CLAUDE.md:\n\nUse tabs.\n");
//! // Reading a second file in the same directory loads nothing new, and says why.
//! let second = nested_memory("/p/src/lib.rs", &roots, &files, &rules, &mut loaded, &none);
//! assert!(second.files.is_empty());
//! assert_eq!(second.skipped[0].reason, SkipReason::AlreadyLoaded);
//! ```

mod content;
mod discovery;
mod eager;
mod frontmatter;
mod index;

use alloc::collections::BTreeSet;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use crate::wording::memory::{
    memory_contents, LOCAL_INSTRUCTIONS, MANAGED_INSTRUCTIONS, PROJECT_INSTRUCTIONS,
    USER_INSTRUCTIONS,
};

pub use eager::{eager_memory, render_claude_md};
/// Redaction (scenario, behind `serde`) splits memory files as the loader does.
#[cfg(feature = "serde")]
pub(crate) use frontmatter::split_frontmatter;
pub use frontmatter::MAX_PATH_PATTERNS;
pub use index::{truncate_memory_index, IndexTruncation, MAX_INDEX_LINES, MAX_INDEX_UNITS};

/// Deepest `@include` level: a file included at this depth is skipped
/// (`MAX_INCLUDE_DEPTH`; the file a directory holds is depth 0).
pub const MAX_INCLUDE_DEPTH: usize = 5;

/// Where memory files are read from. Paths are absolute and normalised.
pub trait MemorySource {
    /// The text of the file at `abs_path`; `None` when there is no such readable text file.
    fn read_text(&self, abs_path: &str) -> Option<Rc<str>>;
    /// The entries of the directory `abs_dir` as `(name, is_dir)`, empty when there is no
    /// such directory. Any order: they are sorted by byte order here.
    fn list_dir(&self, abs_dir: &str) -> Vec<(String, bool)>;
}

/// The directories discovery starts from.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct MemoryRoots {
    /// The cwd the session started in (absolute).
    pub original_cwd: String,
    /// Further directories the agent may work in; a target in one of them is walked too.
    pub additional_dirs: Vec<String>,
    /// The user's home: `~/.claude/rules` and `@~/` includes. `None`: no user rules.
    pub home: Option<String>,
    /// The managed-settings directory whose `.claude/rules` hold managed rules.
    pub managed_dir: Option<String>,
}

impl MemoryRoots {
    /// Roots with only the original cwd.
    pub fn new(original_cwd: &str) -> MemoryRoots {
        MemoryRoots {
            original_cwd: original_cwd.into(),
            ..MemoryRoots::default()
        }
    }
}

/// What kind of memory a file is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum MemoryKind {
    /// `CLAUDE.md` or `.claude/CLAUDE.md`, checked into the project.
    Project,
    /// `CLAUDE.local.md`, the user's private file for the project.
    Local,
    /// An unconditional `.claude/rules/**/*.md` file.
    ProjectRule,
    /// A project rule with `paths:` globs that match the target.
    ConditionalRule,
    /// A managed (organisation) conditional rule.
    Managed,
    /// A conditional rule of the user's `~/.claude/rules`.
    User,
}

/// Why a file loaded (`load_reason` of Claude Code's `InstructionsLoaded` hook).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum LoadReason {
    /// A directory on the way from the cwd to the target holds it.
    NestedTraversal,
    /// Its `paths:` globs match the target.
    PathGlobMatch,
    /// Another memory file `@include`s it.
    Include,
}

impl LoadReason {
    /// The hook's spelling: `nested_traversal`, `path_glob_match`, `include`.
    pub const fn as_str(self) -> &'static str {
        match self {
            LoadReason::NestedTraversal => "nested_traversal",
            LoadReason::PathGlobMatch => "path_glob_match",
            LoadReason::Include => "include",
        }
    }
}

/// Why a considered file was not loaded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SkipReason {
    /// The target is outside the original cwd and the additional directories.
    TargetOutsideWorkingDirs,
    /// Loaded on an earlier call since the last compaction.
    AlreadyLoaded,
    /// The read-file state already holds it (Q55 decides whether a partial view counts).
    AlreadyInFileState,
    /// Already taken for this target (another include of it, or found twice).
    AlreadyProcessed,
    /// It includes itself through a chain of includes.
    IncludeCycle,
    /// Included at depth [`MAX_INCLUDE_DEPTH`] or deeper.
    IncludeTooDeep,
    /// An include outside the original cwd from a project file (`includeExternal = false`).
    IncludeOutsideCwd,
    /// An `@~/` include with no home directory known.
    IncludeUnresolvable,
    /// Referenced or listed, but not readable as text.
    NotFound,
    /// Its extension is not a text format.
    NonTextExtension,
    /// Nothing but whitespace after the transforms.
    Empty,
    /// A conditional rule whose `paths:` globs do not match the target.
    PathsNotMatched,
    /// A rules directory too deep or too large to walk whole.
    RulesWalkLimit,
}

impl SkipReason {
    /// A stable snake_case name for decisions and tests.
    pub const fn as_str(self) -> &'static str {
        match self {
            SkipReason::TargetOutsideWorkingDirs => "target_outside_working_dirs",
            SkipReason::AlreadyLoaded => "already_loaded",
            SkipReason::AlreadyInFileState => "already_in_file_state",
            SkipReason::AlreadyProcessed => "already_processed",
            SkipReason::IncludeCycle => "include_cycle",
            SkipReason::IncludeTooDeep => "include_too_deep",
            SkipReason::IncludeOutsideCwd => "include_outside_cwd",
            SkipReason::IncludeUnresolvable => "include_unresolvable",
            SkipReason::NotFound => "not_found",
            SkipReason::NonTextExtension => "non_text_extension",
            SkipReason::Empty => "empty",
            SkipReason::PathsNotMatched => "paths_not_matched",
            SkipReason::RulesWalkLimit => "rules_walk_limit",
        }
    }
}

/// A considered file that did not load, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct MemorySkip {
    /// The file (or, for [`SkipReason::TargetOutsideWorkingDirs`], the target).
    pub path: String,
    /// Why it did not load.
    pub reason: SkipReason,
}

/// A memory file to inject.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryFile {
    /// Absolute, normalised path.
    pub path: String,
    /// The path relative to the original cwd, when it is inside it.
    pub display_path: Option<String>,
    /// What kind of memory it is (an include takes its includer's kind).
    pub kind: MemoryKind,
    /// Why it loaded.
    pub reason: LoadReason,
    /// The text the model sees: frontmatter and block comments removed.
    pub content: String,
    /// The text on disk, shared with the file system.
    pub raw: Rc<str>,
    /// `content != raw`: the read-file-state entry is a partial view (spec §4.3).
    pub content_differs_from_disk: bool,
    /// 0 for a file found in a directory, n for one reached through n includes.
    pub include_depth: usize,
    /// The file that includes it.
    pub included_by: Option<String>,
    /// The step of the nested walk that found it: 0 for the managed and user rules, then one
    /// per directory from the cwd down to the target, then one per cwd-level rules
    /// directory; an include takes its includer's step. Claude Code stamps each step's files
    /// with its own `Date.now()` once the step's awaited reads are done, so a later step is
    /// usually newer (§8). Eager memory is read in one step: 0.
    pub walk_step: usize,
}

/// What one target brought in.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct NestedMemory {
    /// Files to inject, in order.
    pub files: Vec<MemoryFile>,
    /// Files considered and not loaded, in the order they were considered.
    pub skipped: Vec<MemorySkip>,
}

/// What the read-file state holds for a path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum StateView {
    /// No entry.
    Absent,
    /// An entry for part of the file (a ranged Read).
    Partial,
    /// An entry for what the model would be shown: a full Read, a write, or an earlier
    /// memory injection.
    Full,
}

/// Paths injected as nested memory since the last compaction (`loadedNestedMemoryPaths`).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LoadedMemory {
    paths: BTreeSet<String>,
}

impl LoadedMemory {
    /// Whether `path` was injected since the last [`clear`](Self::clear).
    pub fn contains(&self, path: &str) -> bool {
        self.paths.contains(path)
    }

    /// Records an injection; [`nested_memory`] does this for what it returns.
    pub fn insert(&mut self, path: &str) {
        self.paths.insert(path.into());
    }

    /// The paths recorded, in byte order.
    pub fn paths(&self) -> impl Iterator<Item = &str> {
        self.paths.iter().map(String::as_str)
    }

    /// Forgets everything: after compaction or `/clear`.
    pub fn clear(&mut self) {
        self.paths.clear();
    }

    /// How many paths are recorded.
    pub fn len(&self) -> usize {
        self.paths.len()
    }

    /// Whether nothing is recorded.
    pub fn is_empty(&self) -> bool {
        self.paths.is_empty()
    }
}

crate::switch::with_switches! {
    /// The switches of nested memory.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    #[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
    pub struct MemoryRules {
        /// Q53: a directory counts as under the cwd when its path merely starts with the
        /// cwd's (`/a/bc` under `/a/b`); off, path components are compared.
        pub string_prefix_dirs: bool,
        /// Q54: Edit and Write trigger nested memory like Read (the original: only Read).
        /// Read by the session, which decides what a trigger is.
        pub trigger_on_writes: bool,
        /// Q55: any read-file-state entry, a ranged Read's included, suppresses a memory
        /// file; off, only a [`StateView::Full`] entry does.
        pub suppress_on_partial_view: bool,
        /// Q56: render like the eager memory (the type described, content trimmed); off,
        /// the original's nested form (path line only, content untrimmed).
        pub render_like_eager: bool,
        /// A nested memory file enters the read-file state stamped with its mtime, as a Read
        /// does (Claude Code 2.1.332); off, with the moment it was loaded (2.1.88, §9.4 step 3).
        /// The post-compact restore ranks by that stamp, so on, a rules file written long ago
        /// ranks below the files the session read or edited since. Read by the session.
        pub nested_stamped_with_mtime: bool,
    }
}

impl MemoryRules {
    /// Claude Code's behaviour, quirks included.
    pub const fn claude_code() -> MemoryRules {
        MemoryRules {
            string_prefix_dirs: true,
            trigger_on_writes: false,
            suppress_on_partial_view: true,
            render_like_eager: false,
            nested_stamped_with_mtime: false,
        }
    }

    /// Every fix on.
    pub const fn recommended() -> MemoryRules {
        MemoryRules {
            string_prefix_dirs: false,
            trigger_on_writes: true,
            suppress_on_partial_view: false,
            render_like_eager: true,
            nested_stamped_with_mtime: false,
        }
    }
}

/// Discovers the memory files one target brings in (spec §8.2), before any cross-call
/// de-duplication: what `nested_memory` filters.
///
/// # Example
/// ```
/// use std::rc::Rc;
/// use context_assembly::memory::*;
/// struct Nothing;
/// impl MemorySource for Nothing {
///     fn read_text(&self, _: &str) -> Option<Rc<str>> { None }
///     fn list_dir(&self, _: &str) -> Vec<(String, bool)> { Vec::new() }
/// }
/// // A target outside every working directory brings nothing, and says so.
/// let found = discover("/elsewhere/a.rs", &MemoryRoots::new("/p"), &Nothing, &MemoryRules::claude_code());
/// assert_eq!(found.skipped[0].reason, SkipReason::TargetOutsideWorkingDirs);
/// ```
pub fn discover(
    target: &str,
    roots: &MemoryRoots,
    source: &dyn MemorySource,
    rules: &MemoryRules,
) -> NestedMemory {
    discovery::discover(target, roots, source, rules)
}

/// The nested memory `target` brings in on this call (spec §8.2–8.3): discovery, then
/// files already in `loaded` or in the read-file state (`file_state`, under Q55) are
/// skipped, and the rest recorded in `loaded`. The caller writes each returned file into
/// the read-file state (`raw`, partial view when `content_differs_from_disk`).
/// A relative target is taken relative to the original cwd.
///
/// # Example
/// ```
/// use std::rc::Rc;
/// use context_assembly::memory::*;
/// struct One;
/// impl MemorySource for One {
///     fn read_text(&self, p: &str) -> Option<Rc<str>> { (p == "/p/d/CLAUDE.md").then(|| Rc::from("x")) }
///     fn list_dir(&self, _: &str) -> Vec<(String, bool)> { Vec::new() }
/// }
/// let roots = MemoryRoots::new("/p");
/// // The model Read lines 1-10 of the CLAUDE.md: the original skips it anyway (Q55).
/// let ranged = |p: &str| if p == "/p/d/CLAUDE.md" { StateView::Partial } else { StateView::Absent };
/// let quirk = nested_memory("/p/d/a.rs", &roots, &One, &MemoryRules::claude_code(), &mut LoadedMemory::default(), &ranged);
/// assert_eq!(quirk.skipped[0].reason, SkipReason::AlreadyInFileState);
/// let fixed = nested_memory("/p/d/a.rs", &roots, &One, &MemoryRules::recommended(), &mut LoadedMemory::default(), &ranged);
/// assert_eq!(fixed.files.len(), 1);
/// ```
pub fn nested_memory(
    target: &str,
    roots: &MemoryRoots,
    source: &dyn MemorySource,
    rules: &MemoryRules,
    loaded: &mut LoadedMemory,
    file_state: &dyn Fn(&str) -> StateView,
) -> NestedMemory {
    let found = discover(target, roots, source, rules);
    let mut out = NestedMemory {
        files: Vec::with_capacity(found.files.len()),
        skipped: found.skipped,
    };
    for file in found.files {
        let in_state = match file_state(&file.path) {
            StateView::Absent => false,
            StateView::Partial => rules.suppress_on_partial_view,
            StateView::Full => true,
        };
        let reason = if loaded.contains(&file.path) {
            Some(SkipReason::AlreadyLoaded)
        } else if in_state {
            Some(SkipReason::AlreadyInFileState)
        } else {
            None
        };
        match reason {
            Some(reason) => out.skipped.push(MemorySkip {
                path: file.path,
                reason,
            }),
            None => {
                loaded.insert(&file.path);
                out.files.push(file);
            }
        }
    }
    out
}

/// The text of a `nested_memory` attachment, without the `<system-reminder>` wrapper
/// (spec §8.6): `Contents of {path}:\n\n{content}`; under Q56's fix, like the eager form:
/// the path line says what kind of instructions these are and the content is trimmed.
///
/// # Example
/// ```
/// use std::rc::Rc;
/// use context_assembly::memory::*;
/// let file = MemoryFile {
///     path: "/p/CLAUDE.local.md".into(), display_path: Some("CLAUDE.local.md".into()),
///     kind: MemoryKind::Local, reason: LoadReason::NestedTraversal,
///     content: "\nMine.\n".into(), raw: Rc::from("\nMine.\n"),
///     content_differs_from_disk: false, include_depth: 0, included_by: None, walk_step: 0,
/// };
/// assert_eq!(render_nested(&file, &MemoryRules::claude_code()), "Contents of /p/CLAUDE.local.md:\n\n\nMine.\n");
/// assert_eq!(
///     render_nested(&file, &MemoryRules::recommended()),
///     "Contents of /p/CLAUDE.local.md (the user's private instructions for this project, not checked in):\n\nMine."
/// );
/// ```
pub fn render_nested(file: &MemoryFile, rules: &MemoryRules) -> String {
    if rules.render_like_eager {
        let content = file.content.trim_matches(crate::js::is_whitespace);
        memory_contents(&file.path, Some(kind_description(file.kind)), content)
    } else {
        memory_contents(&file.path, None, &file.content)
    }
}

/// What each kind of memory is, for the eager-style path line.
fn kind_description(kind: MemoryKind) -> &'static str {
    match kind {
        MemoryKind::Project | MemoryKind::ProjectRule | MemoryKind::ConditionalRule => {
            PROJECT_INSTRUCTIONS
        }
        MemoryKind::Local => LOCAL_INSTRUCTIONS,
        MemoryKind::User => USER_INSTRUCTIONS,
        MemoryKind::Managed => MANAGED_INSTRUCTIONS,
    }
}

#[cfg(test)]
mod tests;
