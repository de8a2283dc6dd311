//! Profiles: every switch of the engine, and every constant a preset sets differently, as data.
//! Constants no preset changes (the restore limits of `compact::restore`, the binary
//! extensions of `read`) are `pub const`s in the module that uses them, each citing its spec
//! section.
//!
//! Code reads the knobs of a [`Profile`]; nothing branches on a profile's name. The presets
//! reproduce Claude Code and OpenAI Codex CLI release by release, quirks included:
//! [`Profile::claude_code`] and [`Profile::codex`] follow the current releases (Claude Code
//! 2.1.332, Codex CLI 0.171.0), [`Profile::claude_code_2_1_88`] and [`Profile::codex_0_139_0`]
//! keep the releases the specs were written for. [`Profile::recommended`] turns the fixes on,
//! [`Profile::world_state`] is Codex's World State snapshot, and [`Profile::opencode_style`]
//! and [`Profile::aider_style`] compact as OpenCode and Aider do. A difference between two
//! releases of one client is a rule or switch of the layer that owns the concept, set by each
//! release's preset (`docs/versions.md` says what changed and from which release).

pub use crate::collectors::file_context::FileContextRules;
use alloc::format;
use alloc::string::String;
use core::fmt;
use core::str::FromStr;

use crate::attachment::AttachmentRules;
use crate::codex::history_tokens::estimate_item_tokens;
use crate::codex::items::{Item, Role};
use crate::codex::rules::CodexRules;
use crate::compact::auto_policy::AutoPolicy;
use crate::compact::rules::CompactionRules;
use crate::compact::thresholds::ThresholdFormula;
use crate::deny::DenyRulesSwitches;
use crate::diff::{diff_snippet, SnippetReport, SnippetRules};
use crate::file_state::FileStateRules;
use crate::memory::MemoryRules;
use crate::mention::MentionRules;
use crate::path::ExpandRules;
use crate::read::ReadRules;
use crate::request::prefix::ClaudePrefix;
use crate::search::composer::insertion;

use crate::tokens::{estimate_tokens, TokenMethod};
use crate::Error;

/// The name of a preset profile.
///
/// # Example
/// ```
/// use context_assembly::ProfileName;
/// assert_eq!("codex".parse::<ProfileName>().unwrap(), ProfileName::Codex);
/// assert_eq!(ProfileName::ClaudeCode.as_str(), "claude-code");
/// assert!("Codex".parse::<ProfileName>().is_err()); // names are case-sensitive
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum ProfileName {
    /// Claude Code's current release (2.1.332), quirks included: the name follows the newest
    /// supported release.
    ClaudeCode,
    /// OpenAI Codex CLI's current release (0.171.0): the name follows the newest supported
    /// release.
    Codex,
    /// Claude Code 2.1.88, the release spec/claude-code.md describes.
    #[cfg_attr(feature = "serde", serde(rename = "claude-code-2.1.88"))]
    ClaudeCode2188,
    /// OpenAI Codex CLI 0.139.0, the release spec/codex.md describes.
    #[cfg_attr(feature = "serde", serde(rename = "codex-0.139.0"))]
    Codex0139,
    /// Our own: the originals' good ideas with their known defects fixed. The default
    /// wherever a host names no profile.
    #[default]
    Recommended,
    /// Codex's snapshot \[C\], World State (spec/codex.md §10): Codex with the settings,
    /// AGENTS.md and environment tracked as a world state diffed before every request.
    WorldState,
    /// Claude Code's request assembly with OpenCode's compaction (strategies.md §6–§7):
    /// prune, then an anchored summary, at OpenCode's overflow limit.
    #[cfg_attr(feature = "serde", serde(rename = "opencode-style"))]
    OpenCode,
    /// Claude Code's request assembly with Aider's chat-history budget (strategies.md
    /// §12.8): the older history summarised whenever it exceeds the budget.
    #[cfg_attr(feature = "serde", serde(rename = "aider-style"))]
    Aider,
}

impl ProfileName {
    /// All presets, in the order the playground shows them.
    pub const ALL: [ProfileName; 8] = [
        ProfileName::ClaudeCode,
        ProfileName::Codex,
        ProfileName::ClaudeCode2188,
        ProfileName::Codex0139,
        ProfileName::Recommended,
        ProfileName::WorldState,
        ProfileName::OpenCode,
        ProfileName::Aider,
    ];

    /// The name as users write it.
    pub const fn as_str(self) -> &'static str {
        match self {
            ProfileName::ClaudeCode => "claude-code",
            ProfileName::Codex => "codex",
            ProfileName::ClaudeCode2188 => "claude-code-2.1.88",
            ProfileName::Codex0139 => "codex-0.139.0",
            ProfileName::Recommended => "recommended",
            ProfileName::WorldState => "world-state",
            ProfileName::OpenCode => "opencode-style",
            ProfileName::Aider => "aider-style",
        }
    }

    /// The client release this preset reproduces; `None` for our own profiles.
    ///
    /// # Example
    /// ```
    /// use context_assembly::profile::{Client, ProfileName};
    /// let seed = ProfileName::ClaudeCode2188.release().unwrap();
    /// assert_eq!((seed.client, seed.version), (Client::ClaudeCode, "2.1.88"));
    /// assert_eq!(ProfileName::Codex.release().unwrap().version, "0.171.0");
    /// assert!(ProfileName::Recommended.release().is_none());
    /// ```
    pub const fn release(self) -> Option<Release> {
        let (client, version) = match self {
            ProfileName::ClaudeCode => (Client::ClaudeCode, "2.1.332"),
            ProfileName::ClaudeCode2188 => (Client::ClaudeCode, "2.1.88"),
            ProfileName::Codex => (Client::Codex, "0.171.0"),
            ProfileName::Codex0139 => (Client::Codex, "0.139.0"),
            ProfileName::Recommended
            | ProfileName::WorldState
            | ProfileName::OpenCode
            | ProfileName::Aider => return None,
        };
        Some(Release { client, version })
    }
}

crate::vocabulary::named_enum! {
    /// A client whose releases the presets reproduce.
    pub enum Client {
        /// Anthropic's Claude Code.
        ClaudeCode => "claude-code",
        /// OpenAI's Codex CLI.
        Codex => "codex",
    }
}

/// A client's release a preset reproduces.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Release {
    /// The client.
    pub client: Client,
    /// Its version, as npm publishes it.
    pub version: &'static str,
}

/// A preset with the release it reproduces, as `profileReleases()` lists them.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ProfileRelease {
    /// The preset's name.
    pub name: ProfileName,
    /// The client and version it reproduces; `None` for our own profiles.
    #[cfg_attr(feature = "serde", serde(flatten))]
    pub release: Option<Release>,
}

impl ProfileRelease {
    /// `name` with its release.
    pub const fn of(name: ProfileName) -> ProfileRelease {
        ProfileRelease {
            name,
            release: name.release(),
        }
    }
}

impl fmt::Display for ProfileName {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl FromStr for ProfileName {
    type Err = Error;

    fn from_str(s: &str) -> Result<Self, Error> {
        ProfileName::ALL
            .into_iter()
            .find(|name| name.as_str() == s)
            .ok_or_else(|| {
                let names: alloc::vec::Vec<alloc::string::String> = ProfileName::ALL
                    .iter()
                    .map(|name| format!("\"{name}\""))
                    .collect();
                Error::UnknownProfile {
                    given: s.into(),
                    expected: names.join(", "),
                }
            })
    }
}

/// Every knob the engine reads. Build one from a preset and change any field.
///
/// # Example
/// ```
/// use context_assembly::{Profile, ProfileName};
/// let mut profile = Profile::preset(ProfileName::ClaudeCode);
/// // Turn on one fix and keep every other quirk of the original.
/// if let Some(rules) = profile.change_snippets.as_mut() {
///     rules.number_from_new_file = true; // Q33
/// }
/// assert_eq!(profile.name, ProfileName::ClaudeCode);
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct Profile {
    /// The preset this profile started from.
    pub name: ProfileName,
    /// The @-mention grammar.
    pub mentions: MentionRules,
    /// How a change to a file becomes a snippet; `None` when the profile sends no change
    /// notes at all (Codex keeps no file state: spec/codex.md §8.1, X2).
    pub change_snippets: Option<SnippetRules>,
    /// How tokens are counted.
    pub token_method: TokenMethod,
    /// How input paths are expanded (§2.1).
    pub paths: ExpandRules,
    /// How Read deny rules match (§2).
    pub deny: DenyRulesSwitches,
    /// The Read tool's semantics (§3).
    pub read: ReadRules,
    /// The read-file-state cache (§4).
    pub file_state: FileStateRules,
    /// Nested CLAUDE.md and rules files (§8).
    pub memory: MemoryRules,
    /// What the session does with mentions and changed files (§3.7, §5.1).
    pub file_context: FileContextRules,
    /// The attachment pipeline and request assembly (§7).
    pub attachments: AttachmentRules,
    /// Which original's formula sets the compaction thresholds (§9.1, codex.md §4.1).
    pub thresholds: ThresholdFormula,
    /// The summary hand-off and the post-compact restore (§9.3–9.5).
    pub compaction: CompactionRules,
    /// Codex's own context, truncation and compaction (codex.md).
    pub codex: CodexRules,
    /// The Claude Code release whose system prompt and tools the requests send, as
    /// stand-ins of their measured size (`request::prefix`); `None`: the engine's own short
    /// prompt and tools (Codex's releases: `codex.prefix`).
    pub claude_prefix: Option<ClaudePrefix>,
}

impl Profile {
    /// Claude Code's current release, 2.1.332, as the conformance lab found it
    /// (docs/versions.md): the harness's notes in a system-role message, the session's
    /// context as attachments, its measured prefix, its deferred tools and agent types
    /// listed, Glob, Grep and TodoWrite not offered, no malware note after a Read and no stub
    /// for an unchanged re-read.
    pub fn claude_code() -> Profile {
        Profile {
            name: ProfileName::ClaudeCode,
            mentions: MentionRules::claude_code(),
            // Edit and Write need no read first; Write still refuses a file changed since
            // it was read.
            file_state: FileStateRules {
                writes_need_read: false,
                ..FileStateRules::claude_code()
            },
            // Q54 fixed: Edit and Write load nested memory as Read does; a nested memory
            // file is stamped with its mtime.
            memory: MemoryRules {
                trigger_on_writes: true,
                nested_stamped_with_mtime: true,
                ..MemoryRules::claude_code()
            },
            // Q11 fixed: a tool-wide Read deny stops the mentions too.
            deny: DenyRulesSwitches {
                tool_wide_rules_deny_attachments: true,
                ..DenyRulesSwitches::claude_code()
            },
            read: ReadRules {
                malware_note: false,
                unchanged_stub: false,
                // Q17 fixed: an empty file gets the empty-file warning.
                warn_empty_file: true,
                number_empty_last_line: true,
                past_end_warned_first: true,
                ..ReadRules::claude_code()
            },
            file_context: FileContextRules {
                malware_reminder_in_attachments: false,
                // Q21 fixed: a ranged mention's call note carries the range.
                call_note_shows_range: true,
                reference_oversized_mentions: true,
                // Q20 half fixed: only a whole read of a small file counts, and such a
                // re-mention still sends nothing.
                already_read_respects_ranges: true,
                already_read_small_whole_files_only: true,
                denied_mentions_load_memory: true,
                // Q15 fixed, and a listing leaves out denied names; Edit and Write refuse a
                // denied file.
                deny_memory_files: true,
                hide_denied_entries: true,
                refuse_writes_to_denied_files: true,
                ..FileContextRules::claude_code()
            },
            attachments: AttachmentRules::claude_code_2_1_332(),
            // The summary keeps the last record after it and names the tools used before it.
            compaction: CompactionRules {
                keep_recent_records: 1,
                summary_names_tools_used: true,
                exclude_ancestor_memory_files: true,
                first_response_usage_ignored: true,
                pad_estimate_after_usage: true,
                usage_from_own_estimate: true,
                min_threshold_window: 100_000,
                context_with_auto_summary: true,
                prompt_too_long_keeps_turns: true,
                ..CompactionRules::claude_code()
            },
            claude_prefix: Some(ClaudePrefix::ClaudeCode2332),
            ..Profile::claude_code_2_1_88()
        }
    }

    /// Claude Code 2.1.88, quirks included: the release spec/claude-code.md describes.
    pub fn claude_code_2_1_88() -> Profile {
        Profile {
            name: ProfileName::ClaudeCode2188,
            mentions: MentionRules::claude_code(),
            change_snippets: Some(SnippetRules::claude_code()),
            token_method: TokenMethod::ClaudeCode,
            paths: ExpandRules::claude_code(),
            deny: DenyRulesSwitches::claude_code(),
            read: ReadRules::claude_code(),
            file_state: FileStateRules::claude_code(),
            memory: MemoryRules::claude_code(),
            file_context: FileContextRules::claude_code(),
            attachments: AttachmentRules::claude_code(),
            thresholds: ThresholdFormula::ClaudeCode,
            compaction: CompactionRules::claude_code(),
            codex: CodexRules::off(),
            claude_prefix: Some(ClaudePrefix::ClaudeCode2188),
        }
    }

    /// OpenAI Codex CLI's current release, 0.171.0: 0.139.0's profile with the rules the
    /// conformance lab found changed ([`CodexRules::codex_0_171_0`]; docs/versions.md).
    pub fn codex() -> Profile {
        Profile {
            name: ProfileName::Codex,
            codex: CodexRules::codex_0_171_0(),
            ..Profile::codex_0_139_0()
        }
    }

    /// OpenAI Codex CLI 0.139.0: the release spec/codex.md describes.
    pub fn codex_0_139_0() -> Profile {
        Profile {
            name: ProfileName::Codex0139,
            mentions: MentionRules::codex(),
            change_snippets: None,
            token_method: TokenMethod::Codex,
            // Codex keeps no file state and loads no nested memory (spec/codex.md §8.1, §7):
            // the session's file context follows the original's rules where it has any.
            paths: ExpandRules::claude_code(),
            deny: DenyRulesSwitches::claude_code(),
            read: ReadRules {
                token_method: TokenMethod::Codex,
                ..ReadRules::claude_code()
            },
            file_state: FileStateRules::claude_code(),
            memory: MemoryRules::claude_code(),
            file_context: FileContextRules::codex(),
            attachments: AttachmentRules::codex(),
            thresholds: ThresholdFormula::Codex,
            // Codex retries auto-compaction whenever the limit is reached: no breaker.
            compaction: CompactionRules {
                auto_compact_breaker: false,
                // Codex has no switch that turns auto-compaction off (codex.md §4.1, X8).
                honour_auto_compact_switch: false,
                // Codex counts from the reported usage too, anchored on the last
                // model-generated item (codex.md §3.6).
                size_from_reported_usage: true,
                ..CompactionRules::claude_code()
            },
            codex: CodexRules::codex_0_139_0(),
            claude_prefix: None,
        }
    }

    /// Our recommendation: every fix switched on.
    pub fn recommended() -> Profile {
        Profile {
            name: ProfileName::Recommended,
            mentions: MentionRules::recommended(),
            change_snippets: Some(SnippetRules::recommended()),
            token_method: TokenMethod::Calibrated,
            paths: ExpandRules::recommended(),
            deny: DenyRulesSwitches::recommended(),
            read: ReadRules::recommended(),
            file_state: FileStateRules::recommended(),
            memory: MemoryRules::recommended(),
            file_context: FileContextRules::recommended(),
            attachments: AttachmentRules::recommended(),
            thresholds: ThresholdFormula::ClaudeCode,
            compaction: CompactionRules::recommended(),
            codex: CodexRules::off(),
            // The requests are Claude Code's: the current release's prefix, so that a
            // comparison with `claude-code` prices the fixes alone (the tools that release
            // dropped stay callable: only a profile that reproduces a release refuses them).
            claude_prefix: Some(ClaudePrefix::ClaudeCode2332),
        }
    }

    /// Codex's World State snapshot (spec/codex.md §10): Codex 0.139.0's profile with
    /// [`CodexRules::world_state`]. Built on 0.139.0, the release before the snapshot (of
    /// 22 August 2026), so that a comparison with `codex-0.139.0` shows the World State
    /// alone; 0.171.0 came three months after it.
    pub fn world_state() -> Profile {
        Profile {
            name: ProfileName::WorldState,
            codex: CodexRules::world_state(),
            ..Profile::codex_0_139_0()
        }
    }

    /// OpenCode's compaction (strategies.md §6.1, §6, §7) on Claude Code's requests: at the
    /// usable window (the window less the output limit) its prune clears old tool outputs
    /// with OpenCode's own constants, unscaled, and its anchored summary with a verbatim tail
    /// follows when the prune did not bring the context under that limit. The rest is
    /// [`Profile::claude_code_2_1_88`] rather than [`Profile::recommended`], so that a
    /// comparison with `claude-code-2.1.88` differs in the compaction strategy alone (Claude
    /// Code's token estimate is OpenCode's too: a quarter of the UTF-16 length, §6.6).
    pub fn opencode_style() -> Profile {
        Profile {
            name: ProfileName::OpenCode,
            compaction: CompactionRules {
                auto_policy: AutoPolicy::Opencode,
                ..CompactionRules::claude_code()
            },
            ..Profile::claude_code_2_1_88()
        }
    }

    /// Aider's chat-history budget (strategies.md §12.8) on Claude Code's requests: before
    /// each request, once the records exceed `clamp(window / 16, 1,024, 8,192)` tokens, the
    /// older part becomes a summary and the newest messages under half the budget stay.
    /// Each tool round counts as an exchange (Aider has none; the loop calls the model once
    /// a round), and the summary is made before the request rather than in the background.
    /// Aider's other half, files re-read into every request instead of kept in the history
    /// (§12.5), is not modelled: the request assembly is [`Profile::claude_code_2_1_88`]'s,
    /// for the same reason as [`Profile::opencode_style`]'s.
    pub fn aider_style() -> Profile {
        Profile {
            name: ProfileName::Aider,
            compaction: CompactionRules {
                auto_policy: AutoPolicy::Aider,
                ..CompactionRules::claude_code()
            },
            ..Profile::claude_code_2_1_88()
        }
    }

    /// The preset of that name.
    pub fn preset(name: ProfileName) -> Profile {
        match name {
            ProfileName::ClaudeCode => Profile::claude_code(),
            ProfileName::Codex => Profile::codex(),
            ProfileName::ClaudeCode2188 => Profile::claude_code_2_1_88(),
            ProfileName::Codex0139 => Profile::codex_0_139_0(),
            ProfileName::Recommended => Profile::recommended(),
            ProfileName::WorldState => Profile::world_state(),
            ProfileName::OpenCode => Profile::opencode_style(),
            ProfileName::Aider => Profile::aider_style(),
        }
    }

    /// The tokens this profile's requests count for a user prompt of `text`: what a token
    /// meter beside a prompt editor shows. Codex's profiles count the prompt as the Responses
    /// API message it travels as, its JSON's bytes / 4 (codex.md §3.5, X16); the others count
    /// the text with their token method.
    ///
    /// ```
    /// use context_assembly::tokens::{estimate_tokens, TokenMethod};
    /// use context_assembly::Profile;
    /// let prompt = "fix @src/a.ts";
    /// assert_eq!(Profile::claude_code().prompt_tokens(prompt), 3);
    /// assert_eq!(estimate_tokens(prompt, TokenMethod::Codex, None), 4);
    /// // {"type":"message","role":"user","content":[{"type":"input_text","text":"fix @src/a.ts"}]}
    /// assert_eq!(Profile::codex().prompt_tokens(prompt), 23);
    /// ```
    pub fn prompt_tokens(&self, text: &str) -> u64 {
        match self.codex.turn_context && self.codex.item_tokens {
            true => estimate_item_tokens(&Item::text(Role::User, text)),
            false => estimate_tokens(text, self.token_method, None),
        }
    }

    /// What replaces an accepted `@` token in a composer under this profile
    /// ([`crate::search::composer::insertion`]): as a mention its grammar reads back when
    /// `as_mention` says so, or by default when the profile attaches mentioned files;
    /// otherwise the path as Codex inserts it, as text.
    ///
    /// ```
    /// use context_assembly::Profile;
    /// assert_eq!(Profile::claude_code().completion_insertion("src/é", None), "@\"src/é\" ");
    /// assert_eq!(Profile::codex().completion_insertion("src/a b.ts", None), "\"src/a b.ts\" ");
    /// assert_eq!(Profile::codex().completion_insertion("src/a.ts", Some(true)), "@src/a.ts ");
    /// ```
    pub fn completion_insertion(&self, path: &str, as_mention: Option<bool>) -> String {
        let as_mention = as_mention.unwrap_or(self.file_context.attach_mentioned_files);
        insertion(path, as_mention, &self.mentions)
    }

    /// The change snippet this profile sends for a file that went from `before` to `after`,
    /// with why it is what it is; a profile without change snippets says that it never
    /// sends one.
    ///
    /// ```
    /// use context_assembly::Profile;
    /// let report = Profile::claude_code().snippet_report("a\n", "b\n");
    /// assert_eq!((report.text.as_str(), report.reason.as_str()), ("1\tb", "1 hunk with 8 lines of context"));
    /// assert!(Profile::codex().snippet_report("a\n", "b\n").reason.contains("keeps no file state"));
    /// ```
    pub fn snippet_report(&self, before: &str, after: &str) -> SnippetReport {
        match &self.change_snippets {
            Some(rules) => SnippetReport::new(diff_snippet(before, after, rules), rules),
            None => SnippetReport::never_sent(format!(
                "the {} profile keeps no file state, so it never sends change snippets \
                 (spec/codex.md §8.1, X2)",
                self.name
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_name_round_trips() {
        for name in ProfileName::ALL {
            assert_eq!(name.as_str().parse::<ProfileName>(), Ok(name));
            assert_eq!(Profile::preset(name).name, name);
        }
    }

    #[test]
    fn a_host_that_names_no_profile_gets_the_recommended_one() {
        assert_eq!(ProfileName::default(), ProfileName::Recommended);
    }

    #[test]
    fn a_profile_without_change_snippets_says_it_never_sends_one() {
        let report = Profile::codex().snippet_report("a\n", "b\n");
        assert_eq!(
            (report.text.as_str(), report.hunks, report.work),
            ("", 0, 0)
        );
        assert_eq!(
            report.reason,
            "the codex profile keeps no file state, so it never sends change snippets \
             (spec/codex.md §8.1, X2)"
        );
    }

    #[test]
    fn unknown_name_lists_the_allowed_ones() {
        let err = "".parse::<ProfileName>().unwrap_err();
        let message = alloc::string::ToString::to_string(&err);
        for name in ProfileName::ALL {
            assert!(message.contains(name.as_str()), "{message}");
        }
    }
}
