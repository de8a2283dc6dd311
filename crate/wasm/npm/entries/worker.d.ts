// The Worker API: the engine in a Worker (browsers: a module Worker; Node: worker_threads),
// the same functions as the main entry and a Session proxy, every call returning a Promise.
import type * as Engine from './index.js';

/** What a worker call reports: it began running in the worker, ended, failed or was cancelled; or the worker was replaced. */
export type WorkerEvent =
  | { type: 'started'; fn: string; id: number }
  | { type: 'finished' | 'failed' | 'cancelled'; fn: string; id: number; ms: number }
  | { type: 'replaced'; reason: string };

/**
 * Options of one call (given with `engine.with(…)` or `session.with(…)`). Every call settles: arguments
 * that cannot be copied to the worker (a function, a Symbol, a Proxy), a transfer list that cannot be
 * moved and a callback that throws each reject that call with an `Error` naming the argument or the
 * callback (what the callback threw is its `cause`), and later calls work.
 */
export interface CallOptions {
  /** Aborting cancels the call: the worker is terminated and replaced, the call rejects with a `DOMException` named `AbortError` whose `cause` is the signal's `reason`. */
  signal?: AbortSignal;
  /** Buffers to move into the worker instead of copying them (e.g. a `Uint8Array`'s `buffer` given to `writeFile`), each once and not detached; they are detached here afterwards. */
  transfer?: ArrayBuffer[];
  /** This call's events. One that throws rejects the call with an `Error` naming it, which says how the call itself ended. */
  onEvent?: (event: WorkerEvent) => void;
}

export interface WorkerEngineOptions {
  /** The engine's module: a URL (absolute, or relative to the page), its bytes, or a compiled `WebAssembly.Module`. Default: the `.wasm` beside the package. */
  wasm?: string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module;
  /** The tools' module (`context-assembly/tools/wasm`), loaded the first time a tool is called: the same forms. Default: the `.wasm` in `tools/` beside the package. */
  toolsWasm?: string | URL | ArrayBuffer | ArrayBufferView | WebAssembly.Module;
  /** The worker script, when a bundler moved it (`context-assembly/worker-thread`: the browser or the Node script by condition). */
  workerUrl?: string | URL;
  /** Every call's events and the worker's replacements. One that throws rejects the call the event is about (for `replaced`, the call that caused it, if any). */
  onEvent?: (event: WorkerEvent) => void;
}

type Worked<R> = R extends Engine.Session ? WorkerSession : R;
type Promised<F> = F extends (...args: infer A) => infer R ? (...args: A) => Promise<Worked<Awaited<R>>> : never;

// The classes are not functions over the Worker: a Session comes from `createSession`, a
// FileSearcher from `createFileSearcher`; a SessionImport (the tools module's) streams a log on the
// thread that reads it.
type Functions = Omit<typeof Engine, 'default' | 'initSync' | 'start' | 'Session' | 'FileSearcher' | 'loadTools'>;
/** The main entry's functions, each returning a Promise. */
export type WorkerFunctions = { [K in keyof Functions]: Promised<Functions[K]> };

type SessionStatics = Omit<typeof Engine.Session, 'prototype' | 'restore'>;
type SessionMethodNames = { [K in keyof Engine.Session]: K extends 'free' ? never : K extends string ? K : never }[keyof Engine.Session];

/** A `Session` living in the worker: its methods, each returning a Promise. */
export type WorkerSession = { [K in SessionMethodNames]: Promised<Engine.Session[K]> } & {
  /** The same methods with these call options. */
  with(options: CallOptions): { [K in SessionMethodNames]: Promised<Engine.Session[K]> };
  /** Frees the session in the worker (a forgotten one is freed when this proxy is garbage-collected); calling it again does nothing. */
  free(): Promise<void>;
};

/** The calls of a `FileSearcher` living in the worker. */
export interface WorkerFileSearcherCalls {
  /** `FileSearcher.search` in the worker: the same results (positions in UTF-16 units), as a Promise; only the query crosses. */
  search(query: string, options?: Engine.SearchOptions): Promise<Engine.SearchResult>;
}

/** A `FileSearcher` living in the worker: its paths crossed once, when it was created. */
export type WorkerFileSearcher = WorkerFileSearcherCalls & {
  /** The same calls with these call options. */
  with(options: CallOptions): WorkerFileSearcherCalls;
  /** Frees the searcher in the worker (a forgotten one is freed when this proxy is garbage-collected); calling it again does nothing. */
  free(): Promise<void>;
};

export type WorkerCalls = WorkerFunctions & {
  /** `new Session(options)` in the worker. */
  createSession(options: Engine.SessionOptions): Promise<WorkerSession>;
  /** `new FileSearcher(paths)` in the worker: the paths are sent once, and each `search` sends only its query. */
  createFileSearcher(paths: string[]): Promise<WorkerFileSearcher>;
  /** `Session`'s static functions; `restore` gives a session living in the worker. */
  Session: { [K in keyof SessionStatics]: Promised<SessionStatics[K]> } & {
    restore(snapshot: string, options?: Engine.RestoreOptions): Promise<WorkerSession>;
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
