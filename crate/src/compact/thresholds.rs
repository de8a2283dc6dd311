//! Windows and thresholds: when each original warns, compacts and refuses to send
//! (spec claude-code.md §9.1–9.2, codex.md §4.1).
//!
//! Claude Code reserves room for the summary's output, compacts 13 000 tokens before that
//! and blocks 3 000 tokens before it. Codex compacts at 90 % of the raw window and calls
//! 95 % of it the effective window (X8). All arithmetic saturates: a threshold the window
//! is too small for is zero, which every token count reaches, exactly as the original's
//! negative thresholds are. An 8K window (below the 20K output reserve plus the 13K buffer)
//! therefore auto-compacts, warns and blocks on every request; a 32K window auto-compacts
//! and warns from its first token but blocks only at 9 000.

/// `MAX_OUTPUT_TOKENS_FOR_SUMMARY`: the most output the effective window reserves.
pub const MAX_OUTPUT_TOKENS_FOR_SUMMARY: u64 = 20_000;
/// `AUTOCOMPACT_BUFFER_TOKENS`: auto-compaction fires this far below the effective window.
pub const AUTOCOMPACT_BUFFER_TOKENS: u64 = 13_000;
/// `WARNING_THRESHOLD_BUFFER_TOKENS`: the warning shows this far below the threshold.
pub const WARNING_THRESHOLD_BUFFER_TOKENS: u64 = 20_000;
/// `ERROR_THRESHOLD_BUFFER_TOKENS`: the error shows this far below the threshold.
pub const ERROR_THRESHOLD_BUFFER_TOKENS: u64 = 20_000;
/// `MANUAL_COMPACT_BUFFER_TOKENS`: the blocking limit is this far below the effective window.
pub const MANUAL_COMPACT_BUFFER_TOKENS: u64 = 3_000;
/// `MAX_CONSECUTIVE_AUTOCOMPACT_FAILURES`: failed auto-compactions before the breaker opens.
pub const MAX_CONSECUTIVE_AUTOCOMPACT_FAILURES: u32 = 3;
/// `MODEL_CONTEXT_WINDOW_DEFAULT`: the window of a model the original knows nothing about.
pub const MODEL_CONTEXT_WINDOW_DEFAULT: u64 = 200_000;
/// `COMPACT_MAX_OUTPUT_TOKENS`: the output budget of a summary request.
pub const COMPACT_MAX_OUTPUT_TOKENS: u64 = 20_000;

/// Codex: the auto-compact limit's share of the window, in percent (X8).
pub const CODEX_AUTO_COMPACT_PERCENT: u64 = 90;
/// Codex: `effective_context_window_percent`'s serde default.
pub const CODEX_EFFECTIVE_WINDOW_PERCENT: u64 = 95;

/// What Claude Code's thresholds depend on.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ThresholdInput {
    /// The model's context window (`getContextWindowForModel`), after any
    /// `CLAUDE_CODE_AUTO_COMPACT_WINDOW` cap.
    pub context_window: u64,
    /// The model's output limit (`getMaxOutputTokensForModel`); at most
    /// [`MAX_OUTPUT_TOKENS_FOR_SUMMARY`] of it is reserved.
    pub max_output_tokens: u64,
    /// `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`: a percentage of the effective window; honoured for
    /// 1..=100 and ignored otherwise. It can only lower the threshold (§9.1).
    pub autocompact_pct_override: Option<u64>,
    /// Auto-compaction is on (`isAutoCompactEnabled`, §9.2).
    pub auto_compact_enabled: bool,
}

impl ThresholdInput {
    /// A 200 000-token model reserving 20 000 output tokens, auto-compaction on.
    pub const fn claude_code_default() -> ThresholdInput {
        ThresholdInput {
            context_window: MODEL_CONTEXT_WINDOW_DEFAULT,
            max_output_tokens: MAX_OUTPUT_TOKENS_FOR_SUMMARY,
            autocompact_pct_override: None,
            auto_compact_enabled: true,
        }
    }
}

/// Claude Code's thresholds, in tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Thresholds {
    /// The window minus the output reserve (`getEffectiveContextWindowSize`).
    pub effective_window: u64,
    /// Auto-compaction fires at this many tokens (`getAutoCompactThreshold`).
    pub autocompact: u64,
    /// The warning shows from here on.
    pub warning: u64,
    /// The error shows from here on (the same count as the warning in the original).
    pub error: u64,
    /// Requests this large are refused without calling the API.
    pub blocking: u64,
    /// Auto-compaction is on; the warnings then count down to `autocompact`, otherwise to
    /// `effective_window`.
    pub auto_compact_enabled: bool,
}

impl Thresholds {
    /// What the warnings count down to: the auto-compact threshold when auto-compaction is
    /// on, the effective window otherwise.
    pub const fn warning_base(&self) -> u64 {
        if self.auto_compact_enabled {
            self.autocompact
        } else {
            self.effective_window
        }
    }
}

/// Claude Code's thresholds (§9.1).
///
/// # Example
/// ```
/// use context_assembly::compact::thresholds::{claude_code_thresholds, ThresholdInput};
/// let mut input = ThresholdInput::claude_code_default();
/// assert_eq!(claude_code_thresholds(&input).autocompact, 167_000);
/// // The percentage override can only lower the threshold: 95 % of 180 000 is above it.
/// input.autocompact_pct_override = Some(95);
/// assert_eq!(claude_code_thresholds(&input).autocompact, 167_000);
/// input.autocompact_pct_override = Some(50);
/// assert_eq!(claude_code_thresholds(&input).autocompact, 90_000);
/// // An 8K window cannot hold the 20K reserve: every threshold is 0, reached at once.
/// input.context_window = 8_192;
/// assert_eq!(claude_code_thresholds(&input).blocking, 0);
/// ```
pub fn claude_code_thresholds(input: &ThresholdInput) -> Thresholds {
    let reserve = input.max_output_tokens.min(MAX_OUTPUT_TOKENS_FOR_SUMMARY);
    let effective_window = input.context_window.saturating_sub(reserve);
    let buffered = effective_window.saturating_sub(AUTOCOMPACT_BUFFER_TOKENS);
    let autocompact = match input.autocompact_pct_override {
        Some(percent @ 1..=100) => percent_of(effective_window, percent).min(buffered),
        _ => buffered,
    };
    let mut thresholds = Thresholds {
        effective_window,
        autocompact,
        warning: 0,
        error: 0,
        blocking: effective_window.saturating_sub(MANUAL_COMPACT_BUFFER_TOKENS),
        auto_compact_enabled: input.auto_compact_enabled,
    };
    let base = thresholds.warning_base();
    thresholds.warning = base.saturating_sub(WARNING_THRESHOLD_BUFFER_TOKENS);
    thresholds.error = base.saturating_sub(ERROR_THRESHOLD_BUFFER_TOKENS);
    thresholds
}

/// `floor(value * percent / 100)` without overflow.
fn percent_of(value: u64, percent: u64) -> u64 {
    let scaled = u128::from(value) * u128::from(percent) / 100;
    u64::try_from(scaled).unwrap_or(u64::MAX)
}

/// Where a conversation stands against the thresholds (`calculateTokenWarningState`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct TokenWarning {
    /// Percent of the way to the warning base still free, rounded half up, never negative.
    pub percent_left: u64,
    /// At or past the warning threshold.
    pub warning: bool,
    /// At or past the error threshold.
    pub error: bool,
    /// Auto-compaction is on and the count reached its threshold.
    pub above_autocompact: bool,
    /// The request is refused without calling the API.
    pub at_blocking_limit: bool,
}

/// Where `tokens` stands against `thresholds` (§9.1).
///
/// # Example
/// ```
/// use context_assembly::compact::thresholds::{
///     claude_code_thresholds, token_warning, ThresholdInput,
/// };
/// let thresholds = claude_code_thresholds(&ThresholdInput::claude_code_default());
/// let state = token_warning(147_000, &thresholds);
/// assert!(state.warning && !state.above_autocompact);
/// assert_eq!(state.percent_left, 12); // (167 000 - 147 000) / 167 000 = 11.98 %
/// // A window too small for the reserves has a zero base: nothing is left, ever.
/// let tiny = claude_code_thresholds(&ThresholdInput {
///     context_window: 8_000,
///     ..ThresholdInput::claude_code_default()
/// });
/// assert_eq!(token_warning(0, &tiny).percent_left, 0);
/// ```
pub fn token_warning(tokens: u64, thresholds: &Thresholds) -> TokenWarning {
    let base = thresholds.warning_base();
    TokenWarning {
        percent_left: percent_left(tokens, base),
        warning: tokens >= thresholds.warning,
        error: tokens >= thresholds.error,
        above_autocompact: thresholds.auto_compact_enabled && tokens >= thresholds.autocompact,
        at_blocking_limit: tokens >= thresholds.blocking,
    }
}

/// `max(0, Math.round((base - tokens) / base * 100))`. A zero base is NaN in the original
/// (and a negative one gives percentages above 100); we report 0: nothing is left.
fn percent_left(tokens: u64, base: u64) -> u64 {
    if tokens >= base {
        return 0;
    }
    // The original's double-precision arithmetic, step by step: exact arithmetic differs
    // where the ratio is a half that doubles cannot hold (119,405 of 167,000 is 28.5
    // exactly, 28.499999999999996 in doubles, so 28, not 29). Token counts are far below
    // 2^53, so the conversions are exact; IEEE division and multiplication round the same
    // natively and in wasm.
    let percent = (base - tokens) as f64 / base as f64 * 100.0;
    // Math.round: floor(x + 0.5), and for a non-negative x the cast truncates to the floor.
    (percent + 0.5) as u64
}

/// The auto-compaction circuit breaker (§9.2): after
/// [`MAX_CONSECUTIVE_AUTOCOMPACT_FAILURES`] failures in a row, auto-compaction stops trying.
///
/// # Example
/// ```
/// use context_assembly::compact::thresholds::CompactionBreaker;
/// let mut breaker = CompactionBreaker::claude_code();
/// for _ in 0..3 {
///     breaker.record_failure();
/// }
/// assert!(!breaker.allows());
/// breaker.on_human_turn(); // Q57: the original forgets its failures every human turn
/// assert!(breaker.allows());
/// let mut fixed = CompactionBreaker::recommended();
/// for _ in 0..3 {
///     fixed.record_failure();
/// }
/// fixed.on_human_turn();
/// assert!(!fixed.allows());
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct CompactionBreaker {
    /// Q57: the failure count starts afresh with every human turn, because it lives in one
    /// `query()` call (original); off: it is session-scoped, so a conversation that cannot
    /// be compacted stops retrying for good.
    pub breaker_resets_each_human_turn: bool,
    consecutive_failures: u32,
}

impl CompactionBreaker {
    /// A closed breaker with the given Q57 switch.
    pub const fn new(breaker_resets_each_human_turn: bool) -> CompactionBreaker {
        CompactionBreaker {
            breaker_resets_each_human_turn,
            consecutive_failures: 0,
        }
    }

    /// Claude Code: resets every human turn (Q57).
    pub const fn claude_code() -> CompactionBreaker {
        CompactionBreaker::new(true)
    }

    /// Session-scoped (Q57 fixed).
    pub const fn recommended() -> CompactionBreaker {
        CompactionBreaker::new(false)
    }

    /// A human turn begins.
    pub fn on_human_turn(&mut self) {
        if self.breaker_resets_each_human_turn {
            self.consecutive_failures = 0;
        }
    }

    /// An auto-compaction failed.
    pub fn record_failure(&mut self) {
        self.consecutive_failures = self.consecutive_failures.saturating_add(1);
    }

    /// An auto-compaction succeeded: the count starts again from zero.
    pub fn record_success(&mut self) {
        self.consecutive_failures = 0;
    }

    /// Failures in a row so far.
    pub const fn consecutive_failures(&self) -> u32 {
        self.consecutive_failures
    }

    /// Auto-compaction may be tried.
    pub const fn allows(&self) -> bool {
        self.consecutive_failures < MAX_CONSECUTIVE_AUTOCOMPACT_FAILURES
    }

    /// Why auto-compaction does not run although `tokens` reach `threshold`, when the
    /// breaker is open; `None` while it may be tried.
    pub fn refusal(&self, tokens: u64, threshold: u64) -> Option<alloc::string::String> {
        if self.allows() {
            return None;
        }
        let until = match self.breaker_resets_each_human_turn {
            true => "until the next human turn (Q57)",
            false => "for the rest of the session (Q57 fixed)",
        };
        Some(alloc::format!(
            "{tokens} tokens reach the threshold of {threshold}, but {} attempts in a row \
             failed: the breaker stops auto-compaction {until}",
            self.consecutive_failures
        ))
    }
}

/// Which tokens Codex compares with its auto-compact limit (`model_auto_compact_token_limit_scope`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum CodexLimitScope {
    /// The whole active context (default); a configured limit is capped at 90 %.
    Total,
    /// Only the growth after the first post-compaction prefill; a configured limit is used
    /// as given.
    BodyAfterPrefix,
}

/// What Codex's thresholds depend on (codex.md §4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct CodexThresholdInput {
    /// The model's `context_window`, when it has one.
    pub context_window: Option<u64>,
    /// The model's `max_context_window`.
    pub max_context_window: u64,
    /// Config `model_context_window`: replaces `context_window`, capped at `max_context_window`.
    pub context_window_override: Option<u64>,
    /// Config `model_auto_compact_token_limit`.
    pub auto_compact_token_limit: Option<u64>,
    /// `effective_context_window_percent` ([`CODEX_EFFECTIVE_WINDOW_PERCENT`] by default).
    pub effective_window_percent: u64,
    /// What the limit is compared with.
    pub scope: CodexLimitScope,
    /// X8: in `total` scope a configured limit cannot exceed 90 % of the window (original);
    /// off: it is used as given, in either scope.
    pub limit_capped_at_auto_compact_percent: bool,
}

impl CodexThresholdInput {
    /// A current model (272 000 tokens) with nothing configured.
    pub const fn codex_default() -> CodexThresholdInput {
        CodexThresholdInput {
            context_window: Some(272_000),
            max_context_window: 272_000,
            context_window_override: None,
            auto_compact_token_limit: None,
            effective_window_percent: CODEX_EFFECTIVE_WINDOW_PERCENT,
            scope: CodexLimitScope::Total,
            limit_capped_at_auto_compact_percent: true,
        }
    }
}

/// Codex's thresholds, in tokens.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct CodexThresholds {
    /// `resolved_context_window`.
    pub resolved_window: u64,
    /// `model_context_window()`: the resolved window times the effective percent; the UI's
    /// window and, in `body_after_prefix` scope, a hard cap.
    pub effective_window: u64,
    /// Compaction fires when the counted tokens reach this.
    pub autocompact: u64,
}

/// Codex's thresholds (codex.md §4.1).
///
/// # Example
/// ```
/// use context_assembly::compact::thresholds::{codex_thresholds, CodexThresholdInput};
/// let mut input = CodexThresholdInput::codex_default();
/// let thresholds = codex_thresholds(&input);
/// assert_eq!((thresholds.autocompact, thresholds.effective_window), (244_800, 258_400));
/// // X8: a configured limit above 90 % is silently capped in the default scope.
/// input.auto_compact_token_limit = Some(260_000);
/// assert_eq!(codex_thresholds(&input).autocompact, 244_800);
/// input.limit_capped_at_auto_compact_percent = false;
/// assert_eq!(codex_thresholds(&input).autocompact, 260_000);
/// ```
pub fn codex_thresholds(input: &CodexThresholdInput) -> CodexThresholds {
    let resolved_window = match input.context_window_override {
        Some(configured) => configured.min(input.max_context_window),
        None => input.context_window.unwrap_or(input.max_context_window),
    };
    let ninety_percent = percent_of(resolved_window, CODEX_AUTO_COMPACT_PERCENT);
    let capped =
        input.limit_capped_at_auto_compact_percent && input.scope == CodexLimitScope::Total;
    let autocompact = match input.auto_compact_token_limit {
        Some(limit) if capped => limit.min(ninety_percent),
        Some(limit) => limit,
        None => ninety_percent,
    };
    CodexThresholds {
        resolved_window,
        effective_window: percent_of(resolved_window, input.effective_window_percent),
        autocompact,
    }
}

/// Which original's formula sets a profile's thresholds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum ThresholdFormula {
    /// Claude Code's (§9.1): a reserve for output, buffers below the effective window.
    ClaudeCode,
    /// Codex's (codex.md §4.1): 90 % of the window, an effective window of 95 %.
    Codex,
}

/// The output limit assumed when the host gives none: 32 000 tokens, above Claude Code's
/// 20 000-token reserve, so the reserve is the whole 20 000.
pub const DEFAULT_MAX_OUTPUT_TOKENS: u64 = 32_000;

/// What a window's thresholds are computed from, whichever the formula.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct WindowInput {
    /// The model's context window.
    pub context_window: u64,
    /// The model's output limit (Claude Code reserves up to 20 000 of it).
    pub max_output_tokens: u64,
    /// Claude Code's `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` (it can only lower the threshold).
    pub autocompact_pct_override: Option<u64>,
    /// Codex's `model_auto_compact_token_limit` (capped at 90 % of the window, X8).
    pub auto_compact_token_limit: Option<u64>,
}

/// A window's thresholds; the levels an original does not have are `None` (Codex has no
/// warning, error or blocking levels).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct WindowThresholds {
    /// What the model may fill with input.
    pub effective_window: u64,
    /// Auto-compaction fires at this many tokens.
    pub autocompact: u64,
    /// The warning level.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub warning: Option<u64>,
    /// The error level.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub error: Option<u64>,
    /// The request is refused from here on.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub blocking: Option<u64>,
    /// Under a strategy that compacts by the size of the conversation's history rather than
    /// the context's (Aider's, strategies.md §12.8), the history's budget: past it the older
    /// part is summarised, whatever `autocompact` says.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub history_budget: Option<u64>,
}

/// The thresholds of a window under `formula`.
///
/// # Example
/// ```
/// use context_assembly::compact::thresholds::{compaction_thresholds, ThresholdFormula, WindowInput};
/// let input = WindowInput { context_window: 200_000, max_output_tokens: 32_000, autocompact_pct_override: None, auto_compact_token_limit: None };
/// let claude = compaction_thresholds(ThresholdFormula::ClaudeCode, &input);
/// assert_eq!((claude.effective_window, claude.autocompact, claude.blocking), (180_000, 167_000, Some(177_000)));
/// let codex = compaction_thresholds(ThresholdFormula::Codex, &input);
/// assert_eq!((codex.effective_window, codex.autocompact, codex.blocking), (190_000, 180_000, None));
/// ```
pub fn compaction_thresholds(formula: ThresholdFormula, input: &WindowInput) -> WindowThresholds {
    match formula {
        ThresholdFormula::ClaudeCode => {
            let t = claude_code_thresholds(&ThresholdInput {
                context_window: input.context_window,
                max_output_tokens: input.max_output_tokens,
                autocompact_pct_override: input.autocompact_pct_override,
                auto_compact_enabled: true,
            });
            WindowThresholds {
                effective_window: t.effective_window,
                autocompact: t.autocompact,
                warning: Some(t.warning),
                error: Some(t.error),
                blocking: Some(t.blocking),
                history_budget: None,
            }
        }
        ThresholdFormula::Codex => {
            let t = codex_thresholds(&CodexThresholdInput {
                context_window: Some(input.context_window),
                max_context_window: input.context_window,
                auto_compact_token_limit: input.auto_compact_token_limit,
                ..CodexThresholdInput::codex_default()
            });
            WindowThresholds {
                effective_window: t.effective_window,
                autocompact: t.autocompact,
                warning: None,
                error: None,
                blocking: None,
                history_budget: None,
            }
        }
    }
}
