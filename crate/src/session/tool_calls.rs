//! The bookkeeping of tool calls over the conversation: ids, pending calls, and a result as
//! the history records it and as the model receives it.

use alloc::format;
use alloc::string::{String, ToString};

use alloc::vec::Vec;

use super::conversation::{Conversation, PendingCalls};
use super::turn::{ResponseBlock, ToolCall};
use crate::codex::normalize::ABORTED_OUTPUT;
use crate::codex::rules::CodexRules;
use crate::codex::truncate::{exec_command_output_as, format_shell_output, truncate_for_record};
use crate::js;
use crate::transcript::{Record, ToolResultBlock};
use crate::wording;
use crate::Error;

impl Conversation {
    /// A tool result as the history records it: with `wrap_exec_command_output`, an
    /// `exec_command` result in unified exec's layout, cut at the policy; with
    /// `wrap_shell_output`, a `shell` or `shell_command` result in the shell layout; with
    /// `truncate_tool_output`, cut head and tail at the policy × 1.2 (codex.md §3.3).
    pub(super) fn as_recorded(
        &self,
        codex: &CodexRules,
        mut result: ToolResultBlock,
    ) -> ToolResultBlock {
        let model = &self.codex.settings().model;
        let policy = codex.truncation_for(model);
        let name = self.call_name(&result.tool_use_id);
        let exit_code = i32::from(result.is_error);
        if codex.wrap_shell_output && matches!(name, Some("shell" | "shell_command")) {
            // As for `exec_command` below: no wall time, the exit code from the error flag.
            result.content = format_shell_output(exit_code, 0, &result.content, policy);
        } else if codex.wrap_exec_command_output && name == Some("exec_command") {
            // A scenario gives neither the time a command took nor its exit code: the wall
            // time is 0, the exit code 1 for a failed call and 0 otherwise, and the chunk id
            // (random in the original) comes from the call's id, so traces stay deterministic.
            let chunk_id = chunk_id_of(&result.tool_use_id);
            let warn = codex.truncation_warning;
            let output = &result.content;
            result.content =
                exec_command_output_as(&chunk_id, (0, exit_code), output, policy, warn);
        }
        if codex.truncate_tool_output {
            result.content = truncate_for_record(&result.content, policy);
        }
        result
    }

    /// The name of the call `id` answers, from the latest response's records.
    pub(super) fn call_name(&self, id: &str) -> Option<&str> {
        let messages = self.transcript.messages();
        (messages.iter().rev())
            .filter_map(|message| message.tool_use())
            .find(|call| call.id == id)
            .map(|call| call.name.as_str())
    }

    /// A prompt arrived while calls awaited results: they are answered as interrupted —
    /// under Codex with the `aborted` output its request normalisation gives a call without
    /// one (codex.md §5.3).
    pub(super) fn interrupt_pending_calls(&mut self, codex: &CodexRules) {
        let interrupted = match codex.turn_context {
            true => ABORTED_OUTPUT,
            false => wording::tools::INTERRUPTED_CALL,
        };
        if let Some(pending) = self.pending.take() {
            let calls = pending
                .calls
                .into_iter()
                .map(|(id, result)| {
                    result.unwrap_or(ToolResultBlock {
                        tool_use_id: id,
                        content: interrupted.into(),
                        is_error: true,
                    })
                })
                .collect();
            self.transcript.push(Record::ToolResults { results: calls });
        }
    }

    /// The host's results for the calls awaiting them, tidied as the model receives them;
    /// the pending calls with the results in place.
    ///
    /// # Errors
    /// No call awaits results, or a result for an unknown or already answered id (the
    /// error names it and the ids that are awaited). Checked whole before anything is
    /// applied: a bad result changes nothing.
    pub(super) fn accept_results(
        &mut self,
        results: Vec<ToolResultBlock>,
        tidy: bool,
    ) -> Result<PendingCalls, Error> {
        let Some(mut pending) = self.pending.take() else {
            return Err(Error::InvalidConfig {
                field: "results[0].toolUseId".into(),
                reason: "no tool call awaits a result: give results only after an assistant \
                         step whose tool calls have no output"
                    .into(),
            });
        };
        let awaited = pending.missing();
        for (index, result) in results.iter().enumerate() {
            let id = &result.tool_use_id;
            let repeated = results[..index].iter().any(|r| &r.tool_use_id == id);
            if !awaited.contains(id) || repeated {
                self.pending = Some(pending);
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
                let name = self.call_name(&result.tool_use_id).unwrap_or_default();
                result.content = tidy_output(tidy, name, result.content);
            }
            let slot = (pending.calls.iter_mut()).find(|(id, _)| *id == result.tool_use_id);
            if let Some((_, slot)) = slot {
                *slot = Some(result);
            }
        }
        Ok(pending)
    }

    /// A fresh `toolu_{n}` id that no call of the session has used.
    pub(super) fn next_tool_id(&mut self) -> String {
        loop {
            self.next_tool_id += 1;
            let id = format!("toolu_{:03}", self.next_tool_id);
            if !self.tool_ids.contains(&id) {
                return id;
            }
        }
    }

    /// Checks that every id the response gives is new to the session.
    pub(super) fn check_tool_ids(&self, blocks: &[ResponseBlock]) -> Result<(), Error> {
        let mut seen = alloc::collections::BTreeSet::new();
        for (index, block) in blocks.iter().enumerate() {
            let ResponseBlock::ToolUse(ToolCall { id: Some(id), .. }) = block else {
                continue;
            };
            if self.tool_ids.contains(id) || !seen.insert(id) {
                return Err(Error::InvalidConfig {
                    field: format!("blocks[{index}].id"),
                    reason: format!("the tool-use id {id:?} is already used in this session; ids must be unique"),
                });
            }
        }
        Ok(())
    }
}

/// A tool's output as the model receives it, with `tidy` (`tidy_tool_output`): Bash's without
/// its leading blank lines and trailing whitespace, and any empty output replaced by
/// a sentence that says so, as the original's result mapping does (the model is never
/// sent an empty result).
pub(super) fn tidy_output(tidy: bool, tool: &str, output: String) -> String {
    if !tidy {
        return output;
    }
    let output = match tool {
        "Bash" => tidy_bash_output(&output).to_string(),
        _ => output,
    };
    if js::trim(&output).is_empty() {
        return wording::tools::no_output(tool);
    }
    output
}

/// Bash's output without its leading blank lines (the leading whitespace up to its last
/// line feed: the indentation of the first line stays) and its trailing whitespace.
fn tidy_bash_output(output: &str) -> &str {
    let first_visible = output.len() - output.trim_start_matches(js::is_whitespace).len();
    let start = output[..first_visible].rfind('\n').map_or(0, |at| at + 1);
    output[start..].trim_end_matches(js::is_whitespace)
}

/// Six lowercase hex digits from a call id (FNV-1a): the chunk id the original draws at
/// random, made deterministic.
fn chunk_id_of(id: &str) -> String {
    let hash = id.bytes().fold(0x811c_9dc5_u32, |hash, byte| {
        (hash ^ u32::from(byte)).wrapping_mul(0x0100_0193)
    });
    format!("{:06x}", hash & 0x00ff_ffff)
}
