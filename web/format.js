// Numbers as every panel shows them: one spelling for a count, a token figure, a share and
// a price, so that the same number reads the same in the player, compaction and compare.

/**
 * A whole number with thousands separators.
 * @param {number} n
 */
export const integer = (n) => n.toLocaleString('en-US');

/** @param {number} n */
export const tokensText = (n) => `${integer(n)} tok`;

/**
 * A count with its noun, plural unless one.
 * @param {number} n
 * @param {string} noun
 */
export const count = (n, noun) => `${n} ${noun}${n === 1 ? '' : 's'}`;

/**
 * A share of a whole as a percentage; nothing of nothing is 0 %, not NaN.
 * @param {number} part
 * @param {number} whole
 */
export const percent = (part, whole) => `${whole > 0 ? ((part / whole) * 100).toFixed(1) : '0.0'}%`;

/**
 * Micro-dollars as dollars to 4 decimals; the exact figure stays in the row's data.
 * @param {number} micro
 */
export const dollars = (micro) => `$${(micro / 1e6).toFixed(4)}`;
