// The scenario editor's line numbers, scrolled with the text, and the line the engine's JSON
// error names, marked in the gutter and behind the text.
import { byId, h } from '../dom.js';

/**
 * The line and column an engine message names ("… at line 3 column 2"), if it names one.
 * @param {string} message
 * @returns {{ line: number, column: number } | undefined}
 */
export function errorPosition(message) {
  const found = /line (\d+),? column (\d+)/.exec(message);
  return found === null ? undefined : { line: Number(found[1]), column: Number(found[2]) };
}

/**
 * Wires the gutter beside `#scenario-json`.
 * @param {import('../store.js').ScenarioStore} store
 */
export function setUpGutter(store) {
  const editor = byId('scenario-json', HTMLTextAreaElement);
  const gutter = byId('scenario-gutter', HTMLElement);
  const where = byId('scenario-json-error', HTMLElement);
  const band = h('div', { class: 'error-band', hidden: '' });
  editor.before(band);
  let lines = 0;
  /** @type {number | undefined} */
  let errorLine;

  function lineHeight() {
    return parseFloat(getComputedStyle(editor).lineHeight) || 18;
  }

  function placeBand() {
    if (errorLine === undefined) return;
    const top = editor.offsetTop + parseFloat(getComputedStyle(editor).paddingTop) + (errorLine - 1) * lineHeight() - editor.scrollTop;
    band.style.top = `${top}px`;
    band.style.height = `${lineHeight()}px`;
  }

  function render() {
    const count = editor.value.split('\n').length;
    const numbers = Array.from({ length: count }, (_, index) => String(index + 1));
    if (errorLine !== undefined && errorLine <= count) {
      gutter.replaceChildren(numbers.slice(0, errorLine - 1).map((n) => `${n}\n`).join(''),
        h('mark', { class: 'error-line' }, String(errorLine)), numbers.slice(errorLine).map((n) => `\n${n}`).join(''));
    } else {
      gutter.textContent = numbers.join('\n');
    }
    lines = count;
    gutter.scrollTop = editor.scrollTop;
    band.hidden = errorLine === undefined;
    placeBand();
  }

  editor.addEventListener('input', () => { if (editor.value.split('\n').length !== lines) render(); });
  editor.addEventListener('scroll', () => { gutter.scrollTop = editor.scrollTop; placeBand(); });
  store.subscribe((state, change) => {
    if (change === 'replay') {
      const position = state.error === '' ? undefined : errorPosition(state.error);
      errorLine = position?.line;
      where.textContent = position === undefined ? '' : `The JSON is wrong at line ${position.line}, column ${position.column} (marked).`;
    }
    render();
  });
  render();
  return { refresh: render };
}
