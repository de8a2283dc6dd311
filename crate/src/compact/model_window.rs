//! A model's context window and output limit, as Claude Code derives them from the model's
//! id (spec claude-code.md §9.1, the variables of §10.1).
//!
//! The original reads its environment and remote flags for some of these; the core reads
//! neither, so each one is a field of [`WindowOverrides`] the host sets. The window is the
//! first of: the host's own window (`CLAUDE_CODE_MAX_CONTEXT_TOKENS`), a `[1m]` suffix on
//! the id, the capability table's input limit, the 1M beta for a model that takes it, the
//! Sonnet 4.6 1M experiment, and 200,000 tokens. The output limit is a row of
//! [`MAX_OUTPUT_TABLE`], the first whose pattern the id contains; an id no row names gets
//! the fallback row and says so. An id is matched in lower case, as a substring, so
//! provider spellings (`us.anthropic.claude-opus-4-6-v1`, `claude-3-5-sonnet-20241022`)
//! land on their row.
//!
//! The thresholds' own variables (`CLAUDE_CODE_AUTO_COMPACT_WINDOW`,
//! `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`, `CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE`) live in the
//! same struct and are applied by [`WindowOverrides::window_input`] and
//! [`WindowOverrides::adjust`].

use alloc::format;
use alloc::string::String;

use super::thresholds::{
    WindowInput, WindowThresholds, MAX_OUTPUT_TOKENS_FOR_SUMMARY, MODEL_CONTEXT_WINDOW_DEFAULT,
};

/// The window of a model run with a million tokens of context.
pub const ONE_MILLION_CONTEXT_WINDOW: u64 = 1_000_000;
/// `CAPPED_DEFAULT_MAX_TOKENS`: the default output limit when the output slot is capped
/// (`tengu_otk_slot_v1`).
pub const CAPPED_DEFAULT_MAX_TOKENS: u64 = 8_000;
/// The capability table's input limit counts only from this size on (§9.1, step 3).
pub const CAPABILITY_WINDOW_FLOOR: u64 = 100_000;

/// One row of the output table: ids containing any of `patterns` have a default output
/// limit of `default` tokens and an upper limit of `upper` (`getModelMaxOutputTokens`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct OutputLimitRow {
    /// Substrings of the lower-cased id that select this row.
    pub patterns: &'static [&'static str],
    /// The output limit when nothing overrides it.
    pub default: u64,
    /// The most an override may raise it to.
    pub upper: u64,
}

/// The output limits by model, first match wins (§9.1): the more specific patterns come
/// first, since `claude-opus-4-6` also contains `opus-4`.
pub const MAX_OUTPUT_TABLE: [OutputLimitRow; 6] = [
    OutputLimitRow {
        patterns: &["opus-4-6"],
        default: 64_000,
        upper: 128_000,
    },
    OutputLimitRow {
        patterns: &["sonnet-4-6"],
        default: 32_000,
        upper: 128_000,
    },
    OutputLimitRow {
        patterns: &["opus-4-5", "sonnet-4", "haiku-4"],
        default: 32_000,
        upper: 64_000,
    },
    OutputLimitRow {
        patterns: &["opus-4-1", "opus-4"],
        default: 32_000,
        upper: 32_000,
    },
    OutputLimitRow {
        patterns: &["3-7-sonnet"],
        default: 32_000,
        upper: 64_000,
    },
    OutputLimitRow {
        patterns: &["3-5-sonnet", "3-5-haiku"],
        default: 8_192,
        upper: 8_192,
    },
];

/// The output limits of an id no row of [`MAX_OUTPUT_TABLE`] names.
pub const OTHER_MODEL_OUTPUT: OutputLimitRow = OutputLimitRow {
    patterns: &[],
    default: 32_000,
    upper: 64_000,
};

/// Ids that take the 1M-context beta (`modelSupports1M`).
pub const ONE_MILLION_BETA_MODELS: [&str; 2] = ["claude-sonnet-4", "opus-4-6"];

/// Ids the Sonnet 4.6 1M experiment applies to.
pub const ONE_MILLION_EXPERIMENT_MODELS: [&str; 1] = ["sonnet-4-6"];

/// What the original reads from its environment, remote flags and the API about a model's
/// window, given by the host instead (§9.1, §10.1). The default is an external user with
/// nothing set.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase", default))]
pub struct WindowOverrides {
    /// `CLAUDE_CODE_MAX_CONTEXT_TOKENS`: replaces the window outright (the original honours
    /// it for Anthropic's own users only; a host that sets it means it).
    pub max_context_tokens: Option<u64>,
    /// `CLAUDE_CODE_DISABLE_1M_CONTEXT`: no million-token window by any route, and a
    /// capability limit above 200,000 is cut to 200,000.
    pub disable_1m_context: bool,
    /// The model capability table's `max_input_tokens` (the original fetches the table from
    /// the API); used from [`CAPABILITY_WINDOW_FLOOR`] tokens on.
    pub capability_max_input_tokens: Option<u64>,
    /// The request carries the 1M-context beta header.
    pub context_1m_beta: bool,
    /// The Sonnet 4.6 1M experiment's treatment is on.
    pub sonnet_1m_experiment: bool,
    /// `tengu_otk_slot_v1`: the default output limit is capped at
    /// [`CAPPED_DEFAULT_MAX_TOKENS`].
    pub capped_output_slot: bool,
    /// `CLAUDE_CODE_MAX_OUTPUT_TOKENS`: the output limit, at most the model's upper limit; 0
    /// is not a limit and is ignored, as the original ignores a value that is not positive.
    pub max_output_tokens: Option<u64>,
    /// `CLAUDE_CODE_AUTO_COMPACT_WINDOW`: caps the window the thresholds are computed from
    /// (not the window itself); 0 is ignored.
    pub auto_compact_window: Option<u64>,
    /// `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`: the auto-compact threshold as a percentage of the
    /// effective window, honoured for 1..=100; it can only lower the threshold.
    pub autocompact_pct_override: Option<u64>,
    /// `CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE`: the blocking limit in tokens; 0 is ignored.
    pub blocking_limit_override: Option<u64>,
}

/// A model's window and output limit, with why each is what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ModelWindow {
    /// The model's context window (`getContextWindowForModel`).
    pub context_window: u64,
    /// Which rule set the window, in one sentence.
    pub window_reason: String,
    /// The model's output limit (`getMaxOutputTokensForModel`).
    pub max_output_tokens: u64,
    /// The most `CLAUDE_CODE_MAX_OUTPUT_TOKENS` may raise the output limit to.
    pub output_upper_limit: u64,
    /// Which row and override set the output limit, in one sentence.
    pub output_reason: String,
    /// The id matched a row of [`MAX_OUTPUT_TABLE`]; `false`: the fallback row was used.
    pub known_model: bool,
}

impl ModelWindow {
    /// What the effective window keeps back for the answer: the output limit, at most
    /// [`MAX_OUTPUT_TOKENS_FOR_SUMMARY`] (§9.1).
    pub fn output_reserve(&self) -> u64 {
        self.max_output_tokens.min(MAX_OUTPUT_TOKENS_FOR_SUMMARY)
    }
}

/// The window and output limit of `model` under `overrides` (§9.1).
///
/// # Example
/// ```
/// use context_assembly::compact::model_window::{claude_code_model_window, WindowOverrides};
/// let plain = WindowOverrides::default();
/// assert_eq!(claude_code_model_window("claude-opus-4-6", &plain).context_window, 200_000);
/// let big = claude_code_model_window("claude-opus-4-6[1m]", &plain);
/// assert_eq!((big.context_window, big.max_output_tokens, big.output_reserve()), (1_000_000, 64_000, 20_000));
/// // A 3.5 model reserves its whole 8,192-token output limit.
/// assert_eq!(claude_code_model_window("claude-3-5-sonnet-20241022", &plain).output_reserve(), 8_192);
/// // An id no row names: the fallback, and the reason says so.
/// let unknown = claude_code_model_window("my-local-model", &plain);
/// assert!(!unknown.known_model && unknown.output_reason.contains("no row"));
/// ```
pub fn claude_code_model_window(model: &str, overrides: &WindowOverrides) -> ModelWindow {
    let id = model.to_lowercase();
    let (context_window, window_reason) = context_window(&id, overrides);
    let row = MAX_OUTPUT_TABLE
        .iter()
        .find(|row| row.patterns.iter().any(|p| id.contains(p)));
    let known_model = row.is_some();
    let row = row.copied().unwrap_or(OTHER_MODEL_OUTPUT);
    let matched = match row.patterns.iter().find(|p| id.contains(*p)) {
        Some(pattern) => format!("`{pattern}` row"),
        None => String::from("no row of the output table names this id: the fallback row"),
    };
    let mut default = row.default;
    let mut output_reason = format!(
        "{matched}: {} tokens by default, {} at most",
        row.default, row.upper
    );
    if overrides.capped_output_slot && default > CAPPED_DEFAULT_MAX_TOKENS {
        default = CAPPED_DEFAULT_MAX_TOKENS;
        output_reason.push_str(&format!(
            "; the capped output slot lowers the default to {CAPPED_DEFAULT_MAX_TOKENS}"
        ));
    }
    let max_output_tokens = match overrides.max_output_tokens {
        Some(0) => {
            output_reason.push_str("; an output override of 0 is not a limit and is ignored");
            default
        }
        Some(wanted) if wanted > row.upper => {
            output_reason.push_str(&format!(
                "; the output override of {wanted} is cut to the upper limit"
            ));
            row.upper
        }
        Some(wanted) => {
            output_reason.push_str(&format!("; the output override sets {wanted}"));
            wanted
        }
        None => default,
    };
    ModelWindow {
        context_window,
        window_reason,
        max_output_tokens,
        output_upper_limit: row.upper,
        output_reason,
        known_model,
    }
}

/// `getContextWindowForModel`: the first rule that applies, and why.
fn context_window(id: &str, overrides: &WindowOverrides) -> (u64, String) {
    if let Some(tokens) = overrides.max_context_tokens.filter(|&t| t > 0) {
        return (tokens, String::from("the host's window override"));
    }
    let one_million = !overrides.disable_1m_context;
    if one_million && id.contains("[1m]") {
        return (
            ONE_MILLION_CONTEXT_WINDOW,
            String::from("the id ends in `[1m]`: a million-token window"),
        );
    }
    if let Some(limit) = overrides
        .capability_max_input_tokens
        .filter(|&limit| limit >= CAPABILITY_WINDOW_FLOOR)
    {
        if limit > MODEL_CONTEXT_WINDOW_DEFAULT && !one_million {
            return (
                MODEL_CONTEXT_WINDOW_DEFAULT,
                format!("the capability table's {limit} tokens, cut to {MODEL_CONTEXT_WINDOW_DEFAULT} with the 1M context disabled"),
            );
        }
        return (limit, String::from("the capability table's input limit"));
    }
    let takes_beta = ONE_MILLION_BETA_MODELS.iter().any(|p| id.contains(p));
    if one_million && overrides.context_1m_beta && takes_beta {
        return (
            ONE_MILLION_CONTEXT_WINDOW,
            String::from("the 1M beta header, for a model that takes it"),
        );
    }
    let in_experiment = ONE_MILLION_EXPERIMENT_MODELS.iter().any(|p| id.contains(p));
    if one_million && overrides.sonnet_1m_experiment && in_experiment {
        return (
            ONE_MILLION_CONTEXT_WINDOW,
            String::from("the Sonnet 4.6 1M experiment"),
        );
    }
    (
        MODEL_CONTEXT_WINDOW_DEFAULT,
        format!("no rule gives this id a window: the default of {MODEL_CONTEXT_WINDOW_DEFAULT}"),
    )
}

impl WindowOverrides {
    /// The thresholds' input for a window and output limit: the window capped at
    /// `auto_compact_window` when that is positive, and the percentage override.
    ///
    /// # Example
    /// ```
    /// use context_assembly::compact::model_window::WindowOverrides;
    /// use context_assembly::compact::thresholds::{compaction_thresholds, ThresholdFormula};
    /// let overrides = WindowOverrides { auto_compact_window: Some(100_000), ..WindowOverrides::default() };
    /// let input = overrides.window_input(1_000_000, 64_000);
    /// let thresholds = compaction_thresholds(ThresholdFormula::ClaudeCode, &input);
    /// assert_eq!(thresholds.autocompact, 67_000); // 100 000 - 20 000 - 13 000
    /// ```
    pub fn window_input(&self, context_window: u64, max_output_tokens: u64) -> WindowInput {
        let capped = match self.auto_compact_window {
            Some(cap) if cap > 0 => context_window.min(cap),
            _ => context_window,
        };
        WindowInput {
            context_window: capped,
            max_output_tokens,
            autocompact_pct_override: self.autocompact_pct_override,
            auto_compact_token_limit: None,
        }
    }

    /// `thresholds` with the blocking-limit override in place of the computed limit, for a
    /// formula that has one (Codex's has none) and an override that is positive.
    pub fn adjust(&self, thresholds: WindowThresholds) -> WindowThresholds {
        match (thresholds.blocking, self.blocking_limit_override) {
            (Some(_), Some(limit)) if limit > 0 => WindowThresholds {
                blocking: Some(limit),
                ..thresholds
            },
            _ => thresholds,
        }
    }
}
