//! `opencode.summary`: an anchored summary of the older part with a verbatim tail of the last
//! user turns (spec/strategies.md §7).
//!
//! The tail is chosen as OpenCode's `select()` chooses it (§7.2): the last
//! [`DEFAULT_TAIL_TURNS`] user turns, newest first, each kept whole while it fits the preserve
//! budget, the first that does not fit split at the earliest record whose suffix fits; the
//! selection ends there and everything older is summarised. The budget is
//! `clamp(floor(usable × 0.25), 2,000, 8,000)` ([`preserve_recent_tokens`]), where usable is the
//! window less the reserve (§6.1: `min(20,000, max output)`; the reserve is a knob here).
//!
//! A user turn starts at a prompt (or a summary, which stands for the turns it replaced). A
//! kept part never holds a result whose call was summarised, nor part of a response whose
//! start was: the split moves forward past them, which only shrinks the tail.
//!
//! The summary request ([`summary_request`]) is our wording of the reference's shape: no
//! tools, the newest template's sections (§7.5, the section headings are format facts), the
//! previous summary as the anchor to update (§7.4), and tool outputs cut to
//! [`TOOL_OUTPUT_MAX_CHARS`] characters with a note of what was omitted. A preview has no model
//! to ask, so the outcome's summary record is the extractive summariser's.

use alloc::string::String;
use alloc::vec::Vec;

use super::{
    clean_start_at_or_after, decision, not_applied, outcome, previous_summary, summarised,
    thousands, PolicyOutcome,
};
use crate::tokens::TokenMethod;
use crate::transcript::{Message, Record};
use crate::vocabulary::{PolicyId, Verdict};

/// The policy's id.
pub const POLICY_ID: &str = PolicyId::OpencodeSummary.as_str();

/// §7.1 `TOOL_OUTPUT_MAX_CHARS`: tool outputs shown to the summariser are cut to this.
pub const TOOL_OUTPUT_MAX_CHARS: usize = 2_000;

/// §7.1 `DEFAULT_TAIL_TURNS`: user turns kept verbatim; 0 disables the tail.
pub const DEFAULT_TAIL_TURNS: usize = 2;

/// §7.1 `MIN_PRESERVE_RECENT_TOKENS`.
pub const MIN_PRESERVE_RECENT_TOKENS: u64 = 2_000;

/// §7.1 `MAX_PRESERVE_RECENT_TOKENS` (PR #29324 proposes 32,000: a knob here).
pub const MAX_PRESERVE_RECENT_TOKENS: u64 = 8_000;

/// §7.1: the preserve budget is this percentage of the usable window before clamping.
pub const PRESERVE_RECENT_PERCENT: u64 = 25;

/// §6.1 `COMPACTION_BUFFER`: the reserve is `min(this, max output tokens)`.
pub const COMPACTION_BUFFER: u64 = 20_000;

/// §7.5: the newest template's sections, in order; every one must appear.
pub const TEMPLATE_SECTIONS: [&str; 10] = [
    "## Goal",
    "## Constraints & Preferences",
    "## Progress",
    "### Done",
    "### In Progress",
    "### Blocked",
    "## Key Decisions",
    "## Next Steps",
    "## Critical Context",
    "## Relevant Files",
];

/// The knobs of `opencode.summary`; `Default` gives the reference's values (§7.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OpencodeSummaryParams {
    /// User turns kept verbatim (reference: 2; 0 summarises everything).
    pub tail_turns: usize,
    /// The preserve budget; `None` derives it from the usable window ([`preserve_recent_tokens`]).
    pub preserve_recent_tokens: Option<u64>,
    /// The budget's upper clamp (reference: 8,000).
    pub preserve_recent_tokens_max: u64,
    /// The model's context window (the session's).
    pub context_window: u64,
    /// The reserve taken off the window (reference: `min(20,000, max output)`).
    pub reserved_tokens: u64,
    /// Tool outputs shown to the summariser are cut to this many characters (reference: 2,000).
    pub tool_output_max_chars: usize,
}

impl Default for OpencodeSummaryParams {
    fn default() -> Self {
        OpencodeSummaryParams {
            tail_turns: DEFAULT_TAIL_TURNS,
            preserve_recent_tokens: None,
            preserve_recent_tokens_max: MAX_PRESERVE_RECENT_TOKENS,
            context_window: 200_000,
            reserved_tokens: COMPACTION_BUFFER,
            tool_output_max_chars: TOOL_OUTPUT_MAX_CHARS,
        }
    }
}

impl OpencodeSummaryParams {
    /// The preserve budget these knobs give.
    pub fn budget(&self) -> u64 {
        self.preserve_recent_tokens.unwrap_or_else(|| {
            let usable = self.context_window.saturating_sub(self.reserved_tokens);
            preserve_recent_tokens(usable, self.preserve_recent_tokens_max)
        })
    }
}

/// §7.1: `clamp(floor(usable × 0.25), 2,000, max)`; a `max` below the minimum is read as the
/// minimum.
///
/// ```
/// use context_assembly::compact::policies::opencode_summary::preserve_recent_tokens;
/// assert_eq!(preserve_recent_tokens(180_000, 8_000), 8_000);
/// assert_eq!(preserve_recent_tokens(20_000, 8_000), 5_000);
/// assert_eq!(preserve_recent_tokens(4_000, 8_000), 2_000);
/// ```
pub fn preserve_recent_tokens(usable: u64, max: u64) -> u64 {
    (usable / 100 * PRESERVE_RECENT_PERCENT + usable % 100 * PRESERVE_RECENT_PERCENT / 100).clamp(
        MIN_PRESERVE_RECENT_TOKENS,
        max.max(MIN_PRESERVE_RECENT_TOKENS),
    )
}

/// Where the verbatim tail starts, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TailSelection {
    /// The index of the first kept record; everything before it is summarised.
    pub start: usize,
    /// Whole turns kept.
    pub whole_turns: usize,
    /// A turn was split: its head is summarised, its suffix kept.
    pub split: bool,
    /// The kept records' tokens.
    pub kept_tokens: u64,
}

/// OpenCode's `select()` (§7.2) over `records` with a budget of `budget` tokens.
///
/// ```
/// use context_assembly::compact::policies::opencode_summary::select;
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{Message, Record};
/// let prompt = |id, n| Message { id, record: Record::Prompt { text: "x".repeat(n) } };
/// // Turns of 1,000, 3,000 and 500 tokens with a budget of 2,000: the newest fits whole,
/// // the middle one does not and has no suffix that fits, so the tail is the newest turn.
/// let records = [prompt(0, 4_000), prompt(1, 12_000), prompt(2, 2_000)];
/// let tail = select(&records, 2, 2_000, TokenMethod::ClaudeCode);
/// assert_eq!((tail.start, tail.whole_turns, tail.split), (2, 1, true));
/// ```
pub fn select(
    records: &[Message],
    tail_turns: usize,
    budget: u64,
    method: TokenMethod,
) -> TailSelection {
    let tokens: Vec<u64> = records
        .iter()
        .map(|m| super::record_tokens(m, method))
        .collect();
    let starts: Vec<usize> = records
        .iter()
        .enumerate()
        .filter(|(_, m)| matches!(m.record, Record::Prompt { .. } | Record::Summary { .. }))
        .map(|(i, _)| i)
        .collect();
    let mut selection = TailSelection {
        start: records.len(),
        whole_turns: 0,
        split: false,
        kept_tokens: 0,
    };
    let mut end = records.len();
    for &turn_start in starts.iter().rev().take(tail_turns) {
        let turn_tokens: u64 = tokens[turn_start..end].iter().sum();
        let remaining = budget.saturating_sub(selection.kept_tokens);
        if turn_tokens <= remaining {
            selection.start = turn_start;
            selection.whole_turns += 1;
            selection.kept_tokens += turn_tokens;
            end = turn_start;
            continue;
        }
        // splitTurn: the earliest record inside the turn whose suffix fits.
        let mut suffix = 0u64;
        let mut split_at = end;
        for index in (turn_start + 1..end).rev() {
            if suffix + tokens[index] > remaining {
                break;
            }
            suffix += tokens[index];
            split_at = index;
        }
        let split_at = clean_start_at_or_after(records, split_at).min(end);
        selection.kept_tokens += tokens[split_at..end].iter().sum::<u64>();
        selection.start = split_at.min(selection.start);
        selection.split = true;
        break;
    }
    selection
}

/// A tool output as the summariser sees it: at most `max_chars` characters, then a line
/// saying how many were omitted (§7.1).
///
/// ```
/// use context_assembly::compact::policies::opencode_summary::output_for_summary;
/// assert_eq!(output_for_summary("abc", 5), "abc");
/// assert_eq!(output_for_summary("abcdefg", 5), "abcde\n[Output cut for compaction: 2 characters omitted.]");
/// ```
pub fn output_for_summary(output: &str, max_chars: usize) -> String {
    let Some((cut, _)) = output.char_indices().nth(max_chars) else {
        return String::from(output);
    };
    let omitted = output[cut..].chars().count();
    alloc::format!(
        "{}\n[Output cut for compaction: {omitted} characters omitted.]",
        &output[..cut]
    )
}

/// The summary request (§7.3–§7.5) in our wording: the summariser has no tools, writes every
/// template section, keeps paths, commands, errors and identifiers verbatim, and updates the
/// previous summary when there is one instead of starting again.
///
/// ```
/// use context_assembly::compact::policies::opencode_summary::summary_request;
/// let request = summary_request(Some("## Goal\nShip it."), None);
/// assert!(request.contains("## Relevant Files"));
/// assert!(request.contains("<previous-summary>\n## Goal\nShip it.\n</previous-summary>"));
/// ```
pub fn summary_request(previous: Option<&str>, instructions: Option<&str>) -> String {
    let mut text = String::from(
        "Write a summary of the conversation above that lets the work continue without it. \
         You have no tools. Use every section below, in this order, even when one is empty. \
         Keep bullets short. Copy file paths, commands, error messages and identifiers exactly. \
         Do not mention that this is a summary or how it was made.\n\n",
    );
    for section in TEMPLATE_SECTIONS {
        text.push_str(section);
        text.push('\n');
    }
    if let Some(previous) = previous {
        text.push_str(
            "\nAn earlier summary covers what came before. Update it with what happened since; \
             keep what still holds and drop what no longer does.\n<previous-summary>\n",
        );
        text.push_str(previous);
        text.push_str("\n</previous-summary>\n");
    }
    if let Some(extra) = instructions.filter(|s| !s.trim().is_empty()) {
        text.push_str("\nAlso: ");
        text.push_str(extra.trim());
        text.push('\n');
    }
    text
}

/// Plans (and, for a preview, applies with the extractive summariser) the summary (§7).
///
/// ```
/// use context_assembly::compact::policies::opencode_summary::{apply, OpencodeSummaryParams};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{Message, Record};
/// let prompt = |id| Message { id, record: Record::Prompt { text: "short".into() } };
/// // Two turns fit the tail whole: nothing is left to summarise.
/// let outcome = apply(&[prompt(0), prompt(1)], &OpencodeSummaryParams::default(), TokenMethod::Calibrated);
/// assert_eq!(outcome.records.len(), 2);
/// assert!(outcome.decisions[0].reason.contains("nothing older"));
/// ```
pub fn apply(
    records: &[Message],
    params: &OpencodeSummaryParams,
    method: TokenMethod,
) -> PolicyOutcome {
    if records.is_empty() {
        return not_applied(records, POLICY_ID, "the transcript is empty".into(), method);
    }
    let budget = params.budget();
    let tail = select(records, params.tail_turns, budget, method);
    let shape = alloc::format!(
        "{} whole turns{} in {} of {} preserve tokens",
        tail.whole_turns,
        if tail.split {
            " and the end of a split one"
        } else {
            ""
        },
        thousands(tail.kept_tokens),
        thousands(budget)
    );
    if tail.start == 0 {
        let reason =
            alloc::format!("the tail holds every record ({shape}): nothing older to summarise");
        return not_applied(records, POLICY_ID, reason, method);
    }
    let mut decisions = Vec::new();
    decisions.push(decision(
        "verbatim tail",
        Verdict::Kept,
        alloc::format!(
            "the last {} user turns are kept while they fit the preserve budget (strategies.md §7.2)",
            params.tail_turns
        ),
        Some(alloc::format!(
            "{shape}; {} records from record {}",
            records.len() - tail.start,
            records.get(tail.start).map_or(0, |m| m.id)
        )),
    ));
    let previous = previous_summary(&records[..tail.start]);
    decisions.push(decision(
        "summary request",
        Verdict::Included,
        match previous {
            Some(_) => {
                "anchored: the previous summary is given to be updated, not re-derived (strategies.md §7.4)"
                    .into()
            }
            None => {
                String::from("no previous summary: the summary is written from the records (strategies.md §7.3)")
            }
        },
        Some(alloc::format!(
            "no tools; {} template sections; tool outputs cut to {} characters",
            TEMPLATE_SECTIONS.len(),
            thousands(params.tool_output_max_chars as u64)
        )),
    ));
    let cut_outputs = cut_outputs(&records[..tail.start], params.tool_output_max_chars);
    if cut_outputs > 0 {
        decisions.push(decision(
            "tool outputs",
            Verdict::Truncated,
            alloc::format!(
                "{cut_outputs} outputs are longer than {} characters: the summariser sees their start and a note",
                thousands(params.tool_output_max_chars as u64)
            ),
            None,
        ));
    }
    decisions.push(decision(
        "summarised records",
        Verdict::Replaced,
        alloc::format!(
            "{} records older than the tail become the summary",
            tail.start
        ),
        None,
    ));
    outcome(records, summarised(records, tail.start), decisions, method)
}

/// How many tool outputs of `records` the summariser sees cut.
fn cut_outputs(records: &[Message], max_chars: usize) -> usize {
    records
        .iter()
        .filter_map(|m| match &m.record {
            Record::ToolResults { results } => Some(results),
            _ => None,
        })
        .flatten()
        .filter(|r| r.content.chars().nth(max_chars).is_some())
        .count()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::{AssistantBlock, ToolResultBlock, ToolUse};

    fn prompt(id: u64, chars: usize) -> Message {
        Message {
            id,
            record: Record::Prompt {
                text: "x".repeat(chars),
            },
        }
    }

    fn text(id: u64, chars: usize) -> Message {
        Message {
            id,
            record: Record::Assistant {
                response: id,
                block: AssistantBlock::Text {
                    text: "y".repeat(chars),
                },
            },
        }
    }

    #[test]
    fn the_budget_is_a_quarter_of_usable_clamped_to_2k_8k() {
        assert_eq!(preserve_recent_tokens(0, 8_000), 2_000);
        assert_eq!(preserve_recent_tokens(8_000, 8_000), 2_000);
        assert_eq!(preserve_recent_tokens(8_003, 8_000), 2_000);
        assert_eq!(preserve_recent_tokens(12_000, 8_000), 3_000);
        assert_eq!(preserve_recent_tokens(32_000, 8_000), 8_000);
        assert_eq!(preserve_recent_tokens(1_000_000, 32_000), 32_000);
        let params = OpencodeSummaryParams::default();
        // 200,000 − 20,000 = 180,000 usable: a quarter is 45,000, clamped to 8,000.
        assert_eq!(params.budget(), 8_000);
        let small = OpencodeSummaryParams {
            context_window: 32_000,
            ..OpencodeSummaryParams::default()
        };
        assert_eq!(small.budget(), 3_000);
    }

    #[test]
    fn whole_turns_are_kept_then_the_first_that_does_not_fit_is_split() {
        // Turn A (old), turn B: prompt 400 + text 4,000 + text 2,000 tokens, turn C: 1,000.
        let records = [
            prompt(0, 400),
            prompt(1, 1_600),
            text(2, 16_000),
            text(3, 8_000),
            prompt(4, 4_000),
        ];
        let tail = select(&records, 2, 8_000, TokenMethod::ClaudeCode);
        // C (1,000) fits, and B (6,400) fits the 7,000 left: both whole.
        assert_eq!((tail.start, tail.whole_turns, tail.split), (1, 2, false));
        let tail = select(&records, 2, 4_000, TokenMethod::ClaudeCode);
        // C fits (3,000 left); B's suffix: text 3 (2,000) fits, text 2 (4,000) does not.
        assert_eq!((tail.start, tail.whole_turns, tail.split), (3, 1, true));
        assert_eq!(tail.kept_tokens, 3_000);
        // Only one tail turn: B is never a candidate.
        let tail = select(&records, 1, 8_000, TokenMethod::ClaudeCode);
        assert_eq!((tail.start, tail.whole_turns), (4, 1));
        // No tail: everything is summarised.
        assert_eq!(select(&records, 0, 8_000, TokenMethod::ClaudeCode).start, 5);
    }

    #[test]
    fn a_split_never_opens_with_orphaned_results() {
        let call = Message {
            id: 1,
            record: Record::Assistant {
                response: 1,
                block: AssistantBlock::ToolUse(ToolUse {
                    id: "t".into(),
                    name: "Read".into(),
                    input: "i".repeat(4_000),
                }),
            },
        };
        let results = Message {
            id: 2,
            record: Record::ToolResults {
                results: alloc::vec![ToolResultBlock {
                    tool_use_id: "t".into(),
                    content: "z".repeat(4_000),
                    is_error: false,
                }],
            },
        };
        // The results (1,000) fit a budget of 1,500 but their call (1,001) does not: the
        // kept part starts after the results instead.
        let records = [prompt(0, 40_000), call, results, text(3, 400)];
        let tail = select(&records, 2, 1_500, TokenMethod::ClaudeCode);
        assert_eq!(tail.start, 3);
        let outcome = apply(
            &records,
            &OpencodeSummaryParams {
                preserve_recent_tokens: Some(1_500),
                ..OpencodeSummaryParams::default()
            },
            TokenMethod::ClaudeCode,
        );
        assert!(matches!(outcome.records[0].record, Record::Summary { .. }));
        assert_eq!(outcome.records[1], records[3]);
        assert_eq!(outcome.records.len(), 2);
    }

    #[test]
    fn an_earlier_summary_anchors_the_request() {
        let records = [
            Message {
                id: 0,
                record: Record::Summary {
                    text: "old summary".into(),
                },
            },
            prompt(1, 40_000),
            prompt(2, 400),
            prompt(3, 400),
        ];
        let outcome = apply(
            &records,
            &OpencodeSummaryParams::default(),
            TokenMethod::ClaudeCode,
        );
        assert!(outcome.decisions[1].reason.starts_with("anchored"));
        assert_eq!(outcome.records.len(), 3);
        assert!(!summary_request(None, Some("  ")).contains("Also:"));
    }
}
