// The "what changed since the previous request" strip: the engine's requestDiff of the step's
// request against the one sent before it, as counts, tokens ±, the prefix the cache keeps and
// the reason it cannot keep more, then each block that changed with its words marked.
import { h } from '../../dom.js';
import { withEngine } from '../../engine.js';
import { count, tokensText } from '../../format.js';

/** @typedef {import('../../../pkg/context_assembly.js').StepTrace} StepTrace */
/** @typedef {import('../../../pkg/context_assembly.js').RequestDiff} RequestDiff */
/** @typedef {import('../../../pkg/context_assembly.js').AlignedBlock} AlignedBlock */

/** Changed blocks listed before "N more" is offered: a compaction can change hundreds. */
const SHOWN_BLOCKS = 12;
/** Characters of an added or removed block shown in the strip. */
const SHOWN_TEXT = 600;

/** What a cache break means, in a few words, for the strip's headline. */
const CAUSE_TITLES = /** @type {const} */ ({
  none: 'prefix kept',
  'ttl-expired': 'cache expired',
  compaction: 'compaction',
  'tools-changed': 'tools changed',
  'system-changed': 'system prompt changed',
  'context-changed': 'user context changed',
  inserted: 'block inserted',
  edited: 'earlier block edited',
  removed: 'earlier block removed',
});

/**
 * The request sent before step `index`, with the milliseconds between the two and whether a
 * compaction ran in between; `undefined` when the step sent nothing or nothing was sent before.
 * @param {StepTrace[]} steps
 * @param {number} index
 */
export function previousRequest(steps, index) {
  const step = steps[index];
  if (step?.turn.request === undefined) return undefined;
  let compacted = (step.turn.compaction ?? []).some((report) => report.applied);
  for (let at = index - 1; at >= 0; at -= 1) {
    const earlier = steps[at];
    if (earlier === undefined) break;
    if (earlier.turn.request !== undefined) {
      return { previous: earlier.turn.request, next: step.turn.request, elapsedMs: Math.max(0, step.atMs - earlier.atMs), compacted };
    }
    compacted ||= (earlier.turn.compaction ?? []).some((report) => report.applied);
  }
  return undefined;
}

/**
 * Fills `container` with the strip for step `index` (a short note when there is no earlier
 * request to compare with).
 * @param {HTMLElement} container
 * @param {StepTrace[]} steps
 * @param {number} index
 */
export function renderRequestDiff(container, steps, index) {
  const pair = previousRequest(steps, index);
  if (pair === undefined) {
    container.replaceChildren(h('p', { class: 'note' }, 'No earlier request to compare with: this is the first one, or this step sent none.'));
    return;
  }
  const { previous, next, elapsedMs, compacted } = pair;
  const diff = /** @type {RequestDiff} */ (withEngine((engine) => engine.requestDiff(previous, next, { elapsedMs, compacted })));
  container.replaceChildren(summary(diff), ...details(diff));
}

/** @param {RequestDiff} diff */
function summary(diff) {
  const delta = diff.tokensAfter - diff.tokensBefore;
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  const kept = diff.cache.cause === 'none';
  return h('div', { class: 'diff-summary' },
    h('b', {}, 'Since the previous request: '),
    `${count(diff.added, 'block')} added, ${diff.removed} removed, ${diff.changed} changed, ${diff.unchanged} unchanged · `,
    h('span', { class: 'tok' }, `${sign}${tokensText(Math.abs(delta))}`),
    ' · ',
    h('span', { class: kept ? 'badge cache-kept' : 'badge cache-miss', 'data-cause': diff.cache.cause }, CAUSE_TITLES[diff.cache.cause]),
    ' ',
    h('span', { class: 'diff-reason' }, `${diff.cache.reason}.`));
}

/**
 * The blocks that changed, as a list under a <details>, the first few open to read.
 * @param {RequestDiff} diff
 * @returns {HTMLElement[]}
 */
function details(diff) {
  const moved = diff.blocks.filter((block) => block.change !== 'unchanged');
  if (moved.length === 0) return [];
  const list = h('ol', { class: 'diff-blocks' });
  const show = (/** @type {number} */ from) => {
    for (const block of moved.slice(from, from + SHOWN_BLOCKS)) list.append(blockChange(block));
    const left = moved.length - from - SHOWN_BLOCKS;
    if (left > 0) {
      const more = h('button', { type: 'button', class: 'more' }, `${left} more`);
      more.addEventListener('click', () => { more.parentElement?.remove(); show(from + SHOWN_BLOCKS); });
      list.append(h('li', {}, more));
    }
  };
  show(0);
  return [h('details', { class: 'diff-details' }, h('summary', {}, `${count(moved.length, 'block')} that changed`), list)];
}

/** @param {AlignedBlock} block */
function blockChange(block) {
  const who = block.role === undefined ? block.channel : `${block.channel} · ${block.role}`;
  const tokens = block.change === 'changed'
    ? `${tokensText(block.tokensBefore)} → ${tokensText(block.tokensAfter)}`
    : tokensText(block.change === 'removed' ? block.tokensBefore : block.tokensAfter);
  const item = h('li', { class: `diff-block diff-${block.change}`, 'data-change': block.change },
    h('div', { class: 'block-head' }, h('b', {}, block.change), ` · ${block.source} · ${who} · `, h('span', { class: 'tok' }, tokens)));
  if (block.words !== undefined && block.words.length > 0) {
    item.append(h('pre', { class: 'block-text word-diff', tabindex: '0', 'aria-label': `the words that changed in ${block.source}` },
      ...block.words.map((word) => word.op === 'equal' ? word.text
        : h(word.op === 'insert' ? 'ins' : 'del', {}, word.text))));
  } else if (block.wordsSkipped !== undefined) {
    item.append(h('p', { class: 'note' }, block.wordsSkipped));
  } else if (block.text !== undefined) {
    const text = block.text.length > SHOWN_TEXT ? `${block.text.slice(0, SHOWN_TEXT)}… (${block.text.length} characters)` : block.text;
    item.append(h('pre', { class: 'block-text', tabindex: '0', 'aria-label': `the ${block.change} block ${block.source}` }, text));
  }
  return item;
}
