//! What one step of a session produces, and what an assistant response carries in.

use crate::workspace::GrepOutputMode;
use alloc::string::String;
use alloc::vec::Vec;

use super::compaction::CompactionReport;
use crate::attachment::{Attachment, Collected, Decision};
use crate::host::{PlanApproval, TodoItem};
use crate::request::{Request, RequestTokens, Window};
use crate::transcript::ToolResultBlock;

pub use crate::vocabulary::Round;

/// What one step produced: the attachments in emission order, every decision, the tool
/// results of an assistant response, and the request the model receives next.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Turn {
    /// See [`Round`].
    pub round: Round,
    /// In the order the original emits them (§7.2).
    pub attachments: Vec<Attachment>,
    /// Everything considered, included or not, and why.
    pub decisions: Vec<Decision>,
    /// The results of the response's tool calls.
    pub tool_results: Vec<ToolResultBlock>,
    /// The compactions that ran before the request, when the context reached the
    /// auto-compact threshold (the cheap stage, then the summary).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub compaction: Vec<CompactionReport>,
    /// The request the model receives, on a human turn or a tool round.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub request: Option<Request>,
}

impl Turn {
    /// A turn of `round` that produced nothing yet.
    pub fn of(round: Round) -> Turn {
        Turn::from_collected(round, Collected::default())
    }

    /// A turn of `round` from what the collectors produced.
    pub fn from_collected(round: Round, collected: Collected) -> Turn {
        Turn {
            round,
            attachments: collected.attachments,
            decisions: collected.decisions,
            tool_results: Vec::new(),
            compaction: Vec::new(),
            request: None,
        }
    }
}

/// A turn for a host that does not render the request: the turn's fields but its request,
/// with the request's token totals and window (`Session.submitFigures` in JS).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct TurnFigures {
    /// See [`Round`].
    pub round: Round,
    /// As [`Turn::attachments`].
    pub attachments: Vec<Attachment>,
    /// As [`Turn::decisions`].
    pub decisions: Vec<Decision>,
    /// As [`Turn::tool_results`].
    pub tool_results: Vec<ToolResultBlock>,
    /// As [`Turn::compaction`].
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub compaction: Vec<CompactionReport>,
    /// The request's token totals, when the turn sends one.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub tokens: Option<RequestTokens>,
    /// The request's window figures, when the turn sends one.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub window: Option<Window>,
}

impl From<Turn> for TurnFigures {
    fn from(turn: Turn) -> TurnFigures {
        let (tokens, window) = match turn.request {
            Some(request) => (Some(request.tokens), Some(request.window)),
            None => (None, None),
        };
        TurnFigures {
            round: turn.round,
            attachments: turn.attachments,
            decisions: turn.decisions,
            tool_results: turn.tool_results,
            compaction: turn.compaction,
            tokens,
            window,
        }
    }
}

/// One block of an assistant response, as the host gives it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResponseBlock {
    /// Text.
    Text(String),
    /// Extended thinking.
    Thinking(String),
    /// A tool call, executed against the virtual workspace.
    ToolUse(ToolCall),
}

/// A tool call: its name and JSON input as the model wrote them, and what to do.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ToolCall {
    /// The call's id; `None`: `toolu_{n}` from a counter.
    pub id: Option<String>,
    /// The tool's name.
    pub name: String,
    /// The input as compact JSON, as the transcript records it.
    pub input: String,
    /// The call, decoded.
    pub invocation: ToolInvocation,
}

/// A decoded tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ToolInvocation {
    /// Read a file, whole or a range.
    Read {
        /// The path.
        file_path: String,
        /// First line, 1-based.
        offset: Option<u64>,
        /// Lines.
        limit: Option<i64>,
    },
    /// Replace one occurrence.
    Edit {
        /// The path.
        file_path: String,
        /// The text to replace.
        old_string: String,
        /// Its replacement.
        new_string: String,
    },
    /// Create or replace a file.
    Write {
        /// The path.
        file_path: String,
        /// The text.
        content: String,
    },
    /// Search file contents for a regular expression, line by line (ripgrep's syntax, which
    /// is the `regex` crate's).
    Grep {
        /// The regular expression.
        pattern: String,
        /// Where to search; `None`: the cwd.
        path: Option<String>,
        /// What the result lists (`output_mode`).
        output_mode: GrepOutputMode,
    },
    /// List files whose paths match a glob.
    Glob {
        /// The glob (gitignore syntax, relative to `path`).
        pattern: String,
        /// Where to look; `None`: the cwd.
        path: Option<String>,
    },
    /// Replace the todo list.
    TodoWrite {
        /// The new list.
        todos: Vec<TodoItem>,
    },
    /// Create a task.
    TaskCreate {
        /// What it is.
        subject: String,
    },
    /// Set a task's status.
    TaskUpdate {
        /// Its id.
        task_id: u64,
        /// `pending`, `in_progress`, `completed`.
        status: String,
    },
    /// Present the plan; the user answers.
    ExitPlanMode {
        /// The user's answer.
        approval: PlanApproval,
    },
    /// Codex's `apply_patch`: the patch is verified against the files, then applied
    /// (codex.md §8.3–§8.5).
    ApplyPatch {
        /// The patch text, `*** Begin Patch` to `*** End Patch`.
        patch: String,
    },
    /// A tool the library cannot run (Bash, AskUserQuestion, Skill, MCP tools): the host
    /// gives its output.
    External {
        /// What the tool printed; `None`: the host supplies it later
        /// ([`super::Session::supply_tool_results`]).
        output: Option<String>,
    },
}
