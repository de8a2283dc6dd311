// axe-core, injected into the page, finds no violation on any tab, in light and in dark mode.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { TABS, launchBrowser, openPlayground, startServer, visitFilledTabs } from './harness.mjs';

const AXE = resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js');

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/**
 * axe's violations on the page as it is: rule, impact and where, one line each.
 * @param {import('playwright-core').Page} page
 * @returns {Promise<string[]>}
 */
async function violations(page) {
  return page.evaluate(async () => {
    const axe = /** @type {any} */ (globalThis).axe;
    const results = await axe.run(document, { resultTypes: ['violations'] });
    return results.violations.flatMap((/** @type {any} */ v) => v.nodes.map((/** @type {any} */ node) =>
      `${v.id} (${v.impact}): ${node.target.join(' ')} — ${node.failureSummary.split('\n').slice(1, 2).join('').trim()}`));
  });
}

/**
 * Runs every tab with something in it (a compaction, a comparison, a turn) and checks it.
 * @param {'light' | 'dark'} scheme
 */
async function everyTab(scheme) {
  const { page, problems } = await openPlayground(browser.context, server.url);
  await page.emulateMedia({ colorScheme: scheme });
  await page.addScriptTag({ path: AXE });
  /** @type {Record<string, string[]>} */
  const found = {};
  await visitFilledTabs(page, async (tab) => { found[tab] = await violations(page); });
  console.log(`${scheme}: ${TABS.map((tab) => `${tab} ${found[tab]?.length}`).join(', ')}`);
  assert.deepEqual(found, Object.fromEntries(TABS.map((tab) => [tab, []])));
  assert.deepEqual(problems, []);
  await page.close();
}

test('no axe violation on any tab in light mode', () => everyTab('light'));
test('no axe violation on any tab in dark mode', () => everyTab('dark'));
