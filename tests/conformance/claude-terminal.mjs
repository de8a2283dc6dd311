// Claude Code's interactive client, driven in a pseudo-terminal: the same session as `-p`, typed
// into the terminal UI. `script` (util-linux) gives the client a terminal; prompts and `/compact`
// are pasted (bracketed paste, so a newline or an `@` does not open a menu) and submitted with
// Enter, and a turn has ended when the mock has answered every scripted request and the client
// has sent nothing more for a while. The interactive client does what `-p` leaves out: it seeds
// the read-file state with the memory files at startup (REPL onInit) and replaces its messages
// at a typed /compact's boundary, so those differences of `-p` (known-differences.json, the
// entries marked `headless`) do not apply here.
//
// What needs an answer from the user in the terminal (a plan's approval, a permission dialog, a
// mode change by Shift+Tab) is not driven: `terminalReasons` names it, and the runner leaves
// such scenarios to `-p`. Edits and commands are allowed up front (`--allowedTools`).
import { spawn } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';

/** The API key the lab gives the client; the terminal asks once for a key it was not told of. */
const LAB_KEY = 'sk-ant-lab-terminal-0123456789abcdefghij';
/** The client has sent nothing for this long after the last scripted answer: the turn is over. */
const QUIET_MS = 1_500;
const TURN_TIMEOUT_MS = 90_000;
/** No request this long after Enter: the paste was still being taken in; Enter again. */
const RESUBMIT_MS = 4_000;
/** The tools the lab allows up front, so that no permission dialog opens. */
const ALLOWED_TOOLS = ['Bash', 'Edit', 'Write', 'NotebookEdit'];

/** Why `scenario` cannot be typed into the terminal client (beyond what `-p` cannot drive). */
export function terminalReasons(scenario) {
  const reasons = [];
  if (scenario.config?.permissionMode === 'plan') reasons.push('config.permissionMode plan: a plan is approved in a dialog, which the terminal lab does not answer');
  scenario.steps.forEach((step, i) => {
    if (step.kind === 'setMode') reasons.push(`steps[${i}]: a mode change is Shift+Tab in the terminal, not driven there`);
    for (const block of step.blocks ?? []) {
      if (block.approval) reasons.push(`steps[${i}]: a plan's approval is a dialog in the terminal, not driven there`);
    }
  });
  return reasons;
}

const quote = (text) => `'${text.replaceAll("'", "'\\''")}'`;

/** What the terminal showed last, without its escape sequences: for error messages. */
function screenText(raw) {
  return raw
    .replace(/\x1b\[[0-9;?]*[ -/]*[@-~]/g, '')
    .replace(/\x1b\][^\x07]*\x07/g, '')
    .replace(/\s+/g, ' ')
    .slice(-600);
}

/**
 * Starts the interactive client in `workspace` with the lab's home, against the mock at
 * `mock.url`; the same methods as the `-p` client (drive-claude.mjs).
 */
export function startTerminalClient(oracle, workspace, home, mock, extraEnv, mode) {
  // The first-run screens (theme, trust of the folder, the API key) answered as a user would.
  writeFileSync(
    join(home, '.claude.json'),
    JSON.stringify({
      hasCompletedOnboarding: true,
      theme: 'dark',
      customApiKeyResponses: { approved: [LAB_KEY.slice(-20)], rejected: [] },
      projects: { [workspace]: { hasTrustDialogAccepted: true, allowedTools: [] } },
    }),
  );
  const command = [oracle.command, ...oracle.args, '--permission-mode', mode, '--allowedTools', ALLOWED_TOOLS.join(',')].map(quote).join(' ');
  const child = spawn('script', ['-qfec', `stty cols 160 rows 50; exec ${command}`, '/dev/null'], {
    cwd: workspace,
    env: { PATH: process.env.PATH, HOME: home, TERM: 'xterm-256color', ANTHROPIC_BASE_URL: mock.url, ANTHROPIC_API_KEY: LAB_KEY, ...extraEnv },
    stdio: ['pipe', 'pipe', 'pipe'],
    // A group of its own, so that the client `script` starts goes with it.
    detached: true,
  });
  const killGroup = () => {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // gone already
    }
  };
  let screen = '';
  let exited = false;
  const keep = (chunk) => (screen = (screen + chunk).slice(-20_000));
  child.stdout.setEncoding('utf8').on('data', keep);
  child.stderr.setEncoding('utf8').on('data', keep);
  const exit = new Promise((resolveExit) => {
    child.on('exit', (code) => ((exited = true), resolveExit(code)));
    child.on('error', (error) => ((exited = true), keep(String(error)), resolveExit(-1)));
  });
  const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

  /**
   * Waits until the client has sent a request since `before` and nothing more for QUIET_MS.
   * Enter is pressed again while no request has come: a busy terminal may still be taking the
   * paste in when the first one arrives (an Enter on an empty prompt does nothing).
   */
  async function turnEnded(before, what) {
    const deadline = Date.now() + TURN_TIMEOUT_MS;
    let count = mock.requests.length;
    let quietSince = Date.now();
    let enterAt = Date.now() + RESUBMIT_MS;
    while (Date.now() < deadline) {
      if (exited) throw new Error(`the client exited during ${what}: ${screenText(screen)}`);
      await sleep(100);
      if (mock.requests.length !== count) (count = mock.requests.length), (quietSince = Date.now());
      else if (count > before && mock.pending() === 0 && Date.now() - quietSince >= QUIET_MS) return;
      if (count === before && Date.now() >= enterAt) child.stdin.write('\r'), (enterAt = Date.now() + RESUBMIT_MS);
    }
    throw new Error(`no end of ${what} within ${TURN_TIMEOUT_MS} ms: ${screenText(screen)}`);
  }

  const ready = sleep(3_000);
  return {
    stderr: () => screenText(screen),
    /** Pastes `prompt`, submits it, and waits for the turn to end. */
    async send(prompt) {
      await ready;
      const before = mock.requests.length;
      child.stdin.write(`\x1b[200~${prompt}\x1b[201~`);
      await sleep(300);
      child.stdin.write('\r');
      await turnEnded(before, `"${prompt}"`);
      // On a loaded machine the pty may split the paste's escape sequence, and the client
      // then types its tail as text: the session would compare a prompt nobody wrote.
      const leaked = mock.requests.slice(before).some((request) => JSON.stringify(request.body ?? '').includes('200~'));
      if (leaked) throw new Error(`the paste of "${prompt.slice(0, 40)}" reached the client as text (its escape sequence was split): run the session again`);
    },
    /** The interactive client seeds its read-file state itself at startup: nothing to ask. */
    async control(request) {
      if (request.subtype === 'seed_read_state') return { subtype: 'success' };
      throw new Error(`${request.subtype}: no control requests in the terminal`);
    },
    setMode() {
      throw new Error('a mode change is not driven in the terminal (terminalReasons)');
    },
    async close() {
      if (exited) return;
      // Ctrl+D twice leaves the client, which then finishes writing its session log.
      child.stdin.write('\x04');
      await sleep(200);
      child.stdin.write('\x04');
      await Promise.race([exit, sleep(5_000)]);
      killGroup();
      await exit;
    },
    kill() {
      killGroup();
    },
  };
}
