//! The summary hand-off of full compaction (spec claude-code.md §9.3): the request that asks
//! for a summary, the formatting of the answer, the message that carries it into the new
//! transcript, and a summariser that needs no model.
//!
//! * [`summary_request`] asks for the nine-section summary, as an `<analysis>` block followed
//!   by a `<summary>` block, in our own words with the original's structure.
//! * [`format_compact_summary`] turns the model's answer into the summary text, exactly as the
//!   original does (§9.3 item 8).
//! * [`summary_message`] wraps it for the first user message after the compaction.
//! * [`extractive_summary`] builds the summary from the records themselves, every line traced
//!   to the record it came from, for hosts without a model (or to compare against one).
//!
//! The original also strips images and documents from the messages it sends with the request
//! (`[image]` / `[document]`); the records of this library carry no media blocks, so there is
//! nothing to strip.
//!
//! ```
//! use context_assembly::compact::summary::{format_compact_summary, summary_message};
//! // Only the first analysis block goes, and a summary without its tags is kept as it is.
//! let raw = "<analysis>draft</analysis>\n\n\n<summary>\n  Done: A.  \n</summary>";
//! assert_eq!(format_compact_summary(raw), "Summary:\nDone: A.");
//! assert_eq!(format_compact_summary("  no tags\n\n\n\nat all "), "no tags\n\nat all");
//! let message = summary_message("Summary:\nDone: A.", None, false, true);
//! assert!(message.contains("\n\nSummary:\nDone: A.\n"));
//! ```

mod carry;
mod extractive;
pub(crate) mod json;
mod key_lines;

pub use extractive::{
    extractive_summary, ExtractiveSummary, ENTRY_CAP_CHARS, KEY_LINES_CAP, SECTION_CAP,
    USER_MESSAGES_CAP_CHARS,
};
pub use key_lines::{key_lines, line_template, KEY_LINES_PER_OUTPUT, MIN_OUTPUT_LINES};

use alloc::format;
use alloc::string::String;

use crate::js;

pub use crate::wording::compaction::{
    compact_command_messages, summary_message, summary_message_naming_tools, summary_request,
    SUMMARY_SECTIONS,
};

/// The summary text from the model's answer, as the original formats it (§9.3 item 8): the
/// first `<analysis>…</analysis>` is removed, the first `<summary>X</summary>` becomes
/// `Summary:\n` and X trimmed, runs of blank lines shrink to one, and the ends are trimmed
/// (JavaScript's whitespace).
///
/// The original builds the replacement as a JavaScript replacement pattern, so `$$`, `$&`,
/// `` $` `` and `$'` inside a summary are expanded there; here the summary is kept literally.
///
/// # Example
/// ```
/// use context_assembly::compact::summary::format_compact_summary;
/// // An unclosed analysis block is not a block: it stays.
/// assert_eq!(format_compact_summary("<analysis>a\n<summary>b</summary>"), "<analysis>a\nSummary:\nb");
/// // Only the first summary block is rewritten.
/// assert_eq!(
///     format_compact_summary("<summary> x </summary><summary>y</summary>"),
///     "Summary:\nx<summary>y</summary>",
/// );
/// ```
pub fn format_compact_summary(raw: &str) -> String {
    let mut text = String::from(raw);
    if let Some((start, end)) = first_block(&text, "<analysis>", "</analysis>") {
        text.replace_range(start..end, "");
    }
    if let Some((start, end)) = first_block(&text, "<summary>", "</summary>") {
        let inner = &text[start + "<summary>".len()..end - "</summary>".len()];
        let replacement = format!("Summary:\n{}", js::trim(inner));
        text.replace_range(start..end, &replacement);
    }
    String::from(js::trim(&collapse_blank_lines(&text)))
}

/// The byte range of the first `open…close` block, close included (a lazy match: the first
/// close after the first open).
fn first_block(text: &str, open: &str, close: &str) -> Option<(usize, usize)> {
    let start = text.find(open)?;
    let after_open = start + open.len();
    let close_at = text.get(after_open..)?.find(close)?;
    Some((start, after_open + close_at + close.len()))
}

/// `\n\n+` → `\n\n`.
fn collapse_blank_lines(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut newlines = 0usize;
    for c in text.chars() {
        if c == '\n' {
            newlines += 1;
            if newlines <= 2 {
                out.push(c);
            }
        } else {
            newlines = 0;
            out.push(c);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn collapse_keeps_single_and_double_newlines() {
        assert_eq!(collapse_blank_lines("a\nb\n\nc\n\n\n\nd"), "a\nb\n\nc\n\nd");
        assert_eq!(collapse_blank_lines("a\r\n\r\n\r\nb"), "a\r\n\r\n\r\nb");
    }

    #[test]
    fn format_trims_with_javascript_whitespace() {
        let raw = "\u{feff}<summary>\u{3000}a\u{feff}</summary>\u{85}";
        assert_eq!(format_compact_summary(raw), "Summary:\na\u{85}");
    }
}
