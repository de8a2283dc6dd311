// The playground's entry point: load the engine, then wire every view.
import { byId, messageOf } from './dom.js';
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
try {
  await loadEngine();
  // The scenario the player shows, replayed once per edit; the compaction and compare views
  // follow it through the store.
  const scenario = createScenarioStore();
  await setUpScenario(scenario);
  setUpImport(scenario);
  setUpCompaction(scenario);
  setUpCompare(scenario);
  setUpMentions();
  setUpTokens();
  setUpDiff();
  setUpFiles();
  status.textContent = 'Engine loaded. Everything runs in this page; nothing leaves your machine.';
  document.body.dataset.ready = 'true';
} catch (error) {
  status.textContent = `The engine could not start: ${messageOf(error)}. Run \`make serve\` from the repository root.`;
  status.classList.add('error');
}
