// Keystroke latency of the package's CodeMirror prompt editor against plain CodeMirror, in
// the same Chromium run (tests/bench/editor.html), at 50,000 paths searched in the Worker; and
// the Worker's per-keystroke search figures. Prints figures; asserts nothing.
//
//   node tests/bench/editor.mjs            # 1,200 keystrokes into each editor
//   KEYS=3000 node tests/bench/editor.mjs
import { launchBrowser, startServer } from '../browser/harness.mjs';

const KEYS = Number(process.env.KEYS ?? 1200);
const BLOCK = 100;
const PROMPT = 'please review @packages/pkg7/src/hooks/file4907.ts and @agent-reviewer, then compare it with @"docs/design notes.md" before you ';

/** @param {number[]} values @param {number} q */
function quantile(values, q) {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(q * sorted.length))];
}
const ms = (/** @type {number} */ value) => value.toFixed(2);

const server = await startServer();
const browser = await launchBrowser();
try {
  const page = await browser.context.newPage();
  page.on('pageerror', (error) => console.error(`uncaught: ${error.message}`));
  await page.goto(`${server.url}/tests/bench/editor.html`);
  await page.waitForSelector('body[data-ready="true"]', { timeout: 120000 });
  // Blocks of keystrokes into each editor in turn, so that drift in the machine's load falls
  // on both alike.
  let typed = 0;
  while (typed < KEYS) {
    const text = PROMPT.repeat(Math.ceil((typed + BLOCK) / PROMPT.length)).slice(typed, typed + BLOCK);
    for (const editor of ['plain', 'ours']) {
      await page.click(`#${editor} .cm-content`);
      await page.keyboard.press('End');
      await page.keyboard.type(text, { delay: 25 });
      await page.keyboard.press('Escape');
    }
    typed += BLOCK;
  }
  await page.waitForTimeout(200);
  const times = await page.evaluate(() => {
    const { plain, ours } = /** @type {any} */ (globalThis).bench;
    return { plain: plain.times, ours: ours.times };
  });
  console.log(`\n## Keystroke latency: the prompt editor (claude-code: highlighting, @ completion over 50,000 paths in the Worker, the meter) against plain CodeMirror, ${times.ours.frame.length} and ${times.plain.frame.length} keystrokes\n`);
  console.log('| editor | keydown to update p50 | p95 | keydown to frame p50 | p95 |');
  console.log('|---|--:|--:|--:|--:|');
  for (const name of /** @type {const} */ (['plain', 'ours'])) {
    const { handled, frame } = times[name];
    console.log(`| ${name === 'plain' ? 'plain CodeMirror' : 'context-assembly/codemirror'} | ${ms(quantile(handled, 0.5))} ms | ${ms(quantile(handled, 0.95))} ms | ${ms(quantile(frame, 0.5))} ms | ${ms(quantile(frame, 0.95))} ms |`);
  }
  const difference = quantile(times.ours.frame, 0.95) - quantile(times.plain.frame, 0.95);
  console.log(`\nkeydown to frame, p95: ${difference >= 0 ? '+' : ''}${ms(difference)} ms against plain CodeMirror (goal: within 2 ms)`);

  const queries = [];
  for (const word of ['file4907', 'pkg7 hooks', 'src/utils/file12', 'packages/pkg99/src/tests/file49999']) {
    for (let i = 1; i <= word.length; i += 1) queries.push(word.slice(0, i));
  }
  const search = await page.evaluate((list) => /** @type {any} */ (globalThis).bench.searchFigures(list), queries);
  console.log(`\n## @ search at 50,000 paths, ${queries.length} keystrokes (typed on, one character at a time)\n`);
  console.log('| how | p50 | p95 | max |');
  console.log('|---|--:|--:|--:|');
  console.log(`| engine.createFileSearcher(paths): the paths cross once | ${ms(search.createMs)} ms | | |`);
  for (const [name, values] of /** @type {const} */ ([
    ['searcher.search through the Worker (a round trip per keystroke)', search.worker],
    ['FileSearcher.search on the main thread (lite module)', search.local],
    ['engine.searchPaths through the Worker (the paths cross every call; 5 calls)', search.again],
  ])) {
    console.log(`| ${name} | ${ms(quantile(values, 0.5))} ms | ${ms(quantile(values, 0.95))} ms | ${ms(Math.max(...values))} ms |`);
  }
} finally {
  await browser.close();
  await server.close();
}
