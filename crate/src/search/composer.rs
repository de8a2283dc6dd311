//! The `@` token of Codex's composer (spec codex.md §6.1–6.2): which text a popup searches
//! for, and what replaces it when a match is accepted. Offsets are byte offsets into the
//! text; the wasm boundary converts them to and from UTF-16.

use alloc::format;
use alloc::string::String;

use crate::js::{byte_offset_of_utf16, utf16_len};

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

/// What replaces an accepted token (§6.2): the path relative to the cwd, in `"…"` when it
/// holds whitespace and no `"`, then one space. Codex inserts it as plain text; with
/// `as_mention` it is prefixed with `@`, so a Claude Code style profile attaches the file.
///
/// ```
/// use context_assembly::search::composer::insertion;
/// assert_eq!(insertion("src/a b.ts", false), "\"src/a b.ts\" ");
/// assert_eq!(insertion("src/a.ts", true), "@src/a.ts ");
/// ```
pub fn insertion(path: &str, as_mention: bool) -> String {
    let quote = path.chars().any(char::is_whitespace) && !path.contains('"');
    let at = if as_mention { "@" } else { "" };
    if quote {
        format!("{at}\"{path}\" ")
    } else {
        format!("{at}{path} ")
    }
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
    fn a_path_with_a_quote_is_inserted_bare() {
        assert_eq!(insertion("a \"b\"", false), "a \"b\" ");
    }
}
