//! Codex CLI's own context assembly (spec codex.md): history items, the initial context and
//! its settings diffs, AGENTS.md, head-and-tail truncation, and its compaction.
//!
//! * [`items`]: the Responses API items Codex records and sends, written as JSON the way Codex
//!   measures them.
//! * [`context`]: the initial context — developer bundle (permissions, skills…) and the
//!   contextual user message (AGENTS.md, `<environment_context>`) — from [`context::TurnSettings`].
//! * [`settings_diff`]: what a turn with a baseline records instead: the changed settings
//!   in a fixed order, and when the baseline is reset.
//! * [`agents_md`]: AGENTS.md discovery over the virtual file system: global doc, project
//!   root, one doc per directory, the 32 KiB budget.

pub mod agents_md;
pub mod context;
pub mod items;
pub mod settings_diff;
