//! The directory tree: each directory owns its entries, keyed by name in byte order.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use super::content::Content;
use super::error::FsErrorKind;

#[derive(Clone)]
pub(super) enum Node {
    File(FileNode),
    Dir(DirNode),
}

#[derive(Clone)]
pub(super) struct FileNode {
    pub(super) content: Content,
    pub(super) mtime_ms: u64,
}

#[derive(Clone)]
pub(super) struct DirNode {
    /// `String`'s order is byte order, which is the listing order (spec §3.8).
    pub(super) children: BTreeMap<String, Node>,
    pub(super) mtime_ms: u64,
}

/// What a path names, borrowed from the tree (the root is a directory but not a `Node`).
#[derive(Clone, Copy)]
pub(super) enum Entry<'a> {
    File(&'a FileNode),
    Dir(&'a DirNode),
}

/// The segments of a canonical absolute path (`/` has none), or `None` when the path is
/// not canonical.
pub(super) fn segments(path: &str) -> Option<Vec<&str>> {
    let rest = path.strip_prefix('/')?;
    if rest.is_empty() {
        return Some(Vec::new());
    }
    let segments: Vec<&str> = rest.split('/').collect();
    let canonical = segments
        .iter()
        .all(|segment| !matches!(*segment, "" | "." | "..") && !segment.contains('\0'));
    canonical.then_some(segments)
}

impl DirNode {
    pub(super) fn new(mtime_ms: u64) -> Self {
        DirNode {
            children: BTreeMap::new(),
            mtime_ms,
        }
    }

    /// The directory at `segments` below this one.
    pub(super) fn dir(&self, segments: &[&str]) -> Result<&DirNode, FsErrorKind> {
        let mut dir = self;
        for segment in segments {
            dir = match dir.children.get(*segment) {
                Some(Node::Dir(child)) => child,
                Some(Node::File(_)) => return Err(FsErrorKind::NotDirectory),
                None => return Err(FsErrorKind::NotFound),
            };
        }
        Ok(dir)
    }

    /// The directory at `segments` below this one, for changing it.
    pub(super) fn dir_mut(&mut self, segments: &[&str]) -> Result<&mut DirNode, FsErrorKind> {
        let mut dir = self;
        for segment in segments {
            dir = match dir.children.get_mut(*segment) {
                Some(Node::Dir(child)) => child,
                Some(Node::File(_)) => return Err(FsErrorKind::NotDirectory),
                None => return Err(FsErrorKind::NotFound),
            };
        }
        Ok(dir)
    }

    /// The directory at `segments`, creating the missing ones with `mtime_ms` (and setting
    /// the mtime of each directory that gains one). Fails only before creating anything:
    /// below a created directory nothing exists to be in the way.
    pub(super) fn make_dirs(
        &mut self,
        segments: &[&str],
        mtime_ms: u64,
    ) -> Result<&mut DirNode, FsErrorKind> {
        let mut dir = self;
        for segment in segments {
            if !dir.children.contains_key(*segment) {
                dir.children
                    .insert((*segment).into(), Node::Dir(DirNode::new(mtime_ms)));
                dir.mtime_ms = mtime_ms;
            }
            dir = match dir.children.get_mut(*segment) {
                Some(Node::Dir(child)) => child,
                Some(Node::File(_)) => return Err(FsErrorKind::NotDirectory),
                None => return Err(FsErrorKind::NotFound),
            };
        }
        Ok(dir)
    }

    /// What `segments` names below this directory.
    pub(super) fn find(&self, segments: &[&str]) -> Result<Entry<'_>, FsErrorKind> {
        let Some((name, parents)) = segments.split_last() else {
            return Ok(Entry::Dir(self));
        };
        match self.dir(parents)?.children.get(*name) {
            Some(Node::File(file)) => Ok(Entry::File(file)),
            Some(Node::Dir(dir)) => Ok(Entry::Dir(dir)),
            None => Err(FsErrorKind::NotFound),
        }
    }
}

/// Dropping a deep tree recursively could overflow the stack (a path of a million
/// segments is a valid input); this drops it level by level instead.
impl Drop for DirNode {
    fn drop(&mut self) {
        let mut pending = vec![core::mem::take(&mut self.children)];
        while let Some(children) = pending.pop() {
            for (_, node) in children {
                if let Node::Dir(mut dir) = node {
                    pending.push(core::mem::take(&mut dir.children));
                }
            }
        }
    }
}
