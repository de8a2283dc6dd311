// The calibrated estimator's features, mirrored from crate/src/tokens/calibrated.rs.
// IMPORTANT: keep FEATURES, classify() and features() identical to the Rust code (same order,
// same ranges, same state machine); tests/fixtures/tokens.json pins values computed here.

/** Feature names, in the order of the Rust `Feature` enum. */
export const FEATURES = [
  'word_start', // a letter piece starts after a non-letter (not a digit)
  'word_after_digit', // a letter piece starts right after a digit (hex, ids)
  'camel', // lowercase then uppercase: the tokenizer's pre-split starts a new piece
  'letter_short', // letters 2..=4 of a piece
  'letter_mid', // letters 5..=8
  'letter_long', // letters 9..=16
  'letter_huge', // letters 17+ (blobs, not words): fixed, not fitted
  'upper_run', // uppercase after uppercase (acronyms, CONSTANTS)
  'latin_accented', // extra per accented Latin letter
  'other_letter', // extra per letter of another alphabet (Cyrillic, Greek, Arabic, …)
  'digit_group', // digits 1, 4, 7, … of a digit run (the tokenizer groups digits by three)
  'punct_start', // ASCII punctuation after something else
  'punct_run', // ASCII punctuation 2..=3 of a run
  'punct_long', // ASCII punctuation 4+ of a run (rulers, separators)
  'blank', // a space or tab after a non-blank (spaces and tabs merge alike)
  'blank_run', // the second blank of a run (indentation): the run is a piece of its own
  'newline', // the first \n or \r of a whitespace run, after something else than punctuation or a blank
  'newline_after_punct', // the first \n or \r of a whitespace run, after punctuation (the tokenizer merges them)
  'whitespace_group', // one more token each time a whitespace run outgrows o200k's merges: fixed, not fitted
  'han',
  'kana',
  'hangul',
  'cjk_punct', // CJK punctuation and full-width forms
  'symbol', // anything else (emoji, dashes, quotes, box drawing): fixed, not fitted
];

const C = {
  LOWER: 0, UPPER: 1, DIGIT: 2, PUNCT: 3, SPACE: 4, TAB: 5, NEWLINE: 6,
  LATIN: 7, OTHER_LETTER: 8, HAN: 9, KANA: 10, HANGUL: 11, CJK_PUNCT: 12, SYMBOL: 13,
};
export const CLASS = C;
const F = Object.fromEntries(FEATURES.map((n, i) => [n, i]));

const ALPHABETIC = /\p{Alphabetic}/u;

// How far o200k_base's merges reach in a whitespace run (measured: tests/tokens/whitespace.mjs).
// IMPORTANT: the same four constants are in calibrated.rs.
/** Spaces per token in a run of spaces. */
export const SPACES_PER_TOKEN = 120;
/** Tabs in a run's first token; each further token holds TABS_PER_TOKEN. */
export const TABS_FIRST_TOKEN = 20;
/** Tabs per token after the first. */
export const TABS_PER_TOKEN = 16;
/** Line-break units per token: \n is 1, \r 3 (so \r\n is 4), \r after \r 8. */
export const NEWLINE_UNITS_PER_TOKEN = 16;

export function classify(cp) {
  if (cp < 0x80) {
    if (cp >= 0x61 && cp <= 0x7a) return C.LOWER;
    if (cp >= 0x41 && cp <= 0x5a) return C.UPPER;
    if (cp >= 0x30 && cp <= 0x39) return C.DIGIT;
    if (cp === 0x20) return C.SPACE;
    if (cp === 0x09) return C.TAB;
    if (cp === 0x0a || cp === 0x0d) return C.NEWLINE;
    return C.PUNCT;
  }
  if ((cp >= 0x3400 && cp <= 0x4dbf) || (cp >= 0x4e00 && cp <= 0x9fff) || (cp >= 0xf900 && cp <= 0xfaff) || (cp >= 0x20000 && cp <= 0x3ffff)) return C.HAN;
  if ((cp >= 0x3040 && cp <= 0x30ff) || (cp >= 0x31f0 && cp <= 0x31ff) || (cp >= 0xff66 && cp <= 0xff9f)) return C.KANA;
  if ((cp >= 0xac00 && cp <= 0xd7af) || (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f)) return C.HANGUL;
  if ((cp >= 0x3000 && cp <= 0x303f) || (cp >= 0xff00 && cp <= 0xffef)) return C.CJK_PUNCT;
  if ((cp >= 0xc0 && cp <= 0x24f && cp !== 0xd7 && cp !== 0xf7) || (cp >= 0x1e00 && cp <= 0x1eff)) return C.LATIN;
  if (ALPHABETIC.test(String.fromCodePoint(cp))) return C.OTHER_LETTER;
  return C.SYMBOL;
}

const isLetter = (k) => k === C.LOWER || k === C.UPPER || k === C.LATIN || k === C.OTHER_LETTER;

/** Counts of each feature in `text`; every count depends only on the text up to that point. */
export function features(text) {
  const f = new Array(FEATURES.length).fill(0);
  let prev = -1;
  let prevCarriageReturn = false;
  let piece = 0;
  let digits = 0;
  let blanks = 0;
  let spaces = 0;
  let tabs = 0;
  let newlineUnits = 0;
  let puncts = 0;
  for (const ch of text) {
    const k = classify(ch.codePointAt(0));
    if (k !== C.SPACE && k !== C.TAB && k !== C.NEWLINE) newlineUnits = 0;
    if (isLetter(k)) {
      if (!isLetter(prev)) {
        f[prev === C.DIGIT ? F.word_after_digit : F.word_start]++;
        piece = 1;
      } else if (prev === C.LOWER && k === C.UPPER) {
        f[F.camel]++;
        piece = 1;
      } else {
        piece++;
        f[piece <= 4 ? F.letter_short : piece <= 8 ? F.letter_mid : piece <= 16 ? F.letter_long : F.letter_huge]++;
        if (prev === C.UPPER && k === C.UPPER) f[F.upper_run]++;
      }
      if (k === C.LATIN) f[F.latin_accented]++;
      if (k === C.OTHER_LETTER) f[F.other_letter]++;
    } else if (k === C.DIGIT) {
      if (prev !== C.DIGIT) digits = 0;
      if (digits % 3 === 0) f[F.digit_group]++;
      digits++;
    } else if (k === C.PUNCT) {
      puncts = prev === C.PUNCT ? puncts + 1 : 1;
      f[puncts === 1 ? F.punct_start : puncts <= 3 ? F.punct_run : F.punct_long]++;
    } else if (k === C.SPACE || k === C.TAB) {
      blanks = prev === C.SPACE || prev === C.TAB ? blanks + 1 : 1;
      spaces = k === C.SPACE ? (prev === C.SPACE ? spaces + 1 : 1) : 0;
      tabs = k === C.TAB ? (prev === C.TAB ? tabs + 1 : 1) : 0;
      if (blanks === 1) f[F.blank]++;
      else if (blanks === 2) f[F.blank_run]++;
      else if (spaces > 1 && (spaces - 1) % SPACES_PER_TOKEN === 0) f[F.whitespace_group]++;
      else if (tabs > TABS_FIRST_TOKEN && (tabs - TABS_FIRST_TOKEN - 1) % TABS_PER_TOKEN === 0) f[F.whitespace_group]++;
    } else if (k === C.NEWLINE) {
      const carriageReturn = ch === '\r';
      const units = carriageReturn ? (prevCarriageReturn ? 8 : 3) : 1;
      if (newlineUnits === 0) {
        // The tokenizer's punctuation pieces swallow the line breaks that follow them, and
        // its line-break pieces swallow the blanks before them, which paid for the piece.
        if (prev === C.PUNCT) f[F.newline_after_punct]++;
        else if (prev !== C.SPACE && prev !== C.TAB) f[F.newline]++;
      } else {
        // The tokenizer takes a whitespace run up to its last line break as one piece.
        const before = Math.ceil(newlineUnits / NEWLINE_UNITS_PER_TOKEN);
        f[F.whitespace_group] += Math.ceil((newlineUnits + units) / NEWLINE_UNITS_PER_TOKEN) - before;
      }
      newlineUnits += units;
    }
    else if (k === C.HAN) f[F.han]++;
    else if (k === C.KANA) f[F.kana]++;
    else if (k === C.HANGUL) f[F.hangul]++;
    else if (k === C.CJK_PUNCT) f[F.cjk_punct]++;
    else f[F.symbol]++;
    prevCarriageReturn = ch === '\r';
    prev = k;
  }
  return f;
}

/**
 * The calibrated estimate with integer milli-token costs: ceil(sum / 1000), at least 1 if
 * non-empty, and never more than the text's UTF-8 bytes.
 */
export function estimate(text, milli) {
  if (text.length === 0) return 0;
  const f = features(text);
  let sum = 0;
  for (let i = 0; i < f.length; i++) sum += f[i] * milli[i];
  return Math.min(Buffer.byteLength(text, 'utf8'), Math.max(1, Math.ceil(sum / 1000)));
}
