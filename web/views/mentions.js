// The mention box: highlights mentions as you type and compares each profile's parse.
import { byId, emptyRow, h, messageOf } from '../dom.js';
import { withEngine } from '../engine.js';

/** @typedef {import('../../pkg/context_assembly.js').ProfileName} ProfileName */
/** @typedef {import('../../pkg/context_assembly.js').Mentions} Mentions */
/** @typedef {{ kind: 'file' | 'mcp' | 'agent' | 'problem', start: number, end: number, text: string }} Reading */

/** Highlight priority when two readings cover the same text (`@x:y` is a file and an MCP resource). */
const PRIORITY = { file: 1, mcp: 2, agent: 3, problem: 4 };

/**
 * Every reading of a text under one profile, as highlightable spans with a description.
 * @param {Mentions} mentions
 * @returns {Reading[]}
 */
function readings(mentions) {
  /** @type {Reading[]} */
  const list = [];
  for (const file of mentions.files) {
    const lines = file.lineStart === undefined ? ''
      : file.lineEnd === undefined ? `, lines ${file.lineStart}–end`
      : file.lineEnd === file.lineStart ? `, line ${file.lineStart}` : `, lines ${file.lineStart}–${file.lineEnd}`;
    const fragment = file.fragment === undefined ? '' : `, fragment #${file.fragment}`;
    const quoted = file.quoted ? ' (quoted)' : '';
    const text = file.problem === undefined
      ? `file ${file.path}${lines}${fragment}${quoted}` : `problem: ${file.problem}`;
    list.push({ kind: file.problem === undefined ? 'file' : 'problem', start: file.start, end: file.end, text });
  }
  for (const mcp of mentions.mcpResources) {
    list.push({ kind: 'mcp', start: mcp.start, end: mcp.end, text: `MCP server ${mcp.server}, uri ${mcp.uri}` });
  }
  for (const agent of mentions.agents) {
    list.push({ kind: 'agent', start: agent.start, end: agent.end, text: `agent ${agent.agentType}` });
  }
  return list;
}

/**
 * Rebuilds the highlight layer behind the textarea.
 * @param {HTMLElement} backdrop
 * @param {string} text
 * @param {Reading[]} spans
 */
function highlight(backdrop, text, spans) {
  /** @type {(Reading['kind'] | undefined)[]} */
  const kinds = new Array(text.length);
  for (const span of spans) {
    for (let i = span.start; i < span.end && i < text.length; i += 1) {
      const current = kinds[i];
      if (current === undefined || PRIORITY[span.kind] > PRIORITY[current]) kinds[i] = span.kind;
    }
  }
  backdrop.replaceChildren();
  let start = 0;
  for (let i = 1; i <= text.length; i += 1) {
    if (i < text.length && kinds[i] === kinds[start]) continue;
    const piece = text.slice(start, i);
    const kind = kinds[start];
    backdrop.append(kind === undefined ? piece : h('mark', { class: kind }, piece));
    start = i;
  }
  // A trailing newline needs content after it to take up a line, as in the textarea.
  backdrop.append('\u200b');
}

/**
 * The comparison table: one row per position where any profile sees a mention.
 * @param {HTMLTableElement} table
 * @param {string} text
 * @param {ProfileName[]} profiles
 * @param {Map<ProfileName, Reading[]>} byProfile
 */
function compare(table, text, profiles, byProfile) {
  const starts = [...new Set([...byProfile.values()].flat().map((r) => r.start))].sort((a, b) => a - b);
  const head = h('tr', {}, h('th', { title: 'UTF-16 offset of the @' }, 'offset'), ...profiles.map((p) => h('th', {}, p)));
  const rows = starts.map((start) => {
    const cells = profiles.map((profile) => {
      const here = (byProfile.get(profile) ?? []).filter((r) => r.start === start);
      return here.map((r) => `${text.slice(r.start, r.end)} → ${r.text}`).join('\n');
    });
    const differs = new Set(cells).size > 1;
    return h('tr', {}, h('td', { class: 'num' }, String(start)),
      ...cells.map((cell) => h('td', { class: differs ? 'differs' : '' },
        cell === '' ? h('span', { class: 'none' }, 'not a mention') : h('code', {}, cell))));
  });
  const empty = starts.length === 0
    ? [emptyRow(profiles.length + 1, 'No mentions in this text.')] : [];
  table.replaceChildren(h('thead', {}, head), h('tbody', {}, ...rows, ...empty));
}

/** Wires the mention panel. */
export function setUpMentions() {
  const input = byId('mentions-input', HTMLTextAreaElement);
  const backdrop = byId('mentions-backdrop', HTMLDivElement);
  const table = byId('mentions-table', HTMLTableElement);
  const select = byId('mentions-profile', HTMLSelectElement);
  const profiles = withEngine((engine) => engine.profileNames());
  select.replaceChildren(...profiles.map((p) => h('option', { value: p }, p)));
  select.value = 'claude-code';

  const update = () => {
    const text = input.value;
    try {
      /** @type {Map<ProfileName, Reading[]>} */
      const byProfile = new Map(profiles.map((profile) =>
        [profile, readings(withEngine((engine) => engine.extractMentions(text, { profile })))]));
      highlight(backdrop, text, byProfile.get(/** @type {ProfileName} */ (select.value)) ?? []);
      compare(table, text, profiles, byProfile);
    } catch (error) {
      table.replaceChildren(h('tr', {}, h('td', { class: 'error-text' }, messageOf(error))));
    }
  };
  input.addEventListener('input', update);
  input.addEventListener('scroll', () => { backdrop.scrollTop = input.scrollTop; });
  select.addEventListener('change', update);
  update();
}
