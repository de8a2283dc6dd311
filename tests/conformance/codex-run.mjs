// The Codex side of the conformance lab (`make conformance-codex`): each scenario it can drive is
// played through the real Codex CLI 0.139.0 and through our engine's `codex` profile, and every
// main-loop request is compared item by item (codex-compare.mjs). Exits non-zero on a mismatch
// that codex-known-differences.json does not list.
//
//   node tests/conformance/codex-run.mjs              every drivable scenario
//   node tests/conformance/codex-run.mjs NAME…        only these (file names without .json)
//   node tests/conformance/codex-run.mjs --generated=N  also N seeded sessions (codex-generate.mjs,
//                                                     seeds 1…N), named gen/<seed>
//   node tests/conformance/codex-run.mjs --self-test  shows the comparator can fail: the lab's own
//                                                     scenarios with codex switches flipped on our
//                                                     side must mismatch
//   node tests/conformance/codex-run.mjs --jobs=N     sessions at a time (default 2)
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as engine from '../../pkg/context_assembly.js';
import { compareItems, engineItems, oracleItems } from './codex-compare.mjs';
import { driveCodex, undrivableReasons } from './codex-drive.mjs';
import { generateSession } from './codex-generate.mjs';
import { areaTotals, printAreas, requestTotals } from './areas.mjs';
import { pool } from './pool.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const LAB = join(ROOT, 'tests/conformance');
const OUT = join(ROOT, 'target/conformance');
engine.initSync({ module: readFileSync(join(ROOT, 'pkg/context_assembly_bg.wasm')) });

// Switches whose flip changes what the lab's scenarios send, each against a behaviour the oracle
// has: the baseline that makes later turns send only what changed (§2), and the cut of a long
// tool output (§3.3).
const SELF_TEST_SWITCHES = {
  'codex.resendFullContext': true,
  'codex.truncateToolOutput': false,
};

/** @type {{ scenario: string, match: string, reason: string }[]} */
const KNOWN = JSON.parse(readFileSync(join(LAB, 'codex-known-differences.json'), 'utf8')).differences;

function scenarioFiles() {
  const teaching = JSON.parse(readFileSync(join(ROOT, 'web/scenarios/index.json'), 'utf8'))
    .map((entry) => ({ name: entry.file.replace(/\.json$/, ''), path: join(ROOT, 'web/scenarios', entry.file) }))
    .filter(({ path }) => JSON.parse(readFileSync(path, 'utf8')).profile === 'codex');
  const lab = readdirSync(join(LAB, 'codex-scenarios'))
    .filter((f) => f.endsWith('.json') || f.endsWith('.mjs'))
    .sort()
    .map((f) => ({ name: `lab/${f.replace(/\.(json|mjs)$/, '')}`, path: join(LAB, 'codex-scenarios', f) }));
  return [...teaching, ...lab];
}

function generatedScenarios(count) {
  return Array.from({ length: count }, (_, i) => ({ name: `gen/${i + 1}`, scenario: generateSession(i + 1) }));
}

// A lab scenario is JSON, or a module whose default export is one (for outputs too big to write out).
async function loadScenario(path) {
  if (path.endsWith('.mjs')) return (await import(pathToFileURL(path).href)).default;
  return JSON.parse(readFileSync(path, 'utf8'));
}

// The areas the report counts items in, by item kind; every item of a request that carries a
// compaction summary also counts under `compaction`.
const AREA_OF_KIND = {
  permissions: 'permissions',
  environment: 'environment',
  'agents-md': 'AGENTS.md',
  skills: 'skills',
  model_switch: 'settings changes',
  personality_spec: 'settings changes',
  collaboration_mode: 'settings changes',
  realtime_conversation: 'settings changes',
  'developer-instructions': 'settings changes',
  'tool-output': 'exec_command output',
  summary: 'compaction',
  user: 'prompts',
};
const AREAS = [...new Set(Object.values(AREA_OF_KIND))];

/**
 * Items per area on both sides: an area's items are the larger side's count, its matched items
 * those present on both sides (as a multiset of whole items).
 */
function requestAreas(oracle, ours) {
  const afterCompaction = [...oracle, ...ours].some((item) => item.kind === 'summary');
  const areasOf = (item) => new Set([AREA_OF_KIND[item.kind] ?? 'prompts', ...(afterCompaction ? ['compaction'] : [])]);
  const areas = {};
  const tally = (items, side) => {
    for (const item of items) {
      for (const area of areasOf(item)) {
        areas[area] ??= { oracle: new Map(), ours: new Map() };
        const key = JSON.stringify(item);
        areas[area][side].set(key, (areas[area][side].get(key) ?? 0) + 1);
      }
    }
  };
  tally(oracle, 'oracle');
  tally(ours, 'ours');
  return Object.fromEntries(
    Object.entries(areas).map(([area, { oracle: a, ours: b }]) => {
      const count = (m) => [...m.values()].reduce((sum, n) => sum + n, 0);
      const matched = [...a].reduce((sum, [key, n]) => sum + Math.min(n, b.get(key) ?? 0), 0);
      return [area, { items: Math.max(count(a), count(b)), matched }];
    }),
  );
}

const isKnown = (scenario, line) => KNOWN.some((k) => (k.scenario === '*' || k.scenario === scenario) && line.includes(k.match));

// `codex exec` always runs with approval_policy=never; our side starts the same way.
function asExecRuns(scenario) {
  return { ...scenario, steps: [{ kind: 'turnSettings', approvalPolicy: 'never' }, ...scenario.steps] };
}

async function runScenarioPair(name, scenario, switches) {
  const ours = { ...asExecRuns(scenario), profile: 'codex', switches: { ...(scenario.switches ?? {}), ...switches } };
  const trace = engine.runScenario(ours);
  const ourRequests = trace.steps.filter((s) => s.turn.request !== undefined).map((s) => s.turn.request);
  const recordDir = join(OUT, 'recordings-codex', name);
  rmSync(recordDir, { recursive: true, force: true });
  const run = await driveCodex(scenario, { recordDir, stepTimes: trace.steps.slice(1).map((s) => s.atMs) });
  const oracleRequests = run.requests.filter((r) => r.role === 'main');
  const requests = [];
  for (let i = 0; i < Math.max(oracleRequests.length, ourRequests.length); i += 1) {
    const oracle = oracleRequests[i] ? oracleItems(oracleRequests[i].body, run.root) : [];
    const mine = ourRequests[i] ? engineItems(ourRequests[i]) : [];
    const result = compareItems(oracle, mine);
    if (!oracleRequests[i]) result.diff.unshift('- oracle sent no such request');
    if (!ourRequests[i]) result.diff.unshift('+ we assemble no such request');
    const unknown = result.diff.filter((line) => !isKnown(name, line));
    requests.push({
      n: i + 1,
      recording: oracleRequests[i]?.path,
      scripted: oracleRequests[i]?.scripted ?? false,
      items: result.items,
      itemsMatched: result.matched,
      matched: result.diff.length === 0,
      knownOnly: result.diff.length > 0 && unknown.length === 0,
      areas: requestAreas(oracle, mine),
      diff: result.diff,
      unknown,
      oracleItems: oracle,
      ourItems: mine,
    });
  }
  return { name, ms: run.ms, sideRequests: run.requests.length - oracleRequests.length, requests };
}

function printSession(session) {
  const { name, requests } = session;
  const matched = requests.filter((r) => r.matched).length;
  const items = requests.reduce((sum, r) => sum + r.items, 0);
  const good = requests.reduce((sum, r) => sum + r.itemsMatched, 0);
  console.log(`${name}: ${matched}/${requests.length} requests, ${good}/${items} items matched (${session.ms} ms, ${session.sideRequests} side requests)`);
  for (const r of requests.filter((r) => !r.matched)) {
    console.log(`  request ${r.n}${r.knownOnly ? ' (known differences only)' : ''}:`);
    for (const line of r.diff) console.log(`    ${isKnown(name, line) ? '(known) ' : ''}${line.slice(0, 600)}`);
  }
}

async function main() {
  const args = process.argv.slice(2);
  const selfTest = args.includes('--self-test');
  const only = args.filter((a) => !a.startsWith('--'));
  const generated = Number(args.find((a) => a.startsWith('--generated='))?.slice('--generated='.length) ?? 0);
  if (!Number.isInteger(generated) || generated < 0) throw new Error(`--generated: expected a whole number of sessions, got ${generated}`);
  /** @type {{ name: string, path?: string, scenario?: any }[]} */
  let chosen = [...scenarioFiles(), ...generatedScenarios(generated)];
  if (selfTest) chosen = chosen.filter((s) => s.name.startsWith('lab/'));
  if (only.length) chosen = chosen.filter((s) => only.includes(s.name) || only.includes(s.name.replace(/^lab\//, '')));
  mkdirSync(OUT, { recursive: true });

  const jobs = Number(args.find((a) => a.startsWith('--jobs='))?.slice('--jobs='.length) ?? 2);
  const started = Date.now();
  const skipped = [];
  const drivable = [];
  for (const { name, path, scenario: given } of chosen) {
    const scenario = given ?? (await loadScenario(path));
    const reasons = undrivableReasons(scenario);
    if (reasons.length) skipped.push({ name, reasons });
    else drivable.push({ name, scenario });
  }
  // Sessions finish in any order; the report keeps the corpus order.
  const sessions = new Array(drivable.length);
  await pool(
    drivable.map(({ name, scenario }) => () => runScenarioPair(name, scenario, selfTest ? SELF_TEST_SWITCHES : {})),
    jobs,
    (index, session) => {
      sessions[index] = session;
      printSession(session);
    },
  );
  for (const { name, reasons } of skipped) console.log(`${name}: not driven — ${reasons.join('; ')}`);

  const all = sessions.flatMap((s) => s.requests);
  const totals = {
    sessions: sessions.length,
    sessionsMatched: sessions.filter((s) => s.requests.every((r) => r.matched)).length,
    ...requestTotals(all),
    ms: Date.now() - started,
  };
  console.log(
    `${totals.sessionsMatched}/${totals.sessions} sessions × ${totals.requestsMatched}/${totals.requests} requests matched ` +
      `(${totals.requestsWithKnownDifferencesOnly} with known differences only) × ${totals.itemsMatched}/${totals.items} items; ` +
      `${totals.unknownMismatches} requests with differences not in codex-known-differences.json (${totals.ms} ms)`,
  );
  const areas = areaTotals(sessions, AREAS);
  if (!selfTest) {
    printAreas(areas);
  }
  const report = { selfTest, switches: selfTest ? SELF_TEST_SWITCHES : {}, totals, areas, sessions, skipped };
  writeFileSync(join(OUT, selfTest ? 'codex-self-test.json' : 'codex-report.json'), JSON.stringify(report, null, 2));

  if (selfTest) {
    const unmoved = sessions.filter((s) => !s.requests.some((r) => r.unknown.length > 0)).map((s) => s.name);
    if (unmoved.length === sessions.length) {
      console.log(`self-test FAILED: flipping ${Object.keys(SELF_TEST_SWITCHES).join(', ')} changed no comparison`);
      process.exit(1);
    }
    console.log(`self-test passed: the flipped switches produce mismatches in ${sessions.length - unmoved.length} of ${sessions.length} sessions`);
    return;
  }
  if (totals.unknownMismatches > 0) process.exit(1);
}

await main();
