//! `cline.truncate`: keep the first user/assistant pair, drop half or three quarters of the
//! rest in even counts (spec/strategies.md §2).
//!
//! Cline counts API messages, which alternate user and assistant. The records here are finer
//! (one per assistant block; prompts, tool results and attachments on the user side), so a
//! message is a maximal run of records of one side, as the API would merge them. Pass the
//! live range (the records still sent): Cline's deleted range always starts at message 2 and
//! grows, so truncating the live range from message 2 is the same cut.
//!
//! After the cut, the first assistant message carries [`TRUNCATION_NOTICE`] (§2.5) and, on
//! request, the first prompt becomes [`CONTINUE_NOTICE`]. Pairs are then repaired (§2.6): a
//! call whose result was dropped is dropped too, and so is a result whose call was dropped.
//! Cline instead answers such a call with `"result missing"`; dropping both keeps every pair
//! whole. A cut that would not lower the token count is not made.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use super::{decision, not_applied, outcome, thousands, total_tokens, PolicyOutcome};
use crate::tokens::TokenMethod;
use crate::transcript::{AssistantBlock, Message, Record};
use crate::vocabulary::Decision;
use crate::vocabulary::{PolicyId, Verdict};

/// The policy's id.
pub const POLICY_ID: &str = PolicyId::Truncate.as_str();

/// §2.1: the window assumed when the model's is unknown.
pub const DEFAULT_CONTEXT_WINDOW: u64 = 128_000;

/// §2.1: messages 0 and 1, the first user/assistant pair, are never removed.
pub const KEEP_FIRST_MESSAGES: usize = 2;

/// §2.5: the notice that replaces the first assistant message's text; it starts with the
/// reference's marker `[NOTE]`, the rest is our wording of its three points.
pub const TRUNCATION_NOTICE: &str = "[NOTE] Part of this conversation was removed to fit the context window. The original task is kept; messages from the middle are gone. Give the user's most recent messages the most weight.";

/// §2.5: what the first prompt becomes on the error-recovery and condense paths, byte-exact.
pub const CONTINUE_NOTICE: &str = "[Continue assisting the user!]";

/// How much of the conversation after the first pair is removed (§2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TruncationMode {
    /// About half of the rest, in an even count (the normal mode).
    Half,
    /// About three quarters (when badly over, and on context-window errors).
    Quarter,
    /// All but the last pair (`/condense`).
    LastTwo,
    /// Everything after the first pair (`/condense`).
    None,
}

/// The knobs of `cline.truncate`; `Default` gives the reference's values (§2.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TruncateParams {
    /// The model's context window (reference default: 128,000).
    pub context_window: u64,
    /// The previous request's usage total, Cline's trigger; `None` uses the records' estimate.
    pub used_tokens: Option<u64>,
    /// A forced mode (error recovery: `Quarter`); `None` picks half or quarter by usage and
    /// truncates only at the threshold (§2.2).
    pub mode: Option<TruncationMode>,
    /// Replace the first prompt by [`CONTINUE_NOTICE`] (§2.5: error recovery and condense).
    pub replace_first_prompt: bool,
}

impl Default for TruncateParams {
    fn default() -> Self {
        TruncateParams {
            context_window: DEFAULT_CONTEXT_WINDOW,
            used_tokens: None,
            mode: None,
            replace_first_prompt: false,
        }
    }
}

/// Cline's `maxAllowedSize` for a window (§2.2).
///
/// # Example
/// ```
/// use context_assembly::compact::policies::truncate::max_allowed_size;
/// assert_eq!(max_allowed_size(200_000), 160_000);
/// // Windows outside the table keep the larger of window − 40,000 and 80 % of it.
/// assert_eq!(max_allowed_size(32_000), 25_600);
/// ```
pub fn max_allowed_size(context_window: u64) -> u64 {
    match context_window {
        64_000 => 37_000,
        128_000 => 98_000,
        200_000 => 160_000,
        w => w.saturating_sub(40_000).max(w / 5 * 4 + w % 5 * 4 / 5),
    }
}

/// How many messages `mode` removes from `rest` messages after the first pair (§2.3).
pub fn messages_to_remove(rest: usize, mode: TruncationMode) -> usize {
    match mode {
        TruncationMode::Half => rest / 4 * 2,
        TruncationMode::Quarter => rest.saturating_mul(3) / 4 / 2 * 2,
        TruncationMode::LastTwo => rest.saturating_sub(2),
        TruncationMode::None => rest,
    }
}

fn is_assistant(message: &Message) -> bool {
    matches!(message.record, Record::Assistant { .. })
}

/// The record ranges of the API messages: maximal runs of one side.
fn api_messages(records: &[Message]) -> Vec<core::ops::Range<usize>> {
    let mut messages: Vec<core::ops::Range<usize>> = Vec::new();
    for (index, record) in records.iter().enumerate() {
        match messages.last_mut() {
            Some(last) if is_assistant(&records[last.start]) == is_assistant(record) => {
                last.end = index + 1;
            }
            _ => messages.push(index..index + 1),
        }
    }
    messages
}

/// Truncates the conversation after the first pair (§2.3–§2.6).
///
/// # Example
/// ```
/// use context_assembly::compact::policies::truncate::{apply, TruncateParams};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{Message, Record};
/// // Under the threshold nothing happens, however long the conversation.
/// let records = vec![Message { id: 0, record: Record::Prompt { text: "hi".into() } }];
/// let params = TruncateParams { used_tokens: Some(97_999), ..TruncateParams::default() };
/// let outcome = apply(&records, &params, TokenMethod::Calibrated);
/// assert!(outcome.decisions[0].reason.contains("starts at 98,000"));
/// ```
pub fn apply(records: &[Message], params: &TruncateParams, method: TokenMethod) -> PolicyOutcome {
    let tokens_before = total_tokens(records, method);
    let limit = max_allowed_size(params.context_window);
    let used = params.used_tokens.unwrap_or(tokens_before);
    let mode = match params.mode {
        Some(mode) => mode,
        None if used < limit => {
            let reason = alloc::format!(
                "{} tokens used; truncation starts at {}",
                thousands(used),
                thousands(limit)
            );
            return not_applied(records, POLICY_ID, reason, method);
        }
        None if used / 2 > limit => TruncationMode::Quarter,
        None => TruncationMode::Half,
    };
    let messages = api_messages(records);
    let start = KEEP_FIRST_MESSAGES;
    let remove = messages_to_remove(messages.len().saturating_sub(start), mode);
    let mut end = start + remove;
    // Cline ends the cut on an assistant message, keeping the alternation (§2.3).
    if let Some(last) = end.checked_sub(1).and_then(|i| messages.get(i)) {
        if !is_assistant(&records[last.start]) {
            end -= 1;
        }
    }
    let (Some(first), Some(last)) = (
        messages.get(start),
        end.checked_sub(1).and_then(|i| messages.get(i)),
    ) else {
        let reason = alloc::format!(
            "{} messages; nothing after the first pair to remove",
            messages.len()
        );
        return not_applied(records, POLICY_ID, reason, method);
    };
    if end <= start {
        let reason = alloc::format!(
            "{} messages; nothing after the first pair to remove",
            messages.len()
        );
        return not_applied(records, POLICY_ID, reason, method);
    }
    let cut = first.start..last.end;
    let result = cut_and_repair(records, &cut, &messages, params);
    let outcome = outcome(records, result.0, result.1, method);
    if outcome.tokens_after >= outcome.tokens_before {
        let reason = alloc::format!(
            "removing messages {start}–{} would not lower the token count",
            end - 1
        );
        return not_applied(records, POLICY_ID, reason, method);
    }
    outcome
}

fn cut_and_repair(
    records: &[Message],
    cut: &core::ops::Range<usize>,
    messages: &[core::ops::Range<usize>],
    params: &TruncateParams,
) -> (Vec<Message>, Vec<Decision>) {
    let mut decisions = Vec::new();
    let mut kept: Vec<Message> = Vec::with_capacity(records.len());
    for (index, message) in records.iter().enumerate() {
        if cut.contains(&index) {
            decisions.push(dropped(message, "inside the truncated range"));
        } else {
            kept.push(message.clone());
        }
    }
    if let Some(first_reply) = messages.get(1).filter(|m| is_assistant(&records[m.start])) {
        write_notice(&mut kept, first_reply, &mut decisions);
    }
    if params.replace_first_prompt {
        if let Some(prompt) = kept.iter_mut().find_map(|m| match &mut m.record {
            Record::Prompt { text } => Some(text),
            _ => None,
        }) {
            *prompt = CONTINUE_NOTICE.into();
            decisions.push(decision(
                "first prompt",
                Verdict::Replaced,
                String::from("replaced by the continue notice (§2.5)"),
                None,
            ));
        }
    }
    let kept = repair_pairs(records, kept, &mut decisions);
    (kept, decisions)
}

fn dropped(message: &Message, reason: &str) -> Decision {
    decision(
        &alloc::format!("record {}", message.id),
        Verdict::Dropped,
        reason.into(),
        None,
    )
}

/// Puts the notice in the first text block of the first assistant message, or in its first
/// block when it has no text (a call replaced so loses its result in the repair).
fn write_notice(
    kept: &mut [Message],
    first_reply: &core::ops::Range<usize>,
    decisions: &mut Vec<Decision>,
) {
    // The first pair is never cut, so its records keep their indices.
    let Some(reply) = kept.get_mut(first_reply.clone()) else {
        return;
    };
    let position = reply
        .iter()
        .position(|m| {
            matches!(
                m.record,
                Record::Assistant {
                    block: AssistantBlock::Text { .. },
                    ..
                }
            )
        })
        .unwrap_or(0);
    let Some(Message {
        id,
        record: Record::Assistant { block, .. },
    }) = reply.get_mut(position)
    else {
        return;
    };
    *block = AssistantBlock::text(TRUNCATION_NOTICE);
    decisions.push(decision(
        &alloc::format!("record {id}"),
        Verdict::Replaced,
        String::from("replaced by the truncation notice (§2.5)"),
        None,
    ));
}

/// Drops the half of every pair whose other half is gone (§2.6).
fn repair_pairs(
    records: &[Message],
    kept: Vec<Message>,
    decisions: &mut Vec<Decision>,
) -> Vec<Message> {
    let calls_in = |messages: &[Message]| -> BTreeSet<String> {
        messages
            .iter()
            .filter_map(|m| match &m.record {
                Record::Assistant {
                    block: AssistantBlock::ToolUse(call),
                    ..
                } => Some(call.id.clone()),
                _ => None,
            })
            .collect()
    };
    let results_in = |messages: &[Message]| -> BTreeSet<String> {
        messages
            .iter()
            .flat_map(|m| match &m.record {
                Record::ToolResults { results } => {
                    results.iter().map(|r| r.tool_use_id.clone()).collect()
                }
                _ => Vec::new(),
            })
            .collect()
    };
    let (all_calls, all_results) = (calls_in(records), results_in(records));
    let (kept_calls, kept_results) = (calls_in(&kept), results_in(&kept));
    let mut repaired = Vec::with_capacity(kept.len());
    for mut message in kept {
        match &mut message.record {
            Record::Assistant {
                block: AssistantBlock::ToolUse(call),
                ..
            } if all_results.contains(&call.id) && !kept_results.contains(&call.id) => {
                decisions.push(dropped(&message, "its tool result was dropped (§2.6)"));
                continue;
            }
            Record::ToolResults { results } => {
                let before = results.len();
                let orphaned = |id: &String| all_calls.contains(id) && !kept_calls.contains(id);
                for result in results.iter().filter(|r| orphaned(&r.tool_use_id)) {
                    decisions.push(decision(
                        &alloc::format!("tool result {}", result.tool_use_id),
                        Verdict::Dropped,
                        String::from("its tool call was dropped (§2.6)"),
                        None,
                    ));
                }
                results.retain(|r| !orphaned(&r.tool_use_id));
                if results.is_empty() && before > 0 {
                    continue;
                }
            }
            _ => {}
        }
        repaired.push(message);
    }
    repaired
}
