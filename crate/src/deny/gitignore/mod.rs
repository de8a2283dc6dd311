//! Gitignore matching as npm `ignore@7.0.17` does it, which is what Claude Code's deny rules
//! use (spec/claude-code.md §2.4).
//!
//! `ignore` translates each pattern into a JavaScript regular expression through a chain of
//! string rewrites. We follow the same chain on tokens instead of strings, and run the result
//! as a small automaton that tracks every way through the pattern at once: the work is
//! linear in the path for each pattern, whatever the pattern holds (`**`, `*a*b*`…), where
//! a backtracking engine can take exponential time.
//!
//! JavaScript strings are UTF-16, and `ignore` works on code units: `?` matches one unit,
//! so it does not match an astral character (two units). We match on UTF-16 units too, so
//! a path is ignored here exactly when it is ignored there.

mod compile;

use alloc::string::String;
use alloc::vec::Vec;

use compile::Piece;

const SLASH: u16 = b'/' as u16;
const STAR: u16 = b'*' as u16;
const BACKSLASH: u16 = b'\\' as u16;
const SPACE: u16 = b' ' as u16;

/// A compiled list of gitignore patterns; the last pattern that matches decides, and a
/// path inside an ignored directory is ignored whatever later patterns say.
///
/// # Example
/// ```
/// use context_assembly::deny::gitignore::Gitignore;
/// let ig = Gitignore::new(&["secrets/", "*.env", "!keep.env"], true);
/// assert_eq!(ig.ignoring_pattern("secrets/a.txt"), Some(0));
/// assert_eq!(ig.ignoring_pattern("secrets"), None); // `secrets/` names a directory only
/// assert_eq!(ig.ignoring_pattern("a/b/prod.ENV"), Some(1)); // any depth; case folded
/// assert_eq!(ig.ignoring_pattern("keep.env"), None); // re-included
/// assert_eq!(ig.ignoring_pattern("secrets/keep.env"), Some(0)); // its directory is ignored
/// ```
#[derive(Debug, Clone)]
pub struct Gitignore {
    rules: Vec<Rule>,
    ignore_case: bool,
}

impl Gitignore {
    /// Compiles `patterns` as one `ignore().add(patterns)` call would (the array form:
    /// line ends are stripped and a BOM is dropped from the first pattern). Comments,
    /// blank patterns and patterns ending in a lone `\` are skipped, as `ignore` skips them.
    /// `ignore_case` is `ignore`'s `ignorecase` option, `true` by default there.
    pub fn new<S: AsRef<str>>(patterns: &[S], ignore_case: bool) -> Gitignore {
        let rules = patterns
            .iter()
            .enumerate()
            .filter_map(|(index, pattern)| {
                let units: Vec<u16> = pattern.as_ref().encode_utf16().collect();
                Rule::compile(&units, index, ignore_case)
            })
            .collect();
        Gitignore { rules, ignore_case }
    }

    /// The index (in the list given to [`Gitignore::new`]) of the pattern that ignores
    /// `path`, or `None` when the path is not ignored.
    ///
    /// `path` must be relative, as `path.relative` gives it; a path that `ignore` rejects
    /// (empty, starting with `/`, `./` or `../`, or exactly `.` or `..`) is never ignored.
    /// A trailing `/` marks a directory; without one the path may be a file or a
    /// directory, since nothing is looked up.
    pub fn ignoring_pattern(&self, path: &str) -> Option<usize> {
        if !is_relative(path) {
            return None;
        }
        let mut chain = Vec::new();
        let mut current = String::from(path);
        while !current.is_empty() {
            let parent = parent_of(&current);
            chain.push(current);
            current = parent;
        }
        let mut verdict = Verdict::Unmatched;
        for dir_or_path in chain.iter().rev() {
            verdict = self.test_one(dir_or_path);
            if let Verdict::Ignored(index) = verdict {
                // "It is not possible to re-include a file if a parent directory of that
                // file is excluded": the outermost ignored directory decides.
                return Some(index);
            }
        }
        match verdict {
            Verdict::Ignored(index) => Some(index),
            Verdict::Unignored | Verdict::Unmatched => None,
        }
    }

    /// Whether a pattern matches `path` itself, whatever its parent directories match:
    /// how ripgrep's `--glob` picks files (a file is listed when its own path matches; a
    /// directory that matches lists nothing by itself). `path` must be relative, as for
    /// [`Gitignore::ignoring_pattern`].
    ///
    /// # Example
    /// ```
    /// use context_assembly::deny::gitignore::Gitignore;
    /// let glob = Gitignore::new(&["src/*"], false);
    /// assert!(glob.matches_itself("src/main.ts"));
    /// assert!(!glob.matches_itself("src/lib/a.ts")); // `*` stops at a `/`
    /// assert!(glob.ignores("src/lib/a.ts")); // gitignore: inside the matching `src/lib`
    /// ```
    pub fn matches_itself(&self, path: &str) -> bool {
        is_relative(path) && matches!(self.test_one(path), Verdict::Ignored(_))
    }

    /// Whether `path` is ignored; see [`Gitignore::ignoring_pattern`].
    pub fn ignores(&self, path: &str) -> bool {
        self.ignoring_pattern(path).is_some()
    }

    fn test_one(&self, path: &str) -> Verdict {
        let units: Vec<u16> = path.encode_utf16().collect();
        for rule in self.rules.iter().rev() {
            if rule.matches(&units, self.ignore_case) {
                return if rule.negative {
                    Verdict::Unignored
                } else {
                    Verdict::Ignored(rule.index)
                };
            }
        }
        Verdict::Unmatched
    }
}

#[derive(Debug, Clone, Copy)]
enum Verdict {
    Ignored(usize),
    Unignored,
    Unmatched,
}

/// `ignore`'s `isNotRelative`, negated, plus its refusal of the empty path.
fn is_relative(path: &str) -> bool {
    !(path.is_empty()
        || path.starts_with('/')
        || path == "."
        || path == ".."
        || path.starts_with("./")
        || path.starts_with("../"))
}

/// `ignore`'s `parentOf`: the parent directory with its trailing `/`, or empty.
fn parent_of(path: &str) -> String {
    if path.starts_with('/') || path.contains("//") {
        let mut parts: Vec<&str> = path.split('/').filter(|part| !part.is_empty()).collect();
        parts.pop();
        if parts.is_empty() {
            return String::new();
        }
        let mut parent = parts.join("/");
        parent.push('/');
        return parent;
    }
    let body = path.strip_suffix('/').unwrap_or(path);
    match body.rfind('/') {
        Some(cut) => String::from(&path[..=cut]),
        None => String::new(),
    }
}

/// Where a pattern may start matching: `^`, or `(?:^|\/)` (at the start or after any `/`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Anchor {
    Start,
    StartOrAfterSlash,
}

/// What must hold where the pattern's body ends.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Tail {
    /// `(?=$|\/$)`: the end, or a final `/`.
    EndOrFinalSlash,
    /// `$`: the end (a pattern ending in `/`, whose body ends with that `/`).
    End,
    /// A trailing `*`: `[^/]*` (or `[^/]+` right after a `/`), then `(?=$|\/$)`.
    Star { at_least_one: bool },
    /// A trailing `/**`: one more character of any kind, then anything.
    AnyMore,
}

/// A bracket expression: members as inclusive unit ranges. It never matches `/`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Class {
    negated: bool,
    ranges: Vec<(u16, u16)>,
}

impl Class {
    fn contains(&self, unit: u16, ignore_case: bool) -> bool {
        if unit == SLASH {
            return false;
        }
        let member = |u: u16| self.ranges.iter().any(|&(lo, hi)| lo <= u && u <= hi);
        let found = if ignore_case {
            // JavaScript's `i` flag: some member canonicalises like the unit does.
            let canon = canonicalize(unit);
            [unit, canon, lower(unit), lower(canon)]
                .into_iter()
                .any(|u| canonicalize(u) == canon && member(u))
        } else {
            member(unit)
        };
        found != self.negated
    }
}

/// JavaScript's `Canonicalize` for a non-Unicode regular expression with the `i` flag:
/// the upper case of a unit when that is one unit and does not turn a non-ASCII unit
/// into an ASCII one.
fn canonicalize(unit: u16) -> u16 {
    let Some(c) = char::from_u32(u32::from(unit)) else {
        return unit; // a lone surrogate
    };
    let mut upper = c.to_uppercase();
    match (upper.next(), upper.next()) {
        (Some(u), None) => match u16::try_from(u32::from(u)) {
            Ok(up) if !(unit >= 128 && up < 128) => up,
            _ => unit,
        },
        _ => unit,
    }
}

fn lower(unit: u16) -> u16 {
    let Some(c) = char::from_u32(u32::from(unit)) else {
        return unit;
    };
    let mut lowered = c.to_lowercase();
    match (lowered.next(), lowered.next()) {
        (Some(l), None) => u16::try_from(u32::from(l)).unwrap_or(unit),
        _ => unit,
    }
}

/// One instruction of the matching automaton.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Inst {
    Unit(u16),
    Class(Class),
    NonSlash,
    Slash,
    Split(usize, usize),
    Jump(usize),
    Match,
}

#[derive(Debug, Clone)]
struct Rule {
    index: usize,
    negative: bool,
    anchor: Anchor,
    program: Vec<Inst>,
    tail: Tail,
}

impl Rule {
    /// `createRule` and `makeRegexPrefix`; `None` for what `ignore` skips.
    fn compile(raw: &[u16], index: usize, ignore_case: bool) -> Option<Rule> {
        let parsed = compile::parse(raw, index == 0)?;
        Some(Rule {
            index,
            negative: parsed.negative,
            anchor: parsed.anchor,
            program: assemble(&parsed.pieces, ignore_case),
            tail: parsed.tail,
        })
    }

    /// Whether the pattern matches somewhere in `path` (the regular expression's `test`).
    fn matches(&self, path: &[u16], ignore_case: bool) -> bool {
        let size = self.program.len();
        let mut current = Threads::new(size);
        let mut next = Threads::new(size);
        for position in 0..=path.len() {
            let may_start = position == 0
                || (self.anchor == Anchor::StartOrAfterSlash && path[position - 1] == SLASH);
            if may_start {
                current.add(0, &self.program);
            }
            if current.has(size - 1) && self.tail_holds(path, position) {
                return true;
            }
            let Some(&unit) = path.get(position) else {
                break;
            };
            next.clear();
            for &pc in &current.list {
                let advances = match &self.program[pc] {
                    Inst::Unit(expected) => {
                        if ignore_case {
                            canonicalize(unit) == *expected
                        } else {
                            unit == *expected
                        }
                    }
                    Inst::Class(class) => class.contains(unit, ignore_case),
                    Inst::NonSlash => unit != SLASH,
                    Inst::Slash => unit == SLASH,
                    Inst::Split(..) | Inst::Jump(_) | Inst::Match => false,
                };
                if advances {
                    next.add(pc + 1, &self.program);
                }
            }
            core::mem::swap(&mut current, &mut next);
            if current.list.is_empty() && self.anchor == Anchor::Start {
                return false;
            }
        }
        false
    }

    fn tail_holds(&self, path: &[u16], at: usize) -> bool {
        let len = path.len();
        match self.tail {
            Tail::EndOrFinalSlash => at == len || (at + 1 == len && path[at] == SLASH),
            Tail::End => at == len,
            Tail::AnyMore => at < len,
            Tail::Star { at_least_one } => {
                let slash = path[at..]
                    .iter()
                    .position(|&u| u == SLASH)
                    .map_or(len, |offset| at + offset);
                (slash == len || slash + 1 == len) && (!at_least_one || slash > at)
            }
        }
    }
}

/// The set of live instructions at one position (a Pike VM without captures).
struct Threads {
    list: Vec<usize>,
    on: Vec<bool>,
    stack: Vec<usize>,
}

impl Threads {
    fn new(size: usize) -> Threads {
        Threads {
            list: Vec::with_capacity(size),
            on: alloc::vec![false; size],
            stack: Vec::new(),
        }
    }

    fn clear(&mut self) {
        for &pc in &self.list {
            self.on[pc] = false;
        }
        self.list.clear();
    }

    fn has(&self, pc: usize) -> bool {
        self.on.get(pc).copied().unwrap_or(false)
    }

    /// Adds `pc` and everything reachable from it without consuming a unit.
    fn add(&mut self, pc: usize, program: &[Inst]) {
        self.stack.push(pc);
        while let Some(pc) = self.stack.pop() {
            if pc >= program.len() || self.on[pc] {
                continue;
            }
            self.on[pc] = true;
            self.list.push(pc);
            match program[pc] {
                Inst::Split(a, b) => {
                    self.stack.push(b);
                    self.stack.push(a);
                }
                Inst::Jump(to) => self.stack.push(to),
                _ => {}
            }
        }
    }
}

/// The pieces become instructions; the last one is always `Match`.
fn assemble(pieces: &[Piece], ignore_case: bool) -> Vec<Inst> {
    let mut program = Vec::new();
    for piece in pieces {
        let here = program.len();
        match piece {
            Piece::Literal(unit) => program.push(Inst::Unit(if ignore_case {
                canonicalize(*unit)
            } else {
                *unit
            })),
            Piece::Class(class) => program.push(Inst::Class(class.clone())),
            Piece::NonSlash => program.push(Inst::NonSlash),
            Piece::Slash => program.push(Inst::Slash),
            Piece::Star => program.extend([
                Inst::Split(here + 1, here + 3),
                Inst::NonSlash,
                Inst::Jump(here),
            ]),
            Piece::Dirs => program.extend([
                Inst::Split(here + 1, here + 4),
                Inst::Slash,
                Inst::NonSlash,
                Inst::Split(here + 2, here),
            ]),
            Piece::SomeDirs => program.extend([
                Inst::Slash,
                Inst::NonSlash,
                Inst::Split(here + 1, here + 3),
                Inst::Split(here, here + 4),
            ]),
        }
    }
    program.push(Inst::Match);
    program
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ignores(patterns: &[&str], path: &str) -> bool {
        Gitignore::new(patterns, true).ignores(path)
    }

    #[test]
    fn spec_examples() {
        // spec/claude-code.md §2.4, as ignore@7.0.17 answers them.
        assert!(ignores(&[".env"], "a/b/.env"));
        assert!(ignores(&["secrets"], "x/secrets/a"));
        assert!(!ignores(&["src/secret.ts"], "a/src/secret.ts"));
        assert!(ignores(&["src/secret.ts"], "src/secret.ts"));
        assert!(ignores(&["*.env"], "deep/er/x.env"));
        assert!(ignores(&["**/*.pem"], "a/b/k.pem"));
        assert!(ignores(&["secrets/"], "secrets/a"));
        assert!(!ignores(&["secrets/"], "secrets"));
    }

    #[test]
    fn globstars_and_stars() {
        assert!(ignores(&["a/**/b"], "a/b"));
        assert!(ignores(&["a/**/b"], "a/x/y/b"));
        assert!(!ignores(&["a/**/b"], "x/a/b"));
        assert!(ignores(&["a/**"], "a/x"));
        assert!(!ignores(&["a/**"], "a"));
        assert!(ignores(&["a/*"], "a/x/y"));
        assert!(!ignores(&["a/*"], "a"));
        assert!(ignores(&["**"], "anything/at/all"));
        assert!(ignores(&["*"], "x"));
        assert!(!ignores(&["/*.c"], "dir/cat.c"));
        assert!(ignores(&["/*.c"], "cat.c"));
    }

    #[test]
    fn escapes_classes_and_negation() {
        assert!(ignores(&["\\*"], "*"));
        assert!(!ignores(&["\\*"], "x"));
        assert!(ignores(&["[ab].txt"], "b.txt"));
        assert!(!ignores(&["[!ab].txt"], "a.txt"));
        assert!(ignores(&["[[:digit:]]x"], "7x"));
        assert!(!ignores(&["[a"], "[a"));
        assert!(!ignores(&["*.log", "!keep.log"], "keep.log"));
        assert!(ignores(&["\\!x"], "!x"));
        assert!(!ignores(&["#x"], "#x"));
        assert!(ignores(&["\\#x"], "#x"));
    }

    #[test]
    fn question_mark_is_one_utf16_unit() {
        assert!(!ignores(&["a?"], "a😀"));
        assert!(ignores(&["a??"], "a😀"));
        assert!(ignores(&["a?"], "aé"));
    }

    #[test]
    fn case_folding_follows_the_option() {
        assert!(Gitignore::new(&[".env"], true).ignores(".ENV"));
        assert!(!Gitignore::new(&[".env"], false).ignores(".ENV"));
        assert!(Gitignore::new(&["[a-z]"], true).ignores("Q"));
    }

    #[test]
    fn many_stars_stay_linear() {
        let pattern = "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b";
        let path = "a".repeat(5000);
        assert!(!ignores(&[pattern], &path));
        let deep = "a/".repeat(200);
        assert!(!ignores(&["**/**/**/**/**/**/b"], &deep));
    }
}
