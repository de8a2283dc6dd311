// The scenario as a file and as code: open a .json from disk, download the one on screen,
// and copy the JavaScript that replays it with the npm package.
import { byId } from '../dom.js';

/**
 * Whether a text is a scenario (a JSON object with steps) rather than a session log.
 * @param {string} text
 */
export function isScenario(text) {
  try {
    const value = JSON.parse(text);
    return value !== null && typeof value === 'object' && Array.isArray(value.steps);
  } catch {
    return false;
  }
}

/**
 * The JavaScript that replays `scenario` with the package and prints the request of `step`.
 * @param {string} scenario the text the engine is given (the picked profile in it)
 * @param {number} step 0-based
 */
export function engineCall(scenario, step) {
  let literal;
  try {
    literal = JSON.stringify(JSON.parse(scenario), null, 2);
  } catch {
    literal = JSON.stringify(scenario);
  }
  return [
    "import init, { runScenario } from 'context-assembly';",
    '',
    'await init();',
    `const scenario = ${literal};`,
    'const trace = runScenario(scenario);',
    `// Step ${step + 1}: what it produced, and the request the model receives (none when the step sends none).`,
    `const { turn } = trace.steps[${step}];`,
    'console.log(turn.attachments, turn.decisions, turn.request);',
    '',
  ].join('\n');
}

/**
 * Copies text to the clipboard; false when the page may not.
 * @param {string} text
 */
export async function copyText(text) {
  try {
    await navigator.clipboard.writeText(text);
    return true;
  } catch {
    return false;
  }
}

/**
 * Wires the Scenario tab's file buttons and the engine call.
 * @param {import('../store.js').ScenarioStore} store
 * @param {import('../views/scenario.js').ScenarioControls} player
 */
export function setUpScenarioFile(store, player) {
  const upload = byId('scenario-upload', HTMLInputElement);
  const download = byId('scenario-download', HTMLButtonElement);
  const copyCall = byId('scenario-copy-call', HTMLButtonElement);
  const status = byId('scenario-file-status', HTMLOutputElement);

  upload.addEventListener('change', async () => {
    const file = upload.files?.[0];
    upload.value = '';
    if (file === undefined) return;
    player.play(await file.text());
    status.value = `Opened ${file.name}.`;
  });
  download.addEventListener('click', () => {
    const url = URL.createObjectURL(new Blob([store.state.text], { type: 'application/json' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = player.builtIn === '' ? 'scenario.json' : player.builtIn;
    link.click();
    // Revoked once the click has started the download, not before.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
    status.value = `Downloaded ${link.download}.`;
  });
  copyCall.addEventListener('click', async () => {
    const copied = await copyText(engineCall(store.scenario(), player.step));
    status.value = copied
      ? `Copied the engine call for step ${player.step + 1}: paste it into a module that imports the package.`
      : 'The page may not write to the clipboard here.';
  });
}
