// The packed package in headless Chromium, served from a temporary project: the browser entry
// with init(), an esbuild bundle of it, the Worker API (cancellation of a long compareProfiles,
// a real trap, recovery, misuse), and the README's browser examples.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { copyFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { launchBrowser, startServer } from '../browser/harness.mjs';
import { esbuild, installedProject, readmeExamples } from './project.mjs';
import { MISUSES, expected } from './worker-misuse.mjs';

/** @type {ReturnType<typeof installedProject>} */ let project;
/** @type {Awaited<ReturnType<typeof startServer>>} */ let server;
/** @type {Awaited<ReturnType<typeof launchBrowser>>} */ let browser;

// What a page without a bundler writes to use bare specifiers.
const IMPORT_MAP = JSON.stringify({
  imports: {
    'context-assembly': '/node_modules/context-assembly/index.js',
    'context-assembly/worker': '/node_modules/context-assembly/worker.js',
  },
});

/**
 * A page of the project (no favicon request, so no 404 in the console).
 * @param {string} head
 */
const html = (head) => `<!doctype html><meta charset="utf-8"><link rel="icon" href="data:,">${head}<body></body>\n`;

before(async () => {
  project = installedProject();
  writeFileSync(join(project.dir, 'index.html'), html(`<script type="importmap">${IMPORT_MAP}</script>`));
  server = await startServer(project.dir);
  browser = await launchBrowser();
});
after(async () => { await browser?.close(); await server?.close(); project?.remove(); });

/**
 * Opens `path` and fails on any console error or uncaught exception.
 * @param {string} path
 */
async function open(path) {
  const page = await browser.context.newPage();
  /** @type {string[]} */
  const problems = [];
  page.on('console', (message) => { if (message.type() === 'error') problems.push(`console: ${message.text()}`); });
  page.on('pageerror', (error) => problems.push(`uncaught: ${error.message}`));
  await page.goto(`${server.url}${path}`);
  return { page, problems };
}

/**
 * Runs module code in a page of the project and returns `document.body.dataset.result`.
 * @param {string} name
 * @param {string} code
 */
async function runModule(name, code) {
  writeFileSync(join(project.dir, `${name}.js`), `${code}\ndocument.body.dataset.result = 'done';\n`);
  writeFileSync(join(project.dir, `${name}.html`), html(`<script type="importmap">${IMPORT_MAP}</script><script type="module" src="./${name}.js"></script>`));
  const { page, problems } = await open(`/${name}.html`);
  // A module that throws leaves no result: the wait ends, and `problems` says why.
  await page.waitForFunction(() => document.body.dataset.result !== undefined, undefined, { timeout: 60000 }).catch(() => {});
  const result = await page.evaluate(() => document.body.dataset.result);
  await page.close();
  assert.deepEqual(problems, []);
  assert.equal(result, 'done');
}

test('the browser entry: init() fetches the .wasm beside the module', async () => {
  await runModule('web-entry', `
    import init, { estimateTokens, Session } from 'context-assembly';
    await init();
    const session = new Session({ cwd: '/p' });
    session.writeFile('a.txt', new Uint8Array([104, 105]), 1);
    if (session.readFileText('a.txt') !== 'hi' || estimateTokens('hello', { method: 'codex' }) !== 2) throw new Error('wrong answers');
    session.free();`);
});

test('the browser entry: a session loads the session module only, the tools load on first use', async () => {
  await runModule('tools-on-first-use', `
    import init, { compareProfiles, redactScenario, runScenario, Session } from 'context-assembly';
    const fetched = () => performance.getEntriesByType('resource').map((entry) => entry.name.split('/').pop()).filter((name) => name.endsWith('.wasm'));
    await init();
    const session = new Session({ cwd: '/p' });
    session.submit('hello', 1);
    session.free();
    const scenario = { profile: 'recommended', steps: [{ kind: 'user', prompt: 'hello' }] };
    runScenario(scenario);
    const before = fetched();
    if (JSON.stringify(before) !== '["context_assembly_bg.wasm"]') throw new Error('before a tool: ' + before);
    const [comparison, redaction] = await Promise.all([compareProfiles(scenario, ['codex']), redactScenario(scenario)]);
    if (!(comparison.codex.steps.length >= 1) || typeof redaction.scenarioJson !== 'string') throw new Error('wrong answers');
    const after = fetched();
    if (JSON.stringify(after) !== '["context_assembly_bg.wasm","context_assembly_tools_bg.wasm"]') throw new Error('after the tools: ' + after);`);
});

test('the browser entry before init(): an Error that says so, then the same calls work', async () => {
  await runModule('before-init', `
    import init, { estimateTokens, Session } from 'context-assembly';
    const says = (call) => { try { call(); } catch (error) { return error instanceof Error ? error.message : 'not an Error'; } return 'no throw'; };
    const before = [says(() => estimateTokens('hello')), says(() => new Session({ cwd: '/p' }))];
    const expected = ['estimateTokens', 'new Session'].map((what) => what + ': the engine is not initialised');
    if (!before.every((message, i) => message.startsWith(expected[i]))) throw new Error(JSON.stringify(before));
    await init();
    if (estimateTokens('hello', { method: 'codex' }) !== 2) throw new Error('no answer after init');`);
});

test('a bundle without the worker script: createWorkerEngine() names the URL it tried and the option', async () => {
  writeFileSync(join(project.dir, 'no-worker.js'), `
    import { createWorkerEngine } from 'context-assembly/worker';
    document.body.dataset.result = await createWorkerEngine().then(() => 'started', (error) => error.message);\n`);
  esbuild(project.dir, 'no-worker.js', ['--outdir=dist-no-worker']);
  writeFileSync(join(project.dir, 'dist-no-worker/index.html'), html('<script type="module" src="./no-worker.js"></script>'));
  const { page, problems } = await open('/dist-no-worker/index.html');
  await page.waitForFunction(() => document.body.dataset.result !== undefined, undefined, { timeout: 60000 });
  const message = await page.evaluate(() => document.body.dataset.result);
  await page.close();
  assert.match(String(message), /^context-assembly: the worker could not start the engine: the worker script http:\/\/127\.0\.0\.1:\d+\/dist-no-worker\/worker-thread\.js \(the package's default; a bundler that did not emit it needs the option workerUrl/);
  // The browser reports the failed fetch itself; nothing else went wrong.
  assert.ok(problems.every((problem) => /404|Failed to load/.test(problem)), problems.join('\n'));
});

test("the README's browser and esbuild examples run in Chromium", async () => {
  const examples = readmeExamples(project.dir).filter((example) => example.kind === 'js browser' || example.kind === 'js esbuild');
  assert.ok(examples.length >= 3, `found ${examples.length} browser examples`);
  for (const [index, example] of examples.entries()) {
    if (example.kind === 'js browser') {
      await runModule(`readme-${index}`, example.code);
      continue;
    }
    // The bundle, its hashed .wasm and the worker script's bundle beside it, and a page that
    // loads only the bundle.
    writeFileSync(join(project.dir, `app-${index}.js`), `${example.code}\ndocument.body.dataset.result = 'done';\n`);
    esbuild(project.dir, `app-${index}.js`, ['worker=context-assembly/worker-thread', '--loader:.wasm=file', `--outdir=dist-${index}`]);
    mkdirSync(join(project.dir, `dist-${index}`), { recursive: true });
    writeFileSync(join(project.dir, `dist-${index}/index.html`), html(`<script type="module" src="./app-${index}.js"></script>`));
    const { page, problems } = await open(`/dist-${index}/index.html`);
    await page.waitForFunction(() => document.body.dataset.result !== undefined, undefined, { timeout: 60000 });
    assert.equal(await page.evaluate(() => document.body.dataset.result), 'done');
    assert.deepEqual(problems, []);
    await page.close();
  }
});

test('the Worker in Chromium cancels a long compareProfiles and survives a trap', async () => {
  const { page, problems } = await open('/index.html');
  const outcome = await page.evaluate(async () => {
    /** @type {any} */
    const { createWorkerEngine } = await import(/** @type {string} */ ('context-assembly/worker'));
    /** @type {string[]} */
    const replaced = [];
    const engine = await createWorkerEngine({ onEvent: (/** @type {any} */ event) => { if (event.type === 'replaced') replaced.push(event.reason); } });
    const session = await engine.createSession({ cwd: '/p' });
    const bytes = new TextEncoder().encode('hello');
    await session.with({ transfer: [bytes.buffer] }).writeFile('a.txt', bytes, 1);
    const transferred = bytes.byteLength === 0 && (await session.readFileText('a.txt')) === 'hello';

    const files = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`src/f${i}.ts`, `export const v${i} = ${i};\n`.repeat(200)]));
    const steps = Array.from({ length: 1500 }, (_, i) => [
      { kind: 'user', prompt: `step ${i}: look at @src/f${i % 50}.ts` },
      { kind: 'assistant', blocks: [{ type: 'text', text: `done ${i} `.repeat(40) }] },
    ]).flat();
    const controller = new AbortController();
    let startedAt = 0;
    const comparing = engine.with({
      signal: controller.signal,
      onEvent: (/** @type {any} */ event) => { if (event.type === 'started') { startedAt = performance.now(); setTimeout(() => controller.abort(), 200); } },
    }).compareProfiles({ profile: 'claude-code', files, steps }, ['claude-code', 'codex', 'recommended']);
    const cancelled = await comparing.then(() => 'finished', (/** @type {any} */ error) => `${error.name}`);
    const cancelMs = performance.now() - startedAt;
    const deadSession = await session.fileState().then(() => 'alive', (/** @type {Error} */ error) => error.message);
    const trap = await engine.trapForTesting().then(() => 'no trap', (/** @type {Error} */ error) => `${error.constructor.name}: ${error.message}`);
    const after = await engine.estimateTokens('hello', { method: 'codex' });
    engine.terminate();
    return { transferred, cancelled, cancelMs, deadSession, trap, after, replaced };
  });
  await page.close();
  assert.deepEqual(problems, []);
  assert.equal(outcome.transferred, true);
  assert.equal(outcome.cancelled, 'AbortError');
  assert.ok(outcome.cancelMs < 3000, `cancelled after ${outcome.cancelMs} ms`);
  assert.match(outcome.deadSession, /this Session lived in a worker that was replaced \(compareProfiles was cancelled\)/);
  assert.match(outcome.trap, /^Error: trapForTesting: the engine trapped/);
  assert.equal(outcome.after, 2);
  assert.deepEqual(outcome.replaced, ['compareProfiles was cancelled', 'trapForTesting trapped']);
});

test('the Worker in Chromium under misuse: every bad call rejects with an Error naming what was wrong (an AbortError when aborted), and a good call follows', async () => {
  copyFileSync(resolve(import.meta.dirname, 'worker-misuse.mjs'), join(project.dir, 'worker-misuse.mjs'));
  const { page, problems } = await open('/index.html');
  const outcomes = await page.evaluate(async (names) => {
    /** @type {any} */
    const { createWorkerEngine } = await import(/** @type {string} */ ('context-assembly/worker'));
    /** @type {any} */
    const { MISUSES: misuses, outcome } = await import(/** @type {string} */ ('/worker-misuse.mjs'));
    /** @type {Record<string, unknown>} */
    const seen = {};
    for (const name of names) {
      const engine = await createWorkerEngine(misuses[name].options);
      // A call that never settles shows as `pending` after the guard, rather than hanging the test.
      seen[name] = await outcome(engine, name, 10000);
      engine.terminate();
    }
    return seen;
  }, Object.keys(MISUSES));
  await page.close();
  assert.deepEqual(problems, []);
  for (const name of /** @type {(keyof typeof MISUSES)[]} */ (Object.keys(MISUSES))) {
    assert.deepEqual(outcomes[name], { settled: 'rejected', bad: expected[name], good: 2 }, name);
  }
});
