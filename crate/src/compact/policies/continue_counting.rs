//! `continue.counting`: Continue's token count — a cl100k encoder times a per-model
//! multiplier — and its oldest-first history pruning (spec/strategies.md §13).
//!
//! A true cl100k encoder needs its 1.7 MB rank table in the wasm; we ship no tokenizer
//! tables. [`cl100k_estimate`] therefore models it: our calibrated estimate (fitted to
//! o200k_base, `tokens/mod.rs`) stands for cl100k on code, prose and JSON, where the two
//! encoders agree within 1.5 % (§16.2), and CJK characters are charged what cl100k spends on
//! them beyond o200k (§16.2: Chinese and Japanese about 0.3 tokens per character more, Korean
//! about 0.4). The count is then Continue's: 4 tokens per message, 10 more per tool call and
//! per tool output (with the call's JSON or the output's id), 1,024 per image, and the tool
//! definitions by the OpenAI-community formula ([`tool_definitions_tokens`]), all times
//! [`multiplier`] — × 1.23 for Claude, × 1.18 for Gemini, × 1.26 for Mistral-family models.
//!
//! As a policy it prunes as `compileChatMessages` does (§13.4): the last user message (or the
//! last tool call with its results) is fixed, the safety buffer `min(1,000, 2 % of the window)`
//! and `min(1,000, max_tokens)` for the reply are set aside with the tool definitions and
//! whatever else the request holds outside the records, and the oldest records are dropped
//! one by one until the rest fits.

use alloc::string::String;
use alloc::vec::Vec;

use super::json_fields::{array_items, top_level_values, Value};
use super::{clean_start_at_or_after, decision, not_applied, outcome, thousands, PolicyOutcome};
use crate::compact::kept_tail::preserve_api_invariants;
use crate::host::ToolDefinition;
use crate::tokens::{estimate_tokens, TokenMethod};
use crate::transcript::{AssistantBlock, Message, Record};
use crate::vocabulary::{PolicyId, Verdict};

/// The policy's id.
pub const POLICY_ID: &str = PolicyId::ContinueCounting.as_str();

/// §13.1 `BASE_TOKENS`: per message.
pub const BASE_TOKENS_PER_MESSAGE: u64 = 4;

/// §13.1: per tool call and per tool output, besides its JSON or id.
pub const TOOL_OVERHEAD_TOKENS: u64 = 10;

/// §13.1: per image.
pub const IMAGE_TOKENS: u64 = 1_024;

/// §13.1 tool definitions: the cost of the list, once before its functions and once after.
pub const TOOLS_FRAME_TOKENS: u64 = 12;

/// §13.1 tool definitions: a property's `type` or `description`, besides its text.
pub const PROPERTY_FIELD_TOKENS: i64 = 2;

/// §13.1 tool definitions: per enum value, less one such charge per enum.
pub const ENUM_VALUE_TOKENS: i64 = 3;

/// §13.1 tool definitions: an enum value that is not a string, whatever it holds.
pub const NON_STRING_ENUM_VALUE_TOKENS: i64 = 5;

/// §13.1 `MIN_RESPONSE_TOKENS`.
pub const MIN_RESPONSE_TOKENS: u64 = 1_000;

/// §13.1: the safety buffer's cap.
pub const SAFETY_BUFFER_MAX: u64 = 1_000;

/// §13.1: the safety buffer is this percentage of the window, up to the cap.
pub const SAFETY_BUFFER_PERCENT: u64 = 2;

/// §13.1 `DEFAULT_PRUNING_LENGTH`: the window assumed when it is unknown.
pub const UNKNOWN_CONTEXT_LENGTH: u64 = 128_000;

/// §13.1 `DEFAULT_MAX_TOKENS`.
pub const DEFAULT_MAX_TOKENS: u64 = 4_096;

/// §13.1 multipliers, in thousandths, by the substring of the model name that selects them
/// (first match wins).
pub const MULTIPLIERS_PER_MILLE: [(&str, u64); 4] = [
    ("claude", 1_230),
    ("gemini", 1_180),
    ("stral", 1_260),
    ("mixtral", 1_260),
];

/// The per-model multiplier in thousandths (§13.1 `getAdjustedTokenCountFromModel`).
///
/// ```
/// use context_assembly::compact::policies::continue_counting::multiplier;
/// assert_eq!(multiplier("claude-sonnet-4"), 1_230);
/// assert_eq!(multiplier("gemini-2.5-pro"), 1_180);
/// assert_eq!(multiplier("codestral-latest"), 1_260);
/// assert_eq!(multiplier("gpt-4o"), 1_000);
/// ```
pub fn multiplier(model: &str) -> u64 {
    let model = model.to_ascii_lowercase();
    MULTIPLIERS_PER_MILLE
        .iter()
        .find(|(key, _)| model.contains(key))
        .map_or(1_000, |(_, m)| *m)
}

/// `raw × multiplier`, rounded down as Continue's integer counts are.
///
/// ```
/// use context_assembly::compact::policies::continue_counting::adjusted;
/// // §13.2's worked example: 10,000 cl100k tokens for a Claude model count as 12,300.
/// assert_eq!(adjusted(10_000, "claude-3-5-sonnet"), 12_300);
/// ```
pub fn adjusted(raw: u64, model: &str) -> u64 {
    raw.saturating_mul(multiplier(model)) / 1_000
}

/// §13.1 `getTokenCountingBufferSafety`: `min(1,000, 2 % of the window)`.
///
/// ```
/// use context_assembly::compact::policies::continue_counting::safety_buffer;
/// assert_eq!(safety_buffer(32_768), 655);
/// assert_eq!(safety_buffer(200_000), 1_000);
/// ```
pub fn safety_buffer(context_length: u64) -> u64 {
    (context_length * SAFETY_BUFFER_PERCENT / 100).min(SAFETY_BUFFER_MAX)
}

/// Our model of a cl100k count: the `cl100k` token method (see the module docs).
///
/// ```
/// use context_assembly::compact::policies::continue_counting::cl100k_estimate;
/// use context_assembly::tokens::{estimate_tokens, TokenMethod};
/// let code = "fn main() { println!(\"hi\"); }";
/// assert_eq!(cl100k_estimate(code), estimate_tokens(code, TokenMethod::Calibrated, None));
/// let zh = "上下文管理";
/// assert_eq!(cl100k_estimate(zh), estimate_tokens(zh, TokenMethod::Calibrated, None) + 2);
/// ```
pub fn cl100k_estimate(text: &str) -> u64 {
    estimate_tokens(text, TokenMethod::Cl100k, None)
}

/// Continue's raw count of the tool definitions (before the multiplier): the
/// OpenAI-community formula (§13.1) — 12, then per function its name, its description and,
/// per property of its schema, the key, `2 +` its type, `2 +` its description, and `3 +`
/// each enum value (5 for a value that is not a string) less 3 per enum; then 12 more. No
/// tools cost nothing: the request then has no list.
///
/// ```
/// use context_assembly::compact::policies::continue_counting::{cl100k_estimate, tool_definitions_tokens};
/// use context_assembly::request::ToolDefinition;
/// let tool = ToolDefinition {
///     name: "Read".into(),
///     description: String::new(),
///     input_schema: r#"{"type":"object","properties":{}}"#.into(),
///     deferred: false,
/// };
/// assert_eq!(tool_definitions_tokens(&[]), 0);
/// assert_eq!(tool_definitions_tokens(&[tool]), 12 + cl100k_estimate("Read") + 12);
/// ```
pub fn tool_definitions_tokens(tools: &[ToolDefinition]) -> u64 {
    if tools.is_empty() {
        return 0;
    }
    let functions: i64 = tools.iter().map(function_tokens).sum();
    let total = i64::try_from(2 * TOOLS_FRAME_TOKENS)
        .unwrap_or(i64::MAX)
        .saturating_add(functions);
    u64::try_from(total).unwrap_or(0)
}

/// Tokens as the formula adds them (it subtracts for an enum, so a count can go below 0).
fn formula_tokens(text: &str) -> i64 {
    i64::try_from(cl100k_estimate(text)).unwrap_or(i64::MAX)
}

/// One function's share of the formula: a schema that is not an object adds nothing for its
/// properties, as Continue reads a missing `properties`.
fn function_tokens(tool: &ToolDefinition) -> i64 {
    let mut tokens = formula_tokens(&tool.name) + formula_tokens(&tool.description);
    let properties = top_level_values(&tool.input_schema)
        .unwrap_or_default()
        .into_iter()
        .find_map(|(key, value)| match (key.as_str(), value) {
            ("properties", Value::Raw(raw)) => top_level_values(&raw),
            _ => None,
        })
        .unwrap_or_default();
    for (key, value) in properties {
        tokens += formula_tokens(&key);
        if let Value::Raw(fields) = value {
            tokens += property_tokens(&fields);
        }
    }
    tokens
}

/// A property's `type`, `description` and `enum`, each only in the shape Continue reads.
fn property_tokens(fields: &str) -> i64 {
    let mut tokens = 0;
    for (key, value) in top_level_values(fields).unwrap_or_default() {
        match (key.as_str(), value) {
            ("type" | "description", Value::Text(text)) if !text.is_empty() => {
                tokens += PROPERTY_FIELD_TOKENS + formula_tokens(&text);
            }
            ("enum", Value::Raw(raw)) => {
                let Some(items) = array_items(&raw) else {
                    continue;
                };
                tokens -= ENUM_VALUE_TOKENS;
                for item in items {
                    tokens += ENUM_VALUE_TOKENS
                        + match item {
                            Value::Text(text) => formula_tokens(&text),
                            Value::Raw(_) => NON_STRING_ENUM_VALUE_TOKENS,
                        };
                }
            }
            _ => {}
        }
    }
    tokens
}

/// Continue's raw count of one record (before the multiplier).
pub fn raw_record_tokens(message: &Message) -> u64 {
    let body = match &message.record {
        Record::Assistant {
            block: AssistantBlock::ToolUse(call),
            ..
        } => {
            let json = alloc::format!(
                "{{\"id\":\"{}\",\"name\":\"{}\",\"arguments\":{}}}",
                call.id,
                call.name,
                call.input
            );
            TOOL_OVERHEAD_TOKENS + cl100k_estimate(&json)
        }
        Record::ToolResults { results } => results
            .iter()
            .map(|r| {
                TOOL_OVERHEAD_TOKENS + cl100k_estimate(&r.tool_use_id) + cl100k_estimate(&r.content)
            })
            .sum(),
        Record::Assistant {
            block: AssistantBlock::Text { text },
            ..
        }
        | Record::Prompt { text }
        | Record::Summary { text }
        | Record::LocalCommand { text, .. } => cl100k_estimate(text),
        Record::Assistant {
            block: AssistantBlock::Thinking { thinking },
            ..
        } => cl100k_estimate(thinking),
        Record::Attachment(attachment) => cl100k_estimate(&attachment.text),
        Record::Context { item, .. } => cl100k_estimate(&item.message_text().unwrap_or_default()),
        Record::Interruption => cl100k_estimate(crate::transcript::INTERRUPTED_FOR_TOOL_USE),
        Record::CompactBoundary { .. } => return 0,
    };
    BASE_TOKENS_PER_MESSAGE + body
}

/// Continue's count of `records` for `model` (§13.2).
pub fn count(records: &[Message], model: &str) -> u64 {
    adjusted(records.iter().map(raw_record_tokens).sum(), model)
}

/// The knobs of `continue.counting`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContinueCountingParams {
    /// The model name the multiplier is chosen by.
    pub model: String,
    /// The context length (the session's window; [`UNKNOWN_CONTEXT_LENGTH`] when unknown).
    pub context_length: u64,
    /// The reply's `max_tokens` (reference default: 4,096).
    pub max_tokens: u64,
    /// Tokens the request holds outside the records and the tool definitions (the system
    /// prompt), counted by the host's method; the session fills it in.
    pub outside_tokens: u64,
    /// The tool definitions the request declares, counted by Continue's formula and set
    /// aside with the system prompt (§13.4); the session fills them in.
    pub tools: Vec<ToolDefinition>,
}

impl Default for ContinueCountingParams {
    fn default() -> Self {
        ContinueCountingParams {
            model: String::from("claude"),
            context_length: UNKNOWN_CONTEXT_LENGTH,
            max_tokens: DEFAULT_MAX_TOKENS,
            outside_tokens: 0,
            tools: Vec::new(),
        }
    }
}

/// Where the fixed last sequence starts: the last prompt, or the last response with tool
/// calls when the records end with its results, or the last record.
fn last_sequence_start(records: &[Message]) -> usize {
    let last = records.len().saturating_sub(1);
    match records.last().map(|m| &m.record) {
        Some(Record::ToolResults { .. }) => preserve_api_invariants(records, last),
        _ => last,
    }
}

/// Counts as Continue does and drops the oldest records until the rest fits (§13.4).
///
/// ```
/// use context_assembly::compact::policies::continue_counting::{apply, ContinueCountingParams};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{Message, Record};
/// let records = vec![Message { id: 0, record: Record::Prompt { text: "hello".into() } }];
/// let outcome = apply(&records, &ContinueCountingParams::default(), TokenMethod::Calibrated);
/// assert_eq!(outcome.records, records);
/// assert!(outcome.decisions[0].reason.contains("× 1.230"));
/// ```
pub fn apply(
    records: &[Message],
    params: &ContinueCountingParams,
    method: TokenMethod,
) -> PolicyOutcome {
    let m = multiplier(&params.model);
    let counted = count(records, &params.model);
    let context = match params.context_length {
        0 => UNKNOWN_CONTEXT_LENGTH,
        n => n,
    };
    let tool_tokens = adjusted(tool_definitions_tokens(&params.tools), &params.model);
    let set_aside = safety_buffer(context)
        + params.max_tokens.min(MIN_RESPONSE_TOKENS)
        + params.outside_tokens
        + tool_tokens;
    let fixed_start = last_sequence_start(records);
    let fixed = count(&records[fixed_start.min(records.len())..], &params.model);
    let available = context.saturating_sub(set_aside).saturating_sub(fixed);
    let summary = alloc::format!(
        "{} messages count {} tokens, {} tool definitions {} (cl100k model × {}.{:03} for {})",
        records.len(),
        thousands(counted),
        params.tools.len(),
        thousands(tool_tokens),
        m / 1_000,
        m % 1_000,
        params.model
    );
    if context < set_aside + fixed {
        let reason = alloc::format!(
            "{summary}; the last message alone does not fit: {} fixed + {} set aside > {} (Continue fails with this breakdown)",
            thousands(fixed),
            thousands(set_aside),
            thousands(context)
        );
        return not_applied(records, POLICY_ID, reason, method);
    }
    // Raw counts from each history record to the end of the history: one pass, not one
    // count per record dropped.
    let raw: Vec<u64> = records[..fixed_start]
        .iter()
        .map(raw_record_tokens)
        .collect();
    let mut suffix = raw.iter().sum::<u64>();
    let mut start = 0usize;
    while start < raw.len() && adjusted(suffix, &params.model) > available {
        suffix -= raw[start];
        start += 1;
    }
    let start = clean_start_at_or_after(records, start).min(fixed_start);
    if start == 0 {
        let reason = alloc::format!(
            "{summary}; the history fits the {} available: nothing is pruned",
            thousands(available)
        );
        return not_applied(records, POLICY_ID, reason, method);
    }
    let mut decisions = Vec::with_capacity(start + 1);
    decisions.push(decision(
        POLICY_ID,
        Verdict::Needed,
        alloc::format!(
            "{summary}; {} are available after the safety buffer, the reply and the last message",
            thousands(available)
        ),
        None,
    ));
    for message in &records[..start] {
        decisions.push(decision(
            &alloc::format!("record {}", message.id),
            Verdict::Dropped,
            String::from("the oldest history goes first until the rest fits (strategies.md §13.4)"),
            Some(alloc::format!(
                "{} tokens",
                thousands(adjusted(raw_record_tokens(message), &params.model))
            )),
        ));
    }
    outcome(records, records[start..].to_vec(), decisions, method)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn prompt(id: u64, text: String) -> Message {
        Message {
            id,
            record: Record::Prompt { text },
        }
    }

    #[test]
    fn the_multipliers_follow_the_model_name() {
        assert_eq!(multiplier("Claude-Opus"), 1_230);
        assert_eq!(multiplier("mistral-large"), 1_260);
        assert_eq!(multiplier("mixtral-8x7b"), 1_260);
        assert_eq!(adjusted(10_000, "gemini"), 11_800);
        assert_eq!(adjusted(10_000, "devstral"), 12_600);
        assert_eq!(adjusted(10_000, "llama"), 10_000);
    }

    #[test]
    fn every_message_costs_four_more() {
        let one = [prompt(0, String::new())];
        assert_eq!(count(&one, "gpt"), 4);
        assert_eq!(count(&one, "claude"), 4);
        assert_eq!(
            count(
                &[prompt(0, String::new()), prompt(1, String::new())],
                "claude"
            ),
            9
        );
    }

    #[test]
    fn the_oldest_history_is_dropped_until_the_rest_fits() {
        let records: Vec<Message> = (0..5).map(|i| prompt(i, "word ".repeat(2_000))).collect();
        let per = count(&records[..1], "gpt");
        let params = ContinueCountingParams {
            model: "gpt".into(),
            context_length: 1_000 + 3 * per + per / 2,
            max_tokens: 4_096,
            outside_tokens: 0,
            tools: Vec::new(),
        };
        // Less the reply (1,000), the last message and the buffer (2 % of the window), two
        // and a half messages' room is left, minus the buffer: two more fit, not three.
        let outcome = apply(&records, &params, TokenMethod::Calibrated);
        assert_eq!(outcome.records.len(), 3);
        assert_eq!(outcome.records[0].id, 2);
        let dropped = outcome
            .decisions
            .iter()
            .filter(|d| d.verdict == Verdict::Dropped)
            .count();
        assert_eq!(dropped, 2);
    }
}
