//! The read-file state: which files the model has seen, what they contained and when
//! (spec/claude-code.md §4).
//!
//! A least-recently-used map of at most 100 entries and 25 MiB of UTF-8 content, keyed by
//! the lexically normalised path. Contents are `Rc<str>` shared with the virtual FS and the
//! transcript, never copied. With at most 100 entries a vector in recency order is the
//! simplest correct LRU: every operation is linear in the entry count.

use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use crate::path::{lexical_normalize, normalized};

/// Entry and byte limits (§4.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct FileStateLimits {
    /// Entries kept: 100 (10 on the ask/SDK path).
    pub max_entries: usize,
    /// UTF-8 bytes of content kept: 25 MiB. An entry costs `max(1, bytes)`.
    pub max_bytes: u64,
}

impl Default for FileStateLimits {
    fn default() -> Self {
        FileStateLimits {
            max_entries: 100,
            max_bytes: 25 * 1024 * 1024,
        }
    }
}

crate::switch::with_switches! {
    /// The cache's limits and quirk switches. Each switch is named after the fix; `false`
    /// keeps the original's behaviour.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    #[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
    pub struct FileStateRules {
        /// Entry and byte limits.
        pub limits: FileStateLimits,
        /// Q25: a full Read stores no offset (original: `offset = given ?? 1`, so no Read entry
        /// looks like a full view).
        pub full_read_without_offset: bool,
        /// Q28: an entry over the byte limit is kept as a digest (original: it is not stored
        /// and the key's old entry is deleted).
        pub keep_oversized_digest: bool,
        /// Q30: a resumed Read entry gets the offset a live Read stores (original: none, so
        /// files only Read become watched after a resume).
        pub resume_like_live_reads: bool,
        /// Q42: image reads are tracked by digest (original: images are never cached).
        pub track_images: bool,
        /// §4.5: Edit and Write refuse a file the agent has not read, and one changed on disk
        /// since it read it (error codes 6 and 7). Off (Claude Code 2.1.332), Edit needs no
        /// read and applies to a changed file, saying so in its result; Write refuses only a
        /// file it read that changed since; and a result says when the agent's view of the
        /// file is now complete, so it need not read the file back.
        pub writes_need_read: bool,
    }
}

impl FileStateRules {
    /// Claude Code's cache, quirks included.
    pub fn claude_code() -> FileStateRules {
        FileStateRules {
            limits: FileStateLimits::default(),
            full_read_without_offset: false,
            keep_oversized_digest: false,
            resume_like_live_reads: false,
            track_images: false,
            writes_need_read: true,
        }
    }

    /// Every fix switched on.
    pub fn recommended() -> FileStateRules {
        FileStateRules {
            limits: FileStateLimits::default(),
            full_read_without_offset: true,
            keep_oversized_digest: true,
            resume_like_live_reads: true,
            track_images: true,
            writes_need_read: true,
        }
    }
}

/// A fingerprint of contents not kept in full: their length and 64-bit FNV-1a hash.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ContentDigest {
    /// Length in bytes.
    pub bytes: u64,
    /// FNV-1a, 64 bits.
    pub hash: u64,
}

impl ContentDigest {
    /// The digest of `bytes`.
    pub fn of(bytes: &[u8]) -> ContentDigest {
        let hash = bytes.iter().fold(0xcbf2_9ce4_8422_2325u64, |hash, &b| {
            (hash ^ u64::from(b)).wrapping_mul(0x0000_0100_0000_01b3)
        });
        ContentDigest {
            bytes: bytes.len() as u64,
            hash,
        }
    }
}

/// What the cache remembers of one file (§4.3).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Entry {
    /// The text seen (the slice, for a ranged Read; raw disk text for a partial view).
    /// Empty when only a `digest` is kept.
    pub content: Rc<str>,
    /// Milliseconds: the file's floored mtime, or the logical time of the write.
    pub timestamp: u64,
    /// First line read; `None` for a full view.
    pub offset: Option<u64>,
    /// Lines read; `None` for a full view. A negative Read limit (Q9) is stored as 0.
    pub limit: Option<u64>,
    /// The model saw a transformed text (stripped CLAUDE.md, truncated MEMORY.md).
    pub is_partial_view: bool,
    /// Set when the contents are too large (Q28 fixed) or binary (Q42 fixed) to keep.
    pub digest: Option<ContentDigest>,
    /// A Read stored it. Read de-duplication answers only for these (§3.4: the original
    /// tells them apart by their defined offset, which Q25's fix takes away).
    pub from_read: bool,
    /// Where the entry falls within its `timestamp`'s millisecond: 0, or for nested memory
    /// the number of walk steps stamped earlier in that millisecond. The original stamps
    /// each step with its own `Date.now()` after awaiting its reads, so a later step is
    /// usually a millisecond newer; our clock has whole logical milliseconds shared by the
    /// whole pass, so the order rides beside the timestamp instead of moving it (a later
    /// stamp would change what the change scan compares with mtimes). Only the
    /// post-compact restore's ranking reads it (§9.4 step 3).
    pub stamp_order: u32,
}

impl Entry {
    /// A Read of text (§4.4): `offset = given ?? 1` (Q25), `limit` as given. With
    /// `full_read_without_offset`, a Read of the whole file (no limit, offset 0, 1 or none)
    /// stores no offset.
    ///
    /// # Example
    /// ```
    /// use context_assembly::file_state::{Entry, FileStateRules};
    /// let original = Entry::from_read("a".into(), 7, None, None, &FileStateRules::claude_code());
    /// assert_eq!(original.offset, Some(1)); // looks ranged: never watched (Q25, Q31)
    /// let fixed = Entry::from_read("a".into(), 7, None, None, &FileStateRules::recommended());
    /// assert_eq!(fixed.offset, None);
    /// // A reversed mention range reads with limit -9; the entry still has a limit.
    /// let reversed = Entry::from_read("".into(), 7, Some(20), Some(-9), &FileStateRules::claude_code());
    /// assert_eq!(reversed.limit, Some(0));
    /// ```
    pub fn from_read(
        content: Rc<str>,
        timestamp: u64,
        offset: Option<u64>,
        limit: Option<i64>,
        rules: &FileStateRules,
    ) -> Entry {
        let full = limit.is_none() && offset.is_none_or(|offset| offset <= 1);
        let offset = if rules.full_read_without_offset && full {
            None
        } else {
            Some(offset.unwrap_or(1))
        };
        Entry {
            content,
            timestamp,
            offset,
            limit: limit.map(|limit| u64::try_from(limit).unwrap_or(0)),
            is_partial_view: false,
            digest: None,
            from_read: true,
            stamp_order: 0,
        }
    }

    /// An Edit, Write, NotebookEdit or simulated `sed` edit: the new full content, a full
    /// view.
    pub fn from_edit(content: Rc<str>, timestamp: u64) -> Entry {
        Entry {
            content,
            timestamp,
            offset: None,
            limit: None,
            is_partial_view: false,
            digest: None,
            from_read: false,
            stamp_order: 0,
        }
    }

    /// An injected memory file (eager seeding or nested memory): the raw disk text, marked
    /// as a partial view when the model saw a transformed text.
    pub fn from_memory(raw: Rc<str>, timestamp: u64, shown_differs: bool) -> Entry {
        Entry {
            is_partial_view: shown_differs,
            ..Entry::from_edit(raw, timestamp)
        }
    }

    /// A surfaced relevant memory: the injected text, `limit` = its line count when it was
    /// truncated.
    pub fn from_relevant_memory(
        content: Rc<str>,
        timestamp: u64,
        truncated_lines: Option<u64>,
    ) -> Entry {
        Entry {
            limit: truncated_lines,
            ..Entry::from_edit(content, timestamp)
        }
    }

    /// An entry rebuilt from the transcript on resume: a full view (Q30), or with
    /// `resume_like_live_reads` the offset a live full Read would store when it came from
    /// a Read.
    pub fn from_resume(
        content: Rc<str>,
        timestamp: u64,
        from_read: bool,
        rules: &FileStateRules,
    ) -> Entry {
        if rules.resume_like_live_reads && from_read {
            Entry::from_read(content, timestamp, None, None, rules)
        } else {
            Entry::from_edit(content, timestamp)
        }
    }

    /// A Read of an image: nothing under the original (Q42), a digest-only entry with
    /// `track_images`.
    pub fn from_image_read(bytes: &[u8], timestamp: u64, rules: &FileStateRules) -> Option<Entry> {
        rules.track_images.then(|| Entry {
            digest: Some(ContentDigest::of(bytes)),
            ..Entry::from_edit(Rc::from(""), timestamp)
        })
    }

    /// What the entry costs against the byte limit: `max(1, UTF-8 bytes)`.
    pub fn size(&self) -> u64 {
        (self.content.len() as u64).max(1)
    }

    /// Whether the entry is a full view: no offset and no limit.
    pub fn is_full_view(&self) -> bool {
        self.offset.is_none() && self.limit.is_none()
    }
}

/// What [`FileStateCache::set`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SetOutcome {
    /// How the entry was stored.
    pub stored: Stored,
    /// Keys evicted to respect the limits, least recently used first.
    pub evicted: Vec<String>,
}

/// How an entry was stored.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stored {
    /// In full.
    Full,
    /// Over the byte limit: not stored, and the key's old entry deleted (Q28).
    Dropped,
    /// Over the byte limit: kept as a digest without its content (Q28 fixed).
    DigestOnly,
}

/// The read-file-state LRU. Keys are normalised with [`lexical_normalize`]; iteration is
/// most recently used first.
///
/// # Example
/// ```
/// use context_assembly::file_state::{Entry, FileStateCache, FileStateRules};
/// let mut cache = FileStateCache::new(FileStateRules::claude_code());
/// cache.set("/p/a.rs", Entry::from_edit("a".into(), 1));
/// cache.set("/p/./b.rs", Entry::from_edit("b".into(), 2));
/// assert!(cache.has("/p/b.rs"));
/// assert_eq!(cache.keys().collect::<Vec<_>>(), ["/p/b.rs", "/p/a.rs"]);
/// cache.get("/p/a.rs"); // get refreshes recency; has and peek do not
/// assert_eq!(cache.keys().next(), Some("/p/a.rs"));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileStateCache {
    rules: FileStateRules,
    /// Least recently used first.
    slots: Vec<(String, Entry)>,
    bytes: u64,
}

impl FileStateCache {
    /// An empty cache.
    pub fn new(rules: FileStateRules) -> FileStateCache {
        FileStateCache {
            rules,
            slots: Vec::new(),
            bytes: 0,
        }
    }

    /// The rules the cache was made with.
    pub fn rules(&self) -> &FileStateRules {
        &self.rules
    }

    /// Entries held.
    pub fn len(&self) -> usize {
        self.slots.len()
    }

    /// Whether the cache is empty.
    pub fn is_empty(&self) -> bool {
        self.slots.is_empty()
    }

    /// Bytes held, as the byte limit counts them.
    pub fn total_bytes(&self) -> u64 {
        self.bytes
    }

    fn position(&self, key: &str) -> Option<usize> {
        self.slots.iter().position(|(k, _)| k == key)
    }

    /// The entry for `key`, made the most recently used.
    pub fn get(&mut self, key: &str) -> Option<&Entry> {
        let at = self.position(&normalized(key))?;
        let slot = self.slots.remove(at);
        self.slots.push(slot);
        self.slots.last().map(|(_, entry)| entry)
    }

    /// Reverses the recency order: what calling [`FileStateCache::get`] on every key from
    /// the most to the least recently used does (the original's change scan, Q27), in
    /// one pass instead of one move per key.
    pub fn reverse_recency(&mut self) {
        self.slots.reverse();
    }

    /// The entry for `key`, recency untouched.
    pub fn peek(&self, key: &str) -> Option<&Entry> {
        let at = self.position(&normalized(key))?;
        self.slots.get(at).map(|(_, entry)| entry)
    }

    /// Whether `key` has an entry, recency untouched.
    pub fn has(&self, key: &str) -> bool {
        self.position(&normalized(key)).is_some()
    }

    /// Stores `entry` under `key` as the most recently used, then evicts the least recently
    /// used entries until both limits hold. An entry larger than the byte limit is not
    /// stored and deletes the key's old entry (Q28), or with `keep_oversized_digest` is
    /// kept as a digest.
    ///
    /// # Example
    /// ```
    /// use context_assembly::file_state::{Entry, FileStateCache, FileStateLimits, FileStateRules, Stored};
    /// let mut rules = FileStateRules::claude_code();
    /// rules.limits = FileStateLimits { max_entries: 100, max_bytes: 4 };
    /// let mut cache = FileStateCache::new(rules);
    /// cache.set("/a", Entry::from_edit("old".into(), 1));
    /// let outcome = cache.set("/a", Entry::from_edit("too big".into(), 2));
    /// assert_eq!(outcome.stored, Stored::Dropped);
    /// assert!(!cache.has("/a")); // the old entry went too
    /// ```
    pub fn set(&mut self, key: &str, mut entry: Entry) -> SetOutcome {
        let key = lexical_normalize(key);
        self.delete(&key);
        let mut stored = Stored::Full;
        if entry.size() > self.rules.limits.max_bytes {
            if !self.rules.keep_oversized_digest {
                return SetOutcome {
                    stored: Stored::Dropped,
                    evicted: Vec::new(),
                };
            }
            entry.digest = Some(ContentDigest::of(entry.content.as_bytes()));
            entry.content = Rc::from("");
            stored = Stored::DigestOnly;
        }
        self.bytes += entry.size();
        self.slots.push((key, entry));
        // Count the least recent entries to drop, then drain them at once: linear work.
        let limits = self.rules.limits;
        let mut drop = 0;
        let mut bytes = self.bytes;
        for (_, entry) in &self.slots {
            if self.slots.len() - drop <= limits.max_entries && bytes <= limits.max_bytes {
                break;
            }
            bytes -= entry.size();
            drop += 1;
        }
        self.bytes = bytes;
        let evicted = self.slots.drain(..drop).map(|(key, _)| key).collect();
        SetOutcome { stored, evicted }
    }

    /// Removes `key`'s entry; returns it if there was one.
    pub fn delete(&mut self, key: &str) -> Option<Entry> {
        let at = self.position(&normalized(key))?;
        let (_, entry) = self.slots.remove(at);
        self.bytes -= entry.size();
        Some(entry)
    }

    /// Removes every entry.
    pub fn clear(&mut self) {
        self.slots.clear();
        self.bytes = 0;
    }

    /// Keys, most recently used first.
    pub fn keys(&self) -> impl Iterator<Item = &str> {
        self.slots.iter().rev().map(|(key, _)| key.as_str())
    }

    /// Entries, most recently used first.
    pub fn entries(&self) -> impl Iterator<Item = (&str, &Entry)> {
        self.slots
            .iter()
            .rev()
            .map(|(key, entry)| (key.as_str(), entry))
    }

    /// The entries least recently used first, for [`FileStateCache::load`]. Contents are
    /// shared, not copied.
    pub fn dump(&self) -> Vec<(String, Entry)> {
        self.slots.clone()
    }

    /// Sets each dumped entry in order (least recently used first), so recency is
    /// restored.
    pub fn load(&mut self, dump: Vec<(String, Entry)>) {
        for (key, entry) in dump {
            self.set(&key, entry);
        }
    }

    /// `mergeFileStateCaches` (§4.6): a copy of `first`, then each entry of `second`, most
    /// recently used first, set when `first` has none for its key or an older one. Ties
    /// keep `first`'s.
    ///
    /// # Example
    /// ```
    /// use context_assembly::file_state::{Entry, FileStateCache, FileStateRules};
    /// let rules = FileStateRules::claude_code();
    /// let (mut first, mut second) = (FileStateCache::new(rules), FileStateCache::new(rules));
    /// first.set("/a", Entry::from_edit("first".into(), 5));
    /// second.set("/a", Entry::from_edit("second".into(), 5));
    /// let merged = FileStateCache::merge(&first, &second);
    /// assert_eq!(&*merged.peek("/a").unwrap().content, "first"); // a tie keeps first
    /// ```
    pub fn merge(first: &FileStateCache, second: &FileStateCache) -> FileStateCache {
        let mut merged = first.clone();
        for (key, entry) in second.entries() {
            let newer = merged
                .peek(key)
                .is_none_or(|existing| entry.timestamp > existing.timestamp);
            if newer {
                merged.set(key, entry.clone());
            }
        }
        merged
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn cache_with(max_entries: usize, max_bytes: u64, rules: FileStateRules) -> FileStateCache {
        FileStateCache::new(FileStateRules {
            limits: FileStateLimits {
                max_entries,
                max_bytes,
            },
            ..rules
        })
    }

    fn edit(text: &str, timestamp: u64) -> Entry {
        Entry::from_edit(Rc::from(text), timestamp)
    }

    fn keys(cache: &FileStateCache) -> Vec<&str> {
        cache.keys().collect()
    }

    #[test]
    fn defaults_are_the_spec_limits() {
        let limits = FileStateLimits::default();
        assert_eq!((limits.max_entries, limits.max_bytes), (100, 26_214_400));
    }

    #[test]
    fn evicts_least_recent_by_count_and_bytes() {
        let mut cache = cache_with(2, 100, FileStateRules::claude_code());
        cache.set("/a", edit("a", 1));
        cache.set("/b", edit("b", 1));
        cache.get("/a");
        let outcome = cache.set("/c", edit("c", 1));
        assert_eq!(outcome.evicted, vec![String::from("/b")]);
        assert_eq!(keys(&cache), ["/c", "/a"]);
        let mut cache = cache_with(10, 5, FileStateRules::claude_code());
        cache.set("/a", edit("aaa", 1));
        cache.set("/b", edit("bb", 1));
        let outcome = cache.set("/c", edit("c", 1));
        assert_eq!(outcome.evicted, vec![String::from("/a")]);
        assert_eq!(cache.total_bytes(), 3);
        // An empty content still costs one byte.
        cache.set("/e", edit("", 1));
        assert_eq!(cache.total_bytes(), 4);
    }

    #[test]
    fn has_and_peek_keep_recency() {
        let mut cache = cache_with(10, 100, FileStateRules::claude_code());
        cache.set("/a", edit("a", 1));
        cache.set("/b", edit("b", 1));
        assert!(cache.has("/a") && cache.peek("/a").is_some());
        assert_eq!(keys(&cache), ["/b", "/a"]);
        assert!(cache.get("/a").is_some());
        assert_eq!(keys(&cache), ["/a", "/b"]);
        assert_eq!(
            cache.entries().map(|(k, _)| k).collect::<Vec<_>>(),
            ["/a", "/b"]
        );
    }

    #[test]
    fn keys_are_normalised() {
        let mut cache = cache_with(10, 100, FileStateRules::claude_code());
        cache.set("/p//src/../a.rs", edit("a", 1));
        assert_eq!(keys(&cache), ["/p/a.rs"]);
        assert!(cache.has("/p/./a.rs"));
        assert!(cache.delete("/p/x/../a.rs").is_some());
        assert!(cache.is_empty());
    }

    #[test]
    fn oversized_entry_q28() {
        let mut original = cache_with(10, 4, FileStateRules::claude_code());
        original.set("/a", edit("old", 1));
        assert_eq!(original.set("/a", edit("12345", 2)).stored, Stored::Dropped);
        assert!(!original.has("/a"));
        assert_eq!(original.total_bytes(), 0);
        let mut fixed = cache_with(10, 4, FileStateRules::recommended());
        fixed.set("/a", edit("old", 1));
        assert_eq!(fixed.set("/a", edit("12345", 2)).stored, Stored::DigestOnly);
        let entry = fixed.peek("/a").unwrap();
        assert_eq!(&*entry.content, "");
        assert_eq!(entry.digest, Some(ContentDigest::of(b"12345")));
        assert_eq!((entry.timestamp, fixed.total_bytes()), (2, 1));
    }

    #[test]
    fn read_offsets_q25() {
        let original = FileStateRules::claude_code();
        let fixed = FileStateRules::recommended();
        let read = |offset, limit, rules: &FileStateRules| {
            let e = Entry::from_read(Rc::from("x"), 1, offset, limit, rules);
            (e.offset, e.limit)
        };
        assert_eq!(read(None, None, &original), (Some(1), None));
        assert_eq!(read(None, None, &fixed), (None, None));
        assert_eq!(read(Some(1), None, &fixed), (None, None));
        assert_eq!(read(Some(0), None, &fixed), (None, None));
        assert_eq!(read(Some(5), None, &fixed), (Some(5), None));
        assert_eq!(read(None, Some(10), &fixed), (Some(1), Some(10)));
        assert_eq!(read(Some(20), Some(-9), &original), (Some(20), Some(0)));
    }

    #[test]
    fn resume_q30_and_images_q42() {
        let original = FileStateRules::claude_code();
        let fixed = FileStateRules::recommended();
        let resumed = Entry::from_resume(Rc::from("x"), 1, true, &original);
        assert!(resumed.is_full_view()); // a Read entry becomes watched after resume
        let mut q30_only = original;
        q30_only.resume_like_live_reads = true;
        assert_eq!(
            Entry::from_resume(Rc::from("x"), 1, true, &q30_only).offset,
            Some(1)
        );
        assert!(Entry::from_resume(Rc::from("x"), 1, true, &fixed).is_full_view());
        assert!(Entry::from_resume(Rc::from("x"), 1, false, &q30_only).is_full_view());
        assert_eq!(Entry::from_image_read(b"\x89PNG", 1, &original), None);
        let image = Entry::from_image_read(b"\x89PNG", 1, &fixed).unwrap();
        assert_eq!(image.digest.map(|d| d.bytes), Some(4));
    }

    #[test]
    fn memory_writers() {
        let partial = Entry::from_memory(Rc::from("raw"), 3, true);
        assert!(partial.is_partial_view && partial.is_full_view());
        let truncated = Entry::from_relevant_memory(Rc::from("m"), 3, Some(200));
        assert_eq!((truncated.offset, truncated.limit), (None, Some(200)));
    }

    #[test]
    fn merge_prefers_strictly_newer_and_keeps_first_on_ties() {
        let rules = FileStateRules::claude_code();
        let mut first = FileStateCache::new(rules);
        let mut second = FileStateCache::new(rules);
        first.set("/a", edit("first-a", 5));
        first.set("/b", edit("first-b", 5));
        second.set("/a", edit("second-a", 6));
        second.set("/b", edit("second-b", 5));
        second.set("/c", edit("second-c", 1));
        let merged = FileStateCache::merge(&first, &second);
        let text = |key| String::from(&*merged.peek(key).unwrap().content);
        assert_eq!(text("/a"), "second-a");
        assert_eq!(text("/b"), "first-b");
        assert_eq!(text("/c"), "second-c");
        // second's entries are set MRU → LRU, so its least recent ends most recent.
        assert_eq!(keys(&merged), ["/a", "/c", "/b"]);
    }

    #[test]
    fn dump_load_and_clone_preserve_recency_and_share_contents() {
        let mut cache = FileStateCache::new(FileStateRules::claude_code());
        let shared: Rc<str> = Rc::from("body");
        cache.set("/a", Entry::from_edit(Rc::clone(&shared), 1));
        cache.set("/b", edit("b", 1));
        cache.get("/a");
        let mut loaded = FileStateCache::new(FileStateRules::claude_code());
        loaded.load(cache.dump());
        assert_eq!(keys(&loaded), ["/a", "/b"]);
        assert_eq!(loaded, cache.clone());
        assert!(Rc::ptr_eq(&loaded.peek("/a").unwrap().content, &shared));
        loaded.clear();
        assert!(loaded.is_empty() && loaded.total_bytes() == 0);
    }
}
