//! STUB — to be replaced by the diff helper. Interface contract only.
use alloc::string::String;

/// Fallback.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BudgetFallback {
    /// none
    NoSnippet,
    /// replace
    ReplaceMiddle,
}

/// Snippet switches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SnippetRules {
    /// ctx
    pub context_lines: usize,
    /// cap
    pub max_len: usize,
    /// Q33.
    pub number_from_new_file: bool,
    /// Q34
    pub exact_truncated_count: bool,
    /// budget
    pub work_budget: u64,
    /// fallback
    pub on_budget_exhausted: BudgetFallback,
}

impl SnippetRules {
    /// Claude Code.
    pub fn claude_code() -> SnippetRules { SnippetRules { context_lines: 8, max_len: 8192, number_from_new_file: false, exact_truncated_count: false, work_budget: 1, on_budget_exhausted: BudgetFallback::NoSnippet } }
    /// Recommended.
    pub fn recommended() -> SnippetRules { SnippetRules { number_from_new_file: true, exact_truncated_count: true, on_budget_exhausted: BudgetFallback::ReplaceMiddle, ..Self::claude_code() } }
}

/// The snippet and how it was made.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Snippet {
    /// The text.
    pub text: String,
    /// hunks
    pub hunks: usize,
    /// truncated
    pub truncated_lines: Option<usize>,
    /// work
    pub work: u64,
    /// exhausted
    pub budget_exhausted: bool,
}

/// Diff.
pub fn diff_snippet(_before: &str, _after: &str, _rules: &SnippetRules) -> Snippet { Snippet { text: String::new(), hunks: 0, truncated_lines: None, work: 0, budget_exhausted: false } }
