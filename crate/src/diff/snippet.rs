//! From hunks to the snippet text: Claude Code's `getSnippetForTwoFileDiff` after the diff
//! (spec claude-code.md §5.2, §5.3) and `addLineNumbers` in its compact format (§3.5).

use alloc::string::String;
use core::fmt::Write;

use super::hunks::Hunk;
use super::myers::RunKind;
use crate::tokens::{estimate_tokens, TokenMethod};

/// Between two hunks.
const HUNK_SEPARATOR: &str = "\n...\n";

/// Appends the new-file side of `hunk`, numbered from `start`: removed lines and the
/// `\ No newline at end of file` markers are dropped, each kept line loses its final `\n`
/// (a `\r` before it stays until the line split below).
fn push_hunk(out: &mut String, hunk: &Hunk<'_>, start: usize) {
    let mut content = String::new();
    let kept = hunk
        .lines
        .iter()
        .filter(|line| line.kind != RunKind::Removed);
    for (index, line) in kept.enumerate() {
        if index > 0 {
            content.push('\n');
        }
        content.push_str(line.text.strip_suffix('\n').unwrap_or(line.text));
    }
    push_numbered(out, &content, start);
}

/// `addLineNumbers({content, startLine})`, compact format: empty content gives nothing;
/// lines split on `\r?\n`, so a `\r` survives only at the very end of the content (the last
/// line of a hunk of a CRLF file keeps it).
fn push_numbered(out: &mut String, content: &str, start: usize) {
    if content.is_empty() {
        return;
    }
    let mut pieces = content.split('\n').peekable();
    let mut number = start;
    while let Some(piece) = pieces.next() {
        let is_last = pieces.peek().is_none();
        let line = if is_last {
            piece
        } else {
            piece.strip_suffix('\r').unwrap_or(piece)
        };
        // Writing to a String cannot fail.
        let _ = write!(out, "{number}\t{line}");
        if !is_last {
            out.push('\n');
        }
        number = number.saturating_add(1);
    }
}

/// Appends every line of `hunk` in file order (Q36 fixed): kept lines numbered from
/// `start`, removed ones marked `-` where the number would stand, since they are no longer
/// in the file. Line breaks (`\n`, `\r\n`) are dropped, and so is a removed line that comes
/// back among the same change's added lines with another line break (a line that gained its
/// final newline, a file turned from CRLF to LF): its text did not go.
fn push_hunk_with_removals(out: &mut String, hunk: &Hunk<'_>, start: usize) {
    let mut number = start;
    let mut first = true;
    for (index, line) in hunk.lines.iter().enumerate() {
        let text = text_of(line.text);
        if line.kind == RunKind::Removed {
            let change = hunk.lines[index..]
                .iter()
                .take_while(|other| other.kind != RunKind::Common);
            let comes_back = change
                .filter(|other| other.kind == RunKind::Added)
                .any(|added| text_of(added.text) == text);
            if comes_back {
                continue;
            }
        }
        if !first {
            out.push('\n');
        }
        first = false;
        if line.kind == RunKind::Removed {
            let _ = write!(out, "{REMOVED_MARK}\t{text}");
        } else {
            let _ = write!(out, "{number}\t{text}");
            number = number.saturating_add(1);
        }
    }
}

/// A line's text without its line break (`\n` or `\r\n`).
fn text_of(line: &str) -> &str {
    let text = line.strip_suffix('\n').unwrap_or(line);
    text.strip_suffix('\r').unwrap_or(text)
}

/// What stands where a removed line's number would (Q36 fixed).
pub const REMOVED_MARK: char = '-';

/// Joins the numbered hunks with `\n...\n`; removed lines are shown, marked, when
/// `mark_removed`.
pub(crate) fn join_hunks<'a>(
    hunks: impl Iterator<Item = (&'a Hunk<'a>, usize)>,
    mark_removed: bool,
) -> String {
    let mut out = String::new();
    for (index, (hunk, start)) in hunks.enumerate() {
        if index > 0 {
            out.push_str(HUNK_SEPARATOR);
        }
        if mark_removed {
            push_hunk_with_removals(&mut out, hunk, start);
        } else {
            push_hunk(&mut out, hunk, start);
        }
    }
    out
}

/// How long a snippet may be.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Limit {
    /// UTF-16 code units: the original's `length` (Q41).
    Utf16Units(usize),
    /// Tokens of the calibrated estimate: what the model reads.
    Tokens(u64),
}

/// A text cut to the cap.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Capped {
    pub(crate) text: String,
    /// The count the marker shows, when a cut was made.
    pub(crate) truncated_lines: Option<usize>,
}

/// Where a too-long text is cut, in bytes, and whether the cut is at a `\n`.
struct Cut {
    at: usize,
    on_line_boundary: bool,
}

/// Finds Claude Code's cut for a text longer than `max_len` UTF-16 units:
/// `full.lastIndexOf('\n', max_len)` when that is past index 0, else a hard cut at
/// `max_len` units — moved back one unit when it would split a surrogate pair, since a
/// Rust string cannot hold half a character (the original keeps a lone high surrogate).
fn find_cut(full: &str, max_len: usize) -> Cut {
    let mut units = 0usize;
    let mut last_newline = None;
    let mut hard_cut = 0usize;
    for (at, ch) in full.char_indices() {
        if units > max_len {
            break;
        }
        if ch == '\n' {
            last_newline = Some(at);
        }
        let next = units + ch.len_utf16();
        if next <= max_len {
            hard_cut = at + ch.len_utf8();
        }
        units = next;
    }
    match last_newline {
        Some(at) if at > 0 => Cut {
            at,
            on_line_boundary: true,
        },
        _ => Cut {
            at: hard_cut,
            on_line_boundary: false,
        },
    }
}

/// Where a text over `max_tokens` is cut: after the last whole line whose end keeps the text
/// within the cap, else (a first line longer than the cap) at the longest prefix within it.
fn find_token_cut(full: &str, max_tokens: u64) -> Cut {
    let fits =
        |end: usize| estimate_tokens(&full[..end], TokenMethod::Calibrated, None) <= max_tokens;
    let line_ends: alloc::vec::Vec<usize> = full.match_indices('\n').map(|(at, _)| at).collect();
    // The count grows with the prefix, so the last line end that fits is found by bisection.
    let fitting_lines = line_ends.partition_point(|&end| fits(end));
    match fitting_lines.checked_sub(1).map(|index| line_ends[index]) {
        Some(at) if at > 0 => Cut {
            at,
            on_line_boundary: true,
        },
        _ => {
            let boundaries: alloc::vec::Vec<usize> =
                full.char_indices().map(|(at, _)| at).collect();
            let fitting = boundaries.partition_point(|&end| fits(end));
            Cut {
                at: boundaries
                    .get(fitting.saturating_sub(1))
                    .copied()
                    .unwrap_or(0),
                on_line_boundary: false,
            }
        }
    }
}

/// Claude Code's cap (§5.3): a text longer than the limit is cut at the last line break that
/// fits and ends with `\n\n... [{n} lines truncated] ...`. The original's `n` counts the
/// `\n` at the cut as a line of its own (Q34); `exact_count` drops it, so `n` is the number of
/// lines not shown, the one cut mid-way (hard cut) included.
pub(crate) fn cap(full: String, limit: Limit, exact_count: bool) -> Capped {
    let within = match limit {
        Limit::Utf16Units(max_len) => full.encode_utf16().count() <= max_len,
        Limit::Tokens(max_tokens) => {
            estimate_tokens(&full, TokenMethod::Calibrated, None) <= max_tokens
        }
    };
    if within {
        return Capped {
            text: full,
            truncated_lines: None,
        };
    }
    let cut = match limit {
        Limit::Utf16Units(max_len) => find_cut(&full, max_len),
        Limit::Tokens(max_tokens) => find_token_cut(&full, max_tokens),
    };
    let tail = full.get(cut.at..).unwrap_or("");
    let newlines = tail.bytes().filter(|&b| b == b'\n').count();
    let remaining = if exact_count && cut.on_line_boundary {
        newlines
    } else {
        newlines + 1
    };
    let mut text = full;
    text.truncate(cut.at);
    let _ = write!(text, "\n\n... [{remaining} lines truncated] ...");
    Capped {
        text,
        truncated_lines: Some(remaining),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn short_text_is_kept_whole() {
        assert_eq!(
            cap("1\ta".into(), Limit::Utf16Units(3), false),
            Capped {
                text: "1\ta".into(),
                truncated_lines: None
            }
        );
    }

    /// Q34: the cut at a line break counts that break as a line.
    #[test]
    fn a_cut_at_a_line_break_counts_one_line_too_many() {
        let full = "1\ta\n2\tb\n3\tc".to_string();
        assert_eq!(
            cap(full.clone(), Limit::Utf16Units(5), false).text,
            "1\ta\n\n... [3 lines truncated] ..."
        );
        assert_eq!(
            cap(full, Limit::Utf16Units(5), true).text,
            "1\ta\n\n... [2 lines truncated] ..."
        );
    }

    /// `lastIndexOf` finding the break at index 0 is no cut point: the text is hard cut.
    #[test]
    fn a_break_at_index_zero_means_a_hard_cut() {
        let capped = cap("\nabcdef\ng".to_string(), Limit::Utf16Units(4), true);
        assert_eq!(capped.text, "\nabc\n\n... [2 lines truncated] ...");
    }

    #[test]
    fn a_hard_cut_never_splits_a_surrogate_pair() {
        assert_eq!(
            cap("ab😀c".to_string(), Limit::Utf16Units(3), false).text,
            "ab\n\n... [1 lines truncated] ..."
        );
        assert_eq!(
            cap("ab😀c".to_string(), Limit::Utf16Units(4), false).text,
            "ab😀\n\n... [1 lines truncated] ..."
        );
    }

    #[test]
    fn the_cap_counts_utf16_units_not_bytes() {
        // 4 UTF-16 units, 7 bytes.
        assert_eq!(
            cap("é\n😀".to_string(), Limit::Utf16Units(4), false).truncated_lines,
            None
        );
    }

    /// Q41 fixed: the cap in tokens treats every script by what the model reads.
    #[test]
    fn a_token_cap_cuts_by_what_the_model_reads() {
        let latin: String = (1..=400)
            .map(|n| alloc::format!("{n}\tlet x = {n};\n"))
            .collect();
        let han: String = (1..=400)
            .map(|n| alloc::format!("{n}\t上下文管理上下文管理\n"))
            .collect();
        for text in [latin, han] {
            let capped = cap(text.clone(), Limit::Tokens(300), true);
            let kept = capped.text.split("\n\n... [").next().unwrap();
            assert!(estimate_tokens(kept, TokenMethod::Calibrated, None) <= 300);
            let next_line = &text[..text[kept.len() + 1..].find('\n').unwrap() + kept.len() + 1];
            assert!(estimate_tokens(next_line, TokenMethod::Calibrated, None) > 300);
            assert_eq!(
                capped.truncated_lines,
                Some(text[kept.len()..].matches('\n').count())
            );
        }
        let one_line = "x".repeat(10_000);
        let capped = cap(one_line, Limit::Tokens(10), true);
        assert!(capped.text.starts_with('x') && capped.truncated_lines == Some(1));
    }
}
