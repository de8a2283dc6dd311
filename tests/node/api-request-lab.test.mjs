// Our requests exported with `toApiRequest` and sent to the conformance lab's mock servers,
// which then read them as they read the real clients' requests: the mock takes each one for a
// main-loop request, and the lab's comparator finds in the body exactly the items it finds in
// our request. No real client is needed: the mocks run in-process, as the lab starts them.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { engine } from './engine.mjs';
import { startMockAnthropic } from '../conformance/mock-anthropic.mjs';
import { startMockResponses } from '../conformance/codex-mock.mjs';
import * as claudeCompare from '../conformance/compare.mjs';
import * as codexCompare from '../conformance/codex-compare.mjs';

const read = (/** @type {string} */ path) => readFileSync(new URL(`../../${path}`, import.meta.url), 'utf8');

/** The small teaching scenarios (the long measuring ones have no golden trace either). */
const SCENARIOS = JSON.parse(read('web/scenarios/index.json'))
  .filter((/** @type {any} */ entry) => entry.golden !== false)
  .map((/** @type {any} */ entry) => entry.file);

/** Every request of `file` replayed under `profile`. */
function requestsOf(/** @type {string} */ file, /** @type {string} */ profile) {
  const scenario = { ...JSON.parse(read(`web/scenarios/${file}`)), profile };
  return engine.runScenario(scenario).steps.flatMap((step, index) => (step.turn.request ? [{ index, request: step.turn.request }] : []));
}

/** POSTs `body` as JSON and reads the whole answer (the mocks stream it). */
async function post(/** @type {string} */ url, /** @type {unknown} */ body) {
  const response = await fetch(url, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  await response.text();
  return response.status;
}

// The lab's path map, for requests that name no temp directory: nothing to replace.
const NO_PATHS = { workspace: '\u0000no-workspace', root: '/', home: '\u0000no-home', scenarioHome: '\u0000no-home' };

test('Anthropic Messages bodies: the Claude Code mock takes each for the main loop and the comparator reads our items back', async () => {
  const recordDir = mkdtempSync(join(tmpdir(), 'api-request-lab-'));
  const mock = await startMockAnthropic({ recordDir });
  let compared = 0;
  let items = 0;
  try {
    for (const file of SCENARIOS) {
      for (const { index, request } of requestsOf(file, 'claude-code')) {
        const where = `${file} step ${index}`;
        const body = engine.toApiRequest(request, { api: 'anthropic-messages' });
        assert.equal(await post(`${mock.url}/v1/messages`, body), 200, where);
        const recorded = mock.requests.at(-1);
        assert.equal(recorded?.role, 'main', `${where}: the mock takes it for a main-loop request`);
        const oracle = claudeCompare.oracleItems(recorded.body, NO_PATHS);
        const ours = claudeCompare.engineItems(request);
        const result = claudeCompare.compareItems(oracle, ours);
        assert.deepEqual(result.diff, [], `${where}: the comparator reads the body as our request`);
        if (oracle.length > 0 && compared % 5 === 0) {
          // The comparison can fail: without the body's last message, an item is missing; a
          // message of prose alone is cut too (2.1.332's system message may hold no fact).
          const cut = structuredClone(recorded.body);
          const countOf = (/** @type {any} */ b) => claudeCompare.oracleItems(b, NO_PATHS).length;
          const before = countOf(cut);
          while (cut.messages.length > 1 && countOf(cut) === before) cut.messages.pop();
          assert.notDeepEqual(claudeCompare.compareItems(claudeCompare.oracleItems(cut, NO_PATHS), ours).diff, [], where);
        }
        compared += 1;
        items += oracle.length;
      }
    }
  } finally {
    await mock.close();
    rmSync(recordDir, { recursive: true, force: true });
  }
  assert.ok(compared >= 20, `${compared} requests`);
  assert.ok(items >= compared, `${items} items in ${compared} requests`);
  console.log(`anthropic-messages: ${compared} requests of ${SCENARIOS.length} scenarios, ${items} items read back`);
});

test('OpenAI Responses bodies: the Codex mock takes each for the main loop and the comparator reads our items back', async () => {
  const recordDir = mkdtempSync(join(tmpdir(), 'api-request-lab-'));
  const mock = await startMockResponses({ recordDir });
  let compared = 0;
  let items = 0;
  try {
    for (const file of SCENARIOS) {
      for (const { index, request } of requestsOf(file, 'codex')) {
        const where = `${file} step ${index}`;
        const body = engine.toApiRequest(request, { api: 'openai-responses' });
        assert.equal(await post(`${mock.url}/responses`, body), 200, where);
        const recorded = mock.requests.at(-1);
        assert.equal(recorded?.role, 'main', where);
        const ours = codexCompare.engineItems(request);
        const oracle = codexCompare.oracleItems(recorded.body, '\u0000no-root');
        assert.deepEqual(codexCompare.compareItems(oracle, ours).diff, [], `${where}: the comparator reads the body as our request`);
        if (oracle.length > 0 && compared % 5 === 0) {
          // The comparison can fail: without the body's last input item, an item is missing.
          const cut = structuredClone(recorded.body);
          cut.input.pop();
          assert.notDeepEqual(codexCompare.compareItems(codexCompare.oracleItems(cut, '\u0000no-root'), ours).diff, [], where);
        }
        compared += 1;
        items += oracle.length;
      }
    }
  } finally {
    await mock.close();
    rmSync(recordDir, { recursive: true, force: true });
  }
  assert.ok(compared >= 20, `${compared} requests`);
  assert.ok(items >= compared, `${items} items in ${compared} requests`);
  console.log(`openai-responses: ${compared} requests of ${SCENARIOS.length} scenarios, ${items} items read back`);
});

