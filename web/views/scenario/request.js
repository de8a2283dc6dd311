// One request, in its four channels, block by block: what the model receives on a round, with
// where the prompt cache's breakpoints sit and what the cache did with the prefix each ends
// (the replay's own cache accounting, the one the strip and Compare read), and the blocks that
// stand in for a client release's own text marked with that text's measured size.
import { h } from '../../dom.js';
import { count, integer, tokensText } from '../../format.js';
import { categoriesOf, tokenSplit } from './token-split.js';

/** @typedef {import('../../../pkg/context_assembly.js').Request} Request */
/** @typedef {import('../../../pkg/context_assembly.js').Block} Block */
/** @typedef {import('../../../pkg/context_assembly.js').CompareStep} CompareStep */
/** @typedef {import('../../../pkg/context_assembly.js').StandIn} StandIn */
/** @typedef {(index: number) => HTMLElement | undefined} Markers the cache's mark after a block, by its place in cache order */

const REMINDER = /<system-reminder>[\s\S]*?<\/system-reminder>/g;

/**
 * The text in a <pre>, with every `<system-reminder>` span marked: a reminder is how the
 * engine talks to the model between the user's words, so it must stand out.
 * @param {string} text
 */
export function textView(text) {
  // A long text scrolls in its box: the box takes the focus so a keyboard can scroll it too.
  const pre = h('pre', { class: 'block-text', tabindex: '0', role: 'group', 'aria-label': 'text the model sees' });
  let at = 0;
  for (const match of text.matchAll(REMINDER)) {
    const start = match.index ?? 0;
    if (start > at) pre.append(text.slice(at, start));
    pre.append(h('mark', { class: 'reminder' }, match[0]));
    at = start + match[0].length;
  }
  if (at < text.length) pre.append(text.slice(at));
  if (text === '') pre.append(h('span', { class: 'none' }, '(empty)'));
  return pre;
}

/** @param {Block[]} blocks */
const sum = (blocks) => blocks.reduce((total, block) => total + block.tokens, 0);

/**
 * What a stand-in block is, in words.
 * @param {StandIn} standIn
 */
export const standInText = (standIn) =>
  `stand-in: our text in place of ${standIn.release}'s own, of the same length; billed at the original's ${tokensText(standIn.tokens)} (the calibrated counter's)`;

/**
 * The stand-ins among blocks, summed per release: `Claude Code 2.1.332 15,000 tok`.
 * @param {Block[]} blocks
 * @returns {string} '' when there are none
 */
export function standInsOf(blocks) {
  /** @type {Map<string, number>} */
  const byRelease = new Map();
  for (const block of blocks) {
    if (block.standIn !== undefined) byRelease.set(block.standIn.release, (byRelease.get(block.standIn.release) ?? 0) + block.standIn.tokens);
  }
  return [...byRelease].map(([release, tokens]) => `${release} ${tokensText(tokens)}`).join(' + ');
}

/**
 * The marks the prompt cache leaves on a request: after each breakpoint, what became of the
 * prefix it ends; after the last block read, when that is not a breakpoint, how far the read
 * went. Indexes are places in cache order (tools, system, user context, messages).
 * @param {CompareStep | undefined} cache the replay's accounting of this request
 * @returns {Markers}
 */
function cacheMarkers(cache) {
  if (cache === undefined) return () => undefined;
  const { breakpoints = [], readThrough } = cache.cache;
  /** @type {Map<number, HTMLElement>} */
  const marks = new Map();
  for (const breakpoint of breakpoints) {
    const what = {
      read: 'were read from the cache',
      written: 'were written to the cache',
      'too-small': 'are under the provider\'s minimum: no entry is cached here',
    }[breakpoint.state];
    marks.set(breakpoint.block, h('div', { class: `cache-boundary cache-${breakpoint.state}`, 'data-breakpoint': breakpoint.state, 'data-tokens': String(breakpoint.tokens) },
      `cache breakpoint: the ${integer(breakpoint.tokens)} tokens up to here (as the provider counts them) ${what}`));
  }
  if (readThrough !== undefined && !marks.has(readThrough)) {
    marks.set(readThrough, h('div', { class: 'cache-boundary cache-read', 'data-read-through': String(cache.cached) },
      `the cache read up to here: ${integer(cache.cached - (cache.summaryCall?.cached ?? 0))} tokens (as the provider counts them)`));
  }
  return (index) => marks.get(index);
}

/**
 * One block: where it came from, its type and tokens, then its text, or, for a tool result
 * with attachments folded into it (Q50), each part on its own.
 * @param {Block} block
 * @returns {HTMLElement}
 */
function blockView(block) {
  const classes = ['block'];
  if (block.frequency !== undefined) classes.push('attachment', `freq-${block.frequency}`);
  if (block.isError === true) classes.push('is-error');
  const head = h('div', { class: 'block-head' },
    h('b', {}, block.source), ` · ${block.type} · `, h('span', { class: 'tok' }, tokensText(block.tokens)));
  if (block.standIn !== undefined) head.append(' ', h('span', { class: 'badge stand-in', 'data-release': block.standIn.release }, 'stand-in'));
  if (block.frequency !== undefined) head.append(' ', h('span', { class: `freq freq-${block.frequency}` }, block.frequency));
  if (block.reminder) head.append(' ', h('span', { class: 'badge reminder' }, 'system-reminder'));
  if (block.isError === true) head.append(' ', h('span', { class: 'badge error' }, 'error'));
  if (block.toolUseId !== undefined) head.append(' ', h('span', { class: 'note' }, block.toolUseId));
  const view = h('div', {
    class: classes.join(' '), 'data-source': block.source, 'data-type': block.type, 'data-tokens': String(block.tokens),
  }, head);
  if (block.parts !== undefined && block.parts.length > 0) {
    view.append(h('div', { class: 'note' }, `${count(block.parts.length, 'part')} folded into this tool result (Q50):`),
      h('div', { class: 'parts' }, ...block.parts.map(blockView)));
  } else {
    if (block.standIn !== undefined) view.append(h('div', { class: 'note stand-in-note' }, standInText(block.standIn)));
    view.append(textView(block.text));
  }
  return view;
}

/**
 * Blocks in order, each followed by the cache's mark when one falls after it.
 * @param {Block[]} blocks
 * @param {number} [first] the first block's place in cache order
 * @param {Markers} [markers]
 * @returns {HTMLElement[]}
 */
function blocksView(blocks, first = 0, markers = () => undefined) {
  return blocks.flatMap((block, index) => {
    const mark = markers(first + index);
    return mark === undefined ? [blockView(block)] : [blockView(block), mark];
  });
}

/**
 * A channel: a small heading with its token sum, then its content.
 * @param {string} name
 * @param {string} note
 * @param {Block[]} blocks
 * @param {...Node} content
 */
function channel(name, note, blocks, ...content) {
  return h('div', { class: 'channel', 'data-channel': name.toLowerCase().replace(' ', '-'), 'data-tokens': String(sum(blocks)) },
    h('h3', {}, name, ' ', h('span', { class: 'note' }, `${count(blocks.length, 'block')} · ${tokensText(sum(blocks))}${note}`)),
    ...content);
}

/**
 * A channel's note naming the meter categories its tokens count under, when more than the
 * obvious one.
 * @param {import('./token-split.js').TokenSplit} split
 * @param {import('./token-split.js').ChannelKey} key
 */
function meterNote(split, key) {
  const categories = categoriesOf(split, key);
  return categories === '' ? '' : ` · on the meter: ${categories}`;
}

/**
 * The user context where it is spliced into the messages: a copy of the channel above,
 * collapsed, because the text is the same.
 * @param {Block[]} userContext
 */
function splice(userContext) {
  return h('details', { class: 'uc-splice' },
    h('summary', {}, `user context spliced here: ${count(userContext.length, 'block')}, ${tokensText(sum(userContext))}, prepended, never stored`),
    ...blocksView(userContext));
}

/**
 * The whole request, with the prompt cache's marks when its accounting is given.
 * @param {Request} request
 * @param {CompareStep} [cache] the replay's cache accounting of this request
 */
export function requestView(request, cache) {
  const markers = cacheMarkers(cache);
  const toolsStandIn = standInsOf(request.tools);
  const tools = h('details', { class: 'tools' },
    h('summary', {}, `${count(request.tools.length, 'tool definition')}`),
    h('ul', { class: 'tool-list' }, ...request.tools.map((tool) =>
      h('li', { title: tool.standIn === undefined ? tool.text.slice(0, 400) : standInText(tool.standIn) }, h('code', {}, tool.source), ' ',
        h('span', { class: 'tok' }, tokensText(tool.tokens)), ...(tool.standIn === undefined ? [] : [' ', h('span', { class: 'badge stand-in' }, 'stand-in')])))));
  const toolMarks = request.tools.map((_, index) => markers(index)).filter((mark) => mark !== undefined);
  const systemAt = request.tools.length;
  const contextAt = systemAt + request.system.length;
  let messageAt = contextAt + request.userContext.length;
  const { message: at, block: atBlock } = request.userContextAt;
  /** @type {HTMLElement[]} */
  const messages = request.messages.map((message, index) => {
    const blocks = blocksView(message.content, messageAt, markers);
    messageAt += message.content.length;
    if (index === at && request.userContext.length > 0) {
      // The blocks before the splice, counting the cache's marks among them.
      const before = message.content.slice(0, atBlock).filter((_, i) => markers(messageAt - message.content.length + i) !== undefined).length;
      blocks.splice(Math.min(atBlock + before, blocks.length), 0, splice(request.userContext));
    }
    return h('div', { class: `message role-${message.role}` }, h('div', { class: 'role' }, message.role), ...blocks);
  });
  // A splice past the last message (no messages yet) still has to be shown.
  if (at >= request.messages.length && request.userContext.length > 0) messages.push(splice(request.userContext));
  const messageBlocks = request.messages.flatMap((message) => message.content);
  const split = tokenSplit(request);
  const standIns = (/** @type {Block[]} */ blocks) => {
    const text = standInsOf(blocks);
    return text === '' ? '' : ` · stand-ins measured on ${text}`;
  };
  return h('div', { class: 'request' },
    channel('System', `${standIns(request.system)}${meterNote(split, 'system')}`, request.system, ...blocksView(request.system, systemAt, markers)),
    channel('Tools', `${toolsStandIn === '' ? '' : ` · stand-ins measured on ${toolsStandIn}`}${meterNote(split, 'tools')}`, request.tools, tools, ...toolMarks),
    channel('User context', ` · prepended, never stored${meterNote(split, 'userContext')}`, request.userContext,
      ...(request.userContext.length === 0 ? [h('p', { class: 'none' }, 'none')] : blocksView(request.userContext, contextAt, markers))),
    channel('Messages', ` · ${count(request.messages.length, 'message')}${meterNote(split, 'messages')}`, messageBlocks, ...messages));
}
