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

/// The byte offset of UTF-16 unit `units` (a JS string index): a unit inside a surrogate
/// pair falls back to the start of its character; `None` past the end.
pub(crate) fn byte_offset_of_utf16(text: &str, units: usize) -> Option<usize> {
    let mut seen = 0;
    for (byte, ch) in text.char_indices() {
        seen += ch.len_utf16();
        if seen > units {
            return Some(byte);
        }
    }
    (seen == units).then_some(text.len())
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
    out.reserve(value.len() + 2);
    out.push('"');
    // Runs that need no escape are copied whole: this writes every trace's request text.
    let mut run_start = 0;
    for (at, byte) in value.bytes().enumerate() {
        let escape = match byte {
            b'"' => "\\\"",
            b'\\' => "\\\\",
            b'\n' => "\\n",
            b'\r' => "\\r",
            b'\t' => "\\t",
            0x08 => "\\b",
            0x0c => "\\f",
            0..=0x1f => "",
            _ => continue,
        };
        out.push_str(&value[run_start..at]);
        run_start = at + 1;
        if escape.is_empty() {
            const HEX: &[u8; 16] = b"0123456789abcdef";
            out.push_str("\\u00");
            out.push(char::from(HEX[usize::from(byte >> 4)]));
            out.push(char::from(HEX[usize::from(byte & 0xf)]));
        } else {
            out.push_str(escape);
        }
    }
    out.push_str(&value[run_start..]);
    out.push('"');
}

/// `a.localeCompare(b)` as Node (full ICU, the root collation every locale the originals
/// run under shares for these characters) orders file paths; `Grep` breaks its mtime ties
/// with it.
///
/// Three levels, as ICU's default strength: first the characters' primary weights (case
/// and accents ignored), then their secondary ones (accents), then case (lower before upper). In the
/// root collation spaces come first, then punctuation and symbols in the order of
/// [`SYMBOL_ORDER`], then digits (one by one: `a10` before `a2`), then letters (`a A b B …
/// z Z`). So `a_b < a-b < a.b < a/b < a0 < aa < b < Z`, unlike byte order, where `Z` and
/// `/` come first. The secondary level (accents) never decides here: see the limits.
///
/// Limits of the approximation, none of which a file name of ASCII letters, digits and
/// the usual punctuation meets: control characters other than tab, line feed, vertical tab,
/// form feed and carriage return are ignored, as ICU ignores them; every other non-ASCII
/// character sorts after the ASCII ones by code point, where ICU interleaves accented
/// letters with their base letter (`e < é < f`) and orders scripts by their own tables.
/// Strings equal at all three levels compare equal, as in ICU (no identical level).
pub(crate) fn locale_compare(a: &str, b: &str) -> core::cmp::Ordering {
    fn primary(text: &str) -> impl Iterator<Item = u32> + '_ {
        text.chars().filter_map(collation_weight).map(|(p, _)| p)
    }
    fn tertiary(text: &str) -> impl Iterator<Item = u8> + '_ {
        text.chars().filter_map(collation_weight).map(|(_, t)| t)
    }
    primary(a)
        .cmp(primary(b))
        .then_with(|| tertiary(a).cmp(tertiary(b)))
}

/// The root collation's order of the printable ASCII characters other than letters and
/// digits: space, `_ - , ; : ! ? . ' " ( ) [ ] { } @ * / \ & # %`, the backtick, then
/// `^ + < = > | ~ $`.
const SYMBOL_ORDER: &str = " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$";

/// A character's primary weight and its case (0 lower or caseless, 1 upper); `None` for
/// one the collation ignores.
fn collation_weight(c: char) -> Option<(u32, u8)> {
    const DIGITS: u32 = 0x100;
    const LETTERS: u32 = DIGITS + 10;
    const OTHERS: u32 = LETTERS + 26;
    Some(match c {
        // Tab, line feed, vertical tab, form feed, carriage return: whitespace before
        // the space, in that order.
        '\t'..='\r' => (u32::from(c) - u32::from('\t'), 0),
        c if c.is_ascii_control() => return None,
        '0'..='9' => (DIGITS + u32::from(c) - u32::from('0'), 0),
        'a'..='z' => (LETTERS + u32::from(c) - u32::from('a'), 0),
        'A'..='Z' => (LETTERS + u32::from(c) - u32::from('A'), 1),
        c if c.is_ascii() => {
            let rank = SYMBOL_ORDER.find(c).unwrap_or(SYMBOL_ORDER.len());
            (8 + rank as u32, 0)
        }
        c => (OTHERS + u32::from(c), 0),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_are_written_as_serde_json_writes_them() {
        let every_control: String = (0u8..0x20).map(char::from).collect();
        for value in [
            "",
            "plain",
            "a\"b\\c",
            "é\u{1}中\n",
            "\u{7f}\u{2028}😀",
            &every_control,
        ] {
            let mut out = alloc::string::String::new();
            write_json_string(value, &mut out);
            assert_eq!(out, serde_json::to_string(value).unwrap(), "{value:?}");
        }
    }

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

    #[test]
    fn locale_order_is_icus_for_path_characters() {
        // Node 22: [...].sort((a, b) => a.localeCompare(b)) gives this order.
        let sorted = [
            "/p/_a",
            "/p/-a",
            "/p/.a",
            "/p//a",
            "/p/0a",
            "/p/9a",
            "/p/a b",
            "/p/a_b",
            "/p/a-b",
            "/p/a-ts",
            "/p/a,b",
            "/p/a:b",
            "/p/a.b",
            "/p/a.ts",
            "/p/A.ts",
            "/p/a.ts/x",
            "/p/a(b",
            "/p/a@b",
            "/p/a//b",
            "/p/a/b",
            "/p/a/x.ts",
            "/p/a#b",
            "/p/a+b",
            "/p/a=b",
            "/p/a~b",
            "/p/a0",
            "/p/a1.ts",
            "/p/a10.ts",
            "/p/a2.ts",
            "/p/a9",
            "/p/aa",
            "/p/aA",
            "/p/Aa",
            "/p/ab",
            "/p/b.ts",
            "/p/ea",
            "/p/fa",
            "/p/Z.ts",
        ];
        let mut shuffled = sorted;
        shuffled.reverse();
        shuffled.sort_by(|a, b| locale_compare(a, b));
        assert_eq!(shuffled, sorted);
        let mut ascii: alloc::vec::Vec<char> = (' '..='~').collect();
        ascii.sort_by(|a, b| {
            let (mut x, mut y) = ([0; 4], [0; 4]);
            locale_compare(a.encode_utf8(&mut x), b.encode_utf8(&mut y))
        });
        let ascii: alloc::string::String = ascii.into_iter().collect();
        assert_eq!(
            ascii,
            " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ"
        );
        assert_eq!(locale_compare("a\u{1}", "a"), core::cmp::Ordering::Equal);
        assert_eq!(locale_compare("a\tb", "a b"), core::cmp::Ordering::Less);
    }
}
