// The packed package installed into a temporary project and used as an embedder would from
// Node: ESM, CommonJS, an esbuild bundle, `tsc --strict` over a consumer, the Worker API under
// worker_threads (cancellation, a real trap, recovery, misuse), and the README's Node examples.
import { after, before, test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { copyFileSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { BIN, ROOT, esbuild, installedProject, readmeExamples, runInProject } from './project.mjs';
import { MISUSES, expected } from './worker-misuse.mjs';

/** @type {ReturnType<typeof installedProject>} */ let project;

before(() => { project = installedProject(); });
after(() => project?.remove());

test('the package carries its version, licences, changelog and every entry', () => {
  const crate = readFileSync(resolve(ROOT, 'crate/Cargo.toml'), 'utf8').match(/^version = "(.*)"$/m)?.[1];
  const manifest = JSON.parse(readFileSync(join(project.dir, 'node_modules/context-assembly/package.json'), 'utf8'));
  assert.equal(manifest.version, crate);
  assert.equal(manifest.license, 'MIT OR Apache-2.0');
  assert.deepEqual(Object.keys(manifest.exports), ['.', './worker', './worker-thread', './codemirror', './lite', './lite/wasm', './wasm', './tools/wasm', './package.json']);
  for (const [entry, conditions] of Object.entries(manifest.exports)) {
    if (entry !== './package.json') assert.ok('types' in conditions, `${entry} has types`);
  }
  const files = project.packed.files.map((file) => file.path);
  for (const file of ['LICENSE-MIT', 'LICENSE-APACHE', 'CHANGELOG.md', 'README.md', 'context_assembly_bg.wasm', 'index.js', 'index.d.ts', 'tools-loader.js', 'tools/context_assembly_tools_bg.wasm', 'tools/context_assembly_tools.js', 'node.js', 'worker.js', 'worker.d.ts', 'worker-thread.d.ts', 'wasm.d.ts', 'codemirror.js', 'codemirror.d.ts', 'lite/node.js', 'lite/context_assembly_lite_bg.wasm', 'lite/context_assembly_lite.d.ts']) {
    assert.ok(files.includes(file), `the tarball holds ${file}`);
  }
  assert.ok(!files.some((file) => file.endsWith('.mjs') || file.startsWith('entries/')), 'no build script in the tarball');
});

test('the package documents itself: the editor guide is its README, and it names no repository it does not have', () => {
  const manifest = JSON.parse(readFileSync(join(project.dir, 'node_modules/context-assembly/package.json'), 'utf8'));
  assert.equal(manifest.repository, undefined);
  assert.deepEqual(Object.keys(manifest.peerDependencies).sort(), ['@codemirror/autocomplete', '@codemirror/state', '@codemirror/view']);
  assert.ok(Object.values(manifest.peerDependenciesMeta).every((meta) => /** @type {any} */ (meta).optional === true));
  const readme = readFileSync(join(project.dir, 'node_modules/context-assembly/README.md'), 'utf8');
  assert.doesNotMatch(readme, /the project's README|example\.invalid/);
  for (const heading of ['Install', 'Init per runtime', 'The Worker', 'The lite module', 'A prompt editor in CodeMirror', 'Three modules: the session engine, the tools on first use, the lite engines', 'Memory and `free()`', 'The error contract', 'Versioning']) {
    assert.ok(readme.includes(`\n### ${heading}\n`), `the guide has "${heading}"`);
  }
  for (const name of ['context-assembly/lite', 'FileSearcher', 'extractMentionSpans', 'mentionKinds', 'atToken', 'completionInsertion', 'createFileSearcher', 'workerUrl', 'promptEditor', 'loadTools', 'toolsWasm']) {
    assert.ok(readme.includes(name), `the guide names ${name}`);
  }
});

test('Node ESM: ready on import, and init() is harmless', () => {
  const out = runInProject(project.dir, 'esm.mjs', `
    import init, { estimateTokens, Session } from 'context-assembly';
    await init();
    const session = new Session({ cwd: '/p' });
    session.writeFile('a.txt', new Uint8Array([104, 105]), 1);
    console.log(estimateTokens('hello', { method: 'codex' }), session.readFileText('a.txt'));
    session.free();`);
  assert.equal(out.trim(), '2 hi');
});

test('the lite entry: the per-keystroke engines, ready on import, and no Session', () => {
  const out = runInProject(project.dir, 'lite.mjs', `
    import * as lite from 'context-assembly/lite';
    import * as full from 'context-assembly';
    const text = 'fix @src/a.ts and @"b c.md"';
    const same = JSON.stringify(lite.extractMentions(text)) === JSON.stringify(full.extractMentions(text));
    const found = lite.searchPaths(['src/', 'src/app.ts', 'docs/readme.md'], 'app').matches.map((m) => m.path);
    console.log(same, found.join(','), lite.version() === full.version(), typeof lite.Session, lite.atToken('x @s', 4).query);`);
  assert.equal(out.trim(), 'true src/app.ts true undefined s');
});

test('Node: the tools answer with a Promise, loading their module on first use; the list matches the module', () => {
  const out = runInProject(project.dir, 'tools.mjs', `
    import { compareProfiles, importSession, loadTools, redactScenario, compactScenario, runScenario } from 'context-assembly';
    const scenario = { profile: 'recommended', steps: [{ kind: 'user', prompt: 'hello' }] };
    const pending = compareProfiles(scenario, ['codex']);
    const comparison = await pending;
    const redaction = await redactScenario(scenario);
    const preview = await compactScenario(scenario, { policy: 'claude-code.full' });
    const refused = await importSession('not a log').then(() => false, (error) => error instanceof Error && error.message.startsWith('importSession'));
    const tools = await loadTools();
    console.log(pending instanceof Promise, comparison.codex.steps.length, typeof redaction.scenarioJson, typeof preview, refused, typeof tools.SessionImport, runScenario(scenario).steps.length);`);
  assert.equal(out.trim(), 'true 1 string object true function 1');
});

test('Node: loadTools takes the tools module as a file path', () => {
  const out = runInProject(project.dir, 'tools-file.mjs', `
    import { createRequire } from 'node:module';
    import { loadTools, redactScenario } from 'context-assembly';
    const file = createRequire(import.meta.url).resolve('context-assembly/tools/wasm');
    const tools = await loadTools(file);
    console.log(typeof tools.SessionImport, typeof (await redactScenario({ steps: [] })).scenarioJson);`);
  assert.equal(out.trim(), 'function string');
});

test('Node CommonJS: require() gives the ready engine', () => {
  const out = runInProject(project.dir, 'cjs.cjs', `
    const { extractMentions } = require('context-assembly');
    console.log(extractMentions('see @src/a.ts').files[0].path);`);
  assert.equal(out.trim(), 'src/a.ts');
});

test('esbuild for Node: the bundle keeps the instantiation and finds the .wasm beside it', () => {
  writeFileSync(join(project.dir, 'node-app.js'), "import { estimateTokens } from 'context-assembly';\nconsole.log(estimateTokens('hello', { method: 'codex' }));\n");
  esbuild(project.dir, 'node-app.js', ['--platform=node', '--outfile=dist-node/app.mjs']);
  copyFileSync(join(project.dir, 'node_modules/context-assembly/context_assembly_bg.wasm'), join(project.dir, 'dist-node/context_assembly_bg.wasm'));
  assert.equal(execFileSync(process.execPath, ['dist-node/app.mjs'], { cwd: project.dir, encoding: 'utf8' }).trim(), '2');
});

test('tsc --strict accepts a consumer and rejects wrong calls', () => {
  copyFileSync(resolve(import.meta.dirname, 'consumer.ts'), join(project.dir, 'consumer.ts'));
  writeFileSync(join(project.dir, 'tsconfig.json'), JSON.stringify({
    compilerOptions: { strict: true, noEmit: true, module: 'nodenext', moduleResolution: 'nodenext', target: 'es2022',
      lib: ['es2022', 'dom', 'esnext.disposable'], types: [], skipLibCheck: false },
    files: ['consumer.ts'],
  }));
  execFileSync(join(BIN, 'tsc'), ['-p', 'tsconfig.json'], { cwd: project.dir, stdio: ['ignore', 'pipe', 'pipe'] });
});

test('the Worker under worker_threads: calls, sessions, transfers, events, errors', async () => {
  const { createWorkerEngine } = await import(join(project.dir, 'node_modules/context-assembly/worker-node.js'));
  /** @type {import('../../target/npm/worker.js').WorkerEvent[]} */
  const events = [];
  const engine = await createWorkerEngine({ onEvent: (/** @type {any} */ event) => events.push(event) });
  try {
    assert.equal(await engine.estimateTokens('hello', { method: 'codex' }), 2);
    const session = await engine.createSession({ profile: 'claude-code', cwd: '/p' });
    const bytes = new TextEncoder().encode('let a = 1;\n');
    await session.with({ transfer: [bytes.buffer] }).writeFile('a.ts', bytes, 1);
    assert.equal(bytes.byteLength, 0, 'the buffer moved into the worker');
    const turn = await session.submit('look at @a.ts', 2);
    assert.equal(turn.attachments[0].path, '/p/a.ts');
    await assert.rejects(engine.extractMentions(42), { name: 'Error', message: 'extractMentions: argument `text` must be a string, got number' });
    assert.equal((await session.fileState()).length, 1, 'a failed call leaves the session usable');
    await session.free();
    await session.free();
    await assert.rejects(session.fileState(), /this Session was freed/);
    assert.deepEqual(events.slice(0, 2).map((event) => event.type), ['started', 'finished']);

    // Search in the worker: the paths cross once, each query alone, the answers the main thread's.
    assert.equal(engine.FileSearcher, undefined, 'a class is not a function over the Worker');
    const { FileSearcher } = await import(join(project.dir, 'node_modules/context-assembly/lite/node.js'));
    const paths = Array.from({ length: 3000 }, (_, i) => `src/😀/m${i % 40}/file${i}.ts`);
    const searcher = await engine.createFileSearcher(paths);
    const local = new FileSearcher(paths);
    for (const query of ['', 'f', 'fi', 'file', 'file12', 'm3 file', '!m3']) {
      assert.deepEqual(await searcher.search(query, { limit: 7 }), local.search(query, { limit: 7 }), query);
    }
    await searcher.free();
    await searcher.free();
    await assert.rejects(searcher.search('f'), /this FileSearcher was freed/);
    local.free();
    await assert.rejects(engine.createFileSearcher('src/a.ts'), /^Error: new FileSearcher: argument `paths` must be an array/);
  } finally {
    engine.terminate();
  }
  await assert.rejects(engine.profileNames(), /the engine was terminated/);
});

test('the Worker reports progress as calls run, and restores a snapshot as a worker Session', async () => {
  const { createWorkerEngine } = await import(join(project.dir, 'node_modules/context-assembly/worker-node.js'));
  const engine = await createWorkerEngine();
  try {
    const scenario = { profile: 'claude-code', files: { 'a.ts': 'a\n' }, steps: [{ kind: 'user', prompt: '@a.ts' }, { kind: 'user', prompt: 'again' }] };
    /** @type {number[][]} */
    const seen = [];
    const comparison = await engine.compareProfiles(scenario, ['claude-code', 'codex'], { onProgress: (/** @type {number} */ done, /** @type {number} */ total) => seen.push([done, total]) });
    assert.deepEqual(seen, [[1, 4], [2, 4], [3, 4], [4, 4]]);
    assert.deepEqual(Object.keys(comparison), ['claude-code', 'codex']);
    // An import reports the bytes read: a 1.5 MiB log, one report per MiB and one at the end.
    const prompt = JSON.stringify({ type: 'user', message: { role: 'user', content: 'x'.repeat(1.5 * 1024 * 1024) }, uuid: 'u1', parentUuid: null, sessionId: 's', timestamp: '2026-01-01T00:00:00Z', cwd: '/p' });
    /** @type {number[][]} */
    const read = [];
    const imported = await engine.importSession(`${prompt}\n`, { onProgress: (/** @type {number} */ done, /** @type {number} */ total) => read.push([done, total]) });
    const bytes = Buffer.byteLength(prompt) + 1;
    assert.deepEqual(read, [[1048576, bytes], [bytes, bytes]]);
    assert.equal(imported.format, 'claude-code');
    const session = await engine.createSession({ profile: 'claude-code', cwd: '/p' });
    await session.writeFile('a.ts', 'a\n', 1);
    await session.submit('look at @a.ts', 2);
    const restored = await engine.Session.restore(await session.snapshot());
    assert.deepEqual(await restored.submit('and now?', 3), await session.submit('and now?', 3));
  } finally {
    engine.terminate();
  }
});

/** A comparison that runs for many seconds: 2 × 1,500 steps over 50 files, three profiles. */
function longScenario() {
  const files = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`src/f${i}.ts`, `export const v${i} = ${i};\n`.repeat(200)]));
  const steps = Array.from({ length: 1500 }, (_, i) => [
    { kind: 'user', prompt: `step ${i}: look at @src/f${i % 50}.ts` },
    { kind: 'assistant', blocks: [{ type: 'text', text: `done ${i} `.repeat(40) }] },
  ]).flat();
  return { profile: 'claude-code', files, steps };
}

test('the Worker cancels a long compareProfiles and survives a trap', async () => {
  const { createWorkerEngine } = await import(join(project.dir, 'node_modules/context-assembly/worker-node.js'));
  /** @type {string[]} */
  const replaced = [];
  const engine = await createWorkerEngine({ onEvent: (/** @type {any} */ event) => { if (event.type === 'replaced') replaced.push(event.reason); } });
  try {
    const session = await engine.createSession({ cwd: '/p' });
    const controller = new AbortController();
    let startedAt = 0;
    const comparing = engine.with({
      signal: controller.signal,
      onEvent: (/** @type {any} */ event) => {
        if (event.type === 'started') { startedAt = performance.now(); setTimeout(() => controller.abort(), 200); }
      },
    }).compareProfiles(longScenario(), ['claude-code', 'codex', 'recommended']);
    const queued = engine.profileNames();
    await assert.rejects(comparing, { name: 'AbortError' });
    assert.ok(performance.now() - startedAt < 3000, 'cancelled promptly, long before the comparison could end');
    await assert.rejects(queued, /profileNames: the worker was replaced while this call was in it \(compareProfiles was cancelled\)/);
    await assert.rejects(session.fileState(), /fileState: this Session lived in a worker that was replaced \(compareProfiles was cancelled\)/);

    await assert.rejects(engine.trapForTesting(), (/** @type {Error} */ error) => {
      assert.ok(error instanceof Error && !(error instanceof WebAssembly.RuntimeError));
      assert.match(error.message, /trapForTesting: the engine trapped \(unreachable\).*later calls work/);
      return true;
    });
    assert.equal(await engine.estimateTokens('hello', { method: 'codex' }), 2, 'a fresh worker answers');
    const fresh = await engine.createSession({ cwd: '/p' });
    assert.deepEqual(await fresh.fileState(), []);
    assert.deepEqual(replaced, ['compareProfiles was cancelled', 'trapForTesting trapped']);
    await assert.rejects(engine.with({ signal: AbortSignal.abort() }).profileNames(), { name: 'AbortError' });
    assert.equal(replaced.length, 2, 'an already aborted signal costs no worker');
  } finally {
    engine.terminate();
  }
});

test('the Worker under misuse: every bad call rejects with an Error naming what was wrong (an AbortError when aborted), a good call follows, and Node ends by itself', () => {
  copyFileSync(resolve(import.meta.dirname, 'worker-misuse.mjs'), join(project.dir, 'worker-misuse.mjs'));
  // No terminate(): the process must end by itself once its work is done.
  writeFileSync(join(project.dir, 'misuse.mjs'), `
    import { createWorkerEngine } from 'context-assembly/worker';
    import { MISUSES, outcome } from './worker-misuse.mjs';
    const name = process.argv[2];
    const engine = await createWorkerEngine(MISUSES[name].options);
    console.log(JSON.stringify(await outcome(engine, name, 10000)));`);
  for (const name of /** @type {(keyof typeof MISUSES)[]} */ (Object.keys(MISUSES))) {
    let printed = '';
    try {
      // The timeout is a guard for a process that would never end, not a measurement.
      printed = execFileSync(process.execPath, ['misuse.mjs', name], { cwd: project.dir, encoding: 'utf8', timeout: 60000, stdio: ['ignore', 'pipe', 'pipe'] });
    } catch (error) {
      const { signal, status, stderr } = /** @type {{ signal: string | null, status: number | null, stderr: string }} */ (error);
      assert.fail(`${name}: the process did not end by itself (${signal === null ? `exit code ${status}` : `still running after 60 s, killed`}): ${stderr}`);
    }
    assert.deepEqual(JSON.parse(printed), { settled: 'rejected', bad: expected[name], good: 2 }, name);
  }
});

test('a worker that cannot start fails its calls instead of restarting forever', async () => {
  const { createWorkerEngine } = await import(join(project.dir, 'node_modules/context-assembly/worker-node.js'));
  await assert.rejects(createWorkerEngine({ wasm: new Uint8Array([0, 97, 115, 109]) }), /the worker could not start the engine: /);
});

test("the README's Node examples run against the installed package", () => {
  const examples = readmeExamples(project.dir).filter((example) => example.kind === 'js' || example.kind === 'js cjs');
  assert.ok(examples.length >= 4, `found ${examples.length} Node examples`);
  examples.forEach((example, index) => {
    runInProject(project.dir, `readme-${index}.${example.kind === 'js cjs' ? 'cjs' : 'mjs'}`, example.code);
  });
});
