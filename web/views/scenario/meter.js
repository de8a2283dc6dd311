// The context meter: the window split into what each category of the request spends, and
// what is left. The segments add up to the window exactly, so the bar never lies.
import { byId, h } from '../../dom.js';
import { integer, tokensText } from '../../format.js';
import { standInsOf } from './request.js';
import { CATEGORIES, channelsOf, tokenSplit } from './token-split.js';
import { linkTerms } from '../../popover.js';

/** @typedef {import('../../../pkg/context_assembly.js').Request} Request */

/**
 * A meter's four parts, found by a common id prefix: `id` is the bar, `id-used`, `id-caption`
 * and `id-legend` the rest.
 * @param {string} id
 */
export function meterElements(id) {
  return {
    bar: byId(id, HTMLElement),
    used: byId(`${id}-used`, HTMLElement),
    caption: byId(`${id}-caption`, HTMLElement),
    legend: byId(`${id}-legend`, HTMLUListElement),
  };
}

/**
 * Draws the meter for a request, or an empty one before the first request.
 * @param {{ bar: HTMLElement, used: HTMLElement, caption: HTMLElement, legend: HTMLElement }} view
 *   `bar` is the whole window; `used` magnifies the spent part, which is often a sliver of it
 * @param {Request | undefined} request
 */
export function renderMeter({ bar, used, caption, legend }, request) {
  if (request === undefined) {
    bar.replaceChildren();
    used.replaceChildren();
    for (const name of ['window', 'total', 'over', 'autocompact']) delete bar.dataset[name];
    caption.textContent = 'No request has been sent yet.';
    legend.replaceChildren();
    return;
  }
  const { context, free, over } = request.window;
  const total = request.tokens.total;
  bar.dataset.window = String(context);
  bar.dataset.total = String(total);
  bar.dataset.over = String(over);
  // Over the window the bar is scaled to what was asked for, and the part past the window
  // is marked instead of a free segment.
  const scale = Math.max(context, total, 1);
  /** @type {[string, number][]} */
  const spent = CATEGORIES.map((name) => [name, request.tokens.byCategory[name]]);
  /** @type {[string, number][]} */
  const segments = [...spent, ['free', over > 0 ? 0 : free]];
  bar.replaceChildren(...segments.map(([name, tokens]) => segment(name, tokens, scale, 'data-segment')));
  if (over > 0) {
    bar.append(h('div', {
      class: 'meter-over', 'data-over': String(over), title: `over the window by ${integer(over)} tokens`,
      style: `left: ${(context / scale) * 100}%; width: ${(over / scale) * 100}%`,
    }, `over by ${integer(over)}`));
  }
  // Where auto-compaction would fire: a mark on the window, not a segment (it spends nothing).
  const { autocompact } = request.window;
  bar.dataset.autocompact = String(autocompact);
  bar.append(h('div', {
    class: 'meter-threshold', 'data-threshold': 'autocompact',
    title: `auto-compaction fires at ${integer(autocompact)} tokens`,
    style: `left: ${(Math.min(autocompact, scale) / scale) * 100}%`,
  }));
  used.replaceChildren(...spent.map(([name, tokens]) => segment(name, tokens, Math.max(total, 1), 'data-part')));
  caption.textContent = over > 0
    ? `${integer(total)} / ${integer(context)} tokens: over the window by ${integer(over)}; nothing is free`
    : `${integer(total)} / ${integer(context)} tokens (${((total / Math.max(context, 1)) * 100).toFixed(1)}% of the window; ${integer(free)} free; auto-compaction at ${integer(autocompact)})`;
  // Each category says which of the request's panes its tokens sit in, so the key and the
  // panes below read the same figures.
  const split = tokenSplit(request);
  // The system prompt and tools a release sends are stand-ins of its measured size: said
  // where their tokens are shown, with the release and the original's size.
  /** @type {Record<string, string>} */
  const standIns = { system: standInsOf(request.system), tools: standInsOf(request.tools) };
  legend.replaceChildren(...segments.map(([name, tokens]) => {
    const where = name === 'free' ? '' : channelsOf(split, /** @type {typeof CATEGORIES[number]} */ (name));
    const standIn = standIns[name] ?? '';
    return h('li', { 'data-category': name, 'data-tokens': String(tokens), ...(standIn === '' ? {} : { 'data-stand-in': standIn }) },
      h('span', { class: `swatch seg-${name}` }), `${name} `, h('span', { class: 'tok' }, tokensText(tokens)),
      ...(where === '' ? [] : [' ', h('span', { class: 'note' }, `(${where})`)]),
      ...(standIn === '' ? [] : [' ', h('span', { class: 'stand-in-note', title: 'our text in place of the release\'s own, at the size measured on it' }, `stand-ins measured on ${standIn}`)]));
  }));
  linkTerms(legend);
}

/**
 * One segment, as wide as its share of `scale`, labelled when there is room.
 * @param {string} name
 * @param {number} tokens
 * @param {number} scale
 * @param {'data-segment' | 'data-part'} attribute
 */
function segment(name, tokens, scale, attribute) {
  const share = tokens / scale;
  return h('div', {
    class: `segment seg-${name}`, [attribute]: name, 'data-tokens': String(tokens),
    title: `${name}: ${integer(tokens)} tokens`, style: `width: ${share * 100}%`,
  }, share > 0.1 ? `${name} ${integer(tokens)}` : '');
}
