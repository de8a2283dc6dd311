//! The vocabulary every layer reports in: a [`Decision`] for each thing the engine
//! considered, with its [`Verdict`] and the reason.
//!
//! It sits at the bottom of the layers (ARCHITECTURE.md) so that the text engines, the
//! workspace, Codex's context and the strategies can all explain themselves without
//! depending on the attachment pipeline.

use alloc::string::String;

/// Something the engine considered, and what it did with it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Decision {
    /// What was considered: a mention as written, a path, a memory file, a collector.
    pub subject: String,
    /// What happened: see [`Verdict`].
    pub verdict: &'static str,
    /// Why, in one sentence.
    pub reason: String,
    /// Supporting facts (the rule that matched, sizes, the error code).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub detail: Option<String>,
}

/// The verdicts a [`Decision`] can carry.
pub struct Verdict;

impl Verdict {
    /// Sent to the model.
    pub const INCLUDED: &'static str = "included";
    /// Sent, but cut to fit.
    pub const TRUNCATED: &'static str = "truncated";
    /// Sent as a kind that renders to nothing.
    pub const SILENT: &'static str = "silent";
    /// Kept out by a deny rule.
    pub const DENIED: &'static str = "denied";
    /// Over a size or token limit.
    pub const TOO_LARGE: &'static str = "too-large";
    /// The model has it already.
    pub const ALREADY_IN_CONTEXT: &'static str = "already-in-context";
    /// Nothing to report: no change, or nothing visible changed.
    pub const UNCHANGED: &'static str = "unchanged";
    /// The file is gone; its state entry was dropped.
    pub const EVICTED: &'static str = "evicted";
    /// Not looked at, by rule (not watched, not applicable, switched off).
    pub const SKIPPED: &'static str = "skipped";
    /// It does not exist (no such file, server, resource or agent).
    pub const NOT_FOUND: &'static str = "not-found";
    /// Reading it failed, or the collector failed; nothing was sent.
    pub const FAILED: &'static str = "failed";
    /// Held back by a cadence: too soon since the last one.
    pub const THROTTLED: &'static str = "throttled";
    /// Left out because a budget (characters, bytes, entries, work) ran out.
    pub const OVER_BUDGET: &'static str = "over-budget";
    /// Left out by a filter (already surfaced, in the read-file state, excluded).
    pub const EXCLUDED: &'static str = "excluded";
}
