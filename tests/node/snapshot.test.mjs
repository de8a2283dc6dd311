// Sessions that outlive a page: `session.snapshot()` and `Session.restore(text)` through the
// JS API, binary files and failed acts included; a restored session answers every later
// call exactly as the original does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { engine } from './engine.mjs';

const { Session } = engine;

/** Acts a host performs, each applied to one session: the later ones compare both. */
const ACTS = [
  (s) => s.writeFile('src/a.ts', 'one\ntwo\n', 1_000),
  (s) => s.writeFile('logo.png', new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0xff, 0x00]), 1_100),
  (s) => s.submit('look at @src/a.ts', 2_000),
  (s) => s.step({ kind: 'assistant', blocks: [{ type: 'tool_use', name: 'Edit', input: { file_path: 'src/a.ts', old_string: 'two', new_string: '2' } }] }, 3_000),
  (s) => s.writeFile('src/a.ts', 'one\n2\nthree\n', 4_000),
  (s) => { try { return s.read('/../escape', null, 5_000); } catch (error) { return String(error); } },
  (s) => s.planCompaction({ policy: 'claude-code.full' }, 6_000),
  (s) => s.submit('and now?', 7_000),
  (s) => s.currentRequest(8_000),
  (s) => s.fileState(),
];

test('a snapshot taken after any act restores a session that runs on exactly as the original', () => {
  for (let cut = 0; cut <= ACTS.length; cut += 1) {
    const original = new Session({ profile: 'claude-code', cwd: '/p', config: { contextWindow: 50000, outputReserve: 8000 } });
    ACTS.slice(0, cut).forEach((act) => act(original));
    const snapshot = original.snapshot();
    assert.equal(typeof snapshot, 'string');
    const restored = Session.restore(snapshot);
    assert.equal(restored.snapshot(), snapshot, `cut ${cut}: the restored journal`);
    for (const act of ACTS.slice(cut)) {
      assert.deepEqual(act(restored), act(original), `cut ${cut}: ${act}`);
    }
    assert.equal(restored.readFileText('logo.png'), original.readFileText('logo.png'));
    assert.deepEqual(restored.stat('logo.png'), original.stat('logo.png'));
    original.free();
    restored.free();
  }
});

test('a plan kept before the snapshot can be applied after the restore', () => {
  const original = new Session({ profile: 'claude-code', cwd: '/p' });
  original.writeFile('a.txt', 'a\n', 1);
  original.submit('read @a.txt', 2);
  const plan = original.planCompaction({ policy: 'claude-code.full' }, 3);
  const restored = Session.restore(original.snapshot());
  const expected = original.applyCompaction(plan, 4, 'The user asked about a.txt.');
  assert.deepEqual(restored.applyCompaction(plan, 4, 'The user asked about a.txt.'), expected);
  original.free();
  restored.free();
});

test('a snapshot that cannot be restored says why and where', () => {
  const session = new Session({ profile: 'recommended', cwd: '/p' });
  session.writeFile('a.txt', 'a\n', 1);
  const snapshot = session.snapshot();
  const newer = snapshot.replace('"formatVersion":1', '"formatVersion":2');
  assert.throws(() => Session.restore(newer), /snapshot\.formatVersion: 2 is newer than this engine reads \(1\)/);
  assert.throws(() => Session.restore(snapshot.replace('"path":"a.txt"', '"path":1')), /snapshot\.acts\[0\]\.path: must be a string/);
  assert.throws(() => Session.restore('{}'), /Session\.restore.*not a session snapshot/);
  assert.throws(() => Session.restore(42), /Session\.restore/);
  session.free();
});
