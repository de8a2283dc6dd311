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

// The module's own memory (initSync returns the instance's exports once it is loaded).
const wasmBytes = () => engine.initSync().memory.buffer.byteLength;
const MiB = 1 << 20;
/** The per-line limit the README states (`MAX_LINE_BYTES`). */
const LINE_LIMIT = 32 * MiB;

test('a line past the limit, streamed in chunks, is refused without being held: memory stays bounded', () => {
  const encoder = new TextEncoder();
  const record = (uuid, parentUuid, content) => ({ type: 'user', uuid, parentUuid, cwd: '/work', timestamp: '2025-12-01T10:00:00.000Z', message: { role: 'user', content } });
  const import_ = new engine.SessionImport();
  import_.pushChunk(encoder.encode(`${JSON.stringify(record('u1', null, 'First question.'))}\n`));
  const before = wasmBytes();
  // Three times the limit, in 1 MiB chunks, the same buffer each time: cheap to make.
  const head = JSON.stringify(record('u2', 'u1', '')).replace('"content":""', '"content":"');
  import_.pushChunk(encoder.encode(head));
  const filler = new Uint8Array(MiB).fill(0x78);
  let length = head.length;
  while (length <= 3 * LINE_LIMIT) {
    import_.pushChunk(filler);
    length += filler.length;
  }
  import_.pushChunk(encoder.encode(`"}}\n${JSON.stringify(record('u3', 'u2', 'Last question.'))}\n`));
  const grown = wasmBytes() - before;
  const result = import_.finish();
  import_.free();
  assert.ok(grown <= LINE_LIMIT + 8 * MiB, `wasm memory grew ${(grown / MiB).toFixed(1)} MiB for a ${(length / MiB).toFixed(0)} MiB line`);
  const refused = result.warnings.filter((warning) => warning.kind === 'line-too-long');
  assert.deepEqual(refused.map((warning) => warning.line), [2]);
  assert.match(refused[0].message, new RegExp(`^a line of ${length + 3} bytes, over the 32 MiB a line may hold, not read`));
  const prompts = JSON.parse(result.scenarioJson).steps.filter((step) => step.kind === 'user').map((step) => step.prompt);
  assert.deepEqual(prompts, ['First question.', 'Last question.'], 'the records around it keep their thread');
});

test('a byte-order mark cut across chunks is skipped; duplicated call ids import and replay', () => {
  const bytes = fixture('codex-rollout.jsonl');
  const whole = engine.importSession(bytes.toString('utf8'));
  const marked = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), bytes]);
  const streamed = new engine.SessionImport();
  for (let at = 0; at < marked.length; at += 2) streamed.pushChunk(marked.subarray(at, at + 2));
  assert.deepEqual(streamed.finish(), whole);
  streamed.free();
  // Every line written twice: each call and each output is seen twice.
  const doubled = bytes.toString('utf8').trimEnd().split('\n').flatMap((line) => [line, line]).join('\n');
  const imported = engine.importSession(doubled);
  assert.ok(imported.warnings.some((warning) => warning.kind === 'duplicate-id'));
  const trace = engine.runScenario(imported.scenarioJson);
  assert.equal(trace.steps.length, JSON.parse(imported.scenarioJson).steps.length);
});
