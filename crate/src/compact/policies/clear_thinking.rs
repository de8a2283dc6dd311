//! `anthropic.clear_thinking`: Anthropic's `clear_thinking_20251015` context edit, emulated
//! client-side for any provider (spec/strategies.md §10.3).
//!
//! A thinking turn is an assistant response that holds at least one thinking block. All but
//! the `keep` most recent thinking turns lose their thinking blocks; their text and tool calls
//! stay, so every call keeps its result. `keep: "all"` clears nothing, which keeps the prompt
//! cache intact. The default keeps the last turn's thinking, as the API does when thinking is
//! on and the edit is absent.
//!
//! The last decision of a clearing is the API's report (§10.4): how many thinking turns were
//! cleared and how many input tokens that freed.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use super::{decision, not_applied, outcome, record_tokens, thousands, PolicyOutcome};
use crate::tokens::TokenMethod;
use crate::transcript::{AssistantBlock, Message, Record};
use crate::vocabulary::{PolicyId, Verdict};

/// The policy's id.
pub const POLICY_ID: &str = PolicyId::ClearThinking.as_str();

/// The edit's type in the API.
pub const EDIT_TYPE: &str = "clear_thinking_20251015";

/// §10.3: the thinking turns kept when the edit gives no `keep` (the last one).
pub const KEEP_THINKING_TURNS: u64 = 1;

/// Which thinking turns keep their thinking (§10.3 `keep`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeepThinking {
    /// `{type: "thinking_turns", value: N}`: the N most recent.
    ThinkingTurns(u64),
    /// `"all"`: every turn keeps its thinking.
    All,
}

/// The knobs of `clear_thinking_20251015`; `Default` gives the API's default (§10.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ClearThinkingParams {
    /// The thinking turns whose thinking is kept (API default: the last one).
    pub keep: KeepThinking,
}

impl Default for ClearThinkingParams {
    fn default() -> Self {
        ClearThinkingParams {
            keep: KeepThinking::ThinkingTurns(KEEP_THINKING_TURNS),
        }
    }
}

/// Clears the thinking of all but the kept thinking turns (§10.3).
///
/// # Example
/// ```
/// use context_assembly::compact::policies::clear_thinking::{apply, ClearThinkingParams};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{AssistantBlock, Message, Record};
/// let thinking = |id, response| Message {
///     id,
///     record: Record::Assistant { response, block: AssistantBlock::Thinking { thinking: "hmm".into() } },
/// };
/// // Two thinking turns; the default keeps the last one's thinking.
/// let outcome = apply(&[thinking(0, 0), thinking(1, 1)], &ClearThinkingParams::default(), TokenMethod::Calibrated);
/// assert_eq!(outcome.records.len(), 1);
/// assert_eq!(outcome.records[0].id, 1);
/// ```
pub fn apply(
    records: &[Message],
    params: &ClearThinkingParams,
    method: TokenMethod,
) -> PolicyOutcome {
    let turns = thinking_turns(records);
    let keep = match params.keep {
        KeepThinking::All => {
            let reason = String::from("keep is \"all\": every turn keeps its thinking");
            return not_applied(records, POLICY_ID, reason, method);
        }
        KeepThinking::ThinkingTurns(keep) => keep,
    };
    let kept_from = turns
        .len()
        .saturating_sub(usize::try_from(keep).unwrap_or(usize::MAX));
    let cleared: BTreeSet<u64> = turns
        .get(..kept_from)
        .unwrap_or_default()
        .iter()
        .copied()
        .collect();
    if cleared.is_empty() {
        let reason = alloc::format!(
            "{} thinking turns; the {} most recent keep their thinking",
            turns.len(),
            thousands(keep)
        );
        return not_applied(records, POLICY_ID, reason, method);
    }
    clear(records, &cleared, keep, method)
}

/// The responses that hold thinking, oldest first, each once.
fn thinking_turns(records: &[Message]) -> Vec<u64> {
    let mut turns: Vec<u64> = Vec::new();
    for message in records {
        if let Some(response) = thinking_response(message) {
            if !turns.contains(&response) {
                turns.push(response);
            }
        }
    }
    turns
}

/// The response a thinking block belongs to; `None` for every other record.
fn thinking_response(message: &Message) -> Option<u64> {
    match &message.record {
        Record::Assistant {
            response,
            block: AssistantBlock::Thinking { .. },
        } => Some(*response),
        _ => None,
    }
}

fn clear(
    records: &[Message],
    cleared: &BTreeSet<u64>,
    keep: u64,
    method: TokenMethod,
) -> PolicyOutcome {
    let mut after = Vec::with_capacity(records.len());
    let mut decisions = Vec::new();
    let mut freed = 0u64;
    for message in records {
        match thinking_response(message).filter(|r| cleared.contains(r)) {
            Some(response) => {
                let tokens = record_tokens(message, method);
                freed = freed.saturating_add(tokens);
                decisions.push(decision(
                    &alloc::format!("thinking of response {response}"),
                    Verdict::Cleared,
                    alloc::format!(
                        "older than the {} most recent thinking turns",
                        thousands(keep)
                    ),
                    Some(alloc::format!("{} tokens freed", thousands(tokens))),
                ));
            }
            None => after.push(message.clone()),
        }
    }
    let turns = cleared.len();
    decisions.push(decision(
        POLICY_ID,
        Verdict::Cleared,
        alloc::format!(
            "cleared the thinking of {turns} turns, {} input tokens",
            thousands(freed)
        ),
        Some(alloc::format!(
            "{{\"type\":\"{EDIT_TYPE}\",\"cleared_thinking_turns\":{turns},\"cleared_input_tokens\":{freed}}}"
        )),
    ));
    outcome(records, after, decisions, method)
}
