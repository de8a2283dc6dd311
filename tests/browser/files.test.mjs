// The "Files and turns" panel, driven as a person would: read a file, edit it outside the
// agent, and watch the next turn; a denied mention; a transient error.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const APP = '/project/src/app.ts';
const EDITED = "  const greeting = 'Good morning from ' + config.name;";

/**
 * The newest turn's attachments and decisions, as rows of cell texts.
 * @param {import('playwright-core').Page} page
 */
async function newestTurn(page) {
  const rows = (/** @type {string} */ table) => page.$$eval(`#files-turns .turn:first-child table.${table} tbody tr`,
    (trs) => trs.map((tr) => [...tr.querySelectorAll('td')].map((td) => td.textContent ?? '')));
  return { attachments: await rows('attachments'), decisions: await rows('decisions') };
}

/**
 * Edits the open file in the editor as a person would, then saves it outside the agent.
 * @param {import('playwright-core').Page} page
 * @param {string} from
 * @param {string} to
 */
async function editAndSave(page, from, to) {
  const text = await page.inputValue('#files-editor');
  assert.ok(text.includes(from), `the editor shows ${from}`);
  await page.fill('#files-editor', text.replace(from, to));
  await page.click('#files-save');
}

test('a file edited outside the agent comes back as a note with its snippet on the next turn', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'files' });
  assert.ok(await page.isVisible('#files-panel .explain'));
  assert.match(await page.textContent('#files-panel .hint') ?? '', /Try this/);
  assert.equal(await page.inputValue('#files-profile'), 'recommended');
  assert.equal(await page.textContent('#files-clock'), '1000');
  // The seeded tree: directories first.
  const names = await page.$$eval('#files-tree button', (buttons) => buttons.map((b) => b.dataset.path));
  for (const path of [APP, '/project/src/CLAUDE.md', '/project/README.md', '/project/.env']) {
    assert.ok(names.includes(path), `the tree lists ${path}`);
  }
  assert.ok(names.indexOf('/project/src/app.ts') < names.indexOf('/project/README.md'), 'directories come first');

  await page.click(`#files-tree button[data-path="${APP}"]`);
  await page.click('#files-read');
  assert.match(await page.textContent('#files-tool-result') ?? '', /1\timport \{ readFileSync \}/);
  const state = await page.$$eval('#files-state tbody tr', (trs) => trs.map((tr) => tr.textContent ?? ''));
  assert.ok(state.some((row) => row.includes(APP)), `the read-file state holds ${APP}: ${state}`);

  await editAndSave(page, "  const greeting = 'Hello from ' + config.name;", EDITED);
  await page.fill('#files-prompt', 'Please carry on.');
  await page.click('#files-submit');
  assert.equal(await page.textContent('#files-clock'), '4000'); // read, save, submit
  const turn = await newestTurn(page);
  const note = turn.attachments.find((cells) => cells[0] === 'edited_text_file');
  assert.ok(note, `an edited_text_file attachment: ${JSON.stringify(turn)}`);
  assert.equal(note[1], APP);
  assert.match(note[3] ?? '', new RegExp(`^\\d+\\t${EDITED.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}$`, 'm'));
  assert.deepEqual(problems, []);
  await page.close();
});

test('mentioning a denied file gives a decision that says it was denied', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'files' });
  await page.fill('#files-prompt', 'What is in @.env?');
  await page.click('#files-submit');
  const turn = await newestTurn(page);
  assert.ok(!turn.attachments.some((cells) => cells[1] === '/project/.env'), 'no attachment for .env');
  assert.ok(turn.decisions.some((cells) => /deni/i.test(cells[1] ?? '')), `a denied decision: ${JSON.stringify(turn.decisions)}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a transient error keeps the change for later, and the tree marks the file', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'files' });
  await page.click(`#files-tree button[data-path="${APP}"]`);
  await page.click('#files-read');
  await editAndSave(page, "  const greeting = 'Hello from ' + config.name;", EDITED);
  await page.click('#files-eacces');
  assert.equal(await page.getAttribute('#files-eacces', 'aria-pressed'), 'true');
  assert.ok(await page.$(`#files-tree button.transient[data-path="${APP}"]`), 'the tree marks the file');
  await page.click('#files-tool-round');
  const blocked = await newestTurn(page);
  assert.ok(!blocked.attachments.some((cells) => cells[0] === 'edited_text_file'),
    `no note while the file cannot be read: ${JSON.stringify(blocked)}`);
  assert.ok(blocked.decisions.some(([subject, , , detail]) => subject === APP && /EACCES/.test(detail ?? '')),
    `a decision about app.ts naming EACCES: ${JSON.stringify(blocked.decisions)}`);
  // Cleared: the entry was kept (Q39), so the change is reported now.
  await page.click('#files-eacces');
  await page.click('#files-tool-round');
  const after = await newestTurn(page);
  assert.ok(after.attachments.some((cells) => cells[0] === 'edited_text_file' && cells[1] === APP),
    `the note once the file can be read: ${JSON.stringify(after)}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('create, rename, delete and the profile picker', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'files' });
  await page.fill('#files-target', 'docs/notes.md');
  await page.click('#files-create');
  assert.equal(await page.textContent('#files-path'), '/project/docs/notes.md');
  await page.fill('#files-editor', '# notes\n');
  await page.click('#files-save');
  await page.fill('#files-target', 'docs/renamed.md');
  await page.click('#files-rename');
  assert.ok(await page.$('#files-tree button[data-path="/project/docs/renamed.md"]'));
  assert.equal(await page.$('#files-tree button[data-path="/project/docs/notes.md"]'), null);
  assert.equal(await page.inputValue('#files-editor'), '# notes\n');
  await page.click('#files-delete');
  assert.equal(await page.$('#files-tree button[data-path="/project/docs/renamed.md"]'), null);
  // An engine error is shown in the panel, not thrown at the console.
  await page.fill('#files-target', '../../../etc/passwd');
  await page.click('#files-create');
  assert.match(await page.textContent('#files-message') ?? '', /.+/);
  // A new profile: a fresh seeded session, the clock reset.
  await page.selectOption('#files-profile', 'claude-code');
  assert.equal(await page.textContent('#files-clock'), '1000');
  assert.match(await page.textContent('#files-state') ?? '', /nothing has been read/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('at 1280×800, after a Read, an outside edit takes three actions on one screen and the note comes into view', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'files', viewport: { width: 1280, height: 800 } });
  /** @param {string} selector */
  const onScreen = (selector) => page.$eval(selector, (element) => {
    const box = element.getBoundingClientRect();
    return box.top >= 0 && box.bottom <= innerHeight && box.left >= 0 && box.right <= innerWidth;
  });
  for (const selector of ['#files-read', '#files-editor', '#files-save', '#files-submit']) {
    assert.ok(await onScreen(selector), `${selector} is on screen without scrolling`);
  }
  await page.click('#files-read');
  const panelsScrolled = () => page.$eval('#tab-panels', (panels) => panels.scrollTop);
  assert.equal(await panelsScrolled(), 0);
  await page.fill('#files-editor', `${await page.inputValue('#files-editor')}\n// changed outside the agent\n`);
  await page.click('#files-save');
  await page.click('#files-submit');
  const turn = await newestTurn(page);
  assert.ok(turn.attachments.some((cells) => cells[0] === 'edited_text_file'), JSON.stringify(turn));
  assert.ok(await onScreen('#files-turns .turn:first-child'), 'the new turn is brought into view');
  assert.deepEqual(problems, []);
});
