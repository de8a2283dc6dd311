// The price tables the equal-price toggle can put every profile on, so that a cost difference
// is the strategy's alone: the engine's own defaults (`defaultPrices`) of the profile each
// table belongs to.
import { withEngine } from '../../engine.js';

/** @typedef {import('../../../pkg/context_assembly.js').PriceTableInput} PriceTableInput */
/** @typedef {import('../../../pkg/context_assembly.js').ProfileName} ProfileName */

/** @type {Record<string, { label: string, defaultOf: ProfileName }>} */
export const PRICE_TABLES = {
  'claude-sonnet': { label: 'Claude Sonnet', defaultOf: 'claude-code' },
  'gpt-5': { label: 'GPT-5', defaultOf: 'codex' },
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
  const table = withEngine((engine) => engine.defaultPrices(chosen.defaultOf));
  return Object.fromEntries(profiles.map((profile) => [profile, table]));
}
