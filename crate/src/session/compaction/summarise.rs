//! The summary policies: full compaction (§9.3), session-memory compaction (§9.8) and
//! partial compaction (§9.9). Each splits the records into a summarised part and a kept
//! part, then rebuilds the transcript as boundary, summary, kept records, post-compact
//! attachments (§9.3 item 7).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::mem;

use super::report_of;
use super::request_tokens;
use crate::attachment::{Attachment, AttachmentKind, Collected, Verdict};
use crate::compact::kept_tail::{kept_tail_start, preserve_api_invariants, KeptTailConfig};
use crate::compact::options::{Policy, Trigger};
use crate::compact::partial::{split_at_pivot, PartialDirection};
use crate::compact::policies::total_tokens;
use crate::compact::prompt_too_long::{retry_after_refusals, retry_keeping_turns, PromptTooLong};
use crate::compact::report::{CompactionPlan, CompactionReport, SummarySource};
use crate::compact::rules::CompactionRules;
use crate::compact::summary::{
    compact_command_messages, extractive_summary, format_compact_summary, summary_message,
    summary_message_naming_tools, summary_request,
};
use crate::request::Request;
use crate::session::pipeline::ENVIRONMENT_WITH_SUMMARY;
use crate::session::Session;
use crate::tokens::estimate_tokens;
use crate::tokens::TokenMethod;
use crate::transcript::{AssistantBlock, Message, Record, Transcript};
use crate::vocabulary::Decision;
use crate::Error;

/// The records a summary replaces and the records it keeps, with where the kept ones go.
pub(super) struct Split {
    pub(super) summarised: Vec<Message>,
    pub(super) kept: Vec<Message>,
    /// The kept records come before the summary (partial compaction `from`).
    pub(super) kept_first: bool,
}

impl Session {
    /// Fills a summary policy's plan.
    pub(super) fn plan_summary(&mut self, plan: &mut CompactionPlan) {
        let split = match split_records(
            self.conversation.transcript.messages(),
            &plan.options.policy,
            &self.profile.compaction,
            self.profile.token_method,
            &mut plan.decisions,
        ) {
            Ok(split) => split,
            Err(error) => {
                plan.reason = format!("{error}");
                return;
            }
        };
        if split.summarised.is_empty() {
            plan.reason = "every record would be kept: there is nothing to summarise".into();
            return;
        }
        let is_session_memory = plan.options.policy == Policy::SessionMemory;
        plan.summary_request = Some(summary_request(plan.options.instructions.as_deref()));
        plan.summarised_records = split.summarised.len();
        plan.kept_records = split.kept.len();
        if !is_session_memory {
            plan.cleared.read_files = self.workspace.file_state.keys().map(String::from).collect();
        }
        plan.cleared.nested_memory = self.workspace.loaded_memory_paths();
        plan.decisions.push(Decision::new(
            "skill listing",
            Verdict::Unchanged,
            "the names of skills already listed are not cleared, so the listing is not sent \
             again after the summary (§9.3 item 5)",
        ));
        let mut out = Collected::default();
        let file_state = self.workspace.file_state_entries();
        let (attachments, _) =
            self.post_compact(&file_state, &split.kept, is_session_memory, true, &mut out);
        plan.post_compact = attachments
            .iter()
            .map(|a| super::PlannedAttachment {
                kind: super::PlannedKind::Attachment(a.kind),
                path: a.path.clone(),
                tokens: a.tokens,
            })
            .collect();
        plan.decisions.extend(out.decisions);
        plan.applies = true;
        plan.reason = format!(
            "{} records will be replaced by a summary and {} kept; {} attachments follow it",
            plan.summarised_records,
            plan.kept_records,
            plan.post_compact.len()
        );
    }

    /// Carries out a summary policy's plan.
    pub(super) fn apply_summary(
        &mut self,
        plan: &CompactionPlan,
        refusals: &[PromptTooLong],
        summary: Option<&str>,
        at_ms: u64,
    ) -> Result<CompactionReport, Error> {
        let mut decisions = plan.decisions.clone();
        let mut split = split_records(
            self.conversation.transcript.messages(),
            &plan.options.policy,
            &self.profile.compaction,
            self.profile.token_method,
            &mut Vec::new(),
        )?;
        // §9.3 item 4: each refusal of the summary request leaves its oldest rounds out, or,
        // in 2.1.332, keeps one more human turn out of it.
        let retried = match self.profile.compaction.prompt_too_long_keeps_turns {
            true => keep_more_turns(&mut split, refusals).map(|retries| (0, retries)),
            false => retry_after_refusals(&split.summarised, refusals, self.profile.token_method)
                .map(|(dropped, retries)| {
                    split.summarised.drain(..dropped);
                    (dropped, retries)
                }),
        };
        let left_out = match retried {
            Ok((left_out, retries)) => {
                decisions.extend(retries);
                left_out
            }
            Err((retries, message)) => {
                decisions.extend(retries);
                return Ok(self.unapplied_report_because(plan, message, decisions, at_ms));
            }
        };
        let (mut formatted, source) = summary_text(
            summary,
            &split.summarised,
            self.profile.token_method,
            self.config.context_window,
        )?;
        let mut is_session_memory = plan.options.policy == Policy::SessionMemory;
        let auto = plan.trigger == Trigger::Auto;
        let (before, snapshot) = self.before_compaction(at_ms);
        let threshold = self.thresholds().autocompact;
        let method = self.profile.token_method;
        if is_session_memory
            && session_memory_too_large(&before, &split, &formatted, method, threshold)
        {
            // §9.8: a session-memory compaction that would not get under the threshold
            // gives way to a full one.
            decisions.push(Decision::new(
                "session-memory compaction",
                Verdict::Skipped,
                "the kept tail and the summary would still reach the auto-compact threshold: a full \
                 compaction runs instead (§9.8)",
            ));
            split = split_records(
                self.conversation.transcript.messages(),
                &Policy::Full,
                &self.profile.compaction,
                self.profile.token_method,
                &mut decisions,
            )?;
            formatted = summary_text(
                summary,
                &split.summarised,
                self.profile.token_method,
                self.config.context_window,
            )?
            .0;
            is_session_memory = false;
        }
        let transcript_path = self.config.transcript_path.clone();
        let message = match self.profile.compaction.summary_names_tools_used {
            true => summary_message_naming_tools(
                &formatted,
                transcript_path.as_deref(),
                &tools_called(&split.summarised),
                !split.kept.is_empty(),
            ),
            false => summary_message(
                &formatted,
                transcript_path.as_deref(),
                is_session_memory,
                auto,
            ),
        };
        let file_state = self.workspace.file_state_entries();
        if !is_session_memory {
            self.workspace.file_state.clear();
        }
        self.workspace.loaded_memory.clear();
        let with_summary = self.profile.compaction.context_with_auto_summary
            && self.profile.attachments.context_as_attachments;
        let context = match auto && with_summary {
            true => self.context_with_summary(at_ms),
            false => Collected::default(),
        };
        let (around_summary, after_attachments) = place_context(&context.attachments);
        rebuild_transcript(
            &mut self.conversation.transcript,
            plan,
            &split,
            message.clone(),
            around_summary,
        );
        self.conversation.reported_usage.clear();
        let mut out = Collected::default();
        let (attachments, reads) =
            self.post_compact(&file_state, &split.kept, is_session_memory, false, &mut out);
        let typed = typed_compact(plan);
        let own_triggers = typed
            && !reads.is_empty()
            && !self.profile.compaction.manual_restore_loads_nested_memory;
        // A typed /compact restores with its own context: the nested-memory triggers its
        // Reads add are that command's, dropped with it (§8.1, §9.4).
        self.workspace.remember_restored(reads, own_triggers);
        if own_triggers {
            decisions.push(Decision::new(
                "restore",
                Verdict::Skipped,
                "a typed /compact reads the restored files in its own context: their \
                 nested-memory triggers are dropped with it, so no CLAUDE.md or rule loads for \
                 them on the next turn",
            ));
        }
        self.conversation.transcript.push_attachments(&attachments);
        self.conversation
            .transcript
            .push_attachments(&after_attachments);
        if context.attachments.is_empty() && self.environment_follows_summary() {
            let mut environment = Collected::default();
            self.environment(&mut environment, ENVIRONMENT_WITH_SUMMARY);
            (self.conversation.transcript).push_attachments(&environment.attachments);
            decisions.extend(environment.decisions);
            self.conversation.environment_sent_with_summary = true;
        }
        if typed && self.profile.compaction.keep_command_messages {
            // §9.3 item 7: the command's caveat, input and output stay after the summary.
            let instructions = plan.options.instructions.as_deref();
            for (text, meta) in compact_command_messages(instructions, self.config.print_mode) {
                let record = Record::LocalCommand { text, meta };
                self.conversation.transcript.push(record);
            }
            decisions.push(Decision::new(
                "/compact",
                Verdict::Included,
                "the command's caveat, input and output follow the summary, as the original \
                 keeps them (§9.3 item 7)",
            ));
        }
        decisions.extend(out.decisions);
        if context.attachments.is_empty() {
            // §9.11: the user context (CLAUDE.md, the date) is computed again, for the next
            // request or, after an auto-compaction inside a turn, the next human turn.
            self.expire_user_context(auto);
        }
        decisions.extend(context.decisions);
        self.conversation.transcript_rewritten();
        let after = self.peek_request(at_ms);
        let mut reason = format!(
            "{} records were replaced by a summary ({source}); {} kept, {} attachments follow",
            split.summarised.len() + left_out,
            split.kept.len(),
            attachments.len()
        );
        if left_out > 0 {
            reason.push_str(&format!(
                "; the oldest {left_out} were left out of the summary request, which was \
                 refused as too long (§9.3 item 4)"
            ));
        }
        let mut report = report_of(plan, true, reason, &before, &after, decisions);
        report.summary_source = source;
        report.summary = Some(message);
        report.kept_records = split.kept.len();
        self.survival()
            .account_attachments(&mut report, &attachments);
        self.survival()
            .finish_report(&mut report, &snapshot, request_tokens(&after));
        Ok(report)
    }
}

/// Whether a session-memory compaction's result would still reach the auto-compact
/// threshold: the request outside the messages, the kept tail and the summary.
fn session_memory_too_large(
    before: &Request,
    split: &Split,
    summary: &str,
    method: TokenMethod,
    threshold: u64,
) -> bool {
    let outside = (before.tokens.total).saturating_sub(before.tokens.by_channel.messages);
    let kept = total_tokens(&split.kept, method);
    outside + kept + estimate_tokens(summary, method, None) >= threshold
}

/// 2.1.332's retries of a refused summary request ([`retry_keeping_turns`]): each moves the
/// records after one more human prompt from the summarised part to the kept one.
fn keep_more_turns(
    split: &mut Split,
    refusals: &[PromptTooLong],
) -> Result<Vec<crate::attachment::Decision>, (Vec<crate::attachment::Decision>, String)> {
    if refusals.is_empty() || split.kept_first {
        return Ok(Vec::new());
    }
    let mut records = mem::take(&mut split.summarised);
    let kept_start = records.len();
    records.append(&mut split.kept);
    let outcome = retry_keeping_turns(&records, history_end(&records), kept_start, refusals);
    let start = outcome.as_ref().map_or(kept_start, |(start, _)| *start);
    split.kept = records.split_off(start);
    split.summarised = records;
    outcome.map(|(_, decisions)| decisions)
}

/// Where the history ends: a compaction before a new turn's request finds its prompt and
/// attachments recorded already, and they stay after the summary.
fn history_end(records: &[Message]) -> usize {
    (records.iter())
        .rposition(|m| !matches!(m.record, Record::Prompt { .. } | Record::Attachment(_)))
        .map_or(0, |last| last + 1)
}

/// Splits `records` for a summary policy; the full policies keep the profile's last
/// `keep_recent_records`, session memory a tail sized by §9.8 (Q45 as the rules say).
fn split_records(
    records: &[Message],
    policy: &Policy,
    rules: &CompactionRules,
    method: TokenMethod,
    decisions: &mut Vec<crate::attachment::Decision>,
) -> Result<Split, Error> {
    let at = |start: usize| Split {
        summarised: records.get(..start).unwrap_or_default().to_vec(),
        kept: records.get(start..).unwrap_or_default().to_vec(),
        kept_first: false,
    };
    match policy {
        Policy::SessionMemory => {
            let config = KeptTailConfig {
                ignores_string_content: rules.kept_tail_ignores_string_content,
                ..KeptTailConfig::default()
            };
            let tail = kept_tail_start(records, None, &config, method);
            decisions.extend(tail.decisions);
            Ok(at(tail.start))
        }
        Policy::Partial { pivot, direction } => {
            let split = split_at_pivot(records, *pivot, *direction)?;
            decisions.extend(split.decisions);
            Ok(Split {
                summarised: split.summarised,
                kept: split.kept,
                kept_first: *direction == PartialDirection::From,
            })
        }
        _ => {
            let keep = rules.keep_recent_records;
            if keep == 0 {
                return Ok(at(records.len()));
            }
            // The new turn's prompt and attachments stay after the summary: the records
            // kept are the last ones before them.
            let wanted = history_end(records).saturating_sub(keep);
            let start = preserve_api_invariants(records, wanted);
            decisions.push(Decision::new(
                "kept tail",
                Verdict::Included,
                format!(
                    "the last {} records are kept verbatim (asked: {keep}; moved earlier so \
                     no tool call loses its result)",
                    records.len() - start
                ),
            ));
            Ok(at(start))
        }
    }
}

/// The formatted summary and where it came from; a host summary must have text and fit
/// the context window.
fn summary_text(
    summary: Option<&str>,
    summarised: &[Message],
    method: TokenMethod,
    context_window: u64,
) -> Result<(String, SummarySource), Error> {
    let Some(raw) = summary else {
        let built = extractive_summary(summarised);
        return Ok((
            format_compact_summary(&built.text),
            SummarySource::Extractive,
        ));
    };
    let formatted = format_compact_summary(raw);
    if formatted.is_empty() {
        return Err(Error::InvalidConfig {
            field: "summary".into(),
            reason: "is empty once its <analysis> block and whitespace are removed; give \
                     the summary text, or none to use the extractive summariser"
                .into(),
        });
    }
    let tokens = estimate_tokens(&formatted, method, None);
    if tokens > context_window {
        return Err(Error::InvalidConfig {
            field: "summary".into(),
            reason: format!(
                "is {tokens} tokens, larger than the context window of {}; a summary must \
                 fit the window",
                context_window
            ),
        });
    }
    Ok((formatted, SummarySource::Host))
}

/// The tools the records called, each once, in alphabetical order (as 2.1.332 names them).
fn tools_called(records: &[Message]) -> Vec<&str> {
    let mut names: Vec<&str> = (records.iter())
        .filter_map(|message| match &message.record {
            Record::Assistant {
                block: AssistantBlock::ToolUse(call),
                ..
            } => Some(call.name.as_str()),
            // A mentioned or restored file is shown to the model as a call of Read, and
            // 2.1.332 names Read for it (a directory's `ls` is not named Bash).
            Record::Attachment(attachment) if attachment.kind == AttachmentKind::File => {
                Some("Read")
            }
            _ => None,
        })
        .collect();
    crate::sort::sort(&mut names);
    names.dedup();
    names
}

/// The session's context an auto-compaction sends with its summary (2.1.332): the CLAUDE.md
/// and repository reminders before the summary, the date note right after it; and what
/// follows the restored files: the attribution and the environment note.
fn place_context(context: &[Attachment]) -> (AroundSummary, Vec<Attachment>) {
    let mut around = AroundSummary::default();
    let mut after = Vec::new();
    for attachment in context {
        match attachment.kind {
            AttachmentKind::Instructions | AttachmentKind::SessionContext => {
                around.before.push(attachment.clone());
            }
            AttachmentKind::Date => around.after.push(attachment.clone()),
            _ => after.push(attachment.clone()),
        }
    }
    (around, after)
}

/// Attachments recorded just before and just after the summary.
#[derive(Default)]
struct AroundSummary {
    before: Vec<Attachment>,
    after: Vec<Attachment>,
}

/// Boundary, summary and kept records, in the order of §9.3 item 7, with `around` the
/// summary.
fn rebuild_transcript(
    transcript: &mut Transcript,
    plan: &CompactionPlan,
    split: &Split,
    message: String,
    around: AroundSummary,
) {
    transcript.replace(Vec::new());
    let kept = split.kept.iter().map(|m| m.record.clone());
    if split.kept_first {
        for record in kept.clone() {
            transcript.push(record);
        }
    }
    transcript.push(Record::CompactBoundary {
        trigger: plan.trigger,
        tokens_before: plan.tokens_before,
    });
    transcript.push_attachments(&around.before);
    transcript.push(Record::Summary { text: message });
    transcript.push_attachments(&around.after);
    if !split.kept_first {
        for record in kept {
            transcript.push(record);
        }
    }
}

/// A compaction the user typed (`/compact`): manual, and one of the policies the command
/// runs (full, or session memory when no instructions are given).
fn typed_compact(plan: &CompactionPlan) -> bool {
    plan.trigger == Trigger::Manual
        && matches!(plan.options.policy, Policy::Full | Policy::SessionMemory)
}
