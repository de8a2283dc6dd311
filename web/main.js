// The playground's entry point: load the engine, then wire the app shell and every view.
import { setUpAutosave, savedScenario } from './app/autosave.js';
import { setUpGutter } from './app/gutter.js';
import { stateOf } from './app/link.js';
import { setUpScenarioFile } from './app/scenario-file.js';
import { setUpShare } from './app/share.js';
import { setUpTabs, tabName } from './app/tabs.js';
import { setUpTheme } from './app/theme.js';
import { setUpTour } from './app/tour.js';
import { byId, messageOf, showError } from './dom.js';
import { loadEngine } from './engine.js';
import { createScenarioStore } from './store.js';
import { setUpCompaction } from './views/compaction.js';
import { setUpCompare } from './views/compare.js';
import { setUpDiff } from './views/diff.js';
import { setUpFiles } from './views/files.js';
import { setUpImport } from './views/import.js';
import { setUpMentions } from './views/mentions.js';
import { setUpScenario } from './views/scenario.js';
import { setUpTokens } from './views/tokens.js';

const status = byId('status', HTMLParagraphElement);
setUpTheme();
// The skip link moves the focus without rewriting the address, which holds the view's state.
byId('skip-link', HTMLAnchorElement).addEventListener('click', (event) => {
  event.preventDefault();
  byId('tab-panels', HTMLElement).focus();
});
try {
  await loadEngine();
  // The scenario the player shows, replayed once per edit; the compaction and compare views
  // follow it through the store.
  const scenario = createScenarioStore();
  // A link names what to show, beside the reader's own scenario kept from last time (which the
  // autosave keeps until the reader chooses); without one, or when it cannot be opened, theirs.
  const linked = await stateOf(location.hash);
  const saved = savedScenario();
  const fromLink = linked.file !== undefined || linked.text !== undefined;
  const player = await setUpScenario(scenario, fromLink || saved === undefined ? linked : { ...linked, text: saved });
  if (linked.problem !== undefined) {
    showError(byId('scenario-error', HTMLElement),
      `${linked.problem} ${saved === undefined ? 'The first teaching scenario' : 'Your own scenario'} is shown instead.`);
  }
  /** @type {ReturnType<typeof setUpShare> | undefined} */
  let share;
  const tabs = setUpTabs(() => void share?.update());
  /** The pair Compare shows side by side, once Compare is set up. @type {() => [string, string] | undefined} */
  let shownPair = () => undefined;
  share = setUpShare(scenario, player, tabs, () => shownPair());
  const keepLink = () => void share?.update();
  player.onStep(keepLink);
  // The store holds the step the player shows, for the views that follow it (compare's side by
  // side, compaction's step); told after the player has drawn it.
  player.onStep(() => queueMicrotask(() => { if (scenario.state.step !== player.step) scenario.showStep(player.step); }));
  // The player drew the link's step before anyone listened: the views that follow it start there.
  if (scenario.state.step !== player.step) scenario.showStep(player.step);
  scenario.subscribe((_state, change) => { if (change === 'replay') keepLink(); });
  // On a phone the scenario's description folds away, so the steps come first.
  if (matchMedia('(max-width: 760px)').matches) byId('scenario-about', HTMLDetailsElement).open = false;
  setUpGutter(scenario);
  const compare = setUpCompare(scenario, savedScenario);
  shownPair = () => compare.shownPair();
  compare.onPairChange(keepLink);
  setUpAutosave(scenario, player, {
    discarded: keepLink,
    compare: () => {
      tabs.show('compare');
      compare.againstKept();
    },
    linked: fromLink,
  });
  setUpScenarioFile(scenario, player);
  setUpImport(scenario, (text) => player.play(text));
  setUpCompaction(scenario);
  setUpMentions();
  setUpTokens();
  setUpDiff();
  setUpFiles();
  /**
   * Shows a link's tab; a link to Compare shows its results, so they run on open, and its pair
   * side by side when it names one.
   * @param {import('./app/link.js').LinkState} link
   */
  const showLinkedTab = ({ tab, pair }) => {
    const name = tabName(tab) ?? 'step';
    tabs.show(name);
    if (name !== 'compare') return;
    void compare.run();
    if (pair !== undefined) void compare.showPair(pair);
  };
  showLinkedTab(linked);
  /**
   * Shows everything a link names in this page: its scenario, profile, step and tab.
   * @param {string} fragment
   */
  const followLink = async (fragment) => {
    const next = await stateOf(fragment);
    if (next.problem !== undefined) {
      showError(byId('scenario-error', HTMLElement), next.problem);
      return;
    }
    await player.follow(next);
    showLinkedTab(next);
    await share.update();
  };
  // A link opened in this page (typed, pasted, or Back to one). The page's own updates
  // (replaceState) fire no hashchange, but one may land between a hash change and its event,
  // so the link is read from the event, not from the address. Links are followed in order:
  // one followed while another loads would otherwise interleave with it.
  let following = Promise.resolve();
  addEventListener('hashchange', (event) => {
    const fragment = new URL(event.newURL).hash;
    following = following
      .then(() => followLink(fragment))
      .catch((error) => showError(byId('scenario-error', HTMLElement), `The link could not be followed: ${messageOf(error)}`));
  });
  // The tour's stops are links the page follows; `#tour` in the address starts it.
  const tour = setUpTour(followLink);
  const touring = location.hash === '#tour';
  await share.update();
  if (touring) void tour.start();
  status.textContent = 'Engine loaded. Everything runs in this page; nothing leaves your machine.';
  document.body.dataset.ready = 'true';
} catch (error) {
  status.textContent = `The engine could not start: ${messageOf(error)}. Run \`make serve\` from the repository root.`;
  status.classList.add('error');
}
