// The fixtures the Rust tests read, run through the wasm package: native and wasm must agree.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine, fixture } from './engine.mjs';

test('mentions.json', () => {
  const { cases } = fixture('mentions.json');
  assert.ok(cases.length > 40);
  for (const c of cases) {
    assert.deepEqual(engine.extractMentions(c.text, { profile: c.profile }), c.expected, `${c.profile}: ${c.name}`);
  }
});

test('tokens.json', () => {
  const { cases } = fixture('tokens.json');
  assert.ok(cases.length > 20);
  for (const c of cases) {
    const options = c.ext === undefined ? { method: c.method } : { method: c.method, ext: c.ext };
    assert.equal(engine.estimateTokens(c.text, options), c.expected, `${c.method} ${JSON.stringify(c.text).slice(0, 60)}`);
  }
});

test('diff.json', () => {
  const { cases } = fixture('diff.json');
  assert.ok(cases.length > 15);
  for (const c of cases) {
    assert.equal(engine.diffSnippet(c.before, c.after, { profile: c.profile }), c.expected, `${c.profile}: ${c.name}`);
  }
});

test('mentions-differential.json (the original regexes on generated texts)', () => {
  const { cases } = fixture('mentions-differential.json');
  for (const c of cases) {
    const got = engine.extractMentions(c.text, { profile: 'claude-code-2.1.88' });
    assert.deepEqual(got.files.map((f) => f.raw), c.files, JSON.stringify(c.text));
    assert.deepEqual(got.mcpResources.map((m) => m.raw), c.mcp, JSON.stringify(c.text));
    assert.deepEqual(got.agents.map((a) => a.raw), c.agents, JSON.stringify(c.text));
  }
});

test('diff-differential.json (jsdiff on generated pairs)', () => {
  const { cases } = fixture('diff-differential.json');
  for (const c of cases) {
    assert.equal(engine.diffSnippet(c.before, c.after, { profile: 'claude-code' }), c.claudeCode);
    assert.equal(engine.diffSnippet(c.before, c.after, { profile: 'recommended' }), c.recommended);
  }
});
