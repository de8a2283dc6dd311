//! The summary request refused as too long (spec claude-code.md §9.3 item 4,
//! `truncateHeadForPTLRetry`).
//!
//! When the provider refuses the compaction's own request, the original drops the oldest API
//! rounds from what it asks to be summarised and asks again, at most [`MAX_PTL_RETRIES`]
//! times. A round starts at each new assistant response (the records of one response share
//! its number) and holds the records after it up to the next response; the records before
//! the first response are a round of their own. With the refusal's token counts it drops
//! rounds, oldest first, until their estimate covers the gap; without them it drops a fifth
//! of the rounds, at least one. One round always stays, so there is something to summarise.
//! When what is left starts with an assistant response, a meta user message
//! ([`PTL_RETRY_MARKER`]) opens the retried request, since a conversation must open with a
//! user message; the original removes its own marker before grouping again, so it never
//! forms a round of its own: here the marker is never a record at all.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use crate::compact::policies::record_tokens;
use crate::tokens::TokenMethod;
use crate::transcript::{Message, Record};
use crate::vocabulary::{Decision, Verdict};
pub use crate::wording::compaction::{PROMPT_TOO_LONG_ERROR, PTL_RETRY_MARKER};

/// `MAX_PTL_RETRIES`: how many times a refused summary request is cut and sent again.
pub const MAX_PTL_RETRIES: usize = 3;

/// Without token counts, the share of rounds dropped, in percent (at least one round).
pub const UNKNOWN_GAP_DROP_PERCENT: usize = 20;

/// The provider refused the summary request as too long (`prompt is too long: N tokens > M
/// maximum`); the counts when it gave them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct PromptTooLong {
    /// The request's size the provider reported.
    pub tokens: Option<u64>,
    /// The most the provider accepts.
    pub maximum: Option<u64>,
}

impl PromptTooLong {
    /// How many tokens too many (`getPromptTooLongTokenGap`): unknown without both counts,
    /// or when they show no excess.
    pub fn gap(&self) -> Option<u64> {
        match (self.tokens, self.maximum) {
            (Some(tokens), Some(maximum)) if tokens > maximum => Some(tokens - maximum),
            _ => None,
        }
    }
}

/// The records split into API rounds (`groupMessagesByApiRound`): a round starts at each
/// assistant record of a response other than the previous one's, unless nothing comes
/// before it.
///
/// # Example
/// ```
/// use context_assembly::compact::prompt_too_long::api_rounds;
/// use context_assembly::transcript::{AssistantBlock, Record, Transcript};
/// let mut t = Transcript::default();
/// t.push(Record::Prompt { text: "go".into() });
/// for _ in 0..2 {
///     let response = t.next_response();
///     t.push(Record::Assistant { response, block: AssistantBlock::text("a") });
///     t.push(Record::Assistant { response, block: AssistantBlock::text("b") });
/// }
/// // The prompt before the first response is a round; each response's records stay together.
/// assert_eq!(api_rounds(t.messages()), [0..1, 1..3, 3..5]);
/// ```
pub fn api_rounds(records: &[Message]) -> Vec<Range<usize>> {
    let mut rounds = Vec::new();
    let mut start = 0;
    let mut last_response = None;
    for (i, message) in records.iter().enumerate() {
        if let Record::Assistant { response, .. } = message.record {
            if last_response != Some(response) && i > start {
                rounds.push(start..i);
                start = i;
            }
            last_response = Some(response);
        }
    }
    if start < records.len() {
        rounds.push(start..records.len());
    }
    rounds
}

/// What one retry cut from the head of the records to summarise.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct HeadCut {
    /// How many leading records are dropped.
    pub dropped_records: usize,
    /// The retried request opens with [`PTL_RETRY_MARKER`]: what is left starts with an
    /// assistant response.
    pub marker: bool,
    /// What was dropped and why.
    pub decision: Decision,
}

/// The cut of retry `retry` (1-based) after `refusal`, over the records still to summarise
/// (`truncateHeadForPTLRetry`); `Err` with the reason when nothing can be dropped.
///
/// # Example
/// ```
/// use context_assembly::compact::prompt_too_long::{cut_head, PromptTooLong};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{AssistantBlock, Record, Transcript};
/// let mut t = Transcript::default();
/// for _ in 0..10 {
///     t.push(Record::Prompt { text: "x".repeat(400) }); // 100 tokens
///     let response = t.next_response();
///     t.push(Record::Assistant { response, block: AssistantBlock::text("ok") });
/// }
/// // 11 rounds: the first prompt, nine of an answer and the next prompt, the last answer.
/// // Without counts a fifth of them (two) goes; what is left starts with an answer.
/// let cut = cut_head(t.messages(), &PromptTooLong::default(), 1, TokenMethod::ClaudeCode).unwrap();
/// assert_eq!((cut.dropped_records, cut.marker), (3, true));
/// // A gap of 250 tokens takes three rounds to cover: 100 + 101 + 101.
/// let refusal = PromptTooLong { tokens: Some(200_250), maximum: Some(200_000) };
/// let cut = cut_head(t.messages(), &refusal, 1, TokenMethod::ClaudeCode).unwrap();
/// assert_eq!(cut.dropped_records, 5);
/// ```
pub fn cut_head(
    records: &[Message],
    refusal: &PromptTooLong,
    retry: usize,
    method: TokenMethod,
) -> Result<HeadCut, String> {
    let rounds = api_rounds(records);
    if rounds.len() < 2 {
        return Err(format!(
            "only {} API round is left to summarise: nothing more can be dropped",
            rounds.len()
        ));
    }
    let round_tokens = |round: &Range<usize>| -> u64 {
        records[round.clone()]
            .iter()
            .map(|m| record_tokens(m, method))
            .sum()
    };
    let (wanted, why) = match refusal.gap() {
        Some(gap) => {
            let mut covered = 0u64;
            let mut count = 0;
            for round in &rounds {
                covered = covered.saturating_add(round_tokens(round));
                count += 1;
                if covered >= gap {
                    break;
                }
            }
            let counts = format!(
                "{} tokens > {} maximum: {gap} too many",
                refusal.tokens.unwrap_or(0),
                refusal.maximum.unwrap_or(0)
            );
            (count, counts)
        }
        None => (
            (rounds.len() * UNKNOWN_GAP_DROP_PERCENT / 100).max(1),
            format!("no token counts: {UNKNOWN_GAP_DROP_PERCENT}% of the rounds, at least one"),
        ),
    };
    // One round always stays, so there is something to summarise.
    let count = wanted.min(rounds.len() - 1);
    let dropped_records = rounds[count].start;
    let dropped_tokens: u64 = rounds[..count].iter().map(round_tokens).sum();
    let marker = matches!(
        records.get(dropped_records).map(|m| &m.record),
        Some(Record::Assistant { .. })
    );
    let mut reason = format!(
        "the summary request was refused as too long ({why}); retry {retry} of \
         {MAX_PTL_RETRIES} leaves out the oldest {count} of {} API rounds ({dropped_records} \
         records, {dropped_tokens} tokens estimated)",
        rounds.len()
    );
    if marker {
        reason.push_str(&format!(
            "; what is left starts with an assistant response, so the meta user message \
             {PTL_RETRY_MARKER:?} opens the request"
        ));
    }
    let decision = Decision::new(span(records, dropped_records), Verdict::Dropped, reason);
    Ok(HeadCut {
        dropped_records,
        marker,
        decision,
    })
}

/// The records a cut leaves out, for a decision's subject.
fn span(records: &[Message], dropped: usize) -> String {
    match (
        records.first(),
        dropped.checked_sub(1).and_then(|i| records.get(i)),
    ) {
        (Some(first), Some(last)) => {
            format!("summary request: records {} to {}", first.id, last.id)
        }
        _ => String::from("summary request"),
    }
}

/// The retries of a summary request refused as too long, one per `refusals` in order
/// (`compactConversation`'s loop): the number of leading records left out of the summary and
/// a decision for each retry, or, when a refusal comes after [`MAX_PTL_RETRIES`] retries or
/// nothing more can be dropped, the decisions so far and the failure's.
///
/// # Example
/// ```
/// use context_assembly::compact::prompt_too_long::{retry_after_refusals, PromptTooLong};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{AssistantBlock, Record, Transcript};
/// let mut t = Transcript::default();
/// for _ in 0..20 {
///     t.push(Record::Prompt { text: "question".into() });
///     let response = t.next_response();
///     t.push(Record::Assistant { response, block: AssistantBlock::text("answer") });
/// }
/// let refused = [PromptTooLong::default(); 3];
/// // 21 rounds: 4 dropped (7 records), then 3 of the 17 left (6), then 2 of 14 (4).
/// let (dropped, decisions) = retry_after_refusals(t.messages(), &refused, TokenMethod::ClaudeCode).unwrap();
/// assert_eq!((dropped, decisions.len()), (17, 3));
/// // A fourth refusal: the retries are spent.
/// let (decisions, _) = retry_after_refusals(t.messages(), &[PromptTooLong::default(); 4], TokenMethod::ClaudeCode).unwrap_err();
/// assert_eq!(decisions.len(), 4);
/// ```
///
/// # Errors
/// The decisions (the retries made, then the failure's) when the compaction fails, with the
/// failure's reason.
pub fn retry_after_refusals(
    records: &[Message],
    refusals: &[PromptTooLong],
    method: TokenMethod,
) -> Result<(usize, Vec<Decision>), (Vec<Decision>, String)> {
    let mut decisions = Vec::new();
    let mut dropped = 0;
    for (i, refusal) in refusals.iter().enumerate() {
        let retry = i + 1;
        let outcome = match retry <= MAX_PTL_RETRIES {
            true => cut_head(&records[dropped..], refusal, retry, method),
            false => Err(format!(
                "the summary request was refused as too long after {MAX_PTL_RETRIES} retries: \
                 they are spent"
            )),
        };
        match outcome {
            Ok(cut) => {
                dropped += cut.dropped_records;
                decisions.push(cut.decision);
            }
            Err(reason) => {
                let reason = format!("{reason}; the compaction fails: {PROMPT_TOO_LONG_ERROR}");
                decisions.push(Decision::new("summary request", Verdict::Failed, reason));
                return Err((decisions, String::from(PROMPT_TOO_LONG_ERROR)));
            }
        }
    }
    Ok((dropped, decisions))
}

/// The retries of a refused summary request when each keeps one more human turn
/// ([`CompactionRules::prompt_too_long_keeps_turns`], 2.1.332): retry `n` summarises
/// `records` up to the `n`-th human prompt from the end of the history (`records[..history_end]`,
/// the new turn's own prompt left aside) and keeps everything after it word for word. The
/// refusal's counts do not change the cut. Returns where the kept records start now (never
/// later than `kept_start`, where they started) and a decision for each retry; or, when a
/// refusal comes after [`MAX_PTL_RETRIES`] retries or no earlier prompt is left, the decisions
/// so far and the failure's.
///
/// [`CompactionRules::prompt_too_long_keeps_turns`]: crate::compact::rules::CompactionRules
///
/// # Example
/// ```
/// use context_assembly::compact::prompt_too_long::{retry_keeping_turns, PromptTooLong};
/// use context_assembly::transcript::{AssistantBlock, Record, Transcript};
/// let mut t = Transcript::default();
/// for _ in 0..3 {
///     t.push(Record::Prompt { text: "question".into() });
///     let response = t.next_response();
///     t.push(Record::Assistant { response, block: AssistantBlock::text("answer") });
/// }
/// // Two refusals: the summary ends at the second prompt from the end; the last three
/// // records (an answer, a prompt, an answer) stay after it.
/// let refused = [PromptTooLong::default(); 2];
/// let (start, decisions) = retry_keeping_turns(t.messages(), 6, 5, &refused).unwrap();
/// assert_eq!((start, decisions.len()), (3, 2));
/// ```
///
/// # Errors
/// The decisions (the retries made, then the failure's) when the compaction fails, with the
/// failure's reason.
pub fn retry_keeping_turns(
    records: &[Message],
    history_end: usize,
    kept_start: usize,
    refusals: &[PromptTooLong],
) -> Result<(usize, Vec<Decision>), (Vec<Decision>, String)> {
    let history = records.get(..history_end).unwrap_or(records);
    let prompts: Vec<usize> = (history.iter().enumerate())
        .filter(|(_, m)| matches!(m.record, Record::Prompt { .. }))
        .map(|(i, _)| i)
        .collect();
    let mut decisions = Vec::new();
    let mut start = kept_start;
    for (i, refusal) in refusals.iter().enumerate() {
        let retry = i + 1;
        let prompt = prompts.len().checked_sub(retry).map(|at| prompts[at]);
        let failure = match (retry <= MAX_PTL_RETRIES, prompt) {
            (false, _) => Some(format!(
                "the summary request was refused as too long after {MAX_PTL_RETRIES} retries: \
                 they are spent"
            )),
            (true, None) => Some(format!(
                "the summary request was refused as too long, and no human prompt is left \
                 before the {} records kept: nothing more can be kept out of the summary",
                records.len() - start
            )),
            (true, Some(_)) => None,
        };
        if let Some(reason) = failure {
            let reason = format!("{reason}; the compaction fails: {PROMPT_TOO_LONG_ERROR}");
            decisions.push(Decision::new("summary request", Verdict::Failed, reason));
            return Err((decisions, String::from(PROMPT_TOO_LONG_ERROR)));
        }
        start = start.min(prompt.unwrap_or(0) + 1);
        let counts = match refusal.gap() {
            Some(gap) => format!("{gap} tokens too many, which does not change the cut"),
            None => String::from("no token counts"),
        };
        let reason = format!(
            "the summary request was refused as too long ({counts}); retry {retry} of \
             {MAX_PTL_RETRIES} summarises up to the human prompt {retry} from the end and keeps \
             the {} records after it word for word, rather than leaving the oldest rounds out",
            records.len() - start
        );
        decisions.push(Decision::new("summary request", Verdict::Truncated, reason));
    }
    Ok((start, decisions))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{AssistantBlock, ToolResultBlock, ToolUse, Transcript};

    /// `rounds` prompts of 100 tokens, each answered by one response of two calls and their
    /// results (100 tokens each).
    fn transcript(rounds: usize) -> Transcript {
        let mut t = Transcript::default();
        for _ in 0..rounds {
            t.push(Record::Prompt {
                text: "x".repeat(400),
            });
            let response = t.next_response();
            for id in ["a", "b"] {
                let call = ToolUse {
                    id: id.into(),
                    name: "Bash".into(),
                    input: "{}".into(),
                };
                t.push(Record::Assistant {
                    response,
                    block: AssistantBlock::ToolUse(call),
                });
            }
            t.push(Record::ToolResults {
                results: ["a", "b"]
                    .map(|id| ToolResultBlock {
                        tool_use_id: id.into(),
                        content: "y".repeat(200),
                        is_error: false,
                    })
                    .to_vec(),
            });
        }
        t
    }

    #[test]
    fn a_response_split_in_records_is_one_round_with_what_follows() {
        let t = transcript(3);
        // The first prompt is a round; later rounds start at a response and end with the
        // next prompt.
        assert_eq!(api_rounds(t.messages()), [0..1, 1..5, 5..9, 9..12]);
        assert!(api_rounds(&[]).is_empty());
    }

    #[test]
    fn the_gap_needs_both_counts_and_an_excess() {
        let counts = |tokens, maximum| PromptTooLong { tokens, maximum }.gap();
        assert_eq!(counts(Some(210_000), Some(200_000)), Some(10_000));
        assert_eq!(counts(Some(200_000), Some(200_000)), None);
        assert_eq!(counts(Some(210_000), None), None);
    }

    #[test]
    fn a_gap_larger_than_everything_still_keeps_one_round() {
        let t = transcript(3);
        let refusal = PromptTooLong {
            tokens: Some(1_000_000),
            maximum: Some(1),
        };
        let cut = cut_head(t.messages(), &refusal, 2, TokenMethod::ClaudeCode).unwrap();
        assert_eq!(cut.dropped_records, 9);
        // The last round starts with the response: the marker opens the request.
        assert!(cut.marker);
        assert!(cut.decision.reason.contains("retry 2 of 3"));
        assert!(cut.decision.reason.contains(PTL_RETRY_MARKER));
        assert_eq!(cut.decision.subject, "summary request: records 0 to 8");
    }

    #[test]
    fn one_round_cannot_be_cut() {
        let t = transcript(1);
        // The response with its results, without the prompt before it: one round.
        let records = &t.messages()[1..];
        let error = cut_head(
            records,
            &PromptTooLong::default(),
            1,
            TokenMethod::ClaudeCode,
        )
        .unwrap_err();
        assert!(error.contains("only 1 API round"), "{error}");
        let (decisions, message) = retry_after_refusals(
            records,
            &[PromptTooLong::default()],
            TokenMethod::ClaudeCode,
        )
        .unwrap_err();
        assert_eq!(message, PROMPT_TOO_LONG_ERROR);
        assert_eq!(decisions[0].verdict, Verdict::Failed);
    }
}
