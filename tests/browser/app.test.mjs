// The app shell: the view in the address (a link restores scenario, step, profile and tab),
// Share, the scenario as a file (open, download, drop), the autosave, the engine call, the
// theme, and where the focus goes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, showTab, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
});
after(async () => { await browser?.close(); await server?.close(); });

/**
 * What the page shows: the scenario picked, its text, the profile, the step and the tab.
 * @param {import('playwright-core').Page} page
 */
function viewOf(page) {
  return page.evaluate(() => ({
    pick: /** @type {HTMLSelectElement} */ (document.querySelector('#scenario-pick')).value,
    text: /** @type {HTMLTextAreaElement} */ (document.querySelector('#scenario-json')).value,
    profile: /** @type {HTMLSelectElement} */ (document.querySelector('#scenario-profile')).value,
    step: document.querySelector('#scenario-steps [aria-selected="true"]')?.getAttribute('data-index'),
    position: document.querySelector('#scenario-position')?.textContent,
    tab: document.querySelector('[role="tab"][aria-selected="true"]')?.id,
  }));
}

/**
 * Waits until the address holds what the page shows (it is written after every change).
 * @param {import('playwright-core').Page} page
 * @param {string} part a piece of the fragment to wait for
 */
async function linkWith(page, part) {
  await page.waitForFunction((wanted) => location.hash.includes(wanted), part);
  return page.evaluate(() => location.href);
}

/**
 * Opens a link in a fresh page of the same browser.
 * @param {string} href
 */
async function openLink(href) {
  return openPlayground(browser.context, server.url, { fragment: new URL(href).hash });
}

test('the address round-trips a built-in scenario, its step, the profile and the tab', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  await page.selectOption('#scenario-pick', 'plan-mode.json');
  await page.waitForSelector('#scenario-panel[data-loaded="plan-mode.json"]');
  await page.selectOption('#scenario-profile', 'codex');
  await page.click('#scenario-step-3');
  await showTab(page, 'compaction');
  const href = await linkWith(page, 'tab=compaction');
  assert.match(href, /#tab=compaction&step=4&profile=codex&s=plan-mode$/, 'a built-in scenario travels as its id');
  const before = await viewOf(page);
  const fresh = await openLink(href);
  assert.deepEqual(await viewOf(fresh.page), before);
  assert.equal(before.position?.startsWith('step 4 of '), true);
  assert.deepEqual([...problems, ...fresh.problems], []);
  await fresh.page.close();
  await page.close();
});

test('an edited scenario travels deflated in the address and comes back whole', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'scenario' });
  const text = JSON.stringify({ profile: 'claude-code', steps: [{ kind: 'user', prompt: 'first' }, { kind: 'user', prompt: 'second ✓ café' }] }, null, 2);
  await page.fill('#scenario-json', text);
  await page.click('#scenario-run');
  await page.click('#scenario-step-1');
  const href = await linkWith(page, 'z=');
  assert.doesNotMatch(href, /[+/=]\w*$/, 'base64url, unpadded');
  const fresh = await openLink(href);
  const view = await viewOf(fresh.page);
  assert.equal(view.text, text);
  assert.equal(view.step, '1');
  assert.equal(view.tab, 'tab-scenario');
  // A link whose scenario cannot be unpacked says so and shows a teaching scenario.
  const broken = await openPlayground(browser.context, server.url, { fragment: '#z=not-deflate' });
  assert.match(await broken.page.textContent('#scenario-error') ?? '', /could not be unpacked/);
  assert.deepEqual([...problems, ...fresh.problems, ...broken.problems], []);
  for (const one of [broken.page, fresh.page, page]) await one.close();
});

test('Share copies the link and says so', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  await page.click('#scenario-step-2');
  await page.click('#share-link');
  await page.waitForFunction(() => /Link copied/.test(document.querySelector('#share-status')?.textContent ?? ''));
  const copied = await page.evaluate(() => navigator.clipboard.readText());
  assert.equal(copied, await page.evaluate(() => location.href));
  assert.match(copied, /step=3&s=external-edit$/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('your own scenario is kept across a reload until you discard it', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'scenario' });
  assert.equal(await page.isHidden('#autosave-note'), true, 'a built-in scenario is not kept');
  const text = '{ "steps": [ { "kind": "user", "prompt": "kept" } ] }';
  await page.fill('#scenario-json', text);
  assert.equal(await page.isVisible('#autosave-note'), true);
  await page.goto(`${server.url}/web/`);
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.inputValue('#scenario-json'), text);
  assert.equal(await page.locator('#scenario-steps li').count(), 1, 'and replayed');
  await page.click('#autosave-discard');
  await page.waitForSelector('#scenario-panel[data-loaded="external-edit.json"]');
  assert.equal(await page.isHidden('#autosave-note'), true);
  assert.equal(await page.evaluate(() => localStorage.getItem('context-assembly.scenario')), null);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a scenario file: opened, downloaded, and dropped on the page (a dropped log is still imported)', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'scenario' });
  const text = '{ "steps": [ { "kind": "user", "prompt": "from a file" }, { "kind": "user", "prompt": "again" } ] }';
  await page.setInputFiles('#scenario-upload', { name: 'mine.json', mimeType: 'application/json', buffer: Buffer.from(text) });
  await page.waitForFunction(() => document.querySelectorAll('#scenario-steps li').length === 2);
  assert.equal(await page.inputValue('#scenario-json'), text);

  const [download] = await Promise.all([page.waitForEvent('download'), page.click('#scenario-download')]);
  assert.equal(download.suggestedFilename(), 'scenario.json');
  const path = await download.path();
  const { readFileSync } = await import('node:fs');
  assert.equal(readFileSync(path, 'utf8'), text);

  /** Drops a file named `name` holding `body` on the page, as a drag from the desktop does. */
  const drop = (/** @type {string} */ name, /** @type {string} */ body) => page.evaluate(([fileName, content]) => {
    const data = new DataTransfer();
    data.items.add(new File([content ?? ''], fileName ?? ''));
    document.body.dispatchEvent(new DragEvent('drop', { dataTransfer: data, bubbles: true, cancelable: true }));
  }, [name, body]);
  const dropped = '{ "steps": [ { "kind": "user", "prompt": "dropped" } ] }';
  await drop('dropped.json', dropped);
  await page.waitForFunction((expected) => /** @type {HTMLTextAreaElement} */ (document.querySelector('#scenario-json')).value === expected, dropped);
  assert.match(await page.textContent('#import-status') ?? '', /dropped\.json: a scenario/);
  await drop('notes.jsonl', 'not a log\n');
  await page.waitForSelector('#import-error:not([hidden])');
  assert.match(await page.textContent('#import-error') ?? '', /notes\.jsonl could not be imported/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the engine call reproduces the step on screen', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  await page.selectOption('#scenario-profile', 'recommended');
  const last = await page.locator('#scenario-steps li').count() - 1;
  await page.click(`#scenario-step-${last}`);
  await showTab(page, 'scenario');
  await page.click('#scenario-copy-call');
  await page.waitForFunction(() => /Copied the engine call/.test(document.querySelector('#scenario-file-status')?.textContent ?? ''));
  const code = await page.evaluate(() => navigator.clipboard.readText());
  assert.match(code, /^import init, \{ runScenario \} from 'context-assembly';/);
  assert.match(code, /"profile": "recommended"/);
  // Run as a module against the page's own copy of the package.
  const request = await page.evaluate(async (source) => {
    const module = source.replace("'context-assembly'", `'${location.origin}/pkg/context_assembly.js'`)
      .replace('console.log(', 'globalThis.engineCallResult = (');
    const url = URL.createObjectURL(new Blob([module], { type: 'text/javascript' }));
    await import(url);
    return /** @type {any} */ (globalThis).engineCallResult;
  }, code);
  assert.equal(String(request.tokens.total), await page.getAttribute('#scenario-meter', 'data-total'));
  assert.deepEqual(problems, []);
  await page.close();
});

test('the theme: dark on request, remembered, and back to the system', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  const scheme = () => page.evaluate(() => getComputedStyle(document.documentElement).colorScheme);
  await page.emulateMedia({ colorScheme: 'light' });
  const light = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  await page.selectOption('#theme-pick', 'dark');
  assert.equal(await scheme(), 'dark');
  const dark = await page.evaluate(() => getComputedStyle(document.body).backgroundColor);
  assert.notEqual(dark, light);
  await page.reload();
  await page.waitForSelector('body[data-ready="true"]');
  assert.equal(await page.inputValue('#theme-pick'), 'dark');
  assert.equal(await scheme(), 'dark');
  await page.selectOption('#theme-pick', 'system');
  assert.equal(await page.evaluate(() => document.documentElement.dataset.theme), undefined);
  // The system's dark follows prefers-color-scheme.
  await page.emulateMedia({ colorScheme: 'dark' });
  assert.equal(await page.evaluate(() => getComputedStyle(document.body).backgroundColor), dark);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the focus: a skip link first, and never lost to the page when Forward disables', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  const focused = () => page.evaluate(() => document.activeElement?.id || document.activeElement?.className || document.activeElement?.tagName);
  await page.keyboard.press('Tab');
  assert.equal(await focused(), 'skip-link');
  await page.keyboard.press('Enter');
  assert.equal(await focused(), 'tab-panels');
  assert.doesNotMatch(await page.evaluate(() => location.hash), /tab-panels/, 'the address keeps the view');
  const count = await page.locator('#scenario-steps li').count();
  await page.focus('#scenario-forward');
  for (let step = 1; step < count; step += 1) await page.keyboard.press('Enter');
  assert.equal(await page.isDisabled('#scenario-forward'), true);
  assert.equal(await focused(), 'scenario-back', 'the focus moved to Back');
  await page.keyboard.press('Enter');
  assert.equal(await page.textContent('#scenario-position'), `step ${count - 1} of ${count}`);
  assert.deepEqual(problems, []);
  await page.close();
});
