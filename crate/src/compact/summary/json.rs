//! Just enough JSON to read a tool call's input: the string fields of the top-level object
//! and the objects of one array (`todos`). Invalid input reads as nothing; nesting is capped
//! so a hostile input cannot exhaust the stack.

use alloc::string::String;
use alloc::vec::Vec;

/// Deeper values are rejected (tool inputs are a few levels deep).
const MAX_DEPTH: usize = 16;

/// A parsed JSON value; numbers, booleans and null are kept only as "something else".
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Value {
    Str(String),
    Array(Vec<Value>),
    Object(Vec<(String, Value)>),
    Other,
}

impl Value {
    /// The value of `key` in an object (the last one wins, as in `JSON.parse`).
    pub(crate) fn get(&self, key: &str) -> Option<&Value> {
        match self {
            Value::Object(fields) => fields.iter().rev().find(|(k, _)| k == key).map(|(_, v)| v),
            _ => None,
        }
    }

    /// The string this value is, if it is one.
    pub(crate) fn as_str(&self) -> Option<&str> {
        match self {
            Value::Str(s) => Some(s),
            _ => None,
        }
    }
}

/// Parses a whole JSON document.
pub(crate) fn parse(text: &str) -> Option<Value> {
    let mut parser = Parser {
        bytes: text.as_bytes(),
        at: 0,
    };
    let value = parser.value(0)?;
    parser.skip_whitespace();
    (parser.at == parser.bytes.len()).then_some(value)
}

struct Parser<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Parser<'_> {
    fn peek(&self) -> Option<u8> {
        self.bytes.get(self.at).copied()
    }

    fn bump(&mut self) -> Option<u8> {
        let byte = self.peek()?;
        self.at += 1;
        Some(byte)
    }

    fn skip_whitespace(&mut self) {
        while matches!(self.peek(), Some(b' ' | b'\t' | b'\n' | b'\r')) {
            self.at += 1;
        }
    }

    fn eat(&mut self, byte: u8) -> bool {
        self.skip_whitespace();
        let found = self.peek() == Some(byte);
        if found {
            self.at += 1;
        }
        found
    }

    fn value(&mut self, depth: usize) -> Option<Value> {
        if depth > MAX_DEPTH {
            return None;
        }
        self.skip_whitespace();
        match self.peek()? {
            b'"' => self.string().map(Value::Str),
            b'[' => self.array(depth),
            b'{' => self.object(depth),
            _ => self.scalar(),
        }
    }

    fn array(&mut self, depth: usize) -> Option<Value> {
        self.at += 1;
        let mut items = Vec::new();
        if self.eat(b']') {
            return Some(Value::Array(items));
        }
        loop {
            items.push(self.value(depth + 1)?);
            if self.eat(b']') {
                return Some(Value::Array(items));
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    fn object(&mut self, depth: usize) -> Option<Value> {
        self.at += 1;
        let mut fields = Vec::new();
        if self.eat(b'}') {
            return Some(Value::Object(fields));
        }
        loop {
            self.skip_whitespace();
            if self.peek() != Some(b'"') {
                return None;
            }
            let key = self.string()?;
            if !self.eat(b':') {
                return None;
            }
            fields.push((key, self.value(depth + 1)?));
            if self.eat(b'}') {
                return Some(Value::Object(fields));
            }
            if !self.eat(b',') {
                return None;
            }
        }
    }

    /// Numbers, `true`, `false`, `null`: checked loosely (their value is never read).
    fn scalar(&mut self) -> Option<Value> {
        let start = self.at;
        while matches!(
            self.peek(),
            Some(b'a'..=b'z' | b'0'..=b'9' | b'-' | b'+' | b'.' | b'E')
        ) {
            self.at += 1;
        }
        let word = self.bytes.get(start..self.at)?;
        let numeric = word
            .first()
            .is_some_and(|b| b.is_ascii_digit() || *b == b'-');
        (numeric || matches!(word, b"true" | b"false" | b"null")).then_some(Value::Other)
    }

    fn string(&mut self) -> Option<String> {
        self.at += 1;
        let mut out = Vec::new();
        loop {
            match self.bump()? {
                b'"' => return String::from_utf8(out).ok(),
                b'\\' => self.escape(&mut out)?,
                byte if byte < 0x20 => return None,
                byte => out.push(byte),
            }
        }
    }

    fn escape(&mut self, out: &mut Vec<u8>) -> Option<()> {
        let simple = match self.bump()? {
            b'"' => b'"',
            b'\\' => b'\\',
            b'/' => b'/',
            b'b' => 0x08,
            b'f' => 0x0c,
            b'n' => b'\n',
            b'r' => b'\r',
            b't' => b'\t',
            b'u' => {
                let c = self.unicode_escape()?;
                let mut buf = [0u8; 4];
                out.extend_from_slice(c.encode_utf8(&mut buf).as_bytes());
                return Some(());
            }
            _ => return None,
        };
        out.push(simple);
        Some(())
    }

    /// `\uXXXX`, pairing surrogates; a lone surrogate becomes U+FFFD.
    fn unicode_escape(&mut self) -> Option<char> {
        let first = self.hex4()?;
        if !(0xd800..0xdc00).contains(&first) {
            return Some(char::from_u32(first).unwrap_or('\u{fffd}'));
        }
        let rest = self.bytes.get(self.at..)?;
        if rest.starts_with(b"\\u") {
            let saved = self.at;
            self.at += 2;
            let second = self.hex4()?;
            if (0xdc00..0xe000).contains(&second) {
                let code = 0x10000 + ((first - 0xd800) << 10) + (second - 0xdc00);
                return Some(char::from_u32(code).unwrap_or('\u{fffd}'));
            }
            self.at = saved;
        }
        Some('\u{fffd}')
    }

    fn hex4(&mut self) -> Option<u32> {
        let mut code = 0;
        for _ in 0..4 {
            let digit = char::from(self.bump()?).to_digit(16)?;
            code = code * 16 + digit;
        }
        Some(code)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_strings_with_escapes() {
        let value = parse(r#"{"file_path":"/a \"b\"\\c\u00e9\ud83d\ude00","n":1.5e3,"x":null}"#);
        let path = value
            .as_ref()
            .and_then(|v| v.get("file_path"))
            .and_then(Value::as_str);
        assert_eq!(path, Some("/a \"b\"\\cé😀"));
    }

    #[test]
    fn rejects_broken_and_deep_input() {
        for bad in ["", "{", r#"{"a":}"#, r#"{"a":"x"} z"#, "\"\u{1}\"", "nope"] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
        let deep = "[".repeat(100) + &"]".repeat(100);
        assert_eq!(parse(&deep), None);
        assert!(parse(&("[".repeat(10) + &"]".repeat(10))).is_some());
    }

    #[test]
    fn reads_arrays_of_objects() {
        let value = parse(r#" { "todos" : [ {"content":"a","status":"pending"} , {} ] } "#);
        match value.as_ref().and_then(|v| v.get("todos")) {
            Some(Value::Array(items)) => assert_eq!(items.len(), 2),
            other => panic!("{other:?}"),
        }
    }
}
