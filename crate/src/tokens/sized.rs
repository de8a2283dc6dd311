//! Texts of a measured size: what a client release sends and the library may not copy (its
//! system prompt, its base instructions, its tools' descriptions) is modelled by a stand-in
//! of exactly the original's size by every measure a token counter reads, so that meters,
//! caches, thresholds and costs see the real prefix.
//!
//! ```
//! use context_assembly::tokens::sized::{sized_text, MeasuredText};
//! let measured = MeasuredText { chars: 40, astral: 0, bytes: 42, line_breaks: 2, escaped: 1 };
//! let text = sized_text("Stand-in", measured);
//! assert_eq!(MeasuredText::of(&text), measured);
//! ```

use alloc::string::String;

/// What fills a stand-in after its label, repeated to the measured size.
pub const STAND_IN_FILLER: &str = "placeholder ";

/// The size of a text by every measure a token counter reads: characters, those outside the
/// Basic Multilingual Plane (two UTF-16 units each, so Claude Code's `length / 4` counts them
/// twice), UTF-8 bytes (Codex's 4 bytes per token), line breaks and the characters JSON
/// escapes (quotes and backslashes), which a request's JSON counts twice.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct MeasuredText {
    /// Characters (Unicode scalar values).
    pub chars: u64,
    /// Characters outside the Basic Multilingual Plane.
    pub astral: u64,
    /// UTF-8 bytes.
    pub bytes: u64,
    /// `\n` characters.
    pub line_breaks: u64,
    /// `"` and `\` characters.
    pub escaped: u64,
}

impl MeasuredText {
    /// The measures of `text`.
    pub fn of(text: &str) -> MeasuredText {
        let count = |f: fn(char) -> bool| text.chars().filter(|&c| f(c)).count() as u64;
        MeasuredText {
            chars: count(|_| true),
            astral: count(|c| c.len_utf16() == 2),
            bytes: text.len() as u64,
            line_breaks: count(|c| c == '\n'),
            escaped: count(|c| c == '"' || c == '\\'),
        }
    }
}

/// `label` cut or filled with [`STAND_IN_FILLER`] to `length` ASCII characters.
pub fn filled(label: &str, length: u64) -> String {
    let length = usize::try_from(length).unwrap_or(usize::MAX);
    let label = match label.char_indices().nth(length) {
        Some((cut, _)) => &label[..cut],
        None => label,
    };
    let mut left = length - label.chars().count();
    let mut out = String::with_capacity(label.len() + left.min(1 << 20));
    out.push_str(label);
    if left > 0 {
        out.push(' ');
        left -= 1;
    }
    // The filler is ASCII: whole copies (`repeat` doubles its copies: stand-ins run to tens
    // of kilobytes on every request), then the part of one that fits.
    let copy = STAND_IN_FILLER.len();
    out.push_str(&STAND_IN_FILLER.repeat(left / copy));
    out.push_str(&STAND_IN_FILLER[..left % copy]);
    out
}

/// A text of exactly `measured`'s size: `label` on the first line; the escaped characters
/// and the wide ones on the last (each astral character four bytes, each `—` three, one `é`
/// two); filler in between, spread over the lines. With line breaks, one ends each line.
/// A size too small for the label is filled as far as it goes: the label is cut.
pub fn sized_text(label: &str, measured: MeasuredText) -> String {
    let astral = measured.astral;
    let extra_bytes = (measured.bytes.saturating_sub(measured.chars)).saturating_sub(3 * astral);
    let three_byte = extra_bytes / 2;
    let two_byte = extra_bytes % 2;
    let lines = measured.line_breaks;
    let tail = measured.escaped + astral + three_byte + two_byte;
    let body = measured.chars.saturating_sub(tail + lines);
    let mut out = String::with_capacity(usize::try_from(measured.bytes).unwrap_or(0));
    out.push_str(&filled(label, body.min(label.len() as u64)));
    let filler = body.saturating_sub(label.len() as u64);
    // The filler spread over the lines after the first; the last line break ends the text.
    let middle = lines.saturating_sub(1);
    if middle == 0 {
        out.push_str(&filled("", filler));
    }
    for line in 0..middle {
        let share = filler / middle + u64::from(line < filler % middle);
        out.push('\n');
        out.push_str(&filled("", share));
    }
    let repeat = |c: char, n: u64| core::iter::repeat_n(c, usize::try_from(n).unwrap_or(0));
    out.extend(repeat('"', measured.escaped));
    out.extend(repeat('\u{10000}', astral));
    out.extend(repeat('—', three_byte));
    out.extend(repeat('é', two_byte));
    if lines > 0 {
        out.push('\n');
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_sized_text_has_every_measure_it_was_given() {
        let cases = [
            MeasuredText {
                chars: 12_343,
                astral: 0,
                bytes: 12_377,
                line_breaks: 116,
                escaped: 15,
            },
            MeasuredText {
                chars: 11_631,
                astral: 1,
                bytes: 11_658,
                line_breaks: 0,
                escaped: 298,
            },
            MeasuredText {
                chars: 137,
                astral: 0,
                bytes: 137,
                line_breaks: 1,
                escaped: 0,
            },
            MeasuredText {
                chars: 5_568,
                astral: 0,
                bytes: 5_586,
                line_breaks: 45,
                escaped: 0,
            },
        ];
        for measured in cases {
            let text = sized_text("Stand-in for a release's text", measured);
            assert_eq!(MeasuredText::of(&text), measured);
            assert!(text.starts_with("Stand-in for a release's text"));
        }
    }

    #[test]
    fn a_size_smaller_than_the_label_cuts_the_label() {
        let measured = MeasuredText {
            chars: 5,
            astral: 0,
            bytes: 5,
            line_breaks: 0,
            escaped: 0,
        };
        assert_eq!(sized_text("Stand-in", measured), "Stand");
    }

    #[test]
    fn filled_is_the_label_a_space_and_the_filler_cycled_cut_to_the_length() {
        for label in ["", "Stand-in", "naïve 日本"] {
            for length in 0..40 {
                let expected: String = label
                    .chars()
                    .chain(" ".chars())
                    .chain(STAND_IN_FILLER.chars().cycle())
                    .take(length)
                    .collect();
                assert_eq!(
                    filled(label, length as u64),
                    expected,
                    "{label:?} to {length}"
                );
            }
        }
    }
}
