//! Prompt-cache economics: hand-computed sessions for both providers, and the invariants
//! on generated ones.
//!
//! Every golden number below is worked out in the comment beside it from the rules in the
//! `cache` module's documentation, with Sonnet's rules (1,024-token minimum, 20-block
//! lookback, 5 minutes) and OpenAI's defaults (1,024 + 128 k, 5 minutes).

use context_assembly::cache::{
    cache_model, totals, AnthropicRules, OpenAiRules, PriceTable, PromptShape, Provider, Segment,
    StepCost, Ttl,
};
use proptest::prelude::*;

const MINUTE: u64 = 60_000;

/// A block: key, tokens, breakpoint.
fn b(key: u64, tokens: u64, breakpoint: bool) -> Segment {
    Segment {
        key,
        tokens,
        breakpoint,
    }
}

fn request(at_ms: u64, segments: &[Segment]) -> PromptShape {
    PromptShape {
        segments: segments.to_vec(),
        at_ms,
        output_tokens: 0,
    }
}

/// `(cached, written, uncached)` of each step.
fn split(steps: &[StepCost]) -> Vec<(u64, u64, u64)> {
    steps
        .iter()
        .map(|step| (step.cached, step.written, step.uncached))
        .collect()
}

fn anthropic(requests: &[PromptShape]) -> Vec<StepCost> {
    cache_model(
        requests,
        &Provider::anthropic(),
        &PriceTable::claude_sonnet(),
    )
}

fn openai(requests: &[PromptShape]) -> Vec<StepCost> {
    cache_model(requests, &Provider::openai(), &PriceTable::openai_gpt5())
}

// Blocks of a conversation. Claude Code marks the system prompt and the last message.
const SYS: u64 = 1;
const U1: u64 = 2;
const A1: u64 = 3;
const U2: u64 = 4;
const A2: u64 = 5;
const U3: u64 = 6;
const TAIL: u64 = 7;
const SUMMARY: u64 = 8;

mod anthropic_goldens {
    use super::*;

    #[test]
    fn a_growing_conversation_writes_only_what_is_new() {
        let mut first = request(0, &[b(SYS, 2_000, true), b(U1, 500, true)]);
        first.output_tokens = 100;
        let mut second = request(
            MINUTE,
            &[
                b(SYS, 2_000, true),
                b(U1, 500, false),
                b(A1, 300, false),
                b(U2, 200, true),
            ],
        );
        second.output_tokens = 50;
        let third = request(
            2 * MINUTE,
            &[
                b(SYS, 2_000, true),
                b(U1, 500, false),
                b(A1, 300, false),
                b(U2, 200, false),
                b(A2, 100, false),
                b(U3, 400, true),
                b(TAIL, 24, false),
            ],
        );
        let steps = anthropic(&[first, second, third]);
        assert_eq!(
            split(&steps),
            [
                // Nothing cached yet; everything up to the last breakpoint is written.
                (0, 2_500, 0),
                // The entry at U1 (block 1) is 2 blocks behind the breakpoint on U2.
                (2_500, 500, 0),
                // The entry at U2 (block 3) is read; A2 + U3 written; the tail after the
                // last breakpoint is uncached.
                (3_000, 500, 24),
            ]
        );
        // 2,500 × $3.75 + 100 × $15 per MTok = 9,375 + 1,500 µ$.
        assert_eq!(steps[0].cost_micro_usd, 10_875);
        // 2,500 × $0.30 + 500 × $3.75 + 50 × $15 = 750 + 1,875 + 750 µ$.
        assert_eq!(steps[1].cost_micro_usd, 3_375);
        // 3,000 × $0.30 + 500 × $3.75 + 24 × $3 = 900 + 1,875 + 72 µ$.
        assert_eq!(steps[2].cost_micro_usd, 2_847);
        let sum = totals(&steps);
        assert_eq!(
            (sum.sent, sum.cached, sum.written, sum.uncached),
            (9_024, 5_500, 3_500, 24)
        );
        assert_eq!(sum.cost_micro_usd, 10_875 + 3_375 + 2_847);
    }

    #[test]
    fn compaction_keeps_the_system_prompt_and_rewrites_the_rest() {
        let before = request(0, &[b(SYS, 2_000, true), b(U1, 500, true)]);
        let compacted = request(MINUTE, &[b(SYS, 2_000, true), b(SUMMARY, 800, true)]);
        // The summary breaks the prefix at block 1; the system prompt's own entry (block
        // 0, 2,000 tokens) still serves.
        assert_eq!(
            split(&anthropic(&[before.clone(), compacted])),
            [(0, 2_500, 0), (2_000, 800, 0)]
        );
        // A change in the very first block breaks everything.
        let new_system = request(MINUTE, &[b(99, 2_000, true), b(U1, 500, true)]);
        assert_eq!(
            split(&anthropic(&[before, new_system])),
            [(0, 2_500, 0), (0, 2_500, 0)]
        );
    }

    #[test]
    fn entries_expire_five_minutes_after_their_last_use() {
        let first = request(0, &[b(SYS, 2_000, true), b(U1, 500, true)]);
        let later = |at_ms| {
            request(
                at_ms,
                &[b(SYS, 2_000, true), b(U1, 500, false), b(U2, 500, true)],
            )
        };
        assert_eq!(
            split(&anthropic(&[first.clone(), later(5 * MINUTE - 1)]))[1],
            (2_500, 500, 0)
        );
        assert_eq!(
            split(&anthropic(&[first.clone(), later(5 * MINUTE)]))[1],
            (0, 3_000, 0)
        );
        // With the 1-hour TTL the same gap is a hit, and writes cost 2×.
        let hour = Provider::Anthropic(AnthropicRules {
            ttl: Ttl::OneHour,
            ..AnthropicRules::sonnet()
        });
        let steps = cache_model(
            &[first, later(5 * MINUTE)],
            &hour,
            &PriceTable::claude_sonnet(),
        );
        assert_eq!(split(&steps)[1], (2_500, 500, 0));
        // 2,500 × $0.30 + 500 × $6 = 750 + 3,000 µ$.
        assert_eq!(steps[1].cost_micro_usd, 3_750);
    }

    #[test]
    fn a_hit_refreshes_the_entry_it_reads() {
        let first = request(0, &[b(SYS, 2_000, true), b(U1, 500, true)]);
        // At 4 min a different conversation reads the system prompt's entry, refreshing it.
        let other = request(4 * MINUTE, &[b(SYS, 2_000, true), b(SUMMARY, 500, true)]);
        // At 8 min the first conversation's entry (last used at 0) is gone, the system
        // prompt's (last used at 4 min) is not.
        let again = request(8 * MINUTE, &[b(SYS, 2_000, true), b(U1, 500, true)]);
        assert_eq!(
            split(&anthropic(&[first, other, again])),
            [(0, 2_500, 0), (2_000, 500, 0), (2_000, 500, 0)]
        );
    }

    #[test]
    fn prefixes_under_the_minimum_are_not_cached() {
        let short = [b(SYS, 1_000, true), b(U1, 20, true)];
        let long = [
            b(SYS, 1_000, true),
            b(U1, 20, false),
            b(A1, 10, false),
            b(U2, 10, true),
        ];
        let steps = anthropic(&[
            request(0, &short),
            request(MINUTE, &long),
            request(2 * MINUTE, &long),
        ]);
        assert_eq!(
            split(&steps),
            [
                // 1,020 tokens at the last breakpoint: under 1,024, nothing written.
                (0, 0, 1_020),
                // 1,040 tokens: written whole (no shorter entry exists).
                (0, 1_040, 0),
                (1_040, 0, 0),
            ]
        );
        // Haiku 4.5's minimum is 4,096: the same session is never cached.
        let haiku = Provider::Anthropic(AnthropicRules {
            min_cacheable_tokens: 4_096,
            ..AnthropicRules::sonnet()
        });
        let steps = cache_model(
            &[request(0, &long), request(MINUTE, &long)],
            &haiku,
            &PriceTable::claude_sonnet(),
        );
        assert_eq!(split(&steps), [(0, 0, 1_040), (0, 0, 1_040)]);
    }

    #[test]
    fn the_lookback_spans_twenty_blocks_counting_the_breakpoint() {
        let first = request(0, &[b(SYS, 2_000, true), b(U1, 100, true)]);
        // SYS, U1, then `extra` tool blocks of 10 tokens, the last one marked.
        let grown = |extra: u64| {
            let mut blocks = vec![b(SYS, 2_000, true), b(U1, 100, false)];
            blocks.extend((0..extra).map(|i| b(100 + i, 10, i + 1 == extra)));
            request(MINUTE, &blocks)
        };
        // 19 extra blocks: the breakpoint is block 20, its window blocks 1..=20 holds U1.
        assert_eq!(
            split(&anthropic(&[first.clone(), grown(19)]))[1],
            (2_100, 190, 0)
        );
        // 20 extra blocks: the window is blocks 2..=21 and misses U1; the system prompt's
        // breakpoint still finds its own entry, and U1 is written again.
        assert_eq!(split(&anthropic(&[first, grown(20)]))[1], (2_000, 300, 0));
    }
}

mod openai_goldens {
    use super::*;

    #[test]
    fn a_growing_conversation_reads_in_128_token_steps() {
        let mut second = request(
            MINUTE / 2,
            &[
                b(SYS, 1_500, false),
                b(U1, 100, false),
                b(A1, 300, false),
                b(U2, 50, false),
            ],
        );
        second.output_tokens = 40;
        let steps = openai(&[
            request(0, &[b(SYS, 1_500, false), b(U1, 100, false)]),
            second,
            request(
                MINUTE,
                &[
                    b(SYS, 1_500, false),
                    b(U1, 100, false),
                    b(A1, 300, false),
                    b(U2, 50, false),
                    b(A2, 74, false),
                    b(U3, 100, false),
                ],
            ),
        ]);
        assert_eq!(
            split(&steps),
            [
                (0, 0, 1_600),
                // 1,600 shared: 1,024 + 4 × 128 = 1,536.
                (1_536, 0, 414),
                // 1,950 shared: 1,024 + 7 × 128 = 1,920.
                (1_920, 0, 204),
            ]
        );
        // 1,536 × $0.125 + 414 × $1.25 + 40 × $10 = 192 + 517.5 + 400 = 1,109.5 µ$.
        assert_eq!(steps[1].cost_micro_usd, 1_110);
        assert!(steps.iter().all(|step| step.written == 0));
    }

    #[test]
    fn nothing_is_cached_below_1024_shared_tokens() {
        let steps = openai(&[
            request(0, &[b(SYS, 1_000, false), b(U1, 23, false)]),
            request(
                1,
                &[b(SYS, 1_000, false), b(U1, 23, false), b(A1, 1, false)],
            ),
            request(
                2,
                &[
                    b(SYS, 1_000, false),
                    b(U1, 23, false),
                    b(A1, 1, false),
                    b(U2, 100, false),
                ],
            ),
        ]);
        // 1,023 shared: nothing; then 1,024 shared: exactly the minimum.
        assert_eq!(
            split(&steps),
            [(0, 0, 1_023), (0, 0, 1_024), (1_024, 0, 100)]
        );
    }

    #[test]
    fn compaction_breaks_the_prefix_where_it_changed() {
        let before = request(0, &[b(SYS, 1_500, false), b(U1, 100, false)]);
        let compacted = request(MINUTE, &[b(SYS, 1_500, false), b(SUMMARY, 200, false)]);
        // 1,500 shared: 1,024 + 3 × 128.
        assert_eq!(
            split(&openai(&[before.clone(), compacted]))[1],
            (1_408, 0, 292)
        );
        let new_system = request(MINUTE, &[b(99, 1_500, false), b(U1, 100, false)]);
        assert_eq!(split(&openai(&[before, new_system]))[1], (0, 0, 1_600));
    }

    #[test]
    fn prefixes_expire_after_the_configured_idle_time() {
        let same = [b(SYS, 2_048, false)];
        let at = |gap| [request(0, &same), request(gap, &same)];
        assert_eq!(split(&openai(&at(5 * MINUTE - 1)))[1], (2_048, 0, 0));
        assert_eq!(split(&openai(&at(5 * MINUTE)))[1], (0, 0, 2_048));
        let off_peak = Provider::OpenAi(OpenAiRules {
            ttl_ms: 60 * MINUTE,
            ..OpenAiRules::default()
        });
        let steps = cache_model(&at(30 * MINUTE), &off_peak, &PriceTable::openai_gpt5());
        assert_eq!(split(&steps)[1], (2_048, 0, 0));
    }

    #[test]
    fn breakpoints_mean_nothing_to_openai() {
        let marked = [b(SYS, 2_048, true)];
        let plain = [b(SYS, 2_048, false)];
        assert_eq!(
            split(&openai(&[request(0, &marked), request(1, &marked)])),
            split(&openai(&[request(0, &plain), request(1, &plain)]))
        );
    }
}

// --- Generated sessions -------------------------------------------------------------

/// How the next request is made from the previous one.
#[derive(Debug, Clone)]
enum Edit {
    /// The same blocks again.
    Repeat,
    /// The previous blocks plus new ones.
    Extend(Vec<Segment>),
    /// The first `keep` blocks, then new ones (compaction, an edited system prompt).
    Replace { keep: usize, tail: Vec<Segment> },
}

fn segment() -> impl Strategy<Value = Segment> {
    // Few keys and token sizes, so that equal blocks recur by chance too.
    (0u64..6, prop_oneof![0u64..50, 100u64..1_500], any::<bool>()).prop_map(
        |(key, tokens, breakpoint)| Segment {
            key,
            tokens,
            breakpoint,
        },
    )
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        Just(Edit::Repeat),
        prop::collection::vec(segment(), 0..4).prop_map(Edit::Extend),
        (0usize..6, prop::collection::vec(segment(), 0..4))
            .prop_map(|(keep, tail)| Edit::Replace { keep, tail }),
    ]
}

fn session() -> impl Strategy<Value = Vec<PromptShape>> {
    (
        prop::collection::vec(segment(), 0..8),
        prop::collection::vec((edit(), 0u64..400_000, 0u64..2_000), 0..10),
    )
        .prop_map(|(first, edits)| {
            let mut requests = vec![PromptShape {
                segments: first,
                at_ms: 0,
                output_tokens: 0,
            }];
            for (edit, gap, output_tokens) in edits {
                let previous = requests.last().expect("one request at least");
                let mut segments = previous.segments.clone();
                match edit {
                    Edit::Repeat => {}
                    Edit::Extend(more) => segments.extend(more),
                    Edit::Replace { keep, tail } => {
                        segments.truncate(keep);
                        segments.extend(tail);
                    }
                }
                let at_ms = previous.at_ms + gap;
                requests.push(PromptShape {
                    segments,
                    at_ms,
                    output_tokens,
                });
            }
            requests
        })
}

fn provider() -> impl Strategy<Value = Provider> {
    prop_oneof![
        (
            any::<bool>(),
            prop_oneof![Just(1_024u64), 0u64..3_000],
            0usize..25,
            0usize..6
        )
            .prop_map(
                |(hour, min, lookback, max_breakpoints)| Provider::Anthropic(AnthropicRules {
                    ttl: if hour { Ttl::OneHour } else { Ttl::FiveMinutes },
                    min_cacheable_tokens: min,
                    lookback_blocks: lookback,
                    max_breakpoints,
                })
            ),
        (
            0u64..600_000,
            prop_oneof![Just(1_024u64), 0u64..3_000],
            0u64..300
        )
            .prop_map(|(ttl_ms, min, increment)| Provider::OpenAi(OpenAiRules {
                ttl_ms,
                min_cached_tokens: min,
                increment_tokens: increment,
            })),
    ]
}

/// Tokens of the longest run of equal leading blocks of `a` and `b`.
fn common_prefix_tokens(a: &[Segment], b: &[Segment]) -> u64 {
    a.iter()
        .zip(b)
        .take_while(|(x, y)| x.key == y.key && x.tokens == y.tokens)
        .map(|(x, _)| x.tokens)
        .sum()
}

proptest! {
    #[test]
    fn every_step_splits_exactly_what_it_sent(requests in session(), provider in provider()) {
        let steps = cache_model(&requests, &provider, &PriceTable::claude_sonnet());
        prop_assert_eq!(steps.len(), requests.len());
        for (step, request) in steps.iter().zip(&requests) {
            let sent: u64 = request.segments.iter().map(|s| s.tokens).sum();
            prop_assert_eq!(step.sent, sent);
            prop_assert_eq!(step.cached + step.written + step.uncached, step.sent);
            prop_assert_eq!(step.output, request.output_tokens);
        }
        let sum = totals(&steps);
        prop_assert_eq!(sum.cached + sum.written + sum.uncached, sum.sent);
    }

    #[test]
    fn nothing_is_read_that_was_not_sent_before(requests in session(), provider in provider()) {
        let steps = cache_model(&requests, &provider, &PriceTable::claude_sonnet());
        prop_assert_eq!(steps.first().map_or(0, |step| step.cached), 0);
        for (i, step) in steps.iter().enumerate() {
            let shared = requests[..i]
                .iter()
                .map(|earlier| common_prefix_tokens(&earlier.segments, &requests[i].segments))
                .max()
                .unwrap_or(0);
            prop_assert!(step.cached <= shared, "step {}: cached {} > shared {}", i, step.cached, shared);
        }
    }

    #[test]
    fn each_provider_keeps_its_own_shape(requests in session(), provider in provider()) {
        let steps = cache_model(&requests, &provider, &PriceTable::openai_gpt5());
        for step in &steps {
            match provider {
                Provider::OpenAi(rules) => {
                    prop_assert_eq!(step.written, 0);
                    let increment = rules.increment_tokens.max(1);
                    prop_assert!(
                        step.cached == 0
                            || (step.cached >= rules.min_cached_tokens
                                && (step.cached - rules.min_cached_tokens) % increment == 0)
                    );
                }
                Provider::Anthropic(rules) => {
                    prop_assert!(step.cached == 0 || step.cached >= rules.min_cacheable_tokens);
                    prop_assert!(
                        step.cached + step.written == 0
                            || step.cached + step.written >= rules.min_cacheable_tokens
                    );
                }
            }
        }
    }

    #[test]
    fn the_same_requests_cost_the_same(requests in session(), provider in provider()) {
        let prices = PriceTable::claude_sonnet();
        prop_assert_eq!(
            cache_model(&requests, &provider, &prices),
            cache_model(&requests, &provider, &prices)
        );
    }
}
