//! Placement: the transcript's records become the request's messages (spec §7.11).
//!
//! 1. Attachments float up (`reorderAttachmentsForAPI`) until they meet an assistant record
//!    or a tool-result record, and land right after it, in their relative order; those
//!    that meet neither go to the very top, ahead of the user context.
//! 2. Records become messages; a user message that follows a user message is merged into
//!    it, and when both sides of the seam are text the earlier text gets a `\n`
//!    (`joinTextAtSeam`). Assistant records of one response form one message.
//! 3. In a user message holding tool results, the `<system-reminder>` texts that follow are
//!    folded into the last tool result: each text trimmed, empties dropped, joined with a
//!    blank line (Q50; switched off, they stay separate blocks).
//!
//! With `notes_as_system_messages` (2.1.332) the harness's notes do not float: the notes
//! since the last assistant response wait until the next one (or the end) and go there as
//! one `system`-role message, after the user message they came with, each note unwrapped
//! from its `<system-reminder>` (one block per note; the client joins them into one text
//! with blank lines, which changes no item of the request).

use alloc::collections::BTreeMap;
use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use super::{Block, BlockType, Category, Message, Splice};
use crate::attachment::{Attachment, AttachmentRules};
use crate::codex::history_tokens::{estimate_item_tokens, estimate_reasoning_tokens};
use crate::codex::items::{Item, Part, Role, AGENTS_MD_HEADER};
use crate::codex::session_state::ContextSource;
use crate::tokens::{estimate_tokens, TokenMethod};
use crate::transcript::{self, AssistantBlock, Record};

/// The messages of a request, and where the user context goes among them.
///
/// # Example
/// ```
/// use context_assembly::attachment::{Attachment, AttachmentKind, AttachmentRules};
/// use context_assembly::request::assemble_messages;
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{Record, Transcript};
/// let mut transcript = Transcript::default();
/// transcript.push(Record::Prompt { text: "go".into() });
/// let note = Attachment::new(AttachmentKind::DateChange, None, "<system-reminder>\nx\n</system-reminder>".into(), TokenMethod::Codex);
/// transcript.push(Record::Attachment(note));
/// let (messages, splice) = assemble_messages(transcript.messages(), &AttachmentRules::claude_code(), TokenMethod::Codex);
/// // The attachment floated above the prompt, and above the user context.
/// assert_eq!(messages[0].content[0].source, "date_change");
/// assert_eq!(messages[0].content[1].source, "prompt");
/// assert_eq!((splice.message, splice.block), (0, 1));
/// ```
pub fn assemble_messages(
    records: &[transcript::Message],
    rules: &AttachmentRules,
    method: TokenMethod,
) -> (Vec<Message>, Splice) {
    let mut counter = Counter {
        method,
        as_items: false,
        counts: None,
    };
    assemble_counted(records, rules, &mut counter)
}

/// [`assemble_messages`], each block counted once its text is final, by `counter`.
fn assemble_counted(
    records: &[transcript::Message],
    rules: &AttachmentRules,
    counter: &mut Counter<'_>,
) -> (Vec<Message>, Splice) {
    let (ordered, floated_to_top) = reorder(records, rules);
    let mut messages: Vec<Draft> = Vec::new();
    let mut last_response = None;
    let mut splice = Splice::default();
    for (index, message) in ordered.iter().enumerate() {
        if index == floated_to_top {
            splice = Splice {
                message: if messages.is_empty() {
                    0
                } else {
                    messages.len() - 1
                },
                block: messages.last().map_or(0, |m| m.content.len()),
            };
            // The user context is a user message of its own: what follows merges after it.
        }
        let origin = |part| Origin {
            record: message.id,
            part,
            form: TextForm::Recorded,
        };
        match &message.record {
            Record::Assistant { response, block } => {
                let block = (assistant_block(block), origin(0));
                match messages.last_mut() {
                    Some(last)
                        if last.role == Role::Assistant && last_response == Some(*response) =>
                    {
                        last.content.push(block);
                    }
                    _ => messages.push(Draft {
                        role: Role::Assistant,
                        content: Vec::from([block]),
                    }),
                }
                last_response = Some(*response);
            }
            Record::Context { source, item } => {
                messages.push(context_message(*source, item, origin));
                last_response = None;
            }
            Record::Attachment(attachment) if is_system_note(attachment, rules) => {
                push_system_note(&mut messages, attachment, origin(0));
                last_response = None;
            }
            other => {
                let content: Vec<(Block, Origin)> = user_blocks(other, message.id, counter)
                    .into_iter()
                    .enumerate()
                    .map(|(part, block)| (block, origin(part)))
                    .collect();
                if content.is_empty() {
                    continue;
                }
                match rules.merge_user_messages {
                    true if content.len() > 1 && matches!(other, Record::Attachment(_)) => {
                        push_parts(&mut messages, content)
                    }
                    true => push_user(&mut messages, content),
                    false => messages.push(Draft {
                        role: Role::User,
                        content,
                    }),
                }
            }
        }
    }
    if floated_to_top == ordered.len() {
        splice = Splice {
            message: 0,
            block: messages.first().map_or(0, |m| m.content.len()),
        };
    }
    let messages = messages
        .into_iter()
        .map(|message| fold_reminders(message, rules, counter))
        .collect();
    (messages, splice)
}

/// The assembled messages of the transcript's settled part, kept between rounds.
///
/// Records before the latest assistant response can no longer change place: an attachment
/// floats up at most to the nearest assistant or tool-result record, and nothing merges
/// across an assistant message. So each round assembles only the records from the latest
/// response on, and a request costs what is new, not the whole transcript.
///
/// Those records (the tail) are assembled again each round, and while the model does not
/// answer they keep coming: prompts merge into one message that grows every round. Their
/// texts do not change (a block's text is its record's, with at most a seam's `\n`, or
/// trimmed where Q50 folds it), so each one's count is kept by where it comes from, and a
/// round counts only the texts that are new or took a new form.
#[derive(Debug, Clone, Default)]
pub struct MessageCache {
    settled_records: usize,
    settled: Vec<Rc<Message>>,
    splice: Option<Splice>,
    counts: BTreeMap<CountKey, u64>,
    /// How many texts the cache has counted (not found among its counts).
    #[cfg(test)]
    counted: usize,
}

impl MessageCache {
    /// The messages of `records` and where the user context goes, reusing what is settled.
    /// `records` must extend the records of the previous call; call [`MessageCache::clear`]
    /// after rewriting them. With `as_items`, every block is counted as the Responses API
    /// item it travels as (codex.md §3.5: a text part as a message of its own, a call as a
    /// `function_call`, a result as a `function_call_output`), not by its text alone.
    pub fn assemble(
        &mut self,
        records: &[transcript::Message],
        rules: &AttachmentRules,
        method: TokenMethod,
        as_items: bool,
    ) -> (Vec<Rc<Message>>, Splice) {
        if records.len() < self.settled_records {
            self.clear();
        }
        let mut counts = core::mem::take(&mut self.counts);
        #[cfg(test)]
        let known = counts.len();
        let mut counter = Counter {
            method,
            as_items,
            counts: Some(&mut counts),
        };
        let cut = latest_response_start(records).max(self.settled_records);
        if cut > self.settled_records {
            let segment = records.get(self.settled_records..cut).unwrap_or_default();
            let (messages, splice) = assemble_counted(segment, rules, &mut counter);
            if self.settled_records == 0 {
                self.splice = Some(splice);
            }
            self.settled.extend(messages.into_iter().map(Rc::new));
            self.settled_records = cut;
        }
        let tail = records.get(cut..).unwrap_or_default();
        let (messages, tail_splice) = assemble_counted(tail, rules, &mut counter);
        #[cfg(test)]
        {
            self.counted += counts.len() - known;
        }
        // The settled records are not assembled again: their counts are not needed.
        self.counts = match tail.iter().map(|message| message.id).min() {
            Some(first) => counts.split_off(&CountKey {
                origin: Origin {
                    record: first,
                    part: 0,
                    form: TextForm::Recorded,
                },
                as_item: false,
            }),
            None => BTreeMap::new(),
        };
        let splice = self.splice.unwrap_or(tail_splice);
        let mut all = self.settled.clone();
        all.extend(messages.into_iter().map(Rc::new));
        (all, splice)
    }

    /// Forgets everything (after compaction rewrote the transcript).
    pub fn clear(&mut self) {
        *self = MessageCache::default();
    }
}

/// Where a block's text comes from: its record (by the record's id), which of the record's
/// blocks it is, and the form the assembly gave it. Equal origins, equal texts (the records
/// do not change while a [`MessageCache`] keeps them).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct Origin {
    record: u64,
    part: usize,
    form: TextForm,
}

/// What the assembly did to a block's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
enum TextForm {
    /// Nothing: the record's text (a tool call's: its name and input, as counted).
    Recorded,
    /// A seam's `\n` was added to it.
    Seamed,
    /// Trimmed, to be folded into a tool result (Q50); a seam's `\n` is trimmed away.
    Trimmed,
}

/// A count kept between rounds: the text at `origin`, counted as text or as an item.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
struct CountKey {
    origin: Origin,
    as_item: bool,
}

/// Counts the blocks with the profile's method (or as items), and with `counts` remembers
/// each count by its origin.
struct Counter<'a> {
    method: TokenMethod,
    as_items: bool,
    counts: Option<&'a mut BTreeMap<CountKey, u64>>,
}

impl Counter<'_> {
    /// The tokens of `text`, which is the text at `origin`.
    fn count(&mut self, origin: Origin, text: &str) -> u64 {
        let method = self.method;
        self.remembered(origin, false, || estimate_tokens(text, method, None))
    }

    /// `block`, with its final text at `origin` in a message from `role`, counted: as its
    /// text, or as the item it travels as.
    fn count_block(&mut self, block: &mut Block, origin: Origin, role: Role) {
        if !self.as_items {
            block.recount_with(|text| self.count(origin, text));
            return;
        }
        let item = match block.block_type {
            BlockType::ToolUse => Item::FunctionCall {
                name: block.source.clone(),
                arguments: block.text.clone(),
                call_id: block.tool_use_id.clone().unwrap_or_default(),
            },
            BlockType::ToolResult => Item::FunctionCallOutput {
                call_id: block.tool_use_id.clone().unwrap_or_default(),
                output: block.text.clone(),
            },
            // A model's reasoning travels as an encrypted reasoning item (codex.md §3.5).
            BlockType::Thinking => {
                let text = &block.text;
                block.tokens = self.remembered(origin, true, || estimate_reasoning_tokens(text))
                    + block.media_tokens;
                return;
            }
            BlockType::Text | BlockType::ToolDefinition => Item::text(role, &block.text),
        };
        block.tokens =
            self.remembered(origin, true, || estimate_item_tokens(&item)) + block.media_tokens;
    }

    fn remembered(&mut self, origin: Origin, as_item: bool, count: impl FnOnce() -> u64) -> u64 {
        match self.counts.as_deref_mut() {
            None => count(),
            Some(counts) => *counts
                .entry(CountKey { origin, as_item })
                .or_insert_with(count),
        }
    }
}

/// A message being assembled: its blocks, each with its origin.
struct Draft {
    role: Role,
    content: Vec<(Block, Origin)>,
}

/// The index of the first record of the latest assistant response (0 when there is none).
fn latest_response_start(records: &[transcript::Message]) -> usize {
    let Some(last) = records
        .iter()
        .rposition(|m| matches!(m.record, Record::Assistant { .. }))
    else {
        return 0;
    };
    let Record::Assistant { response, .. } = records[last].record else {
        return 0;
    };
    let mut start = last;
    while start > 0
        && matches!(records[start - 1].record, Record::Assistant { response: r, .. } if r == response)
    {
        start -= 1;
    }
    start
}

/// Records in request order, and how many attachments floated to the very top. With
/// `summary_stops` a compaction summary holds the attachments after it (Q58 fixed);
/// otherwise they float above it and above the user context, as in the original.
///
/// Each record that stops attachments (an assistant record, tool results, context, a summary
/// that holds them) starts a stretch: the attachments of the stretch land right after it, in
/// their order, then the stretch's other records.
fn reorder<'r>(
    records: &'r [transcript::Message],
    rules: &AttachmentRules,
) -> (Vec<&'r transcript::Message>, usize) {
    let summary_stops = rules.attachments_after_summary;
    let mut ordered: Vec<&transcript::Message> = Vec::with_capacity(records.len());
    let mut floated: Vec<&transcript::Message> = Vec::new();
    let mut others: Vec<&transcript::Message> = Vec::new();
    // The harness's notes under `notes_as_system_messages`: they wait for the next response.
    let mut notes: Vec<&transcript::Message> = Vec::new();
    let mut seen_stop = false;
    let mut top = 0;
    for message in records {
        let stops = match &message.record {
            Record::Attachment(attachment) if is_system_note(attachment, rules) => {
                notes.push(message);
                continue;
            }
            Record::Attachment(_) => {
                floated.push(message);
                if !seen_stop {
                    top += 1;
                }
                continue;
            }
            Record::Assistant { .. } | Record::ToolResults { .. } | Record::Context { .. } => true,
            Record::Summary { .. } => summary_stops,
            // A user message without tool results: attachments float above it (as the
            // original's reorder does), so it does not stop them.
            Record::Prompt { .. } | Record::LocalCommand { .. } | Record::Interruption => false,
            Record::CompactBoundary { .. } => continue,
        };
        if stops {
            ordered.append(&mut floated);
            ordered.append(&mut others);
            if matches!(message.record, Record::Assistant { .. }) {
                ordered.append(&mut notes);
            }
            ordered.push(message);
            seen_stop = true;
        } else {
            others.push(message);
        }
    }
    ordered.append(&mut floated);
    ordered.append(&mut others);
    ordered.append(&mut notes);
    (ordered, top)
}

/// Whether `attachment` travels in a `system`-role message under `rules` (2.1.332).
fn is_system_note(attachment: &Attachment, rules: &AttachmentRules) -> bool {
    rules.notes_as_system_messages && attachment.kind.is_harness_note() && !attachment.is_silent()
}

/// Adds a harness note to the `system`-role message that ends the messages, or starts one:
/// the note's text without its reminder wrapper, a block of its own (2.1.332).
fn push_system_note(messages: &mut Vec<Draft>, attachment: &Attachment, origin: Origin) {
    let text = crate::wording::unwrap_reminder(&attachment.text);
    let mut note = Block::uncounted(
        attachment.kind.as_str(),
        attachment.kind.category(),
        text.into(),
    );
    note.reminder = false;
    note.frequency = Some(attachment.frequency);
    match messages.last_mut() {
        Some(last) if last.role == Role::System => last.content.push((note, origin)),
        _ => messages.push(Draft {
            role: Role::System,
            content: Vec::from([(note, origin)]),
        }),
    }
}

fn assistant_block(block: &AssistantBlock) -> Block {
    match block {
        AssistantBlock::Text { text } => {
            Block::uncounted("assistant", Category::Conversation, text.clone())
        }
        AssistantBlock::Thinking { thinking } => {
            let mut block = Block::uncounted("assistant", Category::Conversation, thinking.clone());
            block.block_type = BlockType::Thinking;
            block
        }
        AssistantBlock::ToolUse(call) => {
            let mut block =
                Block::uncounted(&call.name, Category::Conversation, call.input.clone());
            block.block_type = BlockType::ToolUse;
            block.tool_use_id = Some(call.id.clone());
            block
        }
    }
}

/// The blocks a user-side record is sent as, not counted yet (an attachment's are: what its
/// media cost beyond them depends on it).
fn user_blocks(record: &Record, id: u64, counter: &mut Counter<'_>) -> Vec<Block> {
    let text = |source: &str, text: &str| {
        Vec::from([Block::uncounted(
            source,
            Category::Conversation,
            text.into(),
        )])
    };
    match record {
        Record::Prompt { text: prompt } => text("prompt", prompt),
        Record::ToolResults { results } => results
            .iter()
            .map(|result| {
                let mut block =
                    Block::uncounted("tool", Category::Conversation, result.content.clone());
                block.block_type = BlockType::ToolResult;
                block.tool_use_id = Some(result.tool_use_id.clone());
                block.is_error = result.is_error;
                block
            })
            .collect(),
        Record::Attachment(attachment) if !attachment.is_silent() => {
            attachment_blocks(attachment, id, counter)
        }
        Record::Interruption => text("interruption", crate::transcript::INTERRUPTED_FOR_TOOL_USE),
        Record::Summary { text: summary } => text("compact_summary", summary),
        Record::LocalCommand { text: command, .. } => text("local_command", command),
        Record::Attachment(_)
        | Record::Assistant { .. }
        | Record::CompactBoundary { .. }
        | Record::Context { .. } => Vec::new(),
    }
}

/// One block per user message the attachment is sent as (§3.11: a file's call note and its
/// result apart, when it was made so).
fn attachment_blocks(attachment: &Attachment, id: u64, counter: &mut Counter<'_>) -> Vec<Block> {
    let category = attachment.kind.category();
    let mut blocks: Vec<Block> = attachment
        .messages()
        .into_iter()
        .map(|text| {
            let mut block = Block::uncounted(attachment.kind.as_str(), category, text.into());
            block.frequency = Some(attachment.frequency);
            block
        })
        .collect();
    let text_tokens: u64 = (blocks.iter().enumerate())
        .map(|(part, block)| {
            let origin = Origin {
                record: id,
                part,
                form: TextForm::Recorded,
            };
            counter.count(origin, &block.text)
        })
        .sum();
    if let Some(last) = blocks.last_mut() {
        // An image or a document costs more than the note that stands for it.
        last.media_tokens = attachment.tokens.saturating_sub(text_tokens);
    }
    blocks
}

/// An attachment sent as several user messages (§7.11): after an assistant message (or at
/// the start) each part is a message of its own, and what follows merges into the last;
/// after a user message the parts merge into it one after the other, each seam a `\n`.
fn push_parts(messages: &mut Vec<Draft>, parts: Vec<(Block, Origin)>) {
    let after_user = messages.last().is_some_and(|last| last.role == Role::User);
    for part in parts {
        match after_user {
            true => push_user(messages, Vec::from([part])),
            false => messages.push(Draft {
                role: Role::User,
                content: Vec::from([part]),
            }),
        }
    }
}

/// A context item as its own message: a developer bundle keeps one block per section (X23).
/// AGENTS.md counts as memory; the rest of the context is the harness's, counted as system.
fn context_message(source: ContextSource, item: &Item, origin: impl Fn(usize) -> Origin) -> Draft {
    let role = item.role().unwrap_or(Role::User);
    let Item::Message { content, .. } = item else {
        return Draft {
            role,
            content: Vec::new(),
        };
    };
    let content = content
        .iter()
        .filter_map(Part::text)
        .enumerate()
        .map(|(part, text)| {
            let category = match text.starts_with(AGENTS_MD_HEADER) {
                true => Category::Memory,
                false => Category::System,
            };
            (
                Block::uncounted(source.as_str(), category, text.into()),
                origin(part),
            )
        })
        .collect();
    Draft { role, content }
}

/// Appends a user message, merging it into a preceding user message.
fn push_user(messages: &mut Vec<Draft>, mut content: Vec<(Block, Origin)>) {
    match messages.last_mut() {
        Some(last) if last.role == Role::User => {
            let seam = last
                .content
                .last()
                .is_some_and(|(b, _)| b.block_type == BlockType::Text)
                && content
                    .first()
                    .is_some_and(|(b, _)| b.block_type == BlockType::Text);
            if seam {
                if let Some((previous, origin)) = last.content.last_mut() {
                    previous.text.push('\n');
                    origin.form = TextForm::Seamed;
                }
            }
            last.content.append(&mut content);
        }
        _ => messages.push(Draft {
            role: Role::User,
            content,
        }),
    }
}

/// Folds the reminder texts after the last tool result into it (Q50), and counts the
/// message's blocks, their texts now final.
fn fold_reminders(
    mut message: Draft,
    rules: &AttachmentRules,
    counter: &mut Counter<'_>,
) -> Message {
    let last_result = match message.role != Role::User || rules.keep_mid_turn_blocks_separate {
        true => None,
        false => (message.content.iter())
            .rposition(|(block, _)| block.block_type == BlockType::ToolResult),
    };
    if let Some(last_result) = last_result {
        let (kept, trailing): (Vec<_>, Vec<_>) = {
            let tail = message.content.split_off(last_result + 1);
            tail.into_iter().partition(|(block, _)| !block.reminder)
        };
        if let Some((result, origin)) = message.content.last_mut() {
            if !trailing.is_empty() {
                fold_into(result, *origin, trailing, counter);
            }
        }
        message.content.extend(kept);
    }
    let role = message.role;
    let content = message
        .content
        .into_iter()
        .map(|(mut block, origin)| {
            counter.count_block(&mut block, origin, role);
            block
        })
        .collect();
    Message {
        role: message.role,
        content,
    }
}

fn fold_into(
    result: &mut Block,
    origin: Origin,
    folded: Vec<(Block, Origin)>,
    counter: &mut Counter<'_>,
) {
    let mut output = result.clone();
    output.text = String::from(output.text.trim());
    output.parts = Vec::new();
    let mut parts = Vec::from([(output, origin)]);
    for (mut block, origin) in folded {
        block.text = String::from(block.text.trim());
        if !block.text.is_empty() {
            parts.push((block, origin));
        }
    }
    let texts: Vec<&str> = parts
        .iter()
        .map(|(part, _)| part.text.as_str())
        .filter(|text| !text.is_empty())
        .collect();
    result.text = texts.join("\n\n");
    result.parts = parts
        .into_iter()
        .map(|(mut part, origin)| {
            let trimmed = Origin {
                form: TextForm::Trimmed,
                ..origin
            };
            part.recount_with(|text| counter.count(trimmed, text));
            part
        })
        .collect();
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attachment::AttachmentKind;
    use crate::transcript::{ToolResultBlock, ToolUse, Transcript};

    fn note(kind: AttachmentKind, body: &str) -> Record {
        let text = alloc::format!("<system-reminder>\n{body}\n</system-reminder>");
        Record::Attachment(Attachment::new(kind, None, text, TokenMethod::Codex))
    }

    fn session_with_tool_round() -> Transcript {
        let mut t = Transcript::default();
        t.push(Record::Prompt {
            text: "fix it".into(),
        });
        t.push(note(AttachmentKind::NestedMemory, "m"));
        let response = t.next_response();
        t.push(Record::Assistant {
            response,
            block: AssistantBlock::ToolUse(ToolUse {
                id: "t1".into(),
                name: "Read".into(),
                input: "{}".into(),
            }),
        });
        t.push(Record::ToolResults {
            results: Vec::from([ToolResultBlock {
                tool_use_id: "t1".into(),
                content: "1\tx\n".into(),
                is_error: false,
            }]),
        });
        t.push(note(AttachmentKind::EditedTextFile, "changed"));
        t
    }

    #[test]
    fn mid_turn_attachments_fold_into_the_last_tool_result() {
        let t = session_with_tool_round();
        let rules = AttachmentRules::claude_code();
        let (messages, splice) = assemble_messages(t.messages(), &rules, TokenMethod::Codex);
        assert_eq!(messages.len(), 3);
        assert_eq!((splice.message, splice.block), (0, 1));
        let result = &messages[2].content[0];
        assert_eq!(
            result.text,
            "1\tx\n\n<system-reminder>\nchanged\n</system-reminder>"
        );
        assert_eq!(result.parts.len(), 2);
        assert_eq!(
            result.tokens,
            result.parts[0].tokens + result.parts[1].tokens
        );
        assert_eq!(result.parts[1].category, Category::Attachments);
    }

    #[test]
    fn with_q50_fixed_they_stay_separate_blocks() {
        let t = session_with_tool_round();
        let rules = AttachmentRules::recommended();
        let (messages, _) = assemble_messages(t.messages(), &rules, TokenMethod::Codex);
        assert_eq!(messages[2].content.len(), 2);
        assert_eq!(messages[2].content[1].source, "edited_text_file");
    }

    #[test]
    fn human_turn_attachments_precede_the_prompt_with_a_seam() {
        let mut t = session_with_tool_round();
        let response = t.next_response();
        t.push(Record::Assistant {
            response,
            block: AssistantBlock::text("done"),
        });
        t.push(Record::Prompt {
            text: "next".into(),
        });
        t.push(note(AttachmentKind::DateChange, "d"));
        let rules = AttachmentRules::claude_code();
        let (messages, _) = assemble_messages(t.messages(), &rules, TokenMethod::Codex);
        let last = &messages[messages.len() - 1].content;
        assert_eq!(last[0].source, "date_change");
        assert!(
            last[0].text.ends_with("</system-reminder>\n"),
            "seam newline"
        );
        assert_eq!(last[1].text, "next");
    }

    /// Builds a transcript from a script: 0 prompt, 1 attachment, 2 reminder attachment,
    /// 3 assistant text (new response), 4 tool call + results, 5 silent attachment.
    fn scripted(script: &[u8]) -> Transcript {
        let mut t = Transcript::default();
        for (i, op) in script.iter().enumerate() {
            match op % 6 {
                0 => {
                    t.push(Record::Prompt {
                        text: alloc::format!("p{i}"),
                    });
                }
                1 => {
                    t.push(Record::Attachment(Attachment::new(
                        AttachmentKind::File,
                        None,
                        alloc::format!("a{i}\n"),
                        TokenMethod::Codex,
                    )));
                }
                2 => {
                    t.push(note(AttachmentKind::NestedMemory, "m"));
                }
                3 => {
                    let r = t.next_response();
                    t.push(Record::Assistant {
                        response: r,
                        block: AssistantBlock::text("ok"),
                    });
                }
                4 => {
                    let r = t.next_response();
                    let id = alloc::format!("t{i}");
                    t.push(Record::Assistant {
                        response: r,
                        block: AssistantBlock::ToolUse(ToolUse {
                            id: id.clone(),
                            name: "Read".into(),
                            input: "{}".into(),
                        }),
                    });
                    t.push(Record::ToolResults {
                        results: Vec::from([ToolResultBlock {
                            tool_use_id: id,
                            content: "x".into(),
                            is_error: false,
                        }]),
                    });
                }
                _ => {
                    t.push(Record::Attachment(Attachment::new(
                        AttachmentKind::AlreadyReadFile,
                        None,
                        String::new(),
                        TokenMethod::Codex,
                    )));
                }
            }
        }
        t
    }

    /// Issue 31: prompts the model never answers merge into one message that every round
    /// assembles again; each round counts only what it added, not the whole message.
    #[test]
    fn a_round_counts_only_the_texts_it_added() {
        for (rules, as_items) in [
            (AttachmentRules::recommended(), false),
            (AttachmentRules::claude_code(), false),
            (AttachmentRules::recommended(), true),
        ] {
            let mut t = session_with_tool_round();
            let mut cache = MessageCache::default();
            let mut counted_per_round = Vec::new();
            for round in 0..60 {
                t.push(Record::Prompt {
                    text: alloc::format!("prompt {round}"),
                });
                t.push(note(AttachmentKind::DateChange, "d"));
                let before = cache.counted;
                cache.assemble(t.messages(), &rules, TokenMethod::Calibrated, as_items);
                counted_per_round.push(cache.counted - before);
            }
            // The first round counts the tail; after it, the two new records and the seam
            // they put on the block before them.
            assert!(
                counted_per_round[1..].iter().all(|&n| n <= 4),
                "{counted_per_round:?}"
            );
        }
    }

    proptest::proptest! {
        #[test]
        fn the_cache_assembles_what_a_full_assembly_does(script in proptest::collection::vec(0u8..6, 0..40), fold in proptest::bool::ANY) {
            let t = scripted(&script);
            let rules = if fold { AttachmentRules::claude_code() } else { AttachmentRules::recommended() };
            let mut cache = MessageCache::default();
            for end in 0..=t.len() {
                let records = &t.messages()[..end];
                let (cached, cached_splice) = cache.assemble(records, &rules, TokenMethod::Codex, false);
                let (full, full_splice) = assemble_messages(records, &rules, TokenMethod::Codex);
                let cached: Vec<Message> = cached.iter().map(|m| (**m).clone()).collect();
                proptest::prop_assert_eq!(cached, full);
                proptest::prop_assert_eq!(cached_splice, full_splice);
            }
        }
    }
}
