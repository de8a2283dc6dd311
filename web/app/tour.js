// The guided tour: a stop per mechanism, each on a built-in scenario at a step, on the tab that
// shows it, with the part of the screen that shows it outlined. A stop is a link (the address
// the page already follows), so the tour drives the page the way a reader's link does.
import { byId } from '../dom.js';
import { linkTerms } from '../popover.js';

/**
 * A stop: what to read, and where. `step` counts from 1, as the page does.
 * @typedef {{ title: string, text: string, file: string, step: number, tab: string, profile?: string, target: string }} Stop
 */

/** @type {Stop[]} */
export const STOPS = [
  { title: 'Mentions', file: 'external-edit', step: 1, tab: 'mentions', target: '#mentions-table',
    text: 'An @ in a prompt attaches what it names: a file, a line range, a directory, an agent, an MCP resource. Each profile reads the same prompt its own way; the table marks where one departs from the others.' },
  { title: 'Change notes', file: 'external-edit', step: 7, tab: 'step', target: '#scenario-turn',
    text: 'The user changed a file the agent had edited. On the next round the model gets a note with a snippet of the change, numbered from the old file: an edited_text_file attachment.' },
  { title: 'Memory files', file: 'nested-claude-md', step: 2, tab: 'step', target: '#scenario-request',
    text: 'A CLAUDE.md in a directory the model just read in is loaded the first time that directory is touched, and rides along with the tool round after the read.' },
  { title: 'Reminders and their cadence', file: 'todo-reminder', step: 6, tab: 'step', target: '#scenario-turn',
    text: 'A reminder is throttled: a counter of turns since the last one decides, so most requests carry none. Here the to-do reminder comes due.' },
  { title: 'The prompt cache', file: 'external-edit', step: 7, tab: 'step', target: '#request-diff-strip',
    text: 'What changed since the previous request, and what the prompt cache did with this one: how many tokens it read, wrote and charged in full, and why (here, a prefix under the provider\'s minimum is never cached).' },
  { title: 'Compaction and what survives', file: 'auto-compaction', step: 4, tab: 'compaction', target: '#compaction-panel',
    text: 'When the context fills up, a policy makes it smaller. Run one here: the report lists each item\'s fate (kept, summarised, cleared) with the reason, and what the model can still see.' },
  { title: 'Codex\'s settings diffs', file: 'codex-context', step: 5, tab: 'step', profile: 'codex', target: '#scenario-request',
    text: 'Codex records its context once, then sends only what changed in the settings: the request grows by a diff, not by a new copy.' },
  { title: 'Two releases of one client', file: 'external-edit', step: 7, tab: 'compare', target: '#compare-panel',
    text: 'The same steps under each profile, the releases of a client among them: the totals, the cache, the compactions, and the requests side by side, block by block.' },
];

/**
 * The address of a stop.
 * @param {Stop} stop
 */
export const stopFragment = (stop) => {
  const params = new URLSearchParams();
  if (stop.tab !== 'step') params.set('tab', stop.tab);
  params.set('step', String(stop.step));
  if (stop.profile !== undefined) params.set('profile', stop.profile);
  params.set('s', stop.file);
  return `#${params.toString()}`;
};

/**
 * Wires the Tour button and the tour's panel; returns the call that starts the tour.
 * @param {(fragment: string) => Promise<void>} follow shows what an address names, as a link does
 */
export function setUpTour(follow) {
  const panel = byId('tour', HTMLElement);
  const title = byId('tour-title', HTMLElement);
  const text = byId('tour-text', HTMLElement);
  const position = byId('tour-position', HTMLElement);
  const back = byId('tour-back', HTMLButtonElement);
  const next = byId('tour-next', HTMLButtonElement);
  let at = 0;

  const unmark = () => { for (const marked of document.querySelectorAll('.tour-target')) marked.classList.remove('tour-target'); };

  /** @param {number} index */
  async function show(index) {
    at = index;
    const stop = /** @type {Stop} */ (STOPS[index]);
    panel.hidden = false;
    title.textContent = stop.title;
    text.textContent = stop.text;
    position.textContent = `stop ${index + 1} of ${STOPS.length}`;
    // The title and the text as one: a term is linked where the card first prints it.
    linkTerms(panel);
    back.disabled = index === 0;
    next.textContent = index === STOPS.length - 1 ? 'Finish' : 'Next';
    panel.dataset.stop = String(index);
    delete panel.dataset.ready;
    await follow(stopFragment(stop));
    if (at !== index) return;
    unmark();
    const target = document.querySelector(stop.target);
    target?.classList.add('tour-target');
    target?.scrollIntoView({ block: 'nearest' });
    panel.dataset.ready = 'true';
  }

  function close() {
    unmark();
    panel.hidden = true;
    delete panel.dataset.stop;
  }

  byId('tour-start', HTMLButtonElement).addEventListener('click', () => void show(0));
  back.addEventListener('click', () => void show(Math.max(0, at - 1)));
  next.addEventListener('click', () => (at === STOPS.length - 1 ? close() : void show(at + 1)));
  byId('tour-close', HTMLButtonElement).addEventListener('click', close);
  return { start: () => show(0) };
}
