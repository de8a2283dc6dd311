//! What Codex keeps of the provider's reported usage and what it does with it (spec codex.md
//! §3.6, §5.7): the active context size its auto-compaction compares with the limit, the
//! figure after a compaction, the overflow bookkeeping (X17) and the TUI's "% context left"
//! (X18).

/// One response's usage as the provider reports it (`TokenUsage`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct TokenUsage {
    /// Input tokens, cached ones included.
    pub input_tokens: u64,
    /// Input tokens served from the prompt cache.
    pub cached_input_tokens: u64,
    /// Output tokens, reasoning included.
    pub output_tokens: u64,
    /// Reasoning tokens among the output.
    pub reasoning_output_tokens: u64,
    /// Input plus output.
    pub total_tokens: u64,
}

impl TokenUsage {
    fn add(&mut self, other: &TokenUsage) {
        self.input_tokens = self.input_tokens.saturating_add(other.input_tokens);
        self.cached_input_tokens =
            (self.cached_input_tokens).saturating_add(other.cached_input_tokens);
        self.output_tokens = self.output_tokens.saturating_add(other.output_tokens);
        self.reasoning_output_tokens =
            (self.reasoning_output_tokens).saturating_add(other.reasoning_output_tokens);
        self.total_tokens = self.total_tokens.saturating_add(other.total_tokens);
    }
}

/// The TUI's fixed allowance subtracted from both the window and the usage before it shows
/// "% context left" (`BASELINE_TOKENS`, X18).
pub const BASELINE_TOKENS: u64 = 12_000;

/// The session's usage record (`TokenUsageInfo`): the sum of every response, and the last.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct TokenUsageInfo {
    /// Every response's usage added up.
    pub total: TokenUsage,
    /// The latest response's usage; only its `total_tokens` drives compaction.
    pub last: TokenUsage,
}

impl TokenUsageInfo {
    /// A response completed with `usage` (`update_token_info`): added to the total, and the
    /// last usage.
    pub fn record(&mut self, usage: TokenUsage) {
        self.total.add(&usage);
        self.last = usage;
    }

    /// The request overflowed the window (`set_token_usage_full`): the cumulative total
    /// becomes the window and the last usage what the window exceeds the previous total by,
    /// never below 0 — after a long session that is 0, which under-reports (X17). With
    /// `overflow_marks_full` (the X17 option) the last usage is the window itself.
    ///
    /// # Example
    /// ```
    /// use context_assembly::codex::usage::{TokenUsage, TokenUsageInfo};
    /// let mut info = TokenUsageInfo::default();
    /// info.record(TokenUsage { total_tokens: 300_000, ..TokenUsage::default() });
    /// info.set_full(272_000, false);
    /// assert_eq!((info.total.total_tokens, info.last.total_tokens), (272_000, 0));
    /// info.set_full(272_000, true);
    /// assert_eq!(info.last.total_tokens, 272_000);
    /// ```
    pub fn set_full(&mut self, window: u64, overflow_marks_full: bool) {
        let previous_total = self.total.total_tokens;
        self.total.total_tokens = window;
        let last = match overflow_marks_full {
            true => window,
            false => window.saturating_sub(previous_total),
        };
        self.last = TokenUsage {
            total_tokens: last,
            ..TokenUsage::default()
        };
    }

    /// After a compaction (`recompute_token_usage`): the last usage's total becomes the
    /// estimate of the new history plus the base instructions.
    pub fn recompute(&mut self, history_estimate: u64) {
        self.last.total_tokens = history_estimate;
    }

    /// The active context size auto-compaction compares with its limit
    /// (`get_total_token_usage`): the last response's total, plus the estimate of every item
    /// recorded after the last model-generated one (tool outputs, new user messages, context
    /// diffs), plus — when the server did not count reasoning as included — the estimate of
    /// the encrypted reasoning before the last user turn.
    ///
    /// # Example
    /// ```
    /// use context_assembly::codex::usage::{TokenUsage, TokenUsageInfo};
    /// let mut info = TokenUsageInfo::default();
    /// info.record(TokenUsage { input_tokens: 9_000, output_tokens: 1_000, total_tokens: 10_000, ..TokenUsage::default() });
    /// assert_eq!(info.active_context(2_500, 400, true), 12_500);
    /// assert_eq!(info.active_context(2_500, 400, false), 12_900);
    /// ```
    pub fn active_context(
        &self,
        items_after_last_model_item: u64,
        earlier_reasoning: u64,
        server_reasoning_included: bool,
    ) -> u64 {
        let reasoning = match server_reasoning_included {
            true => 0,
            false => earlier_reasoning,
        };
        (self.last.total_tokens)
            .saturating_add(items_after_last_model_item)
            .saturating_add(reasoning)
    }
}

/// The TUI's "% context left" (X18): both the window and the usage lose
/// [`BASELINE_TOKENS`] first, `(window − B − max(0, used − B)) / (window − B)`, within
/// 0–100; 0 for a window no larger than the baseline. The spec gives the ratio; the whole
/// percent here is rounded down.
///
/// # Example
/// ```
/// use context_assembly::codex::usage::context_left_percent;
/// assert_eq!(context_left_percent(272_000, 12_000), 100); // the baseline is "free"
/// assert_eq!(context_left_percent(272_000, 142_000), 50);
/// assert_eq!(context_left_percent(272_000, 300_000), 0);
/// ```
pub fn context_left_percent(window: u64, used: u64) -> u64 {
    let Some(room) = window.checked_sub(BASELINE_TOKENS).filter(|room| *room > 0) else {
        return 0;
    };
    let spent = used.saturating_sub(BASELINE_TOKENS).min(room);
    (room - spent).saturating_mul(100) / room
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_total_adds_every_response_and_the_last_is_replaced() {
        let mut info = TokenUsageInfo::default();
        let usage = |total| TokenUsage {
            total_tokens: total,
            ..TokenUsage::default()
        };
        info.record(usage(100));
        info.record(usage(250));
        assert_eq!(
            (info.total.total_tokens, info.last.total_tokens),
            (350, 250)
        );
        info.recompute(40);
        assert_eq!(info.active_context(0, 0, true), 40);
    }

    #[test]
    fn overflow_in_a_short_session_reports_the_rest_of_the_window() {
        let mut info = TokenUsageInfo::default();
        info.record(TokenUsage {
            total_tokens: 200_000,
            ..TokenUsage::default()
        });
        info.set_full(272_000, false);
        assert_eq!(info.last.total_tokens, 72_000);
    }

    #[test]
    fn a_window_within_the_baseline_has_nothing_left() {
        assert_eq!(context_left_percent(12_000, 0), 0);
        assert_eq!(context_left_percent(0, 0), 0);
    }
}
