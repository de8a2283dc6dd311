// `make screenshot`: the README's pictures of the playground, taken in headless Chromium at a
// laptop's size (1280×800) and a phone's (390×844), written as PNG files beside the page.
import { statSync } from 'node:fs';
import { resolve } from 'node:path';
import { launchBrowser, openPlayground, startServer } from './harness.mjs';

const WEB = resolve(import.meta.dirname, '../../web');
const LAPTOP = { width: 1280, height: 800 };
const PHONE = { width: 390, height: 844 };

/**
 * @typedef {object} Shot
 * @property {string} file written in web/
 * @property {{ width: number, height: number }} viewport
 * @property {string} fragment the link's state: scenario, step, profile, tab
 * @property {'light' | 'dark'} scheme
 * @property {(page: import('playwright-core').Page) => Promise<void>} [prepare] what to do before the picture
 */

/** @type {Shot[]} */
const SHOTS = [
  // The step where an edit made outside the agent comes back to the model as a note.
  { file: 'playground.png', viewport: LAPTOP, fragment: '#step=7&s=external-edit', scheme: 'light' },
  {
    file: 'playground-compare.png', viewport: LAPTOP, fragment: '#tab=compare&step=4&s=auto-compaction', scheme: 'light',
    // The address runs Compare on open: wait for that run to end (a click would start a
    // second one, shown mid-way beside the first one's results).
    prepare: async (page) => {
      await page.waitForSelector('#compare-results:not([hidden])');
      await page.waitForFunction(() => !(/** @type {HTMLButtonElement} */ (document.querySelector('#compare-run'))).disabled);
    },
  },
  {
    file: 'playground-compaction-dark.png', viewport: LAPTOP, fragment: '#tab=compaction&step=4&s=auto-compaction', scheme: 'dark',
    prepare: async (page) => {
      await page.click('#compaction-run');
      await page.waitForSelector('#compaction-results:not([hidden])');
    },
  },
  {
    file: 'playground-phone.png', viewport: PHONE, fragment: '#step=7&s=external-edit', scheme: 'light',
    // The phone shows the step's request below the list: scroll to the tabs.
    prepare: async (page) => {
      await page.evaluate(() => document.querySelector('#tab-list')?.scrollIntoView({ block: 'start' }));
    },
  },
  {
    // An imported Claude Code log: its warnings and the recorded requests beside ours.
    file: 'import.png', viewport: LAPTOP, fragment: '#tab=scenario', scheme: 'light',
    prepare: async (page) => {
      await page.setInputFiles('#import-file', resolve(import.meta.dirname, '../fixtures/import/claude-code-injected.jsonl'));
      await page.waitForSelector('#import-truth');
      await page.evaluate(() => {
        const details = document.querySelector('#import-details');
        if (details instanceof HTMLDetailsElement) details.open = true;
        details?.scrollIntoView({ block: 'start' });
      });
    },
  },
];

const server = await startServer();
const browser = await launchBrowser();
try {
  for (const shot of SHOTS) {
    const { page, problems } = await openPlayground(browser.context, server.url, { fragment: shot.fragment, viewport: shot.viewport });
    await page.emulateMedia({ colorScheme: shot.scheme });
    await shot.prepare?.(page);
    const out = resolve(WEB, shot.file);
    await page.screenshot({ path: out, fullPage: false });
    if (problems.length > 0) throw new Error(problems.join('\n'));
    console.log(`wrote ${out} (${Math.round(statSync(out).size / 1024)} KB)`);
    await page.close();
  }
} finally {
  await browser.close();
  await server.close();
}
