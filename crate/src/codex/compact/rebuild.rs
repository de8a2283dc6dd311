//! The replacement history of local compaction (spec codex.md §4.3 step 7, §4.5): the newest real
//! user messages within a token budget, the summary last, and, mid-turn only, a fresh initial
//! context before the last real user message.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::classify::{is_summary_message, user_turn_text};
use crate::codex::wording::NO_SUMMARY_AVAILABLE;

/// The approximate tokens of real user messages local compaction keeps (§4.3 step 7, X5).
pub const COMPACT_USER_MESSAGE_MAX_TOKENS: u64 = 20_000;
use super::HistoryEdit;
use crate::codex::items::{Item, Role};
use crate::codex::truncate::{approx_token_count, truncate_middle, TruncationPolicy};
use crate::vocabulary::{Decision, Verdict};

/// [`build_compacted_history_within`] at Codex's budget of 20 000 approximate tokens.
pub fn build_compacted_history(user_messages: &[String], summary_text: &str) -> HistoryEdit {
    build_compacted_history_within(user_messages, summary_text, COMPACT_USER_MESSAGE_MAX_TOKENS)
}

/// `build_compacted_history` (§4.3 step 7, X5): walk the user messages from newest to oldest,
/// keep each whole while it fits the remaining budget, middle-truncate the first one that does
/// not to `Tokens(remaining)` and stop; then, in chronological order, one plain user message per
/// kept message and a last user message with `summary_text`. Every message gets a decision:
/// `included`, `truncated` or `over-budget`, in chronological order, then one for the summary.
///
/// # Example
/// ```
/// use context_assembly::codex::compact::build_compacted_history_within;
/// let messages = ["the task: port the parser".to_string(), "y".repeat(40), "go on".to_string()];
/// let edit = build_compacted_history_within(&messages, "SUMMARY", 8);
/// // "go on" costs 2 tokens; 6 are left for the 10-token middle message, cut to 24 bytes;
/// // the task statement, oldest, is dropped.
/// let texts: Vec<_> = edit.items.iter().filter_map(|item| item.message_text()).collect();
/// assert_eq!(texts[0], format!("{}…4 tokens truncated…{}", "y".repeat(12), "y".repeat(12)));
/// assert_eq!(texts[1..], ["go on", "SUMMARY"]);
/// let verdicts: Vec<_> = edit.decisions.iter().map(|d| d.verdict.as_str()).collect();
/// assert_eq!(verdicts, ["over-budget", "truncated", "included", "included"]);
/// ```
pub fn build_compacted_history_within(
    user_messages: &[String],
    summary_text: &str,
    budget_tokens: u64,
) -> HistoryEdit {
    let (kept, mut decisions) = retain_newest_within(user_messages, budget_tokens);
    let mut items: Vec<Item> = kept
        .iter()
        .map(|message| Item::text(Role::User, message))
        .collect();
    let summary = if summary_text.is_empty() {
        NO_SUMMARY_AVAILABLE
    } else {
        summary_text
    };
    items.push(Item::text(Role::User, summary));
    decisions.push(
        Decision::new(
            String::from("summary"),
            Verdict::Included,
            String::from("installed last, as a user message (X3)"),
        )
        .with_detail(Some(format!("{} tokens", approx_token_count(summary)))),
    );
    HistoryEdit { items, decisions }
}

/// The messages kept, oldest first, walking from the newest within `budget_tokens`: whole
/// while they fit, the first that does not middle-truncated to what is left, none after it;
/// a decision per message, in order.
pub(super) fn retain_newest_within(
    user_messages: &[String],
    budget_tokens: u64,
) -> (Vec<String>, Vec<Decision>) {
    let total = user_messages.len();
    let mut kept = Vec::new();
    let mut decisions = Vec::with_capacity(total + 1);
    let mut remaining = budget_tokens;
    let mut stopped = false;
    for (index, message) in user_messages.iter().enumerate().rev() {
        let subject = format!("user message {} of {total}", index + 1);
        let tokens = approx_token_count(message);
        if stopped || remaining == 0 {
            decisions.push(dropped(subject, tokens, budget_tokens));
        } else if tokens <= remaining {
            decisions.push(kept_whole(subject, tokens, remaining));
            remaining -= tokens;
            kept.push(message.clone());
        } else {
            decisions.push(cut(subject, tokens, remaining));
            kept.push(truncate_middle(message, TruncationPolicy::Tokens(remaining)).text);
            stopped = true;
        }
    }
    kept.reverse();
    decisions.reverse();
    (kept, decisions)
}

fn kept_whole(subject: String, tokens: u64, remaining: u64) -> Decision {
    Decision {
        subject,
        verdict: Verdict::Included,
        reason: String::from("kept whole: it fits the retained-message budget, newest first (X5)"),
        detail: Some(format!("{tokens} tokens; {remaining} were left")),
    }
}

fn cut(subject: String, tokens: u64, remaining: u64) -> Decision {
    Decision {
        subject,
        verdict: Verdict::Truncated,
        reason: String::from(
            "middle-truncated to the budget left; older messages are dropped (X5)",
        ),
        detail: Some(format!("{tokens} tokens cut to {remaining}")),
    }
}

fn dropped(subject: String, tokens: u64, budget: u64) -> Decision {
    Decision {
        subject,
        verdict: Verdict::OverBudget,
        reason: format!(
            "dropped: newer messages used the retained-message budget of {budget} tokens (X5)"
        ),
        detail: Some(format!("{tokens} tokens")),
    }
}

/// Where a compaction puts a fresh initial context (§4.5, X10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub enum InitialContextPlacement {
    /// Pre-turn, manual and downshift compaction: nothing now; the next turn appends the full
    /// initial context after the summary, because the baseline is cleared.
    DoNotInject,
    /// Mid-turn compaction: just before the last real user message, so the summary stays last.
    BeforeLastUserMessage,
}

/// Inserts `initial_context` into a compacted history (§4.5,
/// `insert_initial_context_before_last_real_user_or_summary`). With
/// [`InitialContextPlacement::BeforeLastUserMessage`] it goes before the last real user message;
/// failing that, before the last summary; failing that, before the last `compaction` item;
/// failing that, at the end. [`InitialContextPlacement::DoNotInject`] leaves `history` as it is.
///
/// # Example
/// ```
/// use context_assembly::codex::compact::{insert_initial_context, InitialContextPlacement, SUMMARY_PREFIX};
/// use context_assembly::codex::items::{Item, Role};
/// // No real user message left: the context goes before the summary, which stays last.
/// let history = vec![Item::text(Role::User, &format!("{SUMMARY_PREFIX}\nS"))];
/// let context = vec![Item::text(Role::Developer, "<permissions instructions>…")];
/// let out = insert_initial_context(history, context, InitialContextPlacement::BeforeLastUserMessage);
/// assert_eq!(out[0].role(), Some(Role::Developer));
/// ```
pub fn insert_initial_context(
    mut history: Vec<Item>,
    initial_context: Vec<Item>,
    placement: InitialContextPlacement,
) -> Vec<Item> {
    if placement == InitialContextPlacement::DoNotInject {
        return history;
    }
    let at = initial_context_index(&history);
    history.splice(at..at, initial_context);
    history
}

/// The index [`insert_initial_context`] inserts at, mid-turn.
pub fn initial_context_index(history: &[Item]) -> usize {
    let mut last_summary = None;
    for (index, item) in history.iter().enumerate().rev() {
        let Some(text) = user_turn_text(item) else {
            continue;
        };
        if !is_summary_message(&text) {
            return index;
        }
        last_summary.get_or_insert(index);
    }
    last_summary
        .or_else(|| {
            history
                .iter()
                .rposition(|item| matches!(item, Item::Compaction { .. }))
        })
        .unwrap_or(history.len())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codex::compact::SUMMARY_PREFIX;

    #[test]
    fn mid_turn_context_goes_before_the_last_real_user_message() {
        let summary = format!("{SUMMARY_PREFIX}\nAUTO_SUMMARY");
        let edit = build_compacted_history(&[String::from("function call limit push")], &summary);
        let context = Vec::from([
            Item::text(
                Role::Developer,
                "<permissions instructions>x</permissions instructions>",
            ),
            Item::text(Role::User, "<environment_context>\n</environment_context>"),
        ]);
        let out = insert_initial_context(
            edit.items,
            context.clone(),
            InitialContextPlacement::BeforeLastUserMessage,
        );
        assert_eq!(out[..2], context[..]);
        assert_eq!(
            out[2].message_text().as_deref(),
            Some("function call limit push")
        );
        assert_eq!(out[3].message_text(), Some(summary));
    }

    #[test]
    fn fallbacks_are_the_compaction_item_then_the_end() {
        let compaction = Item::Compaction {
            encrypted_content: String::from("enc"),
        };
        let history = [Item::text(Role::Assistant, "a"), compaction.clone()];
        assert_eq!(initial_context_index(&history), 1);
        assert_eq!(initial_context_index(&history[..1]), 1);
        assert_eq!(initial_context_index(&[]), 0);
    }

    #[test]
    fn zero_budget_keeps_only_the_summary_and_an_empty_summary_has_a_fallback() {
        let edit = build_compacted_history_within(&[String::from("a")], "", 0);
        assert_eq!(edit.items.len(), 1);
        assert_eq!(
            edit.items[0].message_text().as_deref(),
            Some(NO_SUMMARY_AVAILABLE)
        );
        assert_eq!(edit.decisions[0].verdict, Verdict::OverBudget);
    }

    #[test]
    fn exact_fit_stops_before_older_messages() {
        let messages = [String::from("old"), String::from("12345678")];
        let edit = build_compacted_history_within(&messages, "S", 2);
        assert_eq!(edit.items.len(), 2);
        assert_eq!(edit.decisions[0].verdict, Verdict::OverBudget);
        assert_eq!(edit.decisions[1].verdict, Verdict::Included);
    }
}
