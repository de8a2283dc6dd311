// Big traces: the long measuring scenarios of web/scenarios (native = wasm, determinism),
// and a session whose requests add up to more text than a JS string can hold if every
// step's request is written out in full: runScenario returns a trace or throws an Error,
// never `null`. Slow, so the runner gives this class only a few seeds.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { CaseFailure, ROOT } from '../engine.mjs';
import { runEverywhere } from './mutated-scenarios.mjs';

const DIR = resolve(ROOT, 'web/scenarios');
const LONG = JSON.parse(readFileSync(resolve(DIR, 'index.json'), 'utf8'))
  .filter((/** @type {{ golden?: boolean }} */ entry) => entry.golden === false)
  .map((/** @type {{ file: string }} */ entry) => readFileSync(resolve(DIR, entry.file), 'utf8').replaceAll('\n', ' '));

/** Words of a 1 MB prompt. */
const WORDS = 209715;

/**
 * Prompts of 1 MB each, all kept (a window of 10 M tokens never compacts): step n's
 * request repeats the n prompts before it, so written out step by step the trace grows as
 * the square of the steps.
 * @param {number} steps
 */
function quadraticScenario(steps) {
  const prompt = 'word '.repeat(WORDS);
  return {
    profile: 'claude-code',
    config: { contextWindow: 10000000, outputReserve: 0 },
    steps: Array.from({ length: steps }, (_, i) => ({ kind: 'user', prompt: `${i}: ${prompt}` })),
  };
}

/** @param {import('../fuzz.mjs').Context} ctx */
export function run(ctx) {
  const { rng, engine } = ctx;
  // Seed 1 always takes the big session, so that every run, even a short one, has it.
  if (ctx.seed !== 1 && rng.chance(0.5)) {
    runEverywhere(ctx, rng.pick(LONG));
    return;
  }
  // 34 to 36 steps of 1 MB: some 600 MB of requests written out in full, past V8's string
  // limit of 2^29 characters.
  const steps = 34 + rng.below(3);
  const outcome = engine.attempt('runScenario(big)', () => engine.api.runScenario(quadraticScenario(steps)));
  if (outcome.error) return;
  const trace = outcome.value;
  if (trace === null || typeof trace !== 'object' || !Array.isArray(trace.steps) || trace.steps.length !== steps) {
    throw new CaseFailure(`runScenario of ${steps} steps with 1 MB prompts returned ${trace === null ? 'null' : typeof trace === 'object' ? `a trace of ${trace.steps?.length} steps` : typeof trace}`,
      `const prompt = 'word '.repeat(${WORDS}); runScenario({ profile: 'claude-code', config: { contextWindow: 10000000, outputReserve: 0 }, steps: Array.from({ length: ${steps} }, (_, i) => ({ kind: 'user', prompt: \`\${i}: \${prompt}\` })) });`);
  }
}
