// A real session log in the player: a Claude Code or Codex log, picked or dropped anywhere on
// the page, is streamed through the engine's importer (bounded memory whatever the file's size),
// becomes the player's scenario through the store, and is shown beside what the provider
// recorded: per request, our estimate against the recorded input tokens and our cache split
// against the recorded one. The file is read in this page; nothing is sent anywhere.
import { byId, h, messageOf, showError, tableParts } from '../dom.js';
import { withEngine } from '../engine.js';
import { integer, percent } from '../format.js';
import { requestFor } from './scenario.js';

/** @typedef {import('../../pkg/context_assembly.js').ImportResult} ImportResult */
/** @typedef {import('../../pkg/context_assembly.js').RecordedUsage} RecordedUsage */
/** @typedef {import('../../pkg/context_assembly.js').StepTrace} StepTrace */
/** @typedef {import('../../pkg/context_assembly.js').Comparison} Comparison */
/** @typedef {import('../store.js').ScenarioStore} ScenarioStore */

/**
 * Streams `file` through a `SessionImport`, reporting the share read after every chunk.
 * @param {File} file
 * @param {(share: number) => void} onProgress
 * @returns {Promise<ImportResult>}
 */
async function importFile(file, onProgress) {
  const importer = withEngine((engine) => new engine.SessionImport());
  try {
    const reader = file.stream().getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      withEngine(() => importer.pushChunk(value));
      onProgress(file.size > 0 ? importer.progress().bytes / file.size : 1);
    }
    return withEngine(() => importer.finish());
  } finally {
    importer.free();
  }
}

/** The whole prompt a recorded request carried: uncached input, cache writes, cache reads. @param {RecordedUsage} usage */
const recordedPrompt = (usage) => usage.inputTokens + usage.cacheCreationTokens + usage.cacheReadTokens;

/** The middle of a sorted list. @param {number[]} sorted */
const median = (sorted) => sorted.length === 0 ? 0 : sorted[Math.floor((sorted.length - 1) / 2)] ?? 0;

/**
 * One row per recorded request: the request our replay sent for the same step (the latest
 * before the assistant step that holds the answer) and our cache split for it.
 * @param {RecordedUsage[]} recorded
 * @param {StepTrace[]} steps
 * @param {Comparison[string] | undefined} ours our cache accounting per request, by step
 */
function truthRows(recorded, steps, ours) {
  const costs = new Map((ours?.steps ?? []).map((cost) => [cost.step, cost]));
  return recorded.map((usage) => {
    const shown = usage.step === null || usage.summary ? undefined : requestFor(steps, usage.step - 1);
    const estimate = shown?.request.tokens.total;
    const actual = recordedPrompt(usage);
    const error = estimate === undefined || actual === 0 ? undefined : (estimate - actual) / actual;
    const cost = shown === undefined ? undefined : costs.get(shown.from);
    return { usage, estimate, actual, error, cost, from: shown?.from };
  });
}

/**
 * The ground-truth table and its summary line.
 * @param {ReturnType<typeof truthRows>} rows
 */
function truthView(rows) {
  const compared = rows.filter((row) => row.error !== undefined);
  const errors = compared.map((row) => Math.abs(row.error ?? 0)).sort((a, b) => a - b);
  const recordedRead = rows.reduce((sum, row) => sum + row.usage.cacheReadTokens, 0);
  const recordedAll = rows.reduce((sum, row) => sum + row.actual, 0);
  const oursRead = rows.reduce((sum, row) => sum + (row.cost?.cached ?? 0), 0);
  const oursAll = rows.reduce((sum, row) => sum + (row.cost?.sent ?? 0), 0);
  const summary = compared.length === 0
    ? 'No request of the log could be set beside one of ours.'
    : `${compared.length} of ${rows.length} recorded requests beside ours: median error ${percent(median(errors), 1)}, ` +
      `worst ${percent(errors.at(-1) ?? 0, 1)}; cache hits ${percent(recordedRead, recordedAll)} recorded, ` +
      `${percent(oursRead, oursAll)} by our cache model.`;
  const headers = ['log line', 'step', 'recorded input', 'ours', 'error', 'recorded cache read / write', 'ours cache read / write'];
  const cells = rows.map(({ usage, estimate, actual, error, cost, from }) => [
    String(usage.line),
    usage.step === null ? '—' : `${usage.step}${usage.summary ? ' (summary)' : ''}${from === undefined ? '' : ` ← request of step ${from}`}`,
    integer(actual),
    estimate === undefined ? '—' : integer(estimate),
    error === undefined ? '—' : `${error >= 0 ? '+' : ''}${(error * 100).toFixed(1)}%`,
    `${integer(usage.cacheReadTokens)} / ${integer(usage.cacheCreationTokens)}`,
    cost === undefined ? '—' : `${integer(cost.cached)} / ${integer(cost.written)}`,
  ]);
  return [
    h('p', { class: 'note', id: 'import-summary' }, summary),
    h('table', { class: 'import-truth', id: 'import-truth' }, ...tableParts(headers, cells, 'The log recorded no usage.')),
  ];
}

/**
 * Wires the import: the file picker, dropping a file anywhere, and the ground-truth view,
 * which follows the store's replays while the imported scenario is the one in the player.
 * @param {ScenarioStore} store
 */
export function setUpImport(store) {
  const input = byId('import-file', HTMLInputElement);
  const progress = byId('import-progress', HTMLProgressElement);
  const status = byId('import-status', HTMLElement);
  const error = byId('import-error', HTMLElement);
  const details = byId('import-details', HTMLDetailsElement);
  const warnings = byId('import-warnings', HTMLElement);
  const truth = byId('import-truth-pane', HTMLElement);
  /** @type {{ result: ImportResult, text: string } | undefined} */
  let imported;

  function showTruth() {
    const state = store.state;
    if (imported === undefined || state.text !== imported.text || state.trace === undefined) return;
    const profile = imported.result.format;
    let comparison;
    try {
      comparison = withEngine((engine) => engine.compareProfiles(store.scenario(), [profile], undefined))[profile];
    } catch (problem) {
      status.textContent = `Our cache accounting could not be computed: ${messageOf(problem)}`;
    }
    truth.replaceChildren(...truthView(truthRows(imported.result.recorded, state.trace.steps, comparison)));
  }

  /** @param {File} file */
  async function load(file) {
    showError(error, '');
    progress.hidden = false;
    progress.value = 0;
    status.textContent = `Reading ${file.name} (${integer(file.size)} bytes) in this page…`;
    try {
      const result = await importFile(file, (share) => { progress.value = share; });
      imported = { result, text: result.scenarioJson };
      warnings.replaceChildren(...result.warnings.map((warning) =>
        h('li', { 'data-kind': warning.kind }, `line ${warning.line}: ${warning.kind}: ${warning.message}`)));
      status.textContent = `${file.name}: a ${result.format} log, ${integer(result.recorded.length)} recorded requests, ` +
        `${result.warnings.length === 0 ? 'no warnings' : `${result.warnings.length} warnings`}. Nothing left this page.`;
      details.hidden = false;
      details.open = true;
      store.edit({ text: result.scenarioJson, profile: '' });
      store.replay();
    } catch (problem) {
      showError(error, `${file.name} could not be imported: ${messageOf(problem)}`);
      status.textContent = '';
    } finally {
      progress.hidden = true;
    }
  }

  store.subscribe((_state, change) => { if (change === 'replay') showTruth(); });
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file !== undefined) void load(file);
    input.value = '';
  });
  document.addEventListener('dragover', (event) => {
    if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
  });
  document.addEventListener('drop', (event) => {
    const file = event.dataTransfer?.files[0];
    if (file === undefined) return;
    event.preventDefault();
    void load(file);
  });
}
