// The package's public shape and its errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { engine } from './engine.mjs';

test('exports the documented functions', () => {
  for (const name of ['extractMentions', 'estimateTokens', 'diffSnippet', 'diffSnippetReport', 'profileNames']) {
    assert.equal(typeof engine[name], 'function', name);
  }
  assert.deepEqual(engine.profileNames(), ['claude-code', 'codex', 'claude-code-2.1.88', 'codex-0.139.0', 'recommended', 'world-state', 'opencode-style', 'aider-style']);
  assert.deepEqual(engine.profileReleases().slice(0, 5), [
    { name: 'claude-code', client: 'claude-code', version: '2.1.332' },
    { name: 'codex', client: 'codex', version: '0.171.0' },
    { name: 'claude-code-2.1.88', client: 'claude-code', version: '2.1.88' },
    { name: 'codex-0.139.0', client: 'codex', version: '0.139.0' },
    { name: 'recommended' },
  ]);
});

test('defaults: recommended profile, calibrated method', () => {
  const text = 'see @café.txt';
  assert.deepEqual(engine.extractMentions(text), engine.extractMentions(text, { profile: 'recommended' }));
  assert.deepEqual(engine.extractMentions(text, undefined), engine.extractMentions(text, {}));
  assert.equal(engine.estimateTokens('some text'), engine.estimateTokens('some text', { method: 'calibrated' }));
  const before = 'a\nb\n', after = 'a\nc\n';
  assert.equal(engine.diffSnippet(before, after), engine.diffSnippet(before, after, { profile: 'recommended' }));
});

test('mention offsets are UTF-16 code units', () => {
  const text = 'Franççais 😀 日本 @a.ts and @"b c.md"';
  const { files } = engine.extractMentions(text, { profile: 'claude-code' });
  assert.deepEqual(files.map((f) => text.slice(f.start, f.end)), ['@"b c.md"', '@a.ts']);
});

test('an unknown profile or method throws an Error naming the allowed values', () => {
  assert.throws(() => engine.extractMentions('x', { profile: 'claude' }),
    (e) => e instanceof Error && /unknown profile "claude".*"claude-code", "codex", "claude-code-2.1.88", "codex-0.139.0", "recommended"/.test(e.message));
  assert.throws(() => engine.diffSnippet('a', 'b', { profile: 'Codex' }), /unknown profile "Codex"/);
  assert.throws(() => engine.estimateTokens('x', { method: 'tiktoken' }),
    (e) => e instanceof Error && /unknown token method "tiktoken".*"claude-code", "codex", "calibrated", "cl100k"/.test(e.message));
  assert.throws(() => engine.estimateTokens('x', { methd: 'codex' }), /unknown option "methd": allowed options are "profile", "method", "ext"/);
});

test('non-string arguments throw and never abort the module', () => {
  const bad = [42, null, {}, [], true, 10n, Symbol('s')];
  for (const value of bad) {
    assert.throws(() => engine.extractMentions(value), /extractMentions: argument `text` must be a string/);
    assert.throws(() => engine.estimateTokens(value), /estimateTokens: argument `text` must be a string/);
    assert.throws(() => engine.diffSnippet('a', value), /diffSnippet: argument `after` must be a string/);
  }
  assert.throws(() => engine.extractMentions('x', 'claude-code'), /options must be an object, got string/);
  assert.throws(() => engine.estimateTokens('x', { ext: 3 }), /option `ext` must be a string, got number/);
  // The module still works after all of that.
  assert.equal(engine.estimateTokens('abcd', { method: 'codex' }), 1);
});

test('diffSnippetReport explains itself', () => {
  const same = engine.diffSnippetReport('a\n', 'a\n', { profile: 'claude-code' });
  assert.equal(same.text, '');
  assert.match(same.reason, /nothing changed/);
  const codex = engine.diffSnippetReport('a\n', 'b\n', { profile: 'codex' });
  assert.equal(codex.text, '');
  assert.match(codex.reason, /keeps no file state/);
  const changed = engine.diffSnippetReport('a\nb\n', 'a\nc\n', { profile: 'claude-code' });
  assert.equal(changed.text, '1\ta\n2\tc');
  assert.equal(changed.text, engine.diffSnippet('a\nb\n', 'a\nc\n', { profile: 'claude-code' }));
  assert.equal(changed.hunks, 1);
  assert.equal(changed.budgetExhausted, false);
});

test('version() is the package version', () => {
  const manifest = readFileSync(new URL('../../crate/Cargo.toml', import.meta.url), 'utf8');
  const crateVersion = /^version = "([^"]+)"/m.exec(manifest)?.[1];
  assert.equal(engine.version(), crateVersion);
});

test('atToken finds the @ token the caret touches, in UTF-16 offsets', () => {
  const text = '😀 see @src/é.ts now';
  for (const caret of [7, 10, 16]) {
    assert.deepEqual(engine.atToken(text, caret), { start: 7, end: 16, query: 'src/é.ts' }, `caret ${caret}`);
  }
  assert.equal(engine.atToken(text, 3), null); // `see`
  assert.equal(engine.atToken(text, 0), null); // the emoji
  assert.equal(engine.atToken(text, text.length + 1), null);
  assert.deepEqual(engine.atToken('x @', 3), { start: 2, end: 3, query: '' });
  assert.throws(() => engine.atToken('x', -1), /atToken: argument `caret` must be a string index/);
  assert.throws(() => engine.atToken('x', 1.5), /atToken: argument `caret` must be a string index/);
});

test('completionInsertion quotes a path with whitespace and prefixes @ for a mention', () => {
  assert.equal(engine.completionInsertion('src/a b.ts', false), '"src/a b.ts" ');
  assert.equal(engine.completionInsertion('src/a.ts', true), '@src/a.ts ');
  assert.equal(engine.completionInsertion('a "b" c', false), 'a "b" c ');
  assert.throws(() => engine.completionInsertion('a', 'yes'), /completionInsertion: argument `asMention` must be true or false/);
});

test('Session.expand spells a path as the session does', () => {
  const session = new engine.Session({ profile: 'claude-code', cwd: '/p', home: '/h' });
  try {
    assert.equal(session.expand('src/../a.ts'), '/p/a.ts');
    assert.equal(session.expand('~/notes.md'), '/h/notes.md');
    assert.equal(session.expand('cafe\u0301.md'), '/p/caf\u00e9.md');
    assert.throws(() => session.expand('a\0b'), /expand: /);
  } finally {
    session.free();
  }
});
