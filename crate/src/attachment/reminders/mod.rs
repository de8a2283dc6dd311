//! The collectors of reminders: throttled, delta and event kinds (spec §7.3–7.8, §7.10).
//! SHIM (replaced by the reminders branch).
#![allow(missing_docs, unused)]
use crate::attachment::{AttachmentRules, Collected};
use crate::session::*;
use crate::tokens::TokenMethod;
use crate::transcript::Transcript;
use alloc::string::String;

pub struct PassInput<'a> {
    pub transcript: &'a Transcript,
    pub prompt: Option<&'a str>,
    pub is_sub_agent: bool,
    pub mode: PermissionMode,
    pub plan_file: &'a str,
    pub plan_exists: bool,
    pub interview_mode: bool,
    pub today: &'a str,
    pub tool_names: &'a [&'a str],
    pub deferred_tools: &'a [String],
    pub agents: &'a [String],
    pub mcp_servers: &'a [McpServer],
    pub skills: &'a [Skill],
    pub context_window: u64,
    pub effective_window: u64,
    pub context_tokens: u64,
    pub last_request_tokens: Option<u64>,
    pub todos: &'a [TodoItem],
    pub tasks: &'a [TaskItem],
    pub critical_reminder: Option<&'a str>,
    pub output_style: Option<&'a str>,
    pub token_usage_reminder: bool,
    pub budget_usd_cents: Option<u64>,
    pub spent_usd_cents: u64,
    pub output_token_budget: Option<u64>,
    pub output_tokens: u64,
    pub auto_mode_available: bool,
    pub compaction_reminders: bool,
    pub queued: &'a [String],
    pub selection: Option<&'a IdeSelection>,
    pub opened_file: Option<&'a str>,
    pub diagnostics: &'a [DiagnosticFile],
    pub task_statuses: &'a [(String, String, BackgroundStatus)],
    pub is_denied: &'a dyn Fn(&str) -> Option<String>,
}
#[derive(Debug, Default, Clone)]
pub struct ReminderState;
impl ReminderState {
    pub fn enter_plan_mode(&mut self) {}
    pub fn exit_plan_mode(&mut self) {}
    pub fn enter_auto_mode(&mut self) {}
    pub fn exit_auto_mode(&mut self) {}
    pub fn after_compaction(&mut self) {}
}
macro_rules! shim { ($($n:ident),*) => { $(pub fn $n(_: &PassInput<'_>, _: &mut ReminderState, _: &AttachmentRules, _: TokenMethod, _: &mut Collected) {})* } }
shim!(
    queued_commands,
    date_change,
    ultrathink_effort,
    deferred_tools_delta,
    agent_listing_delta,
    mcp_instructions_delta,
    skill_listing,
    plan_mode,
    plan_mode_exit,
    auto_mode,
    auto_mode_exit,
    todo_reminders,
    critical_system_reminder,
    compaction_reminder,
    ide_selection,
    ide_opened_file,
    output_style,
    diagnostics,
    token_usage,
    budget_usd,
    output_token_usage,
    task_status
);
