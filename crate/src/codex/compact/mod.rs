//! Codex's compaction of its history (spec codex.md §4.3–§4.6): the texts, which user messages
//! are real, the replacement history, where the initial context goes back, the drop-oldest
//! retry, and the filter on a remote compaction's output.
//!
//! * The compaction prompt and the summary prefix are worded in [`crate::codex::wording`].
//! * [`classify`]: real user messages versus contextual ones and summaries (§5.6).
//! * [`rebuild`]: retained user messages within 20 000 tokens, summary last, re-injection (§4.5).
//! * [`overflow`]: `remove_first_item` for the retry on overflow (X14).
//! * [`remote`]: the keep-filter of remote compaction v1 (§4.6).
//! * [`pretrim`]: the tool outputs rewritten before a remote compaction (§4.6 step 1, X13).
//! * [`remote_v2`]: remote compaction v2's replacement history (§4.7).
//!
//! Each function that drops or cuts something reports it as a [`Decision`].

pub mod classify;
pub mod overflow;
pub mod pretrim;
pub mod rebuild;
pub mod remote;
pub mod remote_v2;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::codex::items::Item;
use crate::vocabulary::Decision;

pub use crate::codex::wording::{NO_SUMMARY_AVAILABLE, SUMMARIZATION_PROMPT, SUMMARY_PREFIX};
pub use classify::{
    collect_user_messages, is_contextual_user_message, is_contextual_user_text, is_summary_message,
    last_assistant_message, summary_text, user_message_text, user_turn_text,
};
pub use overflow::remove_first_item;
pub use rebuild::COMPACT_USER_MESSAGE_MAX_TOKENS;
pub use rebuild::{
    build_compacted_history, build_compacted_history_within, initial_context_index,
    insert_initial_context, InitialContextPlacement,
};
pub use remote::process_remote_compacted_history;

/// A history after a compaction step, with a decision for what was kept, cut or dropped.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct HistoryEdit {
    /// The resulting items, oldest first.
    pub items: Vec<Item>,
    /// What happened to each thing considered.
    pub decisions: Vec<Decision>,
}

/// The user message that asks for the summary, appended to the compaction request's history
/// (§4.3 step 1): `prompt` (a config override), or [`SUMMARIZATION_PROMPT`].
pub fn compaction_prompt_item(prompt: Option<&str>) -> Item {
    Item::text(
        crate::codex::items::Role::User,
        prompt.unwrap_or(SUMMARIZATION_PROMPT),
    )
}

/// A short name for an item in a decision: its kind, role or call id.
fn item_label(item: &Item) -> String {
    match item {
        Item::Message { role, .. } => format!("{} message", role.as_str()),
        Item::FunctionCall { name, call_id, .. } => format!("function_call {name} ({call_id})"),
        Item::FunctionCallOutput { call_id, .. } => format!("function_call_output ({call_id})"),
        Item::Compaction { .. } => String::from("compaction item"),
    }
}
