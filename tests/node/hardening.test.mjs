// Issue 11's reproducers, each a test: what a hostile embedder tried through the JS API, and
// what must happen instead (an Error with a message, nothing half-applied, the Session still
// usable, memory bounded).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { engine } from './engine.mjs';

const { Session } = engine;
const ROOT = resolve(import.meta.dirname, '../..');

/**
 * Asserts that `run` throws an `Error` (never a raw value) whose message matches `pattern`.
 * @param {() => unknown} run
 * @param {RegExp} pattern
 */
function throwsError(run, pattern) {
  assert.throws(run, (error) => {
    assert.ok(error instanceof Error, `an Error, not ${String(error)}`);
    assert.ok(!(error instanceof WebAssembly.RuntimeError), `a trap: ${error.message}`);
    assert.match(error.message, pattern);
    return true;
  });
}

const session = () => new Session({ cwd: '/p', config: { deny: ['Read(./secrets/**)'] } });

/** A session that still answers: a prompt gives a turn, and it can be freed. */
function assertUsable(s) {
  const turn = s.submit('still there?', 9_000_000);
  assert.equal(turn.round, 'human-turn');
  s.free();
}

test('F1: a Uint8Array subclass that lies about its length is copied by its real bytes', () => {
  for (const fake of [2 ** 31, 1000, 1e6, 1e9]) {
    class Liar extends Uint8Array {
      get length() {
        return fake;
      }
    }
    const s = session();
    s.writeFile('b.bin', new Liar([65]), 1);
    assert.equal(s.stat('b.bin').size, 1, `fake length ${fake}`);
    assert.equal(s.readFileText('b.bin'), 'A');
    s.free();
  }
});

test('F1: only genuine Uint8Arrays are bytes, and content has a size limit', () => {
  const s = session();
  const lookalike = { length: 3, 0: 1, 1: 2, 2: 3, byteLength: 3 };
  throwsError(() => s.writeFile('x', lookalike, 1), /argument `content` must be a string or a Uint8Array, got object/);
  const proxied = new Proxy(new Uint8Array([1, 2]), {});
  throwsError(() => s.writeFile('x', proxied, 1), /must be a string or a Uint8Array/);
  throwsError(() => s.writeFile('big', new Uint8Array(32 * 1024 * 1024 + 1), 1), /33554433 bytes; the limit is 33554432 bytes/);
  assertUsable(s);
});

/** Hostile values that throw when they are read. */
function hostileValues() {
  const ownKeysThrows = new Proxy({}, { ownKeys() { throw 42; } });
  const getterThrows = { get profile() { throw new Error('getter boom'); } };
  const { proxy: revoked, revoke } = Proxy.revocable({}, {});
  revoke();
  return { ownKeysThrows, getterThrows, revoked };
}

test('F2: a value that throws while it is read becomes an Error, in every free function', () => {
  const scenario = { steps: [{ kind: 'user', prompt: 'hi' }] };
  for (const [name, value] of Object.entries(hostileValues())) {
    const calls = {
      'new Session': () => new Session(value),
      extractMentions: () => engine.extractMentions('@a', value),
      estimateTokens: () => engine.estimateTokens('abc', value),
      diffSnippet: () => engine.diffSnippet('a', 'b', value),
      diffSnippetReport: () => engine.diffSnippetReport('a', 'b', value),
      compactionThresholds: () => engine.compactionThresholds(value),
      runScenario: () => engine.runScenario(value),
      compareProfiles: () => engine.compareProfiles(scenario, value),
      compactScenario: () => engine.compactScenario(scenario, value),
    };
    for (const [call, run] of Object.entries(calls)) {
      assert.throws(run, (error) => {
        assert.ok(error instanceof Error, `${call} with ${name}: threw ${String(error)}, not an Error`);
        assert.ok(error.message.length > 0);
        return true;
      });
    }
  }
});

test('F2: a throwing getter is an error naming the option, never the default', () => {
  throwsError(() => engine.extractMentions('@a', hostileValues().getterThrows), /extractMentions: reading option `profile` threw: getter boom/);
  throwsError(() => engine.estimateTokens('abc', hostileValues().ownKeysThrows), /estimateTokens: reading options threw: 42/);
});

test('F2: a Session method that fails on a hostile value leaves the Session usable', () => {
  const s = session();
  const { ownKeysThrows, getterThrows, revoked } = hostileValues();
  throwsError(() => s.read('a', ownKeysThrows, 1), /read: reading options threw: 42/);
  throwsError(() => s.searchFiles('a', getterThrows), /searchFiles: unknown option "profile"/);
  throwsError(() => s.planCompaction(revoked, 1), /planCompaction/);
  throwsError(() => s.step(ownKeysThrows, 1), /step/);
  throwsError(() => s.applyCompaction(getterThrows, 1, undefined), /applyCompaction/);
  s.writeFile('a.txt', 'one\n', 1);
  assert.equal(s.read('a.txt', undefined, 2).isError, false);
  assertUsable(s);
});

test('F2: a getter that calls back into the same Session gets an Error, and the Session survives', () => {
  const s = session();
  const reentrant = {
    get offset() {
      s.fileState();
      return 1;
    },
  };
  s.writeFile('a.txt', 'one\n', 1);
  assert.throws(() => s.read('a.txt', reentrant, 2), (error) => error instanceof Error);
  assert.equal(s.read('a.txt', undefined, 3).isError, false);
  assertUsable(s);
});

test('F3: a long scenario gives a trace whose size grows with its steps, never null', () => {
  const steps = [];
  for (let i = 0; i < 1_000; i += 1) {
    steps.push({ kind: 'user', prompt: `step ${i}` }, { kind: 'assistant', blocks: [{ type: 'text', text: 'ok' }] });
  }
  const trace = engine.runScenario({ steps });
  assert.notEqual(trace, null);
  assert.equal(trace.steps.length, 2_000);
  const last = trace.steps[1_998].turn.request;
  assert.equal(last.messages.length, 1_999, 'every prompt and answer, then the new prompt');
  assert.equal(last.messages.at(-1).content.at(-1).text, 'step 999');
  assert.equal(trace.steps[1_999].turn.request, undefined, 'the end of a turn sends nothing');
  // Each message is one object however many requests carry it.
  assert.equal(trace.steps[1_998].turn.request.messages[0], trace.steps[2].turn.request.messages[0]);
});

test('F3: prompts that merge into one ever-growing message stop at the trace limit with an Error', () => {
  const steps = Array.from({ length: 2_500 }, (_, i) => ({ kind: 'user', prompt: `step ${i} please` }));
  throwsError(() => engine.runScenario({ steps }), /runScenario: steps\[\d+\]: the trace would hold \d+ bytes of messages, more than its limit of 268435456 \(256 MiB\)/);
});

test('a trapped module recovers by importing a fresh instance', async () => {
  const bytes = readFileSync(resolve(ROOT, 'pkg/context_assembly_bg.wasm'));
  const trapped = await import(`../../pkg/context_assembly.js?instance=trap-${process.pid}`);
  const exports = trapped.initSync({ module: bytes });
  // The allocator aborts on an impossible request: the one way left to trap the module.
  assert.throws(() => exports.__wbindgen_malloc(0xfffffff0, 0x10000), WebAssembly.RuntimeError);
  const fresh = await import(`../../pkg/context_assembly.js?instance=fresh-${process.pid}`);
  fresh.initSync({ module: bytes });
  assert.equal(fresh.estimateTokens('hello', { method: 'codex' }), 2);
});

test('lone surrogates are refused, not mapped to one file', () => {
  const s = session();
  throwsError(() => s.writeFile('\uD800', 'a', 1), /writeFile: argument `path` is not well-formed text: a lone surrogate at UTF-16 offset 0/);
  throwsError(() => s.writeFile('x\uDC00', 'b', 1), /lone surrogate at UTF-16 offset 1/);
  s.writeFile('\uD83D\uDE00.txt', 'a well-formed pair', 1);
  assert.equal(s.readFileText('😀.txt'), 'a well-formed pair');
  assertUsable(s);
});

test('read takes the limits a scenario takes', () => {
  const s = session();
  s.writeFile('a.txt', 'one\ntwo\n', 1);
  throwsError(() => s.read('a.txt', { limit: -1 }, 2), /read: option `limit` must be an integer from 0 to 9007199254740992, got -1/);
  assertUsable(s);
});

test("a Session's clock never runs backwards, and a scenario's clock stays within 2^53", () => {
  const s = session();
  s.submit('one', 2_000);
  throwsError(() => s.submit('two', 1_000), /submit: atMs: 1000 is before the session's clock \(2000\): time only moves forward/);
  s.submit('two', 2_000);
  const late = { startMs: 2 ** 53 - 1, steps: [{ kind: 'user', prompt: 'hi' }] };
  throwsError(() => engine.runScenario(late), /runScenario: steps\[0\]: the clock would reach 9007199254741991 ms, past 9007199254740992/);
  assertUsable(s);
});

test('applyCompaction carries out the plan it was given, or refuses an edited one', () => {
  const s = session();
  s.step({ kind: 'user', prompt: 'hello' }, 1_000);
  s.step({ kind: 'assistant', blocks: [{ type: 'text', text: 'hi' }] }, 2_000);
  const plan = s.planCompaction({ policy: 'claude-code.full' }, 3_000);
  throwsError(() => s.applyCompaction({ ...plan, policy: 'opencode.prune' }, 3_000, 'summary'), /applyCompaction: plan \d+ differs from the plan planCompaction returned \(field `policy`\)/);
  const report = s.applyCompaction(plan, 3_000, 'The user said hello.');
  assert.equal(report.policy, 'claude-code.full');
  assertUsable(s);
});

test('a step is applied whole or not at all', () => {
  const s = session();
  const response = (id) => ({
    kind: 'assistant',
    blocks: [
      { type: 'tool_use', id: `w${id}`, name: 'Write', input: { file_path: 'new.txt', content: 'x' } },
      { type: 'tool_use', id: `r${id}`, name: 'Read', input: { file_path: '../../../x' } },
    ],
  });
  s.step({ kind: 'user', prompt: 'go' }, 1_000);
  throwsError(() => s.step(response(1), 2_000), /^step\.blocks\[1\]\.input\.file_path: path "\.\.\/\.\.\/\.\.\/x"/);
  throwsError(() => s.stat('new.txt'), /ENOENT/);
  const fixed = response(1);
  fixed.blocks[1].input.file_path = 'new.txt';
  const turn = s.step(fixed, 3_000);
  assert.equal(turn.toolResults.length, 2, 'the ids of the refused step were never used');
  assertUsable(s);
});

test('errors name the place where the value was given', () => {
  throwsError(() => new Session({ cwd: '/p', config: { deny: ['Read(.env'] } }), /^new Session: config\.deny\[0\]: /);
  const s = session();
  throwsError(() => s.step({ kind: 'user' }, 1), /^step\.prompt: required field is missing$/);
  assertUsable(s);
  throwsError(() => engine.runScenario({ config: { deny: ['Read(.env'] }, steps: [] }), /^runScenario: config\.deny\[0\]: /);
  throwsError(() => engine.runScenario({ steps: [{ kind: 'toolResults', results: [{ toolUseId: 'x', content: '' }] }] }), /steps\[0\]\.results\[0\]\.toolUseId/);
  throwsError(() => engine.runScenario({ files: { a: '1', './a': '2' }, steps: [] }), /runScenario: files\[1\]: "\.\/a" is \/project\/a, the same file as files\[0\] \("a"\)/);
});

test('F6: a path written in NFD names the NFC file, in scenarios and on a Session', () => {
  const marker = 'NFD-DENIED-MARKER';
  const scenario = {
    profile: 'recommended',
    config: { deny: ['Read(./caf\u00e9/**)'] },
    files: { 'cafe\u0301/key.txt': marker },
    steps: [{ kind: 'user', prompt: 'look at @cafe\u0301/key.txt' }],
  };
  const trace = engine.runScenario(scenario);
  assert.ok(!JSON.stringify(trace).includes(marker), 'the denied file stays out of the request');
  const s = new Session({ cwd: '/p', config: { deny: ['Read(./caf\u00e9/**)'] } });
  s.writeFile('cafe\u0301/key.txt', marker, 1);
  assert.equal(s.readFileText('caf\u00e9/key.txt'), marker, 'one file, however it is spelt');
  const turn = s.step({ kind: 'user', prompt: 'look at @cafe\u0301/key.txt' }, 2);
  assert.ok(!JSON.stringify(turn).includes(marker));
  s.free();
});
