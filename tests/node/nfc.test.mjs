// Native = wasm for text in either Unicode form: the cases of tests/fixtures/nfc.json give NFD
// and NFC input to every entry point; crate/tests/nfc.rs keeps the core's native answers there
// (its `nfc` feature), and the wasm package (JavaScript's normaliser) must give the same.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine, fixture } from './engine.mjs';

/**
 * What a call gives, as the fixture keeps it: the value as JSON has it, or `{ error }` with
 * the message that does not repeat the function's name.
 * @param {string} name
 * @param {() => unknown} run
 */
function answer(name, run) {
  try {
    const value = run();
    return value === undefined ? null : JSON.parse(JSON.stringify(value));
  } catch (error) {
    assert.ok(error instanceof Error, `${name} throws an Error`);
    const prefix = `${name}: `;
    return { error: error.message.startsWith(prefix) ? error.message.slice(prefix.length) : error.message };
  }
}

/** @param {{ options: import('../../pkg/context_assembly.js').SessionOptions, calls: { method: string, args: unknown[] }[] }} c */
function sessionAnswers(c) {
  const session = new engine.Session(c.options);
  /** @type {unknown} */
  let plan;
  const answers = c.calls.map(({ method, args }) => {
    if (method === 'applyCompaction') return answer(method, () => session.applyCompaction(plan, args[0], undefined));
    const result = answer(method, () => session[method](...args));
    if (method === 'planCompaction') plan = result;
    return result;
  });
  session.free();
  return answers;
}

const { cases } = fixture('nfc.json');

for (const c of cases) {
  test(`${c.name}: wasm answers as native`, () => {
    const got = c.entry === 'Session' ? sessionAnswers(c) : answer(c.entry, () => engine[c.entry](...c.args));
    assert.deepStrictEqual(got, c.expected);
  });
}

test('the fixture is the bug it guards against: a file written in NFD is found in NFC, and the reverse', () => {
  const session = cases.find((c) => c.entry === 'Session');
  const answers = sessionAnswers(session);
  const at = (method, path) => session.calls.findIndex((call) => call.method === method && call.args[0] === path);
  assert.equal(answers[at('readFileText', 'na\u00efve.txt')], 'hello\n', 'written NFD, read NFC');
  assert.equal(answers[at('readFileText', 'dire\u0301/new.txt')], 'written\n', 'written NFC, read NFD');
  const denied = answers[at('read', 'se\u0301cret/key.txt')];
  assert.match(denied.content, /not allowed/, 'an NFD deny rule covers the NFC file');
  const trace = engine.runScenario(cases[0].args[0]);
  const attached = trace.steps[0].turn.attachments.filter((a) => a.kind === 'file').map((a) => a.path);
  assert.ok(attached.includes('/home/u/caf\u00e9/caf\u00e9/notes.md'), 'the NFD file mentioned in NFC is attached');
  assert.ok(!JSON.stringify(trace).includes('NFD-SECRET'), 'the NFD file under an NFC deny rule stays out');
});
