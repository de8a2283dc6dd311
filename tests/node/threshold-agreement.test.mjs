// compactionThresholds says where a Session under the profile compacts (issue 27): the
// profile's formula and the strategy its auto-compaction follows, from the same function the
// Session uses (session::session_thresholds). Before, opencode-style reported Claude Code's
// 167,000 at 200K while its Session compacted at OpenCode's overflow limit, and aider-style
// said nothing of its history budget.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from './engine.mjs';

const at200k = (profile) => engine.compactionThresholds({ profile, contextWindow: 200_000 });

test('each profile reports the threshold its Session compacts at', () => {
  assert.equal(at200k('claude-code').autocompact, 167_000);
  assert.equal(at200k('recommended').autocompact, 167_000);
  assert.equal(at200k('codex').autocompact, 180_000);
  // OpenCode's overflow limit: the window less the output a Session reserves (20,000 of 32,000).
  assert.equal(at200k('opencode-style').autocompact, 180_000);
  // Aider compacts by its history budget: the window / 16, at most 8,192.
  assert.equal(at200k('aider-style').historyBudget, 8_192);
  assert.equal(at200k('claude-code').historyBudget, undefined);
});

test('a Session of growing prompts under opencode-style compacts at the reported limit', () => {
  const { autocompact } = engine.compactionThresholds({ profile: 'opencode-style', contextWindow: 40_000, maxOutputTokens: 4_000 });
  const prompt = (i) => `turn ${i}: ${'lorem ipsum dolor '.repeat(400)}`;
  const scenario = {
    profile: 'opencode-style',
    config: { contextWindow: 40_000, outputReserve: 4_000 },
    steps: Array.from({ length: 40 }, (_, i) => ({ kind: 'user', prompt: prompt(i) })),
  };
  const trace = engine.runScenario(JSON.stringify(scenario));
  const decided = trace.steps.flatMap((step) => step.turn.decisions)
    .find((d) => d.subject === 'auto-compaction' && d.verdict === 'needed');
  assert.ok(decided !== undefined, 'the session compacts');
  assert.match(decided.reason, new RegExp(autocompact.toLocaleString('en-US')));
});
