// Writes tests/fixtures/tokens.json: exact cases for claude-code and codex (computed the way the
// originals compute them in JavaScript / Rust) and pinned calibrated values, computed by the JS
// mirror in features.mjs with the constants read from crate/src/tokens/calibrated.rs — so the
// Rust test also checks that the mirror and the Rust code agree.
//
// Usage (from the repository root): node tests/tokens/cases.mjs
import { readFileSync, writeFileSync } from 'node:fs';
import { FEATURES, estimate } from './features.mjs';

const source = readFileSync('crate/src/tokens/calibrated.rs', 'utf8');
const constants = Object.fromEntries([...source.matchAll(/^const ([A-Z_]+): u64 = (\d+);/gm)].map((m) => [m[1], Number(m[2])]));
const milli = FEATURES.map((name) => {
  const value = constants[name.toUpperCase()];
  if (value === undefined) throw new Error(`no constant for ${name} in calibrated.rs`);
  return value;
});

const JSON_EXTS = new Set(['json', 'jsonl', 'jsonc']);
const claudeCode = (text, ext) => {
  const bare = ext?.startsWith('.') ? ext.slice(1) : ext;
  return Math.round(text.length / (JSON_EXTS.has(bare) ? 2 : 4));
};
const codex = (text) => Math.ceil(Buffer.byteLength(text, 'utf8') / 4);

const exactTexts = [
  ['', undefined],
  ['a', undefined],
  ['ab', undefined], // 0.5 rounds up
  ['abc', undefined],
  ['abcdef', undefined], // 1.5
  ['abcdefghij', undefined], // 2.5
  ['é', undefined], // 1 UTF-16 unit, 2 bytes
  ['😀', undefined], // surrogate pair: 2 units, 4 bytes
  ['😀😀😀', undefined],
  ['a😀', undefined],
  ['日本語版', undefined], // 4 units, 12 bytes
  ['中文测试文本内容', undefined],
  ['한국어', undefined],
  ['{}', 'json'],
  ['{', 'json'],
  ['{"a":1}', 'json'], // 3.5
  ['{"a":1}', '.json'],
  ['{"a":1}', 'jsonl'],
  ['{"a":1}', 'jsonc'],
  ['{"a":1}', 'JSON'], // case-sensitive: not JSON
  ['{"a":1}', 'md'],
  ['{"a":1}', ''],
  ['line one\nline two\n', 'txt'],
  ['\r\n\r\n', undefined],
];
const cases = [];
for (const [text, ext] of exactTexts) {
  cases.push({ text, method: 'claude-code', ...(ext === undefined ? {} : { ext }), expected: claudeCode(text, ext) });
}
for (const [text, ext] of exactTexts) {
  cases.push({ text, method: 'codex', ...(ext === undefined ? {} : { ext }), expected: codex(text) });
}

const pinned = [
  '',
  ' ',
  '\n',
  'The quick brown fox jumps over the lazy dog.',
  'fn main() {\n    let total: u64 = items.iter().map(|x| x.len() as u64).sum();\n    println!("{total}");\n}\n',
  'def parse(path):\n    with open(path, encoding="utf-8") as f:\n        return json.load(f)\n',
  '{\n  "name": "context-assembly",\n  "version": "0.1.0",\n  "private": true\n}\n',
  '{"id":42,"tags":["a","b"],"nested":{"ok":false,"ratio":0.75}}',
  'commit 9fceb02d0ae598e95dc970b74767f19372d61af8\nAuthor: Ada <ada@example.com>\nDate:   Tue May 14 09:12:03 2024 +0200\n',
  '2024-05-14T09:12:03.512Z INFO request_id=550e8400-e29b-41d4-a716-446655440000 status=200',
  'Python（派森）语言是一种功能强大而完善的通用型计算机程序设计语言。',
  'モジュール \'{0}\' に既定エクスポートがありません。',
  '유효한 식별자가 필요합니다.',
  'Модуль не найден: проверьте путь.',
  'Übersetzung für Größe und Straße, très élégant.',
  'Ship it 🚀 — “done”… ✓',
  'HTTPServerError getElementById snake_case_name CONSTANT_VALUE',
  '0123456789 3.14159 1e-9 0xFF',
  '\n'.repeat(1000),
  '\r\n'.repeat(1000),
  ' '.repeat(1000),
  '\t'.repeat(100),
  'fn main() {\r\n\r\n    run();\r\n}\r\n',
  'done.  \n\n\tnext',
  '!',
];
for (const text of pinned) cases.push({ text, method: 'calibrated', expected: estimate(text, milli) });

writeFileSync('tests/fixtures/tokens.json', JSON.stringify({ cases }, null, 2) + '\n');
console.log(`wrote tests/fixtures/tokens.json (${cases.length} cases)`);
