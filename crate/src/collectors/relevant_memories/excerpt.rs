//! What of a memory file is surfaced: Claude Code's
//! `readFileInRange(path, 0, 200, 4096, signal, {truncateOnByteLimit: true})` (spec §3.2,
//! §7.9), keeping the whole lines that fit, then a note when anything was cut.

use alloc::format;
use alloc::string::String;

use crate::attachment::AttachmentRules;
use crate::wording::memory::truncation_note;

/// The surfaced text of one memory, as the attachment shows it and the read-file state
/// stores it (spec §4.4: content as injected, `limit` = its line count when cut).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MemoryExcerpt {
    /// The lines kept, joined with `\n`, followed by the truncation note when cut.
    pub content: String,
    /// Lines kept when the file was cut (the file-state entry's `limit`); `None` when whole.
    pub truncated_lines: Option<u64>,
    /// Why it was cut: `"4096 byte limit"` or `"first 200 lines"` (with the rules' numbers).
    pub truncation: Option<String>,
}

/// The excerpt of a memory file `text` at `path` under the rules' line and byte limits.
///
/// A UTF-8 BOM is dropped; lines split on `\n` lose one trailing `\r`; the piece after the
/// last `\n` is a line even when empty (so a 200-line file ending in a newline has 201 and
/// is cut, as in the original). Lines are kept while they and the `\n`s between them fit
/// in `memory_max_bytes` bytes; the first line that does not fit ends the excerpt. A cut
/// gets the byte reason when bytes ran out, else the line reason.
///
/// The session calls this again for each path [`relevant_memories`](super::relevant_memories)
/// surfaced, to write its read-file-state entry; the result is the same.
///
/// # Example
/// ```
/// use context_assembly::attachment::AttachmentRules;
/// use context_assembly::collectors::relevant_memories::memory_excerpt;
/// let rules = AttachmentRules { memory_max_bytes: 8, ..AttachmentRules::claude_code() };
/// // "abc\ndef" is 7 bytes; adding "\nghi" would make 11: the excerpt stops there.
/// let cut = memory_excerpt("/m/a.md", "abc\r\ndef\nghi", &rules);
/// assert!(cut.content.starts_with("abc\ndef\n\n> "));
/// assert!(cut.content.ends_with("/m/a.md"));
/// assert_eq!(cut.truncated_lines, Some(2));
/// assert_eq!(cut.truncation.as_deref(), Some("8 byte limit"));
/// // A single line over the limit leaves nothing but the note.
/// assert_eq!(memory_excerpt("/m/b.md", "too long a line", &rules).truncated_lines, Some(0));
/// ```
pub fn memory_excerpt(path: &str, text: &str, rules: &AttachmentRules) -> MemoryExcerpt {
    let body = text.strip_prefix('\u{FEFF}').unwrap_or(text);
    let mut content = String::new();
    let mut lines = 0u64;
    let mut by_bytes = false;
    let mut more_lines = false;
    for (index, piece) in body.split('\n').enumerate() {
        if index >= rules.memory_max_lines {
            more_lines = true;
            break;
        }
        let line = piece.strip_suffix('\r').unwrap_or(piece);
        let separator = usize::from(lines > 0);
        let kept = content.len().saturating_add(separator);
        if kept.saturating_add(line.len()) > rules.memory_max_bytes {
            by_bytes = true;
            break;
        }
        if separator > 0 {
            content.push('\n');
        }
        content.push_str(line);
        lines += 1;
    }
    let truncation = if by_bytes {
        Some(format!("{} byte limit", rules.memory_max_bytes))
    } else if more_lines {
        Some(format!("first {} lines", rules.memory_max_lines))
    } else {
        None
    };
    if let Some(reason) = &truncation {
        content.push_str(&truncation_note(reason, path));
    }
    MemoryExcerpt {
        content,
        truncated_lines: truncation.is_some().then_some(lines),
        truncation,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    fn rules() -> AttachmentRules {
        AttachmentRules::claude_code()
    }

    #[test]
    fn a_small_file_is_whole_and_keeps_a_trailing_empty_line() {
        let whole = memory_excerpt("/m/a.md", "\u{FEFF}a\r\nb\n", &rules());
        assert_eq!(whole.content, "a\nb\n");
        assert_eq!(whole.truncated_lines, None);
        assert_eq!(memory_excerpt("/m/e.md", "", &rules()).content, "");
    }

    #[test]
    fn two_hundred_lines_and_a_final_newline_are_cut_as_in_the_original() {
        let text = "x\n".repeat(200);
        let cut = memory_excerpt("/m/a.md", &text, &rules());
        assert_eq!(cut.truncation.as_deref(), Some("first 200 lines"));
        assert_eq!(cut.truncated_lines, Some(200));
        let exact = memory_excerpt("/m/a.md", text.trim_end(), &rules());
        assert_eq!(exact.truncated_lines, None);
    }

    #[test]
    fn the_byte_reason_wins_and_counts_separators() {
        let line = "é".repeat(1000); // 2000 bytes
                                     // 2000 + 1 + 2000 bytes fit, a third line does not; 300 more lines change nothing.
        let text = [line.as_str(), line.as_str(), line.as_str()].join("\n") + &"\nz".repeat(300);
        let cut = memory_excerpt("/m/a.md", &text, &rules());
        assert_eq!(cut.truncation.as_deref(), Some("4096 byte limit"));
        assert_eq!(cut.truncated_lines, Some(2));
        let fitting = [line.as_str(), line.as_str()].join("\n") + "\n" + &"z".repeat(94);
        assert_eq!(fitting.len(), 4096);
        assert_eq!(
            memory_excerpt("/m/a.md", &fitting, &rules()).truncation,
            None
        );
        let over = fitting + "z";
        assert_eq!(
            memory_excerpt("/m/a.md", &over, &rules()).truncation,
            Some("4096 byte limit".to_string())
        );
    }
}
