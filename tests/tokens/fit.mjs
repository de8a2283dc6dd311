// Fits the calibrated estimator's constants against the real o200k_base tokenizer.
//
// Counts o200k_base tokens (gpt-tokenizer 4.0.0) for every sample under
// tests/fixtures/token-corpus, splits samples into train / held-out (within each class, sorted by
// path, every second sample is held out), fits non-negative milli-token costs per feature on the
// train split (least squares on relative error, every class weighted equally), prints them as
// Rust constants and the held-out error table, and writes tests/fixtures/token-corpus.json.
//
// Usage (from the repository root): node tests/tokens/fit.mjs
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import { FEATURES, estimate, features } from './features.mjs';

const ROOT = 'tests/fixtures';
const CORPUS = 'token-corpus';
/**
 * Costs not fitted (too rare in the corpus to fit, and a zero would under-count): one token per
 * symbol character; one token per 2.5 letters of a letter run past 16 letters (random blobs
 * cost 2 letters per token, repeated letters 8); one token each time a whitespace run outgrows
 * one of the tokenizer's merges (tests/tokens/whitespace.mjs measures them); 0.6 of a token per
 * CJK punctuation mark (alone they cost 0.5 to 0.8; fitted, the Han text around them absorbed
 * them and the cost came out 0).
 */
const FIXED = { symbol: 1000, letter_huge: 400, whitespace_group: 1000, cjk_punct: 600 };

const samples = [];
for (const cls of readdirSync(`${ROOT}/${CORPUS}`, { withFileTypes: true }).filter((d) => d.isDirectory()).map((d) => d.name).sort()) {
  const files = readdirSync(`${ROOT}/${CORPUS}/${cls}`).sort();
  files.forEach((file, i) => {
    const path = `${CORPUS}/${cls}/${file}`;
    const text = readFileSync(`${ROOT}/${path}`, 'utf8');
    samples.push({ path, class: cls, split: i % 2 === 1 ? 'heldout' : 'train', o200k: encode(text).length, text, f: features(text) });
  });
}

// Weighted least squares on relative error, x >= 0, by cyclic coordinate descent on the normal
// equations (small problem: about 20 unknowns).
const n = FEATURES.length;
const fixed = FEATURES.map((name) => FIXED[name]);
const free = FEATURES.map((_, i) => fixed[i] === undefined);
const train = samples.filter((s) => s.split === 'train');
const perClass = {};
for (const s of train) perClass[s.class] = (perClass[s.class] ?? 0) + 1;
const G = Array.from({ length: n }, () => new Array(n).fill(0));
const h = new Array(n).fill(0);
for (const s of train) {
  const w = 1 / perClass[s.class];
  const row = s.f.map((v) => v / s.o200k);
  let target = 1;
  for (let i = 0; i < n; i++) if (!free[i]) target -= (row[i] * fixed[i]) / 1000;
  for (let i = 0; i < n; i++) {
    if (!free[i]) continue;
    h[i] += w * row[i] * target;
    for (let j = 0; j < n; j++) if (free[j]) G[i][j] += w * row[i] * row[j];
  }
}
const x = new Array(n).fill(0);
for (let iter = 0; iter < 20000; iter++) {
  for (let i = 0; i < n; i++) {
    if (!free[i] || G[i][i] === 0) continue;
    let g = -h[i];
    for (let j = 0; j < n; j++) g += G[i][j] * x[j];
    x[i] = Math.max(0, x[i] - g / G[i][i]);
  }
}
const milli = FEATURES.map((_, i) => (free[i] ? Math.round(x[i] * 1000) : fixed[i]));

console.log('// Produced by tests/tokens/fit.mjs (o200k_base via gpt-tokenizer 4.0.0).');
FEATURES.forEach((name, i) => console.log(`${name.padEnd(18)} ${milli[i]}`));

const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const utf16 = (t) => t.length;
const bytes = (t) => Buffer.byteLength(t);
const methods = {
  calibrated: (t) => estimate(t, milli),
  'claude-code': (t) => Math.round(utf16(t) / 4),
  codex: (t) => Math.ceil(bytes(t) / 4),
};
for (const split of ['train', 'heldout']) {
  console.log(`\n${split}: median |error| vs o200k_base (median signed error)`);
  for (const cls of Object.keys(perClass)) {
    const rows = samples.filter((s) => s.class === cls && s.split === split);
    const cells = Object.entries(methods).map(([name, m]) => {
      const errs = rows.map((s) => (m(s.text) - s.o200k) / s.o200k);
      return `${name} ${(100 * median(errs.map(Math.abs))).toFixed(1)}% (${(100 * median(errs)).toFixed(1)}%)`;
    });
    console.log(`${cls.padEnd(15)} n=${rows.length}  ${cells.join('  ')}`);
  }
}

const out = { samples: samples.map(({ path, class: cls, split, o200k }) => ({ path, class: cls, split, o200k })) };
writeFileSync(`${ROOT}/token-corpus.json`, JSON.stringify(out, null, 2) + '\n');
console.log(`\nwrote ${ROOT}/token-corpus.json (${samples.length} samples)`);
