// The reader's own scenario (edited, imported or opened from a file) is kept in this browser
// and comes back on reload. What is kept is overwritten or deleted only by a button that says
// so: another scenario opened over it (a link's, a built-in one, a file, an imported log) is
// shown beside it, and the reader chooses to keep theirs, replace it, or compare the two.
import { byId } from '../dom.js';

const KEY = 'context-assembly.scenario';

/** The scenario kept in this browser, if any. */
export function savedScenario() {
  try {
    return localStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Writes the kept scenario, or removes it (`undefined`); false when the browser refused.
 * @param {string | undefined} text
 */
function write(text) {
  try {
    if (text === undefined) localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, text);
    return true;
  } catch {
    return false;
  }
}

/**
 * What the autosave is told by the app shell.
 * @typedef {object} AutosaveHooks
 * @property {() => void} discarded called after a discard put the built-in scenario back
 * @property {() => void} compare shows the kept scenario and the one on screen side by side
 * @property {boolean} linked whether the scenario on screen was opened from a link
 */

/**
 * Keeps the reader's own scenario while it is the one on screen, and offers the choices when
 * another is.
 * @param {import('../store.js').ScenarioStore} store
 * @param {import('../views/scenario.js').ScenarioControls} player
 * @param {AutosaveHooks} hooks
 */
export function setUpAutosave(store, player, { discarded, compare, linked }) {
  const note = byId('autosave-note', HTMLElement);
  const text = byId('autosave-text', HTMLElement);
  const discard = byId('autosave-discard', HTMLButtonElement);
  const keepMine = byId('autosave-keep', HTMLButtonElement);
  const replace = byId('autosave-replace', HTMLButtonElement);
  const compareButton = byId('autosave-compare', HTMLButtonElement);
  const pick = byId('scenario-pick', HTMLSelectElement);

  let kept = savedScenario();
  /** The scenario (the store's `opened`) whose edits are kept: the kept one, on screen. @type {number | undefined} */
  let following;
  /** The scenario opened from the link, for the note's wording. */
  const fromLink = linked ? store.state.opened : undefined;
  /** A scenario the reader discarded: it is not kept again on its own. */
  let dropped = -1;

  /**
   * Shows the note with `message` and the buttons that fit it.
   * @param {string} message
   * @param {HTMLButtonElement[]} buttons
   */
  function show(message, buttons) {
    text.textContent = message;
    for (const button of [discard, keepMine, replace, compareButton]) button.hidden = !buttons.includes(button);
    note.hidden = false;
  }

  function keep() {
    const state = store.state;
    const own = player.builtIn === '' && state.text !== '';
    // Nothing kept yet: the reader's own scenario becomes the kept one. Something kept: only
    // the same text on screen is it.
    if (following !== state.opened && state.opened !== dropped
      && ((kept === undefined && own) || (kept !== undefined && state.text === kept))) following = state.opened;
    if (following === state.opened) {
      if (state.text !== kept) {
        if (!write(state.text)) {
          show('Your edits could not be kept in this browser (storage is full or off).', []);
          return;
        }
        kept = state.text;
      }
      show('Your own scenario is kept in this browser, edits included.', [discard]);
      return;
    }
    if (kept === undefined) {
      note.hidden = true;
      return;
    }
    const shown = state.opened === fromLink ? 'The link\'s scenario is shown' : 'Another scenario is shown';
    show(`${shown}; yours is kept in this browser as you left it.${own ? ' Edits here are not kept unless you replace yours with this one.' : ''}`,
      [keepMine, replace, compareButton]);
  }

  store.subscribe(keep);
  keepMine.addEventListener('click', () => {
    if (kept === undefined) return;
    player.play(kept);
    following = store.state.opened;
    keep();
  });
  replace.addEventListener('click', () => {
    const state = store.state;
    // A built-in scenario left as it is comes from the page, not from this browser: replacing
    // the reader's with it leaves nothing kept.
    const own = player.builtIn === '' && state.text !== '';
    if (!write(own ? state.text : undefined)) {
      show('Your scenario could not be replaced in this browser (storage is full or off).', [keepMine, replace, compareButton]);
      return;
    }
    kept = own ? state.text : undefined;
    following = own ? state.opened : undefined;
    keep();
  });
  compareButton.addEventListener('click', compare);
  discard.addEventListener('click', async () => {
    write(undefined);
    kept = undefined;
    following = undefined;
    dropped = store.state.opened;
    await player.loadBuiltIn(pick.value);
    discarded();
  });
  keep();
}
