// The README's "Every quirk: what `recommended` does" table (issue 30): one row per quirk of
// spec/claude-code.md §0.3, Q1 to Q62 in order, each with recommended's choice and a reason,
// and every switch a row names in backticks (`section.switchName`) one a scenario can set:
// the engine's own list, which its error for an unknown switch gives.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { engine } from './engine.mjs';

const root = new URL('../../', import.meta.url);
const readme = readFileSync(new URL('README.md', root), 'utf8');

const HEADING = '### Every quirk: what `recommended` does';
const QUIRKS = 62;

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

/** The names the engine's error lists after "expected one of" when `run` throws. */
function namesInError(run) {
  try {
    run();
  } catch (error) {
    const listed = /expected one of (.*)$/.exec(error.message);
    assert.ok(listed, `an error that lists what is allowed, got: ${error.message}`);
    return [...listed[1].matchAll(/"([^"]+)"/g)].map((m) => m[1]);
  }
  return assert.fail('the engine accepted a switch it cannot know');
}

/** Section name → its switch names, as the engine lists them for a switch it does not know. */
function switchLists() {
  const unknown = (name) => () => engine.runScenario({ switches: { [name]: true }, steps: [] });
  const sections = namesInError(unknown('noSuchSection.x'));
  assert.ok(sections.length >= 12, `the engine lists the sections, got ${sections}`);
  return new Map(sections.map((section) => {
    const list = new Set(namesInError(unknown(`${section}.noSuchSwitch`)));
    assert.ok(list.size > 0, `the engine lists the switches of ${section}`);
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

test('a switch named in a row is one the engine knows for its section', () => {
  const lists = switchLists();
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
  const lists = switchLists();
  const [misspelt] = namedSwitches('fixed, switchable (`read.markDirectory`)');
  assert.equal(lists.get(misspelt.section).has(misspelt.name), false);
  const text = `${HEADING}\n\n| quirk | a |\n|---|---|\n| Q2 | x |\n`;
  assert.deepEqual(tableAfter(text, HEADING).slice(2).map((cells) => cells[0]), ['Q2']);
});
