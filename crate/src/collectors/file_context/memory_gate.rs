//! Q15: what the Read deny rules do to memory files — the eager `CLAUDE.md` hierarchy,
//! nested memory and relevant memories. The original checks none of them (spec §2.5 item
//! 5; the lab saw an eager `@include` of a denied file sent in full), so under
//! `deny_memory_files: false` a covered file is still sent, and its decision says so.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::FileContextRules;
use crate::attachment::{Collected, Verdict};
use crate::memory::MemoryFile;
use crate::workspace::Workspace;

/// What the deny rules make of one memory file.
pub(crate) enum MemoryGate {
    /// No rule covers it.
    Allowed,
    /// A rule covers it and the profile keeps it out (Q15 fixed); the rule.
    Denied(String),
    /// A rule covers it and the profile sends it anyway, as the original does (Q15); the
    /// rule.
    SentAnyway(String),
}

/// Whether the memory file at `abs` may reach the model.
pub(crate) fn memory_gate(
    workspace: &Workspace,
    rules: &FileContextRules,
    abs: &str,
) -> MemoryGate {
    match workspace.deny.check(abs, &workspace.cwd) {
        None => MemoryGate::Allowed,
        Some(denial) if rules.deny_memory_files => MemoryGate::Denied(denial.rule),
        Some(denial) => MemoryGate::SentAnyway(denial.rule),
    }
}

/// The memory files of one load (in load order, each include after its includer) that
/// may reach the model, and a decision for each that a deny rule covers. A file a
/// denied file `@include`s is left out with it: it is there only because the denied
/// text names it, and its presence would tell the model what that text says.
/// `route` names the load in the decisions (`eager memory`, `nested memory`).
pub(crate) fn gate_memory_files(
    workspace: &Workspace,
    rules: &FileContextRules,
    files: Vec<MemoryFile>,
    route: &str,
    out: &mut Collected,
) -> Vec<MemoryFile> {
    let mut denied: Vec<String> = Vec::new();
    let mut kept = Vec::with_capacity(files.len());
    for file in files {
        let includer_denied = file
            .included_by
            .as_ref()
            .is_some_and(|includer| denied.contains(includer));
        if includer_denied {
            let reason = format!(
                "{route}: included by a memory file the permission settings deny, so left \
                     out with it (Q15 fixed)"
            );
            out.decide(
                &file.path,
                Verdict::Denied,
                reason,
                file.included_by.clone(),
            );
            denied.push(file.path);
            continue;
        }
        match memory_gate(workspace, rules, &file.path) {
            MemoryGate::Allowed => kept.push(file),
            MemoryGate::Denied(rule) => {
                let reason =
                    format!("{route}: a memory file the permission settings deny (Q15 fixed)");
                out.decide(&file.path, Verdict::Denied, reason, Some(rule));
                denied.push(file.path);
            }
            MemoryGate::SentAnyway(rule) => {
                out.decide(
                    &file.path,
                    Verdict::Included,
                    sent_anyway(route),
                    Some(rule),
                );
                kept.push(file);
            }
        }
    }
    kept
}

/// The reason of a covered memory file the profile sends, as the original does.
pub(crate) fn sent_anyway(route: &str) -> String {
    format!(
        "{route}: a deny rule covers this file, and the original sends it anyway because \
         memory files bypass the deny rules (Q15)"
    )
}
