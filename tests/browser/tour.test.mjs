// The guided tour (issue 29, item 7): `#tour` in the address, or the Tour button, walks through
// every stop — each on its built-in scenario, step and tab, with the part of the screen that
// shows it outlined — to the end.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { launchBrowser, openPlayground, startServer } from './harness.mjs';

const AXE = resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js');

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('#tour walks every stop to the end, each on its scenario, step and tab with its part outlined', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tour' });
  const stops = await page.evaluate(async () => (await import('/web/app/tour.js')).STOPS);
  assert.ok(stops.length >= 8, 'a stop per mechanism');
  for (const [index, stop] of stops.entries()) {
    await page.waitForSelector(`#tour[data-stop="${index}"][data-ready="true"]`, { timeout: 60000 });
    assert.equal(await page.textContent('#tour-title'), stop.title);
    assert.equal(await page.getAttribute('body', 'data-tab'), stop.tab, `${stop.title}: its tab`);
    assert.equal(await page.getAttribute('#scenario-panel', 'data-loaded'), `${stop.file}.json`, `${stop.title}: its scenario`);
    assert.match(await page.textContent('#scenario-position') ?? '', new RegExp(`^step ${stop.step} of `), `${stop.title}: its step`);
    assert.ok(await page.isVisible(`${stop.target}.tour-target`), `${stop.title}: ${stop.target} is outlined`);
    assert.equal(await page.$$eval('.tour-target', (all) => all.length), 1, 'one part outlined at a time');
    await page.click('#tour-next');
  }
  await page.waitForSelector('#tour', { state: 'hidden' });
  assert.equal(await page.$$eval('.tour-target', (all) => all.length), 0, 'nothing outlined after the tour');
  assert.deepEqual(problems, []);
});

test('the Tour button starts the tour, Back returns a stop, Close ends it', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  await page.click('#tour-start');
  await page.waitForSelector('#tour[data-stop="0"][data-ready="true"]');
  assert.equal(await page.isDisabled('#tour-back'), true);
  await page.click('#tour-next');
  await page.waitForSelector('#tour[data-stop="1"][data-ready="true"]');
  await page.click('#tour-back');
  await page.waitForSelector('#tour[data-stop="0"][data-ready="true"]');
  // The panel passes axe in both schemes.
  await page.addScriptTag({ path: AXE });
  for (const scheme of /** @type {const} */ (['light', 'dark'])) {
    await page.emulateMedia({ colorScheme: scheme });
    const found = await page.evaluate(async () => {
      const results = await /** @type {any} */ (globalThis).axe.run('#tour', { resultTypes: ['violations'] });
      return results.violations.map((/** @type {any} */ v) => v.id);
    });
    assert.deepEqual(found, [], `${scheme}: no axe violation in the tour`);
  }
  await page.click('#tour-close');
  await page.waitForSelector('#tour', { state: 'hidden' });
  assert.deepEqual(problems, []);
});
