// What the references the playground shows stand for — Q… (a quirk of Claude Code), X… (a
// surprise in Codex), and sections (§) of the three specs — each summarised in a sentence or
// two of our own, because the spec files are not served with the page.

/**
 * Finds references in text: a spec file with an optional section (`spec/claude-code.md §5.2`,
 * `codex.md §6.1–6.2`), a bare section (`§9.3`), or a quirk id (`Q33`, `X19`).
 */
export const REFERENCE_PATTERN = /(?:spec\/)?(?:claude-code|codex|strategies)\.md(?: §\d+(?:\.\d+)*(?:[–-]\d+(?:\.\d+)*)?)?|§\d+(?:\.\d+)*|\b[QX]\d{1,2}\b/g;

/** Quirks of Claude Code as the engine reproduces them (the claude-code profile) and fixes them (recommended). */
const QUIRKS = {
  Q1: 'A bare @mention stops at its last plain ASCII letter or digit, so a trailing accented letter or punctuation is cut off, and a mention of only non-ASCII text is not a mention at all.',
  Q2: 'Repeated mentions are merged by their exact spelling, so two spellings of one file attach it twice.',
  Q3: 'Quoted @"…" mentions are handled before bare ones, whatever their order in the prompt.',
  Q4: 'An agent mention keeps punctuation that follows it, so "@agent-x." looks for an agent named "x." and finds none.',
  Q5: 'One @token can be read as a file and as an MCP resource or agent at once; the failed readings fail silently.',
  Q6: 'There is no path:line form: "@x.ts:12" names a file literally called "x.ts:12".',
  Q7: 'The #L line-range syntax is strict: odd spellings quietly fall back to the whole file, and "#L10-" means line 10 only.',
  Q8: 'A range starting at line 0 shows the whole file numbered from 0.',
  Q9: 'A reversed range such as #L20-10 reads nothing and produces a confusing warning.',
  Q10: 'A ~user/ path is not expanded: it is taken relative to the working directory.',
  Q11: 'A deny rule on the whole Read tool is not treated as a path rule, so mentions still attach files.',
  Q12: 'Deny patterns without a leading slash match at any depth, not just at the project root.',
  Q13: 'Relative deny rules are resolved against the current directory, which can differ from where the session started.',
  Q14: 'The deny check of attachments looks at the path as written, not at where a symbolic link points.',
  Q15: 'Memory files (CLAUDE.md, rules, relevant memories) are loaded without checking deny rules.',
  Q16: 'A final newline counts as one more, empty, line.',
  Q17: 'An empty file gets the warning for reading past the end instead of one saying it is empty.',
  Q18: 'A mentioned file over the size limit attaches nothing at all, even when only a few lines were asked for.',
  Q19: 'A small mentioned PDF loses its content: only a one-line note reaches the model.',
  Q20: 'Mentioning an unchanged file the model already read sends nothing, whatever range was asked for.',
  Q21: 'The note about a ranged mention does not say which range was read.',
  Q22: 'The truncation note claims the first lines were shown even when reading started further down.',
  Q23: 'A reminder is nested inside the reminder that wraps every attached text file.',
  Q24: 'A directory listing does not mark which entries are directories and is not sorted.',
  Q25: 'A full read is recorded as a read from line 1, which makes it look like a partial read later on.',
  Q26: 'A fallback meant to ignore harmless timestamp changes never applies to files that were read.',
  Q27: 'Scanning for changes reorders the recently-used list on every pass.',
  Q28: 'Reading a file too large to cache also forgets the earlier entry for it.',
  Q29: 'File-state keys are only lightly normalised, so one file can have several entries.',
  Q30: 'A resumed session watches files it did not watch before.',
  Q31: 'Files the agent only read (never edited) are not watched: a change made outside the agent goes unreported.',
  Q32: 'After reporting one change, a file stops being watched.',
  Q33: 'The change snippet numbers lines as in the old file, so after lines are inserted above, the numbers point to the wrong place.',
  Q34: 'The count of lines cut from a long snippet is one too high.',
  Q35: 'A file that was emptied produces no note at all.',
  Q36: 'Deleted lines are left out of the change snippet, so a deletion shows only its unchanged surroundings.',
  Q37: 'A change to the final newline alone is reported as a change with nothing visible.',
  Q38: 'A watched file that is deleted is dropped from the watch list without telling the model.',
  Q39: 'A changed file too large to diff is skipped silently, and again on every later pass.',
  Q40: 'Changes are detected from the modification time alone, so a replacement with the same or an older time is missed.',
  Q41: 'A cap described in bytes actually counts UTF-16 units.',
  Q42: 'Changed images are never reported: the kind exists but renders to nothing.',
  Q43: 'Counting a token per four characters badly undercounts Chinese, Japanese and Korean text.',
  Q44: 'Every image or document is counted as the same flat number of tokens, whatever its size.',
  Q45: 'One estimate ignores messages stored as plain strings.',
  Q46: 'The budget for restoring files after a compaction measures the stored record, not the text the model sees.',
  Q47: 'Three parts of the client count turns in three different ways.',
  Q48: 'The plan-mode reminder can fire in the middle of a turn.',
  Q49: 'The to-do reminder is formatted oddly (extra blank lines, list in brackets).',
  Q50: 'Attachments produced during a tool round are folded into the last tool result, as if the tool had printed them.',
  Q51: 'The user-context block carries stray indentation from its template.',
  Q52: 'The line numbers of an editor selection are probably 0-based but used as if 1-based.',
  Q53: 'The walk for nested memory files compares paths as strings, so /a/bc counts as inside /a/b.',
  Q54: 'Only reading a file loads the memory files of its directory; editing or writing it does not.',
  Q55: 'Any earlier read of a nested memory file, even of a few lines, keeps it from being loaded.',
  Q56: 'Nested and up-front memory files are rendered differently.',
  Q57: 'The breaker that stops repeated failed auto-compactions is reset on every human turn.',
  Q58: 'Context re-attached after a compaction comes before the summary instead of after it.',
  Q59: 'Memory files can take the slots meant for restoring recently used files after a compaction.',
  Q60: 'Files are restored after a compaction by modification time, not by when they were last used.',
  Q61: 'A file that fails to restore leaves its slot empty instead of trying the next one.',
  Q62: 'The compaction reminder is repeated on every request instead of once per threshold crossed.',
  X1: 'After compacting, Codex does not read back the files it was editing.',
  X2: 'Codex does not track whether what the model saw of a file is out of date, and never removes repeated content.',
  X3: 'The compaction prompt and the resulting summary travel as user messages, and the compaction request offers no tools.',
  X4: 'The summary is taken to be the last assistant message, which is not always the compaction answer.',
  X5: 'The user messages kept after compaction are picked newest first until a fixed token budget runs out.',
  X6: 'Local compaction loses images and the boundaries between parts of user messages.',
  X7: 'An earlier summary is kept as an ordinary message, not carried forward as a summary.',
  X8: 'Two different percentages decide compaction, and a cap applies in one place only.',
  X9: 'Codex never compacts at the end of a turn, only when the next request would not fit.',
  X10: 'Where the initial context goes after compaction depends on when the compaction ran.',
  X11: 'A context-window error during an ordinary request ends the turn instead of compacting.',
  X12: 'If the provider\'s compaction fails, nothing falls back to compacting locally.',
  X13: 'Before a remote compaction, tool outputs are rewritten to a placeholder rather than removed.',
  X14: 'When even the compaction request is too long, the oldest items are dropped one at a time until it fits.',
  X15: 'Tool output is cut twice, with a marker in the text and a count that is only an estimate.',
  X16: 'Token estimates count the JSON form of items, quotes and keys included.',
  X17: 'The reported token total can drop to zero.',
  X18: 'The "context left" percentage is computed against a fixed baseline, not the real window.',
  X19: 'AGENTS.md is read once at the start and never refreshed, and is labelled with the working directory.',
  X20: 'Only a few settings are compared between turns; other changes reach the model only on a new session.',
  X21: 'Switching to a collaboration mode without instructions sends nothing, so the old instructions stay.',
  X22: 'Switching models keeps the old system prompt and adds the new model\'s instructions as a developer message.',
  X23: 'Developer and context messages are made of several parts rather than one text.',
  X24: 'An @file mention is sent as plain text: nothing is attached.',
  X25: 'A user message over the limit is refused, not shortened.',
  X26: 'A forked session starts from the parent\'s baseline of what the model was told.',
  X27: 'Behaviour changes quickly between Codex versions.',
  X28: 'One Codex version reverses the order of the permission and developer instructions.',
};

/** The three specs and their sections, as the playground cites them. */
const SECTIONS = {
  'claude-code.md': 'Our written description of how Claude Code builds each request: mentions, permissions, file reads, change detection, token counts, attachments, memory files and compaction.',
  'claude-code.md §1': 'How Claude Code finds @mentions in a prompt: files with optional line ranges, quoted paths, MCP resources and agents.',
  'claude-code.md §2': 'How paths are resolved and how deny rules keep files out of the context.',
  'claude-code.md §3': 'How a file is read for the model: line numbers, limits, and the notes added when it is cut.',
  'claude-code.md §4': 'The file-state cache: what the agent remembers about every file it has seen.',
  'claude-code.md §5': 'How a file changed outside the agent is noticed and turned into a short change snippet.',
  'claude-code.md §5.2': 'The change snippet itself: a few lines of context around each change, deleted lines hidden, numbered from the old file.',
  'claude-code.md §6': 'How Claude Code estimates tokens without a tokenizer.',
  'claude-code.md §6.1': 'The rough estimate: a token per four UTF-16 characters, per two for JSON.',
  'claude-code.md §6.3': 'The context size the thresholds compare: the usage the last response reported, plus an estimate of what was recorded after it.',
  'claude-code.md §7': 'Attachments: the reminders and context added to a request besides the conversation, which of them run, in what order, and how often.',
  'claude-code.md §7.2': 'The fixed order in which attachment collectors run and emit.',
  'claude-code.md §8': 'Memory files found next to the files the agent works on (CLAUDE.md and rules in subdirectories), loaded as the agent reaches them.',
  'claude-code.md §8.1': 'What loads nested memory: reading a file in a directory that has one.',
  'claude-code.md §9': 'Compaction: when it fires, how the summary is made, and what is brought back afterwards.',
  'claude-code.md §9.1': 'The context window, the output reserve and the threshold at which auto-compaction fires.',
  'claude-code.md §9.3': 'Full compaction step by step: the summary request, the summary message, and what is cleared and restored.',
  'claude-code.md §9.4': 'Which recently used files are read back in after a compaction, and how many.',
  'claude-code.md §10': 'Environment variables and switches that change Claude Code\'s behaviour.',
  'codex.md': 'Our written description of how Codex builds each request: the initial context, the settings it diffs between turns, truncation, compaction and the @ file search.',
  'codex.md §1': 'The context Codex sends at the start of a session: instructions, environment and AGENTS.md.',
  'codex.md §2': 'How Codex compares settings between turns and sends only what changed.',
  'codex.md §3': 'How Codex cuts long tool output and estimates tokens.',
  'codex.md §3.5': 'Codex\'s estimate: a token per four bytes of UTF-8, rounded up.',
  'codex.md §4': 'Codex\'s compaction: the summary, the user messages it keeps, and the remote variant.',
  'codex.md §4.6': 'Remote compaction: the history is sent to the provider\'s endpoint, which returns a compacted one; some message kinds do not survive it.',
  'codex.md §5': 'How Codex keeps and trims the conversation history.',
  'codex.md §6': 'The @ file search of Codex\'s terminal interface.',
  'codex.md §6.1': 'When the @ popup opens: the token under the caret must start with @.',
  'codex.md §6.2': 'What accepting a match inserts: the path, quoted if it has spaces, and a space.',
  'codex.md §6.6': 'The fuzzy matcher that ranks paths for the @ search.',
  'codex.md §7': 'How Codex finds AGENTS.md files from the project root down to the working directory.',
  'codex.md §8': 'What Codex knows (and does not) about files changing under it.',
  'codex.md §9': 'The list of surprising Codex behaviours, X1 onwards.',
  'strategies.md': 'Our notes on compaction strategies of other agents (Cline, OpenCode, SWE-agent, Anthropic\'s context editing, Aider, Continue) that the engine offers as policies.',
  'strategies.md §2': 'Cline\'s truncation: keep the first exchange and drop half or three quarters of the rest.',
  'strategies.md §2.5': 'The notice left in place of what truncation removed.',
  'strategies.md §2.6': 'Keeping tool calls and their results together when messages are dropped.',
  'strategies.md §4': 'Cline\'s file tracker: files changed outside since the agent last saw them are listed by path, with no diff.',
  'strategies.md §5': 'Cline\'s condense: a model-written summary when the context gets close to full, in the classic extension and in the newer SDK.',
  'strategies.md §6': 'OpenCode\'s pruning: old tool outputs become placeholders.',
  'strategies.md §7': 'OpenCode\'s summary: the older conversation is summarised, the last user turns stay word for word within a small budget.',
  'strategies.md §8': 'OpenCode\'s read guard: a file must have been read, and not changed since, before it may be written.',
  'strategies.md §9': 'Observation masking: all but the last few tool outputs are hidden.',
  'strategies.md §10': 'Anthropic\'s context editing: clearing old tool results past a trigger.',
  'strategies.md §11': 'OpenAI\'s server-side compaction: past a threshold the provider replaces the history with an opaque item.',
  'strategies.md §12': 'Aider\'s budgets: a repo map and a chat history each within a share of the window; files are read again every turn.',
  'strategies.md §13': 'Continue\'s token counting: its tokenizer times a per-model factor, and the oldest history dropped first.',
  'strategies.md §14': 'How other tools expand an @-mention.',
  'strategies.md §16': 'How close each token estimate comes to a real tokenizer, and the calibrated estimate the engine uses by default.',
};

/**
 * The spec a bare section in an engine reason belongs to: the engine cites sections of the spec
 * of the code that wrote the reason (Claude Code's summary and restore, Codex's remote
 * compaction, Cline's truncation), so each bare section it uses is listed here by hand.
 */
const BARE_SECTIONS = {
  '§2.5': 'strategies.md', '§2.6': 'strategies.md', '§4.6': 'codex.md', '§6.1': 'codex.md',
  '§6.2': 'codex.md', '§6.3': 'claude-code.md', '§6.6': 'codex.md', '§8': 'claude-code.md', '§8.1': 'claude-code.md',
  '§9.3': 'claude-code.md', '§9.4': 'claude-code.md',
};

/**
 * The summary of a reference as found by `REFERENCE_PATTERN`, or `undefined` when we have
 * none; a subsection without its own summary is summarised by its section, a range by its start.
 * @param {string} reference
 * @returns {string | undefined}
 */
export function summaryOf(reference) {
  if (Object.hasOwn(QUIRKS, reference)) return QUIRKS[/** @type {keyof typeof QUIRKS} */ (reference)];
  const bare = Object.hasOwn(BARE_SECTIONS, reference) ? BARE_SECTIONS[/** @type {keyof typeof BARE_SECTIONS} */ (reference)] : undefined;
  let key = (bare === undefined ? reference : `${bare} ${reference}`).replace(/^spec\//, '').replace(/(§[\d.]+)[–-][\d.]+$/, '$1');
  for (;;) {
    if (Object.hasOwn(SECTIONS, key)) return SECTIONS[/** @type {keyof typeof SECTIONS} */ (key)];
    const parent = key.replace(/(?:\.\d+| §\d+)$/, '');
    if (parent === key) return undefined;
    key = parent;
  }
}
