//! Read deny rules: which files the permission settings keep out of the model's context
//! (spec/claude-code.md §2).
//!
//! A rule is written `Read(pattern)` in `permissions.deny`. [`DenyRules::new`] parses the
//! rules once, resolves where each pattern is anchored (its *root*, from the pattern's
//! prefix and the settings file it came from) and compiles the patterns with gitignore
//! semantics ([`gitignore`], npm `ignore@7.0.17` as the original uses it).
//! [`DenyRules::check`] then says whether a path is denied, and by which rule.
//!
//! # Roots
//!
//! | pattern | matched relative to | pattern given to the matcher |
//! |---|---|---|
//! | `//abs/x` | `/` | `/abs/x` |
//! | `~/x` | the home directory | `/x` |
//! | `/x` | the settings root of the rule's source: the original cwd (project, local, policy settings, CLI, command, session), `~/.claude` (user settings), the flag file's directory (flag settings) | `/x` |
//! | `./x`, `x` | the **current** cwd (Q13) | `x` |
//!
//! A pattern with a `/` inside (or a leading one) is anchored at its root; without one it
//! matches at any depth below it, so `Read(./.env)` also denies `a/b/.env` (Q12). A path
//! outside a rule's root is never denied by it: a relative rule does not reach above the
//! cwd.
//!
//! # What the caller must do
//!
//! Give [`DenyRules::check`] the path the way the original's `expandPath` makes it:
//! absolute, lexically normalised ([`crate::path::lexical_normalize`]) and in Unicode NFC.
//! The check normalises both again (and the rules' patterns and roots to NFC when they are
//! compiled, with the `nfc` feature), so it cannot be bypassed by `..`, `./`, `//`, a
//! trailing `/`, or an NFD spelling of either the path or the rule. Nothing is looked up
//! on disk: symlinks are the caller's to resolve (Q14), and the memory files the original
//! never checks (Q15) are the caller's to check.
//!
//! # Example
//! ```
//! use context_assembly::deny::{DenyRules, DenyRulesSwitches, Roots, RuleSource, RuleSpec};
//! let roots = Roots::new("/p", "/home/u");
//! let rules = [RuleSpec::new("Read(./.env)", RuleSource::ProjectSettings)];
//!
//! let original = DenyRules::new(&rules, &roots, &DenyRulesSwitches::claude_code()).unwrap();
//! let denial = original.check("/p/a/b/.env", "/p").expect("any depth (Q12)");
//! assert_eq!(denial.rule, "Read(./.env)");
//! assert!(original.check("/p/a/.env", "/p/a/b").is_none()); // above the current cwd (Q13)
//!
//! let fixed = DenyRules::new(&rules, &roots, &DenyRulesSwitches::recommended()).unwrap();
//! assert!(fixed.check("/p/a/b/.env", "/p").is_none()); // anchored at the project root
//! assert!(fixed.check("/p/.env", "/p/a/b").is_some()); // whatever the current cwd
//! ```

pub mod gitignore;
mod rule;

use alloc::string::String;
use alloc::vec::Vec;

use crate::path::{lexical_normalize, nfc};
use crate::Error;
use gitignore::Gitignore;
use rule::{parse_rule, RuleValue};

/// The settings a rule comes from; it decides the root of a `/x` pattern (§2.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub enum RuleSource {
    /// `~/.claude/settings.json`: `/x` is relative to the Claude config directory.
    UserSettings,
    /// `.claude/settings.json` of the project: `/x` is relative to the original cwd.
    ProjectSettings,
    /// `.claude/settings.local.json`: `/x` is relative to the original cwd.
    LocalSettings,
    /// Managed (policy) settings: `/x` is relative to the original cwd.
    PolicySettings,
    /// The `--settings` file: `/x` is relative to that file's directory.
    FlagSettings,
    /// A `--disallowedTools` argument: `/x` is relative to the original cwd.
    CliArg,
    /// A slash command's rules: `/x` is relative to the original cwd.
    Command,
    /// Rules added during the session: `/x` is relative to the original cwd.
    Session,
}

/// One entry of a `permissions.deny` array, with the settings it came from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct RuleSpec {
    /// The rule as written, e.g. `Read(./.env)`.
    pub text: String,
    /// Where it was written.
    pub source: RuleSource,
}

impl RuleSpec {
    /// A rule from `source`.
    pub fn new(text: &str, source: RuleSource) -> RuleSpec {
        RuleSpec {
            text: String::from(text),
            source,
        }
    }
}

/// The directories rules are anchored at, fixed for a session. All absolute, in NFC.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Roots {
    /// The cwd the session started in (the project root).
    pub original_cwd: String,
    /// The home directory, root of `~/x` patterns.
    pub home: String,
    /// The Claude config directory (`~/.claude` unless overridden), root of `/x` in user
    /// settings.
    pub claude_config_dir: String,
    /// The directory of the `--settings` file, root of `/x` in flag settings; the original
    /// cwd when there is none.
    pub flag_settings_dir: Option<String>,
    /// Further working directories (`additionalDirectories`), where the project's rules
    /// that match at any depth also apply under
    /// [`DenyRulesSwitches::floating_rules_cover_additional_directories`].
    #[cfg_attr(feature = "serde", serde(default))]
    pub additional_directories: Vec<String>,
}

impl Roots {
    /// Roots for a session started in `original_cwd` by a user whose home is `home`, with
    /// the default config directory `~/.claude` and no flag settings file.
    pub fn new(original_cwd: &str, home: &str) -> Roots {
        let mut claude_config_dir = String::from(home.trim_end_matches('/'));
        claude_config_dir.push_str("/.claude");
        Roots {
            original_cwd: String::from(original_cwd),
            home: String::from(home),
            claude_config_dir,
            flag_settings_dir: None,
            additional_directories: Vec::new(),
        }
    }
}

/// What a relative rule (`./x` or `x`) is matched against.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub enum RelativeRulesRoot {
    /// The cwd at the time of the check (the original, Q13): after a `cd` into a
    /// subdirectory, `Read(./.env)` no longer protects the project's `.env`.
    CurrentCwd,
    /// The original cwd, the root every other project rule uses.
    OriginalCwd,
}

crate::switch::with_switches! {
    /// The original's quirks in deny rules, one switch each.
    #[derive(Debug, Clone, PartialEq, Eq, Hash)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    #[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
    pub struct DenyRulesSwitches {
        /// Q11: `Read`, `Read()` and `Read(*)` deny every file-reading attachment. The original
        /// (`false`) sees only rules with content, so these never stop an attachment.
        pub tool_wide_rules_deny_attachments: bool,
        /// Q12: `./x` is anchored at its root, as `/x` is. The original (`false`) drops the
        /// `./` and so matches `x` at any depth: `Read(./.env)` denies `a/b/.env`.
        pub anchor_dot_slash_patterns: bool,
        /// Q13: the root of `./x` and `x` rules.
        pub relative_rules_root: RelativeRulesRoot,
        /// §2.4 (not in the quirk index): patterns ignore case, as npm `ignore()` does by
        /// default and the original keeps. Right on a case-insensitive disk; on a
        /// case-sensitive one such as the virtual workspace, `.ENV` names another file, which
        /// `Read(.env)` should not deny.
        pub case_insensitive_patterns: bool,
        /// §2.3, beside Q13: a project rule whose pattern matches at any depth (`**/x`, or a
        /// name with no `/`) also denies under each additional working directory. The original
        /// (`false`) matches project rules only below the project, so `Read(**/CLAUDE.md)`
        /// leaves `/shared/CLAUDE.md` of an additional directory readable, and sent as memory.
        pub floating_rules_cover_additional_directories: bool,
    }
}

impl DenyRulesSwitches {
    /// Claude Code's behaviour, quirks included.
    pub fn claude_code() -> DenyRulesSwitches {
        DenyRulesSwitches {
            tool_wide_rules_deny_attachments: false,
            anchor_dot_slash_patterns: false,
            relative_rules_root: RelativeRulesRoot::CurrentCwd,
            case_insensitive_patterns: true,
            floating_rules_cover_additional_directories: false,
        }
    }

    /// Every quirk fixed.
    pub fn recommended() -> DenyRulesSwitches {
        DenyRulesSwitches {
            tool_wide_rules_deny_attachments: true,
            anchor_dot_slash_patterns: true,
            relative_rules_root: RelativeRulesRoot::OriginalCwd,
            case_insensitive_patterns: false,
            floating_rules_cover_additional_directories: true,
        }
    }
}

/// Why a path is denied: the rule that matched.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Denial {
    /// The rule as written, e.g. `Read(./.env)`.
    pub rule: String,
    /// Where it was written.
    pub source: RuleSource,
    /// The pattern as matched, its root prefix removed (`.env`, `/abs/x`, `secrets/**`);
    /// empty for a tool-wide rule.
    pub pattern: String,
    /// The directory the pattern was matched relative to; `/` for a tool-wide rule.
    pub root: String,
}

/// A parsed, compiled set of Read deny rules.
#[derive(Debug, Clone)]
pub struct DenyRules {
    tool_wide: Option<(String, RuleSource)>,
    /// Each tool a rule denies whole (`Read`, `Bash(*)`), with the first such rule: the
    /// original leaves these out of the model's tools (whatever the switches say).
    removed_tools: Vec<(String, String)>,
    groups: Vec<RootGroup>,
    /// The project root, and the additional directories its floating rules also cover
    /// (empty unless the switch is on).
    original_cwd: String,
    covered_directories: Vec<String>,
}

/// The patterns sharing one root: one `ignore()` instance in the original.
#[derive(Debug, Clone)]
struct RootGroup {
    root: GroupRoot,
    entries: Vec<Entry>,
    matcher: Gitignore,
}

#[derive(Debug, Clone, PartialEq, Eq)]
enum GroupRoot {
    CurrentCwd,
    Fixed(String),
}

/// A pattern and the rule that gave it; a later rule with the same pattern replaces the
/// earlier one (the original keys a map by pattern).
#[derive(Debug, Clone)]
struct Entry {
    pattern: String,
    rule: String,
    source: RuleSource,
}

impl DenyRules {
    /// Parses and compiles `rules` (the `permissions.deny` entries of every settings
    /// source, in the order the original reads them: user, project, local, flag, policy,
    /// CLI, command, session). Rules for other tools are skipped.
    ///
    /// # Errors
    /// [`Error::InvalidConfig`] naming `permissions.deny[i]` (`i` is the index in `rules`)
    /// for a rule that is empty, has no tool name, or has a `(` without a matching `)`
    /// as its last character; and naming `roots.…` for a root that is not absolute. The
    /// original silently treats a malformed rule as the name of some other tool.
    ///
    /// # Example
    /// ```
    /// use context_assembly::deny::{DenyRules, DenyRulesSwitches, Roots, RuleSource, RuleSpec};
    /// use context_assembly::Error;
    /// let rules = [
    ///     RuleSpec::new("Bash(rm -rf *)", RuleSource::UserSettings), // another tool: skipped
    ///     RuleSpec::new("Read(secrets/**", RuleSource::UserSettings),
    /// ];
    /// let err = DenyRules::new(&rules, &Roots::new("/p", "/h"), &DenyRulesSwitches::claude_code())
    ///     .unwrap_err();
    /// assert!(matches!(&err, Error::InvalidConfig { field, .. } if field == "permissions.deny[1]"));
    /// ```
    pub fn new(
        rules: &[RuleSpec],
        roots: &Roots,
        switches: &DenyRulesSwitches,
    ) -> Result<DenyRules, Error> {
        let additional_directories = &roots.additional_directories;
        let roots = ResolvedRoots::new(roots)?;
        let mut tool_wide = None;
        let mut removed_tools: Vec<(String, String)> = Vec::new();
        let mut groups: Vec<RootGroup> = Vec::new();
        for (index, spec) in rules.iter().enumerate() {
            let value = parse_rule(&spec.text).map_err(|reason| Error::InvalidConfig {
                field: alloc::format!("permissions.deny[{index}]"),
                reason,
            })?;
            let removed = match &value {
                RuleValue::ReadToolWide => Some("Read"),
                RuleValue::OtherToolWide(tool) => Some(tool.as_str()),
                RuleValue::OtherTool | RuleValue::ReadPattern(_) => None,
            };
            if let Some(tool) = removed.filter(|t| !removed_tools.iter().any(|(n, _)| n == t)) {
                removed_tools.push((tool.into(), spec.text.clone()));
            }
            match value {
                RuleValue::OtherTool | RuleValue::OtherToolWide(_) => {}
                RuleValue::ReadToolWide => {
                    if switches.tool_wide_rules_deny_attachments && tool_wide.is_none() {
                        tool_wide = Some((spec.text.clone(), spec.source));
                    }
                }
                RuleValue::ReadPattern(content) => {
                    // Paths are matched in NFC (the original's `expandPath` normalises
                    // them), so a rule typed in NFD, as a macOS keyboard or file name
                    // gives it, must be too or it never matches anything.
                    let content = nfc(content);
                    let (root, pattern) = with_root(&content, spec.source, &roots, switches);
                    let entry = Entry {
                        pattern,
                        rule: spec.text.clone(),
                        source: spec.source,
                    };
                    add_entry(&mut groups, root, entry);
                }
            }
        }
        for group in &mut groups {
            let patterns: Vec<&str> = group
                .entries
                .iter()
                .map(|entry| entry.pattern.strip_suffix("/**").unwrap_or(&entry.pattern))
                .collect();
            group.matcher = Gitignore::new(&patterns, switches.case_insensitive_patterns);
        }
        let covered_directories = match switches.floating_rules_cover_additional_directories {
            true => (additional_directories.iter())
                .map(|dir| without_trailing_slash(nfc(lexical_normalize(dir))))
                .collect(),
            false => Vec::new(),
        };
        Ok(DenyRules {
            tool_wide,
            removed_tools,
            groups,
            original_cwd: roots.original_cwd,
            covered_directories,
        })
    }

    /// The rule that denies reading `path`, or `None` when reading it is allowed.
    ///
    /// `path` should be absolute, normalised and NFC (see the module docs); a relative one
    /// is taken relative to `cwd`, the current working directory, which is also the root
    /// of relative rules under [`RelativeRulesRoot::CurrentCwd`].
    ///
    /// # Example
    /// ```
    /// use context_assembly::deny::{DenyRules, DenyRulesSwitches, Roots, RuleSource, RuleSpec};
    /// let rules = [RuleSpec::new("Read(secrets/)", RuleSource::LocalSettings)];
    /// let deny = DenyRules::new(&rules, &Roots::new("/p", "/h"), &DenyRulesSwitches::claude_code())
    ///     .unwrap();
    /// assert!(deny.check("/p/secrets/key.pem", "/p").is_some());
    /// // `secrets/` names the directory's contents; the caller's path carries no stat, so
    /// // the bare directory path is not denied.
    /// assert!(deny.check("/p/secrets", "/p").is_none());
    /// ```
    pub fn check(&self, path: &str, cwd: &str) -> Option<Denial> {
        if let Some((rule, source)) = &self.tool_wide {
            return Some(Denial {
                rule: rule.clone(),
                source: *source,
                pattern: String::new(),
                root: String::from("/"),
            });
        }
        // Both spellings of a name (NFC, NFD) are one file to the original; the patterns
        // are NFC, so the path must be too, whoever the caller is.
        let cwd = nfc(absolute(cwd, "/"));
        let path = nfc(absolute(path, &cwd));
        for group in &self.groups {
            let root = match &group.root {
                GroupRoot::CurrentCwd => cwd.as_str(),
                GroupRoot::Fixed(root) => root.as_str(),
            };
            let relative = posix_relative(root, &path);
            // The original skips `../x`; `..` alone makes npm `ignore` throw, which stops
            // nothing either.
            if relative.is_empty() || relative == ".." || relative.starts_with("../") {
                continue;
            }
            if let Some(index) = group.matcher.ignoring_pattern(&relative) {
                return group.denial(index, root);
            }
        }
        self.floating_denial(&path, &cwd)
    }

    /// A project rule that matches at any depth, matched under the additional directory
    /// that holds `path`.
    fn floating_denial(&self, path: &str, cwd: &str) -> Option<Denial> {
        for dir in &self.covered_directories {
            let relative = posix_relative(dir, path);
            if relative.is_empty() || relative == ".." || relative.starts_with("../") {
                continue;
            }
            for group in &self.groups {
                let project = match &group.root {
                    GroupRoot::CurrentCwd => cwd == self.original_cwd,
                    GroupRoot::Fixed(root) => *root == self.original_cwd,
                };
                let Some(index) = group
                    .matcher
                    .ignoring_pattern(&relative)
                    .filter(|_| project)
                else {
                    continue;
                };
                if group.entries.get(index).is_some_and(|e| floats(&e.pattern)) {
                    return group.denial(index, dir);
                }
            }
        }
        None
    }

    /// The rule that denies the tool `name` whole (`Read`, `Read(*)`, `Bash`), which
    /// removes it from the model's tools: the original filters its tool list by these
    /// rules, so the model is not offered the tool and a call to it fails as a call to an
    /// unknown tool. `None` when no rule does. Under every profile: a tool-wide `Read`
    /// rule removes the Read tool even where it does not stop attachments (Q11).
    ///
    /// # Example
    /// ```
    /// use context_assembly::deny::{DenyRules, DenyRulesSwitches, Roots, RuleSource, RuleSpec};
    /// let rules = [
    ///     RuleSpec::new("Read", RuleSource::ProjectSettings),
    ///     RuleSpec::new("Bash(rm *)", RuleSource::ProjectSettings), // some uses only
    /// ];
    /// let deny = DenyRules::new(&rules, &Roots::new("/p", "/h"), &DenyRulesSwitches::claude_code())
    ///     .unwrap();
    /// assert_eq!(deny.removing_tool("Read"), Some("Read"));
    /// assert_eq!(deny.removing_tool("Bash"), None);
    /// // Q11: under claude-code the rule still lets attachments read files.
    /// assert!(deny.check("/p/a.ts", "/p").is_none());
    /// ```
    pub fn removing_tool(&self, name: &str) -> Option<&str> {
        (self.removed_tools.iter())
            .find(|(tool, _)| tool == name)
            .map(|(_, rule)| rule.as_str())
    }

    /// Whether no rule can deny anything.
    pub fn is_empty(&self) -> bool {
        self.tool_wide.is_none() && self.groups.is_empty()
    }
}

impl RootGroup {
    /// The rule behind the matched pattern, `pattern/**` first, as the original looks
    /// it up.
    fn denial(&self, index: usize, root: &str) -> Option<Denial> {
        let matched = self.entries.get(index)?;
        let stripped = matched
            .pattern
            .strip_suffix("/**")
            .unwrap_or(&matched.pattern);
        let with_globstar = alloc::format!("{stripped}/**");
        let entry = self
            .entries
            .iter()
            .find(|entry| entry.pattern == with_globstar)
            .or_else(|| self.entries.iter().find(|entry| entry.pattern == stripped))
            .unwrap_or(matched);
        Some(Denial {
            rule: entry.rule.clone(),
            source: entry.source,
            pattern: entry.pattern.clone(),
            root: String::from(root),
        })
    }
}

/// Whether a gitignore pattern matches at any depth: it starts with `**/`, or it has no `/`
/// but at its end.
fn floats(pattern: &str) -> bool {
    let name = pattern.strip_suffix("/**").unwrap_or(pattern);
    let name = name.strip_suffix('/').unwrap_or(name);
    name.starts_with("**/") || !name.contains('/')
}

fn add_entry(groups: &mut Vec<RootGroup>, root: GroupRoot, entry: Entry) {
    let index = match groups.iter().position(|group| group.root == root) {
        Some(index) => index,
        None => {
            groups.push(RootGroup {
                root,
                entries: Vec::new(),
                matcher: Gitignore::new::<&str>(&[], false),
            });
            groups.len() - 1
        }
    };
    let entries = &mut groups[index].entries;
    match entries.iter_mut().find(|e| e.pattern == entry.pattern) {
        Some(existing) => *existing = entry,
        None => entries.push(entry),
    }
}

/// [`Roots`], checked and normalised.
struct ResolvedRoots {
    original_cwd: String,
    home: String,
    claude_config_dir: String,
    flag_settings_dir: String,
}

impl ResolvedRoots {
    fn new(roots: &Roots) -> Result<ResolvedRoots, Error> {
        let check = |field: &str, value: &str| {
            if value.starts_with('/') {
                Ok(without_trailing_slash(nfc(lexical_normalize(value))))
            } else {
                Err(Error::InvalidConfig {
                    field: alloc::format!("roots.{field}"),
                    reason: alloc::format!("{value:?} must be an absolute path"),
                })
            }
        };
        let original_cwd = check("originalCwd", &roots.original_cwd)?;
        let flag_settings_dir = match &roots.flag_settings_dir {
            Some(dir) => check("flagSettingsDir", dir)?,
            None => original_cwd.clone(),
        };
        Ok(ResolvedRoots {
            home: check("home", &roots.home)?,
            claude_config_dir: check("claudeConfigDir", &roots.claude_config_dir)?,
            original_cwd,
            flag_settings_dir,
        })
    }
}

/// `patternWithRoot` (§2.3): the root a pattern is matched against and the pattern as the
/// matcher gets it.
fn with_root(
    pattern: &str,
    source: RuleSource,
    roots: &ResolvedRoots,
    switches: &DenyRulesSwitches,
) -> (GroupRoot, String) {
    if let Some(rest) = pattern.strip_prefix("//") {
        let mut anchored = String::from("/");
        anchored.push_str(rest);
        return (GroupRoot::Fixed(String::from("/")), anchored);
    }
    if let Some(rest) = pattern.strip_prefix('~') {
        if rest.starts_with('/') {
            return (GroupRoot::Fixed(roots.home.clone()), String::from(rest));
        }
    }
    if pattern.starts_with('/') {
        let root = match source {
            RuleSource::UserSettings => &roots.claude_config_dir,
            RuleSource::FlagSettings => &roots.flag_settings_dir,
            RuleSource::ProjectSettings
            | RuleSource::LocalSettings
            | RuleSource::PolicySettings
            | RuleSource::CliArg
            | RuleSource::Command
            | RuleSource::Session => &roots.original_cwd,
        };
        return (GroupRoot::Fixed(root.clone()), String::from(pattern));
    }
    let relative_root = match switches.relative_rules_root {
        RelativeRulesRoot::CurrentCwd => GroupRoot::CurrentCwd,
        RelativeRulesRoot::OriginalCwd => GroupRoot::Fixed(roots.original_cwd.clone()),
    };
    match pattern.strip_prefix("./") {
        Some(rest) if switches.anchor_dot_slash_patterns => {
            let mut anchored = String::from("/");
            anchored.push_str(rest);
            (relative_root, anchored)
        }
        Some(rest) => (relative_root, String::from(rest)),
        None => (relative_root, String::from(pattern)),
    }
}

/// `path` made absolute against `base` and normalised.
fn absolute(path: &str, base: &str) -> String {
    if path.starts_with('/') {
        return lexical_normalize(path);
    }
    let mut joined = String::from(base);
    joined.push('/');
    joined.push_str(path);
    lexical_normalize(&joined)
}

fn without_trailing_slash(mut path: String) -> String {
    if path.len() > 1 && path.ends_with('/') {
        path.pop();
    }
    path
}

/// Node's `path.posix.relative` for two absolute paths: `..` for each segment of `from`
/// not shared, then the rest of `to`. A trailing `/` is not kept, as in Node.
fn posix_relative(from: &str, to: &str) -> String {
    let from: Vec<&str> = from.split('/').filter(|s| !s.is_empty()).collect();
    let to: Vec<&str> = to.split('/').filter(|s| !s.is_empty()).collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts: Vec<&str> = Vec::with_capacity(from.len() - common + to.len() - common);
    parts.extend(core::iter::repeat_n("..", from.len() - common));
    parts.extend(&to[common..]);
    parts.join("/")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floating_project_rules_cover_additional_directories_when_switched_on() {
        let rules = [
            RuleSpec::new("Read(**/CLAUDE.md)", RuleSource::ProjectSettings),
            RuleSpec::new("Read(.env)", RuleSource::ProjectSettings),
            RuleSpec::new("Read(src/key.pem)", RuleSource::ProjectSettings),
        ];
        let mut roots = Roots::new("/p", "/h");
        roots.additional_directories = alloc::vec!["/shared".into()];
        let fixed = DenyRules::new(&rules, &roots, &DenyRulesSwitches::recommended()).unwrap();
        let denial = fixed
            .check("/shared/CLAUDE.md", "/p")
            .expect("`**/` floats");
        assert_eq!(
            (denial.rule.as_str(), denial.root.as_str()),
            ("Read(**/CLAUDE.md)", "/shared")
        );
        assert!(
            fixed.check("/shared/deep/.env", "/p").is_some(),
            "a bare name floats"
        );
        assert!(
            fixed.check("/shared/src/key.pem", "/p").is_none(),
            "an anchored path does not"
        );
        assert!(
            fixed.check("/elsewhere/CLAUDE.md", "/p").is_none(),
            "outside every root"
        );
        let original = DenyRules::new(&rules, &roots, &DenyRulesSwitches::claude_code()).unwrap();
        assert!(original.check("/shared/CLAUDE.md", "/p").is_none());
        assert!(original.check("/p/a/CLAUDE.md", "/p").is_some());
    }

    #[test]
    fn relative_paths_as_node_gives_them() {
        assert_eq!(posix_relative("/p", "/p/a/b"), "a/b");
        assert_eq!(posix_relative("/p", "/p"), "");
        assert_eq!(posix_relative("/p/a", "/p"), "..");
        assert_eq!(posix_relative("/p/a", "/q/b"), "../../q/b");
        assert_eq!(posix_relative("/", "/etc/x"), "etc/x");
        assert_eq!(posix_relative("/p", "/p/dir/"), "dir");
    }

    #[test]
    fn roots_follow_prefix_and_source() {
        let roots = ResolvedRoots::new(&Roots::new("/p/", "/h")).unwrap();
        let original = DenyRulesSwitches::claude_code();
        let root = |pattern: &str, source| with_root(pattern, source, &roots, &original);
        let fixed = |s: &str| GroupRoot::Fixed(String::from(s));
        assert_eq!(
            root("//etc/x", RuleSource::Session),
            (fixed("/"), "/etc/x".into())
        );
        assert_eq!(root("~/x", RuleSource::Session), (fixed("/h"), "/x".into()));
        assert_eq!(
            root("/x", RuleSource::UserSettings),
            (fixed("/h/.claude"), "/x".into())
        );
        assert_eq!(
            root("/x", RuleSource::FlagSettings),
            (fixed("/p"), "/x".into())
        );
        assert_eq!(
            root("/x", RuleSource::PolicySettings),
            (fixed("/p"), "/x".into())
        );
        assert_eq!(
            root("./x", RuleSource::Session),
            (GroupRoot::CurrentCwd, "x".into())
        );
        assert_eq!(
            root("~x", RuleSource::Session),
            (GroupRoot::CurrentCwd, "~x".into())
        );
        let fixed_switches = DenyRulesSwitches::recommended();
        assert_eq!(
            with_root("./x", RuleSource::Session, &roots, &fixed_switches),
            (fixed("/p"), "/x".into())
        );
    }

    /// A rule typed in NFD denies the NFC spelling of its path, and the other way round.
    #[cfg(feature = "nfc")]
    #[test]
    fn rules_and_paths_meet_in_nfc() {
        let (nfc, nfd) = ("na\u{ef}ve", "nai\u{308}ve");
        for switches in [
            DenyRulesSwitches::claude_code(),
            DenyRulesSwitches::recommended(),
        ] {
            for (rule_dir, path_dir) in [(nfd, nfc), (nfc, nfd), (nfd, nfd)] {
                let rule = alloc::format!("Read(./{rule_dir}/**)");
                let specs = [RuleSpec::new(&rule, RuleSource::ProjectSettings)];
                let rules = DenyRules::new(&specs, &Roots::new("/p", "/h"), &switches).unwrap();
                let path = alloc::format!("/p/{path_dir}/key.txt");
                assert!(rules.check(&path, "/p").is_some(), "{rule} against {path}");
            }
        }
    }

    #[test]
    fn relative_root_must_be_absolute() {
        let err = DenyRules::new(
            &[],
            &Roots::new("p", "/h"),
            &DenyRulesSwitches::claude_code(),
        )
        .unwrap_err();
        assert!(matches!(err, Error::InvalidConfig { field, .. } if field == "roots.originalCwd"));
    }
}
