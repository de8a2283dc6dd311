// The worker script of the Worker API under Node (worker_threads): the engine's .wasm read from
// beside this file unless the host gave the module (bytes, a file: URL or a WebAssembly.Module).
import { readFileSync } from 'node:fs';
import { parentPort } from 'node:worker_threads';
import * as engine from './context_assembly.js';
import { serve } from './worker-serve.js';

const port = parentPort;
if (port === null) throw new Error('worker-thread-node.js runs only as a worker_threads Worker');

serve(
  {
    post: (message, transfer) => port.postMessage(message, /** @type {any} */ (transfer)),
    listen: (receive) => port.on('message', receive),
  },
  async (wasm) => ({ engine, exports: engine.initSync({ module: await moduleBytes(wasm) }) }),
);

/**
 * @param {unknown} wasm
 * @returns {Promise<BufferSource | WebAssembly.Module>}
 */
async function moduleBytes(wasm) {
  if (wasm === undefined) return readFileSync(new URL('./context_assembly_bg.wasm', import.meta.url));
  if (typeof wasm !== 'string') return /** @type {BufferSource | WebAssembly.Module} */ (wasm);
  if (wasm.startsWith('file:')) return readFileSync(new URL(wasm));
  const response = await fetch(wasm);
  if (!response.ok) throw new Error(`fetching ${wasm}: ${response.status} ${response.statusText}`);
  return response.arrayBuffer();
}
