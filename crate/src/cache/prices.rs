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

/// The keys of a price table in JSON, in the order they are documented.
#[cfg(feature = "serde")]
pub const PRICE_KEYS: &[&str] = &[
    "inputPerMTok",
    "cachedInputPerMTok",
    "cacheWrite5mPerMTok",
    "cacheWrite1hPerMTok",
    "outputPerMTok",
];

/// Reads a price table from JSON: an object with every key of [`PRICE_KEYS`], each a whole
/// number of micro-dollars per million tokens.
///
/// # Errors
/// [`Error::InvalidConfig`](crate::Error::InvalidConfig) whose `field` is `prices` or
/// `prices.<key>`: invalid JSON, not an object, an unknown key (named, with the keys
/// allowed), a missing key, or a value that is not a whole number from 0 to 2^53 − 1.
///
/// # Example
/// ```
/// use context_assembly::cache::parse_price_table;
/// let err = parse_price_table(r#"{"inputPerMTok2": 3000000}"#).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "prices.inputPerMTok2: unknown field; expected one of \"inputPerMTok\", \
///      \"cachedInputPerMTok\", \"cacheWrite5mPerMTok\", \"cacheWrite1hPerMTok\", \"outputPerMTok\""
/// );
/// // Prices are integers: $0.30 / MTok is written 300000, not 0.3.
/// let err = parse_price_table(
///     r#"{"inputPerMTok": 3000000, "cachedInputPerMTok": 0.3, "cacheWrite5mPerMTok": 3750000,
///         "cacheWrite1hPerMTok": 6000000, "outputPerMTok": 15000000}"#,
/// )
/// .unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "prices.cachedInputPerMTok: expected a whole number from 0 to 9007199254740991, got 0.3"
/// );
/// ```
#[cfg(feature = "serde")]
pub fn parse_price_table(json: &str) -> Result<PriceTable, crate::Error> {
    use alloc::format;
    use serde_json::Value;

    let error = |field: &str, reason: alloc::string::String| crate::Error::InvalidConfig {
        field: if field.is_empty() {
            "prices".into()
        } else {
            format!("prices.{field}")
        },
        reason,
    };
    let tree: Value =
        serde_json::from_str(json).map_err(|err| error("", format!("invalid JSON: {err}")))?;
    let Value::Object(map) = &tree else {
        return Err(error(
            "",
            format!("expected an object, got {}", kind(&tree)),
        ));
    };
    if let Some(key) = map.keys().find(|key| !PRICE_KEYS.contains(&key.as_str())) {
        let allowed: alloc::vec::Vec<alloc::string::String> =
            PRICE_KEYS.iter().map(|key| format!("{key:?}")).collect();
        let reason = format!("unknown field; expected one of {}", allowed.join(", "));
        // A key that would not read as a field name is quoted, as scenario paths do.
        return Err(if is_identifier(key) {
            error(key, reason)
        } else {
            crate::Error::InvalidConfig {
                field: format!("prices[{key:?}]"),
                reason,
            }
        });
    }
    let price = |key: &str| -> Result<u64, crate::Error> {
        const MAX: u64 = (1 << 53) - 1;
        match map.get(key) {
            None => Err(error(key, "required field is missing".into())),
            Some(Value::Number(n)) => n.as_u64().filter(|&n| n <= MAX).ok_or_else(|| {
                error(
                    key,
                    format!("expected a whole number from 0 to {MAX}, got {n}"),
                )
            }),
            Some(other) => Err(error(
                key,
                format!(
                    "expected a whole number from 0 to {MAX}, got {}",
                    kind(other)
                ),
            )),
        }
    };
    Ok(PriceTable {
        input_per_mtok: price("inputPerMTok")?,
        cached_input_per_mtok: price("cachedInputPerMTok")?,
        cache_write_5m_per_mtok: price("cacheWrite5mPerMTok")?,
        cache_write_1h_per_mtok: price("cacheWrite1hPerMTok")?,
        output_per_mtok: price("outputPerMTok")?,
    })
}

#[cfg(feature = "serde")]
fn kind(value: &serde_json::Value) -> &'static str {
    use serde_json::Value;
    match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    }
}

#[cfg(feature = "serde")]
fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    key.len() <= 40
        && chars
            .next()
            .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

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

    #[cfg(feature = "serde")]
    mod parse {
        use super::super::*;
        use alloc::string::ToString;

        const SONNET: &str = r#"{"inputPerMTok":3000000,"cachedInputPerMTok":300000,
            "cacheWrite5mPerMTok":3750000,"cacheWrite1hPerMTok":6000000,"outputPerMTok":15000000}"#;

        fn message(json: &str) -> alloc::string::String {
            parse_price_table(json).unwrap_err().to_string()
        }

        #[test]
        fn a_complete_table_reads_back_the_default() {
            assert_eq!(parse_price_table(SONNET), Ok(PriceTable::claude_sonnet()));
            let serialised = serde_json::to_string(&PriceTable::claude_sonnet()).unwrap();
            assert_eq!(
                parse_price_table(&serialised),
                Ok(PriceTable::claude_sonnet())
            );
        }

        #[test]
        fn every_error_names_its_field() {
            assert!(message("[1]").starts_with("prices: expected an object, got array"));
            assert!(message("{").starts_with("prices: invalid JSON: "));
            assert_eq!(
                message(r#"{"inputPerMTok":1}"#),
                "prices.cachedInputPerMTok: required field is missing"
            );
            assert_eq!(
                message(&SONNET.replace("15000000", "-1")),
                "prices.outputPerMTok: expected a whole number from 0 to 9007199254740991, got -1"
            );
            assert_eq!(
                message(&SONNET.replace("15000000", "\"15\"")),
                "prices.outputPerMTok: expected a whole number from 0 to 9007199254740991, got string"
            );
            assert!(message(r#"{"a b":1}"#).starts_with(r#"prices["a b"]: unknown field"#));
        }
    }
}
