// A long session log is imported off the page's thread: the page keeps drawing frames while a
// worker reads it and then accounts for its requests, says how far it is, and Cancel stops it
// and leaves the page usable.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { longClaudeLog } from '../gen/long-log.mjs';
import { launchBrowser, openPlayground, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

const FIXTURES = resolve(import.meta.dirname, '../fixtures/import');

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('a multi-MB log is imported in a worker: frames keep coming, progress shows, and Cancel stops it', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'scenario' });
  await page.waitForSelector('#scenario-panel[data-loaded]');
  // A frame counter: on a blocked main thread no frame is drawn.
  await page.evaluate(() => {
    const counter = /** @type {{ frames: number }} */ (/** @type {unknown} */ (globalThis));
    counter.frames = 0;
    const tick = () => { counter.frames += 1; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  });
  const frames = () => page.evaluate(() => /** @type {{ frames: number }} */ (/** @type {unknown} */ (globalThis)).frames);
  await page.setInputFiles('#import-file', { name: 'long.jsonl', mimeType: 'application/x-ndjson', buffer: longClaudeLog(6) });
  await page.waitForSelector('#import-cancel:not([hidden])', { timeout: 5000 });
  // Read, the log's scenario is in the player; our accounting of it, the long part, follows.
  await page.waitForFunction(() => /cache accounting of the log's scenario, in a worker: step [\d,]+ of [\d,]+/.test(document.querySelector('#import-status')?.textContent ?? ''));
  assert.equal(JSON.parse(await page.inputValue('#scenario-json')).profile, 'claude-code');
  assert.ok(await page.evaluate(() => /** @type {HTMLProgressElement} */ (document.querySelector('#import-progress')).value > 0), 'the bar moves');
  const first = await frames();
  await page.waitForFunction((at) => /** @type {{ frames: number }} */ (/** @type {unknown} */ (globalThis)).frames >= at + 10, first);
  assert.equal(await page.isVisible('#import-cancel'), true, 'ten frames were drawn while the accounting ran');

  await page.click('#import-cancel');
  await page.waitForSelector('#import-cancel', { state: 'hidden' });
  assert.match(await page.textContent('#import-status') ?? '', /^long\.jsonl: a claude-code log, .* Our cache accounting was cancelled: the table beside the recorded usage is not drawn\.$/);
  assert.equal(await page.isHidden('#import-progress'), true);
  assert.equal(await page.locator('#import-truth').count(), 0, 'no table of a cancelled accounting');

  // The page is usable: the player steps, and the next import (in a fresh worker) completes.
  await page.click('#scenario-forward');
  assert.match(await page.textContent('#scenario-position') ?? '', /^step 2 of /);
  await page.setInputFiles('#import-file', resolve(FIXTURES, 'claude-code-session.jsonl'));
  await page.waitForSelector('#import-truth');
  assert.match(await page.textContent('#import-status') ?? '', /^claude-code-session\.jsonl: a claude-code log/);
  assert.deepEqual(problems, []);
  await page.close();
});
