//! The workspace a session works in: the virtual FS, the deny rules, the read-file state,
//! the memory roots and what nested memory loaded, the pass's work budget, and the agent's
//! Read, Edit, Write, Grep and Glob tools over them (spec claude-code.md §2–4, §8.1).
//!
//! It decides nothing about attachments: the collectors read and update it, and the session
//! owns it. Paths may be absolute, relative to the cwd, or `~/…`, and are confined to the
//! virtual root.

mod file_search;
mod line_pattern;
mod mention_search;
mod tools;

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use crate::deny::{DenyRules, DenyRulesSwitches, Roots, RuleSource, RuleSpec};
use crate::file_state::{FileStateCache, FileStateRules};
use crate::memory::{LoadedMemory, MemoryRoots, MemoryRules, MemorySource};
use crate::path::{expand_path, ExpandRules};
use crate::read::ReadRules;
use crate::vfs::{Content, DirEntry, EntryKind, FsError, FsErrorKind, Stat, TransientError, Vfs};
use crate::Error;

pub use file_search::GrepOutputMode;
pub(crate) use tools::{ReadFailure, TextFileRead};
pub use tools::{ToolResult, FILE_UNCHANGED_STUB};

/// Directories walked below the memory directory at most (a bound on the scan's work).
const MAX_MEMORY_DIRS: usize = 256;

/// A memory file: absolute path, text, mtime.
pub type MemoryFileText = (String, Rc<str>, u64);

/// The profile's rules the workspace obeys, copied out of it once.
#[derive(Debug, Clone, PartialEq)]
pub struct WorkspaceRules {
    /// How paths expand (§2.1).
    pub paths: ExpandRules,
    /// The deny rules' switches (§2).
    pub deny: DenyRulesSwitches,
    /// The Read tool's limits (§3).
    pub read: ReadRules,
    /// The read-file state's limits and switches (§4).
    pub file_state: FileStateRules,
    /// Memory discovery (§8).
    pub memory: MemoryRules,
    /// Edit and Write refuse a path the Read deny rules cover.
    pub refuse_writes_to_denied_files: bool,
}

/// Where the workspace is and who may read what in it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WorkspaceOptions<'a> {
    /// The working directory (absolute); it is created in the virtual FS.
    pub cwd: &'a str,
    /// The user's home (absolute).
    pub home: &'a str,
    /// `permissions.deny` rule texts (project settings), reported as `config.deny`.
    pub deny: &'a [String],
    /// Further directories the agent works in.
    pub additional_directories: &'a [String],
}

/// One row of the read-file state, as a table shows it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct FileStateRow {
    /// The key: an absolute path.
    pub path: String,
    /// The stored timestamp (the file's mtime when read or written).
    pub timestamp: u64,
    /// The stored offset (Claude Code stores 1 for a full Read, Q25).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub offset: Option<u64>,
    /// The stored limit.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub limit: Option<u64>,
    /// UTF-8 bytes of the stored content.
    pub bytes: u64,
    /// The model saw a transformed text (a memory file with frontmatter or comments).
    pub partial_view: bool,
}

/// The files, rules and file-derived state of one session.
#[derive(Debug, Clone)]
pub struct Workspace {
    pub(crate) rules: WorkspaceRules,
    pub(crate) cwd: String,
    pub(crate) home: String,
    pub(crate) vfs: Vfs,
    pub(crate) file_state: FileStateCache,
    pub(crate) deny: DenyRules,
    pub(crate) memory_roots: MemoryRoots,
    pub(crate) loaded_memory: LoadedMemory,
    /// Paths the Read tool touched since the last attachment pass (§8.1), in order.
    pub(crate) memory_triggers: Vec<String>,
    /// The last stamp nested memory got: its millisecond and its order within it (see
    /// `Entry::stamp_order`).
    pub(crate) memory_stamp: Option<(u64, u32)>,
    /// Files the agent's own Edit and Write changed.
    pub(crate) edited: BTreeSet<String>,
    /// Work units left in the current pass (§7.2's deadline as a budget).
    pub(crate) work_left: u64,
    /// The `@` search's walk and the workspace generation it was made at.
    pub(crate) search_cache: Option<(u64, Vec<crate::search::Candidate>)>,
}

impl Workspace {
    /// Validates the paths and rules, creates cwd and home.
    ///
    /// # Errors
    /// A cwd or home that is not absolute or escapes the root, or a malformed deny rule.
    pub fn new(options: &WorkspaceOptions<'_>, rules: WorkspaceRules) -> Result<Workspace, Error> {
        let cwd = absolute_dir(options.cwd, "working directory (cwd)", &rules.paths)?;
        let home = absolute_dir(options.home, "home directory (home)", &rules.paths)?;
        let specs: Vec<RuleSpec> = (options.deny.iter())
            .map(|text| RuleSpec::new(text, RuleSource::ProjectSettings))
            .collect();
        let additional_dirs = (options.additional_directories.iter())
            .map(|dir| expand_path(dir, &cwd, &home, &rules.paths))
            .collect::<Result<Vec<String>, Error>>()?;
        let mut roots = Roots::new(&cwd, &home);
        roots.additional_directories = additional_dirs.clone();
        // The rules are the session's `config.deny`; the error names them so.
        let deny = DenyRules::new(&specs, &roots, &rules.deny).map_err(|error| match error {
            Error::InvalidConfig { field, reason } => Error::InvalidConfig {
                field: field.replacen("permissions.deny", "config.deny", 1),
                reason,
            },
            other => other,
        })?;
        let mut vfs = Vfs::new();
        for dir in [&cwd, &home] {
            vfs.mkdir(dir, 0).map_err(fs_error)?;
        }
        let mut memory_roots = MemoryRoots::new(&cwd);
        memory_roots.home = Some(home.clone());
        memory_roots.additional_dirs = additional_dirs;
        Ok(Workspace {
            file_state: FileStateCache::new(rules.file_state),
            rules,
            cwd,
            home,
            vfs,
            deny,
            memory_roots,
            loaded_memory: LoadedMemory::default(),
            memory_triggers: Vec::new(),
            memory_stamp: None,
            edited: BTreeSet::new(),
            work_left: 0,
            search_cache: None,
        })
    }

    /// The working directory.
    pub fn cwd(&self) -> &str {
        &self.cwd
    }

    /// The plan file's absolute path: the `configured` one, expanded, or
    /// `~/.claude/plans/plan.md` when none is configured or it cannot be expanded.
    pub fn plan_file(&self, configured: Option<&str>) -> String {
        (configured.and_then(|path| self.expand(path).ok()))
            .unwrap_or_else(|| format!("{}/.claude/plans/plan.md", self.home.trim_end_matches('/')))
    }

    /// Where the skill `name` keeps its `SKILL.md` (the project's `.claude/skills`).
    pub fn skill_path(&self, name: &str) -> String {
        format!(
            "{}/.claude/skills/{name}/SKILL.md",
            self.cwd.trim_end_matches('/')
        )
    }

    /// Expands a path as the original's `expandPath` (§2.1), confined to the root.
    ///
    /// # Errors
    /// NUL, a `..` above the root, a leading `//`.
    pub fn expand(&self, path: &str) -> Result<String, Error> {
        expand_path(path, &self.cwd, &self.home, &self.rules.paths)
    }

    /// The deny rule covering `path` as the IDE spells it (`~/x`, relative): expanded as
    /// every other path is, so no spelling slips past a rule; a path that cannot be expanded
    /// is checked as given.
    pub fn denial_rule(&self, path: &str) -> Option<String> {
        let abs = self.expand(path).unwrap_or_else(|_| path.into());
        self.deny.check(&abs, &self.cwd).map(|denial| denial.rule)
    }

    /// Creates or overwrites a file (an edit outside the agent: an IDE, the user, a tool).
    ///
    /// # Errors
    /// A bad path, or the path is a directory.
    pub fn write_file(&mut self, path: &str, content: Content, mtime_ms: u64) -> Result<(), Error> {
        let abs = self.expand(path)?;
        self.vfs
            .write_file(&abs, content, mtime_ms)
            .map_err(fs_error)
    }

    /// Deletes a file or an empty directory.
    ///
    /// # Errors
    /// A bad path, a missing file, a non-empty directory.
    pub fn delete_file(&mut self, path: &str, at_ms: u64) -> Result<(), Error> {
        let abs = self.expand(path)?;
        self.vfs.delete(&abs, at_ms).map_err(fs_error)
    }

    /// Renames a file or directory (an atomic-save editor's last step).
    ///
    /// # Errors
    /// Bad paths, or what POSIX `rename` refuses.
    pub fn rename(&mut self, from: &str, to: &str, at_ms: u64) -> Result<(), Error> {
        let (from, to) = (self.expand(from)?, self.expand(to)?);
        self.vfs.rename(&from, &to, at_ms).map_err(fs_error)
    }

    /// Creates a directory and its parents.
    ///
    /// # Errors
    /// A bad path, or a file in the way.
    pub fn mkdir(&mut self, path: &str, at_ms: u64) -> Result<(), Error> {
        let abs = self.expand(path)?;
        self.vfs.mkdir(&abs, at_ms).map_err(fs_error)
    }

    /// Makes reads of `path` fail (EACCES, EBUSY) until cleared with `None`.
    ///
    /// # Errors
    /// A bad path, or an empty one: it would expand to the working directory and fail
    /// every later look inside it, which no host means by "no path".
    pub fn set_transient_error(
        &mut self,
        path: &str,
        kind: Option<TransientError>,
    ) -> Result<(), Error> {
        if path.is_empty() {
            return Err(Error::InvalidPath {
                path: String::new(),
                reason: "is empty: name the file or directory whose reads should fail (the \
                         working directory is \".\")"
                    .into(),
            });
        }
        let abs = self.expand(path)?;
        self.vfs.set_transient_error(&abs, kind).map_err(fs_error)
    }

    /// The entries of a directory, in byte order.
    ///
    /// # Errors
    /// A bad path, a missing directory, a transient error.
    pub fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, Error> {
        let abs = self.expand(path)?;
        self.vfs.list_dir(&abs).map_err(fs_error)
    }

    /// Kind, size and mtime of a path.
    ///
    /// # Errors
    /// A bad path, a missing file, a transient error.
    pub fn stat(&self, path: &str) -> Result<Stat, Error> {
        let abs = self.expand(path)?;
        self.vfs.stat(&abs).map_err(fs_error)
    }

    /// A file's text as an editor shows it; `None` for binary contents.
    ///
    /// # Errors
    /// A bad path, a missing file, a directory, a transient error.
    pub fn read_file_text(&self, path: &str) -> Result<Option<String>, Error> {
        let abs = self.expand(path)?;
        let content = self.vfs.read(&abs).map_err(fs_error)?;
        Ok(content.as_text().map(String::from))
    }

    /// The read-file state, most recently used first.
    pub fn file_state_rows(&self) -> Vec<FileStateRow> {
        self.file_state
            .entries()
            .map(|(path, entry)| FileStateRow {
                path: path.to_string(),
                timestamp: entry.timestamp,
                offset: entry.offset,
                limit: entry.limit,
                bytes: entry.content.len() as u64,
                partial_view: entry.is_partial_view,
            })
            .collect()
    }

    /// The read-file state's keys, timestamps and stamp orders, most recently used first.
    pub(crate) fn file_state_entries(&self) -> Vec<(String, u64, u32)> {
        self.file_state
            .entries()
            .map(|(key, entry)| (String::from(key), entry.timestamp, entry.stamp_order))
            .collect()
    }

    /// The nested-memory paths loaded so far.
    pub(crate) fn loaded_memory_paths(&self) -> Vec<String> {
        self.loaded_memory.paths().map(String::from).collect()
    }

    /// Whether `abs` is a file (not a directory, not missing).
    pub(crate) fn is_file(&self, abs: &str) -> bool {
        matches!(self.vfs.stat(abs), Ok(stat) if stat.kind == EntryKind::File)
    }

    /// Bytes of file contents the virtual FS holds.
    pub fn total_bytes(&self) -> u64 {
        self.vfs.total_bytes()
    }

    /// Registers a path whose directories' nested memory the next pass loads (§8.1).
    pub(crate) fn add_memory_trigger(&mut self, abs: &str) {
        if !self.memory_triggers.iter().any(|known| known == abs) {
            self.memory_triggers.push(abs.into());
        }
    }

    /// Starts a pass's work budget.
    pub(crate) fn start_pass(&mut self, work_budget: u64) {
        self.work_left = work_budget;
    }

    /// Spends `units` of the pass's work budget; when it cannot cover them the budget is
    /// spent out and the work must be cancelled (`false`).
    pub(crate) fn take_work(&mut self, units: u64) -> bool {
        if units > self.work_left {
            self.work_left = 0;
            return false;
        }
        self.work_left -= units;
        true
    }

    /// The pass's work budget ran out.
    pub(crate) fn out_of_work(&self) -> bool {
        self.work_left == 0
    }

    /// The virtual FS as a memory source.
    pub(crate) fn memory_source(&self) -> VfsMemory<'_> {
        VfsMemory(&self.vfs)
    }

    /// The `.md` files below the memory directory `dir`. A missing directory has none; one
    /// that cannot be listed or expanded is an error saying why.
    pub(crate) fn memory_candidates(&self, dir: &str) -> Result<Vec<MemoryFileText>, String> {
        let root = self
            .expand(dir)
            .map_err(|error| format!("the memory directory is unusable: {error}"))?;
        let mut files = Vec::new();
        let mut pending = Vec::from([root]);
        let mut walked = 0;
        while let Some(dir) = pending.pop() {
            walked += 1;
            if walked > MAX_MEMORY_DIRS {
                break;
            }
            let entries = match self.vfs.list_dir(&dir) {
                Ok(entries) => entries,
                Err(error) if error.kind == FsErrorKind::NotFound => continue,
                Err(error) => {
                    return Err(format!("the memory directory could not be listed: {error}"))
                }
            };
            for entry in entries {
                let path = format!("{}/{}", dir.trim_end_matches('/'), entry.name);
                match entry.kind {
                    EntryKind::Directory => pending.push(path),
                    EntryKind::File if entry.name.ends_with(".md") => {
                        if let (Ok(Content::Text(text)), Ok(stat)) =
                            (self.vfs.read(&path), self.vfs.stat(&path))
                        {
                            files.push((path, text, stat.mtime_ms));
                        }
                    }
                    EntryKind::File => {}
                }
            }
        }
        Ok(files)
    }
}

/// The virtual FS as nested memory reads it.
pub(crate) struct VfsMemory<'a>(pub(crate) &'a Vfs);

impl MemorySource for VfsMemory<'_> {
    fn read_text(&self, abs_path: &str) -> Option<Rc<str>> {
        match self.0.read(abs_path) {
            Ok(Content::Text(text)) => Some(text),
            _ => None,
        }
    }

    fn list_dir(&self, abs_dir: &str) -> Vec<(String, bool)> {
        self.0
            .list_dir(abs_dir)
            .map(|entries| {
                entries
                    .into_iter()
                    .map(|e| (e.name, e.kind == EntryKind::Directory))
                    .collect()
            })
            .unwrap_or_default()
    }
}

/// A directory the workspace is configured with: absolute, confined to the root.
fn absolute_dir(path: &str, what: &str, rules: &ExpandRules) -> Result<String, Error> {
    if !path.trim().starts_with('/') {
        return Err(Error::InvalidPath {
            path: path.into(),
            reason: format!("the {what} must be an absolute path, such as /project"),
        });
    }
    expand_path(path, "/", "/", rules).map_err(|error| match error {
        Error::InvalidPath { path, reason } => Error::InvalidPath {
            path,
            reason: format!("the {what}: {reason}"),
        },
        other => other,
    })
}

/// A file-system failure as the crate's error (for the caller's own FS operations).
pub(crate) fn fs_error(error: FsError) -> Error {
    Error::FileSystem {
        code: error.code(),
        message: error.to_string(),
    }
}
