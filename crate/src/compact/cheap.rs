//! The cheap policies run over a transcript's records: each rewrites tool results (or drops
//! records) instead of summarising, and says why for every item it considered. A live
//! session plans and applies the outcome (`session/compaction/cheap.rs`).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::compact::microcompact::time_based_microcompact;
use crate::compact::options::{Policy, PolicyId};
use crate::compact::policies::aider_budgets::{self, ChatFile};
use crate::compact::policies::file_tracker::{self, TrackedFile};
use crate::compact::policies::read_guard::{self, ReadRecord};
use crate::compact::policies::{
    clear_thinking, clear_tool_uses, cline_condense, continue_counting, dedupe_reads, masking,
    openai_compaction, opencode_summary, prune, total_tokens, truncate, PolicyOutcome,
};
use crate::compact::tool_result_budget::{
    apply_tool_result_budget, PersistedOutput, ToolResultBudgetRules,
};
use crate::host::ToolDefinition;
use crate::tokens::TokenMethod;
use crate::transcript::{Message, Record, ToolUse};
use crate::vocabulary::{Decision, Verdict};

/// What a cheap policy makes of the records.
#[derive(Debug, Default)]
pub struct CheapOutcome {
    /// The records after the policy.
    pub records: Vec<Message>,
    /// A decision for every item the policy considered.
    pub decisions: Vec<Decision>,
    /// Outputs saved aside by the tool-result budget, written to the VFS on apply.
    pub persisted: Vec<PersistedOutput>,
    /// The memory tool's warning goes first; nothing is cleared this time.
    pub warn_first: bool,
    /// A summarising policy's request to the summariser, when it has its own shape.
    pub summary_request: Option<String>,
    /// Records a summarising policy replaced by its summary.
    pub summarised_records: usize,
}

impl CheapOutcome {
    /// The outcome of a policy that replaces the oldest of `before` by one summary when it
    /// changes anything.
    fn summarised(
        outcome: PolicyOutcome,
        before: &[Message],
        request: Option<String>,
    ) -> CheapOutcome {
        let summarised_records = match outcome.records.as_slice() == before {
            true => 0,
            false => (before.len() + 1).saturating_sub(outcome.records.len()),
        };
        CheapOutcome {
            summary_request: request.filter(|_| summarised_records > 0),
            summarised_records,
            ..outcome.into()
        }
    }
}

impl From<PolicyOutcome> for CheapOutcome {
    fn from(outcome: PolicyOutcome) -> Self {
        CheapOutcome {
            records: outcome.records,
            decisions: outcome.decisions,
            ..CheapOutcome::default()
        }
    }
}

/// A file the agent has seen, as the trackers and budgets read it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileFacts {
    /// The absolute path.
    pub path: String,
    /// The modification time the agent last saw (its read, or its own write).
    pub seen_mtime_ms: u64,
    /// The modification time now; `None` when the file is gone.
    pub current_mtime_ms: Option<u64>,
    /// Tokens of its contents now (0 when gone or binary).
    pub tokens: u64,
}

/// What a cheap policy reads besides the records: the session's facts at this moment.
#[derive(Debug, Clone, Copy)]
pub struct CheapInputs<'a> {
    /// The request's tokens now (the budgeted policies measure against it).
    pub request_tokens: u64,
    /// When the policy runs.
    pub at_ms: u64,
    /// When the last assistant response arrived (microcompact's gap, §9.6).
    pub last_assistant_ms: Option<u64>,
    /// The memory tool's warning was given and no clearing followed yet.
    pub memory_warning_given: bool,
    /// The host's instructions for a summary (`/compact <instructions>`).
    pub instructions: Option<&'a str>,
    /// The model's context window.
    pub context_window: u64,
    /// How tokens are counted.
    pub method: TokenMethod,
    /// The files the agent has seen (the read-file state), newest first.
    pub files: &'a [FileFacts],
    /// The tools the model has, as the request declares them (a deferred one by name only).
    pub tools: &'a [ToolDefinition],
    /// What those tools cost in the request, by the session's own count (its tool blocks).
    pub tool_tokens: u64,
}

/// Runs `policy` over `records` without changing them. A summary policy (full, session
/// memory, partial, Codex) is not cheap: its outcome is the records unchanged.
pub fn cheap_outcome(
    records: &[Message],
    policy: &Policy,
    inputs: &CheapInputs<'_>,
) -> CheapOutcome {
    let method = inputs.method;
    let instructions = inputs.instructions;
    match policy {
        Policy::Microcompact(rules) => {
            let out = time_based_microcompact(
                records,
                inputs.at_ms,
                inputs.last_assistant_ms,
                rules,
                method,
            );
            CheapOutcome {
                records: out.messages,
                decisions: out.decisions,
                ..CheapOutcome::default()
            }
        }
        Policy::ToolResultBudget(rules) => tool_result_budget(records, rules),
        Policy::Prune(params) => prune::apply(records, params, method).into(),
        Policy::Masking(params) => masking::apply(records, params, method).into(),
        Policy::ClearToolUses {
            params,
            memory_tool,
        } => {
            let mut params = params.clone();
            params.base_input_tokens = inputs
                .request_tokens
                .saturating_sub(total_tokens(records, method));
            let mut outcome: CheapOutcome = clear_tool_uses::apply(records, &params, method).into();
            let clears = outcome.records.as_slice() != records;
            if *memory_tool && clears && !inputs.memory_warning_given {
                // Nothing is cleared this time: what would have been is cleared next time.
                outcome.records = records.to_vec();
                outcome.decisions.clear();
                outcome.warn_first = true;
            }
            outcome
        }
        Policy::ClearThinking(params) => clear_thinking::apply(records, params, method).into(),
        Policy::Truncate { params, dedupe } => {
            let deduped = dedupe_reads::apply(records, dedupe, method);
            let mut decisions = deduped.outcome.decisions;
            if !deduped.need_to_truncate {
                return CheapOutcome {
                    records: deduped.outcome.records,
                    decisions,
                    ..CheapOutcome::default()
                };
            }
            let mut params = params.clone();
            params.context_window = inputs.context_window;
            params.used_tokens = Some(inputs.request_tokens);
            let truncated = truncate::apply(&deduped.outcome.records, &params, method);
            decisions.extend(truncated.decisions);
            CheapOutcome {
                records: truncated.records,
                decisions,
                ..CheapOutcome::default()
            }
        }
        Policy::OpencodeSummary(params) => {
            let params = opencode_summary::OpencodeSummaryParams {
                context_window: inputs.context_window,
                ..params.clone()
            };
            let tail =
                opencode_summary::select(records, params.tail_turns, params.budget(), method);
            let head = records.get(..tail.start).unwrap_or_default();
            let previous = head.iter().rev().find_map(|m| match &m.record {
                Record::Summary { text } => Some(text.as_str()),
                _ => None,
            });
            let request = opencode_summary::summary_request(previous, instructions);
            let outcome = opencode_summary::apply(records, &params, method);
            CheapOutcome::summarised(outcome, records, Some(request))
        }
        Policy::FileTracker => {
            let files: Vec<TrackedFile> = inputs
                .files
                .iter()
                .map(|f| TrackedFile {
                    path: f.path.clone(),
                    op: file_tracker::last_op(records, &f.path),
                    seen_mtime_ms: f.seen_mtime_ms,
                    current_mtime_ms: f.current_mtime_ms,
                })
                .collect();
            file_tracker::apply(records, &files, method).into()
        }
        Policy::ReadGuard => {
            let reads: Vec<ReadRecord> = inputs
                .files
                .iter()
                .map(|f| ReadRecord {
                    path: f.path.clone(),
                    read_ms: f.seen_mtime_ms,
                    mtime_ms: f.current_mtime_ms,
                })
                .collect();
            read_guard::apply(records, &reads, method).into()
        }
        Policy::AiderBudgets(params) => {
            let files: Vec<ChatFile> = inputs
                .files
                .iter()
                .filter(|f| f.current_mtime_ms.is_some())
                .map(|f| ChatFile {
                    path: f.path.clone(),
                    tokens: f.tokens,
                })
                .collect();
            let params = aider_budgets::AiderBudgetsParams {
                max_input_tokens: inputs.context_window,
                ..params.clone()
            };
            let outcome = aider_budgets::apply(records, &files, &params, method);
            CheapOutcome::summarised(outcome, records, None)
        }
        Policy::ContinueCounting(params) => {
            // Continue counts the tool definitions its own way: the host's count of them
            // leaves what the request holds outside the records.
            let params = continue_counting::ContinueCountingParams {
                context_length: inputs.context_window,
                outside_tokens: inputs
                    .request_tokens
                    .saturating_sub(total_tokens(records, method))
                    .saturating_sub(inputs.tool_tokens),
                tools: inputs
                    .tools
                    .iter()
                    .filter(|t| !t.deferred)
                    .cloned()
                    .collect(),
                ..params.clone()
            };
            continue_counting::apply(records, &params, method).into()
        }
        Policy::ClineCondense(params) => {
            let params = cline_condense::CondenseParams {
                context_window: inputs.context_window,
                used_tokens: Some(inputs.request_tokens),
                ..*params
            };
            let outcome = cline_condense::apply(records, &params, method);
            CheapOutcome::summarised(outcome, records, None)
        }
        Policy::OpenaiCompaction(params) => {
            let params = openai_compaction::OpenaiCompactionParams {
                input_tokens: Some(inputs.request_tokens),
                ..params.clone()
            };
            openai_compaction::apply(records, &params, method).into()
        }
        Policy::Full | Policy::SessionMemory | Policy::Partial { .. } | Policy::Codex { .. } => {
            CheapOutcome {
                records: records.to_vec(),
                ..CheapOutcome::default()
            }
        }
    }
}

/// The per-message budget over every tool-result record (§9.7): each batch is checked on
/// its own, against the calls it answers.
fn tool_result_budget(records: &[Message], rules: &ToolResultBudgetRules) -> CheapOutcome {
    let calls: Vec<ToolUse> = records
        .iter()
        .filter_map(Message::tool_use)
        .cloned()
        .collect();
    let mut outcome = CheapOutcome {
        records: Vec::with_capacity(records.len()),
        ..CheapOutcome::default()
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
            PolicyId::ToolResultBudget.as_str(),
            Verdict::NotApplied,
            format!(
                "no message's tool results exceed {} characters",
                rules.per_message_chars
            ),
        ));
    }
    outcome
}
