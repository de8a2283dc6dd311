// The compare view, used as a reader would: compare the player's scenario under every
// profile, read the charts, the totals and the compactions, and get a complaint in the panel
// when there is nothing to compare. Expectations come from `compareProfiles` run in the same
// page.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, showTab, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const CHARTS = ['#compare-size', '#compare-hits', '#compare-cost'];

/**
 * Opens the playground with a teaching scenario loaded in the player.
 * @param {string} file
 */
async function openWith(file) {
  const opened = await openPlayground(browser.context, server.url, { tab: 'compare' });
  await opened.page.selectOption('#scenario-pick', file);
  await opened.page.waitForSelector(`#scenario-panel[data-loaded="${file}"]`);
  return opened;
}

/**
 * The engine's own comparison of the player's scenario text under every profile.
 * @param {import('playwright-core').Page} page
 */
function expectedComparison(page) {
  return page.evaluate(async () => {
    const engine = await import('/pkg/context_assembly.js');
    await engine.default();
    const text = /** @type {HTMLTextAreaElement} */ (document.querySelector('#scenario-json')).value;
    const profiles = engine.profileNames();
    return { profiles, comparison: engine.compareProfiles(text, profiles) };
  });
}

test('codex-context: a totals row per profile with the engine\'s numbers, a series per profile in each chart', async () => {
  const { page, problems } = await openWith('codex-context.json');
  const { profiles, comparison } = await expectedComparison(page);
  assert.deepEqual(await page.$$eval('#compare-profiles input[type=checkbox]', (boxes) =>
    boxes.map((box) => [/** @type {HTMLInputElement} */ (box).value, /** @type {HTMLInputElement} */ (box).checked])),
  profiles.map((profile) => [profile, true]), 'every profile, ticked');
  assert.ok(await page.isVisible('#compare-panel .explain'));
  assert.equal(await page.isHidden('#compare-results'), true, 'nothing before Compare');
  await page.click('#compare-run');
  await page.waitForSelector('#compare-run:not([disabled])'); // the comparison runs in a worker
  assert.equal(await page.isHidden('#compare-error'), true);
  assert.equal(await page.isVisible('#compare-results'), true);

  for (const [profile, run] of Object.entries(comparison)) {
    for (const step of run.steps) {
      assert.equal(step.cached + step.written + step.uncached, step.sent, `${profile} step ${step.step}: cached + written + uncached = sent`);
    }
    assert.ok(run.steps.length > 0, `${profile} sent requests`);
  }

  const rows = await page.$$eval('#compare-totals tbody tr', (elements) => elements.map((row) => {
    const data = /** @type {HTMLElement} */ (row).dataset;
    return {
      profile: data.profile, requests: Number(data.requests), sent: Number(data.sent), cached: Number(data.cached),
      written: Number(data.written), uncached: Number(data.uncached), output: Number(data.output),
      costMicroUsd: Number(data.costMicroUsd), text: row.textContent ?? '',
    };
  }));
  assert.deepEqual(rows.map((row) => row.profile), profiles);
  for (const row of rows) {
    const run = comparison[/** @type {string} */ (row.profile)];
    assert.ok(run !== undefined);
    const { totals } = run;
    assert.deepEqual(
      [row.requests, row.sent, row.cached, row.written, row.uncached, row.output, row.costMicroUsd],
      [run.steps.length, totals.sent, totals.cached, totals.written, totals.uncached, totals.output, totals.costMicroUsd],
      `${row.profile}: the engine's totals`);
    for (const n of [totals.sent, totals.cached, totals.written, totals.uncached]) {
      assert.ok(row.text.includes(n.toLocaleString('en-US')), `${row.profile}: ${n} is shown`);
    }
    assert.ok(row.text.includes(`$${(totals.costMicroUsd / 1e6).toFixed(4)}`), `${row.profile}: the cost in dollars`);
  }

  for (const chart of CHARTS) {
    assert.ok((await page.textContent(`${chart} > title`))?.trim(), `${chart} has a title`);
    const series = await page.$$eval(`${chart} g[data-profile]`, (groups) => groups.map((group) => ({
      profile: /** @type {HTMLElement} */ (/** @type {unknown} */ (group)).dataset.profile,
      points: group.querySelectorAll('.chart-point').length,
      vertices: (group.querySelector('polyline')?.getAttribute('points') ?? '').trim().split(/\s+/).filter(Boolean).length,
      stroke: group.querySelector('polyline')?.getAttribute('stroke'),
    })));
    assert.deepEqual(series.map((one) => one.profile), profiles, `${chart}: a series per profile`);
    for (const one of series) {
      const steps = comparison[/** @type {string} */ (one.profile)]?.steps.length;
      assert.equal(one.points, steps, `${chart} ${one.profile}: a point per request`);
      assert.equal(one.vertices, steps, `${chart} ${one.profile}: the line goes through every request`);
    }
    assert.equal(new Set(series.map((one) => one.stroke)).size, series.length, `${chart}: distinct colours`);
    assert.ok(await page.locator(`${chart} [data-axis="y-max"]`).count() === 1, `${chart}: the y axis names its maximum`);
  }
  const maxSent = Math.max(...Object.values(comparison).flatMap((run) => run.steps.map((step) => step.sent)));
  assert.equal(await page.textContent('#compare-size [data-axis="y-max"]'), `${maxSent.toLocaleString('en-US')} tok`);
  assert.deepEqual(await page.$$eval('#compare-legend li', (items) => items.map((item) => /** @type {HTMLElement} */ (item).dataset.profile)), profiles);
  assert.deepEqual(problems, []);
  await page.close();
});

test('auto-compaction: claude-code\'s compaction is marked on the size chart and listed with its files', async () => {
  const { page, problems } = await openWith('auto-compaction.json');
  const { comparison } = await expectedComparison(page);
  await page.click('#compare-run');
  await page.waitForSelector('#compare-run:not([disabled])'); // the comparison runs in a worker
  const steps = comparison['claude-code']?.steps ?? [];
  const compacted = steps.filter((step) => step.compacted !== undefined);
  assert.ok(compacted.length >= 1, 'the engine says claude-code compacted');
  const markers = page.locator('#compare-size g[data-profile="claude-code"] [data-compacted]');
  assert.equal(await markers.count(), compacted.length, 'a marker per compaction');
  assert.equal(await markers.first().getAttribute('data-compacted'), compacted[0]?.compacted?.policy);
  const first = compacted[0];
  assert.ok(first?.compacted !== undefined);
  const item = page.locator(`#compare-compactions li[data-profile="claude-code"][data-step="${first.step}"]`);
  assert.equal(await item.count(), 1);
  assert.equal(await item.getAttribute('data-policy'), first.compacted.policy);
  assert.equal(Number(await item.getAttribute('data-before')), first.compacted.tokensBefore);
  assert.equal(Number(await item.getAttribute('data-after')), first.compacted.tokensAfter);
  assert.equal(Number(await item.getAttribute('data-recent')), first.compacted.recentMessages);
  assert.ok(first.compacted.files.length > 0, 'the scenario brings files back');
  assert.deepEqual(await item.locator('[data-seen="files"] li').allTextContents(), first.compacted.files);
  assert.deepEqual(await item.locator('[data-seen="instructions"] li').allTextContents(), first.compacted.instructions);
  const text = await item.textContent() ?? '';
  assert.ok(text.includes(`${first.compacted.tokensBefore.toLocaleString('en-US')} → ${first.compacted.tokensAfter.toLocaleString('en-US')}`));

  // Another scenario in the player: the results of this one go.
  await page.selectOption('#scenario-pick', 'codex-context.json');
  await page.waitForSelector('#scenario-panel[data-loaded="codex-context.json"]');
  await page.waitForSelector('#compare-results', { state: 'hidden' });
  assert.equal(await page.locator('#compare-totals tr').count(), 0);
  assert.equal(await page.locator('#compare-size g[data-profile]').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('no profile ticked: the panel says so, and a bad scenario is the engine\'s complaint, never an uncaught error', async () => {
  const { page, problems } = await openWith('codex-context.json');
  await page.click('#compare-run');
  await page.waitForSelector('#compare-run:not([disabled])'); // the comparison runs in a worker
  assert.equal(await page.isVisible('#compare-results'), true);
  for (const box of await page.$$('#compare-profiles input[type=checkbox]')) await box.uncheck();
  await page.click('#compare-run');
  await page.waitForSelector('#compare-run:not([disabled])'); // the comparison runs in a worker
  assert.equal(await page.isVisible('#compare-error'), true);
  assert.equal(await page.getAttribute('#compare-error', 'role'), 'alert');
  assert.match(await page.textContent('#compare-error') ?? '', /at least one profile/);
  assert.equal(await page.isHidden('#compare-results'), true, 'no stale results beside the error');
  await page.check('#compare-profiles input[value="codex"]');
  await page.click('#compare-run');
  await page.waitForSelector('#compare-run:not([disabled])'); // the comparison runs in a worker
  assert.equal(await page.isHidden('#compare-error'), true);
  assert.deepEqual(await page.$$eval('#compare-totals tbody tr', (rows) => rows.map((row) => /** @type {HTMLElement} */ (row).dataset.profile)), ['codex']);
  // The player's editor is the source: text that is not a scenario is refused in the panel.
  await showTab(page, 'scenario');
  await page.fill('#scenario-json', '{ not json');
  await showTab(page, 'compare');
  await page.click('#compare-run');
  await page.waitForSelector('#compare-run:not([disabled])'); // the comparison runs in a worker
  assert.equal(await page.isVisible('#compare-error'), true);
  assert.match(await page.textContent('#compare-error') ?? '', /compareProfiles/);
  assert.equal(await page.isHidden('#compare-results'), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a long comparison runs in a worker: the page says how far it is, and Cancel stops it', async () => {
  const { page, problems } = await openWith('codex-context.json');
  const files = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`src/f${i}.ts`, `export const v${i} = ${i};\n`.repeat(100)]));
  const steps = Array.from({ length: 900 }, (_, i) => [
    { kind: 'user', prompt: `step ${i}: look at @src/f${i % 20}.ts` },
    { kind: 'assistant', blocks: [{ type: 'text', text: `done ${i} `.repeat(30) }] },
  ]).flat();
  await page.$eval('#scenario-json', (area, text) => { /** @type {HTMLTextAreaElement} */ (area).value = text; }, JSON.stringify({ profile: 'claude-code', files, steps }));
  await page.dispatchEvent('#scenario-json', 'input');
  await page.click('#compare-run');
  await page.waitForFunction(() => /step [\d,]+ of [\d,]+/.test(document.querySelector('#compare-status')?.textContent ?? ''));
  assert.equal(await page.isDisabled('#compare-run'), true, 'one comparison at a time');
  // The page answers while the worker compares.
  assert.equal(await page.evaluate(() => 1 + 1), 2);
  await page.click('#compare-cancel');
  await page.waitForSelector('#compare-run:not([disabled])');
  assert.equal(await page.textContent('#compare-error'), 'Comparison cancelled.');
  assert.equal(await page.isHidden('#compare-status'), true);
  assert.equal(await page.isHidden('#compare-results'), true);

  // The worker was replaced: the next comparison works.
  await page.selectOption('#scenario-pick', 'auto-compaction.json');
  await page.waitForSelector('#scenario-panel[data-loaded="auto-compaction.json"]');
  await page.click('#compare-run');
  await page.waitForSelector('#compare-run:not([disabled])');
  assert.equal(await page.isVisible('#compare-results'), true);
  assert.deepEqual(problems, []);
  await page.close();
});
