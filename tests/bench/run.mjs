// `make bench`: the wasm engines from Node against JS references measured in the same run.
// Prints figures; asserts nothing. Median of several runs after a warm-up.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { encode } from 'gpt-tokenizer/encoding/o200k_base';
import * as engine from '../../pkg/context_assembly.js';
import * as tools from '../../pkg/tools/context_assembly_tools.js';
import * as lite from '../../pkg/lite/context_assembly_lite.js';
import { referenceSnippet } from './diff-reference.mjs';
import { extractWithOriginalRegexes } from './mention-reference.mjs';
import { seededRandom } from '../gen/random.mjs';

const ROOT = resolve(import.meta.dirname, '../..');
engine.initSync({ module: readFileSync(resolve(ROOT, 'pkg/context_assembly_bg.wasm')) });
tools.initSync({ module: readFileSync(resolve(ROOT, 'pkg/tools/context_assembly_tools_bg.wasm')) });
lite.initSync({ module: readFileSync(resolve(ROOT, 'pkg/lite/context_assembly_lite_bg.wasm')) });


/** Median milliseconds of `runs` calls of `work`, after one warm-up call. */
function time(work, runs) {
  work();
  const samples = [];
  for (let i = 0; i < runs; i += 1) {
    const start = process.hrtime.bigint();
    work();
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return samples[Math.floor(samples.length / 2)];
}

const fmt = (ms) => (ms < 1 ? ms.toFixed(3) : ms.toFixed(1));

function codeLikeLines(random, count, tag) {
  return Array.from({ length: count }, (_, i) =>
    `    let ${tag}${i} = compute(${Math.floor(random() * 1e6)}, "${tag}-${i}"); // step ${i}`);
}

function edited(lines, random, edits) {
  const after = lines.slice();
  for (let e = 0; e < edits; e += 1) {
    const at = Math.floor(random() * after.length);
    after[at] = `${after[at]} // edited ${e}`;
  }
  return after;
}

function diffCases() {
  const random = seededRandom(1);
  const small = codeLikeLines(random, 2000, 'a');
  const large = codeLikeLines(random, 20000, 'b');
  return [
    ['2,000 lines, 10 edits', small.join('\n') + '\n', edited(small, random, 10).join('\n') + '\n', 60],
    ['20,000 lines, 50 edits', large.join('\n') + '\n', edited(large, random, 50).join('\n') + '\n', 40],
    ['two unrelated 5,000-line files', codeLikeLines(random, 5000, 'c').join('\n') + '\n',
      codeLikeLines(random, 5000, 'd').join('\n') + '\n', 3],
  ];
}

function benchDiff() {
  console.log('\n## diffSnippet (claude-code): wasm vs jsdiff reference with the same formatting\n');
  console.log('| case | JS ms | wasm ms | JS / wasm | same output |');
  console.log('|---|--:|--:|--:|---|');
  const cases = diffCases().filter(([name]) => !(process.env.SKIP_SLOW && name.includes('unrelated')));
  for (const [name, before, after, runs] of cases) {
    const js = time(() => referenceSnippet(before, after), runs);
    const wasm = time(() => engine.diffSnippet(before, after, { profile: 'claude-code' }), runs);
    const same = referenceSnippet(before, after) === engine.diffSnippet(before, after, { profile: 'claude-code' });
    console.log(`| ${name} | ${fmt(js)} | ${fmt(wasm)} | ${(js / wasm).toFixed(1)}× | ${same ? 'yes' : 'no'} |`);
  }
}

function mixedMegabyte() {
  const random = seededRandom(2);
  const parts = [];
  let size = 0;
  const samples = [
    () => `fn handle_${Math.floor(random() * 1e4)}(input: &str) -> Result<usize, Error> { Ok(input.len()) }\n`,
    () => 'The quick brown fox jumps over the lazy dog, and then writes a short paragraph of prose.\n',
    () => `{"id": ${Math.floor(random() * 1e6)}, "name": "item", "tags": ["a", "b"], "ok": true}\n`,
    () => '日本語の文章と中文的句子が混ざったテキストです。\n',
    () => `commit ${Array.from({ length: 40 }, () => '0123456789abcdef'[Math.floor(random() * 16)]).join('')}\n`,
  ];
  while (size < 1_000_000) {
    const piece = samples[Math.floor(random() * samples.length)]();
    parts.push(piece);
    size += piece.length;
  }
  return parts.join('');
}

function benchTokens() {
  const text = mixedMegabyte();
  console.log(`\n## estimateTokens("calibrated") vs gpt-tokenizer o200k encode, ${(text.length / 1e6).toFixed(2)} M UTF-16 units of mixed text\n`);
  const reference = time(() => encode(text).length, 5);
  const wasm = time(() => engine.estimateTokens(text, { method: 'calibrated' }), 20);
  const exact = encode(text).length;
  const estimate = engine.estimateTokens(text, { method: 'calibrated' });
  console.log('| counter | ms | MB/s | tokens |');
  console.log('|---|--:|--:|--:|');
  console.log(`| gpt-tokenizer o200k | ${fmt(reference)} | ${(text.length / 1e3 / reference).toFixed(1)} | ${exact} |`);
  console.log(`| calibrated (wasm) | ${fmt(wasm)} | ${(text.length / 1e3 / wasm).toFixed(1)} | ${estimate} (${((estimate / exact - 1) * 100).toFixed(1)} %) |`);
  console.log(`\nratio gpt-tokenizer / calibrated: ${(reference / wasm).toFixed(1)}×`);
}

function prompt100k() {
  const random = seededRandom(3);
  const words = ['please', 'look', 'at', 'the', 'function', 'and', 'fix', 'it', 'user@x.com', '(@not)', 'then'];
  const mentions = ['@src/app.ts', '@"docs/my notes.md"', '@file.txt#L10-20', '@server:res/a.', '@agent-reviewer', '@café.txt'];
  const parts = [];
  let size = 0;
  while (size < 100_000) {
    const piece = random() < 0.1 ? mentions[Math.floor(random() * mentions.length)] + `${Math.floor(random() * 500)}`
      : words[Math.floor(random() * words.length)];
    parts.push(piece);
    size += piece.length + 1;
  }
  return parts.join(' ');
}

function benchMentions() {
  const text = prompt100k();
  const options = { profile: 'claude-code' };
  // The cursor at the middle mention, as an editor asks on a keystroke there.
  const all = engine.extractMentions(text, options);
  const cursor = all.files[Math.floor(all.files.length / 2)].start + 1;
  /** extractMentionSpans, then each mention's text as written (what the regexes return). */
  const spansAndStrings = () => {
    const spans = engine.extractMentionSpans(text, options);
    const strings = new Array(spans.length / 3);
    for (let i = 0; i < spans.length; i += 3) strings[i / 3] = text.slice(spans[i], spans[i + 1]);
    return strings;
  };
  console.log(`\n## extractMentions (claude-code) vs the original's JS regexes, ${(text.length / 1e3).toFixed(0)} KB prompt (median of 41)\n`);
  const js = time(() => extractWithOriginalRegexes(text), 41);
  const rows = [
    [`extractMentions (wasm, incl. the boundary crossing, ${all.files.length} files)`, () => engine.extractMentions(text, options)],
    ['extractMentionSpans (wasm: a Uint32Array of [start, end, kind])', () => engine.extractMentionSpans(text, options)],
    ['extractMentionSpans + each mention\'s text sliced in JS', spansAndStrings],
    ['mentionAt (wasm: the one mention under the cursor)', () => engine.mentionAt(text, cursor, options)],
  ];
  console.log('| implementation | ms | JS / wasm |');
  console.log('|---|--:|--:|');
  console.log(`| original regexes (JS) | ${fmt(js)} | 1.00× |`);
  for (const [name, work] of rows) {
    const ms = time(work, 41);
    console.log(`| ${name} | ${fmt(ms)} | ${(js / ms).toFixed(2)}× |`);
  }
  const spans = engine.extractMentionSpans(text, options);
  const count = all.files.length + all.mcpResources.length + all.agents.length;
  console.log(`\nsame mentions: ${spans.length / 3 === count ? 'yes' : 'no'} (${count} in both)`);
}

/** 100 files of 200 KB written by the agent, so all are tracked: the workspace and the read-file state share one copy. */
async function benchSession() {
  // A fresh instance, so that the growth is this section's alone.
  const fresh = await import('../../pkg/context_assembly.js?session-bench');
  const instance = fresh.initSync({ module: readFileSync(resolve(ROOT, 'pkg/context_assembly_bg.wasm')) });
  const file = Array.from({ length: 4000 }, (_, i) => `line ${String(i).padStart(5)} of a tracked file`.padEnd(49, '.') + '\n').join('');
  const session = new fresh.Session({ profile: 'claude-code', cwd: '/p' });
  const before = instance.memory.buffer.byteLength;
  for (let i = 0; i < 100; i += 1) {
    session.write(`src/f${i}.txt`, file, 1000);
  }
  const tracked = session.fileState().reduce((sum, row) => sum + row.bytes, 0);
  const grown = instance.memory.buffer.byteLength - before;
  console.log('\n## Session memory: 100 files of 200 KB written by the agent and tracked (wasm)\n');
  console.log('| tracked bytes | wasm memory growth | growth / tracked |');
  console.log('|--:|--:|--:|');
  console.log(`| ${tracked} | ${grown} | ${(grown / tracked).toFixed(2)} |`);
  // submit and submitFigures alternate, so both see the same session sizes.
  const times = { submit: [], submitFigures: [] };
  for (let round = 0; round < 42; round += 1) {
    session.write('src/f0.txt', file, 3000 + round * 10);
    session.writeFile('src/f0.txt', file.replace('line  2000', 'LINE  2000'), 3001 + round * 10);
    const method = round % 2 === 0 ? 'submit' : 'submitFigures';
    const start = process.hrtime.bigint();
    session[method]('go on', 3002 + round * 10);
    times[method].push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  for (const [method, samples] of Object.entries(times)) {
    samples.sort((a, b) => a - b);
    console.log(`\n${method} with 100 tracked files and 1 changed (wasm, incl. the crossing): ${fmt(samples[10])} ms`);
  }
  session.free();
}

/** Each teaching scenario replayed whole (parse, every step, every request, the trace to JS). */
async function benchScenarios() {
  /** @type {{ file: string }[]} */
  const index = JSON.parse(readFileSync(resolve(ROOT, 'web/scenarios/index.json'), 'utf8'));
  console.log('\n## runScenario, wasm (median of 21, incl. the trace crossing to JS)\n');
  console.log('| scenario | steps | requests | ms | ms per request |');
  console.log('|---|--:|--:|--:|--:|');
  for (const { file, golden } of index) {
    // The long measuring scenarios are measured by `compare`.
    if (golden === false) continue;
    const text = readFileSync(resolve(ROOT, 'web/scenarios', file), 'utf8');
    const times = [];
    let trace;
    for (let i = 0; i < 21; i += 1) {
      const start = process.hrtime.bigint();
      trace = engine.runScenario(text);
      times.push(Number(process.hrtime.bigint() - start) / 1e6);
    }
    times.sort((a, b) => a - b);
    const requests = trace.steps.filter((step) => step.turn.request).length;
    console.log(`| ${file} | ${trace.steps.length} | ${requests} | ${fmt(times[10])} | ${fmt(times[10] / requests)} |`);
  }
}

/** The 50,000 files of the search benchmark, in the order a session's walk gives them. */
function searchTree() {
  const paths = [];
  for (let p = 0; p < 50; p += 1) {
    for (let d = 0; d < 20; d += 1) {
      for (let f = 0; f < 50; f += 1) paths.push(`packages/pkg${p}/src/module${d}/component_${f}.tsx`);
    }
  }
  return paths;
}

/** Median milliseconds of `searcher.search(query)` right after `searcher.search(before)` (not timed). */
function after(searcher, before, query) {
  const samples = [];
  for (let i = 0; i < 10; i += 1) {
    searcher.search(before, { limit: 8 });
    const start = process.hrtime.bigint();
    searcher.search(query, { limit: 8 });
    samples.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  samples.sort((a, b) => a - b);
  return samples[5];
}

/** `@` completion over 50,000 paths, per keystroke: the session's searchFiles (a fresh search
 * each time), and a FileSearcher over the same candidates typing the same queries in order. */
function benchSearch() {
  const session = new engine.Session({ profile: 'codex', cwd: '/repo' });
  for (const path of searchTree()) session.writeFile(path, '', 0);
  // The session's candidates in its walk order, directories marked with `/`, so both search
  // the same list (the last column checks it).
  const walk = [];
  const visit = (dir, relative) => {
    for (const entry of session.listDir(dir)) {
      const path = relative ? `${relative}/${entry.name}` : entry.name;
      walk.push(entry.kind === 'directory' ? `${path}/` : path);
      if (entry.kind === 'directory') visit(`${dir}/${entry.name}`, path);
    }
  };
  visit('/repo', '');
  const queries = ['c', 'co', 'com', 'comp', 'compo12', 'pkg4/mod7/comp3'];
  const build = time(() => new engine.FileSearcher(walk).free(), 5);
  const searcher = new engine.FileSearcher(walk);
  console.log(`\n## searchFiles vs FileSearcher, wasm, 50,000 files (+ their directories: ${walk.length} paths), per keystroke (median of 9)\n`);
  console.log(`new FileSearcher(paths): ${fmt(build)} ms, once\n`);
  console.log('| query | matches | session.searchFiles ms | FileSearcher, typed in order ms | FileSearcher, fresh query ms | same results |');
  console.log('|---|--:|--:|--:|--:|---|');
  for (let q = 0; q < queries.length; q += 1) {
    const query = queries[q];
    let result;
    const ms = time(() => { result = session.searchFiles(query, { limit: 8 }); }, 9);
    // Typed in order: the keystroke before is searched first each time; fresh: an unrelated
    // query is, so nothing can be narrowed.
    const typed = after(searcher, queries[q - 1] ?? '', query);
    const fresh = after(searcher, 'zzz-unrelated', query);
    const same = JSON.stringify(searcher.search(query, { limit: 8 })) === JSON.stringify(result);
    console.log(`| \`${query}\` | ${result.totalMatchCount} | ${fmt(ms)} | ${fmt(typed)} | ${fmt(fresh)} | ${same ? 'yes' : 'no'} |`);
  }
  searcher.free();
  session.free();
}

/** compareProfiles over a 200-step scenario, three profiles, from JS. */
function benchCompare() {
  const text = readFileSync(resolve(ROOT, 'web/scenarios/long-settings.json'), 'utf8');
  const scenario = JSON.parse(text);
  while (scenario.steps.length < 200) scenario.steps = scenario.steps.concat(scenario.steps);
  scenario.steps = scenario.steps.slice(0, 200);
  const json = JSON.stringify(scenario);
  const ms = time(() => tools.compareProfiles(json, ['claude-code', 'codex', 'recommended'], undefined), 5);
  console.log(`\n## compareProfiles, wasm, 200 steps × 3 profiles: ${fmt(ms)} ms (median of 5)`);
}

/**
 * The per-keystroke calls in lite, the module an editor loads (built at opt-level "s"), beside
 * the same calls in the session module (built at "z", smaller and slower): the same inputs as
 * the sections above.
 */
function benchLite() {
  const text = mixedMegabyte();
  const prompt = prompt100k();
  const options = { profile: 'claude-code' };
  const cursor = engine.extractMentions(prompt, options).files[0].start + 1;
  const [, before, after] = diffCases()[0];
  const paths = searchTree();
  const inLite = new lite.FileSearcher(paths);
  const inSession = new engine.FileSearcher(paths);
  console.log('\n## the per-keystroke calls, lite module vs session module (median of 41)\n');
  console.log('| call | lite ms | session module ms |');
  console.log('|---|--:|--:|');
  const rows = [
    ['estimateTokens calibrated, 1 M UTF-16 units', (m) => m.estimateTokens(text, { method: 'calibrated' })],
    ['extractMentionSpans, 100 KB prompt', (m) => m.extractMentionSpans(prompt, options)],
    ['mentionAt, 100 KB prompt', (m) => m.mentionAt(prompt, cursor, options)],
    ['diffSnippet, 2,000 lines with 10 edits', (m) => m.diffSnippet(before, after, options)],
  ];
  for (const [name, call] of rows) {
    console.log(`| ${name} | ${fmt(time(() => call(lite), 41))} | ${fmt(time(() => call(engine), 41))} |`);
  }
  const search = (searcher) => time(() => searcher.search('compo12'), 41);
  console.log(`| FileSearcher \`compo12\`, ${paths.length} paths | ${fmt(search(inLite))} | ${fmt(search(inSession))} |`);
  inLite.free();
  inSession.free();
}

// `node tests/bench/run.mjs [diff] [tokens] [mentions] [session] [scenarios] [search] [compare] [lite]` runs some sections; none runs all.
const chosen = process.argv.slice(2);
const sections = { diff: benchDiff, tokens: benchTokens, mentions: benchMentions, session: benchSession, scenarios: benchScenarios, search: benchSearch, compare: benchCompare, lite: benchLite };
console.log(`# make bench — Node ${process.version}`);
for (const [name, run] of Object.entries(sections)) {
  if (chosen.length === 0 || chosen.includes(name)) await run();
}
