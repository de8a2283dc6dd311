//! SHIM (replaced by the memories branch).
#![allow(missing_docs, unused)]
use crate::attachment::{AttachmentRules, Collected};
use crate::tokens::TokenMethod;
use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;
pub struct MemoryCandidate<'a> {
    pub path: &'a str,
    pub content: &'a str,
    pub mtime_ms: u64,
}
pub struct RelevantMemoryInput<'a> {
    pub prompt: &'a str,
    pub candidates: &'a [MemoryCandidate<'a>],
    pub host_selection: Option<&'a [String]>,
    pub now_ms: u64,
    pub surfaced: &'a BTreeSet<String>,
    pub in_file_state: &'a dyn Fn(&str) -> bool,
    pub session_units: u64,
}
pub fn relevant_memories(
    _: &RelevantMemoryInput<'_>,
    _: &AttachmentRules,
    _: TokenMethod,
    _: &mut Collected,
) -> Vec<String> {
    Vec::new()
}
