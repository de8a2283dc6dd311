//! One stable sort for the whole engine, its algorithm compiled once.
//!
//! The standard library's sorts are fast, and large: each element type and comparator gets its
//! own copy of driftsort or ipnsort, some 4 KB of wasm apiece, and the engine sorts in about
//! thirty places: sorting was some 8 % of the session module's code. Here a merge sort works on
//! positions through a `dyn` comparator, so the only code generated per call site is a
//! comparator and a permutation. It makes no more comparisons than the standard sorts
//! (`n·log2 n` at most), each through one indirect call, plus two vectors of positions and one
//! pass to move the items.

use alloc::vec::Vec;
use core::cmp::Ordering;

/// Sorts `items` by `compare`, keeping equal items in their order.
pub(crate) fn sort_by<T>(items: &mut [T], mut compare: impl FnMut(&T, &T) -> Ordering) {
    let order = stable_order(items.len(), &mut |a, b| compare(&items[a], &items[b]));
    permute(items, order);
}

/// Sorts `items` by the key `key` gives each, keeping items of equal keys in their order.
pub(crate) fn sort_by_key<T, K: Ord>(items: &mut [T], mut key: impl FnMut(&T) -> K) {
    sort_by(items, |a, b| key(a).cmp(&key(b)));
}

/// Sorts `items` in their own order.
pub(crate) fn sort<T: Ord>(items: &mut [T]) {
    sort_by(items, T::cmp);
}

/// The positions `0..len` in the order `compare` puts them, equal ones in their order: a
/// bottom-up merge sort, runs of 1, 2, 4, … merged back and forth between two buffers.
fn stable_order(len: usize, compare: &mut dyn FnMut(usize, usize) -> Ordering) -> Vec<usize> {
    let mut order: Vec<usize> = (0..len).collect();
    let mut merged = order.clone();
    let mut width = 1;
    while width < len {
        for start in (0..len).step_by(2 * width) {
            let middle = (start + width).min(len);
            let end = (start + 2 * width).min(len);
            let (mut left, mut right) = (start, middle);
            for slot in &mut merged[start..end] {
                let take_left = right == end
                    || (left < middle && compare(order[left], order[right]) != Ordering::Greater);
                let next = match take_left {
                    true => &mut left,
                    false => &mut right,
                };
                *slot = order[*next];
                *next += 1;
            }
        }
        core::mem::swap(&mut order, &mut merged);
        width *= 2;
    }
    order
}

/// Reorders `items` so that position `i` holds what was at `order[i]`, in place: each cycle of
/// the permutation is walked once by swaps.
fn permute<T>(items: &mut [T], mut order: Vec<usize>) {
    for start in 0..items.len() {
        let mut at = start;
        while order[at] != start {
            let from = core::mem::replace(&mut order[at], at);
            items.swap(at, from);
            at = from;
        }
        order[at] = at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A small deterministic generator, so the test needs no dependency.
    fn numbers(seed: u64, len: usize, range: u64) -> Vec<u64> {
        let mut state = seed.wrapping_mul(6364136223846793005).wrapping_add(1);
        (0..len)
            .map(|_| {
                state = state
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (state >> 33) % range
            })
            .collect()
    }

    #[test]
    fn agrees_with_the_standard_stable_sort_at_every_small_length() {
        for len in 0..70 {
            for seed in 0..8 {
                let keys = numbers(seed, len, 5);
                let mut tagged: Vec<(u64, usize)> = keys.iter().copied().zip(0..).collect();
                let mut expected = tagged.clone();
                expected.sort_by_key(|(key, _)| *key);
                sort_by_key(&mut tagged, |(key, _)| *key);
                assert_eq!(tagged, expected, "length {len}, seed {seed}");
            }
        }
    }

    #[test]
    fn keeps_equal_items_in_their_order() {
        let mut words = ["pear", "fig", "apple", "kiwi"];
        sort_by_key(&mut words, |word| word.len());
        assert_eq!(words, ["fig", "pear", "kiwi", "apple"]);
        sort_by(&mut words, |a, b| b.cmp(a));
        assert_eq!(words, ["pear", "kiwi", "fig", "apple"]);
    }

    #[test]
    fn sorts_large_inputs_and_reverse_order() {
        let mut large = numbers(3, 10_000, 1_000_000);
        let mut expected = large.clone();
        expected.sort();
        sort(&mut large);
        assert_eq!(large, expected);
        let mut descending: Vec<u32> = (0..1000).rev().collect();
        sort(&mut descending);
        assert!(descending.iter().copied().eq(0..1000));
    }
}
