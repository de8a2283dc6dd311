//! Quirk switches a scenario changes from its preset: `"section.field": bool`.
//!
//! Each section's switches are its boolean fields under their camelCase names, found by the
//! section's own declaration ([`crate::switch`]); a test checks them against the sections'
//! serde form.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::switch::Switches;
use crate::{Error, Profile};

/// The profile sections a switch can name, as scenarios spell them.
pub const SECTIONS: [&str; 12] = [
    "mentions",
    "changeSnippets",
    "paths",
    "deny",
    "read",
    "fileState",
    "memory",
    "fileContext",
    "attachments",
    "compaction",
    "codex",
    "codexContext",
];

/// Sets each `(section.field, value)` on `profile`.
///
/// # Errors
/// An unknown section or switch (the error lists the allowed ones).
///
/// # Example
/// ```
/// use context_assembly::scenario::apply_switches;
/// use context_assembly::Profile;
/// let mut profile = Profile::claude_code();
/// apply_switches(&mut profile, &[("attachments.planCountsNewPrompt".into(), true)]).unwrap();
/// assert!(profile.attachments.plan_counts_new_prompt);
/// let error = apply_switches(&mut profile, &[("attachments.workBudget".into(), true)]);
/// assert!(error.unwrap_err().to_string().starts_with("switches.attachments.workBudget: unknown switch"));
/// ```
pub fn apply_switches(profile: &mut Profile, switches: &[(String, bool)]) -> Result<(), Error> {
    for (name, value) in switches {
        let error = |reason: String| Error::InvalidConfig {
            field: format!("switches.{name}"),
            reason,
        };
        let Some((section, field)) = name.split_once('.') else {
            return Err(error(format!(
                "a switch is named section.field, with section one of {}",
                quoted(&SECTIONS)
            )));
        };
        let outcome = match section {
            "mentions" => set(profile.mentions.switches_mut(), field, *value),
            "changeSnippets" => match profile.change_snippets.as_mut() {
                Some(rules) => set(rules.switches_mut(), field, *value),
                None => Err("this profile sends no change snippets".into()),
            },
            "paths" => set(profile.paths.switches_mut(), field, *value),
            "deny" => set(profile.deny.switches_mut(), field, *value),
            "read" => set(profile.read.switches_mut(), field, *value),
            "fileState" => set(profile.file_state.switches_mut(), field, *value),
            "memory" => set(profile.memory.switches_mut(), field, *value),
            "fileContext" => set(profile.file_context.switches_mut(), field, *value),
            "attachments" => set(profile.attachments.switches_mut(), field, *value),
            "compaction" => set(profile.compaction.switches_mut(), field, *value),
            "codex" => set(profile.codex.switches_mut(), field, *value),
            "codexContext" => set(profile.codex.context.switches_mut(), field, *value),
            _ => Err(format!(
                "unknown section: expected one of {}",
                quoted(&SECTIONS)
            )),
        };
        outcome.map_err(error)?;
    }
    Ok(())
}

/// Sets the switch called `field` among a section's `switches`.
fn set(mut switches: Vec<(String, &mut bool)>, field: &str, value: bool) -> Result<(), String> {
    if let Some((_, slot)) = switches.iter_mut().find(|(name, _)| name == field) {
        **slot = value;
        return Ok(());
    }
    let names: Vec<&str> = switches.iter().map(|(name, _)| name.as_str()).collect();
    Err(format!(
        "unknown switch: expected one of {}",
        quoted(&names)
    ))
}

fn quoted(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("\"{name}\"")).collect();
    quoted.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// The boolean fields of a section's serde form, sorted.
    fn serde_switches<T: serde::Serialize>(rules: &T) -> Vec<String> {
        let serde_json::Value::Object(map) = serde_json::to_value(rules).unwrap() else {
            panic!("a section serialises to an object");
        };
        let mut names: Vec<String> = map
            .into_iter()
            .filter(|(_, value)| value.is_boolean())
            .map(|(name, _)| name)
            .collect();
        crate::sort::sort(&mut names);
        names
    }

    /// A section's switches, sorted, beside the boolean fields of its serde form.
    fn switches_and_serde_form<T: Switches + serde::Serialize>(
        section: &mut T,
    ) -> (Vec<String>, Vec<String>) {
        let serde_form = serde_switches(section);
        let mut names: Vec<String> = section
            .switches_mut()
            .into_iter()
            .map(|(name, _)| name)
            .collect();
        crate::sort::sort(&mut names);
        (names, serde_form)
    }

    #[test]
    fn every_boolean_field_of_every_section_is_a_switch() {
        let mut p = Profile::recommended();
        let mut codex = Profile::codex().codex;
        let pairs = [
            switches_and_serde_form(&mut p.mentions),
            switches_and_serde_form(p.change_snippets.as_mut().unwrap()),
            switches_and_serde_form(&mut p.paths),
            switches_and_serde_form(&mut p.deny),
            switches_and_serde_form(&mut p.read),
            switches_and_serde_form(&mut p.file_state),
            switches_and_serde_form(&mut p.memory),
            switches_and_serde_form(&mut p.file_context),
            switches_and_serde_form(&mut p.attachments),
            switches_and_serde_form(&mut p.compaction),
            switches_and_serde_form(&mut codex),
            switches_and_serde_form(&mut codex.context),
        ];
        for (index, (switches, serde_form)) in pairs.into_iter().enumerate() {
            assert!(!switches.is_empty(), "section {index} has no switch");
            assert_eq!(switches, serde_form, "section {index}");
        }
    }
}
