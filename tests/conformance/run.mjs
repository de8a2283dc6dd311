// The conformance lab's runner (`make conformance`): each scenario it can drive is played through
// the real Claude Code and through our engine's `claude-code` profile, and every main-loop
// request is compared item by item (compare.mjs). Exits non-zero on a mismatch that
// known-differences.json does not list.
//
//   node tests/conformance/run.mjs              every drivable scenario
//   node tests/conformance/run.mjs NAME…        only these (file names without .json)
//   node tests/conformance/run.mjs --self-test  shows the comparator can fail: the lab's own
//                                               scenarios with a quirk switch flipped on our side
//                                               must mismatch
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as engine from '../../pkg/context_assembly.js';
import { compareItems, engineItems, oracleItems } from './compare.mjs';
import { DEFAULT_CWD, DEFAULT_HOME, driveClaude, undrivableReasons } from './drive-claude.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const LAB = join(ROOT, 'tests/conformance');
const OUT = join(ROOT, 'target/conformance');
engine.initSync({ module: readFileSync(join(ROOT, 'pkg/context_assembly_bg.wasm')) });

// Switches whose flip changes what the lab's scenarios send, each against a quirk the oracle
// has: the trailing empty line of a read (Q16), the snippet's numbering from the old file (Q33),
// the ranged call note that hides the range (Q21), silently emptied and deleted files (Q35, Q38).
const SELF_TEST_SWITCHES = {
  'read.dropTrailingEmptyLine': true,
  'changeSnippets.numberFromNewFile': true,
  'fileContext.callNoteShowsRange': true,
  'fileContext.noteEmptiedFiles': true,
  'fileContext.noteDeletedFiles': true,
};

/** @type {{ scenario: string, match: string, reason: string }[]} */
const KNOWN = JSON.parse(readFileSync(join(LAB, 'known-differences.json'), 'utf8')).differences;

function scenarioFiles() {
  const teaching = JSON.parse(readFileSync(join(ROOT, 'web/scenarios/index.json'), 'utf8')).map((entry) => ({
    name: entry.file.replace(/\.json$/, ''),
    path: join(ROOT, 'web/scenarios', entry.file),
  }));
  const lab = readdirSync(join(LAB, 'scenarios'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: `lab/${f.replace(/\.json$/, '')}`, path: join(LAB, 'scenarios', f) }));
  return [...teaching, ...lab];
}

const isKnown = (scenario, line) => KNOWN.some((k) => (k.scenario === '*' || k.scenario === scenario) && line.includes(k.match));

async function runScenarioPair(name, scenario, switches) {
  const ours = { ...scenario, profile: 'claude-code', switches: { ...(scenario.switches ?? {}), ...switches } };
  const trace = engine.runScenario(ours);
  const ourRequests = trace.steps.filter((s) => s.turn.request !== undefined).map((s) => s.turn.request);
  const recordDir = join(OUT, 'recordings', name);
  rmSync(recordDir, { recursive: true, force: true });
  const run = await driveClaude(scenario, { recordDir, stepTimes: trace.steps.map((s) => s.atMs) });
  const paths = { workspace: run.workspace, home: run.home, cwd: scenario.cwd ?? DEFAULT_CWD, scenarioHome: scenario.home ?? DEFAULT_HOME };
  const oracleRequests = run.requests.filter((r) => r.role === 'main');
  const requests = [];
  for (let i = 0; i < Math.max(oracleRequests.length, ourRequests.length); i += 1) {
    const oracle = oracleRequests[i] ? oracleItems(oracleRequests[i].body, paths) : [];
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
      matched: result.diff.length === 0,
      knownOnly: result.diff.length > 0 && unknown.length === 0,
      diff: result.diff,
      unknown,
      oracleItems: oracle,
      ourItems: mine,
    });
  }
  return { name, ms: run.ms, sideRequests: run.requests.length - oracleRequests.length, requests };
}

function itemsMatched(request) {
  // An item matches when it is on both sides unchanged: each diff line is one item of one side.
  const oracleOnly = request.diff.filter((l) => l.startsWith('- oracle only')).length;
  const oursOnly = request.diff.filter((l) => l.startsWith('+ ours only')).length;
  return request.items - Math.max(oracleOnly, oursOnly);
}

async function main() {
  const args = process.argv.slice(2);
  const selfTest = args.includes('--self-test');
  const only = args.filter((a) => !a.startsWith('--'));
  let chosen = scenarioFiles();
  if (selfTest) chosen = chosen.filter((s) => s.name.startsWith('lab/'));
  if (only.length) chosen = chosen.filter((s) => only.includes(s.name) || only.includes(s.name.replace(/^lab\//, '')));
  mkdirSync(OUT, { recursive: true });

  const sessions = [];
  const skipped = [];
  for (const { name, path } of chosen) {
    const scenario = JSON.parse(readFileSync(path, 'utf8'));
    const reasons = undrivableReasons(scenario);
    if (reasons.length) {
      skipped.push({ name, reasons });
      continue;
    }
    const session = await runScenarioPair(name, scenario, selfTest ? SELF_TEST_SWITCHES : {});
    sessions.push(session);
    const requests = session.requests;
    const matched = requests.filter((r) => r.matched).length;
    const items = requests.reduce((sum, r) => sum + r.items, 0);
    const good = requests.reduce((sum, r) => sum + itemsMatched(r), 0);
    console.log(`${name}: ${matched}/${requests.length} requests, ${good}/${items} items matched (${session.ms} ms, ${session.sideRequests} side requests)`);
    for (const r of requests.filter((r) => !r.matched)) {
      console.log(`  request ${r.n}${r.knownOnly ? ' (known differences only)' : ''}:`);
      for (const line of r.diff) console.log(`    ${isKnown(name, line) ? '(known) ' : ''}${line.slice(0, 400)}`);
    }
  }
  for (const { name, reasons } of skipped) console.log(`${name}: not driven — ${reasons.join('; ')}`);

  const all = sessions.flatMap((s) => s.requests);
  const totals = {
    sessions: sessions.length,
    requests: all.length,
    requestsMatched: all.filter((r) => r.matched).length,
    requestsWithKnownDifferencesOnly: all.filter((r) => r.knownOnly).length,
    items: all.reduce((sum, r) => sum + r.items, 0),
    itemsMatched: all.reduce((sum, r) => sum + itemsMatched(r), 0),
    unknownMismatches: all.filter((r) => r.unknown.length > 0).length,
  };
  console.log(
    `${totals.sessions} sessions × ${totals.requests} requests (${totals.requestsMatched} matched, ${totals.requestsWithKnownDifferencesOnly} with known differences only) × ` +
      `${totals.items} items (${totals.itemsMatched} matched); ` +
      `${totals.unknownMismatches} requests with differences not in known-differences.json`,
  );
  const report = { selfTest, switches: selfTest ? SELF_TEST_SWITCHES : {}, totals, sessions, skipped };
  writeFileSync(join(OUT, selfTest ? 'self-test.json' : 'report.json'), JSON.stringify(report, null, 2));

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
