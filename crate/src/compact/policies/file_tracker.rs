//! `cline.file_tracker`: external-edit detection over the files whose contents entered the
//! context (spec/strategies.md §4).
//!
//! Cline installs one watcher per tracked file and ignores the change events of its own
//! writes. Here the session's read-file state plays the watcher: each tracked file carries
//! the modification time the agent last saw (set by its reads and by its own writes, which is
//! the self-write suppression), and a file whose time moved past it was changed by someone
//! else. Such files are surfaced the way Cline surfaces them (§4.4): a path list under the
//! heading `# Recently Modified Files` in the environment details, after a line of our wording
//! that explains it — no diff, no content.
//!
//! The reference's limits are kept (§4.6): times are compared, never contents, so a `touch`
//! or a formatter that rewrites the same bytes counts as an edit; the tracker only warns and
//! changes no record (dropping superseded reads is `cline.dedupe_reads`' job). A file that is
//! gone raises no change event in Cline's watcher, so it is reported as not surfaced.
//!
//! On a live session the tracker acts ([`FileWatch`], on when the session's
//! `config.policies` names `cline.file_tracker`): every file whose contents entered the
//! context is watched; a change the host makes to a watched file is the watcher's event, and
//! the agent's own writes never raise one (the reference's self-write suppression); the
//! next request drains the changed paths into an `<environment_details>` block
//! ([`environment_details`]) and the list starts empty again (§4.3's
//! `getAndClearRecentlyModifiedFiles`).

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::{decision, outcome, PolicyOutcome};
use crate::tokens::TokenMethod;
use crate::transcript::{AssistantBlock, Message, Record};
use crate::vocabulary::{PolicyId, Verdict};

/// The policy's id.
pub const POLICY_ID: &str = PolicyId::FileTracker.as_str();

/// §4.1 `watcher.write_finish_stability_ms`: a write is reported once stable this long.
pub const WRITE_FINISH_STABILITY_MS: u64 = 100;

/// §4.1 `watcher.write_finish_poll_ms`.
pub const WRITE_FINISH_POLL_MS: u64 = 100;

/// §4.4: the section's heading, byte-exact.
pub const HEADING: &str = "# Recently Modified Files";

/// §4.4: the line under the heading (our wording of its two points).
pub const EXPLANATION: &str =
    "These files changed after you last read or wrote them. Read a file again before you edit it.";

/// How a file's full contents entered the context (§4.2, `trackFileContext`'s `op`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TrackedOp {
    /// The read tool.
    ReadTool,
    /// The user edited it (a change event that was not the agent's).
    UserEdited,
    /// The agent's own edit or write.
    AgentEdited,
    /// An @-mention.
    FileMentioned,
}

impl TrackedOp {
    /// The reference's name for the operation.
    pub const fn as_str(self) -> &'static str {
        match self {
            TrackedOp::ReadTool => "read_tool",
            TrackedOp::UserEdited => "user_edited",
            TrackedOp::AgentEdited => "cline_edited",
            TrackedOp::FileMentioned => "file_mentioned",
        }
    }
}

/// One tracked file, as the host's state knows it now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TrackedFile {
    /// The absolute path.
    pub path: String,
    /// The last operation that put its contents in the context.
    pub op: TrackedOp,
    /// The modification time the agent last saw (its read, or its own write).
    pub seen_mtime_ms: u64,
    /// The modification time now; `None` when the file is gone.
    pub current_mtime_ms: Option<u64>,
}

/// The operation behind the last record that names `path`: a write or edit call is the
/// agent's edit, a read call a read, anything else (an attachment) a mention.
///
/// ```
/// use context_assembly::compact::policies::file_tracker::{last_op, TrackedOp};
/// assert_eq!(last_op(&[], "/p/a.ts"), TrackedOp::FileMentioned);
/// ```
pub fn last_op(records: &[Message], path: &str) -> TrackedOp {
    records
        .iter()
        .rev()
        .find_map(|m| match &m.record {
            Record::Assistant {
                block: AssistantBlock::ToolUse(call),
                ..
            } if call.input.contains(path) => Some(match call.name.as_str() {
                "Write" | "Edit" | "MultiEdit" | "NotebookEdit" | "apply_patch" => {
                    TrackedOp::AgentEdited
                }
                _ => TrackedOp::ReadTool,
            }),
            _ => None,
        })
        .unwrap_or(TrackedOp::FileMentioned)
}

/// The files changed by someone else since the agent last saw them, in the given order.
pub fn recently_modified(files: &[TrackedFile]) -> Vec<&str> {
    files
        .iter()
        .filter(|f| f.current_mtime_ms.is_some_and(|now| now > f.seen_mtime_ms))
        .map(|f| f.path.as_str())
        .collect()
}

/// The environment-details section for `paths` (§4.4); `None` when there are none.
///
/// ```
/// use context_assembly::compact::policies::file_tracker::{section, HEADING};
/// assert_eq!(section(&[]), None);
/// let text = section(&["/p/a.ts"]).unwrap();
/// assert!(text.starts_with(HEADING));
/// assert!(text.ends_with("\n/p/a.ts"));
/// ```
pub fn section(paths: &[&str]) -> Option<String> {
    if paths.is_empty() {
        return None;
    }
    let mut text = alloc::format!("{HEADING}\n{EXPLANATION}");
    for path in paths {
        text.push('\n');
        text.push_str(path);
    }
    Some(text)
}

/// The tag Cline's environment details are sent in (§4.4).
pub const ENVIRONMENT_DETAILS_TAG: &str = "environment_details";

/// The section for `paths` inside the environment details the next request carries
/// (§4.4); `None` when there are none.
///
/// ```
/// use context_assembly::compact::policies::file_tracker::environment_details;
/// assert_eq!(environment_details(&[]), None);
/// let text = environment_details(&["src/a.ts"]).unwrap();
/// assert!(text.starts_with("<environment_details>\n# Recently Modified Files\n"));
/// assert!(text.ends_with("\nsrc/a.ts\n</environment_details>"));
/// ```
pub fn environment_details(paths: &[&str]) -> Option<String> {
    let section = section(paths)?;
    Some(alloc::format!(
        "<{ENVIRONMENT_DETAILS_TAG}>\n{section}\n</{ENVIRONMENT_DETAILS_TAG}>"
    ))
}

/// The tracker's state on a live session (§4.3): the files it watches, how each last
/// entered the context, and the changes not yet surfaced, in the order they happened.
///
/// The host's own edits are the watcher's change events ([`FileWatch::changed`]); the
/// agent's reads, mentions and writes are [`FileWatch::track`]ed and raise none, which is
/// the reference's `recentlyEditedByCline` suppression.
///
/// ```
/// use context_assembly::compact::policies::file_tracker::{FileWatch, TrackedOp};
/// let mut watch = FileWatch::default();
/// assert!(!watch.changed("/p/a.ts")); // not watched: no event
/// watch.track("/p/a.ts", TrackedOp::ReadTool);
/// assert!(watch.changed("/p/a.ts"));
/// assert!(watch.changed("/p/a.ts")); // a second change lists it once
/// assert_eq!(watch.drain(), ["/p/a.ts"]);
/// assert!(watch.drain().is_empty()); // drained: the next request lists nothing
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct FileWatch {
    watched: BTreeMap<String, TrackedOp>,
    recently_modified: Vec<String>,
}

impl FileWatch {
    /// `track(path, op)`: the file's contents entered the context; a watcher is on it from
    /// now on.
    pub fn track(&mut self, path: &str, op: TrackedOp) {
        self.watched.insert(path.into(), op);
    }

    /// The watcher's change event for `path`, written by someone other than the agent.
    /// A watched file is added to the recently modified files (once until drained) and
    /// tracked as `user_edited`; returns whether it was watched.
    pub fn changed(&mut self, path: &str) -> bool {
        let Some(op) = self.watched.get_mut(path) else {
            return false;
        };
        *op = TrackedOp::UserEdited;
        if !self.recently_modified.iter().any(|p| p == path) {
            self.recently_modified.push(path.into());
        }
        true
    }

    /// How `path` last entered the context, if it is watched.
    pub fn watched(&self, path: &str) -> Option<TrackedOp> {
        self.watched.get(path).copied()
    }

    /// `getAndClearRecentlyModifiedFiles`: the changed paths, oldest change first; the list
    /// is empty afterwards.
    pub fn drain(&mut self) -> Vec<String> {
        core::mem::take(&mut self.recently_modified)
    }
}

/// Reports every tracked file and the section the next request's environment details would
/// carry. The records are not changed.
///
/// ```
/// use context_assembly::compact::policies::file_tracker::{apply, TrackedFile, TrackedOp};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::vocabulary::Verdict;
/// let file = TrackedFile { path: "/p/a.ts".into(), op: TrackedOp::ReadTool, seen_mtime_ms: 5, current_mtime_ms: Some(9) };
/// let outcome = apply(&[], &[file], TokenMethod::Calibrated);
/// assert_eq!(outcome.decisions[1].verdict, Verdict::Included);
/// ```
pub fn apply(records: &[Message], files: &[TrackedFile], method: TokenMethod) -> PolicyOutcome {
    let changed = recently_modified(files);
    let mut decisions = Vec::with_capacity(files.len() + 1);
    decisions.push(decision(
        POLICY_ID,
        Verdict::NotApplied,
        alloc::format!(
            "a tracker changes no record: {} of {} tracked files changed since the agent last saw them",
            changed.len(),
            files.len()
        ),
        section(&changed),
    ));
    for file in files {
        let (verdict, reason) = match file.current_mtime_ms {
            None => (
                Verdict::NotFound,
                String::from("gone: a deletion raises no change event, so it is not listed"),
            ),
            Some(now) if now > file.seen_mtime_ms => (
                Verdict::Included,
                alloc::format!(
                    "modified at {now} ms, after the agent last saw it at {} ms: listed under {HEADING} (path only)",
                    file.seen_mtime_ms
                ),
            ),
            Some(_) => (
                Verdict::Unchanged,
                String::from("not modified since the agent last saw it"),
            ),
        };
        decisions.push(decision(
            &file.path,
            verdict,
            reason,
            Some(alloc::format!("tracked by {}", file.op.as_str())),
        ));
    }
    outcome(records, records.to_vec(), decisions, method)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::ToolUse;

    fn file(path: &str, seen: u64, now: Option<u64>) -> TrackedFile {
        TrackedFile {
            path: path.into(),
            op: TrackedOp::ReadTool,
            seen_mtime_ms: seen,
            current_mtime_ms: now,
        }
    }

    #[test]
    fn only_files_changed_after_the_agent_saw_them_are_listed() {
        let files = [
            file("/p/a.ts", 10, Some(10)),
            file("/p/b.ts", 10, Some(11)),
            file("/p/c.ts", 10, None),
        ];
        assert_eq!(recently_modified(&files), ["/p/b.ts"]);
        let outcome = apply(&[], &files, TokenMethod::Calibrated);
        assert_eq!(
            outcome.decisions[0].detail.as_deref(),
            Some(alloc::format!("{HEADING}\n{EXPLANATION}\n/p/b.ts").as_str())
        );
        let verdicts: Vec<Verdict> = outcome.decisions[1..].iter().map(|d| d.verdict).collect();
        assert_eq!(
            verdicts,
            [Verdict::Unchanged, Verdict::Included, Verdict::NotFound]
        );
    }

    #[test]
    fn the_last_call_naming_a_path_says_how_it_was_tracked() {
        let call = |id: u64, name: &str| Message {
            id,
            record: Record::Assistant {
                response: id,
                block: AssistantBlock::ToolUse(ToolUse {
                    id: alloc::format!("t{id}"),
                    name: name.into(),
                    input: "{\"file_path\":\"/p/a.ts\"}".into(),
                }),
            },
        };
        assert_eq!(last_op(&[call(0, "Read")], "/p/a.ts"), TrackedOp::ReadTool);
        assert_eq!(
            last_op(&[call(0, "Read"), call(1, "Edit")], "/p/a.ts"),
            TrackedOp::AgentEdited
        );
        assert_eq!(TrackedOp::AgentEdited.as_str(), "cline_edited");
    }
}
