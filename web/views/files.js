// The files panel: a virtual workspace edited by the user (outside the agent) and by the
// agent's tools, and what each turn puts in front of the model, with every decision.
import { byId, h, messageOf, tableParts } from '../dom.js';
import { withEngine } from '../engine.js';
import { linkTerms } from '../popover.js';
import { setUpCompletion } from './files/completion.js';
import { shorten } from './shorten.js';

/** @typedef {import('../../pkg/context_assembly.js').Session} Session */
/** @typedef {import('../../pkg/context_assembly.js').ProfileName} ProfileName */
/** @typedef {import('../../pkg/context_assembly.js').Turn} Turn */
/** @typedef {import('../../pkg/context_assembly.js').FileStateRow} FileStateRow */
/** @typedef {import('../../pkg/context_assembly.js').TransientErrorKind} TransientErrorKind */
/** @typedef {{ label: string, at: number, turn: Turn }} TurnRecord */

const CWD = '/project';
const HOME = '/home/user';
const TICK_MS = 1000;
/** A listing deeper than this is cut: the seeded workspace is shallow, and a cycle is impossible, but a bound costs nothing. */
const MAX_DEPTH = 12;

const APP_TS = `import { readFileSync } from 'node:fs';

interface Config {
  name: string;
  port: number;
  verbose: boolean;
}

const DEFAULTS: Config = { name: 'app', port: 8080, verbose: false };

export function loadConfig(path: string): Config {
  const text = readFileSync(path, 'utf8');
  const parsed = JSON.parse(text) as Partial<Config>;
  return { ...DEFAULTS, ...parsed };
}

export function greet(config: Config): string {
  const greeting = 'Hello from ' + config.name;
  if (config.verbose) {
    console.log('greeting on port', config.port);
  }
  return greeting;
}

export function main(argv: string[]): number {
  const config = loadConfig(argv[2] ?? 'config.json');
  console.log(greet(config));
  return 0;
}
`;

/** The seeded workspace: paths relative to the working directory, and their text. */
const SEED = {
  'src/app.ts': APP_TS,
  'README.md': '# app\n\nA tiny service. Run `npm start`; settings live in `config.json`.\n',
  'src/CLAUDE.md': '# src conventions\n\n- Functions are small and exported by name.\n- No default exports.\n',
  '.env': 'API_TOKEN=not-for-the-model\n',
};
const SEED_CONFIG = { deny: ['Read(./.env)'] };

/**
 * One turn: its attachments and its decisions.
 * @param {TurnRecord} record
 * @param {number} number
 */
function turnView(record, number) {
  const { turn } = record;
  const attachments = h('table', { class: 'grid attachments' }, ...tableParts(
    ['kind', 'path', 'tokens', 'text the model sees'],
    turn.attachments.map((a) => [a.kind, a.path ?? '', String(a.tokens),
      a.text === '' ? h('span', { class: 'none' }, 'renders to nothing') : h('pre', {}, a.text)]),
    'no attachments'));
  const decisions = h('table', { class: 'grid decisions' }, ...tableParts(
    ['subject', 'verdict', 'reason', 'detail'],
    turn.decisions.map((d) => [d.subject, d.verdict, d.reason, d.detail ?? '']),
    'no decisions'));
  return h('div', { class: 'turn', 'data-turn': String(number) },
    h('h4', {}, `#${number} ${record.label} at ${record.at} ms`),
    attachments, decisions);
}

/** Wires the files panel. */
export function setUpFiles() {
  const profileSelect = byId('files-profile', HTMLSelectElement);
  const clockView = byId('files-clock', HTMLOutputElement);
  const tree = byId('files-tree', HTMLUListElement);
  const pathView = byId('files-path', HTMLElement);
  const statView = byId('files-stat', HTMLSpanElement);
  const editor = byId('files-editor', HTMLTextAreaElement);
  const target = byId('files-target', HTMLInputElement);
  const offsetInput = byId('files-offset', HTMLInputElement);
  const limitInput = byId('files-limit', HTMLInputElement);
  const oldInput = byId('files-old', HTMLInputElement);
  const newInput = byId('files-new', HTMLInputElement);
  const message = byId('files-message', HTMLParagraphElement);
  const toolResult = byId('files-tool-result', HTMLPreElement);
  const prompt = byId('files-prompt', HTMLTextAreaElement);
  const stateTable = byId('files-state', HTMLTableElement);
  const turnsView = byId('files-turns', HTMLDivElement);
  const completion = setUpCompletion({
    input: prompt,
    popup: byId('files-completion-popup', HTMLDivElement),
    list: byId('files-completion', HTMLUListElement),
    status: byId('files-completion-status', HTMLSpanElement),
    hint: byId('files-prompt-hint', HTMLParagraphElement),
    session: () => session,
    profile: () => profileSelect.value,
    onTrap: () => { session = undefined; }, // re-seeded on the next action
  });
  const transientButtons = {
    EACCES: byId('files-eacces', HTMLButtonElement),
    EBUSY: byId('files-ebusy', HTMLButtonElement),
  };

  /** @type {Session | undefined} */
  let session;
  let clock = 0;
  /** @type {string | undefined} */
  let selected;
  /** @type {TurnRecord[]} */
  let turns = [];
  /** Transient errors set on paths (the engine does not report them back). @type {Map<string, TransientErrorKind>} */
  const transient = new Map();

  const profiles = withEngine((engine) => engine.profileNames());
  profileSelect.replaceChildren(...profiles.map((name) => h('option', { value: name }, name)));
  // Under claude-code a file that was only Read is never watched (Q31): the "Try this"
  // steps show a note under recommended, the default here.
  profileSelect.value = 'recommended';

  /** The next logical time: every action advances the clock. */
  const tick = () => {
    clock += TICK_MS;
    clockView.value = String(clock);
    return clock;
  };

  /** @param {string} text @param {boolean} [isError] */
  const say = (text, isError = false) => {
    message.textContent = text;
    message.classList.toggle('error-text', isError);
  };

  const createSession = () => {
    session?.free();
    session = undefined;
    const profile = /** @type {ProfileName} */ (profileSelect.value);
    const fresh = withEngine((engine) => new engine.Session({ profile, cwd: CWD, home: HOME, config: SEED_CONFIG }));
    clock = TICK_MS;
    for (const [path, text] of Object.entries(SEED)) fresh.writeFile(path, text, clock);
    clockView.value = String(clock);
    session = fresh;
    turns = [];
    transient.clear();
  };

  /**
   * Runs an action against the session; a thrown error is shown, never logged as a
   * console error (the engine throws on purpose for bad input).
   * @param {(session: Session) => void} action
   */
  const act = (action) => {
    try {
      if (session === undefined) createSession();
      const current = /** @type {Session} */ (session);
      say('');
      withEngine(() => action(current));
    } catch (error) {
      if (error instanceof WebAssembly.RuntimeError) session = undefined; // re-seeded on the next action
      say(messageOf(error), true);
    }
    render();
  };

  /** @param {string} path */
  const loadEditor = (path) => {
    if (session === undefined) return;
    try {
      const text = session.readFileText(path);
      editor.value = text ?? '';
      editor.disabled = text === null;
      editor.placeholder = text === null ? 'a binary file: nothing to edit' : '';
    } catch (error) {
      editor.value = '';
      say(`Cannot open ${path}: ${messageOf(error)}`, true);
    }
  };

  /** @param {string | undefined} path */
  const select = (path) => {
    selected = path;
    editor.disabled = path === undefined;
    if (path === undefined) editor.value = '';
    else loadEditor(path);
  };

  /** @param {string} path @param {number} depth @returns {HTMLLIElement[]} */
  const listing = (path, depth) => {
    if (session === undefined) return [];
    let entries;
    try {
      entries = session.listDir(path);
    } catch (error) {
      return [h('li', { class: 'none' }, messageOf(error))];
    }
    const ordered = [...entries.filter((e) => e.kind === 'directory'), ...entries.filter((e) => e.kind === 'file')];
    return ordered.map((entry) => {
      const full = path === '/' ? `/${entry.name}` : `${path}/${entry.name}`;
      const mark = transient.get(full);
      const suffix = mark === undefined ? '' : ` (${mark})`;
      if (entry.kind === 'directory') {
        const children = depth < MAX_DEPTH ? listing(full, depth + 1) : [h('li', { class: 'none' }, '…')];
        return h('li', { class: 'dir' }, h('span', {}, `${entry.name}/${suffix}`), h('ul', {}, ...children));
      }
      const button = h('button', { type: 'button', 'data-path': full }, entry.name + suffix);
      if (full === selected) button.classList.add('selected');
      if (mark !== undefined) button.classList.add('transient');
      button.addEventListener('click', () => { select(full); render(); });
      return h('li', {}, button);
    });
  };

  const renderSelection = () => {
    pathView.textContent = selected ?? 'no file selected';
    statView.textContent = '';
    if (session !== undefined && selected !== undefined) {
      try {
        const stat = session.stat(selected);
        statView.textContent = `${stat.size} bytes, mtime ${stat.mtimeMs} ms`;
      } catch (error) {
        statView.textContent = messageOf(error);
      }
    }
    for (const [kind, button] of Object.entries(transientButtons)) {
      button.setAttribute('aria-pressed', String(selected !== undefined && transient.get(selected) === kind));
    }
  };

  const renderState = () => {
    /** @type {FileStateRow[]} */
    const rows = session?.fileState() ?? [];
    const optional = (/** @type {number | undefined} */ n) => (n === undefined ? '—' : String(n));
    stateTable.replaceChildren(...tableParts(
      ['#', 'path', 'timestamp', 'offset', 'limit', 'bytes', 'partial view'],
      rows.map((row, i) => [String(i + 1), row.path, String(row.timestamp), optional(row.offset), optional(row.limit),
        String(row.bytes), row.partialView ? 'yes' : 'no']),
      'empty: nothing has been read yet'));
  };

  function render() {
    tree.replaceChildren(...listing('/', 0));
    completion.refresh();
    renderSelection();
    renderState();
    turnsView.replaceChildren(...(turns.length === 0
      ? [h('p', { class: 'none' }, 'No turn yet: press Submit or Tool round.')]
      : turns.map((record, i) => turnView(record, turns.length - i))));
    linkTerms(turnsView);
  }

  /** @param {string} what */
  const needSelection = (what) => {
    if (selected === undefined) throw new Error(`Select a file first, to ${what} it.`);
    return selected;
  };

  /** @param {string} label @param {import('../../pkg/context_assembly.js').ToolResult} result */
  const showToolResult = (label, result) => {
    toolResult.hidden = false;
    toolResult.classList.toggle('error-text', result.isError);
    toolResult.textContent = `${label}${result.isError ? ' (error)' : ''}:\n${result.content}`;
  };

  /** @param {HTMLInputElement} input */
  const numberIn = (input) => (input.value.trim() === '' ? undefined : Number(input.value));

  /** @param {string} id @param {(session: Session) => void} action */
  const onClick = (id, action) => byId(id, HTMLButtonElement).addEventListener('click', () => act(action));

  onClick('files-save', (s) => {
    const path = needSelection('save');
    if (editor.disabled) throw new Error(`${path} is binary: the editor cannot change it.`);
    s.writeFile(path, editor.value, tick());
    say(`Saved ${path} outside the agent; the next turn or tool round will look at it.`);
  });
  onClick('files-delete', (s) => {
    const path = needSelection('delete');
    s.deleteFile(path, tick());
    select(undefined);
  });
  // The engine expands what was typed (and refuses what escapes the root), and its own
  // spelling of the result selects it in the tree.
  onClick('files-create', (s) => {
    const typed = target.value;
    if (typed.trim() === '') throw new Error('Type a path for the new file first.');
    let exists = true;
    try { s.stat(typed); } catch { exists = false; }
    if (exists) throw new Error(`${typed} already exists: select it in the tree.`);
    s.writeFile(typed, '', tick());
    select(s.expand(typed));
  });
  onClick('files-rename', (s) => {
    const from = needSelection('rename');
    const typed = target.value;
    if (typed.trim() === '') throw new Error('Type the new path first.');
    s.rename(from, typed, tick());
    select(s.expand(typed));
  });
  for (const [kind, button] of Object.entries(transientButtons)) {
    button.addEventListener('click', () => act((s) => {
      const path = needSelection('set a transient error on');
      const next = transient.get(path) === kind ? null : /** @type {TransientErrorKind} */ (kind);
      s.setTransientError(path, next);
      if (next === null) transient.delete(path);
      else transient.set(path, next);
      say(next === null ? `${path} can be read again.` : `Every look at ${path} now fails with ${next}.`);
    }));
  }
  onClick('files-read', (s) => {
    const path = needSelection('read');
    const offset = numberIn(offsetInput);
    const limit = numberIn(limitInput);
    showToolResult(`Read ${path}`, s.read(path, { offset, limit }, tick()));
  });
  onClick('files-edit', (s) => {
    const path = needSelection('edit');
    showToolResult(`Edit ${path}`, s.edit(path, oldInput.value, newInput.value, tick()));
    loadEditor(path);
  });
  onClick('files-write', (s) => {
    const path = needSelection('write');
    showToolResult(`Write ${path}`, s.write(path, editor.value, tick()));
    loadEditor(path);
  });
  onClick('files-submit', (s) => {
    const at = tick();
    turns.unshift({ label: `human turn “${shorten(prompt.value)}”`, at, turn: s.submit(prompt.value, at) });
  });
  onClick('files-tool-round', (s) => {
    const at = tick();
    turns.unshift({ label: 'tool round', at, turn: s.toolRound(at) });
  });
  // The turn just run is what the reader pressed the button to see: bring it into view
  // (registered after the actions, so it runs once the turn is drawn).
  for (const id of ['files-submit', 'files-tool-round']) {
    byId(id, HTMLButtonElement).addEventListener('click', () => turnsView.firstElementChild?.scrollIntoView({ block: 'nearest' }));
  }
  profileSelect.addEventListener('change', () => act(() => {
    createSession();
    toolResult.hidden = true;
    if (selected !== undefined) select(selected);
    say(`New ${profileSelect.value} session over the seeded workspace; nothing was replayed.`);
  }));

  createSession();
  select(`${CWD}/src/app.ts`);
  render();
}
