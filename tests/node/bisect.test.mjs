// The bisection both release tools share (tests/conformance/bisect.mjs): the first release on
// the newer side of a change, passing over releases whose probe cannot tell.
import assert from 'node:assert/strict';
import { test } from 'node:test';
import { firstShowing } from '../conformance/bisect.mjs';

const releases = Array.from({ length: 40 }, (_, i) => `1.0.${i}`);

/** A probe where the change shows from release `first`, and `blind` releases cannot tell. */
function probeOf(first, blind = new Set()) {
  const asked = [];
  const probe = async (version) => {
    asked.push(version);
    const at = releases.indexOf(version);
    return { change: blind.has(at) ? undefined : at >= first };
  };
  return { probe, asked };
}

test('the first release showing a change is found by binary search', async () => {
  const { probe, asked } = probeOf(23);
  assert.equal(await firstShowing(releases, 'change', probe), '1.0.23');
  assert.ok(asked.length <= 6, `asked ${asked.length} releases`);
});

test('a release that cannot tell is passed over for a neighbour', async () => {
  const { probe } = probeOf(23, new Set([19, 20, 21, 22, 23, 24]));
  // The change lies somewhere from 19 to 25: the answer is that range, not a guess.
  assert.equal(await firstShowing(releases, 'change', probe), 'between 1.0.18 and 1.0.25 (the releases between cannot tell)');
  const oneBlind = probeOf(23, new Set([23]));
  // One release that cannot tell: its neighbours settle it as closely as they can.
  assert.equal(await firstShowing(releases, 'change', oneBlind.probe), 'between 1.0.22 and 1.0.24 (the releases between cannot tell)');
  const none = probeOf(23, new Set(releases.map((_, i) => i)));
  assert.equal(await firstShowing(releases, 'change', none.probe), 'between 1.0.0 and 1.0.39 (the releases between cannot tell)');
});
