//! The read-file-state cache's invariants on generated operation sequences: the limits
//! always hold, and recency matches a plain model of the LRU.

use std::rc::Rc;

use context_assembly::file_state::{
    Entry, FileStateCache, FileStateLimits, FileStateRules, Stored,
};
use proptest::prelude::*;

#[derive(Debug, Clone)]
enum Op {
    Set(u8, usize, u64),
    Get(u8),
    Peek(u8),
    Has(u8),
    Delete(u8),
    Clear,
}

fn op() -> impl Strategy<Value = Op> {
    prop_oneof![
        6 => (any::<u8>(), 0usize..400, 0u64..10).prop_map(|(k, n, t)| Op::Set(k, n, t)),
        3 => any::<u8>().prop_map(Op::Get),
        1 => any::<u8>().prop_map(Op::Peek),
        1 => any::<u8>().prop_map(Op::Has),
        1 => any::<u8>().prop_map(Op::Delete),
        1 => Just(Op::Clear),
    ]
}

/// Keys spelled several ways for the same file, so normalisation is exercised.
fn key(k: u8) -> String {
    match k % 3 {
        0 => format!("/p/f{}", k % 120),
        1 => format!("/p//f{}", k % 120),
        _ => format!("/p/x/../f{}", k % 120),
    }
}

/// The model: keys most recent last, sizes alongside.
fn model_apply(
    model: &mut Vec<(String, u64)>,
    op: &Op,
    limits: FileStateLimits,
    keep_digest: bool,
) {
    let find = |model: &Vec<(String, u64)>, k: &str| model.iter().position(|(key, _)| key == k);
    match op {
        Op::Set(k, n, _) => {
            let k = format!("/p/f{}", k % 120);
            if let Some(at) = find(model, &k) {
                model.remove(at);
            }
            let mut size = (*n as u64).max(1);
            if size > limits.max_bytes {
                if !keep_digest {
                    return;
                }
                size = 1;
            }
            model.push((k, size));
            while model.len() > limits.max_entries
                || model.iter().map(|(_, s)| s).sum::<u64>() > limits.max_bytes
            {
                model.remove(0);
            }
        }
        Op::Get(k) => {
            if let Some(at) = find(model, &format!("/p/f{}", k % 120)) {
                let slot = model.remove(at);
                model.push(slot);
            }
        }
        Op::Delete(k) => {
            if let Some(at) = find(model, &format!("/p/f{}", k % 120)) {
                model.remove(at);
            }
        }
        Op::Clear => model.clear(),
        Op::Peek(_) | Op::Has(_) => {}
    }
}

fn apply(cache: &mut FileStateCache, op: &Op, text: &Rc<str>) {
    match op {
        Op::Set(k, n, t) => {
            let content: Rc<str> = Rc::from(&text[..*n]);
            cache.set(&key(*k), Entry::from_edit(content, *t));
        }
        Op::Get(k) => {
            cache.get(&key(*k));
        }
        Op::Peek(k) => {
            cache.peek(&key(*k));
        }
        Op::Has(k) => {
            cache.has(&key(*k));
        }
        Op::Delete(k) => {
            cache.delete(&key(*k));
        }
        Op::Clear => cache.clear(),
    }
}

proptest! {
    #[test]
    fn limits_hold_and_recency_matches_the_model(
        ops in proptest::collection::vec(op(), 0..300),
        max_entries in 1usize..110,
        max_bytes in 1u64..2000,
        keep_digest in any::<bool>(),
    ) {
        let limits = FileStateLimits { max_entries, max_bytes };
        let rules = FileStateRules { limits, keep_oversized_digest: keep_digest, ..FileStateRules::claude_code() };
        let mut cache = FileStateCache::new(rules);
        let mut model = Vec::new();
        let text: Rc<str> = Rc::from("x".repeat(400));
        for op in &ops {
            apply(&mut cache, op, &text);
            model_apply(&mut model, op, limits, keep_digest);
            prop_assert!(cache.len() <= max_entries);
            prop_assert!(cache.total_bytes() <= max_bytes);
            let bytes: u64 = cache.entries().map(|(_, e)| e.size()).sum();
            prop_assert_eq!(bytes, cache.total_bytes());
            let expected: Vec<&str> = model.iter().rev().map(|(k, _)| k.as_str()).collect();
            prop_assert_eq!(cache.keys().collect::<Vec<_>>(), expected);
        }
    }
}

proptest! {
    // Contents of megabytes: fewer cases keep the run short.
    #![proptest_config(ProptestConfig::with_cases(24))]

    #[test]
    fn default_limits_hold_for_large_contents(sizes in proptest::collection::vec(0usize..3_000_000, 0..40)) {
        let text: Rc<str> = Rc::from("y".repeat(3_000_000));
        let mut cache = FileStateCache::new(FileStateRules::recommended());
        for (i, n) in sizes.iter().enumerate() {
            let outcome = cache.set(&format!("/f{}", i % 7), Entry::from_edit(Rc::from(&text[..*n]), 1));
            prop_assert_eq!(outcome.stored, Stored::Full);
            prop_assert!(cache.len() <= 100);
            prop_assert!(cache.total_bytes() <= 25 * 1024 * 1024);
        }
    }
}

#[test]
fn a_hundred_and_one_entries_evict_the_oldest() {
    let mut cache = FileStateCache::new(FileStateRules::claude_code());
    for i in 0..101 {
        cache.set(&format!("/f{i}"), Entry::from_edit(Rc::from("x"), 1));
    }
    assert_eq!(cache.len(), 100);
    assert!(!cache.has("/f0"));
    assert_eq!(cache.keys().next(), Some("/f100"));
}

#[test]
fn contents_are_shared_not_copied() {
    let body: Rc<str> = Rc::from("shared");
    let mut cache = FileStateCache::new(FileStateRules::claude_code());
    cache.set("/a", Entry::from_edit(Rc::clone(&body), 1));
    let copy = cache.clone();
    assert!(Rc::ptr_eq(&copy.peek("/a").unwrap().content, &body));
    assert_eq!(Rc::strong_count(&body), 3);
}
