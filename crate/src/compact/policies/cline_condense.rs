//! `cline.condense`: Cline's LLM summaries, as a reference option (spec/strategies.md §5).
//!
//! Two variants, each planned with its own constants:
//! * **classic** (§5.1–§5.3): fires at Cline's `maxAllowedSize` (§2.2) on the previous
//!   request's usage, never when two or fewer messages remain (a summary is not summarised
//!   again); everything becomes the summary, which the continuation message introduces.
//! * **sdk** (§5.5): counts `max(1, ceil(chars / 3))`, fires at 0.9 of the input limit (itself
//!   0.9 of the window), and keeps the newest records within 20,000 tokens verbatim.
//!
//! The summary request's ten required sections are listed in [`REQUIRED_SECTIONS`] (our
//! wording of their titles). Cline's own first pass, duplicate-read removal (§5.1), is
//! `cline.dedupe_reads`; chain it before this one. A preview has no model to ask, so the
//! outcome's summary is the extractive summariser's.

use alloc::string::String;
use alloc::vec::Vec;

use super::truncate::max_allowed_size;
use super::{
    clean_start_at_or_after, decision, not_applied, outcome, record_tokens, summarised, thousands,
    PolicyOutcome,
};
use crate::tokens::TokenMethod;
use crate::transcript::Message;
use crate::vocabulary::{PolicyId, Verdict};

/// The policy's id.
pub const POLICY_ID: &str = PolicyId::ClineCondense.as_str();

/// §5.1: the hard-coded threshold that only decides when context usage is printed.
pub const AUTO_CONDENSE_THRESHOLD_PERCENT: u64 = 75;

/// §5.1: usage is printed in the environment details from this share of the window.
pub const CONTEXT_USAGE_SHOWN_FROM_PERCENT: u64 = 60;

/// §5.1: at most this many active messages are never summarised.
pub const MIN_ACTIVE_MESSAGES: usize = 2;

/// §5.3: after summarising, the deleted range grows by this to hide the trigger exchange.
pub const TRIGGER_EXCHANGE_MESSAGES: usize = 2;

/// §5.5 `CHARS_PER_TOKEN` of the SDK.
pub const SDK_CHARS_PER_TOKEN: u64 = 3;

/// §5.5 `DEFAULT_MAX_INPUT_TOKENS`.
pub const SDK_DEFAULT_MAX_INPUT_TOKENS: u64 = 128_000;

/// §5.5 `CONTEXT_WINDOW_INPUT_RATIO`, in percent.
pub const SDK_CONTEXT_WINDOW_INPUT_PERCENT: u64 = 90;

/// §5.5 `COMPACTION_TRIGGER_RATIO`, in percent.
pub const SDK_TRIGGER_PERCENT: u64 = 90;

/// §5.5 `DEFAULT_TARGET_RATIO`, in percent.
pub const SDK_TARGET_PERCENT: u64 = 70;

/// §5.5 `DEFAULT_PRESERVE_RECENT_TOKENS`.
pub const SDK_PRESERVE_RECENT_TOKENS: u64 = 20_000;

/// §5.5 `DEFAULT_SUMMARY_MAX_OUTPUT_TOKENS`.
pub const SDK_SUMMARY_MAX_OUTPUT_TOKENS: u64 = 4_096;

/// §5.5 `TOOL_RESULT_CHAR_LIMIT` and `FILE_CONTENT_CHAR_LIMIT`.
pub const SDK_CONTENT_CHAR_LIMIT: usize = 2_000;

/// §5.2: the sections the summary must have, in order (our wording of their titles).
pub const REQUIRED_SECTIONS: [&str; 10] = [
    "Primary request and intent",
    "Key technical concepts",
    "Files and code sections",
    "Problem solving",
    "Pending tasks",
    "Task evolution, with the user's words quoted",
    "Current work",
    "Next step, with the user's words quoted",
    "Required files (relative paths)",
    "Weight on the most recent user message",
];

/// §5.3: the message that introduces the summary (our wording of its two points).
pub const CONTINUATION: &str =
    "This conversation continues an earlier one that ran out of context. Its summary follows.";

/// §5.5: the SDK's estimate, `max(1, ceil(chars / 3))`.
///
/// ```
/// use context_assembly::compact::policies::cline_condense::sdk_estimate;
/// assert_eq!(sdk_estimate(""), 1);
/// assert_eq!(sdk_estimate("abcd"), 2);
/// ```
pub fn sdk_estimate(text: &str) -> u64 {
    (text.chars().count() as u64)
        .div_ceil(SDK_CHARS_PER_TOKEN)
        .max(1)
}

/// §5.5: the SDK's input limit for a window (`None`: its default), its trigger and target.
///
/// ```
/// use context_assembly::compact::policies::cline_condense::sdk_limits;
/// assert_eq!(sdk_limits(Some(200_000)), (180_000, 162_000, 126_000));
/// assert_eq!(sdk_limits(None), (128_000, 115_200, 89_600));
/// ```
pub fn sdk_limits(window: Option<u64>) -> (u64, u64, u64) {
    let input = window.map_or(SDK_DEFAULT_MAX_INPUT_TOKENS, |w| {
        w * SDK_CONTEXT_WINDOW_INPUT_PERCENT / 100
    });
    (
        input,
        input * SDK_TRIGGER_PERCENT / 100,
        input * SDK_TARGET_PERCENT / 100,
    )
}

/// Which of Cline's condensers.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum CondenseVariant {
    /// The classic extension's auto-condense (§5.1).
    #[default]
    Classic,
    /// The SDK's agentic compaction (§5.5).
    Sdk,
}

/// The knobs of `cline.condense`.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct CondenseParams {
    /// Which condenser.
    pub variant: CondenseVariant,
    /// The model's window (the session's).
    pub context_window: u64,
    /// The previous request's usage (the session's current request); `None` counts the records.
    pub used_tokens: Option<u64>,
}

/// Plans the condense: whether it fires, what is summarised and what is kept.
///
/// ```
/// use context_assembly::compact::policies::cline_condense::{apply, CondenseParams};
/// use context_assembly::tokens::TokenMethod;
/// let outcome = apply(&[], &CondenseParams::default(), TokenMethod::Calibrated);
/// assert!(outcome.decisions[0].reason.contains("two or fewer"));
/// ```
pub fn apply(records: &[Message], params: &CondenseParams, method: TokenMethod) -> PolicyOutcome {
    if records.len() <= MIN_ACTIVE_MESSAGES {
        let reason = String::from(
            "two or fewer messages remain: a summary is not summarised again (strategies.md §5.1)",
        );
        return not_applied(records, POLICY_ID, reason, method);
    }
    let (used, trigger, start, how) = match params.variant {
        CondenseVariant::Classic => {
            let used = params
                .used_tokens
                .unwrap_or_else(|| super::total_tokens(records, method));
            let trigger = max_allowed_size(params.context_window);
            (
                used,
                trigger,
                records.len(),
                String::from("classic: usage against maxAllowedSize (strategies.md §2.2)"),
            )
        }
        CondenseVariant::Sdk => {
            let used = records
                .iter()
                .map(|m| sdk_estimate(&super::record_text(m)))
                .sum::<u64>();
            let (_, trigger, _) = sdk_limits(Some(params.context_window));
            let start = sdk_tail_start(records, method);
            (
                used,
                trigger,
                start,
                String::from("SDK: chars / 3 against 0.9 of the input limit (strategies.md §5.5)"),
            )
        }
    };
    if start == 0 {
        let reason = alloc::format!(
            "every record fits the {} tokens kept verbatim: nothing is left to summarise",
            thousands(SDK_PRESERVE_RECENT_TOKENS)
        );
        return not_applied(records, POLICY_ID, reason, method);
    }
    if used < trigger {
        let reason = alloc::format!(
            "{} tokens are under the trigger of {} ({how})",
            thousands(used),
            thousands(trigger)
        );
        return not_applied(records, POLICY_ID, reason, method);
    }
    let mut decisions = Vec::new();
    decisions.push(decision(
        "summary request",
        Verdict::Included,
        alloc::format!(
            "{} tokens reach the trigger of {} ({how}): the model is made to call summarize_task with {} sections",
            thousands(used),
            thousands(trigger),
            REQUIRED_SECTIONS.len()
        ),
        Some(String::from(CONTINUATION)),
    ));
    decisions.push(decision(
        "summarised records",
        Verdict::Replaced,
        alloc::format!("{start} records become the summary"),
        None,
    ));
    if start < records.len() {
        decisions.push(decision(
            "kept records",
            Verdict::Kept,
            alloc::format!(
                "the newest {} records, within {} tokens, stay verbatim (strategies.md §5.5)",
                records.len() - start,
                thousands(SDK_PRESERVE_RECENT_TOKENS)
            ),
            None,
        ));
    }
    outcome(records, summarised(records, start), decisions, method)
}

/// The SDK's kept tail: the newest records within [`SDK_PRESERVE_RECENT_TOKENS`].
fn sdk_tail_start(records: &[Message], method: TokenMethod) -> usize {
    let mut kept = 0u64;
    let mut start = records.len();
    for (index, message) in records.iter().enumerate().rev() {
        kept += record_tokens(message, method);
        if kept > SDK_PRESERVE_RECENT_TOKENS {
            break;
        }
        start = index;
    }
    clean_start_at_or_after(records, start)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::Record;

    fn prompts(n: u64, chars: usize) -> Vec<Message> {
        (0..n)
            .map(|id| Message {
                id,
                record: Record::Prompt {
                    text: "x".repeat(chars),
                },
            })
            .collect()
    }

    #[test]
    fn classic_fires_at_max_allowed_size_and_summarises_everything() {
        let records = prompts(3, 40);
        let params = CondenseParams {
            variant: CondenseVariant::Classic,
            context_window: 128_000,
            used_tokens: Some(97_999),
        };
        assert_eq!(
            apply(&records, &params, TokenMethod::ClaudeCode).records,
            records
        );
        let params = CondenseParams {
            used_tokens: Some(98_000),
            ..params
        };
        let outcome = apply(&records, &params, TokenMethod::ClaudeCode);
        assert_eq!(outcome.records.len(), 1);
        assert!(matches!(outcome.records[0].record, Record::Summary { .. }));
    }

    #[test]
    fn the_sdk_keeps_the_newest_20k_tokens() {
        // Prompts of 9,000 characters: 3,000 SDK tokens and 2,250 ClaudeCode tokens each;
        // an 18,000-token window gives an input limit of 16,200 and a trigger of 14,580.
        let records = prompts(6, 9_000);
        let params = CondenseParams {
            variant: CondenseVariant::Sdk,
            context_window: 18_000,
            used_tokens: None,
        };
        let outcome = apply(&records, &params, TokenMethod::ClaudeCode);
        // All six (13,500 tokens) fit the preserve budget: nothing is left to summarise.
        assert_eq!(outcome.records, records);
        let records = prompts(12, 9_000);
        let outcome = apply(&records, &params, TokenMethod::ClaudeCode);
        // 8 × 2,250 = 18,000 ≤ 20,000 < 9 × 2,250.
        assert_eq!(outcome.records.len(), 9);
        assert_eq!(outcome.records[1].id, 4);
    }
}
