//! An assistant response: its blocks are stored one record each (as the original streams
//! them), its tool calls run against the virtual workspace, and if there were any, a tool
//! round follows with its request.

use alloc::format;
use alloc::string::ToString;
use alloc::vec::Vec;

use super::conversation::PendingCalls;
use super::tool_dispatch::{check_tool_paths, ToolDispatch};
use super::turn::{ResponseBlock, Round, ToolInvocation, Turn};
use super::Session;
use crate::attachment::Collected;
use crate::compact::context_size::ProviderUsage;
use crate::transcript::{AssistantBlock, Record, ToolResultBlock, ToolUse};
use crate::wording;
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
        self.respond_with_usage(blocks, None, at_ms)
    }

    /// [`Session::respond`], with what the provider reported for the request this response
    /// answers. Claude Code counts its context from the last reported usage (§6.3), so the
    /// auto-compact check of the tool round that follows already reads it.
    ///
    /// # Errors
    /// As [`Session::respond`].
    pub fn respond_with_usage(
        &mut self,
        blocks: Vec<ResponseBlock>,
        usage: Option<ProviderUsage>,
        at_ms: u64,
    ) -> Result<Turn, Error> {
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
        check_tool_paths(&self.workspace, &blocks)?;
        let response = self.conversation.transcript.next_response();
        // Responses are numbered from 0 over the whole session.
        let unread = response == 0 && self.profile.compaction.first_response_usage_ignored;
        if let Some(usage) = usage.or_else(|| self.own_usage()).filter(|_| !unread) {
            // Only the latest usage is ever read (§6.3), so an older one is dropped: the map
            // stays one entry long however long the session runs.
            self.conversation.reported_usage.clear();
            self.conversation.reported_usage.insert(response, usage);
        }
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
                    let result =
                        match &call.invocation {
                            // The user stopped the turn at an earlier call: the original cancels
                            // the calls queued after it, so they neither run nor await the host.
                            _ if pending.stopped => Some(ToolResultBlock {
                                tool_use_id: id.clone(),
                                content: wording::tools::CANCELLED_AFTER_STOP.into(),
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
                                    self.tool_dispatch().run(&call, at_ms).unwrap_or_else(
                                        |error| (ToolResult::error(error.to_string()), false),
                                    );
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
        let tidy = self.profile.file_context.tidy_tool_output;
        let pending = self.conversation.accept_results(results, tidy)?;
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

    /// The session's parts a tool call may touch.
    fn tool_dispatch(&mut self) -> ToolDispatch<'_> {
        let release = self.release_offering();
        ToolDispatch {
            plan_file: self.plan_file(),
            workspace: &mut self.workspace,
            conversation: &mut self.conversation,
            tidy: self.profile.file_context.tidy_tool_output,
            release,
            print_mode: self.config.print_mode,
        }
    }
}

impl Session {
    /// Under `usage_from_own_estimate`, what the API would have reported for the request
    /// this response answers: the engine's count of that request, as uncached input.
    fn own_usage(&self) -> Option<ProviderUsage> {
        let tokens = self.conversation.last_request_tokens?;
        self.profile
            .compaction
            .usage_from_own_estimate
            .then_some(ProviderUsage {
                input_tokens: tokens,
                ..ProviderUsage::default()
            })
    }
}
