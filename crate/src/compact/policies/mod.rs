//! The context-management strategies of other agents, as pure, selectable policies
//! (spec/strategies.md §2–§13).
//!
//! Each policy is a function `apply(records, params, method) -> PolicyOutcome`: it reads the
//! records the host would send, never modifies them, and returns the records to send instead,
//! with a [`Decision`] for every item it cleared, masked or dropped — or one saying why it did
//! nothing. Like the references' overlays (§2.4, §10.2), the stored history stays intact; the
//! host decides whether to send the outcome or to store it.
//!
//! | policy | module | what it does |
//! |---|---|---|
//! | `opencode.prune` | [`prune`] | placeholders for tool outputs beyond the newest 40K tokens (§6) |
//! | `swe.observation_mask` | [`masking`] | placeholders for all but the last N observations (§9) |
//! | `anthropic.clear_tool_uses` | [`clear_tool_uses`] | Anthropic's `clear_tool_uses_20250919`, emulated (§10) |
//! | `anthropic.clear_thinking` | [`clear_thinking`] | Anthropic's `clear_thinking_20251015`, emulated: the thinking of all but the last N thinking turns goes (§10.3) |
//! | `cline.truncate` | [`truncate`] | keep the first pair, drop half or three quarters of the rest (§2) |
//! | `cline.dedupe_reads` | [`dedupe_reads`] | notices for all but the latest copy of a file read more than once; says whether truncation must follow (§3) |
//! | `opencode.summary` | [`opencode_summary`] | an anchored summary of all but a verbatim tail of the last 2 user turns within clamp(25 % of usable, 2K–8K) tokens (§7) |
//! | `cline.file_tracker` | [`file_tracker`] | lists the tracked files changed since the agent last saw them, as Cline's `# Recently Modified Files` (§4) |
//! | `opencode.read_guard` | [`read_guard`] | what the read-before-write check answers for every file written or read (§8) |
//! | `aider.budgets` | [`aider_budgets`] | the chat-history budget and its summary, the repo-map budget and fit, files re-read every turn, the large-chat warning (§12) |
//! | `continue.counting` | [`continue_counting`] | Continue's count (a cl100k model × the per-model multiplier) and oldest-first pruning (§13) |
//! | `cline.condense` | [`cline_condense`] | Cline's auto-condense, classic or SDK: when it fires, what is summarised and kept (§5) |
//! | `openai.compaction` | [`openai_compaction`] | what the Responses API's server-side compaction would be sent and do (§11) |
//!
//! The policies that track, guard or pass through (`cline.file_tracker`, `opencode.read_guard`,
//! `openai.compaction`) change no record: their decisions say what they would surface or
//! refuse. The tracker and the guard also act when a session keeps them on
//! (`SessionConfig::policies`): their states, [`file_tracker::FileWatch`] and
//! [`read_guard::ReadTimes`], feed the next request's list and refuse a stale write. The
//! summary policies build their summary with the extractive summariser, since a preview has
//! no model to ask. Peers' @-mention expansion (§14) is reference behaviour, not
//! a policy: `mention::peers`.
//!
//! Every section of spec/strategies.md (and of the two clients' specs), where it lives or why
//! it is not built: `docs/spec-coverage.md`, checked by `crate/tests/spec_coverage.rs`.
//!
//! Every policy keeps tool calls and their results together: a result that is cleared keeps its
//! `tool_use_id`, and a dropped call takes its result with it.
//!
//! ```
//! use context_assembly::compact::policies::masking;
//! use context_assembly::vocabulary::Verdict;
//! use context_assembly::tokens::TokenMethod;
//! // An empty transcript is not an error: nothing changes, and the decision says why.
//! let outcome = masking::apply(&[], &masking::MaskingParams::default(), TokenMethod::Calibrated);
//! assert!(outcome.records.is_empty());
//! assert_eq!(outcome.decisions[0].verdict, Verdict::NotApplied);
//! ```

pub mod aider_budgets;
pub mod clear_thinking;
pub mod clear_tool_uses;
pub mod cline_condense;
pub mod continue_counting;
pub mod dedupe_reads;
pub mod file_tracker;
mod json_fields;
pub mod masking;
pub mod openai_compaction;
pub mod opencode_summary;
pub mod prune;
pub mod read_guard;
pub mod truncate;

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::compact::kept_tail::preserve_api_invariants;
use crate::compact::summary::{extractive_summary, format_compact_summary};
use crate::tokens::{estimate_tokens, TokenMethod};
use crate::transcript::{AssistantBlock, Message, Record};
use crate::vocabulary::Decision;
use crate::vocabulary::Verdict;

/// What a policy made of the records.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PolicyOutcome {
    /// The records to send, oldest first; ids are the input's.
    pub records: Vec<Message>,
    /// A decision for every item cleared, masked or dropped, or one saying why nothing was.
    pub decisions: Vec<Decision>,
    /// Tokens of the input records ([`record_tokens`] summed).
    pub tokens_before: u64,
    /// Tokens of `records`.
    pub tokens_after: u64,
    /// How many leading records are unchanged: the prompt-cache prefix the policy keeps intact.
    pub prefix_kept: usize,
}

/// The tokens one record costs with `method`: a prompt's text, an assistant block's text or
/// thinking, a tool call as its name followed by its input (as the request counts it,
/// claude-code.md §6.2), each tool result's content, an attachment's text.
///
/// # Example
/// ```
/// use context_assembly::compact::policies::record_tokens;
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{Message, Record};
/// // A batch of zero results costs nothing.
/// let empty = Message { id: 0, record: Record::ToolResults { results: vec![] } };
/// assert_eq!(record_tokens(&empty, TokenMethod::Codex), 0);
/// ```
pub fn record_tokens(message: &Message, method: TokenMethod) -> u64 {
    let count = |text: &str| estimate_tokens(text, method, None);
    match &message.record {
        Record::Prompt { text } | Record::Summary { text } | Record::LocalCommand { text, .. } => {
            count(text)
        }
        Record::Interruption => count(crate::transcript::INTERRUPTED_FOR_TOOL_USE),
        Record::CompactBoundary { .. } => 0,
        Record::Context { item, .. } => count(&item.message_text().unwrap_or_default()),
        Record::Assistant { block, .. } => match block {
            AssistantBlock::Text { text } => count(text),
            AssistantBlock::Thinking { thinking } => count(thinking),
            AssistantBlock::ToolUse(call) => {
                let mut joined = String::with_capacity(call.name.len() + call.input.len());
                joined.push_str(&call.name);
                joined.push_str(&call.input);
                count(&joined)
            }
        },
        Record::ToolResults { results } => results.iter().map(|r| count(&r.content)).sum(),
        Record::Attachment(attachment) => count(&attachment.text),
    }
}

/// Records after a summary of `records[..start]`: one summary record in their place (the
/// extractive summariser's, built from the records, since a preview has no model to ask),
/// then `records[start..]` verbatim. The summary record takes the first summarised id.
fn summarised(records: &[Message], start: usize) -> Vec<Message> {
    let start = start.min(records.len());
    let (head, tail) = records.split_at(start);
    let Some(first) = head.first() else {
        return records.to_vec();
    };
    let text = format_compact_summary(&extractive_summary(head).text);
    let mut after = Vec::with_capacity(tail.len() + 1);
    after.push(Message {
        id: first.id,
        record: Record::Summary { text },
    });
    after.extend_from_slice(tail);
    after
}

/// The first index at or after `start` where a kept part can begin: no kept result's call
/// and no kept block's response is left in the summarised part. Moving forward only shrinks
/// what is kept, so a part that fitted still fits.
fn clean_start_at_or_after(records: &[Message], start: usize) -> usize {
    (start..records.len())
        .find(|&i| preserve_api_invariants(records, i) == i)
        .unwrap_or(records.len())
}

/// The text of the newest summary record, if any (what an anchored summary updates).
fn previous_summary(records: &[Message]) -> Option<&str> {
    records.iter().rev().find_map(|m| match &m.record {
        Record::Summary { text } => Some(text.as_str()),
        _ => None,
    })
}

/// The text a record carries, as [`record_tokens`] reads it (a tool call as its name and
/// input, a batch of results as their contents one after another).
fn record_text(message: &Message) -> String {
    match &message.record {
        Record::Prompt { text } | Record::Summary { text } | Record::LocalCommand { text, .. } => {
            text.clone()
        }
        Record::Interruption => String::from(crate::transcript::INTERRUPTED_FOR_TOOL_USE),
        Record::CompactBoundary { .. } => String::new(),
        Record::Context { item, .. } => item.message_text().unwrap_or_default(),
        Record::Assistant { block, .. } => match block {
            AssistantBlock::Text { text } => text.clone(),
            AssistantBlock::Thinking { thinking } => thinking.clone(),
            AssistantBlock::ToolUse(call) => alloc::format!("{}{}", call.name, call.input),
        },
        Record::ToolResults { results } => results.iter().map(|r| r.content.as_str()).collect(),
        Record::Attachment(attachment) => attachment.text.clone(),
    }
}

/// The tokens of all `records`.
pub fn total_tokens(records: &[Message], method: TokenMethod) -> u64 {
    records.iter().map(|m| record_tokens(m, method)).sum()
}

/// Builds the outcome of a policy that turned `before` into `after`.
fn outcome(
    before: &[Message],
    after: Vec<Message>,
    decisions: Vec<Decision>,
    method: TokenMethod,
) -> PolicyOutcome {
    let prefix_kept = before
        .iter()
        .zip(after.iter())
        .take_while(|(a, b)| a == b)
        .count();
    PolicyOutcome {
        tokens_before: total_tokens(before, method),
        tokens_after: total_tokens(&after, method),
        prefix_kept,
        records: after,
        decisions,
    }
}

/// The outcome of a policy that chose not to act, and why.
fn not_applied(
    records: &[Message],
    policy: &str,
    reason: String,
    method: TokenMethod,
) -> PolicyOutcome {
    let decision = decision(policy, Verdict::NotApplied, reason, None);
    outcome(records, records.to_vec(), alloc::vec![decision], method)
}

fn decision(subject: &str, verdict: Verdict, reason: String, detail: Option<String>) -> Decision {
    Decision::new(subject, verdict, reason).with_detail(detail)
}

/// The name of the tool behind each call id (the first call wins if an id repeats).
fn tool_names(records: &[Message]) -> BTreeMap<&str, &str> {
    let mut names = BTreeMap::new();
    for message in records {
        if let Record::Assistant {
            block: AssistantBlock::ToolUse(call),
            ..
        } = &message.record
        {
            names.entry(call.id.as_str()).or_insert(call.name.as_str());
        }
    }
    names
}

/// A count with thousands separators, as reasons show them: `12,000`.
pub(crate) fn thousands(n: u64) -> String {
    let digits = alloc::format!("{n}");
    let mut grouped = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(c);
    }
    grouped
}

/// The subject of a decision about one tool result.
fn result_subject(tool_use_id: &str, tool: Option<&str>) -> String {
    match tool {
        Some(name) => alloc::format!("tool result {tool_use_id} ({name})"),
        None => alloc::format!("tool result {tool_use_id}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_by_three() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(12_000), "12,000");
        assert_eq!(thousands(1_234_567), "1,234,567");
    }
}
