//! An assistant response: its blocks are stored one record each (as the original streams
//! them), its tool calls run against the virtual workspace, and if there were any, a tool
//! round follows with its request.

use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;

use super::conversation::PendingCalls;
use super::tool_calls::tidy_output;
use super::turn::{ResponseBlock, Round, ToolCall, ToolInvocation, Turn};
use super::Session;
use crate::attachment::Collected;
use crate::host::{PermissionMode, PlanApproval};
use crate::transcript::{AssistantBlock, Record, ToolResultBlock, ToolUse};
use crate::vfs::Content;
use crate::workspace::ToolResult;
use crate::Error;

impl Session {
    /// The model's response: stored, its tool calls executed; a tool round follows when it
    /// called tools, unless the user stopped the turn (a plan rejected without feedback):
    /// then the calls after that one are cancelled, not run.
    ///
    /// # Errors
    /// Only for a tool path that cannot be used at all (NUL, above the root).
    pub fn respond(&mut self, blocks: Vec<ResponseBlock>, at_ms: u64) -> Result<Turn, Error> {
        if let Some(pending) = &self.conversation.pending {
            return Err(Error::InvalidConfig {
                field: "blocks".into(),
                reason: format!(
                    "the previous response's tool calls still await their results ({}); \
                     supply them first",
                    pending.missing().join(", ")
                ),
            });
        }
        self.conversation.check_tool_ids(&blocks)?;
        self.check_tool_paths(&blocks)?;
        let response = self.conversation.transcript.next_response();
        self.conversation.last_assistant_ms = Some(at_ms);
        let mut pending = PendingCalls::default();
        for block in blocks {
            let block = match block {
                ResponseBlock::Text(text) => AssistantBlock::Text { text },
                ResponseBlock::Thinking(thinking) => AssistantBlock::Thinking { thinking },
                ResponseBlock::ToolUse(call) => {
                    let id = call
                        .id
                        .clone()
                        .unwrap_or_else(|| self.conversation.next_tool_id());
                    self.conversation.tool_ids.insert(id.clone());
                    let result = match &call.invocation {
                        // The user stopped the turn at an earlier call: the original cancels
                        // the calls queued after it, so they neither run nor await the host.
                        _ if pending.stopped => Some(ToolResultBlock {
                            tool_use_id: id.clone(),
                            content: CANCELLED_AFTER_STOP.into(),
                            is_error: true,
                        }),
                        // A removed tool is not the host's to run: it fails here.
                        ToolInvocation::External { output: None }
                            if self.workspace.deny.removing_tool(&call.name).is_none() =>
                        {
                            None
                        }
                        _ => {
                            // Every path was checked above: a failure here is the tool's
                            // error for the model, so the response is applied whole.
                            let (result, stop) =
                                self.run_tool(&call, at_ms).unwrap_or_else(|error| {
                                    (ToolResult::error(error.to_string()), false)
                                });
                            pending.stopped |= stop;
                            Some(ToolResultBlock {
                                tool_use_id: id.clone(),
                                content: result.content,
                                is_error: result.is_error,
                            })
                        }
                    };
                    pending.calls.push((id.clone(), result));
                    AssistantBlock::ToolUse(ToolUse {
                        id,
                        name: call.name,
                        input: call.input,
                    })
                }
            };
            self.conversation
                .transcript
                .push(Record::Assistant { response, block });
        }
        if pending.calls.is_empty() {
            return Ok(Turn::from_collected(Round::EndOfTurn, Collected::default()));
        }
        Ok(self.settle(pending, at_ms))
    }

    /// Results of tool calls the host ran itself (calls given without output). When every
    /// call of the response has its result, the tool round follows.
    ///
    /// # Errors
    /// No call awaits results, a result for an unknown or already answered id (the error
    /// names it and the ids that are awaited).
    pub fn supply_tool_results(
        &mut self,
        results: Vec<ToolResultBlock>,
        at_ms: u64,
    ) -> Result<Turn, Error> {
        let Some(mut pending) = self.conversation.pending.take() else {
            return Err(Error::InvalidConfig {
                field: "results[0].toolUseId".into(),
                reason: "no tool call awaits a result: give results only after an assistant \
                         step whose tool calls have no output"
                    .into(),
            });
        };
        // Checked whole before anything is applied: a bad result changes nothing.
        let awaited = pending.missing();
        for (index, result) in results.iter().enumerate() {
            let id = &result.tool_use_id;
            let repeated = results[..index].iter().any(|r| &r.tool_use_id == id);
            if !awaited.contains(id) || repeated {
                self.conversation.pending = Some(pending);
                return Err(Error::InvalidConfig {
                    field: format!("results[{index}].toolUseId"),
                    reason: format!(
                        "no call {id:?} awaits a result: awaited are {}",
                        awaited.join(", ")
                    ),
                });
            }
        }
        for mut result in results {
            if !result.is_error {
                let name = self.conversation.call_name(&result.tool_use_id);
                let tidy = self.profile.file_context.tidy_tool_output;
                result.content = tidy_output(tidy, name.unwrap_or_default(), result.content);
            }
            let slot = pending
                .calls
                .iter_mut()
                .find(|(id, _)| *id == result.tool_use_id);
            if let Some((_, slot)) = slot {
                *slot = Some(result);
            }
        }
        Ok(self.settle(pending, at_ms))
    }

    /// Waits for the results still missing, or finishes the response.
    fn settle(&mut self, pending: PendingCalls, at_ms: u64) -> Turn {
        if pending.missing().is_empty() {
            return self.finish_response(pending, at_ms);
        }
        let mut turn = Turn::from_collected(Round::AwaitingToolResults, Collected::default());
        turn.tool_results = pending
            .calls
            .iter()
            .filter_map(|(_, result)| result.clone())
            .collect();
        self.conversation.pending = Some(pending);
        turn
    }

    /// Stores the response's results and runs the tool round, unless the user stopped.
    fn finish_response(&mut self, pending: PendingCalls, at_ms: u64) -> Turn {
        let results: Vec<ToolResultBlock> = pending
            .calls
            .into_iter()
            .filter_map(|(_, r)| r)
            .map(|result| self.conversation.as_recorded(&self.profile.codex, result))
            .collect();
        self.conversation.transcript.push(Record::ToolResults {
            results: results.clone(),
        });
        let mut turn = if pending.stopped {
            // The original answers a stopped turn's calls, then records the interruption
            // after them; the next request sends it between the results and the prompt.
            self.conversation.transcript.push(Record::Interruption);
            Turn::from_collected(Round::EndOfTurn, Collected::default())
        } else {
            self.tool_round(at_ms)
        };
        turn.tool_results = results;
        turn
    }

    /// Checks every path the calls name before any call runs, so a response whose second
    /// call names an unusable path changes nothing (not even the first call's write).
    fn check_tool_paths(&self, blocks: &[ResponseBlock]) -> Result<(), Error> {
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
                self.expand(path).map_err(|error| Error::InvalidConfig {
                    field: format!("blocks[{index}].input.{key}"),
                    reason: error.to_string(),
                })?;
            }
        }
        Ok(())
    }

    /// Runs one call; the flag says the user stopped the turn.
    fn run_tool(&mut self, call: &ToolCall, at_ms: u64) -> Result<(ToolResult, bool), Error> {
        if let Some(rule) = self.workspace.deny.removing_tool(&call.name) {
            // The original answers a call to a tool it does not offer before looking at
            // the input; the rule is ours to add, so the model knows why.
            return Ok((
                ToolResult::error(format!(
                    "No such tool available: {}. The deny rule `{rule}` removes it from the \
                     tools offered.",
                    call.name
                )),
                false,
            ));
        }
        let result = match &call.invocation {
            ToolInvocation::Read {
                file_path,
                offset,
                limit,
            } => self.read(file_path, *offset, *limit, at_ms)?,
            // In plan mode the plan file stays writable with either tool: the full
            // reminder tells the model to edit an existing plan with Edit (§7.5).
            ToolInvocation::Edit {
                file_path,
                old_string,
                new_string,
            } if self.may_change_in_current_mode(file_path)? => {
                self.edit(file_path, old_string, new_string, at_ms)?
            }
            ToolInvocation::Write { file_path, content }
                if self.may_change_in_current_mode(file_path)? =>
            {
                self.write(file_path, content, at_ms)?
            }
            ToolInvocation::Edit { .. } | ToolInvocation::Write { .. } => {
                ToolResult::error(format!(
                    "Plan mode is active: only the plan file ({}) can be changed until the \
                     user approves a plan.",
                    self.plan_file()
                ))
            }
            ToolInvocation::Grep {
                pattern,
                path,
                output_mode,
            } => self
                .workspace
                .grep(pattern, path.as_deref(), *output_mode)?,
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
            ToolInvocation::External { output } => {
                let output = output.clone().unwrap_or_default();
                if call.name == "Skill" {
                    self.conversation.remember_skill(&call.input, &output);
                }
                let tidy = self.profile.file_context.tidy_tool_output;
                ToolResult::ok(tidy_output(tidy, &call.name, output))
            }
        };
        Ok((result, false))
    }

    /// Whether Edit and Write may change `path` now: any file outside plan mode, only the
    /// plan file in it.
    fn may_change_in_current_mode(&self, path: &str) -> Result<bool, Error> {
        Ok(!self.in_plan_mode() || self.expand(path)? == self.plan_file())
    }

    /// The user's answer to a plan: approval leaves plan mode; a rejection with feedback
    /// stays in it; a rejection without feedback stops the turn.
    fn exit_plan_mode(&mut self, approval: &PlanApproval, at_ms: u64) -> (ToolResult, bool) {
        if !self.in_plan_mode() {
            let refusal = "Plan mode is not active, so there is no plan to approve.";
            return (ToolResult::error(refusal.into()), false);
        }
        let feedback = approval
            .feedback
            .as_deref()
            .filter(|f| !f.trim().is_empty());
        match (approval.approved, feedback) {
            (true, feedback) => {
                self.write_back_plan(at_ms);
                let back = match self.conversation.mode_before_plan {
                    PermissionMode::Plan => PermissionMode::Default,
                    other => other,
                };
                self.set_mode(back);
                let mut text = format!(
                    "The user approved the plan; you may now edit files and run tools. The plan \
                     is saved at {}.",
                    self.plan_file()
                );
                if let Some(feedback) = feedback {
                    text.push_str(&format!("\n\nThe user added: {feedback}"));
                }
                (ToolResult::ok(text), false)
            }
            (false, Some(feedback)) => (
                ToolResult::error(format!(
                    "The user did not approve the plan and is still in plan mode. Their \
                     feedback: {feedback}\nRevise the plan accordingly."
                )),
                false,
            ),
            (false, None) => (
                ToolResult::error(
                    "The user rejected the plan and stopped here. Wait for their next message."
                        .into(),
                ),
                true,
            ),
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
        let path = self.plan_file();
        if let Ok(Content::Text(text)) = self.workspace.vfs.read(&path) {
            // A write the file system refuses is only logged by the original; the approval
            // stands either way.
            let _ = self
                .workspace
                .vfs
                .write_file(&path, Content::Text(text), at_ms);
        }
    }
}

/// The result of a call queued after the one at which the user stopped the turn.
const CANCELLED_AFTER_STOP: &str =
    "Not run: the user stopped the turn at an earlier tool call. Wait for their next message.";
