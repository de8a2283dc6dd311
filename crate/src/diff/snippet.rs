//! From hunks to the snippet text: Claude Code's `getSnippetForTwoFileDiff` after the diff
//! (spec claude-code.md §5.2, §5.3) and `addLineNumbers` in its compact format (§3.5).

use alloc::string::String;
use core::fmt::Write;

use super::hunks::Hunk;
use super::myers::RunKind;

/// Between two hunks.
const HUNK_SEPARATOR: &str = "\n...\n";

/// Appends the new-file side of `hunk`, numbered from `start`: removed lines and the
/// `\ No newline at end of file` markers are dropped, each kept line loses its final `\n`
/// (a `\r` before it stays until the line split below).
pub(crate) fn push_hunk(out: &mut String, hunk: &Hunk<'_>, start: usize) {
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

/// Joins the numbered hunks with `\n...\n`.
pub(crate) fn join_hunks<'a>(hunks: impl Iterator<Item = (&'a Hunk<'a>, usize)>) -> String {
    let mut out = String::new();
    for (index, (hunk, start)) in hunks.enumerate() {
        if index > 0 {
            out.push_str(HUNK_SEPARATOR);
        }
        push_hunk(&mut out, hunk, start);
    }
    out
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

/// Claude Code's cap (§5.3): a text longer than `max_len` UTF-16 units is cut at the last
/// line break that fits and ends with `\n\n... [{n} lines truncated] ...`. The original's
/// `n` counts the `\n` at the cut as a line of its own (Q34); `exact_count` drops it, so
/// `n` is the number of lines not shown, the one cut mid-way (hard cut) included.
pub(crate) fn cap(full: String, max_len: usize, exact_count: bool) -> Capped {
    if full.encode_utf16().count() <= max_len {
        return Capped {
            text: full,
            truncated_lines: None,
        };
    }
    let cut = find_cut(&full, max_len);
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
            cap("1\ta".into(), 3, false),
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
            cap(full.clone(), 5, false).text,
            "1\ta\n\n... [3 lines truncated] ..."
        );
        assert_eq!(
            cap(full, 5, true).text,
            "1\ta\n\n... [2 lines truncated] ..."
        );
    }

    /// `lastIndexOf` finding the break at index 0 is no cut point: the text is hard cut.
    #[test]
    fn a_break_at_index_zero_means_a_hard_cut() {
        let capped = cap("\nabcdef\ng".to_string(), 4, true);
        assert_eq!(capped.text, "\nabc\n\n... [2 lines truncated] ...");
    }

    #[test]
    fn a_hard_cut_never_splits_a_surrogate_pair() {
        assert_eq!(
            cap("ab😀c".to_string(), 3, false).text,
            "ab\n\n... [1 lines truncated] ..."
        );
        assert_eq!(
            cap("ab😀c".to_string(), 4, false).text,
            "ab😀\n\n... [1 lines truncated] ..."
        );
    }

    #[test]
    fn the_cap_counts_utf16_units_not_bytes() {
        // 4 UTF-16 units, 7 bytes.
        assert_eq!(cap("é\n😀".to_string(), 4, false).truncated_lines, None);
    }
}
