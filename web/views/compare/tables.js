// The comparison's numbers: a totals row per profile, and what each profile could still see
// after each compaction it ran.
import { h, s, tableHead } from '../../dom.js';
import { dollars, integer, percent } from '../../format.js';
import { lookOf, paint } from './chart.js';

/** @typedef {import('../../../pkg/context_assembly.js').Comparison} Comparison */
/** @typedef {import('../../../pkg/context_assembly.js').CompareStep} CompareStep */
/** @typedef {import('../../../pkg/context_assembly.js').StepCost} StepCost */

/**
 * A profile's name with its series colour, so the table reads against the charts.
 * @param {string} profile
 */
export function profileLabel(profile) {
  const look = lookOf(profile);
  const line = paint(s('line', { x1: '1', x2: '23', y1: '5', y2: '5' }), 'stroke', look);
  if (look.dash !== '') line.setAttribute('stroke-dasharray', look.dash);
  return h('span', { class: 'compare-profile' },
    s('svg', { class: 'compare-swatch', viewBox: '0 0 24 10', width: '24', height: '10', 'aria-hidden': 'true' }, line),
    h('code', {}, profile));
}

const HEADERS = ['profile', 'requests', 'sent', 'cached', 'written', 'uncached', 'output', 'cache hit share', 'cost'];

/**
 * The totals table: a header, then a row per profile whose `data-*` hold the engine's numbers.
 * @param {Comparison} comparison
 * @returns {HTMLElement[]}
 */
export function totalsRows(comparison) {
  const rows = Object.entries(comparison).map(([profile, { steps, totals }]) => {
    const number = (/** @type {number} */ n) => h('td', { class: 'num' }, integer(n));
    return h('tr', {
      'data-profile': profile, 'data-requests': String(steps.length), 'data-sent': String(totals.sent),
      'data-cached': String(totals.cached), 'data-written': String(totals.written), 'data-uncached': String(totals.uncached),
      'data-output': String(totals.output), 'data-cost-micro-usd': String(totals.costMicroUsd),
    },
    h('td', {}, profileLabel(profile)),
    number(steps.length), number(totals.sent), number(totals.cached), number(totals.written), number(totals.uncached),
    number(totals.output),
    h('td', { class: 'num', title: 'cached ÷ sent: the share of input tokens read from the cache' }, percent(totals.cached, totals.sent)),
    h('td', { class: 'num', title: `${integer(totals.costMicroUsd)} µ$` }, dollars(totals.costMicroUsd)));
  });
  return [tableHead(HEADERS), h('tbody', {}, ...rows)];
}

/**
 * A titled list of names, or "none" when there are none.
 * @param {string} name `files` or `instructions`
 * @param {string} title
 * @param {string[]} items
 */
function seenList(name, title, items) {
  return h('div', { 'data-seen': name, 'data-count': String(items.length) },
    h('b', {}, `${title} (${items.length})`),
    items.length === 0 ? h('p', { class: 'none' }, 'none')
      : h('ul', { class: 'visible-list' }, ...items.map((item) => h('li', {}, h('code', {}, item)))));
}

/**
 * One item per compaction, per profile: when, by which policy, how much it freed, and what
 * the profile could still see; a profile that never compacted says so, and when none did the
 * list says that instead.
 * @param {Comparison} comparison
 * @returns {HTMLElement[]}
 */
export function compactionItems(comparison) {
  const runs = Object.entries(comparison);
  const any = runs.some(([, run]) => run.steps.some((step) => step.compacted !== undefined));
  if (!any) return [h('li', { class: 'none', 'data-none': 'true' }, 'No profile compacted in this scenario.')];
  return runs.flatMap(([profile, run]) => {
    const compacted = run.steps.flatMap((step, request) => step.compacted === undefined ? [] : [{ step, request, seen: step.compacted }]);
    if (compacted.length === 0) {
      return [h('li', { 'data-profile': profile, 'data-none': 'true' }, profileLabel(profile), ' ', h('span', { class: 'none' }, 'never compacted'))];
    }
    return compacted.map(({ step, request, seen }) => h('li', {
      'data-profile': profile, 'data-step': String(step.step), 'data-policy': seen.policy,
      'data-before': String(seen.tokensBefore), 'data-after': String(seen.tokensAfter), 'data-recent': String(seen.recentMessages),
    },
    h('div', {}, profileLabel(profile), ` · step ${step.step + 1} (request ${request + 1}) · `, h('code', {}, seen.policy), ' · ',
      h('span', { class: 'num' }, `${integer(seen.tokensBefore)} → ${integer(seen.tokensAfter)} tok`)),
    h('div', { class: 'compare-seen' },
      seenList('files', 'files', seen.files),
      seenList('instructions', 'instructions', seen.instructions),
      h('div', { 'data-seen': 'recent', 'data-count': String(seen.recentMessages) },
        h('b', {}, 'recent messages'), h('p', {}, `${integer(seen.recentMessages)} kept verbatim`)))));
  });
}


/**
 * The recall table: a row per fact the scenario seeds, a column per profile, each cell where
 * the fact stands in that profile's last request (its reason as the title); the last row
 * counts the facts each profile can still answer. Empty when the scenario seeds no facts.
 * @param {Comparison} comparison
 * @returns {HTMLElement[]}
 */
export function recallRows(comparison) {
  const runs = Object.entries(comparison);
  const facts = runs[0]?.[1].recall ?? [];
  if (facts.length === 0) return [];
  const head = tableHead(['fact', ...runs.map(([profile]) => profile)]);
  const rows = facts.map((fact, i) => h('tr', { 'data-fact': fact.fact },
    h('td', {}, h('code', {}, fact.fact)),
    ...runs.map(([profile, run]) => {
      const recall = run.recall[i];
      return h('td', { class: `recall-${recall.state}`, 'data-profile': profile, 'data-state': recall.state, title: recall.reason },
        recall.state);
    })));
  const kept = h('tr', { 'data-kept': 'true' }, h('th', { scope: 'row' }, 'can still answer'),
    ...runs.map(([profile, run]) => {
      const count = run.recall.filter((r) => r.state === 'verbatim' || r.state === 'summary').length;
      return h('td', { class: 'num', 'data-profile': profile, 'data-kept': String(count) }, `${count} of ${run.recall.length}`);
    }));
  return [head, h('tbody', {}, ...rows, kept)];
}
