//! Codex's initial context (spec codex.md §1): what a turn without a baseline records
//! before the user's message.
//!
//! * [`settings`]: [`TurnSettings`], what the context depends on, and [`ContextRules`],
//!   the switches of its quirks.
//! * The tagged fragments (permissions, collaboration mode, personality, model switch,
//!   AGENTS.md) are worded in [`crate::codex::wording`].
//! * [`skills`]: the skills list within its budget.
//! * [`environment`]: `<environment_context>` and its diff body.
//!
//! The result is at most two messages (§1.2): one developer message with one part per
//! section — model switch, permissions, developer instructions, collaboration mode,
//! realtime, personality, skills — then one contextual user message with AGENTS.md and the
//! environment. Apps, plugins, extension contributors and guardian policies are not
//! modelled. A message without sections is not sent.
//!
//! ```
//! use context_assembly::codex::context::{build_initial_context, TurnSettings};
//! let items = build_initial_context(&TurnSettings::default(), None, Some("Run the tests."));
//! assert_eq!(items.len(), 2); // developer[permissions], user[AGENTS.md, environment]
//! let user = items[1].message_text().unwrap();
//! assert!(user.starts_with("# AGENTS.md instructions for /repo\n\n<INSTRUCTIONS>\nRun the tests.\n"));
//! ```

pub mod environment;
pub mod settings;
pub mod skills;

use alloc::string::String;
use alloc::vec::Vec;

use super::items::{Item, Role};
use crate::vocabulary::{Decision, Verdict};

pub use crate::codex::wording::{
    agents_md_fragment, agents_md_instructions, collaboration_mode_cleared,
    collaboration_mode_instructions, model_switch, permissions_instructions, personality_spec,
    realtime_end, realtime_start, untitled_agents_md_instructions,
};
pub use environment::EnvironmentContext;
pub use settings::{
    personality_message, ApprovalPolicy, BaseInstructions, ContextRules, ExecEnvironment,
    NetworkDomains, SandboxMode, Skill, SkillScope, Subagent, TurnSettings, DEFAULT_PERSONALITY,
    PERSONALITY_PRESETS,
};
pub use skills::{skills_instructions, SkillBudget, SkillsInstructions};

/// The context items of a full injection, and a decision for every segment considered.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct InitialContext {
    /// The developer bundle, then the contextual user message (each only when non-empty).
    pub items: Vec<Item>,
    /// One per segment (and per skill): included, or why not.
    pub decisions: Vec<Decision>,
}

/// Codex's initial context under [`ContextRules::codex`]; see [`initial_context`].
pub fn build_initial_context(
    settings: &TurnSettings,
    previous_model: Option<&str>,
    agents_md: Option<&str>,
) -> Vec<Item> {
    initial_context(&ContextRules::codex(), settings, previous_model, agents_md).items
}

/// The full context for `settings`: `previous_model` is the model of the previous regular
/// turn (a different one, with non-empty instructions, opens the bundle with
/// `<model_switch>`, §2.5); `agents_md` is the combined AGENTS.md text
/// ([`crate::codex::agents_md`]), labelled with the turn's cwd.
///
/// # Example
/// ```
/// use context_assembly::codex::context::{initial_context, ContextRules, TurnSettings};
/// let settings = TurnSettings { model_instructions: "You are Codex.".into(), ..TurnSettings::default() };
/// // same model as before: no switch, even with instructions
/// let same = initial_context(&ContextRules::codex(), &settings, Some("gpt-5.3-codex"), None);
/// assert!(!same.items[0].message_text().unwrap().contains("<model_switch>"));
/// let other = initial_context(&ContextRules::codex(), &settings, Some("gpt-4.1"), None);
/// assert!(other.items[0].message_text().unwrap().starts_with("<model_switch>\n"));
/// ```
pub fn initial_context(
    rules: &ContextRules,
    settings: &TurnSettings,
    previous_model: Option<&str>,
    agents_md: Option<&str>,
) -> InitialContext {
    let mut out = InitialContext::default();
    let mut developer: Vec<String> = Vec::new();
    let switch = model_switch_section(settings, previous_model, &mut out.decisions);
    developer.extend(switch);
    let instructions = |developer: &mut Vec<String>, decisions: &mut Vec<Decision>| {
        push_optional(
            developer,
            decisions,
            "developer_instructions",
            settings.developer_instructions.as_deref(),
            |text| String::from(text),
        )
    };
    // [C] puts the developer instructions before the permissions (X28).
    if rules.developer_instructions_first {
        instructions(&mut developer, &mut out.decisions);
    }
    let skills = skills_instructions(&settings.skills, settings.context_window);
    let push_skills = |developer: &mut Vec<String>, decisions: &mut Vec<Decision>| match &skills {
        Some(listed) => {
            developer.push(listed.text.clone());
            decisions.extend(listed.decisions.iter().cloned());
        }
        None => decide(decisions, "skills", Verdict::Skipped, "no skills"),
    };
    if rules.skills_before_permissions {
        push_skills(&mut developer, &mut out.decisions);
    }
    developer.push(permissions_instructions(settings));
    decide(
        &mut out.decisions,
        "permissions",
        Verdict::Included,
        "always sent",
    );
    if !rules.developer_instructions_first {
        instructions(&mut developer, &mut out.decisions);
    }
    push_optional(
        &mut developer,
        &mut out.decisions,
        "collaboration_mode",
        settings.collaboration_mode.as_deref(),
        collaboration_mode_instructions,
    );
    developer.extend(realtime_section(None, settings, &mut out.decisions));
    developer.extend(personality_section(rules, settings, &mut out.decisions));
    if !rules.skills_before_permissions {
        push_skills(&mut developer, &mut out.decisions);
    }
    let mut user: Vec<String> = Vec::new();
    push_optional(
        &mut user,
        &mut out.decisions,
        "agents_md",
        agents_md,
        |text| agents_md_fragment(rules, settings, text),
    );
    user.push(EnvironmentContext::full(rules, settings).render());
    decide(
        &mut out.decisions,
        "environment_context",
        Verdict::Included,
        "always sent",
    );
    out.items.extend(message(rules, Role::Developer, developer));
    out.items.extend(message(rules, Role::User, user));
    out
}

/// `<model_switch>` when the previous regular turn ran another model and the new one has
/// instructions (§1.3 row 1, §2.2 row 1), deciding either way.
pub(crate) fn model_switch_section(
    settings: &TurnSettings,
    previous_model: Option<&str>,
    decisions: &mut Vec<Decision>,
) -> Option<String> {
    let (verdict, reason) = match previous_model {
        None => (Verdict::Skipped, "no previous regular turn"),
        Some(previous) if previous == settings.model => {
            (Verdict::Unchanged, "same model as the previous turn")
        }
        Some(_) if settings.model_instructions.is_empty() => (
            Verdict::Skipped,
            "the new model has no instructions to send",
        ),
        Some(_) => {
            decide(
                decisions,
                "model_switch",
                Verdict::Included,
                "the model changed",
            );
            return Some(model_switch(&settings.model_instructions));
        }
    };
    decide(decisions, "model_switch", verdict, reason);
    None
}

/// The start or end of a voice conversation (§1.3 row 5, §2.2 row 4), deciding either
/// way. `baseline` is the flag the baseline recorded (`None` in a full context); without
/// one, the previous regular turn's flag ([`TurnSettings::previous_realtime_active`]) tells
/// whether a conversation ended.
pub(crate) fn realtime_section(
    baseline: Option<bool>,
    settings: &TurnSettings,
    decisions: &mut Vec<Decision>,
) -> Option<String> {
    let previous_turn = settings.previous_realtime_active == Some(true);
    let (verdict, reason, text) = match (baseline, settings.realtime_active) {
        (Some(true), false) => (
            Verdict::Included,
            "the voice conversation of the baseline has ended",
            Some(realtime_end()),
        ),
        (None, false) if previous_turn => (
            Verdict::Included,
            "the previous turn had a voice conversation and this one has none",
            Some(realtime_end()),
        ),
        (Some(false) | None, true) => (
            Verdict::Included,
            "a voice conversation is active and the history does not say so yet",
            Some(realtime_start(
                settings.realtime_start_instructions.as_deref(),
            )),
        ),
        (Some(true), true) => (Verdict::Unchanged, "the voice conversation continues", None),
        (_, false) => (Verdict::Skipped, "no voice conversation", None),
    };
    decide(decisions, "realtime", verdict, reason);
    text
}

/// Adds `render(text)` when `text` is set and not empty, deciding either way.
/// The personality in force is stated unless it has no message or the base instructions
/// already carry it (§1.3 row 6): after a model switch, or once the user chose another
/// personality, a full context states it.
fn personality_section(
    rules: &ContextRules,
    settings: &TurnSettings,
    decisions: &mut Vec<Decision>,
) -> Option<String> {
    let personality = settings.effective_personality();
    let (verdict, reason) = match personality_message(personality) {
        _ if !rules.catalogue.states_personality(&settings.model) => (
            Verdict::Skipped,
            "the release's catalogue has no personality messages for this model",
        ),
        None => (Verdict::Skipped, "the personality in force has no message"),
        Some(_) if settings.personality_is_baked() => (
            Verdict::Skipped,
            "the base instructions were rendered for this model and personality",
        ),
        Some(message) => {
            decide(
                decisions,
                "personality",
                Verdict::Included,
                "the base instructions do not carry the personality in force",
            );
            return Some(personality_spec(message));
        }
    };
    decide(decisions, "personality", verdict, reason);
    None
}

fn push_optional(
    sections: &mut Vec<String>,
    decisions: &mut Vec<Decision>,
    subject: &str,
    text: Option<&str>,
    render: impl FnOnce(&str) -> String,
) {
    match text.filter(|text| !text.is_empty()) {
        Some(text) => {
            sections.push(render(text));
            decide(decisions, subject, Verdict::Included, "set");
        }
        None => decide(decisions, subject, Verdict::Skipped, "not set"),
    }
}

pub(crate) fn decide(decisions: &mut Vec<Decision>, subject: &str, verdict: Verdict, reason: &str) {
    decisions.push(Decision::new(subject, verdict, reason));
}

/// One message with a part per section (X23), or one joined part under
/// `join_context_parts`; `None` without sections (§1.2).
pub(crate) fn message(rules: &ContextRules, role: Role, sections: Vec<String>) -> Option<Item> {
    if sections.is_empty() {
        None
    } else if rules.join_context_parts {
        Some(Item::text(role, &sections.join("\n\n")))
    } else {
        Some(Item::sections(role, &sections))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codex::items::Part;
    use alloc::vec;

    fn part_starts(item: &Item) -> Vec<&str> {
        match item {
            Item::Message { content, .. } => content
                .iter()
                .filter_map(Part::text)
                .map(|text| {
                    text.get(..text.find(['\n', ' ']).unwrap_or(text.len()))
                        .unwrap_or("")
                })
                .collect(),
            _ => Vec::new(),
        }
    }

    #[test]
    fn developer_sections_follow_the_catalogue_order() {
        let settings = TurnSettings {
            model_instructions: "BASE".into(),
            developer_instructions: Some("dev".into()),
            collaboration_mode: Some("plan".into()),
            personality: Some("terse".into()),
            skills: vec![Skill {
                name: "a".into(),
                ..Skill::default()
            }],
            ..TurnSettings::default()
        };
        let items = build_initial_context(&settings, Some("old"), Some("docs"));
        assert_eq!(
            part_starts(&items[0]),
            [
                "<model_switch>",
                "<permissions",
                "dev",
                "<collaboration_mode>plan</collaboration_mode>",
                "<personality_spec>",
                "<skills_instructions>"
            ]
        );
        assert_eq!(part_starts(&items[1]), ["#", "<environment_context>"]);
    }

    #[test]
    fn empty_texts_are_not_sections_and_join_makes_one_part() {
        let settings = TurnSettings {
            collaboration_mode: Some(String::new()),
            developer_instructions: Some(String::new()),
            ..TurnSettings::default()
        };
        let items = build_initial_context(&settings, None, Some(""));
        assert_eq!(part_starts(&items[0]), ["<permissions"]);
        assert_eq!(part_starts(&items[1]), ["<environment_context>"]);
        let rules = ContextRules {
            join_context_parts: true,
            ..ContextRules::codex()
        };
        let joined = initial_context(&rules, &settings, None, Some("x"));
        let Item::Message { content, .. } = &joined.items[1] else {
            panic!("a message");
        };
        assert_eq!(content.len(), 1);
        assert!(joined.items[1]
            .message_text()
            .unwrap()
            .contains("</INSTRUCTIONS>\n\n<environment_context>"));
    }
}
