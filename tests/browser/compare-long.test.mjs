// Compare on the longest built-in scenario (issue 29, finding 8): the compactions it lists are
// the ones the player shows under each profile (before, it said `codex` compacted at step 98
// where the player and the description say it never does), its steps are numbered from 1 as the
// player numbers them, and a sentence computed from the figures says what the comparison shows.
// With every profile ticked its charts stay readable (issue 29, item 4): each line is named at
// its end in its own colour, and no label runs over another or off the chart.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CONTRAST_RATIO, launchBrowser, openPlayground, showTab, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });

after(async () => { await browser?.close(); await server?.close(); });

test('long-tool-output: Compare\'s compactions are the player\'s under every profile, numbered from 1, with a takeaway', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=step&s=long-tool-output', viewport: { width: 1280, height: 800 } });
  await showTab(page, 'compare');
  await page.click('#compare-run');
  await page.waitForSelector('#compare-results:not([hidden])', { timeout: 60000 });
  const listed = await page.$$eval('#compare-compactions li[data-step]', (items) => items.map((item) => ({
    profile: item.getAttribute('data-profile') ?? '', step: Number(item.getAttribute('data-step')), text: item.textContent ?? '',
  })));
  for (const item of listed) assert.ok(item.text.includes(`step ${item.step + 1} (`), `numbered from 1: ${item.text}`);
  const profiles = await page.$eval('#compare-results', (results) => (results.getAttribute('data-profiles') ?? '').split(' '));
  const player = await page.evaluate(async (names) => {
    const engine = await import('/pkg/context_assembly.js');
    await engine.default();
    const { scenarioText, parseJson } = await import('/web/scenario-text.js');
    const text = /** @type {HTMLTextAreaElement} */ (document.querySelector('#scenario-json')).value;
    return Object.fromEntries(names.map((name) => [name, engine.runScenario(scenarioText(text, parseJson(text), name)).steps
      .flatMap((step, index) => (step.turn.compaction ?? []).some((c) => c.applied) ? [index] : [])]));
  }, profiles);
  for (const profile of profiles) {
    assert.deepEqual(listed.filter((item) => item.profile === profile).map((item) => item.step), player[profile],
      `${profile}: Compare compacts where the player does`);
  }
  const takeaway = await page.textContent('#compare-takeaway') ?? '';
  assert.match(takeaway, /^\S+ is the cheapest \(\$[\d.]+\); \S+ costs [\d.]+× as much/);
  assert.deepEqual(problems, []);
});

test('Compare with every profile ticked: the choices fit, and no profile name breaks inside a word', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=compare&s=long-tool-output', viewport });
    await page.waitForSelector('#compare-results:not([hidden])', { timeout: 60000 });
    const cut = await page.$eval('#compare-profiles', (box) => {
      const right = box.getBoundingClientRect().right;
      return [...box.querySelectorAll('label')].filter((label) => label.getBoundingClientRect().right > right + 1).map((label) => label.textContent);
    });
    assert.deepEqual(cut, [], `${viewport.width} px: every profile's box is inside its fieldset`);
    const broken = await page.$$eval('#compare-results .compare-profile code', (names) => names
      .filter((name) => name.getClientRects().length > 1 || name.getBoundingClientRect().height > 2 * parseFloat(getComputedStyle(name).fontSize))
      .map((name) => name.textContent));
    assert.deepEqual(broken, [], `${viewport.width} px: each profile name is on one line`);
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('the threshold names on Compare\'s size chart never overlap', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=compare&s=long-tool-output', viewport: { width: 1280, height: 800 } });
  await page.waitForSelector('#compare-results:not([hidden])', { timeout: 60000 });
  const overlaps = await page.$$eval('#compare-results svg.chart', (charts) => charts.flatMap((chart) => {
    const boxes = [...chart.querySelectorAll('.chart-threshold-label')].map((label) => ({ text: label.textContent, box: label.getBoundingClientRect() }));
    return boxes.flatMap((a, i) => boxes.slice(i + 1).filter((b) => a.box.left < b.box.right && b.box.left < a.box.right
      && a.box.top < b.box.bottom && b.box.top < a.box.bottom).map((b) => `${chart.id}: ${a.text} over ${b.text}`));
  }));
  assert.deepEqual(overlaps, []);
  assert.deepEqual(problems, []);
});

test('long-tool-output with every profile ticked: each line is named at its end, no name over another or cut off, at 1280 and 390 px', async () => {
  for (const viewport of [{ width: 1280, height: 800 }, { width: 390, height: 844 }]) {
    const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=compare&s=long-tool-output', viewport });
    await page.waitForSelector('#compare-results:not([hidden])', { timeout: 60000 });
    const profiles = await page.$eval('#compare-results', (results) => (results.getAttribute('data-profiles') ?? '').split(' '));
    assert.ok(profiles.length >= 6, `${viewport.width} px: every profile is compared (${profiles})`);
    for (const scheme of /** @type {const} */ (['light', 'dark'])) {
      await page.emulateMedia({ colorScheme: scheme });
      const charts = await page.$$eval('#compare-results svg.chart', (svgs, ratio) => svgs.map((svg) => {
        const contrast = /** @type {(a: string, b: string) => number} */ (eval(ratio));
        const background = getComputedStyle(svg.closest('section') ?? document.body).backgroundColor;
        const frame = svg.getBoundingClientRect();
        const labels = [...svg.querySelectorAll('.chart-label')].map((label) => ({
          text: label.textContent ?? '', profile: label.getAttribute('data-profile'), axis: label.getAttribute('data-axis'), box: label.getBoundingClientRect().toJSON(),
          contrast: contrast(getComputedStyle(label).fill, background),
        }));
        return {
          id: svg.id,
          frame: frame.toJSON(),
          series: [...svg.querySelectorAll('g.chart-series')].map((group) => group.getAttribute('data-profile')),
          labels,
          steps: [...svg.querySelectorAll('.chart-point title')].map((title) => Number(/step (\d+)\)$/.exec(title.textContent ?? '')?.[1])),
        };
      }), CONTRAST_RATIO);
      for (const chart of charts) {
        const where = `${viewport.width} px, ${scheme}, ${chart.id}`;
        assert.deepEqual(chart.series, profiles, `${where}: a line per profile`);
        const named = chart.labels.filter((label) => label.profile !== null);
        assert.deepEqual(named.map((label) => label.profile).sort(), [...profiles].sort(), `${where}: each line is named once`);
        for (const label of named) {
          assert.equal(label.text, label.profile, `${where}: the name is the profile's`);
          assert.ok(label.contrast >= 4.5, `${where}: ${label.profile}'s name has contrast ${label.contrast.toFixed(2)}`);
        }
        const { frame } = chart;
        const cut = chart.labels.filter(({ box }) => box.left < frame.left - 0.5 || box.right > frame.right + 0.5
          || box.top < frame.top - 0.5 || box.bottom > frame.bottom + 0.5).map((label) => label.text);
        assert.deepEqual(cut, [], `${where}: every label is inside the chart`);
        const overlaps = chart.labels.flatMap((a, i) => chart.labels.slice(i + 1)
          .filter((b) => a.box.left < b.box.right && b.box.left < a.box.right && a.box.top < b.box.bottom && b.box.top < a.box.bottom)
          .map((b) => `${a.text} over ${b.text}`));
        assert.deepEqual(overlaps, [], `${where}: no label over another`);
        assert.equal(chart.labels.find((label) => label.axis === 'x-min')?.text, '1', `${where}: requests are counted from 1`);
        assert.ok(chart.steps.length > 0 && Math.min(...chart.steps) === 1, `${where}: steps are numbered from 1`);
      }
    }
    assert.deepEqual(problems, []);
    await page.close();
  }
});
