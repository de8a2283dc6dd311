// The conformance lab's runner (`make conformance`): each scenario it can drive is played through
// a real Claude Code release and through the engine profile that reproduces that release, and
// every main-loop request is compared item by item (compare.mjs). Exits non-zero on a mismatch
// that known-differences.json does not list.
//
//   node tests/conformance/run.mjs                   the drivable teaching scenarios and the lab's
//   node tests/conformance/run.mjs NAME…             only these (file names without .json)
//   node tests/conformance/run.mjs path/to/x.json    a scenario file
//   node tests/conformance/run.mjs --generated 1-200 seeded sessions from generate.mjs
//   node tests/conformance/run.mjs --all             the fixed scenarios and --generated 1-200
//   node tests/conformance/run.mjs --self-test       shows the comparator can fail: the lab's own
//                                                    scenarios with quirk switches flipped on our
//                                                    side must mismatch
//   --jobs N                                         sessions at a time (default 2: each is its
//                                                    own Claude Code process)
//   --verbose                                        also the differences known-differences.json
//                                                    accounts for
//   --client VERSION                                 the release to play (claude-oracles.mjs; the
//                                                    current one by default), compared with the
//                                                    profile profileReleases() names for it
//   --recorded                                       compare the recordings an earlier run left
//                                                    (target/conformance/recordings…) again,
//                                                    without playing the client
//   --report FILE                                    where the report goes (default
//                                                    target/conformance/report.json for the lab
//                                                    release, 2.1.88, report-claude-VERSION.json
//                                                    for another; report-claude-VERSION-terminal.json
//                                                    with --interactive)
//   --interactive                                    play the interactive client in a
//                                                    pseudo-terminal (claude-terminal.mjs), not -p:
//                                                    the scenarios it can type, no self-test
import { mkdirSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import * as engine from '../../pkg/context_assembly.js';
import { compareItems, engineItems, formatCompactSummary, oracleItems } from './compare.mjs';
import { claudeOracle, claudeProfile, CURRENT_CLAUDE, LAB_RELEASE } from './claude-oracles.mjs';
import { claudeSettings, DEFAULT_HOME, DEFAULT_PLAN_FILE, driveClaude, scenarioHasRepository, undrivableReasons, workspacesLookLikeRepository } from './drive-claude.mjs';
import { terminalReasons } from './claude-terminal.mjs';
import { generateScenario, GENERATOR_VERSION } from './generate.mjs';
import { FIXED_SUMMARY } from './mock-anthropic.mjs';
import { areaTotals, CLAUDE_AREAS, claudeItemAreas, printAreas, requestTotals } from './areas.mjs';
import { pool } from './pool.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const VERBOSE = process.argv.includes('--verbose');
const LAB = join(ROOT, 'tests/conformance');
const OUT = join(ROOT, 'target/conformance');
engine.initSync({ module: readFileSync(join(ROOT, 'pkg/context_assembly_bg.wasm')) });
/** An option's value: `--flag value` or `--flag=value`. */
function optionValue(args, flag) {
  const at = args.indexOf(flag);
  if (at >= 0) return args[at + 1];
  return args.find((a) => a.startsWith(`${flag}=`))?.slice(flag.length + 1);
}
/** Compare the recordings of an earlier run instead of playing the sessions again. */
const RECORDED = process.argv.includes('--recorded');
/** The release played, and the profile compared with it. */
const CLIENT = optionValue(process.argv, '--client') ?? CURRENT_CLAUDE;
const ORACLE = claudeOracle(CLIENT);
const PROFILE = claudeProfile(engine, CLIENT);
/**
 * Where the release's recordings go, all under target/conformance/ where the import round trip
 * and crate/tests/import_lab.rs read their session logs: the lab release's in `recordings/`
 * (the lab's first paths), another's in `recordings-claude-VERSION/`.
 */
/** Play the interactive client in a pseudo-terminal (claude-terminal.mjs) instead of `-p`. */
const INTERACTIVE = process.argv.includes('--interactive');
const RECORDINGS = join(
  OUT,
  INTERACTIVE ? `recordings-claude-${CLIENT.replace(/[^\w.-]+/g, '_')}-terminal` : CLIENT === LAB_RELEASE ? 'recordings' : `recordings-claude-${CLIENT.replace(/[^\w.-]+/g, '_')}`,
);

// Switches whose flip changes what the lab's scenarios send, each against a quirk the oracle
// has: the trailing empty line of a read (Q16), the snippet's numbering from the old file (Q33),
// the ranged call note that hides the range (Q21), silently emptied and deleted files (Q35,
// Q38), the plan-mode cadence that ignores the new prompt (Q48), the command messages kept
// after a typed /compact; and one that is not a quirk, Bash's output passed through verbatim
// instead of tidied as the client tidies it. Each release adds the switches its preset sets:
// 2.1.88 the todo list in brackets (Q49), restored files above the summary (Q58) and the size
// read from the reported usage (2.1.332 offers no TodoWrite, puts the summary first and sizes
// from its own estimate, so these three change nothing there); 2.1.332 what the lab found in
// it (docs/versions.md) that a lab scenario shows. Each is flipped from the value the release's preset gives it.
const SELF_TEST_COMMON = [
  'read.dropTrailingEmptyLine',
  'changeSnippets.numberFromNewFile',
  'fileContext.callNoteShowsRange',
  'fileContext.noteEmptiedFiles',
  'fileContext.noteDeletedFiles',
  'attachments.planCountsNewPrompt',
  'fileContext.tidyToolOutput',
  'compaction.keepCommandMessages',
];
const SELF_TEST_SWITCHES = [
  ...SELF_TEST_COMMON,
  ...({
    '2.1.88': ['attachments.todoPlainList', 'attachments.attachmentsAfterSummary', 'compaction.sizeFromReportedUsage'],
    '2.1.332': [
      'fileState.writesNeedRead',
      'fileContext.alreadyReadSmallWholeFilesOnly',
      'compaction.summaryNamesToolsUsed',
      'compaction.promptTooLongKeepsTurns',
    ],
  }[CLIENT] ?? []),
];


/**
 * A difference accepted for now (known-differences.json), scoped to a scenario and an item kind:
 * @typedef {{
 *   scenario: string | string[], kind: string | string[], tool?: string, afterManualCompact?: boolean,
 *   normalise?: keyof typeof NORMALISERS, match?: string, reorderOnly?: boolean, racy?: boolean, headless?: boolean, terminal?: boolean,
 *   clients?: string[], reason: string,
 * }} KnownDifference
 *   `scenario`: a scenario's name (`lab/…`, a teaching file's name, `generated/<seed>`), a
 *   list of them, `generated` for every generated session, or `*`; `kind` (and `tool`, for
 *   tool results): the items it is about; `afterManualCompact`: only in requests that follow a
 *   `/compact` step. Then one of: `normalise`, a named rewrite of our items into what the
 *   client sends (each says what our engine would have to change); `match`, text a diff line
 *   of that kind must contain (an item one side has and the other lacks). `reorderOnly`: only
 *   when the same item is on the other side too, elsewhere in the request (the two sides
 *   order it differently; nothing is missing). `racy`: the client itself varies from run to
 *   run, so an entry that no run needed is not reported stale. `headless`: an artefact of `-p`,
 *   left out of a run of the interactive client (`--interactive`); `terminal`: seen only there. `clients`: the releases it was
 *   seen with (default: the seed's, 2.1.88, which every entry before the current releases
 *   was judged against); a run of another release does not use it.
 */
/** @type {KnownDifference[]} */
const KNOWN = JSON.parse(readFileSync(join(LAB, 'known-differences.json'), 'utf8'))
  .differences.filter((k) => (k.clients ?? [LAB_RELEASE]).includes(CLIENT))
  .filter((k) => (INTERACTIVE ? !k.headless : !k.terminal));
/** How often each known difference was needed, to find the ones a fix made stale. */
const KNOWN_USED = new Map(KNOWN.map((k) => [k, 0]));
/** The scenarios each known difference was needed in, to find the seeds a fix made stale. */
const KNOWN_USED_IN = new Map(KNOWN.map((k) => [k, new Set()]));
const useKnown = (k, name) => {
  KNOWN_USED.set(k, KNOWN_USED.get(k) + 1);
  KNOWN_USED_IN.get(k).add(name);
};

/**
 * Rewrites for known differences (`normalise`): of our items into the client's, or, for a
 * fact the client takes from the machine, of both sides' items into a form without it (the
 * Bash output and Grep header rewrites of our items went when the engine learnt them).
 * @type {Record<string, { bothSides: boolean, rewrite: (item: any) => any }>}
 */
const NORMALISERS = {
  // The order a directory's entries come in from the file system (2.1.332 lists them so):
  // the entries are compared, not their order.
  listingOrder: { bothSides: true, rewrite: (item) => (Array.isArray(item.listing) ? { ...item, listing: [...item.listing].sort() } : item) },
};

function inScope(k, name, where = {}) {
  const scopes = Array.isArray(k.scenario) ? k.scenario : [k.scenario];
  if (k.afterManualCompact && !where.afterManualCompact) return false;
  return scopes.some((scope) => scope === '*' || scope === name || (scope === 'generated' && name.startsWith('generated/')));
}

const kindOf = (k, kind) => (Array.isArray(k.kind) ? k.kind.includes(kind) : k.kind === kind);
const concerns = (k, item) => kindOf(k, item.kind) && (k.tool === undefined || item.tool === k.tool);

/** Both sides' items with the known differences of `name` set aside (`normalise`). */
function lenientItems(name, oracle, ours, where) {
  const used = new Set();
  const apply = (items, side) =>
    items.map((item) => {
      let out = item;
      for (const k of KNOWN) {
        if (!inScope(k, name, where) || !concerns(k, out)) continue;
        const normaliser = k.normalise ? NORMALISERS[k.normalise] : undefined;
        if (normaliser && (side === 'ours' || normaliser.bothSides)) {
          const before = JSON.stringify(out);
          out = normaliser.rewrite(out);
          if (JSON.stringify(out) !== before) used.add({ k, before, side });
        }
      }
      return out;
    });
  return { oracle: apply(oracle, 'oracle'), ours: apply(ours, 'ours'), used };
}

/** A diff line's item, without the side it is on. */
const itemOf = (line) => line.replace(/^[-+] [a-z ]+:\s*/, '');
/** Whether the item of diff `line` is also on the other side among `lines` (a reorder). */
function reordered(line, lines) {
  const other = line.startsWith('+') ? '-' : '+';
  return lines.some((l) => l.startsWith(other) && itemOf(l) === itemOf(line));
}

/**
 * The known difference that accounts for a diff line of `name` (`match`), if any; `lines`
 * are all the request's leftover diff lines, for `reorderOnly`.
 */
function knownLine(name, line, where, lines) {
  const kind = /"kind":"([\w-]+)"/.exec(line)?.[1];
  const tool = /"tool":"(\w+)"/.exec(line)?.[1];
  return KNOWN.find(
    (k) =>
      k.match !== undefined &&
      inScope(k, name, where) &&
      kindOf(k, kind) &&
      (k.tool === undefined || k.tool === tool) &&
      line.includes(k.match) &&
      (!k.reorderOnly || reordered(line, lines)),
  );
}

function fixedScenarios() {
  const teaching = JSON.parse(readFileSync(join(ROOT, 'web/scenarios/index.json'), 'utf8')).map((entry) => ({
    name: entry.file.replace(/\.json$/, ''),
    load: () => JSON.parse(readFileSync(join(ROOT, 'web/scenarios', entry.file), 'utf8')),
  }));
  const lab = readdirSync(join(LAB, 'scenarios'))
    .filter((f) => f.endsWith('.json'))
    .sort()
    .map((f) => ({ name: `lab/${f.replace(/\.json$/, '')}`, load: () => JSON.parse(readFileSync(join(LAB, 'scenarios', f), 'utf8')) }));
  return [...teaching, ...lab];
}

function parseSeeds(spec) {
  const seeds = [];
  for (const part of spec.split(',')) {
    const [from, to = from] = part.split('-').map(Number);
    if (!Number.isInteger(from) || !Number.isInteger(to) || to < from) throw new Error(`--generated ${spec}: expected seeds like 1-200 or 3,7,9-12`);
    for (let seed = from; seed <= to; seed += 1) seeds.push(seed);
  }
  return seeds;
}

const generatedSession = (seed) => ({ name: `generated/${seed}`, seed, load: () => generateScenario(seed) });

/**
 * The scenario our engine runs: the profile of the release played (PROFILE); the settings file the driver writes
 * for deny rules is a file of the workspace on both sides (Glob lists it, a directory mention
 * shows it); a compaction the client asks the mock to summarise gets the same summary.
 */
/** Whether the client takes the lab's temp workspaces for a repository (see engineScenario). */
const WORKSPACES_IN_REPOSITORY = workspacesLookLikeRepository();
/** The transcript our side's summary messages name (see engineScenario). */
const TRANSCRIPT_PATH = '~/.claude/projects/-project/lab-session.jsonl';

function engineScenario(scenario, switches) {
  const ours = { ...scenario, profile: PROFILE, switches: { ...(scenario.switches ?? {}), ...switches } };
  // The client always keeps a transcript and its summary message names it (§9.3 item 8);
  // the comparison checks that a path is named, not which (the session id is the client's).
  // `-p` is print mode; the terminal client (--interactive) is not, whatever the scenario says
  // (a teaching scenario may choose print mode for the player).
  ours.config = { transcriptPath: TRANSCRIPT_PATH, ...(scenario.config ?? {}), printMode: !INTERACTIVE };
  // 2.1.332 sends the repository's state as a reminder of its own when it takes the workspace
  // for a repository, which it does where a `.git` lies above the temp directory or the
  // scenario's files hold one above its cwd; 2.1.88 puts it in the system prompt, which is not
  // compared.
  const inRepository = WORKSPACES_IN_REPOSITORY || scenarioHasRepository(scenario);
  if (CLIENT !== LAB_RELEASE && inRepository && ours.config.gitStatus === undefined) {
    ours.config.gitStatus = 'Current branch: HEAD\n\nStatus:\n(unavailable)';
  }
  const settings = claudeSettings(scenario);
  if (settings) {
    const files = Array.isArray(scenario.files) ? scenario.files : Object.entries(scenario.files ?? {}).map(([path, content]) => ({ path, content }));
    ours.files = [...files, { path: '.claude/settings.json', content: settings }];
  }
  ours.steps = scenario.steps.map((step) => (step.kind === 'compact' && step.summary === undefined ? { ...step, summary: FIXED_SUMMARY } : step));
  return ours;
}

/** Our side of a session: the requests the model receives, and what each request follows. */
function engineSide(scenario, switches) {
  const trace = engine.runScenario(engineScenario(scenario, switches));
  // The requests the model receives: a compaction step's "request as it now stands" is ours
  // alone (the client sends the next one with the next prompt).
  const paired = trace.steps
    .map((s, index) => ({ s, index }))
    .filter(({ s }) => s.turn.request !== undefined && (s.turn.round === 'human-turn' || s.turn.round === 'tool-round'));
  const requests = paired.map(({ s }) => s.turn.request);
  // The usage the step answering each request reports, as the API's `usage` (§6.3).
  const usage = paired.map(({ index }) => {
    const answer = scenario.steps.slice(index + 1).find((step) => step.kind === 'assistant' || step.kind === 'user');
    const given = answer?.kind === 'assistant' ? answer.usage : undefined;
    if (!given) return undefined;
    return {
      input_tokens: given.inputTokens ?? 0,
      cache_creation_input_tokens: given.cacheCreationTokens ?? 0,
      cache_read_input_tokens: given.cacheReadTokens ?? 0,
      output_tokens: given.outputTokens ?? 0,
    };
  });
  const context = paired.map(({ index }, i) => {
    const since = i > 0 ? paired[i - 1].index + 1 : 0;
    const between = trace.steps.slice(since, index + 1);
    let prompt = '';
    for (let j = index; j >= 0; j -= 1) if (trace.steps[j].input.kind === 'user') (prompt = trace.steps[j].input.prompt), (j = -1);
    return {
      // The prompt it answers, for the report's areas.
      prompt,
      // The compactions that ran since the previous request: before this one, or a /compact.
      compactions: between.flatMap((step) => step.turn.compaction ?? []).filter((r) => r.applied),
      afterManualCompact: trace.steps.slice(0, index).some((step) => step.input.kind === 'compact'),
    };
  });
  // Our reports carry the whole summary message: the formatted summary starts at `Summary:\n`
  // and ends before the transcript sentence and an auto-compaction's single-line carry-on
  // instruction.
  const summaries = [FIXED_SUMMARY, ...scenario.steps.filter((s) => s.kind === 'compact' && s.summary).map((s) => s.summary)].map(formatCompactSummary);
  for (const step of trace.steps) {
    for (const report of step.turn.compaction ?? []) {
      const at = report.summary?.indexOf('Summary:\n') ?? -1;
      if (at < 0) continue;
      let formatted = report.summary.slice(at);
      if (report.trigger === 'auto') formatted = formatted.slice(0, formatted.lastIndexOf('\n'));
      // The transcript sentence, after a blank line, ends with the path.
      const path = formatted.indexOf(TRANSCRIPT_PATH);
      summaries.push(path < 0 ? formatted : formatted.slice(0, formatted.lastIndexOf('\n\n', path)));
    }
  }
  return { trace, requests, usage, context, summaries };
}

/**
 * A session as an earlier run recorded it (`--recorded`): the temp paths it ran in and the
 * requests the mock kept.
 */
function recordedRun(recordDir) {
  let run;
  try {
    run = JSON.parse(readFileSync(join(recordDir, 'run.json'), 'utf8'));
  } catch {
    throw new Error(`no recording in ${recordDir}: run the session without --recorded first`);
  }
  const requests = readdirSync(recordDir)
    .filter((f) => /^\d+\.json$/.test(f))
    .sort()
    .map((f, index) => {
      const recorded = JSON.parse(readFileSync(join(recordDir, f), 'utf8'));
      return { n: index + 1, path: join(recordDir, f), role: recorded.role, scripted: recorded.scripted, body: recorded.body };
    });
  return { ...run, requests };
}

/**
 * Plays one session through the client and compares it with ours; with `selfTest`, also
 * compares the same recordings with our side run under each of SELF_TEST_SWITCHES in turn
 * (no second client run is needed: only our side changes), noting which switches moved it.
 */
async function runSession({ name, load }, { selfTest = false } = {}) {
  const scenario = load();
  const reasons = [...undrivableReasons(scenario), ...(INTERACTIVE ? terminalReasons(scenario) : [])];
  if (reasons.length) return { name, skipped: reasons };
  const ours = engineSide(scenario, {});
  const recordDir = join(RECORDINGS, name);
  if (!RECORDED) rmSync(recordDir, { recursive: true, force: true });
  // The eager memory files our first request lists, for the driver to seed (see driveClaude).
  const eagerMemory = ours.requests.length ? engineItems(ours.requests[0]).filter((i) => i.kind === 'user-context').flatMap((i) => i.memories.map((m) => m.path)) : [];
  // The client's token count follows ours (the mock reports our sizes as usage, or the usage
  // the answering step gives, which our engine reads too: §6.3), so both reach the
  // auto-compact threshold at the same request when they agree on what was added.
  const usage = (/** @type {number} */ i) => ours.usage[i] ?? ours.requests[i]?.tokens.total;
  const run = RECORDED ? recordedRun(recordDir) : await driveClaude(scenario, { recordDir, stepTimes: ours.trace.steps.map((s) => s.atMs), usage, eagerMemory, client: CLIENT, interactive: INTERACTIVE });
  if (!RECORDED) writeFileSync(join(recordDir, 'run.json'), JSON.stringify({ ms: run.ms, workspace: run.workspace, root: run.root, home: run.home, planFile: run.planFile }, null, 2));
  const paths = {
    workspace: run.workspace,
    root: run.root,
    home: run.home,
    scenarioHome: scenario.home ?? DEFAULT_HOME,
    planFile: run.planFile,
    scenarioPlanFile: (scenario.home ?? DEFAULT_HOME) + DEFAULT_PLAN_FILE.slice(1),
  };
  const oracleRequests = run.requests.filter((r) => r.role === 'main');
  const summaryRequests = run.requests.filter((r) => r.role === 'summary').length;
  const session = {
    name,
    ms: run.ms,
    sideRequests: run.requests.length - oracleRequests.length - summaryRequests,
    summaryRequests,
    requests: compareSession(name, scenario, oracleRequests, ours, paths, eagerMemory, true),
  };
  if (selfTest) {
    session.selfTest = Object.fromEntries(
      SELF_TEST_SWITCHES.map((key) => {
        // Moved: differences the unflipped comparison does not have. Each release's preset
        // sets the switch its own way, so both values are tried: the preset's own adds none.
        const baseline = new Set(session.requests.flatMap((r) => r.unknown.map((line) => `${r.n} ${line}`)));
        const moves = (value) =>
          compareSession(name, scenario, oracleRequests, engineSide(scenario, { [key]: value }), paths, eagerMemory, false)
            .some((r) => r.unknown.some((line) => !baseline.has(`${r.n} ${line}`)));
        return [key, moves(true) || moves(false)];
      }),
    );
  }
  return session;
}

/** Each request of the client beside ours, item by item (see compare.mjs). */
function compareSession(name, scenario, oracleRequests, ours, paths, eagerMemory, countUses) {
  const requests = [];
  for (let i = 0; i < Math.max(oracleRequests.length, ours.requests.length); i += 1) {
    const context = ours.context[i] ?? { prompt: '', compactions: [], afterManualCompact: false };
    const restored = context.compactions.flatMap((r) => r.restored.map((f) => f.path));
    const options = { summaries: ours.summaries, restored };
    // A release that keeps the latest messages after the summary (2.1.332) is read with the
    // request before, which tells the first request to carry a summary (compare.mjs).
    const summaryFirst = (previous) => (ORACLE.summaryFirst ? { previous } : {});
    const oracle = oracleRequests[i] ? oracleItems(oracleRequests[i].body, paths, { ...options, ...summaryFirst(oracleRequests[i - 1]?.body) }) : [];
    const mine = ours.requests[i] ? engineItems(ours.requests[i], { ...options, ...summaryFirst(ours.requests[i - 1]) }) : [];
    sortSeededTies(oracle, eagerMemory);
    sortSeededTies(mine, eagerMemory);
    // Judged on both sides alike: one side's known difference can turn a restored file into a
    // mention.
    if (Math.max(parallelReads(oracle), parallelReads(mine)) >= 2) sortMemoryRuns(oracle), sortMemoryRuns(mine);
    // Our auto-compaction summarises without a model (extractive); the client's summary is the
    // mock's: the summary's text is not comparable then, everything around it is.
    if (context.compactions.some((r) => r.summarySource !== 'host')) for (const item of [...oracle, ...mine]) if (item.kind === 'compact-summary') delete item.summary;
    const result = compareItems(oracle, mine);
    if (!oracleRequests[i]) result.diff.unshift('- oracle sent no such request');
    if (!ours.requests[i]) result.diff.unshift('+ we assemble no such request');
    // What fails the run: the differences left once the known ones are set aside.
    const where = { afterManualCompact: context.afterManualCompact };
    const lenient = lenientItems(name, oracle, mine, where);
    const leftover = compareItems(lenient.oracle, lenient.ours).diff;
    if (!oracleRequests[i] || !ours.requests[i]) leftover.unshift(result.diff[0]);
    const unknown = leftover.filter((line) => !knownLine(name, line, where, leftover));
    if (countUses && result.diff.length) {
      // A set-aside fact counts as used when it was part of a difference.
      const lines = new Set(result.diff.map(itemOf));
      for (const { k, before } of lenient.used) if (lines.has(before)) useKnown(k, name);
      for (const line of leftover) {
        const k = knownLine(name, line, where, leftover);
        if (k) useKnown(k, name);
      }
    }
    const afterCompaction = context.compactions.length > 0 || oracle.some((item) => item.kind === 'compact-summary');
    const areas = {};
    const count = (item, key) => {
      const list = new Set([...claudeItemAreas(item, context.prompt), ...(scenario.config?.deny?.length ? ['deny'] : []), ...(afterCompaction ? ['compaction'] : [])]);
      for (const area of list) {
        areas[area] ??= { items: 0, matched: 0, oracleOnly: 0, oursOnly: 0 };
        areas[area][key] += 1;
      }
    };
    for (const pair of result.pairs) count(pair.item, pair.side);
    for (const area of Object.values(areas)) {
      area.items = area.matched + Math.max(area.oracleOnly, area.oursOnly);
      delete area.oracleOnly;
      delete area.oursOnly;
    }
    requests.push({
      n: i + 1,
      recording: oracleRequests[i]?.path,
      scripted: oracleRequests[i]?.scripted ?? false,
      items: result.items,
      itemsMatched: result.pairs.filter((p) => p.side === 'matched').length,
      matched: result.diff.length === 0,
      knownOnly: result.diff.length > 0 && unknown.length === 0,
      areas,
      diff: result.diff,
      unknown,
      oracleItems: oracle,
      ourItems: mine,
    });
  }
  return requests;
}

/**
 * The eager memory files share one timestamp (the lab seeds them as the interactive client
 * does at startup, see drive-claude.mjs), so where a compaction restores several of them in a
 * row, their order among themselves is the read-file cache's recency order, which `-p`'s
 * re-applied seeds disturb. Such runs are put in path order on both sides.
 */
function sortSeededTies(items, eagerMemory) {
  const seeded = (item) => (item.kind === 'restored' || item.kind === 'file-reference') && eagerMemory.includes(item.path ?? item.paths?.[0]);
  for (let start = 0; start < items.length; start += 1) {
    if (!seeded(items[start])) continue;
    let end = start;
    while (end + 1 < items.length && seeded(items[end + 1])) end += 1;
    const run = items.slice(start, end + 1).sort((a, b) => (a.path ?? a.paths[0]).localeCompare(b.path ?? b.paths[0]));
    items.splice(start, run.length, ...run);
    start = end;
  }
}

/**
 * The client reads a prompt's mentions in parallel (§3.7), and a response's Reads too, and
 * each read queues its nested-memory triggers when it finishes (§8.1): with two reads or
 * more, the order of the nested memory files they load is the order the reads finished in,
 * which changes from run to run. Such runs of memory items are put in path order on both
 * sides; with one read, their discovery order (§8.2) is compared as it is.
 */
const parallelReads = (items) => items.filter((i) => i.kind === 'mention' || (i.kind === 'tool-result' && i.tool === 'Read')).length;

function sortMemoryRuns(items) {
  for (let start = 0; start < items.length; start += 1) {
    if (items[start].kind !== 'memory') continue;
    let end = start;
    while (end + 1 < items.length && items[end + 1].kind === 'memory') end += 1;
    const run = items.slice(start, end + 1).sort((a, b) => a.path.localeCompare(b.path));
    items.splice(start, run.length, ...run);
    start = end;
  }
}

function reproducer(session) {
  const run = `node tests/conformance/run.mjs${CLIENT === CURRENT_CLAUDE ? '' : ` --client ${CLIENT}`}`;
  if (session.seed !== undefined) return `${run} --generated ${session.seed}   (scenario: node tests/conformance/generate.mjs ${session.seed})`;
  return `${run} ${session.path ?? session.name.replace(/^lab\//, '')}`;
}

function printSession(session, chosen) {
  if (session.skipped) return;
  const requests = session.requests;
  const matched = requests.filter((r) => r.matched).length;
  const items = requests.reduce((sum, r) => sum + r.items, 0);
  const good = requests.reduce((sum, r) => sum + r.itemsMatched, 0);
  const failing = requests.some((r) => r.unknown.length > 0);
  const known = requests.filter((r) => r.knownOnly).length;
  console.log(
    `${failing ? 'FAIL ' : ''}${session.name}: ${matched}/${requests.length} requests, ${good}/${items} items matched ` +
      `${known ? `, ${known} with known differences only` : ''} (${session.ms} ms, ${session.summaryRequests} summary, ${session.sideRequests} side requests)`,
  );
  // Generated sessions show only what fails; fixed ones show their known differences too.
  for (const r of requests.filter((r) => r.unknown.length > 0 || (VERBOSE && !r.matched))) {
    console.log(`  request ${r.n}${r.knownOnly ? ' (known differences only)' : ''}:`);
    for (const line of r.unknown) console.log(`    ${line.slice(0, 400)}`);
    // The known ones in full only on request (--verbose): generated sessions repeat them.
    if (VERBOSE) for (const line of r.diff.filter((l) => !r.unknown.includes(l))) console.log(`    (known) ${line.slice(0, 400)}`);
  }
  if (failing) console.log(`  reproduce: ${reproducer(chosen)}`);
}

async function main() {
  const args = process.argv.slice(2);
  const selfTestOnly = args.includes('--self-test');
  const all = args.includes('--all');
  const option = (flag) => optionValue(args, flag);
  const jobs = Number(option('--jobs') ?? 2);
  const seedSpec = option('--generated') ?? (all ? '1-200' : undefined);
  const only = args.filter((a, i) => !a.startsWith('--') && !['--jobs', '--generated', '--client', '--report'].includes(args[i - 1]));
  const reportFile = option('--report') ?? join(OUT, INTERACTIVE ? `report-claude-${CLIENT}-terminal.json` : CLIENT === LAB_RELEASE ? 'report.json' : `report-claude-${CLIENT}.json`);
  let chosen = [];
  if (!seedSpec || all || only.length) {
    chosen = fixedScenarios();
    if (selfTestOnly) chosen = chosen.filter((s) => s.name.startsWith('lab/'));
    const files = only.filter((a) => a.endsWith('.json'));
    if (only.length) chosen = chosen.filter((s) => only.includes(s.name) || only.includes(s.name.replace(/^lab\//, '')));
    chosen.push(...files.map((f) => ({ name: `file/${f.replace(/^.*\//, '').replace(/\.json$/, '')}`, path: f, load: () => JSON.parse(readFileSync(resolve(f), 'utf8')) })));
    if (only.length && !seedSpec && chosen.length === 0) throw new Error(`no scenario named ${only.join(', ')}`);
  }
  if (seedSpec && !selfTestOnly) chosen.push(...parseSeeds(seedSpec).map(generatedSession));
  // The self-test runs on the lab's own scenarios, whose recordings it reuses.
  // The self-test reuses the `-p` recordings; a terminal run has its own comparison only.
  const selfTest = !INTERACTIVE && (selfTestOnly || all);
  mkdirSync(OUT, { recursive: true });

  const started = Date.now();
  /** @type {any[]} */
  const results = new Array(chosen.length);
  await pool(
    chosen.map((c) => () => runSession(c, { selfTest: selfTest && c.name.startsWith('lab/') }).catch((error) => ({ name: c.name, error: String(error?.stack ?? error) }))),
    jobs,
    (index, result) => {
      results[index] = result;
      if (result.error) console.log(`ERROR ${result.name}: ${result.error.slice(0, 2000)}\n  reproduce: ${reproducer(chosen[index])}`);
      else if (!selfTestOnly) printSession(result, chosen[index]);
    },
  );
  const sessions = results.filter((r) => r.requests);
  const skipped = results.filter((r) => r.skipped);
  const errors = results.filter((r) => r.error);
  if (!selfTestOnly) for (const { name, skipped: reasons } of skipped) console.log(`${name}: not driven — ${reasons.join('; ')}`);

  const allRequests = sessions.flatMap((s) => s.requests);
  const totals = {
    sessions: sessions.length,
    generatedSessions: sessions.filter((s) => s.name.startsWith('generated/')).length,
    ...requestTotals(allRequests),
    errors: errors.length,
    seconds: Math.round((Date.now() - started) / 1000),
  };
  const areas = areaTotals(sessions, CLAUDE_AREAS);
  if (!selfTestOnly) {
    printAreas(areas);
    console.log(
      `${totals.sessions} sessions (${totals.generatedSessions} generated) × ${totals.requests} requests (${totals.requestsMatched} matched, ` +
        `${totals.requestsWithKnownDifferencesOnly} with known differences only) × ${totals.items} items (${totals.itemsMatched} matched); ` +
        `${totals.unknownMismatches} requests with differences not in known-differences.json; ${totals.errors} sessions failed to run; ${totals.seconds} s`,
    );
  }
  const failingSessions = sessions.filter((s) => s.requests.some((r) => r.unknown.length > 0));
  const knownDifferences = KNOWN.map((k) => ({ ...k, used: KNOWN_USED.get(k) }));
  const ran = new Set(sessions.map((s) => s.name));
  // Stale only where it could have been needed: an entry for seeds this run did not play (make
  // test plays 100 of the 200) says nothing.
  const played = (k) => [k.scenario].flat().some((name) => name === '*' || name === 'generated' || ran.has(name));
  if (all) for (const k of knownDifferences.filter((k) => k.used === 0 && !k.racy && played(k))) console.log(`stale known difference (nothing needed it; remove it?): ${JSON.stringify({ scenario: k.scenario, kind: k.kind, tool: k.tool, normalise: k.normalise, match: k.match })}`);
  // An entry scoped to a list of scenarios or seeds can outlive some of them: after the full
  // run, name the listed ones that ran and did not need it (only then is the list complete).
  if (all) {
    for (const k of knownDifferences.filter((k) => k.used > 0 && !k.racy && Array.isArray(k.scenario))) {
      const unneeded = k.scenario.filter((name) => ran.has(name) && !KNOWN_USED_IN.get(KNOWN[knownDifferences.indexOf(k)]).has(name));
      if (unneeded.length) console.log(`stale scenarios of a known difference (they ran without needing it; remove them?): ${unneeded.join(', ')} from ${JSON.stringify({ kind: k.kind, tool: k.tool, match: k.match })}`);
    }
  }

  // The self-test: every flipped switch must move at least one lab session.
  let selfTestReport;
  if (selfTest) {
    const tested = sessions.filter((s) => s.selfTest);
    const moved = Object.fromEntries(SELF_TEST_SWITCHES.map((key) => [key, tested.filter((s) => s.selfTest[key]).map((s) => s.name)]));
    const unmoved = Object.entries(moved).filter(([, names]) => names.length === 0).map(([key]) => key);
    selfTestReport = { sessions: tested.length, moved, passed: tested.length > 0 && unmoved.length === 0 };
    for (const [key, names] of Object.entries(moved)) console.log(`self-test ${key}: ${names.length ? `mismatches in ${names.join(', ')}` : 'NO MISMATCH'}`);
    console.log(selfTestReport.passed ? `self-test passed: each of ${SELF_TEST_SWITCHES.length} flipped switches makes the comparison fail` : `self-test FAILED: ${unmoved.join(', ')} changed no comparison`);
  }

  const report = {
    client: { name: 'claude-code', version: CLIENT, profile: PROFILE, ...(INTERACTIVE ? { interactive: true } : {}) },
    generator: GENERATOR_VERSION,
    totals,
    areas,
    selfTest: selfTestReport,
    knownDifferences,
    failing: failingSessions.map((s) => ({ name: s.name, reproduce: reproducer(chosen.find((c) => c.name === s.name)) })),
    errors,
    sessions: sessions.map((s) => {
      const c = chosen.find((x) => x.name === s.name);
      return { ...s, seed: c?.seed, reproduce: reproducer(c) };
    }),
    skipped,
  };
  writeFileSync(selfTestOnly ? join(OUT, CLIENT === LAB_RELEASE ? 'self-test.json' : `self-test-claude-${CLIENT}.json`) : resolve(reportFile), JSON.stringify(report, null, 2));

  if (failingSessions.length && !selfTestOnly) {
    console.log('\nfailing sessions:');
    for (const s of failingSessions) console.log(`  ${s.name}: ${reproducer(chosen.find((c) => c.name === s.name))}`);
  }
  const failed = errors.length > 0 || (selfTest && !selfTestReport.passed) || (!selfTestOnly && totals.unknownMismatches > 0);
  if (failed) process.exit(1);
}

await main();
