//! What the host tells a session besides files: modes, the IDE's state, diagnostics,
//! registries, the user's answer to a plan.

use alloc::string::String;
use alloc::vec::Vec;

/// The user's answer to a plan (leaving plan mode).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PlanApproval {
    /// Approved: plan mode ends.
    pub approved: bool,
    /// What the user said; a rejection without feedback interrupts the turn (the next
    /// request carries the interruption marker).
    pub feedback: Option<String>,
}

crate::vocabulary::named_enum! {
    /// The permission modes (§7.5), named as settings files and scenarios spell them.
    pub enum PermissionMode {
    /// Ask before edits.
    Default => "default",
    /// Accept edits.
    AcceptEdits => "acceptEdits",
    /// Plan mode: read-only but for the plan file until the plan is approved.
    Plan => "plan",
    /// Auto mode (the transcript classifier decides).
    Auto => "auto",
    /// Everything allowed.
    BypassPermissions => "bypassPermissions",
    }
}

/// Ask before edits, until the host says otherwise.
impl Default for PermissionMode {
    fn default() -> Self {
        PermissionMode::Default
    }
}

/// An IDE selection (§7.8).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdeSelection {
    /// The file.
    pub path: String,
    /// The first line as the IDE reports it (probably 0-based, Q52).
    pub line_start: u64,
    /// Lines selected.
    pub line_count: u64,
    /// The selection ends at character 0 of its last line.
    pub ends_at_line_start: bool,
    /// The selected text.
    pub text: String,
}

/// Diagnostics of one file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DiagnosticFile {
    /// The file.
    pub path: String,
    /// Its diagnostics.
    pub items: Vec<Diagnostic>,
}

/// One diagnostic; `line` and `column` are 0-based as IDEs report them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Diagnostic {
    /// `error`, `warning`, `info` or `hint`.
    pub severity: Severity,
    /// 0-based line.
    pub line: u64,
    /// 0-based column.
    pub column: u64,
    /// The message.
    pub message: String,
    /// The rule or error code.
    pub code: Option<String>,
    /// The tool that reported it.
    pub source: Option<String>,
}

/// A diagnostic's severity.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Severity {
    /// An error.
    Error,
    /// A warning.
    Warning,
    /// Information.
    Info,
    /// A hint.
    Hint,
}

/// A background task's status.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum BackgroundStatus {
    /// Still running.
    Running,
    /// Stopped by the user.
    Killed,
}

/// A skill the Skill tool can run (§7.10).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Skill {
    /// Its name.
    pub name: String,
    /// What it does; cut to the profile's cap in the listing.
    pub description: String,
}

/// A connected MCP server and the instructions it gives the model.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpServer {
    /// The server's name.
    pub name: String,
    /// Its instructions; `None` when it gives none.
    pub instructions: Option<String>,
}

/// One item of the TodoWrite list.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct TodoItem {
    /// What is to be done.
    pub content: String,
    /// `pending`, `in_progress` or `completed`.
    pub status: String,
    /// The item in the present continuous (`Running tests`), which the original's schema
    /// requires on every item: a list with an item without one, or with an empty one, is
    /// refused whole (§7.6; the lab saw the list stay empty). `None`: the model left it out.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub active_form: Option<String>,
}

/// One task of the task tools (TaskCreate, TaskUpdate).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct TaskItem {
    /// Its id, a counter.
    pub id: u64,
    /// What it is.
    pub subject: String,
    /// `pending`, `in_progress` or `completed`.
    pub status: String,
}

/// A resource of a connected MCP server, as an @-mention can reach it (§1.7).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct McpResource {
    /// The server's name, the part of `@server:uri` before the colon.
    pub server: String,
    /// The resource's URI.
    pub uri: String,
    /// A display name.
    pub name: Option<String>,
    /// What the resource is.
    pub description: Option<String>,
    /// Its text contents; `None` renders the "no content" form.
    pub text: Option<String>,
}

/// A tool the model can call, as the `tools` channel carries it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolDefinition {
    /// Its name.
    pub name: String,
    /// What it does.
    pub description: String,
    /// Its input's JSON Schema, compact JSON.
    pub input_schema: String,
    /// Loaded on demand: only its name is announced (`deferred_tools_delta`).
    pub deferred: bool,
}
