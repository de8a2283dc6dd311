//! The in-memory file system the engine reads: files (text or binary), directories, mtimes
//! given by the caller (never read from a clock), deletes, atomic-save renames, and
//! simulated transient errors.
//!
//! Paths are absolute and canonical, as [`crate::path::expand_path`] returns them; any other
//! spelling is refused with [`FsErrorKind::InvalidPath`], so one file never has two keys.
//! Errors carry Node's codes and messages because the engine branches on them the way the
//! original does (spec claude-code.md §5.1): `ENOENT` evicts a tracked file, `EACCES` and
//! `EBUSY` do not.
//!
//! The store is a tree of directories, each holding its entries in a `BTreeMap` by name,
//! rather than one map keyed by full path: in a flat map a directory's listing is a range
//! over its whole subtree and renaming a directory re-keys every file under it. In the
//! tree a lookup costs O(depth × log width), a listing O(entries listed), and a rename
//! moves the subtree in O(depth), whatever the number of files in the workspace.
//!
//! # Example
//! ```
//! use context_assembly::vfs::{Content, FsErrorKind, TransientError, Vfs};
//! let mut vfs = Vfs::new();
//! vfs.write_file("/p/src/a.ts", Content::from("let a = 1;\n"), 1_000).unwrap();
//! assert_eq!(vfs.stat("/p/src/a.ts").unwrap().mtime_ms, 1_000);
//!
//! // An editor's atomic save: write a temporary file, rename it over the original.
//! vfs.write_file("/p/src/.a.ts.swp", Content::from("let a = 2;\n"), 2_000).unwrap();
//! vfs.set_transient_error("/p/src/a.ts", Some(TransientError::Busy)).unwrap();
//! assert_eq!(vfs.read("/p/src/a.ts").unwrap_err().code(), "EBUSY"); // not ENOENT: keep it
//! vfs.rename("/p/src/.a.ts.swp", "/p/src/a.ts", 2_000).unwrap();
//! vfs.set_transient_error("/p/src/a.ts", None).unwrap();
//! assert_eq!(vfs.read("/p/src/a.ts").unwrap().as_text(), Some("let a = 2;\n"));
//! assert_eq!(vfs.stat("/p/src/a.ts").unwrap().mtime_ms, 2_000);
//! assert_eq!(vfs.stat("p/src").unwrap_err().kind, FsErrorKind::InvalidPath);
//! ```

mod content;
mod error;
mod tree;

#[cfg(test)]
mod tests;

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

pub use content::Content;
pub use error::{FsError, FsErrorKind, Syscall, TransientError};
use tree::{DirNode, Entry, FileNode, Node};

/// Whether a path names a file or a directory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub enum EntryKind {
    /// A regular file.
    File,
    /// A directory.
    Directory,
}

/// What `stat` reports.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Stat {
    /// File or directory.
    pub kind: EntryKind,
    /// The file's size in bytes; 0 for a directory.
    pub size: u64,
    /// The last modification time, as given by the caller.
    pub mtime_ms: u64,
}

/// One entry of a directory listing.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct DirEntry {
    /// The entry's name (one segment, no `/`).
    pub name: String,
    /// File or directory.
    pub kind: EntryKind,
}

/// The in-memory file system. [`Vfs::new`] holds the empty root `/`.
#[derive(Clone)]
pub struct Vfs {
    root: DirNode,
    transient: BTreeMap<String, TransientError>,
    total_bytes: u64,
    /// Bumped by every change to the tree, so that what was derived from it can be reused
    /// until it changes.
    generation: u64,
}

impl Vfs {
    /// A counter bumped by every write, delete, mkdir and rename (even one that fails): equal
    /// generations mean the tree is unchanged.
    ///
    /// ```
    /// use context_assembly::vfs::Vfs;
    /// let mut vfs = Vfs::new();
    /// let before = vfs.generation();
    /// vfs.mkdir("/p", 1).unwrap();
    /// assert!(vfs.generation() > before);
    /// ```
    pub fn generation(&self) -> u64 {
        self.generation
    }
}

impl Default for Vfs {
    fn default() -> Self {
        Vfs::new()
    }
}

impl core::fmt::Debug for Vfs {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_struct("Vfs")
            .field("total_bytes", &self.total_bytes)
            .field("transient", &self.transient)
            .finish_non_exhaustive()
    }
}

/// The segments of `path`, or the error naming it when it is not canonical.
fn parse(path: &str, syscall: Syscall) -> Result<Vec<&str>, FsError> {
    tree::segments(path).ok_or_else(|| FsError::new(FsErrorKind::InvalidPath, syscall, path))
}

/// The largest file: 32 MiB. A module instance has at most 4 GiB, shared by everything, so
/// each file and the workspace as a whole are bounded, and writing past a bound is an error
/// that names it rather than an allocation that traps.
pub const MAX_FILE_BYTES: usize = 32 * 1024 * 1024;

/// The most file content held at once: 256 MiB.
pub const MAX_TOTAL_BYTES: u64 = 256 * 1024 * 1024;

fn byte_len(content: &Content) -> u64 {
    u64::try_from(content.len()).unwrap_or(u64::MAX)
}

impl Vfs {
    /// An empty file system: the root directory `/`, with mtime 0.
    pub fn new() -> Self {
        Vfs {
            root: DirNode::new(0),
            transient: BTreeMap::new(),
            total_bytes: 0,
            generation: 0,
        }
    }

    /// The bytes of file content held: the sum of the files' sizes. A content is stored
    /// once however many readers hold it, so this is what the file system costs beyond a
    /// small per-entry overhead.
    pub fn total_bytes(&self) -> u64 {
        self.total_bytes
    }

    /// Creates or overwrites a file, creating missing parent directories with `mtime_ms`.
    ///
    /// # Errors
    /// `EISDIR` when `path` is a directory; `ENOTDIR` when one of its parents is a file;
    /// [`FsErrorKind::InvalidPath`] for a path that is not canonical; `EFBIG` for content
    /// over [`MAX_FILE_BYTES`], `ENOSPC` when the files would pass [`MAX_TOTAL_BYTES`]
    /// together (nothing is written then).
    ///
    /// # Example
    /// ```
    /// use context_assembly::vfs::{Content, Vfs};
    /// let mut vfs = Vfs::new();
    /// vfs.write_file("/p/a.md", Content::from("# A"), 5).unwrap();
    /// let err = vfs.write_file("/p", Content::from("x"), 6).unwrap_err();
    /// assert_eq!(err.to_string(), "EISDIR: illegal operation on a directory, open '/p'");
    /// let err = vfs.write_file("/p/a.md/b", Content::from("x"), 6).unwrap_err();
    /// assert_eq!(err.code(), "ENOTDIR"); // a file cannot hold files
    /// ```
    pub fn write_file(
        &mut self,
        path: &str,
        content: Content,
        mtime_ms: u64,
    ) -> Result<(), FsError> {
        self.generation += 1;
        let fail = |kind| FsError::new(kind, Syscall::Open, path);
        let segments = parse(path, Syscall::Open)?;
        let Some((name, parents)) = segments.split_last() else {
            return Err(fail(FsErrorKind::IsDirectory));
        };
        let added = byte_len(&content);
        if content.len() > MAX_FILE_BYTES {
            return Err(fail(FsErrorKind::FileTooLarge));
        }
        let replaced = match self.root.find(&segments) {
            Ok(Entry::File(file)) => byte_len(&file.content),
            _ => 0,
        };
        if self
            .total_bytes
            .saturating_sub(replaced)
            .saturating_add(added)
            > MAX_TOTAL_BYTES
        {
            return Err(fail(FsErrorKind::NoSpace));
        }
        let dir = self.root.make_dirs(parents, mtime_ms).map_err(fail)?;
        let removed = match dir.children.get_mut(*name) {
            Some(Node::Dir(_)) => return Err(fail(FsErrorKind::IsDirectory)),
            Some(Node::File(file)) => {
                let removed = byte_len(&file.content);
                *file = FileNode { content, mtime_ms };
                removed
            }
            None => {
                let file = FileNode { content, mtime_ms };
                dir.children.insert((*name).into(), Node::File(file));
                dir.mtime_ms = mtime_ms;
                0
            }
        };
        self.total_bytes = self
            .total_bytes
            .saturating_sub(removed)
            .saturating_add(added);
        Ok(())
    }

    /// Deletes a file or an empty directory; the parent's mtime becomes `at_ms`.
    ///
    /// # Errors
    /// `ENOENT` when nothing is there, `ENOTEMPTY` for a directory with entries, `EBUSY`
    /// for the root, `ENOTDIR` when a parent is a file.
    ///
    /// # Example
    /// ```
    /// use context_assembly::vfs::{Content, Vfs};
    /// let mut vfs = Vfs::new();
    /// vfs.write_file("/p/a.md", Content::from("# A"), 5).unwrap();
    /// assert_eq!(vfs.delete("/p", 6).unwrap_err().code(), "ENOTEMPTY");
    /// vfs.delete("/p/a.md", 6).unwrap();
    /// vfs.delete("/p", 7).unwrap(); // empty now
    /// assert_eq!(vfs.delete("/p", 8).unwrap_err().code(), "ENOENT");
    /// ```
    pub fn delete(&mut self, path: &str, at_ms: u64) -> Result<(), FsError> {
        self.generation += 1;
        let fail = |kind, syscall| FsError::new(kind, syscall, path);
        let segments = parse(path, Syscall::Unlink)?;
        let Some((name, parents)) = segments.split_last() else {
            return Err(fail(FsErrorKind::Busy, Syscall::Rmdir));
        };
        let dir = (self.root.dir_mut(parents)).map_err(|kind| fail(kind, Syscall::Unlink))?;
        let freed = match dir.children.get(*name) {
            None => return Err(fail(FsErrorKind::NotFound, Syscall::Unlink)),
            Some(Node::Dir(child)) if !child.children.is_empty() => {
                return Err(fail(FsErrorKind::NotEmpty, Syscall::Rmdir))
            }
            Some(Node::Dir(_)) => 0,
            Some(Node::File(file)) => byte_len(&file.content),
        };
        dir.children.remove(*name);
        dir.mtime_ms = at_ms;
        self.total_bytes = self.total_bytes.saturating_sub(freed);
        Ok(())
    }

    /// Creates a directory and its missing parents, with mtime `at_ms`. An existing
    /// directory is left as it is.
    ///
    /// # Errors
    /// `EEXIST` when `path` is a file; `ENOTDIR` when one of its parents is.
    ///
    /// # Example
    /// ```
    /// use context_assembly::vfs::{Content, Vfs};
    /// let mut vfs = Vfs::new();
    /// vfs.mkdir("/p/src/lib", 3).unwrap();
    /// vfs.mkdir("/p/src", 9).unwrap(); // already there: fine, and unchanged
    /// assert_eq!(vfs.stat("/p/src").unwrap().mtime_ms, 3);
    /// vfs.write_file("/p/f", Content::from(""), 4).unwrap();
    /// assert_eq!(vfs.mkdir("/p/f", 5).unwrap_err().code(), "EEXIST");
    /// ```
    pub fn mkdir(&mut self, path: &str, at_ms: u64) -> Result<(), FsError> {
        self.generation += 1;
        let fail = |kind| FsError::new(kind, Syscall::Mkdir, path);
        let segments = parse(path, Syscall::Mkdir)?;
        let Some((name, parents)) = segments.split_last() else {
            return Ok(());
        };
        let dir = self.root.make_dirs(parents, at_ms).map_err(fail)?;
        match dir.children.get(*name) {
            Some(Node::Dir(_)) => Ok(()),
            Some(Node::File(_)) => Err(fail(FsErrorKind::AlreadyExists)),
            None => {
                dir.children
                    .insert((*name).into(), Node::Dir(DirNode::new(at_ms)));
                dir.mtime_ms = at_ms;
                Ok(())
            }
        }
    }

    /// Moves a file or a directory with everything under it, as POSIX `rename`: a file at
    /// `to` is replaced (an editor's atomic save), so is an empty directory; parents are
    /// not created. The moved entries keep their mtimes; both parents get `at_ms`.
    ///
    /// # Errors
    /// `ENOENT` when `from` or `to`'s parent is missing; `EISDIR` for a file over a
    /// directory; `ENOTDIR` for a directory over a file; `ENOTEMPTY` over a directory with
    /// entries; `EINVAL` for a directory moved into itself; `EBUSY` for the root.
    ///
    /// # Example
    /// ```
    /// use context_assembly::vfs::{Content, Vfs};
    /// let mut vfs = Vfs::new();
    /// vfs.write_file("/p/src/a.ts", Content::from("a"), 1).unwrap();
    /// vfs.rename("/p/src", "/p/lib", 2).unwrap();
    /// assert_eq!(vfs.read("/p/lib/a.ts").unwrap().as_text(), Some("a"));
    /// let err = vfs.rename("/p/lib", "/p/lib/inner", 3).unwrap_err();
    /// assert_eq!(err.to_string(), "EINVAL: invalid argument, rename '/p/lib' -> '/p/lib/inner'");
    /// ```
    pub fn rename(&mut self, from: &str, to: &str, at_ms: u64) -> Result<(), FsError> {
        self.generation += 1;
        let fail = |kind| FsError {
            kind,
            syscall: Syscall::Rename,
            path: from.into(),
            dest: Some(to.into()),
        };
        let from_segments = tree::segments(from).ok_or_else(|| fail(FsErrorKind::InvalidPath))?;
        let to_segments = tree::segments(to).ok_or_else(|| fail(FsErrorKind::InvalidPath))?;
        let (Some((from_name, from_parents)), Some((to_name, to_parents))) =
            (from_segments.split_last(), to_segments.split_last())
        else {
            return Err(fail(FsErrorKind::Busy));
        };
        let moving = self.root.find(&from_segments).map_err(fail)?;
        if from == to {
            return Ok(());
        }
        let into_itself = to
            .strip_prefix(from)
            .is_some_and(|rest| rest.starts_with('/'));
        if into_itself && matches!(moving, Entry::Dir(_)) {
            return Err(fail(FsErrorKind::InvalidArgument));
        }
        let replaced = match (
            moving,
            self.root
                .dir(to_parents)
                .map_err(fail)?
                .children
                .get(*to_name),
        ) {
            (_, None) => 0,
            (Entry::File(_), Some(Node::Dir(_))) => return Err(fail(FsErrorKind::IsDirectory)),
            (Entry::Dir(_), Some(Node::File(_))) => return Err(fail(FsErrorKind::NotDirectory)),
            (Entry::Dir(_), Some(Node::Dir(dir))) if !dir.children.is_empty() => {
                return Err(fail(FsErrorKind::NotEmpty))
            }
            (Entry::Dir(_), Some(Node::Dir(_))) => 0,
            (Entry::File(_), Some(Node::File(file))) => byte_len(&file.content),
        };
        // Everything that can fail was checked above: from here the move cannot half-happen.
        let source = self.root.dir_mut(from_parents).map_err(fail)?;
        let node = source
            .children
            .remove(*from_name)
            .ok_or_else(|| fail(FsErrorKind::NotFound))?;
        source.mtime_ms = at_ms;
        let dest = self.root.dir_mut(to_parents).map_err(fail)?;
        dest.children.insert((*to_name).into(), node);
        dest.mtime_ms = at_ms;
        self.total_bytes = self.total_bytes.saturating_sub(replaced);
        Ok(())
    }

    /// Makes `stat`, `read` and `list_dir` of exactly `path` fail with `error` until it is
    /// cleared with `None`, whether or not anything is at `path`. Writes, deletes and
    /// renames are not affected, so an atomic save can happen during the window.
    ///
    /// # Errors
    /// [`FsErrorKind::InvalidPath`] for a path that is not canonical.
    ///
    /// # Example
    /// ```
    /// use context_assembly::vfs::{TransientError, Vfs};
    /// let mut vfs = Vfs::new();
    /// vfs.set_transient_error("/p/later.md", Some(TransientError::PermissionDenied)).unwrap();
    /// let err = vfs.stat("/p/later.md").unwrap_err(); // set before the file exists
    /// assert_eq!(err.to_string(), "EACCES: permission denied, stat '/p/later.md'");
    /// vfs.set_transient_error("/p/later.md", None).unwrap();
    /// assert_eq!(vfs.stat("/p/later.md").unwrap_err().code(), "ENOENT");
    /// ```
    pub fn set_transient_error(
        &mut self,
        path: &str,
        error: Option<TransientError>,
    ) -> Result<(), FsError> {
        parse(path, Syscall::Stat)?;
        match error {
            Some(error) => self.transient.insert(path.into(), error),
            None => self.transient.remove(path),
        };
        Ok(())
    }

    /// What is at `path`: kind, size in bytes, mtime.
    ///
    /// # Errors
    /// The transient error set on `path`, else `ENOENT` when nothing is there and
    /// `ENOTDIR` when a parent is a file.
    ///
    /// # Example
    /// ```
    /// use context_assembly::vfs::{Content, EntryKind, Vfs};
    /// let mut vfs = Vfs::new();
    /// vfs.write_file("/p/é.md", Content::from("é"), 7).unwrap();
    /// let stat = vfs.stat("/p/é.md").unwrap();
    /// assert_eq!((stat.kind, stat.size, stat.mtime_ms), (EntryKind::File, 2, 7)); // bytes, not chars
    /// assert_eq!(vfs.stat("/p/é.md/x").unwrap_err().code(), "ENOTDIR");
    /// ```
    pub fn stat(&self, path: &str) -> Result<Stat, FsError> {
        Ok(match self.lookup(path, Syscall::Stat)? {
            Entry::File(file) => Stat {
                kind: EntryKind::File,
                size: byte_len(&file.content),
                mtime_ms: file.mtime_ms,
            },
            Entry::Dir(dir) => Stat {
                kind: EntryKind::Directory,
                size: 0,
                mtime_ms: dir.mtime_ms,
            },
        })
    }

    /// A file's content, shared with the file system (a reference count, not a copy).
    ///
    /// # Errors
    /// The transient error set on `path`, else `ENOENT`, `ENOTDIR`, or `EISDIR` for a
    /// directory.
    ///
    /// # Example
    /// ```
    /// use context_assembly::vfs::{Content, Vfs};
    /// let mut vfs = Vfs::new();
    /// vfs.mkdir("/p", 1).unwrap();
    /// assert_eq!(vfs.read("/p").unwrap_err().to_string(), "EISDIR: illegal operation on a directory, read '/p'");
    /// ```
    pub fn read(&self, path: &str) -> Result<Content, FsError> {
        match self.lookup(path, Syscall::Open)? {
            Entry::File(file) => Ok(file.content.clone()),
            Entry::Dir(_) => Err(FsError::new(FsErrorKind::IsDirectory, Syscall::Read, path)),
        }
    }

    /// A directory's entries in byte order of their names (spec claude-code.md §3.8),
    /// dotfiles included, `.` and `..` never.
    ///
    /// # Errors
    /// The transient error set on `path`, else `ENOENT`, or `ENOTDIR` for a file.
    ///
    /// # Example
    /// ```
    /// use context_assembly::vfs::{Content, Vfs};
    /// let mut vfs = Vfs::new();
    /// for name in ["b", "B", ".env", "é", "a10", "a9"] {
    ///     vfs.write_file(&format!("/p/{name}"), Content::from(""), 1).unwrap();
    /// }
    /// let names: Vec<String> = vfs.list_dir("/p").unwrap().into_iter().map(|e| e.name).collect();
    /// assert_eq!(names, [".env", "B", "a10", "a9", "b", "é"]); // bytes: no case folding, no natural sort
    /// ```
    pub fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, FsError> {
        match self.lookup(path, Syscall::Scandir)? {
            Entry::Dir(dir) => Ok(dir
                .children
                .iter()
                .map(|(name, node)| DirEntry {
                    name: name.clone(),
                    kind: match node {
                        Node::File(_) => EntryKind::File,
                        Node::Dir(_) => EntryKind::Directory,
                    },
                })
                .collect()),
            Entry::File(_) => Err(FsError::new(
                FsErrorKind::NotDirectory,
                Syscall::Scandir,
                path,
            )),
        }
    }

    /// What `path` names, after its transient error.
    fn lookup(&self, path: &str, syscall: Syscall) -> Result<Entry<'_>, FsError> {
        let segments = parse(path, syscall)?;
        if let Some(error) = self.transient.get(path) {
            return Err(FsError::new((*error).into(), syscall, path));
        }
        (self.root.find(&segments)).map_err(|kind| FsError::new(kind, syscall, path))
    }
}
