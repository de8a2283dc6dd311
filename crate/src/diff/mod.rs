//! Change snippets: what the model is shown when a file it has seen changed on disk.
//!
//! A *snippet* is the new file's side of a line diff of the old contents against the new:
//! every hunk's unchanged and added lines, numbered (`{n}\t{line}`, spec claude-code.md
//! §3.5), hunks joined by `\n...\n`, the whole capped at 8192 UTF-16 units. It is Claude
//! Code's `getSnippetForTwoFileDiff` (§5.2–5.3): jsdiff's `structuredPatch` with 8 lines of
//! context, so two changes at most 16 unchanged lines apart share a hunk. An empty snippet
//! means "nothing to report" and the caller sends no note.
//!
//! ```
//! use context_assembly::diff::{diff_snippet, SnippetRules};
//! let before = "one\ntwo\nthree\n";
//! let after = "one\n2\nthree\n";
//! let snippet = diff_snippet(before, after, &SnippetRules::claude_code());
//! assert_eq!(snippet.text, "1\tone\n2\t2\n3\tthree");
//! ```
//!
//! The diff is our own port of jsdiff 8.0.4's Myers search, down to its tie-breaking, so
//! the snippet is byte-identical to the original's for every input but one (below; a
//! differential test against jsdiff checks it). The `similar` crate is not used here: its
//! Myers variant (middle snake, divide and conquer) picks other scripts among equally
//! short ones, and it bounds work only by a wall-clock deadline, which no_std lacks.
//!
//! # Quirks of the original
//!
//! * **Q33, numbered from the old file.** Every hunk is numbered from its start in the old
//!   file, although it shows new-file lines. Insert 5 lines at the top and change line 50:
//!   the change shows as `50\tX50` though it is now line 55.
//!   [`SnippetRules::number_from_new_file`] numbers from the new file instead.
//! * **Q34, one line too many.** When the cap cuts at a line break, the marker counts the
//!   break itself as a line: 1066 dropped lines read `... [1067 lines truncated] ...`.
//!   [`SnippetRules::exact_truncated_count`] reports the lines really dropped.
//! * **Q35, an emptied file gives no snippet**: `"a\nb\n"` → `""` gives `""`, because
//!   nothing of the new file is left to show. Kept: the caller sees the empty text.
//! * **Q36, deletions are invisible.** Removed lines are left out; a deletion shows only as
//!   its surrounding context (`"a\nb\nc\n"` → `"a\nc\n"` gives `1\ta\n2\tc`).
//!   [`SnippetRules::mark_removed_lines`] shows each removed line in its place, marked `-`
//!   where a number would stand (it is no longer in the file): `1\ta\n-\tb\n2\tc`.
//! * **Q37, a newline-at-end-of-file change is reported** as a hunk that shows no
//!   difference: `"x\n"` → `"x"` gives `1\tx`. [`SnippetRules::ignore_final_newline_change`]
//!   treats it as no change: the lines the model reads are the same.
//! * **Q41, the "bytes" cap counts UTF-16 units.** [`SnippetRules::cap_in_tokens`] caps the
//!   snippet at [`SnippetRules::max_tokens`] tokens of the calibrated estimate instead: the
//!   unit the model reads and the context is measured in, the same for every script (8192
//!   UTF-16 units are about 2,000 tokens of code but 8,000 of Chinese).
//!
//! One deviation, forced by Rust strings: when the cap falls on a line longer than the cap
//! (a hard cut at 8192 units) in the middle of a surrogate pair, the original keeps half
//! the character; we cut before it, so the text keeps 8191 units. The marker's count is
//! the same.
//!
//! # Bounded work
//!
//! The original gives up after `DIFF_TIMEOUT_MS` = 5 s of wall clock and then sends no
//! snippet. We count work instead (one unit per edit length begun, per diagonal visited and
//! per matched line followed), so the result never depends on the machine: the search
//! stops before spending more than [`SnippetRules::work_budget`]. What happens then is
//! [`SnippetRules::on_budget_exhausted`]: nothing, as in the original, or (recommended) the
//! common first and last lines are kept and everything between is treated as replaced, so
//! a change is never lost; that snippet may show more lines than the real diff would.

mod hunks;
mod intern;
mod myers;
mod report;
mod snippet;

use alloc::string::String;

use hunks::{build_hunks, split_lines, Hunk};
use intern::intern;
use myers::{search, Outcome, Run, RunKind};
pub use report::SnippetReport;

/// Work the search may spend: about what jsdiff 8.0.4 completes within its 5 s timeout.
///
/// Measured with `node tests/bench/diff-reference.mjs calibrate` (Node 20.20 on the
/// development machine, 2 shared cores): two 4000-line files with no line in common
/// (`old line {i}` against `new line {i}`) took jsdiff 4.0–7.1 s over seven runs, median
/// 5.6 s (3600 lines: 3.2–3.9 s; 8000 lines: 30 s). Our search spends exactly this much on
/// that pair (`n² + 4n` for two unrelated `n`-line files), so it still completes. Natively,
/// two unrelated 20,000-line files reach the budget in about 0.3 s at `opt-level = 3` and
/// 0.5 s with the size-optimised release profile.
pub const WORK_BUDGET: u64 = 16_016_000;

/// What to do when the search runs out of work.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum BudgetFallback {
    /// The original: a timed-out diff gives no patch, so the snippet is empty and the
    /// change goes unreported.
    NoSnippet,
    /// Keep the lines both files start and end with, treat everything between as replaced,
    /// so a change is never lost.
    ReplaceMiddle,
}

crate::switch::with_switches! {
    /// How a change becomes a snippet.
    #[derive(Debug, Clone, PartialEq, Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    #[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
    pub struct SnippetRules {
        /// Unchanged lines shown around a change (8); changes at most twice as many lines
        /// apart share a hunk.
        pub context_lines: usize,
        /// The cap on the snippet, in UTF-16 code units (8192; Q41: the original calls it
        /// bytes, and this is not fixed).
        pub max_len: usize,
        /// Q33: number each hunk from where it starts in the new file (the original numbers
        /// new-file lines from the hunk's old-file start).
        pub number_from_new_file: bool,
        /// Q34: the truncation marker gives the exact number of lines not shown (the original
        /// says one more when it cuts at a line break).
        pub exact_truncated_count: bool,
        /// Units of work the diff may spend: the deterministic stand-in for the original's
        /// 5 s timeout ([`WORK_BUDGET`]).
        pub work_budget: u64,
        /// What a diff that ran out of work gives.
        pub on_budget_exhausted: BudgetFallback,
        /// Q36: removed lines are shown in their place, marked `-` instead of a number (the
        /// original leaves them out, so a deletion is invisible).
        pub mark_removed_lines: bool,
        /// Q37: a change of the final newline alone is no change (the original reports a hunk
        /// that shows no difference).
        pub ignore_final_newline_change: bool,
        /// Q41: the cap counts tokens of the calibrated estimate ([`SnippetRules::max_tokens`])
        /// rather than UTF-16 units ([`SnippetRules::max_len`]).
        pub cap_in_tokens: bool,
        /// The cap in tokens, when [`SnippetRules::cap_in_tokens`] (2,048: the original's 8192
        /// units at four characters a token).
        pub max_tokens: u64,
    }
}

impl SnippetRules {
    /// Claude Code's snippet, quirks included.
    pub fn claude_code() -> SnippetRules {
        SnippetRules {
            context_lines: 8,
            max_len: 8192,
            number_from_new_file: false,
            exact_truncated_count: false,
            work_budget: WORK_BUDGET,
            on_budget_exhausted: BudgetFallback::NoSnippet,
            mark_removed_lines: false,
            ignore_final_newline_change: false,
            cap_in_tokens: false,
            max_tokens: 2048,
        }
    }

    /// Claude Code's snippet with Q33, Q34, Q36, Q37 and Q41 fixed and a change never lost to
    /// the budget.
    pub fn recommended() -> SnippetRules {
        SnippetRules {
            number_from_new_file: true,
            exact_truncated_count: true,
            on_budget_exhausted: BudgetFallback::ReplaceMiddle,
            mark_removed_lines: true,
            ignore_final_newline_change: true,
            cap_in_tokens: true,
            ..SnippetRules::claude_code()
        }
    }
}

/// A snippet and how it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Snippet {
    /// The text; empty when there is nothing to report.
    pub text: String,
    /// Hunks in the diff (an emptied file has one hunk and an empty text).
    pub hunks: usize,
    /// The count the truncation marker shows, when the text was cut.
    pub truncated_lines: Option<usize>,
    /// Work the search spent, at most the budget.
    pub work: u64,
    /// The search ran out of work and the fallback decided the text.
    pub budget_exhausted: bool,
    /// The texts differ in their final newline alone, which the rules ignore (Q37).
    pub final_newline_only: bool,
}

/// The snippet for a file that changed from `before` to `after`.
///
/// # Example
/// A file that only lost lines still gets a snippet, showing the context of the removal
/// (Q36); one that lost everything gets none; one out of budget gets what the rules say.
/// ```
/// use context_assembly::diff::{diff_snippet, SnippetRules};
/// let rules = SnippetRules::claude_code();
/// assert_eq!(diff_snippet("a\nb\nc\n", "a\nc\n", &rules).text, "1\ta\n2\tc");
/// assert_eq!(diff_snippet("a\nb\n", "", &rules).text, "");
///
/// let starved = SnippetRules { work_budget: 1, ..SnippetRules::claude_code() };
/// let snippet = diff_snippet("a\nb\nc\n", "a\nB\nc\n", &starved);
/// assert!(snippet.budget_exhausted);
/// assert_eq!(snippet.text, ""); // the original's timeout: no snippet
///
/// let starved = SnippetRules { work_budget: 1, ..SnippetRules::recommended() };
/// let snippet = diff_snippet("a\nb\nc\n", "a\nB\nc\n", &starved);
/// assert_eq!(snippet.text, "1\ta\n2\tB\n3\tc"); // a replaced middle marks no removal
///
/// // recommended shows what went (Q36) and ignores a final newline alone (Q37).
/// let rules = SnippetRules::recommended();
/// assert_eq!(diff_snippet("a\nb\nc\nd\ne\n", "a\nb\nd\ne\n", &rules).text,
///            "1\ta\n2\tb\n-\tc\n3\td\n4\te");
/// let eof = diff_snippet("x\n", "x", &rules);
/// assert!(eof.text.is_empty() && eof.final_newline_only);
/// ```
pub fn diff_snippet(before: &str, after: &str, rules: &SnippetRules) -> Snippet {
    if rules.ignore_final_newline_change
        && before != after
        && without_final_newline(before) == without_final_newline(after)
    {
        return Snippet {
            text: String::new(),
            hunks: 0,
            truncated_lines: None,
            work: 0,
            budget_exhausted: false,
            final_newline_only: true,
        };
    }
    let old = split_lines(before);
    let new = split_lines(after);
    let (old_ids, new_ids) = intern(&old, &new);
    let found = search(&old_ids, &new_ids, rules.work_budget);
    let budget_exhausted = matches!(found.outcome, Outcome::GaveUp);
    let runs = match found.outcome {
        Outcome::Script(runs) => runs,
        Outcome::GaveUp => match rules.on_budget_exhausted {
            BudgetFallback::NoSnippet => alloc::vec::Vec::new(),
            BudgetFallback::ReplaceMiddle => replace_middle(&old_ids, &new_ids),
        },
    };
    let hunks = build_hunks(&runs, &old, &new, rules.context_lines);
    // A replaced middle is no real diff: marking every old line of it would push the new
    // lines, the change itself, past the cap.
    let full = snippet::join_hunks(
        hunks.iter().map(|hunk| (hunk, start_of(hunk, rules))),
        rules.mark_removed_lines && !budget_exhausted,
    );
    let limit = match rules.cap_in_tokens {
        true => snippet::Limit::Tokens(rules.max_tokens),
        false => snippet::Limit::Utf16Units(rules.max_len),
    };
    let capped = snippet::cap(full, limit, rules.exact_truncated_count);
    Snippet {
        text: capped.text,
        hunks: hunks.len(),
        truncated_lines: capped.truncated_lines,
        work: found.work,
        budget_exhausted,
        final_newline_only: false,
    }
}

/// `text` without one final line break (`\r\n` or `\n`).
fn without_final_newline(text: &str) -> &str {
    text.strip_suffix("\r\n")
        .or_else(|| text.strip_suffix('\n'))
        .unwrap_or(text)
}

fn start_of(hunk: &Hunk<'_>, rules: &SnippetRules) -> usize {
    if rules.number_from_new_file {
        hunk.new_start
    } else {
        hunk.old_start
    }
}

/// The fallback script: the common first and last lines unchanged, the old middle removed,
/// the new middle added.
fn replace_middle(old: &[usize], new: &[usize]) -> alloc::vec::Vec<Run> {
    let prefix = old.iter().zip(new).take_while(|(a, b)| a == b).count();
    let suffix = old[prefix..]
        .iter()
        .rev()
        .zip(new[prefix..].iter().rev())
        .take_while(|(a, b)| a == b)
        .count();
    let runs = [
        Run {
            kind: RunKind::Common,
            count: prefix,
        },
        Run {
            kind: RunKind::Removed,
            count: old.len() - prefix - suffix,
        },
        Run {
            kind: RunKind::Added,
            count: new.len() - prefix - suffix,
        },
        Run {
            kind: RunKind::Common,
            count: suffix,
        },
    ];
    runs.into_iter().filter(|run| run.count > 0).collect()
}
