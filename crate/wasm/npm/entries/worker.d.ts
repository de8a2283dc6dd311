// The Worker API: the engine in a Worker (browsers: a module Worker; Node: worker_threads),
// the same functions as the main entry and a Session proxy, every call returning a Promise.
import type * as Engine from './context_assembly.js';

/** What a worker call reports: it began running in the worker, ended, failed or was cancelled; or the worker was replaced. */
export type WorkerEvent =
  | { type: 'started'; fn: string; id: number }
  | { type: 'finished' | 'failed' | 'cancelled'; fn: string; id: number; ms: number }
  | { type: 'replaced'; reason: string };

/** Options of one call (given with `engine.with(…)` or `session.with(…)`). */
export interface CallOptions {
  /** Aborting cancels the call: the worker is terminated and replaced, the call rejects with an `AbortError`. */
  signal?: AbortSignal;
  /** Buffers to move into the worker instead of copying them (e.g. a `Uint8Array`'s `buffer` given to `writeFile`); they are detached here afterwards. */
  transfer?: ArrayBuffer[];
  /** This call's events. */
  onEvent?: (event: WorkerEvent) => void;
}

export interface WorkerEngineOptions {
  /** The engine's module: a URL (absolute, or relative to the page), its bytes, or a compiled `WebAssembly.Module`. Default: the `.wasm` beside the package. */
  wasm?: string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module;
  /** The worker script, when a bundler moved it (`context-assembly/worker-thread`: the browser or the Node script by condition). */
  workerUrl?: string | URL;
  /** Every call's events and the worker's replacements. */
  onEvent?: (event: WorkerEvent) => void;
}

type Worked<R> = R extends Engine.Session ? WorkerSession : R;
type Promised<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<Worked<R>> : never;

type Functions = Omit<typeof Engine, 'default' | 'initSync' | 'start' | 'Session'>;
/** The main entry's functions, each returning a Promise. */
export type WorkerFunctions = { [K in keyof Functions]: Promised<Functions[K]> };

type SessionStatics = Omit<typeof Engine.Session, 'prototype' | 'restore'>;
type SessionMethodNames = { [K in keyof Engine.Session]: K extends 'free' ? never : K extends string ? K : never }[keyof Engine.Session];

/** A `Session` living in the worker: its methods, each returning a Promise. */
export type WorkerSession = { [K in SessionMethodNames]: Promised<Engine.Session[K]> } & {
  /** The same methods with these call options. */
  with(options: CallOptions): { [K in SessionMethodNames]: Promised<Engine.Session[K]> };
  /** Frees the session in the worker (a forgotten one is freed when this proxy is garbage-collected). */
  free(): Promise<void>;
};

export type WorkerCalls = WorkerFunctions & {
  /** `new Session(options)` in the worker. */
  createSession(options: Engine.SessionOptions): Promise<WorkerSession>;
  /** `Session`'s static functions; `restore` gives a session living in the worker. */
  Session: { [K in keyof SessionStatics]: Promised<SessionStatics[K]> } & {
    restore(snapshot: string): Promise<WorkerSession>;
  };
};

export type WorkerEngine = WorkerCalls & {
  /** The same functions with these call options (cancellation, transfers, events). */
  with(options: CallOptions): WorkerCalls;
  /** Makes the engine trap in its worker on purpose (an impossible allocation: a real `WebAssembly.RuntimeError`), to test a host's recovery. Rejects; the worker is replaced. */
  trapForTesting(): Promise<never>;
  /** Ends the worker; later calls reject. */
  terminate(): void;
};

/** Starts a Worker running the engine; resolves once its module is instantiated. */
export function createWorkerEngine(options?: WorkerEngineOptions): Promise<WorkerEngine>;
