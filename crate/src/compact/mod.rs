//! Compaction: when the context is too full, and the cheap ways of making room before a
//! summary is needed (spec claude-code.md §9, codex.md §4, strategies.md).
//!
//! * [`context_size`]: the size Claude Code compares with its thresholds: the provider's
//!   last reported usage plus an estimate of what came after it (§6.3).
//! * [`thresholds`]: the windows and thresholds of both originals, Claude Code's warning
//!   state and its auto-compaction circuit breaker (Q57).
//! * [`model_window`]: a model's window and output limit from its id, with the host's
//!   stand-ins for the environment variables that change them (§9.1, §10.1).
//! * [`tool_result_budget`]: the per-message budget that saves oversized tool results aside
//!   and shows a preview (§9.7). It runs first in Claude Code's query loop.
//! * [`microcompact`]: after a long pause, old results of compactable tools are cleared
//!   (§9.6). It runs after the budget and before auto-compaction.
//! * [`policies`]: the other agents' cheap strategies as selectable policies: OpenCode's
//!   prune, observation masking, Anthropic's `clear_tool_uses`, Cline's truncation;
//!   [`cheap`]: any cheap policy run over a transcript's records, with what it reads.
//! * [`summary`]: the summary hand-off of full compaction — the request, the formatting of
//!   the answer, the summary message — and an extractive summariser that needs no model
//!   (§9.3).
//! * [`restore`]: the files and skills that come back after a full compaction, within their
//!   slots and budgets (§9.4, §9.5).
//! * `file_restore`: the restore's candidates gathered from the workspace, read within
//!   5,000 tokens and attached (§9.4).
//! * [`options`]: a compaction's options, one per policy; [`report`]: its plan and report
//!   (what each item became, and why); `survival`: the survival report, over explicit
//!   inputs.
//! * [`prompt_too_long`]: the summary request refused as too long: the oldest API rounds
//!   left out and the request retried, at most three times (§9.3 item 4).
//! * [`rules`]: the quirk switches of the summary and the restore (Q46, Q59–Q61), and
//!   `recommended`'s own: the cheap stage first, pinned files, a kept tail.
//! * [`kept_tail`]: how many recent records session-memory compaction keeps word for word,
//!   never cutting a call from its result or splitting a response (§9.8).
//! * [`partial`]: the `/compact` message selector's split at a chosen record, summarising
//!   the records before it or from it on (§9.9).
//! * [`auto_policy`]: which strategy auto-compaction follows: Claude Code's summary,
//!   OpenCode's prune then anchored summary, or Aider's chat-history budget.
//!
//! Every function here is a function of its inputs: records, times, the workspace; it
//! returns new records or attachments with a decision for everything it considered. A live
//! session plans and applies them in [`crate::session`] (`plan_compaction`, `apply_compaction`); Codex's own
//! compaction is in [`crate::codex::compact`].

pub mod auto_policy;
pub mod cheap;
pub mod context_size;
pub mod file_restore;
pub mod kept_tail;
pub mod microcompact;
pub mod model_window;
pub mod options;
pub mod partial;
pub mod policies;
pub mod prompt_too_long;
pub mod report;
pub mod restore;
pub mod rules;
pub mod summary;
pub(crate) mod survival;
pub mod thresholds;
pub mod timing;
pub mod tool_result_budget;
