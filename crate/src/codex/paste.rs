//! Large pastes in Codex's composer (spec codex.md §3.4): a paste over
//! [`LARGE_PASTE_CHAR_THRESHOLD`] characters shows as a `[Pasted Content {n} chars]` element and
//! is expanded to the full text on submit, so the model always reads the whole paste.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::vocabulary::{Decision, Verdict};
use crate::Error;

/// A paste longer than this many characters becomes a placeholder; a shorter one is inserted
/// as typed text (`LARGE_PASTE_CHAR_THRESHOLD`).
pub const LARGE_PASTE_CHAR_THRESHOLD: usize = 1000;

/// The placeholder of a paste of `char_count` characters, given the placeholders still
/// pending: `[Pasted Content {n} chars]`, then ` #2`, ` #3`… (the highest suffix in use + 1)
/// for another paste of the same length.
///
/// # Example
/// ```
/// use context_assembly::codex::paste::paste_placeholder;
/// assert_eq!(paste_placeholder(1500, &[]), "[Pasted Content 1500 chars]");
/// let pending = ["[Pasted Content 1500 chars]".to_string()];
/// assert_eq!(paste_placeholder(1500, &pending), "[Pasted Content 1500 chars] #2");
/// assert_eq!(paste_placeholder(1200, &pending), "[Pasted Content 1200 chars]");
/// ```
pub fn paste_placeholder(char_count: usize, pending: &[String]) -> String {
    let base = format!("[Pasted Content {char_count} chars]");
    let prefix = format!("{base} #");
    let highest = (pending.iter())
        .filter_map(|placeholder| match placeholder == &base {
            true => Some(1),
            false => (placeholder.strip_prefix(&prefix)).and_then(|n| n.parse::<usize>().ok()),
        })
        .max();
    match highest {
        None => base,
        Some(n) => format!("{base} #{}", n.saturating_add(1)),
    }
}

/// A prompt with its large pastes expanded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ExpandedPrompt {
    /// What the model receives.
    pub text: String,
    /// One per paste: expanded, or dropped because its placeholder is no longer in the prompt.
    pub decisions: Vec<Decision>,
}

/// The prompt as submitted: `shown` is the composer's text with the placeholders of
/// `pastes` (in paste order, each over the threshold); each placeholder still in it is
/// replaced by its paste, at its first occurrence; a paste whose placeholder the user deleted
/// is dropped.
///
/// # Errors
/// A paste of at most [`LARGE_PASTE_CHAR_THRESHOLD`] characters: the composer inserts it as
/// text, so it belongs in the prompt itself.
///
/// # Example
/// ```
/// use context_assembly::codex::paste::expand_pastes;
/// let log = "x".repeat(1200);
/// let expanded = expand_pastes("Why does this fail? [Pasted Content 1200 chars]", &[log.clone()]).unwrap();
/// assert_eq!(expanded.text, format!("Why does this fail? {log}"));
/// ```
pub fn expand_pastes(shown: &str, pastes: &[String]) -> Result<ExpandedPrompt, Error> {
    let mut placeholders: Vec<String> = Vec::with_capacity(pastes.len());
    for (index, paste) in pastes.iter().enumerate() {
        let chars = paste.chars().count();
        if chars <= LARGE_PASTE_CHAR_THRESHOLD {
            return Err(Error::InvalidConfig {
                field: format!("pastes[{index}]"),
                reason: format!(
                    "is {chars} characters long; a paste of at most \
                     {LARGE_PASTE_CHAR_THRESHOLD} is inserted as typed text, so write it into \
                     the prompt"
                ),
            });
        }
        let placeholder = paste_placeholder(chars, &placeholders);
        placeholders.push(placeholder);
    }
    let mut text = String::from(shown);
    let mut decisions = Vec::with_capacity(pastes.len());
    for (placeholder, paste) in placeholders.iter().zip(pastes) {
        let subject = format!("paste {placeholder}");
        let decision = match text.find(placeholder.as_str()) {
            Some(at) => {
                text.replace_range(at..at + placeholder.len(), paste);
                Decision::new(
                    subject,
                    Verdict::Included,
                    "expanded to the pasted text on submit: the model reads all of it (§3.4)",
                )
            }
            None => Decision::new(
                subject,
                Verdict::Excluded,
                "its placeholder is no longer in the prompt: the user deleted the paste (§3.4)",
            ),
        };
        decisions.push(decision);
    }
    Ok(ExpandedPrompt { text, decisions })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn two_pastes_of_one_length_get_numbered_placeholders() {
        let first = "a".repeat(1001);
        let second = "b".repeat(1001);
        let shown = "[Pasted Content 1001 chars] [Pasted Content 1001 chars] #2";
        let expanded = expand_pastes(shown, &[first.clone(), second.clone()]).unwrap();
        assert_eq!(expanded.text, format!("{first} {second}"));
    }

    #[test]
    fn a_deleted_placeholder_drops_its_paste() {
        let expanded = expand_pastes("nothing pasted here", &["c".repeat(2000)]).unwrap();
        assert_eq!(expanded.text, "nothing pasted here");
        assert_eq!(expanded.decisions[0].verdict, Verdict::Excluded);
    }

    #[test]
    fn the_threshold_counts_characters_not_bytes() {
        // 1 000 characters of two bytes each: at the threshold, so inserted as text
        let error = expand_pastes("x", &["é".repeat(1000)]).unwrap_err();
        assert!(format!("{error}").starts_with("pastes[0]: is 1000 characters long"));
        let placeholder = paste_placeholder("é".repeat(1001).chars().count(), &[]);
        assert_eq!(placeholder, "[Pasted Content 1001 chars]");
    }
}
