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
///     r#"unknown profile "claude": expected one of "claude-code", "codex", "claude-code-2.1.88", "codex-0.139.0", "recommended", "world-state", "opencode-style", "aider-style""#
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
        /// The presets' names, as the message lists them (`"claude-code", "codex", …`).
        expected: String,
    },
    /// A token-counting method that does not exist.
    UnknownTokenMethod {
        /// The name that was given.
        given: String,
    },
    /// A path that cannot be used: it contains NUL, escapes the root, or is malformed.
    InvalidPath {
        /// The path as it was given.
        path: String,
        /// What is wrong with it and what is allowed.
        reason: String,
    },
    /// A file-system operation the caller asked for failed (Node-style code and message).
    FileSystem {
        /// `ENOENT`, `EISDIR`, `ENOTEMPTY`…
        code: &'static str,
        /// Node's message, naming the operation and the path.
        message: String,
    },
    /// A configuration value (a rule, a setting) that cannot be used.
    InvalidConfig {
        /// Where the value was given, e.g. `permissions.deny[2]`.
        field: String,
        /// What is wrong with it and what is allowed.
        reason: String,
    },
    /// A compaction plan handed back that cannot be carried out: not one of the session's
    /// latest plans, or not the plan as it was made.
    UnusablePlan {
        /// What is wrong with it and what to do instead.
        reason: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::UnknownProfile { given, expected } => {
                write!(f, "unknown profile {given:?}: expected one of {expected}")
            }
            Error::UnknownTokenMethod { given } => write!(
                f,
                "unknown token method {given:?}: expected one of \"claude-code\", \"codex\", \"calibrated\", \"cl100k\""
            ),
            Error::InvalidPath { path, reason } => write!(f, "path {path:?}: {reason}"),
            Error::InvalidConfig { field, reason } => write!(f, "{field}: {reason}"),
            Error::FileSystem { message, .. } => f.write_str(message),
            Error::UnusablePlan { reason } => f.write_str(reason),
        }
    }
}

impl core::error::Error for Error {}
