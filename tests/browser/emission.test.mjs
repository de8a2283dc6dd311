// The player shows the engine's emission order for every step, with the collectors that
// attached something marked.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await server?.close(); });

test('each step lists the pass in emission order and marks the collectors that attached', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  await page.selectOption('#scenario-pick', 'external-edit.json');
  await page.waitForSelector('#scenario-panel[data-loaded="external-edit.json"]');
  const order = await page.evaluate(async () => (await import('/pkg/context_assembly.js')).emissionOrder().map((e) => e.collector));
  const steps = await page.locator('#scenario-steps li').count();
  let marked = false;
  for (let index = 0; index < steps; index += 1) {
    await page.click(`#scenario-step-${index}`);
    const listed = await page.$$eval('#scenario-turn .emission-order li', (rows) => rows.map((row) => row.getAttribute('data-collector')));
    assert.deepEqual(listed, order, `step ${index}: the engine's table, in its order`);
    const kinds = await page.$$eval('#scenario-turn .attachments li', (rows) => rows.map((row) => row.getAttribute('data-kind')));
    const fired = await page.$$eval('#scenario-turn .emission-order li.fired', (rows) => rows.map((row) => row.getAttribute('data-collector')));
    if (kinds.includes('edited_text_file')) {
      assert.ok(fired.includes('changed_files'), `step ${index}: the changed file's collector is marked`);
      marked = true;
    }
    if (kinds.length === 0) assert.deepEqual(fired, [], `step ${index}: nothing attached, nothing marked`);
  }
  assert.ok(marked, 'the scenario has a step with a changed-file note');
  assert.deepEqual(problems, []);
});
