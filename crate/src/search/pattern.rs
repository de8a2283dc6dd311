//! The query's atoms, fzf-style: split at whitespace (`\ ` keeps a space), then `!` negates,
//! `'` asks for an exact substring, `^` anchors at the start, `$` at the end.

use alloc::vec::Vec;

use super::score::{consecutive, fold, fuzzy, fuzzy_score, occurrences, Haystack, Rows};

/// How an atom matches.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum AtomKind {
    /// A subsequence, anywhere.
    Fuzzy,
    /// A contiguous substring (`'text`).
    Substring,
    /// At the start (`^text`).
    Prefix,
    /// At the end (`text$`).
    Postfix,
    /// The whole path (`^text$`).
    Exact,
}

/// One whitespace-separated part of a query.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Atom {
    /// The text to match, folded to lower case, markers removed.
    pub needle: Vec<char>,
    /// How it matches.
    pub kind: AtomKind,
    /// `!`: a path matching it is excluded; it adds nothing to the score.
    pub negated: bool,
}

/// Splits `query` into atoms; empty atoms are dropped.
///
/// # Example
/// ```
/// use context_assembly::search::{parse_query, AtomKind};
/// let atoms = parse_query("^src 'main !test .rs$");
/// let kinds: Vec<AtomKind> = atoms.iter().map(|a| a.kind).collect();
/// // A negated atom matches as a substring: excluding every path that merely holds the
/// // letters in order would exclude almost everything.
/// assert_eq!(kinds, [AtomKind::Prefix, AtomKind::Substring, AtomKind::Substring, AtomKind::Postfix]);
/// assert!(atoms[2].negated);
/// ```
pub fn parse_query(query: &str) -> Vec<Atom> {
    words(query)
        .into_iter()
        .filter_map(|word| atom(&word))
        .collect()
}

fn words(query: &str) -> Vec<Vec<char>> {
    let mut words = Vec::new();
    let mut current = Vec::new();
    let mut chars = query.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\\' if chars.peek() == Some(&' ') => {
                current.push(' ');
                chars.next();
            }
            c if c.is_whitespace() => {
                if !current.is_empty() {
                    words.push(core::mem::take(&mut current));
                }
            }
            c => current.push(c),
        }
    }
    if !current.is_empty() {
        words.push(current);
    }
    words
}

fn atom(word: &[char]) -> Option<Atom> {
    let mut text = word;
    let negated = text.first() == Some(&'!');
    if negated {
        text = &text[1..];
    }
    let mut kind = AtomKind::Fuzzy;
    if text.first() == Some(&'\'') {
        kind = AtomKind::Substring;
        text = &text[1..];
    } else if text.first() == Some(&'^') {
        kind = AtomKind::Prefix;
        text = &text[1..];
    }
    if text.len() > 1 && text.last() == Some(&'$') && text.get(text.len() - 2) != Some(&'\\') {
        kind = match kind {
            AtomKind::Prefix => AtomKind::Exact,
            _ => AtomKind::Postfix,
        };
        text = &text[..text.len() - 1];
    }
    // A negated fuzzy atom would exclude almost everything; fzf matches it as a substring.
    if negated && kind == AtomKind::Fuzzy {
        kind = AtomKind::Substring;
    }
    let needle: Vec<char> = text.iter().map(|&c| fold(c)).collect();
    (!needle.is_empty()).then_some(Atom {
        needle,
        kind,
        negated,
    })
}

impl Atom {
    /// The atom's score on `haystack`, without positions (the fast path of a search).
    pub(super) fn score_only(&self, haystack: &Haystack, rows: &mut Rows) -> Option<u32> {
        match self.kind {
            AtomKind::Fuzzy => fuzzy_score(haystack, &self.needle, rows),
            _ => self.score(haystack).map(|(score, _)| score),
        }
    }

    /// The atom's score on `haystack` and the positions it matched.
    pub(super) fn score(&self, haystack: &Haystack) -> Option<(u32, Vec<usize>)> {
        let n = self.needle.len();
        let len = haystack.len();
        let at = |start: usize| {
            (
                consecutive(haystack, n, start),
                (start..start + n).collect(),
            )
        };
        match self.kind {
            AtomKind::Fuzzy => fuzzy(haystack, &self.needle),
            AtomKind::Substring => occurrences(haystack, &self.needle)
                .map(at)
                .max_by(|a: &(u32, Vec<usize>), b| a.0.cmp(&b.0).then(b.1.cmp(&a.1))),
            AtomKind::Prefix => occurrences(haystack, &self.needle)
                .find(|&i| i == 0)
                .map(at),
            AtomKind::Postfix => occurrences(haystack, &self.needle)
                .find(|&i| i + n == len)
                .map(at),
            AtomKind::Exact => (n == len)
                .then(|| occurrences(haystack, &self.needle).next())
                .flatten()
                .map(at),
        }
    }
}
