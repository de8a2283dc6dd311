//! Codex CLI's own context assembly (spec codex.md): history items, the initial context and
//! its settings diffs, AGENTS.md, head-and-tail truncation, and its compaction.
//!
//! * [`items`]: the Responses API items Codex records and sends, written as JSON the way Codex
//!   measures them.

pub mod items;
