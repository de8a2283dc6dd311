import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, showTab, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('the page loads offline with no console errors', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  assert.match(await page.textContent('#status') ?? '', /Engine loaded/);
  for (const tab of ['mentions', 'tokens', 'diff']) {
    await showTab(page, tab);
    assert.ok(await page.isVisible(`#${tab}-panel .explain`), `the ${tab} tab explains itself`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('mentions are highlighted as you type and profiles are compared', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'mentions' });
  await page.fill('#mentions-input', 'see @café and @foo#L20-10');
  await page.selectOption('#mentions-profile', 'claude-code');
  const marks = await page.$$eval('#mentions-backdrop mark', (nodes) => nodes.map((n) => n.textContent));
  assert.deepEqual(marks, ['@caf', '@foo#L20-10']);
  // claude-code cuts café at its last ASCII word character (Q1); recommended keeps it whole.
  // The table follows the text a moment after the highlights: wait for the typed text's row.
  await page.waitForFunction(() => document.querySelector('#mentions-table tbody tr:first-child td')?.textContent === '4');
  const firstRow = await page.$$eval('#mentions-table tbody tr:first-child td', (cells) => cells.map((c) => c.textContent));
  assert.equal(firstRow[0], '4');
  // The columns by their profile, as the engine lists its profiles (per-release ones included).
  const columns = await page.$$eval('#mentions-table thead th', (cells) => cells.map((c) => c.textContent));
  assert.match(firstRow[columns.indexOf('claude-code')] ?? '', /file caf\b/);
  assert.match(firstRow[columns.indexOf('recommended')] ?? '', /file café$/);
  assert.ok(await page.$('#mentions-table tbody tr:first-child td.differs'), 'the differing row is marked');
  await page.selectOption('#mentions-profile', 'recommended');
  const problemMarks = await page.$$eval('#mentions-backdrop mark.problem', (nodes) => nodes.map((n) => n.textContent));
  assert.deepEqual(problemMarks, ['@foo#L20-10']);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the token panel counts per method and shows raw sizes', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'tokens' });
  await page.fill('#tokens-input', '日本語のテキスト');
  const selector = (/** @type {string} */ method) => `#tokens-table tr[data-method="${method}"] td.count`;
  const count = async (/** @type {string} */ method) => Number(await page.textContent(selector(method)));
  // The panel counts once typing pauses.
  const counted = (/** @type {string} */ method, /** @type {number} */ expected) => page.waitForFunction(
    ([where, value]) => document.querySelector(where)?.textContent === value, [selector(method), String(expected)]);
  await counted('claude-code', 2); // 8 UTF-16 units / 4
  assert.equal(await count('codex'), 6); // 24 UTF-8 bytes / 4
  assert.ok(await count('calibrated') > await count('claude-code'), 'calibrated does not under-count CJK');
  await page.fill('#tokens-input', '{"a": 1}');
  await page.fill('#tokens-ext', 'json');
  await counted('claude-code', 4); // 8 units / 2 for json
  assert.deepEqual(problems, []);
  await page.close();
});

test('the diff panel shows each profile its snippet and reason', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'diff' });
  await page.click('#diff-example-q33');
  const snippet = async (/** @type {string} */ profile) => await page.textContent(`#diff-results [data-profile="${profile}"] pre`);
  // Q33: claude-code numbers the changed line from the old file; recommended from the new one.
  assert.match(await snippet('claude-code') ?? '', /^50\tLINE50 \(changed\)$/m);
  assert.match(await snippet('recommended') ?? '', /^55\tLINE50 \(changed\)$/m);
  assert.match(await page.textContent('#diff-results [data-profile="codex"]') ?? '', /keeps no file state/);
  await page.fill('#diff-before', 'a\nb\n');
  await page.fill('#diff-after', 'a\nb\n');
  // The panel redoes the snippets once typing pauses.
  await page.waitForFunction(() =>
    /nothing changed/.test(document.querySelector('#diff-results [data-profile="claude-code"] .reason')?.textContent ?? ''));
  assert.deepEqual(problems, []);
  await page.close();
});

test('after a trap, a fresh instance of the module works (the recovery web/engine.js uses)', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  const outcome = await page.evaluate(async () => {
    const trapped = await import('/pkg/context_assembly.js?instance=trapped');
    // The allocator aborts on an impossible request: the one way left to trap the module.
    const exports = await trapped.default();
    let trap = '';
    try {
      exports.__wbindgen_malloc(0xfffffff0, 0x10000);
    } catch (error) {
      trap = error instanceof WebAssembly.RuntimeError ? 'RuntimeError' : String(error);
    }
    const fresh = await import('/pkg/context_assembly.js?instance=fresh');
    await fresh.default();
    return { trap, tokens: fresh.estimateTokens('hello', { method: 'codex' }) };
  });
  assert.deepEqual(outcome, { trap: 'RuntimeError', tokens: 2 });
  assert.deepEqual(problems, []);
  await page.close();
});
