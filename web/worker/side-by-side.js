// The worker's half of the compare panel's side by side: each side (a scenario under a profile)
// replayed here, and only the two requests' diff sent to the page. A long scenario's trace is
// hundreds of megabytes (every step carries its whole request): copied to the page it would
// cost more than the replay, so each side's requests stay here, for the next step asked.

import { latestRequest, parseJson, scenarioText } from '../scenario-text.js';

/** @typedef {typeof import('../../pkg/context_assembly.js')} Engine */
/** @typedef {import('../../pkg/context_assembly.js').Request} Request */
/** @typedef {import('../../pkg/context_assembly.js').RequestDiff} RequestDiff */
/** @typedef {{ onProgress?: (done: number, total: number) => void }} SideBySideOptions */
/**
 * One side: a scenario's JSON and the profile to replay it under.
 * @typedef {{ text: string, profile: string }} Side
 */
/**
 * What the page is sent: the steps of the right side's scenario (the player's), the step each
 * side's request is from (the latest at or before the step asked; `undefined` when none was
 * sent yet), and their diff when both sent one.
 * @typedef {{ total: number, step: number, from: { left?: number, right?: number }, diff?: RequestDiff }} SideBySide
 */

/**
 * The worker function: `sideBySide({ left, right }, step, options)`. Both sides are usually the
 * player's scenario under two profiles; the left one can be another scenario (the reader's own,
 * set against a link's).
 * @param {Engine} engine
 */
export function sideBySide(engine) {
  /** Requests per step, by scenario text and then profile; only the latest call's texts are kept. @type {Map<string, Map<string, (Request | undefined)[]>>} */
  let replayed = new Map();

  /**
   * @param {{ left: Side, right: Side }} sides
   * @param {number} step 0-based; clamped to the right side's steps
   * @param {SideBySideOptions} [options] `onProgress` over the replays
   * @returns {SideBySide}
   */
  return ({ left, right }, step, options = {}) => {
    replayed = new Map([...replayed].filter(([text]) => text === left.text || text === right.text));
    const requestsOf = (/** @type {Side} */ side) => replayed.get(side.text)?.get(side.profile);
    const missing = (left.text === right.text && left.profile === right.profile ? [left] : [left, right])
      .filter((side) => requestsOf(side) === undefined);
    for (const [index, side] of missing.entries()) {
      const onProgress = options.onProgress === undefined ? undefined
        : (/** @type {number} */ done, /** @type {number} */ total) => options.onProgress?.(index * total + done, missing.length * total);
      const trace = engine.runScenario(scenarioText(side.text, parseJson(side.text), side.profile), onProgress === undefined ? {} : { onProgress });
      const byProfile = replayed.get(side.text) ?? new Map();
      byProfile.set(side.profile, trace.steps.map((one) => one.turn.request));
      replayed.set(side.text, byProfile);
    }
    const sides = { left: requestsOf(left) ?? [], right: requestsOf(right) ?? [] };
    const total = sides.right.length;
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
