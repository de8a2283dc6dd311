//! The attachments that follow a summary, in the original's order (§9.3 item 6): restored
//! files (§9.4), the plan file reference, the full plan-mode reminder, the invoked skills
//! (§9.5), the deltas announced in full, and — with `reinsert_pinned` — the host's pinned
//! files.

use alloc::string::String;
use alloc::vec::Vec;
use core::mem;

use crate::compact::file_restore::FileRestore;

use crate::attachment::AttachmentKind;
use crate::attachment::{Attachment, Collected, Verdict};
use crate::collectors::reminders;
use crate::compact::restore::RestoreBudget;
use crate::session::Session;
use crate::transcript::{Message, Transcript};
use crate::wording::{self};
use crate::workspace::TextFileRead;

/// Restored files: what to attach, and the reads that repopulate the file state.
type Attached = (Vec<Attachment>, Vec<(String, TextFileRead)>);

impl Session {
    /// What the file restore reads, from the session's state now.
    pub(super) fn file_restore(&self) -> FileRestore<'_> {
        FileRestore {
            workspace: &self.workspace,
            token_method: self.profile.token_method,
            compaction: &self.profile.compaction,
            malware_note: self.profile.file_context.malware_reminder_in_attachments,
            file_parts_as_messages: self.profile.attachments.file_parts_as_messages,
            auto_memory_dir: self.auto_memory_dir(),
            plan_file: self.plan_file(),
            budget: RestoreBudget::for_window(
                &self.profile.compaction,
                self.thresholds().effective_window,
            ),
        }
    }

    /// The post-compact attachments after `kept`. With `dry_run` nothing in the session
    /// changes (a plan); otherwise the reads are returned to be remembered.
    pub(super) fn post_compact(
        &mut self,
        file_state: &[(String, u64, u32)],
        kept: &[Message],
        session_memory: bool,
        dry_run: bool,
        out: &mut Collected,
    ) -> Attached {
        let mut reads = Vec::new();
        if session_memory {
            out.decide(
                "restore",
                Verdict::Skipped,
                "session-memory compaction restores no files: the read-file state is kept".into(),
                None,
            );
        } else {
            reads = self.file_restore().restore_files(file_state, kept, out);
        }
        self.file_restore().plan_file_reference(out);
        if self.conversation.mode == crate::host::PermissionMode::Plan {
            let plan_file = self.plan_file();
            let exists = self.workspace.is_file(&plan_file);
            let facts = wording::reminders::PlanFacts {
                path: &plan_file,
                exists,
                interview: self.config.interview_mode,
            };
            let text = wording::reminders::plan_mode(&facts, true, false);
            out.attach(
                AttachmentKind::PlanMode,
                None,
                text,
                self.profile.token_method,
            );
            out.decide(
                "plan_mode",
                Verdict::Included,
                "plan mode is on: its full reminder follows the summary".into(),
                None,
            );
        }
        if !session_memory {
            let invoked = &self.conversation.invoked_skills;
            self.file_restore().invoked_skills(invoked, out);
            self.deltas_in_full(kept, dry_run, out);
        }
        if self.profile.compaction.reinsert_pinned {
            self.file_restore().pinned_files(&self.config.pinned, out);
        }
        (mem::take(&mut out.attachments), reads)
    }

    /// The deltas against the kept records only: after a full compaction, everything again.
    fn deltas_in_full(&mut self, kept: &[Message], dry_run: bool, out: &mut Collected) {
        let mut history = Transcript::default();
        for message in kept {
            history.push(message.record.clone());
        }
        let saved_transcript = mem::replace(&mut self.conversation.transcript, history);
        let saved_state = dry_run.then(|| self.conversation.reminders.clone());
        // Nothing announced before the summary is in the history now (§9.3 item 6).
        self.conversation.reminders.after_compaction();
        let facts = self.pass_facts(0);
        let deltas: [crate::collectors::reminders::Producer; 3] = [
            reminders::deferred_tools_delta,
            reminders::agent_listing_delta,
            reminders::mcp_instructions_delta,
        ];
        for collector in deltas {
            self.run_reminder(collector, None, &facts, out);
        }
        self.conversation.transcript = saved_transcript;
        if let Some(state) = saved_state {
            self.conversation.reminders = state;
        }
    }
}
