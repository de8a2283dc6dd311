// Progress from the long calls: `runScenario` and `compareProfiles` call `options.onProgress`
// with (done, total) after every replayed step, `importSession` with the bytes read; none
// changes its answer for it, and each stops with an Error when the callback throws.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { engine } from './engine.mjs';

const scenario = readFileSync(resolve(import.meta.dirname, '../../web/scenarios/plan-mode.json'), 'utf8');
const steps = JSON.parse(scenario).steps.length;

test('runScenario reports every step, in order, and answers as without a callback', () => {
  const seen = [];
  const trace = engine.runScenario(scenario, { onProgress: (done, total) => seen.push([done, total]) });
  assert.deepEqual(seen, Array.from({ length: steps }, (_, i) => [i + 1, steps]));
  assert.deepEqual(JSON.parse(JSON.stringify(trace)), JSON.parse(JSON.stringify(engine.runScenario(scenario))));
});

test('compareProfiles counts every profile\'s steps', () => {
  const seen = [];
  const profiles = ['claude-code', 'recommended'];
  const comparison = engine.compareProfiles(scenario, profiles, { onProgress: (done, total) => seen.push([done, total]) });
  assert.equal(seen.length, steps * 2);
  assert.deepEqual(seen.at(-1), [steps * 2, steps * 2]);
  assert.ok(seen.every(([done], i) => done === i + 1));
  assert.deepEqual(comparison, engine.compareProfiles(scenario, profiles));
});

test('a callback that throws stops the call; one that is not a function is refused', () => {
  let calls = 0;
  const stop = () => { calls += 1; if (calls === 3) throw new Error('cancelled by the host'); };
  assert.throws(() => engine.runScenario(scenario, { onProgress: stop }), /^Error: runScenario: options\.onProgress: threw at step 3 of \d+: the call was stopped$/);
  assert.equal(calls, 3);
  assert.throws(() => engine.runScenario(scenario, { onProgress: 'often' }), /option `onProgress` must be a function/);
  assert.throws(() => engine.compareProfiles(scenario, ['codex'], { onProgress: 7 }), /option `onProgress` must be a function/);
  assert.throws(() => engine.runScenario(scenario, { every: 1 }), /unknown option "every"/);
  // The module still works.
  assert.equal(engine.runScenario(scenario).steps.length, steps);
});

test('importSession reports the bytes read every MiB and at the end, and answers as without a callback', () => {
  const log = readFileSync(resolve(import.meta.dirname, '../fixtures/import/claude-code-session.jsonl'), 'utf8');
  // A log of about 2.5 MiB: a user line with a long prompt, kept whole by the importer.
  const padding = JSON.stringify({ type: 'user', message: { role: 'user', content: 'x'.repeat(2.5 * 1024 * 1024) }, uuid: 'pad', parentUuid: null, sessionId: 's', timestamp: '2026-01-01T00:00:00Z', cwd: '/p' });
  const big = `${log.trimEnd()}\n${padding}\n`;
  const total = Buffer.byteLength(big);
  const seen = [];
  const imported = engine.importSession(big, { onProgress: (done, all) => seen.push([done, all]) });
  assert.deepEqual(seen, [[1048576, total], [2097152, total], [total, total]]);
  assert.deepEqual(imported, engine.importSession(big));
  let calls = 0;
  const stop = () => { calls += 1; if (calls === 2) throw new Error('cancelled'); };
  assert.throws(() => engine.importSession(big, { onProgress: stop }), /^Error: importSession: options\.onProgress: threw at byte 2097152 of \d+: the call was stopped$/);
  assert.throws(() => engine.importSession(log, { onProgress: 1 }), /option `onProgress` must be a function/);
});
