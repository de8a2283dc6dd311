//! One request through Anthropic's explicit prompt cache.

use alloc::vec::Vec;

use super::{AnthropicRules, Entries, Prefixes, PromptShape};

/// Reads, writes and refreshes the cache for `request`; gives `(cached, written)`.
pub(super) fn step(
    request: &PromptShape,
    prefixes: &Prefixes,
    rules: &AnthropicRules,
    entries: &mut Entries,
) -> (u64, u64) {
    let breakpoints: Vec<usize> = request
        .segments
        .iter()
        .enumerate()
        .filter(|(_, segment)| segment.breakpoint)
        .map(|(block, _)| block)
        .take(rules.max_breakpoints)
        .collect();
    let Some(&last) = breakpoints.last() else {
        return (0, 0);
    };
    let hit = longest_hit(
        &breakpoints,
        rules.lookback_blocks,
        prefixes,
        entries,
        request.at_ms,
    );
    let cached = hit.map_or(0, |block| prefixes.end(block));
    let written = if prefixes.end(last) >= rules.min_cacheable_tokens {
        prefixes.end(last).saturating_sub(cached)
    } else {
        0
    };
    if let Some(block) = hit {
        entries.touch(prefixes.id(block), request.at_ms);
    }
    // Entries at breakpoints inside the part read are (re)written at no charge: their
    // tokens are already paid for as read.
    for &block in &breakpoints {
        if prefixes.end(block) >= rules.min_cacheable_tokens {
            entries.touch(prefixes.id(block), request.at_ms);
        }
    }
    (cached, written)
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

    fn run(requests: &[PromptShape], rules: &AnthropicRules) -> Vec<(u64, u64)> {
        let mut entries = Entries::new(rules.ttl.millis());
        requests
            .iter()
            .map(|request| {
                step(
                    request,
                    &Prefixes::of(&request.segments),
                    rules,
                    &mut entries,
                )
            })
            .collect()
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
}
