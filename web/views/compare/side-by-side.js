// Two profiles' requests side by side at the step the player shows (or the reader's own kept
// scenario's against the player's): each replayed and the two requests given to the engine's
// requestDiff, in the worker
// (web/worker/side-by-side.js); here the diff's aligned blocks are drawn as rows — a block only
// one profile sends on its side alone, a block both send with different words on both sides
// with the words marked, the shared ones folded.
import { byId, h, messageOf, showError } from '../../dom.js';
import { withEngine, workerEngine } from '../../engine.js';
import { integer, tokensText } from '../../format.js';
import { showRows } from '../more-rows.js';
import { parseJson } from '../../scenario-text.js';
import { linkTerms } from '../../popover.js';
import { profileLabel } from './tables.js';
import { busyIndicator } from '../busy.js';

/** @typedef {import('../../../pkg/context_assembly.js').AlignedBlock} AlignedBlock */
/** @typedef {import('../../../pkg/context_assembly.js').RequestDiff} RequestDiff */
/** @typedef {import('../../worker/side-by-side.js').SideBySide} SideBySide */
/** @typedef {import('../../store.js').ScenarioStore} ScenarioStore */
/** @typedef {'left' | 'right'} Side */

/** Rows drawn before "N more" is offered. */
const ROWS_SHOWN = 100;
/** Characters of an added or removed block's text shown in its cell. */
const SHOWN_TEXT = 600;
/** An unchanged run of words longer than this keeps its ends only: the eye is on the changes. */
const LONG_RUN = 400;
/** Characters kept at each end of a long unchanged run. */
const RUN_ENDS = 150;
/** The profiles compared by default: the one modelled on Claude Code and ours. */
const DEFAULT_SIDES = /** @type {const} */ (['claude-code', 'recommended']);

/**
 * A long unchanged run with its middle left out.
 * @param {string} text
 */
function foldRun(text) {
  if (text.length <= LONG_RUN) return text;
  return `${text.slice(0, RUN_ENDS)} … (${integer(text.length - 2 * RUN_ENDS)} characters the same) … ${text.slice(-RUN_ENDS)}`;
}

/**
 * Who a block speaks as: its channel, and its role in a message.
 * @param {AlignedBlock} block
 */
const whoOf = (block) => (block.role === undefined ? block.channel : `${block.channel} · ${block.role}`);

/**
 * One side of a changed block: the words it shares with the other side, and its own marked
 * (the left side's as deleted, the right side's as inserted).
 * @param {AlignedBlock} block
 * @param {Side} side
 */
function wordsOf(block, side) {
  const own = side === 'left' ? 'delete' : 'insert';
  const runs = (block.words ?? []).filter((word) => word.op === 'equal' || word.op === own);
  return h('pre', { class: 'block-text word-diff', tabindex: '0', 'aria-label': `the words of ${block.source} in the ${side} request` },
    ...runs.map((word) => (word.op === 'equal' ? foldRun(word.text) : h(side === 'left' ? 'del' : 'ins', {}, word.text))));
}

/**
 * The cell of one side of an aligned block: empty when that side does not send it.
 * @param {AlignedBlock} block
 * @param {Side} side
 */
function cellOf(block, side) {
  const absent = side === 'left' ? 'added' : 'removed';
  if (block.change === absent) return h('td', { class: 'sbs-absent', 'data-side': side }, h('span', { class: 'note' }, 'not sent'));
  const tokens = tokensText(side === 'left' ? block.tokensBefore : block.tokensAfter);
  if (block.change === 'unchanged') {
    return h('td', { class: 'sbs-same', 'data-side': side }, `${block.source} · `, h('span', { class: 'tok' }, tokens));
  }
  const head = h('div', { class: 'block-head' }, h('b', {}, block.change === 'changed' ? 'differs' : 'only here'),
    ` · ${block.source} · ${whoOf(block)} · `, h('span', { class: 'tok' }, tokens));
  const cell = h('td', { class: `sbs-${block.change}`, 'data-side': side }, head);
  if (block.change !== 'changed') {
    const text = block.text ?? '';
    cell.append(h('pre', { class: 'block-text', tabindex: '0', 'aria-label': `the block ${block.source}, sent by the ${side} profile only` },
      text.length > SHOWN_TEXT ? `${text.slice(0, SHOWN_TEXT)}… (${integer(text.length)} characters)` : text));
  } else if (block.words !== undefined && block.words.length > 0) {
    cell.append(wordsOf(block, side));
  } else if (block.wordsSkipped !== undefined) {
    cell.append(h('p', { class: 'note' }, block.wordsSkipped));
  }
  return cell;
}

/**
 * The row of one aligned block.
 * @param {AlignedBlock} block
 * @param {number} index
 */
function rowOf(block, index) {
  return h('tr', { class: `sbs-row sbs-row-${block.change}`, 'data-change': block.change, 'data-index': String(index) },
    cellOf(block, 'left'), cellOf(block, 'right'));
}

/**
 * The header cell of one side: whose scenario it is (when the left one is the reader's own),
 * its profile, its tokens and how many blocks it sends.
 * @param {string} profile
 * @param {number} tokens
 * @param {number} blocks
 * @param {Side} side
 * @param {boolean} againstKept
 */
function headerOf(profile, tokens, blocks, side, againstKept) {
  const whose = againstKept ? `${side === 'left' ? 'yours, kept' : 'the player\'s'} · ` : '';
  return h('th', { scope: 'col', 'data-side': side, 'data-profile': profile, 'data-tokens': String(tokens), 'data-blocks': String(blocks) },
    whose, profileLabel(profile), ` · ${tokensText(tokens)} · ${integer(blocks)} blocks`);
}

/**
 * The counts and the token difference, named by profile.
 * @param {RequestDiff} diff
 * @param {string} left
 * @param {string} right
 */
function summaryOf(diff, left, right) {
  const delta = diff.tokensAfter - diff.tokensBefore;
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  return [h('b', {}, `${diff.changed} differ, ${diff.added} only in ${right}, ${diff.removed} only in ${left}, ${diff.unchanged} the same`),
    ` · ${right} sends `, h('span', { class: 'tok' }, `${sign}${tokensText(Math.abs(delta))}`), ` against ${left}`];
}

/**
 * What a side shows at the step, in words, when it is not the step's own request.
 * @param {string} profile
 * @param {number | undefined} from the step of its request
 * @param {number} step
 */
function sideNote(profile, from, step) {
  if (from === undefined) return ` ${profile} has sent no request yet.`;
  if (from === step) return '';
  return ` ${profile} sends no request at this step: shown is its request of step ${from + 1}, the latest before it.`;
}

/**
 * A scenario's own profile, as the engine reads it (`recommended` when it names none).
 * @param {string} text
 * @param {string[]} profiles the engine's
 */
function ownProfile(text, profiles) {
  const named = /** @type {{ profile?: unknown } | null | undefined} */ (parseJson(text))?.profile;
  return typeof named === 'string' && profiles.includes(named) ? named : 'recommended';
}

/**
 * Wires the side-by-side section of the compare panel: its scenario and profile pickers, its
 * run in the worker, and its step, which follows the player's through the store. Returns the
 * call that sets the reader's kept scenario against the player's, and what a link needs: the
 * pair shown, a pair to show, and a listener told when the pair shown changes.
 * @param {ScenarioStore} store
 * @param {() => string | undefined} keptScenario the reader's own scenario kept in this browser
 */
export function setUpSideBySide(store, keptScenario) {
  const pickers = { left: byId('compare-sbs-left', HTMLSelectElement), right: byId('compare-sbs-right', HTMLSelectElement) };
  const leftScenario = byId('compare-sbs-left-scenario', HTMLSelectElement);
  const keptOption = /** @type {HTMLOptionElement} */ (leftScenario.querySelector('option[value="kept"]'));
  const runButton = byId('compare-sbs-run', HTMLButtonElement);
  const cancelButton = byId('compare-sbs-cancel', HTMLButtonElement);
  const status = byId('compare-sbs-status', HTMLElement);
  const stepNote = byId('compare-sbs-step', HTMLElement);
  const error = byId('compare-sbs-error', HTMLElement);
  const results = byId('compare-sbs-results', HTMLElement);
  const summary = byId('compare-sbs-summary', HTMLElement);
  const table = byId('compare-sbs-table', HTMLTableElement);

  const profiles = withEngine((engine) => engine.profileNames());
  for (const [side, picker] of Object.entries(pickers)) {
    const preferred = DEFAULT_SIDES[side === 'left' ? 0 : 1];
    picker.replaceChildren(...profiles.map((profile) => h('option', { value: profile }, profile)));
    picker.value = profiles.includes(preferred) ? preferred : profiles[side === 'left' ? 0 : profiles.length - 1] ?? '';
  }

  /** The run in the worker, to cancel. @type {AbortController | undefined} */
  let running;
  /** Whether the reader asked for the side by side of this scenario: then a new step or profile redraws it. */
  let asked = false;

  /** Shows how far the replays are, or nothing when none runs. */
  const busy = busyIndicator({ status, cancelButton, runButton });
  /** Told when the pair on screen changes (shown, cleared), so that the address follows. @type {(() => void)[]} */
  const pairListeners = [];
  const pairChanged = () => { for (const listener of pairListeners) listener(); };

  /** The kept scenario can be picked only while there is one. */
  function offerKept() {
    keptOption.disabled = keptScenario() === undefined;
    if (keptOption.disabled && leftScenario.value === 'kept') leftScenario.value = 'player';
  }

  function clearResults() {
    const wasShown = !results.hidden;
    results.hidden = true;
    summary.replaceChildren();
    table.replaceChildren();
    stepNote.textContent = '';
    delete results.dataset.step;
    if (wasShown) pairChanged();
  }

  /**
   * Draws what the worker sent.
   * @param {SideBySide} shown
   * @param {string} left
   * @param {string} right
   * @param {boolean} againstKept whether the left side is the reader's kept scenario
   */
  function render(shown, left, right, againstKept) {
    const names = againstKept ? { left: `yours (${left})`, right: `the player's (${right})` } : { left, right };
    // A profile's name opens its sentence as it is spelt; a side's owner opens it capitalised.
    const opening = (/** @type {string} */ name) => (againstKept ? `${name.charAt(0).toUpperCase()}${name.slice(1)}` : name);
    stepNote.textContent = `At step ${shown.step + 1} of ${shown.total}, the step the player shows.`
      + sideNote(opening(names.left), shown.from.left, shown.step) + sideNote(opening(names.right), shown.from.right, shown.step);
    results.dataset.step = String(shown.step);
    results.hidden = false;
    const { diff } = shown;
    if (diff === undefined) {
      summary.replaceChildren();
      table.replaceChildren();
      return;
    }
    summary.replaceChildren(...summaryOf(diff, names.left, names.right));
    Object.assign(summary.dataset, {
      added: String(diff.added), removed: String(diff.removed), changed: String(diff.changed), unchanged: String(diff.unchanged),
    });
    const body = h('tbody');
    table.replaceChildren(h('thead', {}, h('tr', {},
      headerOf(left, diff.tokensBefore, diff.unchanged + diff.removed + diff.changed, 'left', againstKept),
      headerOf(right, diff.tokensAfter, diff.unchanged + diff.added + diff.changed, 'right', againstKept))), body);
    showRows(body, diff.blocks.length, (row) => rowOf(/** @type {AlignedBlock} */ (diff.blocks[row]), row), 2, ROWS_SHOWN);
    linkTerms(results);
  }

  /**
   * Asks the worker for the two requests at the store's step (it replays each side the first
   * time, and keeps the requests), and draws them; a step moved meanwhile is asked again.
   */
  async function show() {
    asked = true;
    const controller = new AbortController();
    running?.abort();
    running = controller;
    busy('Replaying…');
    try {
      const engine = (await workerEngine('side-by-side')).with({ signal: controller.signal });
      const onProgress = (/** @type {number} */ done, /** @type {number} */ total) =>
        busy(`Replaying under both profiles… step ${integer(done)} of ${integer(total)}`);
      for (;;) {
        const { step, text } = store.state;
        const [left, right, against] = [pickers.left.value, pickers.right.value, leftScenario.value];
        const againstKept = against === 'kept';
        const leftText = againstKept ? keptScenario() : text;
        if (leftText === undefined) throw new Error('No scenario of yours is kept in this browser to set against the player\'s.');
        const shown = await engine.sideBySide({ left: { text: leftText, profile: left }, right: { text, profile: right } }, step, { onProgress });
        if (running !== controller) return;
        if (store.state.step === step && pickers.left.value === left && pickers.right.value === right && leftScenario.value === against) {
          showError(error, '');
          render(shown, left, right, againstKept);
          pairChanged();
          return;
        }
      }
    } catch (problem) {
      if (running !== controller) return;
      const cancelled = problem instanceof DOMException && problem.name === 'AbortError';
      showError(error, cancelled ? 'Cancelled: nothing replayed.' : messageOf(problem));
      asked = false;
      clearResults();
    } finally {
      if (running === controller) {
        running = undefined;
        busy('');
      }
    }
  }

  /** A new step, profile or scenario: redrawn when shown, and by the run under way when one is. */
  function follow() {
    if (asked && running === undefined) void show();
  }

  store.subscribe((state, change) => {
    if (change === 'step') {
      follow();
      return;
    }
    if (change !== 'replay') return;
    offerKept();
    if (state.error !== '') return;
    // A new scenario, or new text: what is on screen is of the old one.
    const stale = running;
    running = undefined;
    asked = false;
    busy('');
    stale?.abort();
    showError(error, '');
    clearResults();
  });
  runButton.addEventListener('click', () => void show());
  cancelButton.addEventListener('click', () => running?.abort());
  for (const picker of [...Object.values(pickers), leftScenario]) picker.addEventListener('change', follow);
  offerKept();
  clearResults();

  return {
    /** Sets the reader's kept scenario (left) against the player's (right), each under its own profile, and shows them. */
    againstKept() {
      const kept = keptScenario();
      offerKept();
      if (kept === undefined) return;
      leftScenario.value = 'kept';
      pickers.left.value = ownProfile(kept, profiles);
      pickers.right.value = store.state.profile || ownProfile(store.state.text, profiles);
      void show();
    },
    /**
     * The profiles shown side by side, left then right, for a link; nothing when no pair is shown
     * or the left side is the reader's kept scenario, which a link does not carry.
     * @returns {[string, string] | undefined}
     */
    shownPair() {
      if (results.hidden || leftScenario.value === 'kept') return undefined;
      return [pickers.left.value, pickers.right.value];
    },
    /**
     * Shows a link's pair side by side at the player's step, both sides on the player's
     * scenario; a profile the engine does not know is said, not shown.
     * @param {[string, string]} pair
     */
    async showPair([left, right]) {
      const known = /** @type {string[]} */ (profiles);
      const unknown = [left, right].filter((name) => !known.includes(name));
      if (unknown.length > 0) {
        showError(error, `The link's side-by-side pair names ${unknown.map((name) => `"${name}"`).join(' and ')}, which this engine does not know: the profiles are ${profiles.join(', ')}.`);
        return;
      }
      leftScenario.value = 'player';
      pickers.left.value = left;
      pickers.right.value = right;
      await show();
    },
    /** @param {() => void} listener told when the pair on screen changes */
    onPairChange(listener) {
      pairListeners.push(listener);
    },
  };
}
