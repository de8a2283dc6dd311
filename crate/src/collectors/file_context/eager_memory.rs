//! Eager memory (§8, §4.4): the CLAUDE.md hierarchy of the user context, gated by the deny
//! rules, and put in the read-file state the way the interactive client seeds it.

use alloc::rc::Rc;
use alloc::vec::Vec;

use super::memory_gate::gate_memory_files;
use super::FileContext;
use crate::attachment::{Collected, Verdict};
use crate::file_state::Entry;
use crate::memory::{eager_memory, MemoryFile};

impl FileContext<'_> {
    /// The eager memory files that may reach the model, in load order; the read-file state
    /// seeded with them (at startup, or after a compaction under
    /// `reseed_memory_after_compaction`). `seeded` says whether the startup seed happened.
    pub(crate) fn eager_memory(
        &mut self,
        at_ms: u64,
        seeded: &mut bool,
        out: &mut Collected,
    ) -> Vec<MemoryFile> {
        let eager = eager_memory(
            &self.workspace.memory_roots,
            &self.workspace.memory_source(),
            &self.workspace.rules.memory,
        );
        let files = gate_memory_files(self.workspace, self.rules, eager.files, "eager memory", out);
        self.seed_memory(&files, at_ms, seeded, out);
        files
    }

    /// Puts the eager memory files in the read-file state (§4.4), so nested memory does not
    /// load them a second time and an edit of one is reported as a change. The interactive
    /// client does it once, at startup (REPL `onInit`); headless `-p` never does (the lab).
    fn seed_memory(
        &mut self,
        files: &[MemoryFile],
        at_ms: u64,
        seeded: &mut bool,
        out: &mut Collected,
    ) {
        if self.rules.headless {
            for file in files {
                out.decide(
                    &file.path,
                    Verdict::Skipped,
                    "a headless session does not put memory files in the read-file state, so \
                     a later change to this one is not reported"
                        .into(),
                    None,
                );
            }
            return;
        }
        let startup = !*seeded;
        if !startup && !self.rules.reseed_memory_after_compaction {
            out.decide(
                "eager memory",
                Verdict::Skipped,
                "the user context was computed again after a compaction, but the original puts \
                 the memory files in the read-file state only at startup (REPL onInit): a \
                 restored one keeps its restore's entry, the others are no longer watched"
                    .into(),
                None,
            );
            return;
        }
        *seeded = true;
        let stamp = match startup {
            true => self.startup_ms(files, at_ms),
            false => at_ms,
        };
        for file in files {
            // After a compaction an entry already there came from the restore or a Read: what
            // the model was really shown, which a seed must not replace.
            if !startup && self.workspace.file_state.peek(&file.path).is_some() {
                continue;
            }
            let raw = Rc::clone(&file.raw);
            let entry = Entry::from_memory(raw, stamp, file.content_differs_from_disk);
            self.workspace.file_state.set(&file.path, entry);
        }
    }

    /// When the interactive client started and seeded its memory files (§4.4, Q60): before
    /// the user could type the first prompt, so the last millisecond before the session's
    /// first turn (`at_ms`, the first time the context is needed). The seed is then older
    /// than anything that turn loads (nested memory, rules), which outranks it in a
    /// post-compact restore as in the client. But the client started after its files were
    /// written: never before a memory file's mtime (a file written in the turn's own
    /// millisecond is not a change), and at time 0 there is no earlier millisecond.
    fn startup_ms(&self, files: &[MemoryFile], at_ms: u64) -> u64 {
        let newest = files
            .iter()
            .filter_map(|file| self.workspace.vfs.stat(&file.path).ok())
            .map(|stat| stat.mtime_ms)
            .max()
            .unwrap_or(0);
        at_ms.saturating_sub(1).max(newest).min(at_ms)
    }
}
