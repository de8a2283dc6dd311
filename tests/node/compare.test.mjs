// Codex's context, @ search and the profile comparison through the wasm package.
import { generateSession } from '../gen/corpus.mjs';
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
  assert.throws(() => engine.compareProfiles(text, ['codex'], { prices: { codex: prices } }), /options\.prices\.codex\.extra: unknown field; expected one of "inputPerMTok"/);
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

const LONG = ['long-short-prompts', 'long-tool-output', 'long-settings', 'auto-compaction', 'cheap-stage'];

test('recommended costs no more and sends no more than claude-code on every long built-in scenario, at equal prices', () => {
  for (const name of LONG) {
    // The presets as they ship: cheap-stage's own switches turn recommended's cache-aware variant on.
    const scenario = { ...JSON.parse(read(`web/scenarios/${name}.json`)), switches: {} };
    const { 'claude-code': theirs, recommended: ours } = engine.compareProfiles(scenario, ['claude-code', 'recommended'], undefined);
    assert.ok(ours.totals.costMicroUsd <= theirs.totals.costMicroUsd,
      `${name}: recommended ${ours.totals.costMicroUsd} µ$ against claude-code ${theirs.totals.costMicroUsd} µ$`);
    assert.ok(ours.totals.sent <= theirs.totals.sent, `${name}: recommended sent ${ours.totals.sent} against ${theirs.totals.sent}`);
  }
});

// Cost, not tokens sent: Claude Code 2.1.332 sends more per read (no stub for an unchanged
// re-read), so on mention-heavy it compacts where recommended need not, and then sends fewer
// tokens than recommended while it forgets facts and costs more.
test('on generated sessions of every kind, recommended keeps as many facts as any profile and costs no more than claude-code', () => {
  const profiles = engine.profileNames();
  const kept = (/** @type {any} */ run) => run.recall.filter((/** @type {any} */ r) => r.state === 'verbatim' || r.state === 'summary').length;
  for (const [index, kind] of ['tool-heavy', 'edit-heavy', 'mention-heavy', 'settings-heavy'].entries()) {
    const comparison = engine.compareProfiles(JSON.stringify(generateSession(kind, index + 1)), profiles, undefined);
    const ours = comparison.recommended;
    for (const profile of profiles) {
      assert.ok(kept(ours) >= kept(comparison[profile]), `${kind}: recommended keeps ${kept(ours)}, ${profile} ${kept(comparison[profile])}`);
    }
    assert.ok(ours.totals.costMicroUsd <= comparison['claude-code'].totals.costMicroUsd, `${kind}: ${ours.totals.costMicroUsd} µ$ against ${comparison['claude-code'].totals.costMicroUsd} µ$`);
  }
});

test('a compaction that asks for a summary is priced with its summary call, and the step includes it', () => {
  const comparison = engine.compareProfiles(read('web/scenarios/auto-compaction.json'), ['claude-code-2.1.88'], undefined);
  const compacted = comparison['claude-code-2.1.88'].steps.filter((step) => step.compacted);
  assert.ok(compacted.length > 0);
  for (const step of compacted) {
    const call = step.summaryCall;
    assert.ok(call && call.output > 0 && call.cached > 0, JSON.stringify(call));
    assert.ok(step.sent > call.sent && step.costMicroUsd > call.costMicroUsd);
  }
});

test('the recall measure finds every seeded fact of a generated session, and says where it stands', () => {
  const scenario = generateSession('tool-heavy', 3);
  assert.deepEqual(scenario, generateSession('tool-heavy', 3), 'the generator is deterministic');
  const comparison = engine.compareProfiles(JSON.stringify(scenario), ['claude-code', 'recommended'], undefined);
  for (const [profile, run] of Object.entries(comparison)) {
    assert.deepEqual(run.recall.map((r) => r.fact), scenario.facts.map((f) => f.id), profile);
    for (const recall of run.recall) {
      assert.ok(['verbatim', 'summary', 'referenced', 'gone'].includes(recall.state), `${profile}: ${recall.state}`);
      assert.ok(recall.reason.length > 0);
    }
    // The CLAUDE.md instruction is loaded on every request, so it is never lost.
    assert.equal(run.recall.find((r) => r.fact === 'instruction').state, 'verbatim', profile);
    for (const step of run.steps.filter((s) => s.compacted)) {
      const counts = step.recall;
      assert.ok(counts, `${profile}: a compaction step carries recall counts`);
      assert.ok(counts.verbatim + counts.summary + counts.referenced + counts.gone <= scenario.facts.length);
    }
  }
  // A scenario without facts reports none.
  const none = engine.compareProfiles(read('web/scenarios/long-settings.json'), ['recommended'], undefined);
  assert.deepEqual(none.recommended.recall, []);
});

test('compareProfiles runs opencode-style and aider-style: each compacts the way its agent does', () => {
  /** A user turn whose Bash call prints `tokens` tokens (a quarter of the characters), then an answer. */
  const turn = (/** @type {number} */ n, /** @type {number} */ tokens) => [
    { kind: 'user', prompt: `Task ${n}: run the step.` },
    { kind: 'assistant', blocks: [{ type: 'tool_use', id: `b${n}`, name: 'Bash', input: { command: `run ${n}` }, output: `OUT${n}:${'o'.repeat(tokens * 4 - 5)}` }] },
    { kind: 'assistant', blocks: [{ type: 'text', text: `Task ${n} is done.` }] },
  ];
  // A 100K window with a 20K output limit: OpenCode's usable window is 80K, Aider's history budget 6,250.
  const steps = [25_000, 50_000, 5_000].flatMap((tokens, i) => turn(i + 1, tokens));
  // The peers are built on Claude Code 2.1.88, so they are compared with it.
  const scenario = JSON.stringify({ profile: 'claude-code-2.1.88', config: { contextWindow: 100_000, outputReserve: 20_000 }, steps });
  const names = engine.profileNames();
  assert.ok(names.includes('opencode-style') && names.includes('aider-style'), names.join(', '));
  const comparison = engine.compareProfiles(scenario, ['claude-code-2.1.88', 'opencode-style', 'aider-style'], undefined);
  const policies = (/** @type {string} */ profile) => comparison[profile].steps.flatMap((step) => (step.compacted ? [step.compacted.policy] : []));
  assert.deepEqual(policies('claude-code-2.1.88'), ['claude-code.full']);
  // OpenCode prunes first; the prune never makes enough room (the large output is in the last
  // two turns), so its summary follows.
  const opencode = policies('opencode-style');
  assert.ok(opencode.every((policy) => policy.startsWith('opencode.')) && opencode.at(-1) === 'opencode.summary', opencode.join(', '));
  const aider = policies('aider-style');
  assert.ok(aider.length > 0 && aider.every((policy) => policy === 'aider.budgets'), aider.join(', '));
});

test('runScenario\'s cacheAccount is compareProfiles of the scenario under its own profile, as the scenario says', () => {
  for (const file of ['external-edit.json', 'auto-compaction.json', 'codex-context.json']) {
    const text = read(`web/scenarios/${file}`);
    const profile = JSON.parse(text).profile;
    const trace = engine.runScenario(text, { cacheAccount: true });
    const compared = engine.compareProfiles(text, [profile], { usage: 'scenario' })[profile];
    assert.deepEqual(trace.cacheAccount, compared, file);
    assert.ok(trace.cacheAccount.steps.every((step) => typeof step.cache.reason === 'string' && step.cache.reason !== ''), `${file}: every request says why`);
  }
  assert.equal(engine.runScenario(read('web/scenarios/external-edit.json')).cacheAccount, undefined, 'only when asked for');
  assert.throws(() => engine.runScenario(read('web/scenarios/external-edit.json'), { cacheAccount: 1 }), /cacheAccount.*boolean/);
  assert.throws(() => engine.compareProfiles(read('web/scenarios/external-edit.json'), ['codex'], { usage: 'guessed' }), /options\.usage: unknown usage/);
});
