// The scenario player: a scripted session replayed by the engine, stepped through one round
// at a time, showing the request the model receives and why it holds what it holds.
import { byId, h, messageOf, showError, tableParts } from '../dom.js';
import { withEngine, workerEngine } from '../engine.js';
import { integer, tokensText } from '../format.js';
import { linkTerms, withReferences } from '../popover.js';
import { setUpCopyRequest } from './scenario/copy-request.js';
import { meterElements, renderMeter } from './scenario/meter.js';
import { stepBanners } from './scenario/banners.js';
import { cacheStepOf, renderRequestDiff } from './scenario/request-diff.js';
import { requestView, textView } from './scenario/request.js';
import { stepSummary } from './scenario/steps.js';
import { latestRequest } from '../scenario-text.js';
import { termTooltip } from '../glossary.js';

/** @typedef {import('../../pkg/context_assembly.js').StepTrace} StepTrace */
/** @typedef {import('../../pkg/context_assembly.js').Request} Request */
/** @typedef {import('../../pkg/context_assembly.js').Turn} Turn */
/** @typedef {import('../../pkg/context_assembly.js').EmissionEntry} EmissionEntry */
/** @typedef {{ file: string, name: string }} ScenarioEntry */
/** @typedef {import('../store.js').ScenarioStore} ScenarioStore */

/** The teaching scenarios, relative to the page (same origin, so the page works offline). */
const SCENARIOS = 'scenarios/';

/**
 * The request a step shows: its own, or when it sends none (an event, the end of a turn),
 * the latest one before it, which is what the model last saw.
 * @param {StepTrace[]} steps
 * @param {number} index
 * @returns {{ request: Request, from: number } | undefined}
 */
export function requestFor(steps, index) {
  return latestRequest(index, (from) => steps[from]?.turn.request);
}

/**
 * Marks a step before whose request the session compacted: the policy, and the request's
 * tokens before and after (the report is in the compaction view).
 * @param {import('../../pkg/context_assembly.js').CompactionReport} report
 * @returns {HTMLElement}
 */
function compactionMark(report) {
  const what = report.applied ? `${integer(report.tokensBefore)} → ${integer(report.tokensAfter)}` : 'not applied';
  // In the list's option no link can go: the policy's meaning is in the tooltip.
  return h('span', { class: 'compacted', 'data-compacted': report.policy, 'data-term': report.policy, title: `${report.reason}\n${termTooltip(report.policy)}` },
    `${report.trigger}-compacted: ${report.policy}, ${what}`);
}

/**
 * A step's round in the list; a round the glossary explains carries its meanings in the
 * tooltip, since no link can go inside a list's option.
 * @param {string} round
 */
function roundChip(round) {
  const meaning = termTooltip(round);
  return h('span', { class: `round round-${round}`, ...(meaning === '' ? {} : { 'data-term': round, title: meaning }) }, round);
}

/**
 * A logical time as a reader reads it; the engine's clock is epoch milliseconds, in UTC.
 * @param {number} ms
 */
function clock(ms) {
  const date = new Date(ms);
  return Number.isNaN(date.getTime()) ? `${ms} ms` : `${date.toISOString().slice(0, 19).replace('T', ' ')} UTC`;
}

/**
 * A table with a header row; each cell a string or a node.
 * @param {string} className
 * @param {string[]} headers
 * @param {(string | Node)[][]} rows
 * @param {string} empty what to say when there are no rows
 */
function table(className, headers, rows, empty) {
  return h('table', { class: `grid ${className}` }, ...tableParts(headers, rows, empty));
}

/**
 * The pass's emission order (the engine's own table), with the kinds this step produced
 * marked: which collector spoke, in which phase, and where its attachments sit in the request.
 * @param {Turn} turn
 * @param {EmissionEntry[]} order
 */
function emissionView(turn, order) {
  const produced = new Set(turn.attachments.map((a) => a.kind));
  const rows = order.map((entry, index) => {
    const fired = entry.kinds.some((kind) => produced.has(kind));
    return h('li', { class: fired ? 'fired' : '', 'data-collector': entry.collector },
      h('code', {}, entry.collector), ' ', h('span', { class: 'note' }, entry.phase), ' ',
      ...entry.kinds.map((kind) => h('span', { class: produced.has(kind) ? 'kind produced' : 'kind' }, kind)),
      index === 0 ? h('span', { class: 'note' }, ' (human turns only)') : '');
  });
  // A summary cannot hold the buttons that explain its words: the note under it names them again.
  return h('details', { class: 'emission-order' },
    h('summary', {}, 'The pass, in emission order'),
    h('p', { class: 'note' }, 'The pass runs the collectors in emission order. Each runs on the prompt (human turns only), on the main-thread only or on all-threads (sub-agents too), and lists the attachment kinds it can send; those that attached something on this step are marked.'),
    h('ol', {}, ...rows));
}

/**
 * What the step produced besides the request: attachments in emission order, then every
 * decision with its reason.
 * @param {Turn} turn
 * @param {EmissionEntry[]} order
 */
function turnDetails(turn, order) {
  const attachments = turn.attachments.length === 0
    ? h('p', { class: 'none' }, 'no attachments on this step')
    : h('ul', { class: 'attachments' }, ...turn.attachments.map((a) => {
      const item = h('li', { class: `attachment freq-${a.frequency}`, 'data-kind': a.kind },
        h('div', {}, h('code', {}, a.kind), ' ', h('span', { class: `freq freq-${a.frequency}` }, a.frequency), ' ',
          h('span', { class: 'tok' }, tokensText(a.tokens))));
      if (a.path !== undefined) item.append(h('div', { class: 'note path' }, a.path));
      item.append(a.text === '' ? h('div', { class: 'none' }, 'renders to nothing')
        : h('details', {}, h('summary', {}, 'text the model sees'), textView(a.text)));
      return item;
    }));
  const decisions = table('decisions', ['verdict', 'subject and reason'], turn.decisions.map((d) => {
    const why = h('div', {}, h('code', {}, d.subject), h('div', {}, ...withReferences(d.reason)));
    if (d.detail !== undefined) why.append(h('div', { class: 'note' }, d.detail));
    return [h('span', { class: `verdict verdict-${d.verdict}` }, d.verdict), why];
  }), 'no decisions on this step');
  return [...stepBanners(turn), h('h3', {}, `Attachments (${turn.attachments.length})`), attachments,
    ...(order.length === 0 ? [] : [emissionView(turn, order)]),
    h('h3', {}, `Decisions (${turn.decisions.length})`), decisions];
}

/**
 * Where the player starts: a built-in scenario by its file name, or a scenario's text (from a
 * shared link or the autosave), at a step (0-based) under a profile.
 * @typedef {{ file?: string, text?: string, step?: number, profile?: string }} PlayerStart
 */

/**
 * Adds to the profile choice every preset the engine has beyond the page's first three (the
 * seeds' releases, our peers), each saying which release it reproduces, so a link or the tour
 * can name any of them.
 * @param {HTMLSelectElement} select
 */
function offerEveryPreset(select) {
  const listed = new Set([...select.options].map((option) => option.value));
  for (const { name, client, version } of withEngine((engine) => engine.profileReleases())) {
    if (listed.has(name)) continue;
    const release = client === undefined ? '' : ` (${client === 'codex' ? 'Codex CLI' : 'Claude Code'} ${version})`;
    select.append(h('option', { value: name }, `${name}${release}`));
  }
}

/**
 * Wires the scenario panel to the store and loads the scenario `start` names (the first
 * teaching scenario by default). The panel writes the editor's text and the profile to the
 * store and asks it to replay; it draws what the store then holds. Never throws: a problem is
 * shown in the panel. Returns the calls the app shell drives it with.
 * @param {ScenarioStore} store
 * @param {PlayerStart} [start]
 */
export async function setUpScenario(store, start = {}) {
  const panel = byId('scenario-panel', HTMLElement);
  const pick = byId('scenario-pick', HTMLSelectElement);
  const json = byId('scenario-json', HTMLTextAreaElement);
  const runButton = byId('scenario-run', HTMLButtonElement);
  const profile = byId('scenario-profile', HTMLSelectElement);
  offerEveryPreset(profile);
  const error = byId('scenario-error', HTMLElement);
  const description = byId('scenario-description', HTMLElement);
  const hint = byId('scenario-hint', HTMLElement);
  const list = byId('scenario-steps', HTMLOListElement);
  const back = byId('scenario-back', HTMLButtonElement);
  const forward = byId('scenario-forward', HTMLButtonElement);
  const position = byId('scenario-position', HTMLOutputElement);
  const title = byId('scenario-step-title', HTMLElement);
  const meter = meterElements('scenario-meter');
  const note = byId('scenario-request-note', HTMLElement);
  const requestPane = byId('scenario-request', HTMLElement);
  const diffStrip = byId('request-diff-strip', HTMLElement);
  const turnPane = byId('scenario-turn', HTMLElement);
  /** The engine's emission order, read once: it is the same for every scenario. @type {EmissionEntry[]} */
  const order = withEngine((engine) => engine.emissionOrder());

  /** @type {StepTrace[]} */
  let steps = [];
  let current = 0;
  /** The built-in scenario last loaded, and its text as fetched: an edit makes it the reader's own. */
  let loaded = { file: '', text: '' };
  /** @type {Set<() => void>} */
  const stepListeners = new Set();
  /**
   * The request on screen, so that stepping between steps that show the same request keeps
   * its DOM; `null` when nothing valid is on screen (before the first render, after a run).
   * @type {Request | undefined | null}
   */
  let shownRequest = null;
  /**
   * The prompt cache's accounting of the replay on screen (the engine's `compareProfiles` of
   * the scenario under its own profile, as the scenario says: the replay's own requests),
   * made in a worker so that a long replay keeps the page drawing; `undefined` until it comes.
   * @type {import('../../pkg/context_assembly.js').CompareStep[] | undefined}
   */
  let cacheAccount;
  /** The accounting under way, to stop when another replay makes it stale. @type {AbortController | undefined} */
  let accounting;
  const copier = setUpCopyRequest({ request: () => requestFor(steps, current) });

  function renderList() {
    list.replaceChildren(...steps.map((step, index) => {
      const summary = stepSummary(step.input);
      return h('li', {
        id: `scenario-step-${index}`, role: 'option', 'aria-selected': 'false', 'data-index': String(index),
        'data-kind': step.input.kind, 'data-round': step.turn.round,
      },
      h('span', { class: 'step-index' }, String(index + 1)),
      h('span', { class: 'step-kind' }, `${step.input.kind}: `),
      // The list is narrow: a cut summary is whole in its tooltip.
      h('span', { class: 'step-summary', title: summary }, summary),
      roundChip(step.turn.round),
      ...(step.turn.compaction ?? []).map(compactionMark));
    }));
  }

  /**
   * Scrolls the list, and only the list, to show a row: the page stays where the reader is.
   * @param {HTMLElement} row
   */
  function keepInView(row) {
    const box = list.getBoundingClientRect();
    const at = row.getBoundingClientRect();
    if (at.top < box.top) list.scrollTop -= box.top - at.top;
    else if (at.bottom > box.bottom) list.scrollTop += at.bottom - box.bottom;
  }

  /** A step button that disables under the focus hands the focus to its partner, not to the page. */
  function keepFocus() {
    if (document.activeElement === forward && forward.disabled) (back.disabled ? list : back).focus();
    else if (document.activeElement === back && back.disabled) (forward.disabled ? list : forward).focus();
  }

  /** The hint names the scenario on screen: a built-in one by its name, an edited one as yours. */
  function renderHint() {
    const name = loaded.file !== '' && store.state.text === loaded.text ? pick.selectedOptions[0]?.textContent ?? '' : '';
    hint.replaceChildren(h('b', {}, 'Try:'), ' step through ', name === '' ? 'your scenario' : h('b', {}, name),
      ' with Forward (or → in the list): the request, the meter and the decisions follow each step.');
  }

  /** Re-renders what depends on the current step, and nothing else. */
  function renderStep() {
    const step = steps[current];
    for (const row of list.querySelectorAll('[aria-selected="true"]')) row.setAttribute('aria-selected', 'false');
    back.disabled = current <= 0;
    forward.disabled = current >= steps.length - 1;
    keepFocus();
    for (const listener of stepListeners) listener();
    if (step === undefined) {
      position.value = 'no steps';
      title.textContent = 'This scenario has no steps.';
      list.removeAttribute('aria-activedescendant');
      renderMeter(meter, undefined);
      note.textContent = '';
      requestPane.replaceChildren();
      turnPane.replaceChildren();
      diffStrip.replaceChildren();
      shownRequest = null;
      return;
    }
    const row = list.children[current];
    row?.setAttribute('aria-selected', 'true');
    if (row instanceof HTMLElement) keepInView(row);
    list.setAttribute('aria-activedescendant', `scenario-step-${current}`);
    list.dataset.current = String(current);
    position.value = `step ${current + 1} of ${steps.length}`;
    const start = steps[0]?.atMs ?? step.atMs;
    // The round on its own, so that an `event` is linked as the glossary's word.
    title.replaceChildren(`Step ${current + 1}: ${step.input.kind}, `, step.turn.round,
      `, mode ${step.mode}, at ${clock(step.atMs)} (+${((step.atMs - start) / 1000).toLocaleString('en-US')} s)`);
    const shown = requestFor(steps, current);
    const request = shown?.request;
    note.dataset.from = shown === undefined ? '' : String(shown.from);
    if (shown === undefined) {
      note.textContent = 'No request yet: this step sends none, and none was sent before it.';
    } else if (shown.from === current) {
      note.textContent = `The request this step sends (${step.turn.round}), assembled anew from the session's state.`;
    } else {
      note.textContent = `This step (${step.turn.round}) sends no request: shown is the request of step ${shown.from + 1}, the latest before it.`;
    }
    if (request !== shownRequest) {
      renderMeter(meter, request);
      const cache = cacheStepOf(cacheAccount, shown?.from ?? current);
      requestPane.replaceChildren(...(request === undefined ? [] : [requestView(request, cache)]));
      linkTerms(requestPane);
      renderRequestDiff(diffStrip, steps, shown?.from ?? current, cache);
      shownRequest = request;
    }
    turnPane.replaceChildren(...turnDetails(step.turn, order));
    linkTerms(title);
    linkTerms(turnPane);
  }

  /** @param {number} index */
  function select(index) {
    const next = Math.max(0, Math.min(index, steps.length - 1));
    if (next === current && list.dataset.current === String(current)) return;
    current = next;
    renderStep();
  }

  /**
   * Asks the worker for the cache accounting of the replay on screen, and draws the step again
   * with it; a later replay stops it. A failure is said in the strip: the request is still shown.
   * @param {import('../store.js').ScenarioState} state
   * @param {string} profileName the profile the replay ran under
   */
  async function accountCache(state, profileName) {
    accounting?.abort();
    const controller = new AbortController();
    accounting = controller;
    cacheAccount = undefined;
    delete diffStrip.dataset.account;
    try {
      const engine = (await workerEngine('cache')).with({ signal: controller.signal });
      const name = /** @type {import('../../pkg/context_assembly.js').ProfileName} */ (profileName);
      const comparison = await engine.compareProfiles(store.scenario(), [name], { usage: 'scenario' });
      if (accounting !== controller || store.state.trace !== state.trace) return;
      cacheAccount = comparison[profileName]?.steps;
      diffStrip.dataset.account = 'ready';
      shownRequest = null;
      renderStep();
    } catch (problem) {
      if (accounting !== controller || (problem instanceof DOMException && problem.name === 'AbortError')) return;
      diffStrip.dataset.account = 'failed';
      diffStrip.append(h('p', { class: 'note' }, `What the prompt cache did is not shown: our cache accounting failed (${messageOf(problem)}).`));
    }
  }

  /** Replays the JSON in the editor, through the store. */
  function run() {
    store.edit({ text: json.value, profile: profile.value });
    store.replay();
  }

  /**
   * Draws a replay: a bad scenario is reported, the last good run stays.
   * @param {import('../store.js').ScenarioState} state
   */
  function showReplay(state) {
    renderHint();
    if (state.error !== '') {
      showError(error, `${state.error}${steps.length > 0 ? ' (the steps shown are from the last run that worked)' : ''}`);
      return;
    }
    steps = state.trace?.steps ?? [];
    current = Math.max(0, Math.min(current, steps.length - 1));
    shownRequest = null;
    delete list.dataset.current;
    showError(error, '');
    const parsed = /** @type {{ description?: unknown, profile?: unknown } | null | undefined} */ (state.parsed);
    description.replaceChildren(...withReferences(typeof parsed?.description === 'string' ? parsed.description : ''));
    linkTerms(description);
    const runsUnder = state.profile || (typeof parsed?.profile === 'string' ? parsed.profile : 'recommended');
    copier.profileChanged(runsUnder);
    void accountCache(state, runsUnder);
    // "As the scenario says" names the profile the scenario says, so the bar never hides what runs.
    const own = profile.querySelector('option[value=""]');
    if (own !== null) own.textContent = state.profile === '' ? `as the scenario says: ${runsUnder}` : 'as the scenario says';
    renderList();
    renderStep();
  }

  /**
   * Opens a scenario's text in the editor (another scenario, not an edit) and replays it from
   * step `step`.
   * @param {string} text
   * @param {number} [step]
   */
  function play(text, step = 0) {
    json.value = text;
    current = step;
    store.open(text, profile.value);
    store.replay();
  }

  /**
   * The picker and the profile of a scenario another writer opened: the picker names it (its
   * `name`, or "your own scenario") rather than the built-in one it replaced, and the profile
   * is the one it runs under.
   * @param {import('../store.js').ScenarioState} state
   */
  function nameOpenedElsewhere(state) {
    const parsed = /** @type {{ name?: unknown } | null | undefined} */ (state.parsed);
    const name = typeof parsed?.name === 'string' && parsed.name !== '' ? parsed.name : 'your own scenario';
    const own = pick.querySelector('option[value=""]') ?? pick.appendChild(h('option', { value: '' }));
    own.textContent = name;
    pick.value = '';
    profile.value = state.profile;
  }

  /** Fetches the picked scenario into the editor and runs it; `data-loaded` names it once shown. */
  async function load(step = 0) {
    const file = pick.value;
    if (file === '') return;
    panel.dataset.loaded = '';
    try {
      const response = await fetch(`${SCENARIOS}${file}`);
      if (!response.ok) throw new Error(`${file}: HTTP ${response.status}`);
      const text = await response.text();
      // A later pick wins over a slower earlier fetch.
      if (pick.value !== file) return;
      loaded = { file, text };
      play(text, step);
    } catch (problem) {
      showError(error, `The scenario could not be loaded: ${messageOf(problem)}`);
      return;
    }
    panel.dataset.loaded = file;
  }

  store.subscribe((state, change) => {
    if (change === 'replay') showReplay(state);
    else if (change === 'step') select(state.step);
    // Another writer (an imported log) put a scenario in the store: the editor shows it, and
    // the picker and the profile name what now runs.
    else if (state.text !== json.value) {
      json.value = state.text;
      nameOpenedElsewhere(state);
    }
  });
  json.addEventListener('input', () => store.edit({ text: json.value }));
  runButton.addEventListener('click', run);
  profile.addEventListener('change', run);
  pick.addEventListener('change', () => void load());
  back.addEventListener('click', () => select(current - 1));
  forward.addEventListener('click', () => select(current + 1));
  list.addEventListener('click', (event) => {
    const row = event.target instanceof Element ? event.target.closest('li[data-index]') : null;
    if (row instanceof HTMLElement) select(Number(row.dataset.index));
  });
  list.addEventListener('keydown', (event) => {
    /** @type {Record<string, number>} */
    const moves = { ArrowLeft: current - 1, ArrowUp: current - 1, ArrowRight: current + 1, ArrowDown: current + 1,
      Home: 0, End: steps.length - 1 };
    const to = moves[event.key];
    if (to === undefined) return;
    event.preventDefault();
    select(to);
  });

  const controls = {
    /** The step on screen, 0-based. */
    get step() { return current; },
    /** The built-in scenario on screen, unedited; '' when the text is the reader's own. */
    get builtIn() { return loaded.file !== '' && store.state.text === loaded.text ? loaded.file : ''; },
    /** The text of the built-in scenario last loaded, '' before one is. */
    get builtInText() { return loaded.text; },
    /** @param {() => void} listener called whenever the step on screen is drawn again */
    onStep(listener) { stepListeners.add(listener); },
    select,
    play,
    /**
     * Loads a built-in scenario by its file name.
     * @param {string} file
     */
    async loadBuiltIn(file) {
      pick.value = file;
      await load();
    },
    /**
     * Shows what a link names in a page already open: its scenario (a built-in one or its
     * text) under its profile at its step, replaying only what changed.
     * @param {PlayerStart} link
     */
    async follow(link) {
      const wanted = link.profile ?? '';
      const reprofiled = profile.value !== wanted && [...profile.options].some((option) => option.value === wanted);
      if (reprofiled) profile.value = wanted;
      const step = link.step ?? 0;
      if (link.text !== undefined && link.text !== store.state.text) {
        play(link.text, step);
        panel.dataset.loaded = 'text';
      } else if (link.file !== undefined && link.file !== controls.builtIn) {
        pick.value = link.file;
        await load(step);
      } else {
        if (reprofiled) run();
        select(step);
      }
    },
  };

  /** @type {ScenarioEntry[]} */
  let entries;
  try {
    const response = await fetch(`${SCENARIOS}index.json`);
    if (!response.ok) throw new Error(`index.json: HTTP ${response.status}`);
    entries = await response.json();
    pick.replaceChildren(...entries.map((entry) => h('option', { value: entry.file }, entry.name)));
  } catch (problem) {
    showError(error, `The list of scenarios could not be loaded: ${messageOf(problem)}. Paste a scenario and press Run.`);
    return controls;
  }
  if (start.profile !== undefined) profile.value = start.profile;
  if (start.text !== undefined) {
    play(start.text, start.step);
    panel.dataset.loaded = 'text';
    return controls;
  }
  if (start.file !== undefined && entries.some((entry) => entry.file === start.file)) pick.value = start.file;
  await load(start.step);
  return controls;
}

/** @typedef {Awaited<ReturnType<typeof setUpScenario>>} ScenarioControls */
