// The session-log round trip: every log the real clients wrote during a lab run (the drivers keep
// them in target/conformance/recordings*/<session>/session-logs/) is imported and replayed by
// the native engine (examples/import and examples/replay, the same core the wasm package wraps),
// and each request of the replay is compared with what the client really sent (the mock's
// recordings beside the log) by the lab's own comparators. Prints each session's rates and the
// totals; the log is the only input, so the rates say how much of a request a log lets us
// rebuild.
//
//   cargo build --release -p context-assembly --features serde --example import --example replay
//   node tests/conformance/run.mjs && node tests/conformance/codex-run.mjs   (the logs)
//   node tests/conformance/import-roundtrip.mjs [--verbose]
//
// The paths need no mapping: the imported scenario keeps the log's own (the lab's temp
// directories), which are the ones the recorded requests name. The estimate-vs-recorded
// figures compare our request sizes with the usage in the log, which in the lab is the mocks':
// the Anthropic mock reports the lab engine's own estimate, the Responses mock a byte count of
// the body, so they check the alignment more than the estimate.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import * as claude from './compare.mjs';
import * as codex from './codex-compare.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const OUT = join(ROOT, 'target/conformance');
const BIN = join(ROOT, 'target/release/examples');
const VERBOSE = process.argv.includes('--verbose');
// The Claude Code release whose recordings are in `recordings/`; another's are in
// `recordings-claude-<version>/` (tests/conformance/run.mjs).
const LAB_RELEASE = '2.1.88';
// The lab's accepted differences (`match` entries: a diff line of that kind containing that
// text), so the rates here read as the lab's: a request whose only differences are known is
// counted apart, as the lab counts it.
const KNOWN = {
  'claude-code': JSON.parse(readFileSync(join(ROOT, 'tests/conformance/known-differences.json'), 'utf8')).differences,
  codex: JSON.parse(readFileSync(join(ROOT, 'tests/conformance/codex-known-differences.json'), 'utf8')).differences,
};

/** Whether a known difference of the lab, for `release` (Claude Code's), accounts for `line` of session `name`. */
function known(format, release, name, line) {
  const kind = /"kind":"([\w-]+)"/.exec(line)?.[1];
  const forRelease = (k) => format !== 'claude-code' || (k.clients ?? [LAB_RELEASE]).includes(release);
  return KNOWN[format].filter(forRelease).some((k) => {
    const scopes = Array.isArray(k.scenario) ? k.scenario : [k.scenario];
    const inScope = scopes.some((s) => s === '*' || s === name || (s === 'generated' && name.startsWith('generated/')));
    const kinds = Array.isArray(k.kind) ? k.kind : [k.kind];
    return inScope && k.match !== undefined && kinds.includes(kind) && line.includes(k.match);
  });
}

/** Every directory under `dir` that holds a `session-logs` directory. */
function sessions(dir, out = []) {
  if (!existsSync(dir)) return out;
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    if (!entry.isDirectory()) continue;
    const path = join(dir, entry.name);
    if (entry.name === 'session-logs') out.push(dir);
    else sessions(path, out);
  }
  return out;
}

/** The main log of a lab run (Claude Code's subagent logs sit beside it). */
function mainLog(dir) {
  const logs = readdirSync(join(dir, 'session-logs')).filter((f) => f.endsWith('.jsonl') && !f.includes('__subagents__'));
  return logs.length ? join(dir, 'session-logs', logs.sort().at(-1)) : undefined;
}

/** The client's main-loop requests, as the mock recorded them, in order. */
function oracleRequests(dir) {
  return readdirSync(dir)
    .filter((f) => /^\d+\.json$/.test(f))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(dir, f), 'utf8')))
    .filter((r) => r.role === 'main');
}

/** The requests our replay sends to the model (a compaction step's peek is not one). */
function ourRequests(trace) {
  return trace.steps
    .filter((s) => s.turn.request !== undefined && (s.turn.round === 'human-turn' || s.turn.round === 'tool-round'))
    .map((s) => s.turn.request);
}

function importLogs(files) {
  const out = execFileSync(join(BIN, 'import'), files, { maxBuffer: 1 << 30, encoding: 'utf8' });
  return out.trim().split('\n').map((line) => JSON.parse(line));
}

function replay(scenarios) {
  const input = scenarios.map((s) => JSON.stringify(s)).join('\n') + '\n';
  const out = execFileSync(join(BIN, 'replay'), { input, maxBuffer: 1 << 30, encoding: 'utf8' });
  return out.trim().split('\n').map((line) => JSON.parse(line));
}

/** The summaries the comparator recognises: each compact step's, formatted as the client does. */
function summariesOf(scenario) {
  return scenario.steps.filter((s) => s.kind === 'compact' && s.summary).map((s) => claude.formatCompactSummary(s.summary));
}

function compareClaude(scenario, oracle, ours) {
  const paths = { workspace: scenario.cwd, root: scenario.cwd, home: scenario.home ?? '/home/user', scenarioHome: scenario.home ?? '/home/user' };
  const options = { summaries: summariesOf(scenario), restored: [] };
  return (i) => claude.compareItems(oracle[i] ? claude.oracleItems(oracle[i].body, paths, options) : [], ours[i] ? claude.engineItems(ours[i], options) : []);
}

function compareCodex(oracle, ours) {
  // No temp root to take away: the scenario keeps the log's paths.
  return (i) => codex.compareItems(oracle[i] ? codex.oracleItems(oracle[i].body, '\u0000') : [], ours[i] ? codex.engineItems(ours[i]) : []);
}

if (!existsSync(join(BIN, 'import')) || !existsSync(join(BIN, 'replay'))) {
  console.error('build the native tools first: cargo build --release -p context-assembly --features serde --example import --example replay');
  process.exit(2);
}
const folders = existsSync(OUT) ? readdirSync(OUT).filter((f) => f === 'recordings' || f === 'recordings-codex' || f.startsWith('recordings-claude-')).sort() : [];
const dirs = folders.flatMap((f) => sessions(join(OUT, f))).filter((d) => mainLog(d));
/** The Claude Code release a session's recordings folder holds. */
const claudeRelease = (name) => /^recordings-claude-([^/]+)\//.exec(name)?.[1] ?? LAB_RELEASE;
if (dirs.length === 0) {
  console.log(`no lab session logs under ${OUT}: run node tests/conformance/run.mjs and codex-run.mjs first`);
  process.exit(0);
}
const imported = importLogs(dirs.map(mainLog));
const replays = replay(imported.map((i) => i.scenario ?? { steps: [] }));
const blank = () => ({ sessions: 0, requests: 0, matched: 0, knownOnly: 0, items: 0, itemsMatched: 0, errors: [] });

/** The recorded prompt size of a usage: uncached input, cache writes and reads. */
const promptTokens = (usage) => usage.inputTokens + usage.cacheCreationTokens + usage.cacheReadTokens;
/** @type {Record<string, ReturnType<typeof blank>>} one line of totals per client release (Codex's together) */
const totals = {};
for (const [n, dir] of dirs.entries()) {
  const name = relative(OUT, dir);
  const result = imported[n];
  if (result.error) {
    console.log(`${name}: import failed: ${result.error}`);
    continue;
  }
  if (replays[n].error) {
    console.log(`${name}: replay failed: ${replays[n].error}`);
    continue;
  }
  const oracle = oracleRequests(dir);
  const ours = ourRequests(replays[n].trace);
  const compare = result.format === 'codex' ? compareCodex(oracle, ours) : compareClaude(result.scenario, oracle, ours);
  const release = claudeRelease(name);
  const label = result.format === 'claude-code' ? `claude-code ${release}` : result.format;
  const total = (totals[label] ??= blank());
  total.sessions += 1;
  // The lab's names: `lab/<file>` or a teaching scenario's, without the recordings folder.
  const labName = name.replace(/^recordings(-codex|-claude-[^/]+)?\//, '');
  let matched = 0;
  let knownOnly = 0;
  let items = 0;
  let itemsMatched = 0;
  const diffs = [];
  const count = Math.max(oracle.length, ours.length);
  for (let i = 0; i < count; i += 1) {
    const { diff, items: itemCount, pairs, matched: matchedItems } = compare(i);
    if (!oracle[i]) diff.unshift('- the client sent no such request');
    if (!ours[i]) diff.unshift('+ the replay assembles no such request');
    const requestItems = itemCount ?? 0;
    const requestMatched = pairs ? pairs.filter((p) => p.side === 'matched').length : (matchedItems ?? 0);
    items += requestItems;
    itemsMatched += requestMatched;
    if (diff.length === 0) matched += 1;
    else if (diff.every((line) => known(result.format, release, labName, line))) knownOnly += 1;
    else diffs.push(`  request ${i + 1}:\n${diff.map((l) => `    ${l.slice(0, 300)}`).join('\n')}`);
  }
  // Our estimate of each request against what the provider reported for it: the recorded
  // figures are per answer, in order, the summary requests set apart.
  const recorded = result.recorded.filter((usage) => !usage.summary);
  for (let i = 0; i < Math.min(recorded.length, ours.length); i += 1) {
    const actual = promptTokens(recorded[i]);
    if (actual > 0) total.errors.push((ours[i].tokens.total - actual) / actual);
  }
  total.requests += count;
  total.matched += matched;
  total.knownOnly += knownOnly;
  total.items += items;
  total.itemsMatched += itemsMatched;
  const warnings = result.warnings.length ? `, ${result.warnings.length} warnings` : '';
  const knownText = knownOnly ? `, ${knownOnly} with known differences only` : '';
  console.log(`${name}: ${matched}/${count} requests${knownText}, ${itemsMatched}/${items} items matched (${oracle.length} recorded, ${ours.length} replayed${warnings})`);
  if (VERBOSE) for (const d of diffs) console.log(d);
}
for (const [format, t] of Object.entries(totals)) {
  if (!t.sessions) continue;
  console.log(`${format}: ${t.sessions} sessions × ${t.requests} requests (${t.matched} matched, ${t.knownOnly} with known differences only, ${t.requests - t.matched - t.knownOnly} with others) × ${t.itemsMatched}/${t.items} items matched`);
  const sorted = t.errors.map(Math.abs).sort((a, b) => a - b);
  if (sorted.length) {
    const percent = (x) => `${(x * 100).toFixed(1)}%`;
    console.log(`  our estimate vs the recorded input tokens over ${sorted.length} requests: median error ${percent(sorted[Math.floor(sorted.length / 2)])}, worst ${percent(sorted.at(-1))}`);
  }
}
