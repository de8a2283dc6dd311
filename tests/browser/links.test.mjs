// A link opened over the reader's own scenario: the link's scenario is shown beside it, the one
// kept in this browser is neither overwritten nor deleted, and the reader chooses to keep theirs,
// replace it, or compare the two side by side. And a link's scenario is inflated only up to a
// stated size: a deflate bomb stops there and says so.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { resolve } from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { launchBrowser, openPlayground, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const KEY = 'context-assembly.scenario';
const AXE = resolve(import.meta.dirname, '../../node_modules/axe-core/axe.min.js');

/** The reader's own scenario: edited by hand, so the browser keeps it. */
const MINE = JSON.stringify({
  profile: 'claude-code',
  files: { 'notes.md': '# notes\nmine, edited by hand\n' },
  steps: [{ kind: 'user', prompt: 'my own: read @notes.md' }, { kind: 'assistant', blocks: [{ type: 'text', text: 'read it' }] }],
}, null, 2);

/** The scenario a `z=` link carries. */
const THEIRS = JSON.stringify({
  profile: 'claude-code',
  files: { 'notes.md': '# notes\ntheirs, from a link\n', 'src/a.ts': 'export const a = 1;\n' },
  steps: [{ kind: 'user', prompt: 'from the link: read @notes.md and @src/a.ts' }],
}, null, 2);

/**
 * A fragment carrying `text` as a `z=` link does: deflated (raw) and in base64url.
 * @param {string | Buffer} text
 */
const zLink = (text) => `#z=${deflateRawSync(Buffer.from(text)).toString('base64url')}`;

/**
 * Opens the playground with local storage emptied and keeps an edited scenario in it, as a
 * reader who typed their own does.
 */
async function withMyScenario() {
  const opened = await openPlayground(browser.context, server.url, { tab: 'scenario' });
  await opened.page.fill('#scenario-json', MINE);
  await opened.page.click('#scenario-run');
  await opened.page.waitForFunction(([key, text]) => localStorage.getItem(key ?? '') === text, [KEY, MINE]);
  return opened;
}

/**
 * Opens `fragment` in a new page of the same browser, as a link clicked elsewhere is: the
 * storage is the one the earlier page wrote.
 * @param {string} fragment
 */
async function openLink(fragment) {
  const page = await browser.context.newPage();
  /** @type {string[]} */
  const problems = [];
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await page.goto(`${server.url}/web/${fragment}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
  return { page, problems };
}

/** @param {import('playwright-core').Page} page */
const kept = (page) => page.evaluate((key) => localStorage.getItem(key), KEY);

/**
 * The choices the page offers beside the link's scenario, by what is visible.
 * @param {import('playwright-core').Page} page
 */
async function offered(page) {
  const buttons = ['#autosave-keep', '#autosave-replace', '#autosave-compare', '#autosave-discard'];
  const visible = await Promise.all(buttons.map((button) => page.isVisible(button)));
  return buttons.filter((_, i) => visible[i]);
}

test('an s= link over an edited scenario: the kept one survives; keep, replace and compare are offered', async () => {
  const mine = await withMyScenario();
  const link = await openLink('#s=plan-mode');
  const { page } = link;
  await page.waitForSelector('#scenario-panel[data-loaded="plan-mode.json"]');
  assert.equal(await kept(page), MINE, 'the link deleted nothing');
  assert.deepEqual(await offered(page), ['#autosave-keep', '#autosave-replace', '#autosave-compare']);
  assert.match(await page.textContent('#autosave-text') ?? '', /link's scenario.*yours is kept in this browser/i);
  // Stepping through the link's scenario and reloading it leave the kept one alone.
  await page.click('#scenario-forward');
  await page.reload();
  await page.waitForSelector('#scenario-panel[data-loaded="plan-mode.json"]');
  assert.equal(await kept(page), MINE);

  // Keep mine: my scenario is back in the player, as it was kept, and the link's goes.
  await page.click('#autosave-keep');
  await page.waitForFunction((text) => /** @type {HTMLTextAreaElement} */ (document.querySelector('#scenario-json')).value === text, MINE);
  assert.equal(await page.locator('#scenario-steps li').count(), 2, 'and replayed');
  assert.deepEqual(await offered(page), ['#autosave-discard']);
  assert.equal(await kept(page), MINE);

  // Replace mine: a built-in scenario is not kept, so replacing mine with it removes mine, as
  // the button says.
  const again = await openLink('#s=plan-mode');
  await again.page.waitForSelector('#scenario-panel[data-loaded="plan-mode.json"]');
  assert.equal(await kept(again.page), MINE);
  await again.page.click('#autosave-replace');
  await again.page.waitForSelector('#autosave-note', { state: 'hidden' });
  assert.equal(await kept(again.page), null);
  assert.equal(await again.page.inputValue('#scenario-pick'), 'plan-mode.json');
  assert.deepEqual([...mine.problems, ...link.problems, ...again.problems], []);
  for (const one of [again.page, page, mine.page]) await one.close();
});

test('a z= link over an edited scenario: the kept one is not overwritten, even by edits; compare and replace work', async () => {
  const mine = await withMyScenario();
  const link = await openLink(zLink(THEIRS));
  const { page } = link;
  await page.waitForFunction((text) => /** @type {HTMLTextAreaElement} */ (document.querySelector('#scenario-json')).value === text, THEIRS);
  assert.equal(await kept(page), MINE, 'the link overwrote nothing');
  assert.deepEqual(await offered(page), ['#autosave-keep', '#autosave-replace', '#autosave-compare']);
  // Editing the link's scenario is not a choice to replace mine.
  await page.click('#tab-scenario');
  await page.fill('#scenario-json', THEIRS.replace('from the link', 'from the link, edited'));
  await page.click('#scenario-run');
  assert.equal(await kept(page), MINE, 'an edit of the link\'s scenario overwrote nothing');
  assert.match(await page.textContent('#autosave-text') ?? '', /not kept/);
  await page.fill('#scenario-json', THEIRS);
  await page.click('#scenario-run');

  // Compare: mine on the left, the link's on the right, at the player's step, each under its
  // own profile; the rows are the engine's requestDiff of the two requests.
  await page.click('#autosave-compare');
  await page.waitForSelector('body[data-tab="compare"]');
  await page.waitForSelector('#compare-sbs-results:not([hidden])');
  await page.waitForSelector('#compare-sbs-run:not([disabled])');
  assert.equal(await page.inputValue('#compare-sbs-left-scenario'), 'kept');
  const headers = await page.$$eval('#compare-sbs-table thead th', (cells) => cells.map((cell) => cell.textContent ?? ''));
  assert.match(headers[0] ?? '', /^yours, kept/);
  assert.match(headers[1] ?? '', /^the player's/);
  const expected = await page.evaluate(async ([left, right]) => {
    const engine = await import('/pkg/context_assembly.js');
    const request = (/** @type {string} */ text) => engine.runScenario(text).steps[0]?.turn.request;
    const [a, b] = [request(left ?? ''), request(right ?? '')];
    if (a == null || b == null) throw new Error('no request at step 1');
    return engine.requestDiff(a, b, {});
  }, [MINE, THEIRS]);
  assert.ok(expected.changed + expected.added > 0, 'the two scenarios send different requests');
  assert.deepEqual(await page.$$eval('#compare-sbs-table tbody tr.sbs-row', (rows) => rows.map((row) => /** @type {HTMLElement} */ (row).dataset.change)),
    expected.blocks.map((block) => block.change));
  assert.equal(await kept(page), MINE, 'comparing changed nothing kept');
  await page.addScriptTag({ path: AXE });
  for (const scheme of /** @type {const} */ (['light', 'dark'])) {
    await page.emulateMedia({ colorScheme: scheme });
    const found = await page.evaluate(async () => {
      const results = await /** @type {any} */ (globalThis).axe.run({ include: [['#autosave-note'], ['#compare-sbs']] }, { resultTypes: ['violations'] });
      return results.violations.map((/** @type {any} */ v) => `${v.id}: ${v.nodes.map((/** @type {any} */ node) => node.target.join(' ')).join(', ')}`);
    });
    assert.deepEqual(found, [], `axe finds nothing in the choices or the side by side (${scheme})`);
  }

  // Replace mine: the link's scenario is now the one kept, and edits of it are kept too.
  await page.click('#autosave-replace');
  await page.waitForFunction(([key, text]) => localStorage.getItem(key ?? '') === text, [KEY, THEIRS]);
  assert.deepEqual(await offered(page), ['#autosave-discard']);
  assert.deepEqual([...mine.problems, ...link.problems], []);
  await page.close();
  await mine.page.close();
});

test('a scenario picked, opened or imported over the kept one does not replace it without being asked', async () => {
  const { page, problems } = await withMyScenario();
  await page.selectOption('#scenario-pick', 'todo-reminder.json');
  await page.waitForSelector('#scenario-panel[data-loaded="todo-reminder.json"]');
  assert.equal(await kept(page), MINE, 'picking a built-in scenario deleted nothing');
  const opened = '{ "steps": [ { "kind": "user", "prompt": "from a file" } ] }';
  await page.setInputFiles('#scenario-upload', { name: 'other.json', mimeType: 'application/json', buffer: Buffer.from(opened) });
  await page.waitForFunction((text) => /** @type {HTMLTextAreaElement} */ (document.querySelector('#scenario-json')).value === text, opened);
  assert.equal(await kept(page), MINE, 'opening a file overwrote nothing');
  assert.deepEqual(await offered(page), ['#autosave-keep', '#autosave-replace', '#autosave-compare']);
  await page.click('#autosave-keep');
  await page.waitForFunction((text) => /** @type {HTMLTextAreaElement} */ (document.querySelector('#scenario-json')).value === text, MINE);
  // Back on mine, an edit is kept as before.
  const edited = MINE.replace('my own', 'my own, again');
  await page.fill('#scenario-json', edited);
  await page.waitForFunction(([key, text]) => localStorage.getItem(key ?? '') === text, [KEY, edited]);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a link whose scenario inflates past the cap stops at it, says so, and keeps the reader\'s own', async () => {
  const mine = await withMyScenario();
  // 64 MiB of spaces deflate to about 64 KB: a bomb that a link can carry.
  const bomb = Buffer.alloc(64 << 20, 0x20);
  const link = await openLink(zLink(bomb));
  const { page } = link;
  await page.waitForSelector('#scenario-error:not([hidden])');
  const message = await page.textContent('#scenario-error') ?? '';
  const reached = /stopped at ([\d,]+) bytes/.exec(message);
  assert.match(message, /more than a link may hold \(16 MiB, 16,777,216 bytes\)/);
  assert.ok(reached !== null, message);
  const bytes = Number(reached[1]?.replace(/,/g, ''));
  // Inflated a piece at a time: it stops within a couple of pieces' output (2 MiB) of the cap.
  assert.ok(bytes > 16 << 20 && bytes <= 18 << 20, `inflated to ${bytes} bytes of the bomb's ${bomb.length}`);
  assert.match(message, /Your own scenario is shown instead\./);
  assert.equal(await page.inputValue('#scenario-json'), MINE, 'the reader\'s own scenario is in the player');
  assert.equal(await kept(page), MINE);
  assert.deepEqual([...mine.problems, ...link.problems], []);
  await page.close();
  await mine.page.close();
});

test('Share writes no link for a scenario longer than a link may hold, and says so', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'scenario' });
  // Not JSON, so the replay is a quick error; the address is rewritten after it all the same.
  await page.$eval('#scenario-json', (area) => { /** @type {HTMLTextAreaElement} */ (area).value = 'x'.repeat((16 << 20) + 1); });
  await page.dispatchEvent('#scenario-json', 'input');
  await page.click('#scenario-run');
  await page.click('#share-link');
  await page.waitForFunction(() => document.querySelector('#share-status')?.textContent !== '');
  assert.equal(await page.textContent('#share-status'),
    'This scenario is longer than a link may hold (16,777,216 bytes): download it from the Scenario tab instead.');
  assert.doesNotMatch(await page.evaluate(() => location.hash), /z=/);
  assert.deepEqual(problems, []);
  await page.close();
});
