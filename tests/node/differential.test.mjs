// Live differential tests against the JS references (the original's regexes; jsdiff), on
// inputs generated here with a fixed seed, different from the committed fixtures.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { extractWithOriginalRegexes } from '../bench/mention-reference.mjs';
import { referenceSnippet, RECOMMENDED } from '../bench/diff-reference.mjs';
import { engine, seededRandom } from './engine.mjs';

const PIECES = ['@', '@', '"', ' ', '\t', '\n', '\u00a0', '\u3000', '\ufeff', '\u0085', '#L', '#l', '1', '20', '-', ':',
  '.', ',', ')', '(', '/', '~', 'a', 'foo', 'é', '日本', '😀', 'agent-', ' (agent)', '_', '`', '\\ '];

test('claude-code-2.1.88 mentions equal the original regexes on 3000 generated texts', () => {
  const random = seededRandom(20261129);
  for (let i = 0; i < 3000; i += 1) {
    const length = Math.floor(random() * 14);
    const text = Array.from({ length }, () => PIECES[Math.floor(random() * PIECES.length)]).join('');
    const reference = extractWithOriginalRegexes(text);
    const got = engine.extractMentions(text, { profile: 'claude-code-2.1.88' });
    const label = JSON.stringify(text);
    assert.deepEqual(got.files.map((f) => f.raw), reference.files, label);
    assert.deepEqual(got.mcpResources.map((m) => m.raw), reference.mcp, label);
    assert.deepEqual(got.agents.map((a) => a.raw), reference.agents, label);
  }
});

/**
 * A text of `count` lines drawn from a small alphabet, so that the diff has many ties.
 * @param {() => number} random
 * @param {number} count
 */
function lines(random, count) {
  const alphabet = ['a', 'b', 'c', '', '}', 'x = 1', '  return'];
  return Array.from({ length: count }, () => alphabet[Math.floor(random() * alphabet.length)]);
}

test('claude-code and recommended snippets equal the jsdiff reference on 800 generated pairs', () => {
  const random = seededRandom(7);
  for (let i = 0; i < 800; i += 1) {
    const before = lines(random, Math.floor(random() * 60));
    const after = before.slice();
    const edits = 1 + Math.floor(random() * 4);
    for (let e = 0; e < edits; e += 1) {
      const at = Math.floor(random() * (after.length + 1));
      const kind = random();
      if (kind < 0.4) after.splice(at, 0, ...lines(random, 1 + Math.floor(random() * 3)));
      else if (kind < 0.7) after.splice(at, 1 + Math.floor(random() * 3));
      else after.splice(at, 1, ...lines(random, 1));
    }
    const eol = random() < 0.2 ? '\r\n' : '\n';
    const a = before.join(eol) + (random() < 0.8 ? eol : '');
    const b = after.join(eol) + (random() < 0.8 ? eol : '');
    assert.equal(engine.diffSnippet(a, b, { profile: 'claude-code' }), referenceSnippet(a, b), JSON.stringify([a, b]));
    assert.equal(engine.diffSnippet(a, b, { profile: 'recommended' }),
      referenceSnippet(a, b, RECOMMENDED), JSON.stringify([a, b]));
  }
});
