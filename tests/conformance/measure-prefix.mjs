// Measures what a client release sends before the conversation — its system prompt (Codex: base
// instructions) and its tool definitions — from the lab's recorded requests, as the engine's
// stand-ins need it (`crate/src/request/prefix.rs`, `crate/src/codex/prefix.rs`): sizes only,
// never the text. Claude Code's system prompt is measured in two parts, as the engine sends it:
// the static part (the blocks before the session's own, the billing line and the identity line
// included) and the session's guidance (the last block up to its environment section, which the
// engine writes itself). Codex's base instructions are the `instructions` field, or from 0.171.0
// on the first developer message. Each tool is its definition's JSON.
//
//   node tests/conformance/measure-prefix.mjs target/conformance/recordings/external-edit/001.json
//   node tests/conformance/measure-prefix.mjs target/conformance/recordings-codex/0.171.0/lab/first-turn/001.json
//
// Prints the measures as a table (characters, those outside the Basic Multilingual Plane, UTF-8 bytes, line breaks, characters JSON escapes,
// and the calibrated counter's tokens, which bills a stand-in at the original's size).
import fs from 'node:fs';
import * as engine from '../../pkg/context_assembly.js';

engine.initSync({ module: fs.readFileSync(new URL('../../pkg/context_assembly_bg.wasm', import.meta.url)) });

const ENVIRONMENT = '# Environment';

/** The measures of one text. */
export function measure(text) {
  const chars = [...text];
  return {
    chars: chars.length,
    astral: chars.filter((c) => c.codePointAt(0) > 0xffff).length,
    bytes: Buffer.byteLength(text),
    lineBreaks: (text.match(/\n/g) ?? []).length,
    escaped: (text.match(/["\\]/g) ?? []).length,
    tokens: engine.estimateTokens(text, { method: 'calibrated' }),
  };
}

/** The parts of one recorded request's prefix: a Responses body is Codex's. */
export function prefixOf(body) {
  if (!body.system) return codexPrefixOf(body);
  const system = body.system.map((block) => block.text);
  // The session's block is a last block the client does not mark for the cache (2.1.88);
  // without one (2.1.332) the whole system prompt is static.
  const sessionBlock = body.system.length > 1 && !body.system[body.system.length - 1].cache_control;
  const last = system[system.length - 1];
  const staticPart = sessionBlock ? system.slice(0, -1).join('\n') : system.join('\n');
  const environment = last.indexOf(ENVIRONMENT);
  const guidance = sessionBlock ? last.slice(0, environment < 0 ? last.length : environment) : '';
  return {
    staticPart: measure(staticPart),
    guidance: measure(guidance),
    tools: body.tools.map((tool) => ({ name: tool.name, ...measure(JSON.stringify(tool)) })),
  };
}

/** A Codex request's prefix: its base instructions and tools. */
function codexPrefixOf(body) {
  const first = body.input?.[0];
  const leading = first?.type === 'message' && first.role === 'developer' && first.content?.length === 1 ? first.content[0].text : '';
  return {
    staticPart: measure(body.instructions ?? leading),
    guidance: measure(''),
    tools: body.tools.map((tool) => ({ name: tool.name ?? tool.type, ...measure(JSON.stringify(tool)) })),
  };
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const file = process.argv[2];
  if (!file) {
    console.error('usage: node tests/conformance/measure-prefix.mjs RECORDED_REQUEST.json');
    process.exit(2);
  }
  const prefix = prefixOf(JSON.parse(fs.readFileSync(file, 'utf8')).body);
  const row = (name, m) => console.log([name, m.chars, m.astral, m.bytes, m.lineBreaks, m.escaped, m.tokens].join('\t'));
  console.log('part\tchars\tastral\tbytes\tline breaks\tescaped\ttokens');
  row('static', prefix.staticPart);
  row('guidance', prefix.guidance);
  for (const tool of prefix.tools) row(tool.name, tool);
}
