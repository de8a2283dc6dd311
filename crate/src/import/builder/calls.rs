//! Tool-call ids: a scenario's must be unique, and a log may repeat one. The same call
//! written twice (a line copied, a response logged again) is kept once; a different call
//! under an id already used is kept under a new one (`<id>~2`), and the result that answers
//! it goes with it. A key a call's input repeats keeps its last value, as `JSON.parse`
//! reads it.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::WarningKind;
use super::Builder;
use crate::scenario::parse::Json;

/// The call that first used an id, and the ids given to other calls that reused it.
#[derive(Debug)]
pub(super) struct UsedId {
    line: usize,
    /// A hash of the call's name and input: the same call written again has the same.
    fingerprint: u64,
    renamed: Vec<String>,
}

/// What [`Builder::tool_call`] decided for a call's id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(in crate::import) enum CallId {
    /// The id is new: the call keeps it.
    Kept,
    /// The same call (name and input) was written before under this id: this one is left
    /// out.
    Repeat,
    /// A different call used this id before: this one is kept under the new id.
    Renamed(String),
}

impl Builder {
    /// Checks a tool call before it goes into a step: a key its input repeats keeps its last
    /// value (as `JSON.parse` reads it); an id used before is a repeat or a new call (see
    /// [`CallId`]). Each with a warning naming `line`.
    pub(in crate::import) fn tool_call(
        &mut self,
        line: usize,
        id: &str,
        name: &str,
        input: &mut Json,
    ) -> CallId {
        // Past the format's limits the step is not kept: nothing to check.
        if !self.keeps_steps() {
            return CallId::Kept;
        }
        let mut repeated = Vec::new();
        keep_last_of_repeated_keys(input, &mut repeated);
        if !repeated.is_empty() {
            let keys: Vec<String> = repeated.iter().map(|key| format!("{key:?}")).collect();
            self.warn(
                line,
                WarningKind::BadLine,
                format!(
                    "the input of tool call {id:?} ({name}) has the key {} more than once: the \
                     last value is kept, as JSON.parse reads it",
                    keys.join(", ")
                ),
            );
        }
        let fingerprint = hash_json(input, fnv(FNV_START, name.as_bytes()));
        let Some(used) = self.calls.get_mut(id) else {
            self.calls.insert(
                id.into(),
                UsedId {
                    line,
                    fingerprint,
                    renamed: Vec::new(),
                },
            );
            return CallId::Kept;
        };
        let first = used.line;
        if used.fingerprint == fingerprint {
            self.warn(
                line,
                WarningKind::DuplicateId,
                format!(
                    "tool call {id:?} ({name}) is written again, the same call as on line \
                     {first}: the one on line {first} is kept, this repeat is left out"
                ),
            );
            return CallId::Repeat;
        }
        let mut suffix = used.renamed.len() + 2;
        let renamed = loop {
            let candidate = format!("{id}~{suffix}");
            if !self.calls.contains_key(&candidate) {
                break candidate;
            }
            suffix += 1;
        };
        if let Some(used) = self.calls.get_mut(id) {
            used.renamed.push(renamed.clone());
        }
        self.calls.insert(
            renamed.clone(),
            UsedId {
                line,
                fingerprint,
                renamed: Vec::new(),
            },
        );
        self.warn(
            line,
            WarningKind::DuplicateId,
            format!(
                "tool call {id:?} ({name}) reuses the id of a different call on line {first}: \
                 both are kept, this one as {renamed:?}, with the result that answers it"
            ),
        );
        CallId::Renamed(renamed)
    }

    /// The ids given to calls that reused `id`, in the order they came.
    pub(in crate::import) fn renamed_ids(&self, id: &str) -> &[String] {
        self.calls
            .get(id)
            .map_or(&[], |used| used.renamed.as_slice())
    }
}

/// In every object of `value`, a key written more than once keeps its first place and its
/// last value, as `JSON.parse` reads it; the keys that were are added to `repeated`.
fn keep_last_of_repeated_keys(value: &mut Json, repeated: &mut Vec<String>) {
    match value {
        Json::Array(items) => items
            .iter_mut()
            .for_each(|item| keep_last_of_repeated_keys(item, repeated)),
        Json::Object(entries) => {
            let mut place: BTreeMap<String, usize> = BTreeMap::new();
            let mut kept: Vec<(String, Json)> = Vec::with_capacity(entries.len());
            for (key, mut item) in core::mem::take(entries) {
                keep_last_of_repeated_keys(&mut item, repeated);
                match place.get(&key) {
                    Some(&at) => {
                        kept[at].1 = item;
                        if !repeated.contains(&key) {
                            repeated.push(key);
                        }
                    }
                    None => {
                        place.insert(key.clone(), kept.len());
                        kept.push((key, item));
                    }
                }
            }
            *entries = kept;
        }
        _ => {}
    }
}

/// The 64-bit FNV-1a hash's starting value.
pub(in crate::import) const FNV_START: u64 = 0xcbf2_9ce4_8422_2325;

/// `bytes` added to a 64-bit FNV-1a hash.
pub(in crate::import) fn fnv(hash: u64, bytes: &[u8]) -> u64 {
    bytes.iter().fold(hash, |hash, &byte| {
        (hash ^ u64::from(byte)).wrapping_mul(0x0100_0000_01b3)
    })
}

/// `value` added to a hash: its type and content, keys in their order.
fn hash_json(value: &Json, hash: u64) -> u64 {
    match value {
        Json::Null => fnv(hash, b"n"),
        Json::Bool(b) => fnv(hash, if *b { b"t" } else { b"f" }),
        Json::Number(n) => fnv(fnv(hash, b"#"), format!("{n}").as_bytes()),
        Json::String(s) => fnv(fnv(fnv(hash, b"\""), s.as_bytes()), b"\""),
        Json::Array(items) => fnv(
            items
                .iter()
                .fold(fnv(hash, b"["), |hash, item| hash_json(item, hash)),
            b"]",
        ),
        Json::Object(entries) => fnv(
            entries.iter().fold(fnv(hash, b"{"), |hash, (key, item)| {
                hash_json(item, fnv(fnv(hash, key.as_bytes()), b":"))
            }),
            b"}",
        ),
    }
}
