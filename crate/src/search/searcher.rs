//! A search over one list of paths that a host asks again on every keystroke: the paths are
//! prepared once (folded characters and their bonuses), and a query that narrows the previous
//! one (typing on, adding an atom) scores only the previous matches instead of every path.
//! When the query only types on at the end of its last atom (`co` → `com`), each match's
//! score can grow by at most [`MAX_GAIN_PER_CHARACTER`] per character typed, so the previous
//! scores bound the new ones: the matches are scored best bound first, and scoring stops
//! once no bound can reach the results any more. Results are [`super::search_paths`]'s for
//! the same paths and query.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::pattern::{Atom, AtomKind};
use super::score::{
    fuzzy_bound, haystack_of, is_subsequence as matches_in_order, prepare_into, Haystack, Rows,
    MAX_GAIN_PER_CHARACTER,
};
use super::{best, cap_query, ranking, shown, total_score, Candidate, CappedQuery};
use super::{Scored, SearchResult};
use crate::Error;

/// The most memory a searcher's prepared paths may take, in bytes: 64 MiB, about 230,000
/// paths of 45 characters. A prepared path costs [`prepared_bytes`]: its UTF-8 bytes, 5 bytes
/// per character (the folded character and its bonus) and 13 bytes of bookkeeping (where it
/// ends in each store, whether it is a directory, its place in the previous matches).
pub const MAX_PREPARED_BYTES: usize = 64 * 1024 * 1024;

/// Bytes of bookkeeping per path (see [`MAX_PREPARED_BYTES`]).
const BYTES_PER_PATH: usize = 13;

/// Bytes per character of a prepared path: the folded character and its bonus.
const BYTES_PER_CHAR: usize = 5;

/// What a path costs once prepared (see [`MAX_PREPARED_BYTES`]).
///
/// ```
/// use context_assembly::search::prepared_bytes;
/// assert_eq!(prepared_bytes("src/é.rs"), 9 + 8 * 5 + 13);
/// ```
pub fn prepared_bytes(path: &str) -> usize {
    path.len() + path.chars().count() * BYTES_PER_CHAR + BYTES_PER_PATH
}

/// Paths prepared for searching, and the previous query's matches.
///
/// ```
/// use context_assembly::search::{search_paths, Candidate, FileSearcher};
/// let paths = ["src/app.ts", "src/api.ts", "docs/app.md"]
///     .map(|p| Candidate { path: p.into(), is_dir: false });
/// let mut searcher = FileSearcher::new(&paths).unwrap();
/// for query in ["a", "ap", "app", "app ts", "ap"] {
///     assert_eq!(searcher.search(query, 20), search_paths(&paths, query, 20));
/// }
/// ```
pub struct FileSearcher {
    /// Every path as given, one after the other; `path_ends[i]` is where path `i` ends.
    text: String,
    path_ends: Vec<u32>,
    /// Every path's folded characters and their bonuses; `char_ends[i]` is where path `i`
    /// ends.
    chars: Vec<char>,
    bonus: Vec<u8>,
    char_ends: Vec<u32>,
    is_dir: Vec<bool>,
    previous: Option<PreviousSearch>,
}

/// Results up to this many are kept by insertion while scoring by bound; a larger `limit`
/// scores every match.
const MAX_BOUNDED_LIMIT: usize = 64;

/// A query's atoms, every path they matched, and for each an upper bound of its score
/// (its score, when it was scored).
struct PreviousSearch {
    atoms: Vec<Atom>,
    matched: Vec<(u32, u32)>,
}

impl FileSearcher {
    /// Prepares `candidates` (in walk order).
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] when the prepared paths would take more than
    /// [`MAX_PREPARED_BYTES`].
    ///
    /// ```
    /// use context_assembly::search::{Candidate, FileSearcher};
    /// // Two paths of 8 Mi characters: 6 bytes each per character once prepared.
    /// let long = Candidate { path: "a/".repeat(4 * 1024 * 1024), is_dir: false };
    /// let error = FileSearcher::new(&[long.clone(), long]).err().unwrap();
    /// assert_eq!(
    ///     error.to_string(),
    ///     "paths: 2 paths would take 100663322 bytes once prepared; a searcher holds at most \
    ///      67108864 bytes: give it fewer paths (a part of the tree)"
    /// );
    /// ```
    pub fn new(candidates: &[Candidate]) -> Result<FileSearcher, Error> {
        let bytes: usize = (candidates.iter()).map(|c| prepared_bytes(&c.path)).sum();
        if bytes > MAX_PREPARED_BYTES {
            return Err(Error::InvalidConfig {
                field: "paths".into(),
                reason: format!(
                    "{} paths would take {bytes} bytes once prepared; a searcher holds at most \
                     {MAX_PREPARED_BYTES} bytes: give it fewer paths (a part of the tree)",
                    candidates.len()
                ),
            });
        }
        let text_len: usize = candidates.iter().map(|c| c.path.len()).sum();
        let char_count: usize = candidates.iter().map(|c| c.path.chars().count()).sum();
        let mut searcher = FileSearcher {
            text: String::with_capacity(text_len),
            path_ends: Vec::with_capacity(candidates.len()),
            chars: Vec::with_capacity(char_count),
            bonus: Vec::with_capacity(char_count),
            char_ends: Vec::with_capacity(candidates.len()),
            is_dir: Vec::with_capacity(candidates.len()),
            previous: None,
        };
        for candidate in candidates {
            searcher.text.push_str(&candidate.path);
            searcher.path_ends.push(offset(searcher.text.len()));
            prepare_into(&candidate.path, &mut searcher.chars, &mut searcher.bonus);
            searcher.char_ends.push(offset(searcher.chars.len()));
            searcher.is_dir.push(candidate.is_dir);
        }
        Ok(searcher)
    }

    /// How many paths it searches.
    pub fn len(&self) -> usize {
        self.is_dir.len()
    }

    /// Whether it searches no path.
    pub fn is_empty(&self) -> bool {
        self.is_dir.is_empty()
    }

    /// [`super::search_paths`] over the prepared paths. When every atom of the previous
    /// query is implied by the atom at its place in this one (`co` → `com`, `src` →
    /// `src 'ts`), only the previous matches are scored.
    pub fn search(&mut self, query: &str, limit: usize) -> SearchResult {
        let CappedQuery { atoms, cut } = cap_query(query);
        let previous = self.previous.take();
        let typed_on = previous
            .as_ref()
            .and_then(|p| characters_typed_on(&p.atoms, &atoms));
        let bounded = limit <= MAX_BOUNDED_LIMIT;
        let (top, matched) = match (previous, typed_on) {
            (Some(previous), Some(typed)) if bounded => {
                let matched = self.typed_on_bounds(&atoms, previous.matched, typed);
                self.best_by_bound(&atoms, matched, limit)
            }
            (previous, _)
                if bounded
                    && all_fuzzy(&atoms)
                    && !previous.as_ref().is_some_and(|p| narrows(&p.atoms, &atoms)) =>
            {
                self.best_by_bound(&atoms, self.fresh_bounds(&atoms), limit)
            }
            (previous, _) => {
                let narrowed = previous.filter(|p| narrows(&p.atoms, &atoms));
                let matched = match narrowed {
                    Some(previous) => {
                        self.matching(&atoms, previous.matched.into_iter().map(|(_, i)| i))
                    }
                    None => self.matching(&atoms, 0..offset(self.len())),
                };
                let found: Vec<Scored> = matched
                    .iter()
                    .map(|&(score, i)| self.scored(score, i))
                    .collect();
                (best(found, limit), matched)
            }
        };
        let matches = top
            .into_iter()
            .map(|(score, _, order)| {
                let haystack = self.haystack(order);
                shown(
                    self.path(order),
                    self.is_dir[order],
                    score,
                    &haystack,
                    &atoms,
                )
            })
            .collect();
        let total_match_count = matched.len();
        self.previous = Some(PreviousSearch { atoms, matched });
        SearchResult {
            matches,
            total_match_count,
            query_cut: cut,
        }
    }

    /// The previous matches that still match when the last atom grew by `typed` characters,
    /// with bounds raised by what those characters can add.
    fn typed_on_bounds(
        &self,
        atoms: &[Atom],
        previous: Vec<(u32, u32)>,
        typed: usize,
    ) -> Vec<(u32, u32)> {
        let needle = atoms.last().map_or(&[][..], |atom| &atom.needle[..]);
        let gain = MAX_GAIN_PER_CHARACTER.saturating_mul(u32::try_from(typed).unwrap_or(u32::MAX));
        previous
            .into_iter()
            .filter(|&(_, order)| matches_in_order(self.haystack(order as usize).chars(), needle))
            .map(|(bound, order)| (bound.saturating_add(gain), order))
            .collect()
    }

    /// Every path that a query of fuzzy atoms only matches, with a bound of its score that
    /// costs one pass over the path per atom ([`fuzzy_bound`]).
    fn fresh_bounds(&self, atoms: &[Atom]) -> Vec<(u32, u32)> {
        (0..offset(self.len()))
            .filter_map(|order| {
                let haystack = self.haystack(order as usize);
                let bounds = atoms
                    .iter()
                    .map(|atom| fuzzy_bound(&haystack, &atom.needle));
                let bound = bounds.sum::<Option<u32>>()?;
                Some((bound, order))
            })
            .collect()
    }

    /// The best `limit` of `matched` (each with an upper bound of its score), scoring them
    /// best bound first until the worst result kept outranks every bound left; each scored
    /// match's bound becomes its score.
    fn best_by_bound(
        &self,
        atoms: &[Atom],
        mut matched: Vec<(u32, u32)>,
        limit: usize,
    ) -> (Vec<Scored>, Vec<(u32, u32)>) {
        // Best bound first and, among equal bounds, in the ranking's own tie order (shorter,
        // then earlier): once the worst result kept outranks a match's best case, it outranks
        // every match after it too.
        let length = |order: u32| self.haystack(order as usize).len();
        crate::sort::sort_by_key(&mut matched, |&(bound, order)| {
            (core::cmp::Reverse(bound), length(order), order)
        });
        let mut top: Vec<Scored> = Vec::with_capacity(limit + 1);
        let (mut rows, mut atoms_scored) = (Rows::default(), 0);
        for (bound, order) in &mut matched {
            let best_case = self.scored(*bound, *order);
            if top.len() == limit
                && top
                    .last()
                    .is_none_or(|worst| !ranking(&best_case, worst).is_lt())
            {
                break;
            }
            let haystack = self.haystack(*order as usize);
            // Every atom matches (checked when the bounds were made): it scores.
            let Some(score) = total_score(&haystack, atoms, &mut rows, &mut atoms_scored) else {
                continue;
            };
            *bound = score;
            let entry = self.scored(score, *order);
            let at = top.partition_point(|kept| ranking(kept, &entry).is_lt());
            top.insert(at, entry);
            top.truncate(limit);
        }
        (top, matched)
    }

    /// The paths among `orders` that `atoms` match, with their scores.
    fn matching(&self, atoms: &[Atom], orders: impl Iterator<Item = u32>) -> Vec<(u32, u32)> {
        let mut rows = Rows::default();
        let mut atoms_scored = 0;
        orders
            .filter_map(|order| {
                let haystack = self.haystack(order as usize);
                let score = total_score(&haystack, atoms, &mut rows, &mut atoms_scored)?;
                Some((score, order))
            })
            .collect()
    }

    fn scored(&self, score: u32, order: u32) -> Scored {
        let order = order as usize;
        (score, self.haystack(order).len(), order)
    }

    fn haystack(&self, order: usize) -> Haystack<'_> {
        let span = span(&self.char_ends, order);
        let chars = self.chars.get(span.clone()).unwrap_or_default();
        let bonus = self.bonus.get(span).unwrap_or_default();
        haystack_of(chars, bonus)
    }

    fn path(&self, order: usize) -> &str {
        self.text
            .get(span(&self.path_ends, order))
            .unwrap_or_default()
    }
}

/// Where item `order` lies in a store whose items end at `ends`.
fn span(ends: &[u32], order: usize) -> core::ops::Range<usize> {
    let start = order.checked_sub(1).map_or(0, |i| ends[i] as usize);
    start..ends[order] as usize
}

/// A store offset as kept: the byte budget keeps every store far below 4 GiB.
fn offset(length: usize) -> u32 {
    u32::try_from(length).unwrap_or(u32::MAX)
}

/// Whether every atom is fuzzy and not negated: the queries [`fuzzy_bound`] bounds.
fn all_fuzzy(atoms: &[Atom]) -> bool {
    atoms
        .iter()
        .all(|atom| atom.kind == AtomKind::Fuzzy && !atom.negated)
}

/// How many characters `next` typed on at the end of `previous`'s last atom, when that is
/// all that changed: the same atoms before it, and a fuzzy, not negated last atom whose
/// needle starts with the previous one.
fn characters_typed_on(previous: &[Atom], next: &[Atom]) -> Option<usize> {
    let (before, earlier) = previous.split_last()?;
    let (after, others) = next.split_last()?;
    let fuzzy = |atom: &Atom| atom.kind == AtomKind::Fuzzy && !atom.negated;
    (earlier == others && fuzzy(before) && fuzzy(after) && after.needle.starts_with(&before.needle))
        .then(|| after.needle.len() - before.needle.len())
}

/// Whether every path `next` matches, `previous` matched too: each previous atom is implied
/// by the atom at its place, and the atoms after them only exclude more.
fn narrows(previous: &[Atom], next: &[Atom]) -> bool {
    previous.len() <= next.len() && previous.iter().zip(next).all(|(p, n)| implies(n, p))
}

/// Whether a path that `next` accepts is accepted by `previous` (a negated atom accepts the
/// paths it does not match).
fn implies(next: &Atom, previous: &Atom) -> bool {
    use AtomKind::{Exact, Fuzzy, Postfix, Prefix, Substring};
    if previous.negated || next.negated {
        return next == previous;
    }
    let (p, n) = (&previous.needle[..], &next.needle[..]);
    match (previous.kind, next.kind) {
        // Every kind matches its needle's characters in order, so it matches any subsequence
        // of them as a fuzzy atom does.
        (Fuzzy, _) => is_subsequence(p, n),
        (Substring, kind) => kind != Fuzzy && contains(n, p),
        (Prefix, Prefix | Exact) => n.starts_with(p),
        (Postfix, Postfix | Exact) => n.ends_with(p),
        (Exact, Exact) => n == p,
        _ => false,
    }
}

fn is_subsequence(needle: &[char], within: &[char]) -> bool {
    let mut rest = within.iter();
    needle.iter().all(|c| rest.any(|w| w == c))
}

fn contains(within: &[char], needle: &[char]) -> bool {
    needle.is_empty() || within.windows(needle.len()).any(|window| window == needle)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::parse_query;

    fn atom(query: &str) -> Atom {
        parse_query(query).remove(0)
    }

    #[test]
    fn typing_on_narrows_and_a_negation_or_a_new_kind_may_not() {
        assert!(implies(&atom("com"), &atom("co")));
        assert!(implies(&atom("'com"), &atom("cm")));
        assert!(implies(&atom("com$"), &atom("'om")));
        assert!(implies(&atom("^com"), &atom("^co")));
        assert!(!implies(&atom("!com"), &atom("!co")));
        assert!(!implies(&atom("com"), &atom("'co")));
        assert!(!implies(&atom("^com"), &atom("co$")));
        assert!(narrows(&parse_query("co"), &parse_query("co ts")));
        assert!(!narrows(&parse_query("co ts"), &parse_query("co")));
    }
}
