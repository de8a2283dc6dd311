//! Compaction of a live session, in two phases: [`Session::plan_compaction`] shows what a
//! policy would do, [`Session::apply_compaction`] does it and reports the fate of every item
//! of the root set (spec claude-code.md §9, strategies.md).
//!
//! The summary policies (full, session-memory, partial) replace records by a summary the host
//! supplies, or the extractive summariser builds, and attach what the original attaches after
//! a compaction ([`restore`]). The cheap policies rewrite tool results in place ([`cheap`]).
//! Both return the same plan and report, so they can be compared on the same session.
//!
//! ```
//! use context_assembly::session::{CompactionOptions, Session, SessionConfig, SessionOptions};
//! use context_assembly::Profile;
//! let options = SessionOptions { profile: Profile::claude_code(), cwd: "/p".into(), home: None, config: SessionConfig::default() };
//! let mut session = Session::new(options).unwrap();
//! // Nothing to compact yet: the plan says so and applying it changes nothing.
//! let plan = session.plan_compaction(CompactionOptions::default(), 0);
//! assert!(!plan.applies);
//! let report = session.apply_compaction(&plan, None, 0).unwrap();
//! assert!(!report.applied);
//! ```

mod auto;
mod cheap;
mod codex;
mod kept;
mod restore;
mod summarise;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

pub use crate::compact::options::{CompactionOptions, Policy, PolicyId, Trigger};
pub use crate::compact::prompt_too_long::PromptTooLong;
pub use crate::compact::report::{
    Cleared, CodexItemKind, CompactionPlan, CompactionReport, Dropped, Fate, ItemKind,
    PlannedAttachment, PlannedKind, Reinjected, Restored, SummarySource, Survival, Visible,
};
pub(super) use kept::KeptPlans;
pub use kept::KEPT_PLANS;

use super::turn::{Round, Turn};
use super::Session;
use crate::codex::items::Role;
use crate::compact::survival::{RequestTokens, Snapshot, SurvivalInputs};
use crate::request::{Block, Request};
use crate::vocabulary::Decision;
use crate::Error;

impl Session {
    /// What `options` would do now. Planning changes nothing but the kept plans
    /// ([`Session::kept_plan`]).
    pub fn plan_compaction(&mut self, options: CompactionOptions, at_ms: u64) -> CompactionPlan {
        let plan = self.new_plan(options, at_ms);
        self.conversation.kept_plans.keep(plan.clone());
        plan
    }

    fn new_plan(&mut self, options: CompactionOptions, at_ms: u64) -> CompactionPlan {
        let tokens_before = self.peek_request(at_ms).tokens.total;
        self.conversation.plans_made += 1;
        let id = self.conversation.plans_made;
        let stamp = self.conversation.transcript.stamp();
        let mut plan = CompactionPlan::new(id, options, tokens_before, stamp);
        if !self.conversation.transcript.has_conversation() {
            plan.reason =
                "the transcript holds no messages yet: there is nothing to compact".into();
            return plan;
        }
        match plan.options.policy {
            Policy::Codex { remote, mid_turn } => self.plan_codex(&mut plan, remote, mid_turn),
            _ if plan.options.policy.summarises() => self.plan_summary(&mut plan),
            _ => self.plan_cheap(&mut plan, at_ms),
        }
        plan
    }

    /// Carries out `plan`. A summary policy uses `summary` (the model's answer to the plan's
    /// summary request, `<analysis>` and `<summary>` tags and all) or, when it is `None`,
    /// builds one from the records with the extractive summariser.
    ///
    /// # Errors
    /// A plan made before the transcript last changed; a summary that is blank or larger
    /// than the context window. The session is unchanged when an error is returned.
    pub fn apply_compaction(
        &mut self,
        plan: &CompactionPlan,
        summary: Option<&str>,
        at_ms: u64,
    ) -> Result<CompactionReport, Error> {
        self.apply_compaction_after_refusals(plan, &[], summary, at_ms)
    }

    /// [`Session::apply_compaction`] after the provider refused the summary request as too
    /// long, once per `refusals` entry, before it answered with `summary` (§9.3 item 4): each
    /// refusal leaves the oldest API rounds out of what is summarised (they are gone, as the
    /// original drops them), at most
    /// [`MAX_PTL_RETRIES`](crate::compact::prompt_too_long::MAX_PTL_RETRIES) times. A refusal after the last
    /// retry, or when one round is all that is left, fails the compaction: the report is not
    /// applied and says why, in the words the user would read.
    ///
    /// # Errors
    /// As [`Session::apply_compaction`]; refusals for a policy other than full compaction
    /// (only Claude Code's full compaction retries).
    pub fn apply_compaction_after_refusals(
        &mut self,
        plan: &CompactionPlan,
        refusals: &[PromptTooLong],
        summary: Option<&str>,
        at_ms: u64,
    ) -> Result<CompactionReport, Error> {
        if !refusals.is_empty() && plan.options.policy != Policy::Full {
            return Err(Error::InvalidConfig {
                field: "promptTooLong".into(),
                reason: format!(
                    "only full compaction ({}) retries a summary request refused as too long, \
                     not {}",
                    PolicyId::Full,
                    plan.policy
                ),
            });
        }
        if plan.stamp != self.conversation.transcript.stamp() {
            return Err(Error::InvalidConfig {
                field: "plan".into(),
                reason: format!(
                    "plan {} was made before the transcript last changed; plan again",
                    plan.id
                ),
            });
        }
        if !plan.applies {
            return Ok(self.unapplied_report(plan, at_ms));
        }
        match plan.options.policy {
            Policy::Codex { remote, mid_turn } => {
                self.apply_codex(plan, summary, remote, mid_turn, at_ms)
            }
            _ if plan.options.policy.summarises() => {
                self.apply_summary(plan, refusals, summary, at_ms)
            }
            _ => Ok(self.apply_cheap(plan, summary, at_ms)),
        }
    }

    /// Plans and applies in one step.
    ///
    /// # Errors
    /// As [`Session::apply_compaction`].
    pub fn compact(
        &mut self,
        options: CompactionOptions,
        summary: Option<&str>,
        at_ms: u64,
    ) -> Result<CompactionReport, Error> {
        let plan = self.plan_compaction(options, at_ms);
        self.apply_compaction(&plan, summary, at_ms)
    }

    /// Places a compaction before the next request the session assembles (normally the tool
    /// round's, after the results of the response's calls), in place of the auto-compact
    /// check there: a client's compaction in the middle of a turn, where its log shows it.
    /// `None` withdraws one placed and not yet run.
    pub fn compact_before_next_request(
        &mut self,
        compaction: Option<(CompactionOptions, Option<String>)>,
    ) {
        self.conversation.compaction_before_request = compaction;
    }

    /// The turn of a compaction asked for outside the model's loop: the report, and the
    /// request the next round would send.
    pub fn after_compaction(&mut self, report: CompactionReport, at_ms: u64) -> Turn {
        Turn {
            compaction: Vec::from([report]),
            request: Some(self.peek_request(at_ms)),
            ..Turn::of(Round::Compaction)
        }
    }

    /// The request the next round would send, as it stands now (nothing is recorded as
    /// sent).
    pub fn current_request(&mut self, at_ms: u64) -> Request {
        self.peek_request(at_ms)
    }

    /// The request as it would be sent now, without recording its size as sent.
    pub(super) fn peek_request(&mut self, at_ms: u64) -> Request {
        let sent = self.conversation.last_request_tokens;
        let estimate = self.conversation.last_own_estimate;
        let request = self.request(at_ms);
        self.conversation.last_request_tokens = sent;
        self.conversation.last_own_estimate = estimate;
        request
    }

    /// The request before a compaction, and what the survival report will compare with.
    fn before_compaction(&mut self, at_ms: u64) -> (Request, Snapshot) {
        let before = self.peek_request(at_ms);
        let messages = self.conversation.transcript.messages();
        let snapshot = Snapshot::of(messages, &self.workspace, request_tokens(&before));
        (before, snapshot)
    }

    /// The report of a plan that changes nothing.
    fn unapplied_report(&mut self, plan: &CompactionPlan, at_ms: u64) -> CompactionReport {
        self.unapplied_report_because(plan, plan.reason.clone(), plan.decisions.clone(), at_ms)
    }

    /// The report of a plan that changed nothing after all, for `reason`.
    fn unapplied_report_because(
        &mut self,
        plan: &CompactionPlan,
        reason: String,
        decisions: Vec<Decision>,
        at_ms: u64,
    ) -> CompactionReport {
        let (request, snapshot) = self.before_compaction(at_ms);
        let mut report = report_of(plan, false, reason, &request, &request, decisions);
        self.survival()
            .finish_report(&mut report, &snapshot, request_tokens(&request));
        report
    }
}

/// A report of `plan` that took the request from `before` to `after`, its lists still
/// empty (the survival report, `survival.rs`, fills them).
fn report_of(
    plan: &CompactionPlan,
    applied: bool,
    reason: String,
    before: &Request,
    after: &Request,
    decisions: Vec<Decision>,
) -> CompactionReport {
    CompactionReport {
        policy: plan.policy,
        trigger: plan.trigger,
        applied,
        reason,
        tokens_before: before.tokens.total,
        tokens_after: after.tokens.total,
        prefix_kept: prefix_kept(before, after),
        summary_source: SummarySource::None,
        summary: None,
        kept_records: 0,
        restored: Vec::new(),
        reinjected: Vec::new(),
        masked: Vec::new(),
        dropped: Vec::new(),
        survival: Vec::new(),
        visible: Visible::default(),
        decisions,
    }
}

/// Tokens of the leading blocks `after` shares with `before`, in the order a prompt cache
/// reads them: system, tools, the user context, then the messages. (The user context sits
/// among the messages; counting it before them keeps an unchanged request wholly kept.)
fn prefix_kept(before: &Request, after: &Request) -> u64 {
    sent_blocks(before)
        .zip(sent_blocks(after))
        .take_while(|((role_a, a), (role_b, b))| role_a == role_b && a.text == b.text)
        .map(|((_, a), _)| a.tokens)
        .sum()
}

/// A request's blocks in the order a prompt cache reads them, each with the role it is sent
/// under (none outside the messages).
fn sent_blocks(request: &Request) -> impl Iterator<Item = (Option<Role>, &Block)> {
    let outside = request
        .system
        .iter()
        .chain(&request.tools)
        .chain(&request.user_context);
    let messages = request.messages.iter().flat_map(|message| {
        message
            .content
            .iter()
            .map(move |block| (Some(message.role), block))
    });
    outside.map(|block| (None, block)).chain(messages)
}

impl Session {
    /// What the survival report reads, from the session's state now.
    fn survival(&self) -> SurvivalInputs<'_> {
        SurvivalInputs {
            token_method: self.profile.token_method,
            memory_rules: &self.profile.memory,
            reinsert_pinned: self.profile.compaction.reinsert_pinned,
            workspace: &self.workspace,
            messages: self.conversation.transcript.messages(),
            invoked_skills: &self.conversation.invoked_skills,
            pinned: &self.config.pinned,
            auto_memory_dir: self.auto_memory_dir(),
            plan_file: self.plan_file(),
        }
    }

    /// The auto-memory directory, expanded; `None` without one (or one that cannot be
    /// expanded).
    fn auto_memory_dir(&self) -> Option<String> {
        (self.config.memory_dir.as_deref()).and_then(|dir| self.expand(dir).ok())
    }
}

/// The figures of `request` the survival report compares.
pub(super) fn request_tokens(request: &Request) -> RequestTokens {
    RequestTokens {
        system: request.tokens.by_channel.system,
        conversation: request.tokens.by_category.conversation,
    }
}
