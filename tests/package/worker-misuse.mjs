// The Worker API misused as a careless or hostile host would (issue 31): callbacks that throw,
// arguments that cannot cross, a transfer list that cannot be moved, aborts with a reason. Each
// case makes one bad call on an engine of its own; the runners then make a good call on the same
// engine. node.test.mjs runs each case in a Node process of its own, which must end by itself;
// browser.test.mjs runs them in Chromium. Plain data crosses back (`outcome`), so both compare
// it with `expected` here.

const scenario = { profile: 'claude-code', files: { 'a.ts': 'a\n' }, steps: [{ kind: 'user', prompt: '@a.ts' }, { kind: 'user', prompt: 'again' }] };
const codex = { method: 'codex' };

/**
 * What the engine is started with, and the bad call: its promise, and the value it should carry
 * as its `cause` (what the callback threw, the abort's reason).
 * @typedef {{ options?: Record<string, unknown>, call(engine: any): Promise<{ settling: Promise<unknown>, cause?: unknown }> }} Misuse
 */

/**
 * A listener that throws `thrown` on the first event of `type`, and only then (so the good call
 * made after the case is not hit).
 * @param {string} type @param {unknown} thrown
 */
function throwingOnce(type, thrown) {
  let thrownAlready = false;
  return (/** @type {{ type: string }} */ event) => {
    if (event.type !== type || thrownAlready) return;
    thrownAlready = true;
    throw thrown;
  };
}

/** @type {Record<string, Misuse>} */
export const MISUSES = {
  'onProgress throws': {
    async call(engine) {
      const thrown = new Error('the progress bar broke');
      return { settling: engine.runScenario(scenario, { onProgress: () => { throw thrown; } }), cause: thrown };
    },
  },
  "with()'s onEvent throws on started": {
    async call(engine) {
      const thrown = new Error('the log broke');
      return { settling: engine.with({ onEvent: throwingOnce('started', thrown) }).estimateTokens('hello', codex), cause: thrown };
    },
  },
  "createWorkerEngine's onEvent throws on finished": {
    options: { onEvent: throwingOnce('finished', 'a thrown string') },
    async call(engine) {
      return { settling: engine.estimateTokens('hello', codex), cause: 'a thrown string' };
    },
  },
  "with()'s onEvent throws on failed": {
    async call(engine) {
      const thrown = new Error('the log broke');
      return { settling: engine.with({ onEvent: throwingOnce('failed', thrown) }).estimateTokens(42), cause: thrown };
    },
  },
  "with()'s onEvent throws on cancelled": {
    async call(engine) {
      const thrown = new Error('the log broke');
      const controller = new AbortController();
      const settling = engine.with({ signal: controller.signal, onEvent: throwingOnce('cancelled', thrown) }).compareProfiles(scenario, ['codex']);
      controller.abort('stop');
      return { settling, cause: thrown };
    },
  },
  'a function argument': {
    async call(engine) {
      return { settling: engine.estimateTokens(() => 'hello') };
    },
  },
  'a Symbol argument': {
    async call(engine) {
      return { settling: engine.estimateTokens(Symbol('hello')) };
    },
  },
  'a Proxy argument': {
    async call(engine) {
      return { settling: engine.estimateTokens('hello', new Proxy(codex, {})) };
    },
  },
  'a function inside an options object': {
    async call(engine) {
      return { settling: engine.estimateTokens('hello', { method: 'codex', onStep: () => {} }) };
    },
  },
  'an argument that throws when read': {
    async call(engine) {
      const { proxy, revoke } = Proxy.revocable({}, {});
      revoke();
      return { settling: engine.estimateTokens('hello', proxy) };
    },
  },
  'a detached buffer in transfer': {
    async call(engine) {
      const session = await engine.createSession({ cwd: '/p' });
      const bytes = new TextEncoder().encode('hello');
      await session.with({ transfer: [bytes.buffer] }).writeFile('a.txt', bytes, 1);
      return { settling: session.with({ transfer: [bytes.buffer] }).writeFile('b.txt', bytes, 2) };
    },
  },
  'a typed array in transfer': {
    async call(engine) {
      const bytes = new Uint8Array(4);
      return { settling: engine.with({ transfer: [bytes] }).profileNames() };
    },
  },
  "abort('stop') while the call is in the worker": {
    async call(engine) {
      const controller = new AbortController();
      const settling = engine.with({ signal: controller.signal }).compareProfiles(scenario, ['codex']);
      controller.abort('stop');
      return { settling, cause: 'stop' };
    },
  },
  'a signal aborted before the call, with an Error': {
    async call(engine) {
      const reason = new Error('the user left');
      return { settling: engine.with({ signal: AbortSignal.abort(reason) }).profileNames(), cause: reason };
    },
  },
};

const CROSSABLE = "; arguments are copied to the worker by structured clone, so they must be data: no functions (but an options object's onProgress), Symbols, Proxies, throwing getters or class instances";
const TRANSFERABLE = '; it lists ArrayBuffers to move into the worker, each once, each still holding its bytes';

/**
 * How each case's bad call settles: `kind` is `DOMException` or `Error` (the constructor);
 * `causeKept`, for a case with a value to carry, whether the rejection's `cause` is it.
 * @type {Record<keyof typeof MISUSES, { kind: string, name: string, message: string, causeKept?: boolean }>}
 */
export const expected = {
  'onProgress throws': { kind: 'Error', name: 'Error', message: 'runScenario: onProgress threw at 1 of 2; the worker finishes the call and drops its result', causeKept: true },
  "with()'s onEvent throws on started": { kind: 'Error', name: 'Error', message: "estimateTokens: with()'s onEvent threw on the 'started' event; the call itself succeeded; its result is dropped", causeKept: true },
  "createWorkerEngine's onEvent throws on finished": { kind: 'Error', name: 'Error', message: "estimateTokens: createWorkerEngine's onEvent threw on the 'finished' event; the call itself succeeded; its result is dropped", causeKept: true },
  "with()'s onEvent throws on failed": { kind: 'Error', name: 'Error', message: "estimateTokens: with()'s onEvent threw on the 'failed' event; the call itself failed: estimateTokens: argument `text` must be a string, got number", causeKept: true },
  "with()'s onEvent throws on cancelled": { kind: 'Error', name: 'Error', message: "compareProfiles: with()'s onEvent threw on the 'cancelled' event; the call itself was cancelled; its worker was replaced", causeKept: true },
  'a function argument': { kind: 'Error', name: 'Error', message: `estimateTokens: argument 1 cannot be sent to the worker: it is a function${CROSSABLE}` },
  'a Symbol argument': { kind: 'Error', name: 'Error', message: `estimateTokens: argument 1 cannot be sent to the worker: it is a Symbol${CROSSABLE}` },
  'a Proxy argument': { kind: 'Error', name: 'Error', message: `estimateTokens: argument 2 cannot be sent to the worker: structured clone cannot copy it or something it holds (see the cause)${CROSSABLE}` },
  'a function inside an options object': { kind: 'Error', name: 'Error', message: `estimateTokens: argument 2 cannot be sent to the worker: structured clone cannot copy it or something it holds (see the cause)${CROSSABLE}` },
  'an argument that throws when read': { kind: 'Error', name: 'Error', message: `estimateTokens: argument 2 cannot be sent to the worker: reading it threw${CROSSABLE}` },
  'a detached buffer in transfer': { kind: 'Error', name: 'Error', message: `writeFile: option \`transfer\`: entry 0 is detached: its bytes were moved already (by an earlier transfer)${TRANSFERABLE}` },
  'a typed array in transfer': { kind: 'Error', name: 'Error', message: `profileNames: option \`transfer\`: entry 0 is not an ArrayBuffer (give a typed array's \`buffer\`; a SharedArrayBuffer is shared, not moved)${TRANSFERABLE}` },
  "abort('stop') while the call is in the worker": { kind: 'DOMException', name: 'AbortError', message: 'compareProfiles was cancelled; its worker was replaced', causeKept: true },
  'a signal aborted before the call, with an Error': { kind: 'DOMException', name: 'AbortError', message: 'profileNames was cancelled before it was sent to the worker', causeKept: true },
};

/**
 * Runs one case on `engine`, then a good call on the same engine, and describes both as plain
 * data: how the bad call settled (`pending` when `guardMs` passed first) and what the good call
 * answered.
 * @param {any} engine
 * @param {keyof typeof MISUSES} name
 * @param {number} guardMs
 */
export async function outcome(engine, name, guardMs) {
  const { settling, cause } = await MISUSES[name].call(engine);
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let guard;
  const pending = new Promise((resolve) => { guard = setTimeout(() => resolve('pending'), guardMs); });
  const settled = await Promise.race([settling.then(() => 'resolved', (/** @type {any} */ error) => error), pending]);
  clearTimeout(guard);
  if (typeof settled === 'string') return { settled };
  const bad = {
    kind: settled instanceof DOMException ? 'DOMException' : settled?.constructor?.name,
    name: settled?.name,
    message: settled?.message,
    ...(cause === undefined ? {} : { causeKept: settled?.cause === cause }),
  };
  const good = await engine.estimateTokens('hello', codex).catch((/** @type {Error} */ error) => `${error.name}: ${error.message}`);
  return { settled: 'rejected', bad, good };
}
