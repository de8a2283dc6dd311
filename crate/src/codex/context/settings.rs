//! What one turn's context depends on (the fields of Codex's `TurnContextItem` this library
//! models, spec codex.md §2.1), and the switches of the context quirks.

use alloc::string::String;
use alloc::vec::Vec;

use crate::codex::catalogue::ModelCatalogue;
use crate::codex::wording::{FRIENDLY_PERSONALITY, PRAGMATIC_PERSONALITY};

/// When the agent must ask before running a command (`approval_policy`, §1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum ApprovalPolicy {
    /// Never ask: failures are reported back to the model.
    Never,
    /// Ask before anything not known to be safe.
    UnlessTrusted,
    /// Run in the sandbox; ask to retry outside it when a command fails.
    OnFailure,
    /// The model decides when to ask (Codex's default).
    #[default]
    OnRequest,
}

impl ApprovalPolicy {
    /// The policy's configuration value.
    pub const fn as_str(self) -> &'static str {
        match self {
            ApprovalPolicy::Never => "never",
            ApprovalPolicy::UnlessTrusted => "unless-trusted",
            ApprovalPolicy::OnFailure => "on-failure",
            ApprovalPolicy::OnRequest => "on-request",
        }
    }
}

/// What the filesystem sandbox lets commands touch (`sandbox_mode`, §1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SandboxMode {
    /// Read anything, write nothing.
    ReadOnly,
    /// Read anything, write in cwd and the writable roots (Codex's default).
    #[default]
    WorkspaceWrite,
    /// No sandbox at all.
    DangerFullAccess,
}

impl SandboxMode {
    /// The mode's configuration value, as the permissions text names it.
    pub const fn as_str(self) -> &'static str {
        match self {
            SandboxMode::ReadOnly => "read-only",
            SandboxMode::WorkspaceWrite => "workspace-write",
            SandboxMode::DangerFullAccess => "danger-full-access",
        }
    }
}

/// Where a skill comes from; skills are listed in this order (§1.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "snake_case"))]
pub enum SkillScope {
    /// Shipped with the agent.
    System,
    /// Installed by an administrator.
    Admin,
    /// Found in the repository.
    #[default]
    Repo,
    /// In the user's own skills directory.
    User,
}

/// One available skill, as the skills list shows it.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Skill {
    /// The skill's name.
    pub name: String,
    /// What it is for, shortened when the list is over its budget.
    pub description: String,
    /// The path of its `SKILL.md`.
    pub path: String,
    /// Where it comes from: the first ordering key.
    pub scope: SkillScope,
}

/// The network domains a managed policy names; `<network>` appears only when they are
/// configured (§1.6).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct NetworkDomains {
    /// Domains commands may reach.
    pub allowed: Vec<String>,
    /// Domains they may not.
    pub denied: Vec<String>,
}

/// One execution environment of a turn with several (§1.6): where its commands run.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ExecEnvironment {
    /// The environment's id, as `<environment id="…">` names it.
    pub id: String,
    /// Its working directory.
    pub cwd: String,
    /// Its shell's name.
    pub shell: String,
}

/// A sub-agent the session has spawned, as `<subagents>` lists it (§1.6).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct Subagent {
    /// The agent's id (`agent-1`).
    pub id: String,
    /// Its name (`atlas`).
    pub name: String,
}

/// Everything a turn's initial context and its settings diffs depend on.
///
/// `Default` is a Codex CLI session as installed: cwd `/repo`, shell `bash`, the date
/// `2026-06-09` (the reference snapshot's; the core reads no clock, so the host supplies
/// the real one), timezone `Etc/UTC`, approval `on-request`, sandbox `workspace-write`
/// with the network restricted, no extra writable roots and no `$TMPDIR` (so cwd and `/tmp`
/// are writable), model `gpt-5.3-codex` with a
/// 272 000-token window, no model instructions (so no `<model_switch>` until the host sets
/// them), the default personality (written into base instructions rendered for that model),
/// no collaboration mode, developer instructions or skills.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct TurnSettings {
    /// The turn's working directory (absolute).
    pub cwd: String,
    /// The shell's name (`bash`, `zsh`, `powershell`).
    pub shell: String,
    /// The local date, `YYYY-MM-DD`; left out of `<environment_context>` when empty.
    pub current_date: String,
    /// The IANA time zone; `Etc/UTC` when empty (§1.6).
    pub timezone: String,
    /// When to ask before running a command.
    pub approval_policy: ApprovalPolicy,
    /// What the sandbox lets commands write.
    pub sandbox_mode: SandboxMode,
    /// Whether commands may use the network under workspace-write ([`TurnSettings::network_enabled`]).
    pub network_access: bool,
    /// Directories writable besides cwd (workspace-write only), in configuration order.
    pub writable_roots: Vec<String>,
    /// The value of `$TMPDIR` when it is set: workspace-write lists it as a writable root.
    #[cfg_attr(feature = "serde", serde(default))]
    pub tmpdir: Option<String>,
    /// `sandbox_workspace_write.exclude_slash_tmp`: `/tmp` is not writable under
    /// workspace-write.
    #[cfg_attr(feature = "serde", serde(default))]
    pub exclude_slash_tmp: bool,
    /// Managed network domains, rendered as `<network>`; `None` leaves the tag out.
    pub network: Option<NetworkDomains>,
    /// The execution environments when there are several: two or more replace `<cwd>` and
    /// `<shell>` by `<environments>` (§1.6); fewer, the turn's cwd and shell are the one
    /// environment.
    #[cfg_attr(feature = "serde", serde(default))]
    pub environments: Vec<ExecEnvironment>,
    /// The sub-agents, listed in the initial context's `<subagents>` (§1.6) and never in a
    /// diff (§2.4); empty leaves the element out.
    #[cfg_attr(feature = "serde", serde(default))]
    pub subagents: Vec<Subagent>,
    /// The model's slug.
    pub model: String,
    /// The model's full base instructions, carried by `<model_switch>` when the model
    /// changes (§1.4, X22); empty means the switch sends nothing.
    pub model_instructions: String,
    /// The personality the user chose: one of Codex's presets by name
    /// ([`PERSONALITY_PRESETS`]) or a text of its own; `None` for the client's default
    /// ([`DEFAULT_PERSONALITY`]).
    pub personality: Option<String>,
    /// A voice (realtime) conversation is active in this turn (`realtime_active`, §2.2 row
    /// 4): its start and end are announced in the developer bundle.
    #[cfg_attr(feature = "serde", serde(default))]
    pub realtime_active: bool,
    /// `experimental_realtime_start_instructions`: the text announcing a voice conversation
    /// in place of the client's; `None`: the client's.
    #[cfg_attr(feature = "serde", serde(default))]
    pub realtime_start_instructions: Option<String>,
    /// `previous_turn_settings.realtime_active`: whether the previous regular turn had a
    /// voice conversation. The session fills it in (`None` before the first turn); a full
    /// context after a compaction announces the end of one that stopped (§2.2 row 4).
    #[cfg_attr(feature = "serde", serde(default))]
    pub previous_realtime_active: Option<bool>,
    /// The collaboration mode's developer instructions; `None` or empty for no mode.
    pub collaboration_mode: Option<String>,
    /// Developer instructions from the configuration, sent raw.
    pub developer_instructions: Option<String>,
    /// The available skills.
    pub skills: Vec<Skill>,
    /// The model's context window in tokens; sizes the skills list (§1.3 row 8).
    pub context_window: Option<u64>,
    /// What the session's base instructions were rendered for; the session fills it in at
    /// its first turn. `None`: nothing is baked in, so a personality is always stated.
    #[cfg_attr(feature = "serde", serde(default))]
    pub base_instructions: Option<BaseInstructions>,
    /// The session's AGENTS.md is the user's global doc alone, no project doc taking part:
    /// under [`ContextRules::untitled_global_agents_md`] its heading then names no cwd. The
    /// session fills it in when it loads AGENTS.md.
    #[cfg_attr(feature = "serde", serde(default))]
    pub agents_md_global_only: bool,
}

/// The model and personality the session's base instructions were rendered with (§0.7).
///
/// Codex chooses its base instructions once, at the session's start, from that model's
/// template with the personality then in force written in, so the personality needs no
/// `<personality_spec>` of its own while the model and personality are those two
/// (`has_baked_personality`, §1.3 row 6).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct BaseInstructions {
    /// The model whose template the instructions came from.
    pub model: String,
    /// The personality written into them ([`TurnSettings::effective_personality`]).
    pub personality: String,
}

/// Codex 0.139.0's personality presets (`personality = "…"` in `config.toml`), each with the
/// message that states it. The model catalogue's own messages are vendor text, so these are
/// our words for the same styles; `none` has no message, so choosing it sends nothing.
pub const PERSONALITY_PRESETS: [(&str, &str); 3] = [
    ("none", ""),
    ("friendly", FRIENDLY_PERSONALITY),
    ("pragmatic", PRAGMATIC_PERSONALITY),
];

/// The personality of a session that never chose one. Codex 0.139.0 resolves an unset
/// personality to `pragmatic` (the lab: choosing `pragmatic` in such a session sends no
/// `<personality_spec>`, choosing `friendly` does).
pub const DEFAULT_PERSONALITY: &str = "pragmatic";

/// The message that states `personality`: a preset's, or the text itself; `None` when there
/// is nothing to say (`none`, or an empty text).
pub fn personality_message(personality: &str) -> Option<&str> {
    let message = PERSONALITY_PRESETS
        .iter()
        .find(|(name, _)| *name == personality)
        .map_or(personality, |(_, message)| message);
    Some(message).filter(|message| !message.is_empty())
}

impl Default for TurnSettings {
    fn default() -> Self {
        TurnSettings {
            cwd: "/repo".into(),
            shell: "bash".into(),
            current_date: "2026-06-09".into(),
            timezone: "Etc/UTC".into(),
            approval_policy: ApprovalPolicy::OnRequest,
            sandbox_mode: SandboxMode::WorkspaceWrite,
            network_access: false,
            writable_roots: Vec::new(),
            tmpdir: None,
            exclude_slash_tmp: false,
            network: None,
            environments: Vec::new(),
            subagents: Vec::new(),
            model: "gpt-5.3-codex".into(),
            model_instructions: String::new(),
            personality: None,
            realtime_active: false,
            realtime_start_instructions: None,
            previous_realtime_active: None,
            collaboration_mode: None,
            developer_instructions: None,
            skills: Vec::new(),
            context_window: Some(272_000),
            base_instructions: Some(BaseInstructions {
                model: "gpt-5.3-codex".into(),
                personality: DEFAULT_PERSONALITY.into(),
            }),
            agents_md_global_only: false,
        }
    }
}

impl TurnSettings {
    /// The personality in force: the chosen one, or [`DEFAULT_PERSONALITY`].
    ///
    /// ```
    /// use context_assembly::codex::context::TurnSettings;
    /// assert_eq!(TurnSettings::default().effective_personality(), "pragmatic");
    /// ```
    pub fn effective_personality(&self) -> &str {
        self.personality.as_deref().unwrap_or(DEFAULT_PERSONALITY)
    }

    /// Whether the base instructions already carry the personality in force: same model,
    /// same personality as when they were rendered.
    pub fn personality_is_baked(&self) -> bool {
        self.base_instructions.as_ref().is_some_and(|base| {
            base.model == self.model && base.personality == self.effective_personality()
        })
    }

    /// Whether the permissions block would differ: approval, sandbox, network status or,
    /// under workspace-write, the writable roots (§2.2 row 2). A cwd change alone does not
    /// count, although the rendered block names cwd as a writable root: Codex compares the
    /// permission profile, whose cwd entry is relative, so the block naming the old cwd stays
    /// in the history.
    pub fn permissions_differ(&self, other: &TurnSettings) -> bool {
        let roots_count = self.sandbox_mode == SandboxMode::WorkspaceWrite;
        self.approval_policy != other.approval_policy
            || self.sandbox_mode != other.sandbox_mode
            || self.network_enabled() != other.network_enabled()
            || (roots_count
                && (self.writable_roots != other.writable_roots
                    || self.tmpdir != other.tmpdir
                    || self.exclude_slash_tmp != other.exclude_slash_tmp))
    }

    /// Whether `<environment_context>` would differ, ignoring the shell as Codex does
    /// (`equals_except_shell`, §2.2), and the sub-agents, which diffs never state (§2.4). The filesystem counts, so a sandbox change re-sends
    /// the environment; the network status does not, as `<filesystem>` does not state it.
    pub fn environment_differs(&self, other: &TurnSettings) -> bool {
        self.location_differs(other)
            || self.current_date != other.current_date
            || self.timezone() != other.timezone()
            || self.network != other.network
            || super::environment::filesystem(self) != super::environment::filesystem(other)
    }

    /// Whether the place commands run changed: the cwd of a single environment, or the ids
    /// and cwds of several (§2.2, the environment row); shells are not compared.
    pub fn location_differs(&self, other: &TurnSettings) -> bool {
        let places = |settings: &TurnSettings| -> Vec<(String, String)> {
            match settings.environments.len() >= 2 {
                true => (settings.environments.iter())
                    .map(|environment| (environment.id.clone(), environment.cwd.clone()))
                    .collect(),
                false => Vec::from([(String::new(), settings.cwd.clone())]),
            }
        };
        places(self) != places(other)
    }

    /// Whether commands may use the network: always with full access, never under read-only
    /// (`codex exec` 0.139.0 has no network setting for it, as the lab showed), as configured
    /// under workspace-write.
    pub fn network_enabled(&self) -> bool {
        match self.sandbox_mode {
            SandboxMode::ReadOnly => false,
            SandboxMode::WorkspaceWrite => self.network_access,
            SandboxMode::DangerFullAccess => true,
        }
    }

    /// The writable roots the permissions block names under workspace-write: cwd, the
    /// configured roots, `/tmp` unless excluded and `$TMPDIR` when set — sorted, without
    /// duplicates or empty entries. Empty under the other modes.
    pub fn listed_writable_roots(&self) -> Vec<&str> {
        if self.sandbox_mode != SandboxMode::WorkspaceWrite {
            return Vec::new();
        }
        let mut roots: Vec<&str> = self.writable_roots.iter().map(String::as_str).collect();
        roots.push(&self.cwd);
        if !self.exclude_slash_tmp {
            roots.push("/tmp");
        }
        roots.extend(self.tmpdir.as_deref());
        roots.retain(|root| !root.is_empty());
        crate::sort::sort(&mut roots);
        roots.dedup();
        roots
    }

    /// The time zone as rendered: `Etc/UTC` when none is set.
    pub fn timezone(&self) -> &str {
        if self.timezone.is_empty() {
            "Etc/UTC"
        } else {
            &self.timezone
        }
    }
}

crate::switch::with_switches! {
    /// The switches of the context quirks. [`ContextRules::codex`] is the reference,
    /// [`ContextRules::recommended`] the fixes.
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    #[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
    pub struct ContextRules {
        /// X23 option `join_context_parts`: send each context message as one text part, its
        /// sections joined with `\n\n`, for providers without multi-part messages. Codex
        /// sends one part per section.
        pub join_context_parts: bool,
        /// X21 option `announce_mode_clear`: when the collaboration mode changes to one
        /// without instructions, say that the previous mode no longer applies. Codex sends
        /// nothing and the old mode's instructions stay in force in the history.
        pub announce_mode_clear: bool,
        /// X20 option `granular_diffs` (the part this module models): re-send developer
        /// instructions and the skills list when they change. Codex never diffs them.
        pub granular_diffs: bool,
        /// Snapshot \[C\] (X28): the developer instructions come before the permissions in the
        /// initial context's bundle; \[B\] puts the permissions first.
        pub developer_instructions_first: bool,
        /// The skills list comes before the permissions in the initial context's bundle, as
        /// \[C\]'s host skills section does (§10.2 item 7; Codex 0.171.0); \[B\] lists them last.
        pub skills_before_permissions: bool,
        /// Each workspace root's `.aws` is kept read-only beside its `.git`, `.agents` and
        /// `.codex` in `<filesystem>` (Codex 0.171.0; §1.6).
        pub protect_aws_folder: bool,
        /// AGENTS.md made of the user's global doc alone is headed `# AGENTS.md instructions`,
        /// without `for <cwd>`, which names the directory whose project docs took part
        /// (Codex 0.171.0).
        pub untitled_global_agents_md: bool,
        /// The release's model catalogue: how a model's outputs are cut (§3.2) and whether a
        /// personality is stated to it (§1.3 row 6).
        pub catalogue: ModelCatalogue,
    }
}

impl ContextRules {
    /// Codex CLI's behaviour (0.139.0, snapshot \[B\]).
    pub const fn codex() -> Self {
        ContextRules {
            join_context_parts: false,
            announce_mode_clear: false,
            granular_diffs: false,
            developer_instructions_first: false,
            skills_before_permissions: false,
            protect_aws_folder: false,
            untitled_global_agents_md: false,
            catalogue: ModelCatalogue::Codex0139,
        }
    }

    /// Codex CLI 0.171.0: the bundle in \[C\]'s order, `.aws` read-only, a global-only
    /// AGENTS.md untitled, its catalogue.
    pub const fn codex_0_171_0() -> Self {
        ContextRules {
            developer_instructions_first: true,
            skills_before_permissions: true,
            protect_aws_folder: true,
            untitled_global_agents_md: true,
            catalogue: ModelCatalogue::Codex0171,
            ..ContextRules::codex()
        }
    }

    /// Snapshot \[C\]'s World State (§10): \[B\]'s diffs, with the bundle order of X28.
    pub const fn world_state() -> Self {
        ContextRules {
            developer_instructions_first: true,
            ..ContextRules::codex()
        }
    }

    /// The fixes: mode clears announced, instructions and skills diffed; parts stay
    /// separate (the Responses API takes them).
    pub const fn recommended() -> Self {
        ContextRules {
            join_context_parts: false,
            announce_mode_clear: true,
            granular_diffs: true,
            ..ContextRules::codex()
        }
    }
}

impl Default for ContextRules {
    fn default() -> Self {
        ContextRules::codex()
    }
}
