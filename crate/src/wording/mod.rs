//! Every model-facing sentence of the engine, in our own words: the one place a wording
//! change is made, and reviewed (`crate/tests/wording.rs` renders each function into a
//! snapshot, so a changed sentence shows as a diff of `crate/tests/snapshots/wording.txt`).
//!
//! The originals' structure and format facts are kept byte for byte (the `<system-reminder>`
//! wrapper, headings, tags, line layouts, truncation markers); their sentences are described
//! in the specs and written here afresh. Code elsewhere decides *what* to say and calls these
//! functions for *how*: a collector never writes a sentence of its own.
//!
//! * [`files`]: notes about files and tools (mentions, changes on disk, images, PDFs, agents,
//!   MCP resources, Read's warnings and failures).
//! * [`reminders`]: the throttled, delta and event reminders (plan mode, todos, IDE state,
//!   usage, listings).
//! * [`compaction`]: what a compaction adds back (plan file, skills, references) and what a
//!   cheap policy writes in place of what it clears.
//! * [`memory`]: memory files as the model reads them (path lines, the `# claudeMd`
//!   preamble, relevant memories' headers, truncation warnings).
//! * [`context`]: the system prompt and the user-context block sent with every request.
//! * [`tools`]: what the session's own tools answer (Read, Edit, Write, the lists, plan
//!   approval, calls that never ran) and the built-in tools' descriptions.

pub mod compaction;
pub mod context;
pub mod files;
pub mod memory;
pub mod reminders;
pub mod tools;

use alloc::format;
use alloc::string::String;

/// `<system-reminder>\n{content}\n</system-reminder>` (claude-code.md §7.1).
///
/// ```
/// use context_assembly::wording::wrap;
/// assert_eq!(wrap("hi"), "<system-reminder>\nhi\n</system-reminder>");
/// ```
pub fn wrap(content: &str) -> String {
    format!("<system-reminder>\n{content}\n</system-reminder>")
}

/// The content of a note wrapped by [`wrap`], trimmed, or the trimmed text when it is not
/// wrapped: what 2.1.332 sends of a note in a `system`-role message, which has no wrapper.
///
/// ```
/// use context_assembly::wording::{unwrap_reminder, wrap};
/// assert_eq!(unwrap_reminder(&wrap("a\n\nb")), "a\n\nb");
/// assert_eq!(unwrap_reminder("  plain\n"), "plain");
/// ```
pub fn unwrap_reminder(text: &str) -> &str {
    let trimmed = text.trim();
    trimmed
        .strip_prefix("<system-reminder>")
        .and_then(|rest| rest.strip_suffix("</system-reminder>"))
        .map_or(trimmed, str::trim)
}

/// A JSON string literal, as `JSON.stringify` writes a string: how the originals quote paths
/// and inputs inside sentences.
pub fn json_string(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    crate::js::write_json_string(value, &mut out);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_match_json_stringify() {
        assert_eq!(
            json_string("/p/a \"b\"\\c\n\u{1}é"),
            "\"/p/a \\\"b\\\"\\\\c\\n\\u0001é\""
        );
    }
}
