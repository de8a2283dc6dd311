//! Text reads: line ranges, numbering, the size cap and the token gate (spec/claude-code.md
//! §3.2, §3.3, §3.5, §3.6).

use alloc::format;
use alloc::rc::Rc;
use alloc::string::String;
use core::fmt::Write;
use core::ops::Range;

use super::{LineFormat, ReadError, ReadRules};
use crate::tokens::estimate_tokens;
use crate::wording::files::{shorter_than_offset_warning, EMPTY_FILE_WARNING};

/// What a Read asks for: a window and the file's extension (for the token estimate).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct ReadRequest<'a> {
    /// First line, 1-based; `None` is the tool's default 1; 0 reads from the start
    /// numbered from 0 (Q8).
    pub offset: Option<u64>,
    /// Number of lines; `None` reads to the end and applies the whole-file size cap; zero or
    /// negative reads nothing (Q9).
    pub limit: Option<i64>,
    /// The file's extension, with or without its dot (`json` halves Claude Code's divisor).
    pub extension: Option<&'a str>,
}

/// The text a Read selected, as the read-file state stores it (§4.4): either a byte range
/// of the source (shared, never copied) or, when carriage returns were removed, a new
/// string.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum SliceText {
    /// These bytes of the text given to [`read_text`].
    Source(Range<usize>),
    /// A text that differs from every range of the source.
    Owned(String),
}

impl SliceText {
    /// The slice's text, given the source it was read from.
    pub fn as_str<'a>(&'a self, source: &'a str) -> &'a str {
        match self {
            SliceText::Source(range) => source.get(range.clone()).unwrap_or(""),
            SliceText::Owned(text) => text,
        }
    }

    /// The slice as a shared string: the source itself when the read covered it whole, so
    /// the file's contents live once.
    pub fn share(&self, source: &Rc<str>) -> Rc<str> {
        match self {
            SliceText::Source(range) if *range == (0..source.len()) => Rc::clone(source),
            _ => Rc::from(self.as_str(source)),
        }
    }
}

/// A warning the Read tool returns instead of numbered lines when it selected nothing
/// (§3.6).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReadNotice {
    /// The file has no lines.
    EmptyFile,
    /// The file has fewer lines than the offset asks to skip.
    ShorterThanOffset {
        /// The offset asked for (the result's `start_line`).
        start_line: u64,
        /// The file's line count.
        total_lines: u64,
    },
}

/// What the Read tool returns for a text file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TextRead {
    /// The tool's result text: numbered lines, or the notice in a `<system-reminder>`.
    pub text: String,
    /// The text read (the slice, for a ranged read): what the read-file state stores.
    pub slice: SliceText,
    /// The number of the first line: the offset given (1 by default, 0 for `#L0`).
    pub start_line: u64,
    /// Lines selected.
    pub num_lines: u64,
    /// Lines in the file.
    pub total_lines: u64,
    /// Why nothing was numbered, when nothing was.
    pub notice: Option<ReadNotice>,
}

/// Reads a text file's contents as the Read tool does.
///
/// `lineOffset = offset == 0 ? 0 : offset - 1`; a UTF-8 BOM is dropped; lines split on `\n`
/// lose one trailing `\r`; the whole-file cap applies only without a `limit`; the token
/// gate estimates the text read with `rules.token_method`.
///
/// # Errors
/// [`ReadError::FileTooLarge`] when `limit` is `None` and `text` is over
/// `max_size_bytes`; [`ReadError::MaxFileReadTokenExceeded`] when the text read is
/// estimated above `max_tokens`.
///
/// # Example
/// ```
/// use context_assembly::read::{read_text, ReadNotice, ReadRequest, ReadRules};
/// let rules = ReadRules::claude_code();
/// let read = read_text("a\nb\n", &ReadRequest::default(), &rules).unwrap();
/// assert_eq!(read.text, "1\ta\n2\tb\n3\t"); // the trailing empty line counts (Q16)
/// assert_eq!(read.total_lines, 3);
/// // An empty file has one line, so it is "shorter than the offset" (Q17).
/// let empty = read_text("", &ReadRequest::default(), &rules).unwrap();
/// assert_eq!(empty.notice, Some(ReadNotice::ShorterThanOffset { start_line: 1, total_lines: 1 }));
/// ```
pub fn read_text(
    text: &str,
    request: &ReadRequest<'_>,
    rules: &ReadRules,
) -> Result<TextRead, ReadError> {
    let limits = &rules.limits;
    let size = text.len() as u64;
    if request.limit.is_none() && size > limits.max_size_bytes {
        return Err(ReadError::FileTooLarge {
            size,
            max: limits.max_size_bytes,
        });
    }
    let start_line = request.offset.unwrap_or(1);
    let first = start_line.saturating_sub(1);
    let end = match request.limit {
        None => u64::MAX,
        Some(limit) => first.saturating_add(u64::try_from(limit).unwrap_or(0)),
    };
    let selection = select_lines(text, first, end, rules.drop_trailing_empty_line);
    let content = selection.slice.as_str(text);
    let tokens = estimate_tokens(content, rules.token_method, request.extension);
    if tokens > limits.max_tokens {
        return Err(ReadError::MaxFileReadTokenExceeded {
            tokens,
            max: limits.max_tokens,
        });
    }
    let empty_file = selection.body_start == text.len();
    let past_end = start_line > selection.total_lines;
    let notice = if !content.is_empty() {
        None
    } else if selection.total_lines == 0
        || (rules.warn_empty_file && empty_file && !(rules.past_end_warned_first && past_end))
    {
        Some(ReadNotice::EmptyFile)
    } else if rules.number_empty_last_line && selection.num_lines > 0 {
        None
    } else {
        Some(ReadNotice::ShorterThanOffset {
            start_line,
            total_lines: selection.total_lines,
        })
    };
    let text_out = match notice {
        Some(notice) => render_notice(notice),
        // Only with `number_empty_last_line`: the empty piece after the final line break.
        None if content.is_empty() => empty_line_numbered(start_line, rules.line_format),
        None => {
            let mut numbered = number_lines(content, start_line, rules.line_format);
            // Show exactly the lines counted: with Q16 fixed the empty piece after a final
            // line break is not a line, and `content` alone cannot tell it from an empty
            // last line (`"\n"` is one empty line plus that piece, or two empty lines).
            let shown = usize::try_from(selection.num_lines).unwrap_or(usize::MAX);
            if let Some((cut, _)) = numbered.match_indices('\n').nth(shown.saturating_sub(1)) {
                if shown > 0 {
                    numbered.truncate(cut);
                }
            }
            numbered
        }
    };
    Ok(TextRead {
        text: text_out,
        slice: selection.slice,
        start_line,
        num_lines: selection.num_lines,
        total_lines: selection.total_lines,
        notice,
    })
}

/// One empty line numbered `number`: the empty piece after a final line break, as Claude
/// Code 2.1.332 shows a range that selects only it.
fn empty_line_numbered(number: u64, format: LineFormat) -> String {
    match format {
        LineFormat::Compact => format!("{number}\t"),
        LineFormat::Legacy => format!("{number:>6}\u{2192}"),
    }
}

/// Prefixes each line of `content` with its number, from `start_line` (§3.5): lines are
/// split on `\r?\n` and re-joined with `\n`; empty content gives `""`.
///
/// # Example
/// ```
/// use context_assembly::read::{number_lines, LineFormat};
/// assert_eq!(number_lines("a\r\nb\n", 9, LineFormat::Compact), "9\ta\n10\tb\n11\t");
/// assert_eq!(number_lines("x", 7, LineFormat::Legacy), "     7→x");
/// assert_eq!(number_lines("", 1, LineFormat::Compact), "");
/// ```
pub fn number_lines(content: &str, start_line: u64, format: LineFormat) -> String {
    let mut out = String::with_capacity(content.len() + content.len() / 8 + 8);
    if content.is_empty() {
        return out;
    }
    let mut pieces = content.split('\n').peekable();
    let mut number = start_line;
    let mut first = true;
    while let Some(piece) = pieces.next() {
        // `\r?\n` splits: only a `\r` that stood before a `\n` goes.
        let line = match pieces.peek() {
            Some(_) => piece.strip_suffix('\r').unwrap_or(piece),
            None => piece,
        };
        if !first {
            out.push('\n');
        }
        first = false;
        // Writing to a String cannot fail.
        let _ = match format {
            LineFormat::Compact => write!(out, "{number}\t{line}"),
            LineFormat::Legacy => write!(out, "{number:>6}→{line}"),
        };
        number = number.saturating_add(1);
    }
    out
}

fn render_notice(notice: ReadNotice) -> String {
    match notice {
        ReadNotice::EmptyFile => String::from(EMPTY_FILE_WARNING),
        ReadNotice::ShorterThanOffset {
            start_line,
            total_lines,
        } => shorter_than_offset_warning(start_line, total_lines),
    }
}

struct Selection {
    slice: SliceText,
    num_lines: u64,
    total_lines: u64,
    body_start: usize,
}

/// Selects lines `[first, end)` (0-based) in one pass. In the original mode the selection
/// is its lines joined with `\n`; in the fixed mode (Q16) each line keeps its `\n`, so a
/// full read stores the file as it is.
fn select_lines(text: &str, first: u64, end: u64, drop_trailing_empty: bool) -> Selection {
    let body_start = if text.starts_with('\u{FEFF}') { 3 } else { 0 };
    let bytes = text.as_bytes();
    let mut range: Option<Range<usize>> = None;
    let mut cr_removed = false;
    let mut num_lines = 0u64;
    let mut index = 0u64;
    let mut line_start = body_start;
    loop {
        let newline =
            memchr::memchr(b'\n', bytes.get(line_start..).unwrap_or(&[])).map(|at| line_start + at);
        let line_end = newline.unwrap_or(bytes.len());
        let is_trailing_empty = newline.is_none() && line_start == bytes.len();
        if drop_trailing_empty && is_trailing_empty {
            break;
        }
        if index >= first && index < end {
            num_lines += 1;
            let keep_end = if drop_trailing_empty {
                newline.map_or(line_end, |at| at + 1)
            } else {
                line_end
            };
            let stripped = line_end > line_start && bytes.get(line_end - 1) == Some(&b'\r');
            cr_removed |= stripped;
            let start = range.as_ref().map_or(line_start, |r| r.start);
            range = Some(start..keep_end);
        }
        index += 1;
        match newline {
            Some(at) => line_start = at + 1,
            None => break,
        }
    }
    let slice = match range {
        None => SliceText::Source(body_start..body_start),
        Some(range) if !cr_removed => SliceText::Source(range),
        Some(range) => SliceText::Owned(join_without_cr(text.get(range).unwrap_or(""))),
    };
    Selection {
        slice,
        num_lines,
        total_lines: index,
        body_start,
    }
}

/// Removes the one `\r` before each `\n` and at the very end: the selection's lines had
/// theirs removed one by one.
fn join_without_cr(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (index, line) in text.split('\n').enumerate() {
        if index > 0 {
            out.push('\n');
        }
        out.push_str(line.strip_suffix('\r').unwrap_or(line));
    }
    out
}
