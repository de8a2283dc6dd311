// Serves the repository on loopback and drives Debian's Chromium through playwright-core.
// Any console error or uncaught exception on the page fails the test that opened it.
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { extname, join, normalize, resolve } from 'node:path';
import { chromium } from 'playwright-core';

const ROOT = resolve(import.meta.dirname, '../..');
const TYPES = { '.html': 'text/html', '.js': 'text/javascript', '.mjs': 'text/javascript', '.css': 'text/css',
  '.wasm': 'application/wasm', '.json': 'application/json', '.png': 'image/png' };

/**
 * Starts a static file server for the repository root (or `root`) on a free loopback port.
 * @param {string} [root]
 */
export async function startServer(root = ROOT) {
  const server = createServer((request, response) => {
    const path = decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname);
    let file = normalize(join(root, path));
    if (!file.startsWith(root)) { response.writeHead(403).end(); return; }
    try {
      if (statSync(file).isDirectory()) file = join(file, 'index.html');
      const body = readFileSync(file);
      response.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' }).end(body);
    } catch {
      response.writeHead(404).end();
    }
  });
  await new Promise((done) => server.listen(0, '127.0.0.1', () => done(undefined)));
  const address = server.address();
  const port = typeof address === 'object' && address ? address.port : 0;
  return { url: `http://127.0.0.1:${port}`, close: () => new Promise((done) => server.close(done)) };
}

/** Launches headless Chromium with a fresh profile and no background networking. */
export async function launchBrowser() {
  const userDataDir = mkdtempSync(join(tmpdir(), 'ca-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: '/usr/bin/chromium',
    headless: true,
    viewport: { width: 1200, height: 900 },
    args: ['--headless', '--no-sandbox', '--disable-gpu', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync', '--disable-quic'],
  });
  return {
    context,
    close: async () => { await context.close(); rmSync(userDataDir, { recursive: true, force: true }); },
  };
}

/**
 * Opens the playground and records console errors and uncaught exceptions. The browser's
 * storage for the page is emptied first, so a scenario autosaved by an earlier test of the
 * same file does not come back; `tab` opens on that tab, `fragment` on a whole link's state,
 * `viewport` at that size from the start (as a phone opens it).
 * @param {import('playwright-core').BrowserContext} context
 * @param {string} url
 * @param {{ tab?: string, fragment?: string, viewport?: { width: number, height: number } }} [options]
 */
export async function openPlayground(context, url, { tab, fragment, viewport } = {}) {
  const page = await context.newPage();
  if (viewport !== undefined) await page.setViewportSize(viewport);
  // Chromium's own call, so that no page has to be opened to reach the origin's storage.
  const devtools = await context.newCDPSession(page);
  await devtools.send('Storage.clearDataForOrigin', { origin: url, storageTypes: 'local_storage' });
  await devtools.detach();
  /** @type {string[]} */
  const problems = [];
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await page.goto(`${url}/web/${fragment ?? (tab === undefined ? '' : `#tab=${tab}`)}`);
  // Generous: a loaded 2-core CI machine compiles the wasm module slowly.
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
  return { page, problems };
}

/**
 * Shows one of the playground's tabs, as a click on it does.
 * @param {import('playwright-core').Page} page
 * @param {string} name `step`, `files`, `compaction`, `compare`, `mentions`, `tokens`, `diff` or `scenario`
 */
export async function showTab(page, name) {
  await page.click(`#tab-${name}`);
  await page.waitForSelector(`body[data-tab="${name}"]`);
}

/**
 * A long scenario for the tests of long runs: 20 files of 100 lines, and `turns` turns, each a
 * prompt that mentions one of them and a short answer.
 * @param {number} turns
 */
export function longScenario(turns) {
  const files = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`src/f${i}.ts`, `export const v${i} = ${i};\n`.repeat(100)]));
  const steps = Array.from({ length: turns }, (_, i) => [
    { kind: 'user', prompt: `step ${i}: look at @src/f${i % 20}.ts` },
    { kind: 'assistant', blocks: [{ type: 'text', text: `done ${i} `.repeat(30) }] },
  ]).flat();
  return { profile: 'claude-code', files, steps };
}

/** Every tab of the playground, in order. */
export const TABS = ['step', 'files', 'compaction', 'compare', 'mentions', 'tokens', 'diff', 'scenario', 'glossary'];

/**
 * Shows each tab in turn with something in it (the auto-compaction scenario at step 4, then a
 * compaction run, a comparison and a turn on their tabs), calling `look` on each.
 * @param {import('playwright-core').Page} page
 * @param {(tab: string) => Promise<void>} look
 */
export async function visitFilledTabs(page, look) {
  await page.selectOption('#scenario-pick', 'auto-compaction.json');
  await page.waitForSelector('#scenario-panel[data-loaded="auto-compaction.json"]');
  await page.click('#scenario-step-3');
  for (const tab of TABS) {
    await showTab(page, tab);
    if (tab === 'compaction') {
      await page.click('#compaction-run');
      await page.waitForSelector('#compaction-results:not([hidden])');
    } else if (tab === 'compare') {
      await page.click('#compare-run');
      await page.waitForSelector('#compare-results:not([hidden])');
    } else if (tab === 'files') {
      await page.click('#files-submit');
      await page.waitForSelector('#files-turns .turn');
    }
    await look(tab);
  }
}

/**
 * WCAG's contrast ratio of two computed colours (`rgb(…)`), as a function's source to be
 * evaluated in the page.
 */
export const CONTRAST_RATIO = `(a, b) => {
  const channels = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => channels(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}`;
