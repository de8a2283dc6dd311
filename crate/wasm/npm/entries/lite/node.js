// The lite module's Node entry: ready when the import resolves, like the main entry's, with
// its own (smaller) .wasm read synchronously from beside the glue.
import { readFileSync } from 'node:fs';
import { initSync } from './context_assembly_lite.js';

initSync({ module: readFileSync(new URL('./context_assembly_lite_bg.wasm', import.meta.url)) });

export * from './context_assembly_lite.js';
export { default } from './context_assembly_lite.js';
