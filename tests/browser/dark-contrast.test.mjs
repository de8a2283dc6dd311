// Dark mode's contrast where axe does not look (issue 29, finding 5): the meter's "free" label
// sits on the page's own background (a gradient axe cannot read), its key swatch has no fill of
// its own, and the Mentions tab's highlights are marks under a transparent textarea. Each is
// measured here from the computed colours, as WCAG's contrast ratio.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, showTab, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/**
 * The contrast ratio of two computed colours (`rgb(…)`), in the page.
 * Returned as a function's source, to be evaluated in the page.
 */
const RATIO = `(a, b) => {
  const channels = (c) => c.match(/[\\d.]+/g).slice(0, 3).map(Number);
  const lum = (c) => channels(c).map((v) => { v /= 255; return v <= 0.03928 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; })
    .reduce((sum, v, i) => sum + v * [0.2126, 0.7152, 0.0722][i], 0);
  const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p);
  return (x + 0.05) / (y + 0.05);
}`;

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
  }, RATIO);
  assert.ok(meter.label >= 4.5, `the free label's contrast is ${meter.label.toFixed(2)}`);
  assert.ok(meter.swatch >= 3, `the free swatch's edge contrast is ${meter.swatch.toFixed(2)}`);
  await showTab(page, 'mentions');
  await page.waitForSelector('#mentions-backdrop mark');
  const marks = await page.evaluate((ratio) => {
    const contrast = /** @type {(a: string, b: string) => number} */ (eval(ratio));
    const text = getComputedStyle(document.querySelector('#mentions-input') ?? document.body).color;
    return [...document.querySelectorAll('#mentions-backdrop mark')].map((mark) => contrast(text, getComputedStyle(mark).backgroundColor));
  }, RATIO);
  assert.ok(marks.length > 0);
  for (const ratio of marks) assert.ok(ratio >= 4.5, `a highlighted mention's text on its mark: ${ratio.toFixed(2)}`);
  assert.deepEqual(problems, []);
});
