// One cache story (issue 29, finding 2): the strip, the request pane's cache marks and Compare
// are read from one cache model, so at every step they agree on what the prompt cache read, and
// a request that read nothing says why (the provider's minimum, an expired entry, a changed
// prefix). Before, the strip said "prefix kept … a cache holding it serves all of it" while
// Compare showed 0 tokens read with no reason.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, showTab, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/** What the Step tab says of the prompt cache at the step shown. */
function cacheOnScreen() {
  const line = document.querySelector('#request-diff-strip .cache-summary');
  const marks = [...document.querySelectorAll('#scenario-request .cache-boundary')];
  return {
    line: line === null ? null : {
      read: line.getAttribute('data-read') ?? '',
      cached: Number(line.getAttribute('data-cached')),
      reason: line.querySelector('.cache-reason')?.textContent ?? '',
    },
    strip: document.querySelector('#request-diff-strip .diff-summary')?.textContent ?? '',
    breakpoints: marks.map((mark) => mark.getAttribute('data-breakpoint')).filter((state) => state !== null),
    readThrough: marks.some((mark) => mark.hasAttribute('data-read-through')),
  };
}

test('external-edit: the strip, the request pane and Compare tell one story of the cache at every step', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=step&s=external-edit' });
  const comparison = await page.evaluate(async () => {
    const engine = /** @type {any} */ ({ ...(await import('/pkg/context_assembly.js')), ...(await import('/pkg/tools/context_assembly_tools.js').then(async (tools) => { await tools.default(); return tools; })) });
    await engine.default();
    const text = /** @type {HTMLTextAreaElement} */ (document.querySelector('#scenario-json')).value;
    return engine.compareProfiles(text, ['claude-code'], { usage: 'scenario' });
  });
  // The accounting is made in a worker, so the page keeps drawing during a long replay.
  await page.waitForSelector('#request-diff-strip[data-account="ready"]');
  const byStep = new Map(comparison['claude-code'].steps.map((step) => [step.step, step]));
  const count = await page.$$eval('#scenario-steps li', (rows) => rows.length);
  let said = 0;
  for (let index = 0; index < count; index += 1) {
    await page.click(`#scenario-step-${index}`);
    const seen = await page.evaluate(cacheOnScreen);
    const compared = byStep.get(index);
    if (compared === undefined) continue;
    assert.ok(seen.line !== null, `step ${index + 1}: the strip says what the cache did`);
    assert.equal(seen.line.cached, compared.cached, `step ${index + 1}: the strip's cached tokens are Compare's`);
    assert.equal(seen.line.read, compared.cache.read, `step ${index + 1}: the strip's reason is Compare's`);
    assert.doesNotMatch(seen.strip, /serves all of it|prefix kept/, `step ${index + 1}: the diff says nothing of the cache of its own`);
    const readMarks = seen.breakpoints.filter((state) => state === 'read').length + (seen.readThrough ? 1 : 0);
    assert.equal(readMarks > 0, compared.cached > 0, `step ${index + 1}: the request pane marks a read exactly when the cache read`);
    if (compared.cached === 0) {
      said += 1;
      assert.notEqual(seen.line.read, 'hit', `step ${index + 1}: nothing read is not a hit`);
      const why = { 'below-minimum': /minimum/, expired: /expired|TTL|minutes/, 'prefix-changed': /changed|differs/, 'first-request': /first/ }[seen.line.read];
      if (why !== undefined) assert.match(seen.line.reason, why, `step ${index + 1}: the reason names its cause`);
    }
  }
  assert.ok(said > 0, 'some request of the scenario read nothing, and said why');

  // Compare's explanation names the same cause, in the same words, step numbers from 1.
  await showTab(page, 'compare');
  await page.click('#compare-run');
  await page.waitForSelector('#compare-results:not([hidden])');
  const row = await page.$eval('#compare-explain tr[data-profile="claude-code"]', (tr) => tr.textContent ?? '');
  /** @type {Record<string, RegExp>} */
  const cause = { 'below-minimum': /under the minimum: .*minimum/, expired: /expired|TTL|minutes/, 'prefix-changed': /changed|differs/, 'first-request': /first request: nothing is read/ };
  for (const step of comparison['claude-code'].steps.filter((s) => s.cached === 0).slice(0, 3)) {
    assert.ok(row.includes(`step ${step.step + 1}: `), `Compare names step ${step.step + 1}: ${row}`);
    assert.match(row, cause[step.cache.read] ?? /./, `Compare says why step ${step.step + 1} read nothing`);
  }
  assert.deepEqual(problems, []);
});
