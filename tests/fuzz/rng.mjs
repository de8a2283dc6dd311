// The fuzzer's only source of choices: the project's seeded PRNG (mulberry32), one stream per
// (seed, class, case), so `--seeds S --only class` replays a failure exactly.
import { seededRandom } from '../gen/random.mjs';

/** FNV-1a over the text: a class's name becomes part of the stream's seed. */
function hash(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h;
}

export class Rng {
  /** @param {number} seed @param {string} className @param {number} caseIndex */
  constructor(seed, className, caseIndex) {
    this.next = seededRandom(hash(`${seed}/${className}/${caseIndex}`));
  }

  /** A whole number from 0 to n - 1. @param {number} n */
  below(n) {
    return Math.floor(this.next() * n);
  }

  /** @param {number} p the probability of true */
  chance(p) {
    return this.next() < p;
  }

  /** @template T @param {readonly T[]} items @returns {T} */
  pick(items) {
    return items[this.below(items.length)];
  }
}
