// Where a request's tokens sit: one table of tokens per channel (the panes) and category (the
// meter), so the meter's key and the request's panes are two readings of the same figures and
// always reconcile (a category's channels add up to its segment; a pane's categories to its sum).

/** @typedef {import('../../../pkg/context_assembly.js').Request} Request */
/** @typedef {import('../../../pkg/context_assembly.js').Block} Block */
/** @typedef {import('../../../pkg/context_assembly.js').Category} Category */

/** The meter's segments, in the order they are drawn: the engine's `byCategory` keys. */
export const CATEGORIES = /** @type {const} */ (['system', 'tools', 'memory', 'attachments', 'conversation']);

/** The request's panes, in the order they are shown: the engine's `byChannel` keys and names. */
export const CHANNELS = /** @type {const} */ ([
  ['system', 'system prompt'], ['tools', 'tools'], ['userContext', 'user context'], ['messages', 'messages'],
]);

/** @typedef {typeof CHANNELS[number][0]} ChannelKey */
/** @typedef {Record<ChannelKey, Record<Category, number>>} TokenSplit */

/**
 * Tokens per channel and category. A tool result with attachments folded into it counts each
 * part under its own category, as the engine's totals do.
 * @param {Request} request
 * @returns {TokenSplit}
 */
export function tokenSplit(request) {
  const empty = () => /** @type {Record<Category, number>} */ (Object.fromEntries(CATEGORIES.map((c) => [c, 0])));
  /** @type {TokenSplit} */
  const split = { system: empty(), tools: empty(), userContext: empty(), messages: empty() };
  /** @param {ChannelKey} channel @param {Block[]} blocks */
  const add = (channel, blocks) => {
    for (const block of blocks) {
      for (const part of block.parts !== undefined && block.parts.length > 0 ? block.parts : [block]) {
        split[channel][part.category] += part.tokens;
      }
    }
  };
  add('system', request.system);
  add('tools', request.tools);
  add('userContext', request.userContext);
  for (const message of request.messages) add('messages', message.content);
  return split;
}

/**
 * The channels a category's tokens sit in, e.g. `system prompt 57 + user context 66`; '' when
 * they sit in one channel only or nowhere.
 * @param {TokenSplit} split
 * @param {Category} category
 */
export function channelsOf(split, category) {
  const parts = CHANNELS.filter(([key]) => split[key][category] > 0).map(([key, name]) => `${name} ${split[key][category].toLocaleString('en-US')}`);
  return parts.length > 1 ? parts.join(' + ') : '';
}

/**
 * The categories of a channel's tokens, e.g. `memory 40 + system 26`; '' when it holds one
 * category only or nothing.
 * @param {TokenSplit} split
 * @param {ChannelKey} channel
 */
export function categoriesOf(split, channel) {
  const parts = CATEGORIES.filter((category) => split[channel][category] > 0).map((category) => `${category} ${split[channel][category].toLocaleString('en-US')}`);
  return parts.length > 1 || (parts.length === 1 && !parts[0]?.startsWith(defaultCategory(channel))) ? parts.join(' + ') : '';
}

/**
 * The category a channel's tokens have when nothing else is in it (the pane needs no note then).
 * @param {ChannelKey} channel
 */
function defaultCategory(channel) {
  return { system: 'system', tools: 'tools', userContext: 'memory', messages: 'conversation' }[channel];
}
