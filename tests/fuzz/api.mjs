// Every export of the package and every Session method, with a valid value for each
// argument. Arguments are JS expressions, so a call with one of them replaced by a hostile
// expression is both what runs and what the reproducer prints.

/** A small scenario that runs under every profile. */
export const SMALL_SCENARIO = {
  profile: 'claude-code',
  files: { 'a.ts': 'export const a = 1;\n', 'CLAUDE.md': 'Use tabs.\n' },
  steps: [
    { kind: 'user', prompt: 'look at @a.ts' },
    { kind: 'assistant', blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: 'a.ts' } }] },
    { kind: 'assistant', blocks: [{ type: 'text', text: 'Done.' }] },
  ],
};

/** A small request as a trace gives it: a system prompt, a tool, a call and its result. */
const SMALL_REQUEST = {
  system: [{ type: 'text', text: 'Be brief.' }, { type: 'text', text: '<env>\n</env>', cacheBoundary: true }],
  tools: [{ type: 'tool_definition', source: 'Read', text: '{"name":"Read","description":"Reads a file.","input_schema":{"type":"object"}}' }],
  userContext: [{ type: 'text', text: '<system-reminder>\n# currentDate\n</system-reminder>\n' }],
  userContextAt: { message: 0, block: 0 },
  messages: [
    { role: 'user', content: [{ type: 'text', text: 'look at a.ts' }] },
    { role: 'assistant', content: [{ type: 'tool_use', source: 'Read', toolUseId: 'toolu_1', text: '{"file_path":"/p/a.ts"}' }] },
    { role: 'user', content: [{ type: 'tool_result', source: 'Read', toolUseId: 'toolu_1', text: '1\texport const a = 1;' }] },
  ],
};

const SESSION_CONFIG = {
  deny: ['Read(./.env)'], additionalDirectories: ['/shared'], memoryDir: '~/.claude/memory',
  skills: [{ name: 'pdf', description: 'Reads PDFs.' }], contextWindow: 50000, outputReserve: 8000,
};

/**
 * @typedef {{ name: string, valid: unknown, keys?: string[] }} Arg
 *   `valid`: a value JSON can write; `keys`: the allowed keys of an options object.
 * @typedef {{ name: string, method?: boolean, receiver?: 'searcher', args: Arg[] }} Entry
 */

/** A short Codex rollout in our own words: a session, a prompt, an answer and its usage. */
const CODEX_LOG = [
  { timestamp: '2026-01-01T00:00:00.000Z', type: 'session_meta', payload: { cwd: '/repo' } },
  { timestamp: '2026-01-01T00:00:01.000Z', type: 'event_msg', payload: { type: 'user_message', message: 'Hi' } },
  { timestamp: '2026-01-01T00:00:02.000Z', type: 'response_item', payload: { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Hello.' }] } },
].map((line) => JSON.stringify(line)).join('\n');

/** The exports that are classes: a call is `new Name(…)`. */
export const CONSTRUCTORS = ['Session', 'SessionImport', 'FileSearcher'];

/** A session's snapshot: a file written, then a turn that mentions it. */
const SMALL_SNAPSHOT = JSON.stringify({
  snapshot: 'context-assembly session',
  formatVersion: 1,
  engine: '0.0.0',
  session: { profile: 'claude-code', cwd: '/p', home: null, config: null },
  acts: [
    { act: 'writeFile', path: 'a.txt', text: 'a\n', mtimeMs: 1 },
    { act: 'submit', prompt: 'read @a.txt', atMs: 2 },
  ],
});

/** @type {Entry[]} */
export const FUNCTIONS = [
  { name: 'profileNames', args: [] },
  { name: 'profileReleases', args: [] },
  { name: 'defaultPrices', args: [{ name: 'profile', valid: 'codex' }] },
  { name: 'version', args: [] },
  { name: 'emissionOrder', args: [] },
  { name: 'atToken', args: [{ name: 'text', valid: 'see @src/a' }, { name: 'caret', valid: 8 }] },
  { name: 'completionInsertion', args: [{ name: 'path', valid: 'src/a b.ts' }, { name: 'asMention', valid: true },
    { name: 'options', valid: { profile: 'claude-code' }, keys: ['profile'] }] },
  { name: 'mentionKinds', args: [] },
  { name: 'searchPaths', args: [
    { name: 'paths', valid: ['src/', 'src/app.ts', 'docs/a.md'] }, { name: 'query', valid: 'app' },
    { name: 'options', valid: { limit: 5 }, keys: ['limit'] }] },
  { name: 'FileSearcher', args: [{ name: 'paths', valid: ['src/', 'src/app.ts', 'docs/a.md'] }] },
  { name: 'importSession', args: [
    { name: 'text', valid: CODEX_LOG }, { name: 'options', valid: { format: 'codex' }, keys: ['format', 'onProgress'] }] },
  { name: 'SessionImport', args: [{ name: 'options', valid: { format: 'codex' }, keys: ['format'] }] },
  { name: 'compactionPolicies', args: [] },
  { name: 'extractMentions', args: [
    { name: 'text', valid: 'see @a.ts, @"b c.md"#L1-2 and @docs:guide' },
    { name: 'options', valid: { profile: 'claude-code' }, keys: ['profile'] }] },
  { name: 'extractMentionSpans', args: [
    { name: 'text', valid: 'see @a.ts, @"b c.md"#L1-2 and @agent-x' },
    { name: 'options', valid: { profile: 'claude-code' }, keys: ['profile'] }] },
  { name: 'mentionAt', args: [
    { name: 'text', valid: 'see @a.ts, @"b c.md"#L1-2 and @agent-x' },
    { name: 'cursor', valid: 6 },
    { name: 'options', valid: { profile: 'recommended' }, keys: ['profile'] }] },
  { name: 'estimateTokens', args: [
    { name: 'text', valid: 'fn main() {}\n' },
    { name: 'options', valid: { method: 'calibrated', ext: 'rs' }, keys: ['profile', 'method', 'ext'] }] },
  { name: 'diffSnippet', args: [
    { name: 'before', valid: 'a\nb\nc\n' }, { name: 'after', valid: 'a\nB\nc\n' },
    { name: 'options', valid: { profile: 'claude-code' }, keys: ['profile'] }] },
  { name: 'diffSnippetReport', args: [
    { name: 'before', valid: 'a\nb\nc\n' }, { name: 'after', valid: 'a\nB\nc\n' },
    { name: 'options', valid: { profile: 'recommended' }, keys: ['profile'] }] },
  { name: 'compactionThresholds', args: [
    { name: 'options', valid: { profile: 'codex', contextWindow: 200000, maxOutputTokens: 32000, autocompactPctOverride: 80, autoCompactTokenLimit: 150000 },
      keys: ['profile', 'contextWindow', 'maxOutputTokens', 'autocompactPctOverride', 'autoCompactTokenLimit'] }] },
  { name: 'runScenario', args: [{ name: 'scenario', valid: SMALL_SCENARIO }, { name: 'options', valid: {}, keys: ['onProgress'] }] },
  { name: 'redactScenario', args: [
    { name: 'scenario', valid: SMALL_SCENARIO }, { name: 'options', valid: { paths: 'hash', key: 'a fuzzed key, 0123456789' }, keys: ['paths', 'key'] }] },
  { name: 'compactScenario', args: [
    { name: 'scenario', valid: SMALL_SCENARIO },
    { name: 'options', valid: { policy: 'claude-code.full', instructions: 'Keep the paths.' } },
    { name: 'steps', valid: 2 }] },
  { name: 'compareProfiles', args: [
    { name: 'scenario', valid: SMALL_SCENARIO },
    { name: 'profiles', valid: ['claude-code', 'recommended'] },
    { name: 'options', valid: { prices: { 'claude-code': { inputPerMTok: 3000000, cachedInputPerMTok: 300000, cacheWrite5mPerMTok: 3750000, cacheWrite1hPerMTok: 6000000, outputPerMTok: 15000000 } } },
      keys: ['prices', 'onProgress'] }] },
  { name: 'toApiRequest', args: [
    { name: 'request', valid: SMALL_REQUEST },
    { name: 'options', valid: { api: 'anthropic-messages', model: 'm', maxTokens: 1000 }, keys: ['api', 'model', 'maxTokens'] }] },
  { name: 'requestDiff', args: [
    { name: 'previous', valid: SMALL_REQUEST },
    { name: 'next', valid: SMALL_REQUEST },
    { name: 'options', valid: { elapsedMs: 1000, cacheTtlMs: 300000, compacted: false }, keys: ['elapsedMs', 'cacheTtlMs', 'compacted'] }] },
  { name: 'Session', args: [
    { name: 'options', valid: { profile: 'claude-code', cwd: '/p', home: '/home/u', config: SESSION_CONFIG },
      keys: ['profile', 'cwd', 'home', 'config'] }] },
  { name: 'Session.restore', args: [{ name: 'snapshot', valid: SMALL_SNAPSHOT }] },
];

/** The session every method call starts from: files, a turn, a plan (`plan`). */
export const SESSION_SETUP = [
  "const session = new Session({ profile: 'claude-code', cwd: '/p', home: '/home/u' });",
  "session.writeFile('a.txt', 'a\\nb\\n', 1);",
  "session.submit('read @a.txt', 2);",
  "const plan = session.planCompaction({ policy: 'claude-code.full' }, 3);",
];

/** @type {Entry[]} */
export const METHODS = [
  { name: 'writeFile', args: [{ name: 'path', valid: 'b.txt' }, { name: 'content', valid: 'b\n' }, { name: 'mtimeMs', valid: 10 }] },
  { name: 'deleteFile', args: [{ name: 'path', valid: 'a.txt' }, { name: 'atMs', valid: 10 }] },
  { name: 'rename', args: [{ name: 'from', valid: 'a.txt' }, { name: 'to', valid: 'c.txt' }, { name: 'atMs', valid: 10 }] },
  { name: 'mkdir', args: [{ name: 'path', valid: 'd/e' }, { name: 'atMs', valid: 10 }] },
  { name: 'setTransientError', args: [{ name: 'path', valid: 'a.txt' }, { name: 'kind', valid: 'EBUSY' }] },
  { name: 'listDir', args: [{ name: 'path', valid: '/p' }] },
  { name: 'searchFiles', args: [{ name: 'query', valid: 'a' }, { name: 'options', valid: { limit: 5 }, keys: ['limit'] }] },
  { name: 'stat', args: [{ name: 'path', valid: 'a.txt' }] },
  { name: 'expand', args: [{ name: 'path', valid: '~/x/../a.txt' }] },
  { name: 'readFileText', args: [{ name: 'path', valid: 'a.txt' }] },
  { name: 'read', args: [{ name: 'path', valid: 'a.txt' }, { name: 'options', valid: { offset: 1, limit: 1 }, keys: ['offset', 'limit'] }, { name: 'atMs', valid: 10 }] },
  { name: 'edit', args: [{ name: 'path', valid: 'a.txt' }, { name: 'oldString', valid: 'b' }, { name: 'newString', valid: 'B' }, { name: 'atMs', valid: 10 }] },
  { name: 'write', args: [{ name: 'path', valid: 'w.txt' }, { name: 'content', valid: 'w\n' }, { name: 'atMs', valid: 10 }] },
  { name: 'submit', args: [{ name: 'prompt', valid: 'look at @a.txt' }, { name: 'atMs', valid: 10 }] },
  { name: 'submitFigures', args: [{ name: 'prompt', valid: 'look at @a.txt' }, { name: 'atMs', valid: 10 }] },
  { name: 'toolRound', args: [{ name: 'atMs', valid: 10 }] },
  { name: 'step', args: [
    { name: 'step', valid: { kind: 'assistant', blocks: [{ type: 'tool_use', name: 'Read', input: { file_path: 'a.txt' } }] } },
    { name: 'atMs', valid: 10 }] },
  { name: 'planCompaction', args: [{ name: 'options', valid: { policy: 'swe.observation_mask', params: { n: 1 } } }, { name: 'atMs', valid: 10 }] },
  { name: 'applyCompaction', args: [{ name: 'plan', valid: '$plan' }, { name: 'atMs', valid: 10 }, { name: 'summary', valid: 'The user asked about a.txt.' }] },
  { name: 'currentRequest', args: [{ name: 'atMs', valid: 10 }] },
  { name: 'fileState', args: [] },
  { name: 'snapshot', args: [] },
].map((entry) => ({ ...entry, method: true }));

/** The searcher every FileSearcher method call starts from, after one search. */
export const SEARCHER_SETUP = [
  "const searcher = new FileSearcher(['src/', 'src/app.ts', 'src/api.ts', 'docs/a.md']);",
  "searcher.search('a');",
];

/** @type {Entry[]} FileSearcher's methods (`receiver: 'searcher'`). */
export const SEARCHER_METHODS = [
  { name: 'search', args: [{ name: 'query', valid: 'ap' }, { name: 'options', valid: { limit: 5 }, keys: ['limit'] }] },
].map((entry) => ({ ...entry, receiver: 'searcher' }));

/**
 * A JS expression for `value`, with the value at `path` (keys, outermost first) replaced
 * by the expression `replacement`. The string `$plan` stands for the setup's plan.
 * @param {unknown} value @param {(string | number)[]} path @param {string} [replacement]
 * @returns {string}
 */
export function expression(value, path = [], replacement) {
  if (replacement !== undefined && path.length === 0) return replacement;
  const [head, ...rest] = path;
  if (Array.isArray(value)) {
    return `[${value.map((item, i) => expression(item, i === head ? rest : [], i === head ? replacement : undefined)).join(', ')}]`;
  }
  if (value === '$plan') return 'plan';
  if (value !== null && typeof value === 'object') {
    const fields = Object.entries(value).map(([key, item]) =>
      `${JSON.stringify(key)}: ${expression(item, key === head ? rest : [], key === head ? replacement : undefined)}`);
    if (head !== undefined && !(head in value)) fields.push(`${JSON.stringify(head)}: ${replacement}`);
    return `{ ${fields.join(', ')} }`;
  }
  return JSON.stringify(value);
}

/**
 * Every path into a JSON value, the value itself first: where a nested hostile value can go.
 * @param {unknown} value @returns {(string | number)[][]}
 */
export function pathsInto(value) {
  /** @type {(string | number)[][]} */
  const paths = [[]];
  if (value !== null && typeof value === 'object') {
    for (const [key, item] of Object.entries(value)) {
      const index = Array.isArray(value) ? Number(key) : key;
      for (const inner of pathsInto(item)) paths.push([index, ...inner]);
    }
  }
  return paths;
}
