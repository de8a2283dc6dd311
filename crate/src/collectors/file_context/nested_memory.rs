//! Nested memory (§8.1): the CLAUDE.md and rules files of the directories the agent touched,
//! and of the file open in the IDE.

use alloc::format;
use alloc::rc::Rc;

use super::memory_gate::gate_memory_files;
use super::FileContext;
use crate::attachment::{AttachmentKind, Collected, Verdict};
use crate::file_state::Entry;
use crate::memory::{nested_memory, render_nested, MemoryFile, StateView};
use crate::wording::wrap;
use crate::workspace::VfsMemory;

impl FileContext<'_> {
    /// §8: the CLAUDE.md and rules files of the directories the Read tool touched.
    pub(crate) fn nested_memory(&mut self, at_ms: u64, turn: &mut Collected) {
        let triggers = core::mem::take(&mut self.workspace.memory_triggers);
        if !self.rules.load_nested_memory {
            return;
        }
        for target in triggers {
            let state = |path: &str| match self.workspace.file_state.peek(path) {
                None => StateView::Absent,
                Some(entry) if entry.is_full_view() && !entry.is_partial_view => StateView::Full,
                Some(_) => StateView::Partial,
            };
            let found = nested_memory(
                &target,
                &self.workspace.memory_roots,
                &VfsMemory(&self.workspace.vfs),
                &self.workspace.rules.memory,
                &mut self.workspace.loaded_memory,
                &state,
            );
            for skip in found.skipped {
                turn.decide(
                    &skip.path,
                    Verdict::Skipped,
                    format!("nested memory: {}", skip.reason.as_str()),
                    None,
                );
            }
            // Each step of the walk gets its own stamp, later than the one before (see
            // `Entry::stamp_order`); so does each target, which the original awaits in turn.
            let mut step = None;
            for file in gate_memory_files(
                self.workspace,
                self.rules,
                found.files,
                "nested memory",
                turn,
            ) {
                if step != Some(file.walk_step) {
                    step = Some(file.walk_step);
                    self.workspace.memory_stamp =
                        Some(next_stamp(self.workspace.memory_stamp, at_ms));
                }
                let text = wrap(&render_nested(&file, &self.workspace.rules.memory));
                turn.attach(
                    AttachmentKind::NestedMemory,
                    Some(&file.path),
                    text,
                    self.token_method,
                );
                let reason = format!("loaded for {target} ({})", file.reason.as_str());
                turn.decide(&file.path, Verdict::Included, reason, None);
                let entry = self.nested_entry(&file, at_ms);
                self.workspace.file_state.set(&file.path, entry);
            }
        }
    }

    /// The read-file state's entry for a nested memory file: stamped with the file's mtime,
    /// or with the walk step's stamp (see `Entry::stamp_order`).
    fn nested_entry(&self, file: &MemoryFile, at_ms: u64) -> Entry {
        let raw = Rc::clone(&file.raw);
        let differs = file.content_differs_from_disk;
        let mtime = self
            .workspace
            .vfs
            .stat(&file.path)
            .ok()
            .map(|stat| stat.mtime_ms);
        match mtime {
            Some(mtime) if self.workspace.rules.memory.nested_stamped_with_mtime => {
                Entry::from_memory(raw, mtime, differs)
            }
            _ => Entry {
                stamp_order: self.workspace.memory_stamp.map_or(0, |(_, order)| order),
                ..Entry::from_memory(raw, at_ms, differs)
            },
        }
    }

    /// The opened file's nested memory, emitted before the opened-file note (§7.8, §8.1).
    pub(crate) fn opened_file_memory(
        &mut self,
        opened_file: &str,
        at_ms: u64,
        out: &mut Collected,
    ) {
        match self.workspace.expand(opened_file) {
            Ok(abs)
                if self
                    .workspace
                    .deny
                    .check(&abs, &self.workspace.cwd)
                    .is_none() =>
            {
                self.workspace.add_memory_trigger(&abs);
                self.nested_memory(at_ms, out);
            }
            _ => {}
        }
    }
}

/// The stamp after `last` at `at_ms`: the next order within the same millisecond, the first
/// of a new one. A clock set back (a host's choice) starts over rather than order an older
/// millisecond after a newer one.
fn next_stamp(last: Option<(u64, u32)>, at_ms: u64) -> (u64, u32) {
    match last {
        Some((ms, order)) if ms == at_ms => (ms, order.saturating_add(1)),
        _ => (at_ms, 0),
    }
}
