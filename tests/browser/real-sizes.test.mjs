// Issue 29, finding 1: the request is not a toy. Under each client's profile the meter and the
// request panes show the system prompt and tools at the size that client's release sends, and
// say they are stand-ins of that release, measured on it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** What the first request of external-edit shows under `profile`. */
async function firstRequest(/** @type {string} */ profile) {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: `#tab=step&s=external-edit&profile=${profile}` });
  await page.click('#scenario-steps li:first-child');
  await page.waitForSelector('#scenario-meter-legend li[data-category="tools"]');
  const seen = await page.evaluate(() => {
    const legend = (/** @type {string} */ name) => document.querySelector(`#scenario-meter-legend li[data-category="${name}"]`);
    const pane = (/** @type {string} */ name) => [...document.querySelectorAll('#scenario-request .channel')]
      .find((channel) => channel.textContent?.startsWith(name));
    return {
      systemTokens: Number(legend('system')?.getAttribute('data-tokens')),
      toolsTokens: Number(legend('tools')?.getAttribute('data-tokens')),
      systemStandIn: legend('system')?.getAttribute('data-stand-in') ?? '',
      toolsStandIn: legend('tools')?.getAttribute('data-stand-in') ?? '',
      toolsPane: pane('Tools')?.textContent ?? '',
      badges: document.querySelectorAll('#scenario-request .tool-list .badge.stand-in').length,
    };
  });
  await page.close();
  return { seen, problems };
}

test('claude-code shows Claude Code 2.1.332\'s system prompt and 13 tool definitions at their measured size', async () => {
  const { seen, problems } = await firstRequest('claude-code');
  // About 1,800 tokens of system prompt and 8,900 of tools by Claude Code's length / 4.
  assert.ok(seen.systemTokens > 1_500 && seen.toolsTokens > 8_000, JSON.stringify(seen));
  assert.match(seen.systemStandIn, /^Claude Code 2\.1\.332 [\d,]+ tok$/);
  assert.match(seen.toolsStandIn, /^Claude Code 2\.1\.332 [\d,]+ tok$/);
  assert.match(seen.toolsPane, /13 tool definitions/);
  assert.match(seen.toolsPane, /stand-ins measured on Claude Code 2\.1\.332/);
  assert.equal(seen.badges, 13, 'every tool is marked as a stand-in');
  assert.deepEqual(problems, []);
});

test('claude-code-2.1.88 shows Claude Code 2.1.88\'s system prompt and its terminal UI\'s 25 tools at their measured size', async () => {
  // The scenario plays the terminal UI (no config.printMode), which offers the task tools in
  // place of TodoWrite: 25 tools, where print mode offers 22.
  const { seen, problems } = await firstRequest('claude-code-2.1.88');
  // About 6,500 tokens of system prompt and 16,900 of tools by Claude Code's length / 4.
  assert.ok(seen.systemTokens > 6_000 && seen.toolsTokens > 16_000, JSON.stringify(seen));
  assert.match(seen.systemStandIn, /^Claude Code 2\.1\.88 [\d,]+ tok$/);
  assert.match(seen.toolsStandIn, /^Claude Code 2\.1\.88 16,142 tok$/);
  assert.match(seen.toolsPane, /25 tool definitions/);
  assert.match(seen.toolsPane, /stand-ins measured on Claude Code 2\.1\.88/);
  assert.equal(seen.badges, 25, 'every tool is marked as a stand-in');
  assert.deepEqual(problems, []);
});

test('codex shows Codex CLI 0.171.0\'s base instructions and tools at their measured size', async () => {
  const { seen, problems } = await firstRequest('codex');
  assert.ok(seen.systemTokens > 4_000 && seen.toolsTokens > 4_000, JSON.stringify(seen));
  assert.match(seen.systemStandIn, /^Codex CLI 0\.171\.0 3,807 tok$/);
  assert.match(seen.toolsStandIn, /^Codex CLI 0\.171\.0 4,173 tok$/);
  assert.deepEqual(problems, []);
});
