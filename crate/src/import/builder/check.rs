//! Each step checked as the scenario will read and replay it, so a line of an odd shape costs
//! its own step, or only the tool call the engine could not run, never the import.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::WarningKind;
use super::{blocks_mut, object, str_field, text, Builder, DEFAULT_CWD};
use crate::path::{expand_path, ExpandRules};
use crate::scenario::parse::{read_step, Json};
use crate::scenario::run::invocation;
use crate::scenario::{Action, AssistantStep};
use crate::session::ToolInvocation;
use crate::Error;

impl Builder {
    /// `step` as the scenario will read and replay it: a tool call the engine could not run
    /// is left out of its step, and a step that still does not read is left out whole, each
    /// with a warning naming `line` and the reason.
    pub(super) fn checked(&mut self, mut step: Json, line: usize) -> Option<Json> {
        let mut error = match self.check_step(&step) {
            Ok(()) => return Some(step),
            Err(error) => error,
        };
        if let Some(blocks) = blocks_mut(&mut step) {
            let mut refused = Vec::new();
            let mut kept = Vec::new();
            for block in core::mem::take(blocks) {
                match self.check_block(block) {
                    (block, Ok(())) => kept.push(block),
                    (block, Err(reason)) => refused.push((block, reason)),
                }
            }
            *blocks = kept;
            for (block, reason) in refused {
                let call = match (str_field(&block, "id"), str_field(&block, "name")) {
                    (Some(id), Some(name)) => format!("tool call {id:?} ({name})"),
                    _ => format!(
                        "a {} block",
                        str_field(&block, "type").unwrap_or("(untyped)")
                    ),
                };
                self.warn(
                    line,
                    WarningKind::BadLine,
                    format!("{call} is not one the engine can replay ({reason}); left out"),
                );
            }
            if blocks.is_empty() {
                return None;
            }
            match self.check_step(&step) {
                Ok(()) => return Some(step),
                Err(again) => error = again,
            }
        }
        self.warn(
            line,
            WarningKind::BadLine,
            format!(
                "the step made of this line does not read as a scenario step ({error}); left out"
            ),
        );
        None
    }

    /// One block of an assistant step, checked alone.
    fn check_block(&self, block: Json) -> (Json, Result<(), Error>) {
        let mut alone = object([
            ("kind", text("assistant")),
            ("blocks", Json::Array(Vec::from([block]))),
        ]);
        let result = self.check_step(&alone);
        let block = blocks_mut(&mut alone).and_then(Vec::pop);
        (block.unwrap_or(Json::Null), result)
    }

    /// Whether the scenario reads `step` and the engine can run its tool calls.
    fn check_step(&self, step: &Json) -> Result<(), Error> {
        let read = read_step(step)?;
        let Action::Assistant { blocks, .. } = &read.action else {
            return Ok(());
        };
        for (index, block) in blocks.iter().enumerate() {
            let AssistantStep::ToolUse(call) = block else {
                continue;
            };
            let here = format!("blocks[{index}]");
            // The paths the session expands before it runs a response's calls.
            let path = match invocation(call, &here)? {
                ToolInvocation::Read { file_path, .. }
                | ToolInvocation::Edit { file_path, .. }
                | ToolInvocation::Write { file_path, .. } => Some(file_path),
                ToolInvocation::Grep { path, .. } | ToolInvocation::Glob { path, .. } => path,
                _ => None,
            };
            if let Some(path) = path {
                self.expand(&path)?;
            }
        }
        Ok(())
    }

    /// `path` as the session will expand it.
    pub(super) fn expand(&self, path: &str) -> Result<String, Error> {
        expand_path(
            path,
            self.cwd.as_deref().unwrap_or(DEFAULT_CWD),
            self.home(),
            &ExpandRules::claude_code(),
        )
    }
}
