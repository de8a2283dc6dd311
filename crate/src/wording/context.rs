//! What every request carries before the conversation: the built-in system prompt and the
//! user-context block (claude-code.md §7.11), the memory files and the date in one
//! `<system-reminder>`.

use alloc::string::String;

/// The built-in static part of the system prompt.
pub const SYSTEM_PROMPT: &str = "You are a coding agent working in the user's repository. Use \
the tools to read, search and change files; keep changes small and explain what you did.";

/// The block's first line, after the opening tag.
pub const USER_CONTEXT_INTRO: &str = "The context below may help you answer the user's questions:";

/// The date line of the `# currentDate` section.
pub fn current_date(date: &str) -> String {
    let mut text = String::from("Today's date is ");
    text.push_str(date);
    text.push('.');
    text
}

/// The block's closing caution, after the sections.
pub const USER_CONTEXT_CAUTION: &str = "IMPORTANT: this context may or may not be relevant to \
the task at hand. Respond to it only if it is highly relevant.";
