//! The policies a session keeps on for its whole length (`SessionConfig::policies`), which
//! act rather than compact: `cline.file_tracker` surfaces the files changed outside the agent
//! in the next request (strategies.md §4.3–§4.4), `opencode.read_guard` refuses an edit or
//! write of a file not read, or changed since it was read (§8.1).
//!
//! The host's file events are the tracker's watcher; the agent's reads, mentions and writes
//! feed both states. Decisions made outside a pass (a refusal, a deletion the tracker does
//! not report) wait here and are reported by the next pass.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::turn::ToolInvocation;
use super::Session;
use crate::attachment::{AttachmentKind, Collected, Decision, Verdict};
use crate::compact::options::PolicyId;
use crate::compact::policies::file_tracker::{self, FileWatch, TrackedOp, HEADING};
use crate::compact::policies::read_guard::ReadTimes;
use crate::path::display_path;
use crate::workspace::{ToolResult, Workspace};
use crate::Error;

/// The policies a session may keep on, in the order `config.policies` documents them.
pub const SESSION_POLICIES: [PolicyId; 2] = [PolicyId::FileTracker, PolicyId::ReadGuard];

/// The state of the policies the session keeps on; `None`: that policy is off.
#[derive(Debug, Clone, Default)]
pub(super) struct LivePolicies {
    pub(super) watch: Option<FileWatch>,
    pub(super) reads: Option<ReadTimes>,
    /// Decisions made between passes, for the next pass to report.
    pub(super) decisions: Vec<Decision>,
}

impl LivePolicies {
    /// The state for `policies`.
    ///
    /// # Errors
    /// A policy a session cannot keep on (a compaction policy), or one named twice.
    pub(super) fn new(policies: &[PolicyId]) -> Result<LivePolicies, Error> {
        let mut live = LivePolicies::default();
        for (index, policy) in policies.iter().enumerate() {
            let field = format!("config.policies[{index}]");
            let allowed = || {
                let names: Vec<String> = (SESSION_POLICIES.iter())
                    .map(|p| format!("\"{}\"", p.as_str()))
                    .collect();
                names.join(", ")
            };
            let twice = match policy {
                PolicyId::FileTracker => live.watch.replace(FileWatch::default()).is_some(),
                PolicyId::ReadGuard => live.reads.replace(ReadTimes::default()).is_some(),
                other => {
                    return Err(Error::InvalidConfig {
                        field,
                        reason: format!(
                            "\"{}\" is a compaction policy, run by a `compact` step; a \
                             session keeps on only {}",
                            other.as_str(),
                            allowed()
                        ),
                    })
                }
            };
            if twice {
                return Err(Error::InvalidConfig {
                    field,
                    reason: format!("\"{}\" is named twice", policy.as_str()),
                });
            }
        }
        Ok(live)
    }

    /// The host changed `abs` (wrote it, or renamed a file onto it): the tracker's watcher
    /// fires for a watched file.
    pub(super) fn host_changed(&mut self, abs: &str) {
        if let Some(watch) = &mut self.watch {
            watch.changed(abs);
        }
    }

    /// The host deleted `abs`: a watched file raises no change event (§4.6), and the
    /// decision says so.
    pub(super) fn host_deleted(&mut self, abs: &str) {
        if self
            .watch
            .as_ref()
            .is_some_and(|w| w.watched(abs).is_some())
        {
            self.decisions.push(Decision::new(
                abs,
                Verdict::NotFound,
                "deleted outside the agent: a deletion raises no change event in \
                 cline.file_tracker's watcher, so it is not listed under # Recently Modified \
                 Files (strategies.md §4.6)",
            ));
        }
    }

    /// The agent read `abs` at `at_ms` (the Read tool or a mention): its contents entered
    /// the context.
    pub(super) fn agent_read(&mut self, abs: &str, op: TrackedOp, at_ms: u64) {
        if let Some(watch) = &mut self.watch {
            watch.track(abs, op);
        }
        if let Some(reads) = &mut self.reads {
            reads.read(abs, at_ms);
        }
    }

    /// The agent's Edit or Write changed `abs` at `at_ms`: tracked as its own edit (no
    /// change event), and a read for the guard (OpenCode records one after each write).
    pub(super) fn agent_wrote(&mut self, abs: &str, at_ms: u64) {
        self.agent_read(abs, TrackedOp::AgentEdited, at_ms);
    }

    /// The guard's answer before the agent's Edit, or Write (`write`), of `abs`: the
    /// refusal the model reads, with its decision kept for the next pass; `None` lets the
    /// call run.
    pub(super) fn guard(
        &mut self,
        workspace: &Workspace,
        abs: &str,
        write: bool,
    ) -> Option<ToolResult> {
        let reads = self.reads.as_ref()?;
        let mtime = workspace.vfs.stat(abs).ok().map(|stat| stat.mtime_ms);
        let tool = if write { "Write" } else { "Edit" };
        if write && mtime.is_none() {
            // E1 guards a file against being overwritten: a new file has nothing to lose.
            return None;
        }
        let error = reads.assert(abs, mtime).err()?;
        self.decisions.push(
            Decision::new(abs, Verdict::Denied, error.reason())
                .with_detail(Some(format!("{tool}: {}", error.message()))),
        );
        Some(ToolResult::error(error.message()))
    }

    /// Feeds the states with what a tool call that ran did: a Read that answered is a
    /// read, an Edit or Write that succeeded the agent's own write.
    pub(super) fn after_call(
        &mut self,
        workspace: &Workspace,
        invocation: &ToolInvocation,
        result: &ToolResult,
        at_ms: u64,
    ) {
        if result.is_error || (self.watch.is_none() && self.reads.is_none()) {
            return;
        }
        let (file_path, wrote) = match invocation {
            ToolInvocation::Read { file_path, .. } => (file_path, false),
            ToolInvocation::Edit { file_path, .. } | ToolInvocation::Write { file_path, .. } => {
                (file_path, true)
            }
            _ => return,
        };
        let Ok(abs) = workspace.expand(file_path) else {
            return;
        };
        match wrote {
            true => self.agent_wrote(&abs, at_ms),
            false => self.agent_read(&abs, TrackedOp::ReadTool, at_ms),
        }
    }

    /// [`LivePolicies::after_call`] for a call the host made directly.
    pub(super) fn after_direct_call(
        &mut self,
        workspace: &Workspace,
        file_path: &str,
        wrote: bool,
        result: &ToolResult,
        at_ms: u64,
    ) {
        let invocation = match wrote {
            true => ToolInvocation::Write {
                file_path: file_path.into(),
                content: String::new(),
            },
            false => ToolInvocation::Read {
                file_path: file_path.into(),
                offset: None,
                limit: None,
            },
        };
        self.after_call(workspace, &invocation, result, at_ms);
    }
}

impl Session {
    /// The files a pass's mentions put in the context are reads for the policies.
    pub(super) fn policies_saw_mentions(&mut self, out: &Collected, at_ms: u64) {
        let policies = &mut self.conversation.policies;
        for attachment in &out.attachments {
            let is_file = matches!(
                attachment.kind,
                AttachmentKind::File | AttachmentKind::AlreadyReadFile
            );
            if let (true, Some(path)) = (is_file, &attachment.path) {
                policies.agent_read(path, TrackedOp::FileMentioned, at_ms);
            }
        }
    }

    /// `cline.file_tracker`'s list on this request (§4.3's drain, §4.4's section): the
    /// files changed outside the agent since the last request, relative to the working
    /// directory, paths only; afterwards the list is empty.
    pub(super) fn recently_modified_files(&mut self, out: &mut Collected) {
        let Some(watch) = &mut self.conversation.policies.watch else {
            return;
        };
        let changed = watch.drain();
        let cwd = self.workspace.cwd();
        let shown: Vec<String> = changed.iter().map(|abs| display_path(abs, cwd)).collect();
        let shown_refs: Vec<&str> = shown.iter().map(String::as_str).collect();
        let Some(text) = file_tracker::environment_details(&shown_refs) else {
            return;
        };
        let method = self.profile.token_method;
        out.attach(AttachmentKind::RecentlyModifiedFiles, None, text, method);
        for abs in &changed {
            out.decide(
                abs,
                Verdict::Included,
                format!(
                    "changed outside the agent after it last read or wrote it: listed once under \
                     {HEADING} in this request's environment details (cline.file_tracker, \
                     strategies.md §4.3–§4.4), path only, and cleared from the list"
                ),
                None,
            );
        }
    }
}
