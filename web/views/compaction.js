// The compaction view: the scenario player's session, replayed up to a step, then compacted
// by one policy — the request before and after, what survived and why — and every policy
// tried on the same step, side by side.
import { byId, h, messageOf, showError } from '../dom.js';
import { withEngine } from '../engine.js';
import { comparisonRows } from './compaction/compare.js';
import { describePolicy } from './compaction/policies.js';
import { reportView, survivalRows } from './compaction/report.js';
import { meterElements, renderMeter } from './scenario/meter.js';

/** @typedef {import('../../pkg/context_assembly.js').CompactionOptions} CompactionOptions */
/** @typedef {import('../../pkg/context_assembly.js').CompactionPreview} CompactionPreview */
/** @typedef {import('../../pkg/context_assembly.js').PolicyId} PolicyId */
/** @typedef {import('./compaction/compare.js').PolicyOutcome} PolicyOutcome */
/** @typedef {import('../store.js').ScenarioStore} ScenarioStore */
/** @typedef {import('../store.js').ScenarioState} ScenarioState */

/** Partial compaction needs a pivot record the comparison cannot choose, so it only runs alone. */
const PARTIAL = 'claude-code.partial';

/**
 * How many steps precede the first one the session auto-compacted in: replaying those shows
 * the context just as it reached the threshold.
 * @param {ScenarioState['trace']} trace
 * @returns {number | undefined}
 */
function firstCompaction(trace) {
  const index = trace?.steps.findIndex((step) => (step.turn.compaction ?? []).length > 0) ?? -1;
  return index < 0 ? undefined : index;
}

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
   * Runs one policy on the scenario at the chosen step.
   * @param {CompactionOptions} options
   * @returns {CompactionPreview}
   */
  function preview(options) {
    return withEngine((engine) => engine.compactScenario(store.scenario(), options, stepCount()));
  }

  /**
   * Every policy but partial on the same step, each with its defaults so that they are
   * compared as they ship; one policy's failure stays in its row.
   */
  function compareAll() {
    /** @type {PolicyOutcome[]} */
    const outcomes = policies.filter((id) => id !== PARTIAL).map((id) => {
      try {
        return { policy: id, report: preview(optionsFor(id)).report };
      } catch (problem) {
        return { policy: id, error: messageOf(problem) };
      }
    });
    compare.replaceChildren(...comparisonRows(outcomes));
  }

  function compact() {
    const id = /** @type {PolicyId} */ (policy.value);
    try {
      const shown = preview(optionsFor(id, typedParams()));
      showError(error, '');
      renderMeter(before, shown.before);
      renderMeter(after, shown.after);
      report.replaceChildren(...reportView(shown.report));
      survival.replaceChildren(...survivalRows(shown.report.survival));
      compareAll();
      results.hidden = false;
    } catch (problem) {
      showError(error, messageOf(problem));
      clearResults();
    }
  }

  /** The steps of the latest replay that worked: the range the step count is in. */
  const stepTotal = () => store.state.trace?.steps.length ?? 0;

  /** A replay that worked: the step range follows the new scenario, and results of the old one go. */
  function followPlayer() {
    const total = stepTotal();
    if (step.max !== String(total)) {
      step.max = String(total);
      step.value = String(firstCompaction(store.state.trace) ?? total);
    }
    describeStep();
    showError(error, '');
    clearResults();
  }

  /** Names the player's steps the chosen count covers; a count out of range is left to the engine to refuse. */
  function describeStep() {
    const total = stepTotal();
    const count = stepCount() ?? total;
    stepNote.textContent = Number.isInteger(count) && count >= 1 && count <= total
      ? `of ${total}: replays the player's steps 0–${count - 1}, then compacts`
      : `of ${total}`;
  }

  store.subscribe((state, change) => { if (change === 'replay' && state.error === '') followPlayer(); });
  step.addEventListener('input', describeStep);
  policy.addEventListener('change', choosePolicy);
  runButton.addEventListener('click', compact);
  choosePolicy();
  followPlayer();
}
