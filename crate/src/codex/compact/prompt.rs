//! The texts of local compaction (spec codex.md §4.4), in our own words with the original's
//! layout: the prompt that asks for a handoff summary, and the prefix the summary is installed
//! under.

/// The compaction prompt (`SUMMARIZATION_PROMPT`, §4.4): appended as the **last user message**
/// of the compaction request, not as a system prompt (X3). Layout as the original's: an opening
/// paragraph, a blank line, an `Include:` heading, four bullets, a blank line, one closing line.
pub const SUMMARIZATION_PROMPT: &str = "\
You are at a context checkpoint: the conversation so far is about to be compacted. Write a \
handoff summary that another model can use to pick up this task exactly where it stands.

Include:
- What has been done so far, and the key decisions taken
- Important context, constraints and preferences the user stated
- What is left to do, as clear next steps
- Critical data, examples or references needed to carry on

Keep it concise and structured, so the next model can continue without missing a beat.
";

/// The prefix of an installed summary (`SUMMARY_PREFIX`, §4.4): one paragraph ending in a colon,
/// with no trailing newline. A summary message is this prefix, `"\n"`, then the summary text;
/// [`is_summary_message`](super::is_summary_message) recognises it by exactly that start.
pub const SUMMARY_PREFIX: &str = "\
An earlier model run worked on this same task and left the summary below. The tool state it \
produced (files, processes, changes) is still in place, so build on that work rather than \
repeating it. Its summary:";

/// The approximate tokens of real user messages local compaction keeps (§4.3 step 7, X5).
pub const COMPACT_USER_MESSAGE_MAX_TOKENS: u64 = 20_000;

/// What the summary message says when the summary text is empty (§4.3 step 7). Unreachable in
/// the original, whose summary text always starts with the prefix (X4).
pub const NO_SUMMARY_AVAILABLE: &str = "(no summary available)";
