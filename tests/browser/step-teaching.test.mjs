// What the Step tab teaches beside the request: the strip of what changed since the previous
// request (the engine's requestDiff; what the cache did is cache-story.test's), the banners for
// a compaction and for attachments that arrive on an event, and a meter whose key reconciles
// with the request's panes.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, showTab, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

/**
 * Steps through the whole scenario from the first step, calling `look` on each.
 * @param {import('playwright-core').Page} page
 * @param {(index: number) => Promise<void>} look
 */
async function everyStep(page, look) {
  await page.click('#scenario-steps li:first-child');
  for (let index = 0; ; index += 1) {
    await look(index);
    if (await page.isDisabled('#scenario-forward')) break;
    await page.click('#scenario-forward');
  }
}

test('the strip says what changed since the previous request, and where the request first differs', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=scenario&profile=recommended&s=cheap-stage' });
  // With the cheap stage on (the scenario's switches) and the original timing, the prune runs at
  // the threshold while the prefix is still cached: an edit of earlier blocks (the cache-aware
  // timing waits, and this scenario never reaches its limit).
  const scenario = JSON.parse(await page.inputValue('#scenario-json'));
  scenario.switches = { ...scenario.switches, 'compaction.compactAtBlockingLimit': false };
  await page.fill('#scenario-json', JSON.stringify(scenario, null, 2));
  await page.click('#scenario-run');
  await showTab(page, 'step');
  /** @type {string[]} */
  const causes = [];
  /** @type {null | { reason: string, changed: number, marks: number }} */
  let edited = null;
  await everyStep(page, async () => {
    const cause = await page.$eval('#request-diff-strip', (strip) => strip.querySelector('[data-cause]')?.getAttribute('data-cause') ?? '');
    causes.push(cause);
    if (cause !== '' && cause !== 'none' && edited === null) {
      edited = await page.$eval('#request-diff-strip', (strip) => ({
        reason: strip.querySelector('.diff-reason')?.textContent ?? '',
        changed: strip.querySelectorAll('.diff-changed').length,
        marks: strip.querySelectorAll('.diff-changed ins, .diff-changed del').length,
      }));
    }
  });
  assert.equal(causes[0], '', 'the first request has nothing to compare with');
  assert.ok(causes.includes('none'), 'an appended turn keeps the prefix');
  assert.ok(edited !== null, `the cheap stage edits earlier blocks somewhere: ${causes.join(',')}`);
  // The cheap stage runs as a compaction before the request, and the strip names it so.
  assert.ok(causes.includes('compaction'));
  assert.match(edited.reason, /^the first \d+ blocks? \([\d,]+ tok\) are as before; the first difference: .* \(a compaction ran in between\)\.$/);
  assert.ok(edited.changed > 0 && edited.marks > 0, 'each changed block shows its words marked');
  assert.deepEqual(problems, []);
});

test('a compaction before the request has a banner that says what it did and brought back', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=step&profile=claude-code-2.1.88&s=auto-compaction' });
  /** @type {string[]} */
  const banners = [];
  /** @type {string[]} */
  const events = [];
  await everyStep(page, async () => {
    banners.push(...await page.$$eval('.banner-compaction', (all) => all.map((b) => b.textContent ?? '')));
    events.push(...await page.$$eval('.banner-event code', (all) => all.map((b) => b.textContent ?? '')));
  });
  assert.ok(banners.length > 0, 'the auto-compaction step has a banner');
  assert.match(banners[0], /^Auto-compaction \(claude-code\.full\) ran before this request: [\d,]+ → [\d,]+ tokens\./);
  assert.match(banners[0], /brought back .*\(\d[\d,]* tok\)/);
  assert.match(banners[0], /The prompt cache kept [\d,]+ tok/);
  assert.deepEqual(problems, []);
});

test('the meter key and the request panes are two readings of the same figures', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=step&s=external-edit' });
  let explained = 0;
  await everyStep(page, async (index) => {
    const figures = await page.evaluate(() => {
      const legend = [...document.querySelectorAll('#scenario-meter-legend li[data-category]')]
        .filter((li) => li.getAttribute('data-category') !== 'free')
        .map((li) => ({ tokens: Number(li.getAttribute('data-tokens')), note: li.querySelector('.note')?.textContent ?? '' }));
      const panes = [...document.querySelectorAll('#scenario-request .channel')].map((pane) => Number(pane.getAttribute('data-tokens')));
      const total = Number(document.querySelector('#scenario-meter')?.getAttribute('data-total'));
      return { legend, panes, total };
    });
    if (figures.panes.length === 0) return;
    const sum = (/** @type {number[]} */ list) => list.reduce((a, b) => a + b, 0);
    assert.equal(sum(figures.legend.map((l) => l.tokens)), figures.total, `step ${index + 1}: the key adds up to the total`);
    assert.equal(sum(figures.panes), figures.total, `step ${index + 1}: the panes add up to the total`);
    for (const { tokens, note } of figures.legend) {
      if (note === '') continue;
      explained += 1;
      const parts = [...note.matchAll(/(\d[\d,]*)/g)].map((m) => Number(m[1].replaceAll(',', '')));
      assert.equal(sum(parts), tokens, `step ${index + 1}: "${note}" adds up to ${tokens}`);
    }
  });
  assert.ok(explained > 0, 'a category spread over two panes says so (the date in the user context counts as system)');
  assert.deepEqual(problems, []);
});
