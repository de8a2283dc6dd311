// Claude Code's @-mention extraction with its regular expressions verbatim
// (spec/claude-code.md §1.1, `utils/attachments.ts:2757-2852`). This is the differential
// reference for the Rust scanner (tests/gen/mentions-differential.mjs) and the benchmark
// baseline: keep it byte-for-byte faithful, never "fix" it.

/** Insertion-ordered de-duplication, as `uniq` in `utils/array.ts`. */
function uniq(items) {
  return [...new Set(items)];
}

/** `extractAtMentionedFiles`: quoted captures first, then regular ones (§1.2). */
export function extractAtMentionedFiles(content) {
  const quotedAtMentionRegex = /(^|\s)@"([^"]+)"/g;
  const regularAtMentionRegex = /(^|\s)@([^\s]+)\b/g;
  const quotedMatches = [];
  const regularMatches = [];
  let match;
  while ((match = quotedAtMentionRegex.exec(content)) !== null) {
    if (match[2] && !match[2].endsWith(' (agent)')) {
      quotedMatches.push(match[2]);
    }
  }
  const regularMatchArray = content.match(regularAtMentionRegex) || [];
  regularMatchArray.forEach((m) => {
    const filename = m.slice(m.indexOf('@') + 1);
    if (!filename.startsWith('"')) {
      regularMatches.push(filename);
    }
  });
  return uniq([...quotedMatches, ...regularMatches]);
}

/** `extractMcpResourceMentions` (§1.2). */
export function extractMcpResourceMentions(content) {
  const atMentionRegex = /(^|\s)@([^\s]+:[^\s]+)\b/g;
  const matches = content.match(atMentionRegex) || [];
  return uniq(matches.map((m) => m.slice(m.indexOf('@') + 1)));
}

/** `extractAgentMentions`: quoted captures, then unquoted ones (§1.2). */
export function extractAgentMentions(content) {
  const results = [];
  const quotedAgentRegex = /(^|\s)@"([\w:.@-]+) \(agent\)"/g;
  let match;
  while ((match = quotedAgentRegex.exec(content)) !== null) {
    if (match[2]) {
      results.push(match[2]);
    }
  }
  const unquotedAgentRegex = /(^|\s)@(agent-[\w:.@-]+)/g;
  const unquotedMatches = content.match(unquotedAgentRegex) || [];
  for (const m of unquotedMatches) {
    results.push(m.slice(m.indexOf('@') + 1));
  }
  return uniq(results);
}

/** `parseAtMentionedFileLines` (§1.4). */
export function parseAtMentionedFileLines(mention) {
  const match = mention.match(/^([^#]+)(?:#L(\d+)(?:-(\d+))?)?(?:#[^#]*)?$/);
  if (!match) {
    return { filename: mention };
  }
  const [, filename, lineStartStr, lineEndStr] = match;
  const lineStart = lineStartStr ? parseInt(lineStartStr, 10) : undefined;
  const lineEnd = lineEndStr ? parseInt(lineEndStr, 10) : lineStart;
  return { filename: filename ?? mention, lineStart, lineEnd };
}

/**
 * Everything the original extracts from one text.
 * @param {string} text
 * @returns {{files: string[], mcp: string[], agents: string[],
 *            parsed: {filename: string, lineStart?: number, lineEnd?: number}[]}}
 */
export function extractWithOriginalRegexes(text) {
  const files = extractAtMentionedFiles(text);
  const parsed = files.map((file) => {
    const { filename, lineStart, lineEnd } = parseAtMentionedFileLines(file);
    const entry = { filename };
    if (lineStart !== undefined) entry.lineStart = lineStart;
    if (lineEnd !== undefined) entry.lineEnd = lineEnd;
    return entry;
  });
  return {
    files,
    mcp: extractMcpResourceMentions(text),
    agents: extractAgentMentions(text),
    parsed,
  };
}
