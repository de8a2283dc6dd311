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
//   tool-result   a tool's result: its call id and tool, whether it failed, and its facts: a
//                 Read's numbered lines, a Glob's or Grep's listing, a Bash call's output,
//                 else the paths a successful result names
//   todo-reminder the todo nudge: the items of the list it carries, as `N. [status] text` lines
//                 with the list's brackets (Q49)
//   plan-mode     a plan-mode reminder: full (`## Plan File Info:`), sparse, re-entry
//                 (`## Re-entering Plan Mode`) or exit (`## Exited Plan Mode`), with the tools
//                 and paths it names (Write for a plan file to create, Edit for one to update)
//   compact-summary  the summary hand-off after a compaction: the formatted summary, whether a
//                 transcript path is named, whether the carry-on instruction follows (a single
//                 `\n` after the summary's paragraphs, §9.3 item 8)
//   restored      a file restored after a compaction: a mention before the summary of a file
//                 our compaction restored (§9.4; the new prompt's mentions share the place, Q58)
//   file-reference / plan-reference  a compaction's pointer to a file too large to restore, or
//                 to the plan file (§9.3 item 6): the paths named
//   local-command a slash command's own messages (`<command-name>`, `<local-command-stdout>`, …)
//   note          any other reminder: compared by place, the tool names and paths it mentions
//   attribution   the commit-attribution reminder (2.1.332): a `Co-Authored-By:` trailer
//   tools-used    the tools named in a summary's `<tools-used-before-summary>` (2.1.332)
//   kept          the messages a compaction kept verbatim after its summary (2.1.332): their
//                 roles and block types, the calls' tools
//   environment, deferred-tools, agent-types, date
//                 parts of a system-role message (2.1.332): the `# Environment` section and the
//                 paths in it, a list of bare tool names, `- name: … (Tools: …)` agent entries,
//                 the date
// An item found inside a tool_result carries `folded: true` (Q50: mid-turn attachments ride in
// the last tool result); an item of a `role: "system"` message carries `role: 'system'`
// (2.1.332 sends the environment, change notes and plan-mode reminders so), whose text is cut
// into paragraphs: one with a fact (a heading above, numbered lines, a path, a list of names)
// is an item, one of prose alone is wording and left out. Only format facts are relied on: the `<system-reminder>` wrapper,
// `N\t` line numbers, the call note's JSON, `# claudeMd`/`# currentDate`, `Contents of`,
// `- name:` skill entries, the plan-mode headings, `Summary:\n`, the local-command tags.

/**
 * @typedef {{ kind: string, [fact: string]: unknown }} Item
 * @typedef {{ type: 'text' | 'tool_result', text: string, toolUseId?: string, isError?: boolean }} FlatBlock
 * @typedef {{ workspace: string, root: string, home: string, scenarioHome: string, planFile?: string, scenarioPlanFile?: string }} PathMap
 *   `workspace` is the temp directory that stands for the scenario's `root`
 * @typedef {{ summaries?: string[], restored?: string[] }} ItemOptions  `summaries`: the formatted
 *   summaries either side may carry (the mock's answers, our engine's), so the summary message
 *   can be cut into facts; `restored`: the files our compaction restored before this request,
 *   to tell them from the mentions of the prompt that share their place (Q58)
 */

const DATE = /\b\d{4}-\d{2}-\d{2}\b/g;
const NUMBERED_LINE = /^\d+\t/;
const ABSOLUTE_PATH = /(?:^|[\s"'(])(\/[^\s"'`,;:)]+)/g;
// Tool names are identifiers, not wording: a reminder that names TodoWrite is a todo reminder on
// either side, whatever its sentences say. A hyphenated word (`Read-only`) is not a name.
const TOOL_NAME = ['Read', 'Edit', 'Write', 'Bash', 'Glob', 'Grep', 'TodoWrite', 'TaskCreate', 'TaskUpdate', 'Skill', 'ExitPlanMode', 'AskUserQuestion'];
const CONTEXT_SECTION = /^# (claudeMd|currentDate|gitStatus)$/m;
const MEMORY_ENTRY = /^Contents of (\/\S+?)(?: \(.*\))?:\n\n([\s\S]*)$/;

/**
 * The items Claude Code sent after the last assistant message of `body`; `options.previous`,
 * the main-loop request before it, tells a compaction summary placed first (2.1.332, which
 * keeps the latest messages verbatim after it) that this request is the first to carry.
 */
export function oracleItems(body, /** @type {PathMap} */ paths, /** @type {ItemOptions & { previous?: any }} */ options = {}) {
  const normalise = (text) => {
    // The client's plan file has a random name; it stands for the scenario's.
    if (paths.planFile && paths.scenarioPlanFile) text = text.split(paths.planFile).join(paths.scenarioPlanFile);
    return text.split(paths.workspace).join(paths.root === '/' ? '' : paths.root).split(paths.home).join(paths.scenarioHome).replace(DATE, '<date>');
  };
  const contentOf = (m) => (typeof m.content === 'string' ? [{ type: 'text', text: m.content }] : m.content).map((b) => (m.role === 'system' && b.type === 'text' ? { ...b, type: 'system' } : b));
  const { tail, callOrder, lead } = afterLastAssistant(body.messages, contentOf, (b) => ({ id: b.id, name: b.name }), newSummaryAt(body.messages, options.previous?.messages, contentOf));
  /** @type {FlatBlock[]} */
  const blocks = [];
  for (const block of tail) {
    if (block.type === 'text' || block.type === 'system') blocks.push({ type: block.type, text: normalise(block.text) });
    else if (block.type === 'tool_result') {
      const text = typeof block.content === 'string' ? block.content : (block.content ?? []).filter((c) => c.type === 'text').map((c) => c.text).join('\n');
      blocks.push({ type: 'tool_result', text: normalise(text), toolUseId: block.tool_use_id, isError: block.is_error === true });
    }
  }
  const leadBlocks = lead.blocks.map((b) => ({ type: b.type, text: normalise(b.text) }));
  return withLead(leadBlocks, lead.kept, itemsOf(blocks, callOrder, options), options);
}

/** The items our engine assembled after the last assistant message of `request` (a `turn.request`). */
export function engineItems(request, /** @type {ItemOptions & { previous?: any }} */ options = {}) {
  const messages = request.messages.map((m, index) => {
    if (index !== request.userContextAt?.message) return m;
    const content = [...m.content];
    content.splice(request.userContextAt.block, 0, ...request.userContext);
    return { ...m, content };
  });
  const contentOf = (m) => m.content.map((b) => (m.role === 'system' && b.type === 'text' ? { ...b, type: 'system' } : b));
  const previous = options.previous?.messages.map((m) => ({ ...m, content: m.content.map((b) => ({ type: b.type, text: b.text })) }));
  const { tail, callOrder, lead } = afterLastAssistant(messages, contentOf, (b) => ({ id: b.toolUseId, name: b.source }), newSummaryAt(messages, previous, contentOf));
  /** @type {FlatBlock[]} */
  const blocks = tail
    .filter((b) => b.type === 'text' || b.type === 'system' || b.type === 'tool_result')
    .map((b) => ({ type: b.type, text: b.text.replace(DATE, '<date>'), toolUseId: b.toolUseId, isError: b.isError === true }));
  const leadBlocks = lead.blocks.map((b) => ({ type: b.type, text: b.text.replace(DATE, '<date>') }));
  return withLead(leadBlocks, lead.kept, itemsOf(blocks, callOrder, options), options);
}

/**
 * Where a compaction summary placed first (2.1.332) begins, when this request is the first
 * to carry it: its first message holds `Summary:` and the previous request's first message
 * was another. -1 otherwise, and without a previous request (a release that floats the
 * attachments above the summary is read without one: run.mjs).
 */
function newSummaryAt(messages, previousMessages, contentOf) {
  if (!previousMessages) return -1;
  const textOf = (m) => (m ? contentOf(m).filter((b) => b.type === 'text').map((b) => b.text).join('\n') : '');
  const first = textOf(messages[0]);
  if (messages[0]?.role !== 'user' || !/(^|\n)Summary:\n/.test(first)) return -1;
  return textOf(previousMessages?.[0]) === first ? -1 : 0;
}

/**
 * The summary message's items and the `kept` item for the messages kept verbatim after it,
 * before the items of the tail.
 */
function withLead(leadBlocks, kept, tailItems, options) {
  if (!leadBlocks.length) return tailItems;
  const items = itemsOf(leadBlocks, [], options);
  if (kept.length) items.push({ kind: 'kept', messages: kept });
  return afterCompaction([...items, ...tailItems], options.restored ?? []);
}

/**
 * The blocks after the last assistant message and that message's calls; with `summaryAt` at
 * a summary placed first, also the summary message's blocks (`lead.blocks`) and the messages
 * kept verbatim between it and the tail (`lead.kept`: role, block types, tools called).
 */
function afterLastAssistant(messages, contentOf, callOf, summaryAt = -1) {
  let last = -1;
  messages.forEach((m, i) => m.role === 'assistant' && (last = i));
  const callOrder = last < 0 ? [] : contentOf(messages[last]).filter((b) => b.type === 'tool_use').map(callOf);
  const lead = { blocks: [], kept: [] };
  if (summaryAt >= 0 && last > summaryAt) {
    lead.blocks = contentOf(messages[summaryAt]).filter((b) => b.type === 'text');
    for (const m of messages.slice(summaryAt + 1, last + 1)) {
      const content = contentOf(m);
      // A system message emptied by the compaction carries nothing.
      if (content.length === 0) continue;
      lead.kept.push(`${m.role}: ${content.map((b) => (b.type === 'tool_use' ? `tool_use ${callOf(b).name}` : b.type)).join(', ')}`);
    }
  }
  return { tail: messages.slice(last + 1).flatMap(contentOf), callOrder, lead };
}

/**
 * @param {FlatBlock[]} blocks
 * @param {{ id: string, name: string }[]} callOrder the last assistant message's calls
 * @param {ItemOptions} options
 */
function itemsOf(blocks, callOrder, options) {
  // Claude Code runs read-only calls in parallel and sends their results in the order they
  // finish, which varies from run to run; the call order is the stable one.
  const rank = (b) => (b.type === 'tool_result' ? callOrder.findIndex((c) => c.id === b.toolUseId) : -1);
  const toolOf = (b) => callOrder.find((c) => c.id === b.toolUseId)?.name;
  const results = blocks.filter((b) => b.type === 'tool_result').sort((a, b) => rank(a) - rank(b));
  const ordered = [...results, ...blocks.filter((b) => b.type !== 'tool_result')];
  /** @type {Item[]} */
  const items = [];
  // Attachments folded into a tool result (Q50) ride in whichever result the client put last,
  // which for parallel calls is the one that finished last: they are gathered after all the
  // results. A Read result's own reminder (the malware note, a short-file warning) stays.
  /** @type {Item[]} */
  const folded = [];
  for (const block of ordered) {
    if (block.type === 'system') {
      items.push(...systemItems(block.text));
      continue;
    }
    const parts = segments(block.text);
    let own = block.type === 'tool_result' && toolOf(block) === 'Read';
    // A summary hand-off that opens with prose and a reminder before `Summary:` (2.1.332):
    // the prose is wording, the reminder an item.
    const summaryPart = block.type === 'text' ? parts.findIndex((s) => !s.reminder && /(^|\n)Summary:\n/.test(s.text)) : -1;
    parts.forEach((segment, index) => {
      if (!segment.reminder) {
        if (!segment.text.trim() || index < summaryPart) return;
        // Folded attachments are joined to the result with blank lines (Q50): not the tool's.
        const text = parts[index + 1]?.reminder ? segment.text.replace(/\n+$/, '') : segment.text;
        items.push(block.type === 'tool_result' ? toolResultItem(block, toolOf(block), text) : textItem(text, options));
        // A Read result's own reminder follows its numbered lines directly.
        if (own && !numberedLines(segment.text).length) own = false;
        return;
      }
      const item = reminderItem(segment.text);
      if (block.type !== 'tool_result') return void items.push(item);
      if (own && index <= 1) items.push({ ...item, folded: true });
      else folded.push({ ...item, folded: true });
      own = false;
    });
    if (block.type === 'tool_result' && !parts.some((s) => !s.reminder && s.text.trim())) {
      items.push(toolResultItem(block, toolOf(block), ''));
    }
  }
  const lastResult = items.reduce((at, item, index) => (item.kind === 'tool-result' || item.folded ? index : at), -1);
  items.splice(lastResult + 1, 0, ...folded);
  return afterCompaction(mergeCallsWithResults(items), options.restored ?? []);
}

/**
 * A text block outside any reminder: the typed prompt, the summary hand-off after a
 * compaction, or a slash command's own messages.
 * @returns {Item}
 */
function textItem(raw, /** @type {ItemOptions} */ options) {
  const text = raw.trim();
  const command = /^<(local-command-caveat|command-name|local-command-stdout|local-command-stderr)>([\s\S]*?)<\/\1>/.exec(text);
  if (command) {
    // The caveat is prose; the command's name and output are facts.
    const facts = command[1] === 'local-command-caveat' ? {} : { text: command[2].split('\n')[0].trim() };
    return { kind: 'local-command', tag: command[1], ...facts };
  }
  const at = text.indexOf('Summary:\n');
  if (at >= 0) {
    const known = (options.summaries ?? []).filter((s) => text.includes(s)).sort((a, b) => b.length - a.length)[0];
    const summary = known ?? text.slice(at).split('\n\n')[0];
    const rest = text.slice(text.indexOf(summary) + summary.length);
    // After the summary: `\n\n` and the transcript sentence, which ends with its path; then a
    // single `\n` before the instruction to carry on (§9.3 item 8).
    const transcript = /^\n\n[^\n]*\/\S+\.jsonl/.test(rest);
    const afterTranscript = transcript ? rest.replace(/^\n\n[^\n]*/, '') : rest;
    return { kind: 'compact-summary', summary, transcript, followUp: /^\n(?!\n)\S/.test(afterTranscript) };
  }
  return { kind: 'prompt', text };
}

/**
 * In the request after a compaction, what comes before the summary hand-off was attached by
 * the compaction or by the new prompt (§9.3 item 6, Q58): a mention of a file our compaction
 * restored (its first one, when the prompt mentions it again) is a restored file, a note
 * naming the plan file is its reference, a note naming one file with the Read tool is a file
 * reference.
 */
function afterCompaction(items, restored) {
  const summaryAt = items.findIndex((i) => i.kind === 'compact-summary');
  if (summaryAt < 0) return items;
  // Attached by the compaction: before the summary (2.1.88), or, with the summary first
  // (2.1.332), what comes before the next prompt and the system message after it.
  const promptAfter = items.findIndex((i, index) => index > summaryAt && (i.kind === 'prompt' || i.kind === 'local-command'));
  const summaryFirst = items.slice(0, summaryAt).every((i) => i.kind === 'tools-used');
  const attached = (item, index) => (summaryFirst ? index > summaryAt && (index < promptAfter || promptAfter < 0 || item.role === 'system') : index < summaryAt);
  const seen = new Set();
  return items.map((item, index) => {
    if (!attached(item, index)) return item;
    if (item.kind === 'mention' && restored.includes(item.path) && !seen.has(item.path)) {
      seen.add(item.path);
      return { ...item, kind: 'restored' };
    }
    const role = item.role ? { role: item.role } : {};
    if (item.kind === 'note' && item.paths.some((p) => /\/\.claude\/plans\//.test(p))) return { kind: 'plan-reference', ...role, paths: item.paths };
    if (item.kind === 'note' && item.tools.includes('Read') && item.paths.length === 1) return { kind: 'file-reference', ...role, paths: item.paths };
    return item;
  });
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

function toolResultItem(block, tool, text) {
  const item = { kind: 'tool-result', id: block.toolUseId, tool, isError: block.isError };
  // An error's text is wording only.
  if (block.isError) return item;
  const body = outsideReminders(text);
  if (tool === 'Glob' || tool === 'Grep') {
    // Paths relative to the cwd, `Found N files`, `No files found`: facts, in their order.
    item.listing = body.split('\n').filter((l) => l.trim());
    return item;
  }
  if (tool === 'Bash') {
    item.output = body;
    return item;
  }
  const lines = numberedLines(text);
  if (lines.length) item.lines = lines;
  // A success names the file it acted on.
  else item.paths = pathsIn(text);
  return item;
}

/**
 * The items of a system-role message (2.1.332), paragraph by paragraph: a paragraph with a
 * fact opens an item (see the header), the numbered lines of a paragraph that has nothing
 * else join the change note before it, and a prose paragraph after a plan-mode heading adds
 * the tools and paths it names to that reminder; other prose is wording.
 * @returns {Item[]}
 */
function systemItems(text) {
  /** @type {Item[]} */
  const items = [];
  for (const paragraph of text.split(/\n\n+/)) {
    const lines = paragraph.split('\n').filter((l) => l.trim());
    if (!lines.length) continue;
    const previous = items[items.length - 1];
    const paths = pathsIn(paragraph);
    const tools = TOOL_NAME.filter((name) => new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(paragraph));
    const numbered = lines.filter((l) => NUMBERED_LINE.test(l));
    const skills = lines.filter((l) => /^- [\w:.-]+: /.test(l));
    const plan = planVariant(paragraph, tools);
    if (/^# Environment\b/.test(paragraph)) items.push({ kind: 'environment', role: 'system', paths });
    else if (lines.length > 1 && lines.slice(1).every((l) => /^[A-Z][A-Za-z0-9_]*$/.test(l))) items.push({ kind: 'deferred-tools', role: 'system', names: lines.slice(1) });
    else if (skills.length && skills.every((l) => /\(Tools: [^)]*\)$/.test(l))) items.push({ kind: 'agent-types', role: 'system', names: skills.map((l) => l.slice(2, l.indexOf(': '))) });
    else if (skills.length) items.push({ kind: 'skill-listing', role: 'system', names: skills.map((l) => l.slice(2, l.indexOf(': '))) });
    else if (plan) items.push({ kind: 'plan-mode', role: 'system', variant: plan, tools, paths });
    else if (numbered.length && paths.length) items.push({ kind: 'changed-file', role: 'system', path: paths[0], lines: numbered });
    else if (numbered.length === lines.length && previous?.kind === 'changed-file') previous.lines.push(...numbered);
    else if (paragraph.includes('<date>') && !paths.length) items.push({ kind: 'date', role: 'system' });
    else if (previous?.kind === 'plan-mode' && previous.variant === 'full') {
      previous.tools = TOOL_NAME.filter((name) => previous.tools.includes(name) || tools.includes(name));
      previous.paths = [...new Set([...previous.paths, ...paths])];
    } else if (paths.length) items.push({ kind: 'note', role: 'system', nestedNotes: 0, nestedNumbers: [], tools, paths });
  }
  return items;
}

/** @returns {Item} */
function reminderItem(raw) {
  const inner = raw.replace(/^\n/, '').replace(/\n$/, '');
  const used = /<tools-used-before-summary>([\s\S]*?)<\/tools-used-before-summary>/.exec(inner);
  if (used) return { kind: 'tools-used', tools: used[1].split(',').map((t) => t.trim()).filter(Boolean) };
  if (/^Co-Authored-By: /m.test(inner)) return { kind: 'attribution' };
  // The CLAUDE.md context as a reminder of its own (2.1.332): a preamble, then the files.
  if (!inner.startsWith('Contents of ') && !CONTEXT_SECTION.test(inner) && /^Contents of \//m.test(inner) && !NUMBERED_LINE.test(inner)) return memoryContextItem(inner);
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
  const tools = TOOL_NAME.filter((name) => new RegExp(`(?<![\\w-])${name}(?![\\w-])`).test(inner));
  const plan = planVariant(inner, tools);
  if (plan) return { kind: 'plan-mode', variant: plan, tools, paths: pathsIn(inner) };
  if (tools.includes('TodoWrite') || tools.includes('TaskCreate')) {
    // The list: `N. [status] text` (todos) or `#N. [status] subject` (tasks), inside `[` `]` (Q49).
    const items = inner.split('\n').filter((l) => /^\[?#?\d+\. \[[\w-]+\] /.test(l));
    return { kind: 'todo-reminder', tool: tools.includes('TaskCreate') ? 'TaskCreate' : 'TodoWrite', items };
  }
  const [, ...rest] = inner.split('\n');
  return { kind: 'note', nestedNotes: nestedNotes(inner), nestedNumbers: nestedNumbers(inner), tools, paths: pathsIn(inner), body: rest };
}

/** Which plan-mode reminder `inner` is, by its headings (§7.5); undefined if it is none. */
function planVariant(inner, tools) {
  if (inner.includes('## Exited Plan Mode')) return 'exit';
  if (inner.includes('## Re-entering Plan Mode')) return 'reentry';
  if (inner.includes('## Plan File Info:')) return 'full';
  if (tools.includes('ExitPlanMode') && /\/\.claude\/plans\//.test(inner)) return 'sparse';
  return undefined;
}

function memoryContextItem(inner) {
  const memories = [];
  for (const entry of inner.split(/^(?=Contents of \/)/m).slice(1)) {
    const match = MEMORY_ENTRY.exec(entry);
    if (match) memories.push({ path: match[1], content: match[2].trim() });
  }
  return { kind: 'user-context', sections: ['claudeMd'], memories };
}

function userContextItem(inner) {
  const parts = inner.split(CONTEXT_SECTION);
  const sections = [];
  const memories = [];
  for (let i = 1; i < parts.length; i += 2) {
    sections.push(parts[i]);
    if (parts[i] !== 'claudeMd') continue;
    for (const entry of parts[i + 1].split(/^(?=Contents of \/)/m).slice(1)) {
      const match = MEMORY_ENTRY.exec(entry);
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
 * @returns {{ matched: boolean, items: number, diff: string[], pairs: { item: Item, side: 'matched' | 'oracleOnly' | 'oursOnly' }[] }}
 *   `pairs`: every item once, matched ones once for both sides
 */
export function compareItems(oracle, ours) {
  const a = oracle.map(canonical);
  const b = ours.map(canonical);
  // Longest common subsequence, so one missing item reads as one line, not a cascade.
  const lcs = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1)
    for (let j = b.length - 1; j >= 0; j -= 1) lcs[i][j] = a[i] === b[j] ? lcs[i + 1][j + 1] + 1 : Math.max(lcs[i + 1][j], lcs[i][j + 1]);
  const diff = [];
  const pairs = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) pairs.push({ item: oracle[i], side: 'matched' }), (i += 1), (j += 1);
    else if (j < b.length && (i === a.length || lcs[i][j + 1] >= lcs[i + 1][j])) pairs.push({ item: ours[j], side: 'oursOnly' }), diff.push(`+ ours only:   ${b[j++]}`);
    else pairs.push({ item: oracle[i], side: 'oracleOnly' }), diff.push(`- oracle only: ${a[i++]}`);
  }
  return { matched: diff.length === 0, items: Math.max(a.length, b.length), diff, pairs };
}

function canonical(item) {
  return JSON.stringify(item);
}

/**
 * The summary text of a model's answer, as the client formats it (§9.3 item 8): the first
 * `<analysis>…</analysis>` goes, `<summary>X</summary>` becomes `Summary:\n` and X trimmed,
 * blank-line runs shrink to one, the ends are trimmed.
 */
export function formatCompactSummary(raw) {
  let text = raw.replace(/<analysis>[\s\S]*?<\/analysis>/, '');
  const summary = /<summary>([\s\S]*?)<\/summary>/.exec(text);
  if (summary) text = text.replace(summary[0], () => `Summary:\n${summary[1].trim()}`);
  return text.replace(/\n\n+/g, '\n\n').trim();
}
