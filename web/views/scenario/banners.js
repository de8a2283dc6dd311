// The moments a step exists to teach, said above its details: a compaction that ran before
// the request (and what it brought back, which is why the meter can show attachments on a
// step whose own pass attached nothing), and the attachments that arrive on an event or once
// a wait is over rather than on every turn.
import { h } from '../../dom.js';
import { integer, tokensText } from '../../format.js';
import { ATTACHMENT_KINDS } from '../../glossary.js';
import { withReferences } from '../../popover.js';

/** @typedef {import('../../../pkg/context_assembly.js').Turn} Turn */
/** @typedef {import('../../../pkg/context_assembly.js').CompactionReport} CompactionReport */

/** The frequency classes whose arrival is news: the others come every turn or as listings. */
const NOTABLE = new Set(['event', 'throttled']);

/**
 * The banners for a step: one per compaction before its request, one for notable attachments.
 * @param {Turn} turn
 * @returns {HTMLElement[]}
 */
export function stepBanners(turn) {
  const banners = (turn.compaction ?? []).map(compactionBanner);
  const notable = turn.attachments.filter((attachment) => NOTABLE.has(attachment.frequency));
  if (notable.length > 0) {
    banners.push(h('div', { class: 'banner banner-event', role: 'note' },
      h('b', {}, notable.length === 1 ? 'Attached on this step: ' : `${notable.length} attachments arrived on this step: `),
      h('ul', {}, ...notable.map((attachment) => h('li', {},
        h('code', {}, attachment.kind), attachment.path === undefined ? '' : ` ${attachment.path}`,
        ` (${attachment.frequency}, ${tokensText(attachment.tokens)}): `, ATTACHMENT_KINDS[attachment.kind])))));
  }
  return banners;
}

/** @param {CompactionReport} report */
function compactionBanner(report) {
  const by = `${report.trigger === 'auto' ? 'Auto-compaction' : 'A compaction'} (${report.policy})`;
  const banner = h('div', { class: `banner banner-compaction${report.applied ? '' : ' not-applied'}`, role: 'note', 'data-policy': report.policy },
    h('b', {}, report.applied
      ? `${by} ran before this request: ${integer(report.tokensBefore)} → ${integer(report.tokensAfter)} tokens. `
      : `${by} was considered and did nothing. `),
    ...withReferences(report.reason));
  const brought = [
    ...report.restored.map((file) => `${file.path} (${tokensText(file.tokens)})`),
    ...report.reinjected.map((item) => `${item.kind}${item.path === undefined ? '' : ` ${item.path}`} (${tokensText(item.tokens)})`),
  ];
  if (report.applied && brought.length > 0) {
    banner.append(h('div', { class: 'note' },
      `It brought back ${brought.length === 1 ? 'one item' : `${brought.length} items`}, sent as attachments of this request though this step's own pass attached them not: ${brought.join(', ')}.`));
  }
  if (report.applied) {
    banner.append(h('div', { class: 'note' }, `The prompt cache kept ${tokensText(report.prefixKept)} of the previous request's prefix.`));
  }
  return banner;
}
