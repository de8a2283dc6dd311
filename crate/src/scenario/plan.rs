//! A compaction plan handed back as JSON: the JS API's `applyCompaction` takes the object
//! `planCompaction` returned. A plan is carried out as it was shown, so the one given must be
//! a kept plan of the session ([`Session::kept_plan`]), unchanged; an edited one is refused
//! rather than half-honoured.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde_json::{Map, Value};

use crate::session::{CompactionPlan, Session};
use crate::Error;

/// The kept plan that the JSON object `given` is.
///
/// # Errors
/// [`Error::UnusablePlan`] when `given` is not an object with a whole-number `id`, names no
/// kept plan, or differs from the kept plan in any field (the error names the fields).
///
/// # Example
/// ```
/// use context_assembly::scenario::kept_plan_of;
/// use context_assembly::session::{CompactionOptions, Session, SessionConfig, SessionOptions};
/// use context_assembly::Profile;
/// let options = SessionOptions { profile: Profile::claude_code(), cwd: "/p".into(), home: None, config: SessionConfig::default() };
/// let mut session = Session::new(options).unwrap();
/// let plan = session.plan_compaction(CompactionOptions::default(), 0);
/// let shown = serde_json::to_string(&plan).unwrap();
/// assert_eq!(kept_plan_of(&session, &shown).unwrap(), plan);
/// let edited = shown.replace("\"applies\":false", "\"applies\":true");
/// assert!(kept_plan_of(&session, &edited).unwrap_err().to_string().contains("field `applies`"));
/// ```
pub fn kept_plan_of(session: &Session, given: &str) -> Result<CompactionPlan, Error> {
    let not_a_plan = || Error::UnusablePlan {
        reason: "argument `plan` must be a plan from planCompaction (an object with a \
                 whole-number `id`)"
            .into(),
    };
    let given: Value = serde_json::from_str(given).map_err(|_| not_a_plan())?;
    let id = given
        .get("id")
        .and_then(Value::as_u64)
        .ok_or_else(not_a_plan)?;
    let kept = session.kept_plan(id)?;
    let expected = serde_json::to_value(kept).map_err(|error| Error::UnusablePlan {
        reason: format!("plan {id} cannot be written as JSON: {error}"),
    })?;
    let changed = changed_fields(&given, &expected);
    if !changed.is_empty() {
        return Err(Error::UnusablePlan {
            reason: format!(
                "plan {id} differs from the plan planCompaction returned (field{} {}): pass \
                 the plan unchanged, or plan again",
                if changed.len() == 1 { "" } else { "s" },
                changed.join(", ")
            ),
        });
    }
    Ok(kept.clone())
}

/// The top-level fields in which two JSON objects differ, each in backquotes.
fn changed_fields(given: &Value, expected: &Value) -> Vec<String> {
    let empty = Map::new();
    let given = given.as_object().unwrap_or(&empty);
    let expected = expected.as_object().unwrap_or(&empty);
    let mut keys: Vec<&String> = given.keys().chain(expected.keys()).collect();
    crate::sort::sort(&mut keys);
    keys.dedup();
    keys.into_iter()
        .filter(|key| given.get(*key) != expected.get(*key))
        .map(|key| format!("`{key}`"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::session::{CompactionOptions, SessionConfig, SessionOptions};
    use crate::Profile;

    fn session_with_plan() -> (Session, CompactionPlan) {
        let options = SessionOptions {
            profile: Profile::claude_code(),
            cwd: "/p".into(),
            home: None,
            config: SessionConfig::default(),
        };
        let mut session = Session::new(options).unwrap();
        let plan = session.plan_compaction(CompactionOptions::default(), 0);
        (session, plan)
    }

    #[test]
    fn only_an_object_with_a_whole_number_id_is_a_plan() {
        let (session, _) = session_with_plan();
        for given in [
            "[]",
            "\"plan\"",
            "{}",
            "{\"id\":1.5}",
            "{\"id\":-1}",
            "not json",
        ] {
            let error = kept_plan_of(&session, given).unwrap_err().to_string();
            assert!(
                error.starts_with("argument `plan` must be a plan"),
                "{given}: {error}"
            );
        }
    }

    #[test]
    fn an_unknown_id_and_an_edited_plan_are_refused_by_name() {
        let (session, plan) = session_with_plan();
        let error = kept_plan_of(&session, "{\"id\":99}").unwrap_err();
        assert_eq!(
            error.to_string(),
            "plan 99 is not one of the 8 latest plans of this session"
        );
        let mut edited = serde_json::to_value(&plan).unwrap();
        edited["policy"] = "opencode.prune".into();
        edited["extra"] = 1.into();
        let error = kept_plan_of(&session, &edited.to_string()).unwrap_err();
        assert_eq!(
            error.to_string(),
            format!(
                "plan {} differs from the plan planCompaction returned (fields `extra`, \
                 `policy`): pass the plan unchanged, or plan again",
                plan.id
            )
        );
    }
}
