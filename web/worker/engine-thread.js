// The playground's engine worker: the package's Worker API protocol
// (crate/wasm/npm/entries/worker-serve.js) over the engine the playground loads from pkg/, with
// one call of the playground's own (`sideBySide`, which keeps long traces here). Static
// imports, so the message listener is in place before the page's first message; the entries
// are type-checked where `make package` assembles them, so this file is not in
// web/jsconfig.json.
import init, * as engine from '../../pkg/context_assembly.js';
import { serve } from '../../crate/wasm/npm/entries/worker-serve.js';
import { sideBySide } from './side-by-side.js';

serve(
  {
    post: (message, transfer) => globalThis.postMessage(message, transfer ?? []),
    listen: (receive) => globalThis.addEventListener('message', (event) => receive(event.data)),
  },
  async () => ({ engine: { ...engine, sideBySide: sideBySide(engine) }, exports: await init() }),
);
