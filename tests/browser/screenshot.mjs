// `make screenshot`: the README's picture of the playground, taken in headless Chromium.
import { resolve } from 'node:path';
import { launchBrowser, openPlayground, startServer } from './harness.mjs';

const server = await startServer();
const browser = await launchBrowser();
try {
  const { page, problems } = await openPlayground(browser.context, server.url);
  await page.setViewportSize({ width: 1000, height: 1000 });
  const out = resolve(import.meta.dirname, '../../web/playground.png');
  await page.screenshot({ path: out, fullPage: false });
  if (problems.length > 0) throw new Error(problems.join('\n'));
  console.log(`wrote ${out}`);
} finally {
  await browser.close();
  await server.close();
}
