//! The relevant-memory prefetch over the workspace (§7.9): the auto-memory directory's
//! files, gated by the deny rules, scored by [`super::relevant_memories`], and what
//! surfacing one leaves behind (never surfaced again, an entry in the read-file state).

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use super::{memory_excerpt, relevant_memories, MemoryCandidate, RelevantMemoryInput};
use crate::attachment::{AttachmentKind, AttachmentRules, Collected, Verdict};
use crate::collectors::file_context::memory_gate::{memory_gate, sent_anyway, MemoryGate};
use crate::collectors::file_context::FileContextRules;
use crate::file_state::Entry;
use crate::tokens::TokenMethod;
use crate::transcript::Transcript;
use crate::workspace::{MemoryFileText, Workspace};

/// What the prefetch reads and updates.
pub(crate) struct MemoryPrefetch<'a> {
    pub(crate) workspace: &'a mut Workspace,
    pub(crate) file_context: &'a FileContextRules,
    pub(crate) attachments: &'a AttachmentRules,
    pub(crate) token_method: TokenMethod,
    pub(crate) transcript: &'a Transcript,
    /// Memories surfaced before: never surfaced again.
    pub(crate) surfaced: &'a mut BTreeSet<String>,
}

impl MemoryPrefetch<'_> {
    /// The memories of `dir` relevant to `prompt` (or the host's `selection`). Listing the
    /// memory directory can fail; then the result is empty and says why.
    pub(crate) fn collect(
        &mut self,
        dir: &str,
        prompt: &str,
        selection: Option<&[String]>,
        at_ms: u64,
    ) -> Collected {
        let mut out = Collected::default();
        let mut files = match self.workspace.memory_candidates(dir) {
            Ok(files) => files,
            Err(reason) => {
                out.decide(
                    "relevant_memories",
                    Verdict::Failed,
                    reason,
                    Some(dir.into()),
                );
                return out;
            }
        };
        files.retain(
            |(path, _, _)| match memory_gate(self.workspace, self.file_context, path) {
                MemoryGate::Denied(rule) => {
                    let reason = "relevant memories: a memory file the permission \
                              settings deny (Q15 fixed)";
                    out.decide(path, Verdict::Denied, reason.into(), Some(rule));
                    false
                }
                MemoryGate::Allowed | MemoryGate::SentAnyway(_) => true,
            },
        );
        let candidates: Vec<MemoryCandidate<'_>> = files
            .iter()
            .map(|(path, content, mtime_ms)| MemoryCandidate {
                path,
                content,
                mtime_ms: *mtime_ms,
            })
            .collect();
        let session_units = self
            .transcript
            .attachments()
            .filter(|a| a.kind == AttachmentKind::RelevantMemories)
            .filter_map(|a| a.payload_units)
            .sum();
        let file_state = &self.workspace.file_state;
        let in_file_state = |path: &str| file_state.peek(path).is_some();
        let input = RelevantMemoryInput {
            prompt,
            candidates: &candidates,
            host_selection: selection,
            now_ms: at_ms,
            surfaced: self.surfaced,
            in_file_state: &in_file_state,
            session_units,
        };
        let surfaced = relevant_memories(&input, self.attachments, self.token_method, &mut out);
        for path in &surfaced {
            if let MemoryGate::SentAnyway(rule) =
                memory_gate(self.workspace, self.file_context, path)
            {
                let reason = sent_anyway("relevant memories");
                out.decide(path, Verdict::Included, reason, Some(rule));
            }
        }
        self.remember(&surfaced, &files);
        out
    }

    /// Records surfaced memories: never surfaced again, and in the read-file state.
    fn remember(&mut self, surfaced: &[String], files: &[MemoryFileText]) {
        for path in surfaced {
            self.surfaced.insert(path.clone());
            if let Some((_, text, mtime)) = files.iter().find(|(p, _, _)| p == path) {
                // The entry holds what the model was shown, as the original's does.
                let shown = memory_excerpt(path, text, self.attachments);
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
