//! The auto-memory index `MEMORY.md` and its size limits (spec claude-code.md §8.4).

use alloc::string::{String, ToString};

use crate::js::is_whitespace as is_js_space;
use crate::js::utf16_len;
use crate::wording::memory::index_truncation_warning;

/// Lines of the `MEMORY.md` index kept (`MAX_ENTRYPOINT_LINES`).
pub const MAX_INDEX_LINES: usize = 200;
/// UTF-16 units of the `MEMORY.md` index kept (`MAX_ENTRYPOINT_BYTES`, a length in
/// JavaScript units despite its name).
pub const MAX_INDEX_UNITS: usize = 25_000;

/// The `MEMORY.md` index as the model sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IndexTruncation {
    /// The trimmed index, cut when too long, with a warning appended when cut.
    pub content: String,
    /// More than [`MAX_INDEX_LINES`] lines.
    pub lines_cut: bool,
    /// More than [`MAX_INDEX_UNITS`] UTF-16 units.
    pub units_cut: bool,
}

/// Truncates the auto-memory index `MEMORY.md` (spec claude-code.md §8.4): the trimmed
/// text is cut to 200 lines, then to 25,000 UTF-16 units at the last line break before
/// that length (or at the length itself, on a character boundary, when there is none),
/// and a warning saying which limit was hit is appended.
///
/// # Example
/// ```
/// use context_assembly::memory::truncate_memory_index;
/// let index = "- entry\n".repeat(300);
/// let cut = truncate_memory_index(&index);
/// assert!(cut.lines_cut && !cut.units_cut);
/// assert!(cut.content.starts_with("- entry\n"));
/// assert_eq!(cut.content.matches("- entry").count(), 200);
/// // Short enough: only trimmed, no warning.
/// assert_eq!(truncate_memory_index("  - a\n").content, "- a");
/// ```
pub fn truncate_memory_index(raw: &str) -> IndexTruncation {
    let trimmed = raw.trim_matches(is_js_space);
    let lines_cut = trimmed.split('\n').count() > MAX_INDEX_LINES;
    let units_cut = utf16_len(trimmed) > MAX_INDEX_UNITS;
    if !lines_cut && !units_cut {
        return IndexTruncation {
            content: trimmed.to_string(),
            lines_cut,
            units_cut,
        };
    }
    let mut kept = trimmed;
    if lines_cut {
        let end = trimmed
            .match_indices('\n')
            .nth(MAX_INDEX_LINES - 1)
            .map_or(trimmed.len(), |(i, _)| i);
        kept = &trimmed[..end];
    }
    if utf16_len(kept) > MAX_INDEX_UNITS {
        let limit = byte_offset_of_unit(kept, MAX_INDEX_UNITS);
        // `lastIndexOf('\n', limit)` looks at the character at `limit` too.
        let window = limit + usize::from(kept.as_bytes().get(limit) == Some(&b'\n'));
        let cut_at = kept[..window].rfind('\n').filter(|&i| i > 0);
        kept = &kept[..cut_at.unwrap_or(limit)];
    }
    let reason = match (lines_cut, units_cut) {
        (true, true) => "longer than 200 lines and 25,000 characters",
        (true, false) => "longer than 200 lines",
        _ => "longer than 25,000 characters",
    };
    let mut content = String::with_capacity(kept.len() + 160);
    content.push_str(kept);
    content.push_str(&index_truncation_warning(reason));
    IndexTruncation {
        content,
        lines_cut,
        units_cut,
    }
}

/// The byte offset where UTF-16 unit `units` falls, moved back to a character boundary.
fn byte_offset_of_unit(text: &str, units: usize) -> usize {
    let mut seen = 0;
    for (i, c) in text.char_indices() {
        seen += c.len_utf16();
        if seen > units {
            return i;
        }
    }
    text.len()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_truncation_by_units_cuts_at_a_line_break() {
        let line = "x".repeat(199);
        let index = alloc::format!("{line}\n").repeat(150);
        let cut = truncate_memory_index(&index);
        assert!(!cut.lines_cut && cut.units_cut);
        let kept = cut.content.split("\n\n> WARNING").next().unwrap();
        assert_eq!(
            kept.len(),
            125 * 200 - 1,
            "cut at the last line break before 25,000"
        );
        assert!(kept.ends_with('x'));
        let emoji = "😀".repeat(20_000);
        let cut = truncate_memory_index(&emoji);
        let kept = cut.content.split("\n\n> WARNING").next().unwrap();
        assert_eq!(utf16_len(kept), 25_000);
    }
}
