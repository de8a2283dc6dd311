//! The switches that make a session assemble its context the way Codex does, and the
//! fixes `recommended` could take from Codex's design.

use super::compact::pretrim::PretrimStrategy;
use super::compact::COMPACT_USER_MESSAGE_MAX_TOKENS;
use super::context::ContextRules;
use super::prefix::ReleasePrefix;
use super::truncate::TruncationPolicy;

crate::switch::with_switches! {
    /// How a session follows Codex (codex.md §1–§4). All off but `context` for the Claude Code
    /// profiles.
    #[derive(Debug, Clone, PartialEq, Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize))]
    #[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
    pub struct CodexRules {
        /// The turn's context is Codex's: the initial context (developer bundle, AGENTS.md and
        /// `<environment_context>`) recorded once, then only the settings that changed (§1, §2);
        /// off: Claude Code's user context.
        ///
        /// More than one quirk: this is the switch between the two clients' ways of running a
        /// turn, and everything that follows from the client being Codex reads it. On, a
        /// submitted prompt takes Codex's turn path (`Session::codex_submit`) and no Claude Code
        /// user context is built; calls a new prompt interrupts get Codex's `aborted` output;
        /// the thread operations (resume, rollback, fork) and pastes are allowed; the
        /// reported-usage size anchors on the last model-generated item and the first request
        /// counts its whole prefix; a prompt's tokens are counted as an item (with
        /// `item_tokens`); and the comparison bills it as an OpenAI request (automatic prefix
        /// cache, GPT-5 prices, Codex's summarization prompt). A scenario that turns it off
        /// under the `codex` preset gets Claude Code's turn with Codex's other settings, not
        /// one quirk of Codex undone.
        pub turn_context: bool,
        /// Tool outputs are cut head-and-tail when recorded, at the policy × 1.2 (§3.3).
        pub truncate_tool_output: bool,
        /// `exec_command` results are recorded as Codex 0.139's unified exec shows them: a
        /// header (chunk id, wall time, exit code, the output's token count) and the output cut
        /// at the policy itself (§3.3; the layout the conformance lab recorded).
        pub wrap_exec_command_output: bool,
        /// `shell` and `shell_command` results are recorded in the shell tool's layout: exit
        /// code, wall time, the line count when the cut changed it, and the output cut at the
        /// policy (§3.3 item 1), as for a model whose tool is `shell_command`. Off in `codex`:
        /// Codex 0.139's models run `exec_command`, and the client refuses a `shell` call.
        pub wrap_shell_output: bool,
        /// The truncation policy (`tool_output_token_limit`); `None`: the model's own (§3.2), by
        /// the release's catalogue ([`ContextRules::catalogue`]).
        pub truncation: Option<TruncationPolicy>,
        /// The base instructions and tool definitions the release sends before its input, as
        /// stand-ins of the sizes the conformance lab measured (the texts are the vendor's);
        /// `None`: the host's system prompt and tools, or the library's own.
        pub prefix: Option<ReleasePrefix>,
        /// Compaction is Codex's: retained user messages, the summary prefix, the initial context
        /// re-inserted by phase (§4.3–§4.5); off: Claude Code's.
        pub local_compaction: bool,
        /// Every compaction puts the initial context into the replacement history before the
        /// last real user message, as a mid-turn one does, and the next turn diffs against it
        /// (Codex 0.171.0); off: a pre-turn or manual compaction leaves the history without
        /// it and the next turn sends it whole, after the summary (§4.5, X10).
        pub context_before_last_user_message: bool,
        /// Remote compaction (§4.6): the server's answer is an opaque `compaction` item.
        pub remote_compaction: bool,
        /// Remote compaction is v2 (§4.7): a `compaction_trigger` request, and the client keeps
        /// the real user messages within 64,000 tokens before the `compaction` item. Off in \[B\]
        /// (under development), on in \[C\] (§10.10).
        pub remote_compaction_v2: bool,
        /// Which tool outputs a remote compaction rewrites to fit the effective window first
        /// (§4.6 step 1, X13).
        pub pretrim_strategy: PretrimStrategy,
        /// X5: the budget of the user messages local compaction keeps, newest first (Codex:
        /// 20,000 tokens).
        pub retained_user_budget_tokens: u64,
        /// X5: local compaction always keeps the first real user message (the task), then fills
        /// the rest of the budget newest first.
        pub pin_first_user_message: bool,
        /// X25: a prompt over 1,048,576 characters is middle-truncated to that size instead of
        /// rejected.
        pub truncate_oversize_input: bool,
        /// X26: a fork's first turn sends the whole initial context instead of only what changed
        /// since the parent's baseline.
        pub fork_full_context: bool,
        /// Snapshot \[C\] (§10.11): a cut `exec_command` output opens with a warning that
        /// gives the original token count.
        pub truncation_warning: bool,
        /// Snapshot \[C\]'s World State (§10.8): AGENTS.md is compared with what the history
        /// last recorded at every turn; a change is sent as a new block announcing that it
        /// supersedes the earlier ones, a removal as a block withdrawing them. \[B\] never sends
        /// AGENTS.md again (X19).
        pub agents_md_world_state: bool,
        /// Snapshot \[C\] (§10.5): the world state is compared before every request of a
        /// turn, so a tool round's request carries what changed since the turn began (a date
        /// rollover, new settings); \[B\] diffs once per human turn.
        pub world_state_step_capture: bool,
        /// X1, opt-in only: re-read the files the agent edited after a compaction. Codex does not
        /// (§4.8); the behaviour widely attributed to it is Claude Code's.
        pub reread_edited_after_compaction: bool,
        /// Each block of a request counts as the Responses API item it is sent as: its JSON's
        /// bytes / 4 (§3.5, X16), keys and quoting included.
        pub item_tokens: bool,
        /// A measuring stick, not a behaviour: every turn records the whole initial context, as
        /// if Codex had no baseline — what diffing is compared against.
        pub resend_full_context: bool,
        /// The initial context's and the diffs' own switches (X20, X21, X23).
        pub context: ContextRules,
    }
}

impl CodexRules {
    /// Not Codex: Claude Code's context and compaction.
    pub const fn off() -> CodexRules {
        CodexRules {
            turn_context: false,
            truncate_tool_output: false,
            wrap_exec_command_output: false,
            wrap_shell_output: false,
            truncation: None,
            prefix: None,
            local_compaction: false,
            context_before_last_user_message: false,
            remote_compaction: false,
            remote_compaction_v2: false,
            pretrim_strategy: PretrimStrategy::Reference,
            reread_edited_after_compaction: false,
            retained_user_budget_tokens: COMPACT_USER_MESSAGE_MAX_TOKENS,
            pin_first_user_message: false,
            truncate_oversize_input: false,
            fork_full_context: false,
            truncation_warning: false,
            agents_md_world_state: false,
            world_state_step_capture: false,
            resend_full_context: false,
            item_tokens: false,
            context: ContextRules::codex(),
        }
    }

    /// Codex CLI 0.139.0 (snapshot \[B\], with local compaction: the library has no server).
    pub const fn codex_0_139_0() -> CodexRules {
        CodexRules {
            turn_context: true,
            truncate_tool_output: true,
            wrap_exec_command_output: true,
            local_compaction: true,
            item_tokens: true,
            prefix: Some(ReleasePrefix::Codex0139),
            ..CodexRules::off()
        }
    }

    /// Codex CLI 0.171.0, as the conformance lab found it (docs/versions.md, "Codex CLI"):
    /// 0.139.0's rules with its own model catalogue and prefix, the bundle of \[C\]'s order
    /// (developer instructions first, the skills before the permissions), `.aws` kept
    /// read-only, the truncation warning on a cut `exec_command` output, and the initial
    /// context before the last user message after every compaction.
    pub const fn codex_0_171_0() -> CodexRules {
        CodexRules {
            prefix: Some(ReleasePrefix::Codex0171),
            truncation_warning: true,
            context_before_last_user_message: true,
            context: ContextRules::codex_0_171_0(),
            ..CodexRules::codex_0_139_0()
        }
    }

    /// The truncation policy in force for `model`: the configured one, or the model's own
    /// in the release's catalogue (§3.2).
    pub fn truncation_for(&self, model: &str) -> TruncationPolicy {
        self.truncation
            .unwrap_or_else(|| self.context.catalogue.truncation_policy(model))
    }

    /// Snapshot \[C\]'s World State (codex.md §10), as far as this library models it:
    /// \[B\]'s rules, with the developer instructions before the permissions (X28),
    /// AGENTS.md diffed against what the history holds (§10.8), the diff taken before every
    /// request of a turn (§10.5), remote compaction v2 for
    /// a remote compaction (§10.10), and the truncation warning (§10.11).
    pub const fn world_state() -> CodexRules {
        CodexRules {
            remote_compaction_v2: true,
            truncation_warning: true,
            agents_md_world_state: true,
            world_state_step_capture: true,
            context: ContextRules::world_state(),
            ..CodexRules::codex_0_139_0()
        }
    }
}
