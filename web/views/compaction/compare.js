// Every policy on the same step, side by side: what each frees, how much of the prompt cache
// each keeps, and what the model can still see afterwards.
import { h, tableHead } from '../../dom.js';
import { percent, tokensText } from '../../format.js';
import { withReferences } from '../../popover.js';
import { describePolicy } from './policies.js';

/** @typedef {import('../../../pkg/context_assembly.js').CompactionReport} CompactionReport */
/** @typedef {import('../../../pkg/context_assembly.js').PolicyId} PolicyId */
/** @typedef {{ policy: PolicyId, report?: CompactionReport, error?: string }} PolicyOutcome */

const HEADERS = ['policy', 'applied?', 'why', 'tokens before → after', 'tokens freed', 'prefix kept', 'files still visible', 'commands still visible'];

/**
 * What is still visible, as a count with the whole list beside it; a long list is folded.
 * @param {string} name `paths` or `commands`
 * @param {string[]} items
 */
function visibleCell(name, items) {
  const cell = h('td', { 'data-visible': name, 'data-count': String(items.length), title: items.join('\n') });
  if (items.length === 0) {
    cell.append(h('span', { class: 'none' }, 'none'));
    return cell;
  }
  const list = h('ul', { class: 'visible-list' }, ...items.map((item) => h('li', {}, h('code', {}, item))));
  cell.append(h('details', {}, h('summary', {}, String(items.length)), list));
  return cell;
}

/**
 * One policy's row; `data-*` carry the numbers the cells show.
 * @param {PolicyOutcome} outcome
 */
function row({ policy, report, error }) {
  const name = h('td', {}, h('code', {}, policy), h('div', { class: 'note policy-description' }, describePolicy(policy)));
  if (report === undefined) {
    return h('tr', { 'data-policy': policy, 'data-error': 'true' }, name,
      h('td', { colspan: String(HEADERS.length - 1), class: 'error-text' }, error ?? 'no report'));
  }
  const freed = report.tokensBefore - report.tokensAfter;
  return h('tr', {
    'data-policy': policy, 'data-applied': String(report.applied), 'data-before': String(report.tokensBefore),
    'data-after': String(report.tokensAfter), 'data-freed': String(freed), 'data-prefix-kept': String(report.prefixKept),
  },
  name,
  h('td', {}, report.applied ? 'yes' : h('span', { class: 'none' }, 'no')),
  h('td', { class: 'policy-reason' }, ...withReferences(report.reason)),
  h('td', { class: 'num' }, `${tokensText(report.tokensBefore)} → ${tokensText(report.tokensAfter)}`),
  h('td', { class: 'num' }, tokensText(freed)),
  h('td', { class: 'num' }, `${tokensText(report.prefixKept)} (${percent(report.prefixKept, report.tokensBefore)})`),
  visibleCell('paths', report.visible.paths),
  visibleCell('commands', report.visible.commands));
}

/**
 * The comparison table's content: a header, then one row per policy tried.
 * @param {PolicyOutcome[]} outcomes
 * @returns {HTMLElement[]}
 */
export function comparisonRows(outcomes) {
  return [tableHead(HEADERS), h('tbody', {}, ...outcomes.map(row))];
}
