//! The cheap policies on a live session: each rewrites tool results (or drops records) in
//! place of a summary, and reports like a summary policy does.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::report_of;
use super::request_tokens;
use crate::attachment::AttachmentKind;
use crate::attachment::{Attachment, Decision, Verdict};
use crate::compact::cheap::{cheap_outcome, CheapInputs, CheapOutcome, FileFacts};
use crate::compact::options::{CompactionOptions, Policy};
use crate::compact::report::{CompactionPlan, CompactionReport, SummarySource};
use crate::compact::summary::format_compact_summary;
use crate::request::tool_blocks;
use crate::session::Session;
use crate::tokens::estimate_tokens;
use crate::transcript::Record;
use crate::vfs::Content;

/// The memory tool's directory in the virtual file system.
const MEMORY_DIR: &str = "/memories";

impl Session {
    /// Fills a cheap policy's plan.
    pub(super) fn plan_cheap(&mut self, plan: &mut CompactionPlan, at_ms: u64) {
        let outcome = self.cheap_outcome(&plan.options, plan.tokens_before, at_ms);
        plan.decisions.extend(outcome.decisions.iter().cloned());
        plan.summary_request = outcome.summary_request.clone();
        plan.summarised_records = outcome.summarised_records;
        let changed = outcome.records.as_slice() != self.conversation.transcript.messages();
        plan.kept_records = outcome.records.len();
        if outcome.warn_first {
            plan.applies = true;
            plan.reason = "the memory tool is on: a warning goes first so the model can save what \
                           matters under /memories; the next compaction clears"
                .into();
        } else if changed && outcome.summarised_records > 0 {
            plan.applies = true;
            plan.reason = format!(
                "{} records will be replaced by a summary and {} kept",
                outcome.summarised_records,
                outcome.records.len().saturating_sub(1)
            );
        } else if changed {
            plan.applies = true;
            let touched = outcome
                .decisions
                .iter()
                .filter(|d| d.verdict != Verdict::NotApplied)
                .count();
            plan.reason = format!("{touched} items will be cleared, masked or dropped");
        } else {
            plan.reason = outcome
                .decisions
                .iter()
                .find(|d| d.verdict == Verdict::NotApplied || d.verdict == Verdict::Skipped)
                .map_or_else(|| String::from("nothing qualifies"), |d| d.reason.clone());
        }
    }

    /// Carries out a cheap policy's plan. A policy that summarises (OpenCode's, Cline's,
    /// Aider's) uses the host's `summary` when it has text, the extractive one otherwise.
    pub(super) fn apply_cheap(
        &mut self,
        plan: &CompactionPlan,
        summary: Option<&str>,
        at_ms: u64,
    ) -> CompactionReport {
        let (before, snapshot) = self.before_compaction(at_ms);
        let mut outcome = self.cheap_outcome(&plan.options, before.tokens.total, at_ms);
        let summary = take_summary(&mut outcome, summary);
        let mut decisions = outcome.decisions;
        if outcome.warn_first {
            let text = crate::wording::compaction::memory_warning(MEMORY_DIR);
            let warning = Attachment::new(
                AttachmentKind::MemoryWarning,
                None,
                text,
                self.profile.token_method,
            );
            self.conversation
                .transcript
                .push(Record::Attachment(warning));
            self.conversation.memory_warning_given = true;
            decisions.push(Decision::new("memory warning", Verdict::Included, "the memory tool is on: the model is warned before anything is cleared (externalise before evict)"));
        } else {
            self.conversation.transcript.replace(outcome.records);
            self.conversation.memory_warning_given = false;
            for saved in &outcome.persisted {
                let content = Content::Text(saved.content.as_str().into());
                let _ = self.workspace.vfs.write_file(&saved.path, content, at_ms);
            }
        }
        self.conversation.transcript_rewritten();
        let after = self.peek_request(at_ms);
        let reason = plan.reason.clone();
        let mut report = report_of(plan, true, reason, &before, &after, decisions);
        report.kept_records = self.conversation.transcript.len();
        if let Some((text, source)) = summary {
            report.summary = Some(text);
            report.summary_source = source;
        }
        self.survival()
            .finish_report(&mut report, &snapshot, request_tokens(&after));
        report
    }

    /// Runs `policy` over the transcript without changing it.
    fn cheap_outcome(
        &self,
        options: &CompactionOptions,
        request_tokens: u64,
        at_ms: u64,
    ) -> CheapOutcome {
        let files = match options.policy {
            Policy::FileTracker | Policy::ReadGuard | Policy::AiderBudgets(_) => self.file_facts(),
            _ => Vec::new(),
        };
        let tools = match options.policy {
            Policy::ContinueCounting(_) => self.tool_definitions(),
            _ => Vec::new(),
        };
        let inputs = CheapInputs {
            request_tokens,
            at_ms,
            last_assistant_ms: self.conversation.last_assistant_ms,
            memory_warning_given: self.conversation.memory_warning_given,
            context_window: self.config.context_window,
            method: self.profile.token_method,
            files: &files,
            tool_tokens: tool_blocks(&tools, self.profile.token_method)
                .iter()
                .map(|block| block.tokens)
                .sum(),
            tools: &tools,
            instructions: options.instructions.as_deref(),
        };
        let records = self.conversation.transcript.messages();
        cheap_outcome(records, &options.policy, &inputs)
    }

    /// Every file in the read-file state, with the time the agent last saw and the time now.
    fn file_facts(&self) -> Vec<FileFacts> {
        let vfs = &self.workspace.vfs;
        self.workspace
            .file_state
            .entries()
            .map(|(path, entry)| {
                let current = vfs.stat(path).ok().map(|stat| stat.mtime_ms);
                let tokens = match vfs.read(path) {
                    Ok(Content::Text(text)) => {
                        estimate_tokens(&text, self.profile.token_method, None)
                    }
                    _ => 0,
                };
                FileFacts {
                    path: String::from(path),
                    seen_mtime_ms: entry.timestamp,
                    current_mtime_ms: current,
                    tokens,
                }
            })
            .collect()
    }
}

/// The summary a summarising policy's outcome carries: the host's, put in place of the
/// extractive one when it has text, with where it came from.
fn take_summary(outcome: &mut CheapOutcome, host: Option<&str>) -> Option<(String, SummarySource)> {
    if outcome.summarised_records == 0 {
        return None;
    }
    let Some(Record::Summary { text }) = outcome.records.first_mut().map(|m| &mut m.record) else {
        return None;
    };
    let formatted = host.map(format_compact_summary).filter(|s| !s.is_empty());
    let source = match formatted {
        Some(host_text) => {
            *text = host_text;
            SummarySource::Host
        }
        None => SummarySource::Extractive,
    };
    Some((text.clone(), source))
}
