//! Codex's head-and-tail truncation and its 4-bytes-per-token estimate (spec codex.md §3.1–§3.4).
//!
//! Codex never cuts the end of a text: it keeps a head and a tail of equal byte budgets and puts an
//! inline marker between them, `…{N} tokens truncated…` or `…{N} chars truncated…` (U+2026, no
//! newline or space around it). Tool outputs pass through it twice (X15): once when the tool
//! formats its output, at the model's policy, and again when the output is recorded into history,
//! at 1.2 × the policy.
//!
//! ```
//! use context_assembly::codex::truncate::{truncate_middle, TruncationPolicy};
//! let cut = truncate_middle("abcdefghijklmnopqrstuvwxyz", TruncationPolicy::Bytes(10));
//! assert_eq!(cut.text, "abcde…16 chars truncated…vwxyz");
//! ```

use alloc::format;
use alloc::string::String;
use core::fmt::Write;

use crate::Error;

/// Bytes Codex counts as one token (§3.1).
pub const APPROX_BYTES_PER_TOKEN: u64 = 4;

/// The longest user input Codex accepts, in characters: `1 << 20` (§3.4, X25).
pub const MAX_USER_INPUT_TEXT_CHARS: usize = 1 << 20;

/// The limit of every policy in Codex's model catalogue (§3.2).
pub const DEFAULT_TRUNCATION_LIMIT: u64 = 10_000;

/// The models of snapshot \[B\]'s catalogue that truncate in tokens mode (§3.2). `gpt-5.2` is in
/// the catalogue with bytes mode; any slug not listed here is unknown and gets bytes mode too.
pub const TOKENS_MODE_MODELS: &[&str] = &["gpt-5.5", "gpt-5.4", "gpt-5.4-mini", "gpt-5.3-codex"];

/// Codex's token estimate of a text: its UTF-8 length divided by 4, rounded up (§3.1).
pub fn approx_token_count(text: &str) -> u64 {
    bytes_to_tokens(len_u64(text))
}

/// The byte budget Codex gives `tokens` tokens: `tokens × 4`, saturating (§3.1).
pub const fn approx_bytes_for_tokens(tokens: u64) -> u64 {
    tokens.saturating_mul(APPROX_BYTES_PER_TOKEN)
}

/// `ceil(bytes / 4)`.
pub(crate) const fn bytes_to_tokens(bytes: u64) -> u64 {
    bytes.div_ceil(APPROX_BYTES_PER_TOKEN)
}

pub(crate) fn len_u64(text: &str) -> u64 {
    u64::try_from(text.len()).unwrap_or(u64::MAX)
}

/// How much of a text a truncation keeps, and how its marker counts what it removed (§3.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(
    feature = "serde",
    serde(tag = "mode", content = "limit", rename_all = "lowercase")
)]
pub enum TruncationPolicy {
    /// Keep at most this many bytes; the marker counts removed characters.
    Bytes(u64),
    /// Keep at most 4 × this many bytes; the marker estimates removed tokens from bytes.
    Tokens(u64),
}

impl TruncationPolicy {
    /// The bytes kept: `Bytes(n)` → `n`, `Tokens(n)` → `4n`.
    pub const fn byte_budget(self) -> u64 {
        match self {
            TruncationPolicy::Bytes(bytes) => bytes,
            TruncationPolicy::Tokens(tokens) => approx_bytes_for_tokens(tokens),
        }
    }

    /// The tokens kept: `Bytes(n)` → `ceil(n / 4)`, `Tokens(n)` → `n`.
    pub const fn token_budget(self) -> u64 {
        match self {
            TruncationPolicy::Bytes(bytes) => bytes_to_tokens(bytes),
            TruncationPolicy::Tokens(tokens) => tokens,
        }
    }

    /// The same mode with its limit multiplied by `numerator / denominator`, rounded up, as Codex
    /// multiplies a policy by a float and takes the ceiling (§3.1). The record-time 1.2 × pass is
    /// `scaled(6, 5)`; integer arithmetic gives the float's result for every limit below 50 million
    /// (checked exhaustively). A zero denominator leaves the policy unchanged.
    ///
    /// # Example
    /// ```
    /// use context_assembly::codex::truncate::TruncationPolicy;
    /// let record = TruncationPolicy::Tokens(10_000).scaled(6, 5);
    /// assert_eq!(record, TruncationPolicy::Tokens(12_000));
    /// assert_eq!(record.byte_budget(), 48_000);
    /// assert_eq!(TruncationPolicy::Bytes(7).scaled(6, 5), TruncationPolicy::Bytes(9));
    /// ```
    pub const fn scaled(self, numerator: u64, denominator: u64) -> TruncationPolicy {
        if denominator == 0 {
            return self;
        }
        match self {
            TruncationPolicy::Bytes(bytes) => {
                TruncationPolicy::Bytes(bytes.saturating_mul(numerator).div_ceil(denominator))
            }
            TruncationPolicy::Tokens(tokens) => {
                TruncationPolicy::Tokens(tokens.saturating_mul(numerator).div_ceil(denominator))
            }
        }
    }

    /// The config override `tool_output_token_limit`: the new limit in tokens, the mode kept
    /// (bytes mode takes `4 × tokens` bytes, §3.2).
    pub const fn with_token_limit(self, tokens: u64) -> TruncationPolicy {
        match self {
            TruncationPolicy::Bytes(_) => TruncationPolicy::Bytes(approx_bytes_for_tokens(tokens)),
            TruncationPolicy::Tokens(_) => TruncationPolicy::Tokens(tokens),
        }
    }

    /// The policy used when a tool output is recorded into history: 1.2 × this one (§3.3 item 2).
    pub const fn for_record(self) -> TruncationPolicy {
        self.scaled(6, 5)
    }
}

/// The truncation policy of a model (§3.2): `Tokens(10_000)` for the catalogue's models,
/// `Bytes(10_000)` for `gpt-5.2` and for any model the catalogue does not know.
///
/// # Example
/// ```
/// use context_assembly::codex::truncate::{truncation_policy_for_model, TruncationPolicy};
/// assert_eq!(truncation_policy_for_model("gpt-5.5"), TruncationPolicy::Tokens(10_000));
/// assert_eq!(truncation_policy_for_model("gpt-5.2"), TruncationPolicy::Bytes(10_000));
/// assert_eq!(truncation_policy_for_model("my-local-llm"), TruncationPolicy::Bytes(10_000));
/// ```
pub fn truncation_policy_for_model(slug: &str) -> TruncationPolicy {
    if TOKENS_MODE_MODELS.contains(&slug) {
        TruncationPolicy::Tokens(DEFAULT_TRUNCATION_LIMIT)
    } else {
        TruncationPolicy::Bytes(DEFAULT_TRUNCATION_LIMIT)
    }
}

/// A text after [`truncate_middle`], with what was taken out of it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Truncated {
    /// Head + marker + tail, or the input unchanged.
    pub text: String,
    /// Bytes of the input left out.
    pub removed_bytes: u64,
    /// Characters of the input left out.
    pub removed_chars: u64,
    /// The `N` the marker shows; `None` when nothing was cut.
    pub marker_count: Option<u64>,
}

impl Truncated {
    /// Whether the text was cut.
    pub fn was_truncated(&self) -> bool {
        self.marker_count.is_some()
    }

    fn unchanged(text: &str) -> Truncated {
        Truncated {
            text: String::from(text),
            removed_bytes: 0,
            removed_chars: 0,
            marker_count: None,
        }
    }
}

/// Codex's `truncate_text` (§3.1): an empty text or one within the byte budget `B` is unchanged;
/// with `B = 0` the output is the marker alone; otherwise the head is the longest prefix ending
/// at or before byte `⌊B/2⌋`, the tail starts at the first char boundary at or after byte
/// `len − (B − ⌊B/2⌋)`, and the marker sits between them. The marker's `N` is `ceil((len − B) / 4)` in tokens
/// mode (an estimate, even when a multi-byte character made the cut larger) and the number of
/// characters actually removed in bytes mode.
///
/// # Example
/// ```
/// use context_assembly::codex::truncate::{truncate_middle, TruncationPolicy};
/// // "é" is two bytes: the head stops before it rather than split it.
/// let cut = truncate_middle("aébcdefgh", TruncationPolicy::Tokens(1));
/// assert_eq!(cut.text, "a…2 tokens truncated…gh");
/// // A zero budget leaves the marker alone.
/// assert_eq!(truncate_middle("hello", TruncationPolicy::Bytes(0)).text, "…5 chars truncated…");
/// ```
pub fn truncate_middle(text: &str, policy: TruncationPolicy) -> Truncated {
    let len = len_u64(text);
    let budget = policy.byte_budget();
    if text.is_empty() || (budget > 0 && len <= budget) {
        return Truncated::unchanged(text);
    }
    let left = budget / 2;
    let right = budget - left;
    let head_end = floor_boundary(text, left);
    let tail_start = ceil_boundary(text, len.saturating_sub(right)).max(head_end);
    let (head, rest) = text.split_at(head_end);
    let (removed, tail) = rest.split_at(tail_start - head_end);
    let removed_chars = u64::try_from(removed.chars().count()).unwrap_or(u64::MAX);
    let count = match policy {
        TruncationPolicy::Tokens(_) => bytes_to_tokens(len - budget),
        TruncationPolicy::Bytes(_) => removed_chars,
    };
    let mut out = String::with_capacity(head.len() + tail.len() + 32);
    out.push_str(head);
    push_marker(&mut out, policy, count);
    out.push_str(tail);
    Truncated {
        text: out,
        removed_bytes: len_u64(removed),
        removed_chars,
        marker_count: Some(count),
    }
}

/// The inline marker for `count` removed units: `…{N} tokens truncated…` or `…{N} chars truncated…`.
pub fn truncation_marker(policy: TruncationPolicy, count: u64) -> String {
    let mut out = String::new();
    push_marker(&mut out, policy, count);
    out
}

fn push_marker(out: &mut String, policy: TruncationPolicy, count: u64) {
    let unit = match policy {
        TruncationPolicy::Tokens(_) => "tokens",
        TruncationPolicy::Bytes(_) => "chars",
    };
    let _ = write!(out, "\u{2026}{count} {unit} truncated\u{2026}");
}

/// The largest char boundary at or below `at` bytes.
fn floor_boundary(text: &str, at: u64) -> usize {
    let mut index = usize::try_from(at).unwrap_or(usize::MAX).min(text.len());
    while !text.is_char_boundary(index) {
        index -= 1;
    }
    index
}

/// The smallest char boundary at or above `at` bytes.
fn ceil_boundary(text: &str, at: u64) -> usize {
    let mut index = usize::try_from(at).unwrap_or(usize::MAX).min(text.len());
    while !text.is_char_boundary(index) {
        index += 1;
    }
    index
}

/// `formatted_truncate_text` (§3.3, used by the user shell and unified exec): a text over the
/// byte budget is middle-truncated and prefixed with `Total output lines: {N}\n\n`, where `N`
/// counts the original's lines as Rust's `str::lines` does.
///
/// # Example
/// ```
/// use context_assembly::codex::truncate::{formatted_truncate_text, TruncationPolicy};
/// assert_eq!(formatted_truncate_text("ok\n", TruncationPolicy::Bytes(3)), "ok\n");
/// assert_eq!(
///     formatted_truncate_text("one\ntwo\nsix\n", TruncationPolicy::Bytes(8)),
///     "Total output lines: 3\n\none\n…4 chars truncated…six\n"
/// );
/// ```
pub fn formatted_truncate_text(text: &str, policy: TruncationPolicy) -> String {
    formatted_truncate_text_as(text, policy, false)
}

/// [`formatted_truncate_text`], and with `warn` (snapshot \[C\], §10.11) the prefix opens
/// with `Warning: truncated output (original token count: {T})\n`, `T` the whole text's
/// 4-bytes-per-token estimate.
///
/// # Example
/// ```
/// use context_assembly::codex::truncate::{formatted_truncate_text_as, TruncationPolicy};
/// assert_eq!(
///     formatted_truncate_text_as("one\ntwo\nsix\n", TruncationPolicy::Bytes(8), true),
///     "Warning: truncated output (original token count: 3)\nTotal output lines: 3\n\none\n…4 chars truncated…six\n"
/// );
/// ```
pub fn formatted_truncate_text_as(text: &str, policy: TruncationPolicy, warn: bool) -> String {
    if len_u64(text) <= policy.byte_budget() {
        return String::from(text);
    }
    let lines = text.lines().count();
    let warning = match warn {
        true => format!(
            "Warning: truncated output (original token count: {})\n",
            approx_token_count(text)
        ),
        false => String::new(),
    };
    format!(
        "{warning}Total output lines: {lines}\n\n{}",
        truncate_middle(text, policy).text
    )
}

/// The shell tool's output as the model reads it (§3.3 item 1):
///
/// ```text
/// Exit code: {n}
/// Wall time: {seconds, to 0.1} seconds
/// Total output lines: {N}      ← only when truncation changed the line count
/// Output:
/// {output, middle-truncated with the policy}
/// ```
///
/// The wall time is rounded half up to tenths of a second and printed as Rust prints the
/// original's `f32` (`2` rather than `2.0`). Integer rounding gives the original's text for
/// every wall time below 13 108 seconds (checked millisecond by millisecond); past that the
/// original's `f32` loses tenths. A timed-out command's output is built with
/// [`timed_out_shell_output`] first.
///
/// # Example
/// ```
/// use context_assembly::codex::truncate::{format_shell_output, TruncationPolicy};
/// let text = format_shell_output(0, 2_000, "a\nb\nc\nd\n", TruncationPolicy::Bytes(4));
/// assert_eq!(
///     text,
///     "Exit code: 0\nWall time: 2 seconds\nTotal output lines: 4\nOutput:\na\n…4 chars truncated…d\n"
/// );
/// ```
pub fn format_shell_output(
    exit_code: i32,
    wall_time_ms: u64,
    output: &str,
    policy: TruncationPolicy,
) -> String {
    let total_lines = output.lines().count();
    let formatted = truncate_middle(output, policy).text;
    let mut out = format!(
        "Exit code: {exit_code}\nWall time: {} seconds\n",
        tenths_of_seconds(wall_time_ms)
    );
    if formatted.lines().count() != total_lines {
        let _ = writeln!(out, "Total output lines: {total_lines}");
    }
    out.push_str("Output:\n");
    out.push_str(&formatted);
    out
}

/// The `exec_command` tool's output as the model reads it (Codex 0.139.0's unified exec, which
/// replaced the `shell` tool; the layout is the one the conformance lab recorded):
///
/// ```text
/// Chunk ID: {chunk_id}
/// Wall time: {seconds, 4 decimals} seconds
/// Process exited with code {n}
/// Original token count: {the whole output's 4-bytes-per-token estimate}
/// Output:
/// {output after formatted_truncate_text at the policy}
/// ```
///
/// The cut happens here, at the policy itself (10,000 tokens for the catalogue's models), so
/// the record-time pass at 1.2 × the policy ([`truncate_for_record`]) finds nothing left to cut.
/// `chunk_id` is six lowercase hex digits in the original, random per read; the caller
/// chooses it (the library has no randomness).
///
/// # Example
/// ```
/// use context_assembly::codex::truncate::{exec_command_output, TruncationPolicy};
/// let text = exec_command_output("0a1b2c", 96, 3, "a\nb\n", TruncationPolicy::Tokens(10_000));
/// assert_eq!(
///     text,
///     "Chunk ID: 0a1b2c\nWall time: 0.0960 seconds\nProcess exited with code 3\n\
///      Original token count: 1\nOutput:\na\nb\n"
/// );
/// ```
pub fn exec_command_output(
    chunk_id: &str,
    wall_time_ms: u64,
    exit_code: i32,
    output: &str,
    policy: TruncationPolicy,
) -> String {
    exec_command_output_as(chunk_id, (wall_time_ms, exit_code), output, policy, false)
}

/// [`exec_command_output`] with `(wall_time_ms, exit_code)`, and with `warn` the body cut as
/// [`formatted_truncate_text_as`] does in snapshot \[C\].
pub fn exec_command_output_as(
    chunk_id: &str,
    (wall_time_ms, exit_code): (u64, i32),
    output: &str,
    policy: TruncationPolicy,
    warn: bool,
) -> String {
    format!(
        "Chunk ID: {chunk_id}\nWall time: {}.{:04} seconds\nProcess exited with code {exit_code}\n\
         Original token count: {}\nOutput:\n{}",
        wall_time_ms / 1000,
        (wall_time_ms % 1000) * 10,
        approx_token_count(output),
        formatted_truncate_text_as(output, policy, warn)
    )
}

/// A timed-out command's output before formatting: `command timed out after {ms} milliseconds\n`
/// then what it printed (§3.3 item 1).
pub fn timed_out_shell_output(wall_time_ms: u64, output: &str) -> String {
    format!("command timed out after {wall_time_ms} milliseconds\n{output}")
}

/// Milliseconds as seconds rounded half up to one decimal, without a trailing `.0`.
fn tenths_of_seconds(ms: u64) -> String {
    let tenths = ms.saturating_add(50) / 100;
    if tenths % 10 == 0 {
        format!("{}", tenths / 10)
    } else {
        format!("{}.{}", tenths / 10, tenths % 10)
    }
}

/// The second truncation pass, when a tool's text output is recorded into history: the middle
/// truncation at 1.2 × the policy (§3.3 item 2, X15). `Tokens(10_000)` keeps 48 000 bytes.
///
/// # Example
/// ```
/// use context_assembly::codex::truncate::{truncate_for_record, TruncationPolicy};
/// let output = "x".repeat(50_000);
/// let recorded = truncate_for_record(&output, TruncationPolicy::Tokens(10_000));
/// assert!(recorded.contains("…500 tokens truncated…"));
/// assert_eq!(recorded.len() - "…500 tokens truncated…".len(), 48_000);
/// ```
pub fn truncate_for_record(output: &str, policy: TruncationPolicy) -> String {
    truncate_middle(output, policy.for_record()).text
}

/// Codex's check on a user message (§3.4, X25): input over [`MAX_USER_INPUT_TEXT_CHARS`]
/// characters is rejected, never truncated. Characters are Rust `char`s (Unicode scalar
/// values), as Codex counts them.
///
/// # Errors
/// [`Error::InvalidConfig`] on field `prompt`, naming the limit and the number of characters given.
///
/// # Example
/// ```
/// use context_assembly::codex::truncate::check_user_input;
/// assert!(check_user_input(&"é".repeat(1 << 20)).is_ok()); // 2 MiB, but 1 048 576 characters
/// let err = check_user_input(&"a".repeat((1 << 20) + 1)).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "prompt: the input is 1048577 characters long; the limit is 1048576 characters"
/// );
/// ```
pub fn check_user_input(text: &str) -> Result<(), Error> {
    // Fewer bytes than the limit means fewer characters: skip the count.
    if text.len() <= MAX_USER_INPUT_TEXT_CHARS {
        return Ok(());
    }
    let chars = text.chars().count();
    if chars <= MAX_USER_INPUT_TEXT_CHARS {
        return Ok(());
    }
    Err(Error::InvalidConfig {
        field: String::from("prompt"),
        reason: format!(
            "the input is {chars} characters long; the limit is {MAX_USER_INPUT_TEXT_CHARS} characters"
        ),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn token_mode_marker_estimates_from_bytes() {
        let text = "0123456789abcdefghij"; // 20 bytes, budget 8
        let cut = truncate_middle(text, TruncationPolicy::Tokens(2));
        assert_eq!(cut.text, "0123…3 tokens truncated…ghij");
        assert_eq!(cut.removed_bytes, 12);
        assert_eq!(cut.marker_count, Some(3));
    }

    #[test]
    fn within_budget_and_empty_are_unchanged() {
        assert!(!truncate_middle("abcd", TruncationPolicy::Tokens(1)).was_truncated());
        assert_eq!(truncate_middle("", TruncationPolicy::Bytes(0)).text, "");
        assert_eq!(
            truncate_middle("abcdefgh", TruncationPolicy::Tokens(0)).text,
            "…2 tokens truncated…"
        );
    }

    #[test]
    fn multibyte_tail_starts_at_next_boundary() {
        // 😀 is 4 bytes; budget 6 → head ≤ 3 bytes, tail ≥ len − 3.
        let cut = truncate_middle("ab😀cd😀ef", TruncationPolicy::Bytes(6));
        assert_eq!(cut.text, "ab…4 chars truncated…ef");
        assert_eq!(cut.removed_chars, 4);
    }

    #[test]
    fn wall_time_rounds_half_up_and_drops_zero_tenths() {
        assert_eq!(tenths_of_seconds(0), "0");
        assert_eq!(tenths_of_seconds(49), "0");
        assert_eq!(tenths_of_seconds(50), "0.1");
        assert_eq!(tenths_of_seconds(1_449), "1.4");
        assert_eq!(tenths_of_seconds(1_950), "2");
    }

    #[test]
    fn shell_layout_without_truncation_has_no_line_count() {
        let text = format_shell_output(1, 1_234, "boom\n", TruncationPolicy::Tokens(10));
        assert_eq!(
            text,
            "Exit code: 1\nWall time: 1.2 seconds\nOutput:\nboom\n"
        );
        let timed_out = timed_out_shell_output(10_000, "partial");
        assert_eq!(
            format_shell_output(124, 10_000, &timed_out, TruncationPolicy::Tokens(100)),
            "Exit code: 124\nWall time: 10 seconds\nOutput:\ncommand timed out after 10000 milliseconds\npartial"
        );
    }

    #[test]
    fn config_override_keeps_the_mode() {
        let bytes = truncation_policy_for_model("gpt-5.2").with_token_limit(2_000);
        assert_eq!(bytes, TruncationPolicy::Bytes(8_000));
        let tokens = truncation_policy_for_model("gpt-5.4").with_token_limit(2_000);
        assert_eq!(tokens, TruncationPolicy::Tokens(2_000));
        assert_eq!(TruncationPolicy::Bytes(10_001).token_budget(), 2_501);
    }
}
