//! The calibrated estimator: a content-aware approximation of o200k_base token counts.
//!
//! One pass over the characters; each character adds a non-negative cost in milli-tokens that
//! depends only on the characters before it (its class, the class of the previous character and
//! the length of the current run). The estimate is the sum rounded up once at the end, capped at
//! the text's UTF-8 length: both are monotone under appending, so their minimum is too.
//!
//! Whitespace runs follow the tokenizer's merges: its pre-split takes a run of blanks, or a
//! whitespace run up to its last line break, as one piece, and its vocabulary holds a token for
//! up to 16 line feeds, 4 CRLFs, 20 tabs and 79 to 128 spaces. A run's first characters are
//! charged by fitted constants like any other text; past that, one token each time the run
//! outgrows a merge (`WHITESPACE_GROUP`, measured with `node tests/tokens/whitespace.mjs`).
//!
//! IMPORTANT: `tests/tokens/features.mjs` mirrors `Class`, `classify` and `Scan::push` line for
//! line, and `tests/tokens/cases.mjs` reads the constants below from this file. Change them
//! together, then rerun `node tests/tokens/fit.mjs` and `node tests/tokens/cases.mjs`.

// Milli-tokens per feature. Produced by `node tests/tokens/fit.mjs`: non-negative least squares
// on relative error against o200k_base (gpt-tokenizer 4.0.0) over the train half of
// tests/fixtures/token-corpus, every class weighted equally.
const WORD_START: u64 = 274;
const WORD_AFTER_DIGIT: u64 = 2548;
const CAMEL: u64 = 353;
const LETTER_SHORT: u64 = 0;
const LETTER_MID: u64 = 281;
const LETTER_LONG: u64 = 0;
const UPPER_RUN: u64 = 0;
const LATIN_ACCENTED: u64 = 422;
const OTHER_LETTER: u64 = 57;
const DIGIT_GROUP: u64 = 307;
const PUNCT_START: u64 = 1026;
const PUNCT_RUN: u64 = 227;
const PUNCT_LONG: u64 = 218;
const BLANK: u64 = 503;
const BLANK_RUN: u64 = 172;
const NEWLINE: u64 = 834;
const NEWLINE_AFTER_PUNCT: u64 = 0;
const HAN: u64 = 794;
const KANA: u64 = 627;
const HANGUL: u64 = 573;
// Not fitted: too rare in the corpus to fit, and a fitted zero would under-count. o200k_base
// spends one to three tokens on an emoji or a rare symbol and one on common ones (dashes, curly
// quotes); a letter run past 16 letters is a blob, not a word (random letters cost about two per
// token, a repeated letter eight); a whitespace run costs one more token each time it outgrows
// one of the tokenizer's merges; CJK punctuation alone costs 0.5 to 0.8 tokens a character
// (fitted, it came out 0, as Han text around it absorbs it).
const CJK_PUNCT: u64 = 600;
const SYMBOL: u64 = 1000;
const LETTER_HUGE: u64 = 400;
const WHITESPACE_GROUP: u64 = 1000;

// How far o200k_base's merges reach in a whitespace run (measured with gpt-tokenizer 4.0.0:
// `node tests/tokens/whitespace.mjs`). IMPORTANT: features.mjs repeats these four.
/// Spaces per token in a run of spaces.
const SPACES_PER_TOKEN: u32 = 120;
/// Tabs in a run's first token; each further token holds `TABS_PER_TOKEN`.
const TABS_FIRST_TOKEN: u32 = 20;
/// Tabs per token after the first.
const TABS_PER_TOKEN: u32 = 16;
/// Line-break units per token: `\n` is 1, `\r` 3 (so `\r\n` is 4), `\r` after `\r` 8.
const NEWLINE_UNITS_PER_TOKEN: u32 = 16;

/// What the estimator distinguishes about a character.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Class {
    Lower,
    Upper,
    Digit,
    Punct,
    Space,
    Tab,
    Newline,
    /// Accented Latin letters (Latin-1 Supplement, Latin Extended-A/B, Latin Extended Additional).
    Latin,
    /// Letters of any other alphabet (Cyrillic, Greek, Arabic, Devanagari, …).
    OtherLetter,
    Han,
    Kana,
    Hangul,
    /// CJK punctuation and full-width forms.
    CjkPunct,
    Symbol,
    /// Before the first character.
    Start,
}

impl Class {
    const fn is_letter(self) -> bool {
        matches!(
            self,
            Class::Lower | Class::Upper | Class::Latin | Class::OtherLetter
        )
    }

    const fn is_blank(self) -> bool {
        matches!(self, Class::Space | Class::Tab)
    }

    const fn is_whitespace(self) -> bool {
        matches!(self, Class::Space | Class::Tab | Class::Newline)
    }
}

const fn classify_ascii(b: u8) -> Class {
    match b {
        b'a'..=b'z' => Class::Lower,
        b'A'..=b'Z' => Class::Upper,
        b'0'..=b'9' => Class::Digit,
        b' ' => Class::Space,
        b'\t' => Class::Tab,
        b'\n' | b'\r' => Class::Newline,
        _ => Class::Punct,
    }
}

const ASCII: [Class; 128] = {
    let mut table = [Class::Punct; 128];
    let mut b = 0;
    while b < 128 {
        table[b] = classify_ascii(b as u8);
        b += 1;
    }
    table
};

// `inline(always)` on the per-character steps: the session module is built at opt-level "z",
// which ignores a plain `#[inline]` (Cargo.toml).
#[inline(always)]
fn classify(c: char) -> Class {
    if let Some(&class) = ASCII.get(c as usize) {
        return class;
    }
    match c {
        '\u{3400}'..='\u{4DBF}'
        | '\u{4E00}'..='\u{9FFF}'
        | '\u{F900}'..='\u{FAFF}'
        | '\u{20000}'..='\u{3FFFF}' => Class::Han,
        '\u{3040}'..='\u{30FF}' | '\u{31F0}'..='\u{31FF}' | '\u{FF66}'..='\u{FF9F}' => Class::Kana,
        '\u{AC00}'..='\u{D7AF}' | '\u{1100}'..='\u{11FF}' | '\u{3130}'..='\u{318F}' => {
            Class::Hangul
        }
        '\u{3000}'..='\u{303F}' | '\u{FF00}'..='\u{FFEF}' => Class::CjkPunct,
        '\u{D7}' | '\u{F7}' => Class::Symbol,
        '\u{C0}'..='\u{24F}' | '\u{1E00}'..='\u{1EFF}' => Class::Latin,
        _ if c.is_alphabetic() => Class::OtherLetter,
        _ => Class::Symbol,
    }
}

/// First characters of the families [`stand_in`] picks from, with their sizes: each family's
/// characters share a class and a UTF-8 length.
const STAND_IN_FAMILIES: [(char, u32); 13] = [
    ('a', 26),
    ('A', 26),
    ('0', 10),
    ('\u{E0}', 23),
    ('\u{1E01}', 40),
    ('\u{430}', 32),
    ('\u{905}', 16),
    ('\u{10428}', 40),
    ('\u{4E00}', 1000),
    ('\u{20000}', 1000),
    ('\u{3041}', 80),
    ('\u{AC00}', 1000),
    ('\u{FF21}', 26),
];

/// A letter or digit this estimate charges exactly as `c` wherever it stands: the same class
/// and the same UTF-8 length (so the same UTF-16 length too); `pick` chooses among them.
/// `None` when `c` is no letter or digit, or no family matches it.
pub(super) fn stand_in(c: char, pick: u32) -> Option<char> {
    if !(c.is_ascii_alphanumeric() || (!c.is_ascii() && c.is_alphabetic())) {
        return None;
    }
    let class = classify(c);
    STAND_IN_FAMILIES.iter().find_map(|&(first, size)| {
        let candidate = char::from_u32(first as u32 + pick % size)?;
        (classify(candidate) == class && candidate.len_utf8() == c.len_utf8()).then_some(candidate)
    })
}

/// The running state of one pass: the previous character and the lengths of the current runs.
struct Scan {
    prev: Class,
    /// The previous character was `\r` (a run of them merges less than `\r\n` does).
    prev_carriage_return: bool,
    /// Letters in the current letter piece (a camelCase hump starts a new piece).
    piece: u32,
    /// Digits in the current digit run.
    digits: u32,
    /// Blanks (spaces and tabs) in the current blank run.
    blanks: u32,
    /// Spaces in the current space run.
    spaces: u32,
    /// Tabs in the current tab run.
    tabs: u32,
    /// Line-break units in the current whitespace run (0: no line break in it yet).
    newline_units: u32,
    /// Punctuation characters in the current punctuation run.
    puncts: u32,
    milli: u64,
}

/// The length of a run after one more character of class `class`, which follows one of class
/// `prev`.
#[inline(always)]
fn run_length(length: u32, prev: Class, class: Class) -> u32 {
    if prev == class {
        length.saturating_add(1)
    } else {
        1
    }
}

impl Scan {
    const fn new() -> Scan {
        Scan {
            prev: Class::Start,
            prev_carriage_return: false,
            piece: 0,
            digits: 0,
            blanks: 0,
            spaces: 0,
            tabs: 0,
            newline_units: 0,
            puncts: 0,
            milli: 0,
        }
    }

    #[inline(always)]
    fn push(&mut self, c: char) {
        let class = classify(c);
        if !class.is_whitespace() {
            self.newline_units = 0;
        }
        let cost = match class {
            Class::Lower | Class::Upper | Class::Latin | Class::OtherLetter => self.letter(class),
            Class::Digit => {
                // o200k_base pre-splits digit runs into groups of up to three.
                self.digits = run_length(self.digits, self.prev, Class::Digit);
                if self.digits % 3 == 1 {
                    DIGIT_GROUP
                } else {
                    0
                }
            }
            Class::Punct => {
                self.puncts = run_length(self.puncts, self.prev, Class::Punct);
                match self.puncts {
                    1 => PUNCT_START,
                    2 | 3 => PUNCT_RUN,
                    _ => PUNCT_LONG,
                }
            }
            Class::Space | Class::Tab => self.blank(class),
            Class::Newline => self.newline(c == '\r'),
            Class::Han => HAN,
            Class::Kana => KANA,
            Class::Hangul => HANGUL,
            Class::CjkPunct => CJK_PUNCT,
            _ => SYMBOL,
        };
        self.milli = self.milli.saturating_add(cost);
        self.prev_carriage_return = c == '\r';
        self.prev = class;
    }

    /// A space or a tab. The tokenizer merges both alike into the word that follows or into
    /// a piece of their own, so a run's first two blanks cost the same whatever their kind;
    /// only long runs tell them apart.
    #[inline(always)]
    fn blank(&mut self, class: Class) -> u64 {
        self.blanks = if self.prev.is_blank() {
            self.blanks.saturating_add(1)
        } else {
            1
        };
        self.spaces = if class == Class::Space {
            run_length(self.spaces, self.prev, class)
        } else {
            0
        };
        self.tabs = if class == Class::Tab {
            run_length(self.tabs, self.prev, class)
        } else {
            0
        };
        let outgrown = (self.spaces > 1 && (self.spaces - 1) % SPACES_PER_TOKEN == 0)
            || (self.tabs > TABS_FIRST_TOKEN
                && (self.tabs - TABS_FIRST_TOKEN - 1) % TABS_PER_TOKEN == 0);
        match self.blanks {
            1 => BLANK,
            2 => BLANK_RUN,
            _ if outgrown => WHITESPACE_GROUP,
            _ => 0,
        }
    }

    /// A line break, `\r` or `\n`.
    #[inline(always)]
    fn newline(&mut self, carriage_return: bool) -> u64 {
        let units = match (carriage_return, self.prev_carriage_return) {
            (false, _) => 1,
            (true, false) => 3,
            (true, true) => 8,
        };
        let before = self.newline_units;
        self.newline_units = before.saturating_add(units);
        if before == 0 {
            // The tokenizer's punctuation pieces swallow the line breaks that follow them, and
            // its line-break pieces swallow the blanks before them, which paid for the piece.
            return match self.prev {
                Class::Punct => NEWLINE_AFTER_PUNCT,
                Class::Space | Class::Tab => 0,
                _ => NEWLINE,
            };
        }
        // The tokenizer takes a whitespace run up to its last line break as one piece.
        let tokens = |units: u32| u64::from(units.div_ceil(NEWLINE_UNITS_PER_TOKEN));
        (tokens(self.newline_units) - tokens(before)) * WHITESPACE_GROUP
    }

    #[inline(always)]
    fn letter(&mut self, class: Class) -> u64 {
        let shape = if !self.prev.is_letter() {
            self.piece = 1;
            if self.prev == Class::Digit {
                WORD_AFTER_DIGIT
            } else {
                WORD_START
            }
        } else if self.prev == Class::Lower && class == Class::Upper {
            self.piece = 1;
            CAMEL
        } else {
            self.piece = self.piece.saturating_add(1);
            let length = match self.piece {
                0..=4 => LETTER_SHORT,
                5..=8 => LETTER_MID,
                9..=16 => LETTER_LONG,
                _ => LETTER_HUGE,
            };
            let acronym = if self.prev == Class::Upper && class == Class::Upper {
                UPPER_RUN
            } else {
                0
            };
            length + acronym
        };
        let script = match class {
            Class::Latin => LATIN_ACCENTED,
            Class::OtherLetter => OTHER_LETTER,
            _ => 0,
        };
        shape + script
    }
}

/// The calibrated estimate of `text`: 0 for empty text, otherwise at least 1 and at most its
/// UTF-8 length (no tokenizer spends more than a token per byte: byte-level BPE falls back to
/// one token per byte at worst).
pub(super) fn estimate(text: &str) -> u64 {
    if text.is_empty() {
        return 0;
    }
    let mut scan = Scan::new();
    for c in text.chars() {
        scan.push(c);
    }
    let bytes = u64::try_from(text.len()).unwrap_or(u64::MAX);
    scan.milli.div_ceil(1000).max(1).min(bytes)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn classes_cover_the_scripts_the_fit_distinguishes() {
        assert_eq!(classify('a'), Class::Lower);
        assert_eq!(classify('Z'), Class::Upper);
        assert_eq!(classify('\r'), Class::Newline);
        assert_eq!(classify('\u{7f}'), Class::Punct);
        assert_eq!(classify('é'), Class::Latin);
        assert_eq!(classify('×'), Class::Symbol);
        assert_eq!(classify('ж'), Class::OtherLetter);
        assert_eq!(classify('中'), Class::Han);
        assert_eq!(classify('の'), Class::Kana);
        assert_eq!(classify('한'), Class::Hangul);
        assert_eq!(classify('。'), Class::CjkPunct);
        assert_eq!(classify('😀'), Class::Symbol);
    }

    #[test]
    fn digits_cost_one_group_per_three() {
        assert_eq!(estimate("123"), estimate("1"));
        let mut scan = Scan::new();
        "1234567".chars().for_each(|c| scan.push(c));
        assert_eq!(scan.milli, 3 * DIGIT_GROUP);
    }

    #[test]
    fn letter_blobs_are_not_charged_as_one_word() {
        // o200k_base: 500 tokens for 4000 × 'a', about 2000 for 4000 random letters.
        assert!(estimate(&"a".repeat(4000)) >= 1500);
    }

    #[test]
    fn whitespace_runs_cost_what_the_tokenizer_merges() {
        // o200k_base (gpt-tokenizer 4.0.0): 63, 250, 9 and 63 tokens.
        assert_eq!(estimate(&"\n".repeat(1000)), 63);
        assert_eq!(estimate(&"\r\n".repeat(1000)), 250);
        assert_eq!(estimate(&" ".repeat(1000)), 9);
        assert_eq!(estimate(&"\t".repeat(1000)), 63);
        // A blank line costs no more than a line break.
        assert_eq!(estimate("a;\n\n"), estimate("a;\n"));
    }

    #[test]
    fn never_more_than_one_token_per_byte() {
        // Punctuation that starts a piece is charged more than a token, rounded up to two.
        let mut scan = Scan::new();
        scan.push('!');
        assert_eq!(scan.milli.div_ceil(1000), 2);
        assert_eq!(estimate("!"), 1);
        assert_eq!(estimate("\u{7f}"), 1);
    }

    #[test]
    fn hex_ids_cost_more_than_words_of_the_same_length() {
        assert!(estimate("3f9a1c7e") > estimate("function"));
    }
}
