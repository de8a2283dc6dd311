//! Where relevant memories come from: the auto-memory directory of the virtual workspace
//! (§7.9), and what surfacing one leaves behind.

use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use super::changes::VfsMemory;
use super::pipeline::CollectorFailure;
use super::Session;
use crate::collectors::relevant_memories::memory_excerpt;
use crate::file_state::Entry;
use crate::vfs::{Content, EntryKind, FsErrorKind};

/// Directories walked below the memory directory at most (a bound on the scan's work).
const MAX_MEMORY_DIRS: usize = 256;

/// A memory file: absolute path, text, mtime.
pub(super) type MemoryFileText = (String, Rc<str>, u64);

impl Session {
    /// The `.md` files below the memory directory. A missing directory has none; one that
    /// cannot be listed fails the collector.
    pub(super) fn memory_candidates(
        &self,
        dir: &str,
    ) -> Result<Vec<MemoryFileText>, CollectorFailure> {
        let root = self.expand(dir).map_err(|error| {
            CollectorFailure(format!("the memory directory is unusable: {error}"))
        })?;
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
                    return Err(CollectorFailure(format!(
                        "the memory directory could not be listed: {error}"
                    )))
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

    /// Records surfaced memories: never surfaced again, and in the read-file state.
    pub(super) fn remember_memories(&mut self, surfaced: &[String], files: &[MemoryFileText]) {
        for path in surfaced {
            self.conversation.surfaced_memories.insert(path.clone());
            if let Some((_, text, mtime)) = files.iter().find(|(p, _, _)| p == path) {
                // The entry holds what the model was shown, as the original's does.
                let shown = memory_excerpt(path, text, &self.profile.attachments);
                let entry = Entry::from_relevant_memory(
                    shown.content.into(),
                    *mtime,
                    shown.truncated_lines,
                );
                self.file_state.set(path, entry);
            }
        }
    }

    /// The virtual FS as a memory source.
    pub(super) fn memory_source(&self) -> VfsMemory<'_> {
        VfsMemory(&self.vfs)
    }
}
