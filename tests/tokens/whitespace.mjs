// Writes tests/fixtures/token-whitespace.json: whitespace cases with their real o200k_base
// counts (gpt-tokenizer 4.0.0), and prints the calibrated estimate of each. Runs of each kind
// and length, mixed runs, and code and prose from the token corpus with CRLF line ends,
// indented blank lines, tabs, blank lines and trailing spaces. crate/tests/token_accuracy.rs
// requires each of `cases` within 10 %; `beyondModel` lists texts the estimator is known to
// miss by more (whitespace-only lines repeated, aligned columns), kept to show by how much.
// `runs` holds the counts of every run of one kind from 1 to RUN_LENGTHS characters, each
// required within 10 % or one token (the vocabulary is uneven: 128 spaces are one token, 127
// two).
// The texts are stored whole, so the fixture does not depend on this script's transforms.
//
// Usage (from the repository root): node tests/tokens/whitespace.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { FEATURES, estimate } from './features.mjs';

const CORPUS = 'tests/fixtures/token-corpus';
const read = (path) => readFileSync(`${CORPUS}/${path}`, 'utf8');
const show = (s) => JSON.stringify(s).slice(1, -1);

const RUN_LENGTHS = 600;
const runs = [['\\n', '\n'], ['\\r\\n', '\r\n'], ['\\r', '\r'], ['space', ' '], ['tab', '\t']].map(([name, unit]) => ({
  name,
  unit,
  o200k: Array.from({ length: RUN_LENGTHS }, (_, i) => encode(unit.repeat(i + 1)).length),
}));

const cases = [];
const beyondModel = [];
const add = (name, text, list = cases) => list.push({ name, text, o200k: encode(text).length });

// Runs of one kind. o200k_base merges up to 16 line feeds, 4 CRLFs, 20 tabs (then 16) and
// 79 to 128 spaces into one token.
for (const n of [1, 2, 16, 17, 64, 100, 1000, 4096]) add(`\\n × ${n}`, '\n'.repeat(n));
for (const n of [1, 4, 8, 100, 1000]) add(`\\r\\n × ${n}`, '\r\n'.repeat(n));
for (const n of [1, 2, 100]) add(`\\r × ${n}`, '\r'.repeat(n));
for (const n of [1, 2, 8, 64, 300, 1000, 4000]) add(`space × ${n}`, ' '.repeat(n));
for (const n of [1, 4, 20, 64, 100, 1000]) add(`tab × ${n}`, '\t'.repeat(n));

// Mixed runs: once each, and whitespace-only lines repeated, which the vocabulary merges
// unevenly ("    \n" × 4 is one token, "\n\n    " × 2 is two).
for (const unit of ['\n\n    ', '\r\n\r\n', '\n    ', '\r\n        ', '  \n', '\n\t\t']) {
  add(`"${show(unit)}"`, unit);
  add(`"${show(unit)}" × 100`, unit.repeat(100), unit === '\r\n\r\n' ? cases : beyondModel);
}

// Real text with its whitespace changed.
// One held-out sample per language; those whose plain text the estimate already misses by
// more than 5 % (ts-lib-es5) are left out, so that each case measures its whitespace.
const code = ['code/c-cpython-unicodeobject-01.h', 'code/js-gpt-tokenizer-BytePairEncodingCore-01.js', 'code/python-difflib-00.py', 'code/rust-serde_json-de-00.rs', 'code/ts-gpt-tokenizer-GptEncoding-02.ts'];
for (const path of code) {
  const text = read(path);
  add(`${path}, CRLF`, text.replaceAll('\n', '\r\n'));
  // Blank lines indented like the next line, as some editors leave them.
  const lines = text.split('\n');
  const indented = lines.map((line, i) => (line.trim() === '' ? (lines[i + 1] ?? '').match(/^\s*/)[0] : line));
  add(`${path}, indented blank lines`, indented.join('\n'));
  add(`${path}, tabs for 4 spaces`, text.replace(/^( {4})+/gm, (m) => '\t'.repeat(m.length / 4)));
  add(`${path}, 5 blank lines between blocks`, text.replace(/\n\n+/g, '\n\n\n\n\n\n'));
}
const prose = read('prose/python-reference-execmodel-00.md');
add('prose, markdown hard breaks (two trailing spaces)', prose.replaceAll('\n', '  \n'));
add('prose, CRLF', prose.replaceAll('\n', '\r\n'));
// An aligned table, as `ls -l`, `docker ps` or a padded log prints it.
const words = prose.split(/\s+/).filter((w) => /^[a-z]+$/.test(w));
let table = '';
for (let row = 0; row < 60; row++) {
  table += [0, 1, 2, 3].map((col) => words[(row * 4 + col) % words.length].padEnd(col === 3 ? 0 : 24)).join('') + '\n';
}
// Each gap is a token of its own, and short common words cost less than the corpus's average.
add('aligned columns', table, beyondModel);

const source = readFileSync('crate/src/tokens/calibrated.rs', 'utf8');
const constants = Object.fromEntries([...source.matchAll(/^const ([A-Z_]+): u64 = (\d+);/gm)].map((m) => [m[1], Number(m[2])]));
const milli = FEATURES.map((name) => constants[name.toUpperCase()]);
console.log('| case | bytes | o200k_base | calibrated | error |\n|---|--:|--:|--:|--:|');
for (const [list, label] of [[cases, ''], [beyondModel, ' (beyond the model)']]) {
  for (const { name, text, o200k } of list) {
    const ours = estimate(text, milli);
    const error = (100 * (ours - o200k)) / o200k;
    console.log(`| ${name.replaceAll('|', '\\|')}${label} | ${Buffer.byteLength(text)} | ${o200k} | ${ours} | ${error >= 0 ? '+' : ''}${error.toFixed(1)} % |`);
  }
}
for (const { name, unit, o200k } of runs) {
  const worst = o200k.reduce((worst, count, i) => {
    const off = estimate(unit.repeat(i + 1), milli) - count;
    return Math.abs(off) > Math.abs(worst) ? off : worst;
  }, 0);
  console.log(`${name} × 1 to ${RUN_LENGTHS}: off by at most ${worst} token(s)`);
}
// One line per run keeps the fixture readable.
const json = JSON.stringify({ cases, beyondModel, runs }, null, 2).replace(/\[\s+(\d+(?:,\s+\d+)*)\s+\]/g, (_, xs) => `[${xs.split(/,\s+/).join(', ')}]`);
writeFileSync('tests/fixtures/token-whitespace.json', json + '\n');
console.log(`\nwrote tests/fixtures/token-whitespace.json (${cases.length} cases, ${beyondModel.length} beyond the model, ${runs.length} runs)`);
