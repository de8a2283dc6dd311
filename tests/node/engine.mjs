// Loads the built package the way a Node consumer does: initSync with the module's bytes.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as engine from '../../pkg/context_assembly.js';
import { seededRandom } from '../gen/random.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
engine.initSync({ module: readFileSync(resolve(ROOT, 'pkg/context_assembly_bg.wasm')) });

/**
 * A fixture file shared with the Rust tests.
 * @param {string} name
 */
export function fixture(name) {
  return JSON.parse(readFileSync(resolve(ROOT, 'tests/fixtures', name), 'utf8'));
}


export { engine, seededRandom };
