// The fuzz suite of the JS API (issue 11): seeded cases over every export of pkg/, checking
// that nothing traps, every throw is an Error with a message, a failed call leaves its
// Session usable, no marker of a denied file reaches a request under `recommended`, the
// native runner and wasm give the same traces, and the same input gives the same output.
//
//   node tests/fuzz/fuzz.mjs --seeds 1-2000 [--cases-per-seed N] [--only class[,class]] [--verbose]
//
// A seed runs 8 cases (4 hostile-arguments, 1 of each other class; big-traces only on seed 1
// and every 1000th), so `--seeds 1-12500` is 100,000 cases: `make fuzz` (SEEDS=… to change
// it); `make test` runs 1-600. The classes, one module each in cases/: hostile-arguments,
// mutated-scenarios, path-spellings, deny-routes, session-sequences, big-traces.
//
// Needs pkg/ (make pkg) and, for the native comparison, target/release/examples/replay
// (`make fuzz` and `make test-fuzz` build both). Every failure prints its seed, class and
// case with a reproducer (JS over the package's exports; `--verbose` prints every failure
// in full, otherwise the first 5 of each class); `--seeds S --only class` runs that case
// again. Prints one line per class, then `N passed, N failed` alone on the last line;
// exits 1 on any failure (2 on a usage error).
import { Engine, CaseFailure, Trap } from './engine.mjs';
import { NativeComparison, nativeRunnerMissing } from './native.mjs';
import { Rng } from './rng.mjs';
import { clip } from './checks.mjs';
import * as hostileArguments from './cases/hostile-arguments.mjs';
import * as mutatedScenarios from './cases/mutated-scenarios.mjs';
import * as pathSpellings from './cases/path-spellings.mjs';
import * as denyRoutes from './cases/deny-routes.mjs';
import * as sessionSequences from './cases/session-sequences.mjs';
import * as bigTraces from './cases/big-traces.mjs';

/**
 * @typedef {{ run: (ctx: Context) => void, casesPerSeed?: number, everySeeds?: number }} CaseClass
 *   `casesPerSeed`: cases per seed relative to the others (default 1); `everySeeds`: a slow
 *   class runs only on seeds that are a multiple of it (plus seed 1).
 * @typedef {{
 *   rng: Rng, engine: Engine, seed: number, caseIndex: number, className: string,
 *   native: (text: string, wasm: import('./native.mjs').Answer) => void,
 *   reproducer?: string,
 * }} Context
 *   `reproducer`: what the case runs, as JS over the package's exports, set by the class
 *   for the failures that carry none of their own.
 */

/** @type {Record<string, CaseClass>} */
const CLASSES = {
  'hostile-arguments': { ...hostileArguments, casesPerSeed: 4 },
  'mutated-scenarios': mutatedScenarios,
  'path-spellings': pathSpellings,
  'deny-routes': denyRoutes,
  'session-sequences': sessionSequences,
  'big-traces': { ...bigTraces, everySeeds: 1000 },
};

/** Failures printed in full per class; the rest are counted (all of them with --verbose). */
const PRINTED_PER_CLASS = 5;

function parseArguments(argv) {
  const options = { from: 1, to: 200, perSeed: 1, only: Object.keys(CLASSES), verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    const value = () => {
      const next = argv[++i];
      if (next === undefined) throw new Error(`${flag} needs a value`);
      return next;
    };
    if (flag === '--seeds') {
      const match = /^(\d+)(?:-(\d+))?$/.exec(value());
      if (!match) throw new Error('--seeds takes N or N-M');
      options.from = Number(match[1]);
      options.to = Number(match[2] ?? match[1]);
    } else if (flag === '--cases-per-seed') {
      options.perSeed = Number(value());
    } else if (flag === '--only') {
      options.only = value().split(',');
      for (const name of options.only) {
        if (!(name in CLASSES)) throw new Error(`unknown class ${name}; the classes are ${Object.keys(CLASSES).join(', ')}`);
      }
    } else if (flag === '--verbose') {
      options.verbose = true;
    } else {
      throw new Error(`unknown argument ${flag}`);
    }
  }
  if (!(options.perSeed >= 1 && options.from >= 1 && options.from <= options.to)) throw new Error('bad --seeds or --cases-per-seed');
  return options;
}

async function main() {
  const options = parseArguments(process.argv.slice(2));
  const missing = nativeRunnerMissing();
  if (missing) throw new Error(missing);
  const engine = new Engine();
  await engine.start();
  const missed = hostileArguments.uncovered(engine.api);
  if (missed.length > 0) throw new Error(`tests/fuzz/api.mjs has no entry for ${missed.join(', ')}`);
  /** @type {Map<string, { cases: number, failed: Set<string>, ms: number, printed: number }>} */
  const tally = new Map(options.only.map((name) => [name, { cases: 0, failed: new Set(), ms: 0, printed: 0 }]));

  /** @param {{ seed: number, className: string, caseIndex: number }} origin @param {string} message @param {string} [reproducer] */
  const report = (origin, message, reproducer) => {
    const row = /** @type {NonNullable<ReturnType<typeof tally.get>>} */ (tally.get(origin.className));
    // A case fails once, however many of its checks (a native mismatch found later among them) fail.
    row.failed.add(`${origin.seed}/${origin.caseIndex}`);
    if (!options.verbose && row.printed >= PRINTED_PER_CLASS) return;
    row.printed += 1;
    console.log(`FAIL seed ${origin.seed} class ${origin.className} case ${origin.caseIndex}: ${clip(message, 600)}`);
    if (reproducer) console.log(`  reproducer: ${clip(reproducer, options.verbose ? 100000 : 2000)}`);
    console.log(`  again: node tests/fuzz/fuzz.mjs --seeds ${origin.seed} --only ${origin.className}${options.perSeed > 1 ? ` --cases-per-seed ${options.perSeed}` : ''}`);
  };
  const native = new NativeComparison(({ origin, message, reproducer }) => report(origin, message, reproducer));

  const started = performance.now();
  for (let seed = options.from; seed <= options.to; seed++) {
    for (const className of options.only) {
      const kind = CLASSES[className];
      if (kind.everySeeds && seed !== 1 && seed % kind.everySeeds !== 0) continue;
      const row = /** @type {NonNullable<ReturnType<typeof tally.get>>} */ (tally.get(className));
      const cases = options.perSeed * (kind.casesPerSeed ?? 1);
      for (let caseIndex = 0; caseIndex < cases; caseIndex++) {
        const origin = { seed, className, caseIndex };
        /** @type {Context} */
        const ctx = {
          rng: new Rng(seed, className, caseIndex), engine, seed, caseIndex, className,
          native: (text, wasm) => native.add(text, wasm, origin),
        };
        const caseStarted = performance.now();
        row.cases += 1;
        try {
          kind.run(ctx);
        } catch (error) {
          if (error instanceof CaseFailure) {
            report(origin, error.message, error.reproducer ?? ctx.reproducer);
          } else {
            // A throw the case did not expect: from the engine outside `attempt`, or a bug here.
            report(origin, `unexpected throw: ${error instanceof Error ? error.stack : String(error)}`);
          }
          if (error instanceof Trap || engine.panicText) {
            engine.takePanic();
            await engine.start();
          }
        }
        row.ms += performance.now() - caseStarted;
      }
    }
  }
  const nativeStarted = performance.now();
  native.flush();
  const seconds = (performance.now() - started) / 1000;

  let passed = 0;
  let failed = 0;
  for (const [name, row] of tally) {
    passed += row.cases - row.failed.size;
    failed += row.failed.size;
    console.log(`${name}: ${row.cases} cases, ${row.failed.size} failed, ${(row.ms / 1000).toFixed(1)} s`);
  }
  console.log(`native = wasm: ${native.compared} scenarios compared (last batch ${((performance.now() - nativeStarted) / 1000).toFixed(1)} s); `
    + `${engine.instances - 1} fresh instances after traps; ${(passed + failed) / seconds | 0} cases/s over ${seconds.toFixed(1)} s`);
  console.log(`${passed} passed, ${failed} failed`);
  process.exitCode = failed > 0 ? 1 : 0;
}

main().catch((error) => {
  console.log(`fuzz: ${error instanceof Error ? error.message : String(error)}`);
  process.exitCode = 2;
});
