//! The agent's Read, Edit and Write tools, called by the host directly.

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
