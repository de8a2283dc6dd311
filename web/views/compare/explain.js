// Why one profile costs more than another, from the engine's per-request figures only: the
// token differences by how the cache charged them, and the requests that read nothing from
// the cache, with what the engine says preceded them (the first request, a compaction).
import { h, tableHead } from '../../dom.js';
import { dollars, integer } from '../../format.js';
import { profileLabel } from './tables.js';

/** @typedef {import('../../../pkg/context_assembly.js').Comparison} Comparison */
/** @typedef {import('../../../pkg/context_assembly.js').CompareStep} CompareStep */

/**
 * A signed difference in tokens, or '' when there is none.
 * @param {string} what
 * @param {number} difference
 */
function tokenDifference(what, difference) {
  if (difference === 0) return '';
  return `${integer(Math.abs(difference))} ${difference > 0 ? 'more' : 'fewer'} tokens ${what}`;
}

/** The most cache misses named in a row; the count says how many there are in all. */
const MISSES_NAMED = 12;

/**
 * Whether the step's own request read nothing from the cache: a step's figures include its
 * compaction's summary call, which reads the old prefix, so that call's part is taken out.
 * @param {CompareStep} step
 */
function missedTheCache(step) {
  const cached = step.cached - (step.summaryCall?.cached ?? 0);
  const sent = step.sent - (step.summaryCall?.sent ?? 0);
  return cached === 0 && sent > 0;
}

/**
 * The requests that read nothing from the cache, each with what preceded it when the engine
 * reports it.
 * @param {CompareStep[]} steps
 */
function cacheMisses(steps) {
  return steps.flatMap((step, index) => {
    if (!missedTheCache(step)) return [];
    const cause = index === 0 ? 'the first request' : step.compacted === undefined ? '' : `after compaction by ${step.compacted.policy}`;
    return [`request ${index + 1} (step ${step.step}${cause === '' ? '' : `, ${cause}`})`];
  });
}

/**
 * The explanation table's content: a row per profile, measured against the cheapest.
 * @param {Comparison} comparison
 * @returns {HTMLElement[]}
 */
export function costExplanations(comparison) {
  const runs = Object.entries(comparison);
  if (runs.length === 0) return [];
  const [cheapest, base] = runs.reduce((best, run) => (run[1].totals.costMicroUsd < best[1].totals.costMicroUsd ? run : best));
  const rows = runs.map(([profile, run]) => {
    const { totals } = run;
    const extra = totals.costMicroUsd - base.totals.costMicroUsd;
    const parts = /** @type {const} */ (['sent', 'cached', 'written', 'uncached', 'output']);
    const words = { sent: 'sent', cached: 'read from the cache', written: 'written to the cache', uncached: 'charged at the full input price', output: 'of output' };
    const differences = profile === cheapest ? []
      : parts.map((part) => tokenDifference(words[part], totals[part] - base.totals[part])).filter((text) => text !== '');
    const requests = run.steps.length - base.steps.length;
    if (profile !== cheapest && requests !== 0) differences.unshift(`${integer(Math.abs(requests))} ${requests > 0 ? 'more' : 'fewer'} requests`);
    const misses = cacheMisses(run.steps);
    return h('tr', { 'data-profile': profile, 'data-extra-micro-usd': String(extra) },
      h('td', {}, profileLabel(profile)),
      h('td', { class: 'num' }, profile === cheapest ? 'the cheapest' : `${dollars(extra)} more than ${cheapest}`),
      h('td', {}, profile === cheapest ? h('span', { class: 'none' }, 'the baseline')
        : differences.length === 0 ? h('span', { class: 'none' }, 'the same tokens') : differences.join('; ')),
      h('td', { 'data-misses': String(misses.length) }, misses.length === 0 ? h('span', { class: 'none' }, 'none')
        : misses.slice(0, MISSES_NAMED).join('; ') + (misses.length > MISSES_NAMED ? `; and ${integer(misses.length - MISSES_NAMED)} more` : '')));
  });
  return [tableHead(['profile', 'cost', `tokens compared with ${cheapest}`, 'requests that read nothing from the cache']), h('tbody', {}, ...rows)];
}
