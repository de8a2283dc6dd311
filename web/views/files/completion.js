// `@` completion in the composer, as Codex's TUI does it (spec codex.md §6.1–6.2): the
// token under the caret that starts with `@` (the engine's `atToken`) is looked up with the
// engine's port of Codex's fuzzy file search (§6.6), and an accepted match replaces the token
// with the engine's `completionInsertion`.
import { h, messageOf } from '../../dom.js';
import { withEngine } from '../../engine.js';

/** @typedef {import('../../../pkg/context_assembly.js').Session} Session */
/** @typedef {import('../../../pkg/context_assembly.js').SearchMatch} SearchMatch */
/** @typedef {import('../../../pkg/context_assembly.js').AtToken} AtToken */

/** Matches shown at most (Codex's `MAX_POPUP_ROWS`, spec codex.md §6.1). */
export const MAX_POPUP_ROWS = 8;

/**
 * The path with its matched characters marked. `indices` are UTF-16 units, as JS strings
 * index; the path is walked a character at a time (`Array.from`) so that a character outside
 * the BMP is never split, each one matched when its first unit is.
 * @param {string} path
 * @param {number[]} indices
 * @returns {(Node | string)[]}
 */
export function highlighted(path, indices) {
  const matched = new Set(indices);
  /** @type {(Node | string)[]} */
  const parts = [];
  let run = '';
  let runMatched = false;
  const flush = () => {
    if (run !== '') parts.push(runMatched ? h('mark', {}, run) : run);
    run = '';
  };
  let unit = 0;
  for (const char of Array.from(path)) {
    if (matched.has(unit) !== runMatched) {
      flush();
      runMatched = matched.has(unit);
    }
    run += char;
    unit += char.length;
  }
  flush();
  return parts;
}

/**
 * @typedef {object} CompletionParts
 * @property {HTMLTextAreaElement} input the composer
 * @property {HTMLElement} popup shown while a token is active
 * @property {HTMLElement} list the listbox inside the popup
 * @property {HTMLElement} status the popup's footer: the count, the empty-state hint, an error
 * @property {HTMLElement} hint the line under the composer saying what accepting inserts
 * @property {() => Session | undefined} session the view's current session
 * @property {() => string} profile the view's current profile
 * @property {() => void} onTrap the engine trapped: the session is unusable
 */

/**
 * Wires `@` completion to the composer.
 * @param {CompletionParts} parts
 */
export function setUpCompletion(parts) {
  const { input, popup, list, status, hint } = parts;
  /** The token the popup shows matches for. @type {AtToken | undefined} */
  let active;
  /** @type {SearchMatch[]} */
  let matches = [];
  let selectedIndex = 0;
  /** The query Escape closed the popup on: it stays closed until the token changes (§6.1). @type {string | undefined} */
  let dismissed;

  const optionId = (/** @type {number} */ i) => `${list.id}-option-${i}`;

  const hide = () => {
    active = undefined;
    matches = [];
    popup.hidden = true;
    list.replaceChildren();
    input.removeAttribute('aria-activedescendant');
  };

  /** @param {string} text @param {boolean} [isError] */
  const setStatus = (text, isError = false) => {
    status.textContent = text;
    status.classList.toggle('error-text', isError);
  };

  const markSelection = () => {
    list.querySelectorAll('[role="option"]').forEach((option, i) => {
      option.setAttribute('aria-selected', String(i === selectedIndex));
    });
    if (matches.length === 0) input.removeAttribute('aria-activedescendant');
    else input.setAttribute('aria-activedescendant', optionId(selectedIndex));
  };

  /** @param {SearchMatch} match @param {number} i */
  const optionView = (match, i) => {
    const option = h('li', { id: optionId(i), role: 'option', 'aria-selected': 'false',
      'data-path': match.path, 'data-kind': match.kind },
    h('span', { class: 'completion-path' }, ...highlighted(match.path, match.indices)));
    if (match.kind === 'directory') option.append(h('span', { class: 'badge completion-kind' }, 'dir'));
    // Keep the focus (and the caret) in the composer while the mouse is down.
    option.addEventListener('mousedown', (event) => event.preventDefault());
    option.addEventListener('click', () => accept(i));
    return option;
  };

  /** Looks the token up and shows what came back; never throws. @param {AtToken} token */
  const search = (token) => {
    active = token;
    matches = [];
    selectedIndex = 0;
    list.replaceChildren();
    popup.hidden = false;
    if (token.query === '') {
      // A lone `@`: the popup opens, but no search runs until a character is typed.
      setStatus('Type a few letters of a path: files and directories below the cwd are searched.');
      markSelection();
      return;
    }
    const session = parts.session();
    if (session === undefined) {
      setStatus('No session yet: run any action to re-create it.', true);
      markSelection();
      return;
    }
    try {
      const result = withEngine(() => session.searchFiles(token.query, { limit: MAX_POPUP_ROWS }));
      matches = result.matches;
      list.replaceChildren(...matches.map(optionView));
      const total = result.totalMatchCount;
      const counted = matches.length === 0 ? 'no match'
        : `${matches.length} of ${total} ${total === 1 ? 'match' : 'matches'}`;
      setStatus(result.queryCut === undefined ? counted : `${counted} (${result.queryCut.reason})`);
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) parts.onTrap();
      setStatus(`The search failed: ${messageOf(error)}`, true);
    }
    markSelection();
  };

  /** Follows the caret: opens, re-searches or closes the popup. @param {boolean} [force] search again even if the token is the same */
  const update = (force = false) => {
    const caret = input.selectionEnd;
    const token = document.activeElement === input && input.selectionStart === caret
      ? withEngine((engine) => engine.atToken(input.value, caret)) : null;
    if (token === null) {
      dismissed = undefined;
      hide();
      return;
    }
    if (token.query === dismissed) {
      hide();
      return;
    }
    dismissed = undefined;
    const same = active !== undefined && active.start === token.start && active.query === token.query;
    if (!same || force) search(token);
  };

  /** Replaces the token with the match (§6.2) and puts the caret after the space. @param {number} i */
  const accept = (i) => {
    const match = matches[i];
    const token = withEngine((engine) => engine.atToken(input.value, input.selectionEnd));
    if (match === undefined || token === null) return;
    const text = withEngine((engine) => engine.completionInsertion(match.path, parts.profile() !== 'codex'));
    input.setRangeText(text, token.start, token.end, 'end');
    input.focus();
    hide();
  };

  /** @param {number} step */
  const move = (step) => {
    if (matches.length === 0) return;
    // Codex's popup wraps around at either end.
    selectedIndex = (selectedIndex + step + matches.length) % matches.length;
    markSelection();
  };

  input.addEventListener('keydown', (event) => {
    if (popup.hidden || event.isComposing) return;
    const ctrlOnly = event.ctrlKey && !event.altKey && !event.metaKey;
    if (event.key === 'ArrowDown' || (ctrlOnly && event.key === 'n')) move(1);
    else if (event.key === 'ArrowUp' || (ctrlOnly && event.key === 'p')) move(-1);
    else if ((event.key === 'Tab' || event.key === 'Enter') && !event.shiftKey && !event.ctrlKey && !event.altKey && !event.metaKey) {
      if (matches.length > 0) accept(selectedIndex);
      else {
        // Nothing to accept: close, and stay closed on this token.
        dismissed = active?.query;
        hide();
      }
    } else if (event.key === 'Escape') {
      dismissed = active?.query;
      hide();
    } else return;
    event.preventDefault();
  });
  input.addEventListener('input', () => update());
  input.addEventListener('focus', () => update());
  input.addEventListener('click', () => update());
  // Caret moves (arrows, Home, End) change the token without an input event.
  input.addEventListener('keyup', () => update());
  input.addEventListener('blur', hide);

  return {
    /** The session or its workspace changed: say what accepting inserts, and search again if open. */
    refresh() {
      hint.textContent = parts.profile() === 'codex'
        ? 'Type @ to search the workspace. Under codex, accepting a match inserts the bare path, as Codex does (spec codex.md §6.2): plain text, no attachment; the model has to read the file itself.'
        : `Type @ to search the workspace (Codex's fuzzy file search). Under ${parts.profile()}, accepting a match inserts @path, a file mention the next turn attaches; codex inserts the bare path.`;
      if (!popup.hidden) update(true);
    },
  };
}
