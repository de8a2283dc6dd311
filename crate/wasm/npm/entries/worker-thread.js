// The worker script of the browser's Worker API: the web build of the engine, fetched from
// beside this file unless the host gave the module (bytes, a URL or a WebAssembly.Module).
import init, * as engine from './context_assembly.js';
import { serve } from './worker-serve.js';

/** @type {any} */
const scope = globalThis;

serve(
  {
    post: (message, transfer) => scope.postMessage(message, transfer ?? []),
    listen: (receive) => scope.addEventListener('message', (/** @type {MessageEvent} */ event) => receive(event.data)),
  },
  async (wasm) => ({ engine, exports: await init(wasm === undefined ? undefined : { module_or_path: /** @type {any} */ (wasm) }) }),
);
