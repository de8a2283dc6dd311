//! Memory as the model reads it: the sentences of relevant memories, in our own words; the format facts
//! (`Memory: {path}:`, `Memory (saved today): {path}:`, the `\n\n> ` before a truncation
//! note, its reason strings) are the original's (spec §7.9).

use alloc::format;
use alloc::string::String;

/// Milliseconds in a day: a memory's age is counted in whole days.
const DAY_MS: u64 = 86_400_000;

/// Whole days between `mtime_ms` and `now_ms`; a time in the future is today.
pub fn age_days(mtime_ms: u64, now_ms: u64) -> u64 {
    now_ms.saturating_sub(mtime_ms) / DAY_MS
}

/// The line before a memory's content, computed once when it is surfaced (`memoryHeader`):
/// `Memory (saved today): {path}:` or `Memory (saved yesterday): {path}:` for a memory
/// under two days old, else a warning giving its age in days, a blank line and
/// `Memory: {path}:`. Days are `floor((now − mtime) / 86_400_000)`; a future mtime counts
/// as today.
///
/// # Example
/// ```
/// use context_assembly::wording::memory::memory_header;
/// const DAY: u64 = 86_400_000;
/// let now = 10 * DAY;
/// assert_eq!(memory_header("/m/a.md", now - 1, now), "Memory (saved today): /m/a.md:");
/// assert_eq!(memory_header("/m/a.md", now + DAY, now), "Memory (saved today): /m/a.md:");
/// // One millisecond short of two days is still "yesterday".
/// assert_eq!(memory_header("/m/a.md", now - (2 * DAY - 1), now), "Memory (saved yesterday): /m/a.md:");
/// let old = memory_header("/m/a.md", now - 2 * DAY, now);
/// assert!(old.starts_with("This memory was saved 2 days ago."));
/// assert!(old.ends_with("\n\nMemory: /m/a.md:"));
/// ```
pub fn memory_header(path: &str, mtime_ms: u64, now_ms: u64) -> String {
    match age_days(mtime_ms, now_ms) {
        0 => format!("Memory (saved today): {path}:"),
        1 => format!("Memory (saved yesterday): {path}:"),
        days => format!("{}\n\nMemory: {path}:", staleness(days)),
    }
}

/// The warning before an old memory.
fn staleness(days: u64) -> String {
    format!(
        "This memory was saved {days} days ago. A memory records what was true when it was \
         written, so what it says about the code, file:line references included, may be out \
         of date: check it against the current code before you state it as fact."
    )
}

/// What follows a cut memory's content: `\n\n> ` and a sentence naming why it was cut
/// (`reason`: `4096 byte limit` or `first 200 lines`) and where the whole file is, ending
/// with its path.
pub fn truncation_note(reason: &str, path: &str) -> String {
    format!(
        "\n\n> Only part of this memory is shown ({reason}). Read the complete file with the \
         Read tool: {path}"
    )
}

/// How a memory file opens (claude-code.md §8.6): `Contents of {path}:` or, with what the
/// file is, `Contents of {path} ({description}):`, then a blank line and the content as given.
pub fn memory_contents(path: &str, description: Option<&str>, content: &str) -> String {
    match description {
        Some(description) => format!("Contents of {path} ({description}):\n\n{content}"),
        None => format!("Contents of {path}:\n\n{content}"),
    }
}

/// What opens the `# claudeMd` section of the user context, before the memory files.
pub const CLAUDE_MD_PREAMBLE: &str = "The instructions below come from this codebase and from \
the user, and you must follow them. IMPORTANT: they take precedence over your default \
behaviour, and you must follow them exactly as written.";

/// Project instructions (CLAUDE.md, project rules), described in a memory file's path line.
pub const PROJECT_INSTRUCTIONS: &str = "project instructions, kept in the repository";
/// CLAUDE.local.md, described in a memory file's path line.
pub const LOCAL_INSTRUCTIONS: &str =
    "the user's private instructions for this project, not checked in";
/// The user's own memory file, described in a memory file's path line.
pub const USER_INSTRUCTIONS: &str = "the user's own instructions for every project";
/// The organisation's managed memory file, described in a memory file's path line.
pub const MANAGED_INSTRUCTIONS: &str = "instructions set by the organisation for every project";

/// What follows a MEMORY.md index cut at its limits; `limits` says which were passed
/// (`longer than 200 lines`, …).
pub fn index_truncation_warning(limits: &str) -> String {
    format!(
        "\n\n> WARNING: MEMORY.md is {limits}, so only its beginning was loaded. Keep each \
         index entry to one short line and move details into topic files."
    )
}
