// Compaction through the wasm package: the two phases on a live session, compactScenario, and
// the errors a host can make.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { engine } from './engine.mjs';

const scenario = readFileSync(new URL('../../web/scenarios/auto-compaction.json', import.meta.url), 'utf8');

/** A session that read two files. */
function worked() {
  const s = new engine.Session({ profile: 'claude-code-2.1.88', cwd: '/p' });
  s.writeFile('a.ts', 'export const a = 1;\n'.repeat(50), 1);
  s.writeFile('b.ts', 'export const b = 2;\n'.repeat(50), 2);
  s.step({ kind: 'user', prompt: 'read both' }, 10);
  s.step({ kind: 'assistant', blocks: [
    { type: 'tool_use', name: 'Read', input: { file_path: 'a.ts' } },
    { type: 'tool_use', name: 'Read', input: { file_path: 'b.ts' } },
  ] }, 20);
  return s;
}

test('plan, then apply: the survival list accounts for the files and the conversation', () => {
  const s = worked();
  const plan = s.planCompaction({ policy: 'claude-code.full' }, 30);
  assert.equal(plan.applies, true);
  assert.deepEqual(plan.postCompact.map((a) => a.kind), ['file', 'file']);
  const report = s.applyCompaction(plan, 30);
  assert.equal(report.summarySource, 'extractive');
  const fates = Object.fromEntries(report.survival.map((x) => [x.item, x.fate]));
  assert.equal(fates['/p/a.ts'], 'restored');
  assert.equal(fates.conversation, 'summarised');
  // A conversation this short grows: the summary and the restored files outweigh it.
  assert.ok(report.tokensAfter > report.tokensBefore);
});

test('a plan that is not the session\'s, a blank summary and an unknown policy are refused by name', () => {
  const s = worked();
  assert.throws(() => s.applyCompaction({ id: 99 }, 30), /applyCompaction: plan 99 is not one of the 8 latest plans/);
  const plan = s.planCompaction({}, 30);
  assert.throws(() => s.applyCompaction(plan, 30, '  '), /applyCompaction: summary: is empty/);
  assert.throws(() => s.planCompaction({ policy: 'lossy' }, 30), /planCompaction: policy: unknown policy "lossy": expected one of "claude-code.full"/);
  assert.throws(() => s.planCompaction({ policy: 'claude-code.partial' }, 30), /pivot: required field is missing/);
  // Nothing was applied: the files are still in the read-file state.
  assert.equal(s.fileState().length, 2);
});

test('compactScenario compares policies on the same replayed session', () => {
  const policies = engine.compactionPolicies();
  assert.equal(policies[0], 'claude-code.full');
  const full = engine.compactScenario(scenario, { policy: 'claude-code.full' }, 9);
  const masked = engine.compactScenario(scenario, { policy: 'swe.observation_mask', params: { n: 1 } }, 9);
  assert.equal(full.before.tokens.total, masked.before.tokens.total);
  assert.ok(full.report.restored.length <= 5);
  assert.equal(full.after.tokens.total, full.report.tokensAfter);
  // Masking keeps the conversation's prefix up to the first masked result; a summary keeps none of it.
  assert.ok(masked.report.prefixKept > full.report.prefixKept);
  assert.throws(() => engine.compactScenario(scenario, {}, 99), /compactScenario: steps: 99 steps asked for, but the scenario has 13/);
});
