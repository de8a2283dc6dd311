//! A compaction tried on a replayed scenario: the request before, the plan, the report and
//! the request after — what the playground's compaction view and its comparison table show.

use alloc::format;

use super::{replay_session, Scenario};
use crate::request::Request;
use crate::session::{CompactionOptions, CompactionPlan, CompactionReport};
use crate::Error;

/// What one policy does to a scenario's session at one step.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct CompactionPreview {
    /// The request before the compaction.
    pub before: Request,
    /// The plan.
    pub plan: CompactionPlan,
    /// What it did.
    pub report: CompactionReport,
    /// The request after it.
    pub after: Request,
}

/// Replays the first `steps` steps of `scenario` (all of them when `None`), then plans and
/// applies `options` with `summary` (the extractive summariser's when `None`).
///
/// # Errors
/// A step that cannot run (as [`super::run_scenario`]), `steps` beyond the scenario's
/// length, or a summary the compaction refuses.
///
/// # Example
/// ```
/// use context_assembly::scenario::{compaction_preview, parse_scenario};
/// use context_assembly::session::CompactionOptions;
/// let scenario = parse_scenario(r#"{"steps":[{"kind":"user","prompt":"hi"}]}"#).unwrap();
/// let error = compaction_preview(&scenario, CompactionOptions::default(), None, Some(2)).unwrap_err();
/// assert_eq!(error.to_string(), "steps: 2 steps asked for, but the scenario has 1");
/// ```
pub fn compaction_preview(
    scenario: &Scenario,
    options: CompactionOptions,
    summary: Option<&str>,
    steps: Option<usize>,
) -> Result<CompactionPreview, Error> {
    let total = scenario.steps.len();
    let steps = steps.unwrap_or(total);
    if steps > total {
        return Err(Error::InvalidConfig {
            field: "steps".into(),
            reason: format!("{steps} steps asked for, but the scenario has {total}"),
        });
    }
    let (mut session, clock) = replay_session(scenario, steps)?;
    let before = session.current_request(clock);
    let plan = session.plan_compaction(options, clock);
    let report = session.apply_compaction(&plan, summary, clock)?;
    let after = session.current_request(clock);
    Ok(CompactionPreview {
        before,
        plan,
        report,
        after,
    })
}
