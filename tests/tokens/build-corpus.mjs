// Builds tests/fixtures/token-corpus/<class>/… from text available offline on the dev machine
// (Rust crates in ~/.cargo/registry, CPython 3.11's stdlib, packages in node_modules) plus
// deterministically generated hash-heavy logs. The README.md next to the corpus names every
// source and its licence. Only the logs are generated; code, prose, JSON and CJK are real text.
//
// Usage (from the repository root): node tests/tokens/build-corpus.mjs
// Then: node tests/tokens/fit.mjs
import { execFileSync } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync, readdirSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

const OUT = 'tests/fixtures/token-corpus';
const REGISTRY = join(homedir(), '.cargo/registry/src');
const CRATES = join(REGISTRY, readdirSync(REGISTRY)[0]);
const PY = '/root/.pyenv/versions/3.11.7';
const PYLIB = `${PY}/lib/python3.11`;
const NM = 'node_modules';

const read = (p) => readFileSync(p, 'utf8');

/** Cuts text into pieces of about `size` UTF-16 units at line boundaries. */
function chunkLines(text, size, max) {
  const lines = text.split('\n');
  const out = [];
  let cur = '';
  for (const line of lines) {
    cur += line + '\n';
    if (cur.length >= size) {
      out.push(cur);
      cur = '';
      if (out.length === max) return out;
    }
  }
  if (cur.trim().length > size / 4 && out.length < max) out.push(cur);
  return out;
}

/** Cuts text with no useful line breaks (minified JSON) at fixed positions. */
function chunkFixed(text, size, max) {
  const out = [];
  for (let i = 0; i + size / 2 < text.length && out.length < max; i += size) {
    out.push(text.slice(i, i + size));
  }
  return out;
}

const samples = [];
function add(cls, name, pieces, ext = 'txt') {
  pieces.forEach((text, i) => {
    samples.push({ cls, file: `${name}-${String(i).padStart(2, '0')}.${ext}`, text });
  });
}

// ---- code ----
const codeFiles = [
  ['rust-serde_json-de', `${CRATES}/serde_json-1.0.154/src/de.rs`, 'rs'],
  ['rust-similar-merge', `${CRATES}/similar-3.2.1/src/merge.rs`, 'rs'],
  ['python-difflib', `${PYLIB}/difflib.py`, 'py'],
  ['python-textwrap', `${PYLIB}/textwrap.py`, 'py'],
  ['ts-gpt-tokenizer-GptEncoding', `${NM}/gpt-tokenizer/src/GptEncoding.ts`, 'ts'],
  ['ts-lib-es5', `${NM}/typescript/lib/lib.es5.d.ts`, 'ts'],
  ['js-gpt-tokenizer-BytePairEncodingCore', `${NM}/gpt-tokenizer/esm/BytePairEncodingCore.js`, 'js'],
  ['c-cpython-unicodeobject', `${PY}/include/python3.11/unicodeobject.h`, 'h'],
];
for (const [name, path, ext] of codeFiles) {
  // Skip the licence header so samples are code, not legalese.
  const text = read(path).split('\n').slice(30).join('\n');
  add('code', name, chunkLines(text, 3500, 4), ext);
}

// ---- English prose ----
const topics = JSON.parse(
  execFileSync(`${PY}/bin/python3`, [
    '-c',
    'import json; from pydoc_data.topics import topics; print(json.dumps(topics))',
  ]).toString(),
);
const stripIndentedCode = (t) =>
  t
    .split('\n')
    .filter((l) => !/^ {3,}\S/.test(l) && !l.startsWith('>>>'))
    .join('\n')
    .replace(/\n{3,}/g, '\n\n');
const stripFencedCode = (t) => t.replace(/```[\s\S]*?```/g, '').replace(/\n{3,}/g, '\n\n');
for (const topic of ['execmodel', 'naming', 'import', 'comparisons', 'customization']) {
  add('prose', `python-reference-${topic}`, chunkLines(stripIndentedCode(topics[topic]), 3500, 4), 'md');
}
for (const krate of ['regex-1.13.2', 'memchr-2.8.3', 'proptest-1.12.0']) {
  add('prose', `readme-${krate.replace(/-[0-9.]+$/, '')}`, chunkLines(stripFencedCode(read(`${CRATES}/${krate}/README.md`)), 3500, 2), 'md');
}

// ---- JSON, pretty (indent 2) and minified ----
const jsonSources = [
  ['url-urltestdata', `${CRATES}/url-2.5.8/tests/urltestdata.json`],
  ['url-setters_tests', `${CRATES}/url-2.5.8/tests/setters_tests.json`],
  ['playwright-help', `${NM}/playwright-core/lib/tools/cli-client/help.json`],
  ['typescript-typesMap', `${NM}/typescript/lib/typesMap.json`],
];
for (const [name, path] of jsonSources) {
  const value = JSON.parse(read(path));
  add('json-pretty', name, chunkLines(JSON.stringify(value, null, 2), 3500, 4), 'json');
  add('json-minified', name, chunkFixed(JSON.stringify(value), 3500, 4), 'json');
}

// ---- CJK ----
const diagnostics = (lang) => Object.values(JSON.parse(read(`${NM}/typescript/lib/${lang}/diagnosticMessages.generated.json`))).join('\n');
const cjkencodings = (name) => read(`${PYLIB}/test/cjkencodings/${name}-utf8.txt`);
const skipTo = (text, at) => text.slice(Math.floor(text.length * at));
add('chinese', 'cpython-cjkencodings-gb18030', [cjkencodings('gb18030')]);
add('chinese', 'cpython-cjkencodings-big5', [cjkencodings('big5')]);
add('chinese', 'typescript-diagnostics-zh-cn', chunkLines(skipTo(diagnostics('zh-cn'), 0.3), 1500, 5));
add('chinese', 'typescript-diagnostics-zh-tw', chunkLines(skipTo(diagnostics('zh-tw'), 0.6), 1500, 5));
add('japanese', 'cpython-cjkencodings-euc_jp', [cjkencodings('euc_jp')]);
add('japanese', 'cpython-cjkencodings-euc_jisx0213', [cjkencodings('euc_jisx0213')]);
add('japanese', 'typescript-diagnostics-ja', chunkLines(skipTo(diagnostics('ja'), 0.4), 1500, 10));
add('korean', 'cpython-cjkencodings-euc_kr', [cjkencodings('euc_kr')]);
add('korean', 'cpython-cjkencodings-cp949', [cjkencodings('cp949')]);
add('korean', 'typescript-diagnostics-ko', chunkLines(skipTo(diagnostics('ko'), 0.4), 1500, 10));

// ---- other scripts, so the non-Latin and accented-Latin constants are fitted, not guessed ----
add('cyrillic', 'typescript-diagnostics-ru', chunkLines(skipTo(diagnostics('ru'), 0.5), 2500, 6));
for (const lang of ['de', 'fr', 'es']) {
  add('latin-accented', `typescript-diagnostics-${lang}`, chunkLines(skipTo(diagnostics(lang), 0.5), 3000, 2));
}

// ---- hash-heavy logs (generated, seeded) ----
function mulberry32(seed) {
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(20240611);
const pick = (xs) => xs[Math.floor(rand() * xs.length)];
const int = (n) => Math.floor(rand() * n);
const hex = (n) => Array.from({ length: n }, () => '0123456789abcdef'[int(16)]).join('');
const uuid = () => `${hex(8)}-${hex(4)}-4${hex(3)}-${pick(['8', '9', 'a', 'b'])}${hex(3)}-${hex(12)}`;
const pad = (n, w = 2) => String(n).padStart(w, '0');
let clock = Date.UTC(2024, 4, 14, 9, 12, 3);
const tick = () => (clock += int(90_000));
const iso = () => new Date(tick()).toISOString();
const gitDate = () => {
  const d = new Date(tick() * 7);
  const days = ['Sun', 'Mon', 'Tue', 'Wed', 'Thu', 'Fri', 'Sat'];
  const months = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'];
  return `${days[d.getUTCDay()]} ${months[d.getUTCMonth()]} ${d.getUTCDate()} ${pad(d.getUTCHours())}:${pad(d.getUTCMinutes())}:${pad(d.getUTCSeconds())} ${d.getUTCFullYear()} ${pick(['+0200', '-0700', '+0000', '+0530'])}`;
};
const authors = ['Ada Brandt <ada@example.com>', 'Kenji Mori <kmori@example.org>', 'Priya Nair <priya.nair@example.net>', 'Tom Weber <tw@example.com>'];
const verbs = ['Fix', 'Add', 'Remove', 'Refactor', 'Bump', 'Update', 'Handle', 'Revert'];
const objects = ['cache eviction', 'retry backoff', 'parser edge case', 'lockfile', 'CI matrix', 'token budget', 'session id', 'error message'];
const subject = () => `${pick(verbs)} ${pick(objects)}${rand() < 0.3 ? ` (#${1000 + int(9000)})` : ''}`;
const paths = ['src/cache.rs', 'src/session/mod.rs', 'web/app.js', 'Cargo.lock', 'tests/fixtures/basic.json', 'README.md'];

const formats = [
  // git log with full SHAs and --stat
  () => {
    let s = `commit ${hex(40)}\n`;
    if (rand() < 0.2) s += `Merge: ${hex(7)} ${hex(7)}\n`;
    s += `Author: ${pick(authors)}\nDate:   ${gitDate()}\n\n    ${subject()}\n\n`;
    for (let i = 0, n = 1 + int(3); i < n; i++) {
      const add = int(40), del = int(20);
      s += ` ${pick(paths).padEnd(28)} | ${pad(add + del, 3)} ${'+'.repeat(Math.min(add, 20))}${'-'.repeat(Math.min(del, 10))}\n`;
    }
    return s + '\n';
  },
  // structured service logs with request ids and trace ids
  () =>
    `${iso()} ${pick(['INFO ', 'INFO ', 'WARN ', 'DEBUG', 'ERROR'])} ${pick(['api', 'worker', 'gateway'])}[${1000 + int(60000)}]: ` +
    `request_id=${uuid()} method=${pick(['GET', 'POST', 'PUT'])} path=/v1/${pick(['items', 'users', 'jobs'])}/${uuid()} ` +
    `status=${pick([200, 200, 201, 204, 404, 500])} duration_ms=${int(2000)}.${int(10)} trace_id=${hex(32)} span_id=${hex(16)}\n`,
  // container and package digests
  () =>
    pick([
      () => `${hex(12)}: Pull complete\nDigest: sha256:${hex(64)}\n`,
      () => `#${int(30)} [${pick(['build', 'runtime'])} ${1 + int(9)}/9] COPY --from=builder /app /app\n#${int(30)} sha256:${hex(64)} ${int(99)}.${int(9)}MB / ${int(99)}.${int(9)}MB ${int(9)}.${int(9)}s done\n`,
      () => `${pick(['api', 'worker', 'web'])}-${hex(10)}-${hex(5)}   ${pick(['1/1', '0/1'])}     ${pick(['Running', 'Pending', 'CrashLoopBackOff'])}   ${int(12)}          ${int(59)}m\n`,
    ])(),
  // git log --oneline and reflog
  () => `${hex(7)} ${pick(['', `(HEAD -> ${pick(['main', 'fix/cache'])}) `, ''])}${subject()}\n${hex(7)} HEAD@{${int(40)}}: ${pick(['commit', 'checkout', 'rebase (pick)'])}: ${subject()}\n`,
];
for (let i = 0; i < 16; i++) {
  // Formats change every two samples so the alternating train/held-out split sees each one.
  const format = formats[Math.floor(i / 2) % formats.length];
  let text = '';
  while (text.length < 3500) text += format();
  add('logs', `generated-${['git-log', 'service', 'digests', 'oneline'][Math.floor(i / 2) % 4]}`, [text], 'log');
  samples[samples.length - 1].file = samples[samples.length - 1].file.replace('-00.log', `-${pad(i)}.log`);
}

rmSync(OUT, { recursive: true, force: true });
let total = 0;
for (const { cls, file, text } of samples) {
  mkdirSync(`${OUT}/${cls}`, { recursive: true });
  writeFileSync(`${OUT}/${cls}/${file}`, text);
  total += Buffer.byteLength(text);
}
console.log(`${samples.length} samples, ${total} bytes`);
