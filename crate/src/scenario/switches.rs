//! Quirk switches a scenario changes from its preset: `"section.field": bool`.
//!
//! Each section's switches are its boolean fields under their camelCase names, read from the
//! section's serde derives (declaration order), so no list is written by hand.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use serde::de::{self, DeserializeOwned, Deserializer, Visitor};
use serde::Serialize;
use serde_json::Value;

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

/// The switches of a section: its boolean fields, by their serde (camelCase) names, in the
/// order the section declares them. Read from the section's own serde derives, so a field
/// added to a section is a switch at once and the names are never written twice.
fn switch_names<T>(rules: &T) -> Vec<&'static str>
where
    T: Serialize + DeserializeOwned,
{
    let tree = serde_json::to_value(rules).unwrap_or(Value::Null);
    declared_fields::<T>()
        .iter()
        .copied()
        .filter(|name| tree.get(name).is_some_and(Value::is_boolean))
        .collect()
}

/// The fields `T`'s `Deserialize` names, in declaration order: what derived code hands
/// [`Deserializer::deserialize_struct`], caught by a deserializer that reads nothing else.
fn declared_fields<T: DeserializeOwned>() -> &'static [&'static str] {
    let mut fields: &'static [&'static str] = &[];
    // The deserializer always fails (it has no data); what matters is what it was told.
    let _ = T::deserialize(FieldNames(&mut fields));
    fields
}

struct FieldNames<'a>(&'a mut &'static [&'static str]);

impl<'de> Deserializer<'de> for FieldNames<'_> {
    type Error = serde::de::value::Error;

    fn deserialize_any<V: Visitor<'de>>(self, _visitor: V) -> Result<V::Value, Self::Error> {
        Err(de::Error::custom("a profile section is a struct"))
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        _name: &'static str,
        fields: &'static [&'static str],
        _visitor: V,
    ) -> Result<V::Value, Self::Error> {
        *self.0 = fields;
        Err(de::Error::custom("only the field names were read"))
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf
        option unit unit_struct newtype_struct seq tuple tuple_struct map enum identifier
        ignored_any
    }
}

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
            "compaction" => set(&mut profile.compaction, field, *value),
            "codex" => set(&mut profile.codex, field, *value),
            "codexContext" => set(&mut profile.codex.context, field, *value),
            _ => Err(format!(
                "unknown section: expected one of {}",
                quoted(&SECTIONS)
            )),
        };
        outcome.map_err(error)?;
    }
    Ok(())
}

/// Sets the switch `field` of `rules` through its serde form, the one place that knows the
/// section's fields.
fn set<T>(rules: &mut T, field: &str, value: bool) -> Result<(), String>
where
    T: Serialize + DeserializeOwned,
{
    let unknown = || {
        format!(
            "unknown switch: expected one of {}",
            quoted(&switch_names(rules))
        )
    };
    let mut tree = serde_json::to_value(&*rules).map_err(|error| error.to_string())?;
    match tree.get_mut(field) {
        Some(Value::Bool(slot)) => *slot = value,
        _ => return Err(unknown()),
    }
    *rules = serde_json::from_value(tree).map_err(|error| error.to_string())?;
    Ok(())
}

fn quoted(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("\"{name}\"")).collect();
    quoted.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every switch of every section of every preset: setting it to its own value changes
    /// nothing, and flipping it changes that switch alone.
    #[test]
    fn every_switch_round_trips_and_flips_alone() {
        for name in crate::ProfileName::ALL {
            let preset = Profile::preset(name);
            let before = sections(&preset);
            let switches: Vec<(String, bool)> = before
                .iter()
                .flat_map(|(section, value)| {
                    let fields = value.as_object().cloned().unwrap_or_default();
                    fields.into_iter().filter_map(move |(field, value)| {
                        Some((format!("{section}.{field}"), value.as_bool()?))
                    })
                })
                .collect();
            assert!(switches.len() > 80, "{name}: {} switches", switches.len());
            for (switch, on) in &switches {
                let mut same = preset.clone();
                apply_switches(&mut same, &[(switch.clone(), *on)]).unwrap();
                assert_eq!(same, preset, "{name}: {switch} set to its own value");
                let mut flipped = preset.clone();
                apply_switches(&mut flipped, &[(switch.clone(), !*on)]).unwrap();
                let changed: Vec<String> = before
                    .iter()
                    .zip(sections(&flipped))
                    .flat_map(|((section, a), (_, b))| {
                        differences(a, &b)
                            .into_iter()
                            .map(move |at| format!("{section}{at}"))
                    })
                    .collect();
                let expected = switch.replacen('.', "/", 1);
                assert_eq!(changed, [expected], "{name}: {switch}");
            }
        }
    }

    #[test]
    fn an_unknown_switch_lists_the_section_s_switches_in_declaration_order() {
        let mut profile = Profile::claude_code();
        let error = apply_switches(&mut profile, &[("read.nope".into(), true)]).unwrap_err();
        assert!(error
            .to_string()
            .starts_with("switches.read.nope: unknown switch: expected one of \"dropTrailingEmptyLine\", \"warnEmptyFile\""));
        let error = apply_switches(&mut profile, &[("read.maxLines".into(), true)]).unwrap_err();
        assert!(
            error.to_string().contains("unknown switch"),
            "a number is not a switch"
        );
    }

    /// Each section's serde form, as `SECTIONS` names it (`codex` without its nested
    /// `context`, which is a section of its own).
    fn sections(profile: &Profile) -> Vec<(&'static str, Value)> {
        let mut codex = serde_json::to_value(&profile.codex).unwrap();
        codex.as_object_mut().unwrap().remove("context");
        let found = [
            ("mentions", serde_json::to_value(&profile.mentions)),
            (
                "changeSnippets",
                serde_json::to_value(&profile.change_snippets),
            ),
            ("paths", serde_json::to_value(profile.paths)),
            ("deny", serde_json::to_value(&profile.deny)),
            ("read", serde_json::to_value(&profile.read)),
            ("fileState", serde_json::to_value(profile.file_state)),
            ("memory", serde_json::to_value(profile.memory)),
            ("fileContext", serde_json::to_value(&profile.file_context)),
            ("attachments", serde_json::to_value(&profile.attachments)),
            ("compaction", serde_json::to_value(&profile.compaction)),
            ("codex", Ok(codex)),
            ("codexContext", serde_json::to_value(profile.codex.context)),
        ];
        let found: Vec<(&'static str, Value)> = found
            .into_iter()
            .map(|(name, v)| (name, v.unwrap()))
            .collect();
        let names: Vec<&str> = found.iter().map(|(name, _)| *name).collect();
        assert_eq!(names, SECTIONS);
        found
    }

    /// The JSON pointers at which two values differ.
    fn differences(a: &Value, b: &Value) -> Vec<String> {
        match (a, b) {
            (Value::Object(x), Value::Object(y)) => {
                let mut keys: Vec<&String> = x.keys().chain(y.keys()).collect();
                keys.sort();
                keys.dedup();
                keys.into_iter()
                    .flat_map(|key| {
                        let (left, right) = (x.get(key), y.get(key));
                        match (left, right) {
                            (Some(l), Some(r)) => differences(l, r)
                                .into_iter()
                                .map(|rest| format!("/{key}{rest}"))
                                .collect(),
                            _ => alloc::vec![format!("/{key}")],
                        }
                    })
                    .collect()
            }
            _ if a == b => Vec::new(),
            _ => alloc::vec![String::new()],
        }
    }
}
