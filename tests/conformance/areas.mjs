// The counts both runners print and report, overall and per area: each request's items are counted under the
// areas they belong to, and an area's request is exact when all of its items there matched.

/**
 * Totals per area over `sessions`, whose requests carry `areas: { [area]: { items, matched } }`.
 * @param {{ requests: { areas: Record<string, { items: number, matched: number }> }[] }[]} sessions
 * @param {string[]} names  the areas, in the order to report them
 */
export function areaTotals(sessions, names) {
  const totals = Object.fromEntries(names.map((a) => [a, { sessions: 0, requests: 0, requestsMatched: 0, items: 0, itemsMatched: 0 }]));
  for (const session of sessions) {
    const seen = new Set();
    for (const r of session.requests) {
      for (const [area, counts] of Object.entries(r.areas)) {
        const t = totals[area];
        if (!t) throw new Error(`area ${area} is not one of ${names.join(', ')}`);
        t.requests += 1;
        if (counts.matched === counts.items) t.requestsMatched += 1;
        t.items += counts.items;
        t.itemsMatched += counts.matched;
        seen.add(area);
      }
    }
    for (const area of seen) totals[area].sessions += 1;
  }
  return totals;
}

/**
 * The counts over every compared request: how many were exact, how many differed only by
 * known differences, how many items there were and matched, how many had an unlisted one.
 * @param {{ matched: boolean, knownOnly: boolean, items: number, itemsMatched: number, unknown: string[] }[]} requests
 */
export function requestTotals(requests) {
  return {
    requests: requests.length,
    requestsMatched: requests.filter((r) => r.matched).length,
    requestsWithKnownDifferencesOnly: requests.filter((r) => r.knownOnly).length,
    items: requests.reduce((sum, r) => sum + r.items, 0),
    itemsMatched: requests.reduce((sum, r) => sum + r.itemsMatched, 0),
    unknownMismatches: requests.filter((r) => r.unknown.length > 0).length,
  };
}

/** Prints the areas that had items, one line each. */
export function printAreas(totals) {
  const width = Math.max(4, ...Object.keys(totals).map((a) => a.length)) + 1;
  console.log(`\n${'area'.padEnd(width)} sessions  requests (matched)   items (matched)`);
  for (const [area, t] of Object.entries(totals)) {
    if (t.items === 0) continue;
    console.log(`${area.padEnd(width)} ${String(t.sessions).padStart(8)}  ${String(t.requests).padStart(8)} (${String(t.requestsMatched).padStart(7)})  ${String(t.items).padStart(6)} (${String(t.itemsMatched).padStart(7)})`);
  }
}

// Claude Code's areas the report counts items in. An item belongs to the areas its kind names; every item
// of a session with deny rules also counts under `deny`, and every item of a request that
// follows a compaction under `compaction`.
export const CLAUDE_AREAS = ['mentions', 'ranges', 'directories', 'deny', 'nested memory', 'eager memory', 'changed files', 'tools', 'todos', 'plan mode', 'compaction', 'other'];

/** Areas a Claude Code item counts in (see CLAUDE_AREAS), besides the session's and the request's. */
export function claudeItemAreas(item, prompt) {
  switch (item.kind) {
    case 'mention':
      return [prompt.includes(`${item.path.replace(/^\/project\//, '')}#L`) || item.input ? 'ranges' : 'mentions'];
    case 'directory':
      return ['directories'];
    case 'memory':
      return ['nested memory'];
    case 'user-context':
      return ['eager memory'];
    case 'changed-file':
      return ['changed files'];
    case 'tool-result':
      return item.tool === 'TodoWrite' ? ['tools', 'todos'] : item.tool === 'ExitPlanMode' ? ['tools', 'plan mode'] : ['tools'];
    case 'todo-reminder':
      return ['todos'];
    case 'plan-mode':
      return ['plan mode'];
    case 'plan-reference':
      return ['plan mode', 'compaction'];
    case 'compact-summary':
    case 'restored':
    case 'file-reference':
    case 'local-command':
      return ['compaction'];
    default:
      return ['other'];
  }
}

// Codex's areas, by item kind; every item of a request that carries a
// compaction summary also counts under `compaction`.
const AREA_OF_KIND = {
  permissions: 'permissions',
  environment: 'environment',
  'agents-md': 'AGENTS.md',
  skills: 'skills',
  model_switch: 'settings changes',
  personality_spec: 'settings changes',
  collaboration_mode: 'settings changes',
  realtime_conversation: 'settings changes',
  'developer-instructions': 'settings changes',
  'tool-output': 'exec_command output',
  summary: 'compaction',
  user: 'prompts',
  prefix: 'prefix',
};
export const CODEX_AREAS = [...new Set(Object.values(AREA_OF_KIND))];

/** The area a Codex item counts in, besides `compaction` after a summary. */
export function codexItemArea(item) {
  return AREA_OF_KIND[item.kind] ?? 'prompts';
}

