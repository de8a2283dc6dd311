// The compare view, used as a reader would: compare the player's scenario under every
// profile, read the charts, the totals and the compactions, and get a complaint in the panel
// when there is nothing to compare. Expectations come from `compareProfiles` run in the same
// page.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, longScenario, openPlayground, showTab, startServer } from './harness.mjs';

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
    const engine = /** @type {any} */ ({ ...(await import('/pkg/context_assembly.js')), ...(await import('/pkg/tools/context_assembly_tools.js').then(async (tools) => { await tools.default(); return tools; })) });
    await engine.default();
    const text = /** @type {HTMLTextAreaElement} */ (document.querySelector('#scenario-json')).value;
    const profiles = engine.profileNames();
    return { profiles, comparison: engine.compareProfiles(text, profiles, { usage: 'scenario' }) };
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
      stroke: getComputedStyle(group.querySelector('polyline') ?? group).stroke,
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

test('auto-compaction: claude-code-2.1.88\'s compaction (the release the scenario shows) is marked on the size chart and listed with its files', async () => {
  const { page, problems } = await openWith('auto-compaction.json');
  const { comparison } = await expectedComparison(page);
  await page.click('#compare-run');
  await page.waitForSelector('#compare-run:not([disabled])'); // the comparison runs in a worker
  const steps = comparison['claude-code-2.1.88']?.steps ?? [];
  const compacted = steps.filter((step) => step.compacted !== undefined);
  assert.ok(compacted.length >= 1, 'the engine says claude-code-2.1.88 compacted');
  const markers = page.locator('#compare-size g[data-profile="claude-code-2.1.88"] [data-compacted]');
  assert.equal(await markers.count(), compacted.length, 'a marker per compaction');
  assert.equal(await markers.first().getAttribute('data-compacted'), compacted[0]?.compacted?.policy);
  const first = compacted[0];
  assert.ok(first?.compacted !== undefined);
  const item = page.locator(`#compare-compactions li[data-profile="claude-code-2.1.88"][data-step="${first.step}"]`);
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

  // The scenario seeds facts: a row per fact, a cell per profile with the engine's state.
  assert.equal(await page.isVisible('#compare-recall'), true);
  for (const [profile, run] of Object.entries(comparison)) {
    assert.ok(run.recall.length > 0, 'the scenario seeds facts');
    for (const recall of run.recall) {
      const cell = page.locator(`#compare-recall tr[data-fact="${recall.fact}"] td[data-profile="${profile}"]`);
      assert.equal(await cell.getAttribute('data-state'), recall.state);
      assert.equal(await cell.getAttribute('title'), recall.reason);
    }
    const kept = run.recall.filter((r) => r.state === 'verbatim' || r.state === 'summary').length;
    assert.equal(await page.locator(`#compare-recall tr[data-kept] td[data-profile="${profile}"]`).getAttribute('data-kept'), String(kept));
  }

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
  const long = longScenario(900);
  await page.$eval('#scenario-json', (area, text) => { /** @type {HTMLTextAreaElement} */ (area).value = text; }, JSON.stringify(long));
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

test('each long run has a worker of its own: cancelling a compaction leaves a comparison running', async () => {
  const { page, problems } = await openWith('codex-context.json');
  await page.$eval('#scenario-json', (area, text) => { /** @type {HTMLTextAreaElement} */ (area).value = text; }, JSON.stringify(longScenario(900)));
  await page.dispatchEvent('#scenario-json', 'input');
  await page.click('#scenario-run');
  await page.waitForSelector('#compaction-step[max="1800"]', { state: 'attached' });
  await page.click('#compare-run');
  await page.waitForFunction(() => /step [\d,]+ of [\d,]+/.test(document.querySelector('#compare-status')?.textContent ?? ''));
  await showTab(page, 'compaction');
  await page.click('#compaction-run');
  // Cancel in the page, in the same task that sees the run going: a click sent from here
  // after seeing it could arrive once the worker had already answered (two test files share
  // the two cores), and then there is nothing left to cancel.
  await page.waitForFunction(() => {
    if (!/Compacting…/.test(document.querySelector('#compaction-status')?.textContent ?? '')) return false;
    /** @type {HTMLButtonElement} */ (document.querySelector('#compaction-cancel')).click();
    return true;
  });
  await page.waitForSelector('#compaction-run:not([disabled])');
  assert.equal(await page.textContent('#compaction-error'), 'Compaction cancelled.');
  await showTab(page, 'compare');
  await page.waitForSelector('#compare-run:not([disabled])', { timeout: 180000 });
  assert.equal(await page.isVisible('#compare-results'), true, 'the comparison finished');
  assert.equal(await page.isHidden('#compare-error'), true, await page.textContent('#compare-error') ?? '');
  assert.deepEqual(problems, []);
  await page.close();
});

/**
 * Runs the comparison in the panel and waits for it.
 * @param {import('playwright-core').Page} page
 */
async function runComparison(page) {
  await page.click('#compare-run');
  await page.waitForSelector('#compare-run:not([disabled])'); // the comparison runs in a worker
  await page.waitForSelector('#compare-results:not([hidden])');
}

test('charts are readable: 12 px labels inside the chart, values in a table view, the auto-compaction threshold drawn', async () => {
  const { page, problems } = await openWith('auto-compaction.json');
  const { comparison } = await expectedComparison(page);
  await runComparison(page);
  for (const chart of CHARTS) {
    const labels = await page.$$eval(`${chart} text`, (texts) => texts.map((text) => {
      const svg = /** @type {SVGSVGElement} */ (text.closest('svg'));
      const scale = svg.getBoundingClientRect().width / svg.viewBox.baseVal.width;
      const box = /** @type {SVGTextElement} */ (text).getBBox();
      return { text: text.textContent, px: parseFloat(getComputedStyle(text).fontSize) * scale,
        inside: box.x >= 0 && box.y >= 0 && box.x + box.width <= svg.viewBox.baseVal.width + 0.5
          && box.y + box.height <= svg.viewBox.baseVal.height + 0.5 };
    }));
    assert.ok(labels.length >= 5, `${chart}: labels drawn`);
    for (const label of labels) {
      assert.ok(label.px >= 11.9, `${chart} "${label.text}": ${label.px.toFixed(1)} px`);
      assert.ok(label.inside, `${chart} "${label.text}" is not cut off`);
    }
  }
  // The table behind the size chart holds the chart's numbers, request by request.
  await page.click('#compare-size-table summary');
  for (const [profile, run] of Object.entries(comparison)) {
    const cells = await page.$$eval(`#compare-size-table td[data-profile="${profile}"]`, (all) => all.map((cell) => ({
      value: Number(/** @type {HTMLElement} */ (cell).dataset.value), text: cell.textContent ?? '' })));
    assert.deepEqual(cells.map((cell) => cell.value), run.steps.map((step) => step.sent), `${profile}: sent per request`);
    run.steps.forEach((step, i) => assert.ok(cells[i].text.includes(`${step.sent.toLocaleString('en-US')} tok`)
      && cells[i].text.includes(`step ${step.step + 1}`), `${profile} request ${i + 1}: ${cells[i].text}`));
    const shares = await page.$$eval(`#compare-hits-table td[data-profile="${profile}"]`, (all) => all.map((cell) => Number(/** @type {HTMLElement} */ (cell).dataset.value)));
    assert.deepEqual(shares.map((share) => share.toFixed(6)), run.steps.map((step) => (step.sent > 0 ? step.cached / step.sent * 100 : 0).toFixed(6)));
  }
  // The threshold is the engine's: the window the player's requests report.
  const threshold = await page.evaluate(async () => {
    const engine = await import('/pkg/context_assembly.js');
    const text = /** @type {HTMLTextAreaElement} */ (document.querySelector('#scenario-json')).value;
    return engine.runScenario(text).steps.find((step) => step.turn.request !== undefined)?.turn.request?.window.autocompact;
  });
  const drawn = await page.$$eval('#compare-size g[data-threshold]', (lines) => lines.map((line) => Number(/** @type {HTMLElement} */ (/** @type {unknown} */ (line)).dataset.threshold)));
  assert.ok(threshold !== undefined && drawn.includes(threshold), `threshold ${threshold} among ${drawn}`);
  assert.match(await page.textContent('#compare-size-table') ?? '', /auto-compaction at [\d,]+ tok/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('clicking a point, or its step button in the table, shows that step in the player', async () => {
  const { page, problems } = await openWith('auto-compaction.json');
  const { comparison } = await expectedComparison(page);
  await runComparison(page);
  const selected = () => page.getAttribute('#scenario-steps li[aria-selected="true"]', 'data-index');
  const steps = comparison['claude-code']?.steps ?? [];
  const target = steps[steps.length - 2];
  assert.ok(target !== undefined && String(target.step) !== await selected());
  await page.click(`#compare-cost g[data-profile="claude-code"] .chart-point[data-index="${steps.length - 2}"]`, { force: true });
  assert.equal(await selected(), String(target.step));
  await page.click('#compare-hits-table summary');
  const button = page.locator('#compare-hits-table td[data-profile="codex"] .step-link').first();
  await button.focus();
  await page.keyboard.press('Enter');
  assert.equal(await selected(), String(comparison.codex?.steps[0]?.step));
  assert.deepEqual(problems, []);
  await page.close();
});

test('the equal-price toggle prices every profile at one table, and each cost difference is explained', async () => {
  const { page, problems } = await openWith('auto-compaction.json');
  const expected = await page.evaluate(async () => {
    const engine = /** @type {any} */ ({ ...(await import('/pkg/context_assembly.js')), ...(await import('/pkg/tools/context_assembly_tools.js').then(async (tools) => { await tools.default(); return tools; })) });
    const { PRICE_TABLES } = await import('/web/views/compare/prices.js');
    const text = /** @type {HTMLTextAreaElement} */ (document.querySelector('#scenario-json')).value;
    const profiles = engine.profileNames();
    const sonnet = engine.defaultPrices('claude-code');
    const own = engine.compareProfiles(text, profiles, { usage: 'scenario' });
    // Each table is the default of the profile it names: pricing that profile at it changes nothing.
    const defaults = Object.values(PRICE_TABLES).map(({ defaultOf }) => [
      own[defaultOf].totals.costMicroUsd,
      engine.compareProfiles(text, [defaultOf], { usage: 'scenario', prices: { [defaultOf]: engine.defaultPrices(defaultOf) } })[defaultOf].totals.costMicroUsd]);
    const equal = engine.compareProfiles(text, profiles, { usage: 'scenario', prices: Object.fromEntries(profiles.map((p) => [p, sonnet])) });
    const costs = (/** @type {typeof own} */ run) => Object.fromEntries(Object.entries(run).map(([p, r]) => [p, r.totals.costMicroUsd]));
    return { defaults, own: costs(own), equal: costs(equal), comparison: own };
  });
  for (const [own, repriced] of expected.defaults) assert.equal(repriced, own, 'the price table is the engine\'s default');
  assert.notDeepEqual(expected.equal, expected.own, 'the scenario prices differently at equal prices');
  const shownCosts = () => page.$$eval('#compare-totals tbody tr', (rows) => Object.fromEntries(rows.map((row) =>
    [/** @type {HTMLElement} */ (row).dataset.profile, Number(/** @type {HTMLElement} */ (row).dataset.costMicroUsd)])));

  await runComparison(page);
  assert.deepEqual(await shownCosts(), expected.own);
  // The explanation: a row per profile, its extra cost over the cheapest, its cache misses.
  const cheapest = Math.min(...Object.values(expected.own));
  const rows = await page.$$eval('#compare-explain tbody tr', (all) => all.map((row) => ({
    profile: /** @type {HTMLElement} */ (row).dataset.profile ?? '', extra: Number(/** @type {HTMLElement} */ (row).dataset.extraMicroUsd),
    misses: Number(/** @type {HTMLElement} */ (row.querySelector('[data-misses]'))?.dataset.misses), text: row.textContent ?? '' })));
  assert.deepEqual(rows.map((row) => row.profile), Object.keys(expected.own));
  for (const row of rows) {
    const run = expected.comparison[row.profile];
    assert.equal(row.extra, expected.own[row.profile] - cheapest, `${row.profile}: extra cost`);
    // A step's figures include its summary call, which reads the old prefix: the request's own
    // part is what missed.
    const missed = run.steps.filter((step) => step.cached - (step.summaryCall?.cached ?? 0) === 0 && step.sent - (step.summaryCall?.sent ?? 0) > 0);
    assert.equal(row.misses, missed.length, `${row.profile}: cache misses`);
    if (row.extra > 0) assert.match(row.text, /tokens sent|tokens read from the cache|tokens written/, `${row.profile}: the tokens that differ`);
  }
  // The release's system prompt and tools stay cached through a compaction: only the first
  // request reads nothing.
  assert.match(rows.find((row) => row.profile === 'claude-code')?.text ?? '', /step 1: first request/);

  await page.selectOption('#compare-prices', 'claude-sonnet');
  await runComparison(page);
  assert.deepEqual(await shownCosts(), expected.equal);
  assert.equal(await page.getAttribute('#compare-results', 'data-prices'), 'claude-sonnet');
  assert.deepEqual(problems, []);
  await page.close();
});

test('two releases of one client side by side: a button ticks just them, and the comparison has just them', async () => {
  const { page, problems } = await openWith('external-edit.json');
  const buttons = page.locator('#compare-profiles button.compare-releases');
  assert.deepEqual(await buttons.evaluateAll((all) => all.map((b) => /** @type {HTMLElement} */ (b).dataset.client)), ['claude-code', 'codex']);
  assert.equal(await buttons.first().textContent(), 'Claude Code 2.1.88 and 2.1.332');
  await buttons.first().click();
  const ticked = () => page.$$eval('#compare-profiles input[type=checkbox]:checked', (boxes) =>
    boxes.map((box) => /** @type {HTMLInputElement} */ (box).value));
  assert.deepEqual(await ticked(), ['claude-code', 'claude-code-2.1.88']);
  await page.click('#compare-run');
  await page.waitForSelector('#compare-run:not([disabled])'); // the comparison runs in a worker
  assert.equal(await page.getAttribute('#compare-results', 'data-profiles'), 'claude-code claude-code-2.1.88');
  assert.deepEqual(await page.$$eval('#compare-totals tbody tr', (rows) => rows.map((row) => /** @type {HTMLElement} */ (row).dataset.profile)),
    ['claude-code', 'claude-code-2.1.88']);
  await buttons.last().click();
  assert.deepEqual(await ticked(), ['codex', 'codex-0.139.0']);
  assert.deepEqual(problems, []);
  await page.close();
});
