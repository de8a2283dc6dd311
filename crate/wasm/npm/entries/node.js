// The Node entry: the engine is ready when the import resolves, its .wasm read synchronously
// from beside this file. `init()` and `initSync()` stay exported (they return the instance that
// is already there), so code written for the browser entry runs unchanged. No top-level await:
// `require('context-assembly')` works where Node can require an ES module (20.19+, 22.12+).
import { readFileSync } from 'node:fs';
import { initSync } from './context_assembly.js';

initSync({ module: readFileSync(new URL('./context_assembly_bg.wasm', import.meta.url)) });

export * from './context_assembly.js';
export { default } from './context_assembly.js';
