// Checks shared by the case classes.
import { CaseFailure } from './engine.mjs';

/** The largest integer a JS number holds exactly: the API's times and counts stay within it. */
export const MAX_SAFE = 2 ** 53;

/**
 * Every number in a result is finite and within ±2^53 (a time, count or offset beyond it
 * has already lost its precision on the way out).
 * @param {string} what @param {unknown} value @param {string} [reproducer]
 */
export function assertSaneNumbers(what, value, reproducer) {
  const bad = findBadNumber(value, '');
  if (bad) throw new CaseFailure(`${what} returned ${bad}`, reproducer);
}

/** @param {unknown} value @param {string} path @returns {string | null} */
function findBadNumber(value, path) {
  if (typeof value === 'number') {
    return Number.isFinite(value) && Math.abs(value) <= MAX_SAFE ? null : `${value} at ${path || 'the top'}`;
  }
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      // A trace's step echoes the step as the caller wrote it, numbers included.
      if (key === 'input' && 'turn' in value) continue;
      const bad = findBadNumber(item, `${path}.${key}`);
      if (bad) return bad;
    }
  }
  return null;
}

/**
 * What a JSON-able result looks like as text, for determinism and equality checks.
 * @param {unknown} value
 */
export function canonical(value) {
  return JSON.stringify(value, (_key, item) => (typeof item === 'bigint' ? `${item}n` : item));
}

/** @param {string} text @param {number} [limit] */
export function clip(text, limit = 300) {
  return text.length > limit ? `${text.slice(0, limit)}…` : text;
}

/**
 * JS or JSON text with every character outside printable ASCII written as `\\uXXXX`, so a
 * reproducer shows NFC and NFD, lone surrogates and control characters apart.
 * @param {string} text
 */
export function escapeNonAscii(text) {
  return text.replace(/[^\x20-\x7e]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
