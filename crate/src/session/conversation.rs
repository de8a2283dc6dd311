//! The conversation's state besides files: the transcript, the mode, the lists the agent
//! keeps, what the IDE shows, and what the reminders remember between passes.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::String;
use alloc::vec::Vec;

use crate::attachment::{Decision, Verdict};
use crate::collectors::reminders::ReminderState;
use crate::compact::context_size::ProviderUsage;
use crate::compact::policies::total_tokens;
use crate::host::{
    BackgroundStatus, DiagnosticFile, IdeSelection, PermissionMode, TaskItem, TodoItem,
};
use crate::request::MessageCache;
use crate::tokens::TokenMethod;
use crate::transcript::{ToolResultBlock, Transcript};

/// The user context as first computed: the CLAUDE.md text and the date (memoised like the
/// original's `getUserContext`, so the date stays stale on purpose, §7.7).
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct UserContext {
    pub(super) claude_md: Option<String>,
    pub(super) date: String,
}

/// The tokens of the transcript's first `records` records (`compact::policies::total_tokens`),
/// extended as records are appended, so that a trigger reading the whole history every turn
/// counts each record once.
#[derive(Debug, Clone, Copy, Default)]
struct HistoryTokens {
    records: usize,
    tokens: u64,
}

/// The tool calls of one response, each with its result once known.
#[derive(Clone, Debug, Default)]
pub(super) struct PendingCalls {
    pub(super) calls: Vec<(String, Option<ToolResultBlock>)>,
    /// The user stopped the turn (a plan rejected without feedback).
    pub(super) stopped: bool,
}

impl PendingCalls {
    /// The ids still without a result.
    pub(super) fn missing(&self) -> Vec<String> {
        self.calls
            .iter()
            .filter(|(_, result)| result.is_none())
            .map(|(id, _)| id.clone())
            .collect()
    }
}

#[derive(Debug, Default, Clone)]
pub(super) struct Conversation {
    pub(super) transcript: Transcript,
    /// The transcript's messages as the last request assembled them.
    pub(super) messages: MessageCache,
    /// The tokens of the transcript's first records, as Aider's trigger counts them.
    history: HistoryTokens,
    pub(super) mode: PermissionMode,
    /// The mode to return to when plan mode ends with an approval.
    pub(super) mode_before_plan: PermissionMode,
    pub(super) todos: Vec<TodoItem>,
    pub(super) tasks: Vec<TaskItem>,
    pub(super) selection: Option<IdeSelection>,
    pub(super) opened_file: Option<String>,
    /// Diagnostics not yet delivered.
    pub(super) diagnostics: Vec<DiagnosticFile>,
    /// Input typed while the agent worked, delivered on the next pass.
    pub(super) queued: Vec<String>,
    pub(super) critical_reminder: Option<String>,
    pub(super) spent_usd_cents: u64,
    pub(super) output_tokens: u64,
    /// Status changes of background tasks not yet reported.
    pub(super) task_statuses: Vec<(String, String, BackgroundStatus)>,
    /// Relevant memories surfaced so far.
    pub(super) surfaced_memories: BTreeSet<String>,
    /// Tokens of the last request (what the API would have reported).
    pub(super) last_request_tokens: Option<u64>,
    /// The profile's own estimate of the last request's context (`Session::own_estimate`).
    pub(super) last_own_estimate: Option<u64>,
    /// What the provider reported for the latest response that reported since the last
    /// summary, by response number (§6.3): a summary replaces the requests it describes, so
    /// it clears it.
    pub(super) reported_usage: BTreeMap<u64, ProviderUsage>,
    pub(super) next_tool_id: u64,
    /// Every tool-use id of the session, given or generated.
    pub(super) tool_ids: BTreeSet<String>,
    pub(super) user_context: Option<UserContext>,
    /// The user context was computed anew and, where the profile sends it as attachments
    /// (`context_as_attachments`, 2.1.332), the next pass has not sent it yet.
    pub(super) user_context_unsent: bool,
    /// A typed `/compact` attached the environment note after its summary (2.1.332), so the
    /// next pass sends the rest of the session's context without it.
    pub(super) environment_sent_with_summary: bool,
    /// A compaction inside the turn cleared the user context for the next human turn; the
    /// turn's remaining requests keep it (`user_context_kept_through_turn`).
    pub(super) user_context_expired: bool,
    /// The eager memory files were put in the read-file state (at startup, §4.4).
    pub(super) memory_seeded: bool,
    /// Decisions of the last computation of the user context not yet reported in a turn
    /// (eager memory files a deny rule covers).
    pub(super) context_decisions: Vec<Decision>,
    /// A response whose tool calls await results from the host.
    pub(super) pending: Option<PendingCalls>,
    /// A compaction the host placed before the next request, with its summary (a client's
    /// compaction in the middle of a turn, where a session log shows it).
    pub(super) compaction_before_request:
        Option<(crate::compact::options::CompactionOptions, Option<String>)>,
    pub(super) reminders: ReminderState,
    /// Paths the agent's Edit and Write changed, for `restore_edited_first`.
    pub(super) edited: BTreeSet<String>,
    /// Skills the model invoked, oldest first: `(name, content)`, one entry per name.
    pub(super) invoked_skills: Vec<(String, String)>,
    /// Requests since the last compaction, for the cache-aware choice of how to compact.
    pub(super) cycle: RequestCycle,
    /// When the last assistant response arrived, for microcompact's gap.
    pub(super) last_assistant_ms: Option<u64>,
    /// Compaction plans made so far (plans are numbered from 1).
    pub(super) plans_made: u64,
    /// The latest plans, for [`super::Session::kept_plan`].
    pub(super) kept_plans: super::compaction::KeptPlans,
    /// The memory tool's warning was given and no clearing followed yet.
    pub(super) memory_warning_given: bool,
    /// Failed auto-compactions in a row, since the human turn began or the session did
    /// (Q57).
    pub(super) breaker: crate::compact::thresholds::CompactionBreaker,
    /// Codex's baseline and settings (used when the profile assembles Codex's context).
    pub(super) codex: crate::codex::session_state::CodexState,
    /// The policies the session keeps on (`SessionConfig::policies`) and their state.
    pub(super) policies: super::policies::LivePolicies,
}

impl Conversation {
    pub(super) fn new(mode: PermissionMode) -> Conversation {
        Conversation {
            mode,
            ..Conversation::default()
        }
    }

    /// What was derived from the transcript's records is forgotten: a compaction or a
    /// rollback rewrote them (appending keeps it).
    pub(super) fn transcript_rewritten(&mut self) {
        self.messages.clear();
        self.history = HistoryTokens::default();
    }

    /// The transcript's tokens (`compact::policies::total_tokens`), counting only the
    /// records appended since the last call.
    pub(super) fn history_tokens(&mut self, method: TokenMethod) -> u64 {
        let records = self.transcript.messages();
        if records.len() < self.history.records {
            self.history = HistoryTokens::default();
        }
        let new = records.get(self.history.records..).unwrap_or_default();
        self.history.tokens += total_tokens(new, method);
        self.history.records = records.len();
        self.history.tokens
    }

    /// Changes the permission mode. Entering and leaving plan or auto mode arms the
    /// reminders' one-shot notes (§7.5); leaving plan mode says whether a plan file exists.
    pub(super) fn set_mode(&mut self, mode: PermissionMode, plan_exists: bool) {
        let before = self.mode;
        if before == mode {
            return;
        }
        match before {
            PermissionMode::Plan => self.reminders.exit_plan_mode(plan_exists),
            PermissionMode::Auto => self.reminders.exit_auto_mode(),
            _ => {}
        }
        match mode {
            PermissionMode::Plan => {
                self.mode_before_plan = before;
                self.reminders.enter_plan_mode();
            }
            PermissionMode::Auto => self.reminders.enter_auto_mode(),
            _ => {}
        }
        self.mode = mode;
    }

    /// A compaction clears the cached user context, so the next human turn computes it (and
    /// its date) again (§9.11). The original's query takes the context once, when the human
    /// turn begins: with `keep_for_turn` (a compaction inside the turn, under
    /// `user_context_kept_through_turn`, §7.11) the turn's remaining requests keep it.
    pub(super) fn expire_user_context(&mut self, keep_for_turn: bool) {
        if keep_for_turn {
            self.user_context_expired = true;
            self.context_decisions.push(Decision::new(
                "user context",
                Verdict::Skipped,
                "the compaction ran inside a turn, which keeps the user context it began with \
                 (as the original's query does): CLAUDE.md and the date are computed again at \
                 the next human turn",
            ));
            return;
        }
        self.user_context = None;
        self.user_context_expired = false;
    }

    /// The opened file, shown only without a selection (§7.8).
    pub(super) fn opened_file_shown(&self) -> Option<String> {
        let selected =
            (self.selection.as_ref()).is_some_and(|selection| !selection.text.is_empty());
        (!selected).then(|| self.opened_file.clone())?
    }
}

/// The requests since the last compaction (or the session's start): how fast the
/// conversation grows, which the cache-aware compaction weighs.
#[derive(Debug, Default, Clone)]
pub(super) struct RequestCycle {
    requests: u64,
    start_tokens: u64,
}

impl RequestCycle {
    /// Counts a request of `tokens`; a compaction before it starts a new cycle there.
    pub(super) fn note(&mut self, tokens: u64, compacted: bool) {
        match compacted {
            true => {
                *self = RequestCycle {
                    requests: 0,
                    start_tokens: tokens,
                }
            }
            false => self.requests += 1,
        }
    }

    /// Tokens added per request in this cycle, if the next request has `tokens`.
    pub(super) fn growth(&self, tokens: u64) -> u64 {
        tokens.saturating_sub(self.start_tokens) / self.requests.max(1)
    }
}
