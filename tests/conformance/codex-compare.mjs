// Both sides of a Codex request reduced to the items injected since the model last spoke: the
// permissions settings, AGENTS.md text, `<environment_context>` fields, other developer parts,
// user messages, compaction summaries and `exec_command` outputs — facts, not prose. The vendor's sentences are not
// ours (our model-facing text is our own wording), so the permissions block is compared by the
// settings it states; tags and field lines are structure and are compared as they are.

/** @typedef {{ kind: string } & Record<string, unknown>} Item */

import { SIDE_ANSWER_TEXT } from './codex-mock.mjs';

const DATE = /\b\d{4}-\d{2}-\d{2}\b/g;
// The client's bundled skills live under `$CODEX_HOME/skills/.system`; the engine has none.
const BUNDLED_SKILL = /\(file: [^)]*\/skills\/\.system\/[^)]*\)/;
// 0.171.0 names a skill's file by a short root (`r0/imagegen/SKILL.md`), given in a table of
// roots (`- \`r0\` = \`/…/skills/.system\``) above the list.
const SKILL_ROOT = /^- `(\w+)` = `([^`]+)`$/;

/**
 * The prefix every request carries before its input: the base instructions (in `instructions`,
 * or, from 0.171.0 on, as the first developer message of `input`) and the tools, by their
 * UTF-8 sizes and the tools' names — the measure the profiles' stand-ins must reproduce
 * exactly. The texts are the vendor's and are never compared.
 * @param {any} body  the recorded request body
 */
export function oraclePrefix(body) {
  const first = body.input?.[0];
  const leading = first?.type === 'message' && first.role === 'developer' && first.content?.length === 1 && !isFragment(first.content[0].text) ? first.content[0].text : undefined;
  const instructions = body.instructions ?? leading ?? '';
  return {
    kind: 'prefix',
    instructionsBytes: Buffer.byteLength(instructions),
    tools: (body.tools ?? []).map((tool) => tool.name ?? tool.type),
    toolsBytes: (body.tools ?? []).reduce((sum, tool) => sum + Buffer.byteLength(JSON.stringify(tool)), 0),
  };
}

/**
 * Our request's prefix, measured as `oraclePrefix` measures the client's: the system blocks'
 * text and each tool block's JSON.
 * @param {any} request  a `turn.request`
 */
export function enginePrefix(request) {
  return {
    kind: 'prefix',
    instructionsBytes: request.system.reduce((sum, block) => sum + Buffer.byteLength(block.text), 0),
    tools: request.tools.map((block) => block.source),
    toolsBytes: request.tools.reduce((sum, block) => sum + Buffer.byteLength(block.text), 0),
  };
}

/** Whether a text part is one of the context's tagged fragments rather than free text. */
function isFragment(text) {
  return /^\s*(<[a-z_ ]+>|# AGENTS\.md instructions)/.test(text);
}

/**
 * The oracle's items after its last assistant output (message or call).
 * @param {any} body  the recorded request body
 * @param {string} root  the driver's root directory, which stands for `/`
 */
export function oracleItems(body, root) {
  const normalise = (text) => text.split(root).join('').replace(DATE, '<date>');
  // The base instructions sent as the first developer message are the prefix, not context.
  const input = oraclePrefix(body).instructionsBytes > 0 && body.instructions === undefined ? (body.input ?? []).slice(1) : (body.input ?? []);
  let last = -1;
  input.forEach((item, i) => ((item.type === 'message' && item.role === 'assistant') || item.type === 'function_call') && (last = i));
  /** @type {Item[]} */
  const items = [];
  for (const item of input.slice(last + 1)) {
    if (item.type === 'message') {
      for (const part of item.content ?? []) {
        if (typeof part.text !== 'string') continue;
        // A compaction's summary: the vendor's prefix, then the mock's answer to the summary request.
        if (item.role === 'user' && part.text.endsWith(`\n${SIDE_ANSWER_TEXT}`)) pushItem(items, { kind: 'summary' });
        else pushItem(items, classify(item.role, normalise(part.text)));
      }
    } else if (item.type === 'function_call_output') {
      pushItem(items, toolOutputItem(normalise(typeof item.output === 'string' ? item.output : JSON.stringify(item.output))));
    }
  }
  return items;
}

/** Our engine's items after the last assistant message of `request` (a `turn.request`). */
export function engineItems(request) {
  let last = -1;
  request.messages.forEach((m, i) => m.role === 'assistant' && (last = i));
  /** @type {Item[]} */
  const items = [];
  for (const message of request.messages.slice(last + 1)) {
    for (const block of message.content) {
      // The summary's body is the summariser's (the mock's fixed answer on the oracle's side, the
      // extractive summariser on ours): only its place is compared.
      if (block.source === 'compact_summary') pushItem(items, { kind: 'summary' });
      else if (block.type === 'tool_result') pushItem(items, toolOutputItem(block.text.replace(DATE, '<date>')));
      else if (block.type === 'text') pushItem(items, classify(message.role, block.text.replace(DATE, '<date>')));
    }
  }
  return items;
}

function pushItem(items, item) {
  if (item !== null) items.push(item);
}

/** One text part as an item, by the marker it starts with. */
function classify(role, text) {
  const trimmed = text.trimStart();
  if (trimmed.startsWith('<permissions instructions>')) return permissionsItem(trimmed);
  if (trimmed.startsWith('<skills_instructions>')) {
    const roots = new Map(trimmed.split('\n').flatMap((l) => [SKILL_ROOT.exec(l)].filter(Boolean).map((m) => [m[1], m[2]])));
    const expand = (line) => line.replace(/\(file: (\w+)\//, (whole, root) => (roots.has(root) ? `(file: ${roots.get(root)}/` : whole));
    const listed = trimmed.split('### Available skills\n')[1]?.split(/^### /m)[0] ?? '';
    const skills = listed.split('\n').filter((l) => l.startsWith('- ') && !BUNDLED_SKILL.test(expand(l))).map((l) => l.slice(2).split(':')[0]);
    return skills.length ? { kind: 'skills', skills } : null;
  }
  const agents = /^# AGENTS\.md instructions for (.*)\n\n<INSTRUCTIONS>\n([\s\S]*)\n<\/INSTRUCTIONS>\s*$/.exec(trimmed);
  if (agents) return { kind: 'agents-md', directory: agents[1], text: agents[2] };
  if (trimmed.startsWith('<environment_context>')) {
    const fields = trimmed
      .replace(/^<environment_context>\n?/, '')
      .replace(/\n?<\/environment_context>\s*$/, '')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean);
    return { kind: 'environment', fields };
  }
  for (const tag of ['model_switch', 'personality_spec', 'collaboration_mode', 'realtime_conversation']) {
    if (trimmed.startsWith(`<${tag}>`)) return { kind: tag };
  }
  if (role === 'developer') return { kind: 'developer-instructions', text: trimmed };
  return { kind: 'user', text: trimmed };
}

/** The permissions block by what it states: sandbox mode, approval policy, network, writable roots. */
function permissionsItem(text) {
  const sandbox = /`sandbox_mode` is `([^`]+)`/.exec(text)?.[1] ?? null;
  const approval = /approval(?:_policy`| policy) is (?:currently )?`?([a-z-]+)/i.exec(text)?.[1] ?? null;
  const network = /Network access(?: is|:) (enabled|restricted)/i.exec(text)?.[1] ?? null;
  const roots = /The writable roots? (?:is|are) (.*)\.\n/.exec(text)?.[1];
  // Sorted again here: the oracle sorts its real paths, which the lab moves under a temp root.
  const writableRoots = roots === undefined ? [] : roots.split(', ').map((r) => r.replace(/`/g, '')).sort();
  return { kind: 'permissions', sandbox, approval, network, writableRoots };
}

/**
 * A tool output by its facts: for an `exec_command` output, the exit code, the original token
 * count, the total line count when truncated, and the output itself with its truncation marker;
 * the chunk id and the wall time vary from run to run and are left out.
 */
function toolOutputItem(text) {
  const split = text.indexOf('\nOutput:\n');
  if (!text.startsWith('Chunk ID: ') || split < 0) return { kind: 'tool-output', raw: true, output: text };
  const header = text.slice(0, split).split('\n');
  const facts = header.filter((line) => !line.startsWith('Chunk ID: ') && !line.startsWith('Wall time: '));
  return { kind: 'tool-output', header: facts, output: text.slice(split + '\nOutput:\n'.length) };
}

/**
 * The ordered difference of two item lists (longest common subsequence of their canonical
 * forms): `- oracle only: …` and `+ ours only: …` lines; empty when they agree.
 * @param {Item[]} oracle
 * @param {Item[]} ours
 */
export function compareItems(oracle, ours) {
  const a = oracle.map(canonical);
  const b = ours.map(canonical);
  const table = Array.from({ length: a.length + 1 }, () => new Array(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i -= 1) {
    for (let j = b.length - 1; j >= 0; j -= 1) {
      table[i][j] = a[i] === b[j] ? table[i + 1][j + 1] + 1 : Math.max(table[i + 1][j], table[i][j + 1]);
    }
  }
  const diff = [];
  let i = 0;
  let j = 0;
  while (i < a.length || j < b.length) {
    if (i < a.length && j < b.length && a[i] === b[j]) {
      i += 1;
      j += 1;
    } else if (j >= b.length || (i < a.length && table[i + 1][j] >= table[i][j + 1])) {
      diff.push(`- oracle only: ${a[i]}`);
      i += 1;
    } else {
      diff.push(`+ ours only: ${b[j]}`);
      j += 1;
    }
  }
  return { items: Math.max(a.length, b.length), matched: table[0][0], diff };
}

function canonical(item) {
  return JSON.stringify(item);
}
