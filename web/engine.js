// Loads the wasm engine and keeps the page working after a panic: a trap leaves the
// instance unusable, so the next call gets a fresh instance of the module.
import init, * as firstInstance from '../pkg/context_assembly.js';

/** @typedef {typeof import('../pkg/context_assembly.js')} Engine */

/** @type {Engine} */
let engine = firstInstance;
let generation = 0;

/** Instantiates the engine; call once before anything else. */
export async function loadEngine() {
  await init();
}

/**
 * Runs `use` against the engine. Errors the engine throws on purpose (bad input) pass
 * through; a trap (a bug) re-instantiates the module before it is re-thrown.
 * @template T
 * @param {(engine: Engine) => T} use
 * @returns {T}
 */
export function withEngine(use) {
  try {
    return use(engine);
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) void reinitialise();
    throw error;
  }
}

async function reinitialise() {
  generation += 1;
  /** @type {Engine} */
  const fresh = await import(`../pkg/context_assembly.js?instance=${generation}`);
  await fresh.default();
  engine = fresh;
}
