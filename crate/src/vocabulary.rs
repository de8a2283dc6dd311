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
    /// What happened.
    pub verdict: Verdict,
    /// Why, in one sentence.
    pub reason: String,
    /// Supporting facts (the rule that matched, sizes, the error code).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub detail: Option<String>,
}

macro_rules! verdicts {
    ($($(#[doc = $doc:literal])* $variant:ident => $name:literal,)*) => {
        /// What the engine did with something it considered. Serialised (and shown) in
        /// kebab case: `too-large`, `not-applied`.
        ///
        /// ```
        /// use context_assembly::vocabulary::Verdict;
        /// assert_eq!(Verdict::TooLarge.as_str(), "too-large");
        /// assert!(Verdict::ALL.contains(&Verdict::NotApplied));
        /// ```
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize))]
        pub enum Verdict {
            $($(#[doc = $doc])* #[cfg_attr(feature = "serde", serde(rename = $name))] $variant,)*
        }

        impl Verdict {
            /// Every verdict, in declaration order.
            pub const ALL: &'static [Verdict] = &[$(Verdict::$variant,)*];

            /// The verdict's name, as serialised.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $(Verdict::$variant => $name,)*
                }
            }
        }
    };
}

verdicts! {
    /// Sent to the model.
    Included => "included",
    /// Sent, but cut to fit.
    Truncated => "truncated",
    /// Sent as a kind that renders to nothing.
    Silent => "silent",
    /// Kept out by a deny rule.
    Denied => "denied",
    /// Over a size or token limit.
    TooLarge => "too-large",
    /// The model has it already.
    AlreadyInContext => "already-in-context",
    /// Nothing to report: no change, or nothing visible changed.
    Unchanged => "unchanged",
    /// The file is gone; its state entry was dropped.
    Evicted => "evicted",
    /// Not looked at, by rule (not watched, not applicable, switched off).
    Skipped => "skipped",
    /// It does not exist (no such file, server, resource or agent).
    NotFound => "not-found",
    /// Reading it failed, or the collector failed; nothing was sent.
    Failed => "failed",
    /// Held back by a cadence: too soon since the last one.
    Throttled => "throttled",
    /// Left out because a budget (characters, bytes, entries, work) ran out.
    OverBudget => "over-budget",
    /// Left out by a filter (already surfaced, in the read-file state, excluded).
    Excluded => "excluded",
    /// A compaction policy replaced a tool result's (or a call's input's) content by a
    /// placeholder.
    Cleared => "cleared",
    /// A compaction policy replaced an observation by a placeholder that says how much it
    /// held.
    Masked => "masked",
    /// A compaction policy removed a record.
    Dropped => "dropped",
    /// A compaction policy replaced a record's text by a notice.
    Replaced => "replaced",
    /// A compaction policy looked and chose not to act; the reason says why.
    NotApplied => "not-applied",
    /// A compaction policy did what it could and more is still needed (de-duplicating reads
    /// saved too little, so truncation must follow).
    Needed => "needed",
    /// Where a compaction's kept records start, and why there.
    Kept => "kept",
    /// A kept tail's start or a partial split's pivot moved earlier, so that a call keeps
    /// its result and a response stays whole.
    Moved => "moved",
}

impl core::fmt::Display for Verdict {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str(self.as_str())
    }
}
