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
//! * [`normalize`]: the history as a request sends it: missing outputs, orphans, images (§5.3).
//! * [`usage`]: the provider's reported usage, the active context size, "% context left" (§3.6, §5.7).
//! * [`paste`]: large pastes' placeholders and their expansion on submit (§3.4).
//! * [`apply_patch`]: the patch format, its pre-flight verification and hunk matching (§8.3–§8.5).
//! * [`rollback`]: where a rollback cuts the history (§2.8).
//! * [`rules`]: the profile's switches for all of the above.
//! * [`catalogue`]: a release's model catalogue (truncation mode, personality messages).
//! * [`prefix`]: a release's base instructions and tools, as stand-ins of their measured size.
//! * [`truncate`]: head-and-tail truncation, the 4-bytes-per-token estimate, truncation
//!   policies, the shell output layout and the user input limit (§3.1–§3.4).
//! * [`history_tokens`]: the token estimate of history items from their JSON (§3.5).
//! * [`wording`]: every sentence the codex family's model reads.
//! * [`session_state`]: what a Codex session remembers between turns (settings, baseline,
//!   AGENTS.md, base instructions), the context items a turn records from it, and a
//!   compaction's replacement history.
//! * [`compact`]: local compaction's replacement history, re-injection, the drop-oldest retry
//!   and remote compaction's filter (§4.3–§4.6).

pub mod agents_md;
pub mod apply_patch;
pub mod catalogue;
pub mod compact;
pub mod context;
pub mod history_tokens;
pub mod items;
pub mod normalize;
pub mod paste;
pub mod prefix;
pub mod rollback;
pub mod rules;
pub mod session_state;
pub mod settings_diff;
pub mod truncate;
pub mod usage;
pub mod wording;
