// The release-drift comparison (tests/conformance/drift.mjs): each kind of item two releases
// send is classed as appeared, vanished, changed or unchanged, with its first example.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { drift } from '../conformance/drift.mjs';

const session = (name, ...requests) => ({ name, requests: requests.map((oracleItems) => ({ oracleItems })) });
const area = (item) => (item.kind === 'mention' ? 'mentions' : 'other');

test('kinds are classed by what each release sent in the paired requests', () => {
  const before = new Map([
    [1, session('generated/1', [{ kind: 'mention', path: '/a' }, { kind: 'todo' }], [{ kind: 'prompt', text: 'go' }])],
  ]);
  const after = new Map([
    [1, session('generated/1', [{ kind: 'mention', path: '/a', input: { offset: 2 } }, { kind: 'date', role: 'system' }], [{ kind: 'prompt', text: 'go' }], [{ kind: 'prompt', text: 'more' }])],
  ]);
  const { requests, kinds } = drift(before, after, area);
  assert.equal(requests, 3, 'the longer side sets how many requests are paired');
  const byKey = Object.fromEntries(kinds.map((k) => [k.key, k]));
  assert.equal(byKey.mention.status, 'changed');
  assert.equal(byKey.mention.area, 'mentions');
  assert.deepEqual(byKey.mention.example, { session: 'generated/1', request: 1, from: { kind: 'mention', path: '/a' }, to: { kind: 'mention', path: '/a', input: { offset: 2 } } });
  assert.equal(byKey.todo.status, 'vanished');
  assert.equal(byKey['date, role system'].status, 'appeared');
  // The same prompt in request 2, a new one in request 3: changed, in one request.
  assert.equal(byKey.prompt.status, 'changed');
  assert.equal(byKey.prompt.requestsDiffering, 1);
  assert.equal(byKey.prompt.example.request, 3);
});

test('kinds sent alike everywhere are unchanged, whatever their order in a request', () => {
  const items = [{ kind: 'mention', path: '/a' }, { kind: 'mention', path: '/b' }];
  const before = new Map([[7, session('generated/7', items)]]);
  const after = new Map([[7, session('generated/7', [...items].reverse())]]);
  const [mention] = drift(before, after, area).kinds;
  assert.equal(mention.status, 'unchanged');
  assert.equal(mention.example, undefined);
});
