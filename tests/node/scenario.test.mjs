// Scenarios through the wasm package: the golden traces the Rust tests check, byte for byte,
// and the error fixtures, message for message.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { engine, fixture } from './engine.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const read = (/** @type {string} */ path) => readFileSync(resolve(ROOT, path), 'utf8');
/** @type {{ file: string, name: string }[]} */
// The long measuring scenarios have no golden trace (tens of megabytes); the comparison tests cover them.
const index = JSON.parse(read('web/scenarios/index.json')).filter((/** @type {{ golden?: boolean }} */ entry) => entry.golden !== false);

test('every teaching scenario gives its golden trace, byte for byte (native = wasm)', () => {
  assert.ok(index.length >= 8);
  for (const { file } of index) {
    const trace = engine.runScenario(read(`web/scenarios/${file}`));
    const golden = read(`tests/fixtures/scenarios/${file.replace('.json', '.trace.json')}`);
    assert.equal(`${JSON.stringify(trace, null, 2)}\n`, golden, file);
  }
});

test('a scenario given as an object runs like its JSON text', () => {
  const text = read('web/scenarios/deny-rule.json');
  assert.deepEqual(engine.runScenario(JSON.parse(text)), engine.runScenario(text));
});

test('every request adds up: channels and categories each sum to the total, and the window to free + total', () => {
  for (const { file } of index) {
    const trace = engine.runScenario(read(`web/scenarios/${file}`));
    for (const [i, step] of trace.steps.entries()) {
      const request = step.turn.request;
      if (!request) continue;
      const sum = (/** @type {Record<string, number>} */ o) => Object.values(o).reduce((a, b) => a + b, 0);
      assert.equal(sum(request.tokens.byChannel), request.tokens.total, `${file} step ${i}`);
      assert.equal(sum(request.tokens.byCategory), request.tokens.total, `${file} step ${i}`);
      assert.equal(request.window.free + request.tokens.total - request.window.over, request.window.context);
    }
  }
});

test('bad scenarios throw errors that name the JSON path', () => {
  /** @type {{ name: string, scenario: unknown, error: string }[]} */
  const cases = fixture('scenario-errors.json');
  assert.ok(cases.length >= 25);
  for (const c of cases) {
    const input = typeof c.scenario === 'string' ? c.scenario : JSON.stringify(c.scenario);
    assert.throws(() => engine.runScenario(input), (/** @type {Error} */ error) => {
      assert.equal(error.message, `runScenario: ${c.error}`, c.name);
      return true;
    });
  }
});

test('scenarios that parse but cannot run throw errors that name the step', () => {
  /** @type {{ name: string, scenario: unknown, error: string }[]} */
  const cases = fixture('scenario-run-errors.json');
  assert.ok(cases.length >= 10);
  for (const c of cases) {
    assert.throws(() => engine.runScenario(JSON.stringify(c.scenario)), (/** @type {Error} */ error) => {
      assert.equal(error.message, `runScenario: ${c.error}`, c.name);
      return true;
    });
  }
});

test('runScenario rejects what is not a scenario, and errors of the run name the step', () => {
  assert.throws(() => engine.runScenario(/** @type {any} */ (42)), /runScenario: argument `scenario` must be a JSON string or an object, got number/);
  const bad = { steps: [{ kind: 'assistant', blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: 7 } }] }] };
  assert.throws(() => engine.runScenario(bad), /runScenario: steps\[0\]\.blocks\[0\]\.input\.file_path: expected a string, got number/);
  assert.throws(() => engine.runScenario({ switches: { 'attachments.nope': true }, steps: [] }), /runScenario: switches\.attachments\.nope: unknown switch: expected one of /);
});
