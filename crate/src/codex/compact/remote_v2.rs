//! Remote compaction v2 (spec codex.md §4.7, `compact_remote_v2.rs`): the compaction runs as a
//! normal request ending in a `compaction_trigger` item, the server answers with exactly one
//! `compaction` item, and the client builds the replacement history itself.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::classify::{is_contextual_user_message, user_turn_text};
use super::rebuild::retain_newest_within;
use super::{item_label, HistoryEdit};
use crate::codex::items::{Item, Role};
use crate::vocabulary::{Decision, Verdict};

/// The budget of the messages v2 keeps, newest first (`RETAINED_MESSAGE_TOKEN_BUDGET`).
pub const RETAINED_MESSAGE_TOKEN_BUDGET: u64 = 64_000;

/// The replacement history of a v2 compaction of `prompt_input` whose answer is `compaction`
/// (steps 1–3 of §4.7; the initial context is inserted afterwards, by phase): the real user
/// messages (summaries included) kept newest first within
/// [`RETAINED_MESSAGE_TOKEN_BUDGET`], the first that overflows middle-truncated, then the
/// `compaction` item. Codex keeps a kept message's images; here, as in local compaction, a
/// message is its text. Developer messages are dropped (the `RetainClientDeveloperMessages`
/// keep is not modelled), as are contextual user messages, assistant messages, tool calls and
/// outputs; each drop is a decision.
///
/// # Example
/// ```
/// use context_assembly::codex::compact::remote_v2::build_v2_history;
/// use context_assembly::codex::items::{Item, Role};
/// let input = vec![
///     Item::text(Role::Developer, "<permissions instructions>…</permissions instructions>"),
///     Item::text(Role::User, "fix the build"),
///     Item::text(Role::Assistant, "done"),
/// ];
/// let edit = build_v2_history(&input, Item::Compaction { encrypted_content: "opaque".into() });
/// assert_eq!(edit.items, vec![
///     Item::text(Role::User, "fix the build"),
///     Item::Compaction { encrypted_content: "opaque".into() },
/// ]);
/// ```
pub fn build_v2_history(prompt_input: &[Item], compaction: Item) -> HistoryEdit {
    let mut decisions = Vec::new();
    let mut users: Vec<String> = Vec::new();
    for item in prompt_input {
        match keep_reason(item) {
            Ok(()) => users.extend(user_turn_text(item)),
            Err(reason) => decisions.push(Decision::new(
                item_label(item),
                Verdict::Excluded,
                String::from(reason),
            )),
        }
    }
    let (kept, retained) = retain_newest_within(&users, RETAINED_MESSAGE_TOKEN_BUDGET);
    decisions.extend(retained);
    let mut items: Vec<Item> = (kept.iter())
        .map(|text| Item::text(Role::User, text))
        .collect();
    decisions.push(Decision::new(
        "compaction item",
        Verdict::Included,
        format!(
            "the server's one compaction item, after the messages kept within {} tokens (§4.7)",
            RETAINED_MESSAGE_TOKEN_BUDGET
        ),
    ));
    items.push(compaction);
    HistoryEdit { items, decisions }
}

fn keep_reason(item: &Item) -> Result<(), &'static str> {
    match item {
        Item::Message {
            role: Role::User,
            content,
        } => match is_contextual_user_message(content) {
            true => Err("v2 keeps no contextual user message: the initial context comes back"),
            false => Ok(()),
        },
        Item::Message {
            role: Role::Developer | Role::System,
            ..
        } => Err("v2 keeps no developer message (client-authored ones are not retained)"),
        Item::Message {
            role: Role::Assistant,
            ..
        } => Err("v2 keeps no assistant message in [B] (§4.7)"),
        Item::FunctionCall { .. } | Item::FunctionCallOutput { .. } => {
            Err("v2 keeps no tool call or output (§4.7)")
        }
        Item::Compaction { .. } => Err("an earlier compaction item is replaced by the new one"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codex::truncate::approx_token_count;

    #[test]
    fn the_budget_is_sixty_four_thousand_tokens_newest_first() {
        // three messages of 30,000 tokens: two fit, the oldest is cut to the 4,000 left
        let message = |c: char| core::iter::repeat_n(c, 120_000).collect::<String>();
        let input = [
            Item::text(Role::User, &message('a')),
            Item::text(Role::User, &message('b')),
            Item::text(Role::User, &message('c')),
        ];
        let edit = build_v2_history(
            &input,
            Item::Compaction {
                encrypted_content: "z".into(),
            },
        );
        assert_eq!(edit.items.len(), 4);
        let oldest = edit.items[0].message_text().unwrap();
        assert!(oldest.starts_with('a') && approx_token_count(&oldest) < 4_100);
        assert_eq!(edit.items[2].message_text().unwrap(), message('c'));
    }
}
