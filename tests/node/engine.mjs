// Loads the built modules the way a Node consumer does, initSync with each module's bytes: the
// session engine and the tools (pkg/tools/), which the tests call as one engine, synchronously
// (the package's entries load the tools on first use: tests/package).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as session from '../../pkg/context_assembly.js';
import * as tools from '../../pkg/tools/context_assembly_tools.js';
import { seededRandom } from '../gen/random.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
session.initSync({ module: readFileSync(resolve(ROOT, 'pkg/context_assembly_bg.wasm')) });
tools.initSync({ module: readFileSync(resolve(ROOT, 'pkg/tools/context_assembly_tools_bg.wasm')) });

/** The session engine's exports and the tools'. */
const engine = { ...session, ...tools };

/**
 * A fixture file shared with the Rust tests.
 * @param {string} name
 */
export function fixture(name) {
  return JSON.parse(readFileSync(resolve(ROOT, 'tests/fixtures', name), 'utf8'));
}


export { engine, seededRandom };
