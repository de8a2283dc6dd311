//! Lines in, hunks out: jsdiff's line tokenisation and `structuredPatch`'s hunk building
//! (`libesm/diff/line.js`, `libesm/patch/create.js`).

use alloc::vec::Vec;

use super::myers::{Run, RunKind};

/// jsdiff's line tokens: each line keeps its terminator (`\n` or `\r\n`), and a last line
/// without one is a token of its own, so `"a"` and `"a\n"` are different lines. A lone `\r`
/// does not end a line.
pub(crate) fn split_lines(text: &str) -> Vec<&str> {
    // memchr finds the line breaks a machine word (or SIMD vector) at a time; splitting
    // is most of the work of diffing two large, nearly equal files.
    let mut lines = Vec::new();
    let mut start = 0;
    for newline in memchr::memchr_iter(b'\n', text.as_bytes()) {
        lines.extend(text.get(start..=newline));
        start = newline + 1;
    }
    lines.extend(text.get(start..).filter(|rest| !rest.is_empty()));
    lines
}

/// One line of a hunk, terminator included.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct HunkLine<'a> {
    pub(crate) kind: RunKind,
    pub(crate) text: &'a str,
}

/// A hunk of `structuredPatch`: 1-based starts (an empty side keeps the start of the line
/// it sits before, not the unified-format `start - 1`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Hunk<'a> {
    pub(crate) old_start: usize,
    pub(crate) new_start: usize,
    pub(crate) lines: Vec<HunkLine<'a>>,
}

/// The lines each run covers, in file order: common and added runs read the new file,
/// removed runs the old one (as jsdiff's `buildValues` does).
fn run_lines<'a, 'b>(
    runs: &[Run],
    old: &'b [&'a str],
    new: &'b [&'a str],
) -> Vec<(RunKind, &'b [&'a str])> {
    let (mut old_at, mut new_at) = (0usize, 0usize);
    let mut spans = Vec::with_capacity(runs.len());
    for run in runs {
        let (source, at) = match run.kind {
            RunKind::Removed => (old, &mut old_at),
            RunKind::Common | RunKind::Added => (new, &mut new_at),
        };
        let end = at.saturating_add(run.count).min(source.len());
        let lines = source.get(*at..end).unwrap_or(&[]);
        *at = end;
        if run.kind == RunKind::Common {
            old_at = old_at.saturating_add(run.count).min(old.len());
        }
        spans.push((run.kind, lines));
    }
    spans
}

/// `structuredPatch`'s hunks with `context` lines around each change; changes separated by
/// at most `2 × context` unchanged lines share a hunk.
pub(crate) fn build_hunks<'a>(
    runs: &[Run],
    old: &[&'a str],
    new: &[&'a str],
    context: usize,
) -> Vec<Hunk<'a>> {
    let spans = run_lines(runs, old, new);
    let mut builder = HunkBuilder {
        context,
        hunks: Vec::new(),
        open: None,
        old_line: 1,
        new_line: 1,
    };
    for (index, &(kind, lines)) in spans.iter().enumerate() {
        let previous = index
            .checked_sub(1)
            .and_then(|i| spans.get(i))
            .map(|&(_, l)| l);
        if kind == RunKind::Common {
            builder.common(lines, index + 1 < spans.len());
        } else {
            builder.change(kind, lines, previous);
        }
    }
    // jsdiff appends an empty unchanged run so the last hunk is always closed.
    builder.common(&[], false);
    builder.hunks
}

struct HunkBuilder<'a> {
    context: usize,
    hunks: Vec<Hunk<'a>>,
    open: Option<Hunk<'a>>,
    old_line: usize,
    new_line: usize,
}

impl<'a> HunkBuilder<'a> {
    fn change(&mut self, kind: RunKind, lines: &[&'a str], previous: Option<&[&'a str]>) {
        let (old_line, new_line, context) = (self.old_line, self.new_line, self.context);
        let hunk = self.open.get_or_insert_with(|| {
            let leading = previous.map_or(&[][..], |p| &p[p.len().saturating_sub(context)..]);
            Hunk {
                old_start: old_line.saturating_sub(leading.len()),
                new_start: new_line.saturating_sub(leading.len()),
                lines: context_lines(leading).collect(),
            }
        });
        hunk.lines
            .extend(lines.iter().map(|&text| HunkLine { kind, text }));
        let moved = if kind == RunKind::Added {
            &mut self.new_line
        } else {
            &mut self.old_line
        };
        *moved = moved.saturating_add(lines.len());
    }

    /// An unchanged run; `more_follow` is jsdiff's `i < diff.length - 2` (not the last
    /// real run), without which a short run between changes still closes the hunk.
    fn common(&mut self, lines: &[&'a str], more_follow: bool) {
        if let Some(mut hunk) = self.open.take() {
            if lines.len() <= self.context.saturating_mul(2) && more_follow {
                hunk.lines.extend(context_lines(lines));
                self.open = Some(hunk);
            } else {
                let trailing = lines.get(..self.context.min(lines.len())).unwrap_or(&[]);
                hunk.lines.extend(context_lines(trailing));
                self.hunks.push(hunk);
            }
        }
        self.old_line = self.old_line.saturating_add(lines.len());
        self.new_line = self.new_line.saturating_add(lines.len());
    }
}

fn context_lines<'a, 'b>(lines: &'b [&'a str]) -> impl Iterator<Item = HunkLine<'a>> + 'b {
    lines.iter().map(|&text| HunkLine {
        kind: RunKind::Common,
        text,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn lines_keep_their_terminators() {
        assert_eq!(
            split_lines("a\r\nb\rc\n\nd"),
            vec!["a\r\n", "b\rc\n", "\n", "d"]
        );
        assert_eq!(split_lines(""), Vec::<&str>::new());
        assert_eq!(split_lines("x\n"), vec!["x\n"]);
    }

    fn starts(gap: usize) -> Vec<(usize, usize)> {
        let lines: Vec<String> = (0..40).map(|i| alloc::format!("{i}\n")).collect();
        let old: Vec<&str> = lines.iter().map(String::as_str).collect();
        let new = old.clone();
        let runs = [
            Run {
                kind: RunKind::Common,
                count: 4,
            },
            Run {
                kind: RunKind::Added,
                count: 1,
            },
            Run {
                kind: RunKind::Common,
                count: gap,
            },
            Run {
                kind: RunKind::Removed,
                count: 1,
            },
            Run {
                kind: RunKind::Common,
                count: 10,
            },
        ];
        build_hunks(&runs, &old, &new, 8)
            .iter()
            .map(|h| (h.old_start, h.new_start))
            .collect()
    }

    #[test]
    fn changes_up_to_twice_the_context_apart_share_a_hunk() {
        assert_eq!(starts(16), vec![(1, 1)]);
        assert_eq!(starts(17), vec![(1, 1), (14, 15)]);
    }

    #[test]
    fn a_hunk_at_the_start_of_an_empty_file_starts_at_line_one() {
        let hunks = build_hunks(
            &[Run {
                kind: RunKind::Added,
                count: 2,
            }],
            &[],
            &["a\n", "b\n"],
            8,
        );
        assert_eq!((hunks[0].old_start, hunks[0].new_start), (1, 1));
    }
}
