// The compare panel's requests side by side, used as a reader would: two profiles' requests at
// the player's step, aligned by the engine's requestDiff, the differences marked; the step
// follows the player. Expectations come from runScenario and requestDiff run in the same page.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { launchBrowser, longScenario, openPlayground, startServer } from './harness.mjs';

const AXE = resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js');

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/**
 * Opens the playground on the compare tab with a teaching scenario loaded in the player.
 * @param {string} file
 */
async function openWith(file) {
  const opened = await openPlayground(browser.context, server.url, { tab: 'compare' });
  await opened.page.selectOption('#scenario-pick', file);
  await opened.page.waitForSelector(`#scenario-panel[data-loaded="${file}"]`);
  return opened;
}

/**
 * Shows a step in the player (0-based), as a click in the step list does.
 * @param {import('playwright-core').Page} page
 * @param {number} index
 */
async function showStep(page, index) {
  await page.click(`#scenario-steps li[data-index="${index}"]`);
  await page.waitForSelector(`#compare-sbs-results[data-step="${index}"]`);
}

/**
 * Clicks "Show side by side" and waits for the replays in the worker.
 * @param {import('playwright-core').Page} page
 */
async function showSideBySide(page) {
  await page.click('#compare-sbs-run');
  await page.waitForSelector('#compare-sbs-run:not([disabled])');
  await page.waitForSelector('#compare-sbs-results:not([hidden])');
}

/**
 * The engine's requestDiff of two profiles' requests at a step of the player's scenario.
 * @param {import('playwright-core').Page} page
 * @param {string} left
 * @param {string} right
 * @param {number} index
 */
function expectedDiff(page, left, right, index) {
  return page.evaluate(async ({ left, right, index }) => {
    const engine = await import('/pkg/context_assembly.js');
    const scenario = JSON.parse(/** @type {HTMLTextAreaElement} */ (document.querySelector('#scenario-json')).value);
    const request = (/** @type {string} */ profile) => engine.runScenario({ ...scenario, profile }).steps[index]?.turn.request;
    const [a, b] = [request(left), request(right)];
    if (a === undefined || b === undefined) throw new Error(`no request at step ${index}`);
    return engine.requestDiff(a, b, {});
  }, { left, right, index });
}

/**
 * The rows on screen: each one's change, and what each side holds.
 * @param {import('playwright-core').Page} page
 */
function shownRows(page) {
  return page.$$eval('#compare-sbs-table tbody tr.sbs-row', (rows) => rows.map((row) => {
    const side = (/** @type {string} */ name) => /** @type {HTMLElement} */ (row.querySelector(`td[data-side="${name}"]`));
    return {
      change: /** @type {HTMLElement} */ (row).dataset.change,
      left: { class: side('left').className, ins: side('left').querySelectorAll('ins').length, del: side('left').querySelectorAll('del').length },
      right: { class: side('right').className, ins: side('right').querySelectorAll('ins').length, del: side('right').querySelectorAll('del').length },
    };
  }));
}

test('external-edit, step 7: claude-code and recommended side by side, each aligned block a row, words marked', async () => {
  const { page, problems } = await openWith('external-edit.json');
  assert.equal(await page.inputValue('#compare-sbs-left'), 'claude-code');
  assert.equal(await page.inputValue('#compare-sbs-right'), 'recommended');
  assert.equal(await page.isHidden('#compare-sbs-results'), true, 'nothing before it is asked for');
  await page.click('#scenario-steps li[data-index="6"]');
  await showSideBySide(page);
  assert.equal(await page.getAttribute('#compare-sbs-results', 'data-step'), '6');
  assert.match(await page.textContent('#compare-sbs-step') ?? '', /^At step 7 of 7, the step the player shows\.$/);
  const diff = await expectedDiff(page, 'claude-code', 'recommended', 6);
  assert.ok(diff.added > 0 && diff.changed > 0, `the profiles differ here: ${JSON.stringify({ added: diff.added, changed: diff.changed })}`);

  // A header per side: the profile, its tokens and its blocks, from the engine's diff.
  const headers = await page.$$eval('#compare-sbs-table thead th', (cells) => cells.map((cell) => ({
    ...(/** @type {HTMLElement} */ (cell).dataset), text: cell.textContent ?? '' })));
  assert.deepEqual(headers.map((cell) => [cell.side, cell.profile, Number(cell.tokens), Number(cell.blocks)]), [
    ['left', 'claude-code', diff.tokensBefore, diff.unchanged + diff.removed + diff.changed],
    ['right', 'recommended', diff.tokensAfter, diff.unchanged + diff.added + diff.changed],
  ]);
  assert.ok(headers[0]?.text.includes(`${diff.tokensBefore.toLocaleString('en-US')} tok`));
  const summary = await page.$eval('#compare-sbs-summary', (element) => ({ ...(/** @type {HTMLElement} */ (element).dataset), text: element.textContent ?? '' }));
  assert.deepEqual([summary.added, summary.removed, summary.changed, summary.unchanged].map(Number), [diff.added, diff.removed, diff.changed, diff.unchanged]);
  assert.match(summary.text, new RegExp(`${diff.added} only in recommended`));

  // One row per aligned block, in the engine's order; each side shows what it sends.
  const rows = await shownRows(page);
  assert.deepEqual(rows.map((row) => row.change), diff.blocks.map((block) => block.change));
  diff.blocks.forEach((block, i) => {
    const row = rows[i];
    assert.ok(row !== undefined);
    if (block.change === 'added') {
      assert.deepEqual([row.left.class, row.right.class], ['sbs-absent', 'sbs-added'], `row ${i}`);
    } else if (block.change === 'removed') {
      assert.deepEqual([row.left.class, row.right.class], ['sbs-removed', 'sbs-absent'], `row ${i}`);
    } else if (block.change === 'unchanged') {
      assert.deepEqual([row.left.class, row.right.class], ['sbs-same', 'sbs-same'], `row ${i}`);
    } else {
      assert.deepEqual([row.left.class, row.right.class], ['sbs-changed', 'sbs-changed'], `row ${i}`);
      const ops = new Set(block.words?.map((word) => word.op));
      assert.equal(row.left.del > 0, ops.has('delete'), `row ${i}: the left side strikes out its own words`);
      assert.equal(row.right.ins > 0, ops.has('insert'), `row ${i}: the right side marks its own words`);
      assert.equal(row.left.ins + row.right.del, 0, `row ${i}: each side shows only its own`);
    }
  });
  assert.ok(rows.some((row) => row.right.ins > 0 || row.left.del > 0), 'some words are marked');
  assert.equal(await page.locator('#compare-sbs-table td.sbs-same .block-text').count(), 0, 'the blocks sent alike are one line each');

  // Sides swapped: recommended's own block is now on the left, removed.
  await page.selectOption('#compare-sbs-left', 'recommended');
  await page.selectOption('#compare-sbs-right', 'claude-code');
  await page.waitForSelector('#compare-sbs-table thead th[data-side="left"][data-profile="recommended"]');
  await page.waitForSelector('#compare-sbs-run:not([disabled])');
  const swapped = await shownRows(page);
  assert.equal(swapped.filter((row) => row.change === 'removed').length, diff.added);
  assert.ok(swapped.filter((row) => row.change === 'removed').every((row) => row.left.class === 'sbs-removed' && row.right.class === 'sbs-absent'));

  await page.addScriptTag({ path: AXE });
  for (const scheme of /** @type {const} */ (['light', 'dark'])) {
    await page.emulateMedia({ colorScheme: scheme });
    const found = await page.evaluate(async () => {
      const results = await /** @type {any} */ (globalThis).axe.run('#compare-sbs', { resultTypes: ['violations'] });
      return results.violations.map((/** @type {any} */ v) => `${v.id}: ${v.nodes.map((/** @type {any} */ node) => node.target.join(' ')).join(', ')}`);
    });
    assert.deepEqual(found, [], `axe finds nothing in the section (${scheme})`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('the step follows the player; a step that sent no request shows the latest one before it, and says so', async () => {
  const { page, problems } = await openWith('external-edit.json');
  await page.click('#scenario-steps li[data-index="1"]');
  await showSideBySide(page);
  assert.equal(await page.getAttribute('#compare-sbs-results', 'data-step'), '1');
  const atTwo = await expectedDiff(page, 'claude-code', 'recommended', 1);
  assert.equal(await page.locator('#compare-sbs-table tbody tr.sbs-row').count(), atTwo.blocks.length);

  // Step 5 sends no request: both sides show step 3's, and the note says so.
  await showStep(page, 4);
  const note = await page.textContent('#compare-sbs-step') ?? '';
  assert.match(note, /^At step 5 of 7/);
  assert.match(note, /claude-code sends no request at this step: shown is its request of step 3, the latest before it\./);
  assert.match(note, /recommended sends no request at this step: shown is its request of step 3/);
  const atThree = await expectedDiff(page, 'claude-code', 'recommended', 2);
  assert.deepEqual(await page.$$eval('#compare-sbs-table tbody tr.sbs-row', (rows) => rows.map((row) => /** @type {HTMLElement} */ (row).dataset.change)),
    atThree.blocks.map((block) => block.change));

  // Forward in the player moves the side by side too.
  await page.click('#scenario-forward');
  await page.waitForSelector('#compare-sbs-results[data-step="5"]');
  await page.click('#scenario-forward');
  await page.waitForSelector('#compare-sbs-results[data-step="6"]');
  assert.match(await page.textContent('#compare-sbs-step') ?? '', /^At step 7 of 7, the step the player shows\.$/);

  // Another scenario in the player: the old requests go.
  await page.selectOption('#scenario-pick', 'todo-reminder.json');
  await page.waitForSelector('#scenario-panel[data-loaded="todo-reminder.json"]');
  await page.waitForSelector('#compare-sbs-results', { state: 'hidden' });
  assert.equal(await page.locator('#compare-sbs-table tr').count(), 0);
  assert.deepEqual(problems, []);
  await page.close();
});

/**
 * Puts a generated scenario in the player's editor; `run` replays it in the player too.
 * @param {import('playwright-core').Page} page
 * @param {unknown} scenario
 * @param {boolean} run
 */
async function typeScenario(page, scenario, run) {
  await page.$eval('#scenario-json', (area, text) => { /** @type {HTMLTextAreaElement} */ (area).value = text; }, JSON.stringify(scenario));
  await page.dispatchEvent('#scenario-json', 'input');
  if (run) await page.click('#scenario-run');
}

test('a long scenario is replayed in the worker: the page says how far it is, and Cancel stops it', async () => {
  const { page, problems } = await openWith('external-edit.json');
  // Four files of 10 KB mentioned at every prompt: seconds of replay per profile.
  const files = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`src/f${i}.ts`, `export const v${i} = ${i}; // some words here\n`.repeat(400)]));
  const steps = Array.from({ length: 1000 }, (_, i) => [
    { kind: 'user', prompt: `step ${i}: look at ${[0, 1, 2, 3].map((k) => `@src/f${(i * 4 + k) % 40}.ts`).join(' ')}` },
    { kind: 'assistant', blocks: [{ type: 'text', text: `done ${i} `.repeat(30) }] },
  ]).flat();
  // Not replayed in the player: the side by side replays the editor's text on its own.
  await typeScenario(page, { profile: 'claude-code', files, steps }, false);
  await page.click('#compare-sbs-run');
  await page.waitForFunction(() => /Replaying under both profiles… step [\d,]+ of 4,000/.test(document.querySelector('#compare-sbs-status')?.textContent ?? ''));
  assert.equal(await page.isDisabled('#compare-sbs-run'), true, 'one run at a time');
  assert.equal(await page.evaluate(() => 1 + 1), 2, 'the page answers while the worker replays');
  await page.click('#compare-sbs-cancel');
  await page.waitForSelector('#compare-sbs-run:not([disabled])');
  assert.equal(await page.textContent('#compare-sbs-error'), 'Cancelled: nothing replayed.');
  assert.equal(await page.isHidden('#compare-sbs-status'), true);
  assert.equal(await page.isHidden('#compare-sbs-results'), true);
  assert.deepEqual(problems, []);
  await page.close();
});

test('many blocks: the first 100 rows, then "N more"', async () => {
  const { page, problems } = await openWith('external-edit.json');
  const long = longScenario(200);
  await typeScenario(page, long, true);
  await page.waitForFunction(() => /step 1 of 400/.test(document.querySelector('#scenario-position')?.textContent ?? ''));
  await page.click('#scenario-steps li[data-index="0"]');
  await page.keyboard.press('End');
  await page.waitForFunction(() => /step 400 of 400/.test(document.querySelector('#scenario-position')?.textContent ?? ''));
  await showSideBySide(page);
  assert.equal(await page.getAttribute('#compare-sbs-results', 'data-step'), '399');
  const counts = await page.$eval('#compare-sbs-summary', (element) => /** @type {HTMLElement} */ (element).dataset);
  const total = ['added', 'removed', 'changed', 'unchanged'].reduce((sum, key) => sum + Number(counts[key]), 0);
  assert.ok(total > 100, `${total} aligned blocks`);
  assert.equal(await page.locator('#compare-sbs-table tbody tr.sbs-row').count(), 100);
  assert.equal(await page.textContent('#compare-sbs-table .more-rows button'), `${(total - 100).toLocaleString('en')} more (show ${Math.min(100, total - 100)})`);
  await page.click('#compare-sbs-table .more-rows button');
  assert.equal(await page.locator('#compare-sbs-table tbody tr.sbs-row').count(), Math.min(200, total));
  assert.deepEqual(problems, []);
  await page.close();
});
