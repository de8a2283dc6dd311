//! What a host asks of a compaction: the policy and its knobs, the trigger, the
//! instructions.

use alloc::string::String;

use crate::compact::microcompact::MicrocompactRules;
use crate::compact::partial::PartialDirection;
use crate::compact::policies::clear_tool_uses::ClearToolUsesParams;
use crate::compact::policies::dedupe_reads::DedupeReadsParams;
use crate::compact::policies::masking::MaskingParams;
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
}

impl Policy {
    /// The policy's id, as reports name it.
    pub fn id(&self) -> &'static str {
        match self {
            Policy::Full => FULL,
            Policy::SessionMemory => SESSION_MEMORY,
            Policy::Partial { .. } => PARTIAL,
            Policy::Microcompact(_) => MICROCOMPACT,
            Policy::ToolResultBudget(_) => TOOL_RESULT_BUDGET,
            Policy::Prune(_) => crate::compact::policies::prune::POLICY_ID,
            Policy::Masking(_) => crate::compact::policies::masking::POLICY_ID,
            Policy::ClearToolUses { .. } => crate::compact::policies::clear_tool_uses::POLICY_ID,
            Policy::Truncate { .. } => crate::compact::policies::truncate::POLICY_ID,
            Policy::Codex { remote: false, .. } => CODEX_LOCAL,
            Policy::Codex { remote: true, .. } => CODEX_REMOTE,
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

/// Full compaction's id.
pub const FULL: &str = "claude-code.full";
/// Session-memory compaction's id.
pub const SESSION_MEMORY: &str = "claude-code.session_memory";
/// Partial compaction's id.
pub const PARTIAL: &str = "claude-code.partial";
/// Time-based microcompact's id.
pub const MICROCOMPACT: &str = "claude-code.microcompact";
/// The tool-result budget's id.
pub const TOOL_RESULT_BUDGET: &str = "claude-code.tool_result_budget";

/// Codex's local compaction's id.
pub const CODEX_LOCAL: &str = "codex.local";
/// Codex's remote compaction's id.
pub const CODEX_REMOTE: &str = "codex.remote";

/// Every policy id, in the order the playground lists them.
pub const POLICY_IDS: [&str; 11] = [
    FULL,
    SESSION_MEMORY,
    PARTIAL,
    MICROCOMPACT,
    TOOL_RESULT_BUDGET,
    crate::compact::policies::prune::POLICY_ID,
    crate::compact::policies::masking::POLICY_ID,
    crate::compact::policies::clear_tool_uses::POLICY_ID,
    crate::compact::policies::truncate::POLICY_ID,
    CODEX_LOCAL,
    CODEX_REMOTE,
];

pub use crate::vocabulary::Trigger;

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
