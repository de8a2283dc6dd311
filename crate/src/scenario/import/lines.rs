//! Cutting a byte stream into lines: a chunk may end anywhere, inside a line or inside a
//! UTF-8 character, so the unfinished line waits for the next chunk.

use alloc::string::String;
use alloc::vec::Vec;

/// The bytes of the line not yet ended, and how many bytes went by.
#[derive(Debug, Default)]
pub(super) struct LineSplitter {
    pending: Vec<u8>,
    bytes: u64,
}

impl LineSplitter {
    /// Appends `chunk`; every line it completes goes to `out` (without its `\n` or `\r\n`).
    pub(super) fn push(&mut self, chunk: &[u8], out: &mut Vec<String>) {
        self.count_bytes(chunk.len());
        let mut rest = chunk;
        while let Some(end) = memchr::memchr(b'\n', rest) {
            let (line, after) = rest.split_at(end);
            if self.pending.is_empty() {
                out.push(text_of(line));
            } else {
                self.pending.extend_from_slice(line);
                out.push(text_of(&core::mem::take(&mut self.pending)));
            }
            rest = &after[1..];
        }
        self.pending.extend_from_slice(rest);
    }

    /// Counts bytes read around the splitter (whole lines given as text).
    pub(super) fn count_bytes(&mut self, count: usize) {
        self.bytes = self.bytes.saturating_add(count as u64);
    }

    /// Bytes consumed so far.
    pub(super) fn bytes(&self) -> u64 {
        self.bytes
    }

    /// The last line, when the stream did not end with a newline.
    pub(super) fn take_rest(&mut self) -> Option<String> {
        if self.pending.is_empty() {
            return None;
        }
        Some(text_of(&core::mem::take(&mut self.pending)))
    }
}

/// A line's text; a `\r` before the newline is dropped, invalid UTF-8 becomes U+FFFD (the
/// JSON reader then sees the rest of the line as it was).
fn text_of(line: &[u8]) -> String {
    let line = line.strip_suffix(b"\r").unwrap_or(line);
    String::from_utf8_lossy(line).into_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_cut_anywhere_come_out_whole() {
        let text = "{\"a\":\"é\"}\r\n{\"b\":2}\n{\"c\"";
        let mut splitter = LineSplitter::default();
        let mut out = Vec::new();
        for chunk in text.as_bytes().chunks(3) {
            splitter.push(chunk, &mut out);
        }
        assert_eq!(out, ["{\"a\":\"é\"}", "{\"b\":2}"]);
        assert_eq!(splitter.take_rest().as_deref(), Some("{\"c\""));
        assert_eq!(splitter.bytes(), text.len() as u64);
    }
}
