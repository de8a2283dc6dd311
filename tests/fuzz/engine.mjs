// The wasm package under test, and the rules that turn what a call threw into a verdict.
// A trap kills the instance (its memory and borrow flags are left half-updated), so the
// loader can start a fresh one: a new import of the glue (a new query string makes a new
// module record, since initSync keeps the first instance it was given) over the module
// compiled once.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';

export const ROOT = resolve(import.meta.dirname, '../..');
const GLUE = pathToFileURL(resolve(ROOT, 'pkg/context_assembly.js')).href;
const MODULE = new WebAssembly.Module(readFileSync(resolve(ROOT, 'pkg/context_assembly_bg.wasm')));
// The tools module (import, redaction, comparison, compaction previews), a second instance the
// run restarts with the first.
const TOOLS_GLUE = pathToFileURL(resolve(ROOT, 'pkg/tools/context_assembly_tools.js')).href;
const TOOLS_MODULE = new WebAssembly.Module(readFileSync(resolve(ROOT, 'pkg/tools/context_assembly_tools_bg.wasm')));

/** Fresh instances the run may start before it gives up: each dead one stays in memory. */
const MAX_INSTANCES = 200;

/** A failure of the case under way: what broke, and how to see it again. */
export class CaseFailure extends Error {
  /** @param {string} message @param {string} [reproducer] */
  constructor(message, reproducer) {
    super(message);
    this.reproducer = reproducer;
  }
}

/** The module trapped: the case fails and the runner starts a fresh instance. */
export class Trap extends CaseFailure {}

/** Messages wasm-bindgen's glue throws when an earlier call left an object borrowed or freed. */
const POISONED = /recursive use of an object detected|null pointer passed to rust|attempted to take ownership/;

export class Engine {
  constructor() {
    /** @type {any} the current instance's exports */
    this.api = null;
    this.instances = 0;
    /** What the panic hook printed since the last call to `takePanic`. */
    this.panicText = '';
    const original = console.error;
    // The panic hook logs the panic's message and place through console.error just before
    // the trap; it belongs to the failure, not to the terminal.
    console.error = (...args) => {
      const text = args.map(String).join(' ');
      if (text.includes('context-assembly panicked')) this.panicText = text;
      else original(...args);
    };
  }

  async start() {
    this.instances += 1;
    if (this.instances > MAX_INSTANCES) {
      throw new Error(`more than ${MAX_INSTANCES} traps: stopping (every dead instance keeps its memory)`);
    }
    const api = await import(`${GLUE}?instance=${this.instances}`);
    api.initSync({ module: MODULE });
    const tools = await import(`${TOOLS_GLUE}?instance=${this.instances}`);
    tools.initSync({ module: TOOLS_MODULE });
    this.api = { ...api, ...tools };
  }

  takePanic() {
    const text = this.panicText;
    this.panicText = '';
    return text;
  }

  /**
   * Calls `run` and sorts out what it threw: an Error with a message is a refusal the
   * caller may expect (returned as `{ error }`); a trap, a thrown non-Error, an Error
   * without a message, or the glue's complaint about an object left borrowed fail the case.
   * @template T
   * @param {string} what the call, as a reproducer shows it
   * @param {() => T} run
   * @returns {{ value: T, error?: undefined } | { value?: undefined, error: Error }}
   */
  attempt(what, run) {
    try {
      return { value: run() };
    } catch (thrown) {
      if (thrown instanceof WebAssembly.RuntimeError) {
        const panic = this.takePanic();
        throw new Trap(`trap (${thrown.message})${panic ? `: ${panic.split('\n')[0]}` : ''} in ${what}`);
      }
      if (!(thrown instanceof Error)) {
        throw new CaseFailure(`${what} threw a ${describeThrown(thrown)}, not an Error`);
      }
      if (!thrown.message) throw new CaseFailure(`${what} threw an Error without a message`);
      if (POISONED.test(thrown.message)) {
        throw new CaseFailure(`${what} threw "${thrown.message}": an earlier failed call left the object unusable`);
      }
      return { error: thrown };
    }
  }

  /**
   * Like `attempt`, for a call that must succeed.
   * @template T
   * @param {string} what
   * @param {() => T} run
   * @returns {T}
   */
  must(what, run) {
    const outcome = this.attempt(what, run);
    if (outcome.error) throw new CaseFailure(`${what} threw: ${outcome.error.message}`);
    return /** @type {T} */ (outcome.value);
  }
}

/** @param {unknown} value */
function describeThrown(value) {
  if (typeof value === 'symbol') return 'symbol';
  if (value === null || value === undefined) return String(value);
  if (typeof value === 'object') return `non-Error object ${Object.prototype.toString.call(value)}`;
  return `${typeof value} ${String(value).slice(0, 60)}`;
}
