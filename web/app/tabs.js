// The tabs: one view of the scenario at a time beside the step list, as an ARIA tablist
// (arrow keys move between tabs, Home/End jump, the panel follows).
import { byId } from '../dom.js';

/** The tabs' names, in order: `#tab-<name>` controls the panel its `aria-controls` names. */
export const TAB_NAMES = /** @type {const} */ (['step', 'files', 'compaction', 'compare', 'mentions', 'tokens', 'diff', 'scenario', 'glossary']);

/** @typedef {typeof TAB_NAMES[number]} TabName */

/**
 * The name as a tab's, or `undefined` when there is no such tab.
 * @param {string | null | undefined} name
 * @returns {TabName | undefined}
 */
export function tabName(name) {
  return TAB_NAMES.find((tab) => tab === name);
}

/**
 * Wires the tablist; returns the calls that read and change the tab shown.
 * @param {(name: TabName) => void} onShow called after every change of tab
 */
export function setUpTabs(onShow) {
  const tabs = TAB_NAMES.map((name) => byId(`tab-${name}`, HTMLButtonElement));
  const panelOf = (/** @type {HTMLButtonElement} */ tab) => byId(tab.getAttribute('aria-controls') ?? '', HTMLElement);
  /** @type {TabName} */
  let shown = 'step';

  /**
   * @param {TabName} name
   * @param {{ focus?: boolean }} [options]
   */
  function show(name, { focus = false } = {}) {
    tabs.forEach((tab, index) => {
      const selected = TAB_NAMES[index] === name;
      tab.setAttribute('aria-selected', String(selected));
      tab.tabIndex = selected ? 0 : -1;
      panelOf(tab).hidden = !selected;
      if (selected && focus) tab.focus();
    });
    document.body.dataset.tab = name;
    shown = name;
    onShow(name);
  }

  const list = byId('tab-list', HTMLElement);
  list.addEventListener('click', (event) => {
    const tab = event.target instanceof Element ? event.target.closest('[role="tab"]') : null;
    const name = tabName(tab?.id.replace(/^tab-/, ''));
    if (name !== undefined) show(name);
  });
  list.addEventListener('keydown', (event) => {
    const at = TAB_NAMES.indexOf(shown);
    /** @type {Record<string, number>} */
    const moves = { ArrowLeft: at - 1, ArrowRight: at + 1, Home: 0, End: TAB_NAMES.length - 1 };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    show(TAB_NAMES[(to + TAB_NAMES.length) % TAB_NAMES.length] ?? 'step', { focus: true });
  });
  document.body.dataset.tab = shown;

  return {
    show,
    /** The tab on screen. */
    get shown() { return shown; },
  };
}
