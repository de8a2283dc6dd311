// `make bench`: a synthetic session log of 200 MB (or `MB=…`) streamed through the wasm
// `SessionImport` in 64 KiB chunks, the way the playground reads a dropped file. Prints the
// time, the peak size of the module's `WebAssembly.Memory` (its buffer after every chunk;
// wasm memory never shrinks, so the last is the peak) and the process's peak RSS. The log is
// made as it is read, never held whole, so the RSS is the engine's and Node's, not the log's.
// The turns have the shape of crate/examples/import_synthetic.rs's (the native figure):
// a prompt, two tool calls with their usage, a Read result carrying the file, shell output,
// bookkeeping lines. Prints figures; asserts nothing. `LINE_MB` adds one prompt that long after
// the first 100 turns (`LINE_MB=200`: refused, as any line over the 32 MiB limit; `LINE_MB=31`:
// read; `DENSE=1` fills it with short strings, as many values as a line may hold), to show
// what the longest line costs.
//
//   node tests/bench/import-memory.mjs            # 200 MB, Claude Code's format
//   MB=50 FORMAT=codex node tests/bench/import-memory.mjs
//   MB=50 LINE_MB=200 node tests/bench/import-memory.mjs
//   MB=50 LINE_MB=33 DENSE=1 node tests/bench/import-memory.mjs
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import * as engine from '../../pkg/tools/context_assembly_tools.js';

const ROOT = resolve(import.meta.dirname, '../..');
// The importer is the tools module's (pkg/tools/), so its memory is that instance's.
const exports = engine.initSync({ module: readFileSync(resolve(ROOT, 'pkg/tools/context_assembly_tools_bg.wasm')) });

const MEGABYTES = Number(process.env.MB ?? 200);
const LINE_MB = Number(process.env.LINE_MB ?? 0);
const DENSE = process.env.DENSE === '1';
const FORMAT = process.env.FORMAT === 'codex' ? 'codex' : 'claude-code';
const CHUNK = 64 << 10;
const MiB = 1024 * 1024;

/** About 4 KB of made-up source, different per file. */
const fileText = (file) => Array.from({ length: 60 }, (_, line) => `export const value${line} = ${file} * ${line}; // synthetic line\n`).join('');

/** A timestamp `offset` seconds into turn `turn`. */
function at(turn, offset) {
  const seconds = turn * 30 + offset;
  const two = (n) => String(n).padStart(2, '0');
  return `2025-12-0${1 + (Math.floor(seconds / 86_400) % 9)}T${two(Math.floor(seconds / 3600) % 24)}:${two(Math.floor(seconds / 60) % 60)}:${two(seconds % 60)}.000Z`;
}

/** One Claude Code turn: six lines. */
function claudeTurn(turn) {
  const head = (uuid, parentUuid, offset) => ({ uuid: `t${turn}-${uuid}`, parentUuid, isSidechain: false, cwd: '/work/big', sessionId: 'synthetic', timestamp: at(turn, offset) });
  const usage = { input_tokens: 1200, cache_creation_input_tokens: 300, cache_read_input_tokens: 40000, output_tokens: 80 };
  const file = `/work/big/src/file${turn % 500}.ts`;
  const content = fileText(turn % 500);
  const numbered = content.split('\n').slice(0, -1).map((line, i) => `${String(i + 1).padStart(6)}\t${line}\n`).join('');
  const output = Array.from({ length: 40 }, (_, i) => `[${String(i).padStart(4, '0')}] spec ${turn}: ok (${i * 7} ms)\n`).join('');
  const parent = turn === 0 ? null : `t${turn - 1}-r2`;
  return [
    { type: 'queue-operation', operation: 'enqueue', timestamp: at(turn, 0), content: 'next' },
    { type: 'user', ...head('u', parent, 0), message: { role: 'user', content: `Turn ${turn}: look at ${file} and run the tests.` } },
    { type: 'assistant', ...head('a1', `t${turn}-u`, 1), message: { id: `m${turn}a`, role: 'assistant', content: [{ type: 'tool_use', id: `r${turn}`, name: 'Read', input: { file_path: file } }], usage } },
    { type: 'assistant', ...head('a2', `t${turn}-a1`, 1), message: { id: `m${turn}a`, role: 'assistant', content: [{ type: 'tool_use', id: `b${turn}`, name: 'Bash', input: { command: 'npm test' } }], usage } },
    { type: 'user', ...head('r1', `t${turn}-a1`, 2), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `r${turn}`, content: numbered }] },
      toolUseResult: { type: 'text', file: { filePath: file, content, numLines: 61, startLine: 1, totalLines: 61 } } },
    { type: 'user', ...head('r2', `t${turn}-a2`, 3), message: { role: 'user', content: [{ type: 'tool_result', tool_use_id: `b${turn}`, content: output }] },
      toolUseResult: { stdout: output, stderr: '', interrupted: false } },
    { type: 'file-history-snapshot', messageId: `t${turn}`, snapshot: { trackedFileBackups: {} } },
  ];
}

/** One Codex turn: a turn context, the prompt, a call and its output, token counts. */
function codexTurn(turn) {
  const line = (offset, type, payload) => ({ timestamp: at(turn, offset), type, payload });
  const prompt = `Turn ${turn}: show file${turn % 500} and count its lines.`;
  const count = (total) => ({ type: 'token_count', info: { total_token_usage: { total_tokens: total }, last_token_usage: { input_tokens: 9000, cached_input_tokens: 8000, output_tokens: 40 }, model_context_window: 258400 } });
  return [
    ...(turn === 0 ? [line(0, 'session_meta', { id: 'synthetic', cwd: '/work/big' })] : []),
    line(0, 'event_msg', { type: 'task_started', model_context_window: 258400 }),
    line(0, 'turn_context', { cwd: '/work/big', approval_policy: 'on-request', sandbox_policy: { type: turn % 50 === 49 ? 'read-only' : 'workspace-write', network_access: false }, model: 'gpt-5.3-codex', personality: 'pragmatic', timezone: 'Etc/UTC' }),
    line(0, 'response_item', { type: 'message', role: 'user', content: [{ type: 'input_text', text: prompt }] }),
    line(0, 'event_msg', { type: 'user_message', message: prompt }),
    line(1, 'response_item', { type: 'reasoning', encrypted_content: 'c3ludGhldGlj' }),
    line(1, 'response_item', { type: 'function_call', name: 'exec_command', arguments: JSON.stringify({ cmd: `cat src/file${turn % 500}.ts` }), call_id: `c${turn}` }),
    line(2, 'response_item', { type: 'function_call_output', call_id: `c${turn}`, output: `Chunk ID: ${turn}\nWall time: 0.0 seconds\nProcess exited with code 0\nOutput:\n${fileText(turn % 500)}` }),
    line(2, 'event_msg', count(turn * 2 + 1)),
    line(3, 'response_item', { type: 'message', role: 'assistant', content: [{ type: 'output_text', text: 'Sixty lines.' }] }),
    line(3, 'event_msg', count(turn * 2 + 2)),
    line(3, 'event_msg', { type: 'task_complete' }),
  ];
}

// The long line comes on top of the `MB` of ordinary turns, so the two runs differ by it alone.
const target = MEGABYTES * MiB + LINE_MB * 1e6;
const encoder = new TextEncoder();
const importer = new engine.SessionImport({ format: FORMAT });
let peakWasm = exports.memory.buffer.byteLength;
let peakRss = process.memoryUsage().rss;
let written = 0;
let turn = 0;
let pending = '';
const started = process.hrtime.bigint();
const push = () => {
  const bytes = encoder.encode(pending);
  for (let from = 0; from < bytes.length; from += CHUNK) {
    importer.pushChunk(bytes.subarray(from, from + CHUNK));
    peakWasm = Math.max(peakWasm, exports.memory.buffer.byteLength);
  }
  written += bytes.length;
  pending = '';
  peakRss = Math.max(peakRss, process.memoryUsage().rss);
};
/**
 * One prompt of `LINE_MB` megabytes, streamed in chunks of the same filler, never made whole:
 * one string of `x`, or under `DENSE=1` an array of 62-byte strings, the most values a line
 * under the limit may hold (`MAX_LINE_VALUES`), so the most it parses into.
 */
function pushLongLine() {
  const prompt = FORMAT === 'codex'
    ? { timestamp: at(turn, 0), type: 'event_msg', payload: { type: 'user_message', message: '' } }
    : { type: 'user', uuid: `t${turn}-long`, parentUuid: `t${turn - 1}-r2`, isSidechain: false, cwd: '/work/big', sessionId: 'synthetic', timestamp: at(turn, 0), message: { role: 'user', content: '' } };
  const field = FORMAT === 'codex' ? '"message":' : '"content":';
  const [head, tail] = JSON.stringify(prompt).split(`${field}""`);
  pending += `${head}${field}${DENSE ? '[' : '"'}`;
  push();
  const item = `"${'y'.repeat(60)}",`;
  const filler = DENSE
    ? encoder.encode(item.repeat(Math.floor(CHUNK / item.length)))
    : new Uint8Array(CHUNK).fill(0x78);
  // Whole fillers only: a dense line cut inside an item would not be JSON.
  const fillers = Math.floor((LINE_MB * 1e6) / filler.length);
  for (let count = 0; count < fillers; count += 1) {
    importer.pushChunk(filler);
    peakWasm = Math.max(peakWasm, exports.memory.buffer.byteLength);
  }
  written += fillers * filler.length;
  pending = `${DENSE ? '""]' : '"'}${tail}\n`;
}
while (written < target) {
  if (LINE_MB > 0 && turn === 100) pushLongLine();
  for (const line of (FORMAT === 'codex' ? codexTurn : claudeTurn)(turn)) pending += `${JSON.stringify(line)}\n`;
  turn += 1;
  if (pending.length >= CHUNK) push();
}
push();
const readMs = Number(process.hrtime.bigint() - started) / 1e6;
const result = importer.finish();
importer.free();
const totalMs = Number(process.hrtime.bigint() - started) / 1e6;
peakWasm = Math.max(peakWasm, exports.memory.buffer.byteLength);
peakRss = Math.max(peakRss, process.memoryUsage().rss);
const steps = JSON.parse(result.scenarioJson).steps.length;
console.log(`${FORMAT}: ${(written / 1e6).toFixed(1)} MB in ${turn} turns, read in ${(readMs / 1000).toFixed(2)} s, imported in ${(totalMs / 1000).toFixed(2)} s (${(written / 1e6 / (totalMs / 1000)).toFixed(0)} MB/s)`);
console.log(`  peak wasm memory ${(peakWasm / MiB).toFixed(1)} MiB (WebAssembly.Memory buffer after each chunk); peak process RSS ${(peakRss / MiB).toFixed(1)} MiB`);
console.log(`  scenario: ${steps} steps, ${(result.scenarioJson.length / 1e6).toFixed(1)} MB of JSON; ${result.recorded.length} recorded usages; ${result.warnings.length} warnings`);
for (const warning of result.warnings.filter((w) => w.kind === 'line-too-long')) console.log(`  line ${warning.line}: ${warning.message}`);
