// Redaction through the JS API: the redacted scenario replays to the same request totals,
// its content words are gone, its mentions still resolve, a key makes the stand-ins its own;
// bad input is an Error.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { engine } from './engine.mjs';

const scenario = (name) => readFileSync(new URL(`../../web/scenarios/${name}`, import.meta.url), 'utf8');

/** Each step's request total, or null for a step without a request. */
const totals = (json) => engine.runScenario(json).steps.map((step) => step.turn.request?.tokens.total ?? null);

for (const name of ['external-edit.json', 'nested-claude-md.json', 'codex-context.json']) {
  for (const paths of ['keep', 'hash']) {
    test(`${name} (paths ${paths}): the same totals, the content gone`, () => {
      const original = scenario(name);
      const redacted = engine.redactScenario(original, { paths, key: 'a node test key 0123456789' });
      assert.equal(redacted.keyed, true);
      assert.equal(redacted.warning, null);
      assert.equal(redacted.paths, paths);
      assert.ok(redacted.replaced.words > 0 && redacted.replaced.prompts > 0);
      assert.equal(redacted.replaced.paths > 0, paths === 'hash');
      assert.deepEqual(totals(redacted.scenarioJson), totals(original));
      const firstPrompt = JSON.parse(original).steps.find((step) => step.kind === 'user').prompt;
      const longWords = firstPrompt.split(/[^A-Za-z0-9]+/).filter((word) => word.length >= 4);
      const redactedPrompt = JSON.parse(redacted.scenarioJson).steps.find((step) => step.kind === 'user').prompt;
      assert.equal(redactedPrompt.length, firstPrompt.length);
      for (const word of longWords) assert.ok(!redactedPrompt.includes(` ${word} `), `${word} survived`);
    });
  }
}

test('a mention keeps resolving: the same attachment, its content redacted', () => {
  const original = { profile: 'claude-code', files: { 'notes/plan.md': 'Ship the parser before Friday.\n' },
    steps: [{ kind: 'user', prompt: 'Summarise @notes/plan.md for Alice' }] };
  const redacted = engine.redactScenario(original);
  assert.match(redacted.scenarioJson, /@notes\/plan\.md/);
  assert.doesNotMatch(redacted.scenarioJson, /Friday|Alice|Summarise/);
  const attachment = engine.runScenario(redacted.scenarioJson).steps[0].turn.attachments[0];
  assert.equal(attachment.kind, 'file');
});

test('a key changes the stand-ins; without one the result says it is open to guessing', () => {
  const original = { profile: 'claude-code', name: 'demo ghp_16C7e42F292c6912E7710c838347Ae178B4a',
    config: { systemPrompt: 'Customer Zorblat, PIN 4821', gitStatus: 'M db/10.209.166.55.conf' },
    steps: [{ kind: 'user', prompt: 'password Ge4.Drq-ZAI_Mr! for ana@corp.example' }] };
  const open = engine.redactScenario(original);
  assert.equal(open.keyed, false);
  assert.match(open.warning, /confirm a guess/);
  const one = engine.redactScenario(original, { key: 'key number one, 0123456789' });
  const two = engine.redactScenario(original, { key: 'key number two, 0123456789' });
  assert.notEqual(one.scenarioJson, two.scenarioJson);
  assert.equal(engine.redactScenario(original, { key: 'key number one, 0123456789' }).scenarioJson, one.scenarioJson);
  for (const secret of ['ghp_16C7', 'Zorblat', '4821', '10.209', '166.55', 'Ge4.', 'Drq', 'ZAI', '_Mr!', 'ana@corp']) {
    assert.ok(!one.scenarioJson.includes(secret), `${secret} survived`);
  }
});

test('bad input: an Error naming the problem', () => {
  assert.throws(() => engine.redactScenario('{"steps": [{"kind": "dance"}]}'), /redactScenario: .*steps\[0\]\.kind/);
  assert.throws(() => engine.redactScenario({ steps: [] }, { paths: 'scramble' }), /redactScenario: .*unknown path mode "scramble"/);
  assert.throws(() => engine.redactScenario({ steps: [] }, { path: 'keep' }), /redactScenario: /);
  assert.throws(() => engine.redactScenario({ steps: [] }, { key: 'short' }), /redactScenario: .*key.*5 characters.*at least 16/);
  assert.throws(() => engine.redactScenario({ steps: [] }, { key: 42 }), /redactScenario: .*key/);
});
