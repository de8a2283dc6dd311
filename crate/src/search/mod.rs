//! Fuzzy path search as Codex's `@` file search does it (spec codex.md §6.6): an fzf-style
//! query of whitespace-separated atoms (`^prefix`, `suffix$`, `'exact`, `!negated`, or
//! fuzzy), each scored like nucleo with its path configuration and summed; results ordered
//! by score, then shorter path, then walk order; the first `limit` reported with the total.
//!
//! [`search_paths`] is the pure matcher over a list; a session walks its virtual workspace
//! for it ([`crate::session::Session::search_files`]).
//!
//! ```
//! use context_assembly::search::{search_paths, Candidate};
//! let paths = ["foo/bar", "bar/foo", "foobar"].map(|p| Candidate { path: p.into(), is_dir: false });
//! let found = search_paths(&paths, "foo bar", 20);
//! let scores: Vec<(&str, u32)> = found.matches.iter().map(|m| (m.path.as_str(), m.score)).collect();
//! assert_eq!(scores, [("foo/bar", 168), ("bar/foo", 168), ("foobar", 140)]);
//! ```

mod pattern;
pub mod score;

use alloc::string::String;
use alloc::vec::Vec;

pub use pattern::{parse_query, Atom, AtomKind};
use score::{Haystack, Rows};

/// Results shown at most by default (`FileSearchOptions.limit`).
pub const DEFAULT_LIMIT: usize = 20;

/// A path that may match: relative to the search root.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Candidate {
    /// The path relative to the root, `/`-separated.
    pub path: String,
    /// It is a directory (Codex indexes directories too).
    pub is_dir: bool,
}

/// One match.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct SearchMatch {
    /// The path relative to the root.
    pub path: String,
    /// `file` or `directory`.
    pub kind: &'static str,
    /// The summed score of the query's atoms.
    pub score: u32,
    /// Character positions of the path that matched, ascending and distinct.
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
}

/// Matches `query` against `candidates` (in walk order) and keeps the best `limit`. An empty
/// query (or one of negations only) matches nothing, as the composer runs no search then.
pub fn search_paths(candidates: &[Candidate], query: &str, limit: usize) -> SearchResult {
    let atoms = parse_query(query);
    if atoms.iter().all(|atom| atom.negated) {
        return SearchResult::default();
    }
    // Score every candidate without positions, reusing one set of buffers; positions are
    // worked out for the few that are shown.
    let mut haystack = Haystack::new("");
    let mut rows = Rows::default();
    let mut found: Vec<(u32, usize, usize)> = Vec::new();
    for (order, candidate) in candidates.iter().enumerate() {
        haystack.load(&candidate.path);
        if let Some(score) = total_score(&haystack, &atoms, &mut rows) {
            found.push((score, haystack.len(), order));
        }
    }
    let total_match_count = found.len();
    let shown = limit.min(found.len());
    if shown < found.len() {
        found.select_nth_unstable_by(shown, ranking);
        found.truncate(shown);
    }
    found.sort_unstable_by(ranking);
    let matches = found
        .into_iter()
        .map(|(score, _, order)| {
            let candidate = &candidates[order];
            SearchMatch {
                path: candidate.path.clone(),
                kind: if candidate.is_dir {
                    "directory"
                } else {
                    "file"
                },
                score,
                indices: positions(&Haystack::new(&candidate.path), &atoms),
            }
        })
        .collect();
    SearchResult {
        matches,
        total_match_count,
    }
}

/// Score descending, then the shorter path, then walk order.
fn ranking(a: &(u32, usize, usize), b: &(u32, usize, usize)) -> core::cmp::Ordering {
    b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2))
}

/// The sum of the atoms' scores, or `None` when one does not match (or a negated one does).
fn total_score(haystack: &Haystack, atoms: &[Atom], rows: &mut Rows) -> Option<u32> {
    let mut total = 0;
    for atom in atoms {
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
    indices.sort_unstable();
    indices.dedup();
    indices
}
