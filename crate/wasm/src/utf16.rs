//! Byte offsets (the core's) to UTF-16 offsets (what JS strings index by).

/// Converts many byte offsets of one text in a single pass over it.
pub struct Utf16Offsets {
    /// Sorted, de-duplicated (byte offset, UTF-16 offset) pairs.
    table: Vec<(usize, usize)>,
}

impl Utf16Offsets {
    /// Prepares the conversion of `byte_offsets` (any order, duplicates allowed).
    pub fn new(text: &str, mut byte_offsets: Vec<usize>) -> Self {
        byte_offsets.sort_unstable();
        byte_offsets.dedup();
        let mut table = Vec::with_capacity(byte_offsets.len());
        let mut wanted = byte_offsets.into_iter().peekable();
        let mut utf16 = 0;
        for (byte, ch) in text
            .char_indices()
            .chain(core::iter::once((text.len(), '\0')))
        {
            while wanted.next_if(|&offset| offset <= byte).is_some() {
                table.push((byte, utf16));
            }
            utf16 += ch.len_utf16();
        }
        Utf16Offsets { table }
    }

    /// The UTF-16 offset of a byte offset given to [`Utf16Offsets::new`]. An offset inside
    /// a character maps to that character's start, one past the end to the end.
    pub fn get(&self, byte_offset: usize) -> usize {
        let index = self.table.partition_point(|&(byte, _)| byte < byte_offset);
        self.table.get(index).map_or_else(
            || self.table.last().map_or(0, |&(_, utf16)| utf16),
            |&(_, utf16)| utf16,
        )
    }
}
