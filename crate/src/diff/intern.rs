//! Line interning: every distinct line gets one integer id, so the search compares
//! integers instead of strings.
//!
//! A hash table, not an ordered map: with long lines sharing long prefixes (indented code),
//! an ordered map spends most of a large diff comparing those prefixes again and again.

use alloc::vec;
use alloc::vec::Vec;

/// Ids for the lines of both files, numbered in order of first appearance (old file first),
/// so the numbering never depends on the hash function.
pub(crate) fn intern<'a>(old: &[&'a str], new: &[&'a str]) -> (Vec<usize>, Vec<usize>) {
    let mut table = LineTable::with_capacity(old.len() + new.len());
    // Where each old line's text first stands, to follow the old file along the new one.
    let mut first_at: Vec<usize> = Vec::with_capacity(old.len());
    let old_ids: Vec<usize> = old
        .iter()
        .enumerate()
        .map(|(at, line)| {
            let id = table.id(line);
            if id == first_at.len() {
                first_at.push(at);
            }
            id
        })
        .collect();
    // Two versions of a file are mostly alike: the old line at the matching place is tried
    // first, a comparison of two lines already in cache instead of a hash-table probe. Any
    // path gives the same id for the same text, so this only changes the speed.
    let mut cursor = 0;
    let new_ids = new
        .iter()
        .map(|line| {
            if let (Some(candidate), Some(&id)) = (old.get(cursor), old_ids.get(cursor)) {
                if candidate == line {
                    cursor += 1;
                    return id;
                }
            }
            let id = table.id(line);
            cursor = first_at.get(id).map_or(cursor + 1, |at| at + 1);
            id
        })
        .collect();
    (old_ids, new_ids)
}

#[derive(Clone, Copy)]
struct Slot {
    hash: u64,
    id: usize,
}

const VACANT: Slot = Slot {
    hash: 0,
    id: usize::MAX,
};

/// Open addressing with linear probing, at most half full.
struct LineTable<'a> {
    slots: Vec<Slot>,
    lines: Vec<&'a str>,
}

impl<'a> LineTable<'a> {
    fn with_capacity(lines: usize) -> Self {
        let size = lines.saturating_mul(2).max(16).next_power_of_two();
        LineTable {
            slots: vec![VACANT; size],
            lines: Vec::with_capacity(lines),
        }
    }

    // `inline(always)`, once per line: the session module is built at opt-level "z", which
    // ignores a plain `#[inline]` (Cargo.toml).
    #[inline(always)]
    fn id(&mut self, line: &'a str) -> usize {
        let hash = hash_line(line);
        let mask = self.slots.len() - 1;
        let mut index = (hash as usize) & mask;
        loop {
            let slot = self.slots[index];
            if slot.id == usize::MAX {
                let id = self.lines.len();
                self.lines.push(line);
                self.slots[index] = Slot { hash, id };
                return id;
            }
            if slot.hash == hash && self.lines.get(slot.id) == Some(&line) {
                return slot.id;
            }
            index = (index + 1) & mask;
        }
    }
}

/// A fast non-cryptographic hash (FxHash's mixing, eight bytes at a time). Deterministic:
/// no seed, so the same input always takes the same path.
#[inline(always)]
fn hash_line(line: &str) -> u64 {
    const K: u64 = 0x517c_c1b7_2722_0a95;
    let mix = |hash: u64, word: u64| (hash.rotate_left(5) ^ word).wrapping_mul(K);
    let bytes = line.as_bytes();
    let mut chunks = bytes.chunks_exact(8);
    let mut hash = mix(0, bytes.len() as u64);
    for chunk in &mut chunks {
        let mut word = [0u8; 8];
        word.copy_from_slice(chunk);
        hash = mix(hash, u64::from_le_bytes(word));
    }
    let mut tail = [0u8; 8];
    tail[..chunks.remainder().len()].copy_from_slice(chunks.remainder());
    mix(hash, u64::from_le_bytes(tail))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_final_line_differs_from_one_with_a_newline() {
        let (old, new) = intern(&["a\n", "b\n"], &["b\n", "a"]);
        assert_eq!(old, vec![0, 1]);
        assert_eq!(new, vec![1, 2]);
    }

    #[test]
    fn following_the_old_file_gives_the_same_ids_as_the_table() {
        let old = ["a\n", "b\n", "}\n", "c\n", "}\n", "d\n"];
        let new = [
            "x\n", "a\n", "}\n", "b\n", "}\n", "c\n", "y\n", "d\n", "x\n",
        ];
        let (old_ids, new_ids) = intern(&old, &new);
        let mut seen: Vec<&str> = Vec::new();
        for line in old.iter().chain(&new) {
            if !seen.contains(line) {
                seen.push(line);
            }
        }
        let id_of = |line: &str| seen.iter().position(|known| *known == line).unwrap();
        assert_eq!(old_ids, old.iter().map(|l| id_of(l)).collect::<Vec<_>>());
        assert_eq!(new_ids, new.iter().map(|l| id_of(l)).collect::<Vec<_>>());
    }

    #[test]
    fn equal_lines_share_an_id_across_files_and_growth() {
        let lines: Vec<alloc::string::String> = (0..1000)
            .map(|i| alloc::format!("line {}\n", i % 300))
            .collect();
        let refs: Vec<&str> = lines.iter().map(|l| l.as_str()).collect();
        let (old, new) = intern(&refs, &refs[500..]);
        assert_eq!(old[..300], (0..300).collect::<Vec<_>>()[..]);
        assert!(old.iter().all(|&id| id < 300));
        assert_eq!(new[0], old[500]);
    }
}
