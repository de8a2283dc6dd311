//! Token estimation: how many tokens a text costs, without a tokenizer.
//!
//! Four methods, chosen by [`TokenMethod`] (a profile's `token_method`):
//!
//! - **`claude-code`** reproduces Claude Code's rough estimate (spec/claude-code.md §6.1):
//!   `round(UTF-16 length / 4)`, or `/ 2` for the extensions `json`, `jsonl` and `jsonc`, with
//!   JavaScript's `Math.round` (halves round up). It under-counts CJK text by about 55–60 %
//!   because one CJK character is one UTF-16 unit but close to one token (Q43).
//! - **`codex`** reproduces Codex CLI's estimate (spec/codex.md §3.5): `ceil(UTF-8 bytes / 4)`.
//!   CJK characters take three bytes, so it lands near the truth there, but it still
//!   under-counts identifier-heavy output (hashes, UUIDs, timestamps).
//! - **`calibrated`** (our default) is content-aware: one pass over the characters that charges
//!   each one by its script, the run it belongs to (words, digit groups, punctuation,
//!   indentation, line breaks) and whether it starts a new piece for the tokenizer (a letter
//!   after a digit in a hash, a camelCase hump). Its constants were fitted against OpenAI's
//!   o200k_base tokenizer (spec/strategies.md §16), the best public proxy for current models.
//!   It ignores the extension: the same text always costs the same.
//! - **`cl100k`** models cl100k_base, the encoder Continue counts with (spec/strategies.md
//!   §13), without its rank table: `calibrated` plus cl100k's extra cost of CJK characters.
//!   Continue's per-model multiplier is the `continue.counting` policy's.
//!
//! # Why `calibrated` exists
//!
//! Median absolute error against o200k_base on the held-out half of
//! `tests/fixtures/token-corpus` (reproduce with
//! `cargo test -p context-assembly --test token_accuracy -- --nocapture`):
//!
//! | class | samples | calibrated | chars/4 | claude-code (chars/4, json /2) | codex (bytes/4) |
//! |---|--:|--:|--:|--:|--:|
//! | chinese | 6 | 7.5 % (-1.3 %) | 61.6 % (-61.6 %) | 61.6 % (-61.6 %) | 15.9 % (-15.9 %) |
//! | code | 15 | 2.3 % (-0.6 %) | 9.9 % (+9.9 %) | 9.9 % (+9.9 %) | 9.9 % (+9.9 %) |
//! | cyrillic | 3 | 2.9 % (-0.7 %) | 8.8 % (-8.8 %) | 8.8 % (-8.8 %) | 55.8 % (+55.8 %) |
//! | japanese | 6 | 4.4 % (+2.5 %) | 56.3 % (-56.3 %) | 56.3 % (-56.3 %) | 2.6 % (+2.6 %) |
//! | json-minified | 7 | 2.1 % (+1.1 %) | 8.3 % (-4.2 %) | 91.7 % (+91.7 %) | 8.3 % (-3.8 %) |
//! | json-pretty | 8 | 2.5 % (+1.0 %) | 17.9 % (-17.9 %) | 64.1 % (+64.1 %) | 17.9 % (-17.9 %) |
//! | korean | 6 | 5.3 % (+1.0 %) | 51.8 % (-51.8 %) | 51.8 % (-51.8 %) | 4.0 % (-2.3 %) |
//! | latin-accented | 3 | 1.7 % (+1.2 %) | 1.9 % (+1.9 %) | 1.9 % (+1.9 %) | 5.7 % (+5.7 %) |
//! | logs | 8 | 3.6 % (-0.8 %) | 37.6 % (-37.6 %) | 37.6 % (-37.6 %) | 37.6 % (-37.6 %) |
//! | prose | 8 | 3.3 % (+3.3 %) | 13.7 % (+13.7 %) | 13.7 % (+13.7 %) | 13.7 % (+13.7 %) |
//!
//! Each cell is the median absolute error (the median signed error in brackets; negative means
//! under-count). `chars/4` is the rule of thumb; the `claude-code` column is what the original
//! computes with the samples' extensions, so it divides the `.json` samples by 2.
//!
//! Hashes and UUIDs need no feature of their own: the tokenizer splits letters from digits and
//! digit runs into groups of three, so a letter after a digit and every third digit start a new
//! piece, and the fit charges those accordingly. Whitespace runs cost what the tokenizer's merges
//! make of them: 1,000 line feeds are 63 tokens, 1,000 CRLFs 250, 1,000 spaces 9, and code with
//! CRLF line ends, tab indentation or runs of blank lines stays within 7 %, and every run of 1
//! to 600 of one kind is within a token (the cases and their o200k_base counts are in
//! `tests/fixtures/token-whitespace.json`). Outside the corpus's kinds of
//! text the estimate is rougher: base64 blobs under-count by about a third, separators (`-----`)
//! over-count several-fold (the safe direction), whitespace-only lines repeated by the hundred
//! over-count up to 2.7×, and space-aligned columns of short words under-count by about a third.
//!
//! # Never more than one token per byte
//!
//! The calibrated estimate is capped at the text's UTF-8 length: a byte-level tokenizer never
//! spends more than one token on a byte, so no text, however odd, is charged more than its size.
//!
//! The character-count methods are off by more than half on CJK and by more than a third on
//! hash-heavy logs — in the dangerous direction, since an under-count lets a request overflow
//! the context window.
//!
//! # Monotone under appending
//!
//! For every method and all texts `a` and `b`,
//! `estimate_tokens(a + b) >= estimate_tokens(a)`, and the empty text costs 0. The calibrated
//! estimate is a sum of non-negative per-character costs, each depending only on the text before
//! it, rounded up once at the end and capped at the UTF-8 length (the minimum of two monotone
//! counts is monotone), so a budget check made on a prefix stays valid when more text follows.
//! Any non-empty text costs at least 1 with `calibrated`.

mod calibrated;
pub mod sized;

use core::str::FromStr;

use crate::js::utf16_units;
use crate::Error;

/// A token-counting method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum TokenMethod {
    /// Claude Code: `round(UTF-16 length / 4)`; `/ 2` for `json`, `jsonl`, `jsonc` (spec/claude-code.md §6.1, Q43).
    ClaudeCode,
    /// Codex CLI: `ceil(UTF-8 bytes / 4)` (spec/codex.md §3.5).
    Codex,
    /// Content-aware, fitted against o200k_base (spec/strategies.md §16). The default
    /// wherever a host names no method.
    #[default]
    Calibrated,
    /// A model of cl100k_base, Continue's encoder (spec/strategies.md §13): `calibrated` plus
    /// what cl100k spends on CJK beyond o200k. No rank table is bundled.
    Cl100k,
}

impl TokenMethod {
    /// All methods, in the order the playground shows them.
    pub const ALL: [TokenMethod; 4] = [
        TokenMethod::ClaudeCode,
        TokenMethod::Codex,
        TokenMethod::Calibrated,
        TokenMethod::Cl100k,
    ];

    /// The name as users write it.
    pub const fn as_str(self) -> &'static str {
        match self {
            TokenMethod::ClaudeCode => "claude-code",
            TokenMethod::Codex => "codex",
            TokenMethod::Calibrated => "calibrated",
            TokenMethod::Cl100k => "cl100k",
        }
    }
}

impl FromStr for TokenMethod {
    type Err = Error;

    /// Parses a method name.
    ///
    /// # Errors
    /// [`Error::UnknownTokenMethod`] for anything but `claude-code`, `codex`, `calibrated` and
    /// `cl100k` (names are case-sensitive).
    ///
    /// # Example
    /// ```
    /// use context_assembly::tokens::TokenMethod;
    /// assert_eq!("calibrated".parse::<TokenMethod>().unwrap(), TokenMethod::Calibrated);
    /// assert!("Codex".parse::<TokenMethod>().is_err());
    /// ```
    fn from_str(s: &str) -> Result<Self, Error> {
        TokenMethod::ALL
            .into_iter()
            .find(|m| m.as_str() == s)
            .ok_or_else(|| Error::UnknownTokenMethod { given: s.into() })
    }
}

/// Estimates the tokens of `text` with `method`.
///
/// `ext` is the file extension the text came from, with or without its leading dot; only
/// `claude-code` reads it (`json`, `jsonl` and `jsonc` count two UTF-16 units per token, matched
/// case-sensitively as Claude Code does).
///
/// # Example
/// ```
/// use context_assembly::tokens::{estimate_tokens, TokenMethod};
/// // Claude Code rounds halves up, counts UTF-16 units and halves the divisor for JSON.
/// assert_eq!(estimate_tokens("ab", TokenMethod::ClaudeCode, None), 1);
/// assert_eq!(estimate_tokens("{}", TokenMethod::ClaudeCode, Some(".json")), 1);
/// // Four CJK characters are four UTF-16 units but twelve UTF-8 bytes.
/// assert_eq!(estimate_tokens("日本語版", TokenMethod::ClaudeCode, None), 1);
/// assert_eq!(estimate_tokens("日本語版", TokenMethod::Codex, None), 3);
/// // Empty text is free; anything else costs at least one calibrated token.
/// assert_eq!(estimate_tokens("", TokenMethod::Calibrated, None), 0);
/// assert_eq!(estimate_tokens(" ", TokenMethod::Calibrated, None), 1);
/// // cl100k: calibrated, plus 0.3 of a token per Han character (rounded up once).
/// let calibrated = estimate_tokens("日本語版", TokenMethod::Calibrated, None);
/// assert_eq!(estimate_tokens("日本語版", TokenMethod::Cl100k, None), calibrated + 2);
/// assert_eq!(estimate_tokens("let x = 1;", TokenMethod::Cl100k, None), estimate_tokens("let x = 1;", TokenMethod::Calibrated, None));
/// ```
pub fn estimate_tokens(text: &str, method: TokenMethod, ext: Option<&str>) -> u64 {
    match method {
        TokenMethod::ClaudeCode => {
            let units_per_token = if is_json_ext(ext) { 2 } else { 4 };
            // Math.round(n / d) for n >= 0 is floor((n + d/2) / d): halves round up.
            (utf16_units(text) + units_per_token / 2) / units_per_token
        }
        TokenMethod::Codex => (text.len() as u64).div_ceil(4),
        TokenMethod::Calibrated => calibrated::estimate(text),
        TokenMethod::Cl100k => cl100k_estimate(text),
    }
}

/// The `cl100k` method: the calibrated estimate stands for cl100k on code, prose and JSON,
/// where cl100k and o200k agree within 1.5 % (spec/strategies.md §16.2); on CJK cl100k spends
/// more (§16.2: about 0.3 tokens per Han or kana character, 0.4 per Hangul syllable), which
/// is added, rounded up. Capped at the UTF-8 length, like `calibrated`.
fn cl100k_estimate(text: &str) -> u64 {
    let extra_tenths: u64 = text.chars().map(cl100k_extra_tenths).sum();
    let estimate = calibrated::estimate(text) + extra_tenths.div_ceil(10);
    estimate.min(text.len() as u64)
}

/// What cl100k spends on `c` beyond o200k, in tenths of a token.
fn cl100k_extra_tenths(c: char) -> u64 {
    match c as u32 {
        0xAC00..=0xD7A3 | 0x1100..=0x11FF | 0x3130..=0x318F => 4,
        0x3040..=0x30FF | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xF900..=0xFAFF => 3,
        _ => 0,
    }
}

/// A letter or digit that every method counts exactly as `c`, wherever it stands in a
/// text: the same UTF-8 and UTF-16 lengths, and for `calibrated` the same class (lower- or
/// upper-case ASCII, digit, accented Latin, other alphabet, Han, kana, Hangul). `pick`
/// chooses among the candidates; `c` itself comes back for anything else (spaces,
/// punctuation, symbols), so replacing every character of a text with its stand-in keeps
/// every estimate of it, line by line. Redaction builds its placeholders from it.
///
/// # Example
/// ```
/// use context_assembly::tokens::{estimate_tokens, stand_in, TokenMethod};
/// let text = "fn naïve_日本(x: u32) -> Ok";
/// let masked: String = text.chars().enumerate().map(|(i, c)| stand_in(c, i as u32 * 7)).collect();
/// assert_ne!(masked, text);
/// for method in TokenMethod::ALL {
///     assert_eq!(estimate_tokens(&masked, method, None), estimate_tokens(text, method, None));
/// }
/// assert_eq!(stand_in('-', 3), '-');
/// ```
pub fn stand_in(c: char, pick: u32) -> char {
    calibrated::stand_in(c, pick).unwrap_or(c)
}

fn is_json_ext(ext: Option<&str>) -> bool {
    let Some(ext) = ext else { return false };
    let ext = ext.strip_prefix('.').unwrap_or(ext);
    matches!(ext, "json" | "jsonl" | "jsonc")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_host_that_names_no_method_gets_the_calibrated_one() {
        assert_eq!(TokenMethod::default(), TokenMethod::Calibrated);
    }

    #[test]
    fn json_extensions_accept_a_leading_dot_only() {
        assert!(is_json_ext(Some("json")));
        assert!(is_json_ext(Some(".jsonl")));
        assert!(is_json_ext(Some("jsonc")));
        assert!(!is_json_ext(Some("JSON")));
        assert!(!is_json_ext(Some("..json")));
        assert!(!is_json_ext(Some("")));
        assert!(!is_json_ext(None));
    }

    #[test]
    fn names_round_trip() {
        for method in TokenMethod::ALL {
            assert_eq!(method.as_str().parse::<TokenMethod>().ok(), Some(method));
        }
        assert!(matches!(
            "bytes/4".parse::<TokenMethod>(),
            Err(Error::UnknownTokenMethod { .. })
        ));
    }

    #[test]
    fn cl100k_charges_cjk_more_than_calibrated_and_nothing_else() {
        let more = |text: &str| {
            estimate_tokens(text, TokenMethod::Cl100k, None)
                - estimate_tokens(text, TokenMethod::Calibrated, None)
        };
        // 10 Han or kana characters: 3 more; 10 Hangul syllables: 4 more.
        assert_eq!(more("上下文管理上下文管理"), 3);
        assert_eq!(more("ひらがなカタカナです"), 3);
        assert_eq!(more("한국어문장한국어문장"), 4);
        assert_eq!(more("fn main() { let café = 1; }"), 0);
        assert_eq!(estimate_tokens("", TokenMethod::Cl100k, None), 0);
    }
}
