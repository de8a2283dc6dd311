// The tools module (pkg/tools/): what a session does not need, loaded by the package itself the
// first time one of its functions is called, in every runtime and in the Worker. Each entry
// gives `lazyTools` its way of loading the module; the functions it returns answer with a
// Promise, since the first call waits for the load.

/**
 * The tools module's functions, each offered by the main entry as an async function of the same
 * name. tests/package checks this list against the module's exports.
 */
export const TOOL_FUNCTIONS = /** @type {const} */ (['compactScenario', 'compareProfiles', 'importSession', 'redactScenario']);

/** @typedef {typeof import('./tools/context_assembly_tools.js')} Tools */

/**
 * A loader that loads once, forgets a failed load (the next call tries again) and, after a trap
 * (a bug, which leaves the instance unusable), loads a fresh instance for the next call.
 * @param {(fresh: number) => Promise<Tools>} load loads the module; `fresh` counts the instances
 *   before this one that trapped (0 the first time)
 */
export function lazyTools(load) {
  /** @type {Promise<Tools> | undefined} */
  let loading;
  let trapped = 0;
  const module = () => {
    loading ??= load(trapped).catch((error) => {
      loading = undefined;
      throw error;
    });
    return loading;
  };
  /**
   * @param {string} name
   * @param {unknown[]} args
   */
  const call = async (name, args) => {
    /** @type {any} */
    const tools = await module();
    try {
      return tools[name](...args);
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) {
        trapped += 1;
        loading = undefined;
      }
      throw error;
    }
  };
  /** @type {Record<string, (...args: unknown[]) => Promise<any>>} */
  const functions = Object.fromEntries(TOOL_FUNCTIONS.map((name) => [name, (/** @type {unknown[]} */ ...args) => call(name, args)]));
  return { module, functions };
}
