// Session logs in through the JS API: whole or streamed in chunks, the same result; the
// scenario it gives replays; bad input is an Error naming the problem.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { engine } from './engine.mjs';

const fixture = (name) => readFileSync(new URL(`../fixtures/import/${name}`, import.meta.url));

for (const [name, format] of [['claude-code-session.jsonl', 'claude-code'], ['codex-rollout.jsonl', 'codex']]) {
  test(`${name}: whole, streamed in chunks of any size, and recognised, the same import`, () => {
    const bytes = fixture(name);
    const whole = engine.importSession(bytes.toString('utf8'), { format });
    assert.equal(whole.format, format);
    assert.ok(whole.recorded.length > 0, 'usage recorded');
    assert.deepEqual(engine.importSession(bytes.toString('utf8')), whole, 'the format is recognised');
    for (const size of [1, 7, 4096]) {
      const streamed = new engine.SessionImport({ format });
      for (let at = 0; at < bytes.length; at += size) streamed.pushChunk(bytes.subarray(at, at + size));
      assert.equal(streamed.progress().bytes, bytes.length);
      assert.deepEqual(streamed.finish(), whole, `chunks of ${size} bytes`);
      assert.throws(() => streamed.finish(), /finish: this import is finished/);
      streamed.free();
    }
    const trace = engine.runScenario(whole.scenarioJson);
    const steps = JSON.parse(whole.scenarioJson).steps.length;
    assert.equal(trace.steps.length, steps, 'the scenario replays, one trace step per step');
    for (const usage of whole.recorded) assert.ok(usage.step === null || usage.step < steps);
  });
}

test('bad input: an Error naming the problem, never a trap', () => {
  assert.throws(() => engine.importSession('{"type":"user"', { format: 'claude' }), /importSession: .*unknown session log format "claude"/);
  assert.throws(() => engine.importSession('not json\n'), /importSession: .*line 1/);
  assert.throws(() => engine.importSession(42), /importSession: argument `text` must be a string/);
  assert.throws(() => new engine.SessionImport({ format: 7 }), /SessionImport: /);
  const streamed = new engine.SessionImport();
  assert.throws(() => streamed.pushChunk('text'), /pushChunk: argument `chunk` must be a Uint8Array/);
  streamed.free();
  assert.equal(engine.estimateTokens('still fine'), engine.estimateTokens('still fine'));
});
