//! What tokens cost: a model's price table, in integers, and its JSON form.

use super::StepCost;

/// A model's prices, in micro-dollars (millionths of a US dollar) per million tokens:
/// $3 / MTok is `3_000_000`. Integers, so that costs are exact and the same everywhere.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(deny_unknown_fields))]
pub struct PriceTable {
    /// Base input tokens (uncached).
    #[cfg_attr(feature = "serde", serde(rename = "inputPerMTok"))]
    pub input_per_mtok: u64,
    /// Input tokens read from the cache (Anthropic "cache hits & refreshes", OpenAI
    /// "cached input").
    #[cfg_attr(feature = "serde", serde(rename = "cachedInputPerMTok"))]
    pub cached_input_per_mtok: u64,
    /// Tokens written to the cache with the 5-minute TTL (Anthropic only).
    #[cfg_attr(feature = "serde", serde(rename = "cacheWrite5mPerMTok"))]
    pub cache_write_5m_per_mtok: u64,
    /// Tokens written to the cache with the 1-hour TTL (Anthropic only).
    #[cfg_attr(feature = "serde", serde(rename = "cacheWrite1hPerMTok"))]
    pub cache_write_1h_per_mtok: u64,
    /// Output tokens.
    #[cfg_attr(feature = "serde", serde(rename = "outputPerMTok"))]
    pub output_per_mtok: u64,
}

impl PriceTable {
    /// Claude Sonnet 4.5 (the same as Sonnet 4.6, 4 and 3.7): $3 input, $0.30 cache hits,
    /// $3.75 5-minute writes, $6 1-hour writes, $15 output per million tokens.
    ///
    /// Source: the pricing table of Anthropic's "Prompt caching" page,
    /// <https://platform.claude.com/docs/en/build-with-claude/prompt-caching>, read on
    /// 2026-11-29 (stored copy, undated); the same figures for Sonnet 4 on
    /// <https://docs.anthropic.com/en/docs/about-claude/pricing>. The long-context rates
    /// (over 200K input tokens) are not modelled.
    pub const fn claude_sonnet() -> Self {
        PriceTable {
            input_per_mtok: 3_000_000,
            cached_input_per_mtok: 300_000,
            cache_write_5m_per_mtok: 3_750_000,
            cache_write_1h_per_mtok: 6_000_000,
            output_per_mtok: 15_000_000,
        }
    }

    /// GPT-5 and GPT-5-Codex: $1.25 input, $0.125 cached input, $10 output per million
    /// tokens. OpenAI charges no premium for writes, so both write prices equal the input
    /// price (and nothing is ever written under [`Provider::OpenAi`](super::Provider)).
    ///
    /// Source: OpenAI's model page, <https://developers.openai.com/api/docs/models/gpt-5-codex>,
    /// read on 2026-11-29 (stored copy, undated; it marks `gpt-5-codex` as shut down, its
    /// successors GPT-5.2/5.3-Codex list $1.75 / $0.175 / $14).
    pub const fn openai_gpt5() -> Self {
        PriceTable {
            input_per_mtok: 1_250_000,
            cached_input_per_mtok: 125_000,
            cache_write_5m_per_mtok: 1_250_000,
            cache_write_1h_per_mtok: 1_250_000,
            output_per_mtok: 10_000_000,
        }
    }

    /// The cost of `step` in micro-dollars, writes at `write_per_mtok`: every product
    /// summed exactly, then divided once, rounding halves up.
    pub(super) fn cost_micro_usd(&self, step: &StepCost, write_per_mtok: u64) -> u64 {
        let product = |tokens: u64, per_mtok: u64| u128::from(tokens) * u128::from(per_mtok);
        let total = product(step.cached, self.cached_input_per_mtok)
            + product(step.written, write_per_mtok)
            + product(step.uncached, self.input_per_mtok)
            + product(step.output, self.output_per_mtok);
        u64::try_from((total + 500_000) / 1_000_000).unwrap_or(u64::MAX)
    }
}

/// The keys of a price table in JSON, in the order they are documented (a comparison's
/// `options.prices.<profile>`, read by `scenario::parse_compare_options`).
#[cfg(feature = "serde")]
pub const PRICE_KEYS: &[&str] = &[
    "inputPerMTok",
    "cachedInputPerMTok",
    "cacheWrite5mPerMTok",
    "cacheWrite1hPerMTok",
    "outputPerMTok",
];

#[cfg(test)]
mod tests {
    use super::*;

    fn step(cached: u64, written: u64, uncached: u64, output: u64) -> StepCost {
        StepCost {
            sent: cached + written + uncached,
            cached,
            written,
            uncached,
            output,
            cost_micro_usd: 0,
        }
    }

    #[test]
    fn costs_round_halves_up_once_per_step() {
        let prices = PriceTable::openai_gpt5();
        // 1 cached token is 0.125 µ$: rounds to 0; 4 of them are 0.5 µ$: round to 1.
        assert_eq!(prices.cost_micro_usd(&step(1, 0, 0, 0), 0), 0);
        assert_eq!(prices.cost_micro_usd(&step(4, 0, 0, 0), 0), 1);
        // 1,536 cached + 414 uncached + 40 output = 192 + 517.5 + 400 = 1,109.5 µ$.
        assert_eq!(prices.cost_micro_usd(&step(1_536, 0, 414, 40), 0), 1_110);
    }

    #[test]
    fn the_write_rate_is_the_callers() {
        let prices = PriceTable::claude_sonnet();
        let written = step(0, 1_000_000, 0, 0);
        assert_eq!(prices.cost_micro_usd(&written, 3_750_000), 3_750_000);
        assert_eq!(prices.cost_micro_usd(&written, 6_000_000), 6_000_000);
    }

    #[test]
    fn huge_counts_saturate_instead_of_overflowing() {
        let prices = PriceTable {
            output_per_mtok: u64::MAX,
            ..PriceTable::claude_sonnet()
        };
        assert_eq!(prices.cost_micro_usd(&step(0, 0, 0, u64::MAX), 0), u64::MAX);
    }
}
