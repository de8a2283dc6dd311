//! Line ranges and fragments after the path: `#L10-20`, `#heading`, `:10-20` (§1.4, Q6–Q9).

use alloc::format;
use alloc::string::String;

use super::{LineFragments, MentionRules};

/// A file mention's path with what followed it.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Located<'r> {
    pub(super) path: &'r str,
    pub(super) line_start: Option<u64>,
    pub(super) line_end: Option<u64>,
    pub(super) fragment: Option<&'r str>,
    pub(super) problem: Option<String>,
    /// The range as written (`#L20-10`, `:5`), for messages.
    written: &'r str,
}

impl<'r> Located<'r> {
    fn whole(raw: &'r str) -> Located<'r> {
        Located {
            path: raw,
            ..Located::default()
        }
    }

    fn lines(path: &'r str, start: u64, end: Option<u64>, written: &'r str) -> Located<'r> {
        Located {
            path,
            line_start: Some(start),
            line_end: end,
            written,
            ..Located::default()
        }
    }

    fn is_whole(&self) -> bool {
        self.line_start.is_none() && self.fragment.is_none() && self.problem.is_none()
    }
}

/// Splits a file mention into its path and the line range or fragment after it.
pub(super) fn locate<'r>(raw: &'r str, rules: &MentionRules) -> Located<'r> {
    let mut located = match rules.line_fragments {
        LineFragments::Off => Located::whole(raw),
        LineFragments::Strict => strict(raw),
        LineFragments::Lenient => lenient(raw),
    };
    if rules.colon_line_ranges && located.is_whole() {
        if let Some(colon) = colon(raw) {
            located = colon;
        }
    }
    if rules.line_zero_is_line_one {
        located.line_start = located.line_start.map(|line| line.max(1));
        located.line_end = located.line_end.map(|line| line.max(1));
    }
    if rules.report_reversed_ranges && located.problem.is_none() {
        if let (Some(start), Some(end)) = (located.line_start, located.line_end) {
            if end < start {
                located.problem = Some(format!("line range {}: end before start", located.written));
            }
        }
    }
    located
}

/// The original's `/^([^#]+)(?:#L(\d+)(?:-(\d+))?)?(?:#[^#]*)?$/`: the path ends at the
/// first `#`; after it comes `L<digits>[-<digits>]`, then at most one `#` fragment.
fn strict(raw: &str) -> Located<'_> {
    let Some(hash) = raw.find('#').filter(|hash| *hash > 0) else {
        return Located::whole(raw);
    };
    let (path, rest) = raw.split_at(hash);
    if let Some((start, end, written_len, tail)) = strict_lines(rest) {
        let mut located = Located::lines(path, start, Some(end), &rest[..written_len]);
        located.fragment = tail.get(1..);
        return located;
    }
    match rest.get(1..) {
        Some(fragment) if !fragment.contains('#') => Located {
            path,
            fragment: Some(fragment),
            ..Located::default()
        },
        _ => Located::whole(raw),
    }
}

/// `#L<digits>[-<digits>]` at the start of `rest` followed by nothing or by one `#…`
/// fragment: (start, end, length written, the tail).
fn strict_lines(rest: &str) -> Option<(u64, u64, usize, &str)> {
    let after = rest.strip_prefix("#L")?;
    let (start, tail) = split_number(after)?;
    let written_len = rest.len() - tail.len();
    if let Some((end, after_end)) = tail.strip_prefix('-').and_then(split_number) {
        if is_fragment_tail(after_end) {
            return Some((start, end, rest.len() - after_end.len(), after_end));
        }
    }
    is_fragment_tail(tail).then_some((start, start, written_len, tail))
}

/// Nothing, or one `#` followed by no other `#`.
fn is_fragment_tail(tail: &str) -> bool {
    tail.is_empty()
        || tail
            .strip_prefix('#')
            .is_some_and(|rest| !rest.contains('#'))
}

/// Our grammar: the fragment is what follows the last `#`. `L10`, `L10-20`, `L10-L20` and
/// `L10-` (to the end of the file) are line ranges, `L`/`l` alike (Q7); an uppercase `L` and
/// a digit that do not make a range are an error; anything else is a heading anchor, and a
/// bare trailing `#` is dropped.
fn lenient(raw: &str) -> Located<'_> {
    let Some(hash) = raw.rfind('#').filter(|hash| *hash > 0) else {
        return Located::whole(raw);
    };
    let (path, written) = raw.split_at(hash);
    let fragment = written.get(1..).unwrap_or("");
    match lenient_lines(fragment) {
        Some(Some((start, end))) => Located::lines(path, start, end, written),
        Some(None) => Located {
            path,
            problem: Some(format!(
                "line range {written}: not a line range; write #L<start>, #L<start>-<end> or #L<start>-"
            )),
            written,
            ..Located::default()
        },
        None => Located {
            path,
            fragment: (!fragment.is_empty()).then_some(fragment),
            ..Located::default()
        },
    }
}

/// `None`: a heading; `Some(None)`: a malformed range; `Some(Some(range))`: a range.
fn lenient_lines(fragment: &str) -> Option<Option<(u64, Option<u64>)>> {
    let after = fragment.strip_prefix(['L', 'l'])?;
    let (start, tail) = split_number(after)?;
    let end = match tail {
        "" => Some(Some(start)),
        "-" => Some(None),
        _ => tail
            .strip_prefix('-')
            .map(|end| end.strip_prefix(['L', 'l']).unwrap_or(end))
            .and_then(whole_number)
            .map(Some),
    };
    match end {
        Some(end) => Some(Some((start, end))),
        None if fragment.starts_with('L') => Some(None),
        None => None,
    }
}

/// `path:10`, `path:10-20`, `path:10-` (Q6); the path before the last `:` must be non-empty.
fn colon(raw: &str) -> Option<Located<'_>> {
    let colon = raw.rfind(':').filter(|colon| *colon > 0)?;
    let (path, written) = raw.split_at(colon);
    let (start, end) = colon_range(written.get(1..)?)?;
    Some(Located::lines(path, start, end, written))
}

/// `10`, `10-20` or `10-`: (start, end), end `None` = to the end of the file.
pub(super) fn colon_range(range: &str) -> Option<(u64, Option<u64>)> {
    let (start, tail) = split_number(range)?;
    match tail {
        "" => Some((start, Some(start))),
        "-" => Some((start, None)),
        _ => Some((start, Some(whole_number(tail.strip_prefix('-')?)?))),
    }
}

/// Leading ASCII digits (at least one) as a number, and the rest. Numbers too large for a
/// `u64` saturate: no file has that many lines, and the original's `parseInt` is inexact there.
fn split_number(text: &str) -> Option<(u64, &str)> {
    let len = text.bytes().take_while(u8::is_ascii_digit).count();
    if len == 0 {
        return None;
    }
    let (digits, rest) = text.split_at(len);
    let number = digits.bytes().fold(0u64, |number, digit| {
        number
            .saturating_mul(10)
            .saturating_add(u64::from(digit - b'0'))
    });
    Some((number, rest))
}

fn whole_number(text: &str) -> Option<u64> {
    split_number(text).and_then(|(number, rest)| rest.is_empty().then_some(number))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strict_of(raw: &str) -> (&str, Option<u64>, Option<u64>, Option<&str>) {
        let located = strict(raw);
        (
            located.path,
            located.line_start,
            located.line_end,
            located.fragment,
        )
    }

    #[test]
    fn strict_follows_the_original_regex() {
        assert_eq!(
            strict_of("file.txt#L10-20"),
            ("file.txt", Some(10), Some(20), None)
        );
        assert_eq!(
            strict_of("foo#L5#L6"),
            ("foo", Some(5), Some(5), Some("L6"))
        );
        assert_eq!(strict_of("foo#L10abc"), ("foo", None, None, Some("L10abc")));
        assert_eq!(
            strict_of("foo#L10-20-30"),
            ("foo", None, None, Some("L10-20-30"))
        );
        assert_eq!(strict_of("foo#L5-#x"), ("foo#L5-#x", None, None, None));
        assert_eq!(strict_of("foo#bar#L1"), ("foo#bar#L1", None, None, None));
        assert_eq!(strict_of("#L5"), ("#L5", None, None, None));
        assert_eq!(strict_of("foo#"), ("foo", None, None, Some("")));
        assert_eq!(strict_of("foo#L007"), ("foo", Some(7), Some(7), None));
        assert_eq!(strict_of("foo#L99999999999999999999999").1, Some(u64::MAX));
    }

    #[test]
    fn lenient_ranges_and_headings() {
        assert_eq!(lenient_lines("L10-L20"), Some(Some((10, Some(20)))));
        assert_eq!(lenient_lines("l10"), Some(Some((10, Some(10)))));
        assert_eq!(lenient_lines("L10-"), Some(Some((10, None))));
        assert_eq!(lenient_lines("L10abc"), Some(None));
        assert_eq!(lenient_lines("l10n"), None);
        assert_eq!(lenient_lines("Lorem"), None);
        assert_eq!(colon_range("10-"), Some((10, None)));
        assert_eq!(colon_range("10-x"), None);
    }
}
