// The Worker API's main half, shared by the browser entry (worker.js) and the Node entry
// (worker-node.js), which differ only in how they start a worker. Every call is a message to the
// worker and a Promise here. A worker that is cancelled, traps or crashes is replaced by a fresh
// one: the calls it was running reject, and the Sessions it held reject every later call.

/**
 * @typedef {{ post(message: unknown, transfer?: ArrayBuffer[]): void, terminate(): void, ref?(): void, unref?(): void }} WorkerHandle
 * @typedef {{ message(message: any): void, crash(error: Error): void }} WorkerListeners
 * @typedef {(listeners: WorkerListeners) => WorkerHandle} Spawn
 * @typedef {import('./worker.js').WorkerEvent} WorkerEvent
 * @typedef {import('./worker.js').CallOptions} CallOptions
 * @typedef {{ fn: string, resolve(value: unknown): void, reject(error: unknown): void, startedAt: number, options: CallOptions, onProgress?: (done: number, total: number) => void, cleanUp(): void }} Pending
 * @typedef {{ functions: string[], sessionMethods: string[], sessionStatics: string[] }} Names
 */

const now = () => globalThis.performance?.now() ?? Date.now();

/**
 * Starts a worker with `spawn` and resolves to the engine once its module is instantiated.
 * @param {Spawn} spawn
 * @param {import('./worker.js').WorkerEngineOptions} options
 */
export async function connect(spawn, options = {}) {
  const wasm = portableWasm(options.wasm);
  /** @type {WorkerHandle | undefined} */
  let worker;
  let generation = 0;
  /** Why each replaced worker went, by generation: what its Sessions answer afterwards. */
  /** @type {Map<number, string>} */
  const endings = new Map();
  /** @type {Map<number, Pending>} */
  const pending = new Map();
  let nextId = 1;
  let initialising = false;
  /** @type {string | undefined} */
  let closed;
  /** @type {{ resolve(names: Names): void, reject(error: Error): void }} */
  let readiness = { resolve: () => {}, reject: () => {} };
  const registry = new FinalizationRegistry((/** @type {{ handle: number, generation: number }} */ held) => {
    if (held.generation === generation && worker !== undefined) worker.post({ type: 'free', handle: held.handle });
  });

  /** @param {WorkerEvent} event @param {CallOptions} [call] */
  function emit(event, call) {
    options.onEvent?.(event);
    call?.onEvent?.(event);
  }

  /** Keeps a Node process alive only while the worker has work. */
  function keepAlive() {
    if (initialising || pending.size > 0) worker?.ref?.();
    else worker?.unref?.();
  }

  /** @returns {Promise<Names>} */
  function start() {
    generation += 1;
    const current = generation;
    initialising = true;
    const ready = new Promise((resolve, reject) => { readiness = { resolve, reject }; });
    worker = spawn({
      message: (message) => { if (current === generation) receive(message); },
      crash: (error) => {
        if (current !== generation || closed !== undefined) return;
        // A worker that dies before it is ready would die again: fail instead of looping.
        if (initialising) failToStart(error.message);
        else replace(`the worker crashed: ${error.message}`);
      },
    });
    worker.post({ type: 'init', wasm });
    keepAlive();
    return /** @type {Promise<Names>} */ (ready);
  }

  /** @param {any} message */
  function receive(message) {
    if (message.type === 'ready') {
      initialising = false;
      keepAlive();
      readiness.resolve(message);
      return;
    }
    if (message.type === 'init-failed') {
      failToStart(message.message);
      return;
    }
    const call = pending.get(message.id);
    if (call === undefined) return;
    if (message.type === 'started') {
      emit({ type: 'started', fn: call.fn, id: message.id }, call.options);
      return;
    }
    if (message.type === 'progress') {
      call.onProgress?.(message.done, message.total);
      return;
    }
    settle(message.id, call);
    const ms = now() - call.startedAt;
    if (message.type === 'result') {
      emit({ type: 'finished', fn: call.fn, id: message.id, ms }, call.options);
      call.resolve(message.session === undefined ? message.value : sessionProxy(message.session, generation));
      return;
    }
    emit({ type: 'failed', fn: call.fn, id: message.id, ms }, call.options);
    if (message.trapped) {
      call.reject(new Error(`${call.fn}: the engine trapped (${message.message}), a bug: please report it; the worker was replaced and later calls work`));
      replace(`${call.fn} trapped`);
      return;
    }
    const error = new Error(message.message);
    if (message.name !== 'Error') error.name = message.name;
    call.reject(error);
  }

  /**
   * The worker could not start the engine: every waiting call fails with the reason, and the
   * next call tries a fresh worker (`call` starts one when there is none).
   * @param {string} reason
   */
  function failToStart(reason) {
    const error = new Error(`context-assembly: the worker could not start the engine: ${reason}`);
    initialising = false;
    readiness.reject(error);
    worker?.terminate();
    worker = undefined;
    generation += 1; // the dead worker's last events (its exit) are not this engine's concern
    for (const call of takePending()) call.reject(error);
  }

  /** @param {number} id @param {Pending} call */
  function settle(id, call) {
    pending.delete(id);
    call.cleanUp();
    keepAlive();
  }

  function takePending() {
    const calls = [...pending.values()];
    for (const call of calls) call.cleanUp();
    pending.clear();
    return calls;
  }

  /** Terminates the worker, fails what it was running, and starts a fresh one. @param {string} reason */
  function replace(reason) {
    worker?.terminate();
    endings.set(generation, reason);
    for (const call of takePending()) {
      call.reject(new Error(`${call.fn}: the worker was replaced while this call was in it (${reason}); call it again`));
    }
    emit({ type: 'replaced', reason });
    start().catch(() => {});
  }

  /**
   * @param {'engine' | 'Session' | 'test' | number} target
   * @param {string} fn
   * @param {unknown[]} args
   * @param {CallOptions} callOptions
   * @param {number} [sessionGeneration]
   * @returns {Promise<any>}
   */
  function call(target, fn, args, callOptions, sessionGeneration) {
    const label = target === 'Session' && fn === 'new' ? 'new Session' : fn;
    if (closed !== undefined) return Promise.reject(new Error(`${label}: ${closed}`));
    const { signal } = callOptions;
    if (signal?.aborted) return Promise.reject(abortError(signal, label));
    if (sessionGeneration !== undefined && sessionGeneration !== generation) {
      return Promise.reject(new Error(`${label}: this Session lived in a worker that was replaced (${endings.get(sessionGeneration)}); its state is gone: create a new Session, or restore one from a snapshot taken before`));
    }
    if (worker === undefined) start().catch(() => {});
    const id = nextId++;
    const { posted, onProgress, progressArgument } = withoutCallbacks(args);
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const call = pending.get(id);
        if (call === undefined || signal === undefined) return;
        settle(id, call);
        emit({ type: 'cancelled', fn: label, id, ms: now() - call.startedAt }, callOptions);
        reject(abortError(signal, label));
        replace(`${label} was cancelled`);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      pending.set(id, {
        fn: label, resolve, reject, startedAt: now(), options: callOptions, onProgress,
        cleanUp: () => signal?.removeEventListener('abort', onAbort),
      });
      keepAlive();
      const message = { type: 'call', id, target, fn, args: posted, progressArgument };
      /** @type {WorkerHandle} */ (worker).post(message, callOptions.transfer);
    });
  }

  /**
   * A Session living in the worker: each method posts a call to it.
   * @param {number} handle
   * @param {number} born the worker generation that holds it
   */
  function sessionProxy(handle, born) {
    /** @type {Record<string, any>} */
    const proxy = {};
    /** @param {CallOptions} callOptions */
    const methods = (callOptions) => {
      /** @type {Record<string, any>} */
      const view = {};
      for (const name of names.sessionMethods) view[name] = (/** @type {unknown[]} */ ...args) => call(handle, name, args, callOptions, born);
      // A view keeps its session alive: the session is freed only when neither is reachable.
      Object.defineProperty(view, 'session', { value: proxy });
      return view;
    };
    Object.assign(proxy, methods({}));
    proxy.with = methods;
    proxy.free = async () => {
      registry.unregister(proxy);
      if (born === generation && worker !== undefined) worker.post({ type: 'free', handle });
    };
    registry.register(proxy, { handle, generation: born }, proxy);
    return proxy;
  }

  /** @param {CallOptions} callOptions */
  function functionsWith(callOptions) {
    /** @type {Record<string, any>} */
    const view = {};
    for (const name of names.functions) view[name] = (/** @type {unknown[]} */ ...args) => call('engine', name, args, callOptions);
    view.createSession = (/** @type {unknown} */ sessionOptions) => call('Session', 'new', [sessionOptions], callOptions);
    /** @type {Record<string, any>} */
    const statics = {};
    for (const name of names.sessionStatics) statics[name] = (/** @type {unknown[]} */ ...args) => call('Session', name, args, callOptions);
    view.Session = statics;
    return view;
  }

  const names = await start();
  const engine = functionsWith({});
  engine.with = functionsWith;
  engine.trapForTesting = () => call('test', 'trapForTesting', [], {});
  engine.terminate = () => {
    closed = 'the engine was terminated';
    worker?.terminate();
    worker = undefined;
    for (const pendingCall of takePending()) pendingCall.reject(new Error(`${pendingCall.fn}: ${closed}`));
  };
  return engine;
}

/**
 * The module as the worker can receive it: a URL becomes an absolute string (a relative one is
 * resolved against the page, not the worker script).
 * @param {import('./worker.js').WorkerEngineOptions['wasm']} wasm
 */
function portableWasm(wasm) {
  if (wasm instanceof URL) return wasm.href;
  if (typeof wasm === 'string') return new URL(wasm, globalThis.location?.href).href;
  return wasm;
}

/** @param {AbortSignal} signal @param {string} fn */
function abortError(signal, fn) {
  const reason = signal.reason;
  if (reason !== undefined && !(reason instanceof DOMException && reason.name === 'AbortError')) return reason;
  return new DOMException(`${fn} was cancelled; its worker was replaced`, 'AbortError');
}

/**
 * The call's arguments as they can be posted: an options object's `onProgress` function stays
 * here (the worker reports progress as messages, and this side calls it); the worker is told
 * which argument had one.
 * @param {unknown[]} args
 * @returns {{ posted: unknown[], onProgress?: (done: number, total: number) => void, progressArgument?: number }}
 */
function withoutCallbacks(args) {
  const index = args.findIndex((arg) => arg !== null && typeof arg === 'object' && typeof (/** @type {any} */ (arg)).onProgress === 'function');
  if (index === -1) return { posted: args };
  const { onProgress, ...rest } = /** @type {any} */ (args[index]);
  const posted = [...args];
  posted[index] = rest;
  return { posted, onProgress, progressArgument: index };
}
