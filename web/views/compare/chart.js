// Hand-written SVG line charts: one series per profile, drawn into an <svg> the page owns,
// so that its id, its place and its accessible name stay put between runs. A chart is drawn
// at the width it is shown at, so its 12 px labels stay 12 px; each line is named at its end,
// so that eight tangled lines are told apart without going back and forth to the legend; a
// table of the same numbers sits behind every chart for readers who cannot hover.

import { h, s } from '../../dom.js';
import { showRows } from '../more-rows.js';

/** The drawing area when the chart is not on screen yet, in viewBox units (pixels when shown). */
const WIDTH = 400;
const HEIGHT = 240;
const MARGIN = { top: 16, bottom: 38 };
/** Roughly how wide a character of a 12 px axis label is, to leave room for the longest. */
const LABEL_CHAR_WIDTH = 7.2;
/** The height of a 12 px label's line: names closer than this overlap. */
const LINE_HEIGHT = 14;
/** Between a line's last point and its name. */
const NAME_GAP = 8;

/**
 * Each profile's look: a colour and a dash pattern, so that the series stay apart for a
 * reader who cannot tell the colours apart (or prints the page in grey). The colour is a
 * light-dark() pair: a line's name is written in its line's colour, and each of the pair is
 * text-contrast (4.5:1 and more) on the chart's own background in its mode.
 * @typedef {{ color: string, dash: string }} Look
 * @type {Record<string, Look>}
 */
const LOOKS = {
  'claude-code': { color: 'light-dark(#c2410c, #fb923c)', dash: '' },
  codex: { color: 'light-dark(#1d4ed8, #93c5fd)', dash: '7 4' },
  recommended: { color: 'light-dark(#15803d, #4ade80)', dash: '2 3' },
  'world-state': { color: 'light-dark(#7e22ce, #d8b4fe)', dash: '9 3 2 3' },
  'opencode-style': { color: 'light-dark(#0f766e, #2dd4bf)', dash: '4 2' },
  'aider-style': { color: 'light-dark(#be185d, #f9a8d4)', dash: '6 2 1 2' },
};
/** For a profile the page does not know yet: still distinct from the six above. */
const SPARE = [{ color: 'light-dark(#a16207, #facc15)', dash: '1 2' }, { color: 'light-dark(#475569, #cbd5e1)', dash: '8 2' }];

/**
 * The look of a profile's series; it depends on the name alone, so that a profile keeps its
 * colour in the legend, the charts and the tables whichever others are ticked.
 * @param {string} profile
 * @returns {Look}
 */
export function lookOf(profile) {
  const spare = [...profile].reduce((sum, char) => sum + (char.codePointAt(0) ?? 0), 0) % SPARE.length;
  return LOOKS[profile] ?? SPARE[spare] ?? { color: 'currentColor', dash: '' };
}

/**
 * Paints a series' element in its look's colour: a style, since a presentation attribute
 * cannot hold light-dark().
 * @template {SVGElement} E
 * @param {E} element
 * @param {'stroke' | 'fill'} property
 * @param {Look} look
 * @returns {E}
 */
export function paint(element, property, look) {
  element.style.setProperty(property, look.color);
  return element;
}

/**
 * Where to write names whose wanted heights (the ends of their lines) may crowd: each as near
 * its own as it can be while a line's height from the next, in the same order, within
 * `low`…`high`.
 * @param {number[]} wanted ascending
 * @param {number} low
 * @param {number} high
 */
function spread(wanted, low, high) {
  /** @type {number[]} */
  const placed = [];
  for (const at of wanted) placed.push(Math.max(at, low, (placed.at(-1) ?? -Infinity) + LINE_HEIGHT));
  // Pushed down past `high`: the names move back up together, each keeping its distance.
  for (let i = placed.length - 1; i >= 0; i--) {
    placed[i] = Math.min(placed[i] ?? high, high, (placed[i + 1] ?? Infinity) - LINE_HEIGHT);
  }
  return placed;
}

/**
 * @typedef {object} Point
 * @property {number} y the value
 * @property {number} step the scenario step that sent the request: clicking the point shows it
 * @property {string} label what the point's tooltip says
 * @property {string} [compacted] the policy of a compaction just before this point, marked on the chart
 */
/** @typedef {{ profile: string, points: Point[] }} Series */
/**
 * @typedef {object} ChartSpec
 * @property {string} title the chart's accessible name
 * @property {string} description what it plots, for a screen reader
 * @property {string} xLabel the x axis, under it
 * @property {number} yMax the top of the y axis (at least the largest value)
 * @property {(value: number) => string} yText a value as the axis shows it
 * @property {Series[]} series one per profile, in the order compared
 * @property {{ value: number, label: string, short: string }[]} [thresholds] horizontal lines drawn
 *   across the plot, named `short` on the chart and `label` in its table
 */

/**
 * Draws a chart into `svg`, replacing what was there. x is the request's index within its
 * profile (profiles may send different numbers of requests), y runs from 0 to `yMax`.
 * @param {SVGSVGElement} svg
 * @param {ChartSpec} spec
 */
export function drawChart(svg, spec) {
  const width = Math.round(svg.getBoundingClientRect().width) || WIDTH;
  const left = Math.ceil(Math.max(spec.yText(spec.yMax).length, spec.yText(0).length) * LABEL_CHAR_WIDTH) + 12;
  const right = Math.ceil(Math.max(0, ...spec.series.map(({ profile }) => profile.length)) * LABEL_CHAR_WIDTH) + NAME_GAP + 4;
  drawInto(svg, spec, width, { ...MARGIN, left, right });
}

/**
 * Draws at `width` viewBox units with `margin` around the plot.
 * @param {SVGSVGElement} svg
 * @param {ChartSpec} spec
 * @param {number} width
 * @param {typeof MARGIN & { left: number, right: number }} margin
 */
function drawInto(svg, spec, width, margin) {
  const plotWidth = width - margin.left - margin.right;
  const plotHeight = HEIGHT - margin.top - margin.bottom;
  const longest = Math.max(1, ...spec.series.map((one) => one.points.length));
  const yMax = spec.yMax > 0 ? spec.yMax : 1;
  /** @param {number} index */
  const x = (index) => margin.left + (longest === 1 ? plotWidth / 2 : (index / (longest - 1)) * plotWidth);
  /** @param {number} value */
  const y = (value) => margin.top + plotHeight - (Math.min(value, yMax) / yMax) * plotHeight;
  const fixed = (/** @type {number} */ n) => n.toFixed(1);
  const titleId = `${svg.id}-title`;
  const descId = `${svg.id}-desc`;

  svg.setAttribute('viewBox', `0 0 ${width} ${HEIGHT}`);
  svg.setAttribute('role', 'img');
  svg.setAttribute('aria-labelledby', `${titleId} ${descId}`);
  const bottom = margin.top + plotHeight;
  const right = margin.left + plotWidth;
  const axes = s('g', { class: 'chart-axes' },
    ...[0.25, 0.5, 0.75, 1].map((share) => s('line', {
      class: 'chart-grid', x1: String(margin.left), x2: String(right), y1: fixed(y(yMax * share)), y2: fixed(y(yMax * share)) })),
    s('line', { class: 'chart-axis', x1: String(margin.left), x2: String(margin.left), y1: String(margin.top), y2: String(bottom) }),
    s('line', { class: 'chart-axis', x1: String(margin.left), x2: String(right), y1: String(bottom), y2: String(bottom) }),
    s('text', { class: 'chart-label', 'data-axis': 'y-max', x: String(margin.left - 5), y: String(margin.top + 4), 'text-anchor': 'end' },
      spec.yText(yMax)),
    s('text', { class: 'chart-label', 'data-axis': 'y-min', x: String(margin.left - 5), y: String(bottom + 4), 'text-anchor': 'end' },
      spec.yText(0)),
    s('text', { class: 'chart-label', 'data-axis': 'x-min', x: String(x(0)), y: String(bottom + 14), 'text-anchor': 'middle' }, '1'),
    s('text', { class: 'chart-label', 'data-axis': 'x-max', x: String(x(longest - 1)), y: String(bottom + 14), 'text-anchor': 'middle' },
      String(longest)),
    s('text', { class: 'chart-label chart-x-title', x: String(margin.left + plotWidth / 2), y: String(HEIGHT - 4), 'text-anchor': 'middle' },
      spec.xLabel));

  // Dots wider than the room between requests would hide the line under them.
  const room = longest === 1 ? plotWidth : plotWidth / (longest - 1);
  const radius = fixed(Math.min(3.5, Math.max(1.5, room / 2.5)));
  const series = spec.series.map(({ profile, points }) => {
    const look = lookOf(profile);
    const at = points.map((point, i) => `${fixed(x(i))},${fixed(y(point.y))}`);
    const line = paint(s('polyline', { class: 'chart-line', points: at.join(' '), fill: 'none' }), 'stroke', look);
    if (look.dash !== '') line.setAttribute('stroke-dasharray', look.dash);
    const marks = points.flatMap((point, i) => {
      const dot = paint(s('circle', { class: 'chart-point', cx: fixed(x(i)), cy: fixed(y(point.y)), r: radius,
        'data-index': String(i), 'data-step': String(point.step) }, s('title', {}, `${point.label} (click to show step ${point.step + 1})`)), 'fill', look);
      if (point.compacted === undefined) return [dot];
      // A tick down the whole plot: where the context was cut, whichever line is on top.
      const tick = s('g', { class: 'chart-compaction', 'data-compacted': point.compacted, 'data-index': String(i) },
        s('title', {}, `${profile}: compacted by ${point.compacted} before request ${i + 1}`),
        paint(s('line', { x1: fixed(x(i)), x2: fixed(x(i)), y1: String(margin.top), y2: String(bottom) }), 'stroke', look),
        paint(s('circle', { cx: fixed(x(i)), cy: fixed(y(point.y)), r: '5' }), 'stroke', look));
      return [tick, dot];
    });
    return s('g', { 'data-profile': profile, 'data-points': String(points.length), class: 'chart-series' }, line, ...marks);
  });

  // Each line's name in the margin right of its last point, nudged off its neighbours' names,
  // with a thin lead from the point to the name it was nudged to.
  const ends = spec.series.flatMap(({ profile, points }) => {
    const last = points.length - 1;
    const end = points[last];
    return end === undefined ? [] : [{ profile, x: x(last), y: y(end.y) }];
  }).sort((a, b) => a.y - b.y);
  const heights = spread(ends.map((end) => end.y), LINE_HEIGHT / 2 + 1, bottom - 4);
  const names = s('g', { class: 'chart-line-labels' }, ...ends.flatMap((end, i) => {
    const look = lookOf(end.profile);
    const at = heights[i] ?? end.y;
    return [
      paint(s('line', { class: 'chart-line-lead', x1: fixed(end.x), y1: fixed(end.y), x2: fixed(right + NAME_GAP - 2), y2: fixed(at) }), 'stroke', look),
      paint(s('text', { class: 'chart-label chart-line-label', 'data-profile': end.profile, x: fixed(right + NAME_GAP), y: fixed(at),
        'dominant-baseline': 'central' }, end.profile), 'fill', look),
    ];
  }));

  // Two thresholds close in value would print their names over each other: a name within a
  // line's height of the one before it goes after that one on the line instead, or under its
  // own line when there is no room left on the plot's width. A plot narrower than a name (a
  // phone's) names each line by its value alone, so that no name runs into the lines' names.
  const drawn = (spec.thresholds ?? []).filter((line) => line.value <= yMax);
  const fits = drawn.every((line) => line.short.length * LABEL_CHAR_WIDTH + 8 <= plotWidth);
  let previous = { y: -Infinity, end: margin.left };
  const thresholds = drawn
    .sort((a, b) => b.value - a.value)
    .map((line) => {
      const name = fits ? line.short : spec.yText(line.value);
      const width = name.length * LABEL_CHAR_WIDTH;
      let at = y(line.value) - 4;
      let x = margin.left + 4;
      if (at - previous.y < LINE_HEIGHT) {
        if (previous.end + 8 + width <= right) x = previous.end + 8;
        else at = y(line.value) + LINE_HEIGHT;
      }
      previous = { y: at, end: x + width };
      return {
        line: s('g', { class: 'chart-threshold-line', 'data-threshold': String(line.value) },
          s('line', { class: 'chart-threshold', x1: String(margin.left), x2: String(right), y1: fixed(y(line.value)), y2: fixed(y(line.value)) })),
        name: s('text', { class: 'chart-label chart-threshold-label', x: fixed(x), y: fixed(at) }, name),
      };
    });

  // The lines under the series, their names over them: a name stays legible where lines cross it.
  svg.replaceChildren(s('title', { id: titleId }, spec.title), s('desc', { id: descId }, spec.description), axes,
    ...thresholds.map(({ line }) => line), ...series, ...thresholds.map(({ name }) => name), names);
}

/**
 * The chart's numbers as a table, folded under the chart: a row per request (a batch at a
 * time), a column per profile, each value with a button that shows the step that sent it.
 * @param {ChartSpec} spec
 * @param {(point: Point) => string} valueText a point's value as the table shows it
 */
export function chartTable(spec, valueText) {
  const longest = Math.max(0, ...spec.series.map((one) => one.points.length));
  const row = (/** @type {number} */ i) => h('tr', { 'data-index': String(i) },
    h('td', { class: 'num' }, String(i + 1)),
    ...spec.series.map(({ profile, points }) => {
      const point = points[i];
      if (point === undefined) return h('td', { class: 'none', 'data-profile': profile }, '–');
      return h('td', { class: 'num', 'data-profile': profile, 'data-value': String(point.y) }, valueText(point), ' ',
        h('button', { type: 'button', class: 'step-link', 'data-step': String(point.step) }, `step ${point.step + 1}`));
    }));
  const body = h('tbody');
  showRows(body, longest, row, spec.series.length + 1);
  const thresholds = (spec.thresholds ?? []).map((line) => h('p', { class: 'note', 'data-threshold': String(line.value) }, line.label));
  return h('details', { class: 'compare-table-view' }, h('summary', {}, `Table: ${spec.title.toLowerCase()}`),
    ...thresholds,
    h('table', { class: 'grid' },
      h('thead', {}, h('tr', {}, h('th', {}, 'request'), ...spec.series.map(({ profile }) => h('th', {}, profile)))),
      body));
}

/**
 * Empties a chart but keeps its accessible name, so the page never shows another run's lines.
 * @param {SVGSVGElement} svg
 */
export function clearChart(svg) {
  const title = svg.querySelector('title');
  svg.replaceChildren(...(title === null ? [] : [title]));
}
