//! `opencode.read_guard`: a file must have been read, and not changed since, before the agent
//! may write it (spec/strategies.md §8, OpenCode's `FileTime`).
//!
//! [`check`] is the reference's assert: a path never read fails with E1, a path whose
//! modification time is later than the last read fails with E2; each error's text is our
//! wording of the reference's slots, E2 in its layout (a line naming the file, the two time
//! lines, a blank line, the instruction). Times are compared, not contents (§8: mtime false
//! positives are a known limit). As a policy it changes no record: it reports, for every
//! write or edit call in the records and every file the agent has seen, what the guard would
//! answer now.
//!
//! On a live session the guard acts ([`ReadTimes`], on when the session's `config.policies`
//! names `opencode.read_guard`): the time of every read is kept (the Read tool, a mentioned
//! file, and the agent's own write, after which OpenCode records a read too), and an Edit,
//! or a Write over an existing file, that fails the assert is refused: the refusal is the
//! tool's result and the file is left as it was.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::{decision, outcome, PolicyOutcome};
use crate::tokens::TokenMethod;
use crate::transcript::{AssistantBlock, Message, Record};
use crate::vocabulary::{PolicyId, Verdict};

/// The policy's id.
pub const POLICY_ID: &str = PolicyId::ReadGuard.as_str();

/// The tools the guard stands before.
pub const GUARDED_TOOLS: [&str; 4] = ["Write", "Edit", "MultiEdit", "NotebookEdit"];

/// A file the agent read, with the time of the last read and its modification time now.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ReadRecord {
    /// The absolute path.
    pub path: String,
    /// When the agent last read it (the file's time as the read saw it).
    pub read_ms: u64,
    /// The file's modification time now; `None` when it is gone.
    pub mtime_ms: Option<u64>,
}

/// Why a write is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum GuardError {
    /// E1: the file was never read in this session.
    NeverRead {
        /// The file.
        path: String,
    },
    /// E2: the file changed after the last read.
    ModifiedSinceRead {
        /// The file.
        path: String,
        /// Its modification time.
        mtime_ms: u64,
        /// The last read.
        read_ms: u64,
    },
}

impl GuardError {
    /// The tool error the model sees (our wording; E2 in the reference's layout).
    ///
    /// ```
    /// use context_assembly::compact::policies::read_guard::GuardError;
    /// let e2 = GuardError::ModifiedSinceRead { path: "/p/a.ts".into(), mtime_ms: 9, read_ms: 5 };
    /// let text = e2.message();
    /// let lines: Vec<&str> = text.lines().collect();
    /// assert_eq!(lines[1..4], ["Last modification: 9", "Last read: 5", ""]);
    /// ```
    pub fn message(&self) -> String {
        match self {
            GuardError::NeverRead { path } => alloc::format!(
                "Read {path} with the Read tool before you overwrite it."
            ),
            GuardError::ModifiedSinceRead {
                path,
                mtime_ms,
                read_ms,
            } => alloc::format!(
                "{path} changed after you last read it.\nLast modification: {mtime_ms}\nLast read: {read_ms}\n\nRead it again before you change it."
            ),
        }
    }
}

impl GuardError {
    /// The decision's reason for a refused call (the model reads [`GuardError::message`]).
    pub fn reason(&self) -> String {
        match self {
            GuardError::NeverRead { .. } => String::from(
                "refused by opencode.read_guard (strategies.md §8.1, E1): the file was never \
                 read in this session; the file is left unchanged",
            ),
            GuardError::ModifiedSinceRead {
                mtime_ms, read_ms, ..
            } => alloc::format!(
                "refused by opencode.read_guard (strategies.md §8.1, E2): modified at {mtime_ms} \
                 ms, after the last read at {read_ms} ms; the file is left unchanged"
            ),
        }
    }
}

/// The guard's state on a live session (§8.1's `read[session][path]`): when each file was
/// last read, by the session's clock.
///
/// ```
/// use context_assembly::compact::policies::read_guard::{GuardError, ReadTimes};
/// let mut reads = ReadTimes::default();
/// assert!(matches!(reads.assert("/p/a.ts", Some(5)), Err(GuardError::NeverRead { .. })));
/// reads.read("/p/a.ts", 10);
/// assert_eq!(reads.assert("/p/a.ts", Some(10)), Ok(())); // not later than the read
/// assert!(matches!(reads.assert("/p/a.ts", Some(11)), Err(GuardError::ModifiedSinceRead { .. })));
/// ```
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ReadTimes {
    reads: BTreeMap<String, u64>,
}

impl ReadTimes {
    /// Records a read of `path` at `at_ms` (every read sets it).
    pub fn read(&mut self, path: &str, at_ms: u64) {
        self.reads.insert(path.into(), at_ms);
    }

    /// When `path` was last read, if it was.
    pub fn last_read(&self, path: &str) -> Option<u64> {
        self.reads.get(path).copied()
    }

    /// The assert before an edit or write of `path`, whose modification time is
    /// `mtime_ms` (`None`: it does not exist).
    ///
    /// # Errors
    /// E1 when `path` was never read, E2 when it was modified after the last read.
    pub fn assert(&self, path: &str, mtime_ms: Option<u64>) -> Result<(), GuardError> {
        let Some(read_ms) = self.last_read(path) else {
            return Err(GuardError::NeverRead { path: path.into() });
        };
        let read = ReadRecord {
            path: path.into(),
            read_ms,
            mtime_ms,
        };
        check(core::slice::from_ref(&read), path)
    }
}

/// The guard's assert before a write of `path` (§8.1).
///
/// ```
/// use context_assembly::compact::policies::read_guard::{check, GuardError, ReadRecord};
/// let reads = [ReadRecord { path: "/p/a.ts".into(), read_ms: 5, mtime_ms: Some(5) }];
/// assert_eq!(check(&reads, "/p/a.ts"), Ok(()));
/// assert!(matches!(check(&reads, "/p/b.ts"), Err(GuardError::NeverRead { .. })));
/// ```
pub fn check(reads: &[ReadRecord], path: &str) -> Result<(), GuardError> {
    let Some(read) = reads.iter().find(|r| r.path == path) else {
        return Err(GuardError::NeverRead { path: path.into() });
    };
    match read.mtime_ms {
        Some(mtime) if mtime > read.read_ms => Err(GuardError::ModifiedSinceRead {
            path: path.into(),
            mtime_ms: mtime,
            read_ms: read.read_ms,
        }),
        _ => Ok(()),
    }
}

/// The paths the guarded calls in `records` write, in order, each once.
fn written_paths<'a>(records: &'a [Message], reads: &'a [ReadRecord]) -> Vec<&'a str> {
    let mut paths: Vec<&str> = Vec::new();
    for message in records {
        let Record::Assistant {
            block: AssistantBlock::ToolUse(call),
            ..
        } = &message.record
        else {
            continue;
        };
        if !GUARDED_TOOLS.contains(&call.name.as_str()) {
            continue;
        }
        if let Some(path) = json_string_field(&call.input, "file_path")
            .or_else(|| json_string_field(&call.input, "notebook_path"))
        {
            if !paths.contains(&path) {
                paths.push(path);
            }
        }
    }
    for read in reads {
        if !paths.contains(&read.path.as_str()) {
            paths.push(read.path.as_str());
        }
    }
    paths
}

/// The value of `"key":"…"` in compact JSON, when it has no escapes.
fn json_string_field<'a>(json: &'a str, key: &str) -> Option<&'a str> {
    let needle = alloc::format!("\"{key}\":\"");
    let start = json.find(&needle)? + needle.len();
    let rest = &json[start..];
    let end = rest.find('"')?;
    let value = &rest[..end];
    (!value.contains('\\')).then_some(value)
}

/// What the guard would answer now for every written or read file. Records are unchanged.
///
/// ```
/// use context_assembly::compact::policies::read_guard::{apply, ReadRecord};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::vocabulary::Verdict;
/// let reads = [ReadRecord { path: "/p/a.ts".into(), read_ms: 5, mtime_ms: Some(9) }];
/// let outcome = apply(&[], &reads, TokenMethod::Calibrated);
/// assert_eq!(outcome.decisions[1].verdict, Verdict::Denied);
/// ```
pub fn apply(records: &[Message], reads: &[ReadRecord], method: TokenMethod) -> PolicyOutcome {
    let paths = written_paths(records, reads);
    let mut decisions = Vec::with_capacity(paths.len() + 1);
    let refused: Vec<(&str, GuardError)> = paths
        .iter()
        .filter_map(|p| check(reads, p).err().map(|e| (*p, e)))
        .collect();
    decisions.push(decision(
        POLICY_ID,
        Verdict::NotApplied,
        alloc::format!(
            "a guard changes no record: {} of {} files would refuse a write now",
            refused.len(),
            paths.len()
        ),
        None,
    ));
    for path in &paths {
        let d = match refused.iter().find(|(p, _)| p == path) {
            Some((_, error)) => decision(
                path,
                Verdict::Denied,
                match error {
                    GuardError::NeverRead { .. } => {
                        String::from("E1: written but never read in this session")
                    }
                    GuardError::ModifiedSinceRead { .. } => {
                        String::from("E2: modified after the last read")
                    }
                },
                Some(error.message()),
            ),
            None => decision(
                path,
                Verdict::Included,
                String::from("read, and not modified since: a write may proceed"),
                None,
            ),
        };
        decisions.push(d);
    }
    outcome(records, records.to_vec(), decisions, method)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::ToolUse;

    #[test]
    fn never_read_and_changed_since_read_are_refused() {
        let reads = [
            ReadRecord {
                path: "/p/a.ts".into(),
                read_ms: 10,
                mtime_ms: Some(10),
            },
            ReadRecord {
                path: "/p/b.ts".into(),
                read_ms: 10,
                mtime_ms: Some(12),
            },
        ];
        assert_eq!(check(&reads, "/p/a.ts"), Ok(()));
        assert_eq!(
            check(&reads, "/p/b.ts"),
            Err(GuardError::ModifiedSinceRead {
                path: "/p/b.ts".into(),
                mtime_ms: 12,
                read_ms: 10
            })
        );
        let e1 = check(&reads, "/p/c.ts").unwrap_err();
        assert!(e1.message().contains("/p/c.ts"));
        let write = Message {
            id: 0,
            record: Record::Assistant {
                response: 0,
                block: AssistantBlock::ToolUse(ToolUse {
                    id: "w".into(),
                    name: "Write".into(),
                    input: "{\"file_path\":\"/p/c.ts\",\"content\":\"x\"}".into(),
                }),
            },
        };
        let outcome = apply(&[write], &reads, TokenMethod::Calibrated);
        let verdicts: Vec<(&str, Verdict)> = outcome.decisions[1..]
            .iter()
            .map(|d| (d.subject.as_str(), d.verdict))
            .collect();
        assert_eq!(
            verdicts,
            [
                ("/p/c.ts", Verdict::Denied),
                ("/p/a.ts", Verdict::Included),
                ("/p/b.ts", Verdict::Denied)
            ]
        );
    }
}
