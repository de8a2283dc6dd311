// The Worker API's main half, shared by the browser entry (worker.js) and the Node entry
// (worker-node.js), which differ only in how they start a worker. Every call is a message to the
// worker and a Promise here. A worker that is cancelled, traps or crashes is replaced by a fresh
// one: the calls it was running reject, and the Sessions it held reject every later call.
// Every call settles, whatever the caller gives it: arguments that cannot be posted, a transfer
// list that cannot be moved and callbacks that throw each reject that call alone, and nothing
// they leave behind keeps a Node process alive.

/**
 * @typedef {{ post(message: unknown, transfer?: ArrayBuffer[]): void, terminate(): void, ref?(): void, unref?(): void }} WorkerHandle
 * @typedef {{ message(message: any): void, crash(error: Error): void }} WorkerListeners
 * @typedef {(listeners: WorkerListeners) => WorkerHandle} Spawn
 * @typedef {import('./worker.js').WorkerEvent} WorkerEvent
 * @typedef {import('./worker.js').CallOptions} CallOptions
 * @typedef {{ functions: string[], sessionMethods: string[], sessionStatics: string[], searcherMethods: string[] }} Names
 * @typedef {'Session' | 'FileSearcher'} HeldKind
 */

/**
 * What a caller's callback threw, which callback, and when (on which event, at which step).
 * @typedef {{ callback: string, event: string, thrown: unknown }} CallbackFailure
 */

/**
 * A call sent to the worker and not yet settled. `failure` is what an `onEvent` threw on
 * `started`: the call rejects with it once the worker says how the call ended.
 * @typedef {{ fn: string, resolve(value: unknown): void, reject(error: unknown): void, startedAt: number, options: CallOptions, onProgress?: (done: number, total: number) => void, cleanUp(): void, failure?: CallbackFailure }} Pending
 */

const now = () => globalThis.performance?.now() ?? Date.now();

/** The handle of the Session or FileSearcher a result holds, if it holds one. @param {any} message @returns {number | undefined} */
const heldHandle = (message) => message.session ?? message.searcher;

/**
 * Starts a worker with `spawn` and resolves to the engine once its module is instantiated.
 * @param {Spawn} spawn
 * @param {import('./worker.js').WorkerEngineOptions} options
 */
export async function connect(spawn, options = {}) {
  const wasm = portableWasm(options.wasm);
  const toolsWasm = portableWasm(options.toolsWasm);
  /** @type {WorkerHandle | undefined} */
  let worker;
  let generation = 0;
  /** Why each replaced worker went, by generation: what its Sessions answer afterwards. */
  /** @type {Map<number, string>} */
  const endings = new Map();
  /** @type {Map<number, Pending>} */
  const pending = new Map();
  /**
   * Calls already rejected here (a callback of theirs threw) that the worker is still running,
   * by id: their results are dropped, but a trap in one still replaces the worker.
   * @type {Map<number, string>}
   */
  const abandoned = new Map();
  let nextId = 1;
  let initialising = false;
  /** @type {string | undefined} */
  let closed;
  /** @type {{ resolve(names: Names): void, reject(error: Error): void }} */
  let readiness = { resolve: () => {}, reject: () => {} };
  const registry = new FinalizationRegistry((/** @type {{ handle: number, generation: number }} */ held) => {
    if (held.generation === generation && worker !== undefined) worker.post({ type: 'free', handle: held.handle });
  });

  /**
   * Tells the engine's and the call's `onEvent`; both are told even when one throws, and the
   * first that threw is returned for the call to reject with.
   * @param {WorkerEvent} event
   * @param {CallOptions} [call]
   * @returns {CallbackFailure | undefined}
   */
  function emit(event, call) {
    /** @type {CallbackFailure | undefined} */
    let failure;
    for (const [callback, listener] of /** @type {const} */ ([['createWorkerEngine\'s onEvent', options.onEvent], ['with()\'s onEvent', call?.onEvent]])) {
      try {
        listener?.(event);
      } catch (thrown) {
        failure ??= { callback, event: `on the '${event.type}' event`, thrown };
      }
    }
    return failure;
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
    worker.post({ type: 'init', wasm, toolsWasm });
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
    if (call === undefined) {
      dropAbandoned(message);
      return;
    }
    if (message.type === 'started') {
      call.failure = emit({ type: 'started', fn: call.fn, id: message.id }, call.options);
      return;
    }
    if (message.type === 'progress') {
      try {
        call.onProgress?.(message.done, message.total);
      } catch (thrown) {
        abandon(message.id, call, { callback: 'onProgress', event: `at ${message.done} of ${message.total}`, thrown });
      }
      return;
    }
    settle(message.id, call);
    const ms = now() - call.startedAt;
    if (message.type === 'result') {
      const ended = emit({ type: 'finished', fn: call.fn, id: message.id, ms }, call.options);
      const failure = call.failure ?? ended;
      if (failure === undefined) {
        const handle = heldHandle(message);
        call.resolve(handle === undefined ? message.value : heldProxy(message.session === undefined ? 'FileSearcher' : 'Session', handle, generation));
        return;
      }
      if (heldHandle(message) !== undefined) worker?.post({ type: 'free', handle: heldHandle(message) });
      call.reject(callbackError(call.fn, failure, 'the call itself succeeded; its result is dropped'));
      return;
    }
    const ended = emit({ type: 'failed', fn: call.fn, id: message.id, ms }, call.options);
    const failure = call.failure ?? ended;
    if (message.trapped) {
      const replacing = replace(`${call.fn} trapped`);
      const outcome = failure ?? replacing;
      call.reject(outcome !== undefined
        ? callbackError(call.fn, outcome, `the call itself trapped (${message.message}); the worker was replaced`)
        : new Error(`${call.fn}: the engine trapped (${message.message}), a bug: please report it; the worker was replaced and later calls work`));
      return;
    }
    if (failure !== undefined) {
      call.reject(callbackError(call.fn, failure, `the call itself failed: ${message.message}`));
      return;
    }
    const error = new Error(message.message);
    if (message.name !== 'Error') error.name = message.name;
    call.reject(error);
  }

  /**
   * Rejects a call the worker is running because its `onProgress` threw. The worker cannot be
   * interrupted without replacing it (and losing its Sessions), so it finishes the call and its
   * result is dropped; the host is not kept alive for it.
   * @param {number} id @param {Pending} call @param {CallbackFailure} failure
   */
  function abandon(id, call, failure) {
    settle(id, call);
    abandoned.set(id, call.fn);
    emit({ type: 'failed', fn: call.fn, id, ms: now() - call.startedAt }, call.options);
    call.reject(callbackError(call.fn, failure, 'the worker finishes the call and drops its result'));
  }

  /** The worker's last word on an abandoned call: dropped, unless it trapped. @param {any} message */
  function dropAbandoned(message) {
    const fn = abandoned.get(message.id);
    if (fn === undefined || message.type === 'started' || message.type === 'progress') return;
    abandoned.delete(message.id);
    if (heldHandle(message) !== undefined) worker?.post({ type: 'free', handle: heldHandle(message) });
    if (message.trapped) replace(`${fn} trapped`);
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

  /** Empties the calls this worker holds, the abandoned ones with them. */
  function takePending() {
    const calls = [...pending.values()];
    for (const call of calls) call.cleanUp();
    pending.clear();
    abandoned.clear();
    return calls;
  }

  /**
   * Terminates the worker, fails what it was running, and starts a fresh one. Returns what the
   * engine's `onEvent` threw on the `replaced` event, for the call that caused the replacement.
   * @param {string} reason
   */
  function replace(reason) {
    worker?.terminate();
    endings.set(generation, reason);
    for (const call of takePending()) {
      call.reject(new Error(`${call.fn}: the worker was replaced while this call was in it (${reason}); call it again`));
    }
    const failure = emit({ type: 'replaced', reason });
    start().catch(() => {});
    return failure;
  }

  /**
   * @param {'engine' | 'Session' | 'FileSearcher' | 'test' | number} target
   * @param {string} fn
   * @param {unknown[]} args
   * @param {CallOptions} callOptions
   * @param {{ kind: HeldKind, born: number }} [held] the object the call is to, and the worker generation that holds it
   * @returns {Promise<any>}
   */
  function call(target, fn, args, callOptions, held) {
    const label = fn === 'new' ? `new ${target}` : fn;
    if (closed !== undefined) return Promise.reject(new Error(`${label}: ${closed}`));
    const { signal, transfer } = callOptions;
    if (signal?.aborted) return Promise.reject(abortError(signal, `${label} was cancelled before it was sent to the worker`));
    if (held !== undefined && held.born !== generation) {
      const again = held.kind === 'Session' ? 'create a new Session, or restore one from a snapshot taken before' : 'create a new one';
      return Promise.reject(new Error(`${label}: this ${held.kind} lived in a worker that was replaced (${endings.get(held.born)}); its state is gone: ${again}`));
    }
    /** @type {ReturnType<typeof withoutCallbacks>} */
    let outgoing;
    try {
      outgoing = withoutCallbacks(label, args);
      checkTransfer(label, transfer);
    } catch (error) {
      return Promise.reject(error);
    }
    if (worker === undefined) start().catch(() => {});
    const id = nextId++;
    const { posted, onProgress, progressArgument } = outgoing;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        const call = pending.get(id);
        if (call === undefined || signal === undefined) return;
        settle(id, call);
        const cancelling = emit({ type: 'cancelled', fn: label, id, ms: now() - call.startedAt }, callOptions);
        const replacing = replace(`${label} was cancelled`);
        const failure = call.failure ?? cancelling ?? replacing;
        reject(failure !== undefined
          ? callbackError(label, failure, 'the call itself was cancelled; its worker was replaced')
          : abortError(signal, `${label} was cancelled; its worker was replaced`));
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      /** @type {Pending} */
      const entry = {
        fn: label, resolve, reject, startedAt: now(), options: callOptions, onProgress,
        cleanUp: () => signal?.removeEventListener('abort', onAbort),
      };
      pending.set(id, entry);
      keepAlive();
      try {
        /** @type {WorkerHandle} */ (worker).post({ type: 'call', id, target, fn, args: posted, progressArgument, kind: held?.kind }, transfer);
      } catch (thrown) {
        settle(id, entry);
        reject(unpostable(label, posted, thrown));
      }
    });
  }

  /**
   * A Session or FileSearcher living in the worker: each method posts a call to it.
   * @param {HeldKind} kind
   * @param {number} handle
   * @param {number} born the worker generation that holds it
   */
  function heldProxy(kind, handle, born) {
    /** @type {Record<string, any>} */
    const proxy = {};
    const methodNames = kind === 'Session' ? names.sessionMethods : names.searcherMethods;
    /** @param {CallOptions} callOptions */
    const methods = (callOptions) => {
      /** @type {Record<string, any>} */
      const view = {};
      for (const name of methodNames) view[name] = (/** @type {unknown[]} */ ...args) => call(handle, name, args, callOptions, { kind, born });
      // A view keeps its object alive: the object is freed only when neither is reachable.
      Object.defineProperty(view, kind === 'Session' ? 'session' : 'searcher', { value: proxy });
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
    view.createFileSearcher = (/** @type {unknown} */ paths) => call('FileSearcher', 'new', [paths], callOptions);
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
 * @param {import('./worker.js').WorkerEngineOptions['wasm']} wasm the session module's or the tools'
 */
function portableWasm(wasm) {
  if (wasm instanceof URL) return wasm.href;
  if (typeof wasm === 'string') return new URL(wasm, globalThis.location?.href).href;
  return wasm;
}

/**
 * The rejection of a cancelled call: a `DOMException` named `AbortError` whatever the signal's
 * reason, which is its `cause` (`abort('stop')` gives `cause: 'stop'`; `AbortSignal.timeout()`
 * a `TimeoutError`).
 * @param {AbortSignal} signal
 * @param {string} message
 */
function abortError(signal, message) {
  const error = new DOMException(message, 'AbortError');
  Object.defineProperty(error, 'cause', { value: signal.reason, writable: true, configurable: true });
  return error;
}

/**
 * The rejection of a call whose callback threw: an `Error` naming the callback and saying what
 * became of the call, with what was thrown as its `cause`. What was thrown is not read (reading
 * it could run more of the caller's code), as on the main thread.
 * @param {string} fn @param {CallbackFailure} failure @param {string} outcome
 */
function callbackError(fn, failure, outcome) {
  return new Error(`${fn}: ${failure.callback} threw ${failure.event}; ${outcome}`, { cause: failure.thrown });
}

/** What every argument must be to cross. */
const CROSSABLE = 'arguments are copied to the worker by structured clone, so they must be data: no functions (but an options object\'s onProgress), Symbols, Proxies, throwing getters or class instances';

/**
 * The call's arguments as they can be posted: an options object's `onProgress` function stays
 * here (the worker reports progress as messages, and this side calls it); the worker is told
 * which argument had one. Reading an argument that throws (a revoked Proxy, a throwing getter)
 * is an `Error` naming it.
 * @param {string} fn
 * @param {unknown[]} args
 * @returns {{ posted: unknown[], onProgress?: (done: number, total: number) => void, progressArgument?: number }}
 */
function withoutCallbacks(fn, args) {
  for (const [index, arg] of args.entries()) {
    if (arg === null || typeof arg !== 'object') continue;
    try {
      if (typeof (/** @type {any} */ (arg)).onProgress !== 'function') continue;
      const { onProgress, ...rest } = /** @type {any} */ (arg);
      const posted = [...args];
      posted[index] = rest;
      return { posted, onProgress, progressArgument: index };
    } catch (thrown) {
      throw new Error(`${fn}: argument ${index + 1} cannot be sent to the worker: reading it threw; ${CROSSABLE}`, { cause: thrown });
    }
  }
  return { posted: args };
}

/**
 * The error for arguments the worker's `postMessage` refused: which argument, and why.
 * @param {string} fn @param {unknown[]} posted @param {unknown} thrown what `postMessage` threw
 */
function unpostable(fn, posted, thrown) {
  for (const [index, arg] of posted.entries()) {
    const problem = uncloneable(arg);
    if (problem !== undefined) return new Error(`${fn}: argument ${index + 1} cannot be sent to the worker: ${problem.what}; ${CROSSABLE}`, { cause: problem.thrown });
  }
  return new Error(`${fn}: its arguments cannot be sent to the worker; ${CROSSABLE}`, { cause: thrown });
}

/**
 * Why `value` cannot be structured-cloned, or `undefined` when it can.
 * @param {unknown} value
 * @returns {{ what: string, thrown: unknown } | undefined}
 */
function uncloneable(value) {
  if (typeof value === 'function') return { what: 'it is a function', thrown: undefined };
  if (typeof value === 'symbol') return { what: 'it is a Symbol', thrown: undefined };
  try {
    structuredClone(value);
    return undefined;
  } catch (thrown) {
    // The clone's own error (its wording is the runtime's) names the value, so it is the cause;
    // anything else was thrown by the caller's code (a getter), and is not read.
    if (thrown instanceof DOMException && thrown.name === 'DataCloneError') return { what: 'structured clone cannot copy it or something it holds (see the cause)', thrown };
    return { what: 'reading it threw', thrown };
  }
}

const arrayBufferByteLength = /** @type {(this: unknown) => number} */ (Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength')?.get);

/**
 * Refuses a transfer list that `postMessage` would refuse or, under Node, post into a message
 * the worker cannot read (a detached buffer a view in the arguments still refers to): the call
 * would never settle.
 * @param {string} fn
 * @param {unknown} transfer
 */
function checkTransfer(fn, transfer) {
  if (transfer === undefined) return;
  const refuse = (/** @type {string} */ problem) => new Error(`${fn}: option \`transfer\`${problem}; it lists ArrayBuffers to move into the worker, each once, each still holding its bytes`);
  if (!Array.isArray(transfer)) throw refuse(' must be an array');
  const seen = new Set();
  for (const [index, buffer] of transfer.entries()) {
    try {
      arrayBufferByteLength.call(buffer);
    } catch {
      throw refuse(`: entry ${index} is not an ArrayBuffer (give a typed array's \`buffer\`; a SharedArrayBuffer is shared, not moved)`);
    }
    if (seen.has(buffer)) throw refuse(`: entry ${index} is listed twice`);
    seen.add(buffer);
    if (detached(/** @type {ArrayBuffer} */ (buffer))) throw refuse(`: entry ${index} is detached: its bytes were moved already (by an earlier transfer)`);
  }
}

/** Whether `buffer`'s bytes were moved away (Node before 21 has no `ArrayBuffer.prototype.detached`). @param {ArrayBuffer} buffer */
function detached(buffer) {
  try {
    new Uint8Array(buffer, 0, 0);
    return false;
  } catch {
    return true;
  }
}
