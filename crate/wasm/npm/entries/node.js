// The Node entry: the session engine is ready when the import resolves, its .wasm read
// synchronously from beside this file; the tools' module is read the first time one of them is
// called (each answers with a Promise). `init()` and `initSync()` stay exported (they return the
// instance that is already there), so code written for the browser entry runs unchanged. No
// top-level await: `require('context-assembly')` works where Node can require an ES module
// (20.19+, 22.12+).
import { readFileSync } from 'node:fs';
import { initSync } from './context_assembly.js';
import { lazyTools } from './tools-loader.js';

initSync({ module: readFileSync(new URL('./context_assembly_bg.wasm', import.meta.url)) });

const tools = lazyTools(async (fresh) => {
  /** @type {import('./tools-loader.js').Tools} */
  const module = await import(`./tools/context_assembly_tools.js${fresh === 0 ? '' : `?instance=${fresh}`}`);
  module.initSync({ module: bytesOf(wasmOfTools ?? new URL('./tools/context_assembly_tools_bg.wasm', import.meta.url)) });
  return module;
});

/** @type {any} */
let wasmOfTools;

/**
 * A module given as a file (a `file:` URL or a path) read; bytes and compiled modules as they are.
 * @param {any} wasm
 */
function bytesOf(wasm) {
  if (wasm instanceof URL) return readFileSync(wasm);
  if (typeof wasm === 'string') return readFileSync(wasm.startsWith('file:') ? new URL(wasm) : wasm);
  return wasm;
}

/**
 * Loads the tools module now (a `WebAssembly.Module`, its bytes, or its file as a `file:` URL or
 * a path when given; beside this file otherwise) and resolves to it, with `SessionImport` among
 * its exports.
 * @param {unknown} [wasm]
 */
export function loadTools(wasm) {
  if (wasm !== undefined) wasmOfTools = wasm;
  return tools.module();
}

export const { compactScenario, compareProfiles, importSession, redactScenario } = tools.functions;
export * from './context_assembly.js';
export { default } from './context_assembly.js';
