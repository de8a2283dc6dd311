// The worker script of the browser's Worker API: the web build of the session engine, fetched
// from beside this file unless the host gave the module (bytes, a URL or a WebAssembly.Module),
// and the tools, whose module is fetched from beside this file the first time one is called.
import init, * as engine from './context_assembly.js';
import { lazyTools } from './tools-loader.js';
import { serve } from './worker-serve.js';

/** @type {any} */
const scope = globalThis;

const tools = lazyTools(async (fresh) => {
  /** @type {import('./tools-loader.js').Tools} */
  const module = fresh === 0 ? await import('./tools/context_assembly_tools.js')
    // A fresh module record after a trap; bundlers leave this one alone (it is the same file).
    : await import(/* webpackIgnore: true */ /* @vite-ignore */ new URL(`./tools/context_assembly_tools.js?instance=${fresh}`, import.meta.url).href);
  await module.default(toolsWasm === undefined ? undefined : { module_or_path: toolsWasm });
  return module;
});

/** The host's tools module, if it gave one. @type {any} */
let toolsWasm;

serve(
  {
    post: (message, transfer) => scope.postMessage(message, transfer ?? []),
    listen: (receive) => scope.addEventListener('message', (/** @type {MessageEvent} */ event) => receive(event.data)),
  },
  async (wasm, hostTools) => {
    toolsWasm = hostTools;
    return {
      engine: { ...engine, ...tools.functions },
      exports: await init(wasm === undefined ? undefined : { module_or_path: /** @type {any} */ (wasm) }),
    };
  },
);
