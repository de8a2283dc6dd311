//! The `@` token of Codex's composer (spec codex.md §6.1–6.2): which text a popup searches
//! for, and what replaces it when a match is accepted. Offsets are byte offsets into the
//! text; the wasm boundary converts them to and from UTF-16.

use alloc::format;
use alloc::string::String;

use crate::js::{byte_offset_of_utf16, utf16_len};
use crate::mention::{extract_mentions, MentionRules};

/// The `@` token the caret touches: its byte range in the text, `@` included, and the query
/// (the token without its `@`).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct AtToken {
    /// Byte offset of the `@`.
    pub start: usize,
    /// Byte offset just past the token.
    pub end: usize,
    /// What the popup searches for: never holds whitespace (X24); a nested `@` stays in it.
    pub query: String,
}

/// The whitespace-delimited token the caret is in or at the edge of, when it starts with
/// `@` (§6.1). Whitespace is Unicode's White_Space, as Rust's `char::is_whitespace` and
/// Codex's composer read it. A caret past the end or inside a character finds nothing.
///
/// Codex also looks past whitespace to the right of the caret; this takes only the token the
/// caret touches, so accepting a match replaces exactly the token the popup was opened for.
///
/// ```
/// use context_assembly::search::composer::at_token;
/// let token = at_token("see @scope/pkg@latest now", 10).unwrap();
/// assert_eq!((token.start, token.end, token.query.as_str()), (4, 21, "scope/pkg@latest"));
/// assert_eq!(at_token("see @a now", 0), None); // `see` does not start with `@`
/// ```
pub fn at_token(text: &str, caret: usize) -> Option<AtToken> {
    if !text.is_char_boundary(caret) {
        return None;
    }
    let start = text[..caret]
        .char_indices()
        .rev()
        .find(|(_, c)| c.is_whitespace())
        .map_or(0, |(i, c)| i + c.len_utf8());
    let end = text[caret..]
        .char_indices()
        .find(|(_, c)| c.is_whitespace())
        .map_or(text.len(), |(i, _)| caret + i);
    let token = &text[start..end];
    let query = token.strip_prefix('@')?;
    Some(AtToken {
        start,
        end,
        query: String::from(query),
    })
}

/// [`at_token`] with offsets in UTF-16 units, as a JS string is indexed: `caret` and the
/// token's `start` and `end`. A caret inside a surrogate pair counts from its character's
/// start (a pair is never whitespace, so the token is the same).
///
/// ```
/// use context_assembly::search::composer::at_token_utf16;
/// let token = at_token_utf16("😀 @src/é", 9).unwrap();
/// assert_eq!((token.start, token.end, token.query.as_str()), (3, 9, "src/é"));
/// ```
pub fn at_token_utf16(text: &str, caret: usize) -> Option<AtToken> {
    let token = at_token(text, byte_offset_of_utf16(text, caret)?)?;
    Some(AtToken {
        start: utf16_len(&text[..token.start]),
        end: utf16_len(&text[..token.end]),
        query: token.query,
    })
}

/// What replaces an accepted token (§6.2), then one space. Plain (Codex, which inserts the
/// path as text): the path, in `"…"` when it holds whitespace and no `"`. As a mention, for a
/// profile that attaches the file: `@` and the path written so that `rules` read it back as a
/// file mention of exactly this path — bare when that reads back, else quoted (`@"…"`), else
/// with its spaces escaped (`@a\ "b".ts`, where the grammar takes `\ `). A path that no
/// spelling reads back under `rules` (one with a `#`, which every grammar reads as a line range
/// or heading, or a `"` beside whitespace in claude-code's) is quoted where it holds
/// whitespace and no `"`, as the plain form is.
///
/// ```
/// use context_assembly::mention::MentionRules;
/// use context_assembly::search::composer::insertion;
/// let recommended = MentionRules::recommended();
/// assert_eq!(insertion("src/a b.ts", false, &recommended), "\"src/a b.ts\" ");
/// assert_eq!(insertion("src/a.ts", true, &recommended), "@src/a.ts ");
/// assert_eq!(insertion("a \"b\".ts", true, &recommended), "@a\\ \"b\".ts ");
/// // claude-code ends a bare mention at its last ASCII word character.
/// assert_eq!(insertion("src/é", true, &MentionRules::claude_code()), "@\"src/é\" ");
/// ```
pub fn insertion(path: &str, as_mention: bool, rules: &MentionRules) -> String {
    let quote = path.chars().any(char::is_whitespace) && !path.contains('"');
    let plain = if quote {
        format!("\"{path}\"")
    } else {
        String::from(path)
    };
    if !as_mention {
        return plain + " ";
    }
    let spellings = [
        format!("@{path}"),
        format!("@\"{path}\""),
        format!("@{}", path.replace(' ', "\\ ")),
    ];
    let read_back = spellings
        .into_iter()
        .find(|spelling| reads_back(spelling, path, rules));
    read_back.unwrap_or_else(|| format!("@{plain}")) + " "
}

/// Whether `rules` read `spelling` whole as one file mention of `path`, with no line range,
/// fragment or problem.
fn reads_back(spelling: &str, path: &str, rules: &MentionRules) -> bool {
    let whole = 0..spelling.len();
    extract_mentions(spelling, rules).files.iter().any(|file| {
        file.span == whole
            && file.path == path
            && file.line_start.is_none()
            && file.fragment.is_none()
            && file.problem.is_none()
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_caret_at_either_edge_of_a_token_finds_it() {
        for caret in [3, 5] {
            let token = at_token("ab @xy", caret + 1).unwrap();
            assert_eq!((token.start, token.end, token.query.as_str()), (3, 6, "xy"));
        }
    }

    #[test]
    fn a_lone_at_opens_an_empty_query() {
        let token = at_token("see @", 5).unwrap();
        assert_eq!(token.query, "");
    }

    #[test]
    fn unicode_whitespace_ends_a_token_and_offsets_stay_on_characters() {
        let text = "é\u{3000}@日本";
        let token = at_token(text, text.len()).unwrap();
        assert_eq!(token.query, "日本");
        assert_eq!(at_token(text, 1), None); // inside `é`
        assert_eq!(at_token(text, text.len() + 1), None);
    }

    #[test]
    fn utf16_carets_inside_a_pair_or_past_the_end() {
        let text = "@a😀b";
        assert_eq!(at_token_utf16(text, 2).unwrap().end, 5);
        assert_eq!(at_token_utf16(text, 5).unwrap().query, "a😀b");
        assert_eq!(at_token_utf16(text, 6), None);
    }

    #[test]
    fn a_plain_path_with_a_quote_is_inserted_bare() {
        assert_eq!(
            insertion("a \"b\"", false, &MentionRules::recommended()),
            "a \"b\" "
        );
    }
}
