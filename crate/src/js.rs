//! JavaScript semantics the originals run with, where Rust's differ.

/// JavaScript's `\s` (and the set `String.prototype.trim` removes): unlike Unicode
/// `White_Space` it includes U+FEFF and lacks U+0085 (spec claude-code.md §1.3).
pub(crate) fn is_whitespace(c: char) -> bool {
    if c.is_ascii() {
        return matches!(c, '\t' | '\n' | '\u{b}' | '\u{c}' | '\r' | ' ');
    }
    matches!(
        c,
        '\u{a0}' | '\u{1680}' | '\u{2000}'
            ..='\u{200a}'
                | '\u{2028}'
                | '\u{2029}'
                | '\u{202f}'
                | '\u{205f}'
                | '\u{3000}'
                | '\u{feff}'
    )
}

/// `String.prototype.length`: the length in UTF-16 code units, without decoding. Every byte
/// that starts a character is one unit, and a four-byte character (U+10000 and above) is a
/// surrogate pair, one unit more.
pub(crate) fn utf16_len(text: &str) -> usize {
    text.bytes()
        .map(|b| usize::from(b & 0xC0 != 0x80) + usize::from(b >= 0xF0))
        .sum()
}

/// [`utf16_len`] as a `u64`, for the counts kept in tokens and characters.
pub(crate) fn utf16_units(text: &str) -> u64 {
    utf16_len(text) as u64
}

/// `String.prototype.trim`.
pub(crate) fn trim(text: &str) -> &str {
    text.trim_matches(is_whitespace)
}

/// Appends `value` as a JSON string literal, as `JSON.stringify` and serde_json write it:
/// the two-character escapes where JSON has them, `\u00xx` (lower-case hex) for the other
/// control characters, nothing else escaped.
pub(crate) fn write_json_string(value: &str, out: &mut alloc::string::String) {
    out.push('"');
    for c in value.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\r' => out.push_str("\\r"),
            '\t' => out.push_str("\\t"),
            '\u{8}' => out.push_str("\\b"),
            '\u{c}' => out.push_str("\\f"),
            c if c < ' ' => {
                const HEX: &[u8; 16] = b"0123456789abcdef";
                let code = u32::from(c) as usize;
                out.push_str("\\u00");
                out.push(char::from(HEX[code >> 4]));
                out.push(char::from(HEX[code & 0xf]));
            }
            c => out.push(c),
        }
    }
    out.push('"');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf16_len_counts_surrogate_pairs() {
        assert_eq!(utf16_len(""), 0);
        assert_eq!(utf16_len("aé中"), 3);
        assert_eq!(utf16_len("😀"), 2);
        let text = "a😀é中\u{10FFFF}";
        assert_eq!(utf16_len(text), text.encode_utf16().count());
    }

    #[test]
    fn differs_from_rust_on_bom_and_nel() {
        assert!(is_whitespace('\u{feff}') && !'\u{feff}'.is_whitespace());
        assert!(!is_whitespace('\u{85}') && '\u{85}'.is_whitespace());
        assert_eq!(trim("\u{feff} a\u{3000}"), "a");
    }
}
