//! Quirk switches a scenario changes from its preset: `"section.field": bool`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::Value;

use crate::{Error, Profile};

/// The profile sections a switch can name, as scenarios spell them.
pub const SECTIONS: [&str; 9] = [
    "mentions",
    "changeSnippets",
    "paths",
    "deny",
    "read",
    "fileState",
    "memory",
    "fileContext",
    "attachments",
];

/// Sets each `(section.field, value)` on `profile`.
///
/// # Errors
/// An unknown section or field, or a field that is not a switch (not a boolean).
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
            "mentions" => set(&mut profile.mentions, field, *value),
            "changeSnippets" => match profile.change_snippets.as_mut() {
                Some(rules) => set(rules, field, *value),
                None => Err("this profile sends no change snippets".into()),
            },
            "paths" => set(&mut profile.paths, field, *value),
            "deny" => set(&mut profile.deny, field, *value),
            "read" => set(&mut profile.read, field, *value),
            "fileState" => set(&mut profile.file_state, field, *value),
            "memory" => set(&mut profile.memory, field, *value),
            "fileContext" => set(&mut profile.file_context, field, *value),
            "attachments" => set(&mut profile.attachments, field, *value),
            _ => Err(format!(
                "unknown section: expected one of {}",
                quoted(&SECTIONS)
            )),
        };
        outcome.map_err(error)?;
    }
    Ok(())
}

/// Sets a boolean field of a rules struct through its serde form.
fn set<T: Serialize + DeserializeOwned>(
    rules: &mut T,
    field: &str,
    value: bool,
) -> Result<(), String> {
    let mut json = serde_json::to_value(&*rules).map_err(|e| format!("{e}"))?;
    let Value::Object(map) = &mut json else {
        return Err("this section has no switches".into());
    };
    match map.get_mut(field) {
        Some(slot @ Value::Bool(_)) => *slot = Value::Bool(value),
        Some(_) => return Err("not a switch: only true/false fields can be set here".into()),
        None => {
            let switches: Vec<&str> = map
                .iter()
                .filter(|(_, v)| v.is_boolean())
                .map(|(k, _)| k.as_str())
                .collect();
            return Err(format!(
                "unknown switch: expected one of {}",
                quoted(&switches)
            ));
        }
    }
    *rules = serde_json::from_value(json).map_err(|e| format!("{e}"))?;
    Ok(())
}

fn quoted(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("\"{name}\"")).collect();
    quoted.join(", ")
}
