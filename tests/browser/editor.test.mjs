// The CodeMirror demo (web/editor/): the package's prompt editor over the lite module, with a
// Session in the Worker. A 2,000-character prompt with mentions is typed key by key; its
// highlights are the engine's spans, its meter the profile's count (and, once sent, the
// request's prompt block under every profile); `@` completes from the session and from
// 50,000 paths in the Worker, typed in order, and accepting writes what the grammar reads back.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const OPTION = '.cm-tooltip-autocomplete li';

/**
 * Opens the demo and records console errors and uncaught exceptions.
 * @param {string} [search]
 */
async function openDemo(search = '') {
  const page = await browser.context.newPage();
  /** @type {string[]} */
  const problems = [];
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  page.on('requestfailed', (request) => problems.push(`failed: ${request.url()}`));
  page.on('response', (response) => { if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`); });
  await page.goto(`${server.url}/web/editor/${search}`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 60000 });
  return { page, problems };
}

/**
 * A prompt of about 2,000 characters with mentions of every kind, on one line: a few repeated
 * (a profile that attaches a mention once reads only the first of each text) and a new module
 * in each sentence.
 */
function longPrompt() {
  const words = 'please look at the code and tell me what changes, with care for the tests';
  const mentions = ['@src/app.ts', '@"docs/notes on design.md"', '@agent-reviewer', '@README.md', '@src/😀/ünï/xyz.ts', '@src/api.ts#L1-2'];
  let text = '';
  for (let i = 0; text.length < 2000; i += 1) text += `${words} ${mentions[i % mentions.length]} and @src/modules/m${i}/index.ts `;
  return text.slice(0, 2000).trimEnd();
}

/**
 * What the editor shows marked: each mark's kind and text, joined across the pieces a mark is
 * drawn in.
 * @param {import('playwright-core').Page} page
 */
async function marks(page) {
  return page.$$eval('.cm-content .cm-mention', (nodes) => nodes.map((node) => `${node.getAttribute('data-mention')} ${node.textContent}`));
}

/**
 * What the engine reads in the editor's text under `profile`, as the marks should show it.
 * @param {import('playwright-core').Page} page @param {string} profile
 */
async function engineSpans(page, profile) {
  return page.evaluate(async (name) => {
    /** @type {any} */
    const lite = await import(/** @type {string} */ ('/pkg/lite/context_assembly_lite.js'));
    const text = /** @type {any} */ (globalThis).demo.view.state.doc.toString();
    const spans = lite.extractMentionSpans(text, { profile: name });
    const kinds = lite.mentionKinds();
    const read = [];
    for (let i = 0; i < spans.length; i += 3) read.push(`${kinds[spans[i + 2]]} ${text.slice(spans[i], spans[i + 1])}`);
    return { read, tokens: lite.estimateTokens(text, { profile: name }), text };
  }, profile);
}

/** @param {import('playwright-core').Page} page */
async function options(page) {
  await page.waitForSelector(OPTION, { timeout: 20000 });
  return page.$$eval(OPTION, (nodes) => nodes.map((node) => ({
    label: node.querySelector('.cm-completionLabel')?.textContent ?? '',
    matched: [...node.querySelectorAll('.cm-completionMatchedText')].map((m) => m.textContent).join(''),
  })));
}

/**
 * Accepts the selected completion. CodeMirror ignores Enter for `interactionDelay` (75 ms)
 * after a list opens or changes, so that a key meant for the text is not taken by a list that
 * just appeared: wait that long first, as a person would.
 * @param {import('playwright-core').Page} page
 */
async function accept(page) {
  await page.waitForTimeout(150);
  await page.keyboard.press('Enter');
}

test('a 2,000-character prompt typed key by key: highlights, meter, and the request under every profile', async () => {
  const { page, problems } = await openDemo('?profile=claude-code');
  const prompt = longPrompt();
  await page.click('.cm-content');
  // A space closes each `@` list before the next key, so typing never accepts a completion.
  await page.keyboard.type(prompt);
  await page.keyboard.press('Escape');
  const seen = await engineSpans(page, 'claude-code');
  assert.equal(seen.text, prompt, 'the editor holds what was typed');
  assert.ok(seen.read.length >= 18, `${seen.read.length} mentions`);
  assert.deepEqual(await marks(page), seen.read, 'every mention is marked as the engine reads it, once');
  assert.ok(seen.read.includes('agent @agent-reviewer') && seen.read.includes('file @src/😀/ünï/xyz.ts'));
  const meter = await page.textContent('.cm-tokenMeter');
  assert.equal(meter, `${seen.tokens.toLocaleString('en')} tokens (claude-code)`);

  // The meter against the request's prompt block, profile by profile.
  const profiles = await page.$$eval('#profile option', (nodes) => nodes.map((node) => /** @type {HTMLOptionElement} */ (node).value));
  assert.ok(profiles.includes('claude-code-2.1.88') && profiles.includes('codex-0.139.0'));
  for (const profile of profiles) {
    await page.selectOption('#profile', profile);
    await page.waitForFunction((name) => document.querySelector('.cm-tokenMeter')?.textContent?.endsWith(`(${name})`), profile);
    await page.evaluate((text) => {
      const { view } = /** @type {any} */ (globalThis).demo;
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text } });
    }, prompt);
    const expected = await engineSpans(page, profile);
    assert.deepEqual(await marks(page), expected.read, `${profile}: highlights`);
    const sent = await page.$$eval('#sent li', (nodes) => nodes.length);
    await page.click('#send');
    await page.waitForFunction((count) => document.querySelectorAll('#sent li').length > count, sent);
    const item = await page.$eval('#sent li', (node) => ({ meter: node.getAttribute('data-meter'), block: node.getAttribute('data-prompt-tokens') }));
    assert.equal(item.meter, String(expected.tokens), `${profile}: the meter`);
    assert.equal(item.block, String(expected.tokens), `${profile}: the request's prompt block`);
  }
  await page.close();
  assert.deepEqual(problems, []);
});

test('@ completes from the Worker: typed in order, recent first on a bare @, UTF-16 matches, insertions that read back', async () => {
  const { page, problems } = await openDemo('?profile=recommended');
  await page.click('.cm-content');
  await page.keyboard.type('see @src/app');
  const first = await options(page);
  assert.equal(first[0].label, 'src/app.ts');
  await accept(page);
  const text = () => page.evaluate(() => /** @type {any} */ (globalThis).demo.view.state.doc.toString());
  assert.equal(await text(), 'see @src/app.ts ');

  // The matched characters of a path with an emoji are the ones typed.
  await page.keyboard.type('@xyz');
  await page.waitForFunction(() => document.querySelector('.cm-tooltip-autocomplete .cm-completionLabel')?.textContent === 'src/😀/ünï/xyz.ts');
  assert.deepEqual((await options(page))[0], { label: 'src/😀/ünï/xyz.ts', matched: 'xyz' });
  await page.keyboard.press('Escape');
  await page.keyboard.type(' ');

  // A path with a quote and a space, accepted, is written so that the profile reads it back.
  await page.keyboard.type('@b".t');
  await page.waitForFunction(() => document.querySelector('.cm-tooltip-autocomplete .cm-completionLabel')?.textContent === 'a "b".ts');
  await accept(page);
  assert.equal(await text(), 'see @src/app.ts @xyz @a\\ "b".ts ');
  const read = await engineSpans(page, 'recommended');
  assert.deepEqual(read.read, ['file @src/app.ts', 'file @xyz', 'file @a\\ "b".ts']);

  // Sent, the mentioned files are recent: a bare `@` lists them first, then the shortest paths.
  await page.click('#send');
  await page.waitForSelector('#sent li');
  await page.click('.cm-content');
  await page.keyboard.type('@');
  const bare = await options(page);
  assert.deepEqual(bare.slice(0, 2).map((o) => o.label), ['a "b".ts', 'src/app.ts']);
  assert.equal(bare.length, 20);
  await page.keyboard.press('Escape');

  // 50,000 paths in the Worker: each keystroke's list answers what was typed last.
  await page.selectOption('#source', '50000');
  await page.keyboard.type(' @file4999');
  await page.waitForFunction(() => document.querySelector('.cm-tooltip-autocomplete .cm-completionLabel')?.textContent?.includes('file4999'), undefined, { timeout: 30000 });
  const many = await options(page);
  // Every row's matched characters are the last query's (an earlier keystroke's list would
  // mark fewer); fuzzy rows such as file40999 are matches too.
  assert.ok(many.length > 0 && many.every((o) => o.matched === 'file4999'), JSON.stringify(many));
  assert.equal(many[0].label, 'packages/pkg99/src/hooks/file4999.ts');
  await page.close();
  assert.deepEqual(problems, []);
});
