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
use score::Haystack;

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
    let mut found: Vec<(u32, usize, usize, Vec<usize>)> = Vec::new();
    for (order, candidate) in candidates.iter().enumerate() {
        let haystack = Haystack::new(&candidate.path);
        if let Some((score, indices)) = score_atoms(&haystack, &atoms) {
            found.push((score, haystack.len(), order, indices));
        }
    }
    let total_match_count = found.len();
    found.sort_unstable_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)).then(a.2.cmp(&b.2)));
    found.truncate(limit);
    let matches = found
        .into_iter()
        .map(|(score, _, order, indices)| {
            let candidate = &candidates[order];
            SearchMatch {
                path: candidate.path.clone(),
                kind: if candidate.is_dir {
                    "directory"
                } else {
                    "file"
                },
                score,
                indices,
            }
        })
        .collect();
    SearchResult {
        matches,
        total_match_count,
    }
}

/// The sum of the atoms' scores, or `None` when one does not match (or a negated one does).
fn score_atoms(haystack: &Haystack, atoms: &[Atom]) -> Option<(u32, Vec<usize>)> {
    let mut total = 0;
    let mut indices = Vec::new();
    for atom in atoms {
        let hit = atom.score(haystack);
        match (atom.negated, hit) {
            (true, Some(_)) | (false, None) => return None,
            (true, None) => {}
            (false, Some((score, at))) => {
                total += score;
                indices.extend(at);
            }
        }
    }
    indices.sort_unstable();
    indices.dedup();
    Some((total, indices))
}
