// What one compaction did: the facts of its report, the lists of what came back and what
// went, and the fate of every item of the root set.
import { emptyRow, h, tableHead } from '../../dom.js';
import { count, percent, tokensText } from '../../format.js';
import { withReferences } from '../../popover.js';
import { showRows } from '../more-rows.js';
import { textView } from '../scenario/request.js';

/** @typedef {import('../../../pkg/context_assembly.js').CompactionReport} CompactionReport */
/** @typedef {import('../../../pkg/context_assembly.js').Survival} Survival */

/**
 * A term and its description, for the report's facts.
 * @param {string} term
 * @param {...(Node | string)} description
 */
const fact = (term, ...description) => [h('dt', {}, term), h('dd', {}, ...description)];

/**
 * One list of the report, titled with its length; `data-list` names it for the tests.
 * @param {string} name
 * @param {string} meaning what being on this list means, for the reader
 * @param {{ subject: string, tokens?: number, reason: string }[]} items
 */
function reportList(name, meaning, items) {
  const body = items.length === 0
    ? h('p', { class: 'none' }, 'none')
    : h('ul', { 'data-list': name }, ...items.map((item) => h('li', {},
      h('code', {}, item.subject), item.tokens === undefined ? '' : h('span', { class: 'tok' }, ` ${tokensText(item.tokens)}`),
      item.reason === '' ? '' : h('div', { class: 'note' }, ...withReferences(item.reason)))));
  return h('div', { class: 'report-list' }, h('h4', {}, `${name} (${items.length}) `, h('span', { class: 'note' }, meaning)), body);
}

/**
 * The survival report's reason for an item, which the restored and reinjected lists lack.
 * @param {Survival[]} survival
 * @param {string | undefined} subject
 */
function reasonFor(survival, subject) {
  return survival.find((row) => row.item === subject)?.reason ?? '';
}

/**
 * The report: reason, tokens, the prompt cache kept, the summary, and the four lists.
 * @param {CompactionReport} report
 * @returns {HTMLElement[]}
 */
export function reportView(report) {
  const freed = report.tokensBefore - report.tokensAfter;
  const summary = report.summary === undefined
    ? h('span', { class: 'none' }, 'no summary')
    : h('details', {}, h('summary', {}, `${report.summarySource} summary, ${count(report.summary.length, 'character')}`), textView(report.summary));
  const facts = h('dl', { class: 'compaction-facts', 'data-applied': String(report.applied) },
    ...fact('policy', h('code', {}, report.policy), ` (${report.trigger}) — `, report.applied ? 'applied' : 'changed nothing'),
    ...fact('reason', ...withReferences(report.reason)),
    ...fact('tokens', `${tokensText(report.tokensBefore)} → ${tokensText(report.tokensAfter)} (freed ${tokensText(freed)})`),
    ...fact('prefix kept', `${tokensText(report.prefixKept)} (${percent(report.prefixKept, report.tokensBefore)} of the request before) still readable from the prompt cache`),
    ...fact('summary source', report.summarySource, ' ', summary));
  const restored = report.restored.map((file) => ({ subject: file.path, tokens: file.tokens, reason: reasonFor(report.survival, file.path) }));
  const reinjected = report.reinjected.map((item) => {
    const subject = item.path === undefined ? item.kind : `${item.kind} ${item.path}`;
    return { subject, tokens: item.tokens, reason: reasonFor(report.survival, item.path ?? item.kind) };
  });
  return [facts, h('div', { class: 'report-lists' },
    reportList('restored', 'files read back in after the summary', restored),
    reportList('reinjected', 'context attached again after the summary', reinjected),
    reportList('masked', 'replaced by a placeholder', report.masked),
    reportList('dropped', 'gone from the context', report.dropped))];
}

/**
 * The survival table: one row per item of the root set (a batch at a time), `data-fate` on the row.
 * @param {Survival[]} survival
 * @returns {HTMLElement[]}
 */
export function survivalRows(survival) {
  const headers = ['item', 'kind', 'fate', 'tokens before → after', 'reason'];
  const body = h('tbody');
  showRows(body, survival.length, (index) => {
    const row = survival[index];
    return h('tr', { 'data-fate': row.fate, 'data-item': row.item, 'data-kind': row.kind },
      h('td', {}, h('code', {}, row.item)),
      h('td', {}, row.kind),
      h('td', {}, h('span', { class: `fate fate-${row.fate}` }, row.fate)),
      h('td', { class: 'num' }, `${tokensText(row.tokensBefore)} → ${tokensText(row.tokensAfter)}`),
      h('td', {}, ...withReferences(row.reason)));
  }, headers.length);
  if (survival.length === 0) body.append(emptyRow(headers.length, 'nothing to report'));
  return [tableHead(headers), body];
}
