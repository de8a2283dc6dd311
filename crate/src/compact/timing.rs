//! When auto-compaction runs: at the auto-compact threshold, as Claude Code does (§9.2), or,
//! cache-aware (ours), only when the request no longer fits.
//!
//! A compaction rewrites the start of the conversation, so the request after it pays to
//! write its whole prefix to the prompt cache again (1.25× the input price) where the
//! request before it read that prefix at 0.1×. Compacting at Claude Code's threshold, 13,000
//! tokens before the effective window ends, gives up that cached prefix while the request
//! still fits; with [`CompactionRules::compact_at_blocking_limit`] the session waits until
//! the request reaches the blocking limit (3,000 tokens before the effective window, where
//! the original refuses to send), so every request in between is read from the cache and
//! the session compacts less often over its life. A summary request at that size still
//! fits: its input is the request plus the summary instructions, well under the 3,000 left,
//! and its output has the window's reserve.
//!
//! With [`CompactionRules::prune_when_cache_expires`], one exception: once the cache has
//! expired (no request within its lifetime) the next request writes its prefix anyway, so
//! past the threshold the cheap stage runs then without costing a cache write it would not
//! have paid; a summary still waits until the request no longer fits. The outputs it clears
//! are facts the model loses early, which the recall measure (`scenario::recall`) shows.

use alloc::format;
use alloc::string::String;

use super::policies::thousands;
use super::rules::CompactionRules;
use super::thresholds::WindowThresholds;
use crate::cache::{PriceTable, Ttl};

/// What auto-compaction does before a request, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum AutoCompactStep {
    /// Compact now: the cheap stage first where the profile has one, then the summary.
    Compact(String),
    /// Past the threshold, but the cached prefix is worth more than the room: wait.
    Wait(String),
    /// Past the threshold with the cache expired: run the cheap stage only, since nothing
    /// cached is lost.
    CheapStageOnly(String),
}

/// The facts the timing reads.
#[derive(Debug, Clone, Copy)]
pub struct TimingInput<'a> {
    /// The request's tokens.
    pub tokens: u64,
    /// The session's thresholds.
    pub thresholds: &'a WindowThresholds,
    /// Milliseconds since the last response (`None`: none yet, so nothing is cached).
    pub since_last_response_ms: Option<u64>,
}

/// The prompt cache's lifetime the timing assumes: Anthropic's default, 5 minutes.
pub const CACHE_LIFETIME: Ttl = Ttl::FiveMinutes;

/// What auto-compaction does with a request of `input.tokens`; `None` below the auto-compact
/// threshold, where it does nothing and says nothing.
///
/// # Example
/// ```
/// use context_assembly::compact::rules::CompactionRules;
/// use context_assembly::compact::thresholds::{compaction_thresholds, ThresholdFormula, WindowInput};
/// use context_assembly::compact::timing::{auto_compact_step, AutoCompactStep, TimingInput};
/// let window = WindowInput { context_window: 200_000, max_output_tokens: 20_000, autocompact_pct_override: None, auto_compact_token_limit: None };
/// let thresholds = compaction_thresholds(ThresholdFormula::ClaudeCode, &window);
/// let input = TimingInput { tokens: 170_000, thresholds: &thresholds, since_last_response_ms: Some(1_000) };
/// // Claude Code compacts at 167,000; the cache-aware timing waits for 177,000.
/// assert!(matches!(auto_compact_step(&input, &CompactionRules::claude_code()), Some(AutoCompactStep::Compact(_))));
/// assert!(matches!(auto_compact_step(&input, &CompactionRules::cache_aware()), Some(AutoCompactStep::Wait(_))));
/// ```
pub fn auto_compact_step(input: &TimingInput, rules: &CompactionRules) -> Option<AutoCompactStep> {
    let TimingInput {
        tokens, thresholds, ..
    } = *input;
    if tokens < thresholds.autocompact {
        return None;
    }
    let over = format!(
        "the request's {} tokens reach the auto-compact threshold ({})",
        thousands(tokens),
        thousands(thresholds.autocompact)
    );
    // A formula without a blocking limit (Codex's) leaves nothing to wait for.
    let Some(blocking) = thresholds
        .blocking
        .filter(|_| rules.compact_at_blocking_limit)
    else {
        return Some(AutoCompactStep::Compact(over));
    };
    if tokens >= blocking {
        return Some(AutoCompactStep::Compact(format!(
            "the request's {} tokens reach the blocking limit ({}): it no longer fits without \
             a compaction",
            thousands(tokens),
            thousands(blocking)
        )));
    }
    let lifetime = CACHE_LIFETIME.millis();
    match input.since_last_response_ms {
        Some(since)
            if since >= lifetime && rules.cheap_stage_first && rules.prune_when_cache_expires =>
        {
            Some(AutoCompactStep::CheapStageOnly(format!(
                "{over}, and the prompt cache expired ({} s since the last response, \
                 lifetime {} s): the next request writes its prefix anyway, so the cheap stage \
                 runs now at no cache cost; a summary waits for the blocking limit ({})",
                since / 1_000,
                lifetime / 1_000,
                thousands(blocking)
            )))
        }
        _ => Some(AutoCompactStep::Wait(format!(
            "{over} but stay under the blocking limit ({}): compacting now would rewrite the \
             cached prefix, which this request reads at a tenth of the input price, so \
             compaction waits until the request no longer fits",
            thousands(blocking)
        ))),
    }
}

/// What one way of compacting leaves, for [`choose_compaction`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CompactionOutcome {
    /// Tokens of the request after it.
    pub after: u64,
    /// The summary call it needs, in input-token equivalents at the base price (0 for a
    /// policy that calls no model).
    pub call: u64,
}

/// What the choice between the cheap stage and a summary reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct CycleInput {
    /// Where the next compaction will come (the blocking limit, or the threshold).
    pub trigger: u64,
    /// Tokens the conversation has added per request since the last compaction (or the
    /// session's start).
    pub growth: u64,
}

/// Price multipliers of the prompt cache, in hundredths of the base input price: a cache
/// write (Anthropic's 5-minute writes), a cache read, and an output token, read from the one
/// price table the cost comparison charges Claude Code's profiles
/// ([`PriceTable::claude_sonnet`]: $3.75, $0.30 and $15 against $3 a million).
pub const WRITE_PER_100: u64 = per_100_of_input(SONNET.cache_write_5m_per_mtok);
/// See [`WRITE_PER_100`].
pub const READ_PER_100: u64 = per_100_of_input(SONNET.cached_input_per_mtok);
/// See [`WRITE_PER_100`].
pub const OUTPUT_PER_100: u64 = per_100_of_input(SONNET.output_per_mtok);

const SONNET: PriceTable = PriceTable::claude_sonnet();

/// `per_mtok` in hundredths of the base input price.
const fn per_100_of_input(per_mtok: u64) -> u64 {
    per_mtok * 100 / SONNET.input_per_mtok
}

/// The summary call's cost in input-token equivalents (hundredths): it reads the request's
/// `prefix` from the cache, writes its `instructions` and is billed `output` tokens.
pub fn summary_call_cost(prefix: u64, instructions: u64, output: u64) -> u64 {
    READ_PER_100
        .saturating_mul(prefix)
        .saturating_add(WRITE_PER_100.saturating_mul(instructions))
        .saturating_add(OUTPUT_PER_100.saturating_mul(output))
}

/// A request's cost averaged over the cycle a compaction starts, in hundredths of an input
/// token at the base price: the compaction writes what it leaves to the cache once (and pays
/// its call), then every request until the next compaction reads on average the middle of
/// the cycle from the cache. `None` when the outcome leaves no room before the trigger.
///
/// ```
/// use context_assembly::compact::timing::{cycle_cost_per_request, CompactionOutcome, CycleInput};
/// let cycle = CycleInput { trigger: 49_000, growth: 1_000 };
/// // A summary that leaves 9,000 tokens: 40 requests until the next one.
/// let summary = CompactionOutcome { after: 9_000, call: 600_000 };
/// assert_eq!(cycle_cost_per_request(&summary, &cycle), Some(333_125));
/// assert_eq!(cycle_cost_per_request(&CompactionOutcome { after: 49_000, call: 0 }, &cycle), None);
/// ```
pub fn cycle_cost_per_request(outcome: &CompactionOutcome, cycle: &CycleInput) -> Option<u64> {
    let room = cycle
        .trigger
        .checked_sub(outcome.after)
        .filter(|r| *r > 0)?;
    let once = WRITE_PER_100
        .saturating_mul(outcome.after)
        .saturating_add(outcome.call);
    let requests = (room / cycle.growth.max(1)).max(1);
    let average_read = READ_PER_100.saturating_mul(outcome.after.saturating_add(cycle.trigger) / 2);
    Some(once / requests + average_read)
}

/// Whether the summary is the cheaper way to compact, and why: the cycle cost of each
/// (see [`cycle_cost_per_request`]); the cheap stage wins ties and any case where the summary
/// makes no room.
pub fn choose_compaction(
    cheap: &CompactionOutcome,
    summary: &CompactionOutcome,
    cycle: &CycleInput,
) -> (bool, String) {
    let cheap_cost = cycle_cost_per_request(cheap, cycle);
    let summary_cost = cycle_cost_per_request(summary, cycle);
    let describe = |cost: Option<u64>| match cost {
        Some(cost) => format!("{} input tokens a request", thousands(cost / 100)),
        None => String::from("no room before the next compaction"),
    };
    let summarise = match (cheap_cost, summary_cost) {
        (Some(cheap), Some(summary)) => summary < cheap,
        (None, Some(_)) => true,
        _ => false,
    };
    let reason = format!(
        "the cheap stage leaves {} tokens ({}), a summary {} and a call worth {} input tokens          ({}), counting cache writes at 1.25×, reads at 0.1× and output at 5× over the cycle          to the next compaction at {} with {} tokens added a request: {}",
        thousands(cheap.after),
        describe(cheap_cost),
        thousands(summary.after),
        thousands(summary.call / 100),
        describe(summary_cost),
        thousands(cycle.trigger),
        thousands(cycle.growth),
        match summarise {
            true => "summarising",
            false => "keeping the cheap stage's result",
        }
    );
    (summarise, reason)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compact::thresholds::{compaction_thresholds, ThresholdFormula, WindowInput};

    fn window(formula: ThresholdFormula) -> WindowThresholds {
        let input = WindowInput {
            context_window: 200_000,
            max_output_tokens: 20_000,
            autocompact_pct_override: None,
            auto_compact_token_limit: None,
        };
        compaction_thresholds(formula, &input)
    }

    fn step(tokens: u64, since: Option<u64>, rules: &CompactionRules) -> Option<AutoCompactStep> {
        let thresholds = window(ThresholdFormula::ClaudeCode);
        let input = TimingInput {
            tokens,
            thresholds: &thresholds,
            since_last_response_ms: since,
        };
        auto_compact_step(&input, rules)
    }

    #[test]
    fn below_the_threshold_nothing_happens_under_either_timing() {
        for rules in [
            CompactionRules::claude_code(),
            CompactionRules::recommended(),
        ] {
            assert_eq!(step(166_999, Some(0), &rules), None);
        }
    }

    #[test]
    fn the_original_compacts_at_the_threshold_whatever_the_cache() {
        let Some(AutoCompactStep::Compact(reason)) =
            step(167_000, Some(600_000), &CompactionRules::claude_code())
        else {
            panic!("the original compacts at 167,000")
        };
        assert_eq!(
            reason,
            "the request's 167,000 tokens reach the auto-compact threshold (167,000)"
        );
    }

    #[test]
    fn cache_aware_timing_waits_while_the_request_fits_and_the_cache_is_warm() {
        let rules = CompactionRules::cache_aware();
        let Some(AutoCompactStep::Wait(reason)) = step(176_999, Some(299_999), &rules) else {
            panic!("a warm cache under the blocking limit waits")
        };
        assert!(
            reason.contains("under the blocking limit (177,000)"),
            "{reason}"
        );
        assert!(matches!(
            step(177_000, Some(0), &rules),
            Some(AutoCompactStep::Compact(_))
        ));
    }

    #[test]
    fn without_a_blocking_limit_there_is_nothing_to_wait_for() {
        let thresholds = window(ThresholdFormula::Codex);
        let input = TimingInput {
            tokens: thresholds.autocompact,
            thresholds: &thresholds,
            since_last_response_ms: Some(0),
        };
        assert!(matches!(
            auto_compact_step(&input, &CompactionRules::recommended()),
            Some(AutoCompactStep::Compact(_))
        ));
    }

    #[test]
    fn an_expired_cache_lets_the_cheap_stage_run_early() {
        let rules = CompactionRules::cache_aware();
        let never = CompactionRules {
            prune_when_cache_expires: false,
            ..CompactionRules::cache_aware()
        };
        assert!(matches!(
            step(170_000, Some(300_000), &never),
            Some(AutoCompactStep::Wait(_))
        ));
        let Some(AutoCompactStep::CheapStageOnly(reason)) = step(170_000, Some(300_000), &rules)
        else {
            panic!("an expired cache runs the cheap stage")
        };
        assert!(
            reason.contains("300 s since the last response, lifetime 300 s"),
            "{reason}"
        );
        let without_cheap_stage = CompactionRules {
            cheap_stage_first: false,
            ..rules.clone()
        };
        assert!(matches!(
            step(170_000, Some(300_000), &without_cheap_stage),
            Some(AutoCompactStep::Wait(_))
        ));
        assert!(matches!(
            step(170_000, None, &rules),
            Some(AutoCompactStep::Wait(_))
        ));
    }
}
