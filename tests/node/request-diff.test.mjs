// requestDiff through the JS API, over the teaching scenarios' consecutive requests: an
// appended turn keeps the whole prefix, a compaction or a late request is named as the
// cause, the token figures agree with the requests', and bad input is an Error naming the
// argument.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { engine } from './engine.mjs';

const read = (/** @type {string} */ path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** Each step that sent a request, with its request and whether a compaction ran before it. */
function requests(/** @type {string} */ file, /** @type {string} */ profile, switches = {}) {
  const trace = engine.runScenario({ ...JSON.parse(read(`web/scenarios/${file}`)), profile, switches });
  return trace.steps
    .filter((/** @type {any} */ step) => step.turn.request)
    .map((/** @type {any} */ step) => ({ request: step.turn.request, atMs: step.atMs, compacted: (step.turn.compaction ?? []).some((/** @type {any} */ c) => c.applied) }));
}

test('consecutive requests: the figures add up and an appended turn keeps the prefix', () => {
  const sent = requests('external-edit.json', 'claude-code');
  assert.ok(sent.length >= 3);
  let appended = 0;
  for (let i = 1; i < sent.length; i += 1) {
    const diff = engine.requestDiff(sent[i - 1].request, sent[i].request, {});
    assert.equal(diff.tokensBefore, sent[i - 1].request.tokens.total);
    assert.equal(diff.tokensAfter, sent[i].request.tokens.total);
    assert.equal(diff.blocks.length, diff.added + diff.removed + diff.changed + diff.unchanged);
    const after = diff.blocks.reduce((/** @type {number} */ sum, /** @type {any} */ b) => sum + b.tokensAfter, 0);
    assert.equal(after, diff.tokensAfter);
    if (diff.cache.cause === 'none') {
      appended += 1;
      assert.equal(diff.prefix.tokens, diff.tokensBefore);
      assert.equal(diff.removed + diff.changed, 0);
    } else {
      assert.equal(typeof diff.cache.at, 'number');
      assert.notEqual(diff.blocks[diff.cache.at].change, 'unchanged');
      assert.ok(diff.prefix.tokens < diff.tokensBefore, diff.cache.reason);
    }
  }
  assert.ok(appended > 0, 'some request only appends to the one before');
});

test('a cheap stage that edits old results: the cause is an edit, each changed block has its word diff', () => {
  // With the cheap stage and the original timing, the prune runs at the threshold, while the
  // prefix is still cached.
  const sent = requests('cheap-stage.json', 'recommended', { 'compaction.cheapStageFirst': true, 'compaction.compactAtBlockingLimit': false });
  const diffs = sent.slice(1).map((s, i) => engine.requestDiff(sent[i].request, s.request, {}));
  const edit = diffs.find((d) => d.cache.cause !== 'none');
  assert.ok(edit, 'the cheap stage breaks the prefix somewhere');
  assert.equal(edit.cache.cause, 'edited');
  assert.match(edit.cache.reason, /was edited: the first \d+ blocks \(\d+ tokens\) are unchanged/);
  const changed = diffs.flatMap((d) => d.blocks).filter((b) => b.change === 'changed');
  for (const block of changed) {
    if (block.wordsSkipped) continue;
    assert.ok(block.words.some((/** @type {any} */ w) => w.op !== 'equal'));
    // The words rebuild both texts: the equal and deleted runs the earlier, equal and
    // inserted the later.
    const side = (/** @type {string} */ op) => block.words.filter((/** @type {any} */ w) => w.op === 'equal' || w.op === op).map((/** @type {any} */ w) => w.text).join('');
    assert.ok(side('delete').length > 0 || side('insert').length > 0);
  }
});

test('compaction and expiry are named from the options', () => {
  const sent = requests('auto-compaction.json', 'claude-code-2.1.88');
  const at = sent.findIndex((s) => s.compacted);
  assert.ok(at > 0, 'the scenario compacts before a request');
  const diff = engine.requestDiff(sent[at - 1].request, sent[at].request, { compacted: true });
  assert.equal(diff.cache.cause, 'compaction');
  assert.ok(diff.removed > 0);
  const late = engine.requestDiff(sent[0].request, sent[0].request, { elapsedMs: 301000 });
  assert.equal(late.cache.cause, 'ttl-expired');
  assert.equal(late.unchanged, late.blocks.length);
  const sameMinute = engine.requestDiff(sent[0].request, sent[0].request, { elapsedMs: 60000, cacheTtlMs: 3600000 });
  assert.equal(sameMinute.cache.cause, 'none');
});

test('bad input is an Error naming the argument and the field', () => {
  const request = requests('external-edit.json', 'claude-code')[0].request;
  assert.throws(() => engine.requestDiff(request, { messages: [{ role: 'robot', content: [] }] }, {}),
    (/** @type {any} */ e) => e instanceof Error && /^requestDiff: argument `next`: request\.messages\[0\]\.role: unknown role "robot"/.test(e.message));
  assert.throws(() => engine.requestDiff(request, request, { ttl: 5 }),
    (/** @type {any} */ e) => e instanceof Error && /options\.ttl: unknown field/.test(e.message));
  assert.throws(() => engine.requestDiff(request, request, { elapsedMs: -1 }),
    (/** @type {any} */ e) => e instanceof Error && /options\.elapsedMs/.test(e.message));
});
