// The playground's engine worker: the package's Worker API protocol
// (crate/wasm/npm/entries/worker-serve.js) over the engine the playground loads from pkg/, with
// two calls of the playground's own (`sideBySide`, which keeps long traces here, and
// `importLog`, which reads a dropped log here). Static imports, so the message listener is in
// place before the page's first message; the entries are type-checked where `make package`
// assembles them, so this file is not in web/jsconfig.json.
import init, * as engine from '../../pkg/context_assembly.js';
import { serve } from '../../crate/wasm/npm/entries/worker-serve.js';
import { importLog } from './import-log.js';
import { sideBySide } from './side-by-side.js';

serve(
  {
    post: (message, transfer) => globalThis.postMessage(message, transfer ?? []),
    listen: (receive) => globalThis.addEventListener('message', (event) => receive(event.data)),
  },
  async () => ({
    engine: { ...engine, sideBySide: sideBySide(engine), importLog: importLog(engine, (slice) => new FileReaderSync().readAsArrayBuffer(slice)) },
    exports: await init(),
  }),
);
