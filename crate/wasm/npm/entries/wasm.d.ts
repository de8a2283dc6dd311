// The raw module (`context-assembly/wasm`, `context-assembly/lite/wasm`), for a bundler that emits it as a
// file (esbuild's `--loader:.wasm=file`): what it imports is the file's URL, to give
// `init({ module_or_path })` or `createWorkerEngine({ wasm })`. Node does not import a .wasm file: read
// it (`readFileSync(require.resolve('context-assembly/wasm'))`) or use the Node entry, ready on import.
declare const wasmUrl: string;
export default wasmUrl;
