// The compaction view, used as a reader would: compact the scenario the player loaded, read
// the meters, the survival table and the comparison, and get the engine's complaints in the
// panel. Expectations come from `compactScenario` run in the same page.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, longScenario, openPlayground, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Needs a pivot, so the comparison leaves it out. */
const PARTIAL = 'claude-code.partial';

/**
 * Opens the playground with a teaching scenario loaded in the player.
 * @param {string} file
 */
async function openWith(file) {
  const opened = await openPlayground(browser.context, server.url, { tab: 'compaction' });
  await opened.page.selectOption('#scenario-pick', file);
  await opened.page.waitForSelector(`#scenario-panel[data-loaded="${file}"]`);
  return opened;
}

/**
 * Compacts with a policy at the panel's step, and waits for the run in the worker to end.
 * @param {import('playwright-core').Page} page
 * @param {string} policy
 */
async function compact(page, policy) {
  await page.selectOption('#compaction-policy', policy);
  await run(page);
}

/**
 * Clicks Compact and waits for the run in the worker to end.
 * @param {import('playwright-core').Page} page
 */
async function run(page) {
  await page.click('#compaction-run');
  await page.waitForSelector('#compaction-run:not([disabled])');
}

/**
 * Shows a step in the player (0-based), as a click in the step list does.
 * @param {import('playwright-core').Page} page
 * @param {number} index
 */
async function showStep(page, index) {
  await page.click(`#scenario-steps li[data-index="${index}"]`);
  await page.waitForSelector(`#scenario-steps li[data-index="${index}"][aria-selected="true"]`);
}

/**
 * The engine's own answers for a scenario, replayed up to the panel's step.
 * @param {import('playwright-core').Page} page
 * @param {string} file
 */
function expectedPreviews(page, file) {
  return page.evaluate(async (name) => {
    const engine = /** @type {any} */ ({ ...(await import('/pkg/context_assembly.js')), ...(await import('/pkg/tools/context_assembly_tools.js').then(async (tools) => { await tools.default(); return tools; })) });
    await engine.default();
    const text = await (await fetch(`/web/scenarios/${name}`)).text();
    const steps = Number(/** @type {HTMLInputElement} */ (document.querySelector('#compaction-step')).value);
    return {
      policies: engine.compactionPolicies(),
      reports: Object.fromEntries(engine.compactionPolicies().filter((id) => id !== 'claude-code.partial')
        .map((id) => [id, engine.compactScenario(text, { policy: id }, steps).report])),
    };
  }, file);
}

test('claude-code.full on auto-compaction: the context shrinks, the conversation is summarised, files come back', async () => {
  const { page, problems } = await openWith('auto-compaction.json');
  // The step follows the player: at the step before the first auto-compaction, the panel
  // replays the context just as it reached the threshold.
  const marked = await page.getAttribute('#scenario-steps li:has([data-compacted])', 'data-index');
  assert.equal(marked, '9');
  await showStep(page, Number(marked) - 1);
  await page.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('#compaction-step')).value === '9');
  assert.match(await page.textContent('#compaction-step-note') ?? '', /^of \d+: follows the player, at step 9: replays the player's steps 1–9, then compacts$/);
  assert.match(await page.textContent('#scenario-steps li[data-index="9"]') ?? '', /auto-compacted: claude-code\.full, 42,524 → /);
  assert.ok(await page.isVisible('#compaction-panel .explain'));
  await compact(page, 'claude-code.full');
  assert.equal(await page.isHidden('#compaction-error'), true);
  const meters = await page.evaluate(() => Object.fromEntries(['before', 'after'].map((side) => {
    const meter = /** @type {HTMLElement} */ (document.querySelector(`#compaction-${side}`));
    return [side, {
      window: Number(meter.dataset.window), total: Number(meter.dataset.total),
      segments: meter.querySelectorAll('[data-segment]').length,
      threshold: meter.querySelector('[data-threshold="autocompact"]') !== null,
    }];
  })));
  assert.ok(meters.after.total < meters.before.total, `after < before: ${JSON.stringify(meters)}`);
  for (const side of [meters.before, meters.after]) {
    assert.ok(side.window > 0 && side.segments === 6 && side.threshold, JSON.stringify(side));
  }
  const fates = await page.$$eval('#compaction-survival tbody tr', (rows) => rows.map((row) => ({
    item: /** @type {HTMLElement} */ (row).dataset.item, fate: /** @type {HTMLElement} */ (row).dataset.fate })));
  assert.deepEqual(fates.filter((row) => row.item === 'conversation').map((row) => row.fate), ['summarised']);
  const restored = fates.filter((row) => row.fate === 'restored').length;
  assert.ok(restored >= 1 && restored <= 5, `restored rows: ${restored}`);
  const listed = await page.locator('#compaction-report [data-list="restored"] li').count();
  assert.ok(listed >= restored && listed <= 5, `the report's restored list: ${listed}`);
  assert.match(await page.textContent('#compaction-report') ?? '', /extractive/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the comparison has a row per policy but partial, and its numbers add up', async () => {
  const { page, problems } = await openWith('auto-compaction.json');
  await showStep(page, 8);
  await page.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('#compaction-step')).value === '9');
  const expected = await expectedPreviews(page, 'auto-compaction.json');
  await compact(page, 'claude-code.full');
  const rows = await page.$$eval('#compaction-compare tbody tr', (elements) => elements.map((row) => {
    const data = /** @type {HTMLElement} */ (row).dataset;
    const cell = (/** @type {string} */ name) => /** @type {HTMLElement | null} */ (row.querySelector(`[data-visible="${name}"]`));
    return {
      policy: data.policy, before: Number(data.before), after: Number(data.after), freed: Number(data.freed),
      prefixKept: Number(data.prefixKept), text: row.textContent ?? '',
      paths: { count: Number(cell('paths')?.dataset.count), title: cell('paths')?.title ?? '' },
      commands: { count: Number(cell('commands')?.dataset.count), title: cell('commands')?.title ?? '' },
    };
  }));
  assert.deepEqual(rows.map((row) => row.policy), expected.policies.filter((id) => id !== PARTIAL));
  for (const row of rows) {
    const report = expected.reports[/** @type {string} */ (row.policy)];
    assert.equal(row.freed, row.before - row.after, `${row.policy}: freed = before − after`);
    assert.equal(row.before, report.tokensBefore, `${row.policy}: before`);
    assert.equal(row.after, report.tokensAfter, `${row.policy}: after`);
    assert.equal(row.prefixKept, report.prefixKept, `${row.policy}: prefix kept`);
    assert.ok(row.text.includes(`${row.freed.toLocaleString('en-US')} tok`), `${row.policy}: the freed tokens are shown`);
  }
  const mask = rows.find((row) => row.policy === 'swe.observation_mask');
  const report = expected.reports['swe.observation_mask'];
  assert.ok(mask !== undefined && report !== undefined);
  assert.equal(mask.paths.count, report.visible.paths.length);
  assert.equal(mask.paths.title, report.visible.paths.join('\n'));
  assert.equal(mask.commands.count, report.visible.commands.length);
  assert.equal(mask.commands.title, report.visible.commands.join('\n'));
  assert.ok(report.visible.paths.length > 0, 'the scenario leaves files visible');
  for (const path of report.visible.paths) assert.ok(mask.text.includes(path), `${path} is listed`);
  assert.match(await page.textContent('#compaction-panel') ?? '', /prompt cache can reuse/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the engine\'s complaints show in the panel: a step out of range, partial without a pivot, bad params', async () => {
  const { page, problems } = await openWith('auto-compaction.json');
  const total = await page.locator('#scenario-steps li').count();
  await page.fill('#compaction-step', String(total + 5));
  await compact(page, 'claude-code.full');
  assert.equal(await page.isVisible('#compaction-error'), true);
  assert.equal(await page.getAttribute('#compaction-error', 'role'), 'alert');
  assert.match(await page.textContent('#compaction-error') ?? '', new RegExp(`${total + 5} steps asked for, but the scenario has ${total}`));
  assert.equal(await page.isHidden('#compaction-results'), true, 'no stale results beside the error');
  await page.fill('#compaction-step', String(total));
  await compact(page, PARTIAL);
  assert.equal(await page.isVisible('#compaction-error'), true);
  assert.match(await page.textContent('#compaction-error') ?? '', /pivot/);
  // A pivot that is no record's id changes nothing, and the report names the ids there are;
  // one of those then works.
  await page.fill('#compaction-pivot', '99999');
  await run(page);
  assert.equal(await page.isHidden('#compaction-error'), true);
  const reason = await page.textContent('#compaction-report') ?? '';
  const ids = reason.match(/no record has id 99999; .*ids (\d+) to (\d+)/);
  assert.ok(ids !== null, reason);
  await page.fill('#compaction-pivot', String(Number(ids[2])));
  await run(page);
  assert.equal(await page.getAttribute('#compaction-report [data-applied]', 'data-applied'), 'true');
  await page.fill('#compaction-params', '{ not json');
  await compact(page, 'swe.observation_mask');
  assert.match(await page.textContent('#compaction-error') ?? '', /^params: not JSON/);
  // A run that works clears the message.
  await page.fill('#compaction-params', '{"n": 3}');
  await run(page);
  assert.equal(await page.isHidden('#compaction-error'), true);
  assert.equal(await page.isVisible('#compaction-results'), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a new scenario in the player resets the step range and clears the old results', async () => {
  const { page, problems } = await openWith('auto-compaction.json');
  await compact(page, 'claude-code.full');
  assert.equal(await page.isVisible('#compaction-results'), true);
  await page.selectOption('#scenario-pick', 'cheap-stage.json');
  await page.waitForSelector('#scenario-panel[data-loaded="cheap-stage.json"]');
  await page.waitForSelector('#compaction-results', { state: 'hidden' });
  const total = await page.locator('#scenario-steps li').count();
  // The step follows the player, which shows the new scenario's first step.
  assert.equal(await page.getAttribute('#scenario-steps li[aria-selected="true"]', 'data-index'), '0');
  assert.equal(await page.inputValue('#compaction-step'), '1');
  assert.match(await page.textContent('#compaction-step-note') ?? '', /replays the player's step 1, then compacts/);
  assert.equal(await page.getAttribute('#compaction-step', 'max'), String(total));
  assert.deepEqual(problems, []);
  await page.close();
});

test('every policy has a description, and the comparison shows each policy\'s reason in a visible column', async () => {
  const { page, problems } = await openWith('auto-compaction.json');
  await showStep(page, 8);
  await page.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('#compaction-step')).value === '9');
  const expected = await expectedPreviews(page, 'auto-compaction.json');
  const described = await page.evaluate(async (ids) => {
    const { POLICY_DESCRIPTIONS } = await import('/web/views/compaction/policies.js');
    return ids.filter((id) => typeof POLICY_DESCRIPTIONS[id] === 'string' && POLICY_DESCRIPTIONS[id].length > 20);
  }, expected.policies);
  assert.deepEqual(described, expected.policies, 'every id the engine lists is described');
  assert.ok((await page.textContent('#compaction-policy-description') ?? '').length > 20, 'the picked policy is described');
  await page.selectOption('#compaction-policy', 'cline.truncate');
  assert.match(await page.textContent('#compaction-policy-description') ?? '', /first exchange/);
  await compact(page, 'claude-code.full');
  const headers = await page.$$eval('#compaction-compare thead th', (cells) => cells.map((cell) => cell.textContent));
  assert.ok(headers.includes('why'), `headers: ${headers}`);
  const reasons = await page.$$eval('#compaction-compare tbody tr', (rows) => rows.map((row) => ({
    policy: /** @type {HTMLElement} */ (row).dataset.policy ?? '',
    reason: row.querySelector('td.policy-reason')?.textContent ?? '',
    visible: /** @type {HTMLElement | null} */ (row.querySelector('td.policy-reason'))?.checkVisibility() ?? false,
  })));
  for (const { policy, reason, visible } of reasons) {
    assert.equal(reason, expected.reports[policy].reason, `${policy}: the engine's reason`);
    assert.ok(visible, `${policy}: the reason is on screen, not in a tooltip`);
  }
  assert.ok(reasons.some(({ policy }) => !expected.reports[policy].applied), 'a policy that did nothing says why');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the step follows the player until the reader types their own', async () => {
  const { page, problems } = await openWith('todo-reminder.json');
  const stepValue = () => page.inputValue('#compaction-step');
  assert.equal(await stepValue(), '1');
  await showStep(page, 3);
  await page.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('#compaction-step')).value === '4');
  assert.match(await page.textContent('#compaction-step-note') ?? '', /follows the player, at step 4: replays the player's steps 1–4/);
  await page.fill('#compaction-step', '2');
  assert.match(await page.textContent('#compaction-step-note') ?? '', /^of \d+: replays the player's steps 1–2, then compacts$/);
  await showStep(page, 5);
  assert.equal(await stepValue(), '2', 'the reader\'s own count stays');
  await compact(page, 'claude-code.full');
  assert.equal(await page.isVisible('#compaction-results'), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a long run goes to the worker: the page says which policy it is at, and Cancel stops it', async () => {
  const { page, problems } = await openWith('auto-compaction.json');
  const long = longScenario(900);
  await page.$eval('#scenario-json', (area, text) => { /** @type {HTMLTextAreaElement} */ (area).value = text; }, JSON.stringify(long));
  await page.dispatchEvent('#scenario-json', 'input');
  await page.click('#scenario-run');
  await page.waitForSelector('#compaction-step[max="1800"]', { state: 'attached' });
  await page.fill('#compaction-step', '1800');
  await page.selectOption('#compaction-policy', 'swe.observation_mask');
  await page.click('#compaction-run');
  await page.waitForFunction(() => /Compacting… comparing/.test(document.querySelector('#compaction-status')?.textContent ?? ''));
  assert.equal(await page.isDisabled('#compaction-run'), true, 'one run at a time');
  assert.equal(await page.evaluate(() => 1 + 1), 2, 'the page answers while the worker compacts');
  await page.click('#compaction-cancel');
  await page.waitForSelector('#compaction-run:not([disabled])');
  assert.equal(await page.textContent('#compaction-error'), 'Compaction cancelled.');
  assert.equal(await page.isHidden('#compaction-status'), true);
  assert.equal(await page.isHidden('#compaction-cancel'), true);
  assert.equal(await page.isHidden('#compaction-results'), true);

  // The worker was replaced: the next run works.
  await page.selectOption('#scenario-pick', 'todo-reminder.json');
  await page.waitForSelector('#scenario-panel[data-loaded="todo-reminder.json"]');
  await compact(page, 'claude-code.full');
  assert.equal(await page.isVisible('#compaction-results'), true);
  assert.deepEqual(problems, []);
  await page.close();
});
