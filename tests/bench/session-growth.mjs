// `make bench`: a live Session's cost as its history grows, in wasm (issue 31 item 4, issue 28
// item 9). 1,500 prompts of 1 KB with no answer between them, timed per 500 with
// `submitFigures`; the snapshot's size and its restore time; then 500 saves of one 200 KB file:
// wasm memory grown and the snapshot's size. Prints figures; asserts nothing.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

const ROOT = resolve(import.meta.dirname, '../..');
const engine = await import('../../pkg/context_assembly.js');
const { memory } = engine.initSync({ module: readFileSync(resolve(ROOT, 'pkg/context_assembly_bg.wasm')) });
const { Session } = engine;
const MiB = 1024 * 1024;
const elapsed = (start) => Number(process.hrtime.bigint() - start) / 1e6;

const prompts = new Session({ profile: 'recommended', cwd: '/p' });
const prompt = `${'x'.repeat(1_000)} `;
console.log('1,500 unanswered prompts of 1 KB (recommended), per 500:');
for (let third = 0; third < 3; third += 1) {
  const start = process.hrtime.bigint();
  for (let i = 0; i < 500; i += 1) prompts.submitFigures(prompt, 1_000 + (third * 500 + i) * 1_000);
  console.log(`  prompts ${third * 500 + 1}–${third * 500 + 500}: ${elapsed(start).toFixed(0)} ms`);
}
const snapshot = prompts.snapshot();
let start = process.hrtime.bigint();
Session.restore(snapshot).free();
console.log(`  snapshot ${(snapshot.length / MiB).toFixed(2)} MiB, restored in ${elapsed(start).toFixed(0)} ms`);
prompts.free();

const saves = new Session({ profile: 'recommended', cwd: '/p' });
const base = 'export const value = 1234567890; // a line of a large file\n'.repeat(3_400);
saves.writeFile('src/big.ts', base, 1);
saves.submit('look at @src/big.ts', 2);
const before = memory.buffer.byteLength;
start = process.hrtime.bigint();
for (let save = 0; save < 500; save += 1) saves.writeFile('src/big.ts', `${base}// save ${save}\n`, 10 + save);
const saving = elapsed(start);
const saved = saves.snapshot();
console.log(`500 saves of one ${(base.length / 1000).toFixed(0)} KB file: ${saving.toFixed(0)} ms, wasm memory +${((memory.buffer.byteLength - before) / MiB).toFixed(1)} MiB, snapshot ${(saved.length / MiB).toFixed(2)} MiB`);
saves.free();
