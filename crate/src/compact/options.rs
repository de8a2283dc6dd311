//! What a host asks of a compaction: the policy and its knobs, the trigger, the
//! instructions.

use alloc::string::String;

use crate::compact::microcompact::MicrocompactRules;
use crate::compact::partial::PartialDirection;
use crate::compact::policies::aider_budgets::AiderBudgetsParams;
use crate::compact::policies::clear_thinking::ClearThinkingParams;
use crate::compact::policies::clear_tool_uses::ClearToolUsesParams;
use crate::compact::policies::cline_condense::CondenseParams;
use crate::compact::policies::continue_counting::ContinueCountingParams;
use crate::compact::policies::dedupe_reads::DedupeReadsParams;
use crate::compact::policies::masking::MaskingParams;
use crate::compact::policies::openai_compaction::OpenaiCompactionParams;
use crate::compact::policies::opencode_summary::OpencodeSummaryParams;
use crate::compact::policies::prune::PruneParams;
use crate::compact::policies::truncate::TruncateParams;
use crate::compact::tool_result_budget::ToolResultBudgetRules;

/// How to make room.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub enum Policy {
    /// Claude Code's full compaction: a summary replaces every message (§9.3).
    #[default]
    Full,
    /// Claude Code's session-memory compaction: a summary of the older part, the recent
    /// tail kept verbatim, the file state kept (§9.8).
    SessionMemory,
    /// Claude Code's partial compaction around a pivot record (§9.9).
    Partial {
        /// The id of the pivot record.
        pivot: u64,
        /// Which side is summarised.
        direction: PartialDirection,
    },
    /// Claude Code's time-based microcompact (§9.6).
    Microcompact(MicrocompactRules),
    /// Claude Code's per-message tool-result budget (§9.7).
    ToolResultBudget(ToolResultBudgetRules),
    /// OpenCode's prune (strategies §6).
    Prune(PruneParams),
    /// Observation masking (strategies §9).
    Masking(MaskingParams),
    /// Anthropic's `clear_tool_uses`, optionally with the memory tool (strategies §10).
    ClearToolUses {
        /// The API's knobs.
        params: ClearToolUsesParams,
        /// The memory tool is on: a warning precedes the first clearing.
        memory_tool: bool,
    },
    /// Anthropic's `clear_thinking`: the thinking of older turns goes (strategies §10.3).
    ClearThinking(ClearThinkingParams),
    /// Codex's compaction (codex.md §4.3–§4.6): retained user messages and the summary;
    /// mid-turn, the initial context before the last user message.
    Codex {
        /// Remote compaction: an opaque `compaction` item instead of the summary message.
        remote: bool,
        /// The compaction runs mid-turn (the model asked for tools); otherwise pre-turn or
        /// manual, and the next turn re-sends the initial context.
        mid_turn: bool,
    },
    /// Cline's duplicate-read replacement, then its truncation when it saved < 30%
    /// (strategies §2–§3).
    Truncate {
        /// The truncation's knobs.
        params: TruncateParams,
        /// The duplicate-read pass's knobs.
        dedupe: DedupeReadsParams,
    },
    /// OpenCode's anchored summary with a verbatim tail (strategies §7); the window is the
    /// session's.
    OpencodeSummary(OpencodeSummaryParams),
    /// Cline's external-edit detection over the session's tracked files (strategies §4).
    FileTracker,
    /// OpenCode's read-before-write check over the session's reads (strategies §8).
    ReadGuard,
    /// Aider's budgets (strategies §12); the window is the session's.
    AiderBudgets(AiderBudgetsParams),
    /// Continue's count and pruning (strategies §13); the window and the request's tokens
    /// outside the records are the session's.
    ContinueCounting(ContinueCountingParams),
    /// Cline's condense, classic or SDK (strategies §5); window and usage are the session's.
    ClineCondense(CondenseParams),
    /// OpenAI Responses compaction, passed through (strategies §11); the request's tokens
    /// are the session's.
    OpenaiCompaction(OpenaiCompactionParams),
}

impl Policy {
    /// The summary policy auto-compaction runs: Codex's own (local or remote) under a
    /// profile that compacts as Codex does, Claude Code's full compaction otherwise.
    pub fn automatic(codex: &crate::codex::rules::CodexRules, mid_turn: bool) -> Policy {
        match codex.local_compaction || codex.remote_compaction {
            true => Policy::Codex {
                remote: codex.remote_compaction,
                mid_turn,
            },
            false => Policy::Full,
        }
    }

    /// The policy's id, as reports name it.
    pub fn id(&self) -> PolicyId {
        match self {
            Policy::Full => PolicyId::Full,
            Policy::SessionMemory => PolicyId::SessionMemory,
            Policy::Partial { .. } => PolicyId::Partial,
            Policy::Microcompact(_) => PolicyId::Microcompact,
            Policy::ToolResultBudget(_) => PolicyId::ToolResultBudget,
            Policy::Prune(_) => PolicyId::Prune,
            Policy::Masking(_) => PolicyId::ObservationMask,
            Policy::ClearToolUses { .. } => PolicyId::ClearToolUses,
            Policy::ClearThinking(_) => PolicyId::ClearThinking,
            Policy::Truncate { .. } => PolicyId::Truncate,
            Policy::Codex { remote: false, .. } => PolicyId::CodexLocal,
            Policy::Codex { remote: true, .. } => PolicyId::CodexRemote,
            Policy::OpencodeSummary(_) => PolicyId::OpencodeSummary,
            Policy::FileTracker => PolicyId::FileTracker,
            Policy::ReadGuard => PolicyId::ReadGuard,
            Policy::AiderBudgets(_) => PolicyId::AiderBudgets,
            Policy::ContinueCounting(_) => PolicyId::ContinueCounting,
            Policy::ClineCondense(_) => PolicyId::ClineCondense,
            Policy::OpenaiCompaction(_) => PolicyId::OpenaiCompaction,
        }
    }

    /// Whether the policy replaces messages by a summary.
    pub fn summarises(&self) -> bool {
        matches!(
            self,
            Policy::Full | Policy::SessionMemory | Policy::Partial { .. } | Policy::Codex { .. }
        )
    }
}

pub use crate::vocabulary::{PolicyId, Trigger};

/// A compaction request.
///
/// ```
/// use context_assembly::session::{CompactionOptions, Policy};
/// let options = CompactionOptions { instructions: Some("Keep the test names.".into()), ..Default::default() };
/// assert_eq!(options.policy, Policy::Full);
/// assert_eq!(options.trigger.as_str(), "manual");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CompactionOptions {
    /// How to make room.
    pub policy: Policy,
    /// What asked for the compaction.
    pub trigger: Trigger,
    /// Custom instructions for the summary (`/compact <instructions>`).
    pub instructions: Option<String>,
}

impl Default for CompactionOptions {
    fn default() -> Self {
        CompactionOptions {
            policy: Policy::Full,
            trigger: Trigger::Manual,
            instructions: None,
        }
    }
}
