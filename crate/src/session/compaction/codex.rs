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
use crate::codex::compact::{
    build_compacted_history, collect_user_messages, insert_initial_context,
    is_contextual_user_message, is_summary_message, process_remote_compacted_history,
    InitialContextPlacement, SUMMARIZATION_PROMPT, SUMMARY_PREFIX,
};
use crate::codex::context::initial_context;
use crate::codex::history_tokens::estimate_item_tokens;
use crate::codex::items::{Item, Role};
use crate::compact::report::{
    CodexItemKind, CompactionPlan, CompactionReport, PlannedAttachment, PlannedKind, SummarySource,
};
use crate::compact::summary::{extractive_summary, format_compact_summary};
use crate::compact::survival::Snapshot;
use crate::session::Session;
use crate::transcript::Record;
use crate::vocabulary::Decision;
use crate::vocabulary::Trigger;
use crate::Error;

/// Files re-read after a compaction with the X1 opt-in.
const REREAD_FILES: usize = 5;

impl Session {
    /// Fills a Codex compaction's plan.
    pub(super) fn plan_codex(&mut self, plan: &mut CompactionPlan, remote: bool, mid_turn: bool) {
        let items = self.codex_items();
        let users = collect_user_messages(&items);
        let history = self.codex_history(&users, "", remote, mid_turn, 0);
        plan.summary_request = Some(String::from(SUMMARIZATION_PROMPT));
        plan.summarised_records = self.conversation.transcript.len();
        plan.kept_records = users.len();
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
            users.len(),
            match mid_turn {
                true => ", with the initial context before the last user message",
                false => "; the next turn sends the whole initial context again",
            }
        );
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
        let before = self.peek_request(at_ms);
        let snapshot = Snapshot::of(
            self.conversation.transcript.messages(),
            &self.workspace,
            request_tokens(&before),
        );
        let items = self.codex_items();
        let suffix = self.codex_summary_suffix(summary)?;
        let summary_text = format!("{SUMMARY_PREFIX}\n{suffix}");
        let users = collect_user_messages(&items);
        let mut decisions = plan.decisions.clone();
        let history = self.codex_history(&users, &summary_text, remote, mid_turn, at_ms);
        self.replace_with_history(plan.trigger, plan.tokens_before, history);
        let settings = self.current_turn_settings(at_ms);
        // §2.6: mid-turn compaction re-injected the context, so the baseline is the current
        // settings; every other compaction clears it and the next turn sends everything.
        self.conversation.codex.baseline = mid_turn.then_some(settings);
        if self.profile.codex.reread_edited_after_compaction {
            self.reread_edited(&mut decisions);
        }
        self.conversation.messages.clear();
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

    /// The replacement history, initial context included where the phase puts it.
    fn codex_history(
        &mut self,
        users: &[String],
        summary_text: &str,
        remote: bool,
        mid_turn: bool,
        at_ms: u64,
    ) -> Vec<Item> {
        let history = match remote {
            false => build_compacted_history(users, summary_text).items,
            true => {
                // The server's answer is opaque: modelled as the kept messages and one
                // `compaction` item the size of the summary.
                let mut output: Vec<Item> =
                    users.iter().map(|u| Item::text(Role::User, u)).collect();
                output.push(Item::Compaction {
                    encrypted_content: "x".repeat(summary_text.len()),
                });
                process_remote_compacted_history(output).items
            }
        };
        let placement = match mid_turn {
            true => InitialContextPlacement::BeforeLastUserMessage,
            false => InitialContextPlacement::DoNotInject,
        };
        let settings = self.current_turn_settings(at_ms);
        let agents_md = self.conversation.codex.agents_md.clone().flatten();
        let context = initial_context(
            &self.profile.codex.context,
            &settings,
            self.conversation.codex.previous_model.as_deref(),
            agents_md.as_deref(),
        );
        insert_initial_context(history, context.items, placement)
    }

    /// The model's answer to the compaction prompt: the host's text, or the extractive
    /// summary of the records.
    fn codex_summary_suffix(&self, summary: Option<&str>) -> Result<String, Error> {
        match summary {
            Some(text) if text.trim().is_empty() => Err(Error::InvalidConfig {
                field: "summary".into(),
                reason: "is empty; give the summary text, or none to use the extractive summariser"
                    .into(),
            }),
            Some(text) => Ok(text.into()),
            None => {
                let built = extractive_summary(self.conversation.transcript.messages());
                Ok(format_compact_summary(&built.text))
            }
        }
    }

    /// The transcript becomes the boundary and the replacement history's items.
    fn replace_with_history(&mut self, trigger: Trigger, tokens_before: u64, history: Vec<Item>) {
        let transcript = &mut self.conversation.transcript;
        transcript.replace(Vec::new());
        transcript.push(Record::CompactBoundary {
            trigger,
            tokens_before,
        });
        for item in history {
            let record = match (&item, item.message_text()) {
                (
                    Item::Message {
                        role: Role::User,
                        content,
                    },
                    Some(text),
                ) if !is_contextual_user_message(content) => match is_summary_message(&text) {
                    true => Record::Summary { text },
                    false => Record::Prompt { text },
                },
                _ => Record::Context {
                    source: "initial-context",
                    item,
                },
            };
            transcript.push(record);
        }
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
        for attachment in out.attachments {
            self.conversation
                .transcript
                .push(Record::Attachment(attachment));
        }
        decisions.extend(out.decisions);
    }
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
