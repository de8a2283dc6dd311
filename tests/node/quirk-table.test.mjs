// The README's "Every quirk: what `recommended` does" table (issue 30): one row per quirk of
// spec/claude-code.md §0.3, Q1 to Q62 in order, each with recommended's choice and a reason,
// and every switch a row names in backticks (`section.switchName`) one a scenario can set:
// listed in crate/src/scenario/switches.rs, read here as text.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');
const switchesRs = readFileSync(new URL('crate/src/scenario/switches.rs', root), 'utf8');

const HEADING = '### Every quirk: what `recommended` does';
const QUIRKS = 62;

// The section a scenario names, and the rules type whose `switches!` block lists its names
// (the sections of `apply_switches`).
const SECTION_TYPES = {
  mentions: 'MentionRules',
  changeSnippets: 'SnippetRules',
  paths: 'ExpandRules',
  deny: 'DenyRulesSwitches',
  read: 'ReadRules',
  fileState: 'FileStateRules',
  memory: 'MemoryRules',
  fileContext: 'FileContextRules',
  attachments: 'AttachmentRules',
  compaction: 'CompactionRules',
  codex: 'CodexRules',
  codexContext: 'ContextRules',
};

/** The rows of the first table after `heading`, each a list of trimmed cells. */
function tableAfter(text, heading) {
  const lines = text.split('\n');
  const start = lines.indexOf(heading);
  assert.notEqual(start, -1, `README.md has no heading "${heading}"`);
  let i = start + 1;
  while (i < lines.length && !lines[i].startsWith('|')) {
    assert.ok(!lines[i].startsWith('#'), `no table between "${heading}" and the next heading`);
    i += 1;
  }
  const rows = [];
  for (; i < lines.length && lines[i].startsWith('|'); i += 1) {
    rows.push(lines[i].replace(/^\||\|$/g, '').split('|').map((cell) => cell.trim()));
  }
  return rows;
}

/** Section name → its switch names, from switches.rs's `SECTIONS` and `switches!` blocks. */
function switchLists(source) {
  const sections = source.match(/pub const SECTIONS: \[&str; \d+\] = \[([^\]]*)\]/);
  assert.ok(sections, 'switches.rs declares SECTIONS');
  const names = [...sections[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  assert.deepEqual(names.toSorted(), Object.keys(SECTION_TYPES).toSorted(),
    'every section of switches.rs has its rules type here');
  const lists = new Map();
  for (const block of source.matchAll(/switches!\(crate::[\w:]*::(\w+) \{([^}]*)\}\);/g)) {
    lists.set(block[1], new Set([...block[2].matchAll(/=> "(\w+)"/g)].map((m) => m[1])));
  }
  return new Map(names.map((section) => {
    const list = lists.get(SECTION_TYPES[section]);
    assert.ok(list && list.size > 0, `switches.rs lists the switches of ${section}`);
    return [section, list];
  }));
}

/** Every backticked `section.switchName` in a cell. */
function namedSwitches(cell) {
  return [...cell.matchAll(/`([a-z][A-Za-z0-9]*)\.([a-z][A-Za-z0-9]*)`/g)]
    .map(([, section, name]) => ({ section, name }));
}

const rows = tableAfter(readme, HEADING);
const [header, rule, ...body] = rows;

test('the table has the four columns: quirk, the original, recommended, why', () => {
  assert.deepEqual(header, ['quirk', 'the original', '`recommended`', 'why']);
  assert.ok(rule.every((cell) => /^-+$/.test(cell)), `a separator row, got ${rule}`);
});

test('one row per quirk Q1..Q62 of claude-code.md §0.3, in order', () => {
  const quirks = body.map((cells) => cells[0]);
  const expected = Array.from({ length: QUIRKS }, (_, i) => `Q${i + 1}`);
  assert.deepEqual(quirks, expected);
});

test('every row has four filled cells: the original, a choice and a reason', () => {
  for (const cells of body) {
    assert.equal(cells.length, 4, `${cells[0]}: four cells, got ${cells.length}`);
    const [quirk, original, choice, why] = cells;
    assert.ok(original.length > 0, `${quirk}: the original's behaviour is empty`);
    assert.match(choice, /^(fixed|kept)\b/, `${quirk}: the choice starts with fixed or kept`);
    assert.ok(why.length > 0, `${quirk}: the reason is empty`);
  }
});

test('a switch named in a row is one switches.rs lists for its section', () => {
  const lists = switchLists(switchesRs);
  let named = 0;
  for (const cells of body) {
    for (const { section, name } of namedSwitches(cells.join(' | '))) {
      named += 1;
      assert.ok(lists.has(section),
        `${cells[0]}: \`${section}.${name}\`: unknown section (expected one of ${[...lists.keys()].join(', ')})`);
      assert.ok(lists.get(section).has(name),
        `${cells[0]}: \`${section}.${name}\`: ${section} has no such switch`);
    }
  }
  assert.ok(named >= QUIRKS / 2, `most rows name their switch, found ${named}`);
});

test('a "switchable" choice names the switch that carries it', () => {
  for (const [quirk, , choice] of body) {
    if (choice.includes('switchable')) {
      assert.ok(namedSwitches(choice).length > 0, `${quirk}: "${choice}" names no switch`);
    }
  }
});

test('the helpers catch a misspelt switch and a missing row', () => {
  const lists = switchLists(switchesRs);
  const [misspelt] = namedSwitches('fixed, switchable (`read.markDirectory`)');
  assert.equal(lists.get(misspelt.section).has(misspelt.name), false);
  const text = `${HEADING}\n\n| quirk | a |\n|---|---|\n| Q2 | x |\n`;
  assert.deepEqual(tableAfter(text, HEADING).slice(2).map((cells) => cells[0]), ['Q2']);
});
