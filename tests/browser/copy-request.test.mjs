// "Copy as API request" in the scenario player: the API follows the profile, the body lands on
// the clipboard with a confirmation, and when the clipboard is refused it is shown selected
// in a dialog. Either way the text is the JSON body with the API's top-level keys, and the
// release's own fields when the profile reproduces a Claude Code release.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const ANTHROPIC_KEYS = ['model', 'max_tokens', 'system', 'tools', 'messages', 'stream'];
// A Claude Code release's body adds its own fields (the profile names the release).
const RELEASE_KEYS = ['model', 'max_tokens', 'system', 'tools', 'messages', 'thinking', 'context_management', 'output_config', 'stream'];
const OPENAI_KEYS = ['model', 'instructions', 'input', 'tools', 'tool_choice', 'store', 'stream'];

/**
 * Picks a teaching scenario, waits until the player shows it and goes to its last step.
 * @param {import('playwright-core').Page} page
 * @param {string} file
 */
async function pickLastStep(page, file) {
  await page.selectOption('#scenario-pick', file);
  await page.waitForSelector(`#scenario-panel[data-loaded="${file}"]`);
  await page.focus('#scenario-steps');
  await page.keyboard.press('End');
}

test('the body goes to the clipboard, for the API of the profile', async () => {
  await browser.context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: server.url });
  const { page, problems } = await openPlayground(browser.context, server.url);
  await pickLastStep(page, 'external-edit.json');
  assert.equal(await page.inputValue('#scenario-api'), 'anthropic-messages', 'Claude Code calls the Messages API');
  await page.click('#scenario-copy-api');
  await page.waitForSelector('#scenario-copy-status[data-copied="clipboard"]');
  assert.match(await page.textContent('#scenario-copy-status') ?? '', /^Copied the request of step \d+ as an anthropic-messages body/);
  const copied = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  assert.deepEqual(Object.keys(copied), RELEASE_KEYS);
  assert.equal(copied.max_tokens, 128000, "Claude Code 2.1.332's output cap");
  assert.ok(copied.messages.length > 0);

  await page.selectOption('#scenario-profile', 'codex');
  await page.waitForFunction(() => /** @type {HTMLSelectElement} */ (document.querySelector('#scenario-api')).value === 'openai-responses');
  await page.click('#scenario-copy-api');
  await page.waitForFunction(() => /openai-responses/.test(document.querySelector('#scenario-copy-status')?.textContent ?? ''));
  const responses = JSON.parse(await page.evaluate(() => navigator.clipboard.readText()));
  assert.deepEqual(Object.keys(responses), OPENAI_KEYS);
  assert.ok(responses.input.length > 0);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a refused clipboard: the body is shown selected in a dialog', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  await pickLastStep(page, 'codex-context.json');
  assert.equal(await page.inputValue('#scenario-api'), 'openai-responses', 'Codex calls the Responses API');
  await page.evaluate(() => {
    navigator.clipboard.writeText = () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError'));
  });
  await page.click('#scenario-copy-api');
  await page.waitForSelector('#scenario-api-dialog[open]');
  assert.match(await page.textContent('#scenario-copy-status') ?? '', /clipboard refused .* selected in the dialog/);
  const text = await page.inputValue('#scenario-api-text');
  const selected = await page.evaluate(() => {
    const area = /** @type {HTMLTextAreaElement} */ (document.querySelector('#scenario-api-text'));
    return { start: area.selectionStart, end: area.selectionEnd, focused: document.activeElement === area };
  });
  assert.deepEqual(selected, { start: 0, end: text.length, focused: true });
  assert.deepEqual(Object.keys(JSON.parse(text)), OPENAI_KEYS);
  await page.selectOption('#scenario-api', 'anthropic-messages');
  await page.click('#scenario-api-dialog button');
  await page.click('#scenario-copy-api');
  await page.waitForSelector('#scenario-api-dialog[open]');
  assert.deepEqual(Object.keys(JSON.parse(await page.inputValue('#scenario-api-text'))), ANTHROPIC_KEYS);
  assert.deepEqual(problems, []);
  await page.close();
});
