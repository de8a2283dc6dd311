//! `Session`: a virtual workspace, the agent's Read/Edit/Write tools over it, and the turns
//! whose attachments tell the model about mentioned files, files changed on disk and nested
//! memory (spec claude-code.md §1–5, §8).
//!
//! Times are logical milliseconds given by the caller; nothing reads a clock. Paths may be
//! absolute, relative to the cwd, or `~/…`, and are confined to the virtual root.
//!
//! ```
//! use context_assembly::session::{Session, SessionConfig, SessionOptions};
//! use context_assembly::Profile;
//! let mut session = Session::new(SessionOptions {
//!     profile: Profile::claude_code_2_1_88(), // 2.1.332 needs no read before an edit
//!     cwd: "/p".into(),
//!     home: None,
//!     config: SessionConfig::default(),
//! })
//! .unwrap();
//! session.write_file("src/a.ts", "one\ntwo\n", 1_000).unwrap();
//! session.edit("src/a.ts", "two", "2", 2_000).unwrap(); // refused: not read yet
//! session.read("src/a.ts", None, None, 3_000).unwrap();
//! session.edit("src/a.ts", "two", "2", 4_000).unwrap(); // the agent's own edit: watched
//! session.write_file("src/a.ts", "one\n2\nthree\n", 5_000).unwrap(); // the user's
//! let turn = session.submit("go on", 6_000);
//! let note = (turn.attachments.iter())
//!     .find(|attachment| attachment.kind.as_str() == "edited_text_file")
//!     .unwrap();
//! assert!(note.text.ends_with("1\tone\n2\t2\n3\tthree\n</system-reminder>"));
//! ```

mod clock;
mod codex_thread;
mod codex_turn;
mod compaction;
mod conversation;
mod host;
mod list_tools;

mod pipeline;
mod policies;
mod respond;
mod tool_calls;
mod tool_dispatch;
mod tools;
mod turn;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::compact::model_window::{claude_code_model_window, ModelWindow, WindowOverrides};
use crate::compact::thresholds::{compaction_thresholds, ThresholdFormula, WindowThresholds};
use crate::vfs::{Content, DirEntry, Stat, TransientError};
use crate::workspace::{Workspace, WorkspaceOptions, WorkspaceRules};
use crate::{Error, Profile};

pub use crate::host::*;
pub use crate::profile::FileContextRules;
pub use crate::request::default_tools;
pub use crate::workspace::GrepOutputMode;
pub use crate::workspace::{FileStateRow, ToolResult, FILE_UNCHANGED_STUB};
pub use clock::local_date;
pub use compaction::*;
pub use policies::SESSION_POLICIES;
pub use turn::{ResponseBlock, Round, ToolCall, ToolInvocation, Turn, TurnFigures};

/// What the session knows beyond its files: settings, registries, the environment.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct SessionConfig {
    /// `permissions.deny` rule texts, e.g. `Read(./.env)` (project settings).
    pub deny: Vec<String>,
    /// Resources of connected MCP servers.
    pub mcp_resources: Vec<McpResource>,
    /// Known agent types.
    pub agents: Vec<String>,
    /// Further directories the agent works in.
    pub additional_directories: Vec<String>,
    /// Tool definitions; empty: the built-in set ([`default_tools`]).
    pub tools: Vec<ToolDefinition>,
    /// Names of tools loaded on demand, announced by `deferred_tools_delta`.
    pub deferred_tools: Vec<String>,
    /// Skills the Skill tool can run.
    pub skills: Vec<Skill>,
    /// `SLASH_COMMAND_TOOL_CHAR_BUDGET`: the skill listing's budget in characters; `None`:
    /// the profile's share of the context window (§7.10).
    pub skill_listing_char_budget: Option<u64>,
    /// Connected MCP servers and their instructions.
    pub mcp_servers: Vec<McpServer>,
    /// The model's id, when the host names one: [`SessionConfig::for_model`] takes the
    /// window and the output reserve from Claude Code's tables (§9.1).
    pub model: Option<String>,
    /// The model's context window in tokens.
    pub context_window: u64,
    /// Tokens reserved for the model's output: the effective window is the context window
    /// minus this (§9.1).
    pub output_reserve: u64,
    /// What the original reads from its environment about windows and thresholds
    /// (`CLAUDE_CODE_AUTO_COMPACT_WINDOW`, `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE`, …), set by the
    /// host (§9.1, §10.1).
    pub window_overrides: WindowOverrides,
    /// The system prompt's static part; `None`: the built-in one.
    pub system_prompt: Option<String>,
    /// `linux`, `darwin` or `win32`, for the environment block.
    pub platform: String,
    /// `git status` at the start; `None`: not a git repository.
    pub git_status: Option<String>,
    /// The local time zone's offset from UTC in minutes (dates are local, §7.7).
    pub utc_offset_minutes: i32,
    /// The active output style; `None` or `default`: none.
    pub output_style: Option<String>,
    /// `CLAUDE_CODE_ENABLE_TOKEN_USAGE_ATTACHMENT`: send `token_usage` reminders.
    pub token_usage_reminder: bool,
    /// A spending limit in US cents, for `budget_usd` reminders.
    pub budget_usd_cents: Option<u64>,
    /// An output-token budget for the turn, for `output_token_usage` reminders.
    pub output_token_budget: Option<u64>,
    /// `CLAUDE_CODE_DISABLE_ATTACHMENTS` / `--bare`: only queued commands are attached.
    pub disable_attachments: bool,
    /// Auto mode exists (compile-time TRANSCRIPT_CLASSIFIER).
    pub auto_mode_available: bool,
    /// Compaction reminders exist (COMPACTION_REMINDERS and `tengu_marble_fox`).
    pub compaction_reminders: bool,
    /// Plan mode's interview workflow.
    pub interview_mode: bool,
    /// The client runs in print mode (`claude -p`, the SDK), not in its terminal UI: Claude
    /// Code 2.1.332 then defers one tool fewer and lists no guide agent, and a typed
    /// `/compact` prints its plain result (the terminal's is dimmed, with a hint).
    pub print_mode: bool,
    /// The plan file; `None`: `~/.claude/plans/plan.md`.
    pub plan_file: Option<String>,
    /// The auto-memory directory relevant memories come from; `None`: no auto-memory.
    pub memory_dir: Option<String>,
    /// The permission mode at the start.
    pub permission_mode: PermissionMode,
    /// `autoCompactEnabled`: compact when the context reaches the auto-compact threshold.
    /// Ignored under a profile whose client has no such switch (Codex: a decision says so;
    /// `CompactionRules::honour_auto_compact_switch`).
    pub auto_compact: bool,
    /// Files the host pinned: attached again after a summary when the profile's
    /// `reinsert_pinned` is on.
    pub pinned: Vec<String>,
    /// Where the host keeps the session's full transcript. The summary message names it, so
    /// the model can look up what the summary left out (§9.3 item 8); Claude Code always
    /// has one (`~/.claude/projects/<cwd slug>/<session id>.jsonl`). `None`: the sentence
    /// is left out.
    pub transcript_path: Option<String>,
    /// Policies kept on for the whole session, which act on every request or tool call
    /// rather than compact ([`SESSION_POLICIES`]): `cline.file_tracker` lists the files
    /// changed outside the agent in the next request (strategies.md §4.3–§4.4),
    /// `opencode.read_guard` refuses an edit or write of a file not read, or changed since
    /// it was read (§8.1). Empty: none.
    pub policies: Vec<PolicyId>,
}

impl Default for SessionConfig {
    fn default() -> Self {
        SessionConfig {
            deny: Vec::new(),
            mcp_resources: Vec::new(),
            agents: Vec::new(),
            additional_directories: Vec::new(),
            tools: Vec::new(),
            deferred_tools: Vec::new(),
            skills: Vec::new(),
            skill_listing_char_budget: None,
            mcp_servers: Vec::new(),
            model: None,
            context_window: 200_000,
            output_reserve: 20_000,
            window_overrides: WindowOverrides::default(),
            system_prompt: None,
            platform: "linux".into(),
            git_status: None,
            utc_offset_minutes: 0,
            output_style: None,
            token_usage_reminder: false,
            budget_usd_cents: None,
            output_token_budget: None,
            disable_attachments: false,
            auto_mode_available: false,
            compaction_reminders: false,
            interview_mode: false,
            print_mode: false,
            plan_file: None,
            memory_dir: None,
            permission_mode: PermissionMode::Default,
            auto_compact: true,
            pinned: Vec::new(),
            transcript_path: None,
            policies: Vec::new(),
        }
    }
}

/// The thresholds a Session under `profile` compacts at, for a window and output reserve: the
/// profile's formula, the host's overrides (the auto-compact window, the percentage and the
/// blocking limit, §9.1), then the profile's auto-compaction strategy (OpenCode's overflow
/// limit, Aider's history budget). A Session decides by this function, and so does
/// `compactionThresholds` in JavaScript, so the two cannot disagree.
///
/// # Example
/// ```
/// use context_assembly::compact::model_window::WindowOverrides;
/// use context_assembly::session::session_thresholds;
/// use context_assembly::{Profile, ProfileName};
/// let none = WindowOverrides::default();
/// let claude = session_thresholds(&Profile::preset(ProfileName::ClaudeCode), &none, 200_000, 20_000);
/// assert_eq!(claude.autocompact, 167_000);
/// let opencode = session_thresholds(&Profile::preset(ProfileName::OpenCode), &none, 200_000, 20_000);
/// assert_eq!(opencode.autocompact, 180_000); // the window less the output limit
/// let aider = session_thresholds(&Profile::preset(ProfileName::Aider), &none, 200_000, 20_000);
/// assert_eq!(aider.history_budget, Some(8_192)); // 200,000 / 16, at most 8,192
/// ```
pub fn session_thresholds(
    profile: &Profile,
    overrides: &WindowOverrides,
    context_window: u64,
    output_reserve: u64,
) -> WindowThresholds {
    let context_window = context_window.max(profile.compaction.min_threshold_window);
    let window = overrides.window_input(context_window, output_reserve);
    let formula = overrides.adjust(compaction_thresholds(profile.thresholds, &window));
    (profile.compaction.auto_policy).thresholds(formula, window.context_window, output_reserve)
}

impl SessionConfig {
    /// The compaction thresholds of the configured window and output reserve, by `formula`
    /// (a profile's), with the host's overrides: the auto-compact window, the percentage and
    /// the blocking limit (§9.1). A Session also applies its profile's auto-compaction
    /// strategy: [`session_thresholds`].
    pub fn thresholds(&self, formula: ThresholdFormula) -> WindowThresholds {
        let overrides = &self.window_overrides;
        let window = overrides.window_input(self.context_window, self.output_reserve);
        overrides.adjust(compaction_thresholds(formula, &window))
    }

    /// A configuration for `model`: its window and output reserve from Claude Code's tables
    /// under `overrides` (§9.1), and why each is what it is; everything else the default.
    ///
    /// # Example
    /// ```
    /// use context_assembly::compact::model_window::WindowOverrides;
    /// use context_assembly::session::SessionConfig;
    /// let (config, why) = SessionConfig::for_model("claude-sonnet-4-6[1m]", WindowOverrides::default());
    /// assert_eq!((config.context_window, config.output_reserve), (1_000_000, 20_000));
    /// assert!(why.window_reason.contains("[1m]"));
    /// // With the 1M context disabled, the suffix is only a name.
    /// let off = WindowOverrides { disable_1m_context: true, ..WindowOverrides::default() };
    /// assert_eq!(SessionConfig::for_model("claude-sonnet-4-6[1m]", off).0.context_window, 200_000);
    /// ```
    pub fn for_model(model: &str, overrides: WindowOverrides) -> (SessionConfig, ModelWindow) {
        let window = claude_code_model_window(model, &overrides);
        let config = SessionConfig {
            model: Some(model.into()),
            context_window: window.context_window,
            output_reserve: window.output_reserve(),
            window_overrides: overrides,
            ..SessionConfig::default()
        };
        (config, window)
    }
}

/// How to start a session.
#[derive(Debug, Clone, PartialEq)]
pub struct SessionOptions {
    /// Every knob of the engine.
    pub profile: Profile,
    /// The working directory (absolute); it is created in the virtual FS.
    pub cwd: String,
    /// The user's home (absolute); `/home/user` when absent.
    pub home: Option<String>,
    /// Settings and registries.
    pub config: SessionConfig,
}

/// A scripted agent session over a virtual workspace.
#[derive(Debug, Clone)]
pub struct Session {
    profile: Profile,
    /// The files, the deny rules, the read-file state and memory.
    workspace: Workspace,
    config: SessionConfig,
    /// The transcript and everything the reminders read.
    conversation: conversation::Conversation,
    /// The latest time the agent acted at: [`Session::advance_clock`] keeps it from running
    /// backwards.
    clock_ms: u64,
}

impl Session {
    /// Starts a session: validates the paths and rules, creates cwd and home.
    ///
    /// # Errors
    /// A cwd or home that is not absolute or escapes the root, a malformed deny rule, or a
    /// policy in `config.policies` a session cannot keep on (or named twice).
    pub fn new(options: SessionOptions) -> Result<Session, Error> {
        let SessionOptions {
            profile,
            cwd,
            home,
            config,
        } = options;
        let home = home.unwrap_or_else(|| "/home/user".into());
        let workspace_options = WorkspaceOptions {
            cwd: &cwd,
            home: &home,
            deny: &config.deny,
            additional_directories: &config.additional_directories,
        };
        let rules = WorkspaceRules {
            paths: profile.paths,
            deny: profile.deny.clone(),
            read: profile.read.clone(),
            file_state: profile.file_state,
            memory: profile.memory,
            refuse_writes_to_denied_files: profile.file_context.refuse_writes_to_denied_files,
        };
        let workspace = Workspace::new(&workspace_options, rules)?;
        let mut conversation = conversation::Conversation::new(config.permission_mode);
        conversation.policies = policies::LivePolicies::new(&config.policies)?;
        conversation.breaker = crate::compact::thresholds::CompactionBreaker::new(
            profile.compaction.breaker_resets_each_human_turn,
        );
        Ok(Session {
            profile,
            workspace,
            config,
            conversation,
            clock_ms: 0,
        })
    }

    /// Moves the agent's clock to `at_ms`. Throttles, TTLs and dates measure time between
    /// the agent's acts, so a host that drives the session should call this with each act's
    /// time (the scenario runner and the JS `Session` do); the outside world's file events
    /// carry their own mtimes and are not checked.
    ///
    /// # Errors
    /// `at_ms` is before the latest time given: time only moves forward.
    ///
    /// # Example
    /// ```
    /// use context_assembly::session::{Session, SessionConfig, SessionOptions};
    /// use context_assembly::Profile;
    /// let options = SessionOptions { profile: Profile::recommended(), cwd: "/p".into(), home: None, config: SessionConfig::default() };
    /// let mut session = Session::new(options).unwrap();
    /// session.advance_clock(2_000).unwrap();
    /// session.advance_clock(2_000).unwrap(); // the same time again is fine
    /// let error = session.advance_clock(1_000).unwrap_err();
    /// assert_eq!(error.to_string(), "atMs: 1000 is before the session's clock (2000): time only moves forward");
    /// ```
    pub fn advance_clock(&mut self, at_ms: u64) -> Result<(), Error> {
        if at_ms < self.clock_ms {
            return Err(Error::InvalidConfig {
                field: "atMs".into(),
                reason: format!(
                    "{at_ms} is before the session's clock ({}): time only moves forward",
                    self.clock_ms
                ),
            });
        }
        self.clock_ms = at_ms;
        Ok(())
    }

    /// The profile the session runs.
    pub fn profile(&self) -> &Profile {
        &self.profile
    }

    /// The working directory.
    pub fn cwd(&self) -> &str {
        self.workspace.cwd()
    }

    /// Expands a path as the original's `expandPath` (§2.1), confined to the root
    /// ([`Workspace::expand`]).
    ///
    /// # Errors
    /// NUL, a `..` above the root, a leading `//`.
    pub fn expand(&self, path: &str) -> Result<String, Error> {
        self.workspace.expand(path)
    }

    /// The Read deny rule covering `path` (as given: `~/x`, relative), if one does
    /// ([`Workspace::denial_rule`]).
    pub fn denial_rule(&self, path: &str) -> Option<String> {
        self.workspace.denial_rule(path)
    }

    /// Creates or overwrites a file ([`Workspace::write_file`]).
    ///
    /// # Errors
    /// A bad path, or the path is a directory.
    pub fn write_file(
        &mut self,
        path: &str,
        content: impl Into<Content>,
        mtime_ms: u64,
    ) -> Result<(), Error> {
        self.workspace.write_file(path, content.into(), mtime_ms)?;
        let abs = self.workspace.expand(path)?;
        self.conversation.policies.host_changed(&abs);
        Ok(())
    }

    /// Deletes a file or an empty directory ([`Workspace::delete_file`]).
    ///
    /// # Errors
    /// A bad path, a missing file, a non-empty directory.
    pub fn delete_file(&mut self, path: &str, at_ms: u64) -> Result<(), Error> {
        self.workspace.delete_file(path, at_ms)?;
        let abs = self.workspace.expand(path)?;
        self.conversation.policies.host_deleted(&abs);
        Ok(())
    }

    /// Renames a file or directory ([`Workspace::rename`]).
    ///
    /// # Errors
    /// Bad paths, or what POSIX `rename` refuses.
    pub fn rename(&mut self, from: &str, to: &str, at_ms: u64) -> Result<(), Error> {
        self.workspace.rename(from, to, at_ms)?;
        // An editor's atomic save: the watcher (`atomic`, strategies.md §4.1) reports the
        // file renamed onto as changed; the one renamed away raises no change event.
        let to = self.workspace.expand(to)?;
        self.conversation.policies.host_changed(&to);
        Ok(())
    }

    /// Creates a directory and its parents ([`Workspace::mkdir`]).
    ///
    /// # Errors
    /// A bad path, or a file in the way.
    pub fn mkdir(&mut self, path: &str, at_ms: u64) -> Result<(), Error> {
        self.workspace.mkdir(path, at_ms)
    }

    /// Makes reads of `path` fail until cleared with `None`
    /// ([`Workspace::set_transient_error`]).
    ///
    /// # Errors
    /// A bad path.
    pub fn set_transient_error(
        &mut self,
        path: &str,
        kind: Option<TransientError>,
    ) -> Result<(), Error> {
        self.workspace.set_transient_error(path, kind)
    }

    /// The entries of a directory, in byte order ([`Workspace::list_dir`]).
    ///
    /// # Errors
    /// A bad path, a missing directory, a transient error.
    pub fn list_dir(&self, path: &str) -> Result<Vec<DirEntry>, Error> {
        self.workspace.list_dir(path)
    }

    /// Kind, size and mtime of a path ([`Workspace::stat`]).
    ///
    /// # Errors
    /// A bad path, a missing file, a transient error.
    pub fn stat(&self, path: &str) -> Result<Stat, Error> {
        self.workspace.stat(path)
    }

    /// A file's text as an editor shows it; `None` for binary contents
    /// ([`Workspace::read_file_text`]).
    ///
    /// # Errors
    /// A bad path, a missing file, a directory, a transient error.
    pub fn read_file_text(&self, path: &str) -> Result<Option<String>, Error> {
        self.workspace.read_file_text(path)
    }

    /// The read-file state, most recently used first.
    pub fn file_state(&self) -> Vec<FileStateRow> {
        self.workspace.file_state_rows()
    }

    /// Paths of the workspace matching an `@` query, best first
    /// ([`Workspace::search_files`]).
    pub fn search_files(&mut self, query: &str, limit: usize) -> crate::search::SearchResult {
        self.workspace.search_files(query, limit)
    }
}
