//! Just enough JSON to read a call's top-level fields and a schema's arrays, without
//! recursion (the summary's reader is private to it and recursive).

use alloc::string::String;
use alloc::vec::Vec;

/// A value as the readers give it: a string decoded, anything else as written.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) enum Value {
    /// A string literal, decoded.
    Text(String),
    /// A number, literal, array or object, as written.
    Raw(String),
}

impl Value {
    fn into_text(self) -> String {
        match self {
            Value::Text(text) | Value::Raw(text) => text,
        }
    }
}

/// The fields of a top-level object: a string value decoded, any other value as its raw
/// text. `None` when the input is not one object.
pub(super) fn top_level(input: &str) -> Option<Vec<(String, String)>> {
    let fields = top_level_values(input)?;
    Some(
        fields
            .into_iter()
            .map(|(k, v)| (k, v.into_text()))
            .collect(),
    )
}

/// The fields of a top-level object, each value told apart as a string or not. `None` when
/// the input is not one object.
pub(super) fn top_level_values(input: &str) -> Option<Vec<(String, Value)>> {
    let mut scanner = Scanner { input, at: 0 };
    scanner.skip_whitespace();
    scanner.expect(b'{')?;
    let mut fields = Vec::new();
    scanner.skip_whitespace();
    if scanner.peek() == Some(b'}') {
        scanner.at += 1;
    } else {
        loop {
            scanner.skip_whitespace();
            let key = scanner.string()?;
            scanner.skip_whitespace();
            scanner.expect(b':')?;
            scanner.skip_whitespace();
            let value = scanner.value()?;
            fields.push((key, value));
            scanner.skip_whitespace();
            match scanner.bump()? {
                b',' => continue,
                b'}' => break,
                _ => return None,
            }
        }
    }
    scanner.skip_whitespace();
    (scanner.at == input.len()).then_some(fields)
}

/// The items of a top-level array, each a string or not. `None` when the input is not one
/// array.
pub(super) fn array_items(input: &str) -> Option<Vec<Value>> {
    let mut scanner = Scanner { input, at: 0 };
    scanner.skip_whitespace();
    scanner.expect(b'[')?;
    let mut items = Vec::new();
    scanner.skip_whitespace();
    if scanner.peek() == Some(b']') {
        scanner.at += 1;
    } else {
        loop {
            scanner.skip_whitespace();
            items.push(scanner.value()?);
            scanner.skip_whitespace();
            match scanner.bump()? {
                b',' => continue,
                b']' => break,
                _ => return None,
            }
        }
    }
    scanner.skip_whitespace();
    (scanner.at == input.len()).then_some(items)
}

struct Scanner<'a> {
    input: &'a str,
    at: usize,
}

impl<'a> Scanner<'a> {
    fn peek(&self) -> Option<u8> {
        self.input.as_bytes().get(self.at).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    fn expect(&mut self, byte: u8) -> Option<()> {
        (self.bump()? == byte).then_some(())
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    /// The value that starts here: a string decoded, anything else as written.
    fn value(&mut self) -> Option<Value> {
        match self.peek()? {
            b'"' => self.string().map(Value::Text),
            _ => self.raw_value().map(|raw| Value::Raw(String::from(raw))),
        }
    }

    /// A string literal, decoded; lone surrogates make it unreadable.
    fn string(&mut self) -> Option<String> {
        self.expect(b'"')?;
        let mut out = String::new();
        let mut run = self.at;
        loop {
            match self.peek()? {
                b'"' => {
                    out.push_str(self.input.get(run..self.at)?);
                    self.at += 1;
                    return Some(out);
                }
                b'\\' => {
                    out.push_str(self.input.get(run..self.at)?);
                    self.at += 1;
                    out.push(self.escape()?);
                    run = self.at;
                }
                _ => self.at += 1,
            }
        }
    }

    fn escape(&mut self) -> Option<char> {
        Some(match self.bump()? {
            b'"' => '"',
            b'\\' => '\\',
            b'/' => '/',
            b'b' => '\u{8}',
            b'f' => '\u{c}',
            b'n' => '\n',
            b'r' => '\r',
            b't' => '\t',
            b'u' => {
                let high = self.hex4()?;
                if (0xD800..0xDC00).contains(&high) {
                    self.expect(b'\\')?;
                    self.expect(b'u')?;
                    let low = self.hex4()?;
                    if !(0xDC00..0xE000).contains(&low) {
                        return None;
                    }
                    char::from_u32(0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00))?
                } else {
                    char::from_u32(high)?
                }
            }
            _ => return None,
        })
    }

    fn hex4(&mut self) -> Option<u32> {
        let digits = self.input.get(self.at..self.at.checked_add(4)?)?;
        self.at += 4;
        u32::from_str_radix(digits, 16).ok()
    }

    /// A number, literal, array or object, as written: up to the `,` or `}` that ends it.
    fn raw_value(&mut self) -> Option<&'a str> {
        let start = self.at;
        let mut depth = 0usize;
        let mut in_string = false;
        let mut escaped = false;
        while let Some(byte) = self.peek() {
            if in_string {
                match byte {
                    _ if escaped => escaped = false,
                    b'\\' => escaped = true,
                    b'"' => in_string = false,
                    _ => {}
                }
            } else {
                match byte {
                    b'"' => in_string = true,
                    b'{' | b'[' => depth += 1,
                    b',' | b'}' | b']' if depth == 0 => break,
                    b'}' | b']' => depth -= 1,
                    _ => {}
                }
            }
            self.at += 1;
        }
        let raw = self.input.get(start..self.at)?.trim_end();
        (!raw.is_empty()).then_some(raw)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_decode_strings_and_keep_other_values_raw() {
        let fields = top_level(
            r#" {"file_path":"/a \"b\"\\c\u00e9\ud83d\ude00","offset":10,"x":{"y":[1,"}"]}} "#,
        );
        let expected = alloc::vec![
            ("file_path".into(), "/a \"b\"\\c\u{e9}\u{1f600}".into()),
            ("offset".into(), "10".into()),
            ("x".into(), r#"{"y":[1,"}"]}"#.into()),
        ];
        assert_eq!(fields, Some(expected));
        assert_eq!(top_level("{}"), Some(Vec::new()));
        assert_eq!(
            top_level_values(r#"{"a":"1","b":1}"#),
            Some(alloc::vec![
                ("a".into(), Value::Text("1".into())),
                ("b".into(), Value::Raw("1".into())),
            ])
        );
        for bad in [
            "",
            "[]",
            "{\"a\":1",
            "{\"a\":}",
            "{\"a\":\"\\ud800\"}",
            "{\"a\":1}x",
        ] {
            assert_eq!(top_level(bad), None, "{bad}");
        }
    }

    #[test]
    fn array_items_tell_strings_from_other_values() {
        let items = array_items(r#" ["a\"b", 2, {"c":[","]}, null] "#);
        let expected = alloc::vec![
            Value::Text("a\"b".into()),
            Value::Raw("2".into()),
            Value::Raw(r#"{"c":[","]}"#.into()),
            Value::Raw("null".into()),
        ];
        assert_eq!(items, Some(expected));
        assert_eq!(array_items("[]"), Some(Vec::new()));
        for bad in ["", "{}", "[1", "[1,]", "[1] x"] {
            assert_eq!(array_items(bad), None, "{bad}");
        }
    }
}
