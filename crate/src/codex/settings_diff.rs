//! Codex's context diffing (spec codex.md §2): once a baseline exists, a turn records only
//! what changed since it, in a fixed order, and some things are never re-sent.
//!
//! The baseline is the previous turn's [`TurnSettings`]. It is set after **every** regular
//! turn, diff or not (§2.1), and becomes `None` — so the next turn injects the full
//! context — for a new session and after the compactions [`baseline_after_compaction`]
//! names (§2.6). [`turn_context_items`] picks between the two paths as a turn does (§1.1).
//!
//! ```
//! use context_assembly::codex::settings_diff::build_settings_update_items;
//! use context_assembly::codex::context::TurnSettings;
//! let before = TurnSettings::default();
//! let after = TurnSettings { cwd: "/repo/app".into(), ..TurnSettings::default() };
//! let (items, _) = build_settings_update_items(&before, &after, Some("gpt-5.3-codex"));
//! assert_eq!(items.len(), 1); // only the environment: AGENTS.md is not re-sent (X19)
//! assert!(items[0].message_text().unwrap().contains("<cwd>/repo/app</cwd>\n  <shell>bash</shell>"));
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use super::context::{
    collaboration_mode_cleared, collaboration_mode_instructions, decide, initial_context, message,
    model_switch_section, permissions_instructions, personality_message, personality_spec,
    realtime_section, skills_instructions, ContextRules, EnvironmentContext, TurnSettings,
};
use super::items::{Item, Role};
use crate::vocabulary::{Decision, Verdict};

/// The settings-update items under [`ContextRules::codex`]; see
/// [`build_settings_update_items_with`].
pub fn build_settings_update_items(
    previous: &TurnSettings,
    next: &TurnSettings,
    previous_model: Option<&str>,
) -> (Vec<Item>, Vec<Decision>) {
    build_settings_update_items_with(&ContextRules::codex(), previous, next, previous_model)
}

/// What a turn with baseline `previous` records before the user's message (§2.2): at most
/// one developer message — model switch, permissions, collaboration mode, realtime start or
/// end, personality, in that order — then at most one `<environment_context>` user message. `previous_model`
/// is the previous regular turn's model. The decisions name every field, emitted,
/// unchanged, or not diffed by design (§2.3).
///
/// # Example
/// ```
/// use context_assembly::codex::context::{ContextRules, TurnSettings};
/// use context_assembly::codex::settings_diff::build_settings_update_items_with;
/// let planning = TurnSettings { collaboration_mode: Some("Plan first.".into()), ..TurnSettings::default() };
/// let cleared = TurnSettings::default();
/// // X21: leaving a mode for one without instructions sends nothing; the plan mode stays in force
/// let (items, decisions) = build_settings_update_items_with(&ContextRules::codex(), &planning, &cleared, None);
/// assert!(items.is_empty());
/// assert!(decisions.iter().any(|d| d.subject == "collaboration_mode" && d.verdict.as_str() == "skipped"));
/// let (items, _) = build_settings_update_items_with(&ContextRules::recommended(), &planning, &cleared, None);
/// assert!(items[0].message_text().unwrap().starts_with("<collaboration_mode>"));
/// ```
pub fn build_settings_update_items_with(
    rules: &ContextRules,
    previous: &TurnSettings,
    next: &TurnSettings,
    previous_model: Option<&str>,
) -> (Vec<Item>, Vec<Decision>) {
    let mut decisions = Vec::new();
    let mut developer: Vec<String> = Vec::new();
    developer.extend(model_switch_section(next, previous_model, &mut decisions));
    if next.permissions_differ(previous) {
        developer.push(permissions_instructions(next));
        decide(
            &mut decisions,
            "permissions",
            Verdict::Included,
            "approval or sandbox changed: the whole block is re-sent",
        );
    } else {
        decide(
            &mut decisions,
            "permissions",
            Verdict::Unchanged,
            "approval and sandbox unchanged",
        );
    }
    developer.extend(collaboration_mode_update(
        rules,
        previous,
        next,
        &mut decisions,
    ));
    let realtime = Some(previous.realtime_active);
    developer.extend(realtime_section(realtime, next, &mut decisions));
    developer.extend(personality_update(rules, previous, next, &mut decisions));
    if rules.granular_diffs {
        developer.extend(granular_updates(previous, next, &mut decisions));
    } else {
        for subject in ["developer_instructions", "skills"] {
            decide(
                &mut decisions,
                subject,
                Verdict::Skipped,
                "never diffed (X20)",
            );
        }
    }
    decide(
        &mut decisions,
        "agents_md",
        Verdict::Skipped,
        "loaded once per session and never diffed (X19)",
    );
    let environment = environment_update(rules, previous, next, &mut decisions);
    let mut items = Vec::new();
    items.extend(message(rules, Role::Developer, developer));
    items.extend(environment.and_then(|text| message(rules, Role::User, Vec::from([text]))));
    (items, decisions)
}

/// X21: a change to a mode without instructions sends nothing, unless
/// `announce_mode_clear`.
fn collaboration_mode_update(
    rules: &ContextRules,
    previous: &TurnSettings,
    next: &TurnSettings,
    decisions: &mut Vec<Decision>,
) -> Option<String> {
    if previous.collaboration_mode == next.collaboration_mode {
        decide(
            decisions,
            "collaboration_mode",
            Verdict::Unchanged,
            "same mode",
        );
        return None;
    }
    match next
        .collaboration_mode
        .as_deref()
        .filter(|text| !text.is_empty())
    {
        Some(text) => {
            decide(
                decisions,
                "collaboration_mode",
                Verdict::Included,
                "the mode changed",
            );
            Some(collaboration_mode_instructions(text))
        }
        None if rules.announce_mode_clear => {
            decide(
                decisions,
                "collaboration_mode",
                Verdict::Included,
                "the mode was cleared: its end is announced",
            );
            Some(collaboration_mode_cleared())
        }
        None => {
            decide(decisions, "collaboration_mode", Verdict::Skipped, "the new mode has no instructions: nothing is sent and the old ones stay in the history (X21)");
            None
        }
    }
}

/// Only under the same model: a model switch brings the new model's own instructions.
fn personality_update(
    rules: &ContextRules,
    previous: &TurnSettings,
    next: &TurnSettings,
    decisions: &mut Vec<Decision>,
) -> Option<String> {
    let personality = next.effective_personality();
    let (verdict, reason) = if previous.effective_personality() == personality {
        (Verdict::Unchanged, "same personality in force")
    } else if !rules.catalogue.states_personality(&next.model) {
        (
            Verdict::Skipped,
            "the release's catalogue has no personality messages for this model",
        )
    } else if previous.model != next.model {
        (
            Verdict::Skipped,
            "the model changed too: personality is only diffed under the same model",
        )
    } else if let Some(message) = personality_message(personality) {
        decide(
            decisions,
            "personality",
            Verdict::Included,
            "the personality changed",
        );
        return Some(personality_spec(message));
    } else {
        (
            Verdict::Skipped,
            "the new personality has no message: nothing to send",
        )
    };
    decide(decisions, "personality", verdict, reason);
    None
}

/// X20 `granular_diffs`: developer instructions and the skills list, re-sent when changed.
fn granular_updates(
    previous: &TurnSettings,
    next: &TurnSettings,
    decisions: &mut Vec<Decision>,
) -> Vec<String> {
    let mut sections = Vec::new();
    if previous.developer_instructions == next.developer_instructions {
        decide(
            decisions,
            "developer_instructions",
            Verdict::Unchanged,
            "same instructions",
        );
    } else if let Some(text) = next
        .developer_instructions
        .as_deref()
        .filter(|t| !t.is_empty())
    {
        sections.push(String::from(text));
        decide(
            decisions,
            "developer_instructions",
            Verdict::Included,
            "the instructions changed",
        );
    } else {
        decide(
            decisions,
            "developer_instructions",
            Verdict::Skipped,
            "the instructions were removed: nothing to send",
        );
    }
    let skills_changed = previous.skills != next.skills
        || (!next.skills.is_empty() && previous.context_window != next.context_window);
    if !skills_changed {
        decide(decisions, "skills", Verdict::Unchanged, "same skills");
    } else if let Some(listed) = skills_instructions(&next.skills, next.context_window) {
        sections.push(listed.text);
        decide(
            decisions,
            "skills",
            Verdict::Included,
            "the skills changed: the list is re-sent",
        );
    } else {
        decide(
            decisions,
            "skills",
            Verdict::Skipped,
            "no skills left: nothing to send",
        );
    }
    sections
}

fn environment_update(
    rules: &ContextRules,
    previous: &TurnSettings,
    next: &TurnSettings,
    decisions: &mut Vec<Decision>,
) -> Option<String> {
    let shell = if previous.shell == next.shell {
        (Verdict::Unchanged, "same shell")
    } else if previous.cwd == next.cwd {
        (
            Verdict::Skipped,
            "environments are compared without the shell; it is re-stated only with a cwd change",
        )
    } else {
        (Verdict::Included, "re-stated with the new cwd")
    };
    decide(decisions, "shell", shell.0, shell.1);
    match EnvironmentContext::diff(rules, previous, next) {
        Some(context) => {
            decide(
                decisions,
                "environment_context",
                Verdict::Included,
                "cwd, date, time zone, network or filesystem changed",
            );
            Some(context.render())
        }
        None => {
            decide(
                decisions,
                "environment_context",
                Verdict::Unchanged,
                "cwd, date, time zone, network and filesystem unchanged",
            );
            None
        }
    }
}

/// The context items of one regular turn (§1.1): the full initial context without a
/// baseline, the settings diffs with one. `agents_md` is used only by the full path.
pub fn turn_context_items(
    rules: &ContextRules,
    baseline: Option<&TurnSettings>,
    next: &TurnSettings,
    previous_model: Option<&str>,
    agents_md: Option<&str>,
) -> (Vec<Item>, Vec<Decision>) {
    match baseline {
        Some(previous) => build_settings_update_items_with(rules, previous, next, previous_model),
        None => {
            let full = initial_context(rules, next, previous_model, agents_md);
            (full.items, full.decisions)
        }
    }
}

/// Which compaction ran, for the baseline rule of §2.6.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub enum CompactionPhase {
    /// Automatic, before the turn's context is recorded.
    PreTurn,
    /// The user's `/compact`.
    Manual,
    /// Forced by a switch to a model with a smaller window.
    ModelDownshift,
    /// Automatic, inside the sampling loop.
    MidTurn,
}

/// The baseline after a compaction (§2.6): `None` after pre-turn, manual and downshift
/// compaction, whose replacement history carries no context (it is re-injected after the
/// summary on the next turn); `current` after mid-turn compaction, which re-injects the
/// context into the replacement history itself.
///
/// # Example
/// ```
/// use context_assembly::codex::context::TurnSettings;
/// use context_assembly::codex::settings_diff::{baseline_after_compaction, CompactionPhase};
/// let now = TurnSettings::default();
/// assert_eq!(baseline_after_compaction(CompactionPhase::Manual, &now), None);
/// assert_eq!(baseline_after_compaction(CompactionPhase::MidTurn, &now), Some(now.clone()));
/// ```
pub fn baseline_after_compaction(
    phase: CompactionPhase,
    current: &TurnSettings,
) -> Option<TurnSettings> {
    match phase {
        CompactionPhase::PreTurn | CompactionPhase::Manual | CompactionPhase::ModelDownshift => {
            None
        }
        CompactionPhase::MidTurn => Some(current.clone()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codex::context::{ApprovalPolicy, Skill};
    use alloc::vec;

    fn verdict_of(decisions: &[Decision], subject: &str) -> Option<Verdict> {
        decisions
            .iter()
            .find(|d| d.subject == subject)
            .map(|d| d.verdict)
    }

    #[test]
    fn nothing_changed_gives_nothing() {
        let settings = TurnSettings::default();
        let (items, decisions) =
            build_settings_update_items(&settings, &settings, Some("gpt-5.3-codex"));
        assert!(items.is_empty());
        assert_eq!(
            verdict_of(&decisions, "environment_context"),
            Some(Verdict::Unchanged)
        );
        assert_eq!(verdict_of(&decisions, "agents_md"), Some(Verdict::Skipped));
    }

    #[test]
    fn fixed_order_of_the_developer_parts() {
        let previous = TurnSettings::default();
        let next = TurnSettings {
            model: "gpt-5.2".into(),
            model_instructions: "BASE".into(),
            approval_policy: ApprovalPolicy::Never,
            collaboration_mode: Some("plan".into()),
            ..TurnSettings::default()
        };
        let (items, decisions) =
            build_settings_update_items(&previous, &next, Some("gpt-5.3-codex"));
        let Item::Message { content, .. } = &items[0] else {
            panic!("a message");
        };
        let starts: Vec<bool> = [
            "<model_switch>",
            "<permissions instructions>",
            "<collaboration_mode>",
        ]
        .iter()
        .zip(content)
        .map(|(tag, part)| part.text().is_some_and(|t| t.starts_with(tag)))
        .collect();
        assert_eq!(starts, [true, true, true]);
        assert_eq!(items.len(), 1);
        assert_eq!(
            verdict_of(&decisions, "personality"),
            Some(Verdict::Unchanged)
        );
    }

    #[test]
    fn personality_needs_the_same_model() {
        let previous = TurnSettings::default();
        let next = TurnSettings {
            personality: Some("terse".into()),
            ..TurnSettings::default()
        };
        let (items, _) = build_settings_update_items(&previous, &next, None);
        assert!(items[0]
            .message_text()
            .unwrap()
            .starts_with("<personality_spec> "));
        let switched = TurnSettings {
            model: "other".into(),
            ..next
        };
        let (items, decisions) = build_settings_update_items(&previous, &switched, None);
        assert!(items.is_empty());
        assert_eq!(
            verdict_of(&decisions, "personality"),
            Some(Verdict::Skipped)
        );
    }

    #[test]
    fn granular_diffs_resend_instructions_and_skills() {
        let previous = TurnSettings::default();
        let next = TurnSettings {
            developer_instructions: Some("new".into()),
            skills: vec![Skill {
                name: "a".into(),
                ..Skill::default()
            }],
            ..TurnSettings::default()
        };
        let (items, _) = build_settings_update_items(&previous, &next, None);
        assert!(items.is_empty());
        let (items, decisions) =
            build_settings_update_items_with(&ContextRules::recommended(), &previous, &next, None);
        assert_eq!(items[0].message_text().unwrap().get(..3), Some("new"));
        assert_eq!(verdict_of(&decisions, "skills"), Some(Verdict::Included));
    }

    #[test]
    fn turn_context_items_follows_the_baseline() {
        let settings = TurnSettings::default();
        let rules = ContextRules::codex();
        let (full, _) = turn_context_items(&rules, None, &settings, None, Some("docs"));
        assert_eq!(full.len(), 2);
        let (diff, _) = turn_context_items(&rules, Some(&settings), &settings, None, Some("docs"));
        assert!(diff.is_empty());
    }
}
