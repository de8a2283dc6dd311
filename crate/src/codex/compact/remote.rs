//! What Codex keeps of a remote compaction's output (spec codex.md §4.6 step 3,
//! `process_compacted_history`).

use alloc::string::String;
use alloc::vec::Vec;

use super::classify::is_contextual_user_message;
use super::{item_label, HistoryEdit};
use crate::codex::items::{Item, Role};
use crate::vocabulary::{Decision, Verdict};

/// Keeps the real user messages (summaries included), the assistant messages and the
/// `compaction` items of the server's output, in order; drops developer messages, contextual
/// user messages, tool calls and tool outputs, each with an `excluded` decision. Hook prompts
/// are not modelled: a hook prompt without contextual markers counts as a user message.
///
/// # Example
/// ```
/// use context_assembly::codex::compact::process_remote_compacted_history;
/// use context_assembly::codex::items::{Item, Role};
/// let output = vec![
///     Item::text(Role::Developer, "<permissions instructions>…</permissions instructions>"),
///     Item::text(Role::User, "USER_ONE"),
///     Item::Compaction { encrypted_content: "opaque".into() },
/// ];
/// let edit = process_remote_compacted_history(output);
/// assert_eq!(edit.items.len(), 2);
/// assert_eq!(edit.decisions[0].verdict.as_str(), "excluded");
/// ```
pub fn process_remote_compacted_history(items: Vec<Item>) -> HistoryEdit {
    let mut kept = Vec::with_capacity(items.len());
    let mut decisions = Vec::new();
    for item in items {
        match exclusion_reason(&item) {
            None => kept.push(item),
            Some(reason) => decisions.push(Decision::new(
                item_label(&item),
                Verdict::Excluded,
                String::from(reason),
            )),
        }
    }
    HistoryEdit {
        items: kept,
        decisions,
    }
}

fn exclusion_reason(item: &Item) -> Option<&'static str> {
    match item {
        Item::Message {
            role: Role::Developer,
            ..
        } => Some("remote compaction keeps no developer message (§4.6)"),
        Item::Message {
            role: Role::User,
            content,
        } if is_contextual_user_message(content) => {
            Some("remote compaction keeps no contextual user message (§4.6)")
        }
        Item::FunctionCall { .. } | Item::FunctionCallOutput { .. } => {
            Some("remote compaction keeps no tool call or output (§4.6)")
        }
        Item::Message { .. } | Item::Compaction { .. } => None,
    }
}
