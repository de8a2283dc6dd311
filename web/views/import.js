// A real session log in the player: a Claude Code or Codex log, picked or dropped anywhere on
// the page, is streamed through the engine's importer in a worker (bounded memory whatever the
// file's size; the page stays responsive, shows how far it is and can cancel it), becomes the
// player's scenario through the store, and is shown beside what the provider
// recorded: per request, our estimate against the recorded input tokens and our cache split
// against the recorded one, and the items the log shows were injected into each request
// against our replay's attachments. The file is read in this page; nothing is sent anywhere.
import { byId, h, messageOf, showError, tableParts } from '../dom.js';
import { isScenario } from '../app/scenario-file.js';
import { withTools, workerEngine } from '../engine.js';
import { integer, percent } from '../format.js';
import { linkTerms } from '../popover.js';
import { requestFor } from './scenario.js';

/** @typedef {import('../../pkg/context_assembly.js').ImportResult} ImportResult */
/** @typedef {import('../../pkg/context_assembly.js').RecordedUsage} RecordedUsage */
/** @typedef {import('../../pkg/context_assembly.js').StepTrace} StepTrace */
/** @typedef {import('../../pkg/context_assembly.js').Comparison} Comparison */
/** @typedef {import('../../pkg/context_assembly.js').Redaction} Redaction */
/** @typedef {import('../store.js').ScenarioStore} ScenarioStore */

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
  let previous = -1;
  let previousMessages = 0;
  return recorded.map((usage) => {
    const shown = usage.step === null || usage.summary ? undefined : requestFor(steps, usage.step - 1);
    const estimate = shown?.request.tokens.total;
    const actual = recordedPrompt(usage);
    const error = estimate === undefined || actual === 0 ? undefined : (estimate - actual) / actual;
    const cost = shown === undefined ? undefined : costs.get(shown.from);
    // What we injected into this request: the attachments of the steps since the previous
    // request shown, and Codex's context messages among the messages new since then.
    let ours;
    if (shown !== undefined) {
      const messages = shown.request.messages;
      const fresh = messages.length >= previousMessages ? messages.slice(previousMessages) : messages;
      ours = [
        ...steps.slice(previous + 1, shown.from + 1).flatMap((step) => step.turn.attachments)
          .map((attachment) => ({ kind: String(attachment.kind), label: attachment.path ?? String(attachment.kind) })),
        ...fresh.flatMap((message) => message.content).filter((block) => CONTEXT_SOURCES.includes(block.source))
          .map((block) => contextTag(block.text)).filter((tag) => tag !== undefined).map((tag) => ({ kind: tag, label: tag })),
      ];
      previous = shown.from;
      previousMessages = messages.length;
    }
    return { usage, estimate, actual, error, cost, from: shown?.from, injected: injectedDiff(usage, ours) };
  });
}

/** The blocks of Codex's context messages (the initial context and settings updates). */
const CONTEXT_SOURCES = ['initial-context', 'settings-update'];

/**
 * The tag a context message opens with, as the importer names the log's (`<environment_context>`
 * gives `environment_context`, `<permissions instructions>` gives `permissions`).
 * @param {string} text
 */
const contextTag = (text) => /^\s*<([A-Za-z0-9_-]+)[\s>]/.exec(text)?.[1];

/**
 * What our replay injected into a request beside what the log shows was injected into it,
 * compared by kind: the log's kinds we did not inject (missing) and ours it does not show
 * (extra). `undefined` where the log does not record injected items or no request of ours
 * stands beside it.
 * @param {RecordedUsage} usage
 * @param {{ kind: string, label: string }[] | undefined} ours
 */
function injectedDiff(usage, ours) {
  if (usage.injected === null || ours === undefined) return undefined;
  const ourKinds = new Set(ours.map((item) => item.kind));
  const logKinds = new Set(usage.injected.map((item) => item.kind));
  const named = (/** @type {{ kind: string, label: string }} */ item) => item.label === item.kind ? item.kind : `${item.kind}: ${item.label}`;
  return {
    missing: usage.injected.filter((item) => !ourKinds.has(item.kind)).map(named),
    extra: ours.filter((item) => !logKinds.has(item.kind)).map(named),
  };
}

/**
 * The injected column in a sentence: how many requests show the same kinds either side.
 * @param {ReturnType<typeof truthRows>} rows
 */
function injectedSummary(rows) {
  const compared = rows.filter((row) => row.injected !== undefined);
  if (compared.length === 0) return ' Injected items: not in log.';
  const same = compared.filter((row) => row.injected?.missing.length === 0 && row.injected.extra.length === 0).length;
  return ` Injected items: the same kinds on ${same} of ${compared.length} requests the log shows them for.`;
}

/**
 * The "injected" cell: "not in log", "same kinds", or the counts with the items listed in
 * an expandable row.
 * @param {RecordedUsage} usage
 * @param {ReturnType<typeof injectedDiff>} diff
 * @returns {string | Node}
 */
function injectedCell(usage, diff) {
  if (usage.injected === null) return 'not in log';
  if (diff === undefined) return '—';
  if (diff.missing.length === 0 && diff.extra.length === 0) return usage.injected.length === 0 ? 'none either side' : 'same kinds';
  const list = (/** @type {string} */ title, /** @type {string[]} */ items) => items.length === 0 ? []
    : [h('div', {}, `${title}: `), h('ul', {}, ...items.map((item) => h('li', {}, item)))];
  return h('details', { class: 'injected-diff' },
    h('summary', {}, `missing ${diff.missing.length} / extra ${diff.extra.length}`),
    ...list('in the log, not in ours', diff.missing), ...list('in ours, not in the log', diff.extra));
}

/** How many times fewer input tokens than ours a recorded request may have before it is not believed. */
const IMPLAUSIBLE_RATIO = 10;

/**
 * A warning when the log's recorded usage cannot be a real request's: most recorded requests
 * have a tenth of our count or less (a real request carries at least the system prompt and the
 * tools), so the errors measure the log rather than our count. '' when the usage is plausible.
 * @param {ReturnType<typeof truthRows>} compared the rows with both figures
 */
function implausibleUsage(compared) {
  const tiny = compared.filter((row) => row.estimate !== undefined && row.actual * IMPLAUSIBLE_RATIO < row.estimate);
  if (tiny.length * 2 <= compared.length) return '';
  const recorded = median(tiny.map((row) => row.actual).sort((a, b) => a - b));
  return ` The recorded usage is implausible: ${tiny.length} of ${compared.length} requests record under a tenth of our count ` +
    `(median ${integer(recorded)} input tokens a request, less than a system prompt alone), so these errors measure the log, not our count.`;
}

/**
 * The ground-truth table and its summary line.
 * @param {ReturnType<typeof truthRows>} rows
 */
function truthView(rows) {
  const compared = rows.filter((row) => row.error !== undefined);
  const errors = compared.map((row) => Math.abs(row.error ?? 0)).sort((a, b) => a - b);
  const implausible = implausibleUsage(compared);
  const recordedRead = rows.reduce((sum, row) => sum + row.usage.cacheReadTokens, 0);
  const recordedAll = rows.reduce((sum, row) => sum + row.actual, 0);
  const oursRead = rows.reduce((sum, row) => sum + (row.cost?.cached ?? 0), 0);
  const oursAll = rows.reduce((sum, row) => sum + (row.cost?.sent ?? 0), 0);
  const summary = compared.length === 0
    ? 'No request of the log could be set beside one of ours.'
    : `${compared.length} of ${rows.length} recorded requests beside ours: median error ${percent(median(errors), 1)}, ` +
      `worst ${percent(errors.at(-1) ?? 0, 1)}; cache hits ${percent(recordedRead, recordedAll)} recorded, ` +
      `${percent(oursRead, oursAll)} by our cache model.${injectedSummary(rows)}${implausible}`;
  const headers = ['log line', 'step', 'recorded input', 'ours', 'error', 'recorded cache read / write', 'ours cache read / write', 'injected: missing / extra'];
  const cells = rows.map(({ usage, estimate, actual, error, cost, from, injected }) => [
    String(usage.line),
    // Steps are counted from 1, as the player counts them.
    usage.step === null ? '—' : `${usage.step + 1}${usage.summary ? ' (summary)' : ''}${from === undefined ? '' : ` ← request of step ${from + 1}`}`,
    integer(actual),
    estimate === undefined ? '—' : integer(estimate),
    error === undefined ? '—' : `${error >= 0 ? '+' : ''}${(error * 100).toFixed(1)}%`,
    `${integer(usage.cacheReadTokens)} / ${integer(usage.cacheCreationTokens)}`,
    cost === undefined ? '—' : `${integer(cost.cached)} / ${integer(cost.written)}`,
    injectedCell(usage, injected),
  ]);
  return [
    h('p', { class: 'note', id: 'import-summary', 'data-implausible': String(implausible !== '') }, summary),
    h('table', { class: 'import-truth', id: 'import-truth' }, ...tableParts(headers, cells, 'The log recorded no usage.')),
  ];
}

/**
 * What a redaction replaced, in a sentence.
 * @param {Redaction} redaction
 */
function redactionSummary(redaction) {
  const { replaced } = redaction;
  const parts = [
    [replaced.files, 'file contents'], [replaced.prompts, 'prompts'], [replaced.assistantTexts, 'assistant texts'],
    [replaced.toolInputs, 'tool inputs'], [replaced.toolOutputs, 'tool outputs'], [replaced.otherTexts, 'other texts'],
  ].filter(([count]) => Number(count) > 0).map(([count, what]) => `${integer(Number(count))} ${what}`);
  const paths = redaction.paths === 'hash'
    ? `${integer(replaced.paths)} paths hashed`
    : `paths kept (${integer(replaced.paths)} held the home directory's user name, replaced)`;
  const key = redaction.keyed
    ? 'The stand-ins come from a random key this page drew and did not keep, so nobody can recompute one to confirm a guess.'
    : (redaction.warning ?? '');
  return `Redacted: ${integer(replaced.words)} distinct words replaced in ${parts.length === 0 ? 'nothing' : parts.join(', ')}; ` +
    `${paths}; @-mentions, tool names, ids, settings' names and common short words kept. Same token figures as before. ${key}`;
}

/** A key for one redaction: 16 random bytes as hex, drawn per redaction and never kept. */
function randomKey() {
  return Array.from(crypto.getRandomValues(new Uint8Array(16)), (byte) => byte.toString(16).padStart(2, '0')).join('');
}

/**
 * Wires the import: the file picker, dropping a file anywhere, and the ground-truth view,
 * which follows the store's replays while the imported scenario is the one in the player.
 * A dropped scenario (a .json with steps) is not a log: it goes to `openScenario` instead.
 * @param {ScenarioStore} store
 * @param {(text: string) => void} openScenario
 */
export function setUpImport(store, openScenario) {
  const input = byId('import-file', HTMLInputElement);
  const progress = byId('import-progress', HTMLProgressElement);
  const cancelButton = byId('import-cancel', HTMLButtonElement);
  const status = byId('import-status', HTMLElement);
  const error = byId('import-error', HTMLElement);
  const details = byId('import-details', HTMLDetailsElement);
  const warnings = byId('import-warnings', HTMLElement);
  const truth = byId('import-truth-pane', HTMLElement);
  const redactRun = byId('redact-run', HTMLButtonElement);
  const redactPaths = byId('redact-paths', HTMLSelectElement);
  const redactDownload = byId('redact-download', HTMLButtonElement);
  const redactStatus = byId('redact-status', HTMLElement);
  const notice = byId('import-notice', HTMLElement);
  const noticeText = byId('import-notice-text', HTMLElement);
  /** @type {{ result: ImportResult, text: string } | undefined} */
  let imported;
  /** @type {string | undefined} the latest redaction's JSON, for the download */
  let redacted;
  /** The status line of the latest import: the file, its format, its requests and warnings. */
  let summary = '';
  /** Our cache accounting of the imported scenario's text (a redaction is accounted again). @type {{ text: string, comparison?: Comparison[string], problem?: string } | undefined} */
  let accounted;
  /** The import or accounting running in the worker, to cancel. @type {AbortController | undefined} */
  let running;
  /** The text of the latest accounting started. */
  let accounting = '';

  /**
   * Says how an import went, in the import's status line and, when the reader is on another
   * tab (a log dropped anywhere), in a notice over the page, where they are.
   * @param {string} text
   */
  function tell(text) {
    status.textContent = text;
    noticeText.textContent = text;
    linkTerms(status);
    linkTerms(noticeText);
    notice.hidden = document.body.dataset.tab === 'scenario';
  }

  /** Replaces the player's scenario with its redaction; the ground truth follows it (same steps). */
  async function redact() {
    if (imported === undefined) return;
    try {
      const paths = redactPaths.value === 'hash' ? 'hash' : 'keep';
      const text = store.state.text;
      const redaction = await withTools((tools) => tools.redactScenario(text, { paths, key: randomKey() }));
      // The tools module may have loaded first: a scenario edited or imported meanwhile stays.
      if (imported === undefined || store.state.text !== text) return;
      redacted = redaction.scenarioJson;
      imported = { result: imported.result, text: redaction.scenarioJson };
      redactStatus.textContent = redactionSummary(redaction);
      redactDownload.disabled = false;
      store.edit({ text: redaction.scenarioJson, profile: '' });
      store.replay();
    } catch (problem) {
      redactStatus.textContent = `The scenario could not be redacted: ${messageOf(problem)}`;
    }
  }

  function download() {
    if (redacted === undefined) return;
    const url = URL.createObjectURL(new Blob([redacted], { type: 'application/json' }));
    h('a', { href: url, download: 'redacted-scenario.json' }).click();
    // Revoked once the click has started the download, not before.
    setTimeout(() => URL.revokeObjectURL(url), 1000);
  }

  /**
   * Runs `work` in the import's worker with the progress bar and Cancel shown; a later run, or
   * Cancel, stops it (the worker is replaced). Says whether it was cancelled or replaced
   * instead of throwing for it; the engine's errors are thrown.
   * @template T
   * @param {(engine: import('../engine.js').WorkerCalls) => Promise<T>} work
   * @returns {Promise<{ value: T } | 'cancelled' | 'replaced'>}
   */
  async function inWorker(work) {
    running?.abort();
    const controller = new AbortController();
    running = controller;
    progress.hidden = false;
    progress.value = 0;
    cancelButton.hidden = false;
    try {
      const value = await work((await workerEngine('import')).with({ signal: controller.signal }));
      return running === controller ? { value } : 'replaced';
    } catch (problem) {
      if (running !== controller) return 'replaced';
      if (problem instanceof DOMException && problem.name === 'AbortError') return 'cancelled';
      throw problem;
    } finally {
      if (running === controller) {
        running = undefined;
        progress.hidden = true;
        cancelButton.hidden = true;
      }
    }
  }

  /**
   * Draws the ground truth of the replay on screen, once our accounting of its text is made
   * (in the worker: the engine's `compareProfiles` under the log's profile; what the engine
   * says against it is shown, and the table drawn without it).
   */
  async function showTruth() {
    if (imported === undefined || store.state.text !== imported.text || store.state.trace === undefined) return;
    const { result, text } = imported;
    if (accounted?.text !== text) {
      // The accounting under way for this text draws the replay on screen when it ends.
      if (running !== undefined && accounting === text) return;
      accounting = text;
      const outcome = await inWorker(async (engine) => {
        const onProgress = (/** @type {number} */ done, /** @type {number} */ total) => {
          progress.value = total > 0 ? done / total : 1;
          status.textContent = `Our cache accounting of the log's scenario, in a worker: step ${integer(done)} of ${integer(total)}…`;
        };
        try {
          return { comparison: (await engine.compareProfiles(text, [result.format], { onProgress }))[result.format] };
        } catch (problem) {
          if (problem instanceof DOMException && problem.name === 'AbortError') throw problem;
          return { problem: `Our cache accounting could not be computed: ${messageOf(problem)}` };
        }
      });
      if (outcome === 'cancelled') tell(`${summary} Our cache accounting was cancelled: the table beside the recorded usage is not drawn.`);
      if (typeof outcome === 'string') return;
      accounted = { text, ...outcome.value };
    }
    // A replay of other text since the accounting began draws its own table, or none.
    const { trace } = store.state;
    if (store.state.text !== text || trace === undefined) return;
    const rows = truthRows(result.recorded, trace.steps, accounted.comparison);
    const implausible = implausibleUsage(rows.filter((row) => row.error !== undefined));
    tell(`${accounted.problem === undefined ? summary : `${summary} ${accounted.problem}`}${implausible}`);
    truth.replaceChildren(...truthView(rows));
    linkTerms(truth);
  }

  /**
   * Imports a log in the worker; the store gets its scenario once it is read, so that Cancel
   * while reading leaves the player as it was. Our accounting follows the replay (`showTruth`).
   * @param {File} file
   */
  async function load(file) {
    showError(error, '');
    status.textContent = `Reading ${file.name} (${integer(file.size)} bytes) in a worker…`;
    let outcome;
    try {
      outcome = await inWorker((engine) => engine.importLog(file, {
        onProgress: (done, total) => {
          progress.value = total > 0 ? done / total : 1;
          status.textContent = `Reading ${file.name} in a worker: ${integer(done)} of ${integer(total)} bytes…`;
        },
      }));
    } catch (problem) {
      showError(error, `${file.name} could not be imported: ${messageOf(problem)}`);
      tell(`${file.name} could not be imported: ${messageOf(problem)}`);
      return;
    }
    if (outcome === 'cancelled') tell(`Cancelled: ${file.name} was not imported, and the player keeps its scenario.`);
    if (typeof outcome === 'string') return;
    const result = outcome.value;
    imported = { result, text: result.scenarioJson };
    accounted = undefined;
    summary = `${file.name}: a ${result.format} log, ${integer(result.recorded.length)} recorded requests, ` +
      `${result.warnings.length === 0 ? 'no warnings' : `${result.warnings.length} warnings`}. Nothing left this page.`;
    tell(summary);
    warnings.replaceChildren(...result.warnings.map((warning) =>
      h('li', { 'data-kind': warning.kind }, `line ${warning.line}: ${warning.kind}: ${warning.message}`)));
    linkTerms(warnings);
    truth.replaceChildren();
    details.hidden = false;
    details.open = true;
    redacted = undefined;
    redactDownload.disabled = true;
    store.open(result.scenarioJson, '');
    store.replay();
  }

  cancelButton.addEventListener('click', () => running?.abort());
  byId('import-notice-show', HTMLButtonElement).addEventListener('click', () => {
    notice.hidden = true;
    byId('tab-scenario', HTMLButtonElement).click();
    details.open = true;
  });
  byId('import-notice-close', HTMLButtonElement).addEventListener('click', () => { notice.hidden = true; });
  store.subscribe((_state, change) => { if (change === 'replay') void showTruth(); });
  redactRun.addEventListener('click', redact);
  redactDownload.addEventListener('click', download);
  input.addEventListener('change', () => {
    const file = input.files?.[0];
    if (file !== undefined) void load(file);
    input.value = '';
  });
  document.addEventListener('dragover', (event) => {
    if (event.dataTransfer?.types.includes('Files')) event.preventDefault();
  });
  document.addEventListener('drop', async (event) => {
    const file = event.dataTransfer?.files[0];
    if (file === undefined) return;
    event.preventDefault();
    if (file.name.endsWith('.json')) {
      const text = await file.text();
      if (isScenario(text)) {
        openScenario(text);
        tell(`${file.name}: a scenario, opened in the player.`);
        return;
      }
    }
    void load(file);
  });
}
