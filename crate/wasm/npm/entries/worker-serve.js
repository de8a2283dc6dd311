// The Worker API's worker half, shared by the browser and Node worker scripts: instantiates the
// engine, says which functions it has, and runs each call it is sent, one at a time and in order.
// The engine it is given holds the tools as async functions (tools-loader.js), so a call may
// wait for their module. Protocol (the main half is worker-client.js):
//   in:  { type: 'init', wasm, toolsWasm } · { type: 'call', id, target, fn, args, progressArgument? }
//        · { type: 'free', handle }
//   out: { type: 'ready', functions, sessionMethods, sessionStatics, searcherMethods }
//        · { type: 'init-failed', message }
//        · { type: 'started', id } · { type: 'progress', id, done, total }
//        · { type: 'result', id, value } · { type: 'result', id, session } · { type: 'result', id, searcher }
//        · { type: 'error', id, name, message, trapped }
// `target` is 'engine' (a module function), 'Session' (the constructor, fn 'new', or a static),
// 'FileSearcher' (its constructor, fn 'new'), the number of a Session or FileSearcher this
// worker holds, or 'test' (fn 'trapForTesting': a deliberate trap).

/** Exports of the module that are not engine functions (the classes are told apart by their methods). */
const NOT_FUNCTIONS = new Set(['default', 'initSync', 'start']);

/**
 * @typedef {{ post(message: unknown, transfer?: Transferable[]): void, listen(receive: (message: any) => void): void }} Port
 * @typedef {typeof import('./context_assembly.js')} Engine
 * @typedef {{ engine: Engine, exports: import('./context_assembly.js').InitOutput }} Instance
 */

/**
 * Serves calls on `port` once `instantiate` has given an engine.
 * @param {Port} port
 * @param {(wasm: unknown, toolsWasm: unknown) => Promise<Instance>} instantiate given the host's
 *   modules (the session engine's, the tools'), or undefined for the ones beside the script
 */
export function serve(port, instantiate) {
  /** @type {Promise<Instance | undefined>} */
  let ready = Promise.resolve(undefined);
  /**
   * The objects this worker holds for the other side, by handle: Sessions and FileSearchers.
   * @type {Map<number, { object: any, kind: 'Session' | 'FileSearcher' }>}
   */
  const held = new Map();
  let nextHandle = 1;
  /** @type {ReturnType<typeof announce>} */
  let names;
  /** @type {Promise<unknown>} */
  let queue = Promise.resolve();

  port.listen((message) => {
    if (message.type === 'init') {
      ready = instantiate(message.wasm, message.toolsWasm).then(
        (instance) => { names = announce(instance.engine); port.post(names); return instance; },
        (error) => { port.post({ type: 'init-failed', message: messageOf(error) }); return undefined; });
      return;
    }
    // One call at a time and in order, a call into the tools waiting for their module too.
    queue = queue.then(() => ready).then((instance) => (instance === undefined ? undefined : handle(instance, message)));
  });

  /**
   * @param {Instance} instance
   * @param {any} message
   */
  async function handle({ engine, exports }, message) {
    if (message.type === 'free') {
      held.get(message.handle)?.object.free();
      held.delete(message.handle);
      return;
    }
    const { id } = message;
    port.post({ type: 'started', id });
    // The caller's onProgress stayed on its side: progress crosses as messages.
    if (typeof message.progressArgument === 'number') {
      const options = message.args[message.progressArgument];
      if (options !== null && typeof options === 'object') {
        options.onProgress = (/** @type {number} */ done, /** @type {number} */ total) => port.post({ type: 'progress', id, done, total });
      }
    }
    try {
      // 'test' is a real trap, for hosts that test their recovery: the allocator aborts on an
      // impossible size.
      const value = message.target === 'test' ? exports.__wbindgen_malloc(0xfffffff0, 0x10000) : await invoke(engine, message);
      if (value instanceof engine.Session || value instanceof engine.FileSearcher) {
        const handle = nextHandle++;
        const kind = value instanceof engine.Session ? 'Session' : 'FileSearcher';
        held.set(handle, { object: value, kind });
        port.post({ type: 'result', id, [kind === 'Session' ? 'session' : 'searcher']: handle });
      } else {
        port.post({ type: 'result', id, value });
      }
    } catch (error) {
      port.post({ type: 'error', id, name: nameOf(error), message: messageOf(error), trapped: error instanceof WebAssembly.RuntimeError });
    }
  }

  /**
   * @param {Engine} engine
   * @param {{ target: 'engine' | 'Session' | 'FileSearcher' | number, fn: string, args: unknown[], kind?: 'Session' | 'FileSearcher' }} message
   */
  function invoke(engine, { target, fn, args, kind }) {
    /** @type {any} */
    const anyEngine = engine;
    if (target === 'engine') {
      if (!names.functions.includes(fn)) throw new Error(`the engine has no function ${JSON.stringify(fn)}`);
      return anyEngine[fn](...args);
    }
    if (target === 'Session') {
      if (fn === 'new') return new engine.Session(/** @type {any} */ (args[0]));
      if (!names.sessionStatics.includes(fn)) throw new Error(`Session has no static function ${JSON.stringify(fn)}`);
      return anyEngine.Session[fn](...args);
    }
    if (target === 'FileSearcher') {
      if (fn !== 'new') throw new Error(`FileSearcher has no static function ${JSON.stringify(fn)}`);
      return new engine.FileSearcher(/** @type {any} */ (args[0]));
    }
    const entry = held.get(target);
    if (entry === undefined) throw new Error(`${kind}.${fn}: this ${kind} was freed`);
    const methods = entry.kind === 'Session' ? names.sessionMethods : names.searcherMethods;
    if (!methods.includes(fn)) throw new Error(`${entry.kind} has no method ${JSON.stringify(fn)}`);
    return entry.object[fn](...args);
  }
}

/**
 * The functions the engine offers, read from the module itself so the Worker API follows it.
 * @param {Engine} engine
 */
function announce(engine) {
  /** @type {Record<string, unknown>} */
  const exports = engine;
  /** @type {Record<string, unknown>} */
  const statics = /** @type {any} */ (engine.Session);
  return {
    type: 'ready',
    functions: Object.keys(exports).filter((name) => !NOT_FUNCTIONS.has(name) && typeof exports[name] === 'function' && methodsOf(exports[name]).length === 0),
    sessionMethods: methodsOf(engine.Session),
    sessionStatics: Object.getOwnPropertyNames(statics).filter((name) => !name.startsWith('__') && typeof statics[name] === 'function'),
    searcherMethods: methodsOf(engine.FileSearcher),
  };
}

/**
 * The methods a class's objects answer (but `free`, which the other side calls as a message);
 * none for a plain function, which is how the classes among the exports are told apart.
 * @param {unknown} exported
 */
function methodsOf(exported) {
  /** @type {any} */
  const prototype = /** @type {any} */ (exported).prototype ?? {};
  return Object.getOwnPropertyNames(prototype)
    .filter((name) => name !== 'constructor' && name !== 'free' && !name.startsWith('__') && typeof prototype[name] === 'function');
}

/** @param {unknown} error */
function messageOf(error) {
  return error instanceof Error ? error.message : String(error);
}

/** @param {unknown} error */
function nameOf(error) {
  return error instanceof Error ? error.name : 'Error';
}
