// Light, dark or as the system says: the choice is kept in this browser. The colours live in
// style.css (light-dark() pairs); this only picks the colour scheme they resolve against.
import { byId } from '../dom.js';

const KEY = 'context-assembly.theme';

/** @param {string} choice 'system', 'light' or 'dark' */
function apply(choice) {
  if (choice === 'light' || choice === 'dark') document.documentElement.dataset.theme = choice;
  else delete document.documentElement.dataset.theme;
}

/** Applies the remembered theme and wires the picker. */
export function setUpTheme() {
  const pick = byId('theme-pick', HTMLSelectElement);
  const remembered = localStorage.getItem(KEY) ?? 'system';
  pick.value = ['light', 'dark'].includes(remembered) ? remembered : 'system';
  apply(pick.value);
  pick.addEventListener('change', () => {
    if (pick.value === 'system') localStorage.removeItem(KEY);
    else localStorage.setItem(KEY, pick.value);
    apply(pick.value);
  });
}
