// The per-keystroke calls: mentions as compact spans and under a cursor, and the stateful
// FileSearcher, each checked against the call it abbreviates, in the full and lite modules.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { engine, seededRandom } from './engine.mjs';
import * as lite from '../../pkg/lite/context_assembly_lite.js';

const ROOT = resolve(import.meta.dirname, '../..');
lite.initSync({ module: readFileSync(resolve(ROOT, 'pkg/lite/context_assembly_lite_bg.wasm')) });

const TEXT = 'Franççais 😀 @a.ts, @"b c.md"#L1-2, @srv:res/x and @agent-rev 日本 @a.ts @café#L3';
const KINDS = ['file', 'mcpResource', 'agent'];

/** `extractMentions`' mentions as [start, end, kind code] triples, sorted by start. */
function triples(mentions) {
  const lists = [mentions.files, mentions.mcpResources, mentions.agents];
  return lists.flatMap((list, kind) => list.map((m) => [m.start, m.end, kind]))
    .sort((a, b) => a[0] - b[0]).flat();
}

for (const [name, api] of [['full', engine], ['lite', lite]]) {
  test(`${name}: extractMentionSpans is extractMentions' spans and kinds, sorted`, () => {
    // One reading per token (codex, recommended): every mention, in text order. claude-code's
    // tokens read several ways are given once (tests/node/editor-vocabulary.test.mjs).
    for (const profile of ['codex', 'recommended']) {
      const spans = api.extractMentionSpans(TEXT, { profile });
      assert.ok(spans instanceof Uint32Array);
      assert.deepEqual([...spans], triples(api.extractMentions(TEXT, { profile })), profile);
    }
    assert.deepEqual([...api.extractMentionSpans('no mentions')], []);
  });

  test(`${name}: mentionAt is the mention under the cursor, or null`, () => {
    const found = api.extractMentions(TEXT);
    const lists = [found.files, found.mcpResources, found.agents];
    lists.forEach((list, kind) => {
      for (const mention of list) {
        for (const cursor of [mention.start, mention.end]) {
          assert.deepEqual(api.mentionAt(TEXT, cursor), { kind: KINDS[kind], ...mention });
        }
      }
    });
    assert.equal(api.mentionAt(TEXT, 3), null);
    // claude-code reads `@agent-rev` as a file and an agent: the agent is the more specific.
    const at = TEXT.indexOf('@agent-rev') + 2;
    assert.equal(api.mentionAt(TEXT, at, { profile: 'claude-code' }).kind, 'agent');
    assert.equal(api.mentionAt(TEXT, TEXT.length + 1), null);
    assert.throws(() => api.mentionAt(TEXT, -1), /mentionAt: argument `cursor`/);
  });

  test(`${name}: a FileSearcher answers each keystroke as searchPaths does`, () => {
    const random = seededRandom(7);
    const words = ['src', 'lib', 'Comp', 'util', 'test', 'é', 'x_y', 'A1'];
    const paths = Array.from({ length: 400 }, (_, i) => {
      const depth = 1 + Math.floor(random() * 3);
      const parts = Array.from({ length: depth }, () => words[Math.floor(random() * words.length)]);
      return parts.join('/') + (i % 9 === 0 ? '/' : `.${i % 3 ? 'ts' : 'md'}`);
    });
    const searcher = new api.FileSearcher(paths);
    const typed = ['c', 'co', 'com', 'comp', 'comp ', 'comp t', 'comp ts$', 'comp t', "'u", "'ut", '!x', '!x s', 'é', '', 'src/', 'A1'];
    for (const query of typed) {
      for (const options of [undefined, { limit: 3 }]) {
        assert.deepEqual(searcher.search(query, options), api.searchPaths(paths, query, options), `${query} ${JSON.stringify(options)}`);
      }
    }
    searcher.free();
  });
}

test('a FileSearcher past its memory budget throws an Error that says so', () => {
  const path = 'packages/a-rather-long-package-name/src/components/'.padEnd(300, 'x');
  const paths = new Array(40_000).fill(path);
  assert.throws(() => new engine.FileSearcher(paths),
    /^Error: new FileSearcher: paths: 40000 paths would take \d+ bytes once prepared; a searcher holds at most 67108864 bytes/);
  assert.throws(() => new engine.FileSearcher('src/a.ts'), /new FileSearcher: argument `paths` must be an array/);
});

test('submitFigures is submit without the request, with its tokens and window', () => {
  const sessions = [0, 1].map(() => {
    const session = new engine.Session({ profile: 'claude-code', cwd: '/p' });
    session.writeFile('a.ts', 'export const a = 1;\n', 1);
    return session;
  });
  const turn = sessions[0].submit('look at @a.ts', 2);
  const figures = sessions[1].submitFigures('look at @a.ts', 2);
  const { request, ...rest } = turn;
  assert.deepEqual(figures, { ...rest, tokens: request.tokens, window: request.window });
  assert.equal('request' in figures, false);
  sessions.forEach((session) => session.free());
});

test('a path list must hold strings only: the item that is not one is named, in both modules', () => {
  for (const api of [engine, lite]) {
    assert.throws(() => api.searchPaths(['src/a.ts', 7], 'a'),
      (/** @type {any} */ e) => e instanceof Error && /argument `paths` must be an array of strings, got number at index 1$/.test(e.message));
    assert.throws(() => new api.FileSearcher(['a', null]),
      (/** @type {any} */ e) => e instanceof Error && /got null at index 1$/.test(e.message));
    assert.throws(() => api.searchPaths(['\ud800'], 'a'),
      (/** @type {any} */ e) => e instanceof Error && /argument `paths\[0\]` is not well-formed text/.test(e.message));
    assert.equal(api.searchPaths(['src/a.ts', 'b.md'], 'a', { limit: 1 }).matches.length, 1);
  }
});
