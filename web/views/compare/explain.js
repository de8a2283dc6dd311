// Why one profile costs more than another, from the engine's per-request figures only: the
// token differences by how the cache charged them, and the requests that read nothing from
// the cache, with what the engine says preceded them (the first request, a compaction).
import { h, tableHead } from '../../dom.js';
import { dollars, integer, percent } from '../../format.js';
import { READ_TITLES } from '../scenario/request-diff.js';
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
 * The requests that read nothing from the cache, each with the cache model's reason in a few
 * words (the strip and the request panes give the same reason at that step).
 * @param {CompareStep[]} steps
 */
function cacheMisses(steps) {
  return steps.flatMap((step, index) => {
    if (!missedTheCache(step)) return [];
    const after = step.compacted === undefined ? '' : `, after compaction by ${step.compacted.policy}`;
    return [`request ${index + 1} (step ${step.step + 1}: ${READ_TITLES[step.cache.read]}${after})`];
  });
}

/**
 * Each reason the cache read nothing, said once in full with the figures of its first
 * request: `under the minimum: the prefix … is under the 1,024-token minimum`.
 * @param {CompareStep[]} steps
 * @returns {string[]}
 */
function missReasons(steps) {
  /** @type {Map<string, string>} */
  const reasons = new Map();
  for (const step of steps) {
    if (missedTheCache(step) && !reasons.has(step.cache.read)) reasons.set(step.cache.read, `${READ_TITLES[step.cache.read]}: ${step.cache.reason}`);
  }
  return [...reasons.values()];
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
    const reasons = missReasons(run.steps);
    return h('tr', { 'data-profile': profile, 'data-extra-micro-usd': String(extra) },
      h('td', {}, profileLabel(profile)),
      h('td', { class: 'num' }, profile === cheapest ? 'the cheapest' : `${dollars(extra)} more than ${cheapest}`),
      h('td', {}, profile === cheapest ? h('span', { class: 'none' }, 'the baseline')
        : differences.length === 0 ? h('span', { class: 'none' }, 'the same tokens') : differences.join('; ')),
      h('td', { 'data-misses': String(misses.length) }, ...(misses.length === 0 ? [h('span', { class: 'none' }, 'none')]
        : [misses.slice(0, MISSES_NAMED).join('; ') + (misses.length > MISSES_NAMED ? `; and ${integer(misses.length - MISSES_NAMED)} more` : ''),
          h('ul', { class: 'miss-reasons' }, ...reasons.map((reason) => h('li', {}, `${reason}.`)))])));
  });
  return [tableHead(['profile', 'cost', `tokens compared with ${cheapest}`, 'requests that read nothing from the cache']), h('tbody', {}, ...rows)];
}

/**
 * The comparison in one sentence, from its totals: the cheapest profile, the dearest and how
 * many times as much it costs, with the share of input each read from the cache and the tokens
 * each sent. '' when fewer than two profiles sent anything.
 * @param {Comparison} comparison
 */
export function takeawayOf(comparison) {
  const runs = Object.entries(comparison).filter(([, run]) => run.steps.length > 0);
  if (runs.length === 0) return '';
  const byCost = [...runs].sort((a, b) => a[1].totals.costMicroUsd - b[1].totals.costMicroUsd);
  const [cheapest, low] = /** @type {[string, Comparison[string]]} */ (byCost[0]);
  const [dearest, high] = /** @type {[string, Comparison[string]]} */ (byCost.at(-1));
  const read = (/** @type {Comparison[string]} */ run) => percent(run.totals.cached, run.totals.sent);
  if (runs.length === 1 || cheapest === dearest) {
    return `${cheapest} costs ${dollars(low.totals.costMicroUsd)} over ${integer(low.steps.length)} requests, reading ${read(low)} of its input from the cache.`;
  }
  const times = low.totals.costMicroUsd > 0 ? (high.totals.costMicroUsd / low.totals.costMicroUsd).toFixed(1) : '∞';
  return `${cheapest} is the cheapest (${dollars(low.totals.costMicroUsd)}); ${dearest} costs ${times}× as much ` +
    `(${dollars(high.totals.costMicroUsd)}): it sends ${integer(high.totals.sent)} input tokens against ${integer(low.totals.sent)} ` +
    `and reads ${read(high)} of them from the cache against ${read(low)}.`;
}
