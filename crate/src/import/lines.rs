//! Cutting a byte stream into lines: a chunk may end anywhere, inside a line or inside a
//! UTF-8 character, so the unfinished line waits for the next chunk.
//!
//! What one line may cost is bounded: a line longer than [`MAX_LINE_BYTES`] is never held
//! whole (once it passes the limit its bytes are dropped as they come, up to its newline),
//! and a long line whose JSON would parse into more than [`MAX_LINE_VALUES`] values is not
//! parsed. Either is refused with its [`Outline`]: its length, and its top-level fields whose
//! values are short (a Claude Code record's `uuid` and `parentUuid`), so that the record can
//! still hold its place in the session.

use alloc::string::String;
use alloc::vec::Vec;

use crate::scenario::parse::{parse_json, Json};
use crate::scenario::MAX_STRING_BYTES;

/// The longest line read, in bytes (32 MiB): four times the scenario format's longest string
/// ([`MAX_STRING_BYTES`], 8 MiB). The largest record the scenario can keep carries a file at
/// that limit twice (a Write's content and the original it replaced, or an Edit's original
/// and its result), escaped as JSON; a longer line holds more than one scenario keeps of a
/// record, most often a pasted image or a PDF, which the import leaves out anyway. Lines the
/// real clients wrote during the conformance lab are far below it (see the README).
pub const MAX_LINE_BYTES: usize = 4 * MAX_STRING_BYTES;

/// The most JSON values a line may hold, counted by the characters that open them (`[`, `{`,
/// `,`, `:`), for a line longer than [`LONG_LINE_BYTES`]: as many as the densest line of
/// that length can hold (`[0,0,…]`), so no line parses into a larger tree than a 1 MiB line
/// can, whatever its shape. Real lines are long because of long strings: a 32 MiB line at
/// this limit averages 64 bytes a value.
pub const MAX_LINE_VALUES: u64 = 1 << 19;

/// A line is long past this length: its values are counted before it is parsed (a shorter
/// one, at two bytes a value, holds at most [`MAX_LINE_VALUES`]), and its buffer takes the
/// whole [`MAX_LINE_BYTES`] at once, so growing it never leaves copies of it behind (wasm
/// memory does not shrink: each doubling would keep the smaller buffers' pages).
const LONG_LINE_BYTES: usize = 1 << 20;

/// A top-level field's value longer than this (in bytes, as written) is outlined as `null`.
const MAX_OUTLINED_VALUE_BYTES: usize = 4 << 10;

/// The most top-level fields an outline keeps.
const MAX_OUTLINED_FIELDS: usize = 64;

/// A line as the splitter hands it over.
#[derive(Debug)]
pub(super) enum Line {
    /// A line to parse (without its `\n` or `\r\n`).
    Text(String),
    /// A line past the limits: never held whole, not parsed.
    Refused(Refused),
}

/// A line refused for its size.
#[derive(Debug)]
pub(super) struct Refused {
    /// Its length in bytes (without the newline).
    pub(super) bytes: u64,
    /// Its values, when it is refused for holding too many ([`MAX_LINE_VALUES`]) rather
    /// than for its length.
    pub(super) values: Option<u64>,
    /// Its top-level fields with short values (an object, maybe empty).
    pub(super) outline: Json,
}

/// The bytes of the line not yet ended, and how many bytes went by.
#[derive(Debug, Default)]
pub(super) struct LineSplitter {
    pending: Vec<u8>,
    /// The line being skipped, once it passed [`MAX_LINE_BYTES`].
    skipping: Option<Skipped>,
    bytes: u64,
}

#[derive(Debug)]
struct Skipped {
    bytes: u64,
    outline: Outline,
}

impl LineSplitter {
    /// Reads `chunk`; every line it completes goes to `emit`.
    pub(super) fn push(&mut self, chunk: &[u8], emit: &mut dyn FnMut(Line)) {
        self.count_bytes(chunk.len());
        let mut rest = chunk;
        loop {
            let newline = memchr::memchr(b'\n', rest);
            let part = &rest[..newline.unwrap_or(rest.len())];
            if let Some(skipped) = &mut self.skipping {
                skipped.bytes += part.len() as u64;
                skipped.outline.feed(part);
            } else if self.pending.len() + part.len() > MAX_LINE_BYTES {
                let mut outline = Outline::default();
                outline.feed(&self.pending);
                outline.feed(part);
                self.skipping = Some(Skipped {
                    bytes: (self.pending.len() + part.len()) as u64,
                    outline,
                });
                // Give the memory back now: the line may go on for gigabytes.
                self.pending = Vec::new();
            } else if newline.is_some() && self.pending.is_empty() {
                emit(line_of(part));
            } else {
                self.hold(part);
            }
            let Some(end) = newline else { break };
            if let Some(skipped) = self.skipping.take() {
                emit(skipped.refused());
            } else if !self.pending.is_empty() {
                emit(line_of_owned(core::mem::take(&mut self.pending)));
            }
            rest = &rest[end + 1..];
        }
    }

    /// Reads one whole line given as text.
    pub(super) fn push_line(&mut self, line: &str, emit: &mut dyn FnMut(Line)) {
        self.count_bytes(line.len() + 1);
        if line.len() > MAX_LINE_BYTES {
            let mut outline = Outline::default();
            outline.feed(line.as_bytes());
            emit(Line::Refused(Refused {
                bytes: line.len() as u64,
                values: None,
                outline: outline.fields(),
            }));
        } else {
            emit(line_of(line.as_bytes()));
        }
    }

    /// Counts bytes read around the splitter.
    fn count_bytes(&mut self, count: usize) {
        self.bytes = self.bytes.saturating_add(count as u64);
    }

    /// Bytes consumed so far.
    pub(super) fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The last line, when the stream did not end with a newline.
    pub(super) fn take_rest(&mut self) -> Option<Line> {
        if let Some(skipped) = self.skipping.take() {
            return Some(skipped.refused());
        }
        if self.pending.is_empty() {
            return None;
        }
        Some(line_of_owned(core::mem::take(&mut self.pending)))
    }

    /// Appends to the unfinished line, its buffer never larger than [`MAX_LINE_BYTES`].
    fn hold(&mut self, part: &[u8]) {
        let needed = self.pending.len() + part.len();
        if needed > self.pending.capacity() {
            let grown = if needed > LONG_LINE_BYTES {
                MAX_LINE_BYTES
            } else {
                needed.max(2 * self.pending.capacity())
            };
            self.pending.reserve_exact(grown - self.pending.len());
        }
        self.pending.extend_from_slice(part);
    }
}

impl Skipped {
    fn refused(self) -> Line {
        Line::Refused(Refused {
            bytes: self.bytes,
            values: None,
            outline: self.outline.fields(),
        })
    }
}

/// A complete line held in the chunk: refused when it holds too many values.
fn line_of(bytes: &[u8]) -> Line {
    match too_many_values(bytes) {
        Some(refused) => Line::Refused(refused),
        None => Line::Text(text_of(bytes)),
    }
}

/// [`line_of`] for a line gathered across chunks: its buffer becomes the text.
fn line_of_owned(mut bytes: Vec<u8>) -> Line {
    if let Some(refused) = too_many_values(&bytes) {
        return Line::Refused(refused);
    }
    if bytes.last() == Some(&b'\r') {
        bytes.pop();
    }
    Line::Text(
        String::from_utf8(bytes)
            .unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned()),
    )
}

fn too_many_values(bytes: &[u8]) -> Option<Refused> {
    if bytes.len() <= LONG_LINE_BYTES {
        return None;
    }
    let mut outline = Outline::default();
    outline.feed(bytes);
    (outline.values > MAX_LINE_VALUES).then(|| Refused {
        bytes: bytes.len() as u64,
        values: Some(outline.values),
        outline: outline.fields(),
    })
}

/// A line's text; a `\r` before the newline is dropped, invalid UTF-8 becomes U+FFFD (the
/// JSON reader then sees the rest of the line as it was).
fn text_of(line: &[u8]) -> String {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    String::from_utf8_lossy(line).into_owned()
}

/// What is learnt of a JSON line as its bytes go by, without holding them: how many values
/// it opens, and its top-level fields whose values are short. A compound or long value is
/// outlined as `null`, so the field's presence is kept.
#[derive(Debug, Default)]
struct Outline {
    values: u64,
    depth: u32,
    in_string: bool,
    escaped: bool,
    /// The top-level object has begun.
    opened: bool,
    /// At the top level, the next string is a value (after `:`), not a key.
    at_value: bool,
    /// The key or value being read at the top level, as written.
    capture: Option<Capture>,
    key: Option<String>,
    fields: Vec<(String, Json)>,
}

#[derive(Debug)]
struct Capture {
    text: Vec<u8>,
    kind: Captured,
    too_long: bool,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Captured {
    Key,
    Text,
    Scalar,
}

impl Outline {
    fn feed(&mut self, bytes: &[u8]) {
        let mut at = 0;
        while let Some(&byte) = bytes.get(at) {
            at += 1;
            if self.in_string {
                // The inside of a string not kept is skipped up to its next quote or escape.
                if !self.escaped && self.capture.is_none() {
                    let rest = &bytes[at - 1..];
                    let next = memchr::memchr2(b'"', b'\\', rest).unwrap_or(rest.len());
                    at += next;
                    match rest.get(next) {
                        Some(&special) => self.string_byte(special),
                        None => break,
                    }
                    continue;
                }
                self.string_byte(byte);
                continue;
            }
            match byte {
                b'"' => {
                    self.in_string = true;
                    if self.at_top() {
                        let kind = if self.at_value {
                            Captured::Text
                        } else {
                            Captured::Key
                        };
                        self.start_capture(kind);
                    }
                }
                b'{' | b'[' => {
                    self.values += 1;
                    if self.depth == 0 && byte == b'{' && !self.opened {
                        self.opened = true;
                    } else if self.at_top() && self.at_value {
                        self.end_value(None);
                    }
                    self.depth = self.depth.saturating_add(1);
                }
                b'}' | b']' => {
                    self.end_scalar();
                    self.depth = self.depth.saturating_sub(1);
                }
                b':' | b',' => {
                    self.values += 1;
                    self.end_scalar();
                    if self.at_top() {
                        self.at_value = byte == b':';
                    }
                }
                b' ' | b'\t' | b'\r' | b'\n' => self.end_scalar(),
                _ if self.at_top() && self.at_value => {
                    if self.capture.is_none() {
                        self.start_capture(Captured::Scalar);
                    }
                    self.capture_byte(byte);
                }
                _ => {}
            }
        }
    }

    /// Inside the top-level object, outside any value nested in it.
    fn at_top(&self) -> bool {
        self.opened && self.depth == 1
    }

    fn string_byte(&mut self, byte: u8) {
        if self.escaped {
            self.escaped = false;
        } else if byte == b'\\' {
            self.escaped = true;
        } else if byte == b'"' {
            self.in_string = false;
            let Some(capture) = self.capture.take() else {
                return;
            };
            let text = decoded(&capture);
            match capture.kind {
                Captured::Key => self.key = text.as_ref().and_then(Json::as_str).map(String::from),
                _ => self.end_value(text),
            }
            return;
        }
        self.capture_byte(byte);
    }

    fn start_capture(&mut self, kind: Captured) {
        self.capture = Some(Capture {
            text: Vec::new(),
            kind,
            too_long: false,
        });
    }

    fn capture_byte(&mut self, byte: u8) {
        if let Some(capture) = &mut self.capture {
            if capture.text.len() < MAX_OUTLINED_VALUE_BYTES {
                capture.text.push(byte);
            } else {
                capture.too_long = true;
            }
        }
    }

    fn end_scalar(&mut self) {
        if self
            .capture
            .as_ref()
            .is_some_and(|capture| capture.kind == Captured::Scalar)
        {
            if let Some(capture) = self.capture.take() {
                let value = decoded(&capture);
                self.end_value(value);
            }
        }
    }

    /// The current key's value is read: kept when it was short, `null` otherwise.
    fn end_value(&mut self, value: Option<Json>) {
        let Some(key) = self.key.take() else { return };
        if self.fields.len() < MAX_OUTLINED_FIELDS {
            self.fields.push((key, value.unwrap_or(Json::Null)));
        }
    }

    fn fields(self) -> Json {
        Json::Object(self.fields)
    }
}

/// A captured key or value as JSON; `None` when it was cut or does not parse.
fn decoded(capture: &Capture) -> Option<Json> {
    if capture.too_long {
        return None;
    }
    let text = core::str::from_utf8(&capture.text).ok()?;
    match capture.kind {
        Captured::Scalar => parse_json(text).ok(),
        Captured::Key | Captured::Text => parse_json(&alloc::format!("\"{text}\"")).ok(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(splitter: &mut LineSplitter, chunks: &[&[u8]]) -> Vec<Line> {
        let mut out = Vec::new();
        for chunk in chunks {
            splitter.push(chunk, &mut |line| out.push(line));
        }
        out.extend(splitter.take_rest());
        out
    }

    fn texts(lines: &[Line]) -> Vec<&str> {
        lines
            .iter()
            .map(|line| match line {
                Line::Text(text) => text.as_str(),
                Line::Refused(_) => "(refused)",
            })
            .collect()
    }

    #[test]
    fn lines_cut_anywhere_come_out_whole() {
        let text = "{\"a\":\"é\"}\r\n{\"b\":2}\n{\"c\"";
        let mut splitter = LineSplitter::default();
        let chunks: Vec<&[u8]> = text.as_bytes().chunks(3).collect();
        let out = lines(&mut splitter, &chunks);
        assert_eq!(texts(&out), ["{\"a\":\"é\"}", "{\"b\":2}", "{\"c\""]);
        assert_eq!(splitter.bytes(), text.len() as u64);
    }

    #[test]
    fn a_line_past_the_limit_is_outlined_not_held() {
        let head = br#"{"type":"user","uuid":"u\"2","message":{"content":""#;
        let filler = vec![b'x'; 1 << 20];
        let tail = br#""},"n":-1.5,"ok":true,"long":[1,2]}"#;
        let mut splitter = LineSplitter::default();
        let mut out = Vec::new();
        splitter.push(head, &mut |line| out.push(line));
        let mut length = head.len();
        while length <= MAX_LINE_BYTES {
            splitter.push(&filler, &mut |line| out.push(line));
            length += filler.len();
            assert!(splitter.pending.capacity() <= MAX_LINE_BYTES);
        }
        assert_eq!(
            splitter.pending.capacity(),
            0,
            "the held part is given back"
        );
        splitter.push(tail, &mut |line| out.push(line));
        splitter.push(b"\n{}\n", &mut |line| out.push(line));
        assert_eq!(texts(&out), ["(refused)", "{}"]);
        let Line::Refused(refused) = &out[0] else {
            unreachable!()
        };
        assert_eq!(refused.bytes, (length + tail.len()) as u64);
        assert_eq!(refused.values, None);
        assert_eq!(
            refused.outline.to_compact(),
            r#"{"type":"user","uuid":"u\"2","message":null,"n":-1.5,"ok":true,"long":null}"#
        );
    }

    #[test]
    fn a_long_line_of_tiny_values_is_refused_and_a_long_text_is_not() {
        let mut dense = String::from("{\"a\":[");
        while dense.len() <= LONG_LINE_BYTES + 16 {
            dense.push_str("0,");
        }
        dense.push_str("0]}\n");
        let text = alloc::format!("{{\"a\":\"{}\"}}\n", "x,".repeat(LONG_LINE_BYTES));
        let mut splitter = LineSplitter::default();
        let out = lines(&mut splitter, &[dense.as_bytes(), text.as_bytes()]);
        let Line::Refused(refused) = &out[0] else {
            panic!("the dense line is refused")
        };
        assert!(refused
            .values
            .is_some_and(|values| values > MAX_LINE_VALUES));
        assert!(
            matches!(&out[1], Line::Text(_)),
            "commas in a string are text"
        );
    }
}
