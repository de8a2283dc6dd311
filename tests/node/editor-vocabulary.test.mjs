// One vocabulary for an editor over the engine, in the full and lite modules: the token meter
// counts as each profile's requests count the prompt; mention spans come sorted and disjoint
// with a kind table; a search match's positions are UTF-16 units; the empty query lists paths;
// an accepted completion reads back as its path.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { engine, seededRandom } from './engine.mjs';
import * as lite from '../../pkg/lite/context_assembly_lite.js';

const ROOT = resolve(import.meta.dirname, '../..');
lite.initSync({ module: readFileSync(resolve(ROOT, 'pkg/lite/context_assembly_lite_bg.wasm')) });

const PROMPTS = ['fix @src/a.ts', 'Regarde @"notes de réunion.md" 😀 et "cite"\n\tmerci', '日本語のテキストを短くして'];

test('estimateTokens with a profile is what that profile\'s request counts for the prompt, for every profile', () => {
  const profiles = engine.profileNames();
  assert.ok(profiles.includes('claude-code-2.1.88') && profiles.includes('codex-0.139.0'));
  for (const profile of profiles) {
    for (const prompt of PROMPTS) {
      const session = new engine.Session({ profile, cwd: '/p' });
      session.writeFile('src/a.ts', 'let a = 1;\n', 1);
      const request = /** @type {import('../../pkg/context_assembly.js').Request} */ (session.submit(prompt, 2).request);
      session.free();
      const blocks = request.messages.flatMap((message) => message.content).filter((block) => block.source === 'prompt');
      assert.equal(blocks.length, 1, `${profile}: one prompt block`);
      for (const api of [engine, lite]) assert.equal(api.estimateTokens(prompt, { profile }), blocks[0].tokens, `${profile}: ${prompt}`);
    }
  }
  // The default is the default profile's count, as a Session's; a method counts alone.
  assert.equal(engine.estimateTokens(PROMPTS[0]), engine.estimateTokens(PROMPTS[0], { profile: 'recommended' }));
  assert.equal(engine.estimateTokens('{"a": 1}', { method: 'claude-code', ext: 'json' }), 4);
  assert.throws(() => engine.estimateTokens('x', { profile: 'codex', method: 'codex' }), /^Error: estimateTokens: options `profile` and `method` are exclusive/);
  assert.throws(() => engine.estimateTokens('x', { ext: 'json' }), /^Error: estimateTokens: option `ext` goes with `method`/);
});

test('mention spans are sorted by start and disjoint, with a kind table', () => {
  const text = 'see @"b c.md" @agent-reviewer, @srv:res/x and @a.ts 😀 @"x @y.ts" @z.ts';
  for (const api of [engine, lite]) {
    assert.deepEqual(api.mentionKinds(), ['file', 'mcpResource', 'agent']);
    for (const profile of api.profileNames()) {
      const spans = [...api.extractMentionSpans(text, { profile })];
      for (let i = 3; i < spans.length; i += 3) assert.ok(spans[i - 2] <= spans[i], `${profile}: sorted and disjoint at ${i / 3}`);
    }
    const claude = [...api.extractMentionSpans(text, { profile: 'claude-code' })];
    const read = [];
    for (let i = 0; i < claude.length; i += 3) read.push(`${api.mentionKinds()[claude[i + 2]]} ${text.slice(claude[i], claude[i + 1])}`);
    assert.deepEqual(read, ['file @"b c.md"', 'agent @agent-reviewer', 'mcpResource @srv:res/x', 'file @a.ts', 'file @"x @y.ts"', 'file @z.ts']);
  }
});

test('a search match\'s positions are UTF-16 units, in searchPaths, FileSearcher and Session.searchFiles', () => {
  const path = 'src/😀/ünï/xyz.ts';
  for (const api of [engine, lite]) {
    assert.deepEqual(api.searchPaths([path], 'xyz').matches[0].indices, [11, 12, 13]);
    const searcher = new api.FileSearcher([path]);
    assert.deepEqual(searcher.search('xyz').matches[0].indices, [11, 12, 13]);
    searcher.free();
  }
  const session = new engine.Session({ profile: 'codex', cwd: '/p' });
  session.writeFile(path, '', 1);
  const match = session.searchFiles('xyz').matches[0];
  assert.equal(match.indices.map((i) => match.path[i]).join(''), 'xyz');
  session.free();
});

test('the empty query lists paths, the shortest first', () => {
  const paths = ['src/deep/b.ts', 'src/', 'a.ts', 'docs/c.md'];
  for (const api of [engine, lite]) {
    const listed = api.searchPaths(paths, '', { limit: 3 });
    assert.deepEqual(listed.matches.map((m) => m.path), ['src', 'a.ts', 'docs/c.md']);
    assert.equal(listed.totalMatchCount, 4);
    const searcher = new api.FileSearcher(paths);
    assert.deepEqual(searcher.search(''), api.searchPaths(paths, ''));
    searcher.free();
  }
});

/**
 * Paths as a host lists them: words, accents, an emoji, punctuation, spaces and quotes.
 * @param {() => number} random
 */
function generatedPath(random) {
  const pieces = ['src', 'a', 'notes', 'é', '😀', ' ', ' ', '"', '.', '-', '_', '(1)', ',', "'", 'agent-', '.ts', 'x'];
  const length = 1 + Math.floor(random() * 8);
  let path = '';
  for (let i = 0; i < length; i += 1) path += pieces[Math.floor(random() * pieces.length)] + (random() < 0.2 ? '/' : '');
  return path;
}

test('every mention insertion reads back as its path, where the grammar can write it', () => {
  const random = seededRandom(28);
  let checked = 0;
  for (let n = 0; n < 3000; n += 1) {
    const path = generatedPath(random);
    for (const profile of /** @type {const} */ (['recommended', 'claude-code'])) {
      // What no spelling can carry: claude-code's quoted form ends at the next `"`, its bare
      // form at the last ASCII word character; recommended escapes spaces only between words,
      // and trims a final `"`, and `@"… (agent)"` is an agent.
      const writable = profile === 'recommended'
        ? !(path.includes('"') && (/\s$|^\s|^"|["\s,.'_-]$|\s\s|\t/.test(path) || path.startsWith('agent-')))
        : !path.includes('"');
      if (!writable || path.endsWith(' (agent)')) continue;
      const inserted = engine.completionInsertion(path, true, { profile });
      const prompt = `see ${inserted}and more`;
      const files = engine.extractMentions(prompt, { profile }).files
        .filter((file) => file.start === 4 && file.end === 4 + inserted.length - 1 && file.lineStart === undefined && file.fragment === undefined);
      assert.deepEqual(files.map((file) => file.path), [path], `${profile}: ${JSON.stringify(path)} inserted as ${JSON.stringify(inserted)}`);
      checked += 1;
    }
  }
  assert.ok(checked > 3000, `${checked} insertions checked`);
  assert.equal(engine.completionInsertion('a "b".ts', true), '@a\\ "b".ts ');
  assert.equal(lite.completionInsertion('src/é', undefined, { profile: 'claude-code' }), '@"src/é" ');
  assert.equal(lite.completionInsertion('a b.ts', undefined, { profile: 'codex' }), '"a b.ts" ');
  assert.equal(lite.completionInsertion('a b.ts'), '@"a b.ts" ');
});
