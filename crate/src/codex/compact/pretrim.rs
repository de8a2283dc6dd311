//! The remote compaction's pre-trim (spec codex.md §4.6 step 1,
//! `trim_function_call_history_to_fit_context_window`, X13): before the history goes to the
//! server, tool outputs at its end have their bodies replaced until it fits.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{item_label, HistoryEdit};
use crate::codex::history_tokens::estimate_item_tokens;
use crate::codex::items::Item;
use crate::codex::wording::TRIMMED_TOOL_OUTPUT;
use crate::vocabulary::{Decision, Verdict};

/// Which tool outputs the pre-trim rewrites (X13's option `pretrim_strategy`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub enum PretrimStrategy {
    /// Codex: from the end backwards, stopping at the first item that is not an output,
    /// even if the history still does not fit.
    #[default]
    Reference,
    /// Every tool output, oldest first, until the history fits: recent results stay.
    OldestOutputsFirst,
}

/// The history sent for remote compaction: while its estimate plus `base_tokens` (the base
/// instructions) exceeds `effective_window`, the body of a tool output becomes
/// [`TRIMMED_TOOL_OUTPUT`], in the order `strategy` gives. Each rewrite is a decision; so is
/// stopping while the history still does not fit.
///
/// # Example
/// ```
/// use context_assembly::codex::compact::pretrim::{pretrim_for_remote, PretrimStrategy};
/// use context_assembly::codex::items::{Item, Role};
/// let call = |id: &str| Item::FunctionCall { name: "exec_command".into(), arguments: "{}".into(), call_id: id.into() };
/// let output = |id: &str| Item::FunctionCallOutput { call_id: id.into(), output: "x".repeat(4_000) };
/// let history = vec![call("a"), output("a"), Item::text(Role::Assistant, "ok"), call("b"), output("b")];
/// let edit = pretrim_for_remote(history, 0, 100, PretrimStrategy::Reference);
/// // only the trailing output is rewritten; the walk stops at the call before it, still over
/// assert_eq!(edit.decisions.len(), 2);
/// assert!(matches!(&edit.items[1], Item::FunctionCallOutput { output, .. } if output.len() == 4_000));
/// ```
pub fn pretrim_for_remote(
    mut items: Vec<Item>,
    base_tokens: u64,
    effective_window: u64,
    strategy: PretrimStrategy,
) -> HistoryEdit {
    let mut decisions = Vec::new();
    let order: Vec<usize> = match strategy {
        PretrimStrategy::Reference => (0..items.len())
            .rev()
            .take_while(|&index| matches!(items[index], Item::FunctionCallOutput { .. }))
            .collect(),
        PretrimStrategy::OldestOutputsFirst => (0..items.len())
            .filter(|&index| matches!(items[index], Item::FunctionCallOutput { .. }))
            .collect(),
    };
    let mut tokens = estimate(&items, base_tokens);
    for index in order {
        if tokens <= effective_window {
            break;
        }
        let before = estimate_item_tokens(&items[index]);
        if let Item::FunctionCallOutput { output, .. } = &mut items[index] {
            *output = String::from(TRIMMED_TOOL_OUTPUT);
        }
        let after = estimate_item_tokens(&items[index]);
        tokens = tokens.saturating_sub(before).saturating_add(after);
        decisions.push(Decision::new(
            item_label(&items[index]),
            Verdict::Truncated,
            format!(
                "its body was replaced to fit the effective window of {effective_window} tokens \
                 before remote compaction (§4.6, X13)"
            ),
        ));
    }
    if tokens > effective_window {
        decisions.push(Decision::new(
            "pre-trim",
            Verdict::Skipped,
            format!(
                "the history is still {tokens} tokens, over the effective window of \
                 {effective_window}: the walk stops at the first item that is not a tool output \
                 (X13)"
            ),
        ));
    }
    HistoryEdit { items, decisions }
}

fn estimate(items: &[Item], base_tokens: u64) -> u64 {
    (items.iter())
        .map(estimate_item_tokens)
        .fold(base_tokens, u64::saturating_add)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codex::items::Role;

    fn history() -> Vec<Item> {
        let output = |id: &str| Item::FunctionCallOutput {
            call_id: id.into(),
            output: "y".repeat(8_000),
        };
        let call = |id: &str| Item::FunctionCall {
            name: "exec_command".into(),
            arguments: "{}".into(),
            call_id: id.into(),
        };
        alloc::vec![
            Item::text(Role::User, "go"),
            call("a"),
            output("a"),
            call("b"),
            call("c"),
            output("b"),
            output("c"),
        ]
    }

    #[test]
    fn the_reference_stops_as_soon_as_the_history_fits() {
        // three outputs of 2,000+ tokens; a window that fits after one rewrite
        let edit = pretrim_for_remote(history(), 0, 4_500, PretrimStrategy::Reference);
        assert_eq!(edit.decisions.len(), 1);
        assert!(
            matches!(&edit.items[6], Item::FunctionCallOutput { output, .. } if output == TRIMMED_TOOL_OUTPUT)
        );
        assert!(
            matches!(&edit.items[5], Item::FunctionCallOutput { output, .. } if output.len() == 8_000)
        );
    }

    #[test]
    fn the_oldest_first_option_reaches_outputs_the_reference_cannot() {
        let reference = pretrim_for_remote(history(), 0, 100, PretrimStrategy::Reference);
        // two trailing outputs rewritten, then the walk stops at a call, still over the window
        assert_eq!(reference.decisions.len(), 3);
        assert_eq!(reference.decisions[2].verdict, Verdict::Skipped);
        let oldest = pretrim_for_remote(history(), 0, 4_500, PretrimStrategy::OldestOutputsFirst);
        assert!(
            matches!(&oldest.items[2], Item::FunctionCallOutput { output, .. } if output == TRIMMED_TOOL_OUTPUT)
        );
        assert!(
            matches!(&oldest.items[6], Item::FunctionCallOutput { output, .. } if output.len() == 8_000)
        );
    }
}
