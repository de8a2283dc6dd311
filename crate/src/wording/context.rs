//! What every request carries before the conversation: the built-in system prompt and the
//! user-context block (claude-code.md §7.11), the memory files and the date in one
//! `<system-reminder>`.

use alloc::format;
use alloc::string::String;

/// The built-in static part of the system prompt.
pub const SYSTEM_PROMPT: &str = "You are a coding agent working in the user's repository. Use \
the tools to read, search and change files; keep changes small and explain what you did.";

/// The block's first line, after the opening tag.
pub const USER_CONTEXT_INTRO: &str = "The context below may help you answer the user's questions:";

/// The first line of a stand-in for a text of a Claude Code release that the library does
/// not copy (`request::prefix`): what it stands for and the original's measured length.
pub fn stand_in_label(release: &str, what: &str, chars: u64) -> String {
    format!(
        "Stand-in for the {what} of Claude Code {release}: {chars} characters, as the \
         conformance lab measured them; the original text is not reproduced here."
    )
}

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

/// The facts of 2.1.332's environment note.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EnvironmentFacts<'a> {
    /// The working directory.
    pub cwd: &'a str,
    /// `linux`, `darwin`, `win32`.
    pub platform: &'a str,
    /// The working directory is in a git repository.
    pub git_repository: bool,
}

/// 2.1.332's environment note (a `system`-role note): the `# Environment` heading, then the
/// working directory, whether it is a repository, and the platform, one per line.
pub fn environment_note(facts: &EnvironmentFacts<'_>) -> String {
    let mut text = String::from("# Environment\nWhere this session runs:\n - Working directory: ");
    text.push_str(facts.cwd);
    text.push_str("\n - Inside a git repository: ");
    text.push_str(if facts.git_repository { "yes" } else { "no" });
    text.push_str("\n - Platform: ");
    text.push_str(facts.platform);
    text
}

/// 2.1.332's CLAUDE.md reminder: the rendered memory files (`render_claude_md`, preamble
/// included) in a reminder of their own.
pub fn instructions_note(claude_md: &str) -> String {
    super::wrap(claude_md)
}

/// 2.1.332's repository-state reminder: `git status` as the session began, under the
/// `# gitStatus` heading 2.1.88's user context gave it.
pub fn session_context_note(git_status: &str) -> String {
    let mut text = String::from(
        "# gitStatus\nThe repository as the session began (a snapshot, not kept up to date):\n",
    );
    text.push_str(git_status);
    super::wrap(&text)
}

/// 2.1.332's attribution reminder: the trailer a commit message ends with and the line a
/// pull request description ends with. The trailer is git's `Co-Authored-By:` form.
pub fn attribution_note() -> String {
    super::wrap(
        "From now on, credit your work in what you commit or open as a pull request:\n\
         - a commit message you write ends with this trailer:\n\
         Co-Authored-By: Claude <noreply@anthropic.com>\n\
         - a pull request description you write ends with this line:\n\
         Generated with Claude Code",
    )
}
