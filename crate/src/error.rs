//! The one error type of the crate.

use alloc::string::String;
use core::fmt;

/// Everything that can go wrong in the core, with enough detail to say what was wrong,
/// where, and what is allowed.
///
/// # Example
/// ```
/// use context_assembly::{Error, ProfileName};
/// let err = "claude".parse::<ProfileName>().unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     r#"unknown profile "claude": expected one of "claude-code", "codex", "recommended""#
/// );
/// assert!(matches!(err, Error::UnknownProfile { .. }));
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum Error {
    /// A profile name that is not one of the presets.
    UnknownProfile {
        /// The name that was given.
        given: String,
    },
    /// A token-counting method that does not exist.
    UnknownTokenMethod {
        /// The name that was given.
        given: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownProfile { given } => write!(
                f,
                "unknown profile {given:?}: expected one of \"claude-code\", \"codex\", \"recommended\""
            ),
            Error::UnknownTokenMethod { given } => write!(
                f,
                "unknown token method {given:?}: expected one of \"claude-code\", \"codex\", \"calibrated\""
            ),
        }
    }
}

impl core::error::Error for Error {}
