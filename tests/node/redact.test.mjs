// Redaction through the JS API: the redacted scenario replays to the same request totals,
// its content words are gone, its mentions still resolve; bad input is an Error.
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
      const redacted = engine.redactScenario(original, { paths });
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

test('bad input: an Error naming the problem', () => {
  assert.throws(() => engine.redactScenario('{"steps": [{"kind": "dance"}]}'), /redactScenario: .*steps\[0\]\.kind/);
  assert.throws(() => engine.redactScenario({ steps: [] }, { paths: 'scramble' }), /redactScenario: .*unknown path mode "scramble"/);
  assert.throws(() => engine.redactScenario({ steps: [] }, { path: 'keep' }), /redactScenario: /);
});
