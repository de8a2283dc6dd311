//! The built-in tool definitions a session offers when the host configures none.

use alloc::format;
use alloc::vec::Vec;

use super::Session;
use crate::request::ToolDefinition;
use crate::wording;
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

/// The built-in tool definitions ([`wording::tools::DEFAULT_TOOL_DESCRIPTIONS`]): the tools a
/// scenario can call.
pub fn default_tools() -> Vec<ToolDefinition> {
    let path = r#"{"type":"object","properties":{"file_path":{"type":"string"}"#;
    let schemas = [
        format!(r#"{path},"offset":{{"type":"integer"}},"limit":{{"type":"integer"}}}},"required":["file_path"]}}"#),
        format!(r#"{path},"old_string":{{"type":"string"}},"new_string":{{"type":"string"}}}},"required":["file_path","old_string","new_string"]}}"#),
        format!(r#"{path},"content":{{"type":"string"}}}},"required":["file_path","content"]}}"#),
        r#"{"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string"},"output_mode":{"enum":["files_with_matches","content"]}},"required":["pattern"]}"#.into(),
        r#"{"type":"object","properties":{"pattern":{"type":"string"},"path":{"type":"string"}},"required":["pattern"]}"#.into(),
        r#"{"type":"object","properties":{"command":{"type":"string"}},"required":["command"]}"#.into(),
        r#"{"type":"object","properties":{"todos":{"type":"array","items":{"type":"object","properties":{"content":{"type":"string","minLength":1},"status":{"enum":["pending","in_progress","completed"]},"activeForm":{"type":"string","minLength":1}},"required":["content","status","activeForm"]}}},"required":["todos"]}"#.into(),
        r#"{"type":"object","properties":{"plan":{"type":"string"}},"required":["plan"]}"#.into(),
        r#"{"type":"object","properties":{"question":{"type":"string"}},"required":["question"]}"#.into(),
        r#"{"type":"object","properties":{"skill":{"type":"string"}},"required":["skill"]}"#.into(),
    ];
    (wording::tools::DEFAULT_TOOL_DESCRIPTIONS
        .iter()
        .zip(schemas))
    .map(|((name, description), input_schema)| ToolDefinition {
        name: (*name).into(),
        description: (*description).into(),
        input_schema,
        deferred: false,
    })
    .collect()
}
