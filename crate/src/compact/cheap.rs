//! The cheap policies run over a transcript's records: each rewrites tool results (or drops
//! records) instead of summarising, and says why for every item it considered. A live
//! session plans and applies the outcome (`session/compaction/cheap.rs`).

use alloc::format;
use alloc::vec::Vec;

use crate::compact::microcompact::time_based_microcompact;
use crate::compact::options::{Policy, PolicyId};
use crate::compact::policies::{
    clear_tool_uses, dedupe_reads, masking, prune, total_tokens, truncate, PolicyOutcome,
};
use crate::compact::tool_result_budget::{
    apply_tool_result_budget, PersistedOutput, ToolResultBudgetRules,
};
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

/// What a cheap policy reads besides the records: the session's facts at this moment.
#[derive(Debug, Clone, Copy)]
pub struct CheapInputs {
    /// The request's tokens now (the budgeted policies measure against it).
    pub request_tokens: u64,
    /// When the policy runs.
    pub at_ms: u64,
    /// When the last assistant response arrived (microcompact's gap, §9.6).
    pub last_assistant_ms: Option<u64>,
    /// The memory tool's warning was given and no clearing followed yet.
    pub memory_warning_given: bool,
    /// The model's context window.
    pub context_window: u64,
    /// How tokens are counted.
    pub method: TokenMethod,
}

/// Runs `policy` over `records` without changing them. A summary policy (full, session
/// memory, partial, Codex) is not cheap: its outcome is the records unchanged.
pub fn cheap_outcome(records: &[Message], policy: &Policy, inputs: &CheapInputs) -> CheapOutcome {
    let method = inputs.method;
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
