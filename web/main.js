// The playground's entry point: load the engine, then wire the app shell and every view.
import { setUpAutosave, savedScenario } from './app/autosave.js';
import { setUpGutter } from './app/gutter.js';
import { stateOf } from './app/link.js';
import { setUpScenarioFile } from './app/scenario-file.js';
import { setUpShare } from './app/share.js';
import { setUpTabs, tabName } from './app/tabs.js';
import { setUpTheme } from './app/theme.js';
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
  // A link names what to show; without one, the reader's own scenario from last time.
  const linked = await stateOf(location.hash);
  const saved = linked.file === undefined && linked.text === undefined ? savedScenario() : undefined;
  const player = await setUpScenario(scenario, saved === undefined ? linked : { ...linked, text: saved });
  if (linked.problem !== undefined) showError(byId('scenario-error', HTMLElement), linked.problem);
  /** @type {ReturnType<typeof setUpShare> | undefined} */
  let share;
  const tabs = setUpTabs(() => void share?.update());
  share = setUpShare(scenario, player, tabs);
  const keepLink = () => void share?.update();
  player.onStep(keepLink);
  // The store holds the step the player shows, for the views that follow it (compare's side by
  // side, compaction's step); told after the player has drawn it.
  player.onStep(() => queueMicrotask(() => { if (scenario.state.step !== player.step) scenario.showStep(player.step); }));
  scenario.subscribe((_state, change) => { if (change === 'replay') keepLink(); });
  // On a phone the scenario's description folds away, so the steps come first.
  if (matchMedia('(max-width: 760px)').matches) byId('scenario-about', HTMLDetailsElement).open = false;
  setUpGutter(scenario);
  setUpAutosave(scenario, player, keepLink);
  setUpScenarioFile(scenario, player);
  setUpImport(scenario, (text) => player.play(text));
  setUpCompaction(scenario);
  setUpCompare(scenario);
  setUpMentions();
  setUpTokens();
  setUpDiff();
  setUpFiles();
  tabs.show(tabName(linked.tab) ?? 'step');
  await share.update();
  status.textContent = 'Engine loaded. Everything runs in this page; nothing leaves your machine.';
  document.body.dataset.ready = 'true';
} catch (error) {
  status.textContent = `The engine could not start: ${messageOf(error)}. Run \`make serve\` from the repository root.`;
  status.classList.add('error');
}
