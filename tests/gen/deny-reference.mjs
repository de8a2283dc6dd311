// Writes tests/fixtures/deny.json from the real npm `ignore@7.0.17`, the gitignore engine
// behind Claude Code's Read deny rules (spec/claude-code.md §2.4).
//
//   npm install --no-save --prefix /tmp/ignore-ref ignore@7.0.17   # outside the repository
//   node tests/gen/deny-reference.mjs /tmp/ignore-ref
//
// "cases": (patterns, path) pairs with what `ignore().add(patterns).test(path)` says:
//   { patterns, path, ignored, rule?, ignoreCase? }
//   `rule` is the pattern string that ignored the path (when ignored); `ignoreCase: false`
//   marks a case built with `ignore({ ignorecase: false })` (the default is true, as in
//   Claude Code). Hand-picked edge cases first, then deterministic random ones.
// "rules": hand-written deny-rule cases (§2.2–2.4 and quirks Q11–Q13) under both presets;
//   the shape is documented in crate/tests/deny.rs. Every `claude-code` expectation is
//   checked here against a port of `matchingRuleForInput` on the real `ignore`, so a
//   hand-written expectation that disagrees with the original stops the script.
import { writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, posix } from 'node:path';
import { seededRandom } from './random.mjs';

const install = process.argv[2];
if (!install) {
  console.error('usage: node tests/gen/deny-reference.mjs <dir holding node_modules/ignore>');
  process.exit(2);
}
const require = createRequire(join(install, 'node_modules', 'noop.js'));
const ignore = require('ignore');
const { version } = require('ignore/package.json');
if (version !== '7.0.17') throw new Error(`expected ignore@7.0.17, found ${version}`);

const OUT = new URL('../fixtures/deny.json', import.meta.url);
const SEED = 0xde11_7e57;
const RANDOM_CASES = 500;

const random = seededRandom(SEED);
const int = (n) => Math.floor(random() * n);
const pick = (items) => items[int(items.length)];
const chance = (p) => random() < p;

function reference(patterns, path, ignoreCase = true) {
  const ig = ignore(ignoreCase ? {} : { ignorecase: false }).add(patterns);
  const result = ig.test(path);
  const c = { patterns, path, ignored: result.ignored };
  if (result.ignored && result.rule) c.rule = result.rule.pattern;
  if (!ignoreCase) c.ignoreCase = false;
  return c;
}

// ---- hand-picked gitignore cases -------------------------------------------------------
const EDGE_PATHS = ['a', 'a/', 'a/b', 'a/b/', 'x/a', 'x/a/b', 'a/x/b', 'b', 'A/B', '.env', 'x/.env',
  'secrets', 'secrets/', 'secrets/k', 'x/secrets/k', '*', 'a*', '[a]', '!x', '#x', 'a ', 'a b',
  'ab/c', 'abc', 'a/b/c/d', 'src/secret.ts', 'x/src/secret.ts', 'k.pem', 'x/y/k.pem', 'a😀', 'a😀b'];
const EDGE_PATTERNS = [
  '.env', 'secrets', 'secrets/', 'secrets/**', 'src/secret.ts', '*.env', '**/*.pem', 'a/**/b',
  'a/**', 'a/**/', '/**/', '**/', '**', '*', '/*', 'a/*', '/a', 'a/', '/a/', '//a', 'a//b',
  '***/b', 'a/***', 'a***', 'a**b', '\\*', '\\*a', 'a\\*', '\\?', 'a?', 'a??', '?', '[ab]',
  '[!a]', '[^a]', '[a-c]', '[z-a]', '[]]', '[]', '[', '[a', '[[:alpha:]]', '[[:nope:]]', '[[:x',
  '\\[a]', 'a\\ ', 'a  ', 'a b', '\\!x', '!x', '#x', '\\#x', 'a\\/', 'a\\/b', '\\a', 'A',
  '**/a/b', 'a/**/**/b', '/**', 'x/**/*.pem', '*/', '*/*', 'a*/', '[a-]', '[\\]]', 'a\\',
];
const edgeCases = [];
for (const pattern of EDGE_PATTERNS) {
  for (const path of EDGE_PATHS) edgeCases.push(reference([pattern], path));
}
const NEGATIONS = [
  [['*.env', '!keep.env'], ['keep.env', 'a.env', 'x/keep.env']],
  [['secrets/', '!secrets/ok'], ['secrets/ok', 'secrets/no']],
  [['!a', 'a'], ['a', 'a/b']],
  [['a', '!a/b'], ['a/b', 'a/c']],
  [['*', '!*/'], ['a', 'a/b', 'a/']],
];
for (const [patterns, paths] of NEGATIONS) {
  for (const path of paths) edgeCases.push(reference(patterns, path));
}
edgeCases.push(reference(['.env'], '.ENV', false), reference(['[a-c]'], 'B', false));

// ---- random cases ----------------------------------------------------------------------
const NAMES = ['a', 'b', 'src', '.env', 'secrets', 'x.ts', 'key.pem', 'A', 'Src', 'é', '日本', 'a b'];
const ATOMS = ['*', '?', '[ab]', '[!a]', '[a-c]', '[[:digit:]]', '\\*', '\\?', '*.ts', 'a*', '*b', '**', '***'];

function randomPattern() {
  let p = '';
  if (chance(0.1)) p += '!';
  if (chance(0.2)) p += '/';
  if (chance(0.1)) p += '**/';
  const segments = 1 + int(3);
  const parts = [];
  for (let i = 0; i < segments; i++) {
    let seg = chance(0.55) ? pick(NAMES) : pick(ATOMS);
    if (chance(0.2)) seg += chance(0.5) ? pick(NAMES) : pick(ATOMS);
    parts.push(seg);
  }
  p += parts.join('/');
  if (chance(0.15)) p += '/';
  else if (chance(0.1)) p += '/**';
  return p;
}

/** A path likely to interest `pattern`: its wildcards filled in, sometimes moved deeper. */
function instantiate(pattern) {
  let p = pattern.replace(/^!/, '').replace(/^\/+/, '');
  p = p.replace(/\*\*\*?/g, () => Array.from({ length: int(3) }, () => pick(NAMES)).join('/'));
  p = p
    .replace(/\[\[:digit:\]\]/g, () => String(int(10)))
    .replace(/\[!a\]/g, () => pick(['b', 'a', 'z']))
    .replace(/\[[^\]]*\]/g, () => pick(['a', 'b', 'c', 'd']))
    .replace(/\\\*/g, '*')
    .replace(/\\\?/g, '?')
    .replace(/\*/g, () => pick(['', 'q', 'x.ts', 'A']))
    .replace(/\?/g, () => pick(['x', 'é', '/']));
  p = p.split('/').filter(Boolean).join('/');
  if (chance(0.3)) p = `${pick(NAMES)}/${p}`;
  if (chance(0.3)) p = `${p}/${pick(NAMES)}`;
  if (chance(0.2)) p = p.toUpperCase();
  if (chance(0.1)) p += '/';
  return p || pick(NAMES);
}

function randomPath() {
  const depth = 1 + int(4);
  let p = Array.from({ length: depth }, () => pick(NAMES)).join('/');
  if (chance(0.1)) p += '/';
  return p;
}

const randomCases = [];
while (randomCases.length < RANDOM_CASES) {
  const patterns = Array.from({ length: 1 + int(3) }, randomPattern);
  const path = chance(0.6) ? instantiate(pick(patterns)) : randomPath();
  if (ignore.isPathValid(path)) randomCases.push(reference(patterns, path, !chance(0.2)));
}

// ---- deny-rule cases (hand-written) ----------------------------------------------------
const ROOTS = {
  originalCwd: '/p',
  home: '/home/u',
  claudeConfigDir: '/home/u/.claude',
  flagSettingsDir: '/etc/cc',
};
const r = (text, source = 'projectSettings') => ({ text, source });
const denied = (rule, source, pattern, root) => ({ rule, source, pattern, root });
const BOTH = ['claude-code', 'recommended'];

/** name, presets, rules, cwd, path, expected (null = allowed) — or `error` instead. */
const RULE_CASES = [
  // §2.3 roots
  ['`//abs` is rooted at /', BOTH, [r('Read(//etc/secret)', 'session')], '/p', '/etc/secret',
    denied('Read(//etc/secret)', 'session', '/etc/secret', '/')],
  ['`//abs` is anchored', BOTH, [r('Read(//etc/secret)', 'session')], '/p', '/x/etc/secret', null],
  ['`~/x` is rooted at home', BOTH, [r('Read(~/.ssh/**)', 'userSettings')], '/p', '/home/u/.ssh/id_rsa',
    denied('Read(~/.ssh/**)', 'userSettings', '/.ssh/**', '/home/u')],
  ['`~/x` does not reach into the project', BOTH, [r('Read(~/.ssh/**)', 'userSettings')], '/p', '/p/.ssh/id_rsa', null],
  ['`/x` in project settings: original cwd', BOTH, [r('Read(/build/**)')], '/p/sub', '/p/build/out.js',
    denied('Read(/build/**)', 'projectSettings', '/build/**', '/p')],
  ['`/x` is anchored at its root', BOTH, [r('Read(/build/**)')], '/p/sub', '/p/sub/build/out.js', null],
  ['`/x` in user settings: ~/.claude', BOTH, [r('Read(/notes.md)', 'userSettings')], '/p', '/home/u/.claude/notes.md',
    denied('Read(/notes.md)', 'userSettings', '/notes.md', '/home/u/.claude')],
  ['`/x` in user settings is not the project', BOTH, [r('Read(/notes.md)', 'userSettings')], '/p', '/p/notes.md', null],
  ['`/x` in flag settings: the flag file directory', BOTH, [r('Read(/x.txt)', 'flagSettings')], '/p', '/etc/cc/x.txt',
    denied('Read(/x.txt)', 'flagSettings', '/x.txt', '/etc/cc')],
  ['`/x` in policy settings: original cwd', BOTH, [r('Read(/x.txt)', 'policySettings')], '/p', '/p/x.txt',
    denied('Read(/x.txt)', 'policySettings', '/x.txt', '/p')],
  ['`/x` from the CLI: original cwd', BOTH, [r('Read(/x.txt)', 'cliArg')], '/p/a', '/p/x.txt',
    denied('Read(/x.txt)', 'cliArg', '/x.txt', '/p')],
  ['`~user` is a relative pattern', BOTH, [r('Read(~bob/x)')], '/p', '/p/~bob/x',
    denied('Read(~bob/x)', 'projectSettings', '~bob/x', '/p')],
  // §2.4 matching
  ['unanchored name, any depth', BOTH, [r('Read(*.env)')], '/p', '/p/deep/er/prod.env',
    denied('Read(*.env)', 'projectSettings', '*.env', '/p')],
  ['**/*.pem, any depth', BOTH, [r('Read(**/*.pem)')], '/p', '/p/a/b/k.pem',
    denied('Read(**/*.pem)', 'projectSettings', '**/*.pem', '/p')],
  ['inner slash anchors', BOTH, [r('Read(src/secret.ts)')], '/p', '/p/a/src/secret.ts', null],
  ['inner slash anchors: at the root', BOTH, [r('Read(src/secret.ts)')], '/p', '/p/src/secret.ts',
    denied('Read(src/secret.ts)', 'projectSettings', 'src/secret.ts', '/p')],
  ['trailing slash: contents', BOTH, [r('Read(secrets/)')], '/p', '/p/secrets/key',
    denied('Read(secrets/)', 'projectSettings', 'secrets/', '/p')],
  ['trailing slash: not the bare path', BOTH, [r('Read(secrets/)')], '/p', '/p/secrets', null],
  ['`secrets/**` loses its suffix: any depth (Q12)', BOTH, [r('Read(secrets/**)')], '/p', '/p/x/secrets/a',
    denied('Read(secrets/**)', 'projectSettings', 'secrets/**', '/p')],
  ['`secrets/**` also denies the directory itself', BOTH, [r('Read(secrets/**)')], '/p', '/p/secrets',
    denied('Read(secrets/**)', 'projectSettings', 'secrets/**', '/p')],
  ['`pattern/**` is reported before `pattern`', BOTH, [r('Read(secrets)'), r('Read(secrets/**)', 'localSettings')], '/p', '/p/secrets/a',
    denied('Read(secrets/**)', 'localSettings', 'secrets/**', '/p')],
  ['same pattern twice: the later rule', BOTH, [r('Read(./.env)'), r('Read(.env)', 'localSettings')], '/p', '/p/.env',
    denied('Read(.env)', 'localSettings', '.env', '/p')],
  ['negation re-includes', BOTH, [r('Read(*.env)'), r('Read(!keep.env)')], '/p', '/p/keep.env', null],
  ['negation: others stay denied', BOTH, [r('Read(*.env)'), r('Read(!keep.env)')], '/p', '/p/a.env',
    denied('Read(*.env)', 'projectSettings', '*.env', '/p')],
  ['a file inside a denied directory', BOTH, [r('Read(build)'), r('Read(!build/keep)')], '/p', '/p/build/keep',
    denied('Read(build)', 'projectSettings', 'build', '/p')],
  ['escaped parentheses', BOTH, [r('Read(a\\(1\\).txt)')], '/p', '/p/a(1).txt',
    denied('Read(a\\(1\\).txt)', 'projectSettings', 'a(1).txt', '/p')],
  ['other tools are not Read rules', BOTH, [r('Edit(.env)'), r('Bash(cat .env)')], '/p', '/p/.env', null],
  ['outside every root', BOTH, [r('Read(.env)')], '/p', '/q/.env', null],
  ['the root itself is never matched', BOTH, [r('Read(**)')], '/p', '/p', null],
  ['everything below the root', BOTH, [r('Read(**)')], '/p', '/p/a',
    denied('Read(**)', 'projectSettings', '**', '/p')],
  ['a trailing slash on the path is dropped', BOTH, [r('Read(.env)')], '/p', '/p/.env/',
    denied('Read(.env)', 'projectSettings', '.env', '/p')],
  // Q11: tool-wide rules
  ['Q11 `Read`', ['claude-code'], [r('Read')], '/p', '/p/a.txt', null],
  ['Q11 `Read`', ['recommended'], [r('Read')], '/p', '/p/a.txt', denied('Read', 'projectSettings', '', '/')],
  ['Q11 `Read()`', ['claude-code'], [r('Read()')], '/p', '/p/a.txt', null],
  ['Q11 `Read()`', ['recommended'], [r('Read()')], '/p', '/elsewhere/a.txt', denied('Read()', 'projectSettings', '', '/')],
  ['Q11 `Read(*)`', ['claude-code'], [r('Read(*)', 'session')], '/p', '/p/a.txt', null],
  ['Q11 `Read(*)`', ['recommended'], [r('Read(*)', 'session')], '/p', '/p/a.txt', denied('Read(*)', 'session', '', '/')],
  ['Q11 `Read(**)` is a pattern, not tool-wide', ['claude-code'], [r('Read(**)')], '/p', '/q/a.txt', null],
  // Q12: `./` patterns
  ['Q12 `./.env` at the root', ['claude-code'], [r('Read(./.env)')], '/p', '/p/.env',
    denied('Read(./.env)', 'projectSettings', '.env', '/p')],
  ['Q12 `./.env` at any depth', ['claude-code'], [r('Read(./.env)')], '/p', '/p/a/b/.env',
    denied('Read(./.env)', 'projectSettings', '.env', '/p')],
  ['Q12 `./.env` anchored', ['recommended'], [r('Read(./.env)')], '/p', '/p/a/b/.env', null],
  ['Q12 fixed pattern is reported anchored', ['recommended'], [r('Read(./.env)')], '/p', '/p/.env',
    denied('Read(./.env)', 'projectSettings', '/.env', '/p')],
  ['Q12 `./secrets/**` anchored', ['recommended'], [r('Read(./secrets/**)')], '/p', '/p/x/secrets/a', null],
  ['Q12 `./secrets/**` at the root', ['recommended'], [r('Read(./secrets/**)')], '/p', '/p/secrets/a',
    denied('Read(./secrets/**)', 'projectSettings', '/secrets/**', '/p')],
  // Q13: relative rules and the cwd
  ['Q13 relative rule above the current cwd', ['claude-code'], [r('Read(.env)')], '/p/a', '/p/.env', null],
  ['Q13 relative rule uses the project root', ['recommended'], [r('Read(.env)')], '/p/a', '/p/.env',
    denied('Read(.env)', 'projectSettings', '.env', '/p')],
  ['Q13 `./x` follows the current cwd', ['claude-code'], [r('Read(./x)')], '/p/a', '/p/a/x',
    denied('Read(./x)', 'projectSettings', 'x', '/p/a')],
  ['Q13 `./x` stays at the project root', ['recommended'], [r('Read(./x)')], '/p/a', '/p/a/x', null],
  ['Q13 the parent of the cwd', ['claude-code'], [r('Read(p)')], '/p/a', '/p', null],
  // case: npm ignore() ignores case by default
  ['mixed case: the original folds case', ['claude-code'], [r('Read(.env)')], '/p', '/p/.ENV',
    denied('Read(.env)', 'projectSettings', '.env', '/p')],
  ['mixed case names another file', ['recommended'], [r('Read(.env)')], '/p', '/p/.ENV', null],
  ['roots compare case-sensitively', BOTH, [r('Read(.env)')], '/p', '/P/.env', null],
  // malformed rules
  ['unclosed parenthesis', BOTH, [r('Read(.env')], '/p', '/p/.env', { error: 'permissions.deny[0]' }],
  ['text after the parenthesis', BOTH, [r('Read(.env)'), r('Read(a)b')], '/p', '/p/.env', { error: 'permissions.deny[1]' }],
  ['no tool name', BOTH, [r('(x)')], '/p', '/p/x', { error: 'permissions.deny[0]' }],
  ['empty rule', BOTH, [r('')], '/p', '/p/x', { error: 'permissions.deny[0]' }],
];

// ---- a port of the original's matchingRuleForInput, on the real `ignore` ---------------
function unescapedAt(s, ch, fromEnd) {
  const indices = [...s].map((_, i) => i).filter((i) => s[i] === ch);
  if (fromEnd) indices.reverse();
  for (const i of indices) {
    let n = 0;
    for (let j = i - 1; j >= 0 && s[j] === '\\'; j--) n++;
    if (n % 2 === 0) return i;
  }
  return -1;
}
function parseRule(s) {
  const open = unescapedAt(s, '(', false);
  if (open === -1) return { toolName: s };
  const close = unescapedAt(s, ')', true);
  if (close === -1 || close <= open || close !== s.length - 1) return { toolName: s };
  const toolName = s.substring(0, open);
  const raw = s.substring(open + 1, close);
  if (!toolName) return { toolName: s };
  if (raw === '' || raw === '*') return { toolName };
  return { toolName, ruleContent: raw.replace(/\\\(/g, '(').replace(/\\\)/g, ')').replace(/\\\\/g, '\\') };
}
function settingsRoot(source) {
  if (source === 'userSettings') return ROOTS.claudeConfigDir;
  if (source === 'flagSettings') return ROOTS.flagSettingsDir;
  return ROOTS.originalCwd;
}
function patternWithRoot(pattern, source) {
  if (pattern.startsWith('//')) return { relativePattern: pattern.slice(1), root: '/' };
  if (pattern.startsWith('~/')) return { relativePattern: pattern.slice(1), root: ROOTS.home };
  if (pattern.startsWith('/')) return { relativePattern: pattern, root: settingsRoot(source) };
  return { relativePattern: pattern.startsWith('./') ? pattern.slice(2) : pattern, root: null };
}
function originalDenial(rules, cwd, path) {
  const byRoot = new Map();
  for (const rule of rules) {
    const value = parseRule(rule.text);
    if (value.toolName !== 'Read' || value.ruleContent === undefined) continue;
    const { relativePattern, root } = patternWithRoot(value.ruleContent, rule.source);
    if (!byRoot.has(root)) byRoot.set(root, new Map());
    byRoot.get(root).set(relativePattern, rule);
  }
  const abs = posix.normalize(path);
  for (const [root, map] of byRoot) {
    const patterns = [...map.keys()].map((p) => (p.endsWith('/**') ? p.slice(0, -3) : p));
    const rel = posix.relative(root ?? cwd, abs);
    if (rel.startsWith('../') || !rel) continue;
    let result;
    try {
      result = ignore().add(patterns).test(rel);
    } catch {
      continue; // `..`: `ignore` throws; nothing is denied by this group
    }
    if (result.ignored && result.rule) {
      const key = map.has(`${result.rule.pattern}/**`) ? `${result.rule.pattern}/**` : result.rule.pattern;
      const rule = map.get(key);
      return denied(rule.text, rule.source, key, root ?? cwd);
    }
  }
  return null;
}

const rules = [];
for (const [name, presets, ruleList, cwd, path, expected] of RULE_CASES) {
  for (const preset of presets) {
    const c = { name, preset, rules: ruleList, cwd, path };
    if (expected && 'error' in expected) c.error = expected.error;
    else c.denied = expected;
    if (preset === 'claude-code' && !c.error) {
      const got = originalDenial(ruleList, cwd, path);
      if (JSON.stringify(got) !== JSON.stringify(expected)) {
        throw new Error(`${name}: the original gives ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`);
      }
    }
    rules.push(c);
  }
}

// One case per line: the file stays readable and its diffs small.
const cases = [...edgeCases, ...randomCases];
const list = (items) => items.map((item) => `  ${JSON.stringify(item)}`).join(',\n');
writeFileSync(
  OUT,
  `{\n "roots": ${JSON.stringify(ROOTS)},\n "cases": [\n${list(cases)}\n ],\n "rules": [\n${list(rules)}\n ]\n}\n`,
);
const ignored = cases.filter((c) => c.ignored).length;
console.log(`wrote ${cases.length} cases (${ignored} ignored) and ${rules.length} rule cases`);
