// `make size`: what each wasm module of pkg/ holds and weighs, raw and gzipped at level 9, against
// its goal. A host that runs sessions loads the session module; the package loads the tools
// module the first time one of its functions is called; an editor's per-keystroke calls can use
// the lite module alone. Prints figures; it fails nobody (the goals are issue 27's).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { execFileSync } from 'node:child_process';

const ROOT = resolve(import.meta.dirname, '../..');

const MODULES = [
  {
    file: 'pkg/context_assembly_bg.wasm',
    goal: 400_000,
    holds: 'the session engine: Session (submit, respond, compaction, snapshots), runScenario, toApiRequest, requestDiff, and the lite engines',
  },
  {
    file: 'pkg/tools/context_assembly_tools_bg.wasm',
    goal: undefined,
    holds: 'loaded on first use: importSession and SessionImport, redactScenario, compareProfiles (with recall), compactScenario (it carries the engine those replay)',
  },
  {
    file: 'pkg/lite/context_assembly_lite_bg.wasm',
    goal: 80_000,
    holds: 'mentions, tokens, change snippets, path search, thresholds, the @ token',
  },
];

/** @param {number} n */
const bytes = (n) => `${n.toLocaleString('en-US')} bytes`;

for (const { file, goal, holds } of MODULES) {
  const raw = readFileSync(resolve(ROOT, file));
  // gzip's own deflate at -9, the figure every earlier size in the README was measured with.
  const gzipped = execFileSync('gzip', ['-9', '-c', resolve(ROOT, file)], { maxBuffer: 1 << 28 }).length;
  const verdict = goal === undefined ? 'no goal: loaded only when used'
    : gzipped <= goal ? `within its goal of ${bytes(goal)}` : `over its goal of ${bytes(goal)} by ${bytes(gzipped - goal)}`;
  console.log(`${file}: ${bytes(raw.length)}, ${bytes(gzipped)} gzipped (${verdict})\n  ${holds}`);
}
