// Hand-written SVG line charts: one series per profile, drawn into an <svg> the page owns,
// so that its id, its place and its accessible name stay put between runs. A chart is drawn
// at the width it is shown at, so its 12 px labels stay 12 px; a table of the same numbers
// sits behind every chart for readers who cannot hover.

import { h, s } from '../../dom.js';
import { showRows } from '../more-rows.js';

/** The drawing area when the chart is not on screen yet, in viewBox units (pixels when shown). */
const WIDTH = 400;
const HEIGHT = 240;
const MARGIN = { top: 16, right: 14, bottom: 38 };
/** Roughly how wide a character of a 12 px axis label is, to leave room for the longest. */
const LABEL_CHAR_WIDTH = 7.2;
/** The height of a 12 px label's line: names closer than this overlap. */
const LINE_HEIGHT = 14;

/**
 * Each profile's look: a colour and a dash pattern, so that the series stay apart for a
 * reader who cannot tell the colours apart (or prints the page in grey).
 * @type {Record<string, { color: string, dash: string }>}
 */
const LOOKS = {
  'claude-code': { color: '#c2410c', dash: '' },
  codex: { color: '#1d4ed8', dash: '7 4' },
  recommended: { color: '#15803d', dash: '2 3' },
  'world-state': { color: '#7e22ce', dash: '9 3 2 3' },
  'opencode-style': { color: '#0f766e', dash: '4 2' },
  'aider-style': { color: '#be185d', dash: '6 2 1 2' },
};
/** For a profile the page does not know yet: still distinct from the six above. */
const SPARE = [{ color: '#a16207', dash: '1 2' }, { color: '#475569', dash: '8 2' }];

/**
 * The look of a profile's series; it depends on the name alone, so that a profile keeps its
 * colour in the legend, the charts and the tables whichever others are ticked.
 * @param {string} profile
 */
export function lookOf(profile) {
  const spare = [...profile].reduce((sum, char) => sum + (char.codePointAt(0) ?? 0), 0) % SPARE.length;
  return LOOKS[profile] ?? SPARE[spare] ?? { color: '#000', dash: '' };
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
  drawInto(svg, spec, width, { ...MARGIN, left });
}

/**
 * Draws at `width` viewBox units with `margin` around the plot.
 * @param {SVGSVGElement} svg
 * @param {ChartSpec} spec
 * @param {number} width
 * @param {typeof MARGIN & { left: number }} margin
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

  const series = spec.series.map(({ profile, points }) => {
    const look = lookOf(profile);
    const at = points.map((point, i) => `${fixed(x(i))},${fixed(y(point.y))}`);
    const line = s('polyline', { class: 'chart-line', points: at.join(' '), stroke: look.color, fill: 'none' });
    if (look.dash !== '') line.setAttribute('stroke-dasharray', look.dash);
    const marks = points.flatMap((point, i) => {
      const dot = s('circle', { class: 'chart-point', cx: fixed(x(i)), cy: fixed(y(point.y)), r: '3.5', fill: look.color,
        'data-index': String(i), 'data-step': String(point.step) }, s('title', {}, `${point.label} (click to show step ${point.step + 1})`));
      if (point.compacted === undefined) return [dot];
      // A tick down the whole plot: where the context was cut, whichever line is on top.
      const tick = s('g', { class: 'chart-compaction', 'data-compacted': point.compacted, 'data-index': String(i) },
        s('title', {}, `${profile}: compacted by ${point.compacted} before request ${i + 1}`),
        s('line', { x1: fixed(x(i)), x2: fixed(x(i)), y1: String(margin.top), y2: String(bottom), stroke: look.color }),
        s('circle', { cx: fixed(x(i)), cy: fixed(y(point.y)), r: '5', stroke: look.color, fill: '#fff' }));
      return [tick, dot];
    });
    return s('g', { 'data-profile': profile, 'data-points': String(points.length), class: 'chart-series' }, line, ...marks);
  });

  // Two thresholds close in value would print their names over each other: a name within a
  // line's height of the one before it goes after that one on the line instead.
  let previous = { y: -Infinity, end: margin.left };
  const thresholds = (spec.thresholds ?? []).filter((line) => line.value <= yMax)
    .sort((a, b) => b.value - a.value)
    .map((line) => {
      const at = y(line.value) - 4;
      const x = at - previous.y < LINE_HEIGHT ? previous.end + 8 : margin.left + 4;
      previous = { y: at, end: x + line.short.length * LABEL_CHAR_WIDTH };
      return s('g', { class: 'chart-threshold-line', 'data-threshold': String(line.value) },
        s('line', { class: 'chart-threshold', x1: String(margin.left), x2: String(right), y1: fixed(y(line.value)), y2: fixed(y(line.value)) }),
        s('text', { class: 'chart-label chart-threshold-label', x: fixed(x), y: fixed(at) }, line.short));
    });

  svg.replaceChildren(s('title', { id: titleId }, spec.title), s('desc', { id: descId }, spec.description), axes, ...thresholds, ...series);
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
