// The Worker API for browsers (and Deno): the engine in a module Worker, every call a Promise.
// The literal `new Worker(new URL('./worker-thread.js', import.meta.url), { type: 'module' })` is
// the form Vite, webpack and Parcel recognise, so they bundle the worker script with the page.
import { connect } from './worker-client.js';

/**
 * @param {import('./worker.js').WorkerEngineOptions} [options]
 * @returns {Promise<import('./worker.js').WorkerEngine>}
 */
export function createWorkerEngine(options = {}) {
  return /** @type {any} */ (connect(({ message, crash }) => {
    const worker = options.workerUrl === undefined
      ? new Worker(new URL('./worker-thread.js', import.meta.url), { type: 'module' })
      : new Worker(options.workerUrl, { type: 'module' });
    // Which script, said where it matters: a bundler that leaves `new URL(…, import.meta.url)`
    // alone (esbuild) points the default at a file it did not emit.
    const script = options.workerUrl === undefined
      ? `the worker script ${new URL('./worker-thread.js', import.meta.url).href} (the package's default; a bundler that did not emit it needs the option workerUrl: see the README's "The Worker")`
      : `the worker script ${new URL(options.workerUrl, globalThis.location?.href).href} (option workerUrl)`;
    worker.addEventListener('message', (event) => message(event.data));
    worker.addEventListener('error', (event) => {
      event.preventDefault();
      crash(new Error(event.message ? `${script}: ${event.message}` : `${script} failed to load or threw`));
    });
    worker.addEventListener('messageerror', () => crash(new Error('a message from the worker could not be read')));
    return {
      post: (data, transfer) => worker.postMessage(data, transfer ?? []),
      terminate: () => worker.terminate(),
    };
  }, options));
}
