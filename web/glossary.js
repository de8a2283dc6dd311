// The glossary: what the words the engine answers with mean — attachment kinds, frequency
// classes, verdicts and compaction policies — each in a short paragraph of our own. The
// records are typed by the engine's own unions, so the type check fails when the engine adds
// a word this page does not explain.
import { h } from './dom.js';
import { POLICY_DESCRIPTIONS } from './views/compaction/policies.js';

/** @typedef {import('../pkg/context_assembly.js').AttachmentKind} AttachmentKind */
/** @typedef {import('../pkg/context_assembly.js').Frequency} Frequency */
/** @typedef {import('../pkg/context_assembly.js').Verdict} Verdict */

/** @type {Record<AttachmentKind, string>} */
export const ATTACHMENT_KINDS = {
  agent_listing_delta: 'The agent types the model may call, sent when the list changes: only the ones added or removed since the last listing.',
  agent_mention: 'The prompt named an agent with @agent-…: a note asks the model to hand the work to that agent.',
  already_read_file: 'A mentioned file the model has already read and that has not changed since; the original sends nothing for it.',
  auto_mode: 'Tells the model it now works in auto mode, where it proceeds without asking for approval.',
  auto_mode_exit: 'Tells the model auto mode is over and approvals are back.',
  budget_usd: 'How much of the spending limit the session has used, so the model can pace itself.',
  changed_file_too_large: 'A watched file changed but is too large to diff: the model is told it changed, without the change.',
  compact_file_reference: 'After a compaction, a pointer to a file that was in context but not read back in full: the model can read it again if needed.',
  compaction_reminder: 'A reminder that the context is filling up and will be compacted.',
  critical_system_reminder: 'A host-set instruction repeated on every request so that it is never lost.',
  date_change: 'The local date changed during the session: the model is told the new date.',
  deferred_tools_delta: 'Names of tools that are loaded only when asked for, sent when that list changes.',
  deleted_file: 'A watched file was deleted: the model is told it is gone.',
  diagnostics: 'New errors and warnings from the editor or language server for the files the model touched.',
  directory: 'The prompt mentioned a directory: its listing is attached instead of file contents.',
  dynamic_skill: 'A skill found in a directory the model just worked in, announced when it is found.',
  edited_image_file: 'A watched image file changed; it renders to nothing for the model.',
  edited_text_file: 'A watched text file changed outside the agent: the model gets a short snippet of the change.',
  emptied_file: 'A watched file was emptied: the model is told so, since a diff with only deletions shows nothing.',
  file: 'The contents of a file the prompt mentioned with @, read as the Read tool would.',
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
  relevant_memories: 'Notes from the auto-memory directory that look relevant to the prompt, found in the background.',
  selected_lines_in_ide: 'The lines the user has selected in the editor, with their text.',
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
  ];
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
      h('dt', { id: `term-${term}` }, h('code', {}, term)), h('dd', {}, meaning)])))));
}
