// What each compaction policy does, in a sentence or two of our own: the engine names its
// policies (`compactionPolicies`) but does not describe them. A browser test checks that
// every id the engine lists has a description here.

/** @typedef {import('../../../pkg/context_assembly.js').PolicyId} PolicyId */

/** @type {Record<PolicyId, string>} */
export const POLICY_DESCRIPTIONS = {
  'claude-code.full': 'Replaces the whole conversation with one summary, then reads the most recent files back in and attaches again the skills, plan and other context the work still needs.',
  'claude-code.session_memory': 'Uses the notes the session kept as it went as the summary instead of asking for a new one, and keeps the latest messages word for word.',
  'claude-code.partial': 'Summarises only one side of a record you pick (the messages up to it, or from it on) and keeps the other side as it was.',
  'claude-code.microcompact': 'No summary: the output of older tool calls is cleared to a short placeholder, the most recent calls keep theirs.',
  'claude-code.tool_result_budget': 'When the tool results of one message are too large together, the largest are set aside and replaced by a short preview that says where the full output went.',
  'opencode.prune': 'No summary: old tool outputs outside a protected recent stretch become a placeholder, but only when that frees enough tokens to be worth it.',
  'swe.observation_mask': 'No summary: only the last few tool observations stay in full; every older one is masked to a one-line placeholder.',
  'anthropic.clear_tool_uses': 'Emulates the provider\'s context editing: past a trigger size, the oldest tool results are cleared and the latest few kept.',
  'anthropic.clear_thinking': 'Emulates the provider\'s thinking clearing: only the most recent turns that thought keep their thinking; their text and tool calls stay.',
  'cline.truncate': 'No summary: keeps the first exchange and drops half (or three quarters) of the rest, oldest first.',
  'codex.local': 'Codex\'s own compaction: a summary plus the most recent user messages, cut to a budget; files read before are not read back.',
  'codex.remote': 'Codex hands the history to the provider\'s compaction endpoint and continues from what it returns; here the engine stands in for the provider.',
  'opencode.summary': 'A summary of everything but the last two user turns, which stay word for word within a small budget; a previous summary is updated rather than written again.',
  'cline.file_tracker': 'No summary and no change: lists the files someone else changed since the agent last read or wrote them, as a bare path list, so it knows to read them again.',
  'opencode.read_guard': 'No summary and no change: says, for each file, whether a write would be refused now because the file was never read or changed after the last read.',
  'aider.budgets': 'Files are read again every turn instead of kept in the history; once the history outgrows its budget, its older part becomes a summary and the newest messages stay.',
  'continue.counting': 'Counts as Continue does (its tokenizer times a per-model factor) and drops the oldest messages until the rest fits the window.',
  'cline.condense': 'Cline\'s summary when the context gets close to full: the classic one replaces everything, the newer one keeps the most recent messages as they were.',
  'openai.compaction': 'The provider compacts on its side past a size you set; nothing changes here, the report says what would be sent and when the provider would step in.',
};

/**
 * The description of a policy; an id the engine added since is named as undescribed.
 * @param {string} id
 */
export function describePolicy(id) {
  return Object.hasOwn(POLICY_DESCRIPTIONS, id) ? POLICY_DESCRIPTIONS[/** @type {PolicyId} */ (id)] : 'No description yet.';
}
