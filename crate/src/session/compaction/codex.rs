//! Codex's compaction on a live session (codex.md §4.3–§4.6): the summary request is a user
//! message; the replacement history keeps up to 20,000 tokens of real user messages, newest
//! first, then the summary with its prefix; the initial context comes back before the last
//! user message mid-turn, or with the next turn otherwise (the baseline is cleared). Remote
//! compaction keeps the user messages and an opaque `compaction` item. Nothing else returns:
//! no files, no plan (X1) — unless the opt-in re-read of edited files is on.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::report_of;
use super::request_tokens;
use crate::attachment::{Collected, Verdict};
use crate::codex::compact::pretrim::pretrim_for_remote;
use crate::codex::compact::{
    collect_user_messages, is_contextual_user_message, is_summary_message, SUMMARIZATION_PROMPT,
    SUMMARY_PREFIX,
};
use crate::codex::history_tokens::estimate_item_tokens;
use crate::codex::items::{Item, Role};
use crate::compact::options::{CompactionOptions, Policy, Trigger};
use crate::compact::report::{
    CodexItemKind, CompactionPlan, CompactionReport, PlannedAttachment, PlannedKind, SummarySource,
};
use crate::compact::summary::{extractive_summary, format_compact_summary};
use crate::session::Session;
use crate::transcript::Message;
use crate::vocabulary::Decision;
use crate::Error;

/// Files re-read after a compaction with the X1 opt-in.
const REREAD_FILES: usize = 5;

impl Session {
    /// Fills a Codex compaction's plan.
    pub(super) fn plan_codex(&mut self, plan: &mut CompactionPlan, remote: bool, mid_turn: bool) {
        let mid_turn = self.context_goes_before_last_user_message(mid_turn);
        let items = self.conversation.transcript.codex_items();
        let users = collect_user_messages(&items);
        let (history, loaded) = self.codex_history(&items, "", remote, mid_turn, 0);
        plan.decisions.extend(loaded);
        if remote {
            plan.decisions.extend(self.codex_pretrim(items));
        }
        let records = self.conversation.transcript.len();
        fill_codex_plan(plan, records, users.len(), &history, mid_turn);
    }

    /// Carries out a Codex compaction.
    pub(super) fn apply_codex(
        &mut self,
        plan: &CompactionPlan,
        summary: Option<&str>,
        remote: bool,
        mid_turn: bool,
        at_ms: u64,
    ) -> Result<CompactionReport, Error> {
        let mid_turn = self.context_goes_before_last_user_message(mid_turn);
        let (before, snapshot) = self.before_compaction(at_ms);
        let transcript = &mut self.conversation.transcript;
        let suffix = codex_summary_suffix(summary, transcript.messages())?;
        let summary_text = format!("{SUMMARY_PREFIX}\n{suffix}");
        let items = transcript.codex_items();
        let users = collect_user_messages(&items);
        let mut decisions = plan.decisions.clone();
        let (history, loaded) = self.codex_history(&items, &summary_text, remote, mid_turn, at_ms);
        decisions.extend(loaded);
        let transcript = &mut self.conversation.transcript;
        transcript.replace_with_codex_history(plan.trigger, plan.tokens_before, history);
        let facts = self.codex_facts(at_ms);
        self.conversation.codex.after_compaction(&facts, mid_turn);
        if self.profile.codex.reread_edited_after_compaction {
            self.reread_edited(&mut decisions);
        }
        self.conversation.transcript_rewritten();
        let after = self.peek_request(at_ms);
        let reason = format!(
            "{} user messages kept and the summary{}",
            users.len(),
            if remote {
                " as an opaque compaction item"
            } else {
                ""
            }
        );
        let mut report = report_of(plan, true, reason, &before, &after, decisions);
        report.summary_source = if summary.is_some() {
            SummarySource::Host
        } else {
            SummarySource::Extractive
        };
        report.summary = Some(summary_text);
        report.kept_records = users.len();
        self.survival()
            .finish_report(&mut report, &snapshot, request_tokens(&after));
        Ok(report)
    }

    /// Codex's model-downshift compaction before a turn (codex.md §4.2 item 1): when the
    /// turn switches to another model whose effective window is smaller than the previous
    /// turn's, and the context is over the new model's auto-compact limit (or fills its
    /// effective window), the history is compacted first under the previous turn's
    /// settings and window — the model that can still hold it — before the new model's
    /// context and the user's message are recorded. Like a pre-turn compaction it clears
    /// the baseline, so the next turn sends the whole initial context, `<model_switch>`
    /// first (§2.5, §2.6 item 2). The decision says which of the conditions held.
    pub(in crate::session) fn downshift_compact(
        &mut self,
        at_ms: u64,
        out: &mut Collected,
    ) -> Vec<CompactionReport> {
        let subject = "model-downshift compaction";
        if !self.auto_compact_allowed() {
            return Vec::new();
        }
        let codex = &self.conversation.codex;
        let Some(previous) = codex.previous_turn_settings().cloned() else {
            return Vec::new();
        };
        let next = codex.settings().clone();
        let old_window = previous
            .context_window
            .unwrap_or(self.config.context_window);
        let (old, new) = (self.thresholds_for(old_window), self.thresholds());
        if previous.model == next.model || old.effective_window <= new.effective_window {
            return Vec::new();
        }
        let estimate = self.peek_request(at_ms).tokens.total;
        let size = self.context_size(estimate);
        let switch = format!(
            "the turn switches from {} (effective window {}) to {} (effective window {}, \
             auto-compact limit {})",
            previous.model, old.effective_window, next.model, new.effective_window, new.autocompact
        );
        if size.tokens <= new.autocompact && size.tokens < new.effective_window {
            let reason = format!(
                "{switch}, but the context, {}, fits the new model's limit: nothing to \
                 compact first (codex.md §4.2)",
                size.explain()
            );
            out.decide(subject, Verdict::NotApplied, reason, None);
            return Vec::new();
        }
        let reason = format!(
            "{switch}, and the context, {}, is {}: compacted before the turn with the \
             previous model's settings and window, which still hold it; the incoming message \
             is not part of it and the next context is sent whole, after the summary \
             (codex.md §4.2, §2.6)",
            size.explain(),
            match size.tokens >= new.effective_window {
                true => "at or over the new effective window",
                false => "over the new auto-compact limit",
            }
        );
        out.decide(subject, Verdict::Needed, reason, None);
        self.note_ignored_switch(out);
        // The compaction runs under the previous turn's context: its model, settings and
        // window; the host's settings for this turn come back after it.
        let window = core::mem::replace(&mut self.config.context_window, old_window);
        self.conversation.codex.set_settings(previous);
        let options = CompactionOptions {
            policy: Policy::automatic(&self.profile.codex, false),
            trigger: Trigger::Auto,
            instructions: None,
        };
        let result = self.compact(options, None, at_ms);
        self.config.context_window = window;
        self.conversation.codex.set_settings(next);
        match result {
            Ok(report) if report.applied => Vec::from([report]),
            Ok(report) => {
                out.decide(subject, Verdict::Failed, report.reason, None);
                Vec::new()
            }
            Err(error) => {
                out.decide(subject, Verdict::Failed, format!("{error}"), None);
                Vec::new()
            }
        }
    }

    /// Whether this compaction puts the initial context before the last real user message,
    /// as a mid-turn one does: under `context_before_last_user_message`, every one does.
    fn context_goes_before_last_user_message(&self, mid_turn: bool) -> bool {
        mid_turn || self.profile.codex.context_before_last_user_message
    }

    /// The replacement history, initial context included where the phase puts it, and the
    /// decisions of loading AGENTS.md for it: a resumed thread has not read it yet (its new
    /// process reads it from disk), so the context a compaction puts back carries the file
    /// as it is now (Codex 0.171.0, `lab/resume-agents-reload`).
    fn codex_history(
        &mut self,
        items: &[Item],
        summary_text: &str,
        remote: bool,
        mid_turn: bool,
        at_ms: u64,
    ) -> (Vec<Item>, Vec<Decision>) {
        let facts = self.codex_facts(at_ms);
        let loaded = if mid_turn {
            (self.conversation.codex).load_agents_md(&self.workspace.vfs, &facts)
        } else {
            Vec::new()
        };
        let rules = &self.profile.codex;
        let codex = &self.conversation.codex;
        let history =
            codex.replacement_history(rules, &facts, items, summary_text, remote, mid_turn);
        (history, loaded)
    }

    /// What a remote compaction's request rewrites first to fit the effective window
    /// (§4.6 step 1): the base instructions count as the request's system part.
    fn codex_pretrim(&mut self, items: Vec<Item>) -> Vec<Decision> {
        let window = self.thresholds().effective_window;
        let base = self.peek_request(0).tokens.by_channel.system;
        let strategy = self.profile.codex.pretrim_strategy;
        pretrim_for_remote(items, base, window, strategy).decisions
    }

    /// X1 opt-in: the files the agent edited, read again after the summary.
    fn reread_edited(&mut self, decisions: &mut Vec<crate::attachment::Decision>) {
        let mut out = Collected::default();
        let edited: Vec<String> = self
            .conversation
            .edited
            .iter()
            .rev()
            .take(REREAD_FILES)
            .cloned()
            .collect();
        for path in edited {
            let reason = "edited by the agent: read again after the compaction (X1, opt-in)";
            self.file_restore().reattach_file(&path, reason, &mut out);
        }
        (self.conversation.transcript).push_attachments(&out.attachments);
        decisions.extend(out.decisions);
    }
}

/// The model's answer to the compaction prompt: the host's text, or the extractive summary
/// of the records.
fn codex_summary_suffix(summary: Option<&str>, records: &[Message]) -> Result<String, Error> {
    match summary {
        Some(text) if text.trim().is_empty() => Err(Error::InvalidConfig {
            field: "summary".into(),
            reason: "is empty; give the summary text, or none to use the extractive summariser"
                .into(),
        }),
        Some(text) => Ok(text.into()),
        None => Ok(format_compact_summary(&extractive_summary(records).text)),
    }
}

/// A Codex compaction's plan: the summary request, the `users` retained user messages of
/// `records`, and the replacement history's items as what follows the summary.
fn fill_codex_plan(
    plan: &mut CompactionPlan,
    records: usize,
    users: usize,
    history: &[Item],
    mid_turn: bool,
) {
    plan.summary_request = Some(String::from(SUMMARIZATION_PROMPT));
    plan.summarised_records = records;
    plan.kept_records = users;
    plan.post_compact = history
        .iter()
        .map(|item| PlannedAttachment {
            kind: PlannedKind::CodexItem(item_kind(item)),
            path: None,
            tokens: estimate_item_tokens(item),
        })
        .collect();
    plan.decisions.push(Decision::new(
        "file state",
        Verdict::Skipped,
        "Codex keeps no read-file state, so nothing is cleared and no file is restored (X1, X2)",
    ));
    plan.applies = true;
    plan.reason = format!(
        "the history becomes {} retained user messages and the summary{}",
        users,
        match mid_turn {
            true => ", with the initial context before the last user message",
            false => "; the next turn sends the whole initial context again",
        }
    );
}

/// How a planned replacement item is listed.
fn item_kind(item: &Item) -> CodexItemKind {
    match item {
        Item::Message {
            role: Role::User,
            content,
        } if is_contextual_user_message(content) => CodexItemKind::ContextualUserMessage,
        Item::Message {
            role: Role::User, ..
        } => match item.message_text().is_some_and(|t| is_summary_message(&t)) {
            true => CodexItemKind::Summary,
            false => CodexItemKind::UserMessage,
        },
        Item::Message {
            role: Role::Developer,
            ..
        } => CodexItemKind::DeveloperMessage,
        Item::Compaction { .. } => CodexItemKind::Compaction,
        _ => CodexItemKind::Item,
    }
}
