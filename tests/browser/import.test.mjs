// A session log dropped into the player: streamed through the engine's importer, shown as the
// player's scenario, with warnings and the ground-truth table beside it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { launchBrowser, openPlayground, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

const FIXTURES = resolve(import.meta.dirname, '../fixtures/import');

before(async () => {
  server = await startServer();
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await server?.close(); });

// A log replays under the preset of the release that wrote it: the Codex fixture is shaped as
// 0.139.0 writes its rollouts.
for (const [file, format, profile] of [['claude-code-session.jsonl', 'claude-code', 'claude-code'], ['codex-rollout.jsonl', 'codex', 'codex-0.139.0']]) {
  test(`${file}: picked, imported in the page, replayed, and set beside the recorded usage`, async () => {
    const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'scenario' });
    await page.waitForSelector('#scenario-panel[data-loaded]');
    await page.setInputFiles('#import-file', resolve(FIXTURES, file));
    await page.waitForSelector('#import-truth');
    const status = await page.textContent('#import-status');
    assert.match(status ?? '', new RegExp(`a ${format} log, \\d+ recorded requests`));
    assert.match(status ?? '', /Nothing left this page/);
    const editor = JSON.parse(await page.inputValue('#scenario-json'));
    assert.equal(editor.profile, profile, 'the imported scenario is in the player');
    const steps = await page.locator('#scenario-steps li').count();
    assert.equal(steps, editor.steps.length, 'and it was replayed');
    const rows = await page.locator('#import-truth tbody tr').count();
    assert.ok(rows > 0, 'one row per recorded request');
    assert.match(await page.textContent('#import-summary') ?? '', /median error [\d.]+%, worst [\d.]+%; cache hits/);
    const warnings = await page.locator('#import-warnings li').count();
    assert.ok(warnings > 0, 'the fixtures hold lines the importer must warn about');
    assert.deepEqual(problems, []);
  });
}

test('a file that is not a session log is an error, and the player keeps its scenario', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'scenario' });
  await page.waitForSelector('#scenario-panel[data-loaded]');
  const before = await page.inputValue('#scenario-json');
  await page.setInputFiles('#import-file', { name: 'notes.jsonl', mimeType: 'text/plain', buffer: Buffer.from('not a log\n') });
  await page.waitForSelector('#import-error:not([hidden])');
  assert.match(await page.textContent('#import-error') ?? '', /notes\.jsonl could not be imported: .*line 1/);
  assert.equal(await page.inputValue('#scenario-json'), before);
  assert.deepEqual(problems, []);
});

test('the injected column: the log\'s items beside ours, or "not in log"; redaction keeps the figures', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'scenario' });
  await page.waitForSelector('#scenario-panel[data-loaded]');
  await page.setInputFiles('#import-file', resolve(FIXTURES, 'claude-code-injected.jsonl'));
  await page.waitForSelector('#import-truth');
  const firstRow = page.locator('#import-truth tbody tr').first();
  const injected = await firstRow.locator('td').last().textContent();
  assert.match(injected ?? '', /missing \d+ \/ extra \d+|same kinds/);
  const oursBefore = await page.locator('#import-truth tbody tr td:nth-child(4)').allTextContents();
  await page.click('#redact-run');
  await page.waitForFunction(() => document.querySelector('#redact-status')?.textContent?.startsWith('Redacted:'));
  assert.match(await page.textContent('#redact-status') ?? '', /distinct words replaced in .*prompts.*paths kept/);
  assert.match(await page.textContent('#redact-status') ?? '', /random key this page drew/, 'each redaction is keyed');
  assert.doesNotMatch(await page.inputValue('#scenario-json'), /tomato|watering/);
  assert.equal(await page.isDisabled('#redact-download'), false);
  await page.waitForFunction((before) => {
    const cells = [...document.querySelectorAll('#import-truth tbody tr td:nth-child(4)')].map((cell) => cell.textContent);
    return cells.length === before.length;
  }, oursBefore);
  assert.deepEqual(await page.locator('#import-truth tbody tr td:nth-child(4)').allTextContents(), oursBefore, 'the same estimates redacted');
  await page.setInputFiles('#import-file', resolve(FIXTURES, 'claude-code-session.jsonl'));
  await page.waitForFunction(() => document.querySelector('#import-status')?.textContent?.includes('claude-code-session.jsonl'));
  await page.waitForSelector('#import-truth');
  assert.equal(await page.isDisabled('#redact-download'), true);
  assert.deepEqual(problems, []);
});

test('a Codex rollout\'s context messages stand beside ours: the same kinds', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'scenario' });
  await page.waitForSelector('#scenario-panel[data-loaded]');
  await page.setInputFiles('#import-file', resolve(FIXTURES, 'codex-injected.jsonl'));
  await page.waitForSelector('#import-truth');
  const cells = await page.locator('#import-truth tbody tr td:last-child').allTextContents();
  assert.deepEqual(cells, ['same kinds', 'none either side']);
  assert.deepEqual(problems, []);
});

test('a 2.1.332 log\'s recorded attachments stand beside ours: the same kinds, the outside change replayed', async () => {
  // Issue 26 item 6 and issue 29 item 6: the attachments the current release logs are ground
  // truth for what was injected; the change note the log records becomes the change itself.
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'scenario' });
  await page.waitForSelector('#scenario-panel[data-loaded]');
  await page.setInputFiles('#import-file', resolve(FIXTURES, 'claude-code-2.1.332-attachments.jsonl'));
  await page.waitForSelector('#import-truth');
  assert.match(await page.textContent('#import-status') ?? '', /no warnings/);
  const cells = await page.locator('#import-truth tbody tr td:last-child').allTextContents();
  assert.deepEqual(cells, ['same kinds', 'none either side', 'same kinds']);
  assert.match(await page.textContent('#import-summary') ?? '', /the same kinds on 3 of 3 requests/);
  const editor = JSON.parse(await page.inputValue('#scenario-json'));
  assert.equal(editor.config.gitStatus, 'Current branch: main\n\nStatus:\nM notes.txt');
  assert.ok(editor.steps.some((/** @type {{ kind: string }} */ step) => step.kind === 'writeFile'), 'the outside change is a step');
  assert.deepEqual(problems, []);
});

test('a log dropped on the Step tab: the notice says so there, the bar names what runs, implausible usage is called out', async () => {
  // Issue 29, finding 7: before, the picker kept the old name, Profile said `recommended` while
  // the replay ran under the log's profile, a drop on the Step tab said nothing, and recorded
  // usage of 10 input tokens a request was reported as our error.
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=step&profile=recommended&s=external-edit' });
  const tiny = readFileSync(resolve(FIXTURES, 'claude-code-session.jsonl'), 'utf8')
    .replace(/"input_tokens":\d+/g, '"input_tokens":10')
    .replace(/"cache_(read|creation)_input_tokens":\d+/g, '"cache_$1_input_tokens":0');
  await page.evaluate((text) => {
    const transfer = new DataTransfer();
    transfer.items.add(new File([text], 'tiny-usage.jsonl'));
    document.querySelector('#step-panel')?.dispatchEvent(new DragEvent('drop', { dataTransfer: transfer, bubbles: true, cancelable: true }));
  }, tiny);
  await page.waitForSelector('#import-notice:not([hidden])');
  assert.match(await page.textContent('#import-notice-text') ?? '', /^tiny-usage\.jsonl: a claude-code log, \d+ recorded requests/);
  await page.waitForFunction(() => /implausible/.test(document.querySelector('#import-notice-text')?.textContent ?? ''));
  assert.match(await page.textContent('#import-notice-text') ?? '', /The recorded usage is implausible: \d+ of \d+ requests .*median 10 input tokens/);
  assert.equal(await page.getAttribute('#import-summary', 'data-implausible'), 'true');
  const bar = await page.evaluate(() => {
    const pick = /** @type {HTMLSelectElement} */ (document.querySelector('#scenario-pick'));
    const profile = /** @type {HTMLSelectElement} */ (document.querySelector('#scenario-profile'));
    return { pick: pick.selectedOptions[0]?.textContent ?? '', profile: profile.value, profileText: profile.selectedOptions[0]?.textContent ?? '' };
  });
  assert.notEqual(bar.pick, 'External edit → diff note', 'the picker no longer names the scenario the log replaced');
  assert.equal(bar.profile, '', 'the log runs under its own profile');
  assert.match(bar.profileText, /claude-code/, 'and the bar names it');
  await page.click('#import-notice-show');
  await page.waitForSelector('body[data-tab="scenario"]');
  assert.ok(await page.isVisible('#import-truth'));
  assert.deepEqual(problems, []);
});

test('a plausible log is not called implausible', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'scenario' });
  await page.waitForSelector('#scenario-panel[data-loaded]');
  await page.setInputFiles('#import-file', resolve(FIXTURES, 'claude-code-injected.jsonl'));
  await page.waitForSelector('#import-summary');
  assert.equal(await page.getAttribute('#import-summary', 'data-implausible'), 'false');
  assert.equal(await page.isHidden('#import-notice'), true, 'on the Scenario tab the status line is where the reader is');
  assert.deepEqual(problems, []);
});
