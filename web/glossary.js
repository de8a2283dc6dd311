// The glossary: what the words the page prints mean — the engine's attachment kinds, frequency
// classes, verdicts, compaction policies, cache reasons and profiles, and the page's own words —
// each in a short paragraph of our own. The records are typed by the engine's own unions, so
// the type check fails when the engine adds a word this page does not explain. `findTerms` is
// where a view's text names one of them; popover.js links each such word to its meanings.
import { h } from './dom.js';
import { POLICY_DESCRIPTIONS } from './views/compaction/policies.js';

/** @typedef {import('../pkg/context_assembly.js').AttachmentKind} AttachmentKind */
/** @typedef {import('../pkg/context_assembly.js').Frequency} Frequency */
/** @typedef {import('../pkg/context_assembly.js').Verdict} Verdict */
/** @typedef {import('../pkg/context_assembly.js').ProfileName} ProfileName */
/** @typedef {import('../pkg/context_assembly.js').Round} Round */
/** @typedef {import('../pkg/context_assembly.js').CollectorId} CollectorId */
/** @typedef {import('../pkg/context_assembly.js').Survival['kind']} SurvivalKind */
/** @typedef {import('../pkg/context_assembly.js').Fate} Fate */

/** @type {Record<AttachmentKind, string>} */
export const ATTACHMENT_KINDS = {
  agent_listing_delta: 'The agent types the model may call, sent when the list changes: only the ones added or removed since the last listing.',
  agent_mention: 'The prompt named an agent with @agent-…: a note asks the model to hand the work to that agent.',
  already_read_file: 'A mentioned file the model has already read and that has not changed since; the original sends nothing for it.',
  at_mention_reference: 'A mentioned file too large to attach: its path and size, and how to read it in parts (2.1.332).',
  auto_mode: 'Tells the model it now works in auto mode, where it proceeds without asking for approval.',
  auto_mode_exit: 'Tells the model auto mode is over and approvals are back.',
  budget_usd: 'How much of the spending limit the session has used, so the model can pace itself.',
  changed_file_too_large: 'A watched file changed but is too large to diff: the model is told it changed, without the change.',
  compact_file_reference: 'After a compaction, a pointer to a file that was in context but not read back in full: the model can read it again if needed.',
  compaction_reminder: 'A reminder that the context is filling up and will be compacted.',
  critical_system_reminder: 'A host-set instruction repeated on every request so that it is never lost.',
  date: "Today's date, sent with the session's context when it is built (2.1.332; 2.1.88 put it in the user context).",
  date_change: 'The local date changed during the session: the model is told the new date.',
  deferred_tools_delta: 'Names of tools that are loaded only when asked for, sent when that list changes.',
  deleted_file: 'A watched file was deleted: the model is told it is gone.',
  diagnostics: 'New errors and warnings from the editor or language server for the files the model touched.',
  directory: 'The prompt mentioned a directory: its listing is attached instead of file contents.',
  dynamic_skill: 'A skill found in a directory the model just worked in, announced when it is found.',
  edited_image_file: 'A watched image file changed; it renders to nothing for the model.',
  edited_text_file: 'A watched text file changed outside the agent: the model gets a short snippet of the change.',
  emptied_file: 'A watched file was emptied: the model is told so, since a diff with only deletions shows nothing.',
  environment: 'Where the session runs: the working directory, whether it is a repository, the platform (2.1.332; 2.1.88 put it in the system prompt).',
  file: 'The contents of a file the prompt mentioned with @, read as the Read tool would.',
  instructions: "The CLAUDE.md files and rules of the session's start, in a reminder of their own (2.1.332; 2.1.88 put them in the user context).",
  invoked_skills: 'After a compaction, the skills used so far are attached again so their instructions survive.',
  mcp_instructions_delta: 'Instructions from connected MCP servers, sent when servers connect, disconnect or change them.',
  mcp_resource: 'The contents of an MCP resource the prompt mentioned with @server:uri.',
  memory_warning: 'A memory file is too large: the model is told it was cut.',
  nested_memory: 'A CLAUDE.md or rule file from a directory the model just read in, loaded the first time that directory is touched.',
  opened_file_in_ide: 'The file the user has open in the editor, named so the model knows what they are looking at.',
  output_style: 'The output style the user picked, repeated so the model keeps to it.',
  output_token_usage: 'How many output tokens the session has used of its budget.',
  pdf_reference: 'A mentioned PDF too large to attach: a note says where it is and how to read parts of it.',
  plan_file_reference: 'After a compaction in plan mode, a pointer to the plan file so the plan is not lost.',
  plan_mode: 'Tells the model it is in plan mode: it may look and plan but not change anything.',
  plan_mode_exit: 'Tells the model plan mode is over and it may now make changes.',
  plan_mode_reentry: 'Tells the model it is back in plan mode, with a pointer to the plan it wrote before.',
  queued_command: 'A message the user typed while the model was working, delivered with the next request.',
  recently_modified_files: 'With the cline.file_tracker policy on: the files changed outside the agent since the last request, listed once by path under # Recently Modified Files in the environment details, with no diff.',
  relevant_memories: 'Notes from the auto-memory directory that look relevant to the prompt, found in the background.',
  remote_session_change: "How to credit the agent in commits and pull requests it writes, sent with the session's context (2.1.332).",
  selected_lines_in_ide: 'The lines the user has selected in the editor, with their text.',
  session_context: "The repository's state when the session's context was built, a snapshot that is not kept up to date (2.1.332).",
  skill_listing: 'The skills the model may run, with their descriptions, sent when the list changes.',
  task_reminder: 'A nudge to keep the task list up to date, sent when it has not been touched for a while.',
  task_status: 'A background task started, finished or was stopped.',
  todo_reminder: 'A nudge to use the to-do list, sent when it has not been touched for a number of turns.',
  token_usage: 'How much of the context window is used, when the host asks for it.',
  ultrathink_effort: 'The prompt asked for deeper thinking: the model is told to spend more effort.',
};

/** @type {Record<Frequency, string>} */
export const FREQUENCIES = {
  throttled: 'Sent at most every so many turns: a counter since the last one decides, so most requests carry none.',
  delta: 'Sent only when what it lists has changed, and then only the difference, so an unchanged list costs nothing.',
  'first-then-incremental': 'Sent in full the first time, then only what is new: the model already has the rest.',
  event: 'Sent because something happened (a file changed, a mode switched, a prompt mentioned something); no event, no attachment.',
  prefetch: 'Looked up in the background while the turn starts, and attached when the answer is ready.',
  'session-start': "Sent when the session's context is built: on the first turn and again after a compaction.",
};

/** @type {Record<Verdict, string>} */
export const VERDICTS = {
  included: 'Sent to the model as it is.',
  truncated: 'Sent, but cut to a size limit; a note usually says what was left out.',
  silent: 'Considered and found to need no message: nothing is sent, by design.',
  denied: 'Not sent because a permission rule forbids reading it.',
  'too-large': 'Not sent, or sent only as a note, because it is over a size limit.',
  'already-in-context': 'Not sent again: the model already has the same content.',
  unchanged: 'Not sent: nothing changed since the model last saw it.',
  evicted: 'Dropped from the file state: it is no longer watched for changes.',
  skipped: 'Not looked at on this round, for the reason given.',
  'not-found': 'Not sent: the file or thing named does not exist.',
  failed: 'Reading it failed (for instance a permission error); it may be tried again later.',
  throttled: 'Not sent this time: a reminder of this kind was sent too recently.',
  'over-budget': 'Not sent: the space set aside for this kind of context is used up.',
  excluded: 'Left out by a setting or a rule, not by size or permissions.',
  cleared: 'Removed by a compaction: the model no longer sees it.',
  masked: 'Replaced by a short placeholder that says something was there.',
  dropped: 'Removed from the context entirely.',
  replaced: 'Swapped for a shorter form, such as a summary or a preview.',
  'not-applied': 'A change that was considered and not made, for the reason given.',
  deferred: 'Due, but postponed because doing it now costs more than waiting; the reason gives the arithmetic and what ends the wait.',
  needed: 'Found to be necessary for the request, so it is kept or added.',
  kept: 'Left in the context as it was.',
  moved: 'Kept, but placed elsewhere in the request.',
};

/** @typedef {import('../pkg/context_assembly.js').CacheRead} CacheRead */

/** Why a request read what it read from the prompt cache: the reasons the cache model gives. @type {Record<CacheRead, string>} */
export const CACHE_READS = {
  hit: 'The request began with a prefix the cache still held, and that part was read at the cached price.',
  'first-request': 'Nothing was sent before it, so the cache was empty and every token was charged in full.',
  'below-minimum': 'The prefix up to its breakpoint is under the provider\'s minimum (1,024 tokens for most Anthropic models): nothing that short is cached.',
  expired: 'An entry for this prefix was written, but it outlived the cache\'s time to live (five minutes by default) before this request came.',
  'prefix-changed': 'An earlier block changed (a compaction, an edit, a new tool list), so no cached entry is a prefix of this request.',
  'beyond-lookback': 'An entry exists, but the breakpoint is too many blocks past it: the provider looks back only so far for a match.',
  'no-breakpoint': 'The request marks no breakpoint, so the provider caches nothing of it.',
};

/** The profiles a scenario can run under, as the profile pickers and Compare name them. @type {Record<ProfileName, string>} */
export const PROFILES = {
  'claude-code': 'Claude Code as of its current release (2.1.332), quirks (Q…) included: its @-mentions, file watching, reminders and compaction; it estimates a token per four UTF-16 characters (per two in JSON).',
  codex: 'OpenAI\'s Codex CLI as of its current release (0.171.0), surprises (X…) included: a mention is plain text, the initial context is sent once and then only the settings that changed; it estimates a token per four bytes of UTF-8, rounded up.',
  'claude-code-2.1.88': 'Claude Code 2.1.88, the release our Claude Code spec was written for, kept under a name that never changes.',
  'codex-0.139.0': 'Codex CLI 0.139.0, the release our Codex spec was written for, kept under a name that never changes.',
  recommended: 'Our own profile: Claude Code\'s way of assembling a request with its known defects fixed and the others\' good ideas kept; it counts tokens with the calibrated estimate. The default where no profile is named.',
  'world-state': 'Codex with its World State snapshot: the settings and environment sent as one snapshot that is diffed from turn to turn.',
  'opencode-style': 'Claude Code\'s requests compacted as OpenCode does: old tool outputs pruned first, then an anchored summary with a verbatim tail.',
  'aider-style': 'Claude Code\'s requests with Aider\'s chat-history budget: once the history passes its budget, the older part becomes a summary.',
};

/** The words the page itself uses, beyond the engine's vocabularies. */
export const PAGE_WORDS = {
  'prompt cache': 'The provider keeps the start of a request for a while; a later request that starts the same way reads that part at a lower price.',
  'cache breakpoint': 'A mark on a block: the provider caches the request up to there. Claude Code marks the system prompt and the last message.',
  cached: 'Input tokens read from the prompt cache, at a tenth of the input price (Anthropic) or a quarter to half of it (OpenAI).',
  written: 'Input tokens written to the prompt cache on this request, at a premium (Anthropic: 1.25× the input price), so a later request can read them.',
  uncached: 'Input tokens charged at the full input price: neither read from the cache nor written to it.',
  'prefix kept': 'The part of a request that is the same as the start of the previous one; only a prefix the cache still holds is read from it.',
  'stand-in': 'Our text in place of a client release\'s own system prompt or tools, of the same length, so the meter, the cache and the thresholds see the real prefix; billed at the tokens the calibrated counter measured in the original.',
  'the pass': 'One round of the collectors: each looks at the session and may attach something to the request.',
  'emission order': 'The order the collectors run in, and so the order their attachments appear in the request.',
  collectors: 'The parts of the engine that each produce one kind of attachment (changed files, mentions, reminders…).',
  hunk: 'One contiguous run of changed lines in a diff, with a few unchanged lines around it.',
  'main-thread': 'A collector that runs for the user\'s own conversation with the agent only, not for the sub-agents it starts.',
  'all-threads': 'A collector that runs for the main thread and for every sub-agent\'s conversation alike.',
  'event (step)': 'A scenario step that is not a turn: a file written outside the agent, time passing, a setting changed.',
};

/**
 * The kinds of round a step can be (the list's chips, the step's title). A step that is not a
 * turn is `event (step)`, a page word, since `event` is also a frequency class.
 * @type {Record<Exclude<Round, 'event'>, string>}
 */
export const ROUNDS = {
  'human-turn': 'A step where the user sends a prompt: the collectors run and a request goes to the model.',
  'tool-round': 'A step where the model called tools: their results go back to the model in the next request, with what the collectors attach to it.',
  'end-of-turn': 'The model answered without calling a tool: the turn is over and no request follows until the user writes again.',
  'awaiting-tool-results': 'The model called tools whose results have not come yet: no request is sent until they do.',
  compaction: 'A step where the context was compacted: the conversation so far is replaced by a summary and what the policy keeps.',
};

/**
 * The collectors whose name is not the attachment kind they produce (the others are listed
 * under their kind), as the emission order prints them.
 * @type {Record<Exclude<CollectorId, AttachmentKind>, string>}
 */
export const COLLECTORS = {
  mentions: 'Reads what the prompt @-mentions (files, line ranges, directories, agents) and attaches it, or says why not.',
  queued_commands: 'Sends the prompts the user typed while the model was still working, in the order typed.',
  changed_files: 'Checks the files the model has seen for changes on disk and attaches a diff snippet, a deletion or a too-large note.',
  todo_reminders: 'Reminds the model of its todo list (or that it has none) after enough turns without using it.',
  ide_selection: 'Attaches the lines the user has selected in the connected editor.',
  opened_file_memory: 'Loads the memory files (CLAUDE.md) that apply to a file the user opened in the editor.',
  ide_opened_file: 'Tells the model which file the user has open in the connected editor.',
};

/**
 * What the compaction report's items are: what a context holds before a compaction and may
 * keep after it.
 * @type {Record<SurvivalKind, string>}
 */
export const SURVIVAL_KINDS = {
  'system-prompt': 'The system prompt: sent on every request, never compacted.',
  'project-memory': 'The project\'s memory files (CLAUDE.md, AGENTS.md) loaded as the session began.',
  'unconditional-rule': 'A rule file that applies to every file of the project.',
  'path-scoped-rule': 'A rule file that applies only to the files its paths match: loaded when one of them is touched.',
  'nested-memory': 'A memory file in a subdirectory, loaded when the model first touches a file under it.',
  'auto-memory': 'Notes the agent saved for itself in earlier sessions and loads at the start of each.',
  'invoked-skill': 'A skill the model loaded during the session, whose instructions it still follows.',
  'plan-file': 'The plan written in plan mode, which the agent keeps following after a compaction.',
  'read-file': 'A file the model read: a compaction may read it back in, point to it, or drop it.',
  todos: 'The model\'s todo list, carried across a compaction.',
  conversation: 'The messages of the conversation (prompts, answers, tool calls and results): in the meter, what their tokens take; in a compaction, what the summary replaces.',
};

/**
 * What became of an item in a compaction, as the compaction report's `fate` column says.
 * @type {Record<Fate, string>}
 */
export const FATES = {
  kept: 'Still in the context after the compaction, as it was.',
  restored: 'Read back in after the compaction: the file comes back as an attachment after the summary.',
  referenced: 'Not read back in full: the context after the compaction points to it, and the model can read it again.',
  reinjected: 'Sent again after the compaction by the part of the harness that owns it (memory files, the plan, the todo list).',
  reloaded: 'Loaded again from disk at the next turn, as a fresh session would load it.',
  summarised: 'Gone from the context, but told in the summary that replaced the conversation.',
  masked: 'Kept in place with its content replaced by a short placeholder, so the conversation keeps its shape.',
  dropped: 'Gone from the context, and not in the summary either.',
};

/**
 * The parts of a request the request pane names by where they come from, besides the
 * attachment kinds and the tools.
 */
export const REQUEST_PARTS = {
  system_static: 'The fixed part of the system prompt: the client\'s instructions, the same on every request of a release.',
  session_guidance: 'The part of the system prompt that depends on the session (the tools offered, the mode): it changes when they do.',
  base_instructions: 'Codex\'s system prompt, sent as the request\'s instructions.',
  user_context: 'The context the client puts before the first prompt (memory files, the date, the git status): 2.1.88 sends it in the first user message.',
  'system-reminder': 'A note the client adds inside a message, wrapped in <system-reminder> tags, for the model and not the user.',
};

/**
 * The glossary's groups, in the order the page shows them.
 * @returns {{ id: string, title: string, intro: string, entries: [string, string][] }[]}
 */
export function glossaryGroups() {
  return [
    { id: 'glossary-kinds', title: 'Attachment kinds', intro: 'What an attachment is about: the extra context the agent adds to a request besides the conversation.', entries: Object.entries(ATTACHMENT_KINDS) },
    { id: 'glossary-frequencies', title: 'Frequency classes', intro: 'How often a kind of attachment can be sent.', entries: Object.entries(FREQUENCIES) },
    { id: 'glossary-verdicts', title: 'Verdicts', intro: 'What a decision concluded about something the engine considered.', entries: Object.entries(VERDICTS) },
    { id: 'glossary-policies', title: 'Compaction policies', intro: 'The ways a full context can be made smaller.', entries: Object.entries(POLICY_DESCRIPTIONS) },
    { id: 'glossary-cache', title: 'Why the cache read what it read', intro: 'The reasons the cache model gives beside every request, in the strip, the request pane and Compare.', entries: Object.entries(CACHE_READS) },
    { id: 'glossary-profiles', title: 'Profiles', intro: 'What a scenario can be replayed as: a client release as it is, or a strategy of our own or of another agent.', entries: Object.entries(PROFILES) },
    { id: 'glossary-rounds', title: 'Rounds', intro: 'What kind of step a step was, as the list of steps marks it.', entries: Object.entries(ROUNDS) },
    { id: 'glossary-collectors', title: 'Collectors', intro: 'The collectors named otherwise than the attachment kind they produce.', entries: Object.entries(COLLECTORS) },
    { id: 'glossary-survival', title: 'What a compaction may keep', intro: 'The items the compaction report follows through a compaction.', entries: Object.entries(SURVIVAL_KINDS) },
    { id: 'glossary-fates', title: 'Fates', intro: 'What became of an item of the context in a compaction, as the report says.', entries: Object.entries(FATES) },
    { id: 'glossary-request', title: 'Parts of a request', intro: 'Where a block of a request comes from, as the request pane names it.', entries: Object.entries(REQUEST_PARTS) },
    { id: 'glossary-page', title: 'Words of this page', intro: 'The playground\'s own words for what it shows.', entries: Object.entries(PAGE_WORDS) },
  ];
}

/**
 * A term as the page prints it: `event (step)` is printed `event`.
 * @param {string} term
 */
const printed = (term) => term.replace(/ \(.*\)$/, '');

/** The id of a term's entry in the glossary: a word explained in two groups has two. */
const entryId = (/** @type {string} */ groupId, /** @type {string} */ term) => `${groupId}-${term.replace(/\W+$/, '').replace(/[^\w.-]+/g, '-')}`;

/**
 * Every meaning a printed word has, in the glossary's order: `throttled` is a frequency class
 * and a verdict, `event` a frequency class and a kind of step.
 * @type {Map<string, { group: string, term: string, meaning: string, id: string }[]>}
 */
const MEANINGS = new Map();
for (const group of glossaryGroups()) {
  for (const [term, meaning] of group.entries) {
    const word = printed(term);
    MEANINGS.set(word, [...(MEANINGS.get(word) ?? []), { group: group.title, term, meaning, id: entryId(group.id, term) }]);
  }
}

/**
 * What a word the page prints means, and where the glossary explains it; none for a word it
 * does not explain.
 * @param {string} word
 */
export function meaningsOf(word) {
  return MEANINGS.get(word) ?? [];
}

/**
 * A term's meanings as one tooltip, for where a link cannot go (a chip inside a list's option):
 * `event (step): …; event: …`. '' for a word the glossary does not explain.
 * @param {string} word
 */
export function termTooltip(word) {
  return meaningsOf(word).map(({ term, meaning }) => `${term}: ${meaning}`).join('\n');
}

/**
 * Words that are also plain English ("kept", "file", "written", "recommended") are terms where
 * a view prints them alone, as a chip, a column's header or a name; a word of a shape English
 * does not have (`edited_text_file`, `already-in-context`, `claude-code.full`, "prefix kept")
 * and the page's jargon below are terms wherever they stand.
 */
const JARGON = ['uncached', 'hunk', 'collectors'];

/** A term found in any case (a sentence starts "Prompt cache…") as the glossary spells it. */
const SPELLINGS = new Map([...MEANINGS.keys()].map((word) => [word.toLowerCase(), word]));

/**
 * Terms inside a longer text, a phrase broken across lines included; a path's or an
 * identifier's piece (`src/date_change.ts`) is none.
 */
const WITHIN = new RegExp(`(?<![\\w./@-])(?:${[...MEANINGS.keys()]
  .filter((word) => /[\s_.-]/.test(word) || JARGON.includes(word))
  .sort((a, b) => b.length - a.length)
  .map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&').replaceAll(' ', '\\s+'))
  .join('|')})(?![\\w/-]|\\.\\w)`, 'gi');

/**
 * Where a text names a glossary term: the whole text when it is one, else each term of a shape
 * no plain word has.
 * @param {string} text
 * @returns {{ index: number, length: number, word: string }[]} where it is in `text`, and the
 *   word as the glossary spells it
 */
export function findTerms(text) {
  const alone = text.trim();
  if (MEANINGS.has(alone)) return [{ index: text.indexOf(alone), length: alone.length, word: alone }];
  return [...text.matchAll(WITHIN)].flatMap((match) => {
    const word = SPELLINGS.get(match[0].toLowerCase().replace(/\s+/g, ' '));
    return word === undefined ? [] : [{ index: match.index, length: match[0].length, word }];
  });
}

/**
 * Fills `container` with the glossary: a heading and a definition list per group.
 * @param {HTMLElement} container
 */
export function renderGlossary(container) {
  container.replaceChildren(...glossaryGroups().map((group) => h('div', { id: group.id, class: 'glossary-group' },
    h('h3', { id: `${group.id}-title` }, group.title),
    h('p', { class: 'note' }, group.intro),
    h('dl', { class: 'glossary-list' }, ...group.entries.flatMap(([term, meaning]) => [
      h('dt', { id: entryId(group.id, term), tabindex: '-1' }, h('code', {}, term)), h('dd', {}, meaning)])))));
}
