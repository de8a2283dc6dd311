// The reader's own scenario (edited, imported or opened from a file) is kept in this browser
// and comes back on reload, until they discard it; a built-in scenario left as it is is not.
import { byId } from '../dom.js';

const KEY = 'context-assembly.scenario';

/** The scenario kept from an earlier visit, if any. */
export function savedScenario() {
  try {
    return localStorage.getItem(KEY) ?? undefined;
  } catch {
    return undefined;
  }
}

/**
 * Keeps the store's text while it is the reader's own, and offers to discard it.
 * @param {import('../store.js').ScenarioStore} store
 * @param {import('../views/scenario.js').ScenarioControls} player
 * @param {() => void} discarded called after a discard put the built-in scenario back
 */
export function setUpAutosave(store, player, discarded) {
  const note = byId('autosave-note', HTMLElement);
  const text = byId('autosave-text', HTMLElement);
  const discard = byId('autosave-discard', HTMLButtonElement);
  const pick = byId('scenario-pick', HTMLSelectElement);

  function keep() {
    const own = player.builtIn === '' && store.state.text !== '';
    try {
      if (own) localStorage.setItem(KEY, store.state.text);
      else localStorage.removeItem(KEY);
    } catch {
      text.textContent = 'Your edits could not be kept in this browser (storage is full or off).';
      note.hidden = false;
      return;
    }
    text.textContent = 'Your own scenario is kept in this browser, edits included.';
    note.hidden = !own;
  }

  store.subscribe(keep);
  discard.addEventListener('click', async () => {
    // Loading the built-in scenario makes `keep` forget the reader's own.
    await player.loadBuiltIn(pick.value);
    discarded();
  });
  keep();
}
