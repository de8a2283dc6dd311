//! The model catalogue a Codex release ships (codex.md §3.2, §1.3 row 6): which models it
//! knows, and so how a model's tool outputs are cut and whether a personality is ever stated
//! to it. A model outside the catalogue runs on the client's fallback metadata: its outputs
//! are cut in bytes mode, and it has no personality messages, so choosing a personality sends
//! nothing (the conformance lab: an unknown slug under 0.139.0, and `gpt-5.3-codex`, which
//! 0.171.0 no longer lists, under 0.171.0).
//!
//! The slugs are facts read from each release's bundled catalogue; the instructions and
//! messages the catalogue holds are vendor text and are not copied.

use super::truncate::{TruncationPolicy, DEFAULT_TRUNCATION_LIMIT, TOKENS_MODE_MODELS};

crate::vocabulary::named_enum! {
    /// The model catalogue of one Codex release.
    ///
    /// ```
    /// use context_assembly::codex::catalogue::ModelCatalogue;
    /// use context_assembly::codex::truncate::TruncationPolicy;
    /// // `gpt-5.3-codex` left the catalogue: 0.171.0 cuts its outputs in bytes.
    /// assert_eq!(ModelCatalogue::Codex0139.truncation_policy("gpt-5.3-codex"), TruncationPolicy::Tokens(10_000));
    /// assert_eq!(ModelCatalogue::Codex0171.truncation_policy("gpt-5.3-codex"), TruncationPolicy::Bytes(10_000));
    /// ```
    pub enum ModelCatalogue {
        /// Codex CLI 0.139.0's (snapshot \[B\]).
        Codex0139 => "codex-0.139.0",
        /// Codex CLI 0.171.0's.
        Codex0171 => "codex-0.171.0",
    }
}

/// The models of 0.139.0's catalogue that cut in tokens mode (snapshot \[B\]'s).
const TOKENS_MODE_0_139_0: &[&str] = TOKENS_MODE_MODELS;

/// 0.171.0's catalogue: every model cuts in tokens mode. `gpt-5.4`, `gpt-5.4-mini`,
/// `gpt-5.3-codex` and `gpt-5.2` are gone from it.
const TOKENS_MODE_0_171_0: &[&str] = &[
    "gpt-6.2-sol",
    "gpt-6.2-astra",
    "gpt-6.1-sol",
    "gpt-6.1-terra",
    "gpt-6-sol",
    "gpt-6-astra",
    "gpt-6-luna",
    "gpt-5.6-sol",
    "gpt-5.6-terra",
    "gpt-5.6-luna",
    "gpt-5.5",
    "gpt-daybreak-blue-latest",
    "gpt-daybreak-red-latest",
    "codex-auto-review",
];

impl ModelCatalogue {
    /// The truncation policy of `slug` (§3.2): `Tokens(10_000)` for the catalogue's
    /// tokens-mode models, `Bytes(10_000)` for any other.
    pub fn truncation_policy(self, slug: &str) -> TruncationPolicy {
        let tokens_mode = match self {
            ModelCatalogue::Codex0139 => TOKENS_MODE_0_139_0,
            ModelCatalogue::Codex0171 => TOKENS_MODE_0_171_0,
        };
        match tokens_mode.contains(&slug) {
            true => TruncationPolicy::Tokens(DEFAULT_TRUNCATION_LIMIT),
            false => TruncationPolicy::Bytes(DEFAULT_TRUNCATION_LIMIT),
        }
    }

    /// Whether the catalogue gives `slug` personality messages, without which no
    /// `<personality_spec>` is ever sent (§1.3 row 6, §2.2 row 5). 0.139.0's models have
    /// them; 0.171.0 stated no personality in the lab, to a model of its catalogue
    /// (`gpt-5.5`) or not.
    pub fn states_personality(self, slug: &str) -> bool {
        match self {
            ModelCatalogue::Codex0139 => TOKENS_MODE_0_139_0.contains(&slug),
            ModelCatalogue::Codex0171 => false,
        }
    }
}

/// The models of 0.139.0's catalogue whose web search tool also searches images, as the lab
/// saw it (`gpt-5.4` yes, `gpt-5.3-codex` no); 0.171.0 lists neither.
const IMAGE_SEARCH_0_139_0: &[&str] = &["gpt-5.4"];

impl ModelCatalogue {
    /// Whether the web search tool offered to `slug` lists image results
    /// (`search_content_types`), which makes its definition longer.
    pub fn searches_images(self, slug: &str) -> bool {
        match self {
            ModelCatalogue::Codex0139 => IMAGE_SEARCH_0_139_0.contains(&slug),
            ModelCatalogue::Codex0171 => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_model_outside_the_catalogue_is_cut_in_bytes_and_never_told_a_personality() {
        for catalogue in ModelCatalogue::ALL {
            assert_eq!(
                catalogue.truncation_policy("my-local-llm"),
                TruncationPolicy::Bytes(DEFAULT_TRUNCATION_LIMIT)
            );
            assert!(!catalogue.states_personality("my-local-llm"));
        }
        assert!(ModelCatalogue::Codex0139.states_personality("gpt-5.4"));
        assert_eq!(
            ModelCatalogue::Codex0171.truncation_policy("gpt-5.5"),
            TruncationPolicy::Tokens(DEFAULT_TRUNCATION_LIMIT)
        );
    }
}
