//! Fuzzy path search as Codex's `@` file search does it (spec codex.md §6.6): an fzf-style
//! query of whitespace-separated atoms (`^prefix`, `suffix$`, `'exact`, `!negated`, or
//! fuzzy), each scored like nucleo with its path configuration and summed; results ordered
//! by score, then shorter path, then walk order; the first `limit` reported with the total.
//!
//! # Query caps
//!
//! Work grows with the number of atoms times the number of paths, and a search runs on every
//! keystroke, so a query is capped: only its first [`MAX_QUERY_CHARS`] characters and, of
//! those, its first [`MAX_QUERY_ATOMS`] atoms are matched. Neither Codex nor nucleo has a cap
//! (Codex's composer never sends more than one atom, because its `@` token ends at whitespace;
//! its app-server passes any query through), so the values are ours. A capped query is not an
//! error: the popup keeps showing results while the user types, and the result's
//! [`SearchResult::query_cut`] says what was left out and why.
//!
//! [`composer`] finds the `@` token a search starts from and writes the accepted path back
//! (§6.1–6.2). [`search_paths`] is the pure matcher over a list; a session walks its virtual workspace
//! for it ([`crate::workspace::Workspace::search_files`]).
//!
//! ```
//! use context_assembly::search::{search_paths, Candidate};
//! let paths = ["foo/bar", "bar/foo", "foobar"].map(|p| Candidate { path: p.into(), is_dir: false });
//! let found = search_paths(&paths, "foo bar", 20);
//! let scores: Vec<(&str, u32)> = found.matches.iter().map(|m| (m.path.as_str(), m.score)).collect();
//! assert_eq!(scores, [("foo/bar", 168), ("bar/foo", 168), ("foobar", 140)]);
//! ```

pub mod composer;
mod pattern;
pub mod score;
mod searcher;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub use pattern::{parse_query, Atom, AtomKind};
pub use searcher::{prepared_bytes, FileSearcher, MAX_PREPARED_BYTES};

use score::{Haystack, PreparedPath, Rows};

/// Results shown at most by default (`FileSearchOptions.limit`).
pub const DEFAULT_LIMIT: usize = 20;

/// The largest `limit` a host may ask for: a popup never shows more, and the bound keeps
/// one query's answer small.
pub const MAX_LIMIT: usize = 10_000;

/// Atoms matched at most; later ones are left out. Eight is more than anyone types in a
/// popup, and bounds a keystroke over 50,000 paths to about eight single-character scans
/// (under 0.1 s natively; `cargo bench -p context-assembly --bench engines -- search`).
pub const MAX_QUERY_ATOMS: usize = 8;

/// Characters of a query read at most; the rest is ignored, as if the user had stopped typing
/// there. A little more than the longest path a user pastes (deep monorepo paths stay under
/// a few hundred characters), so a pasted path is matched whole.
pub const MAX_QUERY_CHARS: usize = 1024;

/// A path that may match: relative to the search root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The path relative to the root, `/`-separated.
    pub path: String,
    /// It is a directory (Codex indexes directories too).
    pub is_dir: bool,
}

crate::vocabulary::named_enum! {
    /// What a match names.
    pub enum MatchKind {
    /// A file.
    File => "file",
    /// A directory (Codex indexes directories too).
    Directory => "directory",
    }
}

/// One match.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct SearchMatch {
    /// The path relative to the root.
    pub path: String,
    /// What it names.
    pub kind: MatchKind,
    /// The summed score of the query's atoms.
    pub score: u32,
    /// Character positions of the path that matched, ascending and distinct
    /// ([`SearchResult::in_utf16`] turns them into the UTF-16 positions JavaScript indexes by).
    pub indices: Vec<usize>,
}

/// The best matches and how many there were.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct SearchResult {
    /// At most `limit`, best first.
    pub matches: Vec<SearchMatch>,
    /// Every candidate that matched.
    pub total_match_count: usize,
    /// What of the query was left out because it passed a cap; `None` when all of it was
    /// matched.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub query_cut: Option<QueryCut>,
}

impl SearchResult {
    /// The same result with every match's positions in UTF-16 code units instead of
    /// characters: where JavaScript, which indexes strings by those units, finds them in the
    /// match's path. A character outside the Basic Multilingual Plane takes two units.
    ///
    /// ```
    /// use context_assembly::search::{search_paths, Candidate};
    /// let paths = [Candidate { path: "src/😀/ünï/xyz.ts".into(), is_dir: false }];
    /// let found = search_paths(&paths, "xyz", 20);
    /// assert_eq!(found.matches[0].indices, [10, 11, 12]); // characters
    /// assert_eq!(found.in_utf16().matches[0].indices, [11, 12, 13]); // UTF-16 units
    /// ```
    pub fn in_utf16(mut self) -> SearchResult {
        for found in &mut self.matches {
            let mut chars = found.path.chars();
            let (mut char_at, mut units) = (0, 0);
            for index in &mut found.indices {
                // Ascending: each position is reached by walking on from the previous one.
                for c in chars.by_ref().take(index.saturating_sub(char_at)) {
                    units += c.len_utf16();
                }
                char_at = *index;
                *index = units;
            }
        }
        self
    }
}

/// The part of a query a search left out, and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct QueryCut {
    /// Characters ignored past [`MAX_QUERY_CHARS`].
    pub chars_ignored: usize,
    /// Atoms left out past [`MAX_QUERY_ATOMS`] (counted in the characters that were read).
    pub atoms_ignored: usize,
    /// The caps that were passed and their values, in words.
    pub reason: String,
}

/// A query's atoms within the caps, and what the caps left out.
struct CappedQuery {
    atoms: Vec<Atom>,
    cut: Option<QueryCut>,
}

fn cap_query(query: &str) -> CappedQuery {
    let (read, chars_ignored) = match query.char_indices().nth(MAX_QUERY_CHARS) {
        Some((end, _)) => (&query[..end], query[end..].chars().count()),
        None => (query, 0),
    };
    let mut atoms = parse_query(read);
    let atoms_ignored = atoms.len().saturating_sub(MAX_QUERY_ATOMS);
    atoms.truncate(MAX_QUERY_ATOMS);
    let total_chars = MAX_QUERY_CHARS + chars_ignored;
    let total_atoms = MAX_QUERY_ATOMS + atoms_ignored;
    let reason = match (chars_ignored > 0, atoms_ignored > 0) {
        (false, false) => None,
        (true, false) => Some(format!(
            "the query has {total_chars} characters; only the first {MAX_QUERY_CHARS} are read"
        )),
        (false, true) => Some(format!(
            "the query has {total_atoms} atoms; only the first {MAX_QUERY_ATOMS} are matched"
        )),
        (true, true) => Some(format!(
            "the query has {total_chars} characters; only the first {MAX_QUERY_CHARS} are \
             read, and they hold {total_atoms} atoms, of which only the first \
             {MAX_QUERY_ATOMS} are matched"
        )),
    };
    let cut = reason.map(|reason| QueryCut {
        chars_ignored,
        atoms_ignored,
        reason,
    });
    CappedQuery { atoms, cut }
}

/// Matches `query` against `candidates` (in walk order) and keeps the best `limit`. An empty
/// query matches every path with score 0, so the shortest paths come first (what a popup
/// opened by a bare `@` lists; Codex's composer runs no search then); one of negations only
/// matches every path they do not exclude. Only the query's first [`MAX_QUERY_CHARS`] characters and [`MAX_QUERY_ATOMS`] atoms are
/// matched; [`SearchResult::query_cut`] reports the rest.
///
/// # Example
/// ```
/// use context_assembly::search::{search_paths, Candidate, MAX_QUERY_ATOMS};
/// let paths = [Candidate { path: "src/main.rs".into(), is_dir: false }];
/// // Twelve atoms: the last four are not matched, and the result says so.
/// let found = search_paths(&paths, &"s ".repeat(12), 20);
/// assert_eq!(found.total_match_count, 1);
/// let cut = found.query_cut.unwrap();
/// assert_eq!(cut.atoms_ignored, 12 - MAX_QUERY_ATOMS);
/// assert_eq!(cut.reason, "the query has 12 atoms; only the first 8 are matched");
/// ```
pub fn search_paths(candidates: &[Candidate], query: &str, limit: usize) -> SearchResult {
    search_counting(candidates, query, limit, &mut 0)
}

/// [`search_paths`], adding to `atoms_scored` each time an atom is scored against a path (the
/// search's work, which the caps bound).
fn search_counting(
    candidates: &[Candidate],
    query: &str,
    limit: usize,
    atoms_scored: &mut usize,
) -> SearchResult {
    let CappedQuery { atoms, cut } = cap_query(query);
    // Score every candidate without positions, reusing one set of buffers; positions are
    // worked out for the few that are shown.
    let mut prepared = PreparedPath::default();
    let mut rows = Rows::default();
    let mut found: Vec<Scored> = Vec::new();
    for (order, candidate) in candidates.iter().enumerate() {
        prepared.load(&candidate.path);
        let haystack = prepared.haystack();
        if let Some(score) = total_score(&haystack, &atoms, &mut rows, atoms_scored) {
            found.push((score, haystack.len(), order));
        }
    }
    let total_match_count = found.len();
    let matches = best(found, limit)
        .into_iter()
        .map(|(score, _, order)| {
            let candidate = &candidates[order];
            let prepared = PreparedPath::new(&candidate.path);
            shown(
                &candidate.path,
                candidate.is_dir,
                score,
                &prepared.haystack(),
                &atoms,
            )
        })
        .collect();
    SearchResult {
        matches,
        total_match_count,
        query_cut: cut,
    }
}

/// A candidate that matched: its score, its length in characters, its walk order.
type Scored = (u32, usize, usize);

/// The best `limit` of `found`, best first. A popup's few (`limit` up to
/// [`KEPT_BY_INSERTION`]) are kept in order as `found` is read: a candidate that ranks below the
/// last one kept costs one comparison, one that enters a binary search and a shift of at most
/// `limit`. A larger `limit` sorts everything found.
fn best(mut found: Vec<Scored>, limit: usize) -> Vec<Scored> {
    if limit > KEPT_BY_INSERTION {
        crate::sort::sort_by(&mut found, ranking);
        found.truncate(limit);
        return found;
    }
    let mut kept: Vec<Scored> = Vec::with_capacity(limit.min(found.len()));
    for candidate in found {
        let full = kept.len() == limit;
        if full && (kept.last()).is_none_or(|last| ranking(&candidate, last).is_ge()) {
            continue;
        }
        let at = kept.partition_point(|held| ranking(held, &candidate).is_le());
        kept.insert(at, candidate);
        kept.truncate(limit);
    }
    kept
}

/// The largest `limit` [`best`] keeps by insertion rather than by sorting every match.
const KEPT_BY_INSERTION: usize = 64;

/// A match as it is shown, with the positions its atoms matched.
fn shown(path: &str, is_dir: bool, score: u32, haystack: &Haystack, atoms: &[Atom]) -> SearchMatch {
    SearchMatch {
        path: path.into(),
        kind: if is_dir {
            MatchKind::Directory
        } else {
            MatchKind::File
        },
        score,
        indices: positions(haystack, atoms),
    }
}

/// Score descending, then the shorter path, then walk order.
fn ranking(a: &Scored, b: &Scored) -> core::cmp::Ordering {
    b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2))
}

/// The sum of the atoms' scores, or `None` when one does not match (or a negated one does).
fn total_score(
    haystack: &Haystack,
    atoms: &[Atom],
    rows: &mut Rows,
    atoms_scored: &mut usize,
) -> Option<u32> {
    let mut total = 0;
    for atom in atoms {
        *atoms_scored += 1;
        match (atom.negated, atom.score_only(haystack, rows)) {
            (true, Some(_)) | (false, None) => return None,
            (true, None) => {}
            (false, Some(score)) => total += score,
        }
    }
    Some(total)
}

/// Where the non-negated atoms matched, ascending and distinct.
fn positions(haystack: &Haystack, atoms: &[Atom]) -> Vec<usize> {
    let mut indices: Vec<usize> = atoms
        .iter()
        .filter(|atom| !atom.negated)
        .filter_map(|atom| atom.score(haystack))
        .flat_map(|(_, at)| at)
        .collect();
    crate::sort::sort(&mut indices);
    indices.dedup();
    indices
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_best_kept_by_insertion_are_the_first_of_a_full_sort() {
        let mut state = 7u64;
        let mut next = move |range: u64| {
            state = state
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (state >> 33) % range
        };
        for len in [0, 1, 5, 63, 64, 65, 300, 2_000] {
            let found: Vec<Scored> = (0..len)
                .map(|order| (next(40) as u32, next(30) as usize, order))
                .collect();
            let mut sorted = found.clone();
            sorted.sort_by(ranking);
            for limit in [0, 1, 2, 20, 64, 65, 500, MAX_LIMIT] {
                let expected = &sorted[..limit.min(len)];
                assert_eq!(
                    best(found.clone(), limit),
                    expected,
                    "{len} found, limit {limit}"
                );
            }
        }
    }

    fn paths(count: usize) -> Vec<Candidate> {
        (0..count)
            .map(|i| Candidate {
                path: format!("src/c{i}/component.ts"),
                is_dir: false,
            })
            .collect()
    }

    #[test]
    fn a_query_of_two_thousand_atoms_scores_at_most_the_capped_atoms_per_path() {
        let candidates = paths(50);
        let query = "c ".repeat(2_000);
        let mut atoms_scored = 0;
        let result = search_counting(&candidates, &query, 20, &mut atoms_scored);
        // Every atom matches every path, so nothing stops early: the cap is the only bound.
        assert_eq!(result.total_match_count, candidates.len());
        assert_eq!(atoms_scored, candidates.len() * MAX_QUERY_ATOMS);
        let cut = result.query_cut.expect("the caps were passed");
        assert_eq!(cut.chars_ignored, 4_000 - MAX_QUERY_CHARS);
        assert_eq!(cut.atoms_ignored, MAX_QUERY_CHARS / 2 - MAX_QUERY_ATOMS);
        assert_eq!(
            cut.reason,
            "the query has 4000 characters; only the first 1024 are read, and they hold 512 \
             atoms, of which only the first 8 are matched"
        );
    }

    #[test]
    fn a_query_within_the_caps_is_matched_whole_and_reports_no_cut() {
        let candidates = paths(3);
        let query = "c ".repeat(MAX_QUERY_ATOMS);
        let mut atoms_scored = 0;
        let result = search_counting(&candidates, &query, 20, &mut atoms_scored);
        assert_eq!(atoms_scored, 3 * MAX_QUERY_ATOMS);
        assert_eq!(result.query_cut, None);
    }

    #[test]
    fn the_character_cap_counts_characters_not_bytes() {
        let query = "é".repeat(MAX_QUERY_CHARS + 1);
        let capped = cap_query(&query);
        assert_eq!(capped.atoms[0].needle.len(), MAX_QUERY_CHARS);
        assert_eq!(capped.cut.map(|cut| cut.chars_ignored), Some(1));
    }
}
