// Which Claude Code release first shows each change between two releases (docs/versions.md,
// "Claude Code 2.1.88 → 2.1.332"). Every published release between FROM and TO (npm's list)
// can be probed: the probe installs one into target/claude-releases/<version>/ (never into the
// lab's pins) — the native build from its platform package where one was published, else the
// npm wrapper's JavaScript build — plays a few lab scenarios through it against the mock, and
// reads from its requests which side of each mechanism it is on. A binary search per mechanism
// then finds the first release on TO's side, assuming a mechanism changes once between the two.
// The client's text is only tested for roles, tags, tool names and counts; nothing it sends is
// kept or printed.
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
const INSTALLS = join(ROOT, 'target/claude-releases');
// Outside target/conformance/, whose session logs the import lab reads (crate/tests/import_lab.rs).
const RECORDINGS = join(ROOT, 'target/claude-bisect');
const PROBES = ['mention-file', 'write-rules', 'compact-manual', 'compact-prompt-too-long', 'remention-size3'];
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

/**
 * Each mechanism: what it reads from one release's probe run, `true` on the newer side, or
 * `undefined` when the run cannot tell (a release whose summary request the mock did not
 * recognise sends no compaction to read).
 * @type {Record<string, { what: string, test: (run: Record<string, any>) => boolean }>}
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
    const scenario = JSON.parse(readFileSync(join(LAB, `${name}.json`), 'utf8'));
    rmSync(recordDir, { recursive: true, force: true });
    const stepTimes = scenario.steps.map((_, i) => 1764547200000 + i * 1000);
    run[name] = await driveClaude(scenario, { recordDir, stepTimes, client: install(version) });
    writeFileSync(done, '');
  }
  const sides = Object.fromEntries(Object.entries(MECHANISMS).map(([name, { test }]) => [name, test(run)]));
  probed.set(version, sides);
  const unknown = Object.entries(sides).filter(([, v]) => v === undefined).map(([k]) => k);
  console.log(`probed ${version}: ${Object.entries(sides).filter(([, v]) => v).map(([k]) => k).join(', ') || '(none of the changes)'}${unknown.length ? `; cannot tell ${unknown.join(', ')}` : ''}`);
  return sides;
}

/** The main-loop and summary requests a probe recorded, in order. */
function recorded(recordDir) {
  return readdirSync(recordDir)
    .filter((f) => /^\d+\.json$/.test(f))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(recordDir, f), 'utf8')));
}

await bisectCommand({ mechanisms: MECHANISMS, probe, releasesBetween, from: '2.1.88', to: '2.1.332' });
