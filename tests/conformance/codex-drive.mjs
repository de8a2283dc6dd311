// Plays one scenario through a pinned release of the real Codex CLI: a throw-away root holding the scenario's files
// at their own paths (so `/repo/AGENTS.md` is `<root>/repo/AGENTS.md`), a home with a generated
// CODEX_HOME, `codex exec` for the first prompt and `codex exec resume --last` for each later one
// (so a `resume` step between turns needs no action of its own),
// the model's turns answered by the mock, the edits outside the agent made between turns.
import { spawn } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, realpathSync, rmSync, unlinkSync, utimesSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { startMockResponses } from './codex-mock.mjs';
import { keepSessionLogs } from './session-logs.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
// One directory per pinned release, each with its own lockfile (`make conformance-codex-setup`).
const ORACLES = join(ROOT, 'tests/conformance/oracles-codex');
export const BINARY = 'node_modules/@openai/codex-linux-x64/vendor/x86_64-unknown-linux-musl/bin/codex';

/** The releases pinned in `oracles-codex/`, oldest first. */
export function pinnedReleases() {
  const parts = (version) => version.split('.').map(Number);
  return readdirSync(ORACLES, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(join(ORACLES, entry.name, 'package.json')))
    .map((entry) => entry.name)
    .sort((a, b) => {
      const [x, y] = [parts(a), parts(b)];
      return x[0] - y[0] || x[1] - y[1] || x[2] - y[2];
    });
}

/** The native binary of a pinned release; throws when it is not installed. */
export function codexBinary(version) {
  if (!pinnedReleases().includes(version)) throw new Error(`Codex ${version} is not pinned: the lab has ${pinnedReleases().join(', ')} (tests/conformance/oracles-codex/)`);
  const bin = join(ORACLES, version, BINARY);
  if (!existsSync(bin)) throw new Error(`Codex ${version} is pinned but not installed: run make conformance-codex-setup`);
  return bin;
}
export const DEFAULT_CWD = '/project';
export const DEFAULT_HOME = '/home/user';
const DEFAULT_START_MS = 1764547200000;
const TURN_TIMEOUT_MS = 60_000;
// Outside /tmp, because /tmp is one of workspace-write's writable roots and the workspace must be
// told apart from it, and outside any git repository, because Codex looks for AGENTS.md from the
// nearest `.git` above the cwd down to it: inside this repository it would find ours.
const WORK = '/var/tmp';
// The model the lab's config names: one of the catalogue's, so both sides truncate by tokens.
export const LAB_MODEL = 'gpt-5.3-codex';

// Codex's one tool the scenarios can script: the command runs for real, so its scripted output
// must be what the command prints (the lab's scenarios use printf and cat).
const DRIVABLE_TOOLS = new Set(['exec_command']);
const EXTERNAL_STEPS = new Set(['writeFile', 'deleteFile', 'touch', 'advanceTime']);
const DAY_MS = 86_400_000;
const UNDRIVABLE_SETTINGS = {
  collaborationMode: 'collaboration modes are presets of the app server, not of `codex exec`',
  shell: 'the shell is the machine’s',
  timezone: 'the client reads the machine’s zone (/etc/localtime), not TZ: a resume under TZ=Europe/Paris still said Etc/UTC',
};
// A window becomes `model_context_window` and an auto-compact limit at 90 % of it, the client's
// own ratio. The client compares the limit with the usage the mock reports — a rough count of the
// whole body, instructions and tools included — so its counts run above ours: compaction
// scenarios keep both sides far past the limit (a small window and a large AGENTS.md).
const DRIVABLE_CONFIG = new Set(['contextWindow', 'outputReserve']);
const UNDRIVABLE_CONFIG = {
  skills: 'skills need skill files (the client always lists its bundled ones)',
  utcOffsetMinutes: 'the time zone is set per process (TZ) from turnSettings only',
  autoCompact: 'auto-compaction is always on in the client',
  deny: 'Codex has no deny rules',
};

/**
 * Why the driver cannot replay `scenario`; empty when it can.
 * @param {any} scenario
 * @param {string[]} profiles  the presets that reproduce a Codex release: a scenario written
 *   for any of them plays against every pinned release
 * @returns {string[]}
 */
export function undrivableReasons(scenario, profiles) {
  const reasons = [];
  if (scenario.profile !== undefined && !profiles.includes(scenario.profile)) reasons.push(`profile ${scenario.profile}: the Codex lab plays scenarios of a Codex release's profile (${profiles.join(', ')})`);
  for (const key of Object.keys(scenario.config ?? {})) {
    if (!DRIVABLE_CONFIG.has(key)) reasons.push(`config.${key}: ${UNDRIVABLE_CONFIG[key] ?? 'not wired up'}`);
  }
  let inTurn = false;
  let elapsedInDay = (scenario.startMs ?? DEFAULT_START_MS) % DAY_MS;
  scenario.steps.forEach((step, i) => {
    const at = `steps[${i}]`;
    if (step.kind === 'user') {
      if (step.pastes?.length) reasons.push(`${at}.pastes: paste placeholders are the TUI composer's; \`codex exec\` takes the prompt as given`);
      inTurn = true;
    } else if (step.kind === 'assistant') {
      if (!inTurn) reasons.push(`${at}: an answer before any prompt`);
      for (const block of step.blocks) {
        if (block.type === 'thinking') reasons.push(`${at}: reasoning items are not scripted`);
        if (block.type !== 'tool_use') continue;
        if (!DRIVABLE_TOOLS.has(block.name)) reasons.push(`${at}: tool ${block.name} is not driven (only ${[...DRIVABLE_TOOLS].join(', ')} is driven)`);
        else if (typeof block.output !== 'string') reasons.push(`${at}: exec_command needs the output its command prints, as \`output\``);
      }
      inTurn = step.blocks.some((b) => b.type === 'tool_use');
    } else if (step.kind === 'turnSettings') {
      if (inTurn) reasons.push(`${at}: settings change only between \`codex exec\` runs`);
      for (const key of Object.keys(step)) {
        if (UNDRIVABLE_SETTINGS[key]) reasons.push(`${at}.${key}: ${UNDRIVABLE_SETTINGS[key]}`);
      }
      // The client sends its catalogue's instructions in <model_switch>; the comparator checks
      // only that the switch is there, and our side sends one only with instructions to carry.
      if (step.model !== undefined && !step.modelInstructions) reasons.push(`${at}.model: give modelInstructions too, or our side sends no <model_switch> while the client does`);
      if (step.approvalPolicy !== undefined && step.approvalPolicy !== 'never') reasons.push(`${at}.approvalPolicy: \`codex exec\` forces approval_policy=never`);
    } else if (step.kind === 'resume') {
      // Every later prompt is already `codex exec resume --last`: the step needs no action.
      if (inTurn) reasons.push(`${at}: a resume happens only between \`codex exec\` runs`);
    } else if (EXTERNAL_STEPS.has(step.kind)) {
      if (inTurn) reasons.push(`${at}: ${step.kind} in the middle of a turn cannot be timed from outside`);
      if (step.kind === 'advanceTime') {
        elapsedInDay += step.ms;
        if (elapsedInDay >= DAY_MS) reasons.push(`${at}: the oracle's date is the machine's; a logical day change cannot reach it`);
      }
    } else {
      reasons.push(`${at}: step kind ${step.kind} is not driven yet`);
    }
  });
  return [...new Set(reasons)];
}

/**
 * The turns of a scenario: each prompt with the assistant steps that answer it, the external
 * steps made before it and the settings it runs under. Call ids are the engine's (`toolu_001`, …
 * in scenario order) so both sides name the calls alike.
 */
export function scenarioTurns(scenario) {
  const turns = [];
  let before = [];
  let settings = { sandboxMode: 'workspace-write', networkAccess: false, developerInstructions: undefined };
  let toolCount = 0;
  scenario.steps.forEach((step, index) => {
    if (step.kind === 'user') {
      turns.push({ prompt: step.prompt, before, settings: { ...settings }, answers: [] });
      before = [];
    } else if (step.kind === 'assistant') {
      turns[turns.length - 1].answers.push(
        step.blocks.map((block) => {
          if (block.type === 'text') return { type: 'text', text: block.text };
          toolCount += 1;
          const id = block.id ?? `toolu_${String(toolCount).padStart(3, '0')}`;
          return { type: 'tool_use', id, name: block.name, input: block.input };
        }),
      );
    } else if (step.kind === 'turnSettings') {
      const { kind: _kind, ...changed } = step;
      settings = { ...settings, ...changed };
    } else if (step.kind !== 'resume') {
      before.push({ index, step });
    }
  });
  return turns;
}

/** The command-line overrides that give a turn its settings. */
function settingsArgs(settings) {
  const args = ['-c', `sandbox_mode="${settings.sandboxMode}"`];
  // Our side takes the preset's name as its text; the comparator checks only that the
  // <personality_spec> is there.
  if (typeof settings.personality === 'string') args.push('-c', `personality=${JSON.stringify(settings.personality)}`);
  if (typeof settings.model === 'string') args.push('-c', `model=${JSON.stringify(settings.model)}`);
  if (settings.sandboxMode === 'workspace-write') args.push('-c', `sandbox_workspace_write.network_access=${settings.networkAccess === true}`);
  if (typeof settings.developerInstructions === 'string') args.push('-c', `developer_instructions=${JSON.stringify(settings.developerInstructions)}`);
  return args;
}

/**
 * Plays `scenario` through Codex `version` and returns every request it sent.
 * @param {any} scenario
 * @param {{ version: string, recordDir: string, stepTimes: number[], keepLogs: boolean, bin?: string }} options
 *   `stepTimes`: each step's logical time (ms), as the engine's trace gives it, so both sides
 *   see the same file order; `keepLogs`: copy the rollout logs beside the recordings; `bin`: a
 *   release's binary installed outside the lab's pins (codex-bisect.mjs)
 */
export async function driveCodex(scenario, { version, recordDir, stepTimes, keepLogs, bin = codexBinary(version) }) {
  const root = realpathSync(mkdtempSync(join(WORK, 'codex-lab-')));
  const cwd = scenario.cwd ?? DEFAULT_CWD;
  const home = scenario.home ?? DEFAULT_HOME;
  const mapPath = (path) => {
    if (path === '~' || path.startsWith('~/')) return root + home + path.slice(1);
    return root + (path.startsWith('/') ? path : join(cwd, path));
  };
  const codexHome = mapPath('~/.codex');
  const mock = await startMockResponses({ recordDir });
  const started = Date.now();
  let stderr = '';
  try {
    const files = Array.isArray(scenario.files) ? scenario.files : Object.entries(scenario.files ?? {}).map(([path, content]) => ({ path, content }));
    const startMs = scenario.startMs ?? DEFAULT_START_MS;
    mkdirSync(mapPath(cwd), { recursive: true });
    for (const { path, content } of files) writeWithMtime(mapPath(path), content, startMs);
    mkdirSync(codexHome, { recursive: true });
    writeFileSync(join(codexHome, 'config.toml'), labConfig(mock.url, scenario.config?.contextWindow));
    const turns = scenarioTurns(scenario);
    for (const [n, turn] of turns.entries()) {
      for (const { index, step } of turn.before) applyExternalStep(step, mapPath, stepTimes[index]);
      mock.script(turn.answers);
      const head = n === 0 ? ['exec'] : ['exec', 'resume', '--last'];
      const args = [...head, '--skip-git-repo-check', ...settingsArgs(turn.settings), turn.prompt];
      const run = await runCodex(bin, args, { cwd: mapPath(cwd), home: root + home, codexHome });
      stderr += run.stderr;
      if (run.code !== 0) throw new Error(`codex ${args.join(' ')} exited with ${run.code}: ${run.stderr.slice(-2000)}`);
      if (mock.pending() > 0) throw new Error(`Codex ended the turn "${turn.prompt}" with ${mock.pending()} scripted answers left: ${run.stderr.slice(-2000)}`);
    }
    if (keepLogs) keepSessionLogs(join(codexHome, 'sessions'), recordDir, scenario);
    return { ms: Date.now() - started, root, requests: mock.requests, stderr };
  } finally {
    await mock.close();
    rmSync(root, { recursive: true, force: true });
  }
}

/** The generated `config.toml`: the lab's model through a provider that is the mock. */
function labConfig(baseUrl, contextWindow) {
  const window = contextWindow === undefined ? [] : [`model_context_window = ${contextWindow}`, `model_auto_compact_token_limit = ${Math.floor((contextWindow * 9) / 10)}`];
  return [
    `model = "${LAB_MODEL}"`,
    'model_provider = "lab"',
    ...window,
    '',
    '[model_providers.lab]',
    'name = "conformance lab mock"',
    `base_url = "${baseUrl}"`,
    'wire_api = "responses"',
    'env_key = "LAB_API_KEY"',
    '',
  ].join('\n');
}

function runCodex(bin, args, { cwd, home, codexHome }) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(bin, args, {
      cwd,
      env: { PATH: process.env.PATH, HOME: home, CODEX_HOME: codexHome, LAB_API_KEY: 'dummy', TZ: 'Etc/UTC' },
      stdio: ['pipe', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stdout.resume();
    child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`no end within ${TURN_TIMEOUT_MS} ms for codex ${args.join(' ')}: ${stderr.slice(-2000)}`));
    }, TURN_TIMEOUT_MS);
    child.on('close', (code) => (clearTimeout(timer), resolveRun({ code, stderr })));
    child.stdin.end();
  });
}

function writeWithMtime(path, content, ms) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  utimesSync(path, ms / 1000, ms / 1000);
}

function applyExternalStep(step, mapPath, logicalMs) {
  switch (step.kind) {
    case 'writeFile':
      return writeWithMtime(mapPath(step.path), step.content, logicalMs);
    case 'deleteFile':
      return unlinkSync(mapPath(step.path));
    case 'touch': {
      const path = mapPath(step.path);
      return writeWithMtime(path, readFileSync(path), logicalMs);
    }
    case 'advanceTime':
      return undefined; // the clock only moves the mtimes of later steps, read from the trace
    default:
      throw new Error(`no external step ${step.kind}`);
  }
}
