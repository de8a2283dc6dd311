// Loads the built package the way a Node consumer does: initSync with the module's bytes.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as engine from '../../pkg/context_assembly.js';

const ROOT = resolve(import.meta.dirname, '../..');
engine.initSync({ module: readFileSync(resolve(ROOT, 'pkg/context_assembly_bg.wasm')) });

/**
 * A fixture file shared with the Rust tests.
 * @param {string} name
 */
export function fixture(name) {
  return JSON.parse(readFileSync(resolve(ROOT, 'tests/fixtures', name), 'utf8'));
}

/** A deterministic PRNG (mulberry32), so every run tests the same inputs. */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export { engine };
