// Big traces: the long measuring scenarios of web/scenarios (native = wasm, determinism),
// and a session whose requests add up to more text than a JS string can hold if every
// step's request is written out in full: runScenario returns a trace or throws an Error,
// never `null`. Slow, so the runner gives this class only a few seeds, and the big session
// runs in a child process.
import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { CaseFailure, ROOT } from '../engine.mjs';
import { runEverywhere } from './mutated-scenarios.mjs';

const DIR = resolve(ROOT, 'web/scenarios');
const LONG = JSON.parse(readFileSync(resolve(DIR, 'index.json'), 'utf8'))
  .filter((/** @type {{ golden?: boolean }} */ entry) => entry.golden === false)
  .map((/** @type {{ file: string }} */ entry) => readFileSync(resolve(DIR, entry.file), 'utf8').replaceAll('\n', ' '));

/** Words of a 1 MB prompt. */
const WORDS = 209715;

/**
 * The call, as JS over the package's exports: prompts of 1 MB each, all kept (a window of
 * 10 M tokens never compacts), so step n's request repeats the n prompts before it and,
 * written out step by step, the trace grows as the square of the steps.
 * @param {number} steps
 */
const bigCall = (steps) => `const prompt = 'word '.repeat(${WORDS}); runScenario({ profile: 'claude-code', config: { contextWindow: 10000000, outputReserve: 0 }, steps: Array.from({ length: ${steps} }, (_, i) => ({ kind: 'user', prompt: \`\${i}: \${prompt}\` })) });`;

/**
 * Runs `bigCall(steps)` in a child process and returns what became of it. The call grows
 * the module's memory past a gigabyte, which an instance never gives back: in this process
 * every later fresh instance (after a trap) would keep its own.
 * @param {number} steps
 * @returns {{ steps?: number | null, threw?: string }}
 */
function runInChild(steps) {
  const script = `
    import { readFileSync } from 'node:fs';
    import { initSync, runScenario } from ${JSON.stringify(pathToFileURL(resolve(ROOT, 'pkg/context_assembly.js')).href)};
    initSync({ module: readFileSync(${JSON.stringify(resolve(ROOT, 'pkg/context_assembly_bg.wasm'))}) });
    let answer;
    try {
      const trace = (() => { ${bigCall(steps).replace('runScenario(', 'return runScenario(')} })();
      answer = { steps: trace !== null && typeof trace === 'object' && Array.isArray(trace.steps) ? trace.steps.length : null };
    } catch (thrown) {
      answer = thrown instanceof Error && thrown.message && !(thrown instanceof WebAssembly.RuntimeError)
        ? {} : { threw: String(thrown instanceof Error ? thrown.name + ': ' + thrown.message : typeof thrown) };
    }
    process.stdout.write(JSON.stringify(answer));`;
  const child = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8', maxBuffer: 1 << 20 });
  if (child.status !== 0) return { threw: `the child process failed (status ${child.status}): ${child.stderr.trim().split('\n').slice(-3).join(' / ')}` };
  return JSON.parse(child.stdout);
}

/** @param {import('../fuzz.mjs').Context} ctx */
export function run(ctx) {
  const { rng } = ctx;
  // Seed 1 always takes the big session, so that every run, even a short one, has it.
  if (ctx.seed !== 1 && rng.chance(0.5)) {
    runEverywhere(ctx, rng.pick(LONG));
    return;
  }
  // 34 to 36 steps of 1 MB: some 600 MB of requests written out in full, past V8's string
  // limit of 2^29 characters.
  const steps = 34 + rng.below(3);
  const answer = runInChild(steps);
  if (answer.threw) throw new CaseFailure(`runScenario of ${steps} steps with 1 MB prompts threw ${answer.threw}, not an Error with a message`, bigCall(steps));
  // No `steps`: an Error with a message, a refusal the caller can handle.
  if ('steps' in answer && answer.steps !== steps) {
    throw new CaseFailure(`runScenario of ${steps} steps with 1 MB prompts returned ${answer.steps === null ? 'null (or no trace)' : `a trace of ${answer.steps} steps`}`, bigCall(steps));
  }
}
