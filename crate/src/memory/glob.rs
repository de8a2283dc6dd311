//! The gitignore matching conditional rules need (spec claude-code.md §8.5): Claude Code
//! asks npm `ignore` whether a rule's `paths:` globs "ignore" the target's relative path.
//!
//! This is the minimal subset, in polynomial time (no backtracking blow-up): `*`, `?`,
//! `[...]` classes, `**` as whole segments, a pattern without an inner slash matching at
//! any depth, a leading `/` anchoring, a trailing `/` for directories only, `!` negation
//! (the last matching pattern wins) and a match on a parent directory covering everything
//! below it. It is meant to be replaced by the shared gitignore matcher of `crate::deny`.

use alloc::vec::Vec;

/// An ordered list of gitignore patterns, as `ignore().add(globs)`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct GlobSet {
    rules: Vec<Rule>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
struct Rule {
    negated: bool,
    dir_only: bool,
    segments: Vec<Segment>,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Segment {
    /// `**`: zero or more whole path components (one or more when last).
    AnyDirs,
    Glob(Vec<Token>),
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    Literal(char),
    AnyChar,
    Star,
    Class {
        negated: bool,
        ranges: Vec<(char, char)>,
    },
}

impl GlobSet {
    /// Compiles the patterns; comments, blanks and patterns with nothing left are dropped.
    pub(super) fn new<S: AsRef<str>>(patterns: &[S]) -> GlobSet {
        let rules = patterns
            .iter()
            .filter_map(|p| Rule::parse(p.as_ref()))
            .collect();
        GlobSet { rules }
    }

    /// Whether `rel_path` (relative, `/`-separated, no `..`) is matched. Each parent
    /// directory is tested first: a matched parent covers its whole subtree.
    pub(super) fn matches(&self, rel_path: &str) -> bool {
        let components: Vec<&str> = rel_path.split('/').filter(|c| !c.is_empty()).collect();
        let count = components.len();
        for end in 1..=count {
            let is_dir = end < count;
            let matched = self.last_verdict(&components[..end], is_dir);
            if matched && is_dir || end == count {
                return matched;
            }
        }
        false
    }

    fn last_verdict(&self, components: &[&str], is_dir: bool) -> bool {
        let mut matched = false;
        for rule in &self.rules {
            if rule.matches(components, is_dir) {
                matched = !rule.negated;
            }
        }
        matched
    }
}

impl Rule {
    fn parse(pattern: &str) -> Option<Rule> {
        let pattern = trim_unescaped_trailing_spaces(pattern);
        if pattern.is_empty() || pattern.starts_with('#') {
            return None;
        }
        let (negated, pattern) = match pattern.strip_prefix('!') {
            Some(rest) => (true, rest),
            None => (false, pattern),
        };
        let (dir_only, pattern) = match pattern.strip_suffix('/') {
            Some(rest) => (true, rest),
            None => (false, pattern),
        };
        let anchored = pattern.contains('/');
        let pattern = pattern.strip_prefix('/').unwrap_or(pattern);
        if pattern.is_empty() {
            return None;
        }
        let mut segments = Vec::new();
        if !anchored {
            segments.push(Segment::AnyDirs);
        }
        for part in pattern.split('/').filter(|p| !p.is_empty()) {
            if part != "**" {
                segments.push(Segment::Glob(parse_segment(part)));
            } else if segments.last() != Some(&Segment::AnyDirs) {
                segments.push(Segment::AnyDirs);
            }
        }
        Some(Rule {
            negated,
            dir_only,
            segments,
        })
    }

    /// Whole-segment matching as a table over (segment, component): polynomial.
    fn matches(&self, components: &[&str], is_dir: bool) -> bool {
        if self.dir_only && !is_dir {
            return false;
        }
        let segs = &self.segments;
        let width = components.len() + 1;
        // reach[i * width + j]: segments[..i] consume exactly components[..j].
        let mut reach = alloc::vec![false; (segs.len() + 1) * width];
        reach[0] = true;
        for (i, seg) in segs.iter().enumerate() {
            let last = i + 1 == segs.len();
            for j in 0..width {
                if !reach[i * width + j] {
                    continue;
                }
                match seg {
                    Segment::AnyDirs => {
                        let first = if last { j + 1 } else { j };
                        for k in first..width {
                            reach[(i + 1) * width + k] = true;
                        }
                    }
                    Segment::Glob(tokens) => {
                        if let Some(component) = components.get(j) {
                            if segment_matches(tokens, component) {
                                reach[(i + 1) * width + j + 1] = true;
                            }
                        }
                    }
                }
            }
        }
        reach[segs.len() * width + components.len()]
    }
}

fn trim_unescaped_trailing_spaces(pattern: &str) -> &str {
    let mut end = pattern.len();
    while pattern[..end].ends_with(' ') && !pattern[..end - 1].ends_with('\\') {
        end -= 1;
    }
    &pattern[..end]
}

fn parse_segment(part: &str) -> Vec<Token> {
    let chars: Vec<char> = part.chars().collect();
    let mut tokens = Vec::new();
    let mut i = 0;
    while let Some(&c) = chars.get(i) {
        i += 1;
        match c {
            '*' => {
                if tokens.last() != Some(&Token::Star) {
                    tokens.push(Token::Star);
                }
            }
            '?' => tokens.push(Token::AnyChar),
            '\\' => {
                if let Some(&escaped) = chars.get(i) {
                    tokens.push(Token::Literal(escaped));
                    i += 1;
                }
            }
            '[' => match parse_class(&chars, i) {
                Some((class, next)) => {
                    tokens.push(class);
                    i = next;
                }
                None => tokens.push(Token::Literal('[')),
            },
            _ => tokens.push(Token::Literal(c)),
        }
    }
    tokens
}

/// Parses a class whose `[` precedes `start`; `None` when it never closes.
fn parse_class(chars: &[char], start: usize) -> Option<(Token, usize)> {
    let mut i = start;
    let negated = matches!(chars.get(i), Some('!' | '^'));
    if negated {
        i += 1;
    }
    let mut ranges = Vec::new();
    let mut first = true;
    loop {
        let mut c = *chars.get(i)?;
        if c == ']' && !first {
            return Some((Token::Class { negated, ranges }, i + 1));
        }
        first = false;
        if c == '\\' {
            i += 1;
            c = *chars.get(i)?;
        }
        i += 1;
        match (chars.get(i), chars.get(i + 1)) {
            (Some('-'), Some(&hi)) if hi != ']' => {
                ranges.push((c, hi));
                i += 2;
            }
            _ => ranges.push((c, c)),
        }
    }
}

/// Glob match of one component: the classic single-star backtracking, O(n·m).
fn segment_matches(tokens: &[Token], text: &str) -> bool {
    let chars: Vec<char> = text.chars().collect();
    let (mut t, mut c) = (0, 0);
    let mut star: Option<(usize, usize)> = None;
    while c < chars.len() {
        match tokens.get(t) {
            Some(Token::Star) => {
                star = Some((t, c));
                t += 1;
            }
            Some(token) if token_matches(token, chars[c]) => {
                t += 1;
                c += 1;
            }
            _ => match star {
                Some((star_t, star_c)) => {
                    t = star_t + 1;
                    c = star_c + 1;
                    star = Some((star_t, star_c + 1));
                }
                None => return false,
            },
        }
    }
    tokens[t.min(tokens.len())..]
        .iter()
        .all(|token| *token == Token::Star)
}

fn token_matches(token: &Token, c: char) -> bool {
    match token {
        Token::Literal(l) => *l == c,
        Token::AnyChar => c != '/',
        Token::Star => true,
        Token::Class { negated, ranges } => {
            ranges.iter().any(|(lo, hi)| (*lo..=*hi).contains(&c)) != *negated
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn matches(patterns: &[&str], path: &str) -> bool {
        GlobSet::new(patterns).matches(path)
    }

    #[test]
    fn pattern_without_slash_matches_at_any_depth() {
        assert!(matches(&["*.ts"], "a.ts"));
        assert!(matches(&["*.ts"], "src/deep/a.ts"));
        assert!(!matches(&["*.ts"], "a.tsx"));
        assert!(
            matches(&["src"], "src/a.ts"),
            "a matched parent covers its subtree"
        );
        assert!(matches(&["src"], "x/src/a.ts"));
    }

    #[test]
    fn pattern_with_slash_is_anchored() {
        assert!(matches(&["src/*.ts"], "src/a.ts"));
        assert!(!matches(&["src/*.ts"], "x/src/a.ts"));
        assert!(!matches(&["src/*.ts"], "src/x/a.ts"));
        assert!(matches(&["/a.ts"], "a.ts"));
        assert!(!matches(&["/a.ts"], "x/a.ts"));
    }

    #[test]
    fn double_star_segments() {
        assert!(matches(&["src/**/*.ts"], "src/a.ts"));
        assert!(matches(&["src/**/*.ts"], "src/x/y/a.ts"));
        assert!(matches(&["**/test/*.rs"], "a/b/test/x.rs"));
        assert!(matches(&["**"], "anything/at/all"));
        assert!(matches(&["src/**"], "src/a"));
        assert!(
            !matches(&["src/**"], "src"),
            "trailing ** needs something inside"
        );
        assert!(matches(&["a**b"], "axxb"), "** inside a segment is a star");
    }

    #[test]
    fn wildcards_and_classes() {
        assert!(matches(&["?.md"], "a.md"));
        assert!(!matches(&["?.md"], "ab.md"));
        assert!(matches(&["[a-c].md"], "b.md"));
        assert!(!matches(&["[!a-c].md"], "b.md"));
        assert!(matches(&["[^a-c].md"], "d.md"));
        assert!(matches(&["[].md"], "[].md"), "an unclosed class is literal");
        assert!(matches(&["\\*.md"], "*.md"));
        assert!(!matches(&["\\*.md"], "a.md"));
    }

    #[test]
    fn directory_only_negation_and_comments() {
        assert!(matches(&["src/"], "src/a.ts"));
        assert!(!matches(&["a.ts/"], "a.ts"));
        assert!(!matches(&["*.ts", "!a.ts"], "a.ts"));
        assert!(matches(&["*.ts", "!a.ts"], "b.ts"));
        assert!(!matches(&["#a.ts"], "#a.ts"), "a leading # is a comment");
        assert!(!matches(&[""], "a"));
    }

    #[test]
    fn many_stars_stay_fast() {
        let pattern = "*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*a*b";
        let text = "a".repeat(5000);
        assert!(!matches(&[pattern], &text));
    }
}
