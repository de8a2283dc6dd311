// Links restore everything (issue 29, finding 6): a Compaction link opens at its step, not at
// step 1; a Compare link opens with its results, not waiting for Compare to be pressed; and a
// link opened in a page already open (a changed hash) shows its scenario, step, profile and tab.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('a Compaction link at step 7 opens the Compaction tab at step 7', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=compaction&step=7&s=external-edit' });
  assert.equal(await page.inputValue('#compaction-step'), '7');
  assert.match(await page.textContent('#compaction-step-note') ?? '', /at step 7/);
  assert.deepEqual(problems, []);
});

test('a Compare link opens with the comparison run', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=compare&s=codex-context' });
  await page.waitForSelector('#compare-results:not([hidden])', { timeout: 30000 });
  assert.ok(await page.$$eval('#compare-explain tr[data-profile]', (rows) => rows.length) > 0, 'a row per profile compared');
  assert.deepEqual(problems, []);
});

test('a changed hash in an open page shows the scenario, step, profile and tab it names', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=step&s=external-edit' });
  await page.evaluate(() => { location.hash = '#tab=files&step=3&profile=codex&s=auto-compaction'; });
  await page.waitForSelector('#scenario-panel[data-loaded="auto-compaction.json"]');
  await page.waitForSelector('body[data-tab="files"]');
  assert.equal(await page.inputValue('#scenario-profile'), 'codex');
  assert.match(await page.textContent('#scenario-position') ?? '', /^step 3 of /);
  // The same scenario at another step and tab: nothing is reloaded, the step moves.
  await page.evaluate(() => { location.hash = '#tab=compaction&step=2&profile=codex&s=auto-compaction'; });
  await page.waitForSelector('body[data-tab="compaction"]');
  await page.waitForFunction(() => /^step 2 of /.test(document.querySelector('#scenario-position')?.textContent ?? ''));
  await page.waitForFunction(() => /** @type {HTMLInputElement} */ (document.querySelector('#compaction-step')).value === '2');
  assert.deepEqual(problems, []);
});

test('a Compare link with a pair shows that pair side by side, and the address keeps the pair shown', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=compare&step=4&s=codex-context&pair=claude-code&pair=codex' });
  await page.waitForSelector('#compare-sbs-results:not([hidden])', { timeout: 30000 });
  assert.equal(await page.inputValue('#compare-sbs-left'), 'claude-code');
  assert.equal(await page.inputValue('#compare-sbs-right'), 'codex');
  assert.match(await page.textContent('#compare-sbs-step') ?? '', /^At step 4 of /);
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).getAll('pair').join() === 'claude-code,codex');
  // Another pair picked: the address follows, so a link copied now opens it.
  await page.selectOption('#compare-sbs-right', 'recommended');
  await page.waitForFunction(() => new URLSearchParams(location.hash.slice(1)).getAll('pair').join() === 'claude-code,recommended');
  assert.deepEqual(problems, []);
});

test('a pair naming a profile the engine does not know is said, not shown', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=compare&s=codex-context&pair=claude-code&pair=nobody' });
  await page.waitForSelector('#compare-sbs-error:not([hidden])');
  assert.match(await page.textContent('#compare-sbs-error') ?? '', /names "nobody", which this engine does not know/);
  assert.ok(await page.isHidden('#compare-sbs-results'));
  assert.deepEqual(problems, []);
});
