//! The provider's count of a request: one token counter for every profile, so that the
//! comparison prices the same bytes alike, and so that a replay can report the usage a
//! provider would have reported (`simulateUsage`, spec claude-code.md §6.3).

use alloc::collections::BTreeMap;

use super::AssistantStep;
use crate::compact::context_size::ProviderUsage;
use crate::request::{cache_key, Block, Request};
use crate::tokens::{estimate_tokens, TokenMethod};

/// The one token counter every profile's requests are billed with. A profile's own counter
/// is its client's estimate (Claude Code's `length / 4`, Codex's `bytes / 4`), which steers
/// its thresholds but is not what the provider charges; comparing profiles each measured
/// with its own ruler would price the same bytes differently. The calibrated counter is
/// fitted against a real tokenizer (spec/strategies.md §16), so it stands in for the
/// provider's count for every profile alike.
pub const BILLING_TOKENS: TokenMethod = TokenMethod::Calibrated;

/// Billed tokens of blocks, counted once per distinct block: a long session sends the same
/// block in every request.
#[derive(Default, Clone)]
pub(super) struct BillingCounter {
    seen: BTreeMap<u64, u64>,
}

impl BillingCounter {
    /// One block, keyed as the cache keys it. A stand-in is billed at the size measured on
    /// the release it stands in for: its text is ours, and shorter.
    pub(super) fn tokens(&mut self, key: u64, block: &Block) -> u64 {
        match &block.stand_in {
            Some(stand_in) => stand_in.tokens,
            None => self.count(key, &block.text) + block.media_tokens,
        }
    }

    /// A text, under `key`.
    pub(super) fn count(&mut self, key: u64, text: &str) -> u64 {
        *self
            .seen
            .entry(key)
            .or_insert_with(|| estimate_tokens(text, BILLING_TOKENS, None))
    }

    /// A whole request, every block in cache order.
    pub(super) fn request(&mut self, request: &Request) -> u64 {
        request
            .cache_order()
            .map(|(role, block)| self.tokens(cache_key(role, block), block))
            .sum()
    }
}

/// Billed tokens of a response: what the model wrote.
pub(super) fn response_tokens(blocks: &[AssistantStep]) -> u64 {
    let count = |text: &str| estimate_tokens(text, BILLING_TOKENS, None);
    blocks
        .iter()
        .map(|block| match block {
            AssistantStep::Text(text) | AssistantStep::Thinking(text) => count(text),
            AssistantStep::ToolUse(call) => count(&call.name) + count(&call.input),
        })
        .sum()
}

/// The usage a provider would report for a response of `blocks` to a request of
/// `request_tokens`: all of it as input (how the cache split it does not change the
/// total the thresholds read), and the response as output.
pub(super) fn simulated_usage(request_tokens: u64, blocks: &[AssistantStep]) -> ProviderUsage {
    ProviderUsage {
        input_tokens: request_tokens,
        output_tokens: response_tokens(blocks),
        ..ProviderUsage::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::{Category, StandIn};

    #[test]
    fn a_stand_in_is_billed_at_its_measured_size() {
        let mut block = Block::text(
            "system_static",
            Category::System,
            "ours".into(),
            BILLING_TOKENS,
        );
        let mut billing = BillingCounter::default();
        assert_eq!(billing.tokens(1, &block), 1);
        block.stand_in = Some(StandIn {
            release: "Claude Code 2.1.332".into(),
            tokens: 15_000,
        });
        assert_eq!(billing.tokens(2, &block), 15_000);
    }
}
