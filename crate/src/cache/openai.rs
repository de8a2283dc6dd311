//! One request through OpenAI's automatic prompt cache.

use super::{Entries, OpenAiRules, Prefixes, PromptShape};

/// Reads the longest live shared prefix and records every prefix of `request`; gives
/// `(cached, written)`, `written` always 0.
pub(super) fn step(
    request: &PromptShape,
    prefixes: &Prefixes,
    rules: &OpenAiRules,
    entries: &mut Entries,
) -> (u64, u64) {
    let shared = (0..prefixes.len())
        .rev()
        .find(|&block| entries.alive(prefixes.id(block), request.at_ms))
        .map_or(0, |block| prefixes.end(block));
    for block in 0..prefixes.len() {
        entries.touch(prefixes.id(block), request.at_ms);
    }
    (rounded_hit(shared, rules), 0)
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
}
