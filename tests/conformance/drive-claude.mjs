// Plays one scenario through the real Claude Code: a throw-away workspace and home, the
// scenario's files and deny rules written into them, the prompts typed in as stream-json, the
// model's turns answered by the mock, the edits outside the agent made between turns.
import { spawn } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, unlinkSync, utimesSync, writeFileSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { startMockAnthropic } from './mock-anthropic.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
export const CLAUDE_CLI = join(ROOT, 'tests/conformance/oracles/node_modules/@anthropic-ai/claude-code/cli.js');
export const DEFAULT_CWD = '/project';
export const DEFAULT_HOME = '/home/user';
const DEFAULT_START_MS = 1764547200000;
const TURN_TIMEOUT_MS = 90_000;

// What the driver can replay. Everything else is refused with the reason, so the runner can
// list what the lab does not cover yet.
const DRIVABLE_TOOLS = new Set(['Read', 'Edit', 'Write']);
const EXTERNAL_STEPS = new Set(['writeFile', 'deleteFile', 'touch', 'advanceTime']);
const UNDRIVABLE_CONFIG = {
  mcpResources: 'MCP servers would have to be real processes the client connects to',
  agents: 'custom agents need agent definition files',
  additionalDirectories: '--add-dir is not wired up yet',
  tools: 'the client offers its own built-in tools; custom tool lists need an MCP server',
  deferredTools: 'deferred tools come from MCP servers',
  skills: 'skills need skill files (the client always lists its bundled ones)',
  mcpServers: 'MCP servers would have to be real processes',
  contextWindow: 'the window follows the model; no flag sets it',
  outputReserve: 'follows the model',
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
  planFile: 'plan files are not wired up',
  memoryDir: 'auto-memory surfacing needs a side query the mock does not model',
  permissionMode: 'the lab always runs --permission-mode acceptEdits',
  autoCompact: 'compaction is not driven yet',
  pinned: 'pinned files are ours (recommended profile only)',
};

/**
 * Why the driver cannot replay `scenario`; empty when it can.
 * @param {any} scenario
 * @returns {string[]}
 */
export function undrivableReasons(scenario) {
  const reasons = [];
  for (const key of Object.keys(scenario.config ?? {})) {
    if (key !== 'deny' && UNDRIVABLE_CONFIG[key]) reasons.push(`config.${key}: ${UNDRIVABLE_CONFIG[key]}`);
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
        if (block.output !== undefined || block.approval !== undefined) reasons.push(`${at}: a scripted tool output or approval cannot be imposed on the real tool`);
      }
      inTurn = step.blocks.some((b) => b.type === 'tool_use');
    } else if (EXTERNAL_STEPS.has(step.kind)) {
      if (inTurn) reasons.push(`${at}: ${step.kind} in the middle of a turn (between tool rounds) cannot be timed from outside`);
    } else {
      reasons.push(`${at}: step kind ${step.kind} is not driven yet`);
    }
  });
  return [...new Set(reasons)];
}

/**
 * The turns of a scenario: each prompt with the assistant steps that answer it, and the
 * external steps made before it. Tool-use ids are the engine's (`toolu_001`, … in scenario
 * order) so both sides name the calls alike.
 */
export function scenarioTurns(scenario, mapPath) {
  const turns = [];
  let before = [];
  let toolCount = 0;
  scenario.steps.forEach((step, index) => {
    if (step.kind === 'user') {
      turns.push({ prompt: step.prompt, before, answers: [] });
      before = [];
    } else if (step.kind === 'assistant') {
      turns[turns.length - 1].answers.push(
        step.blocks.map((block) => {
          if (block.type === 'text') return { type: 'text', text: block.text };
          toolCount += 1;
          const id = block.id ?? `toolu_${String(toolCount).padStart(3, '0')}`;
          return { type: 'tool_use', id, name: block.name, input: mapInputPaths(block.input, mapPath) };
        }),
      );
    } else {
      before.push({ index, step });
    }
  });
  return turns;
}

function mapInputPaths(input, mapPath) {
  const mapped = { ...input };
  if (typeof mapped.file_path === 'string') mapped.file_path = mapPath(mapped.file_path);
  return mapped;
}

/**
 * Plays `scenario` through Claude Code and returns every request it sent.
 * @param {any} scenario
 * @param {{ recordDir: string, stepTimes: number[] }} options  `stepTimes`: each step's logical
 *   time (ms), as the engine's trace gives it, so both sides see the same clock
 */
export async function driveClaude(scenario, { recordDir, stepTimes }) {
  const workspace = realpathSync(mkdtempSync(join(tmpdir(), 'lab-ws-')));
  const home = realpathSync(mkdtempSync(join(tmpdir(), 'lab-home-')));
  const cwd = scenario.cwd ?? DEFAULT_CWD;
  const scenarioHome = scenario.home ?? DEFAULT_HOME;
  const mapPath = (path) => {
    if (path === '~' || path.startsWith('~/')) return home + path.slice(1);
    if (path.startsWith(scenarioHome + '/')) return home + path.slice(scenarioHome.length);
    if (path === cwd || path.startsWith(cwd + '/')) return workspace + path.slice(cwd.length);
    return path.startsWith('/') ? path : join(workspace, path);
  };
  const mock = await startMockAnthropic({ recordDir });
  const started = Date.now();
  try {
    const files = Array.isArray(scenario.files) ? scenario.files : Object.entries(scenario.files ?? {}).map(([path, content]) => ({ path, content }));
    const startMs = scenario.startMs ?? DEFAULT_START_MS;
    for (const { path, content } of files) writeWithMtime(mapPath(path), content, startMs);
    if (scenario.config?.deny) {
      writeWithMtime(join(workspace, '.claude/settings.json'), JSON.stringify({ permissions: { deny: scenario.config.deny } }, null, 2), startMs);
    }
    const turns = scenarioTurns(scenario, mapPath);
    const client = startClient(workspace, home, mock.url);
    for (const turn of turns) {
      for (const { index, step } of turn.before) applyExternalStep(step, mapPath, stepTimes[index]);
      mock.script(turn.answers);
      await client.send(turn.prompt);
      if (mock.pending() > 0) throw new Error(`the client ended the turn "${turn.prompt}" with ${mock.pending()} scripted answers left: ${client.stderr()}`);
    }
    await client.close();
    return {
      ms: Date.now() - started,
      workspace,
      home,
      requests: mock.requests,
      stderr: client.stderr(),
    };
  } finally {
    await mock.close();
    rmSync(workspace, { recursive: true, force: true });
    rmSync(home, { recursive: true, force: true });
  }
}

function writeWithMtime(path, content, ms) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
  utimesSync(path, ms / 1000, ms / 1000);
}

// The client's own writes (Edit, Write) carry the wall clock's mtime, and it detects changes by
// `mtime > stored time` (Q40): an edit from outside stamped with the scenario's older logical
// time would be invisible. So an outside write is never older than now; order is what counts.
function externalMtime(logicalMs) {
  return Math.max(logicalMs, Date.now() + 1000);
}

function applyExternalStep(step, mapPath, logicalMs) {
  switch (step.kind) {
    case 'writeFile':
      return writeWithMtime(mapPath(step.path), step.content, externalMtime(logicalMs));
    case 'deleteFile':
      return unlinkSync(mapPath(step.path));
    case 'touch': {
      const path = mapPath(step.path);
      return writeWithMtime(path, readFileSync(path), externalMtime(logicalMs));
    }
    case 'advanceTime':
      return undefined; // the clock only moves the mtimes of later steps, read from the trace
    default:
      throw new Error(`no external step ${step.kind}`);
  }
}

function startClient(workspace, home, baseUrl) {
  const child = spawn(
    process.execPath,
    [CLAUDE_CLI, '-p', '--input-format', 'stream-json', '--output-format', 'stream-json', '--verbose', '--permission-mode', 'acceptEdits'],
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
        // The vendored rg ships without its exec bit; use the system's.
        USE_BUILTIN_RIPGREP: '0',
      },
      stdio: ['pipe', 'pipe', 'pipe'],
    },
  );
  let stderr = '';
  let buffered = '';
  /** @type {((message: any) => void) | undefined} */
  let onResult;
  let exited = false;
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
    }
  });
  const exit = new Promise((resolveExit) => child.on('exit', (code) => ((exited = true), resolveExit(code))));
  return {
    stderr: () => stderr,
    /** Types `prompt` and waits for the turn's result. */
    async send(prompt) {
      const result = new Promise((resolveResult, reject) => {
        const timer = setTimeout(() => reject(new Error(`no result within ${TURN_TIMEOUT_MS} ms for "${prompt}": ${stderr}`)), TURN_TIMEOUT_MS);
        onResult = (message) => (clearTimeout(timer), resolveResult(message));
        exit.then((code) => (clearTimeout(timer), reject(new Error(`the client exited (${code}) during "${prompt}": ${stderr}`))));
      });
      child.stdin.write(JSON.stringify({ type: 'user', message: { role: 'user', content: prompt } }) + '\n');
      const message = await result;
      if (message.is_error) throw new Error(`the turn "${prompt}" failed: ${JSON.stringify(message).slice(0, 500)}`);
      return message;
    },
    async close() {
      child.stdin.end();
      if (!exited) await exit;
    },
  };
}
