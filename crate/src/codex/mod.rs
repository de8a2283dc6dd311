//! Codex CLI's own context assembly (spec codex.md): history items, the initial context and
//! its settings diffs, AGENTS.md, head-and-tail truncation, and its compaction.
//!
//! * [`items`]: the Responses API items Codex records and sends, written as JSON the way Codex
//!   measures them.
//! * [`truncate`]: head-and-tail truncation, the 4-bytes-per-token estimate, truncation
//!   policies, the shell output layout and the user input limit (§3.1–§3.4).
//! * [`history_tokens`]: the token estimate of history items from their JSON (§3.5).
//! * [`compact`]: local compaction's replacement history, re-injection, the drop-oldest retry
//!   and remote compaction's filter (§4.3–§4.6).

pub mod compact;
pub mod history_tokens;
pub mod items;
pub mod truncate;
