// The "what changed since the previous request" strip: the engine's requestDiff of the step's
// request against the one sent before it (counts, tokens ±, how much of the earlier request
// this one starts with, then each block that changed with its words marked), and below it what
// the prompt cache did with this request: the replay's own cache accounting (the trace's
// `cacheAccount`, the model Compare prices with), with the engine's reason when it read little
// or nothing. The strip says nothing of the cache of its own.
import { h } from '../../dom.js';
import { withEngine } from '../../engine.js';
import { count, integer, tokensText } from '../../format.js';
import { linkTerms, termButton } from '../../popover.js';

/** @typedef {import('../../../pkg/context_assembly.js').StepTrace} StepTrace */
/** @typedef {import('../../../pkg/context_assembly.js').RequestDiff} RequestDiff */
/** @typedef {import('../../../pkg/context_assembly.js').AlignedBlock} AlignedBlock */
/** @typedef {import('../../../pkg/context_assembly.js').CompareStep} CompareStep */
/** @typedef {import('../../../pkg/context_assembly.js').CacheRead} CacheRead */

/** Changed blocks listed before "N more" is offered: a compaction can change hundreds. */
const SHOWN_BLOCKS = 12;
/** Characters of an added or removed block shown in the strip. */
const SHOWN_TEXT = 600;

/** What the cache did with a request, in a few words, for the strip's badge. */
export const READ_TITLES = /** @type {const} */ ({
  hit: 'read from the cache',
  'first-request': 'first request',
  'below-minimum': 'under the minimum',
  expired: 'expired',
  'prefix-changed': 'prefix changed',
  'beyond-lookback': 'beyond the lookback',
  'no-breakpoint': 'no breakpoint',
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
 * The replay's cache accounting of the request step `index` sent, if the trace carries it.
 * @param {CompareStep[] | undefined} account
 * @param {number} index
 */
export function cacheStepOf(account, index) {
  return account?.find((step) => step.step === index);
}

/**
 * Fills `container` with the strip for step `index`: what changed since the previous request
 * (a short note when there is none to compare with), then what the prompt cache did.
 * @param {HTMLElement} container
 * @param {StepTrace[]} steps
 * @param {number} index
 * @param {CompareStep | undefined} cache the replay's cache accounting of this request
 */
export function renderRequestDiff(container, steps, index, cache) {
  const pair = previousRequest(steps, index);
  const cacheLine = cache === undefined ? [] : [cacheSummary(cache)];
  if (pair === undefined) {
    container.replaceChildren(h('p', { class: 'note diff-summary' }, 'No earlier request to compare with: this is the first one, or this step sent none.'), ...cacheLine);
    linkTerms(container);
    return;
  }
  const { previous, next, elapsedMs, compacted } = pair;
  const diff = /** @type {RequestDiff} */ (withEngine((engine) => engine.requestDiff(previous, next, { elapsedMs, compacted })));
  // The strip is drawn again when the cache accounting arrives from its worker: a list the
  // reader opened stays open.
  const wasOpen = container.querySelector('details.diff-details')?.hasAttribute('open') ?? false;
  const changed = details(diff);
  if (wasOpen) for (const element of changed) element.setAttribute('open', '');
  container.replaceChildren(summary(diff, compacted), ...cacheLine, ...changed);
  linkTerms(container);
}

/**
 * What the cache did with the request: the split, and the engine's reason.
 * @param {CompareStep} cache
 */
function cacheSummary(cache) {
  const own = cache.summaryCall === undefined ? cache
    : { cached: cache.cached - cache.summaryCall.cached, written: cache.written - cache.summaryCall.written, uncached: cache.uncached - cache.summaryCall.uncached };
  const read = cache.cache.read;
  return h('div', { class: 'cache-summary', 'data-read': read, 'data-cached': String(own.cached), 'data-written': String(own.written) },
    h('b', {}, 'Prompt cache: '),
    // Each word of the split on its own, so that it is linked as the glossary's word.
    `${integer(own.cached)} `, 'cached', ` · ${integer(own.written)} `, 'written', ` · ${integer(own.uncached)} `, 'uncached',
    ' tokens, as the provider counts them · ',
    h('span', { class: read === 'hit' ? 'badge cache-kept' : 'badge cache-miss' }, termButton(read, READ_TITLES[read])),
    ' ',
    h('span', { class: 'cache-reason' }, `${cache.cache.reason}.`));
}

/**
 * The counts, the tokens ±, and how much of the previous request this one starts with.
 * @param {RequestDiff} diff
 * @param {boolean} compacted a compaction ran between the two requests
 */
function summary(diff, compacted) {
  const delta = diff.tokensAfter - diff.tokensBefore;
  const sign = delta > 0 ? '+' : delta < 0 ? '−' : '±';
  const earlier = diff.blocks.filter((block) => block.change !== 'added').length;
  const whole = diff.prefix.blocks === earlier;
  const first = diff.cache.at === undefined ? undefined : diff.blocks[diff.cache.at];
  const prefix = `the first ${count(diff.prefix.blocks, 'block')} (${tokensText(diff.prefix.tokens)}) are as before`;
  const where = whole ? `the previous request is this one's prefix: ${prefix}, and only what follows is new`
    : `${prefix}; the first difference: ${first === undefined ? "the previous request's last blocks were left out" : firstDifference(first)}${compacted ? ' (a compaction ran in between)' : ''}`;
  return h('div', { class: 'diff-summary', 'data-prefix': whole ? 'whole' : 'changed' },
    h('b', {}, 'Since the previous request: '),
    `${count(diff.added, 'block')} added, ${diff.removed} removed, ${diff.changed} changed, ${diff.unchanged} unchanged · `,
    h('span', { class: 'tok' }, `${sign}${tokensText(Math.abs(delta))}`),
    ' · ',
    h('span', { class: 'diff-reason', 'data-cause': diff.cache.cause }, `${where}.`));
}

/**
 * The first block that differs, in words.
 * @param {AlignedBlock} block
 */
function firstDifference(block) {
  const who = block.role === undefined ? `the ${block.channel === 'userContext' ? 'user context' : block.channel}` : `a ${block.role} message`;
  const what = block.reminder ? 'a reminder' : `\`${block.source}\``;
  return `${what} in ${who} was ${block.change}`;
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
