// The compare view: the player's scenario replayed under several profiles side by side —
// how large each request is, how much of it the provider's prompt cache serves, what it
// costs, and what each profile can still see after it compacts.
import { byId, h, messageOf, showError } from '../dom.js';
import { withEngine, workerEngine } from '../engine.js';
import { clearChart, drawChart } from './compare/chart.js';
import { dollars, integer } from '../format.js';
import { compactionItems, profileLabel, totalsRows } from './compare/tables.js';

/** @typedef {import('../../pkg/context_assembly.js').Comparison} Comparison */
/** @typedef {import('../../pkg/context_assembly.js').CompareStep} CompareStep */
/** @typedef {import('../../pkg/context_assembly.js').ProfileName} ProfileName */
/** @typedef {import('./compare/chart.js').Series} Series */
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
const where = (profile, index, step) => `${profile}, request ${index + 1} (step ${step.step})`;

/**
 * Draws the three charts of a comparison.
 * @param {{ size: SVGSVGElement, hits: SVGSVGElement, cost: SVGSVGElement }} charts
 * @param {Comparison} comparison
 */
function drawCharts(charts, comparison) {
  const runs = Object.entries(comparison);
  /** @type {Series[]} */
  const sizes = runs.map(([profile, run]) => ({
    profile,
    points: run.steps.map((step, index) => ({
      y: step.sent,
      label: `${where(profile, index, step)}: ${integer(step.sent)} tok sent`
        + (step.compacted === undefined ? '' : `, after ${step.compacted.policy}`),
      ...(step.compacted === undefined ? {} : { compacted: step.compacted.policy }),
    })),
  }));
  drawChart(charts.size, {
    title: 'Request size per request',
    description: 'Input tokens sent by each request, one line per profile; a vertical tick marks a request that followed a compaction.',
    xLabel: 'request',
    yMax: Math.max(0, ...runs.flatMap(([, run]) => run.steps.map((step) => step.sent))),
    yText: (value) => `${integer(Math.round(value))} tok`,
    series: sizes,
  });
  drawChart(charts.hits, {
    title: 'Cache hit share per request',
    description: 'The share of each request\'s input tokens read from the prompt cache, cached ÷ sent, one line per profile.',
    xLabel: 'request',
    yMax: 100,
    yText: (value) => `${value.toFixed(0)}%`,
    series: runs.map(([profile, run]) => ({
      profile,
      points: run.steps.map((step, index) => ({
        y: hitShare(step),
        label: `${where(profile, index, step)}: ${hitShare(step).toFixed(1)}% cached (${integer(step.cached)} of ${integer(step.sent)} tok)`,
      })),
    })),
  });
  drawChart(charts.cost, {
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
          return { y: sum / 1e6, label: `${where(profile, index, step)}: ${dollars(step.costMicroUsd)}, ${dollars(sum)} so far` };
        }),
      };
    }),
  });
}

/**
 * Wires the compare panel to the scenario store: it compares the player's scenario, and
 * every replay that worked clears its results. Never throws: the engine's complaints (a
 * scenario that does not parse, a step a profile cannot run) are shown in the panel.
 * @param {ScenarioStore} store
 */
export function setUpCompare(store) {
  const choices = byId('compare-profiles', HTMLElement);
  const runButton = byId('compare-run', HTMLButtonElement);
  const error = byId('compare-error', HTMLElement);
  const status = byId('compare-status', HTMLElement);
  const cancelButton = byId('compare-cancel', HTMLButtonElement);
  const results = byId('compare-results', HTMLElement);
  const legend = byId('compare-legend', HTMLUListElement);
  const totals = byId('compare-totals', HTMLTableElement);
  const compactions = byId('compare-compactions', HTMLUListElement);
  const charts = {
    size: byId('compare-size', SVGSVGElement), hits: byId('compare-hits', SVGSVGElement), cost: byId('compare-cost', SVGSVGElement),
  };

  const profiles = withEngine((engine) => engine.profileNames());
  choices.replaceChildren(...profiles.map((profile) => {
    const box = h('input', { type: 'checkbox', value: profile });
    box.checked = true;
    return h('label', {}, box, ' ', profileLabel(profile));
  }));

  /** Empties the results, so that nothing on screen belongs to another scenario. */
  function clearResults() {
    results.hidden = true;
    delete results.dataset.profiles;
    legend.replaceChildren();
    totals.replaceChildren();
    compactions.replaceChildren();
    for (const chart of Object.values(charts)) clearChart(chart);
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

  /** Shows how far the comparison is, or nothing when none runs. @param {string} text */
  function busy(text) {
    status.textContent = text;
    status.hidden = text === '';
    cancelButton.hidden = text === '';
    runButton.disabled = text !== '';
  }

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
      const engine = await workerEngine();
      const onProgress = (/** @type {number} */ done, /** @type {number} */ total) =>
        busy(`Comparing… step ${integer(done)} of ${integer(total)}`);
      /** @type {Comparison} */
      const comparison = await engine.with({ signal: controller.signal })
        .compareProfiles(store.state.text, picked, { onProgress });
      if (running !== controller) return;
      showError(error, '');
      drawCharts(charts, comparison);
      legend.replaceChildren(...Object.keys(comparison).map((profile) => h('li', { 'data-profile': profile },
        profileLabel(profile))));
      totals.replaceChildren(...totalsRows(comparison));
      compactions.replaceChildren(...compactionItems(comparison));
      results.dataset.profiles = Object.keys(comparison).join(' ');
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
  cancelButton.addEventListener('click', () => running?.abort());
  clearResults();
}
