//! Scenarios: a scripted session in JSON, replayed deterministically (feature `serde`).
//!
//! A scenario gives the workspace's initial files and configuration, then steps: prompts,
//! assistant responses with tool calls (executed against the virtual file system), edits
//! made outside the agent, mode changes, IDE state, diagnostics, time, registry changes.
//! [`run_scenario`] replays it and returns one [`crate::session::Turn`] per step. The
//! format is documented by `web/scenarios/scenario.schema.json`; [`parse_scenario`]
//! reports a bad value with its JSON path and what is allowed.
//!
//! ```
//! use context_assembly::scenario::{parse_scenario, run_scenario};
//! let scenario = parse_scenario(r#"{
//!   "profile": "claude-code",
//!   "files": { "src/a.ts": "one\n" },
//!   "steps": [ { "kind": "user", "prompt": "look at @src/a.ts" } ]
//! }"#).unwrap();
//! let trace = run_scenario(&scenario).unwrap();
//! assert_eq!(trace.steps[0].turn.attachments[0].kind.as_str(), "file");
//! ```

mod billing;
mod compare;
pub(crate) mod parse;
mod plan;
mod preview;
mod recall;
pub(crate) mod run;
mod switches;
mod trace;

use alloc::string::String;
use alloc::vec::Vec;

use crate::session::{
    BackgroundStatus, DiagnosticFile, IdeSelection, McpServer, PermissionMode, PlanApproval,
    SessionConfig, Skill,
};
use crate::ProfileName;

pub use billing::BILLING_TOKENS;
pub use compare::{
    account_trace, compare_profiles, compare_profiles_reporting, prices_for, provider_for,
    CompactionSeen, CompareOptions, CompareStep, Comparison, ProfileRun, UsageSource,
};
pub use parse::{
    parse_api_body_options, parse_compaction_options, parse_compare_options, parse_profile_names,
    parse_request, parse_request_diff_options, parse_scenario, parse_session_config, CONFIG_KEYS,
    FORMAT_VERSION, MAX_INPUT_BYTES, MAX_STEPS, MAX_STRING_BYTES, ROOT_KEYS, STEP_KINDS,
};
pub use plan::kept_plan_of;
pub use preview::{compaction_preview, CompactionPreview};
pub use recall::{recall_all, recall_in, Fact, FactKind, FactRecall, FactState, RecallCounts};
pub use run::{
    apply_step, replay_session, run_scenario, run_scenario_reporting, StepsDone, MAX_CLOCK_MS,
};
pub use switches::{apply_switches, SECTIONS};
pub use trace::{StepTrace, Trace, BLOCK_OVERHEAD, MAX_TRACE_BYTES};

/// A whole scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct Scenario {
    /// A title for the player.
    pub name: String,
    /// What the scenario teaches.
    pub description: String,
    /// The preset to run.
    pub profile: ProfileName,
    /// Quirk switches changed from the preset: `(path, value)`, e.g.
    /// `("attachments.planCountsNewPrompt", true)`.
    pub switches: Vec<(String, bool)>,
    /// The working directory (absolute).
    pub cwd: String,
    /// The user's home (absolute).
    pub home: String,
    /// The logical clock at the start, in ms since the Unix epoch.
    pub start_ms: u64,
    /// How far the clock moves on each step that does not set it.
    pub step_ms: u64,
    /// Settings and registries.
    pub config: SessionConfig,
    /// Files present at the start, in the order given.
    pub files: Vec<InitialFile>,
    /// The steps.
    pub steps: Vec<Step>,
    /// Facts seeded in the session, for the recall measure ([`recall_all`]).
    pub facts: Vec<Fact>,
    /// An assistant step that gives no `usage` reports what a provider would: the request
    /// it answers counted with [`BILLING_TOKENS`], and its own blocks as output. Every real
    /// client receives usage, and Claude Code sizes its context from it (§6.3); without
    /// this, a profile that reads usage falls back to its own estimate.
    pub simulate_usage: bool,
}

/// A file present at the start.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct InitialFile {
    /// Its path (absolute, relative to cwd, or `~/…`).
    pub path: String,
    /// Its text.
    pub content: String,
}

/// One step of a scenario, with the JSON it came from (for the trace).
#[derive(Debug, Clone, PartialEq)]
pub struct Step {
    /// What happens.
    pub action: Action,
    /// The step as given, compact JSON.
    pub source: String,
}

/// What a step does.
#[derive(Debug, Clone, PartialEq)]
pub enum Action {
    /// The human submits a prompt (a human turn).
    User {
        /// The prompt.
        prompt: String,
        /// Memory files the host selected for this prompt (absolute paths); `None`: the
        /// built-in keyword scorer chooses.
        memories: Option<Vec<String>>,
        /// Codex: the texts pasted into the composer, in paste order; each shows in `prompt`
        /// as its `[Pasted Content {n} chars]` placeholder (codex.md §3.4).
        pastes: Vec<String>,
    },
    /// The model answers: blocks in order; tool calls are executed, and if there were any,
    /// a tool round follows.
    Assistant {
        /// Thinking, text and tool calls, in order.
        blocks: Vec<AssistantStep>,
        /// What the provider reported for the request this response answers (§6.3).
        usage: Option<crate::compact::context_size::ProviderUsage>,
        /// A compaction after the calls' results and before the tool round's request (the
        /// options and the summary), in place of the auto-compact check there: a client's
        /// compaction in the middle of a turn, where its log shows it.
        compact_before_tool_round: Option<(crate::session::CompactionOptions, Option<String>)>,
    },
    /// Results of the previous response's tool calls that were given without output (the
    /// host ran them); the tool round follows once every call has its result.
    ToolResults {
        /// The results, each naming its call.
        results: Vec<crate::transcript::ToolResultBlock>,
    },
    /// An edit outside the agent: a file created or overwritten.
    WriteFile {
        /// Path.
        path: String,
        /// New text.
        content: String,
    },
    /// A file or empty directory deleted outside the agent.
    DeleteFile {
        /// Path.
        path: String,
    },
    /// A rename outside the agent (an editor's atomic save).
    Rename {
        /// From.
        from: String,
        /// To.
        to: String,
    },
    /// The mtime moves, the content stays.
    Touch {
        /// Path.
        path: String,
    },
    /// The permission mode changes (Shift+Tab).
    SetMode {
        /// The new mode.
        mode: PermissionMode,
    },
    /// The IDE's selection and opened file.
    Ide {
        /// The selection; `None` clears it.
        selection: Option<IdeSelection>,
        /// The file shown in the editor; `None` clears it.
        opened_file: Option<String>,
    },
    /// New diagnostics from the IDE or a linter.
    Diagnostics {
        /// Per file.
        files: Vec<DiagnosticFile>,
    },
    /// The clock moves forward by `ms`.
    AdvanceTime {
        /// Milliseconds.
        ms: u64,
    },
    /// Registries change: each list given replaces the current one.
    Registry {
        /// Skills.
        skills: Option<Vec<Skill>>,
        /// Agent types.
        agents: Option<Vec<String>>,
        /// MCP servers with instructions.
        mcp_servers: Option<Vec<McpServer>>,
        /// Tools loaded on demand (their names are announced).
        deferred_tools: Option<Vec<String>>,
    },
    /// The human types while the agent works: delivered on the next pass.
    QueueCommand {
        /// The text.
        prompt: String,
    },
    /// The agent definition's critical reminder; `None` removes it.
    CriticalReminder {
        /// The text.
        text: Option<String>,
    },
    /// Spending so far, for the `budget_usd` and `output_token_usage` reminders.
    Usage {
        /// US dollars spent, in cents.
        spent_usd_cents: Option<u64>,
        /// Output tokens of this turn.
        output_tokens: Option<u64>,
    },
    /// A background task's status, for `task_status`.
    TaskStatus {
        /// The task's id.
        task_id: String,
        /// What it does.
        description: String,
        /// `running` or `killed`.
        status: BackgroundStatus,
    },
    /// Codex's turn settings change (the model, approvals, the sandbox…).
    TurnSettings {
        /// The changes, applied to the current settings.
        changes: TurnSettingsChange,
    },
    /// Codex: the thread is reopened (`codex exec resume`); the history is rebuilt as it
    /// was (codex.md §2.7).
    Resume,
    /// Codex: the thread is forked before one of its user turns (codex.md §2.7).
    Fork {
        /// The user turn the fork starts before, counted from 0 over the session's turns.
        before_user_turn: usize,
    },
    /// Codex: the last user turns are rolled back (codex.md §2.8).
    Rollback {
        /// How many.
        turns: usize,
    },
    /// A compaction the user or the host asks for (`/compact`, or a policy to compare).
    Compact {
        /// The policy, trigger and instructions.
        options: crate::session::CompactionOptions,
        /// The summary the model would have written; `None`: the extractive summariser's.
        summary: Option<String>,
        /// The provider's refusals of the summary request as too long, in order, before it
        /// answered (§9.3 item 4).
        prompt_too_long: Vec<crate::compact::prompt_too_long::PromptTooLong>,
    },
}

/// Changes to Codex's turn settings; `None` keeps a field, `Some(None)` clears an optional
/// one.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct TurnSettingsChange {
    /// The model's slug.
    pub model: Option<String>,
    /// The new model's base instructions, sent in `<model_switch>`.
    pub model_instructions: Option<String>,
    /// When to ask before running a command.
    pub approval_policy: Option<crate::codex::context::ApprovalPolicy>,
    /// What the sandbox lets commands write.
    pub sandbox_mode: Option<crate::codex::context::SandboxMode>,
    /// Whether sandboxed commands may use the network.
    pub network_access: Option<bool>,
    /// The personality to adopt: a Codex preset by name or a text; `null` goes back to the
    /// client's default ([`crate::codex::context::DEFAULT_PERSONALITY`]).
    pub personality: Option<Option<String>>,
    /// The collaboration mode's instructions.
    pub collaboration_mode: Option<Option<String>>,
    /// Developer instructions.
    pub developer_instructions: Option<Option<String>>,
    /// The shell's name.
    pub shell: Option<String>,
    /// The IANA time zone.
    pub timezone: Option<String>,
    /// The new model's context window in tokens; it becomes the session's
    /// ([`crate::session::Session::set_context_window`]).
    pub context_window: Option<u64>,
    /// The execution environments (two or more, or none for the turn's cwd and shell).
    pub environments: Option<Vec<crate::codex::context::ExecEnvironment>>,
    /// The sub-agents `<subagents>` lists.
    pub subagents: Option<Vec<crate::codex::context::Subagent>>,
    /// Whether a voice (realtime) conversation is active.
    pub realtime_active: Option<bool>,
    /// The text announcing a voice conversation; `Some(None)` goes back to the client's.
    pub realtime_start_instructions: Option<Option<String>>,
}

impl TurnSettingsChange {
    /// `settings` with the changes applied.
    pub fn apply(
        &self,
        mut settings: crate::codex::context::TurnSettings,
    ) -> crate::codex::context::TurnSettings {
        let set = |target: &mut String, value: &Option<String>| {
            if let Some(value) = value {
                target.clone_from(value);
            }
        };
        set(&mut settings.model, &self.model);
        set(&mut settings.model_instructions, &self.model_instructions);
        set(&mut settings.shell, &self.shell);
        set(&mut settings.timezone, &self.timezone);
        settings.approval_policy = self.approval_policy.unwrap_or(settings.approval_policy);
        settings.sandbox_mode = self.sandbox_mode.unwrap_or(settings.sandbox_mode);
        settings.network_access = self.network_access.unwrap_or(settings.network_access);
        if let Some(value) = &self.personality {
            settings.personality.clone_from(value);
        }
        if let Some(value) = &self.collaboration_mode {
            settings.collaboration_mode.clone_from(value);
        }
        if let Some(value) = &self.developer_instructions {
            settings.developer_instructions.clone_from(value);
        }
        if let Some(value) = &self.environments {
            settings.environments.clone_from(value);
        }
        if let Some(value) = &self.subagents {
            settings.subagents.clone_from(value);
        }
        settings.realtime_active = self.realtime_active.unwrap_or(settings.realtime_active);
        if let Some(value) = &self.realtime_start_instructions {
            settings.realtime_start_instructions.clone_from(value);
        }
        settings
    }
}

/// One block of an assistant step.
#[derive(Debug, Clone, PartialEq)]
pub enum AssistantStep {
    /// Text.
    Text(String),
    /// Extended thinking.
    Thinking(String),
    /// A tool call, executed when the step runs.
    ToolUse(ToolCall),
}

/// A tool call in a scenario.
#[derive(Debug, Clone, PartialEq)]
pub struct ToolCall {
    /// The call's id; generated (`toolu_{n}`) when absent.
    pub id: Option<String>,
    /// The tool.
    pub name: String,
    /// Its input, compact JSON (an object).
    pub input: String,
    /// What the tool printed, for tools the library cannot run (Bash, Task, MCP tools).
    pub output: Option<String>,
    /// The user's answer to an `ExitPlanMode` call.
    pub approval: Option<PlanApproval>,
}
