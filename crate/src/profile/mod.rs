//! Profiles: every constant and every switch of the engine, as data.
//!
//! Code reads the knobs of a [`Profile`]; nothing branches on a profile's name. The three
//! presets reproduce Claude Code ([`Profile::claude_code`]) and OpenAI Codex CLI
//! ([`Profile::codex`]) with their quirks, [`Profile::recommended`] turns the fixes on,
//! [`Profile::world_state`] is Codex's World State snapshot, and [`Profile::opencode_style`]
//! and [`Profile::aider_style`] compact as OpenCode and Aider do.

pub use crate::collectors::file_context::FileContextRules;
use alloc::format;
use core::fmt;
use core::str::FromStr;

use crate::attachment::AttachmentRules;
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

use crate::tokens::TokenMethod;
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
    /// Claude Code, quirks included (spec/claude-code.md).
    ClaudeCode,
    /// OpenAI Codex CLI (spec/codex.md).
    Codex,
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
    pub const ALL: [ProfileName; 6] = [
        ProfileName::ClaudeCode,
        ProfileName::Codex,
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
            ProfileName::Recommended => "recommended",
            ProfileName::WorldState => "world-state",
            ProfileName::OpenCode => "opencode-style",
            ProfileName::Aider => "aider-style",
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
            .ok_or_else(|| Error::UnknownProfile { given: s.into() })
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
}

impl Profile {
    /// Claude Code v2.1.88, quirks included.
    pub fn claude_code() -> Profile {
        Profile {
            name: ProfileName::ClaudeCode,
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
        }
    }

    /// OpenAI Codex CLI.
    pub fn codex() -> Profile {
        Profile {
            name: ProfileName::Codex,
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
                // Codex counts from the reported usage too, anchored on the last
                // model-generated item (codex.md §3.6).
                size_from_reported_usage: true,
                ..CompactionRules::claude_code()
            },
            codex: CodexRules::codex(),
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
        }
    }

    /// Codex's World State snapshot (spec/codex.md §10): Codex's profile with
    /// [`CodexRules::world_state`].
    pub fn world_state() -> Profile {
        Profile {
            name: ProfileName::WorldState,
            codex: CodexRules::world_state(),
            ..Profile::codex()
        }
    }

    /// OpenCode's compaction (strategies.md §6.1, §6, §7) on Claude Code's requests: at the
    /// usable window (the window less the output limit) its prune clears old tool outputs
    /// with OpenCode's own constants, unscaled, and its anchored summary with a verbatim tail
    /// follows when the prune did not bring the context under that limit. The rest is
    /// [`Profile::claude_code`] rather than [`Profile::recommended`], so that a comparison
    /// with `claude-code` differs in the compaction strategy alone (Claude Code's token
    /// estimate is OpenCode's too: a quarter of the UTF-16 length, §6.6).
    pub fn opencode_style() -> Profile {
        Profile {
            name: ProfileName::OpenCode,
            compaction: CompactionRules {
                auto_policy: AutoPolicy::Opencode,
                ..CompactionRules::claude_code()
            },
            ..Profile::claude_code()
        }
    }

    /// Aider's chat-history budget (strategies.md §12.8) on Claude Code's requests: before
    /// each request, once the records exceed `clamp(window / 16, 1,024, 8,192)` tokens, the
    /// older part becomes a summary and the newest messages under half the budget stay.
    /// Each tool round counts as an exchange (Aider has none; the loop calls the model once
    /// a round), and the summary is made before the request rather than in the background.
    /// Aider's other half, files re-read into every request instead of kept in the history
    /// (§12.5), is not modelled: the request assembly is [`Profile::claude_code`]'s, for the
    /// same reason as [`Profile::opencode_style`]'s.
    pub fn aider_style() -> Profile {
        Profile {
            name: ProfileName::Aider,
            compaction: CompactionRules {
                auto_policy: AutoPolicy::Aider,
                ..CompactionRules::claude_code()
            },
            ..Profile::claude_code()
        }
    }

    /// The preset of that name.
    pub fn preset(name: ProfileName) -> Profile {
        match name {
            ProfileName::ClaudeCode => Profile::claude_code(),
            ProfileName::Codex => Profile::codex(),
            ProfileName::Recommended => Profile::recommended(),
            ProfileName::WorldState => Profile::world_state(),
            ProfileName::OpenCode => Profile::opencode_style(),
            ProfileName::Aider => Profile::aider_style(),
        }
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
