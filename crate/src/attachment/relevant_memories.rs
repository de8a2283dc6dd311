//! Relevant memories: notes from the memory directory surfaced for a prompt (spec §7.9).
