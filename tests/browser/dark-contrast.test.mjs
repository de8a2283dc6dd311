// Dark mode's contrast where axe does not look (issue 29, finding 5): the meter's "free" label
// sits on the page's own background (a gradient axe cannot read), its key swatch has no fill of
// its own, and the Mentions tab's highlights are marks under a transparent textarea. Each is
// measured here from the computed colours, as WCAG's contrast ratio.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { CONTRAST_RATIO, launchBrowser, openPlayground, showTab, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

test('dark mode: the meter\'s free label, its key swatch and the Mentions highlights stand out', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=step&s=external-edit' });
  await page.emulateMedia({ colorScheme: 'dark' });
  const meter = await page.evaluate((ratio) => {
    const contrast = /** @type {(a: string, b: string) => number} */ (eval(ratio));
    const page = getComputedStyle(document.body).backgroundColor;
    const free = document.querySelector('#scenario-meter .seg-free');
    const swatch = document.querySelector('#scenario-meter-legend .swatch.seg-free');
    return {
      label: free === null ? 0 : contrast(getComputedStyle(free).color, page),
      swatch: swatch === null ? 0 : contrast(getComputedStyle(swatch).borderTopColor, page),
    };
  }, CONTRAST_RATIO);
  assert.ok(meter.label >= 4.5, `the free label's contrast is ${meter.label.toFixed(2)}`);
  assert.ok(meter.swatch >= 3, `the free swatch's edge contrast is ${meter.swatch.toFixed(2)}`);
  await showTab(page, 'mentions');
  await page.waitForSelector('#mentions-backdrop mark');
  const marks = await page.evaluate((ratio) => {
    const contrast = /** @type {(a: string, b: string) => number} */ (eval(ratio));
    const text = getComputedStyle(document.querySelector('#mentions-input') ?? document.body).color;
    return [...document.querySelectorAll('#mentions-backdrop mark')].map((mark) => contrast(text, getComputedStyle(mark).backgroundColor));
  }, CONTRAST_RATIO);
  assert.ok(marks.length > 0);
  for (const ratio of marks) assert.ok(ratio >= 4.5, `a highlighted mention's text on its mark: ${ratio.toFixed(2)}`);
  assert.deepEqual(problems, []);
});
