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
