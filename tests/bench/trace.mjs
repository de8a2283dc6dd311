// `make bench-trace`: how a replayed scenario's cost grows with its steps, in wasm. Each size
// runs in a fresh module instance, so the memory figure is that run's own high-water mark
// (wasm memory never shrinks). Prints figures; asserts nothing.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const bytes = readFileSync(resolve(ROOT, 'pkg/context_assembly_bg.wasm'));

/** A conversation of `steps` steps: a prompt, then the model's answer, and so on. */
function conversation(steps) {
  return Array.from({ length: steps }, (_, i) => (i % 2 === 0
    ? { kind: 'user', prompt: `step ${i}: please look at the next part of the task` }
    : { kind: 'assistant', blocks: [{ type: 'text', text: `Done with step ${i - 1}.` }] }));
}

const MiB = 1024 * 1024;
console.log('steps   run (ms)   wasm memory (MiB)   trace JSON (MiB)   last request (messages)');
for (const steps of [1_000, 5_000, 10_000]) {
  const engine = await import(`../../pkg/context_assembly.js?instance=${steps}`);
  const exports = engine.initSync({ module: bytes });
  const start = process.hrtime.bigint();
  const trace = engine.runScenario({ profile: 'recommended', steps: conversation(steps) });
  const ms = Number(process.hrtime.bigint() - start) / 1e6;
  const memory = exports.memory.buffer.byteLength / MiB;
  // What the trace holds: its shared form. `JSON.stringify(trace)` would write every request in full.
  const lastRequest = trace.steps[steps - 2].turn.request;
  let shared = 0;
  for (const step of trace.steps) {
    shared += JSON.stringify({ ...step, turn: { ...step.turn, request: undefined } }).length;
  }
  const messages = new Set();
  for (let i = 0; i < steps; i += 2) for (const message of trace.steps[i].turn.request.messages.slice(-1)) messages.add(message);
  for (const message of messages) shared += JSON.stringify(message).length;
  console.log(`${String(steps).padStart(6)} ${ms.toFixed(0).padStart(10)} ${memory.toFixed(1).padStart(19)} ${(shared / MiB).toFixed(2).padStart(18)} ${String(lastRequest.messages.length).padStart(25)}`);
}
