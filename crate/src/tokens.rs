//! STUB — to be replaced by the tokens helper. Interface contract only.
use core::str::FromStr;
use crate::Error;

/// A token-counting method.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum TokenMethod {
    /// round(UTF-16 length / 4); / 2 for json, jsonl, jsonc.
    ClaudeCode,
    /// ceil(UTF-8 bytes / 4).
    Codex,
    /// Content-aware, fitted against o200k_base.
    Calibrated,
}

impl TokenMethod {
    /// The name as users write it.
    pub const fn as_str(self) -> &'static str {
        match self { TokenMethod::ClaudeCode => "claude-code", TokenMethod::Codex => "codex", TokenMethod::Calibrated => "calibrated" }
    }
}

impl FromStr for TokenMethod {
    type Err = Error;
    fn from_str(s: &str) -> Result<Self, Error> {
        [TokenMethod::ClaudeCode, TokenMethod::Codex, TokenMethod::Calibrated]
            .into_iter().find(|m| m.as_str() == s)
            .ok_or_else(|| Error::UnknownTokenMethod { given: s.into() })
    }
}

/// Estimate.
pub fn estimate_tokens(text: &str, _method: TokenMethod, _ext: Option<&str>) -> u64 { text.len() as u64 / 4 }
