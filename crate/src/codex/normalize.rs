//! What Codex fixes in a copy of its history before sending it (spec codex.md §5.3,
//! `for_prompt` / `normalize_history`); the stored history is not changed. §5.4's retry after
//! a refused image replaces images inside function outputs, which this library's items do not
//! carry (a `view_image` result is text here), so it has nothing to act on.

use alloc::collections::BTreeSet;
use alloc::string::String;
use alloc::vec::Vec;

use crate::codex::items::{Item, Part};
use crate::codex::wording::IMAGE_LEFT_OUT;

/// The output Codex inserts for a call that has none (`ensure_call_outputs_present`).
pub const ABORTED_OUTPUT: &str = "aborted";

/// The history as a request sends it: every call without an output gets an
/// [`ABORTED_OUTPUT`] right after it; every output without a call is dropped; and when the
/// model takes no images, each image becomes a text part saying it was left out.
///
/// # Example
/// ```
/// use context_assembly::codex::items::{Item, Role};
/// use context_assembly::codex::normalize::for_prompt;
/// let history = vec![
///     Item::text(Role::User, "run it"),
///     Item::FunctionCall { name: "exec_command".into(), arguments: "{}".into(), call_id: "c1".into() },
///     Item::FunctionCallOutput { call_id: "gone".into(), output: "orphan".into() },
/// ];
/// let sent = for_prompt(&history, true);
/// assert_eq!(sent[2], Item::FunctionCallOutput { call_id: "c1".into(), output: "aborted".into() });
/// assert_eq!(sent.len(), 3); // the orphan output is gone
/// ```
pub fn for_prompt(history: &[Item], model_takes_images: bool) -> Vec<Item> {
    let calls: BTreeSet<&str> = (history.iter())
        .filter_map(|item| match item {
            Item::FunctionCall { call_id, .. } => Some(call_id.as_str()),
            _ => None,
        })
        .collect();
    let outputs: BTreeSet<&str> = (history.iter())
        .filter_map(|item| match item {
            Item::FunctionCallOutput { call_id, .. } => Some(call_id.as_str()),
            _ => None,
        })
        .collect();
    let mut sent = Vec::with_capacity(history.len());
    for item in history {
        match item {
            Item::FunctionCallOutput { call_id, .. } if !calls.contains(call_id.as_str()) => {}
            Item::FunctionCall { call_id, .. } if !outputs.contains(call_id.as_str()) => {
                sent.push(item.clone());
                sent.push(Item::FunctionCallOutput {
                    call_id: call_id.clone(),
                    output: String::from(ABORTED_OUTPUT),
                });
            }
            Item::Message { role, content } if !model_takes_images => sent.push(Item::Message {
                role: *role,
                content: content.iter().map(without_image).collect(),
            }),
            _ => sent.push(item.clone()),
        }
    }
    sent
}

fn without_image(part: &Part) -> Part {
    match part {
        Part::InputImage { .. } => Part::InputText {
            text: String::from(IMAGE_LEFT_OUT),
        },
        other => other.clone(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::codex::items::Role;

    #[test]
    fn images_become_a_note_only_for_a_model_without_image_input() {
        let history = [Item::Message {
            role: Role::User,
            content: alloc::vec![
                Part::InputText {
                    text: "look".into()
                },
                Part::InputImage {
                    image_url: "data:image/png;base64,AAAA".into()
                },
            ],
        }];
        assert_eq!(for_prompt(&history, true), history);
        let Item::Message { content, .. } = &for_prompt(&history, false)[0] else {
            panic!("a message stays a message");
        };
        assert_eq!(content[1].text(), Some(IMAGE_LEFT_OUT));
    }

    #[test]
    fn a_call_with_its_output_is_left_alone() {
        let history = [
            Item::FunctionCall {
                name: "exec_command".into(),
                arguments: "{}".into(),
                call_id: "c1".into(),
            },
            Item::FunctionCallOutput {
                call_id: "c1".into(),
                output: "ok".into(),
            },
        ];
        assert_eq!(for_prompt(&history, true), history);
    }
}
