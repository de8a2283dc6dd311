//! Pattern to automaton pieces: `ignore`'s `createRule` and its chain of rewrites
//! (`makeRegexPrefix`, `_make`), step for step, on tokens instead of strings.

use alloc::string::String;
use alloc::vec::Vec;

use super::{Anchor, Class, Tail, BACKSLASH, SLASH, SPACE, STAR};

const BOM: u16 = 0xFEFF;

/// A pattern ready to assemble.
pub(super) struct Parsed {
    pub(super) negative: bool,
    pub(super) anchor: Anchor,
    pub(super) pieces: Vec<Piece>,
    pub(super) tail: Tail,
}

/// Parses one pattern (`first`: the first of the list, which may start with a BOM);
/// `None` for what `ignore` skips (comments, blanks, a trailing lone `\`) and for a
/// pattern that can match nothing.
pub(super) fn parse(raw: &[u16], first: bool) -> Option<Parsed> {
    let mut body: Vec<u16> = raw.to_vec();
    if first && body.first() == Some(&BOM) {
        body.remove(0);
    }
    if body.first() == Some(&(b'#' as u16)) {
        return None;
    }
    let negative = body.first() == Some(&(b'!' as u16));
    if negative {
        body.remove(0);
    }
    if matches!(body.last(), Some(&u) if u == SPACE || u == 0x0D || u == 0x0A) {
        body = trim_end(&body);
    }
    if body.is_empty() || trailing_backslashes(&body) % 2 == 1 {
        return None;
    }
    // `\!` and `\#` at the start stand for the character itself.
    if body.starts_with(&[BACKSLASH, b'!' as u16]) {
        body.remove(0);
    }
    if body.starts_with(&[BACKSLASH, b'#' as u16]) {
        body.remove(0);
    }
    // `/**` alone matches every path, as `**` does.
    if body.len() >= 3 && body[0] == SLASH && body[1..].iter().all(|&u| u == STAR) {
        body = alloc::vec![STAR, STAR];
    }
    let (anchor, pieces, tail) = translate(&body)?;
    Some(Parsed {
        negative,
        anchor,
        pieces,
        tail,
    })
}

/// One piece of a pattern body, as the rewrite chain sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Piece {
    Literal(u16),
    Class(Class),
    /// `?`: one unit that is not `/`.
    NonSlash,
    /// `*` in the middle: any run of non-`/` units.
    Star,
    Slash,
    /// `/**/` in the middle: `(?:\/[^\/]+)*`.
    Dirs,
    /// `/**/` at the end: `(?:\/[^\/]+)+`.
    SomeDirs,
}

/// A unit of the body once escapes and bracket expressions are taken out.
#[derive(Debug, Clone, PartialEq, Eq)]
enum Token {
    /// An unescaped unit: `/`, `*` and `?` mean something; anything else is itself.
    Raw(u16),
    /// `\*`: a literal star.
    EscapedStar,
    /// Anything else that stands for itself (an escape, `\[`, `\ `).
    Literal(u16),
    Class(Class),
}

/// `makeRegexPrefix` and `_make`: the anchor, the body and the tail, or `None` when the
/// pattern can match nothing.
fn translate(pattern: &[u16]) -> Option<(Anchor, Vec<Piece>, Tail)> {
    let mut tokens = extract(pattern)?;
    fold_star_runs(&mut tokens);
    let mut pieces: Vec<Piece> = tokens
        .into_iter()
        .map(|token| match token {
            Token::Raw(u) if u == SLASH => Piece::Slash,
            Token::Raw(u) if u == STAR => Piece::Star,
            Token::Raw(u) if u == b'?' as u16 => Piece::NonSlash,
            Token::Raw(u) | Token::Literal(u) => Piece::Literal(u),
            Token::EscapedStar => Piece::Literal(STAR),
            Token::Class(class) => Piece::Class(class),
        })
        .collect();

    let mut anchor = None;
    if pieces.first() == Some(&Piece::Slash) {
        pieces.remove(0);
        anchor = Some(Anchor::Start);
    }
    // A leading `**/` (several, even) matches in all directories, even after a `/`.
    let mut leading = 0;
    while pieces[leading..].starts_with(&[Piece::Star, Piece::Star, Piece::Slash]) {
        leading += 3;
    }
    if leading > 0 {
        pieces.drain(..leading);
        anchor = Some(Anchor::StartOrAfterSlash);
    }
    let anchor = anchor.unwrap_or_else(|| {
        let inner_slash = pattern
            .iter()
            .take(pattern.len().saturating_sub(1))
            .any(|&u| u == SLASH);
        if inner_slash {
            Anchor::Start
        } else {
            Anchor::StartOrAfterSlash
        }
    });

    let (mut pieces, mut tail) = globstars(pieces);
    if tail.is_none() {
        tail = trailing_star(&mut pieces);
    }
    let tail = tail.unwrap_or(if pieces.last() == Some(&Piece::Slash) {
        Tail::End
    } else {
        Tail::EndOrFinalSlash
    });
    Some((anchor, pieces, tail))
}

/// `extractBrackets`: escapes and bracket expressions become tokens; `None` for what
/// `ignore` turns into `[]` (a pattern that matches nothing).
fn extract(pattern: &[u16]) -> Option<Vec<Token>> {
    let mut tokens = Vec::with_capacity(pattern.len());
    let mut index = 0;
    while let Some(&unit) = pattern.get(index) {
        if unit == BACKSLASH {
            let escaped = pattern.get(index + 1).copied();
            tokens.push(match escaped? {
                // Git drops a final `/` before matching; an escape left without its
                // character makes the pattern invalid.
                SLASH if index + 2 == pattern.len() => return None,
                STAR => Token::EscapedStar,
                e => Token::Literal(e),
            });
            index += 2;
        } else if unit == b'[' as u16 {
            let (class, end) = scan_bracket(pattern, index)?;
            tokens.push(Token::Class(class));
            index = end + 1;
        } else {
            tokens.push(Token::Raw(unit));
            index += 1;
        }
    }
    Some(tokens)
}

/// `scanBracket`, after git's `wildmatch.c`: the class and the index of its `]`, or `None`
/// when the expression is never closed or names an unknown POSIX class.
fn scan_bracket(pattern: &[u16], start: usize) -> Option<(Class, usize)> {
    let mut index = start + 1;
    let negated = matches!(pattern.get(index), Some(&u) if u == b'!' as u16 || u == b'^' as u16);
    if negated {
        index += 1;
    }
    let mut ranges = Vec::new();
    // The member a `-` could start a range from.
    let mut previous: Option<u16> = None;
    loop {
        let unit = *pattern.get(index)?;
        if unit == BACKSLASH {
            index += 1;
            let escaped = *pattern.get(index)?;
            ranges.push((escaped, escaped));
            previous = Some(escaped);
        } else if unit == b'-' as u16
            && previous.is_some()
            && index + 1 < pattern.len()
            && pattern[index + 1] != b']' as u16
        {
            index += 1;
            let mut to = pattern[index];
            if to == BACKSLASH {
                index += 1;
                to = *pattern.get(index)?;
            }
            // An out-of-order range matches nothing more than its lower bound, which was
            // already taken as a member.
            if let Some(from) = previous.filter(|&from| from <= to) {
                ranges.push((from, to));
            }
            previous = None;
        } else if unit == b'[' as u16 && pattern.get(index + 1) == Some(&(b':' as u16)) {
            let name_start = index + 2;
            let close = name_start
                + pattern[name_start.min(pattern.len())..]
                    .iter()
                    .position(|&u| u == b']' as u16)?;
            if close > name_start && pattern[close - 1] == b':' as u16 {
                ranges.extend_from_slice(posix_class(&pattern[name_start..close - 1])?);
                previous = None;
                index = close;
            } else {
                ranges.push((unit, unit));
                previous = Some(unit);
            }
        } else {
            ranges.push((unit, unit));
            previous = Some(unit);
        }
        index += 1;
        if pattern.get(index) == Some(&(b']' as u16)) {
            return Some((Class { negated, ranges }, index));
        }
    }
}

/// git's ASCII-only POSIX classes, without `/`.
fn posix_class(name: &[u16]) -> Option<&'static [(u16, u16)]> {
    const fn r(lo: u8, hi: u8) -> (u16, u16) {
        (lo as u16, hi as u16)
    }
    const CLASSES: &[(&str, &[(u16, u16)])] = &[
        ("alnum", &[r(b'0', b'9'), r(b'A', b'Z'), r(b'a', b'z')]),
        ("alpha", &[r(b'A', b'Z'), r(b'a', b'z')]),
        ("blank", &[r(b' ', b' '), r(b'\t', b'\t')]),
        ("cntrl", &[r(0x00, 0x1f), r(0x7f, 0x7f)]),
        ("digit", &[r(b'0', b'9')]),
        ("graph", &[r(b'!', b'.'), r(b'0', b'~')]),
        ("lower", &[r(b'a', b'z')]),
        ("print", &[r(b' ', b'.'), r(b'0', b'~')]),
        (
            "punct",
            &[r(b'!', b'.'), r(b':', b'@'), r(b'[', b'`'), r(b'{', b'~')],
        ),
        (
            "space",
            &[
                r(b' ', b' '),
                r(b'\t', b'\t'),
                r(b'\n', b'\n'),
                r(b'\r', b'\r'),
            ],
        ),
        ("upper", &[r(b'A', b'Z')]),
        ("xdigit", &[r(b'0', b'9'), r(b'A', b'F'), r(b'a', b'f')]),
    ];
    let name = String::from_utf16(name).ok()?;
    CLASSES
        .iter()
        .find(|(known, _)| *known == name)
        .map(|(_, ranges)| *ranges)
}

/// A run of three or more stars that fills a path segment is one globstar (`***/x`).
fn fold_star_runs(tokens: &mut Vec<Token>) {
    let star = Token::Raw(STAR);
    let slash = Token::Raw(SLASH);
    let mut index = 0;
    while index < tokens.len() {
        let starts_segment = index == 0 || tokens[index - 1] == slash;
        let run = tokens[index..].iter().take_while(|t| **t == star).count();
        let ends_segment = tokens.get(index + run).is_none_or(|t| *t == slash);
        if run >= 3 && starts_segment && ends_segment {
            tokens.drain(index + 2..index + run);
            index += 2;
        } else {
            index += run.max(1);
        }
    }
}

/// `/**` followed by `/` or the end: zero or more directories in the middle, at least one
/// before a final `/`, everything inside at the end.
fn globstars(pieces: Vec<Piece>) -> (Vec<Piece>, Option<Tail>) {
    let mut out = Vec::with_capacity(pieces.len());
    let mut index = 0;
    while index < pieces.len() {
        let is_globstar = pieces[index..].starts_with(&[Piece::Slash, Piece::Star, Piece::Star])
            && pieces.get(index + 3).is_none_or(|p| *p == Piece::Slash);
        if !is_globstar {
            out.push(pieces[index].clone());
            index += 1;
            continue;
        }
        let rest = &pieces[index + 3..];
        if rest.is_empty() {
            out.push(Piece::Slash);
            return (out, Some(Tail::AnyMore));
        }
        out.push(if rest == [Piece::Slash] {
            Piece::SomeDirs
        } else {
            Piece::Dirs
        });
        index += 3;
    }
    (out, None)
}

/// Runs of `*` collapse to one; a final one becomes the tail (`[^/]+` right after `/`).
fn trailing_star(pieces: &mut Vec<Piece>) -> Option<Tail> {
    pieces.dedup_by(|a, b| *a == Piece::Star && *b == Piece::Star);
    let run_end = pieces.len();
    let run = pieces
        .iter()
        .rev()
        .take_while(|p| **p == Piece::Star)
        .count();
    if run == 0 {
        return None;
    }
    pieces.truncate(run_end - run);
    Some(Tail::Star {
        at_least_one: pieces.last() == Some(&Piece::Slash),
    })
}

/// `ignore`'s `trimEnd` for the array form: trailing blank lines, one CR per line and
/// trailing spaces go; a space escaped by an odd run of backslashes stays, unescaped.
fn trim_end(body: &[u16]) -> Vec<u16> {
    let at = |i: usize| i.checked_sub(1).and_then(|i| body.get(i)).copied();
    let mut line_end = body.len();
    let mut end;
    loop {
        if at(line_end) == Some(0x0D) {
            line_end -= 1;
        }
        end = line_end;
        while at(end) == Some(SPACE) {
            end -= 1;
        }
        if at(end) != Some(0x0A) {
            break;
        }
        line_end = end - 1;
    }
    if end == line_end {
        return body[..line_end].to_vec();
    }
    if trailing_backslashes(&body[..end]) % 2 == 1 {
        let mut kept = body[..end - 1].to_vec();
        kept.push(SPACE);
        kept
    } else {
        body[..end].to_vec()
    }
}

fn trailing_backslashes(units: &[u16]) -> usize {
    units.iter().rev().take_while(|&&u| u == BACKSLASH).count()
}
