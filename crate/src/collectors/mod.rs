//! The collectors: each looks at the session's state for one round and returns the
//! attachments of its kinds, with a decision for each one it considered.
//!
//! They sit above the transcript, which some of them count over (plan-mode cadence, todo
//! nudges), and below the strategies and the session, which call them. What they produce is
//! [`crate::attachment`]'s vocabulary.
//!
//! * [`reminders`]: the reminders of spec claude-code.md §7 (modes, todos, IDE state,
//!   listings, events), driven by one [`reminders::PassInput`] per pass.
//! * [`emission`]: the emission order, one table ([`EMISSION_ORDER`]) the session walks.
//! * [`file_context`]: the file collectors (mentions, changed files, nested memory) over
//!   the workspace, driven by one `FileContext` per pass.
//! * [`relevant_memories`]: the memory files a prompt makes relevant (§8.5).

pub mod emission;
pub mod file_context;
pub mod relevant_memories;
pub mod reminders;

pub use emission::{CollectorId, EmissionEntry, Phase, EMISSION_ORDER};
