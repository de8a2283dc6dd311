//! The transcript: the records a session stores, in order (spec claude-code.md §7.4, §7.11).
//!
//! Claude Code stores one record per streamed assistant content block, tool results as user
//! records, and each attachment as its own meta record; the request is assembled from these
//! anew every round. The three definitions of a "human turn" the original uses are kept
//! apart here (Q47).
//!
//! ```
//! use context_assembly::transcript::{AssistantBlock, Record, Transcript};
//! let mut transcript = Transcript::default();
//! transcript.push(Record::Prompt { text: "hi".into() });
//! let response = transcript.next_response();
//! transcript.push(Record::Assistant { response, block: AssistantBlock::text("hello") });
//! assert_eq!(transcript.len(), 2);
//! assert!(transcript.messages()[0].is_human_turn_for_plan_mode());
//! ```

use alloc::string::String;
use alloc::vec::Vec;

use crate::attachment::Attachment;
use crate::codex::compact::{is_contextual_user_message, is_summary_message};
use crate::codex::items::{Item, Role};
use crate::codex::session_state::ContextSource;
use crate::vocabulary::Trigger;

/// One content block of an assistant response.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(tag = "type", rename_all = "snake_case"))]
pub enum AssistantBlock {
    /// Text the model wrote.
    Text {
        /// The text.
        text: String,
    },
    /// Extended thinking (records holding only this are not counted by the todo cadence).
    Thinking {
        /// The thinking text.
        thinking: String,
    },
    /// A tool call.
    ToolUse(ToolUse),
}

impl AssistantBlock {
    /// A text block.
    pub fn text(text: &str) -> AssistantBlock {
        AssistantBlock::Text { text: text.into() }
    }
}

/// A tool call the model made.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ToolUse {
    /// The call's id, which its result cites.
    pub id: String,
    /// The tool's name: `Read`, `Edit`, `TodoWrite`…
    pub name: String,
    /// The input as compact JSON.
    pub input: String,
}

/// The result of one tool call.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ToolResultBlock {
    /// The id of the call it answers.
    pub tool_use_id: String,
    /// The tool's output as the model sees it.
    pub content: String,
    /// The call failed.
    pub is_error: bool,
}

/// A stored record.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Record {
    /// What the human typed (a non-meta user record without tool results).
    Prompt {
        /// The prompt.
        text: String,
    },
    /// One content block of an assistant response; records of one response share `response`.
    Assistant {
        /// Which response the block belongs to.
        response: u64,
        /// The block.
        block: AssistantBlock,
    },
    /// A user record carrying tool results.
    ToolResults {
        /// The results, in the order of the calls.
        results: Vec<ToolResultBlock>,
    },
    /// A meta record holding one attachment.
    Attachment(Attachment),
    /// The system record that marks a compaction (`compact_boundary`). It never reaches
    /// the model; later requests use only what follows it.
    CompactBoundary {
        /// `auto` or `manual`.
        trigger: Trigger,
        /// Tokens of the context when the compaction began.
        tokens_before: u64,
    },
    /// A context item Codex records itself: its initial context (a developer bundle, the
    /// contextual user message) or a settings update (codex.md §1, §2). It stays where it
    /// was recorded and is sent as its own message.
    Context {
        /// The whole initial context or a settings update.
        source: ContextSource,
        /// The item, with one part per section.
        item: crate::codex::items::Item,
    },
    /// The user stopped the turn at a tool call (a plan rejected without feedback): the
    /// original then stores a user message holding only [`INTERRUPTED_FOR_TOOL_USE`]. It is
    /// neither meta nor a tool result, so plan and auto mode's human-turn definition counts
    /// it, as the original's does (§7.4).
    Interruption,
    /// The user message carrying a compaction's summary (`isCompactSummary`): not meta, so
    /// the human-turn definitions of plan and auto mode count it, as the original's do.
    Summary {
        /// The whole message: preamble, summary, and the closing sentences.
        text: String,
    },
    /// A message a slash command leaves in the conversation, as plain user text: a
    /// `/compact`'s caveat, its own input and its output (§9.3 item 7). It stays where it
    /// was recorded (it is no attachment, so nothing floats past it).
    LocalCommand {
        /// The message, tags and all (`<command-name>…`, `<local-command-stdout>…`).
        text: String,
        /// A meta message (the caveat): the human-turn definitions do not count it; the
        /// command's input and output are not meta, and they count.
        meta: bool,
    },
}

/// The text of an [`Record::Interruption`]: a marker the model is trained on, so it is the
/// original's exactly.
pub const INTERRUPTED_FOR_TOOL_USE: &str = "[Request interrupted by user for tool use]";

/// A record with its id.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Message {
    /// A counter, unique within the transcript.
    pub id: u64,
    /// What it holds.
    pub record: Record,
}

impl Message {
    /// Plan and auto mode's human turn: a user record, not meta, without tool results
    /// (§7.4). Attachments are meta records and never count.
    pub fn is_human_turn_for_plan_mode(&self) -> bool {
        matches!(
            self.record,
            Record::Prompt { .. }
                | Record::Summary { .. }
                | Record::LocalCommand { meta: false, .. }
                | Record::Interruption
        )
    }

    /// Verify-plan's human turn (`isHumanTurn`): not meta and without a tool-use result
    /// (§7.4). Over the records this library stores it agrees with plan mode's; it is kept
    /// apart so that a record kind added later is classified deliberately.
    pub fn is_human_turn_for_verify_plan(&self) -> bool {
        matches!(
            self.record,
            Record::Prompt { .. }
                | Record::Summary { .. }
                | Record::LocalCommand { meta: false, .. }
                | Record::Interruption
        )
    }

    /// The todo cadence's unit: an assistant record that is not thinking-only (§7.4).
    pub fn is_counted_assistant_record(&self) -> bool {
        matches!(
            self.record,
            Record::Assistant { ref block, .. } if !matches!(block, AssistantBlock::Thinking { .. })
        )
    }

    /// The tool call this record holds, if it holds one.
    pub fn tool_use(&self) -> Option<&ToolUse> {
        match &self.record {
            Record::Assistant {
                block: AssistantBlock::ToolUse(call),
                ..
            } => Some(call),
            _ => None,
        }
    }

    /// The attachment this record holds, if it holds one.
    pub fn attachment(&self) -> Option<&Attachment> {
        match &self.record {
            Record::Attachment(attachment) => Some(attachment),
            _ => None,
        }
    }
}

/// The records of a session, oldest first.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Transcript {
    messages: Vec<Message>,
    next_id: u64,
    next_response: u64,
}

impl Transcript {
    /// Appends a record and returns its id.
    pub fn push(&mut self, record: Record) -> u64 {
        let id = self.next_id;
        self.next_id += 1;
        self.messages.push(Message { id, record });
        id
    }

    /// A fresh response number for the records of one assistant response.
    pub fn next_response(&mut self) -> u64 {
        let response = self.next_response;
        self.next_response += 1;
        response
    }

    /// The records, oldest first.
    pub fn messages(&self) -> &[Message] {
        &self.messages
    }

    /// How many records there are.
    pub fn len(&self) -> usize {
        self.messages.len()
    }

    /// No records yet.
    pub fn is_empty(&self) -> bool {
        self.messages.is_empty()
    }

    /// Replaces every record (compaction rewrites the transcript).
    pub fn replace(&mut self, messages: Vec<Message>) {
        self.messages = messages;
    }

    /// Appends each attachment as a record of its own, in order.
    pub fn push_attachments(&mut self, attachments: &[Attachment]) {
        for attachment in attachments {
            self.push(Record::Attachment(attachment.clone()));
        }
    }

    /// Identifies the records' state: a compaction plan is valid only for the state it was
    /// made on.
    pub fn stamp(&self) -> (usize, u64) {
        let last = self.messages.last().map_or(u64::MAX, |m| m.id);
        (self.messages.len(), last)
    }

    /// Whether any record would reach the model as a message (attachments and boundaries
    /// alone are nothing to compact).
    pub fn has_conversation(&self) -> bool {
        (self.messages.iter()).any(|m| {
            !matches!(
                m.record,
                Record::Attachment(_) | Record::CompactBoundary { .. }
            )
        })
    }

    /// Attachments still in the transcript, oldest first.
    pub fn attachments(&self) -> impl DoubleEndedIterator<Item = &Attachment> {
        self.messages.iter().filter_map(Message::attachment)
    }

    /// The records as Codex's history items (codex.md §1.3); reasoning is not modelled,
    /// attachments and boundaries are not Codex's.
    pub fn codex_items(&self) -> Vec<Item> {
        let mut items = Vec::new();
        for message in &self.messages {
            match &message.record {
                Record::Prompt { text }
                | Record::Summary { text }
                | Record::LocalCommand { text, .. } => items.push(Item::text(Role::User, text)),
                Record::Interruption => {
                    items.push(Item::text(Role::User, INTERRUPTED_FOR_TOOL_USE));
                }
                Record::Context { item, .. } => items.push(item.clone()),
                Record::Assistant { block, .. } => match block {
                    AssistantBlock::Text { text } => items.push(Item::text(Role::Assistant, text)),
                    AssistantBlock::ToolUse(call) => items.push(Item::FunctionCall {
                        name: call.name.clone(),
                        arguments: call.input.clone(),
                        call_id: call.id.clone(),
                    }),
                    AssistantBlock::Thinking { .. } => {}
                },
                Record::ToolResults { results } => {
                    items.extend(results.iter().map(|r| Item::FunctionCallOutput {
                        call_id: r.tool_use_id.clone(),
                        output: r.content.clone(),
                    }));
                }
                Record::Attachment(_) | Record::CompactBoundary { .. } => {}
            }
        }
        items
    }

    /// After a Codex compaction the records are the boundary and the replacement history:
    /// the real user messages as prompts, the summary as a summary, every other item as
    /// context.
    pub fn replace_with_codex_history(
        &mut self,
        trigger: Trigger,
        tokens_before: u64,
        history: Vec<Item>,
    ) {
        self.messages.clear();
        self.push(Record::CompactBoundary {
            trigger,
            tokens_before,
        });
        for item in history {
            let record = match (&item, item.message_text()) {
                (
                    Item::Message {
                        role: Role::User,
                        content,
                    },
                    Some(text),
                ) if !is_contextual_user_message(content) => match is_summary_message(&text) {
                    true => Record::Summary { text },
                    false => Record::Prompt { text },
                },
                _ => Record::Context {
                    source: ContextSource::InitialContext,
                    item,
                },
            };
            self.push(record);
        }
    }
}
