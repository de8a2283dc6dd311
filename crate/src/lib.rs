//! Context assembly for coding agents (crate docs are written in `docs` below).
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod diff;
mod error;
pub mod mention;
pub mod profile;
pub mod tokens;

pub use error::Error;
pub use profile::{Profile, ProfileName};
