// Deny bypasses: every way a denied file's content or name could reach the model — a
// mention, Read, Glob, Grep, a changed-file note, nested and eager memory, `@include`,
// rules, relevant memories, the plan file, the restore after compaction, skills, additional
// directories — each under many spellings of the path and of the rule. Every denied file
// holds (or is named with) a unique `DENIED-MARKER-<n>`. Under `recommended` no marker may
// appear in what the model sees: the requests, tool results, attachments and summaries.
// Under `claude-code` the same sessions only must not trap (its quirks send some on purpose).
import { CaseFailure } from '../engine.mjs';
import { clip, escapeNonAscii } from '../checks.mjs';
import { runEverywhere } from './mutated-scenarios.mjs';

const CWD = '/project';
const HOME = '/home/user';
/** The denied directory: accented, so NFC and NFD spell it differently. */
const DIR = 'clés';
const SECRET = `${DIR}/key.txt`;
/** A denied file whose name is the marker: for the routes that list names. */
const NAMED = `${DIR}/DENIED-MARKER-0.txt`;
const MARKER = /DENIED-MARKER-\d+/;

/** Spellings of a path relative to the cwd; the NFD ones spell the accented directory unlike the rule. */
const SPELLINGS = {
  relative: (/** @type {string} */ r) => r,
  dot: (/** @type {string} */ r) => `./${r}`,
  absolute: (/** @type {string} */ r) => `${CWD}/${r}`,
  doubleSlashes: (/** @type {string} */ r) => `${CWD}//${r.replaceAll('/', '//')}`,
  dotDot: (/** @type {string} */ r) => `src/../${r}`,
  dotSegments: (/** @type {string} */ r) => r.replaceAll('/', '/./'),
  trailingDot: (/** @type {string} */ r) => `${r}/.`,
  nfd: (/** @type {string} */ r) => r.normalize('NFD'),
  nfdAbsolute: (/** @type {string} */ r) => `${CWD}/${r}`.normalize('NFD'),
  upperCase: (/** @type {string} */ r) => r.toUpperCase(),
  backslashes: (/** @type {string} */ r) => r.replaceAll('/', '\\'),
  fileUrl: (/** @type {string} */ r) => `file://${CWD}/${r}`,
  home: (/** @type {string} */ r) => `~/../../project/${r}`,
};

/** The spellings above that name the denied file itself (the others name other files). */
const SAME_FILE = ['relative', 'dot', 'absolute', 'doubleSlashes', 'dotDot', 'dotSegments', 'trailingDot', 'nfd', 'nfdAbsolute', 'home'];

/** Spellings of the rule that denies the directory. */
const DIR_RULES = [`Read(./${DIR}/**)`, `Read(${DIR}/**)`, `Read(/${DIR}/**)`, `Read(//project/${DIR}/**)`,
  `Read(./${DIR}/**)`.normalize('NFD'), `Read(${DIR}/**)`.normalize('NFD'), `Read(**/${DIR}/**)`];

const secretFiles = () => ({ [SECRET]: 'DENIED-MARKER-1 the key\nline two\n', [NAMED]: 'needle\n', 'src/a.ts': 'export const a = 1;\n', 'README.md': '# Demo\n' });
const user = (/** @type {string} */ prompt) => ({ kind: 'user', prompt });
const tool = (/** @type {string} */ name, /** @type {object} */ input, /** @type {object} */ extra = {}) =>
  ({ kind: 'assistant', blocks: [{ type: 'tool_use', name, input, ...extra }] });
const say = (/** @type {string} */ text) => ({ kind: 'assistant', blocks: [{ type: 'text', text }] });
/** Talk long enough that a full compaction has something to summarise (recommended keeps a recent tail). */
const LONG_SENTENCE = 'The project builds and its tests pass. ';
const LONG_ANSWER = LONG_SENTENCE.repeat(2000);
/** A reproducer names the long answer instead of spelling it out. @param {string} json */
const showLongAnswer = (json) => `(() => { const LONG = ${JSON.stringify(LONG_SENTENCE)}.repeat(2000); return ${json.replaceAll(JSON.stringify(LONG_ANSWER), 'LONG')}; })()`;
/** @param {string} json */
const reproducer = (json) => `runScenario(${escapeNonAscii(showLongAnswer(json))})`;
/** A full compaction after long talk. */
const talkThenCompact = [say(LONG_ANSWER), user('continue'), say(LONG_ANSWER), user('and then?'), say(LONG_ANSWER),
  { kind: 'compact', policy: 'claude-code.full', summary: 'We looked at the project.' }];

/**
 * @typedef {{ deny: string[], files: Record<string, string>, steps: object[], config?: object }} Setup
 * @typedef {{ route: string, spelling: string, build: (rule: string) => Setup }} Combination
 */

/**
 * Routes that take a spelled path of the denied file; `extraDeny`: rules besides the
 * directory's, for files the route puts elsewhere.
 * @type {Record<string, (p: string) => Omit<Setup, 'deny'> & { extraDeny?: string[] }>}
 */
const PATH_ROUTES = {
  mention: (p) => ({ files: secretFiles(), steps: [user(`what is in @${p}?`)] }),
  mentionQuoted: (p) => ({ files: secretFiles(), steps: [user(`what is in @"${p}"?`)] }),
  mentionRange: (p) => ({ files: secretFiles(), steps: [user(`lines @${p}#L1-2 and @${p}:1-2`)] }),
  read: (p) => ({ files: secretFiles(), steps: [user('read it'), tool('Read', { file_path: p }), say('done')] }),
  readRange: (p) => ({ files: secretFiles(), steps: [user('read it'), tool('Read', { file_path: p, offset: 1, limit: 1 })] }),
  // Written by the agent (writes are not denied), then changed on disk: the note must not show it.
  changedNote: (p) => ({ files: secretFiles(), steps: [user('write it'), tool('Write', { file_path: p, content: 'placeholder\n' }),
    { kind: 'writeFile', path: SECRET, content: 'DENIED-MARKER-2 changed\n' }, user('anything new?')] }),
  restoreAfterCompaction: (p) => ({ files: secretFiles(), steps: [user('write it'), tool('Write', { file_path: p, content: 'placeholder\n' }),
    { kind: 'writeFile', path: SECRET, content: 'DENIED-MARKER-3 changed\n' }, ...talkThenCompact, user('go on')] }),
  openedFile: (p) => ({ files: secretFiles(), steps: [{ kind: 'ide', openedFile: p, selection: { path: p, lineStart: 0, lineCount: 1, text: 'the key' } }, user('what do I look at?')] }),
  directoryMention: (p) => ({ files: secretFiles(), steps: [user(`list @${p.replace(/key\.txt$/, '')} please`)] }),
  readDirectory: (p) => ({ files: secretFiles(), steps: [user('list it'), tool('Read', { file_path: p.replace(/\/key\.txt$/, '') })] }),
  glob: (p) => ({ files: secretFiles(), steps: [user('find files'), tool('Glob', { pattern: '**/*' }), tool('Glob', { pattern: '*', path: p.replace(/\/key\.txt$/, '') })] }),
  grep: (p) => ({ files: secretFiles(), steps: [user('search'), tool('Grep', { pattern: 'needle' }), tool('Grep', { pattern: 'needle', path: p.replace(/\/key\.txt$/, '') }), tool('Grep', { pattern: 'the key', path: p })] }),
  pinned: (p) => ({ files: secretFiles(), config: { pinned: [p] }, steps: [user('hi'), say('hello'), ...talkThenCompact, user('go on')] }),
  // The directory rule is the project's; the one for the additional directory is absolute.
  additionalDirectory: (p) => ({
    extraDeny: [`Read(//shared/${DIR}/**)`],
    files: { [`/shared/${SECRET}`]: 'DENIED-MARKER-4\n', 'src/a.ts': 'a\n' },
    config: { additionalDirectories: ['/shared'] },
    steps: [user(`see @${p.replace(CWD, '/shared').replace(/^(?!\/|~)/, '/shared/')}`),
      tool('Read', { file_path: p.replace(CWD, '/shared').replace(/^(?!\/|~)/, '/shared/') })],
  }),
};

/** Spellings of an `@include` of the denied file from a memory file at the cwd's level. */
const INCLUDES = [`@./${SECRET}`, `@${SECRET}`, `@${CWD}/${SECRET}`, `@./${DIR}//key.txt`, `@./${SECRET}`.normalize('NFD'), `@./src/../${SECRET}`];
/** Spellings of a rule for one file `rel` relative to the cwd. */
const fileRules = (/** @type {string} */ rel) => [`Read(./${rel})`, `Read(${rel})`, `Read(//project/${rel})`, `Read(**/${rel.split('/').pop()})`];
/** Spellings of the relevant-memory directory and of its rule. */
const MEMORY_DIRS = ['~/.claude/memory', `${HOME}/.claude/memory`, `${HOME}//.claude/memory/`, '~/.claude/../.claude/memory', '~/.claude/mémoire'.normalize('NFD')];

/** Routes whose spelling is a rule's or an include's. @type {Combination[]} */
const MEMORY_COMBINATIONS = [
  ...fileRules('CLAUDE.md').map((rule) => ({ route: 'eagerClaudeMd', spelling: rule, build: () => ({
    deny: [rule], files: { 'CLAUDE.md': 'DENIED-MARKER-5 project rules\n', 'src/a.ts': 'a\n' }, steps: [user('hi'), ...talkThenCompact, user('again')] }) })),
  ...fileRules('.claude/CLAUDE.md').map((rule) => ({ route: 'eagerDotClaude', spelling: rule, build: () => ({
    deny: [rule], files: { '.claude/CLAUDE.md': 'DENIED-MARKER-6\n' }, steps: [user('hi')] }) })),
  ...fileRules('CLAUDE.local.md').map((rule) => ({ route: 'eagerLocal', spelling: rule, build: () => ({
    deny: [rule], files: { 'CLAUDE.local.md': 'DENIED-MARKER-7\n' }, steps: [user('hi')] }) })),
  ...INCLUDES.map((include) => ({ route: 'eagerInclude', spelling: include, build: (rule) => ({
    deny: [rule], files: { ...secretFiles(), 'CLAUDE.md': `Rules.\n${include}\n` }, steps: [user('hi'), ...talkThenCompact, user('again')] }) })),
  ...['@/etc/passwd', '@/etc//passwd', '@/etc/../etc/passwd', '@~/../../etc/passwd', '@//etc/passwd'].map((include) => ({
    route: 'userClaudeMdInclude', spelling: include, build: () => ({
      deny: ['Read(//etc/passwd)'], files: { '~/.claude/CLAUDE.md': `Mine.\n${include}\n`, '/etc/passwd': 'DENIED-MARKER-8 root:x:0:0\n' }, steps: [user('hi')] }) })),
  ...[['Read(~/.claude/CLAUDE.md)', 'Read(~/.claude/rules/mine.md)'], [`Read(/${HOME}/.claude/CLAUDE.md)`, `Read(/${HOME}/.claude/rules/**)`],
    ['Read(~/.claude/**)'], ['Read(~/**/*.md)']].map((rules) => ({
    route: 'userClaudeMd', spelling: rules.join(' '), build: () => ({
      deny: rules, files: { '~/.claude/CLAUDE.md': 'DENIED-MARKER-9\n', '~/.claude/rules/mine.md': 'DENIED-MARKER-10\n' }, steps: [user('hi')] }) })),
  ...fileRules('.claude/rules/secret.md').map((rule) => ({ route: 'rulesEager', spelling: rule, build: () => ({
    deny: [rule], files: { '.claude/rules/secret.md': 'DENIED-MARKER-11\n' }, steps: [user('hi'), ...talkThenCompact, user('again')] }) })),
  ...fileRules('.claude/rules/api.md').map((rule) => ({ route: 'rulesConditional', spelling: rule, build: () => ({
    deny: [rule], files: { '.claude/rules/api.md': '---\npaths: src/**\n---\nDENIED-MARKER-12\n', 'src/a.ts': 'a\n' },
    steps: [user('read'), tool('Read', { file_path: 'src/a.ts' }), user('and @src/a.ts')] }) })),
  ...INCLUDES.map((include) => ({ route: 'ruleInclude', spelling: include, build: (rule) => ({
    deny: [rule], files: { ...secretFiles(), '.claude/rules/style.md': `Style.\n${include.replace('@./', '@../../').replace(`@${DIR}`, `@../../${DIR}`)}\n` },
    steps: [user('hi')] }) })),
  ...fileRules('pkg/CLAUDE.md').map((rule) => ({ route: 'nestedMemory', spelling: rule, build: () => ({
    deny: [rule, rule.replace('CLAUDE.md', 'CLAUDE.local.md')],
    files: { 'pkg/CLAUDE.md': 'DENIED-MARKER-13\n', 'pkg/CLAUDE.local.md': 'DENIED-MARKER-14\n', 'pkg/src/a.ts': 'a\n' },
    steps: [user('read'), tool('Read', { file_path: 'pkg/src/a.ts' }), user('and @pkg/src/a.ts')] }) })),
  ...INCLUDES.map((include) => ({ route: 'nestedInclude', spelling: include, build: (rule) => ({
    deny: [rule], files: { ...secretFiles(), 'pkg/CLAUDE.md': `Pkg.\n${include.replace('@./', '@../').replace(`@${DIR}`, `@../${DIR}`)}\n`, 'pkg/src/a.ts': 'a\n' },
    steps: [user('read'), tool('Read', { file_path: 'pkg/src/a.ts' })] }) })),
  ...fileRules('pkg/.claude/rules/r.md').map((rule) => ({ route: 'nestedRules', spelling: rule, build: () => ({
    deny: [rule], files: { 'pkg/.claude/rules/r.md': 'DENIED-MARKER-15\n', 'pkg/src/a.ts': 'a\n' },
    steps: [user('read'), tool('Read', { file_path: 'pkg/src/a.ts' })] }) })),
  ...[['Read(//shared/CLAUDE.md)', 'Read(//shared/.claude/rules/r.md)'], ['Read(//shared/**)'], ['Read(//shared/*.md)', 'Read(//shared/.claude/**)'],
    ['Read(**/CLAUDE.md)', 'Read(**/.claude/rules/**)']].map((rules) => ({
    route: 'additionalDirectoryMemory', spelling: rules.join(' '), build: () => ({
      deny: rules, config: { additionalDirectories: ['/shared'] },
      files: { '/shared/CLAUDE.md': 'DENIED-MARKER-16\n', '/shared/.claude/rules/r.md': 'DENIED-MARKER-17\n', '/shared/src/b.ts': 'b\n' },
      steps: [user('hi'), tool('Read', { file_path: '/shared/src/b.ts' })] }) })),
  ...MEMORY_DIRS.map((dir) => ({ route: 'relevantMemories', spelling: dir, build: () => {
    const abs = dir.replace(/^~/, HOME).replace(/\/+$/, '');
    return {
      deny: [dir.includes('moire') ? 'Read(~/.claude/mémoire/**)' : 'Read(~/.claude/memory/**)'],
      config: { memoryDir: dir },
      files: { [`${abs}/deploy-notes.md`]: '---\nname: deploy\ndescription: how we deploy the kubernetes cluster\n---\nDENIED-MARKER-18 deploy with kubectl\n', [`${abs}/MEMORY.md`]: 'DENIED-MARKER-19 index\n' },
      steps: [user('how do we deploy the kubernetes cluster?'), { kind: 'user', prompt: 'deploy again', memories: [`${abs}/deploy-notes.md`] }, ...talkThenCompact, user('deploy')],
    };
  } })),
  ...['clés/plan.md', `${CWD}/clés/plan.md`, 'clés/plan.md'.normalize('NFD'), '~/.claude/plans/plan.md'].map((planFile) => ({
    route: 'planFile', spelling: planFile, build: (rule) => ({
      deny: [rule, 'Read(~/.claude/plans/**)'], config: { planFile },
      files: { [planFile.normalize('NFC')]: 'DENIED-MARKER-20 the plan\n', 'src/a.ts': 'a\n' },
      // The agent writes the plan (its own words), then the file changes on disk: what
      // compaction restores is the denied file's new content.
      steps: [{ kind: 'setMode', mode: 'plan' }, user('plan it'), tool('Write', { file_path: planFile, content: '1. Plan.\n' }),
        { kind: 'writeFile', path: planFile, content: 'DENIED-MARKER-22 changed plan\n' }, ...talkThenCompact, user('go on'),
        { kind: 'setMode', mode: 'default' }, user('done?')] }) })),
  ...fileRules('.claude/skills/deploy/SKILL.md').map((rule) => ({ route: 'skills', spelling: rule, build: () => ({
    deny: [rule], config: { skills: [{ name: 'deploy', description: 'Deploys.' }] },
    files: { '.claude/skills/deploy/SKILL.md': 'DENIED-MARKER-21\n' },
    steps: [user('deploy'), tool('Skill', { skill: 'deploy' }, { output: 'Deploy with care.' }), ...talkThenCompact, user('again @.claude/skills/deploy/SKILL.md')] }) })),
];

/** Every route × spelling. @type {Combination[]} */
export const COMBINATIONS = [
  ...Object.entries(PATH_ROUTES).flatMap(([route, make]) => Object.entries(SPELLINGS).map(([spelling, spell]) => ({
    route, spelling, build: (/** @type {string} */ rule) => {
      const { extraDeny = [], ...setup } = make(spell(SECRET));
      return { deny: [rule, ...extraDeny], ...setup };
    },
  }))),
  ...MEMORY_COMBINATIONS,
];

/**
 * The parts of a result the model sees, as text: everything but the decisions (the host's
 * explanations) and the steps' echoed inputs.
 * @param {unknown} value
 */
function modelVisible(value) {
  return JSON.stringify(value, function (key, item) {
    if (key === 'decisions') return undefined;
    if (key === 'input' && this && typeof this === 'object' && 'turn' in this) return undefined;
    return item;
  }) ?? '';
}

/** @param {string} text */
function leakedMarker(text) {
  const match = MARKER.exec(text);
  return match ? `${match[0]} in …${text.slice(Math.max(0, match.index - 120), match.index + 40)}…` : null;
}

/** @param {import('../fuzz.mjs').Context} ctx */
export function run(ctx) {
  // Consecutive seeds walk through every combination in turn (further cases of a seed start
  // elsewhere in the list); the rule's spelling is the seed's draw.
  const combination = COMBINATIONS[(ctx.seed - 1 + ctx.caseIndex * 127) % COMBINATIONS.length];
  const rng = ctx.rng;
  const rule = rng.pick(DIR_RULES);
  const setup = combination.build(rule);
  const label = escapeNonAscii(`${combination.route} x ${combination.spelling} (rules ${JSON.stringify(setup.deny)})`);
  for (const profile of ['recommended', 'claude-code']) {
    const scenario = { profile, cwd: CWD, home: HOME, config: { deny: setup.deny, ...setup.config }, files: setup.files, steps: setup.steps };
    const text = JSON.stringify(scenario);
    const answer = runEverywhere(ctx, text, showLongAnswer);
    if (profile !== 'recommended') continue;
    // A route whose scenario does not run checks nothing: that is the suite's bug, not a pass.
    if (answer.error) throw new CaseFailure(`${label}: the route's scenario does not run: ${answer.error}`, reproducer(text));
    const leak = leakedMarker(modelVisible(answer.trace));
    if (leak) throw new CaseFailure(`${label}: runScenario under recommended shows ${leak}`, reproducer(text));
    const sessionLeak = driveSession(ctx, scenario);
    if (sessionLeak) {
      const script = sessionLeak.reproducer.replaceAll(JSON.stringify(LONG_ANSWER), 'LONG');
      throw new CaseFailure(`${label}: a Session under recommended shows ${sessionLeak.leak}`,
        escapeNonAscii(`const LONG = ${JSON.stringify(LONG_SENTENCE)}.repeat(2000); ${script}`));
    }
  }
  if ((combination.route === 'read' || combination.route === 'mention') && SAME_FILE.includes(combination.spelling)) {
    editOracle(ctx, SPELLINGS[/** @type {keyof typeof SPELLINGS} */ (combination.spelling)](SECRET), rule);
  }
}

/**
 * The same session through the Session class (whose arguments cross the JS boundary, NFC
 * normalised there): files written, then each step. Returns the first leak.
 * @param {import('../fuzz.mjs').Context} ctx @param {any} scenario
 */
function driveSession(ctx, scenario) {
  const { engine } = ctx;
  const options = { profile: scenario.profile, cwd: scenario.cwd, home: scenario.home, config: scenario.config };
  const lines = [`const s = new Session(${JSON.stringify(options)});`];
  const session = engine.must('new Session', () => new engine.api.Session(options));
  try {
    for (const [path, content] of Object.entries(scenario.files)) {
      lines.push(`s.writeFile(${JSON.stringify(path)}, ${JSON.stringify(content)}, 1);`);
      engine.must(`writeFile(${JSON.stringify(path)})`, () => session.writeFile(path, content, 1));
    }
    let at = 1000;
    for (const step of scenario.steps) {
      lines.push(`s.step(${JSON.stringify(step)}, ${at});`);
      const turn = engine.attempt(`step ${JSON.stringify(step).slice(0, 100)}`, () => session.step(step, at));
      at += 1000;
      const leak = turn.value && leakedMarker(modelVisible(turn.value));
      if (leak) return { leak, reproducer: lines.join(' ') };
    }
    const read = engine.attempt('currentRequest', () => session.currentRequest(at));
    const leak = read.value && leakedMarker(modelVisible(read.value));
    return leak ? { leak, reproducer: `${lines.join(' ')} s.currentRequest(${at});` } : null;
  } finally {
    session.free();
  }
}

/**
 * Edit on a denied file answers the same whether the file exists and whether the old string
 * is in it: otherwise Edit is an oracle for the denied file's existence and content. Edit trusts the read-file state, so the variants put the denied
 * content there the two ways a session can: the agent wrote the file and it changed on disk
 * within the same millisecond, and eager memory seeded a denied CLAUDE.md.
 * @param {import('../fuzz.mjs').Context} ctx @param {string} path @param {string} rule
 */
function editOracle(ctx, path, rule) {
  const { engine } = ctx;
  const SECRET_TEXT = 'DENIED-MARKER-1 the key\n';
  /**
   * @typedef {{ rule: string, path: string, file: string, exists: boolean, agentWroteFirst: boolean, submitFirst: boolean, oldString: string }} Variant
   * @param {Variant} v
   */
  const script = (v) => [
    `const s = new Session({ cwd: '${CWD}', home: '${HOME}', config: { deny: [${JSON.stringify(v.rule)}] } });`,
    v.agentWroteFirst ? `s.write(${JSON.stringify(v.path)}, 'placeholder\\n', 1);` : '',
    v.exists ? `s.writeFile(${JSON.stringify(v.file)}, ${JSON.stringify(SECRET_TEXT)}, 1);` : '',
    v.submitFirst ? "s.submit('hi', 2);" : '',
    `s.edit(${JSON.stringify(v.path)}, ${JSON.stringify(v.oldString)}, 'replaced', 3);`,
  ].filter(Boolean).join(' ');
  /** @param {Variant} v */
  const answer = (v) => {
    const session = engine.must('new Session', () => new engine.api.Session({ cwd: CWD, home: HOME, config: { deny: [v.rule] } }));
    try {
      if (v.agentWroteFirst) engine.attempt('write', () => session.write(v.path, 'placeholder\n', 1));
      if (v.exists) engine.must('writeFile', () => session.writeFile(v.file, SECRET_TEXT, 1));
      if (v.submitFirst) engine.must('submit', () => session.submit('hi', 2));
      const result = engine.attempt('edit', () => session.edit(v.path, v.oldString, 'replaced', 3));
      const text = result.error ? `throws ${result.error.message}` : JSON.stringify(result.value);
      return text.replaceAll(v.oldString, '<old>');
    } finally {
      session.free();
    }
  };
  /** @param {Partial<Variant>} common @returns {Variant[]} */
  const contentAndExistence = (common) => {
    const base = { rule, path, file: SECRET, exists: true, agentWroteFirst: false, submitFirst: false, oldString: 'the key', ...common };
    return [base, { ...base, oldString: 'not in the file' }, { ...base, exists: false }];
  };
  const groups = [
    contentAndExistence({}),
    contentAndExistence({ agentWroteFirst: true }),
    contentAndExistence({ rule: 'Read(./CLAUDE.md)', path: 'CLAUDE.md', file: 'CLAUDE.md', submitFirst: true }),
  ];
  for (const variants of groups) {
    const answers = variants.map(answer);
    const differs = answers.findIndex((a) => a !== answers[0]);
    if (differs >= 0) {
      throw new CaseFailure(`Edit on the denied file ${JSON.stringify(variants[0].path)} answers differently: ${clip(answers[0], 200)} vs ${clip(answers[differs], 200)}`,
        escapeNonAscii(`${script(variants[0])} // vs: ${script(variants[differs])}`));
    }
  }
}
