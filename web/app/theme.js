// Light, dark or as the system says: the choice is kept in this browser. The colours live in
// style.css (light-dark() pairs); this only picks the colour scheme they resolve against.
import { byId } from '../dom.js';

const KEY = 'context-assembly.theme';

/** @param {string} choice 'system', 'light' or 'dark' */
function apply(choice) {
  if (choice === 'light' || choice === 'dark') document.documentElement.dataset.theme = choice;
  else delete document.documentElement.dataset.theme;
}

/**
 * Reads or writes the remembered choice; a browser with storage off simply does not remember.
 * @param {string} [choice] to write; read when left out
 */
function remember(choice) {
  try {
    if (choice === undefined) return localStorage.getItem(KEY) ?? 'system';
    if (choice === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, choice);
  } catch {
    // Storage is off: the choice holds for this page only.
  }
  return choice ?? 'system';
}

/** Applies the remembered theme and wires the picker. */
export function setUpTheme() {
  const pick = byId('theme-pick', HTMLSelectElement);
  const remembered = remember();
  pick.value = ['light', 'dark'].includes(remembered) ? remembered : 'system';
  apply(pick.value);
  pick.addEventListener('change', () => {
    remember(pick.value);
    apply(pick.value);
  });
}
