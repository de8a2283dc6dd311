//! Codex's history items: what it sends to the OpenAI Responses API in `input`, one item per
//! message, tool call or output (spec codex.md §0.6, §5.1).
//!
//! Items are written to JSON as the Responses API receives them, because Codex estimates an
//! item's tokens from that JSON (§3.5, X16).
//!
//! ```
//! use context_assembly::codex::items::{Item, Part, Role};
//! let item = Item::text(Role::User, "hi");
//! assert_eq!(item.to_json(), r#"{"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}"#);
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use crate::js::write_json_string;

/// How the AGENTS.md fragment starts (its start marker, codex.md §1.4): `for <cwd>` follows,
/// except in 0.171.0's fragment of a global doc alone.
pub const AGENTS_MD_HEADER: &str = "# AGENTS.md instructions";

crate::vocabulary::named_enum! {
    /// Who a message is from, named as the API names it.
    pub enum Role {
    /// Instructions from the harness (permissions, skills, settings changes).
    Developer => "developer",
    /// The user, and the harness's contextual user messages (AGENTS.md, environment).
    User => "user",
    /// The model.
    Assistant => "assistant",
    /// The harness in the middle of the conversation: Claude Code 2.1.332 sends its own notes
    /// (the environment, listings, modes, changes) in a `system`-role message after the
    /// turn's user message.
    System => "system",
    }
}

/// One content part of a message.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "snake_case"))]
pub enum Part {
    /// Text the user or the harness sent.
    InputText {
        /// The text.
        text: String,
    },
    /// An image, as a URL or a `data:` URL.
    InputImage {
        /// The URL.
        image_url: String,
    },
    /// Text the model wrote.
    OutputText {
        /// The text.
        text: String,
    },
}

impl Part {
    /// The text of a text part.
    pub fn text(&self) -> Option<&str> {
        match self {
            Part::InputText { text } | Part::OutputText { text } => Some(text),
            Part::InputImage { .. } => None,
        }
    }
}

/// One item of the history.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "snake_case"))]
pub enum Item {
    /// A message with its parts (a developer bundle keeps one part per section, X23).
    Message {
        /// Who it is from.
        role: Role,
        /// Its parts, in order.
        content: Vec<Part>,
    },
    /// A tool call the model made.
    FunctionCall {
        /// The tool.
        name: String,
        /// Its arguments as JSON text.
        arguments: String,
        /// The id its output cites.
        call_id: String,
    },
    /// A tool's output.
    FunctionCallOutput {
        /// The call it answers.
        call_id: String,
        /// What the tool printed, as recorded (truncated at record time, §3.3).
        output: String,
    },
    /// An opaque compaction item from remote compaction (§4.6): only its size is known.
    Compaction {
        /// The encrypted content.
        encrypted_content: String,
    },
}

impl Item {
    /// A message with one text part (`output_text` for the assistant, `input_text` otherwise).
    pub fn text(role: Role, text: &str) -> Item {
        let text = String::from(text);
        let part = match role {
            Role::Assistant => Part::OutputText { text },
            Role::Developer | Role::User | Role::System => Part::InputText { text },
        };
        Item::Message {
            role,
            content: Vec::from([part]),
        }
    }

    /// A message with one text part per section.
    pub fn sections(role: Role, sections: &[String]) -> Item {
        let content = sections
            .iter()
            .map(|text| Part::InputText { text: text.clone() })
            .collect();
        Item::Message { role, content }
    }

    /// The item as the Responses API receives it: compact JSON, keys in the API's order.
    pub fn to_json(&self) -> String {
        let mut out = String::new();
        match self {
            Item::Message { role, content } => {
                out.push_str(r#"{"type":"message","role":""#);
                out.push_str(role.as_str());
                out.push_str(r#"","content":["#);
                for (index, part) in content.iter().enumerate() {
                    if index > 0 {
                        out.push(',');
                    }
                    write_part(&mut out, part);
                }
                out.push_str("]}");
            }
            Item::FunctionCall {
                name,
                arguments,
                call_id,
            } => {
                out.push_str(r#"{"type":"function_call","name":"#);
                write_json_string(name, &mut out);
                out.push_str(r#","arguments":"#);
                write_json_string(arguments, &mut out);
                out.push_str(r#","call_id":"#);
                write_json_string(call_id, &mut out);
                out.push('}');
            }
            Item::FunctionCallOutput { call_id, output } => {
                out.push_str(r#"{"type":"function_call_output","call_id":"#);
                write_json_string(call_id, &mut out);
                out.push_str(r#","output":"#);
                write_json_string(output, &mut out);
                out.push('}');
            }
            Item::Compaction { encrypted_content } => {
                out.push_str(r#"{"type":"compaction","encrypted_content":"#);
                write_json_string(encrypted_content, &mut out);
                out.push('}');
            }
        }
        out
    }

    /// The concatenated text parts of a message (`""` between them, as Codex joins them);
    /// `None` for other items.
    pub fn message_text(&self) -> Option<String> {
        match self {
            Item::Message { content, .. } => Some(content.iter().filter_map(Part::text).collect()),
            _ => None,
        }
    }

    /// The message's role, if it is a message.
    pub fn role(&self) -> Option<Role> {
        match self {
            Item::Message { role, .. } => Some(*role),
            _ => None,
        }
    }
}

fn write_part(out: &mut String, part: &Part) {
    let (kind, key, value) = match part {
        Part::InputText { text } => ("input_text", "text", text),
        Part::OutputText { text } => ("output_text", "text", text),
        Part::InputImage { image_url } => ("input_image", "image_url", image_url),
    };
    out.push_str(r#"{"type":""#);
    out.push_str(kind);
    out.push_str(r#"",""#);
    out.push_str(key);
    out.push_str(r#"":"#);
    write_json_string(value, out);
    out.push('}');
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_escapes_and_orders_keys_as_the_api() {
        let call = Item::FunctionCall {
            name: "shell".into(),
            arguments: r#"{"cmd":"ls"}"#.into(),
            call_id: "c1".into(),
        };
        assert_eq!(
            call.to_json(),
            r#"{"type":"function_call","name":"shell","arguments":"{\"cmd\":\"ls\"}","call_id":"c1"}"#
        );
        let bundle = Item::sections(Role::Developer, &["a".into(), "b\n".into()]);
        assert_eq!(bundle.message_text().as_deref(), Some("ab\n"));
        assert!(bundle
            .to_json()
            .ends_with(r#"{"type":"input_text","text":"b\n"}]}"#));
    }
}
