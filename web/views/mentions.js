// The mention box: highlights mentions as you type and compares each profile's parse.
// Typing stays fluid with any text: the work waits for a pause, positions come from the
// engine's compact span list (one pass over it, in order), and only the rows and highlights
// on show are described in words.
import { byId, emptyRow, h, messageOf } from '../dom.js';
import { withEngine } from '../engine.js';
import { linkTerms } from '../popover.js';
import { showRows } from './more-rows.js';
import { shorten } from './shorten.js';
import { debouncedWork, inFrames } from './typing.js';

/** @typedef {import('../../pkg/context_assembly.js').ProfileName} ProfileName */
/** @typedef {import('../../pkg/context_assembly.js').Mentions} Mentions */
/** @typedef {'file' | 'mcp' | 'agent' | 'problem'} ReadingKind */
/** @typedef {{ kind: ReadingKind, start: number, end: number, text: string }} Reading */
/** @typedef {{ start: number, end: number, kind: ReadingKind }} Span */

/** The kinds of `extractMentionSpans`, by their code (the order `MentionKind` lists them). */
const SPAN_KINDS = /** @type {const} */ (['file', 'mcp', 'agent']);

/** Highlight priority when two readings cover the same text (`@x:y` is a file and an MCP resource); 0 is none. */
const PRIORITY = { file: 1, mcp: 2, agent: 3, problem: 4 };
/** The kinds by priority, to read the highlight's per-character codes back. */
const BY_PRIORITY = /** @type {const} */ ([undefined, 'file', 'mcp', 'agent', 'problem']);

/** Mentions highlighted at most; the text after the last one is shown plain. */
const HIGHLIGHT_LIMIT = 2000;

/** Characters parsed past the last mention described, so the text after it reads as in the whole. */
const RIGHT_CONTEXT = 256;

/** The longest mention text echoed in a cell. */
const MENTION_ECHO = 80;

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
    const fragment = file.fragment === undefined ? '' : `, fragment #${shorten(file.fragment, MENTION_ECHO)}`;
    const quoted = file.quoted ? ' (quoted)' : '';
    const text = file.problem === undefined
      ? `file ${shorten(file.path, MENTION_ECHO)}${lines}${fragment}${quoted}` : `problem: ${file.problem}`;
    list.push({ kind: file.problem === undefined ? 'file' : 'problem', start: file.start, end: file.end, text });
  }
  for (const mcp of mentions.mcpResources) {
    list.push({ kind: 'mcp', start: mcp.start, end: mcp.end,
      text: `MCP server ${shorten(mcp.server, MENTION_ECHO)}, uri ${shorten(mcp.uri, MENTION_ECHO)}` });
  }
  for (const agent of mentions.agents) {
    list.push({ kind: 'agent', start: agent.start, end: agent.end, text: `agent ${shorten(agent.agentType, MENTION_ECHO)}` });
  }
  return list;
}

/**
 * A profile's mentions of one text, sorted by start: positions from the engine's span list
 * for the whole text, words (`describe`) parsed only for the part of the text shown.
 */
class ProfileMentions {
  /**
   * @param {string} text
   * @param {ProfileName} profile
   */
  constructor(text, profile) {
    this.text = text;
    this.profile = profile;
    const raw = withEngine((engine) => engine.extractMentionSpans(text, { profile }));
    /** @type {Span[]} */
    this.spans = [];
    for (let i = 0; i < raw.length; i += 3) {
      this.spans.push({ start: raw[i], end: raw[i + 1], kind: SPAN_KINDS[raw[i + 2]] });
    }
    // Files, then MCP resources, then agents, each in text order: one sort puts them in text order.
    this.spans.sort((a, b) => a.start - b.start || a.end - b.end);
    /** How far the text has been parsed for words; 0 before the first parse. */
    this.described = 0;
    /** @type {Map<string, Reading>} */
    this.words = new Map();
  }

  /**
   * The reading of a span in words; a span past the part parsed parses further first.
   * @param {Span} span
   * @returns {Reading}
   */
  describe(span) {
    if (span.end + RIGHT_CONTEXT > this.described && this.described < this.text.length) {
      this.parseUpTo(Math.max(span.end + RIGHT_CONTEXT, this.described * 2));
    }
    // A reading the prefix parse did not see exactly as the whole text did keeps its kind.
    return this.words.get(key(span)) ?? { ...span, text: span.kind };
  }

  /** @param {number} position */
  parseUpTo(position) {
    this.described = Math.min(this.text.length, position);
    const prefix = this.text.slice(0, this.described);
    this.words = new Map(readings(withEngine((engine) => engine.extractMentions(prefix, { profile: this.profile })))
      .map((reading) => [key({ ...reading, kind: reading.kind === 'problem' ? 'file' : reading.kind }), reading]));
  }
}

/**
 * A span's identity: where it is and what it names.
 * @param {Span} span
 */
function key(span) {
  return `${span.start}:${span.end}:${span.kind}`;
}

/**
 * Rebuilds the highlight layer behind the textarea: the first `HIGHLIGHT_LIMIT` mentions
 * marked, the rest of the text plain (it still takes its place, so the marks stay aligned);
 * `note` says so when mentions were left plain.
 * @param {HTMLElement} backdrop
 * @param {HTMLElement} note
 * @param {ProfileMentions} mentions
 */
function highlight(backdrop, note, mentions) {
  const total = mentions.spans.length;
  note.textContent = total > HIGHLIGHT_LIMIT
    ? `The first ${HIGHLIGHT_LIMIT.toLocaleString('en')} of ${total.toLocaleString('en')} mentions ${mentions.profile} sees are highlighted; the table lists them all.`
    : '';
  note.hidden = note.textContent === '';
  const { text } = mentions;
  const marked = mentions.spans.slice(0, HIGHLIGHT_LIMIT).map((span) => mentions.describe(span));
  const until = marked.length === 0 ? 0 : Math.min(text.length, Math.max(...marked.map((r) => r.end)));
  const kinds = new Uint8Array(until);
  for (const reading of marked) {
    const priority = PRIORITY[reading.kind];
    for (let i = reading.start; i < reading.end && i < until; i += 1) kinds[i] = Math.max(kinds[i], priority);
  }
  /** @type {(Node | string)[]} */
  const pieces = [];
  let start = 0;
  for (let i = 1; i <= until; i += 1) {
    if (i < until && kinds[i] === kinds[start]) continue;
    const piece = text.slice(start, i);
    const kind = BY_PRIORITY[kinds[start]];
    pieces.push(kind === undefined ? piece : h('mark', { class: kind }, piece));
    start = i;
  }
  // A trailing newline needs content after it to take up a line, as in the textarea.
  backdrop.replaceChildren(...pieces, text.slice(until), '\u200b');
}

/**
 * The positions where any profile sees a mention, in text order, with each profile's spans
 * there: a merge walk over the profiles' sorted spans, one row per call of `next`.
 * @param {ProfileMentions[]} profiles
 */
function rowWalk(profiles) {
  const next = profiles.map(() => 0);
  /** The smallest start not yet walked, or `Infinity` at the end. */
  const nextStart = () => {
    let start = Infinity;
    for (let i = 0; i < profiles.length; i += 1) {
      const span = profiles[i].spans[next[i]];
      if (span !== undefined && span.start < start) start = span.start;
    }
    return start;
  };
  return {
    /** How many rows there are in all (walked without building them). */
    count() {
      const all = profiles.flatMap((p) => p.spans.map((span) => span.start));
      let distinct = 0;
      const sorted = Uint32Array.from(all).sort();
      for (let i = 0; i < sorted.length; i += 1) if (i === 0 || sorted[i] !== sorted[i - 1]) distinct += 1;
      return distinct;
    },
    /** The next row: its start and each profile's spans there. */
    next() {
      const start = nextStart();
      const spans = profiles.map((p, i) => {
        const here = [];
        while (p.spans[next[i]]?.start === start) here.push(p.spans[next[i]++]);
        return here;
      });
      return { start, spans };
    },
  };
}

/**
 * The reading most profiles share (the earliest on a tie): a cell is marked as differing only
 * when it departs from it, so that one profile's quirk marks one cell, not the whole row.
 * @param {string[]} cells
 */
function mostCommon(cells) {
  /** @type {Map<string, number>} */
  const counts = new Map();
  for (const cell of cells) counts.set(cell, (counts.get(cell) ?? 0) + 1);
  let best = cells[0] ?? '';
  for (const [cell, n] of counts) if (n > (counts.get(best) ?? 0)) best = cell;
  return best;
}

/**
 * The comparison table: one row per position where any profile sees a mention, shown a batch
 * at a time.
 * @param {HTMLTableElement} table
 * @param {ProfileMentions[]} profiles
 */
function compare(table, profiles) {
  const { text } = profiles[0];
  const walk = rowWalk(profiles);
  const count = walk.count();
  const head = h('tr', {}, h('th', { title: 'UTF-16 offset of the @' }, 'offset'), ...profiles.map((p) => h('th', {}, p.profile)));
  const body = h('tbody');
  table.replaceChildren(h('thead', {}, head), body);
  linkTerms(head);
  if (count === 0) {
    body.append(emptyRow(profiles.length + 1, 'No mentions in this text.'));
    return;
  }
  // `showRows` asks for the rows in order, so each is the walk's next.
  const row = () => {
    const { start, spans } = walk.next();
    const cells = spans.map((here, i) => here.map((span) => profiles[i].describe(span))
      .map((r) => `${shorten(text.slice(r.start, r.end), MENTION_ECHO)} → ${r.text}`).join('\n'));
    const usual = mostCommon(cells);
    return h('tr', {}, h('td', { class: 'num' }, String(start)),
      ...cells.map((cell) => h('td', { class: cell === usual ? '' : 'differs' },
        cell === '' ? h('span', { class: 'none' }, 'not a mention') : h('code', {}, cell))));
  };
  showRows(body, count, row, profiles.length + 1);
}

/** Wires the mention panel. */
export function setUpMentions() {
  const input = byId('mentions-input', HTMLTextAreaElement);
  const backdrop = byId('mentions-backdrop', HTMLDivElement);
  const table = byId('mentions-table', HTMLTableElement);
  const select = byId('mentions-profile', HTMLSelectElement);
  const highlightNote = h('p', { id: 'mentions-highlight-note', class: 'note', hidden: '' });
  (backdrop.parentElement ?? backdrop).after(highlightNote);
  const profiles = withEngine((engine) => engine.profileNames());
  select.replaceChildren(...profiles.map((p) => h('option', { value: p }, p)));
  select.value = 'claude-code';

  /** @param {unknown} error */
  const complain = (error) => table.replaceChildren(h('tr', {}, h('td', { class: 'error-text' }, messageOf(error))));
  /** @param {() => void} step */
  const guarded = (step) => () => {
    try {
      step();
    } catch (error) {
      complain(error);
    }
  };
  let cancel = () => {};
  // Each step a frame of its own: the picked profile's highlight first, then the other
  // profiles' spans, then the table.
  const run = () => {
    cancel();
    const text = input.value;
    const picked = /** @type {ProfileName} */ (select.value);
    const others = profiles.filter((profile) => profile !== picked);
    /** @type {Map<ProfileName, ProfileMentions>} */
    const parsed = new Map();
    const parse = (/** @type {ProfileName} */ profile) => {
      const mentions = new ProfileMentions(text, profile);
      parsed.set(profile, mentions);
      return mentions;
    };
    cancel = inFrames('mentions:input', [
      guarded(() => highlight(backdrop, highlightNote, parse(picked))),
      ...others.map((profile) => guarded(() => { parse(profile); })),
      guarded(() => compare(table, profiles.map((profile) => parsed.get(profile) ?? parse(profile)))),
    ]);
  };
  const work = debouncedWork(run);
  input.addEventListener('input', work.schedule);
  input.addEventListener('scroll', () => { backdrop.scrollTop = input.scrollTop; });
  select.addEventListener('change', work.now);
  work.now();
}
