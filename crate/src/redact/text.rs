//! Texts: which words a redaction replaces, and the markup it keeps as written.
//!
//! A text is cut into tokens at whitespace. Every word (a maximal run of letters and digits)
//! is replaced, but:
//! - [`COMMON_WORDS`] and the relevant-memory scorer's stop words stay where the word stands
//!   alone in its token (`the`, `(let`, `fn`): they identify nothing and keep prose and code
//!   readable. In a token that holds more than one word (`Ge4.Drq-ZAI_Mr!`, `10.0.0.1`,
//!   `user:pw@host`, `is_ok`) nothing stays: such a token is an identifier, an address or a
//!   credential, and its short pieces are what would give it away.
//! - [`ENGINE_KEYWORDS`] stay everywhere: the engine acts on them.
//! - Digits are always replaced: a number in a text is content (a PIN, a phone number), while
//!   the numbers that are sizes, times and offsets are JSON numbers, which stay.
//! - The markup the engine reads stays: the tags of [`TAG_NAMES`] and Codex's paste
//!   placeholders (`[Pasted Content 1200 chars]`), see [`markup_spans`].
//!
//! Punctuation and whitespace stay, so the text keeps its lines, indentation and shape.

use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use super::cipher::WordCipher;
use crate::collectors::relevant_memories::scorer::STOP_WORDS;

/// Short words kept where they stand alone in their token (compared in lower case): English
/// function words and the keywords of common programming languages, none longer than three
/// letters, sorted. Longer common words are replaced like any other, except the scorer's stop
/// words.
pub const COMMON_WORDS: [&str; 78] = [
    "a", "add", "all", "an", "and", "any", "are", "as", "at", "be", "but", "by", "can", "def",
    "did", "do", "end", "fn", "for", "get", "had", "has", "he", "her", "his", "how", "i", "if",
    "in", "int", "is", "it", "its", "let", "may", "me", "mod", "mut", "my", "new", "nil", "no",
    "not", "now", "of", "off", "ok", "old", "on", "one", "or", "our", "out", "per", "pub", "put",
    "ref", "run", "set", "she", "so", "str", "the", "to", "too", "try", "two", "up", "us", "use",
    "var", "via", "was", "we", "who", "why", "yes", "you",
];

/// Words the engine acts on wherever they stand: a prompt's `ultrathink` asks for more effort
/// (spec claude-code.md §7).
pub const ENGINE_KEYWORDS: [&str; 1] = ["ultrathink"];

/// Tags the engine reads or writes in texts (a summary's `<summary>` and `<analysis>`, the
/// reminders and context blocks of both clients): `<name>` and `</name>` stay as written.
pub const TAG_NAMES: [&str; 22] = [
    "analysis",
    "collaboration_mode",
    "command-message",
    "command-name",
    "environment_context",
    "git_working_state",
    "image",
    "model_switch",
    "persisted-output",
    "personality_spec",
    "skill",
    "skills_instructions",
    "subagent_notification",
    "summary",
    "synthetic",
    "system-reminder",
    "terminal_output",
    "turn_aborted",
    "user_instructions",
    "user_shell_command",
    "workspace_diagnostics",
    "workspace_roots",
];

/// A letter or digit of a word: ASCII letters and digits, and any other alphabet's letters.
pub(super) fn is_word_char(c: char) -> bool {
    c.is_ascii_alphanumeric() || (!c.is_ascii() && c.is_alphabetic())
}

/// The words of `text`, ASCII-lowercased.
pub(super) fn words(text: &str) -> impl Iterator<Item = String> + '_ {
    text.split(|c| !is_word_char(c))
        .filter(|word| !word.is_empty())
        .map(str::to_ascii_lowercase)
}

/// Whether `word` (lowercased) may stay as written somewhere: a common word or a stop word
/// where it stands alone in its token, a keyword anywhere. Every other word is replaced.
///
/// # Example
/// ```
/// use context_assembly::redact::may_stay;
/// assert!(may_stay("the") && may_stay("ultrathink") && may_stay("please"));
/// assert!(!may_stay("ana") && !may_stay("4821"));
/// ```
pub fn may_stay(word: &str) -> bool {
    ENGINE_KEYWORDS.contains(&word)
        || COMMON_WORDS.binary_search(&word).is_ok()
        || STOP_WORDS.binary_search(&word).is_ok()
}

/// Replaces the words of texts, as the module's documentation says.
pub(super) struct TextCipher {
    pub(super) words: WordCipher,
    /// Words never kept, whatever their length: the home directory's user name.
    pub(super) never_kept: Vec<String>,
}

impl TextCipher {
    /// `text` with its words replaced and its markup ([`markup_spans`]) kept.
    pub(super) fn text(&mut self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        self.text_keeping(text, &markup_spans(text), &mut out);
        out
    }

    /// `text` with its words replaced, but the byte ranges `kept` (sorted, disjoint) copied
    /// as written.
    pub(super) fn text_keeping(&mut self, text: &str, kept: &[Range<usize>], out: &mut String) {
        let mut at = 0;
        for span in kept {
            let (Some(before), Some(verbatim)) = (text.get(at..span.start), text.get(span.clone()))
            else {
                continue;
            };
            self.words_of(before, out);
            out.push_str(verbatim);
            at = span.end;
        }
        self.words_of(text.get(at..).unwrap_or_default(), out);
    }

    /// Every word of `text` replaced, none kept: a name (a path's component, a key).
    pub(super) fn every_word(&mut self, text: &str, out: &mut String) {
        self.replace_words(text, false, out);
    }

    /// The words of `text`, token by token.
    fn words_of(&mut self, text: &str, out: &mut String) {
        let mut rest = text;
        while !rest.is_empty() {
            let blank = rest
                .find(|c: char| !c.is_whitespace())
                .unwrap_or(rest.len());
            out.push_str(&rest[..blank]);
            rest = &rest[blank..];
            let token_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
            let token = &rest[..token_end];
            self.replace_words(token, stands_alone(token), out);
            rest = &rest[token_end..];
        }
    }

    /// `text`'s words replaced; common words kept when `alone` (the token holds one word).
    fn replace_words(&mut self, text: &str, alone: bool, out: &mut String) {
        let mut rest = text;
        while let Some(start) = rest.find(is_word_char) {
            out.push_str(&rest[..start]);
            rest = &rest[start..];
            let end = rest.find(|c| !is_word_char(c)).unwrap_or(rest.len());
            self.word(&rest[..end], alone, out);
            rest = &rest[end..];
        }
        out.push_str(rest);
    }

    fn word(&mut self, word: &str, alone: bool, out: &mut String) {
        let lower = word.to_ascii_lowercase();
        let keyword = ENGINE_KEYWORDS.contains(&lower.as_str());
        let common = alone && may_stay(&lower) && !self.never_kept.contains(&lower);
        let has_digit = word.chars().any(|c| c.is_ascii_digit());
        if keyword || (common && !has_digit) {
            out.push_str(word);
        } else {
            self.words.replace(word, out);
        }
    }
}

/// Whether a token holds one word: its letters and digits form one run once the punctuation
/// around it is set aside (`(let`, `end.`, `"fn"`), not `is_ok` or `1.2.3`.
fn stands_alone(token: &str) -> bool {
    let core = token.trim_matches(|c: char| !is_word_char(c));
    core.chars().all(is_word_char)
}

/// The byte spans of `text` the engine reads as markup: the tags of [`TAG_NAMES`] and Codex's
/// paste placeholders (`[Pasted Content {n} chars]`, with its ` #2` suffix), sorted.
pub(super) fn markup_spans(text: &str) -> Vec<Range<usize>> {
    let mut spans = Vec::new();
    for (at, _) in text.match_indices('<') {
        let rest = &text[at + 1..];
        let name_start = usize::from(rest.starts_with('/'));
        let Some(close) = rest.find('>') else {
            continue;
        };
        if close > name_start && TAG_NAMES.contains(&&rest[name_start..close]) {
            spans.push(at..at + 1 + close + 1);
        }
    }
    spans.extend(paste_placeholders(text));
    crate::sort::sort_by_key(&mut spans, |span| span.start);
    spans
}

/// Codex's paste placeholders in `text` (spec codex.md §3.4): the count of characters is the
/// paste's size, which redaction keeps.
fn paste_placeholders(text: &str) -> impl Iterator<Item = Range<usize>> + '_ {
    const OPEN: &str = "[Pasted Content ";
    const CLOSE: &str = " chars]";
    text.match_indices(OPEN).filter_map(|(at, _)| {
        let digits_start = at + OPEN.len();
        let digits = text[digits_start..]
            .find(|c: char| !c.is_ascii_digit())
            .unwrap_or(text.len() - digits_start);
        let end = digits_start + digits;
        if digits == 0 || !text[end..].starts_with(CLOSE) {
            return None;
        }
        let mut end = end + CLOSE.len();
        if let Some(suffix) = text[end..].strip_prefix(" #") {
            let count = suffix
                .find(|c: char| !c.is_ascii_digit())
                .unwrap_or(suffix.len());
            if count > 0 {
                end += 2 + count;
            }
        }
        Some(at..end)
    })
}

#[cfg(test)]
mod tests {
    use alloc::collections::BTreeSet;

    use super::*;
    use crate::redact::cipher::RedactionKey;

    fn cipher(text: &str) -> TextCipher {
        let words: BTreeSet<String> = super::words(text).collect();
        let kept = words.iter().filter(|w| may_stay(w)).cloned().collect();
        TextCipher {
            words: WordCipher::new(RedactionKey::UNKEYED, words, kept),
            never_kept: Vec::new(),
        }
    }

    #[test]
    fn common_words_are_sorted_for_the_search() {
        assert!(COMMON_WORDS.windows(2).all(|pair| pair[0] < pair[1]));
    }

    #[test]
    fn common_words_stay_alone_but_not_inside_a_credential() {
        let text = "if (x) { let a = the_end; } Ge4.Drq-ZAI_Mr! 10.209.166.55 to-do";
        let out = cipher(text).text(text);
        assert_eq!(out.len(), text.len());
        assert!(out.starts_with("if (") && out.contains("{ let ") && !out.contains("the_end"));
        for secret in [
            "Ge4.", ".Drq", "ZAI", "_Mr!", "10.", "209", "166", ".55", "to-do",
        ] {
            assert!(!out.contains(secret), "{secret} survived in {out}");
        }
    }

    #[test]
    fn digits_always_change() {
        let text = "so +1 (767) 188-2345 or 4111 1111 1111 1111, PIN 042";
        let out = cipher(text).text(text);
        for (a, b) in text.chars().zip(out.chars()) {
            if a.is_ascii_digit() {
                assert!(b.is_ascii_digit() && a != b, "{text} → {out}");
            }
        }
        assert!(out.starts_with("so ") && out.contains(" or "));
    }

    #[test]
    fn markup_and_keywords_stay() {
        let text =
            "<summary>Tests pass</summary> ultrathink [Pasted Content 1200 chars] #2 <secret>";
        let out = cipher(text).text(text);
        assert!(out.starts_with("<summary>") && out.contains("</summary> ultrathink "));
        assert!(out.contains("[Pasted Content 1200 chars] #2"));
        assert!(!out.contains("Tests") && !out.contains("pass") && !out.contains("secret"));
    }

    #[test]
    fn the_user_name_never_stays() {
        let text = "ask may or me";
        let mut cipher = cipher(text);
        cipher.never_kept.push("may".into());
        let out = cipher.text(text);
        assert!(!out.contains("may") && out.ends_with(" or me"));
    }
}
