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

/**
 * The tools module (pkg/tools/: import, redaction, comparison, compaction previews), which the
 * page loads the first time it needs one; a trap in it starts a fresh instance next time.
 * @typedef {typeof import('../pkg/tools/context_assembly_tools.js')} Tools
 * @type {Promise<Tools> | undefined}
 */
let tools;
let toolsGeneration = 0;

/**
 * Runs `use` against the tools module, loading it first if it is not loaded yet.
 * @template T
 * @param {(tools: Tools) => T} use
 * @returns {Promise<T>}
 */
export async function withTools(use) {
  tools ??= import(`../pkg/tools/context_assembly_tools.js?instance=${toolsGeneration}`).then(async (module) => {
    await module.default();
    return module;
  });
  const loaded = await tools.catch((error) => {
    tools = undefined;
    throw error;
  });
  try {
    return use(loaded);
  } catch (error) {
    if (error instanceof WebAssembly.RuntimeError) {
      toolsGeneration += 1;
      tools = undefined;
    }
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

/**
 * The calls the playground makes in the worker (the package's `WorkerEngine`, typed where
 * `make package` assembles it, and the playground's own, web/worker/side-by-side.js and
 * web/worker/import-log.js).
 * @typedef {import('../pkg/context_assembly.js').Comparison} Comparison
 * @typedef {import('../pkg/context_assembly.js').ProfileName} ProfileName
 * @typedef {import('../pkg/context_assembly.js').CompareOptions} CompareOptions
 * @typedef {import('../pkg/context_assembly.js').CompactionOptions} CompactionOptions
 * @typedef {import('../pkg/context_assembly.js').CompactionPreview} CompactionPreview
 * @typedef {{
 *   compareProfiles(text: string, profiles: ProfileName[], options: CompareOptions): Promise<Comparison>,
 *   compactScenario(scenario: string, options: CompactionOptions, steps: number | undefined): Promise<CompactionPreview>,
 *   sideBySide(sides: { left: import('./worker/side-by-side.js').Side, right: import('./worker/side-by-side.js').Side }, step: number, options?: import('./worker/side-by-side.js').SideBySideOptions): Promise<import('./worker/side-by-side.js').SideBySide>,
 *   importLog(file: Blob, options?: import('./worker/import-log.js').ImportLogOptions): Promise<import('../pkg/context_assembly.js').ImportResult>,
 * }} WorkerCalls
 * @typedef {WorkerCalls & { with(options: { signal?: AbortSignal }): WorkerCalls }} WorkerEngine
 */

/** Where the package's Worker API is, imported by address for the same reason. */
const WORKER_API = '../crate/wasm/npm/entries/worker.js';

/**
 * The long runs the playground makes, each in a worker of its own: cancelling one (which
 * replaces its worker) never stops another that is running in another tab.
 * @typedef {'compare' | 'compaction' | 'side-by-side' | 'import' | 'cache'} WorkerPurpose
 */

/** @type {Map<WorkerPurpose, Promise<WorkerEngine>>} */
const workers = new Map();

/**
 * The engine in a Worker for `purpose`, for the long runs (a comparison, a replay under
 * another profile, every compaction policy on a long scenario, a session log's import) that
 * would otherwise block the page: started on first use; it replaces itself after a trap or a
 * cancellation.
 * @param {WorkerPurpose} purpose
 * @returns {Promise<WorkerEngine>}
 */
export function workerEngine(purpose) {
  let worker = workers.get(purpose);
  if (worker === undefined) {
    worker = import(WORKER_API).then(({ createWorkerEngine }) =>
      createWorkerEngine({ workerUrl: new URL('./worker/engine-thread.js', import.meta.url) }));
    workers.set(purpose, worker);
  }
  return worker;
}
