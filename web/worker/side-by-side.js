// The worker's half of the compare panel's side by side: the scenario replayed under each
// profile here, and only the two requests' diff sent to the page. A long scenario's trace is
// hundreds of megabytes (every step carries its whole request): copied to the page it would
// cost more than the replay, so each profile's requests stay here, for the next step asked.

import { latestRequest, parseJson, scenarioText } from '../scenario-text.js';

/** @typedef {typeof import('../../pkg/context_assembly.js')} Engine */
/** @typedef {import('../../pkg/context_assembly.js').Request} Request */
/** @typedef {import('../../pkg/context_assembly.js').RequestDiff} RequestDiff */
/** @typedef {{ onProgress?: (done: number, total: number) => void }} SideBySideOptions */
/**
 * What the page is sent: the steps in all, the step each side's request is from (the latest at
 * or before the step asked; `undefined` when none was sent yet), and their diff when both sent one.
 * @typedef {{ total: number, step: number, from: { left?: number, right?: number }, diff?: RequestDiff }} SideBySide
 */

/**
 * The worker function: `sideBySide(scenario, left, right, step, options)`.
 * @param {Engine} engine
 */
export function sideBySide(engine) {
  /** The latest scenario replayed and its requests per profile, one per step. @type {{ text: string, requests: Map<string, (Request | undefined)[]> }} */
  let replayed = { text: '', requests: new Map() };

  /**
   * @param {string} text the scenario's JSON
   * @param {string} left the left profile
   * @param {string} right the right profile
   * @param {number} step 0-based; clamped to the scenario's steps
   * @param {SideBySideOptions} [options] `onProgress` over both replays
   * @returns {SideBySide}
   */
  return (text, left, right, step, options = {}) => {
    if (replayed.text !== text) replayed = { text, requests: new Map() };
    const missing = [...new Set([left, right])].filter((profile) => !replayed.requests.has(profile));
    for (const [index, profile] of missing.entries()) {
      const onProgress = options.onProgress === undefined ? undefined
        : (/** @type {number} */ done, /** @type {number} */ total) => options.onProgress?.(index * total + done, missing.length * total);
      const trace = engine.runScenario(scenarioText(text, parseJson(text), profile), onProgress === undefined ? {} : { onProgress });
      replayed.requests.set(profile, trace.steps.map((one) => one.turn.request));
    }
    const sides = { left: replayed.requests.get(left) ?? [], right: replayed.requests.get(right) ?? [] };
    const total = sides.left.length;
    const index = Math.max(0, Math.min(step, total - 1));
    const at = (/** @type {(Request | undefined)[]} */ requests) => latestRequest(Math.min(index, requests.length - 1), (from) => requests[from]);
    const shown = { left: at(sides.left), right: at(sides.right) };
    return {
      total,
      step: index,
      from: { left: shown.left?.from, right: shown.right?.from },
      ...(shown.left === undefined || shown.right === undefined ? {} : { diff: engine.requestDiff(shown.left.request, shown.right.request, {}) }),
    };
  };
}
