// Generates tests/fixtures/mentions-differential.json: random texts, deterministically
// (seeded PRNG), each with what Claude Code's original regexes extract from it
// (tests/bench/mention-reference.mjs). The Rust test crate/tests/mentions.rs checks that the
// `claude-code` rules give the same lists on every case.
//
// Run: node tests/gen/mentions-differential.mjs [cases] [seed] [output]
// (defaults: 1500 cases, the fixed seed below, the fixture file). A larger run with another
// seed into a scratch file is a quick way to hunt for disagreements.

import { writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { extractWithOriginalRegexes } from '../bench/mention-reference.mjs';
import { seededRandom } from './random.mjs';

const CASES = Number(process.argv[2] ?? 1500);
const SEED = Number(process.argv[3] ?? 0x6d656e74); // "ment"


// Every JS `\s` character, plus look-alikes that are NOT JS whitespace (U+0085, U+180E,
// U+200B) so that the scanner's whitespace class is pinned down exactly.
const WHITESPACE = [
  ' ', ' ', ' ', '\t', '\n', '\v', '\f', '\r', '\u00a0', '\u1680', '\u2000', '\u2005', '\u200a',
  '\u2028', '\u2029', '\u202f', '\u205f', '\u3000', '\ufeff',
];
const NOT_WHITESPACE = ['\u0085', '\u180e', '\u200b'];

// Pieces weighted towards the grammar's special characters.
const PIECES = [
  '@', '@', '@"', '"', '"', '#L', '#L', '#L', '#l', '#', '-', '-', ':', ':', '.', '.',
  '/', '/', '~', '_', ',', ')', '(', '`', '\\', '\\ ', "'", '!', '?',
  '0', '1', '5', '10', '20', '007', '12-30',
  'a', 'b', 'x', 'foo', 'src', 'file.txt', 'Z9', 'agent-', 'agent-', ' (agent)"', ' (agent)',
  'server:', 'http://', '~/', './', '../',
  'é', 'café', 'ß', '日本', '中', 'Ω', '😀', '👍🏽', '\u0301',
];
const PREFIXES = ['', '', '', '', '', '(', 'x', '"', '`', '😀'];
const OPENERS = ['@', '@', '@', '@"', '@"', '@agent-', '@"agent-'];
const CLOSERS = [
  '', '', '', '"', ' (agent)"', '.', ')', ':7', '#L3-4', '#L10', '#L0', '#L20-10', '#L5#x', '#L1-', '#top',
];

function pick(rand, list) {
  return list[Math.floor(rand() * list.length)];
}

function separator(rand) {
  const roll = rand();
  if (roll < 0.8) return pick(rand, WHITESPACE);
  if (roll < 0.9) return pick(rand, NOT_WHITESPACE);
  return '';
}

/** Mostly mention-shaped tokens (prefix, `@`, a body of pieces, a closer), some noise. */
function randomToken(rand) {
  let body = '';
  const pieces = 1 + Math.floor(rand() * 4);
  for (let i = 0; i < pieces; i += 1) body += pick(rand, PIECES);
  if (rand() < 0.2) return body;
  return pick(rand, PREFIXES) + pick(rand, OPENERS) + body + pick(rand, CLOSERS);
}

function randomText(rand) {
  const tokens = 1 + Math.floor(rand() * 4);
  let text = rand() < 0.3 ? separator(rand) : '';
  for (let i = 0; i < tokens; i += 1) {
    if (i > 0) text += separator(rand);
    text += randomToken(rand);
  }
  return text;
}

const rand = seededRandom(SEED);
const cases = [];
while (cases.length < CASES) {
  const text = randomText(rand);
  const { files, mcp, agents, parsed } = extractWithOriginalRegexes(text);
  // Texts without any `@` teach nothing; keep a few of them only.
  if (!text.includes('@') && rand() < 0.9) continue;
  cases.push({ text, files, mcp, agents, parsed });
}

const here = dirname(fileURLToPath(import.meta.url));
const out = process.argv[4] ?? join(here, '..', 'fixtures', 'mentions-differential.json');
const body = `{"cases":[\n${cases.map((c) => JSON.stringify(c)).join(',\n')}\n]}\n`;
writeFileSync(out, body);
const withFiles = cases.filter((c) => c.files.length > 0).length;
const withMcp = cases.filter((c) => c.mcp.length > 0).length;
const withAgents = cases.filter((c) => c.agents.length > 0).length;
console.log(
  `wrote ${cases.length} cases (${withFiles} with files, ${withMcp} with MCP, ${withAgents} with agents), ${body.length} chars`,
);
