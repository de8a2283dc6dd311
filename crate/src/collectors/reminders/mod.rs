//! The collectors of reminders: throttled, delta and event kinds (spec §7.3–7.8, §7.10,
//! §9.10).
//!
//! Every producer has the same shape:
//! `fn(&PassInput, &mut ReminderState, &AttachmentRules, TokenMethod, &mut Collected)`.
//! [`PassInput`] is what the session knows on this pass; [`ReminderState`] is what the
//! producers remember between passes (the original keeps it in module globals and app
//! state). The session calls the producers in the order of [`super::EMISSION_ORDER`].
//!
//! * [`plan_mode`](mod@plan_mode): plan and auto mode, throttled by human turns (§7.5).
//! * [`todo`](mod@todo): the todo and task nudges, throttled by assistant records (§7.6).
//! * [`listings`]: the skill listing and the three delta kinds.
//! * [`ide`]: the IDE's selection, opened file and diagnostics (§7.8).
//! * [`events`]: everything sent whenever its condition holds.
//!
//! Every sentence they write comes from [`crate::wording::reminders`].
//!
//! Cadences count records of the transcript; the session pushes a prompt, then the
//! attachments of its pass, then the response's records and tool results, then the
//! attachments of the next pass, and so on.

pub mod events;
pub mod ide;
pub mod listings;
pub mod plan_mode;
pub mod todo;

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use crate::attachment::{AttachmentRules, Collected};
use crate::host::{
    BackgroundStatus, DiagnosticFile, IdeSelection, McpServer, PermissionMode, Skill, TaskItem,
    TodoItem,
};
use crate::js::utf16_len;
use crate::tokens::TokenMethod;
use crate::transcript::Transcript;

pub use events::{
    budget_usd, compaction_reminder, critical_system_reminder, date_change, output_style,
    output_token_usage, queued_commands, task_status, token_usage, ultrathink_effort,
};
pub use ide::{diagnostics, ide_opened_file, ide_selection};
pub use listings::{
    agent_listing_delta, deferred_tools_delta, mcp_instructions_delta, skill_listing,
};
pub use plan_mode::{auto_mode, auto_mode_exit, plan_mode, plan_mode_exit};
pub use todo::todo_reminders;

/// The shape every producer has.
pub type Producer =
    fn(&PassInput<'_>, &mut ReminderState, &AttachmentRules, TokenMethod, &mut Collected);

/// What the session knows on one pass of the pipeline.
pub struct PassInput<'a> {
    /// The records so far. On a human turn it does not yet hold the new prompt (as in the
    /// original); the session pushes the prompt, then this pass's attachments.
    pub transcript: &'a Transcript,
    /// The prompt being submitted: `Some` on a human turn, `None` on a tool round.
    pub prompt: Option<&'a str>,
    /// The pass runs for a sub-agent: phase-3 producers stay silent, plan mode uses its
    /// sub-agent text.
    pub is_sub_agent: bool,
    /// The permission mode now.
    pub mode: PermissionMode,
    /// The plan file's path.
    pub plan_file: &'a str,
    /// The plan file exists.
    pub plan_exists: bool,
    /// Plan mode's interview workflow.
    pub interview_mode: bool,
    /// The local date, `YYYY-MM-DD`.
    pub today: &'a str,
    /// Names of the tools the model can call now (deferred tools excluded).
    pub tool_names: &'a [&'a str],
    /// Names of the tools loaded on demand.
    pub deferred_tools: &'a [String],
    /// Agent types the agent tool can launch.
    pub agents: &'a [String],
    /// Connected MCP servers.
    pub mcp_servers: &'a [McpServer],
    /// Skills the Skill tool can run.
    pub skills: &'a [Skill],
    /// The model's context window in tokens (sizes the skill listing's budget).
    pub context_window: u64,
    /// `SLASH_COMMAND_TOOL_CHAR_BUDGET`: the skill listing's budget in characters, in place
    /// of the window's share; `None` or 0: the share.
    pub skill_char_budget: Option<u64>,
    /// The effective window: the context window minus the output reserve (§9.1).
    pub effective_window: u64,
    /// The conversation's size in tokens as the thresholds read it (§6.3; for
    /// `compaction_reminder`).
    pub context_tokens: u64,
    /// Input tokens of the last request, if one was made (`token_usage`'s `used`; 0 when
    /// none, as the original).
    pub last_request_tokens: Option<u64>,
    /// The TodoWrite list.
    pub todos: &'a [TodoItem],
    /// The task tools' tasks.
    pub tasks: &'a [TaskItem],
    /// Text the agent definition wants repeated on every pass.
    pub critical_reminder: Option<&'a str>,
    /// The output style's name; `None` or `default`: none.
    pub output_style: Option<&'a str>,
    /// `CLAUDE_CODE_ENABLE_TOKEN_USAGE_ATTACHMENT`.
    pub token_usage_reminder: bool,
    /// The spending limit in US cents.
    pub budget_usd_cents: Option<u64>,
    /// Spent so far, in US cents.
    pub spent_usd_cents: u64,
    /// The output-token budget.
    pub output_token_budget: Option<u64>,
    /// Output tokens spent against that budget.
    pub output_tokens: u64,
    /// Auto mode exists in this build (TRANSCRIPT_CLASSIFIER).
    pub auto_mode_available: bool,
    /// Compaction reminders exist (COMPACTION_REMINDERS with `tengu_marble_fox`) and
    /// auto-compaction is on.
    pub compaction_reminders: bool,
    /// Messages the user typed while the agent was working, oldest first.
    pub queued: &'a [String],
    /// The IDE's selection.
    pub selection: Option<&'a IdeSelection>,
    /// The file open in the IDE's active editor.
    pub opened_file: Option<&'a str>,
    /// Diagnostics the IDE reported since the last pass.
    pub diagnostics: &'a [DiagnosticFile],
    /// Background tasks to report: (id, description, status).
    pub task_statuses: &'a [(String, String, BackgroundStatus)],
    /// The Read deny rule matching an absolute path, if one does.
    pub is_denied: &'a dyn Fn(&str) -> Option<String>,
}

fn never_denied(_: &str) -> Option<String> {
    None
}

impl<'a> PassInput<'a> {
    /// A tool round over `transcript` with every feature off: default permission mode, no
    /// tools, registries or IDE state, a 200,000-token window (180,000 effective), nothing
    /// denied. Set the fields a pass needs with struct update syntax.
    ///
    /// # Example
    /// ```
    /// use context_assembly::collectors::reminders::{self, PassInput, ReminderState};
    /// use context_assembly::attachment::{AttachmentRules, Collected};
    /// use context_assembly::tokens::TokenMethod;
    /// use context_assembly::transcript::Transcript;
    ///
    /// let transcript = Transcript::default();
    /// let mut state = ReminderState::default();
    /// let rules = AttachmentRules::claude_code();
    /// let mut out = Collected::default();
    /// // The first pass only records the date; a later pass with another date reports it.
    /// for today in ["2026-03-31", "2026-04-01"] {
    ///     let input = PassInput { today, ..PassInput::new(&transcript) };
    ///     reminders::date_change(&input, &mut state, &rules, TokenMethod::ClaudeCode, &mut out);
    /// }
    /// assert_eq!(out.attachments.len(), 1);
    /// assert!(out.attachments[0].text.contains("2026-04-01"));
    /// ```
    pub fn new(transcript: &'a Transcript) -> PassInput<'a> {
        PassInput {
            transcript,
            prompt: None,
            is_sub_agent: false,
            mode: PermissionMode::Default,
            plan_file: "",
            plan_exists: false,
            interview_mode: false,
            today: "",
            tool_names: &[],
            deferred_tools: &[],
            agents: &[],
            mcp_servers: &[],
            skills: &[],
            context_window: 200_000,
            skill_char_budget: None,
            effective_window: 180_000,
            context_tokens: 0,
            last_request_tokens: None,
            todos: &[],
            tasks: &[],
            critical_reminder: None,
            output_style: None,
            token_usage_reminder: false,
            budget_usd_cents: None,
            spent_usd_cents: 0,
            output_token_budget: None,
            output_tokens: 0,
            auto_mode_available: false,
            compaction_reminders: false,
            queued: &[],
            selection: None,
            opened_file: None,
            diagnostics: &[],
            task_statuses: &[],
            is_denied: &never_denied,
        }
    }

    fn has_tool(&self, name: &str) -> bool {
        self.tool_names.contains(&name)
    }
}

/// What the producers remember between passes. One per agent: a sub-agent has its own
/// (the skill listing is sent once per agent).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct ReminderState {
    /// The date `date_change` saw last; `None` before the first pass.
    last_date: Option<String>,
    /// Deferred tool names the model has been told about.
    announced_tools: Vec<String>,
    /// Agent types the model has been told about.
    announced_agents: Vec<String>,
    /// MCP servers (name, instructions) whose instructions the model has been given.
    announced_mcp: Vec<(String, String)>,
    /// Skill names listed, or left out of a listing for its budget (`sentSkillNames`).
    listed_skills: BTreeSet<String>,
    /// Plan mode was left in this session (`hasExitedPlanModeInSession`); cleared when the
    /// re-entry reminder is sent.
    exited_plan_mode: bool,
    /// The exit from plan mode is still to be announced; holds whether the plan file
    /// existed when plan mode was left.
    pending_plan_exit: Option<bool>,
    /// The exit from auto mode is still to be announced.
    pending_auto_exit: bool,
    /// The compaction reminder was sent since the context last crossed its threshold (Q62).
    compaction_reminded: bool,
}

impl ReminderState {
    /// The user or the agent entered plan mode: an exit not yet announced is dropped.
    pub fn enter_plan_mode(&mut self) {
        self.pending_plan_exit = None;
    }

    /// Plan mode was left: the next pass outside plan mode announces it (saying where the
    /// plan is when `plan_exists`), and entering plan mode again later starts with the
    /// re-entry reminder.
    pub fn exit_plan_mode(&mut self, plan_exists: bool) {
        self.exited_plan_mode = true;
        self.pending_plan_exit = Some(plan_exists);
    }

    /// Auto mode was entered: an exit not yet announced is dropped.
    pub fn enter_auto_mode(&mut self) {
        self.pending_auto_exit = false;
    }

    /// Auto mode was left: the next pass outside auto mode announces it.
    pub fn exit_auto_mode(&mut self) {
        self.pending_auto_exit = true;
    }

    /// The transcript was compacted: the three delta kinds are announced in full again
    /// (§9.3 item 6) and the compaction reminder is re-armed. Skills already listed are
    /// not listed again (`sentSkillNames` survives compaction, §9.11).
    pub fn after_compaction(&mut self) {
        self.announced_tools.clear();
        self.announced_agents.clear();
        self.announced_mcp.clear();
        self.compaction_reminded = false;
    }
}

/// The longest prefix of `text` of at most `max_units` UTF-16 units that does not split a
/// character (a surrogate pair stays whole), and whether anything was cut.
fn utf16_prefix(text: &str, max_units: usize) -> (&str, bool) {
    let mut units = 0;
    for (at, c) in text.char_indices() {
        units += c.len_utf16();
        if units > max_units {
            return (text.get(..at).unwrap_or_default(), true);
        }
    }
    (text, false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_prefix_never_splits_a_surrogate_pair() {
        assert_eq!(utf16_prefix("a😀b", 2), ("a", true));
        assert_eq!(utf16_prefix("a😀b", 3), ("a😀", true));
        assert_eq!(utf16_prefix("a😀b", 4), ("a😀b", false));
        assert_eq!(utf16_len("a😀b"), 4);
    }

    #[test]
    fn entering_plan_mode_drops_an_unannounced_exit() {
        let mut state = ReminderState::default();
        state.exit_plan_mode(true);
        state.enter_plan_mode();
        assert_eq!(state.pending_plan_exit, None);
        assert!(state.exited_plan_mode);
    }
}
