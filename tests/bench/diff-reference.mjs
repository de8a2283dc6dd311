// The JavaScript reference for change snippets: Claude Code's `getSnippetForTwoFileDiff`
// (spec claude-code.md §5.2–5.3) on the npm package `diff` (jsdiff), with the two switches of
// the `recommended` profile. The Rust `diff` module must match it byte for byte; the
// differential fixture (tests/gen/diff-differential.mjs) and the benchmark are built on it.
import { pathToFileURL } from 'node:url';
import { structuredPatch } from 'diff';

// IMPORTANT: the same constants live in crate/src/diff (SnippetRules::claude_code()).
const CONTEXT_LINES = 8;
const MAX_LEN = 8192;
const DIFF_TIMEOUT_MS = 5_000;

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
 * @param {string} before
 * @param {string} after
 * @param {{ newNumbering?: boolean, exactCount?: boolean, timeout?: number }} [options]
 *   newNumbering: Q33 fix (number from hunk.newStart); exactCount: Q34 fix.
 * @returns {string}
 */
export function referenceSnippet(before, after, { newNumbering = false, exactCount = false, timeout = DIFF_TIMEOUT_MS } = {}) {
  const patch = structuredPatch('file.txt', 'file.txt', before, after, undefined, undefined, {
    context: CONTEXT_LINES,
    timeout,
  });
  if (!patch) {
    return '';
  }
  const full = patch.hunks
    .map((hunk) => ({
      startLine: newNumbering ? hunk.newStart : hunk.oldStart,
      content: hunk.lines
        .filter((line) => !line.startsWith('-') && !line.startsWith('\\'))
        .map((line) => line.slice(1))
        .join('\n'),
    }))
    .map(addLineNumbers)
    .join('\n...\n');
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
