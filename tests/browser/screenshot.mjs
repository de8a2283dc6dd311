// `make screenshot`: the README's picture of the playground, taken in headless Chromium.
import { resolve } from 'node:path';
import { launchBrowser, openPlayground, startServer } from './harness.mjs';

const server = await startServer();
const browser = await launchBrowser();
try {
  const { page, problems } = await openPlayground(browser.context, server.url);
  await page.setViewportSize({ width: 1200, height: 1150 });
  // The scenario player at the step where an edit made outside the agent comes back as a note.
  await page.selectOption('#scenario-pick', 'external-edit.json');
  await page.waitForSelector('#scenario-panel[data-loaded="external-edit.json"]');
  await page.click('#scenario-step-6');
  await page.evaluate(() => document.querySelector('#scenario-steps')?.scrollIntoView({ block: 'start' }));
  const out = resolve(import.meta.dirname, '../../web/playground.png');
  await page.screenshot({ path: out, fullPage: false });
  if (problems.length > 0) throw new Error(problems.join('\n'));
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.close();
}
