// compactionThresholds: the formulas of both originals, for windows from 8K to 1M.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from './engine.mjs';

test('Claude Code on a 200K window with the 20K reserve, and on 1M', () => {
  assert.deepEqual(engine.compactionThresholds({ profile: 'claude-code', contextWindow: 200_000, maxOutputTokens: 32_000 }),
    { effectiveWindow: 180_000, autocompact: 167_000, warning: 147_000, error: 147_000, blocking: 177_000 });
  const million = engine.compactionThresholds({ profile: 'claude-code', contextWindow: 1_000_000 });
  assert.equal(million.effectiveWindow, 980_000);
  assert.equal(million.autocompact, 967_000);
});

test('the percentage override can only lower the threshold', () => {
  const at = (/** @type {number} */ pct) => engine.compactionThresholds({ profile: 'claude-code', contextWindow: 200_000, autocompactPctOverride: pct }).autocompact;
  assert.equal(at(95), 167_000);
  assert.equal(at(50), 90_000);
});

test('Codex: 90 % of the window, an effective window of 95 %, a configured limit capped at 90 % (X8)', () => {
  assert.deepEqual(engine.compactionThresholds({ profile: 'codex', contextWindow: 272_000 }),
    { effectiveWindow: 258_400, autocompact: 244_800 });
  assert.equal(engine.compactionThresholds({ profile: 'codex', contextWindow: 272_000, autoCompactTokenLimit: 260_000 }).autocompact, 244_800);
  assert.equal(engine.compactionThresholds({ profile: 'codex', contextWindow: 272_000, autoCompactTokenLimit: 100_000 }).autocompact, 100_000);
});

test('the formulas hold for every window from 8K to 1M', () => {
  for (let window = 8_192; window <= 1_048_576; window = Math.floor(window * 1.37)) {
    for (const maxOutputTokens of [8_192, 32_000, 64_000]) {
      const t = engine.compactionThresholds({ profile: 'claude-code-2.1.88', contextWindow: window, maxOutputTokens });
      // 2.1.332 reads a window of at least 100,000 (docs/versions.md).
      const current = engine.compactionThresholds({ profile: 'claude-code', contextWindow: window, maxOutputTokens });
      const floored = engine.compactionThresholds({ profile: 'claude-code-2.1.88', contextWindow: Math.max(window, 100_000), maxOutputTokens });
      assert.deepEqual(current, floored, `${window}`);
      const effective = Math.max(0, window - Math.min(maxOutputTokens, 20_000));
      assert.equal(t.effectiveWindow, effective, `${window}`);
      assert.equal(t.autocompact, Math.max(0, effective - 13_000));
      assert.equal(t.blocking, Math.max(0, effective - 3_000));
      assert.equal(t.warning, Math.max(0, t.autocompact - 20_000));
      assert.ok(t.autocompact <= t.effectiveWindow);
    }
    const codex = engine.compactionThresholds({ profile: 'codex', contextWindow: window });
    assert.equal(codex.autocompact, Math.floor(window * 0.9));
    assert.equal(codex.effectiveWindow, Math.floor(window * 95 / 100));
  }
});

test('bad options are errors that name the option', () => {
  assert.throws(() => engine.compactionThresholds(/** @type {any} */ ({})), /compactionThresholds: option `contextWindow` is required/);
  assert.throws(() => engine.compactionThresholds({ contextWindow: -1 }), /compactionThresholds: option `contextWindow` must be an integer from 1 to/);
  assert.throws(() => engine.compactionThresholds({ contextWindow: 1000, autocompactPctOverride: 0 }), /option `autocompactPctOverride` must be an integer from 1 to 100, got 0/);
  assert.throws(() => engine.compactionThresholds(/** @type {any} */ ({ contextWindow: 1000, window: 3 })), /unknown option "window"/);
});
