//! The agent's Read, Edit and Write tools, called by the host directly. The policies the
//! session keeps on see them as they see the calls of a response (`session/policies.rs`).

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
        let result = self.workspace.read(path, offset, limit, at_ms)?;
        (self.conversation.policies).after_direct_call(
            &self.workspace,
            path,
            false,
            &result,
            at_ms,
        );
        Ok(result)
    }

    /// The agent's Edit tool (§4.5, [`crate::workspace::Workspace::edit`]); with
    /// `opencode.read_guard` on, its refusal comes first (strategies.md §8.1).
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
        let abs = self.workspace.expand(path)?;
        if let Some(refusal) = (self.conversation.policies).guard(&self.workspace, &abs, false) {
            return Ok(refusal);
        }
        let result = self.workspace.edit(path, old, new, at_ms)?;
        (self.conversation.policies).after_direct_call(&self.workspace, path, true, &result, at_ms);
        Ok(result)
    }

    /// The agent's Write tool (§4.5, [`crate::workspace::Workspace::write`]); with
    /// `opencode.read_guard` on, its refusal comes first (strategies.md §8.1).
    ///
    /// # Errors
    /// Only for a path that cannot be used at all.
    pub fn write(&mut self, path: &str, content: &str, at_ms: u64) -> Result<ToolResult, Error> {
        let abs = self.workspace.expand(path)?;
        if let Some(refusal) = (self.conversation.policies).guard(&self.workspace, &abs, true) {
            return Ok(refusal);
        }
        let result = self.workspace.write(path, content, at_ms)?;
        (self.conversation.policies).after_direct_call(&self.workspace, path, true, &result, at_ms);
        Ok(result)
    }
}
