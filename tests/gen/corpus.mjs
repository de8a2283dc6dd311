// The generated corpus of long sessions that issue 17's goals are measured on: seeded, so the
// same seed always gives the same scenario, in four kinds (tool-heavy, edit-heavy,
// mention-heavy, settings-heavy). Every session seeds four facts the recall measure looks for
// in the last request: a line of a file the agent reads, a decision the user states, a
// result a command prints and an instruction from CLAUDE.md.
import { seededRandom } from './random.mjs';

/** The kinds of session, in the order the corpus cycles through them. */
export const KINDS = ['tool-heavy', 'edit-heavy', 'mention-heavy', 'settings-heavy'];

const TURNS = 40;
const MODULES = 12;

/**
 * One generated session.
 * @param {string} kind one of KINDS
 * @param {number} seed
 * @returns {object} a scenario (web/scenarios/FORMAT.md) with its `facts`
 */
export function generateSession(kind, seed) {
  if (!KINDS.includes(kind)) throw new Error(`unknown session kind ${JSON.stringify(kind)}; expected one of ${KINDS.join(', ')}`);
  const random = seededRandom(seed * 7919 + KINDS.indexOf(kind));
  const pick = (list) => list[Math.floor(random() * list.length)];
  const between = (low, high) => low + Math.floor(random() * (high - low + 1));
  const tag = (name) => `${name}-${seed}-${between(1000, 9999)}`;
  const facts = {
    file: tag('fact-file'),
    decision: tag('fact-decision'),
    command: tag('fact-command'),
    instruction: tag('fact-instruction'),
  };
  const files = moduleFiles(random, between, facts.file);
  files['CLAUDE.md'] = `# Project rules\n\n- Run the tests before every commit.\n- Rule ${facts.instruction}: keep public names stable.\n`;
  const session = new SessionWriter(kind, random, pick, between, files);
  session.opening(facts);
  for (let turn = 0; turn < TURNS; turn += 1) session.turn(turn);
  return {
    name: `generated ${kind} #${seed}`,
    description: `A generated ${TURNS}-turn ${kind} session (seed ${seed}) in an 84K window (60K after Claude Code's prefix of about 24K tokens), for the cost and recall measures of issue 17.`,
    profile: 'claude-code',
    cwd: '/work/app',
    stepMs: 15000,
    // 60K of room once Claude Code 2.1.88's system prompt and tools (about 24K tokens) are sent.
    config: { contextWindow: 84000, outputReserve: 8000 },
    files,
    facts: [
      { id: 'file', kind: 'file', text: facts.file, reference: 'src/mod0.ts' },
      { id: 'decision', kind: 'decision', text: facts.decision },
      { id: 'command', kind: 'command', text: facts.command, reference: 'pnpm test:int' },
      { id: 'instruction', kind: 'instruction', text: facts.instruction, reference: 'CLAUDE.md' },
    ],
    steps: session.steps,
  };
}

/**
 * The corpus: `count` sessions cycling through the kinds, seeds 1 to count.
 * @param {number} count
 */
export function generateCorpus(count) {
  return Array.from({ length: count }, (_, i) => generateSession(KINDS[i % KINDS.length], i + 1));
}

function moduleFiles(random, between, fileFact) {
  const files = {};
  for (let m = 0; m < MODULES; m += 1) {
    const lines = [];
    const count = between(60, 220);
    for (let i = 0; i < count; i += 1) {
      lines.push(`export function mod${m}_${i}(input: number): number { return input * ${between(2, 9)} + ${i}; }`);
    }
    if (m === 0) lines.splice(7, 0, `export const SETTING = '${fileFact}';`);
    files[`src/mod${m}.ts`] = `${lines.join('\n')}\n`;
  }
  return files;
}

/** Writes the steps of one session, keeping the files' contents so every Edit matches. */
class SessionWriter {
  constructor(kind, random, pick, between, files) {
    Object.assign(this, { kind, random, pick, between, files, steps: [], calls: 0, mode: 'default' });
  }

  id(prefix) {
    this.calls += 1;
    return `${prefix}${this.calls}`;
  }

  user(prompt) {
    this.steps.push({ kind: 'user', prompt });
  }

  assistant(blocks) {
    this.steps.push({ kind: 'assistant', blocks });
  }

  read(path) {
    return { type: 'tool_use', id: this.id('r'), name: 'Read', input: { file_path: path } };
  }

  bash(command, output) {
    return { type: 'tool_use', id: this.id('b'), name: 'Bash', input: { command }, output };
  }

  testLog(lines, extra = '') {
    const run = this.between(1, 999);
    const body = Array.from({ length: lines }, (_, i) =>
      `[${String(i).padStart(4, '0')}] suite run ${run} case ${i}: ${this.random() < 0.02 ? 'FAIL' : 'ok'} (${this.between(1, 90)} ms)`);
    if (extra) body.splice(Math.floor(lines / 2), 0, extra);
    return `${body.join('\n')}\n`;
  }

  /** Changes one line of a module and returns the Edit call that does it. */
  edit(module) {
    const path = `src/mod${module}.ts`;
    const lines = this.files[path].split('\n');
    const at = this.between(0, Math.max(0, lines.length - 3));
    const old = lines[at];
    if (!old || old.includes('edited')) return null;
    const replacement = `${old} // edited ${this.calls}`;
    lines[at] = replacement;
    this.files[path] = lines.join('\n');
    return { type: 'tool_use', id: this.id('e'), name: 'Edit', input: { file_path: path, old_string: old, new_string: replacement } };
  }

  opening(facts) {
    this.user('Read the config module and tell me what SETTING is.');
    this.assistant([this.read('src/mod0.ts')]);
    this.assistant([{ type: 'text', text: 'SETTING holds the value on line 8 of src/mod0.ts.' }]);
    this.user(`Decision: the new flag is called ${facts.decision}. Remember that name.`);
    this.assistant([{ type: 'text', text: 'Noted.' }]);
    this.user('Run the integration suite once.');
    this.assistant([this.bash('pnpm test:int', this.testLog(60, `summary: ${facts.command} (seed check passed)`))]);
    this.assistant([{ type: 'text', text: 'The suite passed.' }]);
  }

  turn(turn) {
    const module = this.between(1, MODULES - 1);
    if (this.random() < 0.12) this.steps.push({ kind: 'advanceTime', ms: this.between(6, 20) * 60_000 });
    switch (this.kind) {
      case 'tool-heavy': return this.toolTurn(turn, module);
      case 'edit-heavy': return this.editTurn(turn, module);
      case 'mention-heavy': return this.mentionTurn(turn, module);
      default: return this.settingsTurn(turn, module);
    }
  }

  toolTurn(turn, module) {
    this.user(`Turn ${turn}: run the tests for mod${module} and look at the failures.`);
    const calls = [this.bash(`pnpm test mod${module}`, this.testLog(this.between(40, 160)))];
    if (this.random() < 0.5) calls.push(this.read(`src/mod${module}.ts`));
    this.assistant(calls);
    if (this.random() < 0.4) this.assistant([this.bash(`pnpm lint src/mod${module}.ts`, this.testLog(this.between(10, 40)))]);
    this.assistant([{ type: 'text', text: `mod${module} passes apart from flaky timing.` }]);
  }

  editTurn(turn, module) {
    this.user(`Turn ${turn}: tidy mod${module}.`);
    this.assistant([this.read(`src/mod${module}.ts`)]);
    const edit = this.edit(module);
    if (edit) this.assistant([edit]);
    if (this.random() < 0.3) {
      const other = this.between(1, MODULES - 1);
      const path = `src/mod${other}.ts`;
      this.files[path] = `${this.files[path]}export const touched${turn} = ${turn};\n`;
      this.steps.push({ kind: 'writeFile', path, content: this.files[path] });
    }
    this.assistant([{ type: 'text', text: `Tidied mod${module}.` }]);
  }

  mentionTurn(turn, module) {
    const start = this.between(1, 40);
    const mention = this.random() < 0.5 ? `@src/mod${module}.ts` : `@src/mod${module}.ts#L${start}-${start + this.between(5, 30)}`;
    this.user(`Turn ${turn}: what does ${mention} compute?`);
    if (this.random() < 0.3) this.assistant([this.read(`src/mod${this.between(1, MODULES - 1)}.ts`)]);
    this.assistant([{ type: 'text', text: `It scales its input; see mod${module}.` }]);
  }

  settingsTurn(turn, module) {
    if (this.random() < 0.25) {
      this.mode = this.mode === 'plan' ? 'default' : 'plan';
      this.steps.push({ kind: 'setMode', mode: this.mode });
    }
    this.user(`Turn ${turn}: plan the next change to mod${module}.`);
    const todos = Array.from({ length: this.between(2, 5) }, (_, i) => ({
      content: `Step ${i} for mod${module}`, status: i === 0 ? 'in_progress' : 'pending', activeForm: `Doing step ${i}`,
    }));
    this.assistant([{ type: 'tool_use', id: this.id('t'), name: 'TodoWrite', input: { todos } }, this.read(`src/mod${module}.ts`)]);
    this.assistant([{ type: 'text', text: `Planned ${todos.length} steps for mod${module}.` }]);
  }
}

// `node tests/gen/corpus.mjs <dir> [count]` writes the corpus there, one scenario per file.
if (import.meta.url === `file://${process.argv[1]}`) {
  const { mkdirSync, writeFileSync } = await import('node:fs');
  const [dir, count = '52'] = process.argv.slice(2);
  if (!dir) throw new Error('usage: node tests/gen/corpus.mjs <dir> [count]');
  mkdirSync(dir, { recursive: true });
  generateCorpus(Number(count)).forEach((scenario, i) => {
    const name = `${String(i + 1).padStart(2, '0')}-${KINDS[i % KINDS.length]}.json`;
    writeFileSync(`${dir}/${name}`, JSON.stringify(scenario));
  });
}
