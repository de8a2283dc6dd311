// The playground's main thread while a generated Claude Code log is imported, in Chromium: the
// longest gap between animation frames and the main-thread tasks over 200 ms, from the drop to
// the table beside the recorded usage. Prints figures; asserts nothing.
//
//   node tests/bench/import-page.mjs          # a 6 MB log
//   MB=20 node tests/bench/import-page.mjs
import { longClaudeLog } from '../gen/long-log.mjs';
import { launchBrowser, openPlayground, startServer } from '../browser/harness.mjs';

const MEGABYTES = Number(process.env.MB ?? 6);

const server = await startServer();
const browser = await launchBrowser();
try {
  const { page } = await openPlayground(browser.context, server.url, { tab: 'scenario' });
  await page.waitForSelector('#scenario-panel[data-loaded]');
  await page.evaluate(() => {
    const watch = /** @type {any} */ (globalThis).watch = { last: performance.now(), longest: 0, tasks: /** @type {number[]} */ ([]) };
    const tick = () => {
      const now = performance.now();
      watch.longest = Math.max(watch.longest, now - watch.last);
      watch.last = now;
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
    new PerformanceObserver((list) => { for (const task of list.getEntries()) watch.tasks.push(task.duration); }).observe({ type: 'longtask' });
  });
  const log = longClaudeLog(MEGABYTES);
  const started = Date.now();
  await page.setInputFiles('#import-file', { name: 'long.jsonl', mimeType: 'application/x-ndjson', buffer: log });
  await page.waitForSelector('#import-truth', { timeout: 3_600_000 });
  const seconds = (Date.now() - started) / 1000;
  const { longest, tasks } = await page.evaluate(() => /** @type {any} */ (globalThis).watch);
  const over = tasks.filter((/** @type {number} */ ms) => ms > 200).map((/** @type {number} */ ms) => ms.toFixed(0));
  console.log(`${(log.length / 1e6).toFixed(1)} MB log: the table beside the recorded usage after ${seconds.toFixed(1)} s; ` +
    `longest gap between frames ${(longest / 1000).toFixed(2)} s; main-thread tasks over 200 ms: ${over.join(', ') || 'none'} ms`);
} finally {
  await browser.close();
  await server.close();
}
