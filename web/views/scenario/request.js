// One request, in its four channels, block by block: what the model receives on a round.
import { h } from '../../dom.js';
import { count, tokensText } from '../../format.js';
import { categoriesOf, tokenSplit } from './token-split.js';

/** @typedef {import('../../../pkg/context_assembly.js').Request} Request */
/** @typedef {import('../../../pkg/context_assembly.js').Block} Block */

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
    view.append(textView(block.text));
  }
  return view;
}

/**
 * Blocks in order, with the prompt cache's boundary drawn where it falls.
 * @param {Block[]} blocks
 * @returns {HTMLElement[]}
 */
function blocksView(blocks) {
  return blocks.flatMap((block) => block.cacheBoundary === true
    ? [h('div', { class: 'cache-boundary' }, 'cache boundary: everything above is the cached prefix'), blockView(block)]
    : [blockView(block)]);
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
 * The whole request.
 * @param {Request} request
 */
export function requestView(request) {
  const tools = h('details', { class: 'tools' },
    h('summary', {}, `${count(request.tools.length, 'tool definition')}`),
    h('ul', { class: 'tool-list' }, ...request.tools.map((tool) =>
      h('li', { title: tool.text.slice(0, 400) }, h('code', {}, tool.source), ' ', h('span', { class: 'tok' }, tokensText(tool.tokens))))));
  const { message: at, block: atBlock } = request.userContextAt;
  /** @type {HTMLElement[]} */
  const messages = request.messages.map((message, index) => {
    const blocks = blocksView(message.content);
    if (index === at && request.userContext.length > 0) blocks.splice(Math.min(atBlock, blocks.length), 0, splice(request.userContext));
    return h('div', { class: `message role-${message.role}` }, h('div', { class: 'role' }, message.role), ...blocks);
  });
  // A splice past the last message (no messages yet) still has to be shown.
  if (at >= request.messages.length && request.userContext.length > 0) messages.push(splice(request.userContext));
  const messageBlocks = request.messages.flatMap((message) => message.content);
  const split = tokenSplit(request);
  return h('div', { class: 'request' },
    channel('System', meterNote(split, 'system'), request.system, ...blocksView(request.system)),
    channel('Tools', meterNote(split, 'tools'), request.tools, tools),
    channel('User context', ` · prepended, never stored${meterNote(split, 'userContext')}`, request.userContext,
      ...(request.userContext.length === 0 ? [h('p', { class: 'none' }, 'none')] : blocksView(request.userContext))),
    channel('Messages', ` · ${count(request.messages.length, 'message')}${meterNote(split, 'messages')}`, messageBlocks, ...messages));
}
