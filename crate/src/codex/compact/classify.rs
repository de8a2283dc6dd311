//! Which user messages are the user's (spec codex.md §5.6): Codex also records the harness's
//! own context (AGENTS.md, the environment, skills, shell results…) and installed summaries as
//! `user` messages, and tells them apart by their text.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::codex::items::{Item, Part, Role};
use crate::codex::wording::SUMMARY_PREFIX;

/// The contextual fragments recognised by a start and an end marker (§1.4, §1.5).
const MARKED_FRAGMENTS: &[(&str, &str)] = &[
    // Titled `for <cwd>`, or untitled for a global doc alone (0.171.0).
    ("# AGENTS.md instructions", "</INSTRUCTIONS>"),
    ("<environment_context>", "</environment_context>"),
    ("<skill>", "</skill>"),
    ("<user_shell_command>", "</user_shell_command>"),
    ("<turn_aborted>", "</turn_aborted>"),
    ("<subagent_notification>", "</subagent_notification>"),
    ("<codex_internal_context", "</codex_internal_context>"),
];

/// Whether `text` starts with [`SUMMARY_PREFIX`] followed by `"\n"`: an installed summary
/// (`is_summary_message`, §4.4).
///
/// # Example
/// ```
/// use context_assembly::codex::compact::{is_summary_message, SUMMARY_PREFIX};
/// assert!(is_summary_message(&format!("{SUMMARY_PREFIX}\nDone: X.")));
/// assert!(!is_summary_message(SUMMARY_PREFIX)); // the prefix alone lacks the newline
/// ```
pub fn is_summary_message(text: &str) -> bool {
    text.strip_prefix(SUMMARY_PREFIX)
        .is_some_and(|rest| rest.starts_with('\n'))
}

/// Whether one text part is a contextual fragment rather than something the user typed (§1.4,
/// §1.5): after trimming, it starts and ends with the markers of one fragment, compared
/// ASCII-case-insensitively (AGENTS.md, `<environment_context>`, `<skill>`,
/// `<user_shell_command>`, `<turn_aborted>`, `<subagent_notification>`,
/// `<codex_internal_context …>`), or it is a hook's `<external_{key}>…</external_{key}>`, whose
/// key must match exactly.
///
/// # Example
/// ```
/// use context_assembly::codex::compact::is_contextual_user_text;
/// assert!(is_contextual_user_text("  <ENVIRONMENT_CONTEXT>\n  <cwd>/r</cwd>\n</environment_context>\n"));
/// assert!(is_contextual_user_text("<external_ci>green</external_ci>"));
/// assert!(!is_contextual_user_text("<external_ci>green</external_cd>"));
/// // Quoting a marker is not enough: the text must also end with the closing marker.
/// assert!(!is_contextual_user_text("<environment_context> is what Codex sends, right?"));
/// ```
pub fn is_contextual_user_text(text: &str) -> bool {
    MARKED_FRAGMENTS
        .iter()
        .any(|(start, end)| matches_markers(text, start, end))
        || is_external_context(text)
}

fn matches_markers(text: &str, start: &str, end: &str) -> bool {
    let trimmed = text.trim_start();
    let starts = trimmed
        .get(..start.len())
        .is_some_and(|head| head.eq_ignore_ascii_case(start));
    let trimmed = trimmed.trim_end();
    let ends = trimmed
        .get(trimmed.len().saturating_sub(end.len())..)
        .is_some_and(|tail| tail.eq_ignore_ascii_case(end));
    starts && ends
}

fn is_external_context(text: &str) -> bool {
    let Some(rest) = text.trim().strip_prefix("<external_") else {
        return false;
    };
    rest.split_once('>')
        .is_some_and(|(key, body)| body.ends_with(&format!("</external_{key}>")))
}

/// Whether a user message is contextual: **any** of its text parts is a contextual fragment
/// (§5.6).
pub fn is_contextual_user_message(content: &[Part]) -> bool {
    content.iter().any(|part| match part {
        Part::InputText { text } => is_contextual_user_text(text),
        Part::InputImage { .. } | Part::OutputText { .. } => false,
    })
}

/// The text of a real user message as Codex reads it (`UserMessageItem::message`, §4.3 step 6,
/// X6): its `input_text` parts joined with `""`; images are lost, and so are the `<image …>` /
/// `</image>` labels around an image.
pub fn user_message_text(content: &[Part]) -> String {
    let mut text = String::new();
    for (index, part) in content.iter().enumerate() {
        let Part::InputText { text: part_text } = part else {
            continue;
        };
        let image_after = matches!(content.get(index + 1), Some(Part::InputImage { .. }));
        let image_before = index
            .checked_sub(1)
            .is_some_and(|before| matches!(content.get(before), Some(Part::InputImage { .. })));
        let is_label = (image_after && is_image_open_label(part_text))
            || (image_before && part_text == "</image>");
        if !is_label {
            text.push_str(part_text);
        }
    }
    text
}

fn is_image_open_label(text: &str) -> bool {
    text == "<image>" || (text.starts_with("<image name=") && text.ends_with('>'))
}

/// The text of `item` if it is a user message that is not contextual (a turn item of kind
/// `UserMessage`, §5.6): real user input or an installed summary.
pub fn user_turn_text(item: &Item) -> Option<String> {
    match item {
        Item::Message {
            role: Role::User,
            content,
        } if !is_contextual_user_message(content) => Some(user_message_text(content)),
        _ => None,
    }
}

/// Every real user message of `items`, oldest first (`collect_user_messages`, §4.3 step 6):
/// contextual messages and earlier summaries are left out (X7), and each message is reduced to
/// its text (X6).
///
/// # Example
/// ```
/// use context_assembly::codex::compact::{collect_user_messages, SUMMARY_PREFIX};
/// use context_assembly::codex::items::{Item, Role};
/// let items = [
///     Item::text(Role::User, "# AGENTS.md instructions for /r\n\n<INSTRUCTIONS>\nbe nice\n</INSTRUCTIONS>"),
///     Item::text(Role::User, "fix the bug"),
///     Item::text(Role::User, &format!("{SUMMARY_PREFIX}\nold summary")),
///     Item::text(Role::Assistant, "done"),
/// ];
/// assert_eq!(collect_user_messages(&items), ["fix the bug"]);
/// ```
pub fn collect_user_messages(items: &[Item]) -> Vec<String> {
    items
        .iter()
        .filter_map(user_turn_text)
        .filter(|text| !is_summary_message(text))
        .collect()
}

/// The text of the newest assistant message in `items` that has any (X4): its `output_text`
/// parts joined with `""`; a message whose text is empty or only whitespace is skipped.
/// Citation markup, which the original strips, is not modelled.
pub fn last_assistant_message(items: &[Item]) -> Option<String> {
    items.iter().rev().find_map(|item| match item {
        Item::Message {
            role: Role::Assistant,
            content,
        } => {
            let text: String = content
                .iter()
                .filter_map(|part| match part {
                    Part::OutputText { text } => Some(text.as_str()),
                    Part::InputText { .. } | Part::InputImage { .. } => None,
                })
                .collect();
            (!text.trim().is_empty()).then_some(text)
        }
        _ => None,
    })
}

/// The summary message's text (§4.3 step 5): [`SUMMARY_PREFIX`], `"\n"`, then the last assistant
/// message of the **whole** history — which is not necessarily the compaction's response (X4) —
/// or nothing.
///
/// # Example
/// ```
/// use context_assembly::codex::compact::{summary_text, SUMMARY_PREFIX};
/// use context_assembly::codex::items::{Item, Role};
/// // The compaction answered nothing: an older assistant message becomes the summary.
/// let items = [Item::text(Role::Assistant, "I renamed foo."), Item::text(Role::User, "thanks")];
/// assert_eq!(summary_text(&items), format!("{SUMMARY_PREFIX}\nI renamed foo."));
/// assert_eq!(summary_text(&[]), format!("{SUMMARY_PREFIX}\n"));
/// ```
pub fn summary_text(items: &[Item]) -> String {
    let suffix = last_assistant_message(items).unwrap_or_default();
    format!("{SUMMARY_PREFIX}\n{suffix}")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parts(texts: &[&str]) -> Vec<Part> {
        texts
            .iter()
            .map(|text| match *text {
                "IMG" => Part::InputImage {
                    image_url: String::from("data:image/png;base64,AA"),
                },
                text => Part::InputText {
                    text: String::from(text),
                },
            })
            .collect()
    }

    #[test]
    fn image_labels_and_images_are_dropped_and_parts_joined_without_separator() {
        let content = parts(&[
            "look ",
            "<image name=[Image #1] path=\"/a.png\">",
            "IMG",
            "</image>",
            "here",
        ]);
        assert_eq!(user_message_text(&content), "look here");
        // A label with no image beside it is the user's text.
        assert_eq!(user_message_text(&parts(&["</image>", "x"])), "</image>x");
    }

    #[test]
    fn one_contextual_part_makes_the_message_contextual() {
        let content = parts(&["real question", "<turn_aborted>\nstop\n</turn_aborted>"]);
        assert!(is_contextual_user_message(&content));
        let item = Item::Message {
            role: Role::User,
            content,
        };
        assert_eq!(user_turn_text(&item), None);
    }

    #[test]
    fn every_marked_fragment_is_recognised() {
        for text in [
            "# agents.md INSTRUCTIONS for /x\n\n<INSTRUCTIONS>\na\n</instructions>",
            "<skill>\n<name>s</name>\n</skill>",
            "<user_shell_command>\n<command>\nls\n</command>\n</user_shell_command>",
            "<subagent_notification>\n{}\n</subagent_notification>",
            "<codex_internal_context source=\"goal\">x</codex_internal_context>",
        ] {
            assert!(is_contextual_user_text(text), "{text}");
        }
        assert!(!is_contextual_user_text("<skill>"));
        assert!(!is_contextual_user_text("<External_ci>x</External_ci>"));
    }

    #[test]
    fn whitespace_only_assistant_messages_are_skipped() {
        let items = [
            Item::text(Role::Assistant, "real"),
            Item::text(Role::Assistant, "  \n"),
        ];
        assert_eq!(last_assistant_message(&items).as_deref(), Some("real"));
    }
}
