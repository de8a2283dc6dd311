// The glossary and the reference popovers: every word of the engine's vocabularies is
// explained, every reference the page or a built-in scenario's trace shows has our summary,
// and a reference opens with the keyboard and closes with Escape.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launchBrowser, openPlayground, showTab, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const ROOT = resolve(import.meta.dirname, '../..');

/**
 * The members of a string-literal union the engine's type declarations list.
 * @param {string} name
 */
function unionOf(name) {
  const declarations = readFileSync(join(ROOT, 'pkg/context_assembly.d.ts'), 'utf8');
  const declared = declarations.match(new RegExp(`export type ${name} = ([^;]+);`));
  assert.ok(declared !== null, `${name} is declared`);
  return [...declared[1].matchAll(/"([^"]+)"/g)].map((match) => match[1]);
}

test('the glossary explains every attachment kind, frequency, verdict and policy the engine declares', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'glossary' });
  await page.waitForSelector('#glossary-panel dl');
  const terms = await page.$$eval('#glossary-panel dt', (all) => all.map((dt) => ({
    term: dt.textContent ?? '', meaning: dt.nextElementSibling?.textContent ?? '' })));
  const explained = new Map(terms.map(({ term, meaning }) => [term, meaning]));
  for (const union of ['AttachmentKind', 'Frequency', 'Verdict', 'PolicyId']) {
    for (const word of unionOf(union)) {
      assert.ok((explained.get(word) ?? '').length > 15, `${union} ${word} is explained`);
    }
  }
  const policies = await page.evaluate(async () => (await import('/pkg/context_assembly.js')).compactionPolicies());
  for (const id of policies) assert.ok(explained.has(id), `the engine's policy ${id} is in the glossary`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('every reference the page and the built-in scenarios\' traces show has a summary', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  const scenarios = readdirSync(join(ROOT, 'web/scenarios'))
    .filter((file) => file.endsWith('.json') && file !== 'index.json' && !file.includes('schema'));
  assert.ok(scenarios.length > 5, 'the built-in scenarios are found');
  const missing = await page.evaluate(async (files) => {
    const engine = await import('/pkg/context_assembly.js');
    const { REFERENCE_PATTERN, summaryOf } = await import('/web/references.js');
    /** @type {string[]} */
    // Every tab's text, shown or not.
    const texts = [document.body.textContent ?? ''];
    for (const file of files) {
      const trace = engine.runScenario(await (await fetch(`/web/scenarios/${file}`)).text());
      for (const { turn } of trace.steps) {
        for (const decision of turn.decisions) texts.push(decision.reason, decision.detail ?? '');
        for (const report of turn.compaction ?? []) {
          texts.push(report.reason, ...report.decisions.map((d) => d.reason), ...report.survival.map((s) => s.reason));
        }
      }
    }
    const found = new Set(texts.flatMap((text) => [...text.matchAll(REFERENCE_PATTERN)].map((match) => match[0])));
    return { found: [...found], missing: [...found].filter((reference) => summaryOf(reference) === undefined) };
  }, scenarios);
  assert.ok(missing.found.length >= 10, `references found: ${missing.found}`);
  assert.deepEqual(missing.missing, []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a reference opens its summary from the keyboard and Escape closes it', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'files' });
  const button = page.locator('#files-panel button.ref[data-ref="Q31"]').first();
  await button.focus();
  assert.equal(await button.getAttribute('aria-expanded'), 'false');
  await page.keyboard.press('Enter');
  assert.equal(await button.getAttribute('aria-expanded'), 'true');
  assert.ok(await page.isVisible('#reference-popover'));
  assert.match(await page.textContent('#reference-popover') ?? '', /only read.*not watched/i);
  await page.keyboard.press('Escape');
  assert.equal(await button.getAttribute('aria-expanded'), 'false');
  assert.ok(await page.isHidden('#reference-popover'));
  assert.equal(await page.evaluate(() => document.activeElement?.getAttribute('data-ref')), 'Q31', 'the focus goes back to the reference');
  // A reference in an engine reason the player renders later is a button too.
  await showTab(page, 'step');
  await page.selectOption('#scenario-pick', 'codex-context.json');
  await page.waitForSelector('#scenario-panel[data-loaded="codex-context.json"]');
  await page.click('#scenario-steps li[data-index="3"]');
  const explained = await page.$$eval('#scenario-turn button.ref', (all) => all.map((b) => b.textContent));
  assert.ok(explained.includes('X19'), `references in the step's decisions: ${explained}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the glossary explains why the cache read what it read, and the words the page itself prints', async () => {
  // Issue 29, finding 3: prefix kept, cache boundary, cached / written / uncached, the pass,
  // emission order, collectors, hunk, main thread / all threads, "event" as a step, and the
  // profiles world-state, opencode-style and aider-style had no entry.
  const { page, problems } = await openPlayground(browser.context, server.url, { tab: 'glossary' });
  await page.waitForSelector('#glossary-panel dl');
  const explained = new Map(await page.$$eval('#glossary-panel dt', (all) => all.map((dt) => [dt.textContent ?? '', dt.nextElementSibling?.textContent ?? ''])));
  const words = [...unionOf('CacheRead'), 'prompt cache', 'cache breakpoint', 'cached', 'written', 'uncached', 'prefix kept', 'stand-in',
    'the pass', 'emission order', 'collectors', 'hunk', 'main thread', 'all threads', 'event (step)', 'world-state', 'opencode-style', 'aider-style'];
  for (const word of words) assert.ok((explained.get(word) ?? '').length > 15, `${word} is explained`);
  for (const profile of await page.evaluate(async () => (await import('/pkg/context_assembly.js')).profileNames())) {
    if (['world-state', 'opencode-style', 'aider-style'].includes(profile)) assert.ok(explained.has(profile), `${profile} is explained`);
  }
  assert.deepEqual(problems, []);
});
