// The scenario store: the one place the playground keeps the scenario the player shows — the
// editor's text, the profile picked, the text parsed, the latest replay and its error. The
// player writes to it; every view that follows the scenario subscribes to it, so no view reads
// another view's DOM, and an edit is replayed once however many views show its result.
import { messageOf } from './dom.js';
import { withEngine } from './engine.js';
import { parseJson, scenarioText } from './scenario-text.js';

/** @typedef {import('../pkg/context_assembly.js').Trace} Trace */

/**
 * @typedef {object} ScenarioState
 * @property {string} text the editor's text, as typed
 * @property {string} profile the profile picked to replace the scenario's own; '' keeps it
 * @property {unknown} parsed the text as JSON; `undefined` when it is not JSON
 * @property {Trace | undefined} trace the latest replay that worked; a failed one leaves it
 * @property {string} error why the latest replay failed; '' when it worked
 * @property {number} replays how many replays have worked: a view that sees it change knows
 *   the trace is a new one
 * @property {number} step the step another view asked the player to show (`showStep`)
 * @property {number} opened which scenario this is: a new number each time a writer opens one
 *   (`open`: a built-in scenario, a link's, a file, an imported log), the same through edits of it
 */

/**
 * What a notification is about: `edit` when the text or the profile changed, or another
 * scenario was opened (nothing was replayed), `replay` when a replay ran (it worked when
 * `error` is ''), `step` when a view asked the player to show a step.
 * @typedef {'edit' | 'replay' | 'step'} Change
 */

/** @typedef {(state: ScenarioState, change: Change) => void} Listener */

/**
 * The engine's plain replay of a scenario.
 * @param {string} scenario
 * @returns {Trace}
 */
const engineReplay = (scenario) => withEngine((engine) => engine.runScenario(scenario));

/**
 * A new store with no scenario in it.
 * @param {(scenario: string) => Trace} [replayWith] the replay to run; the engine's unless a
 *   test counts or fakes it
 */
export function createScenarioStore(replayWith = engineReplay) {
  /** @type {ScenarioState} */
  let state = { text: '', profile: '', parsed: undefined, trace: undefined, error: '', replays: 0, step: 0, opened: 0 };
  /** @type {Set<Listener>} */
  const listeners = new Set();

  /**
   * Replaces the state and tells every listener.
   * @param {Partial<ScenarioState>} changes
   * @param {Change} change
   */
  function commit(changes, change) {
    state = { ...state, ...changes };
    for (const listener of listeners) listener(state, change);
  }

  return {
    /** The current state; a new object after every change, never mutated. */
    get state() {
      return state;
    },

    /** The text the engine is given: the editor's, with the picked profile in it. */
    scenario() {
      return scenarioText(state.text, state.parsed, state.profile);
    },

    /**
     * Calls `listener` after every change; returns the call that stops it.
     * @param {Listener} listener
     */
    subscribe(listener) {
      listeners.add(listener);
      return () => { listeners.delete(listener); };
    },

    /**
     * Records an edit of the text or of the profile; nothing is replayed until `replay`.
     * @param {{ text?: string, profile?: string }} edit
     */
    edit({ text = state.text, profile = state.profile }) {
      if (text === state.text && profile === state.profile) return;
      commit({ text, profile, parsed: text === state.text ? state.parsed : parseJson(text) }, 'edit');
    },

    /**
     * Puts another scenario in the store (not an edit of the one in it); nothing is replayed
     * until `replay`.
     * @param {string} text
     * @param {string} profile
     */
    open(text, profile) {
      commit({ text, profile, parsed: parseJson(text), opened: state.opened + 1 }, 'edit');
    },

    /**
     * Asks the player to show step `step` of the trace (a chart's point was clicked).
     * @param {number} step
     */
    showStep(step) {
      commit({ step }, 'step');
    },

    /** Replays the scenario once; a failure keeps the last trace that worked and says why. */
    replay() {
      try {
        const trace = replayWith(scenarioText(state.text, state.parsed, state.profile));
        commit({ trace, error: '', replays: state.replays + 1 }, 'replay');
      } catch (problem) {
        commit({ error: messageOf(problem) }, 'replay');
      }
    },
  };
}

/** @typedef {ReturnType<typeof createScenarioStore>} ScenarioStore */
