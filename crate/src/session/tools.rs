//! The built-in tool definitions a session offers when the host configures none.

use alloc::format;

use super::Session;
use crate::workspace::ToolResult;
use crate::Error;

impl Session {
    /// The agent's Read tool (§3, [`crate::workspace::Workspace::read`]).
    ///
    /// # Errors
    /// Only for a path that cannot be used at all (NUL, above the root).
    pub fn read(
        &mut self,
        path: &str,
        offset: Option<u64>,
        limit: Option<i64>,
        at_ms: u64,
    ) -> Result<ToolResult, Error> {
        self.workspace.read(path, offset, limit, at_ms)
    }

    /// The agent's Edit tool (§4.5, [`crate::workspace::Workspace::edit`]).
    ///
    /// # Errors
    /// Only for a path that cannot be used at all.
    pub fn edit(
        &mut self,
        path: &str,
        old: &str,
        new: &str,
        at_ms: u64,
    ) -> Result<ToolResult, Error> {
        self.workspace.edit(path, old, new, at_ms)
    }

    /// The agent's Write tool (§4.5, [`crate::workspace::Workspace::write`]).
    ///
    /// # Errors
    /// Only for a path that cannot be used at all.
    pub fn write(&mut self, path: &str, content: &str, at_ms: u64) -> Result<ToolResult, Error> {
        self.workspace.write(path, content, at_ms)
    }
}

/// The built-in tool definitions, in our own words: the tools a scenario can call.
pub fn default_tools() -> alloc::vec::Vec<crate::request::ToolDefinition> {
    let tool = |name: &str, description: &str, input_schema: &str| crate::request::ToolDefinition {
        name: name.into(),
        description: description.into(),
        input_schema: input_schema.into(),
        deferred: false,
    };
    let path = r#"{"type":"object","properties":{"file_path":{"type":"string"}"#;
    alloc::vec::Vec::from([
        tool("Read", "Reads a file of the workspace, with line numbers; offset and limit select lines.", &format!(r#"{path},"offset":{{"type":"integer"}},"limit":{{"type":"integer"}}}},"required":["file_path"]}}"#)),
        tool("Edit", "Replaces one exact occurrence of old_string with new_string in a file read before.", &format!(r#"{path},"old_string":{{"type":"string"}},"new_string":{{"type":"string"}}}},"required":["file_path","old_string","new_string"]}}"#)),
        tool("Write", "Creates a file, or replaces a file read before, with content.", &format!(r#"{path},"content":{{"type":"string"}}}},"required":["file_path","content"]}}"#)),
        tool("Grep", "Searches file contents for a regular expression: lists the matching files, or with output_mode \"content\" the matching lines as path:line:text.", r#"{"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string"},"output_mode":{"enum":["files_with_matches","content"]}},"required":["pattern"]}"#),
        tool("Glob", "Lists the files whose paths match a glob pattern.", r#"{"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string"}},"required":["pattern"]}"#),
        tool("Bash", "Runs a shell command and returns its output.", r#"{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}"#),
        tool("TodoWrite", "Replaces the session's todo list: items with content, status (pending, in_progress, completed) and activeForm (the content in the present continuous).", r#"{"type":"object","properties":{"todos":{"type":"array","items":{"type":"object","properties":{"content":{"type":"string","minLength":1},"status":{"enum":["pending","in_progress","completed"]},"activeForm":{"type":"string","minLength":1}},"required":["content","status","activeForm"]}}},"required":["todos"]}"#),
        tool("ExitPlanMode", "Presents the plan to the user for approval and leaves plan mode if approved.", r#"{"type":"object","properties":{"plan":{"type":"string"}},"required":["plan"]}"#),
        tool("AskUserQuestion", "Asks the user a question and waits for the answer.", r#"{"type":"object","properties":{"question":{"type":"string"}},"required":["question"]}"#),
        tool("Skill", "Runs one of the skills listed in the skill listing.", r#"{"type":"object","properties":{"skill":{"type":"string"}},"required":["skill"]}"#),
    ])
}
