//! Partial compaction: the `/compact` message selector splits the transcript at a chosen
//! record and summarises one side of it (spec claude-code.md §9.9).
//!
//! The pivot opens the later part in both directions, as the original slices at the pivot's
//! index (`slice(0, pivot)` / `slice(pivot)`):
//! * [`PartialDirection::From`]: the pivot and everything after it are summarised, the
//!   earlier records are kept.
//! * [`PartialDirection::UpTo`]: everything before the pivot is summarised; the pivot and
//!   the later records are kept, minus the boundaries and summaries of earlier compactions
//!   (the original also drops `progress` messages, which this transcript does not store).
//!
//! A split never separates a tool call from its result, nor the records of one response: when
//! the pivot would, it moves **earlier**, to the nearest index where both hold (the kept
//! tail's [`preserve_api_invariants`]). Moving earlier keeps the chosen record in the part
//! the user chose for it; the records it crosses join the later part.

use alloc::string::String;
use alloc::vec::Vec;

use super::kept_tail::{moved, preserve_api_invariants};
use crate::transcript::{Message, Record};
use crate::vocabulary::Decision;
use crate::vocabulary::Verdict;
use crate::Error;

/// Which side of the pivot a partial compaction summarises (§9.9).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum PartialDirection {
    /// `'from'`: summarise the pivot and everything after it, keep the earlier records.
    From,
    /// `'up_to'`: summarise everything before the pivot, keep the pivot and what follows.
    UpTo,
}

/// The two sides of a partial compaction.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartialSplit {
    /// The records to summarise, oldest first.
    pub summarised: Vec<Message>,
    /// The records that stay word for word, oldest first.
    pub kept: Vec<Message>,
    /// Where the split fell and why, whether the pivot moved, and every record left out of
    /// both sides (an earlier compaction's boundary or summary).
    pub decisions: Vec<Decision>,
}

/// Splits `records` at the record with id `pivot_id` (§9.9).
///
/// Either side may be empty (a pivot on the first record leaves nothing before it); the
/// decisions then say so, and the caller decides whether an empty summary is worth a
/// request.
///
/// # Errors
/// [`Error::InvalidConfig`] with field `pivot` when no record has `pivot_id`.
///
/// # Example
/// ```
/// use context_assembly::compact::partial::{split_at_pivot, PartialDirection};
/// use context_assembly::transcript::{Record, Transcript};
/// let mut transcript = Transcript::default();
/// transcript.push(Record::Prompt { text: "first".into() });
/// let second = transcript.push(Record::Prompt { text: "second".into() });
/// let split = split_at_pivot(transcript.messages(), second, PartialDirection::UpTo).unwrap();
/// assert_eq!((split.summarised.len(), split.kept.len()), (1, 1));
/// // The pivot must be a record's id.
/// let err = split_at_pivot(transcript.messages(), 7, PartialDirection::From).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "pivot: no record has id 7; expected the id of one of the 2 records (ids 0 to 1)"
/// );
/// ```
pub fn split_at_pivot(
    records: &[Message],
    pivot_id: u64,
    direction: PartialDirection,
) -> Result<PartialSplit, Error> {
    let Some(pivot) = records.iter().position(|m| m.id == pivot_id) else {
        return Err(unknown_pivot(records, pivot_id));
    };
    let mut decisions = Vec::new();
    let split = preserve_api_invariants(records, pivot);
    if split < pivot {
        let reason = alloc::format!(
            "moved {} records earlier so that no tool call is cut from its result and no response is split",
            pivot - split
        );
        let detail = match records.get(split) {
            Some(first) => alloc::format!("the later part starts at record {}", first.id),
            None => String::from("the later part is empty"),
        };
        decisions.push(moved("pivot", reason, detail));
    }
    let (earlier, later) = records.split_at(split);
    let (summarised, kept) = match direction {
        PartialDirection::From => (later.to_vec(), earlier.to_vec()),
        PartialDirection::UpTo => (earlier.to_vec(), without_markers(later, &mut decisions)),
    };
    decisions.push(Decision::new(
        String::from("partial compaction"),
        Verdict::Kept,
        summary_reason(direction, pivot_id, summarised.len(), kept.len()),
    ));
    Ok(PartialSplit {
        summarised,
        kept,
        decisions,
    })
}

fn unknown_pivot(records: &[Message], pivot_id: u64) -> Error {
    let ids = records.iter().map(|m| m.id);
    let reason = match (ids.clone().min(), ids.max()) {
        (Some(low), Some(high)) => alloc::format!(
            "no record has id {pivot_id}; expected the id of one of the {} records (ids {low} to {high})",
            records.len()
        ),
        _ => alloc::format!("no record has id {pivot_id}; the transcript has no records"),
    };
    Error::InvalidConfig {
        field: String::from("pivot"),
        reason,
    }
}

/// The later part without earlier compactions' boundaries and summaries, each dropped with
/// a decision.
fn without_markers(later: &[Message], decisions: &mut Vec<Decision>) -> Vec<Message> {
    let mut kept = Vec::with_capacity(later.len());
    for message in later {
        let marker = match &message.record {
            Record::CompactBoundary { .. } => Some("boundary"),
            Record::Summary { .. } => Some("summary"),
            _ => None,
        };
        match marker {
            Some(marker) => decisions.push(Decision {
                subject: alloc::format!("record {}", message.id),
                verdict: Verdict::Dropped,
                reason: alloc::format!(
                    "an earlier compaction's {marker}: a new summary replaces it"
                ),
                detail: None,
            }),
            None => kept.push(message.clone()),
        }
    }
    kept
}

fn summary_reason(
    direction: PartialDirection,
    pivot_id: u64,
    summarised: usize,
    kept: usize,
) -> String {
    let side = match direction {
        PartialDirection::From => "from record",
        PartialDirection::UpTo => "up to record",
    };
    let nothing = if summarised == 0 {
        " (nothing to summarise)"
    } else {
        ""
    };
    alloc::format!("{side} {pivot_id}: {summarised} records summarised{nothing}, {kept} kept")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{AssistantBlock, Record, ToolResultBlock, ToolUse, Transcript};

    /// Prompt 0, call 1, result 2, prompt 3, text 4.
    fn transcript() -> Transcript {
        let mut t = Transcript::default();
        t.push(Record::Prompt { text: "go".into() });
        let response = t.next_response();
        t.push(Record::Assistant {
            response,
            block: AssistantBlock::ToolUse(ToolUse {
                id: "a".into(),
                name: "Bash".into(),
                input: "{}".into(),
            }),
        });
        t.push(Record::ToolResults {
            results: alloc::vec![ToolResultBlock {
                tool_use_id: "a".into(),
                content: "out".into(),
                is_error: false,
            }],
        });
        t.push(Record::Prompt {
            text: "more".into(),
        });
        let response = t.next_response();
        t.push(Record::Assistant {
            response,
            block: AssistantBlock::text("ok"),
        });
        t
    }

    fn ids(messages: &[Message]) -> Vec<u64> {
        messages.iter().map(|m| m.id).collect()
    }

    #[test]
    fn from_summarises_the_pivot_and_after() {
        let t = transcript();
        let split = split_at_pivot(t.messages(), 3, PartialDirection::From);
        let split = split.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ids(&split.kept), [0, 1, 2]);
        assert_eq!(ids(&split.summarised), [3, 4]);
        assert_eq!(split.decisions.len(), 1);
    }

    #[test]
    fn a_pivot_on_a_result_moves_earlier_to_its_call() {
        let t = transcript();
        for direction in [PartialDirection::From, PartialDirection::UpTo] {
            let split = split_at_pivot(t.messages(), 2, direction);
            let split = split.unwrap_or_else(|e| panic!("{e}"));
            let (earlier, later) = match direction {
                PartialDirection::From => (&split.kept, &split.summarised),
                PartialDirection::UpTo => (&split.summarised, &split.kept),
            };
            assert_eq!(ids(earlier), [0]);
            assert_eq!(ids(later), [1, 2, 3, 4]);
            assert_eq!(split.decisions[0].verdict, Verdict::Moved);
            assert_eq!(
                split.decisions[0].detail.as_deref(),
                Some("the later part starts at record 1")
            );
        }
    }

    #[test]
    fn up_to_the_first_record_summarises_nothing() {
        let t = transcript();
        let split = split_at_pivot(t.messages(), 0, PartialDirection::UpTo);
        let split = split.unwrap_or_else(|e| panic!("{e}"));
        assert!(split.summarised.is_empty());
        assert!(split.decisions[0].reason.contains("nothing to summarise"));
    }

    #[test]
    fn up_to_drops_earlier_boundaries_from_the_kept_part_with_a_decision() {
        let mut t = transcript();
        let boundary = t.push(Record::CompactBoundary {
            trigger: crate::vocabulary::Trigger::Manual,
            tokens_before: 0,
        });
        let split = split_at_pivot(t.messages(), 3, PartialDirection::UpTo);
        let split = split.unwrap_or_else(|e| panic!("{e}"));
        assert_eq!(ids(&split.kept), [3, 4]);
        assert_eq!(split.decisions[0].verdict, Verdict::Dropped);
        assert_eq!(
            split.decisions[0].subject,
            alloc::format!("record {boundary}")
        );
    }

    #[test]
    fn an_empty_transcript_has_no_pivot() {
        let err = split_at_pivot(&[], 0, PartialDirection::UpTo);
        assert_eq!(
            err.map(|_| ()).map_err(|e| alloc::format!("{e}")),
            Err(String::from(
                "pivot: no record has id 0; the transcript has no records"
            ))
        );
    }
}
