// The token panel: each method's estimate beside the raw sizes of the text.
import { byId, h, messageOf, tableHead } from '../dom.js';
import { withEngine } from '../engine.js';
import { linkTerms } from '../popover.js';
import { debouncedWork, measured } from './typing.js';

/** @type {{ method: import('../../pkg/context_assembly.js').TokenMethod, rule: string }[]} */
const METHODS = [
  { method: 'calibrated', rule: 'content-aware, fitted to o200k_base (our default)' },
  { method: 'claude-code', rule: 'round(UTF-16 length / 4), / 2 for json, jsonl, jsonc' },
  { method: 'codex', rule: 'ceil(UTF-8 bytes / 4)' },
  { method: 'cl100k', rule: 'calibrated, plus what cl100k_base spends more on CJK (Continue\'s encoder, modelled)' },
];

/**
 * Raw sizes of a text, as the different counters see it.
 * @param {string} text
 */
function sizes(text) {
  return [
    ['UTF-16 units (JS length)', text.length],
    ['characters (code points)', [...text].length],
    ['UTF-8 bytes', new TextEncoder().encode(text).length],
    ['lines', text === '' ? 0 : text.split('\n').length],
  ];
}

/** Wires the token panel. */
export function setUpTokens() {
  const input = byId('tokens-input', HTMLTextAreaElement);
  const ext = byId('tokens-ext', HTMLInputElement);
  const table = byId('tokens-table', HTMLTableElement);

  const update = () => {
    const text = input.value;
    const options = ext.value.trim() === '' ? {} : { ext: ext.value.trim() };
    try {
      const rows = METHODS.map(({ method, rule }) => {
        const count = withEngine((engine) => engine.estimateTokens(text, { ...options, method }));
        const perToken = count === 0 ? '–' : (text.length / count).toFixed(2);
        return h('tr', { 'data-method': method }, h('td', {}, method), h('td', { class: 'num count' }, String(count)),
          h('td', { class: 'num' }, perToken), h('td', {}, rule));
      });
      const sizeRows = sizes(text).map(([label, value]) =>
        h('tr', {}, h('td', {}, String(label)), h('td', { class: 'num' }, String(value)), h('td', {}), h('td', {})));
      table.replaceChildren(
        tableHead(['method', 'tokens', 'chars / token', 'rule']),
        h('tbody', {}, ...rows, ...sizeRows));
      linkTerms(table);
    } catch (error) {
      table.replaceChildren(h('tr', {}, h('td', { class: 'error-text' }, messageOf(error))));
    }
  };
  const work = debouncedWork(() => measured('tokens:input', update));
  input.addEventListener('input', work.schedule);
  ext.addEventListener('input', work.schedule);
  work.now();
}
