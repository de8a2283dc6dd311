//! The journal of acts a snapshot writes, and why it grows with the session's turns rather
//! than with its saves.
//!
//! A host that mirrors an editor writes the same file again and again (an autosave); every
//! write kept whole would make the journal, and the snapshot, grow by the file's size at
//! each save, in a workspace that holds one copy of it. But a write that a later write of the
//! same file replaces before anything looked at it changes nothing a replay can see, except
//! through three side effects: it may create the file (and its parent's mtime, and missing
//! directories), it holds bytes against the workspace's limit while it stands, and it sets
//! the file's mtime. So writes coalesce within the trailing run of `writeFile` acts (any other
//! act ends the run: a turn, a Read, a rename, a delete may look at the file):
//!
//! - a write of a file that already existed, followed directly by the next write of it (or
//!   standing over an empty file), is dropped: the next write replaces the same file and
//!   nothing in between could be refused for the bytes it held;
//! - any other earlier write of the file in the run is kept with its contents emptied: it
//!   still creates what it created and sets the mtimes it set, and an empty file holds
//!   fewer bytes against the limit than the contents did, so every write between it and the
//!   next one succeeds in a replay as it did.
//!
//! So a run keeps at most two writes of each file, one of them empty; the replay of a
//! coalesced journal coalesces to the same journal, so a restored session's snapshot equals
//! the one it was restored from.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::Act;

/// Every act since the session started, in order, with the trailing run of host writes
/// still open to coalescing.
#[derive(Debug, Default)]
pub(super) struct Journal {
    /// Acts no later act can change.
    settled: Vec<Act>,
    /// The trailing run of `writeFile` acts; `None`: a write a later one dropped.
    run: Vec<Option<RunWrite>>,
    /// The run's latest write of each file, by its absolute path.
    latest: BTreeMap<String, usize>,
    /// How many of `run` are `None`.
    dropped: usize,
}

/// A `writeFile` act of the open run, with what a replay of the journal meets when it runs.
#[derive(Debug)]
struct RunWrite {
    act: Act,
    /// The file written, as an absolute path.
    file: String,
    /// The file existed before this write (it created nothing).
    overwrote: bool,
    /// What this write replaced was empty (as the journal replays it).
    replaced_empty: bool,
}

impl Journal {
    /// Appends an act that is not a host write: it ends the run.
    pub(super) fn push(&mut self, act: Act) {
        self.settle();
        self.settled.push(act);
    }

    /// Appends a host write of the file at `file` (absolute), coalescing it with the run's
    /// earlier write of that file. `existed_with`: the file's size before the write, `None`
    /// when the write created it.
    pub(super) fn push_write(&mut self, file: String, act: Act, existed_with: Option<u64>) {
        let mut write = RunWrite {
            act,
            file: file.clone(),
            overwrote: existed_with.is_some(),
            replaced_empty: existed_with == Some(0),
        };
        let mut hole = None;
        if let Some(&earlier) = self.latest.get(&file) {
            let later = self.run.get(earlier + 1..).unwrap_or_default();
            let adjacent = later.iter().all(Option::is_none);
            if let Some(slot) = self.run.get_mut(earlier) {
                if let Some(previous) = slot.as_mut() {
                    write.overwrote = true;
                    if previous.overwrote && (adjacent || previous.replaced_empty) {
                        write.replaced_empty = previous.replaced_empty;
                        *slot = None;
                        self.dropped += 1;
                        hole = Some(earlier);
                    } else {
                        write.replaced_empty = true;
                        previous.act.empty_contents();
                    }
                }
            }
        }
        self.latest.insert(file, self.run.len());
        self.run.push(Some(write));
        if let Some(hole) = hole {
            self.join_around(hole);
        }
        // Dropped slots are reclaimed once they outnumber the writes kept.
        if self.dropped > 16 && self.dropped * 2 > self.run.len() {
            self.reclaim_dropped();
        }
    }

    /// After the write at `hole` was dropped, the writes on either side of it meet: when
    /// they are two writes of one file, the earlier one is dropped as it would have been had
    /// they met when the later one was journaled, so that a replay of the journal (where
    /// they do meet) coalesces nothing further.
    fn join_around(&mut self, mut hole: usize) {
        loop {
            let live = |index: &usize| matches!(self.run.get(*index), Some(Some(_)));
            let (Some(before), Some(after)) = (
                (0..hole).rev().find(live),
                (hole + 1..self.run.len()).find(live),
            ) else {
                return;
            };
            let (Some(Some(earlier)), Some(Some(later))) =
                (self.run.get(before), self.run.get(after))
            else {
                return;
            };
            if earlier.file != later.file || !earlier.overwrote {
                return;
            }
            let replaced_empty = earlier.replaced_empty;
            if let Some(Some(later)) = self.run.get_mut(after) {
                later.replaced_empty = replaced_empty;
            }
            if let Some(slot) = self.run.get_mut(before) {
                *slot = None;
            }
            self.dropped += 1;
            hole = before;
        }
    }

    /// How many acts the journal holds.
    pub(super) fn len(&self) -> usize {
        self.settled.len() + self.run.len() - self.dropped
    }

    /// The latest act.
    pub(super) fn last(&self) -> Option<&Act> {
        (self
            .run
            .iter()
            .rev()
            .flatten()
            .map(|write| &write.act)
            .next())
        .or_else(|| self.settled.last())
    }

    /// Every act, in order.
    pub(super) fn iter(&self) -> impl Iterator<Item = &Act> {
        let run = self.run.iter().flatten().map(|write| &write.act);
        self.settled.iter().chain(run)
    }

    /// Closes the run: its writes can no longer change.
    fn settle(&mut self) {
        let run = core::mem::take(&mut self.run);
        self.settled
            .extend(run.into_iter().flatten().map(|write| write.act));
        self.latest.clear();
        self.dropped = 0;
    }

    /// Removes the dropped slots from the run.
    fn reclaim_dropped(&mut self) {
        let run = core::mem::take(&mut self.run);
        self.run = run.into_iter().filter(Option::is_some).collect();
        self.dropped = 0;
        self.latest.clear();
        for (index, write) in self.run.iter().flatten().enumerate() {
            self.latest.insert(write.file.clone(), index);
        }
    }
}

impl Act {
    /// A write's contents emptied (see the module's docs); other acts are left alone.
    fn empty_contents(&mut self) {
        if let Act::WriteFile { text, bytes, .. } = self {
            if text.as_ref().is_none_or(|text| !text.is_empty()) {
                *text = Some("".into());
                *bytes = None;
            }
        }
    }
}
