//! Reading the text: where a mention may start, how far its token runs, and the fixed
//! forms (`@"…"`, `@"name (agent)"`, `@agent-name`) with JavaScript regex semantics.
//!
//! Every delimiter the grammar cares about is ASCII, so byte searches never land inside a
//! multi-byte character; the few places that look at a whole character use `char_indices`.

use core::ops::Range;

use super::{BareEnd, MentionRules, Whitespace};

/// The suffix that turns a quoted mention into an agent mention (§1.1).
pub(super) const AGENT_SUFFIX: &str = " (agent)";
/// The prefix of an unquoted agent mention (§1.1).
pub(super) const AGENT_PREFIX: &str = "agent-";

impl Whitespace {
    /// Whether `c` separates tokens under this definition.
    pub fn contains(self, c: char) -> bool {
        match self {
            Whitespace::JavaScript => crate::js::is_whitespace(c),
            Whitespace::Unicode => c.is_whitespace(),
        }
    }
}

/// JavaScript's `\w` without the `u` flag: ASCII only (§1.3).
fn is_ascii_word(byte: u8) -> bool {
    byte.is_ascii_alphanumeric() || byte == b'_'
}

/// The agent regexes' name class `[\w:.@-]` (§1.1).
fn is_agent_name_byte(byte: u8) -> bool {
    is_ascii_word(byte) || matches!(byte, b':' | b'.' | b'@' | b'-')
}

/// Runs one pass the way a global JavaScript regex does: `attempt` is tried at every
/// mention start, and the scan resumes where `attempt` says (`lastIndex`), or just after the
/// `@` when it declines.
pub(super) fn each_start(
    text: &str,
    rules: &MentionRules,
    mut attempt: impl FnMut(usize) -> Option<usize>,
) {
    let mut from = 0;
    while let Some(at) = next_start(text, from, rules) {
        from = attempt(at).unwrap_or(at + 1).max(at + 1);
    }
}

/// The next `@` at or after `from` that may open a mention: `(^|\s)@`, where the consumed
/// whitespace must itself lie at or after `from` (it cannot belong to the previous match).
fn next_start(text: &str, from: usize, rules: &MentionRules) -> Option<usize> {
    let mut at = from;
    loop {
        let found = at + memchr::memchr(b'@', text.as_bytes().get(at..)?)?;
        if opens_mention(text, found, from, rules) {
            return Some(found);
        }
        at = found + 1;
    }
}

fn opens_mention(text: &str, at: usize, from: usize, rules: &MentionRules) -> bool {
    let mut before = text.get(..at).unwrap_or("").char_indices().rev();
    let Some((index, c)) = before.next() else {
        return true;
    };
    if rules.whitespace.contains(c) {
        return index >= from;
    }
    if !(rules.mention_after_open_bracket && matches!(c, '(' | '[' | '{')) {
        return false;
    }
    match before.next() {
        None => from == 0,
        Some((index, c)) => rules.whitespace.contains(c) && index >= from,
    }
}

/// The end of the non-whitespace run starting at `start`. With `escaped_spaces`, `\ `
/// followed by more non-whitespace text continues the run.
pub(super) fn run_end(text: &str, start: usize, rules: &MentionRules) -> usize {
    let rest = text.get(start..).unwrap_or("");
    let mut chars = rest.char_indices();
    while let Some((index, c)) = chars.next() {
        if c == '\\' && rules.escaped_spaces && is_escaped_space(rest, index) {
            chars.next();
        } else if rules.whitespace.contains(c) {
            return start + index;
        }
    }
    text.len()
}

fn is_escaped_space(rest: &str, backslash: usize) -> bool {
    let mut after = rest.get(backslash + 1..).unwrap_or("").chars();
    after.next() == Some(' ') && after.next().is_some_and(|c| !c.is_whitespace())
}

/// Where a bare token over `start..end` ends under `rule`, or `None` when nothing is left.
pub(super) fn cut(text: &str, start: usize, end: usize, rule: BareEnd) -> Option<usize> {
    let token = text.get(start..end)?;
    let len = match rule {
        BareEnd::LastAsciiWordChar => token.bytes().rposition(is_ascii_word)? + 1,
        BareEnd::Whitespace => token.len(),
        BareEnd::WhitespaceTrimmed => trim_trailing_punctuation(token).len(),
    };
    (len > 0).then_some(start + len)
}

/// Sentence punctuation that ends a token but is never the end of a path (Q1 fix).
const TRAILING_PUNCTUATION: &[char] = &[
    '.', ',', ';', ':', '!', '?', '\'', '"', '`', '>', '…', '。', '、', '，', '！', '？', '：',
    '；', '）', '」', '』', '】', '》', '〉', '’', '”', '»', '›',
];

/// Trims trailing punctuation; a closing bracket goes only when it has no partner inside the
/// token, so that `@src/a.ts)` loses the `)` but `@notes(1)` keeps it.
fn trim_trailing_punctuation(token: &str) -> &str {
    let mut unmatched = [('(', ')', 0isize), ('[', ']', 0), ('{', '}', 0)];
    for c in token.chars() {
        for (open, close, count) in unmatched.iter_mut() {
            if c == *close {
                *count += 1;
            } else if c == *open {
                *count -= 1;
            }
        }
    }
    let mut end = token.len();
    for (index, c) in token.char_indices().rev() {
        let trim = match unmatched.iter_mut().find(|(_, close, _)| *close == c) {
            Some((_, _, count)) if *count > 0 => {
                *count -= 1;
                true
            }
            Some(_) => false,
            None if c == '.' => !ends_with_dot_segment(token.get(..end).unwrap_or("")),
            None => TRAILING_PUNCTUATION.contains(&c),
        };
        if !trim {
            break;
        }
        end = index;
    }
    token.get(..end).unwrap_or("")
}

/// `.` and `..` are directories, not a sentence's full stop: `@..`, `@src/..`.
fn ends_with_dot_segment(path: &str) -> bool {
    matches!(path.rsplit('/').next(), Some(".") | Some(".."))
}

/// `@"…"` at `at` (`@"([^"]+)"`): the content's range when it is non-empty and closed.
///
/// Searches stay linear: the quote that closes one `@"` is at the latest the opening quote
/// of the next.
pub(super) fn quoted_content(text: &str, at: usize) -> Option<Range<usize>> {
    let rest = text.get(at + 1..)?.strip_prefix('"')?;
    let len = rest.find('"')?;
    (len > 0).then_some(at + 2..at + 2 + len)
}

/// `@"name (agent)"` at `at` (`@"([\w:.@-]+) \(agent\)"`): the name's range.
pub(super) fn quoted_agent(text: &str, at: usize) -> Option<Range<usize>> {
    let rest = text.get(at + 1..)?.strip_prefix('"')?;
    let len = rest.bytes().take_while(|b| is_agent_name_byte(*b)).count();
    let after = rest.get(len..)?.strip_prefix(AGENT_SUFFIX)?;
    (len > 0 && after.starts_with('"')).then_some(at + 2..at + 2 + len)
}

/// `@agent-name` at `at` (`@(agent-[\w:.@-]+)`): the end of the capture.
pub(super) fn unquoted_agent(text: &str, at: usize) -> Option<usize> {
    let rest = text.get(at + 1..)?.strip_prefix(AGENT_PREFIX)?;
    let len = rest.bytes().take_while(|b| is_agent_name_byte(*b)).count();
    (len > 0).then_some(at + 1 + AGENT_PREFIX.len() + len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn js_whitespace_differs_from_unicode_on_bom_and_nel() {
        assert!(Whitespace::JavaScript.contains('\u{feff}'));
        assert!(!Whitespace::Unicode.contains('\u{feff}'));
        assert!(!Whitespace::JavaScript.contains('\u{85}'));
        assert!(Whitespace::Unicode.contains('\u{85}'));
        assert!(!Whitespace::JavaScript.contains('\u{180e}'));
    }

    #[test]
    fn trimming_keeps_balanced_brackets() {
        assert_eq!(trim_trailing_punctuation("src/a.ts)."), "src/a.ts");
        assert_eq!(trim_trailing_punctuation("notes(1)"), "notes(1)");
        assert_eq!(trim_trailing_punctuation("a(b))"), "a(b)");
        assert_eq!(trim_trailing_punctuation("日本。"), "日本");
        assert_eq!(trim_trailing_punctuation("?!"), "");
        assert_eq!(trim_trailing_punctuation(".."), "..");
        assert_eq!(trim_trailing_punctuation("src/..,"), "src/..");
        assert_eq!(trim_trailing_punctuation("src/..."), "src/..");
        assert_eq!(trim_trailing_punctuation("src/"), "src/");
    }
}
