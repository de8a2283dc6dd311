//! Replaying a scenario.

use alloc::vec::Vec;

use super::Scenario;
use crate::attachment::Collected;
use crate::Error;

/// The trace of a replayed scenario.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Trace {
    /// One entry per step.
    pub steps: Vec<StepTrace>,
}

/// One step of a trace.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct StepTrace {
    /// What the pass produced.
    pub turn: Collected,
}

/// Replays a scenario.
///
/// # Errors
/// A step that cannot run.
pub fn run_scenario(scenario: &Scenario) -> Result<Trace, Error> {
    let _ = scenario;
    Ok(Trace::default())
}
