// The price tables the equal-price toggle can put every profile on, so that a cost difference
// is the strategy's alone. The figures are the engine's own defaults (crate/src/cache/prices.rs:
// Claude Sonnet for Claude Code's profiles, GPT-5 for Codex's), in micro-dollars per million
// tokens; the engine does not export them, so they are repeated here and a browser test
// checks that each matches the default of the profile it belongs to.

/** @typedef {import('../../../pkg/context_assembly.js').PriceTableInput} PriceTableInput */

/** @type {Record<string, { label: string, defaultOf: string, table: PriceTableInput }>} */
export const PRICE_TABLES = {
  'claude-sonnet': {
    label: 'Claude Sonnet',
    defaultOf: 'claude-code',
    table: { inputPerMTok: 3_000_000, cachedInputPerMTok: 300_000, cacheWrite5mPerMTok: 3_750_000, cacheWrite1hPerMTok: 6_000_000, outputPerMTok: 15_000_000 },
  },
  'gpt-5': {
    label: 'GPT-5',
    defaultOf: 'codex',
    table: { inputPerMTok: 1_250_000, cachedInputPerMTok: 125_000, cacheWrite5mPerMTok: 1_250_000, cacheWrite1hPerMTok: 1_250_000, outputPerMTok: 10_000_000 },
  },
};

/**
 * The `prices` option of `compareProfiles`: every profile at one table, or `undefined` for
 * each profile's own provider prices.
 * @param {string} choice a key of `PRICE_TABLES`, or '' for each provider's own
 * @param {string[]} profiles
 * @returns {Record<string, PriceTableInput> | undefined}
 */
export function equalPrices(choice, profiles) {
  const chosen = PRICE_TABLES[choice];
  if (chosen === undefined) return undefined;
  return Object.fromEntries(profiles.map((profile) => [profile, chosen.table]));
}
