//! The kept tail of session-memory compaction: how many recent records stay word for word
//! after the summary (spec claude-code.md §9.8, `calculateMessagesToKeepIndex`).
//!
//! The tail starts right after the last summarised record and grows backwards, one record at
//! a time, until it holds [`KeptTailConfig::max_tokens`], or both
//! [`KeptTailConfig::min_tokens`] and [`KeptTailConfig::min_text_block_messages`] records with
//! text. It never grows past the last compact boundary. Then [`preserve_api_invariants`]
//! moves its start earlier so that no tool call is cut from its result and no response is
//! split (`adjustIndexToPreserveAPIInvariants`).
//!
//! Choices where our records differ from the original's messages:
//! * Tokens are [`estimate_message_tokens`]: [`record_tokens`] with the caller's method,
//!   padded by §6.4's `×4/3` and rounded up per record, as `estimateMessageTokens` pads
//!   each message. Its string-content quirk (Q45) is [`KeptTailConfig::ignores_string_content`]:
//!   the original counts only user and assistant messages whose content is a list of blocks,
//!   so a prompt, a summary and a command message (string content) and an attachment (not a
//!   user message) count nothing.
//! * A record "has text" as `hasTextBlocks` decides: a prompt with non-empty text, or an
//!   assistant text block (even an empty one). Thinking, tool calls, tool results and
//!   attachments do not count — the original's attachments are not user messages and its
//!   tool results carry `tool_result` blocks, not `text` ones.
//! * Without a last summarised id (a resumed session, where the original does not know what
//!   the session memory covers) the tail starts empty. An id that is not in the records is
//!   treated the same way, with a [`Verdict::NotFound`] decision: the original gives up on
//!   session-memory compaction there and falls back to full compaction, which is the host's
//!   call, not this function's.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use crate::compact::policies::record_tokens;
use crate::tokens::TokenMethod;
use crate::transcript::{AssistantBlock, Message, Record};
use crate::vocabulary::{Decision, Verdict};

/// §9.8 `DEFAULT_SM_COMPACT_CONFIG.minTokens`.
pub const MIN_TOKENS: u64 = 10_000;

/// §9.8 `DEFAULT_SM_COMPACT_CONFIG.minTextBlockMessages`.
pub const MIN_TEXT_BLOCK_MESSAGES: usize = 5;

/// §9.8 `DEFAULT_SM_COMPACT_CONFIG.maxTokens`.
pub const MAX_TOKENS: u64 = 40_000;

/// How large the kept tail is; `Default` is `DEFAULT_SM_COMPACT_CONFIG` (§9.8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptTailConfig {
    /// Tokens the tail holds at least, once it also has enough text messages (10,000).
    pub min_tokens: u64,
    /// Records with text the tail holds at least, once it also has enough tokens (5).
    pub min_text_block_messages: usize,
    /// Tokens at which the tail stops growing whatever else it holds (40,000).
    pub max_tokens: u64,
    /// Q45: records whose content the original holds as a string (prompts, summaries,
    /// command messages) and attachments count nothing (original); off, every record counts.
    pub ignores_string_content: bool,
}

/// `DEFAULT_SM_COMPACT_CONFIG`'s counts, every record counted (Q45 fixed).
impl Default for KeptTailConfig {
    fn default() -> Self {
        KeptTailConfig {
            min_tokens: MIN_TOKENS,
            min_text_block_messages: MIN_TEXT_BLOCK_MESSAGES,
            max_tokens: MAX_TOKENS,
            ignores_string_content: false,
        }
    }
}

/// Where the kept tail starts, what it holds, and why it stops there.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct KeptTail {
    /// Index into the records of the first kept record; the records' length when the tail
    /// is empty.
    pub start: usize,
    /// Tokens of the kept records ([`estimate_message_tokens`] summed: padded by a third).
    pub tokens: u64,
    /// Kept records with text (see the module docs).
    pub text_messages: usize,
    /// Why the tail starts where it does: where it stopped growing and, if the start moved to
    /// keep pairs and responses whole, by how much.
    pub decisions: Vec<Decision>,
}

/// Whether the original's `hasTextBlocks` would say the record has text.
fn has_text(message: &Message) -> bool {
    match &message.record {
        Record::Prompt { text } | Record::Summary { text } | Record::LocalCommand { text, .. } => {
            !text.is_empty()
        }
        Record::Interruption => true,
        Record::Assistant { block, .. } => matches!(block, AssistantBlock::Text { .. }),
        Record::ToolResults { .. }
        | Record::Attachment(_)
        | Record::CompactBoundary { .. }
        | Record::Context { .. } => false,
    }
}

/// An earlier compaction's boundary or summary.
pub fn is_compact_marker(message: &Message) -> bool {
    matches!(
        message.record,
        Record::CompactBoundary { .. } | Record::Summary { .. }
    )
}

fn is_boundary(message: &Message) -> bool {
    matches!(message.record, Record::CompactBoundary { .. })
}

/// `estimateMessageTokens([message])` (§6.4): [`record_tokens`] ×4/3, rounded up; with
/// `ignores_string_content` (Q45, the original), 0 for a record the original stores with
/// string content (a prompt, a summary, a command message) or as an attachment.
///
/// # Example
/// ```
/// use context_assembly::compact::kept_tail::estimate_message_tokens;
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{AssistantBlock, Record, Transcript};
/// let mut transcript = Transcript::default();
/// transcript.push(Record::Prompt { text: "x".repeat(40) }); // 10 tokens
/// let response = transcript.next_response();
/// transcript.push(Record::Assistant { response, block: AssistantBlock::text(&"y".repeat(12)) }); // 3
/// let [prompt, answer] = transcript.messages() else { unreachable!() };
/// let method = TokenMethod::ClaudeCode;
/// assert_eq!(estimate_message_tokens(prompt, method, true), 0); // Q45: a string prompt
/// assert_eq!(estimate_message_tokens(prompt, method, false), 14); // ceil(10 × 4/3)
/// assert_eq!(estimate_message_tokens(answer, method, true), 4); // ceil(3 × 4/3)
/// ```
pub fn estimate_message_tokens(
    message: &Message,
    method: TokenMethod,
    ignores_string_content: bool,
) -> u64 {
    if ignores_string_content && !has_block_content(message) {
        return 0;
    }
    record_tokens(message, method).saturating_mul(4).div_ceil(3)
}

/// Whether the original stores the record as a user or assistant message whose content is a
/// list of blocks, the only messages `estimateMessageTokens` counts (Q45).
fn has_block_content(message: &Message) -> bool {
    match message.record {
        Record::Assistant { .. } | Record::ToolResults { .. } | Record::Interruption => true,
        Record::Context { .. } => true,
        Record::Prompt { .. }
        | Record::Summary { .. }
        | Record::LocalCommand { .. }
        | Record::Attachment(_)
        | Record::CompactBoundary { .. } => false,
    }
}

/// Where the kept tail of a session-memory compaction starts (§9.8).
///
/// `last_summarized` is the id of the last record the session memory covers; the tail
/// starts after it. See the module docs for an id that is missing or not found.
///
/// # Example
/// ```
/// use context_assembly::compact::kept_tail::{kept_tail_start, KeptTailConfig};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{AssistantBlock, Record, Transcript};
/// let mut transcript = Transcript::default();
/// transcript.push(Record::Prompt { text: "x".repeat(40_000) });
/// let response = transcript.next_response();
/// transcript.push(Record::Assistant { response, block: AssistantBlock::text("done") });
/// // The memory covers nothing yet (no id): the tail grows back until it holds 10,000
/// // tokens and 5 records with text, or 40,000 tokens. Here it reaches the first record
/// // with only 2 text records: everything is kept.
/// let tail = kept_tail_start(
///     transcript.messages(), None, &KeptTailConfig::default(), TokenMethod::ClaudeCode,
/// );
/// assert_eq!((tail.start, tail.text_messages), (0, 2));
/// assert!(tail.decisions[0].reason.contains("reached the first record"));
/// ```
pub fn kept_tail_start(
    records: &[Message],
    last_summarized: Option<u64>,
    config: &KeptTailConfig,
    method: TokenMethod,
) -> KeptTail {
    let mut decisions = Vec::new();
    if records.is_empty() {
        decisions.push(kept("there are no records: the tail is empty".into(), None));
        return KeptTail {
            start: 0,
            tokens: 0,
            text_messages: 0,
            decisions,
        };
    }
    let first = first_candidate(records, last_summarized, &mut decisions);
    let floor = records
        .iter()
        .rposition(is_boundary)
        .map_or(0, |i| i + 1)
        .min(first);
    let mut start = first;
    let estimate = |m: &Message| estimate_message_tokens(m, method, config.ignores_string_content);
    let mut tokens: u64 = records[first..].iter().map(estimate).sum();
    let mut texts = records[first..].iter().filter(|m| has_text(m)).count();
    let mut stop = stop_reason(tokens, texts, config);
    while stop.is_none() && start > floor {
        start -= 1;
        tokens = tokens.saturating_add(estimate(&records[start]));
        texts += usize::from(has_text(&records[start]));
        stop = stop_reason(tokens, texts, config);
    }
    let reason = stop.unwrap_or_else(|| {
        let edge = if floor == 0 {
            "the first record"
        } else {
            "the last compact boundary"
        };
        alloc::format!(
            "reached {edge} with {tokens} tokens and {texts} records with text, short of {} tokens with {}",
            config.min_tokens, config.min_text_block_messages
        )
    });
    decisions.push(kept(reason, Some(span(records, start))));
    let adjusted = preserve_api_invariants(records, start);
    if adjusted < start {
        let reason = alloc::format!(
            "moved back {} records so that every tool result keeps its call and no response is split",
            start - adjusted
        );
        decisions.push(moved("kept tail start", reason, span(records, adjusted)));
    }
    let kept_records = records.get(adjusted..).unwrap_or_default();
    KeptTail {
        start: adjusted,
        tokens: kept_records.iter().map(estimate).sum(),
        text_messages: kept_records.iter().filter(|m| has_text(m)).count(),
        decisions,
    }
}

/// The index the tail starts at before it grows: after the last summarised record.
fn first_candidate(
    records: &[Message],
    last_summarized: Option<u64>,
    decisions: &mut Vec<Decision>,
) -> usize {
    let Some(id) = last_summarized else {
        return records.len();
    };
    match records.iter().position(|m| m.id == id) {
        Some(index) => index + 1,
        None => {
            decisions.push(Decision {
                subject: alloc::format!("last summarised record {id}"),
                verdict: Verdict::NotFound,
                reason: String::from(
                    "not among the records (a resumed session?): the tail starts empty; the original falls back to full compaction here",
                ),
                detail: None,
            });
            records.len()
        }
    }
}

/// Why the tail stops growing, if it does (§9.8's two stop rules, max first).
fn stop_reason(tokens: u64, texts: usize, config: &KeptTailConfig) -> Option<String> {
    if tokens >= config.max_tokens {
        return Some(alloc::format!(
            "{tokens} tokens reach the maximum of {}",
            config.max_tokens
        ));
    }
    (tokens >= config.min_tokens && texts >= config.min_text_block_messages).then(|| {
        alloc::format!(
            "{tokens} tokens reach the minimum of {} with {texts} records with text (at least {})",
            config.min_tokens,
            config.min_text_block_messages
        )
    })
}

/// Which records a start keeps, for a decision's detail.
fn span(records: &[Message], start: usize) -> String {
    match records.get(start) {
        Some(first) => alloc::format!(
            "from record {} (index {start}): {} of {} records",
            first.id,
            records.len() - start,
            records.len()
        ),
        None => alloc::format!("no records of {}", records.len()),
    }
}

fn kept(reason: String, detail: Option<String>) -> Decision {
    Decision::new(String::from("kept tail"), Verdict::Kept, reason).with_detail(detail)
}

pub(super) fn moved(subject: &str, reason: String, detail: String) -> Decision {
    Decision::new(subject, Verdict::Moved, reason).with_detail(detail)
}

/// Moves `start` earlier until the records from it on hold the call of every tool result
/// they hold and every record of every response they touch (§9.8,
/// `adjustIndexToPreserveAPIInvariants`). A start past the end is read as the end.
///
/// Calls are matched to results by id; when an id repeats, its first call counts, so every
/// call with that id is kept. A result that comes before its call is out of order for the
/// API anyway and pulls nothing.
///
/// # Example
/// ```
/// use context_assembly::compact::kept_tail::preserve_api_invariants;
/// use context_assembly::transcript::{AssistantBlock, Record, ToolResultBlock, ToolUse, Transcript};
/// let mut transcript = Transcript::default();
/// transcript.push(Record::Prompt { text: "list".into() });
/// let response = transcript.next_response();
/// transcript.push(Record::Assistant { response, block: AssistantBlock::text("Listing.") });
/// let call = ToolUse { id: "t1".into(), name: "Bash".into(), input: "{}".into() };
/// transcript.push(Record::Assistant { response, block: AssistantBlock::ToolUse(call) });
/// let result = ToolResultBlock { tool_use_id: "t1".into(), content: "a b".into(), is_error: false };
/// transcript.push(Record::ToolResults { results: vec![result] });
/// // Starting at the result would orphan it; its call comes along, and with the call the
/// // text block of the same response.
/// assert_eq!(preserve_api_invariants(transcript.messages(), 3), 1);
/// ```
pub fn preserve_api_invariants(records: &[Message], start: usize) -> usize {
    let mut call_at: BTreeMap<&str, usize> = BTreeMap::new();
    let mut response_at: BTreeMap<u64, usize> = BTreeMap::new();
    for (index, message) in records.iter().enumerate() {
        if let Record::Assistant { response, block } = &message.record {
            response_at.entry(*response).or_insert(index);
            if let AssistantBlock::ToolUse(call) = block {
                call_at.entry(call.id.as_str()).or_insert(index);
            }
        }
    }
    let needs = |message: &Message| -> usize {
        match &message.record {
            Record::Assistant { response, .. } => {
                response_at.get(response).copied().unwrap_or(usize::MAX)
            }
            Record::ToolResults { results } => results
                .iter()
                .filter_map(|r| call_at.get(r.tool_use_id.as_str()).copied())
                .min()
                .unwrap_or(usize::MAX),
            Record::Prompt { .. }
            | Record::Interruption
            | Record::Attachment(_)
            | Record::Summary { .. }
            | Record::LocalCommand { .. }
            | Record::Context { .. }
            | Record::CompactBoundary { .. } => usize::MAX,
        }
    };
    // Each pass scans only the records the previous one pulled in, so every record is
    // looked at once.
    let mut start = start.min(records.len());
    let mut scan_end = records.len();
    loop {
        let required = records[start..scan_end]
            .iter()
            .map(needs)
            .min()
            .unwrap_or(usize::MAX);
        if required >= start {
            return start;
        }
        scan_end = start;
        start = required;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{ToolResultBlock, ToolUse, Transcript};

    const METHOD: TokenMethod = TokenMethod::ClaudeCode;

    fn text_response(t: &mut Transcript, text: &str) {
        let response = t.next_response();
        t.push(Record::Assistant {
            response,
            block: AssistantBlock::text(text),
        });
    }

    fn call(t: &mut Transcript, id: &str, output: &str) {
        let response = t.next_response();
        t.push(Record::Assistant {
            response,
            block: AssistantBlock::ToolUse(ToolUse {
                id: id.into(),
                name: "Bash".into(),
                input: "{}".into(),
            }),
        });
        t.push(Record::ToolResults {
            results: alloc::vec![ToolResultBlock {
                tool_use_id: id.into(),
                content: output.into(),
                is_error: false,
            }],
        });
    }

    fn config(min: u64, texts: usize, max: u64) -> KeptTailConfig {
        KeptTailConfig {
            min_tokens: min,
            min_text_block_messages: texts,
            max_tokens: max,
            ..KeptTailConfig::default()
        }
    }

    #[test]
    fn q45_string_prompts_count_nothing_in_the_original_and_everything_when_fixed() {
        let mut t = Transcript::default();
        for _ in 0..3 {
            t.push(Record::Prompt {
                text: "p".repeat(400), // 100 tokens, 134 padded
            });
            text_response(&mut t, &"y".repeat(40)); // 10 tokens, 14 padded
        }
        let fixed = config(100, 1, 1_000);
        let tail = kept_tail_start(t.messages(), None, &fixed, METHOD);
        // Counted: the last response (14) and the prompt before it (134) reach 100.
        assert_eq!((tail.start, tail.tokens), (4, 148));
        let original = KeptTailConfig {
            ignores_string_content: true,
            ..fixed
        };
        let tail = kept_tail_start(t.messages(), None, &original, METHOD);
        // Q45: the prompts weigh nothing, so the three responses (42) never reach 100 and
        // the tail grows to the first record.
        assert_eq!((tail.start, tail.tokens), (0, 42));
        assert!(tail.decisions[0]
            .reason
            .contains("reached the first record"));
    }

    #[test]
    fn empty_records_give_an_empty_tail_with_a_reason() {
        let tail = kept_tail_start(&[], Some(3), &KeptTailConfig::default(), METHOD);
        assert_eq!((tail.start, tail.tokens, tail.text_messages), (0, 0, 0));
        assert_eq!(tail.decisions.len(), 1);
        assert!(tail.decisions[0].reason.contains("no records"));
    }

    #[test]
    fn the_maximum_stops_the_tail_even_without_text() {
        let mut t = Transcript::default();
        t.push(Record::Prompt { text: "go".into() });
        call(&mut t, "a", &"x".repeat(400)); // 100 tokens
        call(&mut t, "b", &"x".repeat(400));
        let tail = kept_tail_start(t.messages(), None, &config(10, 5, 100), METHOD);
        // The last result alone reaches 100 tokens (134 padded); its call comes along.
        assert_eq!(tail.start, 3);
        assert!(tail.decisions[0]
            .reason
            .starts_with("134 tokens reach the maximum of 100"));
        assert_eq!(tail.decisions[1].verdict, Verdict::Moved);
        assert_eq!(
            tail.tokens,
            134 + estimate_message_tokens(&t.messages()[3], METHOD, false)
        );
    }

    #[test]
    fn the_minimum_needs_enough_text_records() {
        let mut t = Transcript::default();
        for i in 0..4 {
            t.push(Record::Prompt {
                text: alloc::format!("prompt {i}"),
            });
            text_response(&mut t, &"y".repeat(40)); // 10 tokens
        }
        // 3 text records: the tail grows until the third, then stops at 20+ tokens.
        let tail = kept_tail_start(t.messages(), None, &config(20, 3, 1_000), METHOD);
        assert_eq!(tail.start, 5);
        assert_eq!(tail.text_messages, 3);
        assert!(tail.decisions[0]
            .reason
            .contains("with 3 records with text"));
    }

    #[test]
    fn the_tail_starts_after_the_last_summarised_record_and_may_already_suffice() {
        let mut t = Transcript::default();
        for i in 0..6 {
            t.push(Record::Prompt {
                text: alloc::format!("prompt {i} {}", "z".repeat(40)),
            });
        }
        let tail = kept_tail_start(t.messages(), Some(1), &config(1, 1, 1_000), METHOD);
        assert_eq!(tail.start, 2);
    }

    #[test]
    fn an_unknown_last_summarised_id_starts_the_tail_empty() {
        let mut t = Transcript::default();
        t.push(Record::Prompt { text: "a".into() });
        t.push(Record::Prompt { text: "b".into() });
        let tail = kept_tail_start(t.messages(), Some(99), &config(0, 0, 10), METHOD);
        assert_eq!(tail.start, 2);
        assert_eq!(tail.decisions[0].verdict, Verdict::NotFound);
    }

    #[test]
    fn the_tail_does_not_grow_past_the_last_compact_boundary() {
        let mut t = Transcript::default();
        t.push(Record::Prompt { text: "old".into() });
        t.push(Record::CompactBoundary {
            trigger: crate::vocabulary::Trigger::Manual,
            tokens_before: 0,
        });
        t.push(Record::Prompt { text: "new".into() });
        let tail = kept_tail_start(t.messages(), None, &KeptTailConfig::default(), METHOD);
        assert_eq!(tail.start, 2);
        assert!(tail.decisions[0].reason.contains("compact boundary"));
    }

    #[test]
    fn invariants_keep_a_whole_response_with_its_thinking() {
        let mut t = Transcript::default();
        t.push(Record::Prompt { text: "q".into() });
        let response = t.next_response();
        t.push(Record::Assistant {
            response,
            block: AssistantBlock::Thinking {
                thinking: "hmm".into(),
            },
        });
        t.push(Record::Assistant {
            response,
            block: AssistantBlock::text("answer"),
        });
        assert_eq!(preserve_api_invariants(t.messages(), 2), 1);
        assert_eq!(preserve_api_invariants(t.messages(), 99), 3);
        assert_eq!(preserve_api_invariants(t.messages(), 0), 0);
    }

    #[test]
    fn invariants_follow_chains_back() {
        // A result pulls its call, whose response began earlier with another call whose
        // result sits between them.
        let mut t = Transcript::default();
        let response = t.next_response();
        let use_block = |id: &str| {
            AssistantBlock::ToolUse(ToolUse {
                id: id.into(),
                name: "Bash".into(),
                input: "{}".into(),
            })
        };
        t.push(Record::Prompt { text: "go".into() });
        t.push(Record::Assistant {
            response,
            block: use_block("a"),
        });
        t.push(Record::Assistant {
            response,
            block: use_block("b"),
        });
        t.push(Record::ToolResults {
            results: alloc::vec![ToolResultBlock {
                tool_use_id: "b".into(),
                content: "out".into(),
                is_error: false,
            }],
        });
        assert_eq!(preserve_api_invariants(t.messages(), 3), 1);
    }
}
