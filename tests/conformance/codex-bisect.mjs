// Which Codex release first shows each change between two releases (docs/versions.md, "Codex CLI").
// Every published release between FROM and TO (npm's list) can be probed: the probe installs one
// into target/codex-releases/<version>/ (never into the lab's pins), plays a few lab scenarios
// through it against the mock, and reads from its requests and rollout log which side of each
// mechanism it is on. The scenarios are the lab's, or the bisection's own (codex-bisect-probes/:
// sessions only a probe needs, kept out of the lab's comparisons). A binary search per mechanism
// then finds the first release on TO's side, assuming a mechanism changes once between the two
// (the report says when a probe contradicts it). The client's text is only tested for tags, sizes
// and the probes' own texts (their AGENTS.md, their developer instructions); nothing it sends is
// kept or printed.
//
//   node tests/conformance/codex-bisect.mjs                       0.139.0 → 0.171.0
//   node tests/conformance/codex-bisect.mjs --from A --to B       other releases
//   node tests/conformance/codex-bisect.mjs --probe VERSION       one release's side of each mechanism
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bisectCommand } from './bisect.mjs';
import { BINARY, driveCodex } from './codex-drive.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const LAB = join(ROOT, 'tests/conformance/codex-scenarios');
// Scenarios only the bisection plays: the lab's own are compared in every test run, so a probe
// that needs another session gets one here rather than in the lab.
const OWN_PROBES = join(ROOT, 'tests/conformance/codex-bisect-probes');
const INSTALLS = join(ROOT, 'target/codex-releases');
// Outside target/conformance/, whose session logs the import lab reads (crate/tests/import_lab.rs).
const RECORDINGS = join(ROOT, 'target/codex-bisect');
// Names of lab scenarios, or of this tool's own (codex-bisect-probes/, looked up first).
const PROBES = [
  'first-turn',
  'compaction-pre-turn',
  'exec-output',
  'personality',
  'resume-agents-reload',
  'resume-agents-reload-mid-turn',
  'global-agents-md',
  'personality-none-once',
  'web-search-gpt-5-4',
];
// The lab mock's answer to a summary request, which the summary message then carries.
const MOCK_SUMMARY = 'Lab mock: no summary.';

/** The texts of a request's messages, as `{ role, text }`, in order. */
function messages(body) {
  return (body.input ?? []).flatMap((item, at) =>
    item.type === 'message' ? (item.content ?? []).map((part) => ({ at, role: item.role, text: part.text ?? '' })) : [],
  );
}

const first = (texts, test) => texts.findIndex(test);
const opens = (tag) => (m) => m.text.trimStart().startsWith(tag);
const bytes = (text) => Buffer.byteLength(text, 'utf8');
const AGENTS_HEADING = '# AGENTS.md instructions';

/** The base instructions' size: the `instructions` field, or the first developer message once they moved there. */
function baseInstructionsBytes(body) {
  if (body.instructions !== undefined) return bytes(body.instructions);
  const base = messages(body)[0];
  return base?.role === 'developer' ? bytes(base.text) : undefined;
}

/**
 * Which AGENTS.md text messages carry, by the probe's own rules: `true` the rewritten file's,
 * `false` the first one's, `undefined` when none is an AGENTS.md message.
 */
function carriesNewAgentsMd(texts) {
  const docs = texts.filter(opens(AGENTS_HEADING));
  if (docs.some((m) => m.text.includes('New rule 0:'))) return true;
  return docs.some((m) => m.text.includes('Rule 0: keep')) ? false : undefined;
}

/** The messages a compaction put back before the summary in the last request (none when it has no summary). */
function beforeSummary(requests) {
  const texts = messages(requests.at(-1).body);
  const summary = first(texts, (m) => m.text.includes(MOCK_SUMMARY));
  return summary < 0 ? [] : texts.slice(0, summary);
}

/** Whether a probe's `exec_command` outputs were cut in bytes (`true`) or in tokens (`false`); `undefined` when none was cut. */
function cutInBytes(requests) {
  const outputs = requests.flatMap((r) => (r.body.input ?? []).filter((item) => item.type === 'function_call_output').map((item) => String(item.output)));
  if (outputs.some((o) => /…\d+ chars truncated…/.test(o))) return true;
  return outputs.some((o) => /…\d+ tokens truncated…/.test(o)) ? false : undefined;
}

/**
 * Each mechanism: what it reads from one release's probe run, `true` on the newer side.
 * @type {Record<string, { what: string, test: (run: Record<string, any>) => boolean | undefined }>}
 */
const MECHANISMS = {
  baseInstructionsAsDeveloperMessage: {
    what: 'the base instructions travel as the first developer message of `input`, not in `instructions`',
    test: (run) => run['first-turn'].requests[0].body.instructions === undefined,
  },
  skillsBeforePermissions: {
    what: 'the skills list comes before the permissions in the initial context',
    test: (run) => {
      const texts = messages(run['first-turn'].requests[0].body);
      return first(texts, opens('<skills_instructions>')) < first(texts, opens('<permissions instructions>'));
    },
  },
  awsReadOnly: {
    what: "`<filesystem>` keeps each root's `.aws` read-only",
    test: (run) => messages(run['first-turn'].requests[0].body).some((m) => m.text.includes('/.aws</path>')),
  },
  contextBeforeKeptPrompt: {
    what: 'after a pre-turn compaction the initial context sits before the last kept prompt, ahead of the summary',
    test: (run) => {
      const last = run['compaction-pre-turn'].requests.at(-1).body;
      const texts = messages(last);
      return first(texts, opens('<permissions instructions>')) < first(texts, (m) => m.text.includes(MOCK_SUMMARY));
    },
  },
  execTruncationWarning: {
    what: 'a cut `exec_command` output opens with a truncation warning line',
    test: (run) =>
      run['exec-output'].requests.some((r) =>
        (r.body.input ?? []).some((item) => item.type === 'function_call_output' && String(item.output).includes('\nOutput:\nWarning: truncated output')),
      ),
  },
  noPersonalityForLabModel: {
    what: 'a personality chosen between turns sends no `<personality_spec>` to the lab model (gpt-5.3-codex)',
    test: (run) => !run.personality.requests.some((r) => messages(r.body).some(opens('<personality_spec>'))),
  },
  bytesTruncationForLabModel: {
    what: 'the lab model\'s (gpt-5.3-codex) `exec_command` outputs are cut in bytes (`…N chars truncated…`), not in tokens',
    test: (run) => cutInBytes(run['exec-output'].requests),
  },
  multiAgentTool: {
    what: 'the multi-agent tool is offered (and `update_plan`, `apply_patch`, `tool_search` are not)',
    test: (run) => (run['first-turn'].requests[0].body.tools ?? []).some((t) => t.name === 'multi_agent_v1'),
  },
  untitledGlobalAgentsMd: {
    what: 'with only the global AGENTS.md (no project doc), its message is headed `# AGENTS.md instructions` without the cwd',
    test: (run) => {
      const doc = messages(run['global-agents-md'].requests[0].body).find(opens(AGENTS_HEADING));
      return doc && doc.text.trimStart().split('\n')[0].trimEnd() === AGENTS_HEADING;
    },
  },
  agentsReloadOnPreTurnCompaction: {
    what: 'in a resumed thread, the context a pre-turn compaction puts back carries AGENTS.md as the resumed process read it',
    // Only the context put back ahead of the summary counts: a release that sends it after the
    // summary instead (before contextBeforeKeptPrompt) puts none back, and cannot tell.
    test: (run) => carriesNewAgentsMd(beforeSummary(run['resume-agents-reload'].requests)),
  },
  agentsReloadOnMidTurnCompaction: {
    what: 'in a resumed thread, the context a mid-turn compaction puts back carries AGENTS.md as the resumed process read it',
    test: (run) => carriesNewAgentsMd(beforeSummary(run['resume-agents-reload-mid-turn'].requests)),
  },
  personalityFreeBaseInstructions: {
    what: 'the base instructions are the same size whatever the personality chosen before the first prompt (`none` against the default)',
    test: (run) => {
      const [byDefault, none] = [run['first-turn'], run['personality-none-once']].map((r) => baseInstructionsBytes(r.requests[0].body));
      return byDefault === undefined || none === undefined ? undefined : byDefault === none;
    },
  },
  developerInstructionsBeforePermissions: {
    what: 'the developer instructions come before the permissions in the developer bundle',
    test: (run) => {
      const texts = messages(run['global-agents-md'].requests[0].body);
      // The probe's own developer instructions, found by their text.
      const [own, permissions] = [first(texts, (m) => m.text.includes('Prefer small commits.')), first(texts, opens('<permissions instructions>'))];
      return own < 0 || permissions < 0 ? undefined : own < permissions;
    },
  },
  webSearchWithoutContentTypes: {
    what: 'the web search tool offered to gpt-5.4 lists no `search_content_types`',
    test: (run) => {
      const body = run['web-search-gpt-5-4'].requests[0].body;
      const tool = (body.tools ?? []).find((t) => t.type === 'web_search' || t.name === 'web_search');
      return body.model !== 'gpt-5.4' || tool === undefined ? undefined : !('search_content_types' in tool);
    },
  },
  rolloutWorldState: {
    what: 'the rollout log writes `world_state` lines',
    test: (run) => run['first-turn'].logTypes.has('world_state'),
  },
  rolloutTokenUsageRecord: {
    what: 'the rollout log writes `token_usage_record` lines',
    test: (run) => run['first-turn'].logTypes.has('token_usage_record'),
  },
  rolloutPromptAsItemOnly: {
    what: 'the rollout log records a prompt only as a `user` response item (no `user_message` event)',
    test: (run) => !run['first-turn'].eventTypes.has('user_message'),
  },
};

/**
 * The published releases from `from` to `to` that have a linux-x64 build, oldest first (npm's
 * list, pre-releases left out): a few (0.142.1, 0.153.1) were published without one, so `install`
 * has nothing to fetch for them.
 */
function releasesBetween(from, to) {
  const parts = (v) => v.split('.').map(Number);
  const order = (a, b) => parts(a)[0] - parts(b)[0] || parts(a)[1] - parts(b)[1] || parts(a)[2] - parts(b)[2];
  const all = JSON.parse(execFileSync('npm', ['view', '@openai/codex', 'versions', '--json'], { encoding: 'utf8' }));
  const native = new Set(all.filter((v) => v.endsWith('-linux-x64')).map((v) => v.slice(0, -'-linux-x64'.length)));
  return all.filter((v) => /^\d+\.\d+\.\d+$/.test(v) && native.has(v) && order(v, from) >= 0 && order(v, to) <= 0).sort(order);
}

/** The release's native binary, installed under target/ on first use. */
function install(version) {
  const dir = join(INSTALLS, version);
  const bin = join(dir, BINARY);
  if (!existsSync(bin)) {
    mkdirSync(dir, { recursive: true });
    execFileSync('npm', ['install', '--prefix', dir, '--no-save', '--no-audit', '--no-fund', `@openai/codex-linux-x64@npm:@openai/codex@${version}-linux-x64`], { stdio: 'ignore' });
  }
  return bin;
}

/** The line types and event types of the rollout logs a probe kept. */
function logTypes(recordDir) {
  const dir = join(recordDir, 'session-logs');
  const lines = existsSync(dir)
    ? readdirSync(dir)
        .filter((f) => f.endsWith('.jsonl'))
        .flatMap((f) => readFileSync(join(dir, f), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l)))
    : [];
  return {
    logTypes: new Set(lines.map((l) => l.type)),
    eventTypes: new Set(lines.filter((l) => l.type === 'event_msg').map((l) => l.payload?.type)),
  };
}

const probed = new Map();

/** A probe's scenario: this tool's own first, then the lab's (`.json`, or `.mjs` for a generated one). */
async function scenarioNamed(name) {
  const path = [OWN_PROBES, LAB].flatMap((dir) => [join(dir, `${name}.json`), join(dir, `${name}.mjs`)]).find(existsSync);
  if (path === undefined) throw new Error(`no probe scenario ${name} in ${OWN_PROBES} or ${LAB}`);
  return path.endsWith('.mjs') ? (await import(pathToFileURL(path).href)).default : JSON.parse(readFileSync(path, 'utf8'));
}

/** The main-loop requests a finished probe recorded, in order (the mock's `<n>.json` files). */
function recorded(recordDir) {
  return readdirSync(recordDir)
    .filter((f) => /^\d+\.json$/.test(f))
    .sort()
    .map((f) => JSON.parse(readFileSync(join(recordDir, f), 'utf8')))
    .filter((r) => r.role === 'main');
}

/** One release's side of every mechanism (kept beside its recordings, so a rerun resumes). */
async function probe(version) {
  if (probed.has(version)) return probed.get(version);
  const run = {};
  for (const name of PROBES) {
    const recordDir = join(RECORDINGS, version, name);
    // A scenario played to its end (marked `done`) is read again rather than played again.
    const done = join(recordDir, 'done');
    if (existsSync(done)) {
      run[name] = { requests: recorded(recordDir), ...logTypes(recordDir) };
      continue;
    }
    const scenario = await scenarioNamed(name);
    rmSync(recordDir, { recursive: true, force: true });
    const stepTimes = scenario.steps.map((_, i) => (scenario.startMs ?? 1764547200000) + i * 1000);
    const result = await driveCodex(scenario, { version, recordDir, stepTimes, keepLogs: true, bin: install(version) });
    run[name] = { requests: result.requests.filter((r) => r.role === 'main'), ...logTypes(recordDir) };
    writeFileSync(done, '');
  }
  const sides = Object.fromEntries(Object.entries(MECHANISMS).map(([name, { test }]) => [name, test(run)]));
  probed.set(version, sides);
  const unknown = Object.entries(sides).filter(([, v]) => v === undefined).map(([k]) => k);
  console.log(`probed ${version}: ${Object.entries(sides).filter(([, v]) => v).map(([k]) => k).join(', ') || '(none of the changes)'}${unknown.length ? `; cannot tell ${unknown.join(', ')}` : ''}`);
  return sides;
}

await bisectCommand({ mechanisms: MECHANISMS, probe, releasesBetween, from: '0.139.0', to: '0.171.0' });
