//! One request through OpenAI's automatic prompt cache.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::anthropic::{prefix_changed, Outcome};
use super::explain::{blocks, grouped, seconds, CacheExplanation, CacheRead};
use super::{Entries, OpenAiRules, Prefixes, PromptShape};

/// Reads the longest live shared prefix and records every prefix of `request`, which
/// follows `previous` (if any); `written` is always 0.
pub(super) fn step(
    request: &PromptShape,
    prefixes: &Prefixes,
    previous: Option<&Prefixes>,
    rules: &OpenAiRules,
    entries: &mut Entries,
) -> Outcome {
    let shared_through = (0..prefixes.len())
        .rev()
        .find(|&block| entries.alive(prefixes.id(block), request.at_ms));
    let shared = shared_through.map_or(0, |block| prefixes.end(block));
    let cached = rounded_hit(shared, rules);
    let said = read_cause(
        cached,
        shared_through,
        prefixes,
        previous,
        rules,
        entries,
        request.at_ms,
    );
    for block in 0..prefixes.len() {
        entries.touch(prefixes.id(block), request.at_ms);
    }
    Outcome {
        cached,
        written: 0,
        why: CacheExplanation {
            read: said.0,
            reason: format!(
                "{}; the provider caches every request itself, at no charge",
                said.1
            ),
            read_through: shared_through,
            breakpoints: Vec::new(),
        },
    }
}

/// Why `cached` tokens were read of a prefix shared up to `shared_through`, looking at the
/// cache as it was before this request.
fn read_cause(
    cached: u64,
    shared_through: Option<usize>,
    prefixes: &Prefixes,
    previous: Option<&Prefixes>,
    rules: &OpenAiRules,
    entries: &Entries,
    at_ms: u64,
) -> (CacheRead, String) {
    let minimum = grouped(rules.min_cached_tokens);
    if let Some(block) = shared_through {
        let shared = grouped(prefixes.end(block));
        return match cached {
            0 => (
                CacheRead::BelowMinimum,
                format!(
                    "nothing is read: the request shares its first {} ({shared} tokens) with an \
                     earlier one, under the provider's {minimum}-token minimum",
                    blocks(block + 1)
                ),
            ),
            _ => (
                CacheRead::Hit,
                format!(
                    "{} tokens are read from the cache, of the {shared} its first {} share with \
                     an earlier request: {minimum}, then whole steps of {}",
                    grouped(cached),
                    blocks(block + 1),
                    grouped(rules.increment_tokens.max(1))
                ),
            ),
        };
    }
    if prefixes.total() < rules.min_cached_tokens {
        return (
            CacheRead::BelowMinimum,
            format!(
                "nothing is read: the request is {} tokens, under the provider's {minimum}-token \
                 minimum, and a prompt that short is never cached",
                grouped(prefixes.total())
            ),
        );
    }
    let Some(previous) = previous else {
        return (
            CacheRead::FirstRequest,
            String::from("nothing is read: this is the first request, and the cache starts empty"),
        );
    };
    let used = (0..prefixes.len()).rev().find_map(|block| {
        entries
            .last_used(prefixes.id(block))
            .map(|used| (block, used))
    });
    if let Some((block, used)) = used {
        return (
            CacheRead::Expired,
            format!(
                "nothing is read: the prefix of its first {} ({} tokens) was last sent {} \
                 before, past the cache's {} lifetime",
                blocks(block + 1),
                grouped(prefixes.end(block)),
                seconds(at_ms.saturating_sub(used)),
                seconds(entries.ttl_ms)
            ),
        );
    }
    (CacheRead::PrefixChanged, prefix_changed(prefixes, previous))
}
/// What is billed as cached of `shared` tokens: 0 under the minimum, else the minimum
/// plus whole increments.
fn rounded_hit(shared: u64, rules: &OpenAiRules) -> u64 {
    if shared < rules.min_cached_tokens {
        return 0;
    }
    let increment = rules.increment_tokens.max(1);
    let beyond = shared - rules.min_cached_tokens;
    rules.min_cached_tokens + beyond / increment * increment
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hits_start_at_the_minimum_and_grow_by_increments() {
        let rules = OpenAiRules::default();
        assert_eq!(rounded_hit(1_023, &rules), 0);
        assert_eq!(rounded_hit(1_024, &rules), 1_024);
        assert_eq!(rounded_hit(1_151, &rules), 1_024);
        assert_eq!(rounded_hit(1_152, &rules), 1_152);
        assert_eq!(rounded_hit(u64::MAX, &rules) % 128, 1_024 % 128);
    }

    #[test]
    fn a_zero_increment_counts_every_token() {
        let rules = OpenAiRules {
            increment_tokens: 0,
            min_cached_tokens: 0,
            ..OpenAiRules::default()
        };
        assert_eq!(rounded_hit(7, &rules), 7);
    }

    fn explained(requests: &[PromptShape]) -> Vec<Outcome> {
        let rules = OpenAiRules::default();
        let mut entries = Entries::new(rules.ttl_ms);
        let mut previous: Option<Prefixes> = None;
        requests
            .iter()
            .map(|request| {
                let prefixes = Prefixes::of(&request.segments);
                let outcome = step(request, &prefixes, previous.as_ref(), &rules, &mut entries);
                previous = Some(prefixes);
                outcome
            })
            .collect()
    }

    #[test]
    fn every_request_says_why_it_read_what_it_read() {
        let seg = |key, tokens| super::super::Segment {
            key,
            tokens,
            breakpoint: false,
        };
        let at = |at_ms, segments| PromptShape {
            segments,
            at_ms,
            output_tokens: 0,
        };
        let got = explained(&[
            at(0, alloc::vec![seg(1, 1_200), seg(2, 100)]),
            at(1_000, alloc::vec![seg(1, 1_200), seg(3, 100)]),
            at(400_000, alloc::vec![seg(1, 1_200)]),
            at(401_000, alloc::vec![seg(1, 600), seg(5, 600)]),
            at(402_000, alloc::vec![seg(1, 600), seg(6, 600)]),
            at(403_000, alloc::vec![seg(7, 10)]),
        ]);
        let reads: Vec<(u64, CacheRead)> = got.iter().map(|o| (o.cached, o.why.read)).collect();
        assert_eq!(
            reads,
            [
                (0, CacheRead::FirstRequest),
                (1_152, CacheRead::Hit),
                (0, CacheRead::Expired),
                (0, CacheRead::PrefixChanged),
                (0, CacheRead::BelowMinimum),
                (0, CacheRead::BelowMinimum),
            ]
        );
        assert_eq!(got[1].why.read_through, Some(0));
        assert!(got[1].why.reason.starts_with(
            "1,152 tokens are read from the cache, of the 1,200 its first 1 block share"
        ));
        assert!(got[4]
            .why
            .reason
            .contains("shares its first 1 block (600 tokens) with an earlier one"));
        assert!(got[5].why.reason.contains("the request is 10 tokens"));
        assert!(got
            .iter()
            .all(|o| o.written == 0 && o.why.breakpoints.is_empty()));
    }
}
