//! Why a request read what it read from the prompt cache, and wrote what it wrote: the
//! reasons [`cache_model_explained`](super::cache_model_explained) gives beside each
//! request's figures, so that a view of one request (where the cache's entries end, why
//! nothing was read) and a view of the whole session (its costs) tell one story.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::StepCost;

crate::vocabulary::named_enum! {
    /// Why a request read from the cache what it read.
    pub enum CacheRead {
    /// It read the longest live entry that is a prefix of it.
    Hit => "hit",
    /// Nothing was sent before it: the cache is empty.
    FirstRequest => "first-request",
    /// The prefix it could share is under the provider's minimum: such a prefix is never
    /// cached, so it is never read.
    BelowMinimum => "below-minimum",
    /// An entry for a prefix of it existed, but its lifetime ran out before this request.
    Expired => "expired",
    /// No entry is a prefix of it: something before the end of every cached prefix changed.
    PrefixChanged => "prefix-changed",
    /// A live entry is a prefix of it, but it ends further before every breakpoint than the
    /// provider looks back (Anthropic: 20 blocks).
    BeyondLookback => "beyond-lookback",
    /// It marks no breakpoint (Anthropic): nothing is read or written.
    NoBreakpoint => "no-breakpoint",
    }
}

crate::vocabulary::named_enum! {
    /// What became of the prefix ending at one of a request's breakpoints.
    pub enum BreakpointState {
    /// It lies within the part read from the cache (its entry is refreshed at no charge).
    Read => "read",
    /// It was written to the cache, at the write rate.
    Written => "written",
    /// It is under the provider's minimum: it is not cached.
    TooSmall => "too-small",
    }
}

/// One breakpoint of a request and the prefix it ends.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Breakpoint {
    /// The block that carries it, in the order the provider renders the request.
    pub block: usize,
    /// Tokens of the prefix up to and including that block.
    pub tokens: u64,
    /// What became of that prefix.
    pub state: BreakpointState,
}

/// Why one request's input split as it did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct CacheExplanation {
    /// Why it read what it read (or nothing).
    pub read: CacheRead,
    /// The reading and the writing in a sentence or two, with the figures.
    pub reason: String,
    /// The last block of the part read from the cache (OpenAI: of the prefix shared with an
    /// earlier request, before its rounding), when any was.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub read_through: Option<usize>,
    /// The breakpoints honoured (Anthropic), in order; empty for OpenAI, which marks none.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub breakpoints: Vec<Breakpoint>,
}

/// One request's figures and why they are what they are.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExplainedStep {
    /// The input split by how it is charged, and the cost.
    pub cost: StepCost,
    /// Why.
    pub why: CacheExplanation,
}

/// A count with thousands separators, as the reasons show it: `12,000`.
pub(super) fn grouped(n: u64) -> String {
    let digits = format!("{n}");
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// `n` blocks, in words.
pub(super) fn blocks(n: usize) -> String {
    match n {
        1 => String::from("1 block"),
        _ => format!("{n} blocks"),
    }
}

/// How long ago, in seconds, as the reasons say it.
pub(super) fn seconds(ms: u64) -> String {
    format!("{} s", grouped(ms / 1_000))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn figures_read_as_people_write_them() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(1_024), "1,024");
        assert_eq!(grouped(1_234_567), "1,234,567");
        assert_eq!(blocks(1), "1 block");
        assert_eq!(blocks(3), "3 blocks");
        assert_eq!(seconds(301_500), "301 s");
    }
}
