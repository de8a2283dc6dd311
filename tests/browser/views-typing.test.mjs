// Typing into the Mentions, Tokens and Diff boxes never blocks the page: each run of input
// handling is timed inside the page with `performance` marks the views set, and the input
// events themselves return at once (the work waits for typing to pause).
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** A generous bound for one frame of input handling, in milliseconds. */
const FRAME_BOUND_MS = 100;
/**
 * The bound for the slowest frame of all: a shared, loaded machine now and then stops the page
 * for a garbage collection or another process (spikes of ~200 ms seen); the quadratic table
 * this guards against took seconds.
 */
const SPIKE_BOUND_MS = 500;

/**
 * Types `text` into a box in `chunks` input events, each after the last, and returns how long
 * each event's listeners took and each measured handling run (`measure` entries named `name`).
 * @param {import('playwright-core').Page} page
 * @param {string} selector
 * @param {string} name
 * @param {string} text
 * @param {number} chunks
 */
function typeAndMeasure(page, selector, name, text, chunks) {
  return page.evaluate(async ({ selector, name, text, chunks }) => {
    const input = /** @type {HTMLTextAreaElement} */ (document.querySelector(selector));
    performance.clearMeasures(name);
    const events = [];
    const size = Math.ceil(text.length / chunks);
    input.value = '';
    for (let i = 0; i < chunks; i += 1) {
      input.value += text.slice(i * size, (i + 1) * size);
      const start = performance.now();
      input.dispatchEvent(new Event('input'));
      events.push(performance.now() - start);
      // A pause longer than the debounce: every chunk is handled, at 100 KB, 200 KB, … 1 MB.
      await new Promise((done) => setTimeout(done, 400));
    }
    // Let the run after the pause, and any batches it schedules, finish.
    await new Promise((done) => setTimeout(done, 1500));
    const runs = performance.getEntriesByName(name, 'measure').map((entry) => entry.duration);
    return { events, runs };
  }, { selector, name, text, chunks });
}

/**
 * The share `q` (0–1) of `values` at or below the result.
 * @param {number[]} values
 * @param {number} q
 */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted.length === 0 ? 0 : sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * q))];
}

/** @param {number[]} values */
function figures(values) {
  return { count: values.length, max: Math.round(quantile(values, 1)), p90: Math.round(quantile(values, 0.9)),
    median: Math.round(quantile(values, 0.5)) };
}

/** About 1 MB of prompt text, dense with mentions of every kind. */
function megabyteOfMentions() {
  const line = 'Look at @src/app.ts#L10-20 and @"docs/my notes.md", then ask @agent-code-reviewer. Also @café.txt, @server:res/path.\n';
  return line.repeat(Math.ceil(1_000_000 / line.length));
}

test('typing 1 MB into Mentions: every input handling run stays under 100 ms', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'mentions' });
  const { events, runs } = await typeAndMeasure(page, '#mentions-input', 'mentions:input', megabyteOfMentions(), 10);
  console.log('mentions 1 MB: input events', figures(events), 'handling runs', figures(runs));
  assert.ok(runs.length >= 10, 'the view measured its handling runs');
  await page.selectOption('#mentions-profile', 'codex');
  await page.waitForSelector('#mentions-highlight-note:not([hidden])');
  assert.match(await page.textContent('#mentions-highlight-note') ?? '', /^The first 2,000 of [\d,]+ mentions codex sees are highlighted/);
  assert.equal(await page.locator('#mentions-backdrop mark').count() <= 2 * 2000, true, 'the highlight is bounded');
  const frames = [...events, ...runs];
  assert.ok(quantile(frames, 0.9) < FRAME_BOUND_MS, `frames: ${JSON.stringify(figures(frames))}`);
  assert.ok(quantile(frames, 1) < SPIKE_BOUND_MS, `frames: ${JSON.stringify(figures(frames))}`);
  assert.deepEqual(problems, []);
});

test('typing 1 M CJK characters into Tokens and a 50,000-line file into Diff: input events return at once', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  const cjk = '上下文工程'.repeat(200_000);
  const tokens = await typeAndMeasure(page, '#tokens-input', 'tokens:input', cjk, 10);
  console.log('tokens 1 M CJK: input events', figures(tokens.events), 'handling runs', figures(tokens.runs));
  const lines = Array.from({ length: 50_000 }, (_, i) => `line ${i + 1}\n`).join('');
  await page.evaluate((text) => { /** @type {HTMLTextAreaElement} */ (document.querySelector('#diff-before')).value = text; }, lines);
  const diff = await typeAndMeasure(page, '#diff-after', 'diff:input', lines.replace('line 25000\n', 'LINE 25000\n'), 10);
  console.log('diff 50,000 lines: input events', figures(diff.events), 'handling runs', figures(diff.runs));
  assert.ok(Math.max(...tokens.events, ...diff.events) < FRAME_BOUND_MS, 'typing waits for a pause before the work');
  assert.ok(tokens.runs.length > 0 && diff.runs.length > 0, 'the views measured their handling runs');
  assert.deepEqual(problems, []);
});

test('a long prompt is echoed shortened in a turn heading', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'files' });
  await page.fill('#files-prompt', 'x'.repeat(100_000));
  await page.click('#files-submit');
  const heading = await page.textContent('#files-turns h4');
  assert.match(heading ?? '', /… \(100,000 characters\)/);
  assert.ok((heading ?? '').length < 400, `the heading is ${heading?.length} characters`);
  assert.deepEqual(problems, []);
});

test('a large mention table shows a batch of rows and an "N more" button for the next batch', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'mentions' });
  const text = Array.from({ length: 500 }, (_, i) => `@agent-a${i} `).join('');
  await page.fill('#mentions-input', text);
  await page.waitForSelector('#mentions-table tr.more-rows button');
  const rows = () => page.$$eval('#mentions-table tbody tr:not(.more-rows)', (all) => all.length);
  assert.equal(await rows(), 200);
  assert.match(await page.textContent('#mentions-table tr.more-rows button') ?? '', /^300 more/);
  await page.click('#mentions-table tr.more-rows button');
  assert.equal(await rows(), 400);
  await page.click('#mentions-table tr.more-rows button');
  assert.equal(await rows(), 500);
  assert.equal(await page.$('#mentions-table tr.more-rows'), null, 'no button once every row is shown');
  assert.deepEqual(problems, []);
});
