//! The attachments that follow a summary, in the original's order (§9.3 item 6): restored
//! files (§9.4), the plan file reference, the full plan-mode reminder, the invoked skills
//! (§9.5), the deltas announced in full, and — with `reinsert_pinned` — the host's pinned
//! files.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::mem;

use crate::compact::file_restore::FileRestore;

use crate::attachment::AttachmentKind;
use crate::attachment::{Attachment, Collected, Verdict};
use crate::collectors::reminders;
use crate::compact::restore::select_skills;
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
        self.plan_file_reference(out);
        if self.in_plan_mode() {
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
            self.invoked_skills(out);
            self.deltas_in_full(kept, dry_run, out);
        }
        if self.profile.compaction.reinsert_pinned {
            self.pinned_files(out);
        }
        (mem::take(&mut out.attachments), reads)
    }

    /// `plan_file_reference` when the plan file exists (§9.5). The original reads the plan
    /// with no deny check; `deny_plan_file` adds one.
    fn plan_file_reference(&self, out: &mut Collected) {
        let path = self.plan_file();
        if !self.workspace.is_file(&path) {
            return;
        }
        let denial = self.workspace.deny.check(&path, &self.workspace.cwd);
        if let Some(denial) = &denial {
            if self.profile.compaction.deny_plan_file {
                out.decide(
                    "plan file",
                    Verdict::Denied,
                    "the plan file exists, but the permission settings deny reading it: no \
                     reference follows the summary (§9.5 fixed)"
                        .into(),
                    Some(denial.rule.clone()),
                );
                return;
            }
        }
        let Ok(crate::vfs::Content::Text(content)) = self.workspace.vfs.read(&path) else {
            return;
        };
        let text = wording::compaction::plan_file_reference(&path, &content);
        out.attach(
            AttachmentKind::PlanFileReference,
            Some(&path),
            text,
            self.profile.token_method,
        );
        let reason = match denial {
            None => {
                "the plan file exists: a reference with its contents follows the summary".into()
            }
            Some(denial) => format!(
                "the plan file exists: a reference with its contents follows the summary, \
                 although {} covers it, because the original reads the plan with no deny \
                 check (§9.5)",
                denial.rule
            ),
        };
        out.decide("plan file", Verdict::Included, reason, Some(path));
    }

    /// `invoked_skills` (§9.5): newest first, each within 5,000 tokens, 25,000 in all.
    fn invoked_skills(&self, out: &mut Collected) {
        let invoked: Vec<(String, String)> = self
            .conversation
            .invoked_skills
            .iter()
            .rev()
            .map(|(name, content)| (name.clone(), content.clone()))
            .collect();
        if invoked.is_empty() {
            return;
        }
        let method = self.profile.token_method;
        let selection = select_skills(&invoked, method);
        out.decisions.extend(selection.decisions);
        if selection.skills.is_empty() {
            return;
        }
        let skills: Vec<String> = selection
            .skills
            .iter()
            .map(|(name, content, _)| {
                wording::compaction::invoked_skill(name, &self.skill_path(name), content)
            })
            .collect();
        let text = wording::compaction::invoked_skills(&skills);
        out.attach(AttachmentKind::InvokedSkills, None, text, method);
    }

    /// The deltas against the kept records only: after a full compaction, everything again.
    fn deltas_in_full(&mut self, kept: &[Message], dry_run: bool, out: &mut Collected) {
        let mut history = Transcript::default();
        for message in kept {
            history.push(message.record.clone());
        }
        let saved_transcript = mem::replace(&mut self.conversation.transcript, history);
        let saved_state = dry_run.then(|| self.conversation.reminders.clone());
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

    /// The host's pinned files, attached again (ours: `reinsert_pinned`).
    fn pinned_files(&self, out: &mut Collected) {
        let file_restore = self.file_restore();
        for pinned in &self.config.pinned {
            let reason = "pinned by the host: attached again after the summary";
            file_restore.reattach_file(pinned, reason, out);
        }
    }

    /// Where a skill's file is.
    pub(in crate::session) fn skill_path(&self, name: &str) -> String {
        format!(
            "{}/.claude/skills/{name}/SKILL.md",
            self.workspace.cwd.trim_end_matches('/')
        )
    }
}
