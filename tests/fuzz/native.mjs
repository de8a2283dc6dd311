// Native = wasm: scenarios the wasm side ran are replayed in batches by the native runner
// (crate/examples/replay.rs, one JSON scenario per line in, one answer per line out) and
// the two answers compared as JSON values, so the comparison survives changes of the
// trace's shape.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isDeepStrictEqual } from 'node:util';
import { ROOT } from './engine.mjs';

const REPLAY = resolve(ROOT, 'target/release/examples/replay');
/** runScenario's errors carry the function's name; the native runner's do not. */
const WASM_PREFIX = 'runScenario: ';
/** Scenarios held before a batch runs: enough to amortise the process, few enough traces in memory. */
const BATCH = 32;

export function nativeRunnerMissing() {
  return existsSync(REPLAY)
    ? null
    : `${REPLAY} is missing: build it with \`cargo build --release -p context-assembly --features serde --example replay\` (make fuzz does)`;
}

/**
 * @typedef {{ trace: unknown } | { error: string }} Answer
 * @typedef {{ text: string, wasm: Answer, origin: { seed: number, className: string, caseIndex: number } }} Pending
 * @typedef {{ origin: Pending['origin'], message: string, reproducer: string }} Mismatch
 */

export class NativeComparison {
  /** @param {(mismatch: Mismatch) => void} report */
  constructor(report) {
    this.report = report;
    /** @type {Pending[]} */
    this.pending = [];
    this.compared = 0;
  }

  /**
   * Queues one scenario with the wasm side's answer.
   * @param {string} text the scenario's JSON, on one line
   * @param {Answer} wasm
   * @param {Pending['origin']} origin
   */
  add(text, wasm, origin) {
    this.pending.push({ text, wasm, origin });
    if (this.pending.length >= BATCH) this.flush();
  }

  flush() {
    let batch = this.pending;
    this.pending = [];
    while (batch.length > 0) {
      const run = spawnSync(REPLAY, {
        input: batch.map((p) => p.text).join('\n') + '\n',
        maxBuffer: 1 << 30,
        encoding: 'utf8',
      });
      const lines = run.stdout.split('\n').filter((line) => line !== '');
      lines.forEach((line, i) => this.compare(batch[i], JSON.parse(line)));
      if (lines.length === batch.length) return;
      // The runner died on scenario `lines.length`: a panic, the rest still to replay.
      const dead = batch[lines.length];
      this.report({
        origin: dead.origin,
        message: `the native runner died (status ${run.status}, signal ${run.signal}): ${run.stderr.trim().split('\n').slice(-2).join(' / ')}`,
        reproducer: `echo '${dead.text.replaceAll("'", "'\\''")}' | target/release/examples/replay`,
      });
      batch = batch.slice(lines.length + 1);
    }
  }

  /** @param {Pending} pending @param {Answer} native */
  compare(pending, native) {
    this.compared += 1;
    const wasm = pending.wasm;
    const expected = 'error' in native ? { error: WASM_PREFIX + native.error } : native;
    if (isDeepStrictEqual(wasm, expected)) return;
    this.report({
      origin: pending.origin,
      message: `native ≠ wasm: ${firstDifference(expected, wasm, '')}`,
      reproducer: `runScenario(${pending.text.length > 4000 ? `${pending.text.slice(0, 4000)}…` : pending.text})`,
    });
  }
}

/**
 * Where two JSON values first differ, as a path and the two values.
 * @param {unknown} native @param {unknown} wasm @param {string} path
 * @returns {string}
 */
function firstDifference(native, wasm, path) {
  if (typeof native === 'object' && native !== null && typeof wasm === 'object' && wasm !== null) {
    const keys = new Set([...Object.keys(native), ...Object.keys(wasm)]);
    for (const key of keys) {
      if (!isDeepStrictEqual(native[key], wasm[key])) {
        return firstDifference(native[key], wasm[key], Array.isArray(native) ? `${path}[${key}]` : `${path}.${key}`);
      }
    }
  }
  const show = (/** @type {unknown} */ v) => (JSON.stringify(v) ?? String(v)).slice(0, 200);
  return `at ${path || 'the top'}: native ${show(native)}, wasm ${show(wasm)}`;
}
