// The demo's engine worker: the package's Worker API protocol (crate/wasm/npm/entries/) over
// the engine the playground loads from pkg/. The entries are type-checked where `make package`
// assembles them, so this file is not in web/jsconfig.json.
import init, * as engine from '../../pkg/context_assembly.js';
import { serve } from '../../crate/wasm/npm/entries/worker-serve.js';

serve(
  {
    post: (message, transfer) => globalThis.postMessage(message, transfer ?? []),
    listen: (receive) => globalThis.addEventListener('message', (event) => receive(event.data)),
  },
  async () => ({ engine, exports: await init() }),
);
