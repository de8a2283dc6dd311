//! A Codex thread reopened, forked or rolled back (codex.md §2.7, §2.8): what the history
//! keeps and which baseline the next turn diffs against.

use alloc::format;
use alloc::vec::Vec;

use super::Session;
use crate::attachment::{Collected, Verdict};
use crate::codex::items::{Item, Role};
use crate::codex::rollback::{rollback_cut, rollback_entry, RollbackEntry};
use crate::transcript::{Message, Record};
use crate::Error;

impl Session {
    /// `codex exec resume`: the history is rebuilt from the rollout as it was; the next turn
    /// diffs against the newest surviving turn's settings (§2.7).
    pub fn codex_resume(&mut self) -> Result<Collected, Error> {
        self.require_codex("resume")?;
        self.conversation
            .interrupt_pending_calls(&self.profile.codex);
        self.conversation.codex.resume();
        let mut out = Collected::default();
        out.decide(
            "resume",
            Verdict::Included,
            "the history is rebuilt from the rollout unchanged; the next turn sends only the \
             settings that changed since the newest turn (§2.7)"
                .into(),
            None,
        );
        Ok(out)
    }

    /// Drops the last `turns` user turns and the context items recorded just before them
    /// (§2.8).
    pub fn codex_rollback(&mut self, turns: usize) -> Result<Collected, Error> {
        self.require_codex("rollback")?;
        self.conversation
            .interrupt_pending_calls(&self.profile.codex);
        let entries: Vec<RollbackEntry> = (self.conversation.transcript.messages().iter())
            .map(record_entry)
            .collect();
        let cut = rollback_cut(&entries, turns);
        let (_, live) = self.conversation.codex.live_turns();
        self.truncate_transcript(cut.keep);
        (self.conversation.codex).after_rollback(cut.turns_dropped.min(live), cut.clears_baseline);
        let mut out = Collected::default();
        let reason = match cut.clears_baseline {
            true => {
                "the cut removed the initial context's bundle: the next turn sends the whole \
                     initial context (§2.6 item 4)"
            }
            false => {
                "the baseline stays: the next turn diffs against the settings last recorded \
                      (§2.8)"
            }
        };
        out.decide(
            "rollback",
            Verdict::Included,
            format!(
                "{} of {turns} user turns dropped, with the context items recorded just before \
                 them; {reason}",
                cut.turns_dropped
            ),
            None,
        );
        Ok(out)
    }

    /// Forks the thread before its user turn `turn` (0-based, counted over the session's
    /// turns): that turn's message and everything after it are gone, its context items stay
    /// and its settings are the baseline (§2.7, X26). A fork past the last turn keeps the
    /// whole thread.
    pub fn codex_fork(&mut self, turn: usize) -> Result<Collected, Error> {
        self.require_codex("fork")?;
        self.conversation
            .interrupt_pending_calls(&self.profile.codex);
        let (compacted, live) = self.conversation.codex.live_turns();
        let mut out = Collected::default();
        if turn >= compacted + live {
            self.conversation.codex.resume();
            out.decide(
                "fork",
                Verdict::Included,
                format!("the thread has {} user turns: the fork keeps all of them and the baseline (§2.7)", compacted + live),
                None,
            );
            return Ok(out);
        }
        let Some(live_turn) = turn.checked_sub(compacted) else {
            return Err(Error::InvalidConfig {
                field: "fork.beforeUserTurn".into(),
                reason: format!(
                    "is {turn}, but turns 0 to {} were replaced by a compaction and their items \
                     are gone; fork at a turn from {compacted} on",
                    compacted.saturating_sub(1)
                ),
            });
        };
        // The live turns' messages are the last prompts of the transcript, one per turn.
        let prompts: Vec<usize> = (self.conversation.transcript.messages().iter().enumerate())
            .filter(|(_, m)| matches!(m.record, Record::Prompt { .. }))
            .map(|(index, _)| index)
            .collect();
        let index = (prompts.len() + live_turn).checked_sub(live);
        let Some(&cut) = index.and_then(|index| prompts.get(index)) else {
            return Err(Error::InvalidConfig {
                field: "fork.beforeUserTurn".into(),
                reason: format!("is {turn}, but the history holds no message for that turn"),
            });
        };
        self.truncate_transcript(cut);
        self.conversation.codex.fork_before_live_turn(live_turn);
        self.conversation.codex.after_fork(&self.profile.codex);
        out.decide(
            "fork",
            Verdict::Included,
            format!(
                "cut before user turn {turn}: its context items stay and its settings are the \
                 baseline, so the fork's first turn sends only what changed (§2.7, X26)"
            ),
            None,
        );
        Ok(out)
    }

    pub(super) fn require_codex(&self, step: &str) -> Result<(), Error> {
        match self.profile.codex.turn_context {
            true => Ok(()),
            false => Err(Error::InvalidConfig {
                field: step.into(),
                reason: "is a Codex thread operation: it needs a profile that assembles Codex's \
                         context (codex)"
                    .into(),
            }),
        }
    }

    fn truncate_transcript(&mut self, keep: usize) {
        let transcript = &mut self.conversation.transcript;
        let kept: Vec<Message> = transcript.messages()[..keep].to_vec();
        transcript.replace(kept);
        self.conversation.transcript_rewritten();
    }
}

/// How a record counts for a rollback: the user's messages and summaries are turn
/// boundaries, recorded context items count by their content.
fn record_entry(message: &Message) -> RollbackEntry {
    match &message.record {
        Record::Prompt { text } | Record::Summary { text } | Record::LocalCommand { text, .. } => {
            rollback_entry(&Item::text(Role::User, text))
        }
        Record::Interruption => RollbackEntry::TurnBoundary,
        Record::Context { item, .. } => rollback_entry(item),
        Record::Assistant { .. }
        | Record::ToolResults { .. }
        | Record::Attachment(_)
        | Record::CompactBoundary { .. } => RollbackEntry::Other,
    }
}
