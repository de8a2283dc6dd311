// The compare view: the player's scenario replayed under several profiles side by side —
// how large each request is, how much of it the provider's prompt cache serves, what it
// costs, and what each profile can still see after it compacts; below, two profiles' requests
// side by side at the player's step (compare/side-by-side.js).
import { byId, h, messageOf, showError } from '../dom.js';
import { withEngine, workerEngine } from '../engine.js';
import { chartTable, clearChart, drawChart } from './compare/chart.js';
import { costExplanations, takeawayOf } from './compare/explain.js';
import { PRICE_TABLES, equalPrices } from './compare/prices.js';
import { dollars, integer } from '../format.js';
import { setUpSideBySide } from './compare/side-by-side.js';
import { compactionItems, profileLabel, recallRows, totalsRows } from './compare/tables.js';
import { releaseButtons } from './compare/releases.js';
import { busyIndicator } from './busy.js';
import { linkTerms } from '../popover.js';

/** @typedef {import('../../pkg/context_assembly.js').Comparison} Comparison */
/** @typedef {import('../../pkg/context_assembly.js').CompareStep} CompareStep */
/** @typedef {import('../../pkg/context_assembly.js').ProfileName} ProfileName */
/** @typedef {import('./compare/chart.js').Series} Series */
/** @typedef {import('./compare/chart.js').Point} Point */
/** @typedef {import('../store.js').ScenarioStore} ScenarioStore */

/**
 * The cache hit share of one request in percent; a request of nothing hit nothing.
 * @param {CompareStep} step
 */
const hitShare = (step) => (step.sent > 0 ? (step.cached / step.sent) * 100 : 0);

/**
 * Where a request sits among its profile's, as a tooltip starts.
 * @param {string} profile
 * @param {number} index
 * @param {CompareStep} step
 */
const where = (profile, index, step) => `${profile}, request ${index + 1} (step ${step.step + 1})`;

/** @typedef {{ size: SVGSVGElement, hits: SVGSVGElement, cost: SVGSVGElement }} Charts */
/** @typedef {{ value: number, label: string, short: string }[]} Thresholds */

/**
 * The three charts of a comparison, with how the table view spells each value.
 * @param {Comparison} comparison
 * @param {Thresholds} thresholds each profile's auto-compaction threshold, for the size chart
 * @returns {Record<keyof Charts, { spec: import('./compare/chart.js').ChartSpec, valueText: (point: Point) => string }>}
 */
function chartSpecs(comparison, thresholds) {
  const runs = Object.entries(comparison);
  const maxSent = Math.max(0, ...runs.flatMap(([, run]) => run.steps.map((step) => step.sent)));
  // A threshold far above every request would squash the lines to the bottom: it is then only
  // named in the table view.
  const near = thresholds.filter((line) => line.value <= maxSent * 1.25);
  /** @type {Series[]} */
  const sizes = runs.map(([profile, run]) => ({
    profile,
    points: run.steps.map((step, index) => ({
      y: step.sent,
      step: step.step,
      label: `${where(profile, index, step)}: ${integer(step.sent)} tok sent`
        + (step.compacted === undefined ? '' : `, after ${step.compacted.policy}`),
      ...(step.compacted === undefined ? {} : { compacted: step.compacted.policy }),
    })),
  }));
  return {
    size: {
      spec: {
        title: 'Request size per request',
        description: 'Input tokens sent by each request, one line per profile; a vertical tick marks a request that followed a compaction, a dashed line the auto-compaction threshold.',
        xLabel: 'request',
        yMax: Math.max(maxSent, ...near.map((line) => line.value)),
        yText: (value) => `${integer(Math.round(value))} tok`,
        series: sizes,
        thresholds,
      },
      valueText: (point) => `${integer(point.y)} tok${point.compacted === undefined ? '' : ` (after ${point.compacted})`}`,
    },
    hits: {
      spec: {
        title: 'Cache hit share per request',
        description: 'The share of each request\'s input tokens read from the prompt cache, cached ÷ sent, one line per profile.',
        xLabel: 'request',
        yMax: 100,
        yText: (value) => `${value.toFixed(0)}%`,
        series: runs.map(([profile, run]) => ({
          profile,
          points: run.steps.map((step, index) => ({
            y: hitShare(step),
            step: step.step,
            label: `${where(profile, index, step)}: ${hitShare(step).toFixed(1)}% cached (${integer(step.cached)} of ${integer(step.sent)} tok)`,
          })),
        })),
      },
      valueText: (point) => `${point.y.toFixed(1)}%`,
    },
    cost: {
      spec: {
        title: 'Cumulative cost',
        description: 'The running total of what the requests cost in dollars, one line per profile.',
        xLabel: 'request',
        yMax: Math.max(0, ...runs.map(([, run]) => run.totals.costMicroUsd)) / 1e6,
        yText: (value) => `$${value.toFixed(4)}`,
        series: runs.map(([profile, run]) => {
          let sum = 0;
          return {
            profile,
            points: run.steps.map((step, index) => {
              sum += step.costMicroUsd;
              return { y: sum / 1e6, step: step.step, label: `${where(profile, index, step)}: ${dollars(step.costMicroUsd)}, ${dollars(sum)} so far` };
            }),
          };
        }),
      },
      valueText: (point) => `$${point.y.toFixed(4)}`,
    },
  };
}

/**
 * Each profile's auto-compaction threshold, as the engine computes it for a fresh session of
 * the scenario's configuration; profiles that share one share a line. A configuration the
 * engine refuses draws no line (the comparison itself reports what is wrong).
 * @param {unknown} parsed the scenario as JSON
 * @param {string[]} profiles
 * @returns {Thresholds}
 */
function autocompactThresholds(parsed, profiles) {
  const scenario = /** @type {{ cwd?: unknown, home?: unknown, config?: unknown }} */ (parsed ?? {});
  /** @type {Map<number, string[]>} */
  const byValue = new Map();
  for (const profile of profiles) {
    try {
      const value = withEngine((engine) => {
        const session = new engine.Session({
          profile: /** @type {ProfileName} */ (profile),
          cwd: typeof scenario.cwd === 'string' ? scenario.cwd : '/project',
          ...(typeof scenario.home === 'string' ? { home: scenario.home } : {}),
          config: /** @type {import('../../pkg/context_assembly.js').SessionConfig} */ (scenario.config ?? {}),
        });
        try {
          return session.currentRequest(0).window.autocompact;
        } finally {
          session.free();
        }
      });
      byValue.set(value, [...(byValue.get(value) ?? []), profile]);
    } catch {
      // No line for this profile: see above.
    }
  }
  // The chart names the value only (a label as wide as the plot would be cut); the table view
  // says whose threshold each line is.
  return [...byValue].map(([value, names]) => ({
    value, label: `auto-compaction at ${integer(value)} tok (${names.join(', ')})`, short: `auto-compaction ${integer(value)} tok` }));
}

/**
 * Wires the compare panel to the scenario store: it compares the player's scenario, and
 * every replay that worked clears its results. Never throws: the engine's complaints (a
 * scenario that does not parse, a step a profile cannot run) are shown in the panel. Returns the
 * side by side's calls.
 * @param {ScenarioStore} store
 * @param {() => string | undefined} keptScenario the reader's own scenario kept in this browser,
 *   which the side by side can set against the player's
 */
export function setUpCompare(store, keptScenario) {
  const choices = byId('compare-profiles', HTMLElement);
  const runButton = byId('compare-run', HTMLButtonElement);
  const error = byId('compare-error', HTMLElement);
  const status = byId('compare-status', HTMLElement);
  const cancelButton = byId('compare-cancel', HTMLButtonElement);
  const results = byId('compare-results', HTMLElement);
  const legend = byId('compare-legend', HTMLUListElement);
  const totals = byId('compare-totals', HTMLTableElement);
  const compactions = byId('compare-compactions', HTMLUListElement);
  const recall = byId('compare-recall', HTMLTableElement);
  const recallSection = byId('compare-recall-section', HTMLElement);
  /** @type {Charts} */
  const charts = {
    size: byId('compare-size', SVGSVGElement), hits: byId('compare-hits', SVGSVGElement), cost: byId('compare-cost', SVGSVGElement),
  };
  // Built here rather than in the page: a table view under each chart, the price choice, and
  // the explanation of the cost differences under the totals.
  const tableViews = Object.fromEntries(Object.entries(charts).map(([name, svg]) => {
    const slot = h('div', { id: `${svg.id}-table`, class: 'compare-table-slot' });
    (svg.closest('figure') ?? svg).append(slot);
    return [name, slot];
  }));
  const pricing = h('select', { id: 'compare-prices' },
    h('option', { value: '' }, 'each provider\'s own'),
    ...Object.entries(PRICE_TABLES).map(([id, { label }]) => h('option', { value: id }, `all at ${label}'s`)));
  choices.after(h('label', { title: 'Price every profile alike, so that a cost difference is the strategy\'s alone' }, 'Prices ', pricing));
  const explanations = h('table', { id: 'compare-explain', class: 'grid compare-explain' });
  totals.after(h('h3', {}, 'Why the costs differ'), h('p', { class: 'explain' }, 'Each profile against the cheapest, from the engine\'s figures for every request: the tokens each way the cache charged them, and the requests that read nothing from the cache.'), explanations);
  // The comparison in one sentence, above its charts.
  const takeaway = h('p', { id: 'compare-takeaway', class: 'takeaway' });
  legend.before(takeaway);
  /** The comparison on screen, to draw again at a new width. @type {{ comparison: Comparison, thresholds: Thresholds } | undefined} */
  let shown;

  const profiles = withEngine((engine) => engine.profileNames());
  choices.replaceChildren(...profiles.map((profile) => {
    const box = h('input', { type: 'checkbox', value: profile });
    box.checked = true;
    return h('label', {}, box, ' ', profileLabel(profile));
  }));
  // Two releases of one client side by side: a button ticks just them.
  const releases = withEngine((engine) => engine.profileReleases());
  choices.append(...releaseButtons(releases, (names) => {
    for (const box of choices.querySelectorAll('input[type=checkbox]')) {
      if (box instanceof HTMLInputElement) box.checked = names.has(box.value);
    }
  }));

  /** Empties the results, so that nothing on screen belongs to another scenario. */
  function clearResults() {
    results.hidden = true;
    delete results.dataset.profiles;
    legend.replaceChildren();
    totals.replaceChildren();
    explanations.replaceChildren();
    takeaway.textContent = '';
    compactions.replaceChildren();
    for (const chart of Object.values(charts)) clearChart(chart);
    for (const slot of Object.values(tableViews)) slot.replaceChildren();
    shown = undefined;
  }

  /** Draws the charts of the comparison on screen at their current width, and their tables. */
  function drawCharts() {
    if (shown === undefined) return;
    const specs = chartSpecs(shown.comparison, shown.thresholds);
    for (const name of /** @type {(keyof Charts)[]} */ (Object.keys(charts))) {
      drawChart(charts[name], specs[name].spec);
      tableViews[name].replaceChildren(chartTable(specs[name].spec, specs[name].valueText));
      linkTerms(tableViews[name]);
    }
  }

  /**
   * The ticked profiles, in the engine's order.
   * @returns {ProfileName[]}
   */
  function chosen() {
    return profiles.filter((profile) => {
      const box = choices.querySelector(`input[value="${profile}"]`);
      return box instanceof HTMLInputElement && box.checked;
    });
  }

  /** The comparison running in the worker, to cancel. @type {AbortController | undefined} */
  let running;

  /** Shows how far the comparison is, or nothing when none runs. */
  const busy = busyIndicator({ status, cancelButton, runButton });

  /**
   * Replays the player's text as it is, in the worker so the page stays responsive: the
   * player's profile override is left out, since here the profiles are the ones ticked.
   */
  async function compare() {
    const picked = chosen();
    if (picked.length === 0) {
      showError(error, 'Tick at least one profile to compare.');
      clearResults();
      return;
    }
    const controller = new AbortController();
    running = controller;
    busy('Comparing…');
    try {
      const engine = await workerEngine('compare');
      const onProgress = (/** @type {number} */ done, /** @type {number} */ total) =>
        busy(`Comparing… step ${integer(done)} of ${integer(total)}`);
      const prices = equalPrices(pricing.value, picked);
      /** @type {Comparison} */
      const comparison = await engine.with({ signal: controller.signal })
        .compareProfiles(store.state.text, picked, { onProgress, usage: 'scenario', ...(prices === undefined ? {} : { prices }) });
      if (running !== controller) return;
      showError(error, '');
      results.hidden = false;
      shown = { comparison, thresholds: autocompactThresholds(store.state.parsed, Object.keys(comparison)) };
      drawCharts();
      explanations.replaceChildren(...costExplanations(comparison));
      takeaway.textContent = takeawayOf(comparison);
      results.dataset.prices = pricing.value;
      legend.replaceChildren(...Object.keys(comparison).map((profile) => h('li', { 'data-profile': profile },
        profileLabel(profile))));
      totals.replaceChildren(...totalsRows(comparison));
      compactions.replaceChildren(...compactionItems(comparison));
      const recallTable = recallRows(comparison);
      recall.replaceChildren(...recallTable);
      recallSection.hidden = recallTable.length === 0;
      results.dataset.profiles = Object.keys(comparison).join(' ');
      linkTerms(results);
      results.hidden = false;
    } catch (problem) {
      if (running !== controller) return;
      const cancelled = problem instanceof DOMException && problem.name === 'AbortError';
      showError(error, cancelled ? 'Comparison cancelled.' : messageOf(problem));
      clearResults();
    } finally {
      if (running === controller) {
        running = undefined;
        busy('');
        runButton.focus();
      }
    }
  }

  // After a replay that worked, the results on screen belong to the previous scenario (or its
  // previous text), so they go.
  store.subscribe((state, change) => {
    if (change !== 'replay' || state.error !== '') return;
    // A comparison still running is of the previous text: it stops, and says nothing.
    const stale = running;
    running = undefined;
    busy('');
    stale?.abort();
    showError(error, '');
    clearResults();
  });
  runButton.addEventListener('click', () => void compare());
  // A point of a chart, or a step button of its table, shows that step in the player.
  for (const figure of Object.values(charts).map((svg) => svg.closest('figure') ?? svg)) {
    figure.addEventListener('click', (event) => {
      const target = event.target instanceof Element ? event.target.closest('[data-step]') : null;
      if (target === null || !(target.matches('.chart-point, .step-link'))) return;
      store.showStep(Number(target.getAttribute('data-step')));
    });
  }
  // Charts are drawn at their width: a new width draws them again, once per frame at most.
  let lastWidth = 0;
  let frame = 0;
  new ResizeObserver(() => {
    const width = charts.size.getBoundingClientRect().width;
    if (width === lastWidth || shown === undefined) return;
    lastWidth = width;
    cancelAnimationFrame(frame);
    frame = requestAnimationFrame(drawCharts);
  }).observe(charts.size);
  cancelButton.addEventListener('click', () => running?.abort());
  clearResults();
  return {
    ...setUpSideBySide(store, keptScenario),
    /** Compares the player's scenario under the ticked profiles, as Compare does (a link to the tab runs it on open). */
    run: compare,
  };
}
