//! SHIM (replaced by the memories branch).
#![allow(missing_docs, unused)]
use super::*;
use alloc::string::String;
use alloc::vec::Vec;
pub fn eager_memory(
    roots: &MemoryRoots,
    source: &dyn MemorySource,
    rules: &MemoryRules,
) -> NestedMemory {
    NestedMemory {
        files: Vec::new(),
        skipped: Vec::new(),
    }
}
pub fn render_claude_md(files: &[MemoryFile]) -> Option<String> {
    None
}
