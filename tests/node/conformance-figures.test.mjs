// The conformance figures are generated from the labs' reports (tests/conformance/figures.mjs):
// a report becomes a headline row and a table by area, placed between docs/conformance.md's
// markers, and a file without them is refused with the markers it needs.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { BEGIN, END, figures, headline, replaceBlock } from '../conformance/figures.mjs';

const report = {
  client: { name: 'codex', version: '0.171.0', profile: 'codex' },
  totals: { sessions: 2, requests: 5, requestsMatched: 4, requestsWithKnownDifferencesOnly: 1, items: 12, itemsMatched: 11, unknownMismatches: 0 },
  areas: { permissions: { sessions: 2, requests: 3, requestsMatched: 3, items: 3, itemsMatched: 3 }, skills: { sessions: 0, requests: 0, requestsMatched: 0, items: 0, itemsMatched: 0 } },
  sessions: [
    { name: 'lab/a', requests: [{ matched: true }, { matched: true }] },
    { name: 'generated/1', requests: [{ matched: true }, { matched: false }, { matched: true }] },
  ],
};

test('a report becomes a headline row counted from its sessions', () => {
  assert.deepEqual(headline(report), {
    oracle: 'Codex CLI 0.171.0',
    profile: 'codex',
    sessions: '2 (1 generated)',
    sessionsExact: '1',
    requests: '4 of 5',
    knownOnly: '1',
    unknown: '0',
    items: '11 of 12',
  });
});

test('both labs\' names for seeded sessions count as generated', () => {
  const codexNames = { ...report, sessions: report.sessions.map((s) => ({ ...s, name: s.name.replace('generated/', 'gen/') })) };
  assert.equal(headline(codexNames).sessions, '2 (1 generated)');
});

test('the figures list areas with items only', () => {
  const text = figures([{ file: 'r.json', report }]);
  assert.match(text, /\| Codex CLI 0\.171\.0 \| `codex` \| 2 \(1 generated\) \| 1 \| 4 of 5 \| 1 \| 0 \| 11 of 12 \|/);
  assert.match(text, /\| permissions \| 2 \| 3 \(3\) \| 3 \(3\) \|/);
  assert.doesNotMatch(text, /\| skills \|/);
});

test('the block is replaced between the markers, and a file without them is refused', () => {
  const text = `before\n${BEGIN}\nold\n${END}\nafter\n`;
  assert.equal(replaceBlock(text, 'new\n', 'f.md'), `before\n${BEGIN}\nnew\n${END}\nafter\n`);
  assert.throws(() => replaceBlock('no markers', 'x', 'f.md'), /f\.md: the figures go between a line/);
});

test('docs/conformance.md holds the markers, and the README quotes no lab totals', () => {
  const docs = readFileSync(new URL('../../docs/conformance.md', import.meta.url), 'utf8');
  assert.ok(docs.includes(BEGIN) && docs.indexOf(END) > docs.indexOf(BEGIN));
  const readme = readFileSync(new URL('../../README.md', import.meta.url), 'utf8');
  assert.doesNotMatch(readme, /requests exact/i);
});
