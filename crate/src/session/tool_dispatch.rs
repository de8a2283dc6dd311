//! One tool call of a response, run against the parts of the session it may touch: the
//! workspace (Read, Edit, Write, Grep, Glob), the conversation's lists and mode (TodoWrite,
//! the task tools, ExitPlanMode) and nothing else. Plan mode keeps every file but the plan
//! file unchangeable (§7.5).

use alloc::string::{String, ToString};

use super::conversation::Conversation;
use super::tool_calls::tidy_output;
use super::turn::{ResponseBlock, ToolCall, ToolInvocation};
use crate::codex::apply_patch::{verify_patch, FileChange};
use crate::codex::truncate::{format_shell_output, truncation_policy_for_model};
use crate::host::{PermissionMode, PlanApproval};
use crate::request::prefix::ClaudePrefix;
use crate::vfs::Content;
use crate::wording::tools as wording;
use crate::workspace::{ToolResult, Workspace};
use crate::Error;

/// What a tool call may read and change.
pub(super) struct ToolDispatch<'a> {
    pub(super) workspace: &'a mut Workspace,
    pub(super) conversation: &'a mut Conversation,
    /// The plan file's absolute path.
    pub(super) plan_file: String,
    /// `tidy_tool_output`: outputs the host gives are tidied as the original's are.
    pub(super) tidy: bool,
    /// The Claude Code release whose tools are offered: a call to one it does not offer
    /// fails.
    pub(super) release: Option<ClaudePrefix>,
    /// Print mode (`claude -p`) rather than the terminal UI: a release offers other tools.
    pub(super) print_mode: bool,
}

impl ToolDispatch<'_> {
    /// Runs one call; the flag says the user stopped the turn.
    ///
    /// # Errors
    /// Only for a path that cannot be used at all (checked before any call runs, see
    /// [`check_tool_paths`]).
    pub(super) fn run(&mut self, call: &ToolCall, at_ms: u64) -> Result<(ToolResult, bool), Error> {
        if let Some(rule) = self.workspace.deny.removing_tool(&call.name) {
            // The original answers a call to a tool it does not offer before looking at
            // the input; the rule is ours to add, so the model knows why.
            let refusal = wording::no_such_tool(&call.name, rule);
            return Ok((ToolResult::error(refusal), false));
        }
        let print_mode = self.print_mode;
        if let Some(release) =
            (self.release).filter(|release| !release.offers(&call.name, print_mode))
        {
            let refusal = wording::tool_not_offered(&call.name, &release.release_name());
            return Ok((ToolResult::error(refusal), false));
        }
        let result = match &call.invocation {
            ToolInvocation::Read {
                file_path,
                offset,
                limit,
            } => self.workspace.read(file_path, *offset, *limit, at_ms)?,
            // In plan mode the plan file stays writable with either tool: the full
            // reminder tells the model to edit an existing plan with Edit (§7.5).
            ToolInvocation::Edit {
                file_path,
                old_string,
                new_string,
            } if self.may_change(file_path)? => match self.read_guard(file_path, false)? {
                Some(refusal) => refusal,
                None => (self.workspace).edit(file_path, old_string, new_string, at_ms)?,
            },
            ToolInvocation::Write { file_path, content } if self.may_change(file_path)? => {
                match self.read_guard(file_path, true)? {
                    Some(refusal) => refusal,
                    None => self.workspace.write(file_path, content, at_ms)?,
                }
            }
            ToolInvocation::Edit { .. } | ToolInvocation::Write { .. } => {
                ToolResult::error(wording::plan_mode_blocks_change(&self.plan_file))
            }
            ToolInvocation::Grep {
                pattern,
                path,
                output_mode,
            } => (self.workspace).grep(pattern, path.as_deref(), *output_mode)?,
            ToolInvocation::Glob { pattern, path } => {
                self.workspace.glob(pattern, path.as_deref())?
            }
            ToolInvocation::TodoWrite { todos } => self.conversation.todo_write(todos),
            ToolInvocation::TaskCreate { subject } => self.conversation.task_create(subject),
            ToolInvocation::TaskUpdate { task_id, status } => {
                self.conversation.task_update(*task_id, status)
            }
            ToolInvocation::ExitPlanMode { approval } => {
                return Ok(self.exit_plan_mode(approval, at_ms))
            }
            ToolInvocation::ApplyPatch { patch } => self.apply_patch(patch, at_ms)?,
            ToolInvocation::External { output } => {
                let output = output.clone().unwrap_or_default();
                if call.name == "Skill" {
                    self.conversation.remember_skill(&call.input, &output);
                }
                ToolResult::ok(tidy_output(self.tidy, &call.name, output))
            }
        };
        (self.conversation.policies).after_call(self.workspace, &call.invocation, &result, at_ms);
        Ok((result, false))
    }

    /// With `opencode.read_guard` on, its refusal of an Edit, or Write (`write`), of `path`
    /// (strategies.md §8.1), given before the tool looks at the file, so the file is left
    /// as it was.
    fn read_guard(&mut self, path: &str, write: bool) -> Result<Option<ToolResult>, Error> {
        let abs = self.workspace.expand(path)?;
        Ok((self.conversation.policies).guard(self.workspace, &abs, write))
    }

    /// Codex's `apply_patch` (codex.md §8.3–§8.5): verified against the files before
    /// anything is written; the model reads the success summary or the verification error
    /// in the shell layout (exit code 0 or 1; the wall time is not known).
    fn apply_patch(&mut self, patch: &str, at_ms: u64) -> Result<ToolResult, Error> {
        let workspace = &*self.workspace;
        let read = |path: &str| {
            let abs = workspace.expand(path).ok()?;
            match workspace.vfs.read(&abs).ok()? {
                Content::Text(text) => Some(String::from(&*text)),
                Content::Binary(_) => None,
            }
        };
        let policy = truncation_policy_for_model(&self.conversation.codex.settings().model);
        let verified = match verify_patch(patch, read) {
            Ok(verified) => verified,
            Err(error) => {
                let text = format_shell_output(1, 0, &error, policy);
                return Ok(ToolResult::error(text));
            }
        };
        for change in verified.changes {
            let outcome = match change {
                FileChange::Write { path, contents } => {
                    self.workspace.agent_write(&path, contents, at_ms)?
                }
                FileChange::Remove { path } => self
                    .workspace
                    .delete_file(&path, at_ms)
                    .map_err(|e| e.to_string()),
            };
            if let Err(refusal) = outcome {
                return Ok(ToolResult::error(format_shell_output(
                    1, 0, &refusal, policy,
                )));
            }
        }
        Ok(ToolResult::ok(format_shell_output(
            0,
            0,
            &verified.summary,
            policy,
        )))
    }

    /// Whether Edit and Write may change `path` now: any file outside plan mode, only the
    /// plan file in it.
    fn may_change(&self, path: &str) -> Result<bool, Error> {
        let in_plan_mode = self.conversation.mode == PermissionMode::Plan;
        Ok(!in_plan_mode || self.workspace.expand(path)? == self.plan_file)
    }

    /// The user's answer to a plan: approval leaves plan mode; a rejection with feedback
    /// stays in it; a rejection without feedback stops the turn.
    fn exit_plan_mode(&mut self, approval: &PlanApproval, at_ms: u64) -> (ToolResult, bool) {
        if self.conversation.mode != PermissionMode::Plan {
            return (ToolResult::error(wording::NO_PLAN_TO_APPROVE.into()), false);
        }
        let feedback = (approval.feedback.as_deref()).filter(|f| !f.trim().is_empty());
        match (approval.approved, feedback) {
            (true, feedback) => {
                self.write_back_plan(at_ms);
                let back = match self.conversation.mode_before_plan {
                    PermissionMode::Plan => PermissionMode::Default,
                    other => other,
                };
                let plan_exists = self.workspace.vfs.stat(&self.plan_file).is_ok();
                self.conversation.set_mode(back, plan_exists);
                let text = wording::plan_approved(&self.plan_file, feedback);
                (ToolResult::ok(text), false)
            }
            (false, Some(feedback)) => {
                let text = wording::plan_revision_requested(feedback);
                (ToolResult::error(text), false)
            }
            (false, None) => (ToolResult::error(wording::PLAN_REJECTED.into()), true),
        }
    }

    /// An approved plan is written back to its file, as the original's ExitPlanMode does
    /// (§3.4, Q32): the client puts the plan file's text into the call's input, and the
    /// approved call writes that input to the file. The text is the same, but the mtime
    /// moves, so the next change scan re-reads the file (no note, the text is unchanged) and
    /// stores it as a full read: a later Read of the unchanged plan gets the stub. The
    /// write goes around the file state, as the original's does. Without a plan file there
    /// is nothing to inject, so nothing is written.
    fn write_back_plan(&mut self, at_ms: u64) {
        let vfs = &mut self.workspace.vfs;
        if let Ok(Content::Text(text)) = vfs.read(&self.plan_file) {
            // A write the file system refuses is only logged by the original; the approval
            // stands either way.
            let _ = vfs.write_file(&self.plan_file, Content::Text(text), at_ms);
        }
    }
}

/// Checks every path the calls name before any call runs, so a response whose second call
/// names an unusable path changes nothing (not even the first call's write).
///
/// # Errors
/// The first path that cannot be used, named by its block and input key.
pub(super) fn check_tool_paths(
    workspace: &Workspace,
    blocks: &[ResponseBlock],
) -> Result<(), Error> {
    for (index, block) in blocks.iter().enumerate() {
        let ResponseBlock::ToolUse(call) = block else {
            continue;
        };
        let (key, path) = match &call.invocation {
            ToolInvocation::Read { file_path, .. }
            | ToolInvocation::Edit { file_path, .. }
            | ToolInvocation::Write { file_path, .. } => ("file_path", Some(file_path)),
            ToolInvocation::Grep { path, .. } | ToolInvocation::Glob { path, .. } => {
                ("path", path.as_ref())
            }
            _ => continue,
        };
        if let Some(path) = path {
            workspace
                .expand(path)
                .map_err(|error| Error::InvalidConfig {
                    field: alloc::format!("blocks[{index}].input.{key}"),
                    reason: error.to_string(),
                })?;
        }
    }
    Ok(())
}
