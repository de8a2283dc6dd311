// Which Codex release first shows each change between two releases (docs/versions.md, "Codex CLI").
// Every published release between FROM and TO (npm's list) can be probed: the probe installs one
// into target/codex-releases/<version>/ (never into the lab's pins), plays a few lab scenarios
// through it against the mock, and reads from its requests and rollout log which side of each
// mechanism it is on. A binary search per mechanism then finds the first release on TO's side,
// assuming a mechanism changes once between the two (the report says when a probe contradicts it).
// The client's text is only tested for tags and sizes; nothing it sends is kept or printed.
//
//   node tests/conformance/codex-bisect.mjs                       0.139.0 → 0.171.0
//   node tests/conformance/codex-bisect.mjs --from A --to B       other releases
//   node tests/conformance/codex-bisect.mjs --probe VERSION       one release's side of each mechanism
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import { bisectCommand } from './bisect.mjs';
import { BINARY, driveCodex } from './codex-drive.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
const LAB = join(ROOT, 'tests/conformance/codex-scenarios');
const INSTALLS = join(ROOT, 'target/codex-releases');
// Outside target/conformance/, whose session logs the import lab reads (crate/tests/import_lab.rs).
const RECORDINGS = join(ROOT, 'target/codex-bisect');
const PROBES = ['first-turn', 'compaction-pre-turn', 'exec-output', 'personality'];
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

/**
 * Each mechanism: what it reads from one release's probe run, `true` on the newer side.
 * @type {Record<string, { what: string, test: (run: Record<string, any>) => boolean }>}
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
  multiAgentTool: {
    what: 'the multi-agent tool is offered (and `update_plan`, `apply_patch`, `tool_search` are not)',
    test: (run) => (run['first-turn'].requests[0].body.tools ?? []).some((t) => t.name === 'multi_agent_v1'),
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

/** The published releases from `from` to `to`, oldest first (npm's list, pre-releases left out). */
function releasesBetween(from, to) {
  const parts = (v) => v.split('.').map(Number);
  const order = (a, b) => parts(a)[0] - parts(b)[0] || parts(a)[1] - parts(b)[1] || parts(a)[2] - parts(b)[2];
  const all = JSON.parse(execFileSync('npm', ['view', '@openai/codex', 'versions', '--json'], { encoding: 'utf8' }));
  return all.filter((v) => /^\d+\.\d+\.\d+$/.test(v) && order(v, from) >= 0 && order(v, to) <= 0).sort(order);
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

/** One release's side of every mechanism. */
async function probe(version) {
  if (probed.has(version)) return probed.get(version);
  const bin = install(version);
  const run = {};
  for (const name of PROBES) {
    const path = [join(LAB, `${name}.json`), join(LAB, `${name}.mjs`)].find(existsSync);
    const scenario = path.endsWith('.mjs') ? (await import(pathToFileURL(path).href)).default : JSON.parse(readFileSync(path, 'utf8'));
    const recordDir = join(RECORDINGS, version, name);
    rmSync(recordDir, { recursive: true, force: true });
    const stepTimes = scenario.steps.map((_, i) => (scenario.startMs ?? 1764547200000) + i * 1000);
    const result = await driveCodex(scenario, { version, recordDir, stepTimes, keepLogs: true, bin });
    run[name] = { requests: result.requests.filter((r) => r.role === 'main'), ...logTypes(recordDir) };
  }
  const sides = Object.fromEntries(Object.entries(MECHANISMS).map(([name, { test }]) => [name, test(run)]));
  probed.set(version, sides);
  console.log(`probed ${version}: ${Object.entries(sides).filter(([, v]) => v).map(([k]) => k).join(', ') || '(none of the changes)'}`);
  return sides;
}

await bisectCommand({ mechanisms: MECHANISMS, probe, releasesBetween, from: '0.139.0', to: '0.171.0' });
