//! Which strategy auto-compaction follows: Claude Code's summary (§9.2), OpenCode's prune
//! then anchored summary on overflow (strategies.md §6.1, §6, §7), or Aider's chat-history
//! budget (strategies.md §12.8). The `opencode-style` and `aider-style` profiles use the last
//! two, so a comparison can set the strategies the other agents use against Claude Code's on
//! the same session.
//!
//! Each strategy says when it runs, what runs first and what runs when that was not enough;
//! the policies themselves are the selectable ones of [`super::policies`], with the
//! references' own constants.

use alloc::format;
use alloc::string::String;

use super::options::Policy;
use super::policies::aider_budgets::{
    max_chat_history_tokens, AiderBudgetsParams, HISTORY_TOKENS_MAX, HISTORY_TOKENS_MIN,
};
use super::policies::opencode_summary::OpencodeSummaryParams;
use super::policies::prune::{PruneParams, PROTECT_RECENT_TOKENS, PRUNE_MINIMUM_TOKENS};
use super::policies::{thousands, total_tokens};
use super::rules::CompactionRules;
use super::thresholds::WindowThresholds;
use crate::tokens::TokenMethod;
use crate::transcript::Message;

/// The strategy auto-compaction follows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum AutoPolicy {
    /// At the auto-compact threshold, the profile's own summary: Claude Code's full
    /// compaction, or Codex's (§9.2, codex.md §4); `recommended` runs its cheap stage first.
    #[default]
    Summary,
    /// OpenCode: when the context reaches the usable window (strategies.md §6.1), its prune
    /// runs (§6), and its anchored summary with a verbatim tail (§7) only when the prune did
    /// not bring the context under that limit.
    Opencode,
    /// Aider: before each request, when the records exceed the chat-history budget, the
    /// older part is summarised and the newest messages under half the budget stay
    /// (strategies.md §12.8); the context's size against the window plays no part.
    Aider,
}

/// OpenCode's usable window (strategies.md §6.1) for a model whose only limits are its
/// `context_window` and `max_output_tokens`: the window less the output limit. (With an
/// input limit OpenCode takes the reserve, `min(20,000, max output)`, off that instead; the
/// session knows no input limit apart from its window.)
///
/// ```
/// use context_assembly::compact::auto_policy::opencode_usable;
/// assert_eq!(opencode_usable(200_000, 32_000), 168_000);
/// assert_eq!(opencode_usable(16_000, 32_000), 0);
/// ```
pub fn opencode_usable(context_window: u64, max_output_tokens: u64) -> u64 {
    context_window.saturating_sub(max_output_tokens)
}

impl AutoPolicy {
    /// The thresholds this strategy compacts at: OpenCode's overflow limit is its usable
    /// window ([`opencode_usable`]); Aider's is its history budget
    /// ([`max_chat_history_tokens`] of the window, in `history_budget`); Claude Code's and
    /// Codex's summaries keep the profile formula's.
    pub fn thresholds(
        self,
        formula: WindowThresholds,
        context_window: u64,
        max_output_tokens: u64,
    ) -> WindowThresholds {
        match self {
            AutoPolicy::Opencode => WindowThresholds {
                autocompact: opencode_usable(context_window, max_output_tokens),
                ..formula
            },
            AutoPolicy::Aider => WindowThresholds {
                history_budget: Some(max_chat_history_tokens(Some(context_window))),
                ..formula
            },
            AutoPolicy::Summary => formula,
        }
    }

    /// Why auto-compaction runs now, with a context of `size` against `threshold`.
    pub fn compact_reason(self, size: &str, threshold: u64) -> String {
        match self {
            AutoPolicy::Opencode => format!(
                "the context is {size}, at or above OpenCode's overflow limit of {} (the window \
                 less the output limit, strategies.md §6.1): OpenCode's prune runs first (it \
                 keeps the newest {} tokens of tool output and acts only when it frees more \
                 than {}), and its anchored summary only if the context is still over",
                thousands(threshold),
                thousands(PROTECT_RECENT_TOKENS),
                thousands(PRUNE_MINIMUM_TOKENS)
            ),
            AutoPolicy::Summary | AutoPolicy::Aider => format!(
                "the context is {size}, at or above the auto-compact threshold of {threshold}"
            ),
        }
    }

    /// The stage that runs before the summary, if any: OpenCode's prune with its own
    /// constants (strategies.md §6.2), or, under [`CompactionRules::cheap_stage_first`],
    /// the prune scaled to the window ([`PruneParams::scaled_to`]).
    pub fn cheap_stage(self, rules: &CompactionRules, effective_window: u64) -> Option<Policy> {
        match self {
            AutoPolicy::Opencode => Some(Policy::Prune(PruneParams::default())),
            AutoPolicy::Summary if rules.cheap_stage_first => {
                Some(Policy::Prune(PruneParams::scaled_to(effective_window)))
            }
            AutoPolicy::Summary | AutoPolicy::Aider => None,
        }
    }

    /// The summary this strategy asks for: `automatic` (the profile's own, see
    /// [`Policy::automatic`]) for [`AutoPolicy::Summary`]; OpenCode's anchored summary, whose
    /// preserve budget is a quarter of the same usable window as the overflow limit,
    /// clamped to 2,000–8,000 (strategies.md §7.1); Aider's history budget.
    pub fn summary(self, automatic: Policy, max_output_tokens: u64) -> Policy {
        match self {
            AutoPolicy::Summary => automatic,
            AutoPolicy::Opencode => Policy::OpencodeSummary(OpencodeSummaryParams {
                reserved_tokens: max_output_tokens,
                ..OpencodeSummaryParams::default()
            }),
            AutoPolicy::Aider => Policy::AiderBudgets(AiderBudgetsParams::default()),
        }
    }
}

/// The history against Aider's budget, when it exceeds it (strategies.md §12.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct HistoryOverBudget {
    /// The records' tokens.
    pub history: u64,
    /// The budget ([`max_chat_history_tokens`] of the window).
    pub budget: u64,
}

impl HistoryOverBudget {
    /// Why the history is summarised now.
    pub fn reason(&self) -> String {
        format!(
            "the chat history is {} tokens, over Aider's budget of {} (the window / 16, clamped \
             to {}–{}, strategies.md §12.1): its older part is summarised and the newest \
             messages under half the budget stay verbatim (§12.8)",
            thousands(self.history),
            thousands(self.budget),
            thousands(HISTORY_TOKENS_MIN),
            thousands(HISTORY_TOKENS_MAX),
        )
    }
}

/// Aider's trigger: the history of `records` against the budget of a `context_window`-token
/// model; `None` within the budget.
///
/// ```
/// use context_assembly::compact::auto_policy::{aider_history_over_budget, HistoryOverBudget};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{Message, Record};
/// let prompt = Message { id: 0, record: Record::Prompt { text: "x".repeat(40_000) } };
/// // 10,000 tokens against a 200K model's 8,192 (and a 400K model's: the budget's ceiling).
/// let over = HistoryOverBudget { history: 10_000, budget: 8_192 };
/// assert_eq!(aider_history_over_budget(&[prompt.clone()], 200_000, TokenMethod::ClaudeCode), Some(over));
/// assert_eq!(aider_history_over_budget(&[prompt], 400_000, TokenMethod::ClaudeCode), Some(over));
/// assert!(over.reason().starts_with("the chat history is 10,000 tokens, over Aider's budget of 8,192"));
/// assert_eq!(aider_history_over_budget(&[], 200_000, TokenMethod::ClaudeCode), None);
/// ```
pub fn aider_history_over_budget(
    records: &[Message],
    context_window: u64,
    method: TokenMethod,
) -> Option<HistoryOverBudget> {
    history_over_budget(total_tokens(records, method), context_window)
}

/// [`aider_history_over_budget`] of a history of `history` tokens, counted by the caller (a
/// session keeps the count as records are appended, rather than counting every record at
/// every turn).
pub fn history_over_budget(history: u64, context_window: u64) -> Option<HistoryOverBudget> {
    let budget = max_chat_history_tokens(Some(context_window));
    (history > budget).then_some(HistoryOverBudget { history, budget })
}
