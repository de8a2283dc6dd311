//! Where relevant memories come from: the auto-memory directory of the virtual workspace
//! (§7.9), and what surfacing one leaves behind.

use alloc::string::String;

use super::Session;
use crate::collectors::relevant_memories::memory_excerpt;
use crate::file_state::Entry;
use crate::workspace::MemoryFileText;

impl Session {
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
                self.workspace.file_state.set(path, entry);
            }
        }
    }
}
