// Plays one scenario through the real Claude Code: a throw-away workspace and home, the
// scenario's files and deny rules written into them, the prompts typed in as stream-json, the
// model's turns answered by the mock, the edits outside the agent made between turns, mode
// changes sent as control requests, plan approvals given through the stdio permission prompt,
// and `/compact` typed like a prompt.
import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, mkdirSync, mkdtempSync, realpathSync, renameSync, rmSync, statSync, unlinkSync, utimesSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { FIXED_SUMMARY, startMockAnthropic } from './mock-anthropic.mjs';
import { keepSessionLogs } from './session-logs.mjs';
import { claudeOracle, CURRENT_CLAUDE } from './claude-oracles.mjs';
import { startTerminalClient } from './claude-terminal.mjs';

export const DEFAULT_CWD = '/project';
export const DEFAULT_HOME = '/home/user';
export const DEFAULT_PLAN_FILE = '~/.claude/plans/plan.md';
const DEFAULT_START_MS = 1764547200000;
/** Whether the release's vendored rg runs, asked once per release (see startClient). */
const vendoredRgRuns = new Map();
function ripgrepRuns(/** @type {import('./claude-oracles.mjs').ClaudeOracle} */ oracle) {
  if (!oracle.ripgrep) return true;
  if (!vendoredRgRuns.has(oracle.ripgrep)) {
    try {
      accessSync(oracle.ripgrep, constants.X_OK);
      vendoredRgRuns.set(oracle.ripgrep, true);
    } catch {
      console.warn(`${oracle.ripgrep} is not executable (make conformance-setup fixes that): the system rg is used, and Glob's order may differ`);
      vendoredRgRuns.set(oracle.ripgrep, false);
    }
  }
  return vendoredRgRuns.get(oracle.ripgrep);
}
const TURN_TIMEOUT_MS = 90_000;
// Claude Code reserves min(the model's output limit, 20,000) tokens of the window (§9.1); for
// every Claude 4 model that is 20,000, and no flag changes it.
export const CLIENT_OUTPUT_RESERVE = 20_000;

// What the driver can replay. Everything else is refused with the reason, so the runner can
// list what the lab does not cover yet.
// Read, Edit, Write, Glob, Grep and TodoWrite run for real in the temp workspace; Bash runs for
// real too, told to print the scenario's scripted output (printf), so its result is the
// scenario's; ExitPlanMode's approval is the answer to the client's permission prompt.
const DRIVABLE_TOOLS = new Set(['Read', 'Edit', 'Write', 'Glob', 'Grep', 'TodoWrite', 'Bash', 'ExitPlanMode']);
const EXTERNAL_STEPS = new Set(['writeFile', 'deleteFile', 'rename', 'touch', 'advanceTime']);
const DRIVABLE_MODES = new Set(['default', 'acceptEdits', 'plan']);
const UNDRIVABLE_CONFIG = {
  mcpResources: 'MCP servers would have to be real processes the client connects to',
  agents: 'custom agents need agent definition files',
  additionalDirectories: '--add-dir is not wired up yet',
  tools: 'the client offers its own built-in tools; custom tool lists need an MCP server',
  deferredTools: 'deferred tools come from MCP servers',
  skills: 'skills need skill files (the client always lists its bundled ones)',
  mcpServers: 'MCP servers would have to be real processes',
  systemPrompt: 'the client writes its own system prompt',
  gitStatus: 'the workspace is not a git repository',
  utcOffsetMinutes: 'the time zone is the machine’s',
  outputStyle: 'output styles need settings files; not wired up',
  tokenUsageReminder: 'needs CLAUDE_CODE_ENABLE_TOKEN_USAGE_ATTACHMENT; not wired up',
  budgetUsdCents: 'budget reminders are not wired up',
  outputTokenBudget: 'output budgets are not wired up',
  disableAttachments: '--bare is not wired up',
  autoModeAvailable: 'auto mode is an internal build feature',
  compactionReminders: 'compaction reminders are an internal build feature',
  interviewMode: 'interview mode is not wired up',
  planFile: 'the client names its plan file with a random word slug; the lab maps the default one onto it',
  memoryDir: 'auto-memory surfacing needs a side query the mock does not model',
  pinned: 'pinned files are ours (recommended profile only)',
};

/**
 * Why the driver cannot replay `scenario`; empty when it can.
 * @param {any} scenario
 * @returns {string[]}
 */
export function undrivableReasons(scenario) {
  const reasons = [];
  if (scenario.profile === 'codex') reasons.push('profile codex: the Codex lab (codex-run.mjs) plays it');
  if (scenario.profile === 'recommended') reasons.push('profile recommended: it shows what our own profile changes, which no client does');
  const config = scenario.config ?? {};
  for (const key of Object.keys(config)) {
    if (UNDRIVABLE_CONFIG[key]) reasons.push(`config.${key}: ${UNDRIVABLE_CONFIG[key]}`);
  }
  if (config.contextWindow !== undefined && (config.outputReserve ?? 20_000) !== CLIENT_OUTPUT_RESERVE) {
    reasons.push(`config.outputReserve: the client reserves ${CLIENT_OUTPUT_RESERVE} tokens for every Claude 4 model; no flag changes it`);
  }
  if (config.contextWindow !== undefined && config.contextWindow <= CLIENT_OUTPUT_RESERVE + 13_000) {
    reasons.push('config.contextWindow: the client needs a window above the output reserve and the auto-compact buffer (33,000 tokens)');
  }
  if (scenarioRoot(scenario) === '/') reasons.push('files: the scenario names paths with no directory in common besides /, which the temp workspace cannot stand for');
  if (config.permissionMode !== undefined && !DRIVABLE_MODES.has(config.permissionMode)) {
    reasons.push(`config.permissionMode: ${config.permissionMode} is not driven (${[...DRIVABLE_MODES].join(', ')} are)`);
  }
  let inTurn = false;
  scenario.steps.forEach((step, i) => {
    const at = `steps[${i}]`;
    if (step.kind === 'user') {
      if (step.memories) reasons.push(`${at}.memories: relevant-memory selection is a side query the mock does not model`);
      inTurn = true;
    } else if (step.kind === 'assistant') {
      if (!inTurn) reasons.push(`${at}: an answer before any prompt`);
      for (const block of step.blocks) {
        if (block.type === 'thinking') reasons.push(`${at}: thinking blocks need signatures the mock cannot forge`);
        if (block.type !== 'tool_use') continue;
        if (!DRIVABLE_TOOLS.has(block.name)) reasons.push(`${at}: tool ${block.name} is not driven yet (only ${[...DRIVABLE_TOOLS].join(', ')})`);
        else if (block.name === 'Bash' && typeof block.output !== 'string') reasons.push(`${at}: a Bash call without a scripted output awaits a toolResults step, which is not driven`);
        else if (block.name !== 'Bash' && block.output !== undefined) reasons.push(`${at}: a scripted output cannot be imposed on the real ${block.name}`);
      }
      inTurn = step.blocks.some((b) => b.type === 'tool_use');
    } else if (EXTERNAL_STEPS.has(step.kind)) {
      if (inTurn) reasons.push(`${at}: ${step.kind} in the middle of a turn (between tool rounds) cannot be timed from outside`);
    } else if (step.kind === 'setMode') {
      if (inTurn) reasons.push(`${at}: a mode change in the middle of a turn cannot be timed from outside`);
      if (!DRIVABLE_MODES.has(step.mode)) reasons.push(`${at}: mode ${step.mode} is not driven (${[...DRIVABLE_MODES].join(', ')} are)`);
    } else if (step.kind === 'compact') {
      if (inTurn) reasons.push(`${at}: /compact in the middle of a turn cannot be typed`);
      if ((step.policy ?? 'claude-code.full') !== 'claude-code.full') reasons.push(`${at}: policy ${step.policy} is not the client's /compact`);
      if ((step.trigger ?? 'manual') !== 'manual') reasons.push(`${at}: a host-triggered (auto) compaction has no command in the client`);
    } else {
      reasons.push(`${at}: step kind ${step.kind} is not driven yet`);
    }
  });
  return [...new Set(reasons)];
}

/** The command the client's Bash runs so that it prints `output` exactly. */
export function printfCommand(output) {
  return `printf '%s' '${output.replaceAll("'", "'\\''")}'`;
}

/**
 * The scenario as a list of actions for the client: prompts with the assistant steps that
 * answer them, outside edits, mode changes and compactions, in order. Tool-use ids are the
 * engine's (`toolu_001`, … in scenario order) so both sides name the calls alike.
 */
export function scenarioActions(scenario) {
  const actions = [];
  let toolCount = 0;
  scenario.steps.forEach((step, index) => {
    if (step.kind === 'assistant') {
      const turn = actions[actions.length - 1];
      turn.answers.push(
        step.blocks.map((block) => {
          if (block.type === 'text') return { type: 'text', text: block.text };
          toolCount += 1;
          const id = block.id ?? `toolu_${String(toolCount).padStart(3, '0')}`;
          return { type: 'tool_use', id, name: block.name, input: block.input, output: block.output, approval: block.approval };
        }),
      );
    } else if (step.kind === 'user') actions.push({ kind: 'prompt', index, prompt: step.prompt, answers: [] });
    else actions.push({ kind: step.kind, index, step });
  });
  return actions;
}

/**
 * Whether a release that looks for a `.git` above its working directory (2.1.332) takes the
 * lab's workspaces for a repository: a `.git` left in the temp directory or above it makes it
 * so on some machines. The lab tells our engine the same (run.mjs), so the comparison does not
 * depend on the machine.
 */
export function workspacesLookLikeRepository() {
  for (let dir = realpathSync(tmpdir()); ; dir = dirname(dir)) {
    if (existsSync(join(dir, '.git'))) return true;
    if (dirname(dir) === dir) return false;
  }
}

/**
 * Whether the scenario's own files make its workspace a repository for a release that looks
 * for a `.git` above its working directory (2.1.332): a `.git/…` file in the cwd or in a
 * directory above it that the temp workspace holds (see scenarioRoot).
 */
export function scenarioHasRepository(scenario) {
  const cwd = scenario.cwd ?? DEFAULT_CWD;
  const root = scenarioRoot(scenario);
  const files = Array.isArray(scenario.files) ? scenario.files.map((f) => f.path) : Object.keys(scenario.files ?? {});
  return files.some((path) => {
    const at = path.indexOf('.git/');
    if (at < 0 || (at > 0 && path[at - 1] !== '/')) return false;
    const dir = path.startsWith('/') ? path.slice(0, Math.max(at - 1, 1)) : join(cwd, path.slice(0, at)).replace(/\/$/, '') || '/';
    const holdsCwd = dir === cwd || cwd.startsWith(dir === '/' ? '/' : dir + '/');
    return holdsCwd && (dir === root || dir.startsWith(root === '/' ? '/' : root + '/'));
  });
}

/**
 * Plays `scenario` through Claude Code and returns every request it sent.
 * @param {any} scenario
 * @param {{ recordDir: string, stepTimes: number[], usage?: (mainIndex: number) => number | import('./mock-anthropic.mjs').ProviderUsage | undefined, eagerMemory?: string[], client?: string }} options
 *   `client`: the release to play (claude-oracles.mjs; the current one by default); `stepTimes`: each step's logical time (ms), as the engine's trace gives it, so both sides
 *   see the same clock; `usage`: the input tokens the mock reports (see mock-anthropic.mjs);
 *   `eagerMemory`: the memory files of the user context (scenario paths), which the
 *   interactive client puts in its read-file state at startup (§4.4) and `-p` does not: the
 *   lab seeds them, as they would be
 */
export async function driveClaude(scenario, { recordDir, stepTimes, usage, eagerMemory = [], client: version = CURRENT_CLAUDE, interactive = false }) {
  const oracle = claudeOracle(version);
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'lab-ws-')));
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'lab-home-')));
  const cwd = scenario.cwd ?? DEFAULT_CWD;
  const scenarioHome = scenario.home ?? DEFAULT_HOME;
  // The temp workspace stands for the scenario's root: the cwd, or the directory above it that
  // holds the scenario's other files (an ancestor's CLAUDE.md).
  const root = scenarioRoot(scenario);
  const clientCwd = workspace + cwd.slice(root.length);
  const mapPath = (path) => {
    if (path === '~' || path.startsWith('~/')) return home + path.slice(1);
    if (path === scenarioHome || path.startsWith(scenarioHome + '/')) return home + path.slice(scenarioHome.length);
    if (path === root || path.startsWith(root === '/' ? '/' : root + '/')) return workspace + path.slice(root.length);
    return path.startsWith('/') ? path : join(clientCwd, path);
  };
  // The client names its plan file `~/.claude/plans/<random words>.md`; the lab learns the name
  // from the first request that carries it and sends the scenario's plan-file writes there.
  const plan = { scenario: mapPath(DEFAULT_PLAN_FILE), real: /** @type {string | undefined} */ (undefined) };
  const planPattern = new RegExp(`${escapeRegExp(home)}/\\.claude/plans/[A-Za-z0-9_-]+\\.md`);
  const mock = await startMockAnthropic({ recordDir, usage });
  mock.watch((body) => {
    if (plan.real) return;
    const found = planPattern.exec(JSON.stringify(body));
    if (found) plan.real = found[0];
  });
  const mapInput = (name, input, output) => {
    const mapped = { ...input };
    if (typeof mapped.file_path === 'string') {
      mapped.file_path = mapPath(mapped.file_path);
      if (mapped.file_path === plan.scenario && plan.real) mapped.file_path = plan.real;
    }
    if (typeof mapped.path === 'string') mapped.path = mapPath(mapped.path);
    if (name === 'Bash') mapped.command = printfCommand(output);
    return mapped;
  };
  const started = Date.now();
  /** @type {ReturnType<typeof startClient> | ReturnType<typeof startTerminalClient> | undefined} */
  let client;
  try {
    const files = Array.isArray(scenario.files) ? scenario.files : Object.entries(scenario.files ?? {}).map(([path, content]) => ({ path, content }));
    const startMs = scenario.startMs ?? DEFAULT_START_MS;
    for (const { path, content } of files) writeWithMtime(mapPath(path), content, startMs);
    // Absolute deny rules (`//path`) name the scenario's paths; the client's are the temp ones.
    const settings = claudeSettings(scenario, (rule) => rule.replace(/\(\/\/([^)]*)\)/, (_, path) => `(/${mapPath('/' + path)})`));
    if (settings) writeWithMtime(join(clientCwd, '.claude/settings.json'), settings, startMs);
    const approvals = new Map();
    // The lab's own idea of the mode, to answer permission prompts as a user would.
    const startMode = scenario.config?.permissionMode ?? 'acceptEdits';
    let mode = startMode;
    let beforePlan = startMode === 'plan' ? 'default' : startMode;
    mkdirSync(clientCwd, { recursive: true });
    client = interactive
      ? startTerminalClient(oracle, clientCwd, home, mock, clientEnv(scenario), startMode)
      : startClient(oracle, clientCwd, home, mock.url, clientEnv(scenario), startMode, (request) => {
      // The permission prompt: a plan's approval as scripted; in plan mode a change to a file
      // is declined, as the user who asked for a plan would (the client asks rather than
      // refusing); anything else (Bash) is allowed.
      const approval = approvals.get(request.tool_use_id);
      if (request.tool_name === 'ExitPlanMode' && approval) {
        if (approval.approved) {
          mode = beforePlan;
          return { behavior: 'allow', updatedInput: request.input };
        }
        if (approval.feedback) return { behavior: 'deny', message: approval.feedback };
        return { behavior: 'deny', message: 'The user rejected the plan.', interrupt: true };
      }
      if (mode === 'plan' && ['Edit', 'Write', 'NotebookEdit'].includes(request.tool_name) && request.input?.file_path !== plan.real) {
        return { behavior: 'deny', message: 'Declined: plan mode is on.' };
      }
      return { behavior: 'allow', updatedInput: request.input };
    });
    // The interactive client seeds its read-file state itself, at startup.
    let seeded = interactive;
    for (const action of scenarioActions(scenario)) {
      if (action.kind === 'prompt' && !seeded) {
        // The interactive client's startup (REPL onInit): every eager memory file enters the
        // read-file state stamped with one `Date.now()`, whatever its mtime. `seed_read_state`
        // stamps an entry with the file's mtime at that moment, so each file is given that
        // moment as its mtime for the seed, then its own mtime back.
        seeded = true;
        // Startup comes after the outside writes that precede the first prompt (the engine seeds
        // at the last millisecond before the first turn): an outside write stamped in this very
        // millisecond would tie with the seed and make the restore order a matter of timing.
        await sleep(5);
        const now = Date.now();
        for (const path of eagerMemory) {
          const file = mapPath(path);
          let mtime;
          try {
            mtime = statSync(file).mtime;
            utimesSync(file, now / 1000, now / 1000);
          } catch {
            continue;
          }
          await client.control({ subtype: 'seed_read_state', path: file, mtime: now });
          utimesSync(file, mtime, mtime);
        }
      }
      if (action.kind === 'prompt') {
        // Each answer is made when its request comes: the plan file's name is known by then.
        mock.script(
          action.answers.map((blocks) => () =>
            blocks.map((block) => {
              if (block.type !== 'tool_use') return block;
              if (block.approval) approvals.set(block.id, block.approval);
              return { type: 'tool_use', id: block.id, name: block.name, input: mapInput(block.name, block.input, block.output) };
            }),
          ),
        );
        const stopsTurn = action.answers.some((blocks) => blocks.some((b) => b.approval && !b.approval.approved && !b.approval.feedback));
        await client.send(action.prompt, { mayFail: stopsTurn });
        // A rejection without feedback interrupts the turn: the answers after it are not asked for.
        if (stopsTurn) mock.clear();
        if (mock.pending() > 0) throw new Error(`the client ended the turn "${action.prompt}" with ${mock.pending()} scripted answers left: ${client.stderr()}`);
      } else if (action.kind === 'setMode') {
        if (action.step.mode === 'plan' && mode !== 'plan') beforePlan = mode;
        mode = action.step.mode;
        await client.setMode(action.step.mode);
      } else if (action.kind === 'compact') {
        // The client sends a refused forked summary request again through its streaming path,
        // with the same messages, before it counts a prompt-too-long retry (seen in the lab):
        // one refusal of the summary is two refused requests.
        for (const refusal of action.step.promptTooLong ?? []) mock.scriptRefusal(refusal), mock.scriptRefusal(refusal);
        mock.scriptSummary(action.step.summary ?? FIXED_SUMMARY);
        await client.send(`/compact${action.step.instructions ? ` ${action.step.instructions}` : ''}`);
      } else {
        await applyExternalStep(action.step, mapPath, stepTimes[action.index]);
      }
    }
    await client.close();
    keepSessionLogs(join(home, '.claude/projects'), recordDir, scenario);
    return {
      ms: Date.now() - started,
      workspace,
      root,
      home,
      planFile: plan.real,
      requests: mock.requests,
      stderr: client.stderr(),
    };
  } finally {
    client?.kill();
    await mock.close();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

/** `.claude/settings.json` for the scenario's deny rules; undefined when it has none. */
export function claudeSettings(scenario, mapRule = (rule) => rule) {
  const deny = scenario.config?.deny;
  return deny?.length ? JSON.stringify({ permissions: { deny: deny.map(mapRule) } }, null, 2) : undefined;
}

/**
 * The directory the temp workspace stands for: the cwd, or the nearest directory above it
 * that holds every absolute path the scenario names outside the home.
 */
export function scenarioRoot(scenario) {
  const cwd = scenario.cwd ?? DEFAULT_CWD;
  const home = scenario.home ?? DEFAULT_HOME;
  const files = Array.isArray(scenario.files) ? scenario.files.map((f) => f.path) : Object.keys(scenario.files ?? {});
  const stepPaths = scenario.steps.flatMap((step) => [step.path, step.from, step.to].filter((p) => typeof p === 'string'));
  const absolute = [...files, ...stepPaths].filter((p) => p.startsWith('/') && p !== home && !p.startsWith(home + '/'));
  let root = cwd;
  for (const path of absolute) {
    while (root !== '/' && path !== root && !path.startsWith(root + '/')) root = dirname(root);
  }
  return root;
}

function clientEnv(scenario) {
  const env = {};
  // The window the client compacts in: the model's, capped by CLAUDE_CODE_AUTO_COMPACT_WINDOW
  // (§9.1). Its output reserve is fixed at 20,000, so a scenario's own reserve must be that.
  if (scenario.config?.contextWindow !== undefined) env.CLAUDE_CODE_AUTO_COMPACT_WINDOW = String(scenario.config.contextWindow);
  if (scenario.config?.autoCompact === false) env.DISABLE_AUTO_COMPACT = '1';
  return env;
}

function writeWithMtime(path, content, ms) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  utimesSync(path, ms / 1000, ms / 1000);
}

const sleep = (ms) => new Promise((resolveSleep) => setTimeout(resolveSleep, ms));

// The client's own writes (Edit, Write) carry the wall clock's mtime, and it detects changes by
// `mtime > stored time` (Q40): an edit from outside stamped with the scenario's older logical
// time would be invisible. So an outside write is stamped with the wall clock too, a little
// after the turn ended: every file's mtime keeps the scenario's order on both sides (Glob and
// Grep sort by it).
async function externalMtime(logicalMs) {
  await sleep(5);
  return Math.max(logicalMs, Date.now());
}

async function applyExternalStep(step, mapPath, logicalMs) {
  switch (step.kind) {
    case 'writeFile':
      return writeWithMtime(mapPath(step.path), step.content, await externalMtime(logicalMs));
    case 'deleteFile':
      return unlinkSync(mapPath(step.path));
    case 'rename':
      return renameSync(mapPath(step.from), mapPath(step.to));
    case 'touch': {
      const path = mapPath(step.path);
      return writeWithMtime(path, readFileSync(path), await externalMtime(logicalMs));
    }
    case 'advanceTime':
      return undefined; // the clock only moves the mtimes of later steps, read from the trace
    default:
      throw new Error(`no external step ${step.kind}`);
  }
}

function escapeRegExp(text) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

function startClient(oracle, workspace, home, baseUrl, extraEnv, mode, permission) {
  const child = spawn(
    oracle.command,
    [
      ...oracle.args,
      '-p',
      '--input-format',
      'stream-json',
      '--output-format',
      'stream-json',
      '--verbose',
      '--permission-mode',
      mode,
      // Tools that ask (Bash, ExitPlanMode) ask the lab through stdin and stdout.
      '--permission-prompt-tool',
      'stdio',
    ],
    {
      cwd: workspace,
      env: {
        PATH: process.env.PATH,
        HOME: home,
        ANTHROPIC_BASE_URL: baseUrl,
        ANTHROPIC_API_KEY: 'dummy',
        DISABLE_TELEMETRY: '1',
        CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1',
        DISABLE_AUTOUPDATER: '1',
        // The client's own rg (2.1.88's is 14.1.1, `make conformance-setup` gives it its exec
        // bit; the native builds carry theirs inside): Glob's order is ripgrep's
        // `--sort=modified`, which rg 13 applies per directory. The system's only where the
        // package has no runnable rg.
        ...(ripgrepRuns(oracle) ? {} : { USE_BUILTIN_RIPGREP: '0' }),
        ...extraEnv,
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  let buffered = '';
  /** @type {((message: any) => void) | undefined} */
  let onResult;
  /** @type {Map<string, (response: any) => void>} */
  const controlWaiters = new Map();
  let exited = false;
  let requestCount = 0;
  const write = (message) => child.stdin.write(JSON.stringify(message) + '\n');
  child.stderr.setEncoding('utf8').on('data', (chunk) => (stderr += chunk));
  child.stdout.setEncoding('utf8').on('data', (chunk) => {
    buffered += chunk;
    let newline;
    while ((newline = buffered.indexOf('\n')) >= 0) {
      const line = buffered.slice(0, newline);
      buffered = buffered.slice(newline + 1);
      if (!line.trim()) continue;
      const message = JSON.parse(line);
      if (message.type === 'result' && onResult) onResult(message);
      else if (message.type === 'control_request' && message.request?.subtype === 'can_use_tool') {
        write({ type: 'control_response', response: { subtype: 'success', request_id: message.request_id, response: permission(message.request) } });
      } else if (message.type === 'control_response') {
        controlWaiters.get(message.response?.request_id)?.(message.response);
      }
    }
  });
  const exit = new Promise((resolveExit) => {
    child.on('exit', (code) => ((exited = true), resolveExit(code)));
    child.on('error', (error) => ((exited = true), (stderr += String(error)), resolveExit(-1)));
  });
  const waitFor = (what, promiseBody) =>
    new Promise((resolveWait, reject) => {
      const timer = setTimeout(() => reject(new Error(`no answer within ${TURN_TIMEOUT_MS} ms for ${what}: ${stderr}`)), TURN_TIMEOUT_MS);
      exit.then((code) => (clearTimeout(timer), reject(new Error(`the client exited (${code}) during ${what}: ${stderr}`))));
      promiseBody((value) => (clearTimeout(timer), resolveWait(value)));
    });
  return {
    stderr: () => stderr,
    /** Types `prompt` and waits for the turn's result. */
    async send(prompt, { mayFail = false } = {}) {
      const result = waitFor(`"${prompt}"`, (done) => (onResult = done));
      write({ type: 'user', message: { role: 'user', content: prompt } });
      const message = await result;
      if (message.is_error && !mayFail) throw new Error(`the turn "${prompt}" failed: ${JSON.stringify(message).slice(0, 500)}`);
      return message;
    },
    /** Sends a control request between turns and waits for its answer. */
    async control(request) {
      requestCount += 1;
      const id = `lab_${requestCount}`;
      const response = waitFor(request.subtype, (done) => controlWaiters.set(id, done));
      write({ type: 'control_request', request_id: id, request });
      const answer = await response;
      if (answer.subtype !== 'success') throw new Error(`${request.subtype} refused: ${JSON.stringify(answer)}`);
      return answer;
    },
    /** Switches the permission mode between turns, as Shift+Tab does. */
    setMode(newMode) {
      return this.control({ subtype: 'set_permission_mode', mode: newMode });
    },
    async close() {
      child.stdin.end();
      if (!exited) await exit;
    },
    kill() {
      if (!exited) child.kill('SIGKILL');
    },
  };
}
