// `@` completion in the files panel's composer (spec codex.md §6.1–6.2), driven from the
// keyboard and the mouse as a person would.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const PROMPT = '#files-prompt';
const OPTIONS = '#files-completion [role="option"]';

/**
 * Empties the composer and types into it key by key, as a person would.
 * @param {import('playwright-core').Page} page
 * @param {string} text
 */
async function typeInPrompt(page, text) {
  await page.fill(PROMPT, '');
  await page.focus(PROMPT);
  await page.keyboard.type(text);
}

/**
 * What the popup shows: every option's path and kind, the marked characters of each, the
 * selected option, and the footer.
 * @param {import('playwright-core').Page} page
 */
async function popup(page) {
  const visible = await page.isVisible('#files-completion-popup');
  const options = await page.$$eval(OPTIONS, (nodes) => nodes.map((n) => ({
    path: n.getAttribute('data-path') ?? '',
    kind: n.getAttribute('data-kind') ?? '',
    selected: n.getAttribute('aria-selected') === 'true',
    marked: [...n.querySelectorAll('mark')].map((m) => m.textContent).join(''),
    id: n.id,
  })));
  const status = await page.textContent('#files-completion-status') ?? '';
  return { visible, options, status };
}

/**
 * The search the popup should have run, computed in the page on a fresh session holding the
 * paths the tree shows (search only looks at paths).
 * @param {import('playwright-core').Page} page
 * @param {string} query
 */
function searchInPage(page, query) {
  return page.evaluate(async (q) => {
    const engine = await import('/pkg/context_assembly.js');
    const paths = [...document.querySelectorAll('#files-tree button[data-path]')]
      .map((b) => b.getAttribute('data-path') ?? '');
    const profile = /** @type {import('../../pkg/context_assembly.js').ProfileName} */ (
      /** @type {HTMLSelectElement} */ (document.getElementById('files-profile')).value);
    const session = new engine.Session({ profile, cwd: '/project', home: '/home/user' });
    try {
      for (const path of paths) session.writeFile(path, 'x', 1000);
      return session.searchFiles(q, { limit: 8 });
    } finally {
      session.free();
    }
  }, query);
}

test('typing @ and letters lists matching paths with the matched characters marked', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'files' });
  assert.equal(await page.getAttribute(PROMPT, 'aria-autocomplete'), 'list');
  assert.equal(await page.getAttribute(PROMPT, 'aria-controls'), 'files-completion');
  // A textarea is a textbox, which takes no aria-expanded (axe: aria-allowed-attr); the open
  // popup is told by aria-activedescendant instead.
  assert.equal(await page.getAttribute(PROMPT, 'aria-expanded'), null);
  assert.equal(await page.getAttribute('#files-completion', 'role'), 'listbox');
  assert.match(await page.textContent('#files-prompt-hint') ?? '', /@path/);

  await typeInPrompt(page, 'Look at @md');
  const shown = await popup(page);
  assert.ok(shown.visible, 'the popup is open');
  assert.ok(shown.options.length >= 2 && shown.options.length <= 8, JSON.stringify(shown));
  assert.deepEqual(shown.options.map((o) => o.path).sort(), ['README.md', 'src/CLAUDE.md']);
  assert.equal(shown.options[0]?.marked.toLowerCase(), 'md');
  assert.ok(shown.options[0]?.selected, 'the first match is selected');
  assert.equal(await page.getAttribute(PROMPT, 'aria-activedescendant'), shown.options[0]?.id);
  const expected = await searchInPage(page, 'md');
  assert.deepEqual(shown.options.map((o) => o.path), expected.matches.map((m) => m.path));
  assert.equal(shown.status, `${expected.matches.length} of ${expected.totalMatchCount} matches`);

  // Fuzzy, not a substring: the marks spell the query in order.
  await typeInPrompt(page, '@sapts');
  const fuzzy = await popup(page);
  assert.equal(fuzzy.options[0]?.path, 'src/app.ts');
  assert.equal(fuzzy.options[0]?.marked.toLowerCase(), 'sapts');
  // Directories are offered too, with a badge.
  await typeInPrompt(page, '@src');
  const dirs = await popup(page);
  const dir = dirs.options.find((o) => o.path === 'src');
  assert.equal(dir?.kind, 'directory');
  assert.ok(await page.$('#files-completion [data-path="src"] .completion-kind'), 'a directory badge');
  assert.deepEqual(problems, []);
  await page.close();
});

test('ArrowDown then Enter inserts the second match and does not submit; Escape closes', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'files' });
  const turnsBefore = await page.$$eval('#files-turns .turn', (n) => n.length);
  await typeInPrompt(page, 'Look at @md please');
  // The caret is after "please": no token, no popup.
  assert.equal((await popup(page)).visible, false);
  await page.keyboard.press('End');
  for (let i = 0; i < ' please'.length; i += 1) await page.keyboard.press('ArrowLeft');
  const shown = await popup(page);
  assert.ok(shown.visible && shown.options.length >= 2, JSON.stringify(shown));
  const second = shown.options[1]?.path ?? '';
  await page.keyboard.press('ArrowDown');
  assert.ok((await popup(page)).options[1]?.selected, 'ArrowDown selects the second match');
  assert.equal(await page.getAttribute(PROMPT, 'aria-activedescendant'), shown.options[1]?.id);
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('ArrowUp');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue(PROMPT), `Look at @${second}  please`);
  const caret = await page.$eval(PROMPT, (t) => /** @type {HTMLTextAreaElement} */ (t).selectionEnd);
  assert.equal(caret, `Look at @${second} `.length, 'the caret is after the inserted space');
  assert.equal((await popup(page)).visible, false);
  assert.equal(await page.$$eval('#files-turns .turn', (n) => n.length), turnsBefore, 'no turn was submitted');

  // Escape hides the popup, and it stays hidden until the token changes.
  await typeInPrompt(page, '@app');
  assert.ok((await popup(page)).visible);
  await page.keyboard.press('Escape');
  assert.equal((await popup(page)).visible, false);
  assert.equal(await page.getAttribute(PROMPT, 'aria-activedescendant'), null);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  assert.equal((await popup(page)).visible, false, 'the dismissed token does not reopen');
  await page.keyboard.type('.t');
  assert.ok((await popup(page)).visible, 'a changed token reopens it');
  await page.keyboard.press('Escape');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue(PROMPT), '@app.t\n', 'Enter types a newline while the popup is closed');
  // Leaving the token forgets the dismissal (as Codex does): back on it, the popup opens.
  await page.keyboard.press('Backspace');
  assert.ok((await popup(page)).visible, 'back on the token, the popup opens');

  // Clicking an option accepts it.
  await page.click(`${OPTIONS}[data-path="src/app.ts"]`);
  assert.equal(await page.inputValue(PROMPT), '@src/app.ts ');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a lone @ shows the hint and searches nothing; no match says so', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'files' });
  await typeInPrompt(page, 'see @');
  const lone = await popup(page);
  assert.ok(lone.visible);
  assert.equal(lone.options.length, 0);
  assert.match(lone.status, /Type a few letters/);
  assert.equal(await page.getAttribute(PROMPT, 'aria-activedescendant'), null);
  await page.keyboard.type('zzqx');
  const none = await popup(page);
  assert.equal(none.options.length, 0);
  assert.equal(none.status, 'no match');
  // A space ends the token: queries never hold spaces.
  await page.keyboard.type(' ');
  assert.equal((await popup(page)).visible, false);
  assert.deepEqual(problems, []);
  await page.close();
});

test('paths with spaces are quoted, marks count characters, and the mention attaches the file', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'files' });
  // An emoji is two UTF-16 units but one character: the marks must still land on "log".
  await page.fill('#files-target', 'notes/😀 log.md');
  await page.click('#files-create');
  await typeInPrompt(page, '@log');
  const shown = await popup(page);
  assert.equal(shown.options[0]?.path, 'notes/😀 log.md');
  assert.equal(shown.options[0]?.marked, 'log');
  await page.keyboard.press('Tab');
  assert.equal(await page.inputValue(PROMPT), '@"notes/😀 log.md" ');

  await typeInPrompt(page, 'Explain @app');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue(PROMPT), 'Explain @src/app.ts ');
  await page.click('#files-submit');
  const attached = await page.$$eval('#files-turns .turn:first-child table.attachments tbody tr td:nth-child(2)',
    (cells) => cells.map((c) => c.textContent));
  assert.ok(attached.includes('/project/src/app.ts'), `the mention attached the file: ${attached}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('under codex the bare path is inserted, as Codex does', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'files' });
  await page.selectOption('#files-profile', 'codex');
  assert.match(await page.textContent('#files-prompt-hint') ?? '', /bare path/);
  await typeInPrompt(page, 'Explain @app');
  await page.keyboard.press('Enter');
  assert.equal(await page.inputValue(PROMPT), 'Explain src/app.ts ');
  assert.deepEqual(problems, []);
  await page.close();
});
