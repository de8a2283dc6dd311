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
  session.submit('hi', 2);
  const snapshot = session.snapshot();
  const newer = snapshot.replace('"formatVersion":2', '"formatVersion":3');
  assert.throws(() => Session.restore(newer), /snapshot\.formatVersion: 3 is newer than this engine \(context-assembly [\d.]+\) reads formats 1 to 2/);
  assert.throws(() => Session.restore(snapshot.replace('"path":"a.txt"', '"path":1')), /snapshot\.acts\[0\]: invalid type: integer `1`, expected a string/);
  // A field the engine does not write is refused, naming it and its act.
  const extra = snapshot.replace('"prompt":"hi"', '"prompt":"hi","deny":[]');
  assert.throws(() => Session.restore(extra), /^Error: Session\.restore: snapshot\.acts\[1\]: unknown field `deny`, expected `prompt` or `atMs`$/);
  assert.throws(() => Session.restore('{}'), /Session\.restore.*not a session snapshot/);
  assert.throws(() => Session.restore(42), /Session\.restore/);
  assert.throws(() => Session.restore(snapshot, { deny: [] }), /Session\.restore: unknown option "deny": allowed options are "profile", "config"/);
  assert.throws(() => Session.restore(snapshot, { profile: 'claude' }), /Session\.restore: unknown profile "claude"/);
  session.free();
});

test('a host restores a snapshot it did not write under its own deny rules', () => {
  const written = new Session({ profile: 'recommended', cwd: '/p', config: { deny: ['Read(./.env)'] } });
  written.writeFile('.env', 'TOKEN=s3cret\n', 1);
  const snapshot = written.snapshot();
  written.free();
  // Snapshots hold every file the host wrote, denied ones included: a replay must be exact.
  assert.match(snapshot, /s3cret/);
  const edited = snapshot.replace('Read(./.env)', 'Read(./.nothing)');
  const sent = (/** @type {import('../../pkg/context_assembly.js').Session} */ session) =>
    JSON.stringify(session.submit('what is in @.env?', 2).request);

  const trusting = Session.restore(edited);
  assert.match(sent(trusting), /s3cret/, 'restored as written, the edited rules let .env through');
  trusting.free();

  const host = Session.restore(edited, { config: { deny: ['Read(./.env)'] } });
  assert.doesNotMatch(sent(host), /s3cret/);
  assert.match(host.snapshot(), /Read\(\.\/\.env\)/, 'a later snapshot records the host\'s rules');
  host.free();
});

test('an editor that autosaves one file costs the file, not its history (issue 28)', () => {
  const { memory } = engine.initSync({ module: new Uint8Array() });
  const session = new Session({ profile: 'recommended', cwd: '/p' });
  const line = 'export const value = 1234567890; // a line of a large file\n';
  const base = line.repeat(Math.floor(200_000 / line.length));
  session.writeFile('src/big.ts', base, 1);
  session.submit('look at @src/big.ts', 2);
  const before = memory.buffer.byteLength;
  for (let save = 0; save < 500; save += 1) {
    session.writeFile('src/big.ts', `${base}// save ${save}\n`, 10 + save);
  }
  const snapshot = session.snapshot();
  const grown = memory.buffer.byteLength - before;
  assert.ok(grown < 30 * 2 ** 20, `wasm memory grew by ${(grown / 2 ** 20).toFixed(1)} MiB`);
  assert.ok(snapshot.length < 2_000_000, `snapshot of ${snapshot.length} characters`);
  const restored = Session.restore(snapshot);
  assert.equal(restored.snapshot(), snapshot);
  assert.deepEqual(restored.submit('and now?', 600), session.submit('and now?', 600));
  restored.free();
  session.free();
});
