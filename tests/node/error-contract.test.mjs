// The error contract outside bad arguments, in the three modules: a call before the module is
// initialised, or on a freed object, throws an `Error` that says so (the wasm-bindgen glue
// alone throws "Cannot read properties of undefined" and "null pointer passed to rust"), and
// `free()` and `[Symbol.dispose]()` may be called again (the glue alone throws). The guards are
// crate/wasm/npm/guard-glue.mjs's, appended to the glue by `make pkg`.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { engine } from './engine.mjs';
import * as lite from '../../pkg/lite/context_assembly_lite.js';

const ROOT = resolve(import.meta.dirname, '../..');
lite.initSync({ module: readFileSync(resolve(ROOT, 'pkg/lite/context_assembly_lite_bg.wasm')) });

/** An instance of a module nobody initialised (a URL of its own is a module of its own). */
async function uninitialised(/** @type {string} */ path, /** @type {string} */ tag) {
  return import(`../../${path}?${tag}`);
}

test('a call before init() throws an Error saying the engine is not initialised', async () => {
  const full = await uninitialised('pkg/context_assembly.js', 'before-init');
  const notReady = (/** @type {string} */ what) => (/** @type {unknown} */ error) => error instanceof Error
    && error.message.startsWith(`${what}: the engine is not initialised: await init()`);
  assert.throws(() => full.extractMentions('see @a.ts'), notReady('extractMentions'));
  assert.throws(() => full.estimateTokens('hello'), notReady('estimateTokens'));
  assert.throws(() => new full.Session({ cwd: '/p' }), notReady('new Session'));
  assert.throws(() => full.Session.restore('{}'), notReady('Session.restore'));
  assert.throws(() => new full.FileSearcher(['a']), notReady('new FileSearcher'));
  const tools = await uninitialised('pkg/tools/context_assembly_tools.js', 'before-init');
  assert.throws(() => new tools.SessionImport(), notReady('new SessionImport'));
  assert.throws(() => tools.redactScenario('{}'), notReady('redactScenario'));
  const small = await uninitialised('pkg/lite/context_assembly_lite.js', 'before-init');
  assert.throws(() => small.searchPaths(['a'], 'a'), notReady('searchPaths'));
  assert.throws(() => new small.FileSearcher(['a']), notReady('new FileSearcher'));
  // Once initialised, the same instance answers.
  full.initSync({ module: readFileSync(resolve(ROOT, 'pkg/context_assembly_bg.wasm')) });
  assert.equal(full.extractMentions('see @a.ts').files[0].path, 'a.ts');
  const session = new full.Session({ cwd: '/p' });
  assert.ok(session instanceof full.Session);
  session.free();
});

// What `using session = …` then `session.free()` does at the end of its block (Node 20 has no
// `using` yet): dispose after free, and free after dispose, are both harmless.
test('a call on a freed object throws an Error saying it was freed; free() and dispose may come again', () => {
  const session = new engine.Session({ cwd: '/p' });
  session.writeFile('a.txt', 'a', 1);
  session.free();
  assert.throws(() => session.readFileText('a.txt'), (/** @type {unknown} */ error) => error instanceof Error
    && /^Session\.readFileText: this Session was freed \(by free\(\), \[Symbol\.dispose\]\(\) or the end of a using block\); create another$/.test(error.message));
  assert.throws(() => session.submit('hi', 2), /^Error: Session\.submit: this Session was freed/);
  session.free();
  session[Symbol.dispose]();

  const restored = engine.Session.restore(new engine.Session({ cwd: '/p' }).snapshot());
  restored[Symbol.dispose]();
  restored.free();
  assert.throws(() => restored.fileState(), /^Error: Session\.fileState: this Session was freed/);

  for (const api of [engine, lite]) {
    const searcher = new api.FileSearcher(['src/a.ts']);
    searcher.free();
    searcher.free();
    assert.throws(() => searcher.search('a'), /^Error: FileSearcher\.search: this FileSearcher was freed/);
  }
  const streamed = new engine.SessionImport();
  streamed.free();
  streamed[Symbol.dispose]();
  assert.throws(() => streamed.finish(), /^Error: SessionImport\.finish: this SessionImport was freed/);
});
