//! What the host tells the session between rounds: modes, the IDE's state, diagnostics,
//! registries, queued input, spending, background tasks.

use alloc::string::String;
use alloc::vec::Vec;

use super::Session;
use crate::host::{
    BackgroundStatus, DiagnosticFile, IdeSelection, McpServer, PermissionMode, Skill, TaskItem,
    TodoItem,
};
use crate::workspace::fs_error;
use crate::Error;

impl Session {
    /// The permission mode now in force.
    pub fn mode(&self) -> PermissionMode {
        self.conversation.mode
    }

    /// Changes the permission mode (Shift+Tab). Entering and leaving plan or auto mode arms
    /// the reminders' one-shot notes (§7.5).
    pub fn set_mode(&mut self, mode: PermissionMode) {
        let plan_exists = self.workspace.vfs.stat(&self.plan_file()).is_ok();
        self.conversation.set_mode(mode, plan_exists);
    }

    /// The model's context window from now on, in tokens: a switch to a model with another
    /// window. The thresholds follow it; under Codex's rules a smaller window than the
    /// previous turn's, with another model, can compact before the next turn (codex.md §4.2).
    ///
    /// # Errors
    /// A window not larger than the session's output reserve, which would leave no room
    /// for input. The session is unchanged.
    pub fn set_context_window(&mut self, context_window: u64) -> Result<(), Error> {
        let reserve = self.config.output_reserve;
        if context_window <= reserve {
            return Err(Error::InvalidConfig {
                field: "contextWindow".into(),
                reason: alloc::format!(
                    "{context_window} leaves no room for input: it must be larger than the \
                     output reserve ({reserve})"
                ),
            });
        }
        self.config.context_window = context_window;
        Ok(())
    }

    /// The IDE's selection and the file it shows (`None` clears either).
    pub fn set_ide(&mut self, selection: Option<IdeSelection>, opened_file: Option<String>) {
        self.conversation.selection = selection;
        self.conversation.opened_file = opened_file;
    }

    /// New diagnostics, delivered on the next pass.
    pub fn add_diagnostics(&mut self, files: Vec<DiagnosticFile>) {
        self.conversation.diagnostics.extend(files);
    }

    /// Input the human typed while the agent worked, delivered on the next pass.
    pub fn queue_command(&mut self, prompt: &str) {
        self.conversation.queued.push(prompt.into());
    }

    /// The agent definition's critical reminder, sent on every pass; `None` removes it.
    pub fn set_critical_reminder(&mut self, text: Option<String>) {
        self.conversation.critical_reminder = text;
    }

    /// Spending so far: US cents, and output tokens of the current turn.
    pub fn record_usage(&mut self, spent_usd_cents: Option<u64>, output_tokens: Option<u64>) {
        if let Some(cents) = spent_usd_cents {
            self.conversation.spent_usd_cents = cents;
        }
        if let Some(tokens) = output_tokens {
            self.conversation.output_tokens = tokens;
        }
    }

    /// A background task's status changed; reported on the next pass.
    pub fn set_task_status(&mut self, task_id: &str, description: &str, status: BackgroundStatus) {
        self.conversation
            .task_statuses
            .push((task_id.into(), description.into(), status));
    }

    /// Replaces registries: each list given replaces the current one; the delta reminders
    /// announce the difference on the next pass.
    pub fn set_registries(
        &mut self,
        skills: Option<Vec<Skill>>,
        agents: Option<Vec<String>>,
        mcp_servers: Option<Vec<McpServer>>,
        deferred_tools: Option<Vec<String>>,
    ) {
        if let Some(skills) = skills {
            self.config.skills = skills;
        }
        if let Some(agents) = agents {
            self.config.agents = agents;
        }
        if let Some(servers) = mcp_servers {
            self.config.mcp_servers = servers;
        }
        if let Some(tools) = deferred_tools {
            self.config.deferred_tools = tools;
        }
    }

    /// Moves a file's mtime without changing its content. For `cline.file_tracker` it is
    /// a change like any other write (strategies.md §4.6: no content hashing).
    ///
    /// # Errors
    /// A bad path, a missing file or a directory.
    pub fn touch(&mut self, path: &str, at_ms: u64) -> Result<(), Error> {
        let abs = self.expand(path)?;
        let content = self.workspace.vfs.read(&abs).map_err(fs_error)?;
        self.workspace
            .vfs
            .write_file(&abs, content, at_ms)
            .map_err(fs_error)?;
        self.conversation.policies.host_changed(&abs);
        Ok(())
    }

    /// The todo list as the agent last wrote it.
    pub fn todos(&self) -> &[TodoItem] {
        &self.conversation.todos
    }

    /// The tasks of the task tools.
    pub fn tasks(&self) -> &[TaskItem] {
        &self.conversation.tasks
    }

    /// How many records the transcript holds.
    pub fn transcript_len(&self) -> usize {
        self.conversation.transcript.len()
    }

    /// The plan file's absolute path ([`crate::workspace::Workspace::plan_file`]).
    pub fn plan_file(&self) -> String {
        self.workspace.plan_file(self.config.plan_file.as_deref())
    }
}
