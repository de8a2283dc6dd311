//! The cheap policies on a live session: each rewrites tool results (or drops records) in
//! place of a summary, and reports like a summary policy does.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::report_of;
use super::request_tokens;
use crate::attachment::AttachmentKind;
use crate::attachment::{Attachment, Decision, Verdict};
use crate::compact::microcompact::time_based_microcompact;
use crate::compact::options::Policy;
use crate::compact::policies::{clear_tool_uses, dedupe_reads, masking, prune, truncate};
use crate::compact::report::{CompactionPlan, CompactionReport};
use crate::compact::survival::Snapshot;
use crate::compact::tool_result_budget::{apply_tool_result_budget, PersistedOutput};
use crate::session::Session;
use crate::transcript::{Message, Record, ToolUse};
use crate::vfs::Content;

/// The memory tool's directory in the virtual file system.
const MEMORY_DIR: &str = "/memories";

/// What a cheap policy makes of the records.
pub(super) struct CheapOutcome {
    pub(super) records: Vec<Message>,
    pub(super) decisions: Vec<Decision>,
    /// Outputs saved aside by the tool-result budget, written to the VFS on apply.
    pub(super) persisted: Vec<PersistedOutput>,
    /// The memory tool's warning goes first; nothing is cleared this time.
    pub(super) warn_first: bool,
}

impl Session {
    /// Fills a cheap policy's plan.
    pub(super) fn plan_cheap(&mut self, plan: &mut CompactionPlan, at_ms: u64) {
        let outcome = self.cheap_outcome(&plan.options.policy, plan.tokens_before, at_ms);
        plan.decisions.extend(outcome.decisions.iter().cloned());
        let changed = outcome.records.as_slice() != self.conversation.transcript.messages();
        plan.kept_records = outcome.records.len();
        if outcome.warn_first {
            plan.applies = true;
            plan.reason = "the memory tool is on: a warning goes first so the model can save what \
                           matters under /memories; the next compaction clears"
                .into();
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

    /// Carries out a cheap policy's plan.
    pub(super) fn apply_cheap(&mut self, plan: &CompactionPlan, at_ms: u64) -> CompactionReport {
        let before = self.peek_request(at_ms);
        let snapshot = Snapshot::of(
            self.conversation.transcript.messages(),
            &self.workspace,
            request_tokens(&before),
        );
        let outcome = self.cheap_outcome(&plan.options.policy, before.tokens.total, at_ms);
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
        self.conversation.messages.clear();
        let after = self.peek_request(at_ms);
        let reason = plan.reason.clone();
        let mut report = report_of(plan, true, reason, &before, &after, decisions);
        report.kept_records = self.conversation.transcript.len();
        self.survival()
            .finish_report(&mut report, &snapshot, request_tokens(&after));
        report
    }

    /// Runs `policy` over the transcript without changing it.
    pub(super) fn cheap_outcome(
        &self,
        policy: &Policy,
        request_tokens: u64,
        at_ms: u64,
    ) -> CheapOutcome {
        let records = self.conversation.transcript.messages();
        let method = self.profile.token_method;
        let plain = |outcome: crate::compact::policies::PolicyOutcome| CheapOutcome {
            records: outcome.records,
            decisions: outcome.decisions,
            persisted: Vec::new(),
            warn_first: false,
        };
        match policy {
            Policy::Microcompact(rules) => {
                let last = self.conversation.last_assistant_ms;
                let out = time_based_microcompact(records, at_ms, last, rules, method);
                CheapOutcome {
                    records: out.messages,
                    decisions: out.decisions,
                    persisted: Vec::new(),
                    warn_first: false,
                }
            }
            Policy::ToolResultBudget(rules) => tool_result_budget(records, rules),
            Policy::Prune(params) => plain(prune::apply(records, params, method)),
            Policy::Masking(params) => plain(masking::apply(records, params, method)),
            Policy::ClearToolUses {
                params,
                memory_tool,
            } => {
                let mut params = params.clone();
                let outside = request_tokens
                    .saturating_sub(crate::compact::policies::total_tokens(records, method));
                params.base_input_tokens = outside;
                let mut outcome = plain(clear_tool_uses::apply(records, &params, method));
                let clears = outcome.records.as_slice() != records;
                if *memory_tool && clears && !self.conversation.memory_warning_given {
                    // Nothing is cleared this time: what would have been is cleared next time.
                    outcome.records = records.to_vec();
                    outcome.decisions.clear();
                    outcome.warn_first = true;
                }
                outcome
            }
            Policy::Truncate { params, dedupe } => {
                let deduped = dedupe_reads::apply(records, dedupe, method);
                let mut decisions = deduped.outcome.decisions;
                if !deduped.need_to_truncate {
                    return CheapOutcome {
                        records: deduped.outcome.records,
                        decisions,
                        persisted: Vec::new(),
                        warn_first: false,
                    };
                }
                let mut params = params.clone();
                params.context_window = self.config.context_window;
                params.used_tokens = Some(request_tokens);
                let truncated = truncate::apply(&deduped.outcome.records, &params, method);
                decisions.extend(truncated.decisions);
                CheapOutcome {
                    records: truncated.records,
                    decisions,
                    persisted: Vec::new(),
                    warn_first: false,
                }
            }
            Policy::Full
            | Policy::SessionMemory
            | Policy::Partial { .. }
            | Policy::Codex { .. } => CheapOutcome {
                records: records.to_vec(),
                decisions: Vec::new(),
                persisted: Vec::new(),
                warn_first: false,
            },
        }
    }
}

/// The per-message budget over every tool-result record (§9.7): each batch is checked on
/// its own, against the calls it answers.
fn tool_result_budget(
    records: &[Message],
    rules: &crate::compact::tool_result_budget::ToolResultBudgetRules,
) -> CheapOutcome {
    let calls: Vec<ToolUse> = records
        .iter()
        .filter_map(Message::tool_use)
        .cloned()
        .collect();
    let mut outcome = CheapOutcome {
        records: Vec::with_capacity(records.len()),
        decisions: Vec::new(),
        persisted: Vec::new(),
        warn_first: false,
    };
    for message in records {
        let Record::ToolResults { results } = &message.record else {
            outcome.records.push(message.clone());
            continue;
        };
        let budgeted = apply_tool_result_budget(results, &calls, rules);
        outcome.decisions.extend(budgeted.decisions);
        outcome.persisted.extend(budgeted.persisted);
        outcome.records.push(Message {
            id: message.id,
            record: Record::ToolResults {
                results: budgeted.results,
            },
        });
    }
    if outcome.persisted.is_empty() {
        outcome.decisions.push(Decision::new(
            super::PolicyId::ToolResultBudget.as_str(),
            Verdict::NotApplied,
            format!(
                "no message's tool results exceed {} characters",
                rules.per_message_chars
            ),
        ));
    }
    outcome
}
