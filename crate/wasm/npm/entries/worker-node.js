// The Worker API under Node: the engine in a worker_threads Worker, every call a Promise. The
// worker keeps the process alive only while a call is running, so a script ends when its work
// does; `terminate()` ends the worker at once.
import { Worker } from 'node:worker_threads';
import { connect } from './worker-client.js';

/**
 * @param {import('./worker.js').WorkerEngineOptions} [options]
 * @returns {Promise<import('./worker.js').WorkerEngine>}
 */
export function createWorkerEngine(options = {}) {
  return /** @type {any} */ (connect(({ message, crash }) => {
    const worker = new Worker(options.workerUrl ?? new URL('./worker-thread-node.js', import.meta.url));
    worker.on('message', message);
    worker.on('error', crash);
    worker.on('exit', (code) => crash(new Error(`the worker exited with code ${code}`)));
    return {
      post: (data, transfer) => worker.postMessage(data, transfer),
      terminate: () => void worker.terminate(),
      ref: () => worker.ref(),
      unref: () => worker.unref(),
    };
  }, options));
}
