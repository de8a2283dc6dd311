// The glossary and the popovers: every word of the engine's vocabularies is explained, every
// reference the page or a built-in scenario's trace shows has our summary, a reference opens
// with the keyboard and closes with Escape, and every glossary term a view prints is linked to
// its meanings where the view first prints it.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { TABS, launchBrowser, openPlayground, showTab, startServer, visitFilledTabs } from './harness.mjs';

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
  // The emission order prints a collector's thread as `main-thread` and `all-threads`.
  const words = [...unionOf('CacheRead'), 'prompt cache', 'cache breakpoint', 'cached', 'written', 'uncached', 'prefix kept', 'stand-in',
    'the pass', 'emission order', 'collectors', 'hunk', 'main-thread', 'all-threads', 'event', 'event (step)', ...unionOf('ProfileName')];
  for (const word of words) assert.ok((explained.get(word) ?? '').length > 15, `${word} is explained`);
  for (const profile of await page.evaluate(async () => (await import('/pkg/context_assembly.js')).profileNames())) {
    assert.ok(explained.has(profile), `${profile} is explained`);
  }
  assert.deepEqual(problems, []);
});

/**
 * The glossary terms the view on screen prints that are not linked where they first appear
 * (or appear only where no link can go: a button, a label, a chart); the test's own reading of
 * "a term", not the page's. A term is a word of the glossary, as printed (`event (step)` is
 * printed `event`): a whole text that is one (a chip, a header, a cell), or, anywhere in a
 * text, a term of a shape no plain English word has (`edited_text_file`, `already-in-context`,
 * `claude-code.full`, "prefix kept") or a word of jargon (uncached, hunk, collectors). Not
 * counted: what the user or the model wrote (file contents and requests are shown in `pre`,
 * editors are form fields), the reader's own choice in a picker, and the glossary's own entries.
 * @param {import('playwright-core').Page} page
 * @param {string[]} terms the glossary's entries
 * @param {string} [root] the part of the page to read: the view on screen unless said
 */
function unlinkedTerms(page, terms, root = '[role="tabpanel"]:not([hidden])') {
  return page.evaluate(async ({ entries, selector }) => {
    const panel = document.querySelector(selector);
    if (panel === null) return { found: 0, unlinked: [`nothing matches ${selector}`] };
    for (const details of panel.querySelectorAll('details')) details.open = true;
    await new Promise((done) => requestAnimationFrame(() => done(undefined)));
    const words = [...new Set(entries.map((term) => term.replace(/ \(.*\)$/, '')))];
    const spelled = new Map(words.map((word) => [word.toLowerCase(), word]));
    const within = new RegExp(`(?<![\\w./@-])(?:${words.filter((word) => /[\s_.-]/.test(word) || ['uncached', 'hunk', 'collectors'].includes(word))
      .sort((a, b) => b.length - a.length).map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll(' ', '\\s+')).join('|')})(?![\\w/-]|\\.\\w)`, 'gi');
    const NOT_PRINTED = 'pre, textarea, input, select, script, style, [aria-hidden="true"], #reference-popover, .glossary-list dt';
    const NO_LINK_HERE = 'button:not(.term), summary, label, a, svg, [role="option"], [role="listbox"], [role="img"]';
    /** @type {Map<string, { linked: boolean, linkable: boolean, where: string }[]>} */
    const seen = new Map();
    const walker = document.createTreeWalker(panel, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
      const text = /** @type {Text} */ (node);
      const parent = text.parentElement;
      if (parent === null || parent.closest(NOT_PRINTED) !== null || !parent.checkVisibility()) continue;
      const alone = spelled.get(text.data.trim());
      const found = alone !== undefined && alone === text.data.trim() ? [alone]
        : [...text.data.matchAll(within)].map((match) => spelled.get(match[0].toLowerCase().replace(/\s+/g, ' ')) ?? '');
      for (const word of found) {
        const link = parent.closest('button.term');
        // Where no link can go (a list's option), a tooltip that gives the term's meaning.
        const tooltip = parent.closest(`[data-term="${CSS.escape(word)}"][title]`);
        const linked = link !== null && link.getAttribute('data-term') === word
          || tooltip !== null && (tooltip.getAttribute('title') ?? '').includes(`${word}`) && (tooltip.getAttribute('title') ?? '').length > word.length + 15;
        const linkable = linked || parent.closest(NO_LINK_HERE) === null;
        const where = `${parent.tagName.toLowerCase()}${parent.className === '' ? '' : `.${String(parent.className).split(' ').join('.')}`}: ${text.data.trim().slice(0, 80)}`;
        seen.set(word, [...(seen.get(word) ?? []), { linked, linkable, where }]);
      }
    }
    return {
      found: seen.size,
      unlinked: [...seen].flatMap(([word, places]) => {
        const first = places.find((place) => place.linkable);
        if (first === undefined) return [`${word}: only where no link can go (${places[0]?.where})`];
        return first.linked ? [] : [`${word}: first printed unlinked (${first.where})`];
      }),
    };
  }, { entries: terms, selector: root });
}

test('every glossary term a view prints opens its meanings where the view first prints it', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { viewport: { width: 1280, height: 800 } });
  const terms = await page.evaluate(async () => (await import('/web/glossary.js')).glossaryGroups().flatMap((group) => group.entries.map(([term]) => term)));
  /** @type {Record<string, string[]>} */
  const unlinked = {};
  /** @type {Record<string, number>} */
  const found = {};
  await visitFilledTabs(page, async (tab) => {
    if (tab === 'compare') {
      await page.click('#compare-sbs-run');
      await page.waitForSelector('#compare-sbs-results:not([hidden])');
    } else if (tab === 'scenario') {
      await page.setInputFiles('#import-file', join(ROOT, 'tests/fixtures/import/claude-code-session.jsonl'));
      await page.waitForSelector('#import-truth');
    }
    const view = await unlinkedTerms(page, terms);
    unlinked[tab] = view.unlinked;
    found[tab] = view.found;
  });
  // The sidebar beside every view: the scenario's description and the steps.
  const sidebar = await unlinkedTerms(page, terms, 'nav.sidebar');
  assert.deepEqual(sidebar.unlinked, [], 'the sidebar');
  console.log(`terms printed: ${TABS.map((tab) => `${tab} ${found[tab]}`).join(', ')}`);
  assert.deepEqual(unlinked, Object.fromEntries(TABS.map((tab) => [tab, []])));
  for (const tab of ['step', 'compaction', 'compare', 'diff', 'glossary']) assert.ok((found[tab] ?? 0) >= 3, `${tab} prints terms: ${found[tab]}`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a term opens all its meanings, and its way to the Glossary shows the entry', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url, { fragment: '#tab=step&s=auto-compaction&step=4' });
  await page.click('#scenario-turn button.term[data-term="throttled"]');
  const popover = await page.textContent('#reference-popover') ?? '';
  assert.match(popover, /Frequency classes: Sent at most every so many turns/);
  assert.match(popover, /Verdicts: Not sent this time/);
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'reference-popover-glossary', 'the way to the Glossary has the focus');
  await page.keyboard.press('Enter');
  await page.waitForSelector('body[data-tab="glossary"]');
  assert.equal(await page.evaluate(() => document.activeElement?.id), 'glossary-frequencies-throttled');
  assert.ok(await page.isHidden('#reference-popover'));
  assert.deepEqual(problems, []);
  await page.close();
});

test('every glossary term the tour prints opens its meanings, stop by stop', async () => {
  // Issue 29, finding 3: the tour's text and the sidebar were not walked.
  const { page, problems } = await openPlayground(browser.context, server.url, { viewport: { width: 1280, height: 800 } });
  const terms = await page.evaluate(async () => (await import('/web/glossary.js')).glossaryGroups().flatMap((group) => group.entries.map(([term]) => term)));
  const stops = await page.evaluate(async () => (await import('/web/app/tour.js')).STOPS.length);
  await page.click('#tour-start');
  /** @type {string[]} */
  const unlinked = [];
  let found = 0;
  for (let stop = 0; stop < stops; stop += 1) {
    await page.waitForSelector(`#tour[data-stop="${stop}"][data-ready="true"]`);
    const card = await unlinkedTerms(page, terms, '#tour');
    unlinked.push(...card.unlinked.map((line) => `stop ${stop + 1}: ${line}`));
    found += card.found;
    const description = await unlinkedTerms(page, terms, 'nav.sidebar');
    unlinked.push(...description.unlinked.map((line) => `stop ${stop + 1}, sidebar: ${line}`));
    if (stop < stops - 1) await page.click('#tour-next');
  }
  console.log(`terms the tour prints: ${found}`);
  assert.ok(found >= 1, `the tour prints terms: ${found}`);
  assert.deepEqual(unlinked, []);
  assert.deepEqual(problems, []);
  await page.close();
});

test('every word of a term\'s shape a view prints has a glossary entry', async () => {
  // Issue 29, finding 3: the rounds in the list of steps, the collectors of the emission order,
  // the items of the compaction report and the parts of a request had none. A term's shape is a
  // word of lower-case pieces joined by `-`, `_` or `.` printed alone (a chip, a cell, a code
  // element); a file's name, and what the scenario itself says (its steps' names), are not terms.
  const { page, problems } = await openPlayground(browser.context, server.url, { viewport: { width: 1280, height: 800 } });
  /** @type {Set<string>} */
  const missing = new Set();
  let shaped = 0;
  await visitFilledTabs(page, async (tab) => {
    if (tab === 'compare') {
      await page.click('#compare-sbs-run');
      await page.waitForSelector('#compare-sbs-results:not([hidden])');
    }
    const found = await page.evaluate(async () => {
      const { meaningsOf } = await import('/web/glossary.js');
      const scenario = /** @type {HTMLTextAreaElement | null} */ (document.querySelector('#scenario-json'))?.value ?? '';
      /** @type {string[]} */
      const words = [];
      let count = 0;
      for (const root of document.querySelectorAll('[role="tabpanel"]:not([hidden]), nav.sidebar')) {
        for (const details of root.querySelectorAll('details')) details.open = true;
        const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node !== null; node = walker.nextNode()) {
          const parent = node.parentElement;
          if (parent === null || parent.closest('pre, textarea, input, select, script, style, [aria-hidden="true"]') !== null || !parent.checkVisibility()) continue;
          const text = /** @type {Text} */ (node).data.trim();
          if (!/^[a-z][a-z0-9]*(?:[-_.][a-z0-9]+)+$/.test(text) || /\.[a-z]{1,5}$/.test(text) && !text.includes('-') && !text.includes('_')) continue;
          if (/\.(ts|md|json|jsonl|txt|js|log|rs|py|toml)$/.test(text) || scenario.includes(`"${text}"`)) continue;
          count += 1;
          if (meaningsOf(text).length === 0) words.push(`${text} (${parent.tagName.toLowerCase()})`);
        }
      }
      return { count, words };
    });
    shaped += found.count;
    for (const word of found.words) missing.add(`${tab}: ${word}`);
  });
  console.log(`words of a term's shape printed: ${shaped}`);
  assert.ok(shaped >= 20, `words of a term's shape printed: ${shaped}`);
  assert.deepEqual([...missing], []);
  assert.deepEqual(problems, []);
  await page.close();
});
