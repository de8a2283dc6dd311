//! Directory listings for a mentioned directory (spec/claude-code.md §3.8, Q24).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::ReadRules;

/// One entry of a directory, as the virtual FS lists it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct DirEntry<'a> {
    /// The entry's name (no `/`).
    pub name: &'a str,
    /// Whether it is a directory.
    pub is_dir: bool,
}

/// Lists a directory as a mention sends it: names in byte order (`.` and `..` left out),
/// the first `max_dir_entries` of them, then `… and {n} more entries`, joined with `\n`.
/// With `mark_directories` (Q24) a directory's name ends with `/`.
///
/// # Example
/// ```
/// use context_assembly::read::{list_directory, DirEntry, ReadRules};
/// let entries = [
///     DirEntry { name: "b.rs", is_dir: false },
///     DirEntry { name: "Z", is_dir: true },
///     DirEntry { name: ".env", is_dir: false },
/// ];
/// assert_eq!(list_directory(&entries, &ReadRules::claude_code()), ".env\nZ\nb.rs");
/// let mut rules = ReadRules::recommended();
/// rules.limits.max_dir_entries = 2;
/// assert_eq!(list_directory(&entries, &rules), ".env\nZ/\n… and 1 more entries");
/// ```
pub fn list_directory(entries: &[DirEntry<'_>], rules: &ReadRules) -> String {
    let mut names: Vec<&DirEntry<'_>> = entries
        .iter()
        .filter(|entry| !matches!(entry.name, "." | ".."))
        .collect();
    crate::sort::sort_by(&mut names, |a, b| a.name.as_bytes().cmp(b.name.as_bytes()));
    let shown = names.len().min(rules.limits.max_dir_entries);
    let mut lines: Vec<String> = names
        .iter()
        .take(shown)
        .map(|entry| {
            let mark = if rules.mark_directories && entry.is_dir {
                "/"
            } else {
                ""
            };
            format!("{}{mark}", entry.name)
        })
        .collect();
    if names.len() > shown {
        lines.push(format!("\u{2026} and {} more entries", names.len() - shown));
    }
    lines.join("\n")
}
