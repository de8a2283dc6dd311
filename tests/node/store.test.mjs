// The playground's scenario store (web/store.js) with the real engine: an edit is replayed
// once however many views listen, a failed replay keeps the last trace that worked, and the
// scenario it hands the views carries the player's profile.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { engine } from './engine.mjs';
import { createScenarioStore } from '../../web/store.js';

const ROOT = resolve(import.meta.dirname, '../..');
const scenario = (/** @type {string} */ file) => readFileSync(resolve(ROOT, 'web/scenarios', file), 'utf8');

/** A store whose replays are counted; the replay itself is the engine's. */
function countedStore() {
  const count = { replays: 0 };
  const store = createScenarioStore((text) => {
    count.replays += 1;
    return engine.runScenario(text);
  });
  return { store, count };
}

test('one replay per edit, shared by every listener', () => {
  const { store, count } = countedStore();
  /** @type {string[][]} */
  const heard = [[], [], []];
  for (const log of heard) store.subscribe((state, change) => log.push(`${change}:${state.replays}`));
  const text = scenario('auto-compaction.json');
  store.edit({ text });
  assert.equal(count.replays, 0, 'an edit alone replays nothing');
  store.replay();
  assert.equal(count.replays, 1);
  for (const log of heard) assert.deepEqual(log, ['edit:0', 'replay:1'], 'every listener hears the edit and the one replay');
  assert.deepEqual(store.state.trace, engine.runScenario(text));
  assert.equal(store.state.error, '');
  assert.equal(/** @type {{ description: string }} */ (store.state.parsed).description, JSON.parse(text).description);
});

test('an edit that changes nothing notifies nobody; an unsubscribed listener hears nothing more', () => {
  const { store } = countedStore();
  let heard = 0;
  const stop = store.subscribe(() => { heard += 1; });
  store.edit({ text: scenario('deny-rule.json') });
  store.edit({ text: store.state.text, profile: '' });
  assert.equal(heard, 1);
  stop();
  store.replay();
  assert.equal(heard, 1);
});

test('a failed replay keeps the last trace that worked and says what was wrong', () => {
  const { store, count } = countedStore();
  store.edit({ text: scenario('deny-rule.json') });
  store.replay();
  const good = store.state.trace;
  store.edit({ text: '{ not json' });
  assert.equal(store.state.parsed, undefined);
  store.replay();
  assert.equal(count.replays, 2);
  assert.equal(store.state.trace, good);
  assert.equal(store.state.replays, 1, 'only replays that worked are counted in the state');
  assert.match(store.state.error, /runScenario/);
});

test('the scenario handed to the views carries the picked profile; text that is not an object goes as it is', () => {
  const { store } = countedStore();
  const text = scenario('deny-rule.json');
  store.edit({ text, profile: 'codex' });
  const withCodex = store.scenario();
  assert.deepEqual(JSON.parse(withCodex), { ...JSON.parse(text), profile: 'codex' });
  store.replay();
  assert.deepEqual(store.state.trace, engine.runScenario(withCodex));
  for (const odd of ['{ not json', '[1, 2]', 'null', '"text"']) {
    store.edit({ text: odd });
    assert.equal(store.scenario(), odd);
  }
  store.edit({ text, profile: '' });
  assert.equal(store.scenario(), text);
});

test('another scenario opened gets a new number; edits of it keep it', () => {
  const { store, count } = countedStore();
  const first = scenario('deny-rule.json');
  store.open(first, '');
  const opened = store.state.opened;
  store.edit({ text: `${first} ` });
  store.edit({ profile: 'codex' });
  assert.equal(store.state.opened, opened, 'an edit is the same scenario');
  store.open(first, '');
  assert.equal(store.state.opened, opened + 1, 'opening the same text again is another scenario');
  assert.equal(store.state.profile, '');
  assert.equal(count.replays, 0, 'opening replays nothing until replay');
});
