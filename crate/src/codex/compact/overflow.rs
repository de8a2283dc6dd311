//! The drop-oldest retry of local compaction (spec codex.md §4.3 step 4, §5.5, X14): when the
//! compaction request itself overflows the window, Codex removes the oldest item and retries,
//! trimming from the front so that the cached prefix stays usable.

use alloc::string::String;
use alloc::vec::Vec;

use super::item_label;
use crate::codex::items::Item;
use crate::vocabulary::{Decision, Verdict};

/// `remove_first_item` (§5.5): removes `items[0]`, and with it the first output answering it if
/// it is a call, or the first call it answers if it is an output, so the retry never sends an
/// orphan. Returns a decision per removed item; none when `items` is empty.
///
/// # Example
/// ```
/// use context_assembly::codex::compact::remove_first_item;
/// use context_assembly::codex::items::{Item, Role};
/// let mut items = vec![
///     Item::FunctionCall { name: "shell".into(), arguments: "{}".into(), call_id: "c1".into() },
///     Item::text(Role::User, "next"),
///     Item::FunctionCallOutput { call_id: "c1".into(), output: "ok".into() },
/// ];
/// let decisions = remove_first_item(&mut items);
/// assert_eq!(items, [Item::text(Role::User, "next")]);
/// assert_eq!(decisions.len(), 2);
/// ```
pub fn remove_first_item(items: &mut Vec<Item>) -> Vec<Decision> {
    if items.is_empty() {
        return Vec::new();
    }
    let first = items.remove(0);
    let mut decisions = Vec::from([removed(
        &first,
        "removed oldest first so the compaction request fits the context window (X14)",
    )]);
    let pair = match &first {
        Item::FunctionCall { call_id, .. } => items.iter().position(
            |item| matches!(item, Item::FunctionCallOutput { call_id: id, .. } if id == call_id),
        ),
        Item::FunctionCallOutput { call_id, .. } => items.iter().position(
            |item| matches!(item, Item::FunctionCall { call_id: id, .. } if id == call_id),
        ),
        Item::Message { .. } | Item::Compaction { .. } => None,
    };
    if let Some(index) = pair {
        let partner = items.remove(index);
        decisions.push(removed(
            &partner,
            "removed with its pair, so no call or output is left without the other (X14)",
        ));
    }
    decisions
}

fn removed(item: &Item, reason: &str) -> Decision {
    Decision::new(item_label(item), Verdict::OverBudget, String::from(reason))
}
