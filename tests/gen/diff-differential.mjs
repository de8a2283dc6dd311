// Writes tests/fixtures/diff-differential.json: random file pairs with the snippet the
// JavaScript reference (tests/bench/diff-reference.mjs, on jsdiff) gives for each profile
// (recommended's token cap counts with the engine's calibrated estimate: build pkg/ first).
// Deterministic: the same seed gives the same file. Run from the repository root:
//   node tests/gen/diff-differential.mjs
// Small line alphabets make equally short edit scripts common, so the cases exercise
// jsdiff's tie-breaking, which the Rust port must reproduce exactly.
import { writeFileSync } from 'node:fs';
import { referenceSnippet, RECOMMENDED } from '../bench/diff-reference.mjs';
import { seededRandom } from './random.mjs';

const SEED = 0x5eed_d1ff;
const CASES = 600;
const OUT = new URL('../fixtures/diff-differential.json', import.meta.url);

const random = seededRandom(SEED);
const int = (n) => Math.floor(random() * n);
const pick = (items) => items[int(items.length)];

const ALPHABETS = [
  ['a', 'b'],
  ['a', 'b', 'c'],
  ['x', 'y', '', '}'],
  ['{', '}', '  return;', '', 'fn f() {', '// note'],
  ['α', 'β', 'déjà vu', '😀 smile', '日本語', 'a'],
  Array.from({ length: 12 }, (_, i) => `line ${i}`),
];

function randomLines(alphabet, count) {
  return Array.from({ length: count }, () => pick(alphabet));
}

/** Inserts, deletes and replaces runs of lines at random places. */
function edit(lines, alphabet) {
  const out = lines.slice();
  const edits = int(6);
  for (let e = 0; e < edits; e++) {
    const at = int(out.length + 1);
    const len = 1 + int(4);
    const kind = int(3);
    if (kind === 0) {
      out.splice(at, 0, ...randomLines(alphabet, len));
    } else if (kind === 1) {
      out.splice(at, len);
    } else {
      out.splice(at, len, ...randomLines(alphabet, 1 + int(4)));
    }
  }
  return out;
}

/** Joins lines with LF, CRLF or a mix, with or without a final line break. */
function render(lines, eol, finalNewline) {
  const sep = () => (eol === 'mixed' ? pick(['\n', '\r\n']) : eol);
  let text = '';
  lines.forEach((line, i) => {
    text += line;
    if (i < lines.length - 1 || finalNewline) text += sep();
  });
  return text;
}

function smallCase() {
  const alphabet = pick(ALPHABETS);
  const before = randomLines(alphabet, int(121));
  const after = random() < 0.05 ? before.slice() : edit(before, alphabet);
  const eol = random() < 0.1 ? '\r\n' : random() < 0.05 ? 'mixed' : '\n';
  const keepNewline = random() < 0.8;
  return {
    before: render(before, eol, keepNewline),
    after: render(after, eol, random() < 0.9 ? keepNewline : !keepNewline),
  };
}

/** Long lines, many changes far apart: the snippet passes the 8192-unit cap. */
function longCase() {
  const width = 30 + int(40);
  const word = pick(['lorem ipsum ', 'emoji 😀 ', 'ünïcödé ', 'tab\there ']);
  const before = Array.from({ length: 220 + int(80) }, (_, i) =>
    Array.from(`${i} ${word.repeat(Math.ceil(width / word.length))}`).slice(0, width).join(""));
  const after = before.map((line, i) => (i % (5 + int(30)) === 0 ? line.toUpperCase() : line));
  return { before: render(before, '\n', true), after: render(after, '\n', random() < 0.5) };
}

const cases = [];
for (let i = 0; i < CASES; i++) {
  const { before, after } = i % 100 === 99 ? longCase() : smallCase();
  cases.push({
    before,
    after,
    claudeCode: referenceSnippet(before, after),
    recommended: referenceSnippet(before, after, RECOMMENDED),
  });
}
const json = JSON.stringify({ cases });
writeFileSync(OUT, json + '\n');
console.log(`wrote ${cases.length} cases, ${json.length} characters`);
