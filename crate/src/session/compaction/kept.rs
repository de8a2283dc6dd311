//! The latest plans of a session, kept so that a host which shows a plan (the playground's
//! compaction panel) can carry out exactly that plan later, by its id.

use alloc::format;
use alloc::vec::Vec;

use super::CompactionPlan;
use crate::session::Session;
use crate::Error;

/// Plans kept per session; older ones are forgotten, so a session that plans on every
/// keystroke holds a bounded number.
pub const KEPT_PLANS: usize = 8;

/// The latest [`KEPT_PLANS`] plans, oldest first.
#[derive(Debug, Clone, Default)]
pub(in crate::session) struct KeptPlans(Vec<CompactionPlan>);

impl KeptPlans {
    /// Keeps `plan`, forgetting the oldest one past [`KEPT_PLANS`].
    pub(in crate::session) fn keep(&mut self, plan: CompactionPlan) {
        self.0.push(plan);
        if self.0.len() > KEPT_PLANS {
            self.0.remove(0);
        }
    }
}

impl Session {
    /// The plan numbered `id`, when it is one of the latest [`KEPT_PLANS`] plans of this
    /// session.
    ///
    /// # Errors
    /// [`Error::UnusablePlan`] when no kept plan has that id.
    pub fn kept_plan(&self, id: u64) -> Result<&CompactionPlan, Error> {
        self.conversation
            .kept_plans
            .0
            .iter()
            .find(|plan| plan.id == id)
            .ok_or_else(|| Error::UnusablePlan {
                reason: format!(
                    "plan {id} is not one of the {KEPT_PLANS} latest plans of this session"
                ),
            })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{CompactionOptions, SessionConfig, SessionOptions};
    use crate::Profile;

    fn session() -> Session {
        Session::new(SessionOptions {
            profile: Profile::claude_code(),
            cwd: "/p".into(),
            home: None,
            config: SessionConfig::default(),
        })
        .unwrap()
    }

    #[test]
    fn a_session_keeps_its_latest_plans_by_id() {
        let mut session = session();
        let ids: Vec<u64> = (0..KEPT_PLANS + 2)
            .map(|_| session.plan_compaction(CompactionOptions::default(), 0).id)
            .collect();
        for forgotten in &ids[..2] {
            let error = session.kept_plan(*forgotten).unwrap_err();
            assert_eq!(
                error.to_string(),
                format!("plan {forgotten} is not one of the 8 latest plans of this session")
            );
        }
        for kept in &ids[2..] {
            assert_eq!(session.kept_plan(*kept).unwrap().id, *kept);
        }
    }
}
