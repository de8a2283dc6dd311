//! The vocabulary every layer reports in: a [`Decision`] for each thing the engine
//! considered, with its [`Verdict`] and the reason; a request's [`Channel`]s and
//! [`Category`]s; a compaction's [`PolicyId`], [`Trigger`] and each item's [`Fate`].
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

impl Decision {
    /// A decision about `subject`: its verdict, and why in one sentence.
    ///
    /// ```
    /// use context_assembly::vocabulary::{Decision, Verdict};
    /// let decision = Decision::new("src/a.ts", Verdict::Denied, "a deny rule matches")
    ///     .with_detail(String::from("Read(src/**)"));
    /// assert_eq!(decision.detail.as_deref(), Some("Read(src/**)"));
    /// ```
    pub fn new(subject: impl Into<String>, verdict: Verdict, reason: impl Into<String>) -> Self {
        Decision {
            subject: subject.into(),
            verdict,
            reason: reason.into(),
            detail: None,
        }
    }

    /// The same decision with its supporting facts (the rule that matched, sizes, an error
    /// code), or none.
    pub fn with_detail(mut self, detail: impl Into<Option<String>>) -> Self {
        self.detail = detail.into();
        self
    }
}

/// An enum whose variants serialise to fixed names, with its list and its names: the
/// vocabularies the engine reports in, so a misspelt name is a compile error, not a new value.
macro_rules! named_enum {
    (
        $(#[doc = $edoc:literal])*
        pub enum $name:ident {
            $($(#[doc = $doc:literal])* $variant:ident => $text:literal,)*
        }
    ) => {
        $(#[doc = $edoc])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
        #[cfg_attr(feature = "serde", derive(serde::Serialize))]
        pub enum $name {
            $($(#[doc = $doc])* #[cfg_attr(feature = "serde", serde(rename = $text))] $variant,)*
        }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$variant,)*];

            /// The value's name, as serialised.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)*
                }
            }
        }

        impl core::fmt::Display for $name {
            fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

/// The macro, for the catalogues declared in other layers (the attachment kinds, a
/// compaction's item kinds).
pub(crate) use named_enum;

named_enum! {
    /// What the engine did with something it considered. Serialised (and shown) in kebab
    /// case: `too-large`, `not-applied`.
    ///
    /// ```
    /// use context_assembly::vocabulary::Verdict;
    /// assert_eq!(Verdict::TooLarge.as_str(), "too-large");
    /// assert!(Verdict::ALL.contains(&Verdict::NotApplied));
    /// ```
    pub enum Verdict {
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
    /// Due, but postponed because acting now costs more than waiting (the reason gives the
    /// arithmetic and what ends the wait).
    Deferred => "deferred",
    /// A compaction policy did what it could and more is still needed (de-duplicating reads
    /// saved too little, so truncation must follow).
    Needed => "needed",
    /// Where a compaction's kept records start, and why there.
    Kept => "kept",
    /// A kept tail's start or a partial split's pivot moved earlier, so that a call keeps
    /// its result and a response stays whole.
    Moved => "moved",
    }
}

named_enum! {
    /// Which kind of round a session step was.
    pub enum Round {
    /// A prompt was submitted: mentions, then every collector, then the request.
    HumanTurn => "human-turn",
    /// Tool results went back to the model: every collector but the mentions.
    ToolRound => "tool-round",
    /// The model answered without calling a tool (or the user stopped it): no request.
    EndOfTurn => "end-of-turn",
    /// The response called tools the host runs itself: no request until their results
    /// arrive.
    AwaitingToolResults => "awaiting-tool-results",
    /// A compaction the user or host asked for: its report, and the request as it now is.
    Compaction => "compaction",
    /// Something happened outside the model's loop (an edit, a mode change): no request.
    Event => "event",
    }
}

named_enum! {
    /// What a compaction did to an item of the context.
    pub enum Fate {
    /// Untouched.
    Kept => "kept",
    /// Read again and attached after the summary.
    Restored => "restored",
    /// Too large to restore: a reference to its path was attached instead.
    Referenced => "referenced",
    /// Put back by a post-compact attachment (skills, plan, deltas, pinned files).
    Reinjected => "reinjected",
    /// Recomputed for the next request from the files on disk.
    Reloaded => "reloaded",
    /// Replaced by the summary; what the summary says of it is all that is left.
    Summarised => "summarised",
    /// Its content was replaced by a placeholder; the call that produced it is still there.
    Masked => "masked",
    /// Gone.
    Dropped => "dropped",
    }
}

named_enum! {
    /// What a compaction was triggered by.
    pub enum Trigger {
    /// The context reached the auto-compact threshold.
    Auto => "auto",
    /// The user asked (`/compact`), or the host did.
    Manual => "manual",
    }
}

named_enum! {
    /// A compaction policy's id, as reports, scenarios and the playground name it: one per
    /// way of making room (the policy itself carries its knobs).
    ///
    /// ```
    /// use context_assembly::vocabulary::PolicyId;
    /// assert_eq!(PolicyId::ALL[0].as_str(), "claude-code.full");
    /// ```
    pub enum PolicyId {
    /// Claude Code's full compaction (§9.3).
    Full => "claude-code.full",
    /// Claude Code's session-memory compaction (§9.8).
    SessionMemory => "claude-code.session_memory",
    /// Claude Code's partial compaction (§9.9).
    Partial => "claude-code.partial",
    /// Claude Code's time-based microcompact (§9.6).
    Microcompact => "claude-code.microcompact",
    /// Claude Code's per-message tool-result budget (§9.7).
    ToolResultBudget => "claude-code.tool_result_budget",
    /// OpenCode's prune (strategies §6).
    Prune => "opencode.prune",
    /// Observation masking (strategies §9).
    ObservationMask => "swe.observation_mask",
    /// Anthropic's `clear_tool_uses` (strategies §10).
    ClearToolUses => "anthropic.clear_tool_uses",
    /// Anthropic's `clear_thinking` (strategies §10.3).
    ClearThinking => "anthropic.clear_thinking",
    /// Cline's duplicate-read replacement, then its truncation (strategies §2–§3).
    Truncate => "cline.truncate",
    /// Codex's local compaction: retained user messages and the summary (codex.md §4).
    CodexLocal => "codex.local",
    /// Codex's remote compaction: an opaque `compaction` item instead of the summary.
    CodexRemote => "codex.remote",
    /// OpenCode's anchored summary with a verbatim tail (strategies §7).
    OpencodeSummary => "opencode.summary",
    /// Cline's external-edit detection (strategies §4).
    FileTracker => "cline.file_tracker",
    /// OpenCode's read-before-write check (strategies §8).
    ReadGuard => "opencode.read_guard",
    /// Aider's repo-map and chat-history budgets (strategies §12).
    AiderBudgets => "aider.budgets",
    /// Continue's encoder × per-model multiplier count and oldest-first pruning (strategies §13).
    ContinueCounting => "continue.counting",
    /// Cline's LLM summaries, classic or SDK (strategies §5).
    ClineCondense => "cline.condense",
    /// OpenAI Responses compaction, passed through to the provider (strategies §11).
    OpenaiCompaction => "openai.compaction",
    }
}

named_enum! {
    /// The channels of a request.
    pub enum Channel {
    /// The system prompt.
    System => "system",
    /// The tool definitions.
    Tools => "tools",
    /// The user context prepended to the messages.
    UserContext => "userContext",
    /// The messages.
    Messages => "messages",
    }
}

named_enum! {
    /// What a block's tokens are spent on: the segments of the context meter.
    pub enum Category {
    /// The system prompt.
    System => "system",
    /// Tool definitions.
    Tools => "tools",
    /// Instructions and remembered notes: CLAUDE.md files, nested memory, relevant memories.
    Memory => "memory",
    /// Every other attachment: file contents, change notes, reminders.
    Attachments => "attachments",
    /// Prompts, the model's answers, tool calls and their results.
    Conversation => "conversation",
    }
}

/// A step that asked nothing of the model, until it says otherwise.
impl Default for Round {
    fn default() -> Self {
        Round::Event
    }
}
