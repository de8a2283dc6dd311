// The search both bisection tools share (claude-bisect.mjs, codex-bisect.mjs): given one
// release's side of each mechanism (`probe`), find the first release between two that shows
// each change, by binary search, assuming a mechanism changes once.

/**
 * The first release in `releases` on the newer side of `mechanism`: the release itself, or the
 * range it lies in when the releases there cannot tell (a side `undefined`).
 * @param {string[]} releases oldest first
 * @param {string} mechanism
 * @param {(version: string) => Promise<Record<string, boolean | undefined>>} probe
 */
export async function firstShowing(releases, mechanism, probe) {
  let [low, high] = [0, releases.length - 1];
  while (high - low > 1) {
    const middle = Math.floor((low + high) / 2);
    // A release that cannot tell is passed over for its nearest neighbour that can.
    const order = [...Array(high - low - 1).keys()].map((k) => low + 1 + k).sort((a, b) => Math.abs(a - middle) - Math.abs(b - middle) || a - b);
    let found;
    for (const at of order) {
      const side = (await probe(releases[at]))[mechanism];
      if (side !== undefined) {
        found = { at, side };
        break;
      }
    }
    if (!found) return `between ${releases[low]} and ${releases[high]} (the releases between cannot tell)`;
    if (found.side) high = found.at;
    else low = found.at;
  }
  return releases[high];
}

/**
 * The command line both tools take: `--probe VERSION` prints one release's sides; otherwise
 * each mechanism of `mechanisms` is bisected between `--from` and `--to` (or the defaults).
 * @param {{ mechanisms: Record<string, { what: string }>, probe: (version: string) => Promise<Record<string, boolean | undefined>>,
 *   releasesBetween: (from: string, to: string) => string[], from: string, to: string }} tool
 */
export async function bisectCommand({ mechanisms, probe, releasesBetween, from: defaultFrom, to: defaultTo }) {
  const args = process.argv.slice(2);
  const value = (flag, fallback) => (args.includes(flag) ? args[args.indexOf(flag) + 1] : fallback);
  if (args.includes('--probe')) {
    console.log(await probe(value('--probe')));
    return;
  }
  const [from, to] = [value('--from', defaultFrom), value('--to', defaultTo)];
  const releases = releasesBetween(from, to);
  const [before, after] = [await probe(from), await probe(to)];
  console.log(`${releases.length} releases from ${from} to ${to}`);
  for (const [name, { what }] of Object.entries(mechanisms)) {
    if (before[name] === after[name]) {
      console.log(`${name}: the same in ${from} and ${to} (${what})`);
      continue;
    }
    if (before[name]) {
      console.log(`${name}: ${from} shows it and ${to} does not; not bisected (${what})`);
      continue;
    }
    console.log(`${name}: first in ${await firstShowing(releases, name, probe)} — ${what}`);
  }
}
