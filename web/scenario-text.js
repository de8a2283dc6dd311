// Plain functions over a scenario's text and its replay that both the page and the worker use
// (no DOM, no engine): the text with another profile, and the request shown at a step.

/** @typedef {import('../pkg/context_assembly.js').Request} Request */

/**
 * The text as JSON, or `undefined` when it is not JSON.
 * @param {string} text
 * @returns {unknown}
 */
export function parseJson(text) {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/**
 * The scenario to run: the text, with the profile replaced when one is picked (text that is
 * not a JSON object goes as it is, and the engine says what is wrong with it).
 * @param {string} text
 * @param {unknown} parsed the text as JSON; `undefined` when it is not JSON
 * @param {string} profile '' for the scenario's own
 * @returns {string}
 */
export function scenarioText(text, parsed, profile) {
  if (profile === '' || parsed === null || typeof parsed !== 'object' || Array.isArray(parsed)) return text;
  return JSON.stringify({ ...parsed, profile });
}

/**
 * The latest request at or before step `index` and the step it is from; `undefined` when none
 * was sent yet.
 * @param {number} index
 * @param {(step: number) => Request | null | undefined} requestOf the request step `step` sent, if any
 * @returns {{ request: Request, from: number } | undefined}
 */
export function latestRequest(index, requestOf) {
  for (let from = index; from >= 0; from -= 1) {
    const request = requestOf(from);
    if (request != null) return { request, from };
  }
  return undefined;
}
