// Reduces a request — the one Claude Code sent, or the one our engine assembled — to the
// facts the model receives since its last answer, so the two can be compared without
// comparing prose: our wording is our own, the structure and the facts must agree.
//
// A request's new part is split into items, in order:
//   prompt        the typed text
//   mention       a file attached for an @-mention: its path, its numbered lines, how many
//                 notes are nested in the result (the malware note, Q23) and the numbers in them
//   directory     a directory attached for an @-mention: its path and listing
//   changed-file  a note that a file changed on disk: its path and the snippet's numbered lines
//   memory        a nested CLAUDE.md: its path and content
//   user-context  the context message: its sections, the memory files in it (path, content)
//   skill-listing the skills offered: their names
//   tool-result   a tool's result: its call id, whether it failed, its numbered lines, or else
//                 the paths a successful result names
//   note          any other reminder: compared by place, the tool names and paths it mentions
// An item found inside a tool_result carries `folded: true` (Q50: mid-turn attachments ride in
// the last tool result). Only format facts are relied on: the `<system-reminder>` wrapper,
// `N\t` line numbers, the call note's JSON, `# claudeMd`/`# currentDate`, `Contents of`,
// `- name:` skill entries.

/**
 * @typedef {{ kind: string, [fact: string]: unknown }} Item
 * @typedef {{ type: 'text' | 'tool_result', text: string, toolUseId?: string, isError?: boolean }} FlatBlock
 * @typedef {{ workspace: string, home: string, cwd: string, scenarioHome: string }} PathMap
 */

const DATE = /\b\d{4}-\d{2}-\d{2}\b/g;
const NUMBERED_LINE = /^\d+\t/;
const ABSOLUTE_PATH = /(?:^|[\s"'(])(\/[^\s"'`,;:)]+)/g;
// Tool names are identifiers, not wording: a reminder that names TodoWrite is a todo reminder on
// either side, whatever its sentences say.
const TOOL_NAME = ['Read', 'Edit', 'Write', 'Bash', 'Glob', 'Grep', 'TodoWrite', 'TaskCreate', 'TaskUpdate', 'Skill', 'ExitPlanMode', 'AskUserQuestion'];
const CONTEXT_SECTION = /^# (claudeMd|currentDate|gitStatus)$/m;

/** The items Claude Code sent after the last assistant message of `body`. */
export function oracleItems(body, /** @type {PathMap} */ paths) {
  const normalise = (text) => text.split(paths.workspace).join(paths.cwd).split(paths.home).join(paths.scenarioHome).replace(DATE, '<date>');
  const { tail, callOrder } = afterLastAssistant(body.messages, (m) => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content));
  /** @type {FlatBlock[]} */
  const blocks = [];
  for (const block of tail) {
    if (block.type === 'text') blocks.push({ type: 'text', text: normalise(block.text) });
    else if (block.type === 'tool_result') {
      const text = typeof block.content === 'string' ? block.content : (block.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
      blocks.push({ type: 'tool_result', text: normalise(text), toolUseId: block.tool_use_id, isError: block.is_error === true });
    }
  }
  return itemsOf(blocks, callOrder);
}

/** The items our engine assembled after the last assistant message of `request` (a `turn.request`). */
export function engineItems(request) {
  const messages = request.messages.map((m, index) => {
    if (index !== request.userContextAt?.message) return m;
    const content = [...m.content];
    content.splice(request.userContextAt.block, 0, ...request.userContext);
    return { ...m, content };
  });
  const { tail, callOrder } = afterLastAssistant(messages, (m) => m.content, (b) => b.toolUseId);
  /** @type {FlatBlock[]} */
  const blocks = tail
    .filter((b) => b.type === 'text' || b.type === 'tool_result')
    .map((b) => ({ type: b.type, text: b.text.replace(DATE, '<date>'), toolUseId: b.toolUseId, isError: b.isError === true }));
  return itemsOf(blocks, callOrder);
}

function afterLastAssistant(messages, contentOf, idOf = (b) => b.id) {
  let last = -1;
  messages.forEach((m, i) => m.role === 'assistant' && (last = i));
  const callOrder = last < 0 ? [] : contentOf(messages[last]).filter((b) => b.type === 'tool_use').map(idOf);
  return { tail: messages.slice(last + 1).flatMap(contentOf), callOrder };
}

/**
 * @param {FlatBlock[]} blocks
 * @param {string[]} callOrder the ids of the last assistant message's calls
 */
function itemsOf(blocks, callOrder) {
  // Claude Code runs read-only calls in parallel and sends their results in the order they
  // finish, which varies from run to run; the call order is the stable one.
  const rank = (b) => (b.type === 'tool_result' ? callOrder.indexOf(b.toolUseId) : -1);
  const results = blocks.filter((b) => b.type === 'tool_result').sort((a, b) => rank(a) - rank(b));
  const ordered = [...results, ...blocks.filter((b) => b.type !== 'tool_result')];
  /** @type {Item[]} */
  const items = [];
  for (const block of ordered) {
    for (const segment of segments(block.text)) {
      if (!segment.reminder) {
        if (!segment.text.trim()) continue;
        items.push(block.type === 'tool_result' ? toolResultItem(block, segment.text) : { kind: 'prompt', text: segment.text.trim() });
      } else {
        const item = reminderItem(segment.text);
        items.push(block.type === 'tool_result' ? { ...item, folded: true } : item);
      }
    }
    if (block.type === 'tool_result' && !segments(block.text).some((s) => !s.reminder && s.text.trim())) {
      items.push(toolResultItem(block, ''));
    }
  }
  return mergeCallsWithResults(items);
}

/** Top-level `<system-reminder>` sections and the text between them; nested ones stay inside. */
export function segments(text) {
  const OPEN = '<system-reminder>';
  const CLOSE = '</system-reminder>';
  const out = [];
  let depth = 0;
  let start = 0;
  let i = 0;
  while (i < text.length) {
    if (text.startsWith(OPEN, i)) {
      if (depth === 0) {
        out.push({ reminder: false, text: text.slice(start, i) });
        start = i + OPEN.length;
      }
      depth += 1;
      i += OPEN.length;
    } else if (text.startsWith(CLOSE, i) && depth > 0) {
      depth -= 1;
      if (depth === 0) {
        out.push({ reminder: true, text: text.slice(start, i) });
        start = i + CLOSE.length;
      }
      i += CLOSE.length;
    } else i += 1;
  }
  out.push({ reminder: depth > 0, text: text.slice(start) });
  return out.filter((s) => s.reminder || s.text.length > 0);
}

const numberedLines = (text) => outsideReminders(text).split('\n').filter((l) => NUMBERED_LINE.test(l));
const outsideReminders = (text) => segments(text).filter((s) => !s.reminder).map((s) => s.text).join('');
const nestedNotes = (text) => segments(text).filter((s) => s.reminder).length;
// Numbers in a nested warning are facts (the offset asked for, the file's line count), its sentences are not.
const nestedNumbers = (text) => segments(text).filter((s) => s.reminder).flatMap((s) => s.text.match(/\d+/g) ?? []).map(Number);
const pathsIn = (text) => [...new Set([...text.matchAll(ABSOLUTE_PATH)].map((m) => m[1].replace(/[.]+$/, '')))];

function toolResultItem(block, text) {
  const item = { kind: 'tool-result', id: block.toolUseId, isError: block.isError };
  const lines = numberedLines(text);
  if (lines.length) item.lines = lines;
  // An error's text is wording only; a success names the file it acted on.
  else if (!block.isError) item.paths = pathsIn(text);
  return item;
}

/** @returns {Item} */
function reminderItem(raw) {
  const inner = raw.replace(/^\n/, '').replace(/\n$/, '');
  const call = /(\{"(?:file_path|command)".*\})\s*$/.exec(inner.split('\n')[0]);
  if (call && inner.trim().split('\n').length === 1) {
    const input = JSON.parse(call[1]);
    if (input.file_path !== undefined) {
      // Anything beside the path (an offset, a limit) is part of what the model is told (Q21).
      const { file_path: path, ...rest } = input;
      return { kind: 'call', tool: 'Read', path, ...(Object.keys(rest).length ? { input: rest } : {}) };
    }
    return { kind: 'call', tool: 'Bash', command: input.command };
  }
  if (CONTEXT_SECTION.test(inner)) return userContextItem(inner);
  const lines = numberedLines(inner);
  const firstNumbered = inner.split('\n').findIndex((l) => NUMBERED_LINE.test(l));
  if (lines.length) {
    const lead = inner.split('\n').slice(0, firstNumbered).join('\n');
    const named = pathsIn(lead);
    if (named.length) return { kind: 'changed-file', path: named[0], lines };
    return { kind: 'result', lines, nestedNotes: nestedNotes(inner), nestedNumbers: nestedNumbers(inner) };
  }
  const memory = /^Contents of (\/\S+?)(?: \(.*\))?:\n\n([\s\S]*)$/.exec(inner);
  if (memory) return { kind: 'memory', path: memory[1], content: memory[2].trim() };
  const skills = inner.split('\n').filter((l) => /^- [\w:.-]+: /.test(l));
  if (skills.length) return { kind: 'skill-listing', names: skills.map((l) => l.slice(2, l.indexOf(': '))) };
  const [, ...rest] = inner.split('\n');
  return { kind: 'note', nestedNotes: nestedNotes(inner), nestedNumbers: nestedNumbers(inner), tools: TOOL_NAME.filter((name) => new RegExp(`\\b${name}\\b`).test(inner)), paths: pathsIn(inner), body: rest };
}

function userContextItem(inner) {
  const parts = inner.split(CONTEXT_SECTION);
  const sections = [];
  const memories = [];
  for (let i = 1; i < parts.length; i += 2) {
    sections.push(parts[i]);
    if (parts[i] !== 'claudeMd') continue;
    for (const entry of parts[i + 1].split(/^(?=Contents of \/)/m).slice(1)) {
      const match = /^Contents of (\/\S+?)(?: \(.*\))?:\n\n([\s\S]*)$/.exec(entry);
      if (match) memories.push({ path: match[1], content: match[2].trim() });
    }
  }
  return { kind: 'user-context', sections, memories };
}

/** A call note and the result after it are one attachment: a mention or a directory listing. */
function mergeCallsWithResults(items) {
  const merged = [];
  for (let i = 0; i < items.length; i += 1) {
    const item = items[i];
    const next = items[i + 1];
    if (item.kind === 'call' && next && (next.kind === 'result' || next.kind === 'note')) {
      const folded = item.folded || next.folded ? { folded: true } : {};
      const numbers = next.nestedNumbers.length ? { nestedNumbers: next.nestedNumbers } : {};
      if (item.tool === 'Read') merged.push({ kind: 'mention', path: item.path, ...(item.input ? { input: item.input } : {}), lines: next.lines ?? [], nestedNotes: next.nestedNotes, ...numbers, ...folded });
      else merged.push({ kind: 'directory', command: item.command, listing: next.body ?? [], ...folded });
      i += 1;
    } else if (item.kind === 'note') {
      const { body, nestedNumbers, ...facts } = item;
      merged.push(nestedNumbers.length ? { ...facts, nestedNumbers } : facts);
    } else if (item.kind === 'result') {
      const { nestedNumbers, ...facts } = item;
      merged.push(nestedNumbers.length ? { ...facts, nestedNumbers } : facts);
    } else merged.push(item);
  }
  return merged;
}

/**
 * Compares two item lists in order.
 * @param {Item[]} oracle
 * @param {Item[]} ours
 * @returns {{ matched: boolean, items: number, diff: string[] }}
 */
export function compareItems(oracle, ours) {
  const a = oracle.map(canonical);
  const b = ours.map(canonical);
  // Longest common subsequence, so one missing item reads as one line, not a cascade.
  const lcs = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const diff = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) (i += 1), (j += 1);
    else if (j < b.length && (i === a.length || lcs[i][j + 1] >= lcs[i + 1][j])) diff.push(`+ ours only:   ${b[j++]}`);
    else diff.push(`- oracle only: ${a[i++]}`);
  }
  return { matched: diff.length === 0, items: Math.max(a.length, b.length), diff };
}

function canonical(item) {
  return JSON.stringify(item);
}
