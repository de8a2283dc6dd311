// The main entry: the session engine's declarations, and the tools, which load their module on
// first use and so answer with a Promise (their parameters and results are the tools module's).
export * from './context_assembly.js';
export { default } from './context_assembly.js';

type Tools = typeof import('./tools/context_assembly_tools.js');
type OnFirstUse<F extends (...args: any[]) => any> = (...args: Parameters<F>) => Promise<ReturnType<F>>;

/** Loads the tools module now (from `wasm` when given) and resolves to it, with `SessionImport` among its exports. */
export function loadTools(wasm?: WebAssembly.Module | BufferSource | URL | string): Promise<Tools>;
/** `compactScenario` of the tools module, loaded on first use. */
export const compactScenario: OnFirstUse<Tools['compactScenario']>;
/** `compareProfiles` of the tools module, loaded on first use. */
export const compareProfiles: OnFirstUse<Tools['compareProfiles']>;
/** `importSession` of the tools module, loaded on first use. */
export const importSession: OnFirstUse<Tools['importSession']>;
/** `redactScenario` of the tools module, loaded on first use. */
export const redactScenario: OnFirstUse<Tools['redactScenario']>;
