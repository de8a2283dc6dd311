// mulberry32: a small, fast, seedable PRNG, so that every generated input is the same on
// every run. Shared by the fixture generators, the node tests and the benches.

/**
 * A function returning numbers in [0, 1), the same sequence for the same seed.
 * @param {number} seed
 */
export function seededRandom(seed) {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
