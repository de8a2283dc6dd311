// Random sequences of Session calls, with a clock that mostly moves forward but sometimes
// runs backwards or jumps to 0 or 2^53: no trap, Errors only, numbers that stay exact, and
// the same answers when the same sequence runs again on a fresh session. Under
// `recommended`, Read refuses a negative limit, and a clock that went back announces no
// date change (the date the model was told does not move back).
import { CaseFailure } from '../engine.mjs';
import { assertSaneNumbers, canonical, clip } from '../checks.mjs';

const PATHS = ['a.txt', 'src/b.ts', 'src', 'CLAUDE.md', 'src/CLAUDE.md', '.claude/rules/r.md', '~/.claude/CLAUDE.md',
  '.env', 'big.txt', '/p/src/../a.txt', 'missing.txt', '~/.claude/memory/notes.md', '/elsewhere/x.md'];
const CONTENTS = ["'one\\ntwo\\nthree\\n'", "''", "'x'.repeat(300000)", "'line\\n'.repeat(3000)", "'@a.txt @src/b.ts\\n'",
  "'---\\npaths: src/**\\n---\\nrule\\n'", 'new Uint8Array([0, 159, 146, 150])', "'\\uFEFFbom\\r\\nwin\\r\\n'"];
const PROMPTS = ["'hi'", "'look at @a.txt and @src/'", "'@big.txt#L10-20 please'", "'@\"src/b.ts\":2-1'", "'@.env'",
  "'remember @~/.claude/memory/notes.md'", "'x'.repeat(50000)", "'@a.txt '.repeat(200)"];
const STEPS = ["{ kind: 'setMode', mode: 'plan' }", "{ kind: 'setMode', mode: 'default' }", "{ kind: 'advanceTime', ms: 3600000 }",
  "{ kind: 'assistant', blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: 'a.txt' } }] }",
  "{ kind: 'assistant', blocks: [{ type: 'tool_use', name: 'Glob', input: { pattern: '**' } }, { type: 'tool_use', name: 'Bash', input: { command: 'ls' }, output: 'a.txt' }] }",
  "{ kind: 'assistant', blocks: [{ type: 'tool_use', name: 'TodoWrite', input: { todos: [] } }] }",
  "{ kind: 'assistant', blocks: [{ type: 'text', text: 'done' }] }", "{ kind: 'compact', policy: 'claude-code.microcompact' }",
  "{ kind: 'touch', path: 'a.txt' }", "{ kind: 'diagnostics', files: [{ path: 'a.txt', items: [{ severity: 'error', line: 0, column: 0, message: 'x' }] }] }"];
const LIMITS = ['-1', '-(2 ** 53)', '0', '1', '3', '2 ** 53'];

const HOUR = 3600000;

/** Mostly hours forward (days go by), sometimes up to two days back, rarely an extreme. @param {import('../rng.mjs').Rng} rng @param {number} now */
function nextTime(rng, now) {
  const roll = rng.next();
  if (roll < 0.12) return Math.max(0, now - 1 - rng.below(48 * HOUR));
  if (roll < 0.15) return rng.pick([0, 2 ** 53, 2 ** 53 - 1]);
  return Math.min(2 ** 53, now + rng.below(6 * HOUR));
}

/**
 * The calls of one sequence, as JS statements over `s`, with the clock when each is made.
 * @param {import('../rng.mjs').Rng} rng
 */
function sequence(rng) {
  const calls = [];
  const times = [];
  let now = 1764547200000;
  const count = 5 + rng.below(20);
  for (let i = 0; i < count; i++) {
    now = nextTime(rng, now);
    times.push(now);
    const path = JSON.stringify(rng.pick(PATHS));
    calls.push(rng.pick([
      () => `s.writeFile(${path}, ${rng.pick(CONTENTS)}, ${now})`,
      () => `s.writeFile(${path}, ${rng.pick(CONTENTS)}, ${now})`,
      () => `s.deleteFile(${path}, ${now})`,
      () => `s.rename(${path}, ${JSON.stringify(rng.pick(PATHS))}, ${now})`,
      () => `s.mkdir(${path}, ${now})`,
      () => `s.read(${path}, { offset: ${rng.pick(['0', '1', '2', '2 ** 53'])}, limit: ${rng.pick(LIMITS)} }, ${now})`,
      () => `s.read(${path}, undefined, ${now})`,
      () => `s.edit(${path}, 'two', 'TWO', ${now})`,
      () => `s.write(${path}, ${rng.pick(CONTENTS)}, ${now})`,
      () => `s.submit(${rng.pick(PROMPTS)}, ${now})`,
      () => `s.submit(${rng.pick(PROMPTS)}, ${now})`,
      () => `s.toolRound(${now})`,
      () => `s.step(${rng.pick(STEPS)}, ${now})`,
      () => `s.applyCompaction(s.planCompaction({ policy: ${JSON.stringify(rng.pick(['claude-code.full', 'opencode.prune', 'cline.truncate', 'claude-code.session_memory']))} }, ${now}), ${now})`,
      () => `s.currentRequest(${now})`,
      () => `s.setTransientError(${path}, ${rng.pick(["'EACCES'", "'EBUSY'", 'null'])})`,
      () => `s.stat(${path})`,
      () => `s.listDir(${path})`,
      () => `s.searchFiles(${JSON.stringify(rng.pick(['a', 'src', '', 'é', '**']))}, { limit: ${rng.pick(['0', '1', '20'])} })`,
      () => 's.fileState()',
    ])());
  }
  return { calls, times };
}

/** @param {import('../fuzz.mjs').Context} ctx */
export function run(ctx) {
  const { rng, engine } = ctx;
  const profile = rng.pick(['claude-code', 'codex', 'recommended']);
  const options = { profile, cwd: '/p', home: '/home/u', config: rng.chance(0.5) ? { deny: ['Read(./.env)'], memoryDir: '~/.claude/memory' } : {} };
  const { calls, times } = sequence(rng);
  const reproducer = `const s = new Session(${JSON.stringify(options)}); ${calls.join('; ')};`;
  const compiled = calls.map((call) => new Function('s', `return (${call});`));

  const replay = () => {
    const session = engine.must('new Session', () => new engine.api.Session(options));
    // The session's clock: the latest time of an act that went through.
    let clock = 0;
    try {
      return compiled.map((call, i) => {
        const outcome = engine.attempt(clip(calls[i], 160), () => call(session));
        if (outcome.error) return `throws ${outcome.error.message}`;
        const before = clock;
        if (ACT.test(calls[i] ?? '')) clock = Math.max(clock, times[i] ?? 0);
        assertSaneNumbers(clip(calls[i], 160), outcome.value, reproducer);
        if (profile === 'recommended') {
          checkNegativeLimit(calls[i], outcome.value, reproducer);
          if ((times[i] ?? 0) < before) checkNoDateChange(calls[i], outcome.value, reproducer);
        }
        return canonical(outcome.value);
      });
    } finally {
      session.free();
    }
  };
  const first = replay();
  const second = replay();
  const differs = first.findIndex((answer, i) => answer !== second[i]);
  if (differs >= 0) {
    throw new CaseFailure(`the same calls on a fresh session answered differently at ${clip(calls[differs], 160)}: ${clip(first[differs], 200)} vs ${clip(second[differs], 200)}`, reproducer);
  }
}

/**
 * Read refuses a negative limit (Claude Code's quirk reads the lines before the last): an
 * accepted one must come back as an error result.
 * @param {string} call @param {any} value @param {string} reproducer
 */
function checkNegativeLimit(call, value, reproducer) {
  if (!/^s\.read\(.*limit: -/.test(call)) return;
  if (value && value.isError === false) {
    throw new CaseFailure(`${call} was accepted under recommended: ${clip(JSON.stringify(value), 200)}`, reproducer);
  }
}

/** The agent's acts: the calls that move a Session's clock (file events carry their own mtimes). */
const ACT = /^s\.(read|edit|write|submit|toolRound|step|applyCompaction|currentRequest)\(/;

/**
 * A call made at a time earlier than one before it does not tell the model the date
 * changed: the calendar does not run backwards.
 * @param {string} call @param {any} value @param {string} reproducer
 */
function checkNoDateChange(call, value, reproducer) {
  const change = value?.attachments?.find((/** @type {{ kind: string }} */ a) => a.kind === 'date_change');
  if (change) throw new CaseFailure(`${clip(call, 160)} went back in time and announced a date change: ${clip(change.text, 200)}`, reproducer);
}
