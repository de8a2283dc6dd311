// The TypeScript declarations (crate/wasm/src/api.d.ts, in every module's .d.ts) checked field by
// field against what the engine answers. Each answer below is written into a TypeScript file as
// an object literal typed as its function's declared result, and `tsc --strict` checks the file:
// a field the Rust side renames or adds is an excess property, one it drops is a missing
// property, a `null` where the declaration says optional is a type error, and the failure names
// the call and the field. Strings are cut and arrays shortened first (types do not depend on
// either), so the file stays small enough to check in seconds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { engine } from './engine.mjs';

const ROOT = resolve(import.meta.dirname, '../..');

/** @type {{ call: string, type: string, value: unknown }[]} */
const answers = [];

/**
 * Records `value` as the answer of `call`, declared as `type` (a type expression over `S`, the
 * session module's declarations, and `T`, the tools module's).
 * @param {string} call
 * @param {string} type
 * @param {unknown} value
 */
function answer(call, type, value) {
  answers.push({ call, type, value: JSON.parse(JSON.stringify(value)) });
}

/** The most elements of an array written out: enough for each kind an answer mixes. */
const MAX_ELEMENTS = 12;

/**
 * `value` as a TypeScript literal, its long strings cut (a string-literal union's members are
 * shorter).
 * @param {unknown} value
 * @returns {string}
 */
function literal(value) {
  if (Array.isArray(value)) return `[${value.slice(0, MAX_ELEMENTS).map(literal).join(',')}]`;
  if (typeof value === 'string') return JSON.stringify(value.length > 64 ? value.slice(0, 64) : value);
  if (value !== null && typeof value === 'object') {
    return `{${Object.entries(value).map(([key, field]) => `${JSON.stringify(key)}:${literal(field)}`).join(',')}}`;
  }
  return JSON.stringify(value);
}

const SCENARIOS = readdirSync(resolve(ROOT, 'web/scenarios'))
  .filter((name) => name.endsWith('.json') && name !== 'index.json' && name !== 'scenario.schema.json')
  .sort();

/** @param {string} name */
const scenarioText = (name) => readFileSync(resolve(ROOT, 'web/scenarios', name), 'utf8');

function collectScenarioAnswers() {
  for (const name of SCENARIOS) {
    const trace = engine.runScenario(scenarioText(name), { cacheAccount: true });
    answer(`runScenario(${name})`, 'ReturnType<typeof S.runScenario>', trace);
    const requests = trace.steps.map((/** @type {any} */ step) => step.turn.request).filter(Boolean);
    if (requests.length >= 2) {
      answer(`requestDiff(${name})`, 'ReturnType<typeof S.requestDiff>', engine.requestDiff(requests[0], requests[1], { elapsedMs: 1000 }));
    }
    for (const api of ['anthropic-messages', 'openai-responses']) {
      answer(`toApiRequest(${name}, ${api})`, 'ReturnType<typeof S.toApiRequest>', engine.toApiRequest(requests[requests.length - 1], { api }));
    }
  }
  const long = scenarioText('auto-compaction.json');
  answer('compareProfiles', 'ReturnType<typeof T.compareProfiles>', engine.compareProfiles(long, engine.profileNames(), { usage: 'scenario' }));
  // A policy that needs parameters (partial's pivot) is left out: the others cover the shape.
  const previews = engine.compactionPolicies().flatMap((/** @type {string} */ policy) => {
    try {
      return [[policy, engine.compactScenario(long, { policy })]];
    } catch {
      return [];
    }
  });
  assert.ok(previews.length >= 15, `${previews.length} policies previewed`);
  for (const [policy, preview] of previews) answer(`compactScenario(${policy})`, 'ReturnType<typeof T.compactScenario>', preview);
  answer('redactScenario', 'ReturnType<typeof T.redactScenario>', engine.redactScenario(long, { paths: 'hash' }));
  for (const log of readdirSync(resolve(ROOT, 'tests/fixtures/import')).sort()) {
    const text = readFileSync(resolve(ROOT, 'tests/fixtures/import', log), 'utf8');
    answer(`importSession(${log})`, 'ReturnType<typeof T.importSession>', engine.importSession(text));
  }
}

function collectSessionAnswers() {
  const session = new engine.Session({ profile: 'claude-code', cwd: '/p' });
  session.writeFile('src/a.ts', 'export const a = 1;\n', 1);
  session.writeFile('CLAUDE.md', '# rules\n', 1);
  const method = (/** @type {string} */ name, /** @type {unknown} */ value) => answer(`Session.${name}`, `ReturnType<S.Session['${name}']>`, value);
  method('submit', session.submit('look at @src/a.ts', 2));
  method('read', session.read('src/a.ts', undefined, 3));
  method('edit', session.edit('src/a.ts', 'a = 1', 'a = 2', 4));
  method('write', session.write('src/b.ts', 'b\n', 5));
  method('fileState', session.fileState());
  method('listDir', session.listDir('src'));
  method('stat', session.stat('src/a.ts'));
  method('searchFiles', session.searchFiles('a'));
  method('submitFigures', session.submitFigures('and again', 6));
  method('toolRound', session.toolRound(7));
  method('currentRequest', session.currentRequest(8));
  const plan = session.planCompaction({ policy: 'claude-code.full' }, 9);
  method('planCompaction', plan);
  method('applyCompaction', session.applyCompaction(plan, 10));
  session.free();
}

function collectLiteAnswers() {
  const lite = (/** @type {string} */ name, /** @type {unknown} */ value) => answer(name, `ReturnType<typeof S.${name}>`, value);
  lite('extractMentions', engine.extractMentions('see @src/a.ts#L2-4 and @agent-x and @srv:res://x', { profile: 'claude-code' }));
  lite('mentionAt', engine.mentionAt('see @src/a.ts', 6));
  lite('atToken', engine.atToken('x @sr', 5));
  lite('searchPaths', engine.searchPaths(['src/', 'src/app.ts', 'docs/app.md'], 'app'));
  lite('diffSnippetReport', engine.diffSnippetReport('a\nb\n', 'a\nc\n', { profile: 'claude-code' }));
  lite('emissionOrder', engine.emissionOrder());
  lite('profileReleases', engine.profileReleases());
  lite('mentionKinds', engine.mentionKinds());
  lite('compactionPolicies', engine.compactionPolicies());
  for (const profile of engine.profileNames()) {
    lite('compactionThresholds', engine.compactionThresholds({ profile, contextWindow: 200000 }));
    lite('defaultPrices', engine.defaultPrices(profile));
  }
}

test("every answer of the engine has exactly the fields its TypeScript declaration names", () => {
  collectScenarioAnswers();
  collectSessionAnswers();
  collectLiteAnswers();
  const dir = mkdtempSync(join(tmpdir(), 'ca-declarations-'));
  try {
    const lines = [
      `import type * as S from ${JSON.stringify(resolve(ROOT, 'pkg/context_assembly.js'))};`,
      `import type * as T from ${JSON.stringify(resolve(ROOT, 'pkg/tools/context_assembly_tools.js'))};`,
      ...answers.map(({ call, type, value }, i) => `// ${call}\nexport const answer${i}: ${type} = ${literal(value)};`),
    ];
    writeFileSync(join(dir, 'answers.ts'), `${lines.join('\n')}\n`);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify({
      compilerOptions: { strict: true, noEmit: true, target: 'es2022', module: 'es2022', moduleResolution: 'bundler', lib: ['es2022', 'dom', 'esnext.disposable'], skipLibCheck: true },
      files: ['answers.ts'],
    }));
    let output = '';
    try {
      execFileSync(resolve(ROOT, 'node_modules/.bin/tsc'), ['-p', dir], { encoding: 'utf8', maxBuffer: 1 << 26 });
    } catch (error) {
      output = /** @type {{ stdout?: string }} */ (error).stdout ?? String(error);
    }
    const source = readFileSync(join(dir, 'answers.ts'), 'utf8').split('\n');
    // Each error names the line; the comment above its answer names the call.
    // Each error once, with the first call that shows it.
    const seen = new Set();
    const explained = output.split('\n').filter((line) => line.includes('error TS')).flatMap((line) => {
      const at = Number(line.match(/answers\.ts\((\d+),/)?.[1] ?? 0);
      const error = line.replace(/^.*error /, 'error ').slice(0, 400);
      if (seen.has(error)) return [];
      seen.add(error);
      return [`${source[at - 2] ?? ''}: ${error}`];
    });
    assert.deepEqual(explained, [], `${answers.length} answers checked`);
    assert.ok(answers.length > 60, `${answers.length} answers checked`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
