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
    fn differs_from_rust_on_bom_and_nel() {
        assert!(is_whitespace('\u{feff}') && !'\u{feff}'.is_whitespace());
        assert!(!is_whitespace('\u{85}') && '\u{85}'.is_whitespace());
        assert_eq!(trim("\u{feff} a\u{3000}"), "a");
    }
}
