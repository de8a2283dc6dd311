//! A human turn the way Codex runs one (codex.md §1.7): compaction first if the context
//! reached the limit, then the context items — the whole initial context when there is no
//! baseline, else only the settings that changed — then the user's message. Codex keeps no
//! file state and sends no reminders.

use alloc::string::String;

use super::turn::{Round, Turn};
use super::{local_date, Session};
use crate::attachment::{Collected, Verdict};
use crate::codex::context::{Skill as CodexSkill, SkillScope, TurnSettings};
use crate::codex::paste::expand_pastes;
use crate::codex::session_state::{SessionFacts, TurnContext};
use crate::codex::truncate::{
    check_user_input, truncate_middle, TruncationPolicy, MAX_USER_INPUT_TEXT_CHARS,
};
use crate::transcript::Record;

/// Bytes kept free for the `…N chars truncated…` marker when X25's option cuts a prompt.
const OVERSIZE_MARKER_ROOM: usize = 64;

impl Session {
    /// The settings the next turn's context is built from (Codex's `TurnContext`): the
    /// model, approval policy, sandbox, personality… The cwd, date, skills and window are
    /// the session's.
    pub fn turn_settings(&self) -> &TurnSettings {
        self.conversation.codex.settings()
    }

    /// Changes the settings of the next turns; a Codex session records only what changed
    /// (codex.md §2).
    pub fn set_turn_settings(&mut self, settings: TurnSettings) {
        self.conversation.codex.set_settings(settings);
    }

    /// A human turn typed in Codex's composer with large pastes: `shown` holds their
    /// `[Pasted Content {n} chars]` placeholders, expanded on submit (codex.md §3.4).
    ///
    /// # Errors
    /// The profile is not Codex's, or a paste is short enough to be typed text
    /// ([`crate::codex::paste::expand_pastes`]).
    pub fn submit_pasted(
        &mut self,
        shown: &str,
        pastes: &[String],
        at_ms: u64,
    ) -> Result<Turn, crate::Error> {
        self.require_codex("pastes")?;
        let expanded = expand_pastes(shown, pastes)?;
        let mut turn = self.submit_with_memories(&expanded.text, None, at_ms);
        turn.decisions.splice(0..0, expanded.decisions);
        Ok(turn)
    }

    /// A human turn under Codex's rules.
    pub(super) fn codex_submit(&mut self, prompt: &str, at_ms: u64) -> Turn {
        let mut out = Collected::default();
        let cut;
        let prompt = match check_user_input(prompt) {
            Ok(()) => prompt,
            Err(error) if self.profile.codex.truncate_oversize_input => {
                // Room for the marker, so that the cut prompt passes the limit itself.
                let budget = (MAX_USER_INPUT_TEXT_CHARS - OVERSIZE_MARKER_ROOM) as u64;
                cut = truncate_middle(prompt, TruncationPolicy::Bytes(budget)).text;
                let reason =
                    alloc::format!("{error}: middle-truncated to fit instead (X25, option)");
                out.decide("prompt", Verdict::Truncated, reason, None);
                cut.as_str()
            }
            Err(error) => {
                out.decide("prompt", Verdict::Failed, alloc::format!("{error}"), None);
                return Turn::from_collected(Round::Event, out);
            }
        };
        // Pre-turn compaction runs before the context and the message are recorded, so the
        // incoming message is never summarised (X9).
        // A switch to a model with a smaller window compacts first (§4.2 item 1), then the
        // context is checked against the limit as every turn's is.
        let mut compaction = self.downshift_compact(at_ms, &mut out);
        let tokens = self.peek_request(at_ms).tokens.total;
        compaction.extend(self.auto_compact(tokens, at_ms, false, &mut out));
        let facts = self.codex_facts(at_ms);
        let context =
            (self.conversation.codex).record_turn(&self.profile.codex, &facts, &self.workspace.vfs);
        self.record_context(context, &mut out);
        // Codex attaches nothing for an `@path` (the path is plain text, §6.2); the
        // mention pass says so for each one.
        self.file_context().mentioned_files(prompt, &mut out);
        self.conversation.transcript.push(Record::Prompt {
            text: prompt.into(),
        });
        // The policies the session keeps on act here too: what they decided since the last
        // request, and the file tracker's list after the message (strategies.md §4.4).
        out.decisions
            .append(&mut self.conversation.policies.decisions);
        let listed = out.attachments.len();
        self.recently_modified_files(&mut out);
        (self.conversation.transcript).push_attachments(&out.attachments[listed..]);
        let mut turn = Turn::from_collected(Round::HumanTurn, out);
        turn.compaction = compaction;
        turn.request = Some(self.request(at_ms));
        turn
    }

    /// \[C\]'s world-state capture before a tool round's request (codex.md §10.5): the
    /// changes since the turn began are recorded before the request.
    pub(super) fn codex_step_capture(&mut self, at_ms: u64, out: &mut Collected) {
        let facts = self.codex_facts(at_ms);
        let Some(context) = (self.conversation.codex).record_step(&self.profile.codex, &facts)
        else {
            return;
        };
        self.record_context(context, out);
    }

    /// Stores a turn context's items where they were recorded, and keeps its decisions.
    fn record_context(&mut self, context: TurnContext, out: &mut Collected) {
        for item in context.items {
            let record = Record::Context {
                source: context.source,
                item,
            };
            self.conversation.transcript.push(record);
        }
        out.decisions.extend(context.decisions);
    }

    /// The session's parts of a Codex turn's settings at `at_ms`.
    pub(super) fn codex_facts(&self, at_ms: u64) -> SessionFacts {
        let skills = (self.config.skills.iter())
            .map(|skill| CodexSkill {
                name: skill.name.clone(),
                description: skill.description.clone(),
                path: self.workspace.skill_path(&skill.name),
                scope: SkillScope::Repo,
            })
            .collect();
        SessionFacts {
            cwd: self.workspace.cwd.clone(),
            home: self.workspace.home.clone(),
            current_date: local_date(at_ms, self.config.utc_offset_minutes),
            context_window: self.config.context_window,
            skills,
        }
    }
}
