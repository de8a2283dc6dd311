//! A file changed outside the agent, rebuilt from the note the client logged about it.
//!
//! 2.1.332 logs each change note as an `edited_text_file` attachment: the file's name, a
//! snippet of its new content as numbered lines (`12\ttext`) in windows around the changes
//! (separated by a `...` line; a long one ends with a blank line and a count of the lines
//! left out), and the new content's length (`rereadEntry.contentLength`, in UTF-16 code units
//! as JavaScript counts them). What the windows do not show is unchanged: the lines before the
//! first window are the old file's first lines; a window's last line is context, an old line,
//! which tells where the old file goes on; the recorded length tells how the file ends.

use alloc::string::String;
use alloc::vec::Vec;

/// How sure a rebuilt content is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Rebuilt {
    /// The content has exactly the length the client recorded.
    Exact(String),
    /// No reading of the snippet gives the recorded length (or none was recorded): the
    /// likeliest reading.
    Approximate(String),
}

/// One run of numbered lines of the snippet.
struct Window<'a> {
    /// The number of its first line in the new content (from 1).
    first: usize,
    lines: Vec<&'a str>,
}

/// The new content of a file that held `old`, from the client's snippet and the length it
/// recorded; `None` when the snippet's windows are not numbered lines that fit the old file.
///
/// ```text
/// old "a\nb\nc\n", snippet "2\tB", length 6  →  Exact("a\nB\nc\n")
/// ```
pub(super) fn rebuild(old: &str, snippet: &str, length: Option<u64>) -> Option<Rebuilt> {
    let windows = windows(snippet)?;
    let (body, ends_with_newline) = match old.strip_suffix('\n') {
        Some(body) => (body, true),
        None => (old, false),
    };
    let old_lines: Vec<&str> = if body.is_empty() {
        Vec::new()
    } else {
        body.split('\n').collect()
    };
    let (shown, resume) = through_windows(&old_lines, &windows)?;
    let finish = |tail_start: usize| {
        let mut content = shown
            .iter()
            .chain(&old_lines[tail_start..])
            .copied()
            .collect::<Vec<_>>()
            .join("\n");
        if ends_with_newline {
            content.push('\n');
        }
        content
    };
    if let Some(length) = length {
        // Where the last window's context says the old file goes on first; then every other
        // place, nearest first.
        let mut starts: Vec<usize> = (0..=old_lines.len()).collect();
        crate::sort::sort_by_key(&mut starts, |&start| start.abs_diff(resume));
        for start in starts {
            let content = finish(start);
            if utf16_length(&content) == length {
                return Some(Rebuilt::Exact(content));
            }
        }
    }
    Some(Rebuilt::Approximate(finish(resume)))
}

/// The new content's lines up to the end of the last window, and the old line the rest
/// likely starts at; `None` when a window starts before the lines already placed or past
/// the old file's reach.
fn through_windows<'a>(
    old_lines: &[&'a str],
    windows: &[Window<'a>],
) -> Option<(Vec<&'a str>, usize)> {
    let mut shown: Vec<&str> = Vec::new();
    let mut cursor = 0;
    for window in windows {
        let gap = (window.first - 1).checked_sub(shown.len())?;
        shown.extend(old_lines.get(cursor..cursor + gap)?);
        cursor += gap;
        shown.extend(&window.lines);
        cursor = after_context(old_lines, cursor, window);
    }
    Some((shown, cursor))
}

/// Where the old file goes on after `window`, which started at old line `cursor`: after the
/// nearest old line equal to the window's last line (context), or as many lines on as the
/// window has when none is.
fn after_context(old_lines: &[&str], cursor: usize, window: &Window<'_>) -> usize {
    let in_place = (cursor + window.lines.len()).min(old_lines.len());
    let Some(last) = window.lines.last() else {
        return in_place;
    };
    (cursor..old_lines.len())
        .filter(|&index| old_lines[index] == *last)
        .min_by_key(|&index| (index + 1).abs_diff(in_place))
        .map_or(in_place, |index| index + 1)
}

/// The snippet's windows: runs of lines numbered on by one from at least 1, separated by
/// `...` lines, the last perhaps followed by a blank line and the count of lines left out.
fn windows(snippet: &str) -> Option<Vec<Window<'_>>> {
    let mut windows: Vec<Window<'_>> = Vec::new();
    let mut open = false;
    let mut lines = snippet.split('\n').peekable();
    while let Some(line) = lines.next() {
        let left_out = line.is_empty() && lines.peek().is_some_and(|next| is_left_out_count(next));
        if left_out || is_left_out_count(line) {
            break;
        }
        if line == "..." {
            open = false;
            continue;
        }
        let (number, text) = line.split_once('\t')?;
        let number: usize = number.trim().parse().ok()?;
        match windows.last_mut() {
            Some(window) if open => {
                if number != window.first + window.lines.len() {
                    return None;
                }
                window.lines.push(text);
            }
            _ => {
                let after = windows.last().map_or(1, |w| w.first + w.lines.len());
                if number < after {
                    return None;
                }
                windows.push(Window {
                    first: number,
                    lines: Vec::from([text]),
                });
                open = true;
            }
        }
    }
    Some(windows).filter(|windows| !windows.is_empty())
}

/// The line a long snippet ends with: `... [N lines truncated] ...`.
fn is_left_out_count(line: &str) -> bool {
    line.strip_prefix("... [")
        .and_then(|rest| rest.strip_suffix("] ..."))
        .is_some_and(|inner| {
            inner
                .split(' ')
                .next()
                .is_some_and(|n| n.parse::<u64>().is_ok())
        })
}

fn utf16_length(text: &str) -> u64 {
    text.chars().map(|c| c.len_utf16() as u64).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_changed_line_in_the_middle_keeps_the_lines_around_it() {
        assert_eq!(
            rebuild("a\nb\nc\n", "2\tB", Some(6)),
            Some(Rebuilt::Exact("a\nB\nc\n".into()))
        );
    }

    #[test]
    fn inserted_lines_take_the_tail_the_recorded_length_asks_for() {
        // Two lines inserted at the top: the run is longer than what it replaced.
        let old = "one\ntwo\nthree\nfour\n";
        let rebuilt = rebuild(old, "1\tnew a\n2\tnew b\n3\tone", Some(31));
        assert_eq!(
            rebuilt,
            Some(Rebuilt::Exact(
                "new a\nnew b\none\ntwo\nthree\nfour\n".into()
            ))
        );
    }

    #[test]
    fn a_deleted_tail_is_dropped_when_the_length_says_so() {
        let rebuilt = rebuild("x\ny\nz\n", "1\tx", Some(2));
        assert_eq!(rebuilt, Some(Rebuilt::Exact("x\n".into())));
    }

    #[test]
    fn lengths_count_utf16_units_as_javascript_does() {
        // "🎉" is two UTF-16 units and four bytes.
        let rebuilt = rebuild("a\nb\n", "2\t🎉", Some(5));
        assert_eq!(rebuilt, Some(Rebuilt::Exact("a\n🎉\n".into())));
    }

    #[test]
    fn without_a_matching_length_the_run_replaces_lines_in_place() {
        let rebuilt = rebuild("a\nb\nc", "2\tB", Some(99));
        assert_eq!(rebuilt, Some(Rebuilt::Approximate("a\nB\nc".into())));
        assert_eq!(
            rebuild("a\nb\nc", "2\tB", None),
            Some(Rebuilt::Approximate("a\nB\nc".into()))
        );
    }

    #[test]
    fn a_snippet_that_is_not_numbered_windows_that_fit_is_not_used() {
        assert_eq!(rebuild("a\nb\n", "1\ta\n3\tc", Some(4)), None);
        assert_eq!(rebuild("a\nb\n", "no number here", None), None);
        assert_eq!(rebuild("a\nb\n", "0\ta", None), None);
        assert_eq!(rebuild("a\n", "5\tfar past the end", None), None);
        assert_eq!(rebuild("a\nb\nc\n", "2\tb\n...\n1\ta", None), None);
        assert_eq!(rebuild("a\n", "", None), None);
    }

    #[test]
    fn windows_apart_keep_the_old_lines_between_them() {
        // Two lines inserted at the top and line 8 changed: the first window's last line is
        // old line 2, so the gap is old lines 3 to 5.
        let old = "1\n2\n3\n4\n5\n6\n7\n8\n9\n";
        let snippet = "1\tx\n2\ty\n3\t1\n4\t2\n...\n8\t6\n9\t7\n10\tEIGHT\n11\t9";
        let expected = "x\ny\n1\n2\n3\n4\n5\n6\n7\nEIGHT\n9\n";
        assert_eq!(
            rebuild(old, snippet, Some(utf16_length(expected))),
            Some(Rebuilt::Exact(expected.into()))
        );
    }

    #[test]
    fn a_long_snippet_cut_short_ends_with_the_old_file_as_the_length_asks() {
        let old = "a\nb\nc\nd\ne\n";
        let snippet = "1\tA\n2\tb\n\n... [3 lines truncated] ...";
        assert_eq!(
            rebuild(old, snippet, Some(10)),
            Some(Rebuilt::Exact("A\nb\nc\nd\ne\n".into()))
        );
    }

    #[test]
    fn an_empty_file_takes_the_snippet_whole() {
        assert_eq!(
            rebuild("", "1\tnew", Some(3)),
            Some(Rebuilt::Exact("new".into()))
        );
    }
}
