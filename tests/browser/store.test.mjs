// The scenario store, seen from the page: an edit of the player's scenario is replayed once,
// whichever views show it, and the compaction and compare views work on the scenario the
// store holds, learning of a new replay from the store, not from the player's DOM. The
// engine module the page loads is wrapped so that every scenario call is counted.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, showTab, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

/** The real module, under a URL the route below leaves alone. */
const REAL = '/pkg/context_assembly.js?uncounted';

/** The engine module as the page gets it: the real one, with its scenario calls counted. */
const COUNTING_ENGINE = `
import * as real from '${REAL}';
export * from '${REAL}';
export { default } from '${REAL}';
const calls = globalThis.engineCalls = { runScenario: 0, compactScenario: 0, compareProfiles: 0 };
export function runScenario(...args) { calls.runScenario += 1; return real.runScenario(...args); }
export function compactScenario(...args) { calls.compactScenario += 1; return real.compactScenario(...args); }
export function compareProfiles(...args) { calls.compareProfiles += 1; return real.compareProfiles(...args); }
`;

/**
 * Counts the DOM observers the playground's own modules make (Playwright's injected script
 * makes one of its own): no view should watch another view's DOM.
 */
const COUNTING_OBSERVERS = `
globalThis.observersMade = 0;
globalThis.MutationObserver = class extends MutationObserver {
  constructor(callback) {
    super(callback);
    if ((new Error().stack ?? '').includes('/web/')) globalThis.observersMade += 1;
  }
};
`;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  await browser.context.route('**/pkg/context_assembly.js', (route) =>
    route.fulfill({ status: 200, contentType: 'text/javascript', body: COUNTING_ENGINE }));
  await browser.context.addInitScript(COUNTING_OBSERVERS);
});
after(async () => { await browser?.close(); await server?.close(); });

/**
 * Opens the playground with a teaching scenario loaded in the player.
 * @param {string} file
 */
async function openWith(file) {
  const opened = await openPlayground(browser.context, server.url);
  await opened.page.selectOption('#scenario-pick', file);
  await opened.page.waitForSelector(`#scenario-panel[data-loaded="${file}"]`);
  return opened;
}

/**
 * The page's scenario calls so far.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<{ runScenario: number, compactScenario: number, compareProfiles: number }>}
 */
const calls = (page) => page.evaluate(() => ({ ...(/** @type {any} */ (globalThis).engineCalls) }));

/**
 * A teaching scenario's text.
 * @param {import('playwright-core').Page} page
 * @param {string} file
 */
const scenarioFile = (page, file) => page.evaluate(async (name) => (await fetch(`/web/scenarios/${name}`)).text(), file);

test('one replay per edit: Run, a profile change and a newly picked scenario each replay once, and no other view replays', async () => {
  const { page, problems } = await openWith('auto-compaction.json');
  const loaded = await calls(page);
  assert.equal(loaded.compactScenario + loaded.compareProfiles, 0, 'the views wait to be asked');

  await showTab(page, 'scenario');
  await page.fill('#scenario-json', await scenarioFile(page, 'deny-rule.json'));
  assert.equal((await calls(page)).runScenario, loaded.runScenario, 'typing replays nothing until Run');
  await page.click('#scenario-run');
  assert.equal((await calls(page)).runScenario, loaded.runScenario + 1, 'Run: one replay');
  await page.selectOption('#scenario-profile', 'codex');
  assert.equal((await calls(page)).runScenario, loaded.runScenario + 2, 'a profile change: one replay');
  await page.selectOption('#scenario-pick', 'plan-mode.json');
  await page.waitForSelector('#scenario-panel[data-loaded="plan-mode.json"]');
  assert.equal((await calls(page)).runScenario, loaded.runScenario + 3, 'a newly picked scenario: one replay');

  // The views' own engine calls are theirs, never a second plain replay (nor does changing tabs replay).
  await showTab(page, 'compaction');
  await page.click('#compaction-run');
  await page.waitForSelector('#compaction-run:not([disabled])'); // the compactions run in a worker
  assert.equal(await page.isVisible('#compaction-results'), true, 'the worker compacted');
  await showTab(page, 'compare');
  await page.click('#compare-run');
  await page.waitForSelector('#compare-run:not([disabled])'); // the comparison runs in a worker
  await page.click('#compare-sbs-run');
  await page.waitForSelector('#compare-sbs-run:not([disabled])'); // so do the replays side by side
  const after = await calls(page);
  assert.equal(after.runScenario, loaded.runScenario + 3, 'compacting and comparing replay nothing through runScenario');
  // The compactions and the comparison run in the playground's worker, not through the page's module.
  assert.ok(after.compactScenario === 0 && after.compareProfiles === 0, JSON.stringify(after));
  assert.equal(await page.isVisible('#compare-results'), true, 'the worker answered');
  assert.equal(await page.isVisible('#compare-sbs-results'), true, 'the worker replayed both profiles');
  assert.equal(await page.evaluate(() => /** @type {any} */ (globalThis).observersMade), 0, 'no view watches another view\'s DOM');
  assert.deepEqual(problems, []);
  await page.close();
});

test('compaction and compare follow the player\'s scenario and profile, as the store holds them', async () => {
  const { page, problems } = await openWith('auto-compaction.json');
  const text = await scenarioFile(page, 'deny-rule.json');
  await showTab(page, 'scenario');
  await page.fill('#scenario-json', text);
  await page.selectOption('#scenario-profile', 'codex');
  const expected = await page.evaluate(async (scenario) => {
    const session = await import('/pkg/context_assembly.js?expected');
    await session.default();
    const tools = await import('/pkg/tools/context_assembly_tools.js?expected');
    await tools.default();
    const engine = { ...session, ...tools };
    const withProfile = JSON.stringify({ ...JSON.parse(scenario), profile: 'codex' });
    const steps = engine.runScenario(withProfile).steps.length;
    return {
      steps,
      report: engine.compactScenario(withProfile, { policy: 'claude-code.full' }, steps).report,
      comparison: engine.compareProfiles(scenario, ['codex'], { usage: 'scenario' }),
    };
  }, text);

  // The step range follows the replay, and the step the player's (its last: all the steps).
  await showTab(page, 'compaction');
  assert.equal(await page.getAttribute('#compaction-step', 'max'), String(expected.steps));
  await page.click('#scenario-steps li[data-index="0"]');
  await page.keyboard.press('End');
  await page.waitForFunction((steps) => /** @type {HTMLInputElement} */ (document.querySelector('#compaction-step')).value === String(steps), expected.steps);
  assert.match(await page.textContent('#compaction-step-note') ?? '', new RegExp(`^of ${expected.steps}: `));

  await page.selectOption('#compaction-policy', 'claude-code.full');
  await page.click('#compaction-run');
  await page.waitForSelector('#compaction-run:not([disabled])'); // the compactions run in a worker
  assert.equal(await page.isHidden('#compaction-error'), true);
  assert.equal(await page.getAttribute('#compaction-report .compaction-facts', 'data-applied'), String(expected.report.applied));
  assert.match(await page.textContent('#compaction-report') ?? '',
    new RegExp(`${expected.report.tokensBefore.toLocaleString('en-US')} tok → ${expected.report.tokensAfter.toLocaleString('en-US')} tok`));

  await showTab(page, 'compare');
  for (const box of await page.$$('#compare-profiles input[type=checkbox]')) await box.uncheck();
  await page.check('#compare-profiles input[value="codex"]');
  await page.click('#compare-run');
  await page.waitForSelector('#compare-run:not([disabled])'); // the comparison runs in a worker
  assert.equal(await page.isHidden('#compare-error'), true);
  const codex = expected.comparison.codex;
  assert.ok(codex !== undefined);
  assert.deepEqual(await page.$eval('#compare-totals tbody tr', (row) => ({ ...(/** @type {HTMLElement} */ (row).dataset) })), {
    profile: 'codex', requests: String(codex.steps.length), sent: String(codex.totals.sent), cached: String(codex.totals.cached),
    written: String(codex.totals.written), uncached: String(codex.totals.uncached), output: String(codex.totals.output),
    costMicroUsd: String(codex.totals.costMicroUsd),
  });

  // A new replay that works clears both views' results: they belonged to the old scenario.
  await page.click('#scenario-run');
  const hidden = (/** @type {string} */ id) => page.$eval(id, (element) => /** @type {HTMLElement} */ (element).hidden);
  assert.equal(await hidden('#compaction-results'), true);
  assert.equal(await hidden('#compare-results'), true);
  assert.deepEqual(problems, []);
  await page.close();
});
