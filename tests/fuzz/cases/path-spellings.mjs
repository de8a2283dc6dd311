// Path spellings: one file reached through NFC and NFD, `./`, `//`, `..`, absolute and `~`
// forms is one file; spellings that name another file (other case, another lone
// surrogate) never reach it; the odd ones (backslashes, URLs, percent-escapes) never trap;
// and a scenario spelled any of these ways runs the same natively and in wasm.
import { CaseFailure } from '../engine.mjs';
import { escapeNonAscii } from '../checks.mjs';
import { runEverywhere } from './mutated-scenarios.mjs';

const CWD = '/p';
const HOME = '/home/u';
const NAMES = ['a.txt', 'src/café.ts', 'dir with space/x y.md', 'ünï/cödé.rs', '日本/語.txt', 'emoji😀/f.txt',
  'Å/Ω.txt', 'a/b/c/d.txt', 'ȧ̀/x.md', '.hidden/.env', 'x-1/@y.ts'];

/** Spellings of `rel` (relative to the cwd) that name the same file. */
export const SAME_FILE = {
  relative: (/** @type {string} */ rel) => rel,
  dot: (/** @type {string} */ rel) => `./${rel}`,
  absolute: (/** @type {string} */ rel) => `${CWD}/${rel}`,
  doubleSlashes: (/** @type {string} */ rel) => `${CWD}//${rel.replaceAll('/', '//')}`,
  dotDot: (/** @type {string} */ rel) => `zz/../${rel}`,
  dotSegments: (/** @type {string} */ rel) => `./${rel.replaceAll('/', '/./')}`,
  home: (/** @type {string} */ rel) => `~/../../p/${rel}`,
  nfd: (/** @type {string} */ rel) => rel.normalize('NFD'),
  nfdAbsolute: (/** @type {string} */ rel) => `${CWD}/${rel}`.normalize('NFD'),
};

/** Spellings that are either another file or no file: they must not trap. */
const ODD = {
  backslashes: (/** @type {string} */ rel) => rel.replaceAll('/', '\\'),
  fileUrl: (/** @type {string} */ rel) => `file://${CWD}/${rel}`,
  percent: (/** @type {string} */ rel) => encodeURIComponent(rel),
  upperCase: (/** @type {string} */ rel) => rel.toUpperCase(),
  trailingSlash: (/** @type {string} */ rel) => `${rel}/`,
  aboveRoot: (/** @type {string} */ rel) => `../../../../${rel}`,
  nul: (/** @type {string} */ rel) => `${rel}\0`,
  loneSurrogate: (/** @type {string} */ rel) => `${rel}\uD800`,
  nfkc: (/** @type {string} */ rel) => rel.normalize('NFKC'),
  empty: () => '',
};

/** @typedef {import('../fuzz.mjs').Context} Context */

/** @param {Context} ctx */
export function run(ctx) {
  const { rng } = ctx;
  [sameFile, distinctFiles, oddSpellings, scenarioSpellings][rng.below(4)](ctx);
}

/** Written under one spelling, read under another of the same file. @param {Context} ctx */
function sameFile(ctx) {
  const { rng, engine } = ctx;
  const rel = rng.pick(NAMES);
  const [writeAs, readAs] = [rng.pick(Object.keys(SAME_FILE)), rng.pick(Object.keys(SAME_FILE))];
  const written = SAME_FILE[writeAs](rel), read = SAME_FILE[readAs](rel);
  const content = `CONTENT-${ctx.seed}\n`;
  const reproducer = escapeNonAscii(`const s = new Session({ cwd: '${CWD}', home: '${HOME}' }); s.writeFile(${JSON.stringify(written)}, ${JSON.stringify(content)}, 1); s.readFileText(${JSON.stringify(read)});`);
  const session = engine.must('new Session', () => new engine.api.Session({ cwd: CWD, home: HOME }));
  try {
    engine.must(`writeFile(${JSON.stringify(written)})`, () => session.writeFile(written, content, 1));
    const text = engine.attempt(`readFileText(${JSON.stringify(read)})`, () => session.readFileText(read));
    if (text.value !== content) {
      throw new CaseFailure(escapeNonAscii(`written as ${writeAs} ${JSON.stringify(written)}, read as ${readAs} ${JSON.stringify(read)}: ${text.error ? text.error.message : JSON.stringify(text.value)}`), reproducer);
    }
    // A mention in the prompt reaches the same file (quoted: names may hold spaces).
    const turn = engine.must('submit', () => session.submit(`look at @"${read}"`, 2));
    if (!JSON.stringify(turn).includes(`CONTENT-${ctx.seed}`)) {
      throw new CaseFailure(escapeNonAscii(`a mention of ${readAs} ${JSON.stringify(read)} did not attach the file written as ${writeAs} ${JSON.stringify(written)}`),
        `${reproducer} ${escapeNonAscii(`s.submit(${JSON.stringify(`look at @"${read}"`)}, 2);`)}`);
    }
  } finally {
    session.free();
  }
}

/** Two names that differ are two files. @param {Context} ctx */
function distinctFiles(ctx) {
  const { rng, engine } = ctx;
  const pairs = [['x\uD800.txt', 'x\uDC00.txt'], ['x\uD800.txt', 'x\uFFFD.txt'], ['\uDBFF\uDBFF', '\uDFFF'],
    ['A.txt', 'a.txt'], ['café.txt', 'cafe\u0300.txt'], ['ﬁ.txt', 'fi.txt'], ['a\\b.txt', 'a/b.txt'], ['a b', 'a%20b']];
  const [first, second] = rng.pick(pairs);
  const reproducer = escapeNonAscii(`const s = new Session({ cwd: '${CWD}' }); s.writeFile(${JSON.stringify(first)}, 'FIRST', 1); s.readFileText(${JSON.stringify(second)});`);
  const session = engine.must('new Session', () => new engine.api.Session({ cwd: CWD }));
  try {
    // Refusing a name (a lone surrogate is not text) is fine; reaching another file is not.
    if (engine.attempt('writeFile', () => session.writeFile(first, 'FIRST', 1)).error) return;
    const seen = engine.attempt('readFileText', () => session.readFileText(second));
    if (seen.value === 'FIRST') {
      throw new CaseFailure(escapeNonAscii(`${JSON.stringify(first)} and ${JSON.stringify(second)} are one file`), reproducer);
    }
  } finally {
    session.free();
  }
}

/** Every path-taking method with an odd spelling: an answer or an Error. @param {Context} ctx */
function oddSpellings(ctx) {
  const { rng, engine } = ctx;
  const rel = rng.pick(NAMES);
  const name = rng.pick(Object.keys(ODD));
  const path = ODD[name](rel);
  const session = engine.must('new Session', () => new engine.api.Session({ cwd: CWD, home: HOME, profile: rng.pick(['claude-code', 'recommended', 'codex']) }));
  engine.must('writeFile', () => session.writeFile(rel, 'x\n', 1));
  const calls = [
    ['stat', () => session.stat(path)], ['readFileText', () => session.readFileText(path)],
    ['read', () => session.read(path, undefined, 2)], ['listDir', () => session.listDir(path)],
    ['mkdir', () => session.mkdir(path, 3)], ['writeFile', () => session.writeFile(path, 'y', 4)],
    ['edit', () => session.edit(path, 'x', 'z', 5)], ['write', () => session.write(path, 'w', 6)],
    ['rename', () => session.rename(rel, path, 7)], ['deleteFile', () => session.deleteFile(path, 8)],
    ['submit', () => session.submit(`see @${path} and @"${path}"`, 9)], ['searchFiles', () => session.searchFiles(path, undefined)],
    ['setTransientError', () => session.setTransientError(path, 'EACCES')], ['toolRound', () => session.toolRound(10)],
  ];
  for (const [method, call] of calls) engine.attempt(`session.${method}(${JSON.stringify(path)}) (${name})`, /** @type {() => unknown} */ (call));
  engine.must(`after the ${name} spellings: currentRequest`, () => session.currentRequest(11));
  session.free();
}

/** A scenario whose files and steps use the spellings: native and wasm agree. @param {Context} ctx */
function scenarioSpellings(ctx) {
  const { rng } = ctx;
  const rel = rng.pick(NAMES);
  const spell = () => rng.pick([...Object.values(SAME_FILE), ...Object.values(ODD)])(rel);
  const scenario = {
    profile: rng.pick(['claude-code', 'recommended', 'codex']),
    cwd: CWD,
    home: HOME,
    config: { deny: [`Read(${rng.pick([`./${rel}`, rel, `./${rel}`.normalize('NFD'), `//p/${rel}`, '**/*.md'])})`] },
    files: { [rng.chance(0.5) ? rel : rel.normalize('NFD')]: 'one\ntwo\n', 'CLAUDE.md': `See @${spell()}\n` },
    steps: [
      { kind: 'user', prompt: `look at @"${spell()}"` },
      { kind: 'assistant', blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: spell() } }] },
      { kind: 'writeFile', path: spell(), content: 'three\n' },
      { kind: 'assistant', blocks: [{ type: 'tool_use', name: 'Glob', input: { pattern: '**' } }] },
      { kind: 'user', prompt: 'and now?' },
    ],
  };
  runEverywhere(ctx, JSON.stringify(scenario));
}
