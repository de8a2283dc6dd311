// Seeded sessions for the conformance lab: each seed builds one scenario from the lab's
// vocabulary — mentions of every shape (@file, quoted, `#L` ranges, directories, missing,
// binary, over 256 KiB, over 2,000 lines), the Read, Edit, Write, Glob, Grep, Bash and TodoWrite
// tools, edits made outside the agent (near, far, several hunks, emptied, deleted, recreated,
// snippets over 8 KB with non-ASCII text), deny rules of every anchoring, CLAUDE.md at the cwd,
// an ancestor, `.claude/`, local and `~/.claude`, rules with and without `paths:`, `@include`,
// plan mode, `/compact` and auto-compaction. Same seed, same scenario, whatever the machine.
//
//   node tests/conformance/generate.mjs 17     prints the scenario of seed 17
//
// What it avoids, because the client would not be deterministic there: ties between file mtimes
// (every workspace file is written by its own step, so Glob and Grep orders are the scenario's,
// not the file system's), two writes in one response (our clock gives them one time, the
// client's wall clock two), the same file read twice in one response (the client reads in
// parallel), one file mentioned twice in one prompt (the client resolves mentions in parallel,
// a known difference of its own), and contexts near the auto-compact threshold (the two sides
// estimate what a round adds differently, by a few hundred tokens).

/** Bumped whenever a seed's scenario changes: reports name the version they ran. */
export const GENERATOR_VERSION = 2;

/** A small fast PRNG (mulberry32): the same seed gives the same numbers everywhere. */
function random(seed) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const int = (lo, hi) => lo + Math.floor(next() * (hi - lo + 1));
  const pick = (list) => list[Math.floor(next() * list.length)];
  const chance = (p) => next() < p;
  const shuffle = (list) => {
    const out = [...list];
    for (let i = out.length - 1; i > 0; i -= 1) {
      const j = Math.floor(next() * (i + 1));
      [out[i], out[j]] = [out[j], out[i]];
    }
    return out;
  };
  return { next, int, pick, chance, shuffle };
}

const WORDS = ['alpha', 'bravo', 'charlie', 'delta', 'echo', 'foxtrot', 'golf', 'hotel', 'india', 'juliet', 'kilo', 'lima'];
const NON_ASCII = ['café', 'naïve', 'Grüße', '日本語のテキスト', 'emoji 🎉 party', 'Ελληνικά', 'déjà vu', '中文注释'];
const PLAN_FILE = '~/.claude/plans/plan.md';

/** Lines of a source file; `tokens` are spread over them for Grep. */
function sourceLines(r, count, tokens, nonAscii) {
  const lines = [];
  for (let i = 1; i <= count; i += 1) {
    const token = tokens.length && r.chance(0.25) ? ` tok_${r.pick(tokens)}` : '';
    const comment = nonAscii && r.chance(0.3) ? ` // ${r.pick(NON_ASCII)}` : '';
    lines.push(`export const v${i} = ${r.int(0, 999)};${token}${comment}`);
  }
  return lines;
}

class Session {
  constructor(seed) {
    this.seed = seed;
    this.r = random(seed * 7919 + 17);
    /** @type {any[]} */
    this.steps = [];
    /** @type {Map<string, string>} the workspace as it is now: path relative to the cwd → content */
    this.files = new Map();
    /** Files the agent has seen whole since their last outside change (Edit and Write need it). */
    this.fresh = new Set();
    /** Files the agent wrote or edited: the ones the client watches for outside changes. */
    this.watched = new Set();
    /** Files deleted outside the agent, to recreate. */
    this.deleted = new Map();
    this.config = {};
    this.writes = 0;
    this.features = [];
  }

  // ---- the workspace ------------------------------------------------------------------------

  /** Writes a file by its own step before the session starts (distinct mtimes, see above). */
  seedFile(path, content) {
    this.files.set(path, content);
    this.steps.push({ kind: 'writeFile', path, content });
  }

  layout() {
    const r = this.r;
    this.cwd = r.chance(0.3) ? '/project/app' : '/project';
    this.tokens = r.shuffle(WORDS).slice(0, 4);
    const files = [
      ['src/main.ts', sourceLines(r, r.int(6, 30), this.tokens, false)],
      ['src/util.ts', sourceLines(r, r.int(4, 20), this.tokens, r.chance(0.5))],
      ['src/lib/math.ts', sourceLines(r, r.int(10, 45), this.tokens, false)],
      ['src/lib/strings.ts', sourceLines(r, r.int(3, 12), this.tokens, true)],
      ['docs/guide.md', ['# Guide', '', ...sourceLines(r, r.int(3, 10), this.tokens, true).map((l) => `- ${l}`)]],
      ['README.md', ['# Project', '', `Keywords: tok_${this.tokens[0]}`]],
    ];
    if (r.chance(0.4)) files.push(['notes/my notes.txt', [`Meeting notes ${r.pick(NON_ASCII)}`, 'second line']]);
    if (r.chance(0.3)) files.push(['data/empty.txt', []]);
    if (r.chance(0.4)) files.push(['data/unicode.txt', NON_ASCII.slice(0, r.int(2, NON_ASCII.length))]);
    for (const [path, lines] of r.shuffle(files)) {
      // Most files end with a newline (the trailing empty line of Q16); some do not.
      this.seedFile(path, lines.length ? lines.join('\n') + (r.chance(0.8) ? '\n' : '') : '');
    }
  }

  specialFiles() {
    const r = this.r;
    if (this.small) return;
    if (r.chance(0.25)) {
      // More than 2,000 lines: a mention shows the first 2,000 with a note; Read reads it all.
      this.seedFile('data/long.log', Array.from({ length: r.int(2005, 2300) }, (_, i) => `log ${i + 1}`).join('\n') + '\n');
    }
    if (r.chance(0.2)) {
      // Over 256 KiB: a mention sends nothing (Q18), Read refuses.
      const line = 'x'.repeat(99) + '\n';
      this.seedFile('data/huge.txt', line.repeat(2700));
    }
    if (r.chance(0.25)) this.seedFile('assets/blob.bin', 'not really binary, but the extension says so\n');
  }

  memory() {
    const r = this.r;
    const memories = [];
    if (r.chance(0.6)) memories.push(['CLAUDE.md', `Project rule ${r.int(1, 99)}: use tabs.\n${r.chance(0.3) ? 'Style guide: @docs/style.md\n' : ''}`]);
    if (r.chance(0.2)) memories.push(['.claude/CLAUDE.md', 'Dot-claude rule: keep functions short.\n']);
    if (r.chance(0.2)) memories.push(['CLAUDE.local.md', 'Local rule: my editor is vim.\n']);
    if (r.chance(0.25)) memories.push(['.claude/rules/style.md', 'Always prefer const.\n']);
    if (r.chance(0.3)) memories.push(['.claude/rules/ts.md', `---\npaths: ${r.pick(['src/**/*.ts', 'src/lib/**', '**/*.md'])}\n---\nConditional rule for matching files.\n`]);
    if (r.chance(0.35)) memories.push(['src/lib/CLAUDE.md', 'Library code has no side effects.\n']);
    if (r.chance(0.15)) memories.push(['src/CLAUDE.local.md', 'Nested local rule.\n']);
    if (memories.some(([path, content]) => path === 'CLAUDE.md' && content.includes('@docs/style.md'))) memories.push(['docs/style.md', 'Included style: two-space indent.\n']);
    for (const [path, content] of memories) this.seedFile(path, content);
    if (r.chance(0.3)) this.homeFiles.push({ path: '~/.claude/CLAUDE.md', content: 'User rule: answer briefly.\n' });
    if (this.cwd === '/project/app' && r.chance(0.7)) this.homeFiles.push({ path: '/project/CLAUDE.md', content: 'Ancestor rule: this is a monorepo.\n' });
    if (memories.length || this.homeFiles.length) this.features.push('memory');
  }

  deny() {
    const r = this.r;
    if (!r.chance(0.3)) return;
    this.features.push('deny');
    const rules = [
      ['Read(./secret.env)', ['secret.env', 'src/secret.env']],
      ['Read(secret.env)', ['secret.env']],
      ['Read(**/secret.env)', ['src/secret.env']],
      ['Read(/private/**)', ['private/keys.txt']],
      ['Read(private/**)', ['private/keys.txt', 'src/private/more.txt']],
      ['Read(*.key)', ['id.key']],
      ['Read(~/notes.md)', []],
      [`Read(/${this.cwd}/private/keys.txt)`, ['private/keys.txt']],
      ['Read', ['secret.env']],
    ];
    const chosen = r.shuffle(rules).slice(0, r.int(1, 2));
    // A tool-wide `Read` rule refuses every Read: rare, and never with tool-heavy features.
    this.config.deny = chosen.map(([rule]) => rule).filter((rule, i) => rule !== 'Read' || (i === 0 && r.chance(0.3)));
    if (!this.config.deny.length) this.config.deny = ['Read(./secret.env)'];
    const secrets = new Set(chosen.flatMap(([, files]) => files));
    secrets.add('secret.env');
    for (const path of r.shuffle([...secrets])) this.seedFile(path, `SECRET_${path.replace(/\W/g, '_').toUpperCase()}=${r.int(1000, 9999)}\n`);
    this.secrets = [...secrets];
    this.homeFiles.push({ path: '~/notes.md', content: 'Home notes, private.\n' });
  }

  // ---- what the user and the agent do ---------------------------------------------------------

  textFiles() {
    return [...this.files.keys()].filter((p) => !p.startsWith('.claude/') && !p.endsWith('CLAUDE.md') && !p.endsWith('CLAUDE.local.md') && !['data/huge.txt', 'assets/blob.bin', 'data/big.ts'].includes(p));
  }

  /** An @-mention of some shape, and the file it makes the agent see whole, if any. */
  mention() {
    const r = this.r;
    const files = this.textFiles().filter((p) => !p.includes(' '));
    const file = r.pick(files.length ? files : ['README.md']);
    const lines = (this.files.get(file) ?? '').split('\n').length;
    const shapes = [
      () => [`@${file}`, file],
      () => [`@./${file}`, file],
      () => [`@${file}#L${r.int(1, Math.max(1, lines - 1))}`, undefined],
      () => {
        const from = r.int(1, Math.max(1, lines - 1));
        return [`@${file}#L${from}-${from + r.int(0, 6)}`, undefined];
      },
      () => [`@${file}#L0`, undefined],
      () => [`@${file}#L${r.int(4, 9)}-${r.int(1, 3)}`, undefined],
      () => [`(@${file})`, file],
      () => [`@${file},`, file],
      () => [`@"${file}"`, file],
      () => [r.pick(['@src/lib/', '@src/lib', '@docs', '@src/']), undefined],
      () => [`@${r.pick(['missing.txt', 'src/nope.ts', 'docs/gone/'])}`, undefined],
    ];
    if (this.files.has('notes/my notes.txt')) shapes.push(() => ['@"notes/my notes.txt"', 'notes/my notes.txt']);
    if (this.files.has('data/long.log')) shapes.push(() => ['@data/long.log', undefined], () => [`@data/long.log#L${r.int(1990, 2010)}-${r.int(2011, 2020)}`, undefined]);
    if (this.files.has('data/huge.txt')) shapes.push(() => [r.pick(['@data/huge.txt', '@data/huge.txt#L3-5']), undefined]);
    if (this.files.has('assets/blob.bin')) shapes.push(() => ['@assets/blob.bin', undefined]);
    if (this.files.has('data/empty.txt')) shapes.push(() => ['@data/empty.txt', 'data/empty.txt']);
    if (this.secrets) shapes.push(() => [`@${r.pick(this.secrets)}`, undefined], () => ['@~/notes.md', undefined]);
    // Not on the first turn: the lab seeds the eager memory files for that turn (see
    // drive-claude.mjs), and `-p` re-applies the seeds over what the turn read of them.
    if (this.prompts > 1 && this.homeFiles.some((f) => f.path === '~/.claude/CLAUDE.md')) shapes.push(() => ['@~/.claude/CLAUDE.md', undefined]);
    return r.pick(shapes)();
  }

  prompt(text, { mentions = 0 } = {}) {
    this.prompts = (this.prompts ?? 0) + 1;
    const parts = [];
    const seen = new Set();
    for (let i = 0; i < mentions; i += 1) {
      const [token, file] = this.mention();
      const key = token.replace(/^[(@"]+|[),"]+$/g, '').replace(/^\.\//, '').replace(/#.*$/, '');
      if (seen.has(key)) continue;
      seen.add(key);
      parts.push(token);
      if (file) this.fresh.add(file);
    }
    this.steps.push({ kind: 'user', prompt: parts.length ? `${text} ${parts.join(' and ')}` : text });
  }

  answer(blocks) {
    this.steps.push({ kind: 'assistant', blocks });
  }

  say(text) {
    this.answer([{ type: 'text', text }]);
  }

  /** One tool call the agent might make now; `writeAllowed`: no write in this response yet. */
  toolCall(writeAllowed, used) {
    const r = this.r;
    const files = this.textFiles().filter((p) => !used.has(p));
    const file = files.length ? r.pick(files) : 'README.md';
    const options = [
      () => {
        used.add(file);
        this.fresh.add(file);
        return { name: 'Read', input: { file_path: this.abs(file) } };
      },
      () => {
        used.add(file);
        const lines = (this.files.get(file) ?? '').split('\n').length;
        return { name: 'Read', input: { file_path: this.abs(file), offset: r.int(1, Math.max(1, lines)), limit: r.int(1, 8) } };
      },
      // No pattern lists two eager memory files: the lab stamps them with one mtime (see
      // drive-claude.mjs), and Glob's order among equal mtimes is the file system's.
      () => ({ name: 'Glob', input: { pattern: r.pick(['**/*.ts', 'src/**/*.ts', 'docs/*.md', 'src/*', '**/*.txt', 'docs/**', 'nomatch/**', 'src/lib/*']), ...(r.chance(0.2) ? { path: this.abs('src') } : {}) } }),
      () => ({ name: 'Grep', input: { pattern: `tok_${r.pick(this.tokens)}`, ...(r.chance(0.2) ? { path: this.abs(r.pick(['src', 'docs'])) } : {}) } }),
      () => ({ name: 'Bash', input: { command: r.pick(['npm test', 'make check', 'ls src']) }, output: r.pick(['3 passing\n', 'ok', '', 'line one\nline two\n', `${r.pick(NON_ASCII)}\n`, '\n\nafter blank lines\n']) }),
    ];
    if (r.chance(0.15)) options.push(() => ({ name: 'Read', input: { file_path: this.abs(r.pick(['missing.txt', 'src/nope.ts'])) } }));
    if (this.secrets && r.chance(0.5)) options.push(() => ({ name: 'Read', input: { file_path: this.abs(r.pick(this.secrets)) } }));
    if (this.files.has('data/long.log') && r.chance(0.4) && !used.has('data/long.log')) options.push(() => (used.add('data/long.log'), { name: 'Read', input: { file_path: this.abs('data/long.log'), offset: r.int(1990, 2100), limit: 20 } }));
    if (this.files.has('data/huge.txt') && r.chance(0.4)) options.push(() => ({ name: 'Read', input: { file_path: this.abs('data/huge.txt') } }));
    if (writeAllowed && !this.readOnly) {
      const freshFiles = [...this.fresh].filter((p) => this.files.has(p) && !used.has(p) && this.files.get(p).length > 0);
      if (freshFiles.length) {
        options.push(() => {
          const target = r.pick(freshFiles);
          used.add(target);
          return this.edit(target);
        });
      }
      options.push(() => {
        const existing = freshFiles.length && r.chance(0.3) ? r.pick(freshFiles) : `src/gen_${this.writes + 1}.ts`;
        used.add(existing);
        this.writes += 1;
        const content = sourceLines(r, r.int(2, 12), this.tokens, r.chance(0.3)).join('\n') + '\n';
        this.files.set(existing, content);
        this.fresh.add(existing);
        this.watched.add(existing);
        return { name: 'Write', input: { file_path: this.abs(existing), content } };
      });
    }
    return r.pick(options)();
  }

  /** An Edit of `file`: usually one unique line changed; sometimes one that cannot apply. */
  edit(file) {
    const r = this.r;
    const content = this.files.get(file);
    const lines = content.split('\n').filter((l) => l.length > 0);
    const unique = lines.filter((l) => content.indexOf(l) === content.lastIndexOf(l));
    if (!unique.length || r.chance(0.1)) {
      return { name: 'Edit', input: { file_path: this.abs(file), old_string: 'no such text', new_string: 'x' } };
    }
    const line = r.pick(unique);
    const replacement = `${line} /* edited ${r.int(1, 99)} */`;
    this.files.set(file, content.replace(line, replacement));
    if (this.fresh.has(file)) this.watched.add(file);
    return { name: 'Edit', input: { file_path: this.abs(file), old_string: line, new_string: replacement } };
  }

  abs(path) {
    return `${this.cwd}/${path}`;
  }

  /** A response with 1–3 calls, at most one of them a write. */
  toolResponse(lead) {
    const used = new Set();
    const blocks = lead ? [{ type: 'text', text: lead }] : [];
    let writeAllowed = true;
    for (let i = this.r.int(1, 3); i > 0; i -= 1) {
      const call = this.toolCall(writeAllowed, used);
      if (call.name === 'Edit' || call.name === 'Write') writeAllowed = false;
      blocks.push({ type: 'tool_use', ...call });
    }
    this.answer(blocks);
  }

  /** A turn: a prompt with mentions, 0–2 tool rounds, a closing text. */
  turn(n) {
    const r = this.r;
    this.prompt(r.pick(['Look at', 'Check', 'Please review', 'What about', 'Compare']) + ` these (${n}):`, { mentions: r.int(0, this.small ? 1 : 3) });
    for (let i = r.int(0, 2); i > 0; i -= 1) this.toolResponse(r.chance(0.3) ? 'Working on it.' : undefined);
    this.say(`Done with step ${n}.`);
  }

  /** Edits made outside the agent between turns. */
  outsideEdits() {
    const r = this.r;
    if (!r.chance(0.45)) return;
    this.features.push('external-edits');
    const candidates = this.textFiles().filter((p) => this.files.get(p) !== undefined);
    // Mostly a file the agent wrote or edited: only those are watched for changes (a Read is
    // stored with offset 1 and never watched, Q31).
    const watched = [...this.watched].filter((p) => this.files.has(p));
    const file = watched.length && r.chance(0.7) ? r.pick(watched) : r.pick([...this.fresh].filter((p) => this.files.has(p)).concat(candidates));
    if (!file) return;
    const content = this.files.get(file);
    const lines = content.split('\n');
    const kind = r.pick(['near', 'far', 'multi', 'top', 'emptied', 'deleted', 'recreated', 'large', 'touch', 'rename']);
    let next;
    switch (kind) {
      case 'near':
        lines[Math.max(0, lines.length - 2)] = `changed near the end ${r.int(1, 99)}`;
        next = lines.join('\n');
        break;
      case 'far':
        lines[0] = `changed at the top ${r.int(1, 99)}`;
        lines[Math.max(0, lines.length - 2)] = `changed at the end ${r.int(1, 99)}`;
        next = lines.join('\n');
        break;
      case 'multi':
        for (let i = 0; i < lines.length; i += 9) lines[i] = `hunk ${i} ${r.pick(NON_ASCII)}`;
        next = lines.join('\n');
        break;
      case 'top':
        next = ['inserted a', 'inserted b', ...lines].join('\n');
        break;
      case 'emptied':
        next = '';
        break;
      case 'large':
        // A snippet over 8 KB of non-ASCII text: the cap counts UTF-16 units (Q41).
        next = Array.from({ length: r.int(300, 420) }, (_, i) => `${i} ${r.pick(NON_ASCII)} ${r.pick(NON_ASCII)}`).join('\n') + '\n';
        break;
      case 'deleted':
        this.steps.push({ kind: 'deleteFile', path: file });
        this.deleted.set(file, content);
        this.files.delete(file);
        this.fresh.delete(file);
        return;
      case 'recreated': {
        const [gone, old] = [...this.deleted.entries()][0] ?? [];
        if (!gone) return;
        this.deleted.delete(gone);
        this.files.set(gone, old + 'recreated\n');
        this.steps.push({ kind: 'writeFile', path: gone, content: old + 'recreated\n' });
        return;
      }
      case 'touch':
        this.steps.push({ kind: 'touch', path: file });
        return;
      case 'rename':
        // An editor's atomic save: the new content is written aside, then renamed over.
        next = content + `appended by the editor ${r.int(1, 99)}\n`;
        this.steps.push({ kind: 'writeFile', path: `${file}.tmp`, content: next }, { kind: 'rename', from: `${file}.tmp`, to: file });
        this.files.set(file, next);
        this.fresh.delete(file);
        return;
    }
    this.steps.push({ kind: 'writeFile', path: file, content: next });
    this.files.set(file, next);
    this.fresh.delete(file);
  }

  // ---- features -------------------------------------------------------------------------------

  todoSession() {
    const r = this.r;
    const items = r.shuffle(WORDS).slice(0, r.int(2, 4));
    const todos = (done) => items.map((w, i) => ({ content: `Handle ${w}`, status: i < done ? 'completed' : i === done ? 'in_progress' : 'pending', activeForm: `Handling ${w}` }));
    this.prompt('Make a todo list and work through it.', { mentions: r.int(0, 1) });
    this.answer([{ type: 'tool_use', name: 'TodoWrite', input: { todos: todos(0) } }]);
    this.say('Listed.');
    const turns = r.int(12, 15);
    const update = r.int(4, 10);
    for (let i = 1; i <= turns; i += 1) {
      this.prompt(`Progress ${i}?`);
      if (i === update) this.answer([{ type: 'text', text: 'Updating.' }, { type: 'tool_use', name: 'TodoWrite', input: { todos: todos(1) } }]);
      else if (r.chance(0.2)) this.toolResponse(r.chance(0.5) ? 'Checking.' : undefined);
      this.say(`Still going (${i}).`);
    }
  }

  /** Plan mode: the plan written, an attempt to edit declined, the plan answered. */
  planTurns() {
    const r = this.r;
    if (this.config.permissionMode !== 'plan') this.steps.push({ kind: 'setMode', mode: 'plan' });
    this.prompt('Plan the change first.', { mentions: r.int(0, 1) });
    const blocks = [{ type: 'tool_use', name: 'Write', input: { file_path: PLAN_FILE.replace('~', '/home/user'), content: `1. Change ${r.pick(WORDS)}.\n` } }];
    if (r.chance(0.4)) blocks.push({ type: 'tool_use', name: 'Read', input: { file_path: this.abs('src/main.ts') } });
    this.answer(blocks);
    if (r.chance(0.3)) {
      const target = this.textFiles().find((p) => this.files.get(p)?.length);
      if (target) this.answer([{ type: 'tool_use', ...this.editDeclined(target) }]);
    }
    const outcome = r.pick(['approved', 'approved', 'feedback', 'feedback', 'stopped']);
    if (outcome === 'approved') {
      this.answer([{ type: 'tool_use', name: 'ExitPlanMode', input: {}, approval: { approved: true } }]);
      this.say('Plan approved; starting.');
    } else if (outcome === 'feedback') {
      this.answer([{ type: 'tool_use', name: 'ExitPlanMode', input: {}, approval: { approved: false, feedback: 'Also cover the tests.' } }]);
      this.say('I will revise it.');
      this.prompt('Revised?');
      this.answer([{ type: 'tool_use', name: 'Edit', input: { file_path: PLAN_FILE.replace('~', '/home/user'), old_string: '1. Change', new_string: '1. Test, then change' } }]);
      this.answer([{ type: 'tool_use', name: 'ExitPlanMode', input: {}, approval: { approved: true } }]);
      this.say('Approved now.');
    } else {
      this.answer([{ type: 'tool_use', name: 'ExitPlanMode', input: {}, approval: { approved: false } }]);
      this.prompt('Never mind; leave plan mode.');
      this.say('Leaving it.');
      this.steps.push({ kind: 'setMode', mode: 'default' });
    }
  }

  editDeclined(file) {
    const content = this.files.get(file);
    const line = content.split('\n').find((l) => l.length > 0);
    return { name: 'Edit', input: { file_path: this.abs(file), old_string: line, new_string: `${line} // planned` } };
  }

  build() {
    const r = this.r;
    this.homeFiles = [];
    const flavour = r.pick(['plain', 'plain', 'plain', 'todo', 'plan', 'compact', 'compact', 'auto']);
    this.features.push(flavour);
    this.small = flavour === 'auto';
    this.layout();
    this.memory();
    this.specialFiles();
    if (flavour !== 'auto') this.deny();
    if (flavour === 'plan' && r.chance(0.5)) this.config.permissionMode = 'plan';
    if (flavour === 'auto') {
      // A 65,000-token window: the threshold is 32,000 tokens (20,000 reserved, 13,000
      // buffer). The session stays near 25,000 (2.1.88's system prompt and tools are about
      // 23,000 of them) until a read of about 11,000 tokens takes it past the threshold.
      this.config.contextWindow = 65000;
      this.seedFile('data/big.ts', Array.from({ length: 700 }, (_, i) => `export const row${i} = '${'y'.repeat(50)}';`).join('\n') + '\n');
    }

    if (flavour === 'todo') this.todoSession();
    else {
      const turns = r.int(2, flavour === 'plain' ? 5 : 3);
      let n = 1;
      if (flavour === 'plan') this.planTurns();
      for (; n <= turns; n += 1) {
        if (n > 1) this.outsideEdits();
        this.turn(n);
      }
      if (flavour === 'plan' && r.chance(0.3)) {
        // Back into plan mode with a plan on disk: the re-entry note.
        this.steps.push({ kind: 'setMode', mode: 'plan' });
        this.prompt('One more planning round.');
        this.say('Planning.');
      }
      if (flavour === 'compact') {
        this.steps.push({ kind: 'compact', ...(r.chance(0.4) ? { instructions: 'Keep the file names.' } : {}), summary: `<analysis>Seed ${this.seed}.</analysis>\n<summary>Seed ${this.seed}: the files were read and edited as asked.</summary>` });
        for (let i = r.int(1, 2); i > 0; i -= 1) this.turn(n++);
      }
      if (flavour === 'auto') {
        this.prompt('Now read the big data file.');
        this.answer([{ type: 'tool_use', name: 'Read', input: { file_path: this.abs('data/big.ts') } }]);
        this.say('Read it.');
        this.prompt('Carry on.');
        this.say('Carrying on.');
      }
    }
    const scenario = {
      name: `Generated session ${this.seed}`,
      description: `Seed ${this.seed} of the lab's generator (version ${GENERATOR_VERSION}): ${[...new Set(this.features)].join(', ')}.`,
      profile: 'claude-code',
      cwd: this.cwd,
      ...(Object.keys(this.config).length ? { config: this.config } : {}),
      files: this.homeFiles,
      steps: this.steps,
    };
    return scenario;
  }
}

/**
 * The scenario of `seed`.
 * @param {number} seed
 */
export function generateScenario(seed) {
  return new Session(seed).build();
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const seed = Number(process.argv[2]);
  if (!Number.isInteger(seed)) {
    console.error('usage: node tests/conformance/generate.mjs SEED');
    process.exit(2);
  }
  console.log(JSON.stringify(generateScenario(seed), null, 2));
}
