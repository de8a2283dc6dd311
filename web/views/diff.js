// The diff panel: the change snippet each profile would show the model, and why.
import { byId, h, messageOf } from '../dom.js';
import { withEngine } from '../engine.js';
import { linkTerms, withReferences } from '../popover.js';
import { debouncedWork, measured } from './typing.js';

/**
 * `line1\n…\nline{n}\n`, the spec's L(n).
 * @param {number} n
 */
function numberedLines(n) {
  return Array.from({ length: n }, (_, i) => `line${i + 1}\n`).join('');
}

const EXAMPLES = {
  'diff-example-q33': () => {
    const before = numberedLines(60);
    const lines = before.split('\n');
    lines[49] = 'LINE50 (changed)';
    const after = ['new1', 'new2', 'new3', 'new4', 'new5', ...lines].join('\n');
    return { before, after };
  },
  'diff-example-delete': () => {
    const before = numberedLines(20);
    const after = before.split('\n').filter((line) => !['line8', 'line9', 'line10'].includes(line)).join('\n');
    return { before, after };
  },
};

/**
 * One profile's result.
 * @param {import('../../pkg/context_assembly.js').ProfileName} profile
 * @param {string} before
 * @param {string} after
 */
function result(profile, before, after) {
  try {
    const report = withEngine((engine) => engine.diffSnippetReport(before, after, { profile }));
    const facts = [`diff work ${report.work} units`];
    if (report.truncatedLines !== undefined) facts.push(`marker: ${report.truncatedLines} lines truncated`);
    if (report.budgetExhausted) facts.push('budget exhausted');
    return h('div', { class: 'snippet', 'data-profile': profile },
      h('h3', {}, profile),
      report.text === '' ? h('p', { class: 'none' }, 'no snippet: nothing is sent') : h('pre', {}, report.text),
      h('p', { class: 'reason' }, ...withReferences(`${report.reason} (${facts.join(', ')})`)));
  } catch (error) {
    return h('div', { class: 'snippet', 'data-profile': profile }, h('h3', {}, profile),
      h('p', { class: 'error-text' }, messageOf(error)));
  }
}

/** Wires the diff panel. */
export function setUpDiff() {
  const before = byId('diff-before', HTMLTextAreaElement);
  const after = byId('diff-after', HTMLTextAreaElement);
  const results = byId('diff-results', HTMLDivElement);
  const profiles = withEngine((engine) => engine.profileNames());

  const work = debouncedWork(() => measured('diff:input', () => {
    results.replaceChildren(...profiles.map((profile) => result(profile, before.value, after.value)));
    linkTerms(results);
  }));
  for (const [id, make] of Object.entries(EXAMPLES)) {
    byId(id, HTMLButtonElement).addEventListener('click', () => {
      const example = make();
      before.value = example.before;
      after.value = example.after;
      work.now();
    });
  }
  before.addEventListener('input', work.schedule);
  after.addEventListener('input', work.schedule);
  const initial = numberedLines(30);
  before.value = initial;
  after.value = initial.replace('line15\n', 'LINE15 (edited outside the agent)\n');
  work.now();
}
