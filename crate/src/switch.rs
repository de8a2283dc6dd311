//! Quirk switches: the boolean fields of a profile section, which a scenario sets by their
//! camelCase names (`"attachments.planCountsNewPrompt": true`).
//!
//! A section writes its fields once, inside `with_switches!`, which also implements
//! [`Switches`] for it: every `bool` field is a switch, named as serde's `camelCase` names the
//! field (`compaction_reminder_needs_1m` → `compactionReminderNeeds1m`), so a new field is a
//! switch without being listed anywhere else.

use alloc::string::String;
use alloc::vec::Vec;
use core::any::Any;

/// A profile section whose boolean fields are switches.
///
/// # Example
/// ```
/// use context_assembly::mention::MentionRules;
/// use context_assembly::switch::Switches;
/// let mut rules = MentionRules::claude_code();
/// let (name, value) = rules.switches_mut().into_iter().next().unwrap();
/// assert_eq!(name, "escapedSpaces");
/// *value = true;
/// assert!(rules.escaped_spaces);
/// ```
pub trait Switches {
    /// Every switch: its camelCase name and its value, in the order the fields are declared.
    fn switches_mut(&mut self) -> Vec<(String, &mut bool)>;
}

/// `snake_case` as serde's `rename_all = "camelCase"` writes it: each `_` dropped and the
/// character after it upper-cased.
pub(crate) fn camel_case(snake: &str) -> String {
    let mut out = String::with_capacity(snake.len());
    let mut upper_next = false;
    for c in snake.chars() {
        if c == '_' {
            upper_next = true;
        } else if upper_next {
            out.extend(c.to_uppercase());
            upper_next = false;
        } else {
            out.push(c);
        }
    }
    out
}

/// The field as a switch, when it is a `bool`.
pub(crate) fn as_switch(field: &mut dyn Any) -> Option<&mut bool> {
    field.downcast_mut()
}

/// Declares a profile section's struct, unchanged, and implements [`Switches`] for it.
macro_rules! with_switches {
    (
        $(#[$meta:meta])*
        $vis:vis struct $name:ident {
            $( $(#[$field_meta:meta])* $field_vis:vis $field:ident : $ty:ty ),* $(,)?
        }
    ) => {
        $(#[$meta])*
        $vis struct $name {
            $( $(#[$field_meta])* $field_vis $field : $ty ),*
        }

        impl $crate::switch::Switches for $name {
            fn switches_mut(
                &mut self,
            ) -> ::alloc::vec::Vec<(::alloc::string::String, &mut bool)> {
                let mut switches = ::alloc::vec::Vec::new();
                $(
                    if let Some(value) = $crate::switch::as_switch(&mut self.$field) {
                        switches.push(($crate::switch::camel_case(stringify!($field)), value));
                    }
                )*
                switches
            }
        }
    };
}
pub(crate) use with_switches;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_camel_case_as_serde_writes_them() {
        assert_eq!(camel_case("headless"), "headless");
        assert_eq!(camel_case("plan_counts_new_prompt"), "planCountsNewPrompt");
        assert_eq!(
            camel_case("compaction_reminder_needs_1m"),
            "compactionReminderNeeds1m"
        );
        assert_eq!(camel_case("remote_compaction_v2"), "remoteCompactionV2");
    }
}
