//! Prompt-cache economics: for each request of a session, how many input tokens the
//! provider reads from its prompt cache, writes to it, or charges in full, and what that
//! costs.
//!
//! The input is deliberately plain. A request is a [`PromptShape`]: its content blocks in
//! the order the provider renders them (Anthropic: tools, system, messages; OpenAI: the
//! Responses API's instructions, tools and input items), each reduced to a [`Segment`]
//! (a content key, a token count, and whether it carries an Anthropic `cache_control`
//! breakpoint), plus the time it is sent and the output it produced. [`cache_model`] replays
//! the requests in order against a simulated cache and returns one [`StepCost`] per
//! request; [`totals`] adds them up.
//!
//! # Identity of a prefix
//!
//! Both providers cache *prefixes*: a cached entry can serve a later request only if every
//! token before its end is identical. Here a prefix is identified by the chain of its
//! segments' keys and token counts (a 64-bit hash chained block by block, plus the block
//! index), so two requests share the prefix ending at block `i` exactly when their first
//! `i + 1` segments are equal. Give equal content equal keys ([`content_key`] of the text,
//! with whatever else makes a block different, e.g. its role, mixed in).
//!
//! Granularity is the block: two requests that share the first half of a block share
//! nothing of it here. For Anthropic this is exact (entries end at block boundaries); for
//! OpenAI, which matches token by token, it undercounts by at most the shared head of the
//! first differing block.
//!
//! # Anthropic (explicit breakpoints)
//!
//! Rules, as modelled ([`AnthropicRules`]):
//!
//! 1. A request marks up to [`max_breakpoints`](AnthropicRules::max_breakpoints) blocks
//!    (4) with `cache_control`. The API rejects a request with more; here the first four
//!    count and the rest are ignored.
//! 2. A cache entry is the prefix up to and including a breakpoint block. After a request,
//!    the prefix at each of its breakpoints is in the cache, if it holds at least
//!    [`min_cacheable_tokens`](AnthropicRules::min_cacheable_tokens) (1,024 for Sonnet;
//!    shorter prefixes are silently not cached).
//! 3. Reading: from each breakpoint, the provider looks for an existing entry ending at the
//!    breakpoint block or at one of the blocks before it, up to
//!    [`lookback_blocks`](AnthropicRules::lookback_blocks) blocks counting the breakpoint
//!    itself (20). The longest live entry found is read: `cached` is its length.
//! 4. Writing: the tokens from the end of the entry read (or from the start) up to the end
//!    of the request's last breakpoint block are `written`, charged at the write rate of
//!    the TTL (1.25× base for 5 minutes, 2× for 1 hour); nothing is written when that
//!    prefix is under the minimum.
//! 5. Everything after the last breakpoint is `uncached`, charged at the base rate.
//! 6. Lifetime: an entry lives [`Ttl`] (5 minutes, or 1 hour) from its last use; being
//!    written or read is a use (a hit refreshes it at no charge). An entry last used at `t`
//!    serves requests sent strictly before `t + ttl`.
//!
//! Sources, read on 2026-11-29:
//! * Anthropic, "Prompt caching",
//!   <https://platform.claude.com/docs/en/build-with-claude/prompt-caching> (stored copy,
//!   undated): the prefix is tools, system, messages up to and including the block with
//!   `cache_control`; up to 4 breakpoints; the 5-minute lifetime is refreshed each time the
//!   cached content is used; the price multipliers (5 m write 1.25×, 1 h write 2×, hit
//!   0.1×). The minimum lengths (1,024 tokens for Sonnet 4.5/4.6, Opus 4.1/4; 2,048 for
//!   Haiku 3/3.5; 4,096 for Haiku 4.5 and Opus 4.5/4.6) as that page lists them are quoted
//!   in anthropics/anthropic-sdk-python issue #1194.
//! * The 20-block lookback, counting the breakpoint itself as the first block: "Claude
//!   Prompt Caching: Why Agent Loops Miss the 20-Block Lookback",
//!   <https://dev.to/ji_ai/claude-prompt-caching-why-agent-loops-miss-the-20-block-lookback-d36>,
//!   and Zapvol's "Cache Point Design",
//!   <https://zapvol-marketing.pages.dev/docs/en/context-engineering/prompt-caching> (both
//!   2026, restating Anthropic's documentation).
//!
//! # OpenAI (automatic prefix caching)
//!
//! Rules, as modelled ([`OpenAiRules`]):
//!
//! 1. Every request is cached automatically; nothing is marked and nothing is charged for
//!    writing (`written` is always 0).
//! 2. `cached` is the longest prefix the request shares with an earlier, live request,
//!    counted in whole blocks, then rounded down: 0 below
//!    [`min_cached_tokens`](OpenAiRules::min_cached_tokens) (1,024), else 1,024 plus a
//!    whole number of [`increment_tokens`](OpenAiRules::increment_tokens) (128).
//! 3. Lifetime: a prefix lives [`ttl_ms`](OpenAiRules::ttl_ms) from the last request that
//!    sent it. OpenAI documents 5 to 10 minutes of inactivity, up to an hour off-peak, with
//!    no guarantee; the default 5 minutes is the pessimistic end. Routing (a prefix is only
//!    found on the machine that computed it, ~15 requests a minute per prefix and key) is
//!    not modelled: every live prefix is found.
//! 4. The rest of the request is `uncached`, at the base rate; `cached` tokens at the
//!    cached-input rate.
//!
//! Sources, read on 2026-11-29:
//! * OpenAI, "Prompt caching", <https://developers.openai.com/docs/guides/prompt-caching>
//!   (stored copy, undated): automatic for prompts of 1,024 tokens or more, exact prefix
//!   matches, no additional fees; in-memory retention of 5–10 minutes of inactivity, up to
//!   one hour (as quoted from platform.openai.com/docs/guides/prompt-caching, fetched
//!   2026-03-05, in a third-party copy).
//! * OpenAI Cookbook, "Prompt Caching 201",
//!   <https://developers.openai.com/cookbook/examples/prompt_caching_201>: "cache hits
//!   occurring in increments of 128 tokens". Its note says it applies to models before
//!   GPT-5.6; GPT-5.6 and later add explicit breakpoints, a 30-minute TTL and a charge for
//!   writes, which this model does not cover.
//!
//! # Why a request read what it read
//!
//! [`cache_model_explained`] gives each request's figures with a [`CacheExplanation`]: why it
//! read what it read ([`CacheRead`]: a hit, the first request, a prefix under the minimum, an
//! expired entry, a changed prefix, an entry beyond the lookback, no breakpoint), what it
//! wrote, and where its breakpoints and the part read end, so that a view of one request and
//! a view of the session's costs are two readings of one model.
//!
//! # Invariants
//!
//! For every step, `cached + written + uncached == sent`, where `sent` is the sum of the
//! request's segment tokens; the first request reads nothing; no request reads more than
//! the longest prefix it shares with an earlier request. Work is bounded: each request
//! costs a number of map operations linear in its segments, whatever the rules' numbers.
//!
//! # Example
//! ```
//! use context_assembly::cache::{cache_model, content_key, PriceTable, PromptShape, Provider, Segment};
//! let system = Segment { key: content_key("You are a coding agent."), tokens: 3_000, breakpoint: true };
//! let first = Segment { key: content_key("user: hi"), tokens: 10, breakpoint: true };
//! let reply = Segment { key: content_key("assistant: hello"), tokens: 5, breakpoint: false };
//! let second = Segment { key: content_key("user: fix it"), tokens: 20, breakpoint: true };
//! let requests = [
//!     PromptShape { segments: vec![system, Segment { ..first }], at_ms: 0, output_tokens: 5 },
//!     PromptShape { segments: vec![system, Segment { breakpoint: false, ..first }, reply, second], at_ms: 30_000, output_tokens: 0 },
//! ];
//! let steps = cache_model(&requests, &Provider::anthropic(), &PriceTable::claude_sonnet());
//! assert_eq!((steps[0].cached, steps[0].written), (0, 3_010));
//! // The second request finds the first one's entry one block behind its last breakpoint.
//! assert_eq!((steps[1].cached, steps[1].written, steps[1].uncached), (3_010, 25, 0));
//! ```

mod anthropic;
mod explain;
mod openai;
mod prices;

use alloc::collections::BTreeMap;
use alloc::vec::Vec;

pub use explain::{Breakpoint, BreakpointState, CacheExplanation, CacheRead, ExplainedStep};
pub use prices::PriceTable;
#[cfg(feature = "serde")]
pub use prices::PRICE_KEYS;

/// One content block of a request, as the cache sees it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Segment {
    /// The block's identity: equal for equal content, wherever it sits (see
    /// [`content_key`]). Its position is accounted for by the chain of keys before it.
    pub key: u64,
    /// Its tokens.
    pub tokens: u64,
    /// The block carries an Anthropic `cache_control` breakpoint (ignored for OpenAI).
    pub breakpoint: bool,
}

/// One request: its blocks in rendering order, when it was sent, and what it produced.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct PromptShape {
    /// The blocks, in the order the provider renders them.
    pub segments: Vec<Segment>,
    /// When the request is sent (milliseconds on the session's clock). A clock that goes
    /// backwards counts as no time elapsed.
    pub at_ms: u64,
    /// Output tokens of the response (priced, never cached).
    pub output_tokens: u64,
}

/// The input tokens of one request split by how they are charged, and the request's cost.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct StepCost {
    /// Every input token of the request: `cached + written + uncached`.
    pub sent: u64,
    /// Read from the cache (Anthropic `cache_read_input_tokens`, OpenAI `cached_tokens`).
    pub cached: u64,
    /// Written to the cache at the write rate (Anthropic `cache_creation_input_tokens`;
    /// always 0 for OpenAI).
    pub written: u64,
    /// Charged at the base input rate (Anthropic `input_tokens`).
    pub uncached: u64,
    /// Output tokens.
    pub output: u64,
    /// The cost in micro-dollars (millionths of a US dollar), rounded to the nearest,
    /// halves up.
    pub cost_micro_usd: u64,
}

/// How long an Anthropic cache entry lives after its last use.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum Ttl {
    /// 5 minutes, the default (`cache_control: {"type": "ephemeral"}`); writes at 1.25×.
    #[default]
    #[cfg_attr(feature = "serde", serde(rename = "5m"))]
    FiveMinutes,
    /// 1 hour (`"ttl": "1h"`); writes at 2×.
    #[cfg_attr(feature = "serde", serde(rename = "1h"))]
    OneHour,
}

impl Ttl {
    /// The lifetime in milliseconds.
    pub const fn millis(self) -> u64 {
        match self {
            Ttl::FiveMinutes => 5 * 60_000,
            Ttl::OneHour => 60 * 60_000,
        }
    }
}

/// Anthropic's explicit prompt caching, as modelled (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct AnthropicRules {
    /// How long an entry lives after its last use, and so which write rate applies.
    pub ttl: Ttl,
    /// A prefix shorter than this is never cached: 1,024 for Sonnet 4.5/4.6 and Opus 4/4.1,
    /// 2,048 for Haiku 3/3.5, 4,096 for Haiku 4.5 and Opus 4.5/4.6.
    pub min_cacheable_tokens: u64,
    /// How many blocks, counting the breakpoint itself, are checked for an existing entry
    /// from each breakpoint (20). 0 checks none: nothing is ever read.
    pub lookback_blocks: usize,
    /// Breakpoints honoured per request (4); later ones are ignored.
    pub max_breakpoints: usize,
}

impl AnthropicRules {
    /// Claude Sonnet with the 5-minute TTL: 1,024-token minimum, 20-block lookback, 4
    /// breakpoints.
    pub const fn sonnet() -> Self {
        AnthropicRules {
            ttl: Ttl::FiveMinutes,
            min_cacheable_tokens: 1_024,
            lookback_blocks: 20,
            max_breakpoints: 4,
        }
    }
}

impl Default for AnthropicRules {
    fn default() -> Self {
        AnthropicRules::sonnet()
    }
}

/// OpenAI's automatic prompt caching, as modelled (see the module documentation).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct OpenAiRules {
    /// How long a prefix lives after the last request that sent it (5 minutes; OpenAI
    /// documents 5 to 10 minutes, up to an hour off-peak).
    pub ttl_ms: u64,
    /// No hit is shorter than this (1,024).
    pub min_cached_tokens: u64,
    /// Hits grow in steps of this many tokens beyond the minimum (128); 0 counts as 1.
    pub increment_tokens: u64,
}

impl Default for OpenAiRules {
    fn default() -> Self {
        OpenAiRules {
            ttl_ms: 5 * 60_000,
            min_cached_tokens: 1_024,
            increment_tokens: 128,
        }
    }
}

/// Whose cache the requests go through.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub enum Provider {
    /// The Anthropic Messages API: explicit breakpoints, charged writes.
    Anthropic(AnthropicRules),
    /// The OpenAI Responses API: automatic prefix caching, free writes.
    OpenAi(OpenAiRules),
}

impl Provider {
    /// Anthropic with Sonnet's rules and the 5-minute TTL.
    pub const fn anthropic() -> Self {
        Provider::Anthropic(AnthropicRules::sonnet())
    }

    /// OpenAI with the default rules.
    pub fn openai() -> Self {
        Provider::OpenAi(OpenAiRules::default())
    }
}

/// Replays `requests` in order through the provider's cache, which starts empty, and
/// prices each one.
///
/// A request only ever reads what an earlier request in the slice left in the cache.
///
/// # Example
/// ```
/// use context_assembly::cache::{cache_model, PriceTable, PromptShape, Provider, Segment};
/// let big = Segment { key: 1, tokens: 1_600, breakpoint: false };
/// let at = |at_ms| PromptShape { segments: vec![big], at_ms, output_tokens: 0 };
/// let steps = cache_model(&[at(0), at(60_000), at(400_000)], &Provider::openai(), &PriceTable::openai_gpt5());
/// // 1,600 shared tokens are read as 1,024 + 4 × 128; after five idle minutes, nothing is.
/// let cached: Vec<u64> = steps.iter().map(|step| step.cached).collect();
/// assert_eq!(cached, [0, 1_536, 0]);
/// ```
pub fn cache_model(
    requests: &[PromptShape],
    provider: &Provider,
    prices: &PriceTable,
) -> Vec<StepCost> {
    cache_model_explained(requests, provider, prices)
        .into_iter()
        .map(|step| step.cost)
        .collect()
}

/// [`cache_model`], with each request's reason: why it read what it read (or nothing: the
/// first request, a prefix under the minimum, an entry expired, a prefix changed, an entry
/// beyond the lookback), what it wrote, and where its breakpoints and the part read end.
///
/// # Example
/// ```
/// use context_assembly::cache::{cache_model_explained, CacheRead, PriceTable, PromptShape, Provider, Segment};
/// let small = Segment { key: 1, tokens: 700, breakpoint: true };
/// let at = |at_ms| PromptShape { segments: vec![small], at_ms, output_tokens: 0 };
/// let steps = cache_model_explained(&[at(0), at(1_000)], &Provider::anthropic(), &PriceTable::claude_sonnet());
/// // The same 700 tokens twice, and nothing is ever cached: they are under the minimum.
/// assert_eq!((steps[1].cost.cached, steps[1].why.read), (0, CacheRead::BelowMinimum));
/// assert!(steps[1].why.reason.contains("under the provider's 1,024-token minimum"));
/// ```
pub fn cache_model_explained(
    requests: &[PromptShape],
    provider: &Provider,
    prices: &PriceTable,
) -> Vec<ExplainedStep> {
    let ttl_ms = match provider {
        Provider::Anthropic(rules) => rules.ttl.millis(),
        Provider::OpenAi(rules) => rules.ttl_ms,
    };
    let mut entries = Entries::new(ttl_ms);
    let mut previous: Option<Prefixes> = None;
    requests
        .iter()
        .map(|request| {
            let prefixes = Prefixes::of(&request.segments);
            let before = previous.as_ref();
            let outcome = match provider {
                Provider::Anthropic(rules) => {
                    anthropic::step(request, &prefixes, before, rules, &mut entries)
                }
                Provider::OpenAi(rules) => {
                    openai::step(request, &prefixes, before, rules, &mut entries)
                }
            };
            let sent = prefixes.total();
            let mut cost = StepCost {
                sent,
                cached: outcome.cached,
                written: outcome.written,
                uncached: sent - outcome.cached - outcome.written,
                output: request.output_tokens,
                cost_micro_usd: 0,
            };
            cost.cost_micro_usd = prices.cost_micro_usd(&cost, write_rate(provider, prices));
            previous = Some(prefixes);
            ExplainedStep {
                cost,
                why: outcome.why,
            }
        })
        .collect()
}

fn write_rate(provider: &Provider, prices: &PriceTable) -> u64 {
    match provider {
        Provider::Anthropic(AnthropicRules {
            ttl: Ttl::OneHour, ..
        }) => prices.cache_write_1h_per_mtok,
        Provider::Anthropic(_) => prices.cache_write_5m_per_mtok,
        // Nothing is ever written under OpenAI; the rate is never multiplied by more than 0.
        Provider::OpenAi(_) => prices.input_per_mtok,
    }
}

/// The sum of `steps`, field by field (saturating). Its cost is the sum of the steps'
/// rounded costs, so it agrees with what a per-step view adds up to.
pub fn totals(steps: &[StepCost]) -> StepCost {
    steps
        .iter()
        .fold(StepCost::default(), |sum, step| StepCost {
            sent: sum.sent.saturating_add(step.sent),
            cached: sum.cached.saturating_add(step.cached),
            written: sum.written.saturating_add(step.written),
            uncached: sum.uncached.saturating_add(step.uncached),
            output: sum.output.saturating_add(step.output),
            cost_micro_usd: sum.cost_micro_usd.saturating_add(step.cost_micro_usd),
        })
}

/// A deterministic 64-bit key for a block's content: FNV-1a of its UTF-8 bytes.
///
/// Equal text gives an equal key on every platform. Mix in anything else that makes two
/// blocks different for the provider (a role, a block type, a tool-use id) by hashing it
/// with the text, e.g. `content_key("tool_result\u{0}" + text)`.
///
/// # Example
/// ```
/// use context_assembly::cache::content_key;
/// assert_eq!(content_key(""), 0xcbf2_9ce4_8422_2325); // FNV-1a's offset basis
/// assert_ne!(content_key("user: a"), content_key("assistant: a"));
/// ```
pub fn content_key(text: &str) -> u64 {
    fnv1a(FNV_OFFSET, text.as_bytes())
}

const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

fn fnv1a(mut hash: u64, bytes: &[u8]) -> u64 {
    for &byte in bytes {
        hash ^= u64::from(byte);
        hash = hash.wrapping_mul(FNV_PRIME);
    }
    hash
}

/// The prefixes of one request: for the prefix ending at each block, its identity (a
/// hash chained over every block up to it) and its tokens.
struct Prefixes {
    hashes: Vec<u64>,
    ends: Vec<u64>,
}

impl Prefixes {
    fn of(segments: &[Segment]) -> Prefixes {
        let mut hash = FNV_OFFSET;
        let mut end = 0u64;
        let mut prefixes = Prefixes {
            hashes: Vec::with_capacity(segments.len()),
            ends: Vec::with_capacity(segments.len()),
        };
        for segment in segments {
            hash = fnv1a(hash, &segment.key.to_le_bytes());
            hash = fnv1a(hash, &segment.tokens.to_le_bytes());
            end = end.saturating_add(segment.tokens);
            prefixes.hashes.push(hash);
            prefixes.ends.push(end);
        }
        prefixes
    }

    fn len(&self) -> usize {
        self.ends.len()
    }

    /// Tokens of the prefix ending at block `block` (0 past the end, which never happens
    /// for an index the request has).
    fn end(&self, block: usize) -> u64 {
        self.ends.get(block).copied().unwrap_or(0)
    }

    fn total(&self) -> u64 {
        self.ends.last().copied().unwrap_or(0)
    }

    /// The identity of the prefix ending at `block`: its length in blocks and its hash.
    fn id(&self, block: usize) -> (usize, u64) {
        (block, self.hashes.get(block).copied().unwrap_or(0))
    }

    /// How many leading blocks this request has in common with `other`.
    fn shared_with(&self, other: &Prefixes) -> usize {
        self.hashes
            .iter()
            .zip(&other.hashes)
            .take_while(|(a, b)| a == b)
            .count()
    }
}

/// The simulated cache: when each prefix was last used.
struct Entries {
    last_used: BTreeMap<(usize, u64), u64>,
    ttl_ms: u64,
}

impl Entries {
    fn new(ttl_ms: u64) -> Entries {
        Entries {
            last_used: BTreeMap::new(),
            ttl_ms,
        }
    }

    /// The entry exists and was used less than the TTL before `at_ms`.
    fn alive(&self, id: (usize, u64), at_ms: u64) -> bool {
        self.last_used
            .get(&id)
            .is_some_and(|&used| at_ms.saturating_sub(used) < self.ttl_ms)
    }

    /// When the entry was last used, live or not; `None` when there never was one.
    fn last_used(&self, id: (usize, u64)) -> Option<u64> {
        self.last_used.get(&id).copied()
    }

    /// Nothing was ever cached.
    fn is_empty(&self) -> bool {
        self.last_used.is_empty()
    }

    /// Writes or refreshes the entry at `at_ms`.
    fn touch(&mut self, id: (usize, u64), at_ms: u64) {
        let used = self.last_used.entry(id).or_insert(at_ms);
        *used = (*used).max(at_ms);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn seg(key: u64, tokens: u64, breakpoint: bool) -> Segment {
        Segment {
            key,
            tokens,
            breakpoint,
        }
    }

    #[test]
    fn content_key_is_fnv1a() {
        // Published FNV-1a 64 test vectors.
        assert_eq!(content_key("a"), 0xaf63_dc4c_8601_ec8c);
        assert_eq!(content_key("foobar"), 0x8594_4171_f739_67e8);
    }

    #[test]
    fn prefixes_differ_when_any_earlier_block_differs() {
        let a = Prefixes::of(&[seg(1, 10, false), seg(2, 10, false)]);
        let b = Prefixes::of(&[seg(9, 10, false), seg(2, 10, false)]);
        let c = Prefixes::of(&[seg(1, 11, false), seg(2, 10, false)]);
        assert_ne!(a.id(1), b.id(1));
        assert_ne!(a.id(1), c.id(1));
        assert_eq!(a.id(0), Prefixes::of(&[seg(1, 10, true)]).id(0));
        assert_eq!((a.end(0), a.end(1), a.total()), (10, 20, 20));
    }

    #[test]
    fn an_entry_serves_requests_strictly_before_its_ttl_runs_out() {
        let mut entries = Entries::new(1_000);
        entries.touch((0, 7), 500);
        assert!(entries.alive((0, 7), 1_499));
        assert!(!entries.alive((0, 7), 1_500));
        // A clock that goes backwards is no time elapsed, and never un-refreshes.
        assert!(entries.alive((0, 7), 0));
        entries.touch((0, 7), 100);
        assert!(entries.alive((0, 7), 1_499));
    }

    #[test]
    fn totals_add_every_field() {
        let step = StepCost {
            sent: 10,
            cached: 4,
            written: 3,
            uncached: 3,
            output: 2,
            cost_micro_usd: 7,
        };
        let sum = totals(&[step, step]);
        assert_eq!((sum.sent, sum.cached, sum.cost_micro_usd), (20, 8, 14));
        assert_eq!(totals(&[]), StepCost::default());
    }

    #[cfg(feature = "serde")]
    #[test]
    fn values_cross_as_camel_case_json() {
        let provider = serde_json::to_string(&Provider::anthropic()).unwrap();
        assert_eq!(
            provider,
            r#"{"anthropic":{"ttl":"5m","minCacheableTokens":1024,"lookbackBlocks":20,"maxBreakpoints":4}}"#
        );
        let back: Provider = serde_json::from_str(&provider).unwrap();
        assert_eq!(back, Provider::anthropic());
        let shape: PromptShape = serde_json::from_str(
            r#"{"segments":[{"key":1,"tokens":2,"breakpoint":true}],"atMs":3,"outputTokens":4}"#,
        )
        .unwrap();
        assert_eq!(shape.segments[0], seg(1, 2, true));
        let step = serde_json::to_string(&StepCost::default()).unwrap();
        assert_eq!(
            step,
            r#"{"sent":0,"cached":0,"written":0,"uncached":0,"output":0,"costMicroUsd":0}"#
        );
    }

    #[test]
    fn an_empty_request_costs_its_output_only() {
        let request = PromptShape {
            segments: vec![],
            at_ms: 0,
            output_tokens: 1_000,
        };
        for provider in [Provider::anthropic(), Provider::openai()] {
            let steps = cache_model(
                core::slice::from_ref(&request),
                &provider,
                &PriceTable::claude_sonnet(),
            );
            assert_eq!(steps[0].sent, 0);
            assert_eq!(steps[0].cost_micro_usd, 15_000);
        }
    }
}
