// The scenario player, stepped through as a reader would: every step's meter adds up to the
// window, the highlighted row follows, and the attachments a scenario teaches appear at the
// step where they must. Expectations come from `runScenario` run in the same page.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPlayground, showTab, startServer } from './harness.mjs';

/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

before(async () => { server = await startServer(); browser = await launchBrowser(); });
after(async () => { await browser?.close(); await server?.close(); });

const SEGMENTS = ['system', 'tools', 'memory', 'attachments', 'conversation', 'free'];

/**
 * @typedef {{ kind: string, input: any, round: string, attachments: string[],
 *   request: null | { window: { context: number, free: number, over: number },
 *     byCategory: Record<string, number>, total: number, sources: string[] } }} ExpectedStep
 */

/**
 * The trace of a teaching scenario, replayed by the engine inside the page.
 * @param {import('playwright-core').Page} page
 * @param {string} file
 * @returns {Promise<ExpectedStep[]>}
 */
function expectedTrace(page, file) {
  return page.evaluate(async (name) => {
    const engine = await import('/pkg/context_assembly.js');
    await engine.default();
    const text = await (await fetch(`/web/scenarios/${name}`)).text();
    /** @param {any} block @returns {string[]} */
    const sources = (block) => [block.source, ...(block.parts ?? []).flatMap(sources)];
    return engine.runScenario(text).steps.map((step) => {
      const request = step.turn.request;
      return {
        kind: step.input.kind, input: step.input, round: step.turn.round,
        attachments: step.turn.attachments.map((a) => a.kind),
        request: request == null ? null : {
          window: request.window, byCategory: { ...request.tokens.byCategory }, total: request.tokens.total,
          sources: [...request.system, ...request.userContext, ...request.messages.flatMap((m) => m.content)].flatMap(sources),
        },
      };
    });
  }, file);
}

/**
 * Picks a teaching scenario and waits until the player shows it.
 * @param {import('playwright-core').Page} page
 * @param {string} file
 */
async function pick(page, file) {
  await page.selectOption('#scenario-pick', file);
  await page.waitForSelector(`#scenario-panel[data-loaded="${file}"]`);
}

/**
 * What the page shows for the current step.
 * @param {import('playwright-core').Page} page
 */
function shown(page) {
  return page.evaluate(() => {
    const meter = /** @type {HTMLElement} */ (document.querySelector('#scenario-meter'));
    const segments = [...meter.querySelectorAll('[data-segment]')].map((element) => [
      /** @type {HTMLElement} */ (element).dataset.segment, Number(/** @type {HTMLElement} */ (element).dataset.tokens)]);
    return {
      selected: [...document.querySelectorAll('#scenario-steps [aria-selected="true"]')]
        .map((row) => Number(/** @type {HTMLElement} */ (row).dataset.index)),
      window: meter.dataset.window === undefined ? null : Number(meter.dataset.window),
      over: meter.dataset.over === undefined ? null : Number(meter.dataset.over),
      overMarker: meter.querySelector('.meter-over')?.textContent ?? null,
      caption: document.querySelector('#scenario-meter-caption')?.textContent ?? '',
      segments: Object.fromEntries(segments),
      from: /** @type {HTMLElement} */ (document.querySelector('#scenario-request-note')).dataset.from ?? '',
      attachments: [...document.querySelectorAll('#scenario-turn .attachments [data-kind]')]
        .map((item) => /** @type {HTMLElement} */ (item).dataset.kind ?? ''),
      blockSources: [...document.querySelectorAll('#scenario-request .block[data-source]')]
        .map((block) => /** @type {HTMLElement} */ (block).dataset.source ?? ''),
    };
  });
}

/**
 * Steps forward through every step of a scenario, checking each against the trace, and
 * returns what was shown at each step.
 * @param {import('playwright-core').Page} page
 * @param {string} file
 */
async function stepThrough(page, file) {
  await pick(page, file);
  const expected = await expectedTrace(page, file);
  assert.equal(await page.locator('#scenario-steps li').count(), expected.length, `${file}: one row per step`);
  /** @type {Awaited<ReturnType<typeof shown>>[]} */
  const views = [];
  let latest = -1;
  for (const [index, step] of expected.entries()) {
    if (index > 0) await page.click('#scenario-forward');
    const view = await shown(page);
    views.push(view);
    const where = `${file} step ${index}`;
    assert.deepEqual(view.selected, [index], `${where}: the highlighted row`);
    assert.equal(await page.getAttribute(`#scenario-step-${index}`, 'data-kind'), step.kind, `${where}: the row's kind`);
    if (step.request !== null) latest = index;
    assert.equal(view.from, latest < 0 ? '' : String(latest), `${where}: the request shown is the latest up to this step`);
    assert.deepEqual(view.attachments, step.attachments, `${where}: the step's attachments`);
    if (latest < 0) {
      assert.equal(view.window, null, `${where}: no meter before the first request`);
      assert.equal(view.blockSources.length, 0, `${where}: no request before the first one`);
      continue;
    }
    const request = /** @type {NonNullable<ExpectedStep['request']>} */ (expected[latest]?.request);
    const { context, free, over } = request.window;
    assert.equal(view.window, context, `${where}: data-window`);
    assert.equal(view.over, over, `${where}: data-over`);
    assert.deepEqual(Object.keys(view.segments), SEGMENTS, `${where}: the segments, in order`);
    const sum = Object.values(view.segments).reduce((a, b) => a + b, 0);
    for (const name of SEGMENTS.slice(0, -1)) {
      assert.equal(view.segments[name], request.byCategory[name], `${where}: the ${name} segment`);
    }
    if (over > 0) {
      assert.equal(view.segments.free, 0, `${where}: nothing is free over the window`);
      assert.equal(sum, context + over, `${where}: the segments add up to the window plus the excess`);
      assert.match(view.overMarker ?? '', /over by/, `${where}: the over marker`);
    } else {
      assert.equal(view.segments.free, free, `${where}: the free segment`);
      assert.equal(sum, context, `${where}: the segments add up to the window exactly`);
      assert.equal(view.overMarker, null, `${where}: no over marker`);
    }
    assert.match(view.caption, new RegExp(`^${request.total.toLocaleString('en-US')} / ${context.toLocaleString('en-US')}`),
      `${where}: the caption says total / window`);
  }
  // Forward past the last step stays there.
  assert.equal(await page.isDisabled('#scenario-forward'), true);
  await page.focus('#scenario-steps');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual((await shown(page)).selected, [expected.length - 1]);
  return { expected, views };
}

test('external edit: stepping through every step, the note comes on the last user step', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  // The player is what the page opens on: the Step tab, and the hint names the scenario shown.
  assert.equal(await page.getAttribute('#tab-step', 'aria-selected'), 'true');
  assert.ok(await page.isVisible('#step-panel'));
  assert.match(await page.textContent('#scenario-hint') ?? '', /Try: step through External edit → diff note/);
  await pick(page, 'plan-mode.json');
  assert.match(await page.textContent('#scenario-hint') ?? '', /Plan mode cadence/);
  // Steps are counted from 1, as people count them.
  const count = await page.locator('#scenario-steps li').count();
  assert.equal(await page.textContent('#scenario-position'), `step 1 of ${count}`);
  assert.equal(await page.textContent('#scenario-steps li:first-child .step-index'), '1');
  assert.match(await page.textContent('#scenario-step-title') ?? '', /^Step 1:/);
  const { expected, views } = await stepThrough(page, 'external-edit.json');
  const lastUser = expected.map((step) => step.kind).lastIndexOf('user');
  assert.ok(lastUser > 0);
  views.forEach((view, index) => {
    assert.equal(view.attachments.includes('edited_text_file'), index === lastUser,
      `edited_text_file at step ${index}: ${JSON.stringify(view.attachments)}`);
  });
  assert.ok(views[lastUser]?.blockSources.includes('edited_text_file'), 'the note is a block of that request');
  assert.ok(await page.$(`#scenario-request .block.attachment.freq-event[data-source="edited_text_file"]`),
    'the note is coloured as an event');
  assert.deepEqual(problems, []);
  await page.close();
});

test('nested CLAUDE.md: the nested memory rides along with the tool round after the read', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  const { expected, views } = await stepThrough(page, 'nested-claude-md.json');
  const read = expected.findIndex((step) => step.kind === 'assistant'
    && JSON.stringify(step.input).includes('/project/packages/api/src/handler.ts'));
  assert.ok(read > 0, 'the scenario reads handler.ts');
  assert.equal(expected[read]?.round, 'tool-round');
  assert.ok(views[read]?.attachments.includes('nested_memory'), `nested_memory at step ${read}: ${JSON.stringify(views[read])}`);
  assert.ok(views[read]?.blockSources.includes('nested_memory'), 'a nested_memory block in that request');
  for (const [index, view] of views.entries()) {
    if (index < read) assert.ok(!view.blockSources.includes('nested_memory'), `no nested memory before the read (step ${index})`);
  }
  assert.deepEqual(problems, []);
  await page.close();
});

test('plan mode: a scenario that opens with an event shows no request until the first round', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  const { expected } = await stepThrough(page, 'plan-mode.json');
  assert.equal(expected[0]?.request, null, 'setMode sends no request');
  assert.deepEqual(problems, []);
  await page.close();
});

test('navigation: Back at step 0 stays, rows and keys select, the request of an earlier step is named', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  await pick(page, 'external-edit.json');
  assert.deepEqual((await shown(page)).selected, [0]);
  assert.equal(await page.isDisabled('#scenario-back'), true);
  await page.focus('#scenario-steps');
  await page.keyboard.press('ArrowLeft');
  assert.deepEqual((await shown(page)).selected, [0], 'Back from step 0 stays at 0');
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  assert.deepEqual((await shown(page)).selected, [2]);
  await page.click('#scenario-back');
  assert.deepEqual((await shown(page)).selected, [1]);
  // writeFile (step 4) sends nothing: the note names the step whose request is shown.
  await page.click('#scenario-step-4');
  const view = await shown(page);
  assert.deepEqual(view.selected, [4]);
  // The note counts steps from 1, as the list does.
  assert.match(await page.textContent('#scenario-request-note') ?? '', new RegExp(`step ${Number(view.from) + 1}\\b`));
  assert.ok(Number(view.from) < 4);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a bad scenario shows the engine message in the panel, never on the console', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  await pick(page, 'external-edit.json');
  assert.equal(await page.isHidden('#scenario-error'), true);
  await showTab(page, 'scenario');
  await page.fill('#scenario-json', '{ "steps": [ { "kind": "user", "prompt": "hi" }, { "kind": "dance" } ] }');
  await page.click('#scenario-run');
  assert.equal(await page.isVisible('#scenario-error'), true);
  assert.equal(await page.getAttribute('#scenario-error', 'role'), 'alert');
  assert.match(await page.textContent('#scenario-error') ?? '', /runScenario: .*steps\[1\]/);
  await page.fill('#scenario-json', '{\n  "steps": [\n    { "kind": "user", "prompt": "hi" },,\n  ]\n}');
  await page.click('#scenario-run');
  assert.match(await page.textContent('#scenario-error') ?? '', /runScenario.*line 3 column/);
  // The editor numbers its lines and marks the one the engine names.
  assert.equal(await page.textContent('#scenario-gutter'), '1\n2\n3\n4\n5');
  assert.equal(await page.textContent('#scenario-gutter mark.error-line'), '3');
  assert.match(await page.textContent('#scenario-json-error') ?? '', /line 3, column \d+/);
  // A good scenario clears the message.
  await page.fill('#scenario-json', '{ "steps": [ { "kind": "user", "prompt": "hello" } ] }');
  await page.click('#scenario-run');
  assert.equal(await page.isHidden('#scenario-error'), true);
  assert.equal(await page.locator('#scenario-steps li').count(), 1);
  assert.deepEqual(problems, []);
  await page.close();
});

test('over the window: the meter marks the excess instead of free space', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  await pick(page, 'external-edit.json');
  // Auto-compaction off: otherwise the session compacts the prompt away before the request.
  const scenario = JSON.stringify({ profile: 'claude-code', config: { autoCompact: false }, steps: [{ kind: 'user', prompt: 'x '.repeat(420000) }] });
  await page.$eval('#scenario-json', (area, text) => { /** @type {HTMLTextAreaElement} */ (area).value = text; }, scenario);
  await page.click('#scenario-run');
  const window = await page.evaluate(async (text) => {
    const engine = await import('/pkg/context_assembly.js');
    await engine.default();
    return engine.runScenario(text).steps[0]?.turn.request?.window;
  }, scenario);
  assert.ok(window !== undefined && window.over > 0, `the prompt does not fit: ${JSON.stringify(window)}`);
  const view = await shown(page);
  assert.equal(view.segments.free, 0);
  assert.equal(Object.values(view.segments).reduce((a, b) => a + b, 0), window.context + window.over);
  assert.equal(view.window, window.context);
  assert.equal(view.over, window.over);
  assert.equal(view.overMarker, `over by ${window.over.toLocaleString('en-US')}`);
  assert.match(view.caption, /over the window by/);
  assert.deepEqual(problems, []);
  await page.close();
});

test('the profile picker replays the same steps under another profile', async () => {
  const { page, problems } = await openPlayground(browser.context, server.url);
  await page.selectOption('#scenario-pick', 'external-edit.json');
  await page.waitForSelector('#scenario-panel[data-loaded="external-edit.json"]');
  const last = await page.$$eval('#scenario-steps li', (rows) => rows.length - 1);
  const notesAt = async () => {
    await page.click(`#scenario-step-${last}`);
    return page.$$eval('#scenario-turn li[data-kind="edited_text_file"]', (items) => items.length);
  };
  // claude-code (as written) watches only the file the agent edited (Q31) …
  assert.equal(await notesAt(), 1);
  // … recommended also watches the file it only read.
  await page.selectOption('#scenario-profile', 'recommended');
  assert.equal(await notesAt(), 2);
  // The threshold mark follows the profile's formula: Claude Code's 200K − 20K − 13K, Codex's 90 %.
  assert.equal(await page.getAttribute('#scenario-meter', 'data-autocompact'), '167000');
  assert.ok(await page.$('#scenario-meter [data-threshold="autocompact"]'));
  await page.selectOption('#scenario-profile', 'codex');
  assert.equal(await page.getAttribute('#scenario-meter', 'data-autocompact'), '180000');
  await page.selectOption('#scenario-profile', '');
  assert.equal(await notesAt(), 1);
  assert.deepEqual(problems, []);
  await page.close();
});
