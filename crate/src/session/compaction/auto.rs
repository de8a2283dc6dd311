//! Auto-compaction before a request (§9.2): when the context reaches the auto-compact
//! threshold, the session compacts with the extractive summariser (no model is needed),
//! unless the failure breaker tripped (Q57). With `cheap_stage_first`, OpenCode's prune (scaled to the
//! window) runs first and the summary is skipped when the prune alone brings the context under the
//! threshold. With `compact_at_blocking_limit`, the timing is cache-aware
//! ([`crate::compact::timing`]): past the threshold the session waits while the request fits,
//! and prunes early only once the prompt cache has expired. The profile's
//! [`AutoPolicy`] can follow another agent's strategy instead: OpenCode's prune then anchored
//! summary at its overflow limit, or Aider's summary of the history over its budget.

use alloc::format;
use alloc::string::String;

use crate::attachment::{Collected, Verdict};
use crate::compact::auto_policy::{history_over_budget, AutoPolicy};
use crate::compact::context_size::{anchored_context_size, ContextSize, UsageAnchor};
use crate::compact::options::{CompactionOptions, Policy, Trigger};
use crate::compact::report::CompactionReport;
use crate::compact::summary::summary_request;
use crate::compact::timing::{
    auto_compact_step, choose_compaction, summary_call_cost, AutoCompactStep, CompactionOutcome,
    CycleInput, TimingInput,
};
use crate::request::Request;
use crate::session::Session;
use crate::tokens::estimate_tokens;
use crate::transcript::Record;

impl Session {
    /// The request of this round, compacted first when the host placed a compaction before
    /// it ([`Session::compact_before_next_request`]) or, failing that, when it reaches the
    /// auto-compact threshold: assembled once when it fits, again only after a compaction.
    pub(in crate::session) fn compacted_request(
        &mut self,
        at_ms: u64,
        mid_turn: bool,
        out: &mut Collected,
    ) -> (alloc::vec::Vec<CompactionReport>, Request) {
        let request = self.request(at_ms);
        let reports = match self.conversation.compaction_before_request.take() {
            // The compaction the host placed before this request runs instead of the check.
            Some((options, summary)) => match self.compact(options, summary.as_deref(), at_ms) {
                Ok(report) => alloc::vec::Vec::from([report]),
                Err(error) => {
                    out.decide("compaction", Verdict::Failed, format!("{error}"), None);
                    alloc::vec::Vec::new()
                }
            },
            None => self.auto_compact(self.own_estimate(&request), at_ms, mid_turn, out),
        };
        let request = match reports.is_empty() {
            true => request,
            false => self.request(at_ms),
        };
        let compacted = reports.iter().any(|report| report.applied);
        self.conversation
            .cycle
            .note(request.tokens.total, compacted);
        // A summary recomputes the user context: its decisions belong to this turn.
        out.decisions
            .append(&mut self.conversation.context_decisions);
        (reports, request)
    }

    /// Compacts when the context reaches the auto-compact threshold (its size: see
    /// [`Session::context_size`]; `estimate` is the request's); the reports of what ran (the
    /// cheap stage, then the summary), a decision saying how large the context was, and
    /// decisions when nothing could run.
    pub(in crate::session) fn auto_compact(
        &mut self,
        estimate: u64,
        at_ms: u64,
        mid_turn: bool,
        out: &mut Collected,
    ) -> alloc::vec::Vec<CompactionReport> {
        let mut reports = alloc::vec::Vec::new();
        if !self.auto_compact_allowed() {
            return reports;
        }
        let thresholds = self.thresholds();
        let threshold = thresholds.autocompact;
        let size = self.context_size(estimate);
        let tokens = size.tokens;
        let timing = TimingInput {
            tokens,
            thresholds: &thresholds,
            since_last_response_ms: self
                .conversation
                .last_assistant_ms
                .map(|last| at_ms.saturating_sub(last)),
        };
        let subject = "auto-compaction";
        let auto = self.profile.compaction.auto_policy;
        // Aider measures the history against its budget, the others the context.
        let (step, measured, limit) = match auto {
            AutoPolicy::Aider => match history_over_budget(
                self.conversation.history_tokens(self.profile.token_method),
                self.config.context_window,
            ) {
                Some(over) => (
                    Some(AutoCompactStep::Compact(over.reason())),
                    over.history,
                    over.budget,
                ),
                None => return reports,
            },
            AutoPolicy::Summary | AutoPolicy::Opencode => (
                auto_compact_step(&timing, &self.profile.compaction),
                tokens,
                threshold,
            ),
        };
        let cheap_only = match step {
            None => return reports,
            Some(AutoCompactStep::Wait(reason)) => {
                let reason = format!("{reason} (the context is {})", size.explain());
                out.decide(subject, Verdict::Deferred, reason, None);
                return reports;
            }
            Some(AutoCompactStep::CheapStageOnly(reason)) => {
                let reason = format!("{reason} (the context is {})", size.explain());
                out.decide(subject, Verdict::Included, reason, None);
                true
            }
            Some(AutoCompactStep::Compact(reason)) => {
                let reason = match (self.profile.compaction.compact_at_blocking_limit, auto) {
                    (_, AutoPolicy::Aider) => reason,
                    (true, _) => format!("{reason} (the context is {})", size.explain()),
                    (false, _) => auto.compact_reason(&size.explain(), threshold),
                };
                out.decide(subject, Verdict::Needed, reason, None);
                self.note_ignored_switch(out);
                false
            }
        };
        let breaker = self.conversation.breaker.refusal(measured, limit);
        if let Some(reason) = breaker.filter(|_| self.profile.compaction.auto_compact_breaker) {
            out.decide(subject, Verdict::Skipped, reason, None);
            return reports;
        }
        let full = CompactionOptions {
            policy: auto.summary(
                Policy::automatic(&self.profile.codex, mid_turn),
                self.config.output_reserve,
            ),
            trigger: Trigger::Auto,
            instructions: None,
        };
        if let Some(policy) =
            auto.cheap_stage(&self.profile.compaction, thresholds.effective_window)
        {
            let cheap = CompactionOptions {
                policy,
                trigger: Trigger::Auto,
                instructions: None,
            };
            let weigh = !cheap_only && self.profile.compaction.compact_at_blocking_limit;
            if !(weigh && self.summary_is_cheaper(&cheap, &full, tokens, at_ms, out)) {
                if let Ok(report) = self.compact(cheap, None, at_ms) {
                    let enough = report.tokens_after < threshold;
                    reports.push(report);
                    if enough || cheap_only {
                        return reports;
                    }
                }
            }
        }
        if cheap_only {
            return reports;
        }
        match self.compact(full, None, at_ms) {
            Ok(report) if report.applied => {
                self.conversation.breaker.record_success();
                reports.push(report);
            }
            // The original throws when there is nothing to summarise, and counts it.
            Ok(report) => {
                self.conversation.breaker.record_failure();
                out.decide(subject, Verdict::Failed, report.reason, None);
            }
            Err(error) => {
                self.conversation.breaker.record_failure();
                out.decide(subject, Verdict::Failed, format!("{error}"), None);
            }
        }
        reports
    }

    /// Whether auto-compaction may run: the host switched it on, or the profile's client has
    /// no switch for it ([`CompactionRules::honour_auto_compact_switch`]).
    ///
    /// [`CompactionRules::honour_auto_compact_switch`]: crate::compact::rules::CompactionRules::honour_auto_compact_switch
    pub(in crate::session) fn auto_compact_allowed(&self) -> bool {
        self.config.auto_compact || !self.profile.compaction.honour_auto_compact_switch
    }

    /// When a compaction runs although the host switched auto-compaction off, the decision
    /// that says why.
    pub(in crate::session) fn note_ignored_switch(&self, out: &mut Collected) {
        if self.config.auto_compact {
            return;
        }
        out.decide(
            "autoCompact",
            Verdict::Skipped,
            String::from(
                "the host switched auto-compaction off, but this profile's client has no such \
                 setting: its limit can be lowered, never removed (codex.md §4.1, X8), so the \
                 context is compacted at the limit all the same",
            ),
            None,
        );
    }

    /// Cache-aware: whether a summary costs less than the cheap stage over the cycle each
    /// starts, both tried on copies of the session ([`crate::compact::timing::choose_compaction`]);
    /// the decision gives the arithmetic. False when the cheap stage alone does not make
    /// enough room (the summary follows it anyway) or the summary cannot run.
    fn summary_is_cheaper(
        &self,
        cheap: &CompactionOptions,
        full: &CompactionOptions,
        tokens: u64,
        at_ms: u64,
        out: &mut Collected,
    ) -> bool {
        let thresholds = self.thresholds();
        let trial = |options: &CompactionOptions| {
            let mut copy = self.clone();
            copy.compact(options.clone(), None, at_ms)
                .ok()
                .filter(|report| report.applied)
        };
        let Some(pruned) = trial(cheap).filter(|r| r.tokens_after < thresholds.autocompact) else {
            return false;
        };
        let Some(summarised) = trial(full) else {
            return false;
        };
        let method = self.profile.token_method;
        let count = |text: &str| estimate_tokens(text, method, None);
        let call = summary_call_cost(
            tokens,
            count(&summary_request(None)),
            summarised.summary.as_deref().map_or(0, count),
        );
        let cycle = CycleInput {
            trigger: thresholds.blocking.unwrap_or(thresholds.autocompact),
            growth: self.conversation.cycle.growth(tokens),
        };
        let (summarise, reason) = choose_compaction(
            &CompactionOutcome {
                after: pruned.tokens_after,
                call: 0,
            },
            &CompactionOutcome {
                after: summarised.tokens_after,
                call,
            },
            &cycle,
        );
        out.decide("cheap stage or summary", Verdict::Included, reason, None);
        summarise
    }

    /// The profile's own estimate of `request`'s context, which the context size falls back
    /// on when no response reported usage. Codex counts its whole request, base instructions
    /// and tools included (codex.md §3.5). Claude Code sizes its context from the last
    /// response's usage, which counts the whole request, system prompt and tools included;
    /// before any response (since the session began or since the last summary) it estimates
    /// its message list alone (§6.3, `tokenCountWithEstimation`), which holds neither. So the
    /// first request of a small window does not compact where the client's does not, and the
    /// next one counts the prefix as the client's usage does (the conformance lab, whose mock
    /// reports our request's size as usage).
    pub(in crate::session) fn own_estimate(&self, request: &Request) -> u64 {
        let tokens = &request.tokens;
        let answered = (self.conversation.transcript.messages().iter())
            .any(|message| matches!(message.record, Record::Assistant { .. }));
        match self.profile.codex.turn_context || answered {
            true => tokens.total,
            false => (tokens.total)
                .saturating_sub(tokens.by_channel.system)
                .saturating_sub(tokens.by_channel.tools),
        }
    }

    /// The context size the thresholds read: under `size_from_reported_usage`, the usage the
    /// last response reported plus the estimate of the records after that response's first
    /// one (§6.3) or, for Codex, after the last model-generated item (codex.md §3.6);
    /// otherwise, or before any response reported usage, `estimate`.
    pub(in crate::session) fn context_size(&self, estimate: u64) -> ContextSize {
        if !self.profile.compaction.size_from_reported_usage {
            return ContextSize::estimated(estimate, false);
        }
        // Codex anchors its estimate on the last model-generated item (codex.md §3.6).
        let anchor = match self.profile.codex.turn_context {
            true => UsageAnchor::LastModelItem,
            false => UsageAnchor::FirstRecordOfResponse,
        };
        let size = anchored_context_size(
            self.conversation.transcript.messages(),
            &self.conversation.reported_usage,
            self.profile.token_method,
            estimate,
            anchor,
        );
        match self.profile.compaction.pad_estimate_after_usage {
            true => size.with_padded_estimate(),
            false => size,
        }
    }
}
