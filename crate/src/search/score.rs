//! Scoring one needle against one path the way Codex's fuzzy matcher does (nucleo with its
//! path configuration, spec codex.md §6.6): a match scores 16, plus a bonus where it starts
//! a word, plus a bonus for staying consecutive; gaps cost 3 to open and 1 to extend; the
//! first needle character's bonus counts twice. The optimal alignment wins.

use alloc::vec::Vec;

/// Points for each matched character (`SCORE_MATCH`).
pub const SCORE_MATCH: u32 = 16;
/// Opening a gap (`PENALTY_GAP_START`).
pub const PENALTY_GAP_START: u32 = 3;
/// Each further character of a gap (`PENALTY_GAP_EXTENSION`).
pub const PENALTY_GAP_EXTENSION: u32 = 1;
/// A match at a word boundary after punctuation (`BONUS_BOUNDARY`); after whitespace too,
/// in the path configuration.
pub const BONUS_BOUNDARY: u32 = SCORE_MATCH / 2;
/// A match right after a path delimiter `/` (`bonus_boundary_delimiter`).
pub const BONUS_BOUNDARY_DELIMITER: u32 = BONUS_BOUNDARY + 1;
/// A camelCase hump or the first digit after a non-digit (`BONUS_CAMEL123`).
pub const BONUS_CAMEL123: u32 = BONUS_BOUNDARY - PENALTY_GAP_START;
/// The least bonus inside a consecutive run (`BONUS_CONSECUTIVE`).
pub const BONUS_CONSECUTIVE: u32 = PENALTY_GAP_START + PENALTY_GAP_EXTENSION;
/// The first needle character's bonus counts this many times (`BONUS_FIRST_CHAR_MULTIPLIER`).
pub const BONUS_FIRST_CHAR_MULTIPLIER: u32 = 2;
/// The most one more needle character can add to a fuzzy score: a match, plus the largest
/// bonus a character or a consecutive run carries (only the first character's bonus counts
/// twice). It makes [`fuzzy_bound`] and a searcher's bounds for a query typed on.
pub const MAX_GAIN_PER_CHARACTER: u32 = SCORE_MATCH + BONUS_BOUNDARY_DELIMITER;

/// Character classes, ordered as the matcher orders them: everything after `Delimiter` is
/// part of a word.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum Class {
    Whitespace,
    NonWord,
    Delimiter,
    Lower,
    Upper,
    Letter,
    Number,
}

fn class_of(c: char) -> Class {
    match c {
        '/' => Class::Delimiter,
        'a'..='z' => Class::Lower,
        'A'..='Z' => Class::Upper,
        '0'..='9' => Class::Number,
        c if c.is_whitespace() => Class::Whitespace,
        c if c.is_ascii() => Class::NonWord,
        c if c.is_lowercase() => Class::Lower,
        c if c.is_uppercase() => Class::Upper,
        c if c.is_alphabetic() => Class::Letter,
        c if c.is_numeric() => Class::Number,
        _ => Class::NonWord,
    }
}

/// The bonus of a character of class `class` after one of class `previous`.
fn bonus_for(previous: Class, class: Class) -> u32 {
    if class > Class::Delimiter {
        match previous {
            Class::Whitespace => return BONUS_BOUNDARY,
            Class::Delimiter => return BONUS_BOUNDARY_DELIMITER,
            Class::NonWord => return BONUS_BOUNDARY,
            _ => {}
        }
    }
    let camel = previous == Class::Lower && class == Class::Upper;
    let digit = previous != Class::Number && class == Class::Number;
    match class {
        _ if camel || digit => BONUS_CAMEL123,
        Class::Whitespace => BONUS_BOUNDARY,
        Class::NonWord => BONUS_BOUNDARY,
        _ => 0,
    }
}

/// A path prepared for matching, borrowed from where it is kept (a [`PreparedPath`], or a
/// searcher's store of many): its characters folded to lower case, and each one's bonus.
#[derive(Clone, Copy)]
pub struct Haystack<'a> {
    chars: &'a [char],
    bonus: &'a [u8],
}

impl<'a> Haystack<'a> {
    /// How many characters the path has.
    pub fn len(&self) -> usize {
        self.chars.len()
    }

    /// Whether the path is empty.
    pub fn is_empty(&self) -> bool {
        self.chars.is_empty()
    }

    /// The folded characters.
    pub(super) fn chars(&self) -> &'a [char] {
        self.chars
    }

    /// The bonus of a match at character `i`.
    fn bonus(&self, i: usize) -> u32 {
        u32::from(self.bonus[i])
    }
}

/// One path prepared for matching, owning its buffers; [`PreparedPath::load`] reuses them,
/// so one serves a whole search.
#[derive(Default)]
pub struct PreparedPath {
    chars: Vec<char>,
    bonus: Vec<u8>,
}

impl PreparedPath {
    /// Prepares `path`; the path's first character counts as following a delimiter.
    pub fn new(path: &str) -> PreparedPath {
        let mut prepared = PreparedPath::default();
        prepared.load(path);
        prepared
    }

    /// Prepares `path` in place of the previous one.
    pub fn load(&mut self, path: &str) {
        self.chars.clear();
        self.bonus.clear();
        prepare_into(path, &mut self.chars, &mut self.bonus);
    }

    /// The prepared path to match against.
    pub fn haystack(&self) -> Haystack<'_> {
        Haystack {
            chars: &self.chars,
            bonus: &self.bonus,
        }
    }
}

/// Appends `path`'s folded characters to `chars` and their bonuses to `bonus` (one entry
/// each per character).
pub fn prepare_into(path: &str, chars: &mut Vec<char>, bonus: &mut Vec<u8>) {
    let mut previous = Class::Delimiter;
    for c in path.chars() {
        let class = class_of(c);
        // Every bonus is at most BONUS_BOUNDARY_DELIMITER (9): a byte holds it.
        bonus.push(bonus_for(previous, class) as u8);
        chars.push(fold(c));
        previous = class;
    }
}

/// A haystack over characters and bonuses prepared by [`prepare_into`] (of equal length).
pub fn haystack_of<'a>(chars: &'a [char], bonus: &'a [u8]) -> Haystack<'a> {
    Haystack { chars, bonus }
}

/// Case folding for matching (ignore-case is on).
pub fn fold(c: char) -> char {
    if c.is_ascii() {
        c.to_ascii_lowercase()
    } else {
        c.to_lowercase().next().unwrap_or(c)
    }
}

/// A dynamic-programming cell: the best score with the needle's current character matched
/// here, and the bonus its consecutive run carries. A score of 0 marks no cell: a matched
/// character scores at least [`SCORE_MATCH`], so the mark never collides, and the rows stay
/// plain numbers on the hot path.
#[derive(Clone, Copy)]
struct Cell {
    score: u32,
    run_bonus: u32,
}

impl Cell {
    const NONE: Cell = Cell {
        score: 0,
        run_bonus: 0,
    };

    fn exists(self) -> bool {
        self.score > 0
    }
}

/// The best fuzzy score of `needle` (already folded) in `haystack`, and where its characters
/// matched; `None` when it is not a subsequence.
pub fn fuzzy(haystack: &Haystack, needle: &[char]) -> Option<(u32, Vec<usize>)> {
    if needle.is_empty() || !is_subsequence(haystack.chars, needle) {
        return None;
    }
    let width = haystack.len();
    // matched[j][i]: the best cell with needle[j] matched at i (None: impossible); `from`
    // remembers, for the path back, where needle[j - 1] matched.
    let mut rows: Vec<Vec<Cell>> = Vec::with_capacity(needle.len());
    let mut from: Vec<Vec<usize>> = Vec::with_capacity(needle.len());
    let first: Vec<Cell> = (0..width)
        .map(|i| first_cell(haystack, i, needle[0]))
        .collect();
    rows.push(first);
    from.push(alloc::vec![0; width]);
    for &wanted in &needle[1..] {
        let (row, back) = next_row(haystack, rows.last()?, wanted);
        rows.push(row);
        from.push(back);
    }
    let last = rows.last()?;
    let (end, best) = last
        .iter()
        .enumerate()
        .filter(|(_, cell)| cell.exists())
        .map(|(i, cell)| (i, cell.score))
        .fold(None, |best: Option<(usize, u32)>, (i, s)| match best {
            Some((_, b)) if b >= s => best,
            _ => Some((i, s)),
        })?;
    let mut indices = alloc::vec![0; needle.len()];
    let mut at = end;
    for j in (0..needle.len()).rev() {
        indices[j] = at;
        at = from[j][at];
    }
    Some((best, indices))
}

/// Buffers for scoring many haystacks without allocating for each.
#[derive(Default)]
pub struct Rows {
    previous: Vec<Cell>,
    current: Vec<Cell>,
    earliest: Vec<usize>,
    latest: Vec<usize>,
}

/// The best fuzzy score of `needle` in `haystack`, like [`fuzzy`] but without the positions:
/// what a search runs on every candidate. Each row is computed only where its needle
/// character can take part in a match and kept from there, so nothing is allocated or
/// cleared per path beyond it.
pub fn fuzzy_score(haystack: &Haystack, needle: &[char], rows: &mut Rows) -> Option<u32> {
    if needle.is_empty() || !bounds(haystack.chars, needle, rows) {
        return None;
    }
    // Where each needle character can match at all: from its earliest place in a forward
    // greedy match to its latest in a backward one. Cells outside cannot lead to a match
    // (nucleo's row bounds).
    let first = rows.earliest[0]..rows.latest[0] + 1;
    let first_cells = first.clone().map(|i| first_cell(haystack, i, needle[0]));
    if needle.len() == 1 {
        return first_cells
            .map(|cell| cell.score)
            .max()
            .filter(|&score| score > 0);
    }
    rows.previous.clear();
    rows.previous.extend(first_cells);
    let mut previous_start = first.start;
    for (j, &wanted) in needle.iter().enumerate().skip(1) {
        // From just after the previous character's earliest place: the gap carried into
        // this row starts there.
        let span = rows.earliest[j - 1] + 1..rows.latest[j] + 1;
        rows.current.clear();
        let previous = Placed {
            cells: &rows.previous,
            start: previous_start,
        };
        fill_row_within(
            haystack,
            previous,
            wanted,
            &mut rows.current,
            None,
            span.clone(),
        );
        core::mem::swap(&mut rows.previous, &mut rows.current);
        previous_start = span.start;
    }
    rows.previous
        .iter()
        .map(|cell| cell.score)
        .max()
        .filter(|&score| score > 0)
}

/// An upper bound of [`fuzzy_score`] that costs one pass over the path: the best cell the
/// needle's first character can have, plus [`MAX_GAIN_PER_CHARACTER`] for each further
/// one; `None` when the needle is not a subsequence.
pub fn fuzzy_bound(haystack: &Haystack, needle: &[char]) -> Option<u32> {
    let (&first, rest) = needle.split_first()?;
    let best_first = (0..haystack.len())
        .filter(|&i| haystack.chars[i] == first)
        .map(|i| SCORE_MATCH + haystack.bonus(i) * BONUS_FIRST_CHAR_MULTIPLIER)
        .max()?;
    if !is_subsequence(haystack.chars, needle) {
        return None;
    }
    let rest = u32::try_from(rest.len()).unwrap_or(u32::MAX);
    Some(best_first.saturating_add(MAX_GAIN_PER_CHARACTER.saturating_mul(rest)))
}

/// The first needle character's cell at `i`.
fn first_cell(haystack: &Haystack, i: usize, wanted: char) -> Cell {
    match haystack.chars[i] == wanted {
        true => Cell {
            score: SCORE_MATCH + haystack.bonus(i) * BONUS_FIRST_CHAR_MULTIPLIER,
            run_bonus: haystack.bonus(i),
        },
        false => Cell::NONE,
    }
}

/// Fills `rows.earliest` and `rows.latest`: for each needle character, the earliest and the
/// latest index a match can put it at; `false` when the needle is not a subsequence.
fn bounds(haystack: &[char], needle: &[char], rows: &mut Rows) -> bool {
    rows.earliest.clear();
    let mut from = 0;
    for &wanted in needle {
        let Some(at) = haystack
            .get(from..)
            .and_then(|rest| rest.iter().position(|&c| c == wanted))
        else {
            return false;
        };
        rows.earliest.push(from + at);
        from += at + 1;
    }
    rows.latest.clear();
    rows.latest.resize(needle.len(), 0);
    let mut end = haystack.len();
    for (j, &wanted) in needle.iter().enumerate().rev() {
        let at = haystack[..end]
            .iter()
            .rposition(|&c| c == wanted)
            .unwrap_or(0);
        rows.latest[j] = at;
        end = at;
    }
    true
}

/// A row's cells from column `start` on; every other column is `None`.
#[derive(Clone, Copy)]
struct Placed<'r> {
    cells: &'r [Cell],
    start: usize,
}

impl Placed<'_> {
    fn at(&self, column: usize) -> Cell {
        let index = column.wrapping_sub(self.start);
        self.cells.get(index).copied().unwrap_or(Cell::NONE)
    }
}

/// The next needle character's cells from the previous character's, over every column.
fn next_row(haystack: &Haystack, previous: &[Cell], wanted: char) -> (Vec<Cell>, Vec<usize>) {
    let width = haystack.len();
    // Column 0 cannot follow a previous character.
    let mut row = alloc::vec![Cell::NONE];
    let mut back = alloc::vec![0];
    let previous = Placed {
        cells: previous,
        start: 0,
    };
    fill_row_within(
        haystack,
        previous,
        wanted,
        &mut row,
        Some(&mut back),
        1..width,
    );
    (row, back)
}

/// Appends to `row` the cells of `wanted` after `previous` for each column of `span`; with
/// `back`, also where the previous character matched for each cell (0 for none).
fn fill_row_within(
    haystack: &Haystack,
    previous: Placed,
    wanted: char,
    row: &mut Vec<Cell>,
    mut back: Option<&mut Vec<usize>>,
    span: core::ops::Range<usize>,
) {
    // The best score with the previous character matched strictly before i and a gap since,
    // and where that character matched.
    let mut gap: Option<(u32, usize)> = None;
    let end = span.end.min(haystack.len());
    for i in span.start.max(1)..end {
        let before = previous.at(i - 1);
        let before = before.exists().then_some(before);
        gap = match (before, gap) {
            (Some(cell), Some((g, at))) => {
                let opened = cell.score.saturating_sub(PENALTY_GAP_START);
                let extended = g.saturating_sub(PENALTY_GAP_EXTENSION);
                Some(if opened > extended {
                    (opened, i - 1)
                } else {
                    (extended, at)
                })
            }
            (Some(cell), None) => Some((cell.score.saturating_sub(PENALTY_GAP_START), i - 1)),
            (None, Some((g, at))) => Some((g.saturating_sub(PENALTY_GAP_EXTENSION), at)),
            (None, None) => None,
        };
        let (cell, at) = match haystack.chars[i] == wanted {
            true => cell_at(haystack, i, before, gap),
            false => (Cell::NONE, 0),
        };
        row.push(cell);
        if let Some(back) = back.as_deref_mut() {
            back.push(at);
        }
    }
}

/// The cell of a matching character at `i`, given the previous row's cell at `i - 1` and
/// the gap carried to `i`; and where the previous character matched.
fn cell_at(
    haystack: &Haystack,
    i: usize,
    before: Option<Cell>,
    gap: Option<(u32, usize)>,
) -> (Cell, usize) {
    let bonus = haystack.bonus(i);
    let skip = gap.map(|(g, at)| (g + bonus, at));
    let consecutive = before.map(|cell| {
        let mut run = cell.run_bonus.max(BONUS_CONSECUTIVE);
        if bonus >= BONUS_BOUNDARY && bonus > run {
            run = bonus;
        }
        (cell.score + run.max(bonus), run)
    });
    let (score, run_bonus, at) = match (consecutive, skip) {
        (Some((m, run)), Some((s, _))) if m > s => (m, run, i - 1),
        (Some((m, run)), None) => (m, run, i - 1),
        (_, Some((s, at))) => (s, bonus, at),
        (None, None) => return (Cell::NONE, 0),
    };
    let cell = Cell {
        score: score + SCORE_MATCH,
        run_bonus,
    };
    (cell, at)
}

/// The score of `needle` matched consecutively from `start` (the exact, prefix and suffix
/// atoms): the first character's bonus doubled, then each next one with the run's bonus.
pub fn consecutive(haystack: &Haystack, needle_len: usize, start: usize) -> u32 {
    let mut first_bonus = haystack.bonus(start);
    let mut score = SCORE_MATCH + first_bonus * BONUS_FIRST_CHAR_MULTIPLIER;
    for i in start + 1..start + needle_len {
        let mut bonus = haystack.bonus(i);
        if bonus >= BONUS_BOUNDARY && bonus > first_bonus {
            first_bonus = bonus;
        }
        bonus = bonus.max(first_bonus).max(BONUS_CONSECUTIVE);
        score += SCORE_MATCH + bonus;
    }
    score
}

/// Where `needle` occurs in the haystack's folded characters.
pub fn occurrences<'h>(
    haystack: &'h Haystack<'h>,
    needle: &'h [char],
) -> impl Iterator<Item = usize> + 'h {
    let n = needle.len();
    (0..=haystack.len().saturating_sub(n))
        .filter(move |&i| n > 0 && haystack.chars.get(i..i + n) == Some(needle))
}

/// Whether `needle`'s characters occur in `haystack` in order: exactly when a fuzzy atom of
/// `needle` matches.
pub(super) fn is_subsequence(haystack: &[char], needle: &[char]) -> bool {
    let mut wanted = needle.iter();
    let mut next = wanted.next();
    for c in haystack {
        if Some(c) == next {
            next = wanted.next();
        }
    }
    next.is_none()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn score(path: &str, needle: &str) -> Option<u32> {
        let needle: Vec<char> = needle.chars().map(fold).collect();
        fuzzy(&PreparedPath::new(path).haystack(), &needle).map(|(s, _)| s)
    }

    #[test]
    fn matches_the_reference_scores() {
        // nucleo's documented example with the path configuration: "foo bar" scores 168 on
        // "foo/bar" and 140 on "foobar" (84 for each word after a delimiter).
        assert_eq!(score("foo/bar", "foo"), Some(84));
        assert_eq!(score("foo/bar", "bar"), Some(84));
        assert_eq!(score("foobar", "bar"), Some(56));
        assert_eq!(score("foobar", "baz"), None);
    }

    #[test]
    fn prefers_boundaries_and_reports_the_optimal_positions() {
        let needle: Vec<char> = "fb".chars().collect();
        let (_, at) = fuzzy(&PreparedPath::new("xfxb/foo/bar").haystack(), &needle).unwrap();
        assert_eq!(at, [5, 9]);
        assert!(score("src/FooBar.ts", "fb") > score("src/foobar.ts", "fb"));
    }
}
