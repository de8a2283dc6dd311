// The page of tests/bench/editor.mjs: plain CodeMirror and the package's prompt editor
// (highlighting, completion from 50,000 paths searched in the Worker, the meter) side by side,
// each keystroke's latency recorded; and the Worker's search figures.
import { EditorState } from '@codemirror/state';
import { EditorView } from '@codemirror/view';
import init, * as lite from '../../pkg/lite/context_assembly_lite.js';
import { createWorkerEngine } from '../../crate/wasm/npm/entries/worker.js';
import { promptEditor } from '../../crate/wasm/npm/entries/codemirror.js';

const PATHS = 50_000;
const DIRS = ['components', 'hooks', 'utils', 'services', 'models', 'views', 'tests'];
const paths = Array.from({ length: PATHS }, (_, i) => `packages/pkg${i % 100}/src/${DIRS[i % DIRS.length]}/file${i}.ts`);

await init();
const engine = await createWorkerEngine({ workerUrl: new URL('../../web/editor/worker.js', import.meta.url) });
let started = performance.now();
const searcher = await engine.createFileSearcher(paths);
const createMs = performance.now() - started;

/**
 * An editor whose keystrokes are timed: from keydown to the update that took the change
 * (`handled`), and to the next animation frame after it (`frame`).
 */
function timedEditor(parent, extensions) {
  const times = { handled: [], frame: [] };
  let keydownAt;
  const view = new EditorView({
    parent,
    state: EditorState.create({ extensions: [extensions, EditorView.lineWrapping, EditorView.updateListener.of((update) => {
      if (!update.docChanged || keydownAt === undefined) return;
      const at = keydownAt;
      keydownAt = undefined;
      times.handled.push(performance.now() - at);
      requestAnimationFrame(() => times.frame.push(performance.now() - at));
    })] }),
  });
  view.contentDOM.addEventListener('keydown', () => { keydownAt = performance.now(); }, { capture: true });
  return { view, times };
}

const plain = timedEditor(document.getElementById('plain'), []);
const ours = timedEditor(document.getElementById('ours'), promptEditor({ engine: lite, profile: 'claude-code', files: searcher }));

/** Per-keystroke search through the Worker, the FileSearcher on this thread, and searchPaths through the Worker (the paths cross on every call). */
async function searchFigures(queries) {
  const worker = [];
  const local = [];
  const again = [];
  const main = new lite.FileSearcher(paths);
  for (const query of queries) {
    started = performance.now();
    await searcher.search(query);
    worker.push(performance.now() - started);
    started = performance.now();
    main.search(query);
    local.push(performance.now() - started);
  }
  for (const query of queries.slice(0, 5)) {
    started = performance.now();
    await engine.searchPaths(paths, query);
    again.push(performance.now() - started);
  }
  main.free();
  return { worker, local, again, createMs };
}

Object.assign(globalThis, { bench: { plain, ours, searchFigures } });
document.body.dataset.ready = 'true';
