// The Codex side of the conformance lab (`make conformance-codex`): each scenario it can drive is
// played through a pinned release of the real Codex CLI and through the preset that reproduces
// that release (`profileReleases()`: `codex-0.139.0` for the seed, `codex` for the current one),
// and every main-loop request is compared item by item (codex-compare.mjs). A scenario written
// for the lab runs unchanged against every release: its own profile is replaced by the release's.
// Exits non-zero on a mismatch that codex-known-differences.json does not list for that release.
//
//   node tests/conformance/codex-run.mjs                  every drivable scenario, current release
//   node tests/conformance/codex-run.mjs --client 0.139.0 the same against another pinned release
//   node tests/conformance/codex-run.mjs NAME… FILE.json… only these (lab names without .json, or files)
//   node tests/conformance/codex-run.mjs --generated=N    also seeded sessions 1…N (codex-generate.mjs),
//                                                         named gen/<seed>; --generated=A-B a range
//   node tests/conformance/codex-run.mjs --profile NAME  compare with another preset than the release's
//                                                         (what a bisect or a new rule is tried with)
//   node tests/conformance/codex-run.mjs --report FILE    where the report goes (default
//                                                         target/conformance/codex-<version>-report.json)
//   node tests/conformance/codex-run.mjs --self-test      shows the comparator can fail: the lab's own
//                                                         scenarios with codex switches flipped on our
//                                                         side must mismatch
//   node tests/conformance/codex-run.mjs --jobs=N         sessions at a time (default 2)
//   node tests/conformance/codex-run.mjs --no-session-logs  do not keep the rollout logs beside the
//                                                         recordings (the import lab reads every kept log)
import { existsSync, mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import * as engine from '../../pkg/context_assembly.js';
import { compareItems, engineItems, enginePrefix, oracleItems, oraclePrefix } from './codex-compare.mjs';
import { driveCodex, pinnedReleases, undrivableReasons } from './codex-drive.mjs';
import { generateSession } from './codex-generate.mjs';
import { areaTotals, CODEX_AREAS, codexItemArea, printAreas, requestTotals } from './areas.mjs';
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

// The presets that reproduce a Codex release, by version: the engine's own table.
/** @type {{ name: string, client: string, version: string }[]} */
const RELEASES = engine.profileReleases().filter((r) => r.client === 'codex');
const CURRENT = RELEASES.find((r) => r.name === 'codex')?.version;

/** The preset that reproduces Codex `version`; throws for a release no preset reproduces. */
function profileOf(version) {
  const release = RELEASES.find((r) => r.version === version);
  if (!release) throw new Error(`--client ${version}: no profile reproduces it (${RELEASES.map((r) => `${r.name}: ${r.version}`).join(', ')})`);
  if (!pinnedReleases().includes(version)) throw new Error(`--client ${version}: not pinned in tests/conformance/oracles-codex/ (${pinnedReleases().join(', ')})`);
  return release.name;
}

/**
 * Differences accepted for now; an entry without `client` holds for every release, one with it
 * (a version or a list of them) only there.
 * @type {{ scenario: string, match: string, reason: string, client?: string | string[] }[]}
 */
const KNOWN = JSON.parse(readFileSync(join(LAB, 'codex-known-differences.json'), 'utf8')).differences;

function scenarioFiles() {
  const teaching = JSON.parse(readFileSync(join(ROOT, 'web/scenarios/index.json'), 'utf8'))
    .map((entry) => ({ name: entry.file.replace(/\.json$/, ''), path: join(ROOT, 'web/scenarios', entry.file) }))
    .filter(({ path }) => RELEASES.some((r) => r.name === JSON.parse(readFileSync(path, 'utf8')).profile));
  const lab = readdirSync(join(LAB, 'codex-scenarios'))
    .filter((f) => f.endsWith('.json') || f.endsWith('.mjs'))
    .sort()
    .map((f) => ({ name: `lab/${f.replace(/\.(json|mjs)$/, '')}`, path: join(LAB, 'codex-scenarios', f) }));
  return [...teaching, ...lab];
}

/** Seeds `1-N` for `N`, or the range `A-B`. */
function seedRange(text) {
  const [from, to] = /^\d+-\d+$/.test(text) ? text.split('-').map(Number) : [1, Number(text)];
  if (!Number.isInteger(from) || !Number.isInteger(to) || from < 1 || to < from - 1) {
    throw new Error(`--generated: expected a number of sessions or a range of seeds A-B, got ${text}`);
  }
  return Array.from({ length: to - from + 1 }, (_, i) => from + i);
}

function generatedScenarios(seeds) {
  return seeds.map((seed) => ({ name: `gen/${seed}`, scenario: generateSession(seed) }));
}

// A lab scenario is JSON, or a module whose default export is one (for outputs too big to write out).
async function loadScenario(path) {
  if (path.endsWith('.mjs')) return (await import(pathToFileURL(path).href)).default;
  return JSON.parse(readFileSync(path, 'utf8'));
}


/**
 * Items per area on both sides: an area's items are the larger side's count, its matched items
 * those present on both sides (as a multiset of whole items).
 */
function requestAreas(oracle, ours) {
  const afterCompaction = [...oracle, ...ours].some((item) => item.kind === 'summary');
  const areasOf = (item) => new Set([codexItemArea(item), ...(afterCompaction ? ['compaction'] : [])]);
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

const forClient = (k, version) => k.client === undefined || [k.client].flat().includes(version);
const isKnown = (version, scenario, line) =>
  KNOWN.some((k) => forClient(k, version) && (k.scenario === '*' || k.scenario === scenario) && line.includes(k.match));

// `codex exec` always runs with approval_policy=never; our side starts the same way.
function asExecRuns(scenario) {
  return { ...scenario, steps: [{ kind: 'turnSettings', approvalPolicy: 'never' }, ...scenario.steps] };
}

async function runScenarioPair(client, name, scenario, switches, keepLogs) {
  const ours = { ...asExecRuns(scenario), profile: client.profile, switches: { ...(scenario.switches ?? {}), ...switches } };
  const trace = engine.runScenario(ours);
  const ourRequests = trace.steps.filter((s) => s.turn.request !== undefined).map((s) => s.turn.request);
  const recordDir = join(OUT, 'recordings-codex', client.version, name);
  rmSync(recordDir, { recursive: true, force: true });
  const run = await driveCodex(scenario, { version: client.version, recordDir, stepTimes: trace.steps.slice(1).map((s) => s.atMs), keepLogs });
  const oracleRequests = run.requests.filter((r) => r.role === 'main');
  const requests = [];
  for (let i = 0; i < Math.max(oracleRequests.length, ourRequests.length); i += 1) {
    const oracle = oracleRequests[i] ? [oraclePrefix(oracleRequests[i].body), ...oracleItems(oracleRequests[i].body, run.root)] : [];
    const mine = ourRequests[i] ? [enginePrefix(ourRequests[i]), ...engineItems(ourRequests[i])] : [];
    const result = compareItems(oracle, mine);
    if (!oracleRequests[i]) result.diff.unshift('- oracle sent no such request');
    if (!ourRequests[i]) result.diff.unshift('+ we assemble no such request');
    const unknown = result.diff.filter((line) => !isKnown(client.version, name, line));
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

function printSession(version, session) {
  const { name, requests } = session;
  const matched = requests.filter((r) => r.matched).length;
  const items = requests.reduce((sum, r) => sum + r.items, 0);
  const good = requests.reduce((sum, r) => sum + r.itemsMatched, 0);
  console.log(`${name}: ${matched}/${requests.length} requests, ${good}/${items} items matched (${session.ms} ms, ${session.sideRequests} side requests)`);
  for (const r of requests.filter((r) => !r.matched)) {
    console.log(`  request ${r.n}${r.knownOnly ? ' (known differences only)' : ''}:`);
    for (const line of r.diff) console.log(`    ${isKnown(version, name, line) ? '(known) ' : ''}${line.slice(0, 600)}`);
  }
}

/** The value of `--flag VALUE` or `--flag=VALUE`, and the arguments left. */
function option(args, flag) {
  const at = args.findIndex((a) => a === flag || a.startsWith(`${flag}=`));
  if (at < 0) return { value: undefined, rest: args };
  if (args[at].includes('=')) return { value: args[at].slice(flag.length + 1), rest: args.filter((_, i) => i !== at) };
  if (at + 1 >= args.length) throw new Error(`${flag}: expected a value`);
  return { value: args[at + 1], rest: args.filter((_, i) => i !== at && i !== at + 1) };
}

/** A scenario named on the command line: a lab or teaching scenario's name, or a file. */
function namedScenarios(names, corpus) {
  return names.map((name) => {
    const found = corpus.find((s) => s.name === name || s.name === `lab/${name}`);
    if (found) return found;
    if (existsSync(name)) return { name: `file/${basename(name).replace(/\.(json|mjs)$/, '')}`, path: resolve(name) };
    throw new Error(`${name}: neither a lab or teaching scenario (${corpus.map((s) => s.name).join(', ')}) nor a file`);
  });
}

async function main() {
  let args = process.argv.slice(2);
  const flags = {};
  for (const flag of ['--client', '--profile', '--report', '--generated', '--jobs']) {
    ({ value: flags[flag], rest: args } = option(args, flag));
  }
  const selfTest = args.includes('--self-test');
  const keepLogs = !args.includes('--no-session-logs');
  const names = args.filter((a) => !a.startsWith('--'));
  const unknownFlags = args.filter((a) => a.startsWith('--') && a !== '--self-test' && a !== '--no-session-logs');
  if (unknownFlags.length) throw new Error(`unknown option ${unknownFlags.join(', ')}`);
  const version = flags['--client'] ?? CURRENT;
  const client = { version, profile: profileOf(version) };
  if (flags['--profile'] !== undefined) client.profile = flags['--profile'];
  const seeds = flags['--generated'] === undefined ? [] : seedRange(flags['--generated']);

  /** @type {{ name: string, path?: string, scenario?: any }[]} */
  const corpus = scenarioFiles();
  let chosen = names.length ? namedScenarios(names, corpus) : corpus;
  chosen = [...chosen, ...generatedScenarios(seeds)];
  if (selfTest) chosen = chosen.filter((s) => s.name.startsWith('lab/'));
  mkdirSync(OUT, { recursive: true });

  const jobs = Number(flags['--jobs'] ?? 2);
  const started = Date.now();
  const skipped = [];
  const drivable = [];
  const profiles = RELEASES.map((r) => r.name);
  for (const { name, path, scenario: given } of chosen) {
    const scenario = given ?? (await loadScenario(path));
    const reasons = undrivableReasons(scenario, profiles);
    if (reasons.length) skipped.push({ name, reasons });
    else drivable.push({ name, scenario });
  }
  console.log(`Codex CLI ${client.version} against the ${client.profile} profile: ${drivable.length} sessions`);
  // Sessions finish in any order; the report keeps the corpus order.
  const sessions = new Array(drivable.length);
  await pool(
    drivable.map(({ name, scenario }) => () => runScenarioPair(client, name, scenario, selfTest ? SELF_TEST_SWITCHES : {}, keepLogs)),
    jobs,
    (index, session) => {
      sessions[index] = session;
      printSession(client.version, session);
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
      `${totals.unknownMismatches} requests with differences not in codex-known-differences.json (Codex ${client.version}, ${totals.ms} ms)`,
  );
  const areas = areaTotals(sessions, CODEX_AREAS);
  if (!selfTest) {
    printAreas(areas);
  }
  const report = { client: { name: 'codex', ...client }, selfTest, switches: selfTest ? SELF_TEST_SWITCHES : {}, totals, areas, sessions, skipped };
  const reportPath = flags['--report'] ?? join(OUT, `codex-${client.version}-${selfTest ? 'self-test' : 'report'}.json`);
  writeFileSync(reportPath, JSON.stringify(report, null, 2));

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
