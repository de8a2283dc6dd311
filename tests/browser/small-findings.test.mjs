// The smaller findings of issue 29 (finding 9): the pass's list fits its pane, Share's status
// does not push the bar to a second row, and the Mentions table marks only the cells that depart
// from what most profiles read.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, showTab, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const DESKTOP = { width: 1280, height: 800 };

test('the pass, in emission order, is not cut off on the right', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=step&step=7&s=external-edit', viewport: DESKTOP });
  await page.evaluate(() => { /** @type {HTMLDetailsElement} */ (document.querySelector('#scenario-turn .emission-order')).open = true; });
  const overflow = await page.$eval('#scenario-turn', (pane) => {
    const right = pane.getBoundingClientRect().right;
    return [...pane.querySelectorAll('.emission-order li')].map((li) => ({
      text: li.textContent ?? '', past: Math.max(li.scrollWidth - li.clientWidth, li.getBoundingClientRect().right - right),
    })).filter((row) => row.past > 1);
  });
  assert.deepEqual(overflow, [], 'every row of the pass fits the pane');
  assert.deepEqual(problems, []);
});

test('Share\'s status does not move the bar', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=step&s=external-edit', viewport: DESKTOP });
  const before = await page.$eval('#share-link', (button) => ({ top: button.getBoundingClientRect().top, bar: document.querySelector('.scenario-bar')?.getBoundingClientRect().height }));
  await page.click('#share-link');
  await page.waitForFunction(() => (document.querySelector('#share-status')?.textContent ?? '') !== '');
  const after = await page.$eval('#share-link', (button) => ({ top: button.getBoundingClientRect().top, bar: document.querySelector('.scenario-bar')?.getBoundingClientRect().height }));
  assert.deepEqual(after, before);
  assert.deepEqual(problems, []);
});

test('the Mentions table marks the cells that differ, not every cell of a row', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'mentions' });
  await showTab(page, 'mentions');
  await page.waitForSelector('#mentions-table tbody tr');
  const rows = await page.$$eval('#mentions-table tbody tr', (all) => all.map((row) => ({
    cells: row.querySelectorAll('td').length - 1, marked: row.querySelectorAll('td.differs').length,
  })));
  assert.ok(rows.some((row) => row.marked > 0), 'some profile reads some mention differently');
  for (const row of rows) assert.ok(row.marked < row.cells, `a row marks ${row.marked} of its ${row.cells} profiles`);
  assert.deepEqual(problems, []);
});
