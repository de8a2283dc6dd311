//! Context assembly for coding agents: what the model sees on each request, and why.
//!
//! A coding agent's model does not see "the conversation". It sees a request assembled anew
//! on every round: the transcript, plus files pulled in by @-mentions, plus notes that a file
//! changed on disk, plus memory files and reminders, minus what compaction threw away. This
//! crate is that machinery as a library. It reproduces Claude Code (profile `claude-code`)
//! and OpenAI Codex CLI (profile `codex`) faithfully, quirks included, and offers a
//! `recommended` profile that fixes their known defects.
//!
//! # Map
//!
//! | module | concept |
//! |---|---|
//! | [`vocabulary`] | what every layer reports in: decisions with their verdicts and reasons, channels, categories, compaction's policy ids, triggers and fates |
//! | [`switch`] | quirk switches: a profile section's boolean fields, by the camelCase names a scenario sets |
//! | [`profile`] | [`Profile`]: every switch, and every constant a preset sets differently, as data; the presets |
//! | [`mention`] | the @-mention grammar: files (quoted, ranges, fragments), MCP resources, agents |
//! | [`tokens`] | token estimates: Claude Code's, Codex's, and our calibrated one |
//! | [`diff`] | change snippets: what the model is shown when a file changed on disk |
//! | [`path`] | path normalisation: the one spelling every key and comparison uses |
//! | [`vfs`] | the in-memory file system: files, directories, given mtimes, atomic-save renames, transient errors |
//! | [`deny`] | Read deny rules: which files the permission settings keep out, gitignore semantics |
//! | [`read`] | the Read tool: line ranges and numbering, size and token limits, images, PDFs, listings |
//! | [`file_state`] | the read-file-state LRU: what was read, when, with shared contents |
//! | [`memory`] | nested memory: the CLAUDE.md and rules files a Read brings in, and why |
//! | [`host`] | what the host tells a session besides files: modes, the IDE's state, diagnostics, registries, tool definitions, the user's answer to a plan |
//! | [`workspace`] | one session's files, deny rules, read-file state and memory, with the agent's Read, Edit, Write, Grep and Glob tools and the `@` search's walk over them |
//! | [`attachment`] | attachments and decisions: the catalogue with frequency classes |
//! | [`collectors`] | what a pass attaches: the emission order, the file collectors (mentions, changed files, nested and eager memory), the reminders, relevant memories |
//! | [`wording`] | every model-facing sentence, in our own words, with a snapshot test |
//! | [`transcript`] | the stored records of a session, and the three definitions of a human turn |
//! | [`request`] | the request of one round: system, tools, user context and messages, with placement and token totals; (feature `serde`) the request as an Anthropic Messages or OpenAI Responses body |
//! | [`session`] | `Session`: a workspace and a conversation, the pipeline that walks the emission order, each turn's request, compaction with its survival report |
//! | [`compact`] | compaction's pure parts: thresholds, the summary hand-off, restore, the cheap policies of other agents |
//! | [`codex`] | Codex's own context: history items, initial context and settings diffs, AGENTS.md, truncation, its compaction |
//! | [`cache`] | prompt-cache economics: what each request reads from, writes to or pays outside the provider's cache, and its cost |
//! | [`search`] | fuzzy path search as Codex's `@` popup scores it |
//! | `scenario` | (feature `serde`) the JSON scenario format, its deterministic replay, the profile comparison and the recall measure |
//! | `import` | (feature `serde`) Claude Code and Codex session logs read as scenarios |
//! | `redact` | (feature `serde`) a scenario redacted for sharing, replaying to the same totals |
//! | `snapshot` | (feature `serde`) a live session journaled, saved and restored (the JS `Session`'s persistence) |
//!
//! # Profiles
//!
//! A [`Profile`] is plain data. Each quirk of an original is a named field citing its entry
//! in the specification (`Q…` for Claude Code, `X…` for Codex), so any single fix can be
//! switched on without the others. Code reads the knobs; nothing branches on a profile's
//! name.
//!
//! ```
//! use context_assembly::{diff::diff_snippet, Profile};
//! let mut profile = Profile::claude_code();
//! let rules = profile.change_snippets.as_mut().expect("claude-code sends change notes");
//! rules.number_from_new_file = true; // Q33 fixed, every other quirk kept
//! let snippet = diff_snippet("a\nb\n", "new\na\nB\n", rules);
//! assert_eq!(snippet.text, "1\tnew\n2\ta\n3\tB");
//! ```
//!
//! # Mentions
//!
//! [`mention::extract_mentions`] finds what a prompt mentions. Under `claude-code` it gives
//! exactly what the original's regular expressions give (JavaScript semantics, checked
//! differentially against the originals); `recommended` reads Unicode paths, escaped spaces,
//! `:10-20` ranges and reports a reversed range as a problem instead of reading nothing.
//! Spans are byte ranges; the wasm package converts them to UTF-16 offsets for JavaScript.
//!
//! ```
//! use context_assembly::mention::{extract_mentions, MentionRules};
//! let text = "fix @café.rs#L20-10 please";
//! let original = extract_mentions(text, &MentionRules::claude_code());
//! assert_eq!(original.files[0].line_start, Some(20)); // read as an empty range, silently
//! let fixed = extract_mentions(text, &MentionRules::recommended());
//! assert!(fixed.files[0].problem.is_some());
//! ```
//!
//! # Token estimates
//!
//! [`tokens::estimate_tokens`] counts the way each original does (`round(UTF-16 length / 4)`
//! for Claude Code, `ceil(bytes / 4)` for Codex) or with our calibrated estimator, fitted to
//! the o200k_base tokenizer, which stays within 10 % on code, prose, JSON, CJK text and
//! hash-heavy logs where the character counts are off by half. Every method is monotone:
//! appending text never lowers the estimate.
//!
//! # Change snippets
//!
//! [`diff::diff_snippet`] is Claude Code's snippet of a file changed outside the agent: a
//! port of jsdiff's Myers search with 8 lines of context, deleted lines left out, lines
//! numbered (from the old file, quirk Q33) and an 8192-unit cap.
//!
//! # Sessions, turns and requests
//!
//! A [`session::Session`] owns a virtual workspace, the read-file state, the transcript and
//! everything the reminders remember. `submit` (a human turn), `respond` (the model's
//! response, its tool calls executed) and `tool_round` run the attachment pipeline in the
//! original's emission order and return a [`session::Turn`]: the attachments, a decision for
//! everything considered, and the [`request::Request`] the model receives, whose token
//! totals per channel and per category each add up to its total.
//!
//! ```
//! use context_assembly::session::{Session, SessionConfig, SessionOptions};
//! use context_assembly::Profile;
//! let mut session = Session::new(SessionOptions {
//!     profile: Profile::claude_code(),
//!     cwd: "/p".into(),
//!     home: None,
//!     config: SessionConfig::default(),
//! })
//! .unwrap();
//! session.write_file("CLAUDE.md", "Use tabs.\n", 1_000).unwrap();
//! let turn = session.submit("hello", 2_000);
//! // Claude Code 2.1.332 sends the CLAUDE.md files as an attachment of their own.
//! let instructions = (turn.attachments.iter())
//!     .find(|attachment| attachment.kind.as_str() == "instructions")
//!     .unwrap();
//! assert!(instructions.text.contains("Use tabs."));
//! let request = turn.request.unwrap();
//! let by_channel = &request.tokens.by_channel;
//! assert_eq!(
//!     by_channel.system + by_channel.tools + by_channel.user_context + by_channel.messages,
//!     request.tokens.total
//! );
//! ```
//!
//! # Determinism and bounded work
//!
//! No wall clock, randomness or I/O: the same input gives the same output, natively and in
//! WebAssembly. Where an original uses a timeout (the 5 s diff timeout), we count work
//! against a fixed budget and report when it ran out, so a result never depends on the
//! machine's speed. Nothing panics on any input; fallible functions return [`Error`], whose
//! message says what was wrong and what is allowed.
//!
//! # Crate features
//!
//! * `std` (default): `std` support; the engine is identical without it (`no_std` + `alloc`,
//!   built for `wasm32v1-none` in CI). Costs nothing.
//! * `serde`: `Serialize`/`Deserialize` on the public value types and rules (camelCase), as
//!   the wasm package uses them, the JSON scenario format (`scenario`), parsed with
//!   `serde_json` (no_std + alloc), and a request as a provider's API body
//!   (`request::api_body`, which embeds JSON with `serde_json`'s `raw_value`).
//!
//! Always compiled in: `regex` (no_std + alloc) for Grep's patterns, with only the Unicode
//! tables of `\w`, `\d`, `\s` and case-insensitive matching; unless another crate of the
//! build turns more tables on, a pattern using another Unicode class (`\p{Greek}`) is an
//! error result that says so. It costs about 300 KB of
//! wasm, 120 KB gzipped (`make size`: 986 KB / 419 KB gzipped before it).
#![cfg_attr(not(feature = "std"), no_std)]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(test)]
extern crate std;

pub mod attachment;
pub mod cache;
pub mod codex;
pub mod collectors;
pub mod compact;
pub mod deny;
pub mod diff;
mod error;
pub mod file_state;
pub mod host;
#[cfg(feature = "serde")]
pub mod import;
mod js;
pub mod memory;
pub mod mention;
pub mod path;
pub mod profile;
pub mod read;
#[cfg(feature = "serde")]
pub mod redact;
pub mod request;
#[cfg(feature = "serde")]
pub mod scenario;
pub mod search;
pub mod session;
#[cfg(feature = "serde")]
pub mod snapshot;
mod sort;
pub mod switch;
pub mod tokens;
pub mod transcript;
pub mod vfs;
pub mod vocabulary;
pub mod wording;
pub mod workspace;

pub use error::Error;
pub use profile::{Profile, ProfileName};

/// The engine's version (the crate's, and the npm package's, which `make package` takes
/// from the same manifest).
///
/// ```
/// assert_eq!(context_assembly::VERSION.split('.').count(), 3);
/// ```
pub const VERSION: &str = env!("CARGO_PKG_VERSION");

/// The README's Rust examples, compiled and run as doc tests so that they stay true.
#[cfg(doctest)]
#[doc = include_str!("../../README.md")]
pub struct ReadmeExamples;
