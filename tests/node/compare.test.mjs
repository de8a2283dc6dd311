// Codex's context, @ search and the profile comparison through the wasm package.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { engine } from './engine.mjs';

const read = (/** @type {string} */ path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

test('compareProfiles: the split adds up at every request, and nothing is cached first', () => {
  const comparison = engine.compareProfiles(read('web/scenarios/long-settings.json'), ['claude-code', 'codex'], undefined);
  assert.deepEqual(Object.keys(comparison).sort(), ['claude-code', 'codex']);
  for (const [profile, run] of Object.entries(comparison)) {
    assert.equal(run.steps[0].cached, 0, profile);
    for (const step of run.steps) assert.equal(step.cached + step.written + step.uncached, step.sent, profile);
    assert.equal(run.totals.sent, run.steps.reduce((sum, s) => sum + s.sent, 0));
  }
  // Codex's provider writes nothing separately: OpenAI's cache is automatic.
  assert.ok(comparison.codex.steps.every((s) => s.written === 0));
});

test('compareProfiles names a bad profile or price field', () => {
  const text = read('web/scenarios/codex-context.json');
  assert.throws(() => engine.compareProfiles(text, ['claude'], undefined), /compareProfiles: profiles\[0\]: unknown profile "claude"/);
  const prices = { inputPerMTok: 1, cachedInputPerMTok: 1, cacheWrite5mPerMTok: 1, cacheWrite1hPerMTok: 1, outputPerMTok: 1, extra: 2 };
  assert.throws(() => engine.compareProfiles(text, ['codex'], { prices: { codex: prices } }), /options\.prices\.codex: prices\.extra: unknown field; expected one of "inputPerMTok"/);
  assert.throws(() => engine.compareProfiles(text, ['codex'], { prices: { nobody: prices } }), /options\.prices\.nobody: unknown profile/);
});

test('a Codex session records its context once, then only what changed', () => {
  const s = new engine.Session({ profile: 'codex', cwd: '/repo' });
  s.writeFile('/repo/.git/HEAD', 'ref: main\n', 0);
  s.writeFile('/repo/AGENTS.md', 'Be careful.\n', 0);
  const first = s.step({ kind: 'user', prompt: 'hello' }, 1_000);
  const sources = first.request?.messages.flatMap((m) => m.content.map((b) => b.source)) ?? [];
  // permissions (developer), then AGENTS.md and <environment_context> (user), then the prompt.
  assert.deepEqual(sources.slice(0, 4), ['initial-context', 'initial-context', 'initial-context', 'prompt']);
  assert.equal(first.request?.messages[0].role, 'developer');
  assert.deepEqual(first.request?.userContext, []);
  s.step({ kind: 'assistant', blocks: [{ type: 'text', text: 'hi' }] }, 2_000);
  s.step({ kind: 'turnSettings', approvalPolicy: 'never' }, 3_000);
  const second = s.step({ kind: 'user', prompt: 'again' }, 4_000);
  const updates = second.request?.messages.filter((m) => m.content.some((b) => b.source === 'settings-update')) ?? [];
  assert.equal(updates.length, 1);
  assert.match(updates[0].content[0].text, /^<permissions instructions>/);
  const found = s.searchFiles('agents', { limit: 3 });
  assert.equal(found.matches[0].path, 'AGENTS.md');
  assert.throws(() => s.searchFiles("x", { limit: -1 }), /searchFiles: option `limit` must be an integer from 0 to 10000, got -1/);
});

test('defaultPrices gives the table compareProfiles charges each profile by default; a bad name is an Error', () => {
  const scenario = JSON.stringify({ profile: 'claude-code', files: { 'a.ts': 'a\n' }, steps: [{ kind: 'user', prompt: '@a.ts' }, { kind: 'user', prompt: 'again' }] });
  const own = engine.compareProfiles(scenario, ['claude-code', 'codex', 'recommended']);
  for (const profile of /** @type {const} */ (['claude-code', 'codex', 'recommended'])) {
    const table = engine.defaultPrices(profile);
    assert.deepEqual(Object.keys(table), ['inputPerMTok', 'cachedInputPerMTok', 'cacheWrite5mPerMTok', 'cacheWrite1hPerMTok', 'outputPerMTok']);
    const repriced = engine.compareProfiles(scenario, [profile], { prices: { [profile]: table } });
    assert.equal(repriced[profile].totals.costMicroUsd, own[profile].totals.costMicroUsd, profile);
  }
  assert.notDeepEqual(engine.defaultPrices('codex'), engine.defaultPrices('claude-code'));
  assert.throws(() => engine.defaultPrices('claude'), (/** @type {any} */ e) => e instanceof Error && /^defaultPrices: unknown profile "claude"/.test(e.message));
  assert.throws(() => engine.defaultPrices(7), (/** @type {any} */ e) => e instanceof Error && /argument `profile` must be a string, got number/.test(e.message));
});
