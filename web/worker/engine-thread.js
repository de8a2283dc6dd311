// The playground's engine worker: the package's Worker API protocol
// (crate/wasm/npm/entries/worker-serve.js) over the session engine the playground loads from
// pkg/ and the tools (pkg/tools/), loaded on first use as the package loads them, with
// two calls of the playground's own (`sideBySide`, which keeps long traces here, and
// `importLog`, which reads a dropped log here). Static imports, so the message listener is in
// place before the page's first message; the entries are type-checked where `make package`
// assembles them, so this file is not in web/jsconfig.json.
import init, * as engine from '../../pkg/context_assembly.js';
import { serve } from '../../crate/wasm/npm/entries/worker-serve.js';
import { lazyTools } from '../../crate/wasm/npm/entries/tools-loader.js';
import { importLog } from './import-log.js';
import { sideBySide } from './side-by-side.js';

const tools = lazyTools(async (fresh) => {
  const module = await import(`../../pkg/tools/context_assembly_tools.js?instance=${fresh}`);
  await module.default();
  return module;
});

serve(
  {
    post: (message, transfer) => globalThis.postMessage(message, transfer ?? []),
    listen: (receive) => globalThis.addEventListener('message', (event) => receive(event.data)),
  },
  async () => ({
    engine: {
      ...engine,
      ...tools.functions,
      sideBySide: sideBySide(engine),
      importLog: importLog(tools.module, (slice) => new FileReaderSync().readAsArrayBuffer(slice)),
    },
    exports: await init(),
  }),
);
