// The CodeMirror demo: the package's prompt editor (crate/wasm/npm/entries/codemirror.js) over
// the lite module on the page, and a Session in the package's Worker (crate/wasm/npm/entries/)
// that completes paths, previews the request a prompt would assemble, and takes the prompt on
// Send. The entries are imported by address: they are type-checked where `make package`
// assembles them, beside the types they import.
import { Compartment, EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import init, * as lite from '../../pkg/lite/context_assembly_lite.js';

/** @typedef {import('../../pkg/context_assembly.js').ProfileName} ProfileName */
/** @typedef {import('../../pkg/context_assembly.js').TurnFigures} TurnFigures */
/** @typedef {import('../../pkg/context_assembly.js').Turn} Turn */
/** @typedef {import('../../pkg/context_assembly.js').SearchResult} SearchResult */
/** @typedef {import('../../pkg/context_assembly.js').SearchOptions} SearchOptions */
/**
 * A Session in the worker, as far as the demo uses it.
 * @typedef {{
 *   writeFile(path: string, content: string, atMs: number): Promise<void>,
 *   submit(prompt: string, atMs: number): Promise<Turn>,
 *   submitFigures(prompt: string, atMs: number): Promise<TurnFigures>,
 *   searchFiles(query: string, options?: SearchOptions): Promise<SearchResult>,
 *   snapshot(): Promise<string>,
 *   free(): Promise<void>,
 * }} WorkerSession
 * @typedef {{ search(query: string, options?: SearchOptions): Promise<SearchResult>, free(): Promise<void> }} WorkerSearcher
 * @typedef {{
 *   createSession(options: import('../../pkg/context_assembly.js').SessionOptions): Promise<WorkerSession>,
 *   createFileSearcher(paths: string[]): Promise<WorkerSearcher>,
 *   Session: { restore(snapshot: string): Promise<WorkerSession> },
 * }} WorkerEngine
 * @typedef {{
 *   promptEditor(options: object): import('@codemirror/state').Extension,
 *   tokenCount(state: EditorState): number,
 * }} EditorEntry
 */

const WORKER_API = '../../crate/wasm/npm/entries/worker.js';
const EDITOR_ENTRY = '../../crate/wasm/npm/entries/codemirror.js';

/** The demo workspace: a few files worth mentioning, and a package of generated ones. */
const FILES = {
  'README.md': '# Demo\n\nA small project for the prompt editor.\n',
  'src/app.ts': 'import { api } from "./api";\nexport const port = 3000;\napi.listen(port);\n',
  'src/api.ts': 'export const api = { listen(port: number) { return port; } };\n',
  'src/components/Button.tsx': 'export function Button() { return null; }\n',
  'docs/notes on design.md': '# Design notes\n\nKeep the prompt short.\n',
  'src/😀/ünï/xyz.ts': 'export const xyz = 1;\n',
  'a "b".ts': 'export const quoted = true;\n',
  ...Object.fromEntries(Array.from({ length: 200 }, (_, i) => [`src/modules/m${i}/index.ts`, `export const m${i} = ${i};\n`])),
};

const DIRS = ['components', 'hooks', 'utils', 'services', 'models', 'views', 'tests'];

/** Paths of a large monorepo, the same on every load. @param {number} count */
function generatedPaths(count) {
  return Array.from({ length: count }, (_, i) => `packages/pkg${i % 100}/src/${DIRS[i % DIRS.length]}/file${i}.ts`);
}

const status = /** @type {HTMLElement} */ (document.getElementById('status'));
const profilePick = /** @type {HTMLSelectElement} */ (document.getElementById('profile'));
const sourcePick = /** @type {HTMLSelectElement} */ (document.getElementById('source'));
const sendButton = /** @type {HTMLButtonElement} */ (document.getElementById('send'));
const previewOut = /** @type {HTMLElement} */ (document.getElementById('preview'));
const sentList = /** @type {HTMLElement} */ (document.getElementById('sent'));

/** Logical milliseconds for the session's acts. */
let clock = 0;
const tick = () => (clock += 1000);

/**
 * A session under `profile` holding the demo workspace.
 * @param {WorkerEngine} engine @param {ProfileName} profile
 */
async function demoSession(engine, profile) {
  const session = await engine.createSession({ profile, cwd: '/project', config: { agents: ['reviewer'] } });
  const at = tick();
  for (const [path, content] of Object.entries(FILES)) await session.writeFile(path, content, at);
  return session;
}

/**
 * The request `prompt` would assemble, in a few words: from a copy of the session, so the
 * live one is not touched.
 * @param {WorkerEngine} engine @param {WorkerSession} session @param {string} prompt @param {AbortSignal} signal
 */
async function preview(engine, session, prompt, signal) {
  const copy = await engine.Session.restore(await session.snapshot());
  try {
    if (signal.aborted) return;
    const figures = await copy.submitFigures(prompt, clock + 1);
    if (signal.aborted) return;
    const attached = figures.attachments.map((a) => `${a.kind}${a.path === undefined ? '' : ` ${a.path}`}`);
    previewOut.textContent = `${figures.tokens?.total.toLocaleString('en') ?? 0} tokens in all; `
      + `${attached.length === 0 ? 'nothing attached' : `attached: ${attached.join(', ')}`}.`;
  } finally {
    await copy.free();
  }
}

async function start() {
  await init();
  /** @type {{ createWorkerEngine(options: object): Promise<WorkerEngine> }} */
  const workerApi = await import(WORKER_API);
  /** @type {EditorEntry} */
  const editorEntry = await import(EDITOR_ENTRY);
  const engine = await workerApi.createWorkerEngine({ workerUrl: new URL('./worker.js', import.meta.url) });
  const params = new URLSearchParams(location.search);
  const profiles = lite.profileNames();
  profilePick.replaceChildren(...profiles.map((name) => new Option(name, name)));
  profilePick.value = params.get('profile') ?? 'claude-code';
  sourcePick.value = params.get('source') ?? 'session';

  /** @type {ProfileName} */
  let profile = /** @type {ProfileName} */ (profilePick.value);
  let session = await demoSession(engine, profile);
  /** @type {WorkerSearcher | undefined} */
  let manyPaths;
  /** @type {string[]} */
  const recent = [];
  const editing = new Compartment();

  const extension = async () => {
    if (sourcePick.value !== 'session') manyPaths ??= await engine.createFileSearcher(generatedPaths(Number(sourcePick.value)));
    const files = sourcePick.value === 'session' ? session : manyPaths;
    const current = session;
    return editorEntry.promptEditor({
      engine: lite, profile, files, recent: () => recent,
      preview: (/** @type {string} */ prompt, /** @type {AbortSignal} */ signal) => preview(engine, current, prompt, signal),
    });
  };

  const view = new EditorView({
    parent: /** @type {HTMLElement} */ (document.getElementById('editor')),
    state: EditorState.create({ extensions: [editing.of(await extension()), EditorView.lineWrapping, EditorView.contentAttributes.of({ 'aria-label': 'prompt' })] }),
  });
  const reconfigure = async () => view.dispatch({ effects: editing.reconfigure(await extension()) });

  profilePick.addEventListener('change', async () => {
    const wanted = /** @type {ProfileName} */ (profilePick.value);
    const next = await demoSession(engine, wanted);
    // A later change won while this session was being made: it is not the one to use. The
    // profile and the session change together, so the meter never names a profile whose
    // session is not the one a send goes to.
    if (profilePick.value !== wanted) {
      await next.free();
      return;
    }
    const old = session;
    session = next;
    profile = wanted;
    await old.free();
    await reconfigure();
  });
  sourcePick.addEventListener('change', reconfigure);
  sendButton.addEventListener('click', async () => {
    const prompt = view.state.doc.toString();
    const meter = editorEntry.tokenCount(view.state);
    const turn = await session.submit(prompt, tick());
    const blocks = (turn.request?.messages ?? []).flatMap((message) => message.content);
    const promptTokens = blocks.filter((block) => block.source === 'prompt').map((block) => block.tokens);
    for (const attachment of turn.attachments) if (attachment.path !== undefined) recent.unshift(attachment.path.replace(/^\/project\//, ''));
    const item = document.createElement('li');
    item.dataset.meter = String(meter);
    item.dataset.promptTokens = promptTokens.join(',');
    item.textContent = `${prompt.length.toLocaleString('en')} characters: the meter said ${meter}, the request's prompt block counts ${promptTokens.join(', ')}; `
      + `${turn.attachments.length} attached, ${turn.request?.tokens.total.toLocaleString('en') ?? 0} tokens in all.`;
    sentList.prepend(item);
    view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: '' } });
  });
  status.textContent = `Ready: ${Object.keys(FILES).length} files in a ${profile} session in the Worker.`;
  Object.assign(globalThis, { demo: { view, tokenCount: editorEntry.tokenCount } });
  document.body.dataset.ready = 'true';
}

start().catch((error) => {
  status.textContent = `The demo could not start: ${error instanceof Error ? error.message : String(error)}`;
  throw error;
});
