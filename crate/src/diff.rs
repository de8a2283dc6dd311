//! STUB — to be replaced by the diff helper. Interface contract only.
use alloc::string::String;

/// Snippet switches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnippetRules {
    /// Q33.
    pub number_from_new_file: bool,
}

impl SnippetRules {
    /// Claude Code.
    pub fn claude_code() -> SnippetRules { SnippetRules { number_from_new_file: false } }
    /// Recommended.
    pub fn recommended() -> SnippetRules { SnippetRules { number_from_new_file: true } }
}

/// The snippet and how it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// The text.
    pub text: String,
}

/// Diff.
pub fn diff_snippet(_before: &str, _after: &str, _rules: &SnippetRules) -> Snippet { Snippet { text: String::new() } }
