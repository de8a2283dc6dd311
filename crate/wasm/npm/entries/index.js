// The browser entry (and Deno's, and bundlers'): the session engine, which `init()` fetches from
// beside this file, and the tools, whose module is fetched the first time one of them is called
// (each answers with a Promise). `loadTools()` loads them ahead, or from another place.
import init from './context_assembly.js';
import { lazyTools } from './tools-loader.js';

const tools = lazyTools(async (fresh) => {
  /** @type {import('./tools-loader.js').Tools} */
  const module = fresh === 0 ? await import('./tools/context_assembly_tools.js')
    // A fresh module record after a trap; bundlers leave this one alone (it is the same file).
    : await import(/* webpackIgnore: true */ /* @vite-ignore */ new URL(`./tools/context_assembly_tools.js?instance=${fresh}`, import.meta.url).href);
  await module.default(wasmOfTools);
  return module;
});

/** @type {{ module_or_path: any } | undefined} */
let wasmOfTools;

/**
 * Loads the tools module now (a `WebAssembly.Module`, its bytes or its URL when given; beside
 * this file otherwise) and resolves to it, with `SessionImport` among its exports.
 * @param {unknown} [wasm]
 */
export function loadTools(wasm) {
  if (wasm !== undefined) wasmOfTools = { module_or_path: wasm };
  return tools.module();
}

export const { compactScenario, compareProfiles, importSession, redactScenario } = tools.functions;
export * from './context_assembly.js';
export default init;
