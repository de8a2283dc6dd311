//! Attachments and decisions: what a pass of the pipeline adds to the model's request, and
//! why everything else was left out (spec claude-code.md §7).
//!
//! * [`kind`]: the catalogue of kinds ([`AttachmentKind`]), each with its [`Frequency`]
//!   class and its request category.
//! * [`rules`]: the constants of the attachments and the switches of their quirks.
//!
//! The collectors themselves live in `crate::collectors` (one layer up); each writes into a
//! [`Collected`]: attachments in emission order, and a [`Decision`] for everything it
//! considered.

pub mod kind;
pub mod rules;

use alloc::string::String;
use alloc::vec::Vec;

use crate::tokens::{estimate_tokens, TokenMethod};

pub use crate::vocabulary::{Decision, Verdict};
pub use kind::{AttachmentKind, Frequency};
pub use rules::AttachmentRules;

/// One piece of context a pass adds, rendered as the model sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Attachment {
    /// The original's kind: `file`, `directory`, `edited_text_file`, `plan_mode`…
    pub kind: AttachmentKind,
    /// How often the kind is produced: the kind's [`Frequency`], serialised beside it.
    pub frequency: Frequency,
    /// The file or directory it is about, when it is about one.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub path: Option<String>,
    /// Tokens of `text` under the profile's counter.
    pub tokens: u64,
    /// The rendered text; empty for kinds that render to nothing (§7.12).
    pub text: String,
    /// The payload size the original measures for its budgets, in UTF-16 units
    /// (`relevant_memories`: the memory's content, §7.9); absent for other kinds.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub payload_units: Option<u64>,
    /// Byte offsets in `text` where the original starts another user message: a file's call
    /// note, its result and a truncation note are messages of their own (§3.11; the lab saw
    /// the call note arrive apart). Each offset follows the `\n` that joins two parts, and
    /// `tokens` counts the parts apart. Empty when the text is sent as one block. Byte
    /// offsets are Rust's alone: they are not serialised (JavaScript indexes by UTF-16), and
    /// the request already shows the parts as blocks.
    #[cfg_attr(feature = "serde", serde(skip))]
    pub message_breaks: Vec<usize>,
}

impl Attachment {
    /// An attachment of `kind` with `text`, counted with `method`.
    pub fn new(
        kind: AttachmentKind,
        path: Option<&str>,
        text: String,
        method: TokenMethod,
    ) -> Self {
        Attachment {
            kind,
            frequency: kind.frequency(),
            path: path.map(String::from),
            tokens: estimate_tokens(&text, method, None),
            text,
            payload_units: None,
            message_breaks: Vec::new(),
        }
    }

    /// An attachment the original sends as one user message per part (§3.11): `text` joins
    /// the parts with `\n`, and `tokens` counts each part as the request counts its block.
    ///
    /// # Example
    /// ```
    /// use context_assembly::attachment::{Attachment, AttachmentKind};
    /// use context_assembly::tokens::TokenMethod;
    /// let parts = ["call".to_string(), "result".to_string()];
    /// let file = Attachment::in_messages(AttachmentKind::File, None, &parts, TokenMethod::ClaudeCode);
    /// assert_eq!(file.text, "call\nresult");
    /// assert_eq!(file.messages(), ["call", "result"]);
    /// // round(4 / 4) + round(6 / 4): each part is rounded on its own.
    /// assert_eq!(file.tokens, 1 + 2);
    /// ```
    pub fn in_messages(
        kind: AttachmentKind,
        path: Option<&str>,
        parts: &[String],
        method: TokenMethod,
    ) -> Self {
        let mut attachment = Attachment::new(kind, path, parts.join("\n"), method);
        let mut at = 0;
        for part in parts.iter().take(parts.len().saturating_sub(1)) {
            at += part.len() + 1;
            attachment.message_breaks.push(at);
        }
        attachment.tokens = parts
            .iter()
            .map(|part| estimate_tokens(part, method, None))
            .sum();
        attachment
    }

    /// The text of each user message the attachment is sent as: one, unless it was made
    /// [`in_messages`](Attachment::in_messages) and its breaks still fit its text.
    pub fn messages(&self) -> Vec<&str> {
        let mut parts = Vec::new();
        let mut start = 0;
        for &end in &self.message_breaks {
            // A break must follow the `\n` that joined two parts; a text rewritten since
            // (a policy's notice) is sent whole.
            let part = end
                .checked_sub(1)
                .filter(|&newline| {
                    newline >= start && self.text.as_bytes().get(newline) == Some(&b'\n')
                })
                .and_then(|newline| self.text.get(start..newline));
            match part {
                Some(part) => parts.push(part),
                None => return Vec::from([self.text.as_str()]),
            }
            start = end;
        }
        match self.text.get(start..) {
            Some(last) => parts.push(last),
            None => return Vec::from([self.text.as_str()]),
        }
        parts
    }

    /// Renders to nothing: the model never sees it (§7.12).
    pub fn is_silent(&self) -> bool {
        self.text.is_empty()
    }
}

/// What collectors produce in one pass: attachments in emission order, and a decision for
/// everything considered.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Collected {
    /// In the order the original emits them (§7.2).
    pub attachments: Vec<Attachment>,
    /// Everything considered, included or not.
    pub decisions: Vec<Decision>,
}

impl Collected {
    /// Adds an attachment and counts its tokens with `method`.
    pub fn attach(
        &mut self,
        kind: AttachmentKind,
        path: Option<&str>,
        text: String,
        method: TokenMethod,
    ) {
        self.attachments
            .push(Attachment::new(kind, path, text, method));
    }

    /// Adds an attachment made of `parts` (a call note, a result, a note): one user message
    /// per part when `apart` (§3.11), else one text joining them with `\n`.
    pub fn attach_parts(
        &mut self,
        kind: AttachmentKind,
        path: Option<&str>,
        parts: &[String],
        apart: bool,
        method: TokenMethod,
    ) {
        let attachment = match apart {
            true => Attachment::in_messages(kind, path, parts, method),
            false => Attachment::new(kind, path, parts.join("\n"), method),
        };
        self.attachments.push(attachment);
    }

    /// Records a decision.
    pub fn decide(
        &mut self,
        subject: &str,
        verdict: Verdict,
        reason: String,
        detail: Option<String>,
    ) {
        self.decisions
            .push(Decision::new(subject, verdict, reason).with_detail(detail));
    }
}
