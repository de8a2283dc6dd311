// The JavaScript reference for change snippets: Claude Code's `getSnippetForTwoFileDiff`
// (spec claude-code.md §5.2–5.3) on the npm package `diff` (jsdiff), with the switches of the
// `recommended` profile (Q33, Q34, Q36, Q37 and Q41 fixed; the token count Q41's cap reads is
// the caller's, since the calibrated estimate exists only in the engine). The Rust `diff` module must match it byte for byte; the
// differential fixture (tests/gen/diff-differential.mjs) and the benchmark are built on it.
import { readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import { structuredPatch } from 'diff';
import { initSync, estimateTokens } from '../../pkg/context_assembly.js';

initSync({ module: readFileSync(new URL('../../pkg/context_assembly_bg.wasm', import.meta.url)) });

// IMPORTANT: the same constants live in crate/src/diff (SnippetRules::claude_code()).
const CONTEXT_LINES = 8;
const MAX_LEN = 8192;
const DIFF_TIMEOUT_MS = 5_000;
// IMPORTANT: the same cap lives in crate/src/diff (SnippetRules::max_tokens).
const MAX_TOKENS = 2048;

/** The options that make the reference the `recommended` profile's snippet. */
export const RECOMMENDED = Object.freeze({
  newNumbering: true,
  exactCount: true,
  markRemoved: true,
  ignoreFinalNewline: true,
  maxTokens: MAX_TOKENS,
  countTokens: (/** @type {string} */ text) => estimateTokens(text, { method: 'calibrated' }),
});

/** `addLineNumbers` in its compact format (spec §3.5). */
function addLineNumbers({ content, startLine }) {
  if (!content) {
    return '';
  }
  return content
    .split(/\r?\n/)
    .map((line, index) => `${index + startLine}\t${line}`)
    .join('\n');
}

function countChar(text, char, from) {
  let count = 0;
  for (let i = from; i < text.length; i++) {
    if (text[i] === char) count++;
  }
  return count;
}

/**
 * A hunk with its removed lines in place (Q36 fixed): kept lines numbered from `startLine`,
 * removed ones marked `-`, line breaks dropped; a removed line whose text comes back among
 * the same change's added lines (another line break) is not shown as removed.
 * @param {{ lines: string[] }} hunk
 * @param {number} startLine
 */
function markedHunk(hunk, startLine) {
  const lines = hunk.lines.filter((line) => !line.startsWith('\\'));
  const textOf = (/** @type {string} */ line) => line.slice(1).replace(/\r$/, '');
  let number = startLine;
  const out = [];
  lines.forEach((line, index) => {
    if (line.startsWith('-')) {
      const change = [];
      for (const other of lines.slice(index)) {
        if (other.startsWith(' ')) break;
        change.push(other);
      }
      if (change.some((other) => other.startsWith('+') && textOf(other) === textOf(line))) return;
      out.push(`-\t${textOf(line)}`);
    } else {
      out.push(`${number++}\t${textOf(line)}`);
    }
  });
  return out.join('\n');
}

/**
 * The longest prefix of `full` (cut at a line break when one fits) within `maxTokens` tokens.
 * @param {string} full
 * @param {number} maxTokens
 * @param {(text: string) => number} countTokens
 */
function tokenCut(full, maxTokens, countTokens) {
  let fitting = -1;
  for (let at = full.indexOf('\n'); at !== -1; at = full.indexOf('\n', at + 1)) {
    if (countTokens(full.slice(0, at)) > maxTokens) break;
    fitting = at;
  }
  if (fitting > 0) return { kept: full.slice(0, fitting), onLine: true };
  const chars = Array.from(full);
  let kept = '';
  for (const char of chars) {
    if (countTokens(kept + char) > maxTokens) break;
    kept += char;
  }
  return { kept, onLine: false };
}

/**
 * @param {string} before
 * @param {string} after
 * @param {{ newNumbering?: boolean, exactCount?: boolean, markRemoved?: boolean,
 *   ignoreFinalNewline?: boolean, maxTokens?: number, countTokens?: (text: string) => number,
 *   timeout?: number }} [options]
 *   newNumbering: Q33 fix (number from hunk.newStart); exactCount: Q34 fix; markRemoved: Q36
 *   fix; ignoreFinalNewline: Q37 fix; maxTokens with countTokens: Q41 fix (the cap in tokens).
 * @returns {string}
 */
export function referenceSnippet(before, after, {
  newNumbering = false, exactCount = false, markRemoved = false, ignoreFinalNewline = false,
  maxTokens = undefined, countTokens = undefined, timeout = DIFF_TIMEOUT_MS,
} = {}) {
  const withoutFinalNewline = (/** @type {string} */ text) => text.replace(/\r?\n$/, '');
  if (ignoreFinalNewline && before !== after && withoutFinalNewline(before) === withoutFinalNewline(after)) {
    return '';
  }
  const patch = structuredPatch('file.txt', 'file.txt', before, after, undefined, undefined, {
    context: CONTEXT_LINES,
    timeout,
  });
  if (!patch) {
    return '';
  }
  const full = patch.hunks
    .map((hunk) => {
      const startLine = newNumbering ? hunk.newStart : hunk.oldStart;
      if (markRemoved) return markedHunk(hunk, startLine);
      return addLineNumbers({
        startLine,
        content: hunk.lines
          .filter((line) => !line.startsWith('-') && !line.startsWith('\\'))
          .map((line) => line.slice(1))
          .join('\n'),
      });
    })
    .join('\n...\n');
  if (maxTokens !== undefined && countTokens !== undefined) {
    if (countTokens(full) <= maxTokens) return full;
    const { kept, onLine } = tokenCut(full, maxTokens, countTokens);
    let remaining = countChar(full, '\n', kept.length) + 1;
    if (exactCount && onLine) remaining -= 1;
    return `${kept}\n\n... [${remaining} lines truncated] ...`;
  }
  if (full.length <= MAX_LEN) {
    return full;
  }
  const cutoff = full.lastIndexOf('\n', MAX_LEN);
  let hardCut = MAX_LEN;
  // Deviation shared with the Rust port: the original slices at 8192 UTF-16 units even inside
  // a surrogate pair, leaving a lone surrogate that no UTF-8 string (nor JSON consumer) can
  // carry; both sides cut before the pair instead. The count below is unaffected.
  const unit = full.charCodeAt(MAX_LEN - 1);
  if (unit >= 0xd800 && unit <= 0xdbff) {
    hardCut = MAX_LEN - 1;
  }
  const kept = cutoff > 0 ? full.slice(0, cutoff) : full.slice(0, hardCut);
  let remaining = countChar(full, '\n', kept.length) + 1;
  // Q34: on a line-boundary cut the original counts the `\n` it cut at as one more line.
  if (exactCount && cutoff > 0) {
    remaining -= 1;
  }
  return `${kept}\n\n... [${remaining} lines truncated] ...`;
}

/**
 * `node tests/bench/diff-reference.mjs calibrate [sizes…]`: how long jsdiff takes on two
 * files of `n` lines with no line in common, the measurement behind the Rust
 * `WORK_BUDGET` (our search spends `n² + 4n` units on such a pair).
 */
function calibrate(sizes) {
  for (const n of sizes) {
    const before = Array.from({ length: n }, (_, i) => `old line ${i}\n`).join('');
    const after = Array.from({ length: n }, (_, i) => `new line ${i}\n`).join('');
    const start = performance.now();
    const patch = structuredPatch('f', 'f', before, after, undefined, undefined, { context: CONTEXT_LINES, timeout: 600_000 });
    const ms = performance.now() - start;
    console.log(`${n} lines: ${ms.toFixed(0)} ms, ${patch ? 'done' : 'gave up'}, work ${n * n + 4 * n}`);
  }
}

const isMain = process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (isMain && process.argv[2] === 'calibrate') {
  const sizes = process.argv.slice(3).map(Number);
  calibrate(sizes.length ? sizes : [1000, 2000, 3000, 4000, 5000]);
}
