// The worker script of the Worker API under Node (worker_threads): the session engine's .wasm
// read from beside this file unless the host gave the module (bytes, a file: URL or a
// WebAssembly.Module); the tools' module read from beside this file the first time one is called.
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import * as engine from './context_assembly.js';
import { lazyTools } from './tools-loader.js';
import { serve } from './worker-serve.js';

const port = parentPort;
if (port === null) throw new Error('worker-thread-node.js runs only as a worker_threads Worker');

const tools = lazyTools(async (fresh) => {
  /** @type {import('./tools-loader.js').Tools} */
  const module = await import(`./tools/context_assembly_tools.js${fresh === 0 ? '' : `?instance=${fresh}`}`);
  module.initSync({ module: await moduleBytes(toolsWasm, new URL('./tools/context_assembly_tools_bg.wasm', import.meta.url)) });
  return module;
});

/** The host's tools module, if it gave one. @type {unknown} */
let toolsWasm;

serve(
  {
    post: (message, transfer) => port.postMessage(message, /** @type {any} */ (transfer)),
    listen: (receive) => port.on('message', receive),
  },
  async (wasm, hostTools) => {
    toolsWasm = hostTools;
    return {
      engine: { ...engine, ...tools.functions },
      exports: engine.initSync({ module: await moduleBytes(wasm, new URL('./context_assembly_bg.wasm', import.meta.url)) }),
    };
  },
);

/**
 * @param {unknown} wasm the host's module, if it gave one
 * @param {URL} beside the module's file in the package
 * @returns {Promise<BufferSource | WebAssembly.Module>}
 */
async function moduleBytes(wasm, beside) {
  if (wasm === undefined) return readFileSync(beside);
  if (typeof wasm !== 'string') return /** @type {BufferSource | WebAssembly.Module} */ (wasm);
  if (wasm.startsWith('file:')) return readFileSync(new URL(wasm));
  const response = await fetch(wasm);
  if (!response.ok) throw new Error(`fetching ${wasm}: ${response.status} ${response.statusText}`);
  return response.arrayBuffer();
}
