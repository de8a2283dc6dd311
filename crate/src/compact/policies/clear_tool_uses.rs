//! `anthropic.clear_tool_uses`: Anthropic's `clear_tool_uses_20250919` context edit, emulated
//! client-side for any provider (spec/strategies.md §10).
//!
//! Once the input reaches the trigger, every tool use but the `keep` most recent has its result
//! replaced by [`RESULT_PLACEHOLDER`] (and its input by [`INPUT_PLACEHOLDER`] when inputs are
//! cleared too), oldest first — unless the tool is excluded, or the whole clearing would free
//! less than `clear_at_least`. Calls and results keep their ids. The API does not publish the
//! text it puts in place of a cleared result; both placeholders are ours. A result or input no
//! larger than its placeholder is left as it is, so clearing never costs tokens.
//!
//! The last decision of a clearing is the API's report (§10.4): how many tool uses were cleared
//! and how many input tokens that freed.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::{
    decision, not_applied, outcome, record_tokens, result_subject, thousands, total_tokens,
    PolicyOutcome,
};
use crate::tokens::{estimate_tokens, TokenMethod};
use crate::transcript::{AssistantBlock, Message, Record};
use crate::vocabulary::{PolicyId, Verdict};

/// The policy's id.
pub const POLICY_ID: &str = PolicyId::ClearToolUses.as_str();

/// The edit's type in the API.
pub const EDIT_TYPE: &str = "clear_tool_uses_20250919";

/// §10.1: the default trigger, in input tokens.
pub const TRIGGER_INPUT_TOKENS: u64 = 100_000;

/// §10.1: the default number of most recent tool uses kept.
pub const KEEP_TOOL_USES: usize = 3;

/// What a cleared result holds (our wording; the API does not document its own).
pub const RESULT_PLACEHOLDER: &str = "[tool result cleared]";

/// What a cleared call's input becomes: an empty JSON object, so the call stays well-formed.
pub const INPUT_PLACEHOLDER: &str = "{}";

/// When the edit applies (§10.1: `BetaInputTokensTrigger | BetaToolUsesTrigger`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Trigger {
    /// Once the input has at least this many tokens.
    InputTokens(u64),
    /// Once the transcript holds at least this many tool uses.
    ToolUses(u64),
}

/// Whether cleared tool uses lose their inputs too (§10.1 `clear_tool_inputs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClearToolInputs {
    /// Only results are cleared (the API's default, `false`).
    Never,
    /// Inputs are cleared with the results (`true`).
    Always,
    /// Inputs of these tools only (newer SDKs accept a list of names).
    Tools(Vec<String>),
}

/// The knobs of `clear_tool_uses_20250919`; `Default` gives the API's defaults (§10.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClearToolUsesParams {
    /// When to clear (API default: 100,000 input tokens).
    pub trigger: Trigger,
    /// The most recent tool uses never cleared (API default: 3).
    pub keep_tool_uses: usize,
    /// Clear only if at least this many tokens are freed (API default: none).
    pub clear_at_least: Option<u64>,
    /// Tools whose uses are never cleared (API default: none).
    pub exclude_tools: Vec<String>,
    /// Whether inputs are cleared too (API default: no).
    pub clear_tool_inputs: ClearToolInputs,
    /// Tokens of the request outside the records (system prompt, tools), added for an
    /// input-token trigger; 0 compares the records alone.
    pub base_input_tokens: u64,
}

impl Default for ClearToolUsesParams {
    fn default() -> Self {
        ClearToolUsesParams {
            trigger: Trigger::InputTokens(TRIGGER_INPUT_TOKENS),
            keep_tool_uses: KEEP_TOOL_USES,
            clear_at_least: None,
            exclude_tools: Vec::new(),
            clear_tool_inputs: ClearToolInputs::Never,
            base_input_tokens: 0,
        }
    }
}

/// One tool use to clear: where its call and result are, and what clearing each frees.
struct Candidate {
    call: usize,
    result: Option<(usize, usize)>,
    result_saving: u64,
    input_saving: u64,
}

/// Clears old tool uses (§10.2).
///
/// # Example
/// ```
/// use context_assembly::compact::policies::clear_tool_uses::{apply, ClearToolUsesParams, Trigger};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{AssistantBlock, Message, Record, ToolUse};
/// let call = Message {
///     id: 0,
///     record: Record::Assistant {
///         response: 0,
///         block: AssistantBlock::ToolUse(ToolUse { id: "t1".into(), name: "Bash".into(), input: "{}".into() }),
///     },
/// };
/// // The trigger counts tool uses; one is not enough for two.
/// let params = ClearToolUsesParams { trigger: Trigger::ToolUses(2), ..Default::default() };
/// let outcome = apply(&[call], &params, TokenMethod::Calibrated);
/// assert!(outcome.decisions[0].reason.contains("1 tool uses"));
/// ```
pub fn apply(
    records: &[Message],
    params: &ClearToolUsesParams,
    method: TokenMethod,
) -> PolicyOutcome {
    let calls: Vec<usize> = (0..records.len())
        .filter(|&i| tool_use(&records[i]).is_some())
        .collect();
    if let Some(reason) = trigger_not_reached(records, calls.len(), params, method) {
        return not_applied(records, POLICY_ID, reason, method);
    }
    let kept_from = calls.len().saturating_sub(params.keep_tool_uses);
    let results = result_positions(records);
    let candidates: Vec<Candidate> = calls
        .get(..kept_from)
        .unwrap_or_default()
        .iter()
        .filter_map(|&call| candidate(records, call, &results, params, method))
        .collect();
    let clearable: u64 = candidates
        .iter()
        .map(|c| c.result_saving + c.input_saving)
        .sum();
    if clearable == 0 {
        let reason = alloc::format!(
            "nothing to clear beyond the {} most recent tool uses",
            params.keep_tool_uses
        );
        return not_applied(records, POLICY_ID, reason, method);
    }
    if let Some(least) = params.clear_at_least.filter(|&least| clearable < least) {
        let reason = alloc::format!(
            "would free only {} tokens; needs {}",
            thousands(clearable),
            thousands(least)
        );
        return not_applied(records, POLICY_ID, reason, method);
    }
    clear(records, &candidates, clearable, method)
}

fn tool_use(message: &Message) -> Option<&crate::transcript::ToolUse> {
    match &message.record {
        Record::Assistant {
            block: AssistantBlock::ToolUse(call),
            ..
        } => Some(call),
        _ => None,
    }
}

fn trigger_not_reached(
    records: &[Message],
    tool_uses: usize,
    params: &ClearToolUsesParams,
    method: TokenMethod,
) -> Option<String> {
    match params.trigger {
        Trigger::InputTokens(value) => {
            let input = params
                .base_input_tokens
                .saturating_add(total_tokens(records, method));
            (input < value).then(|| {
                alloc::format!(
                    "{} input tokens; the trigger is {}",
                    thousands(input),
                    thousands(value)
                )
            })
        }
        Trigger::ToolUses(value) => ((tool_uses as u64) < value)
            .then(|| alloc::format!("{tool_uses} tool uses; the trigger is {}", thousands(value))),
    }
}

/// Where each call's result is: record index and position in its batch (the first one wins).
fn result_positions(records: &[Message]) -> BTreeMap<&str, (usize, usize)> {
    let mut positions = BTreeMap::new();
    for (index, message) in records.iter().enumerate() {
        if let Record::ToolResults { results } = &message.record {
            for (position, result) in results.iter().enumerate() {
                positions
                    .entry(result.tool_use_id.as_str())
                    .or_insert((index, position));
            }
        }
    }
    positions
}

fn candidate(
    records: &[Message],
    call: usize,
    results: &BTreeMap<&str, (usize, usize)>,
    params: &ClearToolUsesParams,
    method: TokenMethod,
) -> Option<Candidate> {
    let tool = tool_use(records.get(call)?)?;
    if params.exclude_tools.contains(&tool.name) {
        return None;
    }
    let count = |text: &str| estimate_tokens(text, method, None);
    let result = results.get(tool.id.as_str()).copied();
    let result_saving = result
        .and_then(|(i, j)| match &records.get(i)?.record {
            Record::ToolResults { results } => results.get(j),
            _ => None,
        })
        .map_or(0, |r| {
            count(&r.content).saturating_sub(count(RESULT_PLACEHOLDER))
        });
    let clears_input = match &params.clear_tool_inputs {
        ClearToolInputs::Never => false,
        ClearToolInputs::Always => true,
        ClearToolInputs::Tools(names) => names.contains(&tool.name),
    };
    let input_saving = if clears_input {
        let cleared = cleared_input(&records[call]);
        record_tokens(&records[call], method).saturating_sub(record_tokens(&cleared, method))
    } else {
        0
    };
    Some(Candidate {
        call,
        result,
        result_saving,
        input_saving,
    })
}

fn cleared_input(message: &Message) -> Message {
    let mut cleared = message.clone();
    if let Record::Assistant {
        block: AssistantBlock::ToolUse(call),
        ..
    } = &mut cleared.record
    {
        call.input = INPUT_PLACEHOLDER.into();
    }
    cleared
}

fn clear(
    records: &[Message],
    candidates: &[Candidate],
    clearable: u64,
    method: TokenMethod,
) -> PolicyOutcome {
    let mut after = records.to_vec();
    let mut decisions = Vec::new();
    let mut cleared_uses = 0usize;
    for c in candidates {
        let Some(call) = records.get(c.call).and_then(tool_use) else {
            continue;
        };
        let subject = result_subject(&call.id, Some(&call.name));
        if c.input_saving > 0 {
            after[c.call] = cleared_input(&after[c.call]);
            decisions.push(decision(
                &subject,
                Verdict::Cleared,
                String::from("input cleared: older than the tool uses kept"),
                Some(alloc::format!("{} tokens freed", thousands(c.input_saving))),
            ));
        }
        if let (Some((i, j)), true) = (c.result, c.result_saving > 0) {
            if let Some(Record::ToolResults { results }) = after.get_mut(i).map(|m| &mut m.record) {
                if let Some(result) = results.get_mut(j) {
                    result.content = RESULT_PLACEHOLDER.into();
                }
            }
            decisions.push(decision(
                &subject,
                Verdict::Cleared,
                String::from("result cleared: older than the tool uses kept"),
                Some(alloc::format!(
                    "{} tokens freed",
                    thousands(c.result_saving)
                )),
            ));
        }
        if c.input_saving > 0 || c.result_saving > 0 {
            cleared_uses += 1;
        }
    }
    decisions.push(decision(
        POLICY_ID,
        Verdict::Cleared,
        alloc::format!(
            "cleared {cleared_uses} tool uses, {} input tokens",
            thousands(clearable)
        ),
        Some(alloc::format!(
            "{{\"type\":\"{EDIT_TYPE}\",\"cleared_tool_uses\":{cleared_uses},\"cleared_input_tokens\":{clearable}}}"
        )),
    ));
    outcome(records, after, decisions, method)
}
