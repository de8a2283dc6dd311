//! The file collectors (spec claude-code.md §3.7–3.11, §5, §8): the prompt's @-mentions,
//! the files changed on disk, nested memory, and the eager memory of the user context. Each is a method of `FileContext`, the
//! small input they share: the workspace they read and update, and the rules of one profile.
//!
//! They write attachments and decisions into a [`crate::attachment::Collected`]; the
//! session decides when each runs (the emission order, [`super::EMISSION_ORDER`]).

mod changed_files;
mod eager_memory;
pub(crate) mod memory_gate;
mod mentions;
mod nested_memory;
mod rules;

use alloc::format;
use alloc::string::String;

use crate::attachment::{Collected, Verdict};
use crate::diff::SnippetRules;
use crate::host::McpResource;
use crate::mention::MentionRules;
use crate::tokens::TokenMethod;
use crate::workspace::Workspace;

pub use rules::FileContextRules;

/// What the file collectors of one pass read and update.
pub(crate) struct FileContext<'a> {
    /// The files, the deny rules, the read-file state and memory.
    pub workspace: &'a mut Workspace,
    /// The file-context switches.
    pub rules: &'a FileContextRules,
    /// The @-mention grammar.
    pub mentions: &'a MentionRules,
    /// How a change is shown; `None`: changes are not diffed.
    pub change_snippets: Option<&'a SnippetRules>,
    /// A mentioned file's call and result go as two messages (the original's form).
    pub file_parts_as_messages: bool,
    /// How attachments are counted.
    pub token_method: TokenMethod,
    /// Resources of connected MCP servers, for `@server:uri` mentions.
    pub mcp_resources: &'a [McpResource],
    /// Known agent types, for `@agent-…` mentions.
    pub agents: &'a [String],
}

impl FileContext<'_> {
    /// Spends `units` of the pass's work budget on `subject`; when the budget cannot cover
    /// them, the work is cancelled and the decision says so.
    pub(crate) fn take_work(&mut self, units: u64, subject: &str, out: &mut Collected) -> bool {
        if self.workspace.take_work(units) {
            return true;
        }
        out.decide(
            subject,
            Verdict::OverBudget,
            "the pass's work budget ran out before this file could be read (the budget \
             stands in for the original's 1000 ms deadline)"
                .into(),
            Some(format!("{units} work units needed")),
        );
        false
    }
}
