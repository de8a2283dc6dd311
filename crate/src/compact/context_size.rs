//! The context size Claude Code compares with its thresholds (spec claude-code.md §6.3,
//! `tokenCountWithEstimation`).
//!
//! The provider's own count is better than any estimate, so the original starts from the
//! usage the last response reported — its uncached input, cache writes, cache reads and
//! output — and estimates only what was stored after it. A response with several blocks
//! is stored as several records sharing one API message id; the tool results between them
//! were not part of that request, so the count anchors on the response's first record and
//! estimates every record after it (the response's later blocks included, although its
//! output tokens count them too: the original does exactly this). Without any reported usage
//! the caller's own estimate of the whole context stands.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;

use crate::compact::policies::record_tokens;
use crate::tokens::TokenMethod;
use crate::transcript::{Message, Record};

/// What the provider reported for one request (Anthropic's `message.usage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ProviderUsage {
    /// `input_tokens`: input neither read from nor written to the prompt cache.
    pub input_tokens: u64,
    /// `cache_creation_input_tokens`: input written to the cache.
    pub cache_creation_tokens: u64,
    /// `cache_read_input_tokens`: input read from the cache.
    pub cache_read_tokens: u64,
    /// `output_tokens`: what the model wrote.
    pub output_tokens: u64,
}

impl ProviderUsage {
    /// The four counts added up (`getTokenCountFromUsage`): the whole context the response
    /// saw plus what it added.
    pub fn total(&self) -> u64 {
        self.input_tokens
            .saturating_add(self.cache_creation_tokens)
            .saturating_add(self.cache_read_tokens)
            .saturating_add(self.output_tokens)
    }
}

/// How a context size was arrived at.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SizeSource {
    /// The caller's estimate of the whole request: no response since the last summary
    /// reported usage or, when `usage_read` is false, the profile does not read it.
    Estimated {
        /// The profile reads reported usage (§6.3); there was none.
        usage_read: bool,
    },
    /// The usage a response reported, plus the estimate of the records after the anchor.
    Reported {
        /// Which response reported it (records of one response share the number).
        response: u64,
        /// What it reported.
        usage: ProviderUsage,
        /// Where the estimate starts.
        anchor: UsageAnchor,
        /// How many records follow the anchor.
        records_after: usize,
        /// Their estimate.
        estimated_after: u64,
        /// The estimate was padded by a third (`pad_estimate_after_usage`).
        padded: bool,
    },
}

/// After which record a client stops trusting the reported usage and estimates.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UsageAnchor {
    /// Claude Code: the reporting response's first record (§6.3's `message.id` walk-back).
    FirstRecordOfResponse,
    /// Codex: the last model-generated item, whichever response it belongs to (codex.md
    /// §3.6, `get_total_token_usage`).
    LastModelItem,
}

/// A context size and how it was computed.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ContextSize {
    /// The size in tokens.
    pub tokens: u64,
    /// Where it came from.
    pub source: SizeSource,
}

impl ContextSize {
    /// The caller's estimate; `usage_read`: whether the profile reads reported usage.
    pub fn estimated(tokens: u64, usage_read: bool) -> ContextSize {
        ContextSize {
            tokens,
            source: SizeSource::Estimated { usage_read },
        }
    }

    /// The same size with the estimate after the usage padded by a third, rounded up (Claude
    /// Code 2.1.332); an estimated size is left as it is.
    ///
    /// # Example
    /// ```
    /// use context_assembly::compact::context_size::{ContextSize, ProviderUsage, SizeSource, UsageAnchor};
    /// let usage = ProviderUsage { input_tokens: 1_000, ..Default::default() };
    /// let source = SizeSource::Reported {
    ///     response: 1, usage, anchor: UsageAnchor::FirstRecordOfResponse,
    ///     records_after: 2, estimated_after: 300, padded: false,
    /// };
    /// let padded = ContextSize { tokens: 1_300, source }.with_padded_estimate();
    /// assert_eq!(padded.tokens, 1_400);
    /// ```
    pub fn with_padded_estimate(mut self) -> ContextSize {
        if let SizeSource::Reported {
            usage,
            estimated_after,
            padded: padded @ false,
            ..
        } = &mut self.source
        {
            *estimated_after = estimated_after.saturating_mul(4).div_ceil(3);
            *padded = true;
            self.tokens = usage.total().saturating_add(*estimated_after);
        }
        self
    }

    /// The size and its derivation in words, for a decision's reason.
    pub fn explain(&self) -> String {
        match &self.source {
            SizeSource::Estimated { usage_read } => format!(
                "{} tokens, estimated from the whole request ({})",
                self.tokens,
                match usage_read {
                    true => "no response since the last summary reported usage",
                    false => "the profile does not count from reported usage",
                }
            ),
            SizeSource::Reported {
                response,
                usage,
                anchor,
                records_after,
                estimated_after,
                padded,
            } => format!(
                "{} tokens: response {response} reported {} (input {} + cache writes {} + \
                 cache reads {} + output {}), and the {records_after} records after {} are \
                 estimated at {estimated_after}{} ({})",
                self.tokens,
                usage.total(),
                usage.input_tokens,
                usage.cache_creation_tokens,
                usage.cache_read_tokens,
                usage.output_tokens,
                match anchor {
                    UsageAnchor::FirstRecordOfResponse => "its first",
                    UsageAnchor::LastModelItem => "the last model-generated item",
                },
                if *padded { ", padded by a third" } else { "" },
                match anchor {
                    UsageAnchor::FirstRecordOfResponse => "§6.3",
                    UsageAnchor::LastModelItem => "codex.md §3.6",
                },
            ),
        }
    }
}

/// The context size of `records` as Claude Code counts it for its thresholds (§6.3):
/// the last usage `reported` since the last compact boundary plus the estimate (with `method`,
/// record by record as §6.2 counts messages) of every record after that response's first
/// record; `estimate` when no response there reported usage.
///
/// # Example
/// ```
/// use std::collections::BTreeMap;
/// use context_assembly::compact::context_size::{context_size, ProviderUsage};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{AssistantBlock, Record, ToolResultBlock, ToolUse, Transcript};
/// let mut transcript = Transcript::default();
/// transcript.push(Record::Prompt { text: "go".into() });
/// let response = transcript.next_response();
/// let call = |id: &str| AssistantBlock::ToolUse(ToolUse { id: id.into(), name: "Read".into(), input: "{}".into() });
/// transcript.push(Record::Assistant { response, block: call("a") }); // "Read{}": 2 tokens
/// transcript.push(Record::Assistant { response, block: call("b") });
/// let result = |id: &str| ToolResultBlock { tool_use_id: id.into(), content: "x".repeat(400), is_error: false };
/// transcript.push(Record::ToolResults { results: vec![result("a"), result("b")] }); // 200
/// let usage = ProviderUsage { input_tokens: 10, cache_read_tokens: 5_000, output_tokens: 40, ..Default::default() };
/// let reported = BTreeMap::from([(response, usage)]);
/// // The second call's record shares the response: the count anchors on the first one.
/// let size = context_size(transcript.messages(), &reported, TokenMethod::ClaudeCode, 9);
/// assert_eq!(size.tokens, 5_050 + 2 + 200);
/// // Without usage, the caller's estimate stands.
/// let size = context_size(transcript.messages(), &BTreeMap::new(), TokenMethod::ClaudeCode, 9);
/// assert_eq!(size.tokens, 9);
/// ```
pub fn context_size(
    records: &[Message],
    reported: &BTreeMap<u64, ProviderUsage>,
    method: TokenMethod,
    estimate: u64,
) -> ContextSize {
    anchored_context_size(
        records,
        reported,
        method,
        estimate,
        UsageAnchor::FirstRecordOfResponse,
    )
}

/// The context size from the last usage `reported` since the last compaction plus the
/// estimate of every record after `anchor`; `estimate` when no response there reported usage.
/// [`context_size`] is Claude Code's; Codex anchors on the last model-generated record
/// (codex.md §3.6, `get_total_token_usage`: after a compaction it recomputes its usage as
/// the estimate of the new history). Reasoning is taken as counted by the server, as it is
/// for current models: the records hold no encrypted reasoning to add.
///
/// # Example
/// ```
/// use std::collections::BTreeMap;
/// use context_assembly::compact::context_size::{anchored_context_size, ProviderUsage, UsageAnchor};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{AssistantBlock, Record, ToolResultBlock, ToolUse, Transcript};
/// let mut transcript = Transcript::default();
/// transcript.push(Record::Prompt { text: "go".into() });
/// let response = transcript.next_response();
/// let call = |id: &str| AssistantBlock::ToolUse(ToolUse { id: id.into(), name: "Read".into(), input: "{}".into() });
/// transcript.push(Record::Assistant { response, block: call("a") });
/// transcript.push(Record::Assistant { response, block: call("b") });
/// transcript.push(Record::ToolResults { results: vec![ToolResultBlock { tool_use_id: "a".into(), content: "x".repeat(400), is_error: false }] });
/// let usage = ProviderUsage { input_tokens: 5_000, output_tokens: 40, ..Default::default() };
/// let reported = BTreeMap::from([(response, usage)]);
/// // Only what follows the last model-generated record is estimated: the result.
/// let size = anchored_context_size(transcript.messages(), &reported, TokenMethod::Codex, 9, UsageAnchor::LastModelItem);
/// assert_eq!(size.tokens, 5_040 + 100);
/// ```
pub fn anchored_context_size(
    records: &[Message],
    reported: &BTreeMap<u64, ProviderUsage>,
    method: TokenMethod,
    estimate: u64,
    anchor: UsageAnchor,
) -> ContextSize {
    let since_boundary = records
        .iter()
        .rposition(|m| matches!(m.record, Record::CompactBoundary { .. }))
        .map_or(0, |i| i + 1);
    let records = &records[since_boundary..];
    let last = records.iter().enumerate().rev().find_map(|(i, m)| {
        let response = response_of(m)?;
        reported.get(&response).map(|usage| (i, response, *usage))
    });
    let Some((last, response, usage)) = last else {
        return ContextSize::estimated(estimate, true);
    };
    let start = match anchor {
        UsageAnchor::FirstRecordOfResponse => first_record_of(records, last, response),
        UsageAnchor::LastModelItem => records
            .iter()
            .rposition(|m| response_of(m).is_some())
            .unwrap_or(last),
    };
    let after = &records[start + 1..];
    let estimated_after: u64 = after.iter().map(|m| record_tokens(m, method)).sum();
    ContextSize {
        tokens: usage.total().saturating_add(estimated_after),
        source: SizeSource::Reported {
            response,
            usage,
            anchor,
            records_after: after.len(),
            estimated_after,
            padded: false,
        },
    }
}

/// The response an assistant record belongs to.
fn response_of(message: &Message) -> Option<u64> {
    match message.record {
        Record::Assistant { response, .. } => Some(response),
        _ => None,
    }
}

/// Walks back from `last` over earlier records of `response`, past records of no response
/// in between, and stops at another response's record: the first record of `response`.
fn first_record_of(records: &[Message], last: usize, response: u64) -> usize {
    let mut anchor = last;
    for (i, message) in records[..last].iter().enumerate().rev() {
        match response_of(message) {
            Some(id) if id == response => anchor = i,
            Some(_) => break,
            None => {}
        }
    }
    anchor
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{AssistantBlock, Transcript};
    use crate::vocabulary::Trigger;

    fn usage(input: u64) -> ProviderUsage {
        ProviderUsage {
            input_tokens: input,
            cache_creation_tokens: 20,
            cache_read_tokens: 300,
            output_tokens: 4,
        }
    }

    #[test]
    fn the_sum_of_the_four_counts() {
        assert_eq!(usage(1_000).total(), 1_324);
    }

    #[test]
    fn the_last_response_with_usage_wins_and_later_ones_without_are_estimated() {
        let mut transcript = Transcript::default();
        let first = transcript.next_response();
        transcript.push(Record::Assistant {
            response: first,
            block: AssistantBlock::text("aaaa"),
        });
        transcript.push(Record::Prompt {
            text: "x".repeat(40),
        });
        let second = transcript.next_response();
        transcript.push(Record::Assistant {
            response: second,
            block: AssistantBlock::text(&"y".repeat(80)),
        });
        let reported = BTreeMap::from([(first, usage(1_000))]);
        let size = context_size(transcript.messages(), &reported, TokenMethod::ClaudeCode, 0);
        assert_eq!(size.tokens, 1_324 + 10 + 20);
        assert!(size.explain().contains("the 2 records after its first"));
    }

    #[test]
    fn usage_before_the_last_boundary_is_not_read() {
        let mut transcript = Transcript::default();
        let response = transcript.next_response();
        transcript.push(Record::Assistant {
            response,
            block: AssistantBlock::text("a"),
        });
        transcript.push(Record::CompactBoundary {
            trigger: Trigger::Auto,
            tokens_before: 9,
        });
        let reported = BTreeMap::from([(response, usage(1))]);
        let size = context_size(
            transcript.messages(),
            &reported,
            TokenMethod::ClaudeCode,
            77,
        );
        assert_eq!(size.source, SizeSource::Estimated { usage_read: true });
        assert_eq!(size.tokens, 77);
    }
}
