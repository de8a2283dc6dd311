// Which Claude Code release first shows each change between two releases (docs/versions.md,
// "Claude Code 2.1.88 → 2.1.332"). Every published release between FROM and TO (npm's list)
// can be probed: the probe installs one into target/claude-releases/<version>/ (never into the
// lab's pins) — the native build from its platform package where one was published, else the
// npm wrapper's JavaScript build — plays a few scenarios through it against the mock, and reads
// from its requests which side of each mechanism it is on. The scenarios are the lab's, or the
// bisection's own (bisect-probes/: sessions only a probe needs, kept out of the lab's
// comparisons), one of them typed into the terminal UI; the mock reports the usage a scenario's
// `assistant` step gives, as the lab's runner does. A binary search per mechanism then finds the
// first release on TO's side, assuming a mechanism changes once between the two.
// The client's text is only tested for roles, tags, tool and agent names, paths and counts;
// nothing it sends is kept or printed.
//
//   node tests/conformance/claude-bisect.mjs                       2.1.88 → 2.1.332
//   node tests/conformance/claude-bisect.mjs --from A --to B       other releases
//   node tests/conformance/claude-bisect.mjs --probe VERSION       one release's side of each mechanism
import { execFileSync } from 'node:child_process';
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { bisectCommand } from './bisect.mjs';
import { driveClaude } from './drive-claude.mjs';
import { FIXED_SUMMARY } from './mock-anthropic.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const LAB = join(ROOT, 'tests/conformance/scenarios');
// Scenarios only the bisection plays: the lab's own are compared in every test run, so a probe
// that needs another session gets one here rather than in the lab.
const OWN_PROBES = join(ROOT, 'tests/conformance/bisect-probes');
const INSTALLS = join(ROOT, 'target/claude-releases');
// Outside target/conformance/, whose session logs the import lab reads (crate/tests/import_lab.rs).
const RECORDINGS = join(ROOT, 'target/claude-bisect');
// Names of lab scenarios, or of this tool's own (bisect-probes/, looked up first); one named
// after `terminal/` is played through the terminal UI (claude-terminal.mjs) instead of `-p`.
const TERMINAL = 'terminal/';
const PROBES = [
  'mention-file',
  'write-rules',
  'compact-manual',
  'compact-prompt-too-long',
  'remention-size3',
  'nested-memory-restore',
  'usage-first-response',
  'usage-window-floor',
  'usage-estimate-padding',
  'compact-env',
  `${TERMINAL}mention-file`,
];
const WRAPPER = '@anthropic-ai/claude-code';
const NATIVE = '@anthropic-ai/claude-code-linux-x64';
const SUMMARY_TEXT = /<summary>([\s\S]*)<\/summary>/.exec(FIXED_SUMMARY)[1];

/** A message's texts. */
const texts = (message) => (typeof message.content === 'string' ? [message.content] : message.content.map((block) => block.text ?? ''));
const mainBodies = (run, name) => run[name].requests.filter((r) => r.role === 'main').map((r) => r.body);

/** The request after the typed /compact: the first whose messages carry the summary. */
const afterCompact = (run, name) =>
  run[name].requests.some((r) => r.role === 'summary')
    ? mainBodies(run, name).find((body) => body.messages.some((m) => texts(m).some((t) => t.includes(SUMMARY_TEXT))))
    : undefined;

/** A request's content blocks: texts, tool calls and their results. */
const contentBlocks = (body) => body.messages.flatMap((m) => (typeof m.content === 'string' ? [] : m.content));

/** How many main-loop requests came before the first summary request (an auto-compaction's). */
const mainsBeforeSummary = (run, name) => {
  const at = run[name].requests.findIndex((r) => r.role === 'summary');
  return at < 0 ? undefined : run[name].requests.slice(0, at).filter((r) => r.role === 'main').length;
};

/**
 * Whether the request restores `path` after a compaction: a restored file is shown as a Read
 * call whose input names it, in a note (a text block); a nested memory note names it otherwise.
 */
const restores = (body, path) => body.messages.some((m) => texts(m).some((t) => new RegExp(`"file_path":"[^"]*/${path.replaceAll('.', '\\.')}"`).test(t)));

// The environment note names the working directory (its heading alone is also a section of later
// releases' static prompt); an agent mention's note names the agent in quotes, as neither the
// agent listing (`- Explore:`) nor the prompt (`@agent-Explore`) does.
const ENVIRONMENT = /Primary working directory:/;
const AGENT_MENTION = /"Explore"/;
const inSystemPrompt = (body, pattern) => body.system.some((block) => pattern.test(block.text));

/** Where `pattern` first matches among the request's messages: [message, block, offset]. */
function place(body, pattern) {
  for (const [i, message] of body.messages.entries()) {
    for (const [j, text] of texts(message).entries()) if (text.search(pattern) >= 0) return [i, j, text.search(pattern)];
  }
  return undefined;
}

/** Whether the environment note comes before the agent mention's note; undefined without both. */
function environmentFirst(body) {
  const [environment, mention] = [place(body, ENVIRONMENT), place(body, AGENT_MENTION)];
  if (!environment || !mention) return undefined;
  return (environment[0] - mention[0] || environment[1] - mention[1] || environment[2] - mention[2]) < 0;
}

/**
 * Each mechanism: what it reads from one release's probe run, `true` on the newer side, or
 * `undefined` when the run cannot tell (a release whose summary request the mock did not
 * recognise sends no compaction to read; a probe whose premise the release does not meet).
 * @type {Record<string, { what: string, test: (run: Record<string, any>) => boolean | undefined }>}
 */
const MECHANISMS = {
  systemRoleMessage: {
    what: "the harness's notes (environment, date, listings) travel in a `role: \"system\"` message after the turn's user message",
    test: (run) => mainBodies(run, 'mention-file')[0].messages.some((m) => m.role === 'system'),
  },
  environmentOutOfSystemPrompt: {
    what: 'the system prompt has no environment block (3 system blocks, not 4)',
    test: (run) => mainBodies(run, 'mention-file')[0].system.length < 4,
  },
  globGrepTodoWriteDropped: {
    what: 'Glob, Grep and TodoWrite are not offered',
    test: (run) => !mainBodies(run, 'mention-file')[0].tools.some((t) => ['Glob', 'Grep', 'TodoWrite'].includes(t.name)),
  },
  deferredToolsListed: {
    what: 'the deferred tools are listed by name in the messages (WebFetch among them)',
    test: (run) => mainBodies(run, 'mention-file')[0].messages.some((m) => texts(m).some((t) => /(^|\n)WebFetch(\n|$)/.test(t))),
  },
  agentTypesListed: {
    what: "the agent types are listed in the messages (Explore's entry among them)",
    test: (run) => mainBodies(run, 'mention-file')[0].messages.some((m) => texts(m).some((t) => /(^|\n)- Explore: /.test(t))),
  },
  rementionSmallFilesOnly: {
    what: 'a re-mention of a file read whole is left out only up to 4,096 bytes: one of 4,097 is sent again',
    test: (run) => {
      const [first, last] = [mainBodies(run, 'remention-size3')[0], mainBodies(run, 'remention-size3').at(-1)];
      if (!first || first === last) return undefined;
      // The second prompt names the file once more; sent again, it is attached once more too.
      const named = (body) => JSON.stringify(body.messages).split('s4097.txt').length - 1;
      return named(last) - named(first) > 1;
    },
  },
  maxTokens128k: {
    what: '`max_tokens` is 128,000 (32,000 before)',
    test: (run) => mainBodies(run, 'mention-file')[0].max_tokens === 128000,
  },
  writesNeedNoRead: {
    what: 'an Edit of a file never read applies (no "read it first" error)',
    test: (run) => {
      const bodies = mainBodies(run, 'write-rules');
      const edit = bodies.flatMap((b) => b.messages).flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).find((b) => b.type === 'tool_use' && b.name === 'Edit');
      const result = bodies.flatMap((b) => b.messages).flatMap((m) => (typeof m.content === 'string' ? [] : m.content)).find((b) => b.type === 'tool_result' && b.tool_use_id === edit?.id);
      return result !== undefined && result.is_error !== true;
    },
  },
  summaryFirstWithKeptRecords: {
    what: "a compaction's summary opens the messages and the latest record is kept after it",
    test: (run) => {
      const body = afterCompact(run, 'compact-manual');
      if (!body) return undefined;
      const opening = body.messages.findIndex((m) => texts(m).some((t) => t.includes(SUMMARY_TEXT)));
      return opening === 0 && body.messages.slice(1).some((m) => m.role === 'assistant');
    },
  },
  toolsUsedBeforeSummary: {
    what: 'the summary message names the tools used before it (`<tools-used-before-summary>`)',
    test: (run) => {
      const body = afterCompact(run, 'compact-manual');
      return body && texts(body.messages[0]).some((t) => t.includes('<tools-used-before-summary>'));
    },
  },
  promptTooLongKeepsTurns: {
    what: 'a summary request refused as too long is retried with its last turns cut off, not its oldest rounds',
    test: (run) => {
      const summaries = run['compact-prompt-too-long'].requests.filter((r) => r.role === 'summary').map((r) => r.body.messages);
      const [first, last] = [summaries[0], summaries.at(-1)];
      if (!first || !last) return undefined;
      return JSON.stringify(first[0]) === JSON.stringify(last[0]) && last.length < first.length;
    },
  },
  nestedStampedWithMtime: {
    what: 'a nested memory file enters the read-file state stamped with its mtime, not the moment it loaded: after a /compact a rules file older than the files read since is not restored',
    test: (run) => {
      const body = afterCompact(run, 'nested-memory-restore');
      // The recently touched rules file is restored under either stamp: without it the restore
      // leaves nested memory out for some other reason, and the stamp cannot be read.
      if (!body || !restores(body, 'src/web/CLAUDE.md')) return undefined;
      return !restores(body, 'src/api/CLAUDE.md');
    },
  },
  environmentInMessages: {
    what: 'the environment note travels in the messages, not in the system prompt',
    test: (run) => !inSystemPrompt(mainBodies(run, 'mention-file')[0], ENVIRONMENT),
  },
  compactAttachesEnvironment: {
    what: "a typed /compact attaches the environment note itself: after it the note precedes the next prompt's own notes (an agent mention's), which precede it in a turn's pass",
    test: (run) => {
      const body = afterCompact(run, 'compact-env');
      if (!body) return undefined;
      // An environment in the system prompt is no note for the /compact to attach.
      if (inSystemPrompt(body, ENVIRONMENT)) return false;
      // A pass that put the prompt's notes after the environment could not tell whose it is.
      if (environmentFirst(mainBodies(run, 'compact-env')[0]) !== false) return undefined;
      return environmentFirst(body);
    },
  },
  terminalDesignSync: {
    what: 'the terminal UI offers the DesignSync tool (among the deferred tools, where they are listed), which print mode does not',
    // Named anywhere in the first request: a release that defers no tools offers it in full.
    test: (run) => JSON.stringify(mainBodies(run, `${TERMINAL}mention-file`)[0]).includes('DesignSync'),
  },
  terminalGuideAgent: {
    what: 'the terminal UI offers the claude-code-guide agent type, which print mode does not',
    test: (run) => JSON.stringify(mainBodies(run, `${TERMINAL}mention-file`)[0]).includes('claude-code-guide'),
  },
  firstResponseUsageIgnored: {
    what: "the usage the session's first response reports is not read: reporting 70,000 of an 80,000-token window compacts only after the second response reports it too",
    // 2.1.88 compacts before the second request, a release that skips the first usage before the third.
    test: (run) => ({ 1: false, 2: true })[mainsBeforeSummary(run, 'usage-first-response')],
  },
  padEstimateAfterUsage: {
    what: 'the estimate of what follows the last reported usage is padded by a third: 77,500 reported and a Read of about 15,000 estimated tokens compact in a 128,000-token window',
    test: (run) => {
      const requests = run['usage-estimate-padding'].requests;
      // The large Read must have reached the model whole: an error result adds too little to tell.
      const read = requests.flatMap((r) => contentBlocks(r.body)).some((b) => b.type === 'tool_result' && b.tool_use_id === 'toolu_002' && !b.is_error && JSON.stringify(b.content).length > 50000);
      if (!read) return undefined;
      const before = mainsBeforeSummary(run, 'usage-estimate-padding');
      // No compaction at all: the Read's result was counted as it is.
      return before === undefined ? false : before === 2 ? true : undefined;
    },
  },
  minThresholdWindow: {
    what: 'the window the auto-compact threshold is computed from is at least 100,000 tokens: an 80,000-token window compacts at 70,000 reported, not at 50,000 or 65,000',
    // After the second response: a threshold of 47,000; after the fourth: between 65,000 and 70,000.
    test: (run) => ({ 2: false, 4: true })[mainsBeforeSummary(run, 'usage-window-floor')],
  },
};

const parts = (v) => v.split('.').map(Number);
const order = (a, b) => parts(a)[0] - parts(b)[0] || parts(a)[1] - parts(b)[1] || parts(a)[2] - parts(b)[2];
const npmVersions = (name) => JSON.parse(execFileSync('npm', ['view', name, 'versions', '--json'], { encoding: 'utf8' }));

/** The published releases from `from` to `to`, oldest first (npm's list, pre-releases left out). */
function releasesBetween(from, to) {
  return npmVersions(WRAPPER)
    .filter((v) => /^\d+\.\d+\.\d+$/.test(v) && order(v, from) >= 0 && order(v, to) <= 0)
    .sort(order);
}

let nativeBuilds;

/** The release's client, installed under target/ on first use: its native binary, or its cli.js. */
function install(version) {
  const dir = join(INSTALLS, version);
  const binary = join(dir, 'node_modules', NATIVE, 'claude');
  const script = join(dir, 'node_modules', WRAPPER, 'cli.js');
  for (const client of [binary, script]) if (existsSync(client)) return client;
  nativeBuilds ??= new Set(npmVersions(NATIVE));
  mkdirSync(dir, { recursive: true });
  const native = nativeBuilds.has(version);
  // --ignore-scripts: the wrapper's postinstall would fetch a native build of its own.
  execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', '--ignore-scripts', `${native ? NATIVE : WRAPPER}@${version}`], { stdio: 'ignore' });
  const client = native ? binary : script;
  // npm drops the vendored ripgrep's execute bit, as in the lab's own pin (Makefile).
  const rg = join(dir, 'node_modules', WRAPPER, 'vendor/ripgrep/x64-linux/rg');
  if (existsSync(rg)) chmodSync(rg, 0o755);
  if (!existsSync(client)) throw new Error(`Claude Code ${version}: no native build for linux-x64 and no cli.js in ${WRAPPER}@${version}`);
  return client;
}

const probed = new Map();

/** One release's side of every mechanism (kept beside its recordings, so a rerun resumes). */
async function probe(version) {
  if (probed.has(version)) return probed.get(version);
  // A finished probe's recordings are read again rather than played again.
  // A scenario played to its end (marked `done`) is read again rather than played again.
  const run = {};
  for (const name of PROBES) {
    const recordDir = join(RECORDINGS, version, name);
    const done = join(recordDir, 'done');
    if (existsSync(done)) {
      run[name] = { requests: recorded(recordDir) };
      continue;
    }
    const interactive = name.startsWith(TERMINAL);
    const file = `${interactive ? name.slice(TERMINAL.length) : name}.json`;
    const scenario = JSON.parse(readFileSync(existsSync(join(OWN_PROBES, file)) ? join(OWN_PROBES, file) : join(LAB, file), 'utf8'));
    rmSync(recordDir, { recursive: true, force: true });
    const stepTimes = scenario.steps.map((_, i) => 1764547200000 + i * 1000);
    run[name] = await driveClaude(scenario, { recordDir, stepTimes, usage: scriptedUsage(scenario), client: install(version), interactive });
    writeFileSync(done, '');
  }
  const sides = Object.fromEntries(Object.entries(MECHANISMS).map(([name, { test }]) => [name, test(run)]));
  probed.set(version, sides);
  const unknown = Object.entries(sides).filter(([, v]) => v === undefined).map(([k]) => k);
  console.log(`probed ${version}: ${Object.entries(sides).filter(([, v]) => v).map(([k]) => k).join(', ') || '(none of the changes)'}${unknown.length ? `; cannot tell ${unknown.join(', ')}` : ''}`);
  return sides;
}

/**
 * The usage the mock reports for each main-loop request: the one its answering `assistant` step
 * gives (run.mjs reads the same field), else the mock's rough count. The probes' sessions send
 * one main-loop request per scripted answer, compacted or not, so the n-th request is answered
 * by the n-th `assistant` step.
 * @returns {(mainIndex: number) => import('./mock-anthropic.mjs').ProviderUsage | undefined}
 */
function scriptedUsage(scenario) {
  const given = scenario.steps.filter((step) => step.kind === 'assistant').map((step) => step.usage);
  return (i) =>
    given[i] && {
      input_tokens: given[i].inputTokens ?? 0,
      cache_creation_input_tokens: given[i].cacheCreationTokens ?? 0,
      cache_read_input_tokens: given[i].cacheReadTokens ?? 0,
      output_tokens: given[i].outputTokens ?? 0,
    };
}

/** The main-loop and summary requests a probe recorded, in order. */
function recorded(recordDir) {
  return readdirSync(recordDir)
    .filter((f) => /^\d+\.json$/.test(f))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(recordDir, f), 'utf8')));
}

await bisectCommand({ mechanisms: MECHANISMS, probe, releasesBetween, from: '2.1.88', to: '2.1.332' });
