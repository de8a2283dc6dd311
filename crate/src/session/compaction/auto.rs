//! Auto-compaction before a request (§9.2): when the context reaches the auto-compact
//! threshold, the session compacts with the extractive summariser (no model is needed),
//! unless the failure breaker tripped (Q57). With `cheap_stage_first`, OpenCode's prune (scaled to the
//! window) runs first and the summary is skipped when the prune alone brings the context under the
//! threshold.

use alloc::format;

use crate::attachment::{Collected, Verdict};
use crate::compact::context_size::{context_size, ContextSize};
use crate::compact::options::{CompactionOptions, Policy, Trigger};
use crate::compact::policies::prune::PruneParams;
use crate::compact::report::CompactionReport;
use crate::request::Request;
use crate::session::Session;

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
            None => self.auto_compact(request.tokens.total, at_ms, mid_turn, out),
        };
        let request = match reports.is_empty() {
            true => request,
            false => self.request(at_ms),
        };
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
        if !self.config.auto_compact {
            return reports;
        }
        let threshold = self.thresholds().autocompact;
        let size = self.context_size(estimate);
        let tokens = size.tokens;
        if tokens < threshold {
            return reports;
        }
        let subject = "auto-compaction";
        let reason = format!(
            "the context is {}, at or above the auto-compact threshold of {threshold}",
            size.explain()
        );
        out.decide(subject, Verdict::Needed, reason, None);
        let breaker = self.conversation.breaker.refusal(tokens, threshold);
        if let Some(reason) = breaker.filter(|_| self.profile.compaction.auto_compact_breaker) {
            out.decide(subject, Verdict::Skipped, reason, None);
            return reports;
        }
        if self.profile.compaction.cheap_stage_first {
            let cheap = CompactionOptions {
                policy: Policy::Prune(PruneParams::scaled_to(self.thresholds().effective_window)),
                trigger: Trigger::Auto,
                instructions: None,
            };
            if let Ok(report) = self.compact(cheap, None, at_ms) {
                let enough = report.tokens_after < threshold;
                reports.push(report);
                if enough {
                    return reports;
                }
            }
        }
        let full = CompactionOptions {
            policy: Policy::automatic(&self.profile.codex, mid_turn),
            trigger: Trigger::Auto,
            instructions: None,
        };
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

    /// The context size the thresholds read: under `size_from_reported_usage`, the usage the
    /// last response reported plus the estimate of the records after that response's first
    /// one (§6.3); otherwise, or before any response reported usage, `estimate`.
    pub(in crate::session) fn context_size(&self, estimate: u64) -> ContextSize {
        if !self.profile.compaction.size_from_reported_usage {
            return ContextSize::estimated(estimate, false);
        }
        context_size(
            self.conversation.transcript.messages(),
            &self.conversation.reported_usage,
            self.profile.token_method,
            estimate,
        )
    }
}
