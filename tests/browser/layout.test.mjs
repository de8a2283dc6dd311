// The Step tab's panes hold (issue 29, finding 4): at 1280×800 the request and the attachment
// panes keep at least 300 px whatever is opened above them; before, opening "blocks that
// changed" and the colour key shrank them to about 44 px.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const PANES = ['#scenario-request', '#scenario-turn'];

test('at 1280×800 the request and attachment panes keep 300 px with everything above them open', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url,
    { fragment: '#tab=step&step=7&s=external-edit', viewport: { width: 1280, height: 800 } });
  await page.waitForSelector('#request-diff-strip details', { state: 'attached' });
  await page.evaluate(() => { for (const details of document.querySelectorAll('#step-panel .step-summary-bar details')) /** @type {HTMLDetailsElement} */ (details).open = true; });
  const opened = await page.$$eval('#step-panel .step-summary-bar details', (all) => all.filter((d) => /** @type {HTMLDetailsElement} */ (d).open).length);
  assert.ok(opened >= 2, 'the changed blocks and the colour key are open');
  for (const pane of PANES) {
    const height = await page.$eval(pane, (element) => element.getBoundingClientRect().height);
    assert.ok(height >= 300, `${pane} is ${height} px tall`);
  }
  assert.deepEqual(problems, []);
});
