//! `openai.compaction`: the Responses API's server-side compaction, as a provider
//! passthrough (spec/strategies.md §11).
//!
//! The client sends `context_management: [{"type": "compaction", "compact_threshold": N}]`
//! with every request and keeps its history; when the rendered input crosses `N` the server
//! compacts and returns an opaque, encrypted `compaction` item, and later requests may drop the
//! items before the latest one. Nothing of that can be computed here: the item is the
//! provider's. So the policy changes no record and records what would be sent, whether the
//! server would compact now, and what the client could drop afterwards. The documentation gives
//! no default threshold; the default here is OpenRouter's example, 200,000. The Agents SDK's
//! `OpenAIResponsesCompactionSession` instead triggers on the number of candidate items
//! (neither user messages nor compaction items) reaching [`AGENTS_SDK_CANDIDATE_THRESHOLD`].

use alloc::string::String;
use alloc::vec::Vec;

use super::{decision, outcome, thousands, PolicyOutcome};
use crate::tokens::TokenMethod;
use crate::transcript::{Message, Record};
use crate::vocabulary::{PolicyId, Verdict};

/// The policy's id.
pub const POLICY_ID: &str = PolicyId::OpenaiCompaction.as_str();

/// §11: OpenRouter's example `compact_threshold` (the API documents no default).
pub const EXAMPLE_COMPACT_THRESHOLD: u64 = 200_000;

/// §11: the Agents SDK's default trigger, in candidate items.
pub const AGENTS_SDK_CANDIDATE_THRESHOLD: usize = 10;

/// The knobs of `openai.compaction`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpenaiCompactionParams {
    /// `compact_threshold`, in rendered input tokens.
    pub compact_threshold: u64,
    /// The request's input tokens now (the session's); `None` counts the records.
    pub input_tokens: Option<u64>,
}

impl Default for OpenaiCompactionParams {
    fn default() -> Self {
        OpenaiCompactionParams {
            compact_threshold: EXAMPLE_COMPACT_THRESHOLD,
            input_tokens: None,
        }
    }
}

/// The request field that asks for compaction (§11).
///
/// ```
/// use context_assembly::compact::policies::openai_compaction::context_management;
/// assert_eq!(context_management(200_000), r#"[{"type":"compaction","compact_threshold":200000}]"#);
/// ```
pub fn context_management(threshold: u64) -> String {
    alloc::format!(r#"[{{"type":"compaction","compact_threshold":{threshold}}}]"#)
}

/// The Agents SDK's candidates: items that are neither user messages nor compaction items.
pub fn candidate_items(records: &[Message]) -> usize {
    records
        .iter()
        .filter(|m| {
            !matches!(
                m.record,
                Record::Prompt { .. } | Record::Summary { .. } | Record::CompactBoundary { .. }
            )
        })
        .count()
}

/// Records what would be sent and kept, and whether the server would compact now.
///
/// ```
/// use context_assembly::compact::policies::openai_compaction::{apply, OpenaiCompactionParams};
/// use context_assembly::tokens::TokenMethod;
/// let outcome = apply(&[], &OpenaiCompactionParams::default(), TokenMethod::Calibrated);
/// assert!(outcome.decisions[1].reason.contains("under"));
/// ```
pub fn apply(
    records: &[Message],
    params: &OpenaiCompactionParams,
    method: TokenMethod,
) -> PolicyOutcome {
    let input = params
        .input_tokens
        .unwrap_or_else(|| super::total_tokens(records, method));
    let mut decisions = Vec::with_capacity(3);
    decisions.push(decision(
        POLICY_ID,
        Verdict::NotApplied,
        String::from(
            "a provider passthrough changes no record: the server compacts, and its encrypted item cannot be computed here",
        ),
        Some(alloc::format!(
            "context_management: {}",
            context_management(params.compact_threshold)
        )),
    ));
    let crosses = input >= params.compact_threshold;
    decisions.push(decision(
        "server compaction",
        if crosses { Verdict::Needed } else { Verdict::Skipped },
        match crosses {
            true => alloc::format!(
                "{} input tokens cross the threshold of {}: the response carries an opaque compaction item, and the items before it may be dropped from the next request (not when chaining with previous_response_id)",
                thousands(input),
                thousands(params.compact_threshold)
            ),
            false => alloc::format!(
                "{} input tokens are under the threshold of {}: every item is sent and kept",
                thousands(input),
                thousands(params.compact_threshold)
            ),
        },
        None,
    ));
    let candidates = candidate_items(records);
    decisions.push(decision(
        "Agents SDK session",
        if candidates >= AGENTS_SDK_CANDIDATE_THRESHOLD {
            Verdict::Needed
        } else {
            Verdict::Skipped
        },
        alloc::format!(
            "{candidates} candidate items (neither user messages nor compaction items); its default trigger is {AGENTS_SDK_CANDIDATE_THRESHOLD}"
        ),
        None,
    ));
    outcome(records, records.to_vec(), decisions, method)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_threshold_decides_whether_the_server_compacts() {
        let records: Vec<Message> = (0..12)
            .map(|id| Message {
                id,
                record: Record::Assistant {
                    response: id,
                    block: crate::transcript::AssistantBlock::Text { text: "ok".into() },
                },
            })
            .collect();
        let params = OpenaiCompactionParams {
            compact_threshold: 1_000,
            input_tokens: Some(1_000),
        };
        let outcome = apply(&records, &params, TokenMethod::Calibrated);
        assert_eq!(outcome.records, records);
        assert_eq!(outcome.decisions[1].verdict, Verdict::Needed);
        assert_eq!(outcome.decisions[2].verdict, Verdict::Needed);
        let params = OpenaiCompactionParams {
            input_tokens: Some(999),
            ..params
        };
        let outcome = apply(&records[..9], &params, TokenMethod::Calibrated);
        assert_eq!(outcome.decisions[1].verdict, Verdict::Skipped);
        assert_eq!(outcome.decisions[2].verdict, Verdict::Skipped);
    }
}
