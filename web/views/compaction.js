// The compaction view: the scenario player's session, replayed up to a step, then compacted
// by one policy — the request before and after, what survived and why — and every policy
// tried on the same step, side by side.
import { byId, h, messageOf, showError } from '../dom.js';
import { withEngine, workerEngine } from '../engine.js';
import { comparisonRows } from './compaction/compare.js';
import { describePolicy } from './compaction/policies.js';
import { reportView, survivalRows } from './compaction/report.js';
import { meterElements, renderMeter } from './scenario/meter.js';
import { busyIndicator } from './busy.js';
import { linkTerms } from '../popover.js';

/** @typedef {import('../../pkg/context_assembly.js').CompactionOptions} CompactionOptions */
/** @typedef {import('../../pkg/context_assembly.js').CompactionPreview} CompactionPreview */
/** @typedef {import('../../pkg/context_assembly.js').PolicyId} PolicyId */
/** @typedef {import('./compaction/compare.js').PolicyOutcome} PolicyOutcome */
/** @typedef {import('../store.js').ScenarioStore} ScenarioStore */

/**
 * Whether a run ended because it was cancelled.
 * @param {unknown} problem
 */
const cancelled = (problem) => problem instanceof DOMException && problem.name === 'AbortError';

/** Partial compaction needs a pivot record the comparison cannot choose, so it only runs alone. */
const PARTIAL = 'claude-code.partial';

/**
 * Wires the compaction panel to the scenario store: it compacts the player's scenario, and
 * its step range follows every replay that worked. Never throws: the engine's complaints
 * (a step out of range, a missing pivot) are shown in the panel.
 * @param {ScenarioStore} store
 */
export function setUpCompaction(store) {
  const step = byId('compaction-step', HTMLInputElement);
  const stepNote = byId('compaction-step-note', HTMLElement);
  const policy = byId('compaction-policy', HTMLSelectElement);
  const pivot = byId('compaction-pivot', HTMLInputElement);
  const direction = byId('compaction-direction', HTMLSelectElement);
  const instructions = byId('compaction-instructions', HTMLInputElement);
  const params = byId('compaction-params', HTMLInputElement);
  const runButton = byId('compaction-run', HTMLButtonElement);
  const cancelButton = byId('compaction-cancel', HTMLButtonElement);
  const status = byId('compaction-status', HTMLElement);
  const error = byId('compaction-error', HTMLElement);
  const results = byId('compaction-results', HTMLElement);
  const before = meterElements('compaction-before');
  const after = meterElements('compaction-after');
  const report = byId('compaction-report', HTMLElement);
  const survival = byId('compaction-survival', HTMLTableElement);
  const compare = byId('compaction-compare', HTMLTableElement);

  const policies = withEngine((engine) => engine.compactionPolicies());
  policy.replaceChildren(...policies.map((id) => h('option', { value: id }, id)));
  // What the picked policy does, in words, beside the picker.
  const policyDescription = h('p', { id: 'compaction-policy-description', class: 'note', 'aria-live': 'polite' });
  (policy.closest('label') ?? policy).after(policyDescription);

  /** Empties the results, so that nothing on screen belongs to another scenario or step. */
  function clearResults() {
    results.hidden = true;
    renderMeter(before, undefined);
    renderMeter(after, undefined);
    report.replaceChildren();
    survival.replaceChildren();
    compare.replaceChildren();
  }

  /**
   * Describes the picked policy; the pivot and direction only mean something to partial
   * compaction (the engine refuses them elsewhere).
   */
  function choosePolicy() {
    policyDescription.textContent = describePolicy(policy.value);
    linkTerms(policyDescription);
    const partial = policy.value === PARTIAL;
    pivot.disabled = !partial;
    direction.disabled = !partial;
  }

  /**
   * The knobs typed for the picked policy; the engine names any it does not know.
   * @returns {CompactionOptions['params']}
   */
  function typedParams() {
    if (params.value.trim() === '') return undefined;
    try {
      return JSON.parse(params.value);
    } catch (problem) {
      throw new Error(`params: not JSON: ${messageOf(problem)}`);
    }
  }

  /**
   * The options for `id`, with what the reader typed.
   * @param {PolicyId} id
   * @param {CompactionOptions['params']} [knobs] the policy's own settings; its defaults when absent
   * @returns {CompactionOptions}
   */
  function optionsFor(id, knobs) {
    /** @type {CompactionOptions} */
    const options = { policy: id };
    if (knobs !== undefined) options.params = knobs;
    if (instructions.value.trim() !== '') options.instructions = instructions.value;
    if (id === PARTIAL) {
      // An empty pivot is left out, so the engine says that partial compaction needs one.
      if (pivot.value !== '') options.pivot = Number(pivot.value);
      options.direction = direction.value === 'from' ? 'from' : 'upTo';
    }
    return options;
  }

  /** How many steps to replay; empty means all of them. */
  function stepCount() {
    return step.value.trim() === '' ? undefined : Number(step.value);
  }

  /**
   * Every policy but partial on the same step, each with its defaults so that they are
   * compared as they ship; one policy's failure stays in its row.
   * @param {(options: CompactionOptions, label: string) => Promise<CompactionPreview>} preview
   * @returns {Promise<PolicyOutcome[]>}
   */
  async function compareAll(preview) {
    const ids = policies.filter((id) => id !== PARTIAL);
    /** @type {PolicyOutcome[]} */
    const outcomes = [];
    for (const [index, id] of ids.entries()) {
      try {
        outcomes.push({ policy: id, report: (await preview(optionsFor(id), `comparing ${id} (${index + 1} of ${ids.length})`)).report });
      } catch (problem) {
        // A cancellation ends the whole run; anything else is this policy's own failure.
        if (cancelled(problem)) throw problem;
        outcomes.push({ policy: id, error: messageOf(problem) });
      }
    }
    return outcomes;
  }

  /** The run in the worker, to cancel. @type {AbortController | undefined} */
  let running;

  /** Shows how far the run is, or nothing when none runs. */
  const busy = busyIndicator({ status, cancelButton, runButton });

  /**
   * The picked policy, then every policy for the comparison, each a replay of the scenario up
   * to the chosen step: in the worker, so that a long scenario leaves the page responsive.
   */
  async function compact() {
    const id = /** @type {PolicyId} */ (policy.value);
    const controller = new AbortController();
    running = controller;
    const scenario = store.scenario();
    const steps = stepCount();
    /** @param {CompactionOptions} options @param {string} label */
    const preview = async (options, label) => {
      busy(`Compacting… ${label}`);
      const engine = (await workerEngine('compaction')).with({ signal: controller.signal });
      return engine.compactScenario(scenario, options, steps);
    };
    try {
      const shown = await preview(optionsFor(id, typedParams()), id);
      const outcomes = await compareAll(preview);
      if (running !== controller) return;
      showError(error, '');
      renderMeter(before, shown.before);
      renderMeter(after, shown.after);
      report.replaceChildren(...reportView(shown.report));
      survival.replaceChildren(...survivalRows(shown.report.survival));
      compare.replaceChildren(...comparisonRows(outcomes));
      linkTerms(results);
      results.hidden = false;
    } catch (problem) {
      if (running !== controller) return;
      showError(error, cancelled(problem) ? 'Compaction cancelled.' : messageOf(problem));
      clearResults();
    } finally {
      if (running === controller) {
        running = undefined;
        busy('');
        runButton.focus();
      }
    }
  }

  /** Stops the run in the worker, if any, without a word: its scenario or step is gone. */
  function dropRun() {
    const stale = running;
    running = undefined;
    busy('');
    stale?.abort();
  }

  /** The steps of the latest replay that worked: the range the step count is in. */
  const stepTotal = () => store.state.trace?.steps.length ?? 0;
  /** Whether the reader typed their own count; until then the count follows the player. */
  let typed = false;

  /**
   * The count follows the player: its steps up to the one it shows. Results of another count
   * go, and so does a run for one.
   */
  function followStep() {
    if (typed) return;
    const count = String(Math.min(stepTotal(), store.state.step + 1));
    if (step.value === count) return;
    step.value = count;
    describeStep();
    dropRun();
    clearResults();
  }

  /** A replay that worked: the step range follows the new scenario, and results of the old one go. */
  function followPlayer() {
    const total = stepTotal();
    if (step.max !== String(total)) {
      step.max = String(total);
      typed = false;
    }
    followStep();
    describeStep();
    dropRun();
    showError(error, '');
    clearResults();
  }

  /** Names the player's steps the chosen count covers, from 1; a count out of range is left to the engine to refuse. */
  function describeStep() {
    const total = stepTotal();
    const count = stepCount() ?? total;
    const range = count === 1 ? 'step 1' : `steps 1–${count}`;
    const following = typed ? '' : `follows the player, at step ${count}: `;
    stepNote.textContent = Number.isInteger(count) && count >= 1 && count <= total
      ? `of ${total}: ${following}replays the player's ${range}, then compacts`
      : `of ${total}`;
  }

  store.subscribe((state, change) => {
    if (change === 'replay' && state.error === '') followPlayer();
    else if (change === 'step') followStep();
  });
  step.addEventListener('input', () => {
    typed = true;
    describeStep();
  });
  policy.addEventListener('change', choosePolicy);
  runButton.addEventListener('click', () => void compact());
  cancelButton.addEventListener('click', () => running?.abort());
  choosePolicy();
  followPlayer();
}
