//! jsdiff's Myers search (`diff@8.0.4`, `libesm/diff/base.js`), ported step for step.
//!
//! The port keeps everything that decides *which* of several shortest scripts comes out:
//! the greedy forward search without a middle snake, the choice between the insertion and
//! the deletion branch (`removePath.oldPos < addPath.oldPos` picks the insertion), the
//! pruning of diagonals once a path touches an edge, and the slots it clears or leaves
//! stale. Paths are persistent linked lists of runs sharing their prefixes, as in jsdiff;
//! here they live in an arena with reference counts, so memory stays what jsdiff keeps
//! alive and not what it ever allocated.

use alloc::vec::Vec;

/// What a run of lines is in the edit script.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum RunKind {
    /// Present in both files.
    Common,
    /// Only in the new file.
    Added,
    /// Only in the old file.
    Removed,
}

/// `count` consecutive lines of one kind.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Run {
    pub(crate) kind: RunKind,
    pub(crate) count: usize,
}

/// How a search ended.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Outcome {
    /// jsdiff's edit script, runs in file order.
    Script(Vec<Run>),
    /// The work budget ran out (or, unreachably by Myers's bound, the edit length passed
    /// `old + new`, where jsdiff also returns no result).
    GaveUp,
}

/// A finished search and the work it took.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) struct Search {
    pub(crate) outcome: Outcome,
    /// Units of work spent: one per edit length begun, one per diagonal visited, one per
    /// line matched along a snake. Never more than the budget.
    pub(crate) work: u64,
}

/// Diffs two sequences of interned lines as jsdiff's `diffLines` does, spending at most
/// `budget` units of work.
pub(crate) fn search(old: &[usize], new: &[usize], budget: u64) -> Search {
    let mut state = SearchState {
        old,
        new,
        arena: Arena::default(),
        slots: Diagonals::default(),
        work: 0,
        budget,
    };
    let outcome = state.run().unwrap_or(Outcome::GaveUp);
    Search {
        outcome,
        work: state.work,
    }
}

const NIL: usize = usize::MAX;

/// One link of a path's history: jsdiff's `{count, added, removed, previousComponent}`.
#[derive(Debug, Clone, Copy)]
struct Component {
    kind: RunKind,
    count: usize,
    previous: usize,
    holders: usize,
}

/// The components of every live path; a component is freed when no path or later
/// component holds it any more (what the JavaScript garbage collector does for jsdiff).
#[derive(Debug, Default)]
struct Arena {
    nodes: Vec<Component>,
    free: Vec<usize>,
}

impl Arena {
    // `inline(always)` on the search's per-step helpers: the session module is built at
    // opt-level "z", which ignores a plain `#[inline]` (Cargo.toml).
    #[inline(always)]
    fn alloc(&mut self, kind: RunKind, count: usize, previous: usize) -> usize {
        let node = Component {
            kind,
            count,
            previous,
            holders: 1,
        };
        match self.free.pop() {
            Some(id) => {
                if let Some(slot) = self.nodes.get_mut(id) {
                    *slot = node;
                }
                id
            }
            None => {
                self.nodes.push(node);
                self.nodes.len() - 1
            }
        }
    }

    #[inline(always)]
    fn get(&self, id: usize) -> Option<&Component> {
        self.nodes.get(id)
    }

    #[inline(always)]
    fn retain(&mut self, id: usize) {
        if let Some(node) = self.nodes.get_mut(id) {
            node.holders += 1;
        }
    }

    /// Drops one holder, freeing the chain behind it as far as nothing else holds it.
    #[inline(always)]
    fn release(&mut self, mut id: usize) {
        while let Some(node) = self.nodes.get_mut(id) {
            node.holders -= 1;
            if node.holders > 0 {
                return;
            }
            let previous = node.previous;
            self.free.push(id);
            id = previous;
        }
    }

    /// The runs of the path ending at `last`, in file order.
    fn runs(&self, mut last: usize) -> Vec<Run> {
        let mut runs = Vec::new();
        while let Some(node) = self.get(last) {
            runs.push(Run {
                kind: node.kind,
                count: node.count,
            });
            last = node.previous;
        }
        runs.reverse();
        runs
    }
}

/// jsdiff's `{oldPos, lastComponent}`; `old_pos` is the last old line consumed (-1: none).
#[derive(Debug, Clone, Copy)]
struct Path {
    old_pos: isize,
    last: usize,
}

/// jsdiff's `bestPath`, a sparse array indexed by diagonal (`oldPos - newPos`), negative
/// diagonals included. It grows with the edit length, so memory follows the work done.
#[derive(Debug, Default)]
struct Diagonals {
    /// `paths[i]` is diagonal `i - centre`; an empty slot has `old_pos == EMPTY`.
    paths: Vec<Path>,
    centre: usize,
}

const EMPTY: isize = isize::MIN;
const EMPTY_SLOT: Path = Path {
    old_pos: EMPTY,
    last: NIL,
};

impl Diagonals {
    /// Makes room for diagonals `-reach..=reach`, keeping what is stored.
    #[inline(always)]
    fn reach(&mut self, reach: usize) {
        if reach <= self.centre && self.centre + reach < self.paths.len() {
            return;
        }
        let centre = reach.max(self.centre.saturating_mul(2)).max(16);
        let mut paths = alloc::vec![EMPTY_SLOT; 2 * centre + 1];
        let shift = centre - self.centre;
        if let Some(moved) = paths.get_mut(shift..shift + self.paths.len()) {
            moved.copy_from_slice(&self.paths);
        }
        self.paths = paths;
        self.centre = centre;
    }

    #[inline(always)]
    fn index(&self, diagonal: isize) -> usize {
        (self.centre as isize).wrapping_add(diagonal) as usize
    }

    #[inline(always)]
    fn get(&self, diagonal: isize) -> Option<Path> {
        self.paths
            .get(self.index(diagonal))
            .copied()
            .filter(|p| p.old_pos != EMPTY)
    }

    #[inline(always)]
    fn replace(&mut self, diagonal: isize, path: Option<Path>) -> Option<Path> {
        let index = self.index(diagonal);
        let slot = self.paths.get_mut(index)?;
        let stored = core::mem::replace(slot, path.unwrap_or(EMPTY_SLOT));
        Some(stored).filter(|p| p.old_pos != EMPTY)
    }
}

struct SearchState<'a> {
    old: &'a [usize],
    new: &'a [usize],
    arena: Arena,
    slots: Diagonals,
    work: u64,
    budget: u64,
}

/// Why the search stopped without a script.
struct OutOfWork;

impl SearchState<'_> {
    #[inline(always)]
    fn spend(&mut self) -> Result<(), OutOfWork> {
        if self.work >= self.budget {
            return Err(OutOfWork);
        }
        self.work += 1;
        Ok(())
    }

    #[inline(always)]
    fn old_len(&self) -> isize {
        self.old.len() as isize
    }

    #[inline(always)]
    fn new_len(&self) -> isize {
        self.new.len() as isize
    }

    /// `diffWithOptionsObj` without its callback and clock: `None` when out of work.
    fn run(&mut self) -> Option<Outcome> {
        let mut seed = Path {
            old_pos: -1,
            last: NIL,
        };
        let new_pos = self.extract_common(&mut seed, 0).ok()?;
        if seed.old_pos + 1 >= self.old_len() && new_pos + 1 >= self.new_len() {
            return Some(Outcome::Script(self.arena.runs(seed.last)));
        }
        self.slots.reach(1);
        self.slots.replace(0, Some(seed));
        let max_edit_length = self.old_len() + self.new_len();
        let mut bounds = (isize::MIN, isize::MAX);
        let mut edit_length: isize = 1;
        while edit_length <= max_edit_length {
            self.spend().ok()?;
            self.slots.reach(edit_length.unsigned_abs() + 1);
            if let Some(last) = self.extend(edit_length, &mut bounds).ok()? {
                return Some(Outcome::Script(self.arena.runs(last)));
            }
            edit_length += 1;
        }
        Some(Outcome::GaveUp)
    }

    /// `execEditLength`: the furthest-reaching paths with `edit_length` edits. Returns the
    /// last component of the path that reached both ends, if one did.
    #[inline(always)]
    fn extend(
        &mut self,
        edit_length: isize,
        bounds: &mut (isize, isize),
    ) -> Result<Option<usize>, OutOfWork> {
        let mut diagonal = bounds.0.max(-edit_length);
        while diagonal <= bounds.1.min(edit_length) {
            self.spend()?;
            if let Some(done) = self.visit(diagonal, bounds)? {
                return Ok(Some(done));
            }
            diagonal += 2;
        }
        Ok(None)
    }

    /// One diagonal of `execEditLength`'s loop.
    #[inline(always)]
    fn visit(
        &mut self,
        diagonal: isize,
        bounds: &mut (isize, isize),
    ) -> Result<Option<usize>, OutOfWork> {
        let remove_path = self.slots.replace(diagonal - 1, None);
        let add_path = self.slots.get(diagonal + 1);
        let (old_len, new_len) = (self.old_len(), self.new_len());
        let can_add = add_path.filter(|p| (0..new_len).contains(&(p.old_pos - diagonal)));
        let can_remove = remove_path.filter(|p| p.old_pos + 1 < old_len);
        let mut base = match (can_add, can_remove) {
            (None, None) => {
                self.replace_slot(diagonal, None);
                self.drop_path(remove_path);
                return Ok(None);
            }
            // jsdiff compares the two paths *before* the step: the deletion wins only when
            // its path is not behind the insertion's in the old file.
            (Some(add), None) => self.add_to_path(add, RunKind::Added, 0),
            (Some(add), Some(remove)) if remove.old_pos < add.old_pos => {
                self.add_to_path(add, RunKind::Added, 0)
            }
            (_, Some(remove)) => self.add_to_path(remove, RunKind::Removed, 1),
        };
        self.drop_path(remove_path);
        let new_pos = self.extract_common(&mut base, diagonal)?;
        if base.old_pos + 1 >= self.old_len() && new_pos + 1 >= self.new_len() {
            return Ok(Some(base.last));
        }
        self.replace_slot(diagonal, Some(base));
        if base.old_pos + 1 >= self.old_len() {
            bounds.1 = bounds.1.min(diagonal - 1);
        }
        if new_pos + 1 >= self.new_len() {
            bounds.0 = bounds.0.max(diagonal + 1);
        }
        Ok(None)
    }

    #[inline(always)]
    fn replace_slot(&mut self, diagonal: isize, path: Option<Path>) {
        let previous = self.slots.replace(diagonal, path);
        self.drop_path(previous);
    }

    #[inline(always)]
    fn drop_path(&mut self, path: Option<Path>) {
        if let Some(path) = path {
            self.arena.release(path.last);
        }
    }

    /// `addToPath`: one more insertion or deletion, merged into the last run when it is of
    /// the same kind (a new component replaces it, since other paths may share it).
    #[inline(always)]
    fn add_to_path(&mut self, path: Path, kind: RunKind, old_step: isize) -> Path {
        let extended = self
            .arena
            .get(path.last)
            .filter(|last| last.kind == kind)
            .copied();
        let last = match extended {
            Some(last) => {
                self.arena.retain(last.previous);
                self.arena.alloc(kind, last.count + 1, last.previous)
            }
            None => {
                self.arena.retain(path.last);
                self.arena.alloc(kind, 1, path.last)
            }
        };
        Path {
            old_pos: path.old_pos + old_step,
            last,
        }
    }

    /// `extractCommon`: follows the snake of equal lines; returns the new-file position.
    #[inline(always)]
    fn extract_common(&mut self, path: &mut Path, diagonal: isize) -> Result<isize, OutOfWork> {
        let mut old_pos = path.old_pos;
        let mut new_pos = old_pos - diagonal;
        let start = old_pos;
        while new_pos + 1 < self.new_len()
            && old_pos + 1 < self.old_len()
            && matches!(
                (self.old.get((old_pos + 1) as usize), self.new.get((new_pos + 1) as usize)),
                (Some(a), Some(b)) if a == b
            )
        {
            self.spend()?;
            new_pos += 1;
            old_pos += 1;
        }
        if old_pos > start {
            let count = (old_pos - start) as usize;
            path.last = self.arena.alloc(RunKind::Common, count, path.last);
        }
        path.old_pos = old_pos;
        Ok(new_pos)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn script(old: &[usize], new: &[usize]) -> Vec<(RunKind, usize)> {
        match search(old, new, u64::MAX).outcome {
            Outcome::Script(runs) => runs.iter().map(|r| (r.kind, r.count)).collect(),
            Outcome::GaveUp => panic!("gave up"),
        }
    }

    #[test]
    fn a_replacement_lists_the_removal_first() {
        use RunKind::*;
        assert_eq!(
            script(&[1, 2, 3], &[1, 9, 3]),
            vec![(Common, 1), (Removed, 1), (Added, 1), (Common, 1)]
        );
        assert_eq!(script(&[1], &[2]), vec![(Removed, 1), (Added, 1)]);
    }

    #[test]
    fn identical_and_empty_inputs() {
        assert_eq!(script(&[4, 4, 4], &[4, 4, 4]), vec![(RunKind::Common, 3)]);
        assert_eq!(script(&[], &[]), vec![]);
        assert_eq!(script(&[], &[1, 2]), vec![(RunKind::Added, 2)]);
        assert_eq!(script(&[1, 2], &[]), vec![(RunKind::Removed, 2)]);
    }

    /// The law behind `WORK_BUDGET`: two unrelated files of `n` lines cost `n² + 4n`.
    #[test]
    fn unrelated_files_cost_n_squared_plus_4n() {
        for n in [1usize, 2, 7, 100, 250] {
            let old: Vec<usize> = (0..n).collect();
            let new: Vec<usize> = (n..2 * n).collect();
            let work = (n * n + 4 * n) as u64;
            assert_eq!(search(&old, &new, u64::MAX).work, work, "n = {n}");
            assert!(matches!(
                search(&old, &new, work).outcome,
                Outcome::Script(_)
            ));
            let starved = search(&old, &new, work - 1);
            assert_eq!((starved.outcome, starved.work), (Outcome::GaveUp, work - 1));
        }
    }

    #[test]
    fn the_common_prefix_is_work_too() {
        let same: Vec<usize> = (0..10).collect();
        assert_eq!(search(&same, &same, 10).work, 10);
        assert_eq!(search(&same, &same, 9).outcome, Outcome::GaveUp);
    }
}
