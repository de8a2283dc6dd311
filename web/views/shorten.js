// Inputs echoed back (in a heading, a table cell) are cut to a readable length: a 1 MB prompt
// repeated whole would make the page 100,000 px tall.

/** The longest echo shown whole, in UTF-16 units. */
export const ECHO_LIMIT = 120;

/**
 * `text` as it is when short; else its start and "… (N characters)".
 * @param {string} text
 * @param {number} [limit]
 */
export function shorten(text, limit = ECHO_LIMIT) {
  if (text.length <= limit) return text;
  return `${text.slice(0, limit)}… (${text.length.toLocaleString('en')} characters)`;
}
