//! One request through Anthropic's explicit prompt cache.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::explain::{
    blocks, grouped, seconds, Breakpoint, BreakpointState, CacheExplanation, CacheRead,
};
use super::{AnthropicRules, Entries, Prefixes, PromptShape};

/// What one request did to the cache: its split, and why.
pub(super) struct Outcome {
    pub(super) cached: u64,
    pub(super) written: u64,
    pub(super) why: CacheExplanation,
}

/// Reads, writes and refreshes the cache for `request`, which follows `previous` (if any).
pub(super) fn step(
    request: &PromptShape,
    prefixes: &Prefixes,
    previous: Option<&Prefixes>,
    rules: &AnthropicRules,
    entries: &mut Entries,
) -> Outcome {
    let breakpoints: Vec<usize> = request
        .segments
        .iter()
        .enumerate()
        .filter(|(_, segment)| segment.breakpoint)
        .map(|(block, _)| block)
        .take(rules.max_breakpoints)
        .collect();
    let Some(&last) = breakpoints.last() else {
        return Outcome {
            cached: 0,
            written: 0,
            why: CacheExplanation {
                read: CacheRead::NoBreakpoint,
                reason: String::from(
                    "the request marks no cache breakpoint: nothing is read from the cache or \
                     written to it",
                ),
                read_through: None,
                breakpoints: Vec::new(),
            },
        };
    };
    let hit = longest_hit(
        &breakpoints,
        rules.lookback_blocks,
        prefixes,
        entries,
        request.at_ms,
    );
    let cached = hit.map_or(0, |block| prefixes.end(block));
    let minimum = rules.min_cacheable_tokens;
    let marked = prefixes.end(last);
    let written = if marked >= minimum {
        marked.saturating_sub(cached)
    } else {
        0
    };
    let (read, said) = read_cause(hit, last, prefixes, previous, rules, entries, request.at_ms);
    let reason = match (read, marked >= minimum) {
        // The minimum is the whole story: saying it twice would not add to it.
        (CacheRead::BelowMinimum, false) => said,
        (_, false) => format!(
            "{said}; nothing is written: the prefix up to the last breakpoint is {} tokens, \
             under the provider's {}-token minimum",
            grouped(marked),
            grouped(minimum)
        ),
        (_, true) if written > 0 => format!(
            "{said}; {} tokens are written to the cache, up to the last breakpoint (the first {}), \
             at the write rate",
            grouped(written),
            blocks(last + 1)
        ),
        (_, true) => {
            format!("{said}; nothing new is written: the part read reaches the last breakpoint")
        }
    };
    let uncached = prefixes.total().saturating_sub(marked);
    let reason = match uncached {
        0 => reason,
        _ => format!(
            "{reason}; the {} tokens after the last breakpoint are charged in full",
            grouped(uncached)
        ),
    };
    if let Some(block) = hit {
        entries.touch(prefixes.id(block), request.at_ms);
    }
    // Entries at breakpoints inside the part read are (re)written at no charge: their
    // tokens are already paid for as read.
    for &block in &breakpoints {
        if prefixes.end(block) >= minimum {
            entries.touch(prefixes.id(block), request.at_ms);
        }
    }
    let states = breakpoints
        .iter()
        .map(|&block| Breakpoint {
            block,
            tokens: prefixes.end(block),
            state: if prefixes.end(block) < minimum {
                BreakpointState::TooSmall
            } else if hit.is_some_and(|read| block <= read) {
                BreakpointState::Read
            } else {
                BreakpointState::Written
            },
        })
        .collect();
    Outcome {
        cached,
        written,
        why: CacheExplanation {
            read,
            reason,
            read_through: hit,
            breakpoints: states,
        },
    }
}

/// Why `hit` is what was read, looking at the cache as it was before this request.
fn read_cause(
    hit: Option<usize>,
    last: usize,
    prefixes: &Prefixes,
    previous: Option<&Prefixes>,
    rules: &AnthropicRules,
    entries: &Entries,
    at_ms: u64,
) -> (CacheRead, String) {
    let lookback = rules.lookback_blocks;
    let alive = |block: usize| entries.alive(prefixes.id(block), at_ms);
    let used = |block: usize| entries.last_used(prefixes.id(block));
    let entry = |block: usize| {
        format!(
            "the entry for the first {} ({} tokens)",
            blocks(block + 1),
            grouped(prefixes.end(block))
        )
    };
    let beyond = format!(
        "ends more than {lookback} blocks before every breakpoint, further than the provider \
         looks back"
    );
    let expired = |last_used: u64| {
        format!(
            "was last used {} before, past the cache's {} lifetime",
            seconds(at_ms.saturating_sub(last_used)),
            seconds(entries.ttl_ms)
        )
    };
    if let Some(read) = hit {
        let mut said = format!(
            "{} tokens are read from the cache: {}",
            grouped(prefixes.end(read)),
            entry(read)
        );
        let longer = read + 1..last + 1;
        if let Some(block) = longer.clone().rev().find(|&block| alive(block)) {
            said.push_str(&format!(
                "; a longer one, {}, is alive but {beyond}",
                entry(block)
            ));
        } else if let Some((block, last_used)) = longer
            .rev()
            .find_map(|block| used(block).map(|u| (block, u)))
        {
            said.push_str(&format!(
                "; a longer one, {}, {}",
                entry(block),
                expired(last_used)
            ));
        }
        return (CacheRead::Hit, said);
    }
    let minimum = rules.min_cacheable_tokens;
    if prefixes.end(last) < minimum {
        return (
            CacheRead::BelowMinimum,
            format!(
                "nothing is read or written: the prefix up to the last breakpoint is {} tokens, \
                 under the provider's {}-token minimum, and a prefix that short is never cached",
                grouped(prefixes.end(last)),
                grouped(minimum)
            ),
        );
    }
    let Some(previous) = previous else {
        return (
            CacheRead::FirstRequest,
            String::from("nothing is read: this is the first request, and the cache starts empty"),
        );
    };
    // Entries only ever end at breakpoints; one past the last is never read.
    let all = 0..last + 1;
    if let Some(block) = all.clone().rev().find(|&block| alive(block)) {
        return (
            CacheRead::BeyondLookback,
            format!(
                "nothing is read: {} is alive, but it {beyond}",
                entry(block)
            ),
        );
    }
    if let Some((block, last_used)) = all.rev().find_map(|block| used(block).map(|u| (block, u))) {
        return (
            CacheRead::Expired,
            format!("nothing is read: {} {}", entry(block), expired(last_used)),
        );
    }
    if entries.is_empty() {
        return (
            CacheRead::BelowMinimum,
            format!(
                "nothing is read: no earlier request left an entry, every prefix they marked \
                 being under the provider's {}-token minimum",
                grouped(minimum)
            ),
        );
    }
    (CacheRead::PrefixChanged, prefix_changed(prefixes, previous))
}

/// Why no entry matches: how far this request agrees with the one before it.
pub(super) fn prefix_changed(prefixes: &Prefixes, previous: &Prefixes) -> String {
    let shared = prefixes.shared_with(previous);
    match shared {
        0 => String::from(
            "nothing is read: no entry in the cache is a prefix of this request, whose first \
             block already differs from the previous request's",
        ),
        _ => format!(
            "nothing is read: no entry in the cache is a prefix of this request; it shares its \
             first {} ({} tokens) with the previous request, and no cached prefix ends within them",
            blocks(shared),
            grouped(prefixes.end(shared - 1))
        ),
    }
}

/// The last block of the longest live entry within `lookback` blocks (the breakpoint
/// included) behind any breakpoint.
///
/// Windows are scanned from the last breakpoint backwards and each block at most once, so
/// the first entry found is the longest and the work is linear in the request's blocks
/// whatever `lookback` and the number of breakpoints.
fn longest_hit(
    breakpoints: &[usize],
    lookback: usize,
    prefixes: &Prefixes,
    entries: &Entries,
    at_ms: u64,
) -> Option<usize> {
    if lookback == 0 {
        return None;
    }
    // Every block from here up has been looked at.
    let mut scanned_from = prefixes.len();
    for &breakpoint in breakpoints.iter().rev() {
        let low = breakpoint.saturating_sub(lookback - 1);
        let high = if breakpoint < scanned_from {
            breakpoint
        } else if scanned_from == 0 {
            break;
        } else {
            scanned_from - 1
        };
        if low > high {
            continue;
        }
        if let Some(block) = (low..=high)
            .rev()
            .find(|&block| entries.alive(prefixes.id(block), at_ms))
        {
            return Some(block);
        }
        scanned_from = low;
    }
    None
}
#[cfg(test)]
mod tests {
    use super::super::{Segment, Ttl};
    use super::*;
    use alloc::vec;

    fn seg(key: u64, tokens: u64, breakpoint: bool) -> Segment {
        Segment {
            key,
            tokens,
            breakpoint,
        }
    }

    fn explained(requests: &[PromptShape], rules: &AnthropicRules) -> Vec<Outcome> {
        let mut entries = Entries::new(rules.ttl.millis());
        let mut previous: Option<Prefixes> = None;
        requests
            .iter()
            .map(|request| {
                let prefixes = Prefixes::of(&request.segments);
                let outcome = step(request, &prefixes, previous.as_ref(), rules, &mut entries);
                previous = Some(prefixes);
                outcome
            })
            .collect()
    }

    fn run(requests: &[PromptShape], rules: &AnthropicRules) -> Vec<(u64, u64)> {
        let outcomes = explained(requests, rules);
        outcomes.iter().map(|o| (o.cached, o.written)).collect()
    }

    fn at(at_ms: u64, segments: Vec<Segment>) -> PromptShape {
        PromptShape {
            segments,
            at_ms,
            output_tokens: 0,
        }
    }

    #[test]
    fn a_request_without_breakpoints_neither_reads_nor_writes() {
        let plain = vec![seg(1, 5_000, false)];
        let got = run(
            &[at(0, plain.clone()), at(1, plain)],
            &AnthropicRules::sonnet(),
        );
        assert_eq!(got, [(0, 0), (0, 0)]);
    }

    #[test]
    fn breakpoints_past_the_limit_are_ignored() {
        let marked: Vec<Segment> = (0..5).map(|key| seg(key, 1_000, true)).collect();
        let rules = AnthropicRules {
            max_breakpoints: 4,
            ..AnthropicRules::sonnet()
        };
        // The fifth block is past the last honoured breakpoint: uncached, not written.
        assert_eq!(run(&[at(0, marked)], &rules), [(0, 4_000)]);
    }

    #[test]
    fn zero_lookback_never_reads() {
        let rules = AnthropicRules {
            lookback_blocks: 0,
            ..AnthropicRules::sonnet()
        };
        let same = vec![seg(1, 2_000, true)];
        assert_eq!(
            run(&[at(0, same.clone()), at(1, same)], &rules),
            [(0, 2_000), (0, 2_000)]
        );
    }

    #[test]
    fn an_earlier_breakpoint_s_window_is_searched_below_a_later_one() {
        // Entry at block 0 only; the last breakpoint's window (2 blocks) misses it, the
        // first breakpoint's finds it.
        let rules = AnthropicRules {
            lookback_blocks: 2,
            ..AnthropicRules::sonnet()
        };
        let first = vec![seg(1, 2_000, true)];
        let second = vec![
            seg(1, 2_000, true),
            seg(2, 10, false),
            seg(3, 10, false),
            seg(4, 10, true),
        ];
        assert_eq!(
            run(&[at(0, first), at(1, second)], &rules),
            [(0, 2_000), (2_000, 30)]
        );
    }

    #[test]
    fn one_hour_entries_outlive_five_minutes() {
        let rules = AnthropicRules {
            ttl: Ttl::OneHour,
            ..AnthropicRules::sonnet()
        };
        let same = vec![seg(1, 2_000, true)];
        assert_eq!(
            run(&[at(0, same.clone()), at(3_599_999, same)], &rules),
            [(0, 2_000), (2_000, 0)]
        );
    }

    #[test]
    fn every_request_says_why_it_read_what_it_read() {
        let rules = AnthropicRules::sonnet();
        let big = vec![seg(1, 2_000, true)];
        let got = explained(
            &[
                at(0, big.clone()),
                at(1_000, big.clone()),
                at(302_000, big.clone()),
                at(303_000, vec![seg(9, 2_000, true)]),
            ],
            &rules,
        );
        let reads: Vec<CacheRead> = got.iter().map(|o| o.why.read).collect();
        assert_eq!(
            reads,
            [
                CacheRead::FirstRequest,
                CacheRead::Hit,
                CacheRead::Expired,
                CacheRead::PrefixChanged
            ]
        );
        assert_eq!(got[1].why.read_through, Some(0));
        assert_eq!(got[1].why.breakpoints[0].state, BreakpointState::Read);
        assert_eq!(got[0].why.breakpoints[0].state, BreakpointState::Written);
        assert!(got[0]
            .why
            .reason
            .contains("2,000 tokens are written to the cache"));
        assert!(got[1]
            .why
            .reason
            .starts_with("2,000 tokens are read from the cache"));
        assert!(
            got[2]
                .why
                .reason
                .contains("was last used 301 s before, past the cache's 300 s lifetime"),
            "{}",
            got[2].why.reason
        );
        assert!(got[3].why.reason.contains("first block already differs"));
    }

    #[test]
    fn a_prefix_under_the_minimum_is_never_cached_and_says_so() {
        let small = vec![seg(1, 37, true), seg(2, 600, true)];
        let got = explained(
            &[at(0, small.clone()), at(1, small)],
            &AnthropicRules::sonnet(),
        );
        for outcome in &got {
            assert_eq!((outcome.cached, outcome.written), (0, 0));
            assert_eq!(outcome.why.read, CacheRead::BelowMinimum);
            assert!(outcome
                .why
                .breakpoints
                .iter()
                .all(|b| b.state == BreakpointState::TooSmall));
            assert!(outcome.why.reason.contains(
                "the prefix up to the last breakpoint is 637 tokens, under the provider's 1,024-token minimum"
            ));
        }
    }

    #[test]
    fn an_entry_behind_the_lookback_is_named() {
        let rules = AnthropicRules {
            lookback_blocks: 2,
            ..AnthropicRules::sonnet()
        };
        let first = vec![seg(1, 2_000, true)];
        let second = vec![
            seg(1, 2_000, false),
            seg(2, 10, false),
            seg(3, 10, false),
            seg(4, 10, true),
        ];
        let got = explained(&[at(0, first), at(1, second)], &rules);
        assert_eq!(got[1].cached, 0);
        assert_eq!(got[1].why.read, CacheRead::BeyondLookback);
        assert!(got[1]
            .why
            .reason
            .contains("ends more than 2 blocks before every breakpoint"));
    }

    #[test]
    fn a_request_without_breakpoints_says_so() {
        let got = explained(
            &[at(0, vec![seg(1, 5_000, false)])],
            &AnthropicRules::sonnet(),
        );
        assert_eq!(got[0].why.read, CacheRead::NoBreakpoint);
        assert!(got[0].why.breakpoints.is_empty());
    }
}
