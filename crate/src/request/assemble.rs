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

use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

use super::{Block, BlockType, Category, Message, Splice};
use crate::attachment::{Attachment, AttachmentRules};
use crate::codex::items::{Item, Part, Role, AGENTS_MD_HEADER};
use crate::codex::session_state::ContextSource;
use crate::tokens::TokenMethod;
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
    let (ordered, floated_to_top) = reorder(records, rules.attachments_after_summary);
    let mut messages: Vec<Message> = Vec::new();
    let mut last_response = None;
    let mut splice = Splice::default();
    for (index, record) in ordered.iter().enumerate() {
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
        match record {
            Record::Assistant { response, block } => {
                let block = assistant_block(block, method);
                match messages.last_mut() {
                    Some(last)
                        if last.role == Role::Assistant && last_response == Some(*response) =>
                    {
                        last.content.push(block);
                    }
                    _ => messages.push(Message {
                        role: Role::Assistant,
                        content: Vec::from([block]),
                    }),
                }
                last_response = Some(*response);
            }
            Record::Context { source, item } => {
                messages.push(context_message(*source, item, method));
                last_response = None;
            }
            other => {
                let content = user_blocks(other, method);
                if content.is_empty() {
                    continue;
                }
                match rules.merge_user_messages {
                    true if content.len() > 1 && matches!(other, Record::Attachment(_)) => {
                        push_parts(&mut messages, content)
                    }
                    true => push_user(&mut messages, content),
                    false => messages.push(Message {
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
    for message in &mut messages {
        fold_reminders(message, rules, method);
    }
    (messages, splice)
}

/// The assembled messages of the transcript's settled part, kept between rounds.
///
/// Records before the latest assistant response can no longer change place: an attachment
/// floats up at most to the nearest assistant or tool-result record, and nothing merges
/// across an assistant message. So each round assembles only the records from the latest
/// response on, and a request costs what is new, not the whole transcript.
#[derive(Debug, Clone, Default)]
pub struct MessageCache {
    settled_records: usize,
    settled: Vec<Rc<Message>>,
    splice: Option<Splice>,
}

impl MessageCache {
    /// The messages of `records` and where the user context goes, reusing what is settled.
    /// `records` must extend the records of the previous call; call [`MessageCache::clear`]
    /// after rewriting them.
    pub fn assemble(
        &mut self,
        records: &[transcript::Message],
        rules: &AttachmentRules,
        method: TokenMethod,
    ) -> (Vec<Rc<Message>>, Splice) {
        if records.len() < self.settled_records {
            self.clear();
        }
        let cut = latest_response_start(records).max(self.settled_records);
        if cut > self.settled_records {
            let segment = records.get(self.settled_records..cut).unwrap_or_default();
            let (messages, splice) = assemble_messages(segment, rules, method);
            if self.settled_records == 0 {
                self.splice = Some(splice);
            }
            self.settled.extend(messages.into_iter().map(Rc::new));
            self.settled_records = cut;
        }
        let tail = records.get(cut..).unwrap_or_default();
        let (messages, tail_splice) = assemble_messages(tail, rules, method);
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
fn reorder(records: &[transcript::Message], summary_stops: bool) -> (Vec<&Record>, usize) {
    let mut ordered: Vec<&Record> = Vec::with_capacity(records.len());
    let mut insert_at = 0;
    let mut seen_stop = false;
    let mut top = 0;
    for message in records {
        match &message.record {
            record @ Record::Attachment(_) => {
                ordered.insert(insert_at, record);
                insert_at += 1;
                if !seen_stop {
                    top += 1;
                }
            }
            record @ (Record::Assistant { .. } | Record::ToolResults { .. }) => {
                ordered.push(record);
                insert_at = ordered.len();
                seen_stop = true;
            }
            record @ Record::Summary { .. } if summary_stops => {
                ordered.push(record);
                insert_at = ordered.len();
                seen_stop = true;
            }
            record @ Record::Context { .. } => {
                ordered.push(record);
                insert_at = ordered.len();
                seen_stop = true;
            }
            // A user message without tool results: attachments float above it (as the
            // original's reorder does), so it does not stop them.
            record @ (Record::Prompt { .. }
            | Record::Summary { .. }
            | Record::LocalCommand { .. }
            | Record::Interruption) => ordered.push(record),
            Record::CompactBoundary { .. } => {}
        }
    }
    (ordered, top)
}

fn assistant_block(block: &AssistantBlock, method: TokenMethod) -> Block {
    match block {
        AssistantBlock::Text { text } => {
            Block::text("assistant", Category::Conversation, text.clone(), method)
        }
        AssistantBlock::Thinking { thinking } => {
            let mut block = Block::text(
                "assistant",
                Category::Conversation,
                thinking.clone(),
                method,
            );
            block.block_type = BlockType::Thinking;
            block
        }
        AssistantBlock::ToolUse(call) => {
            let mut block = Block::text(
                &call.name,
                Category::Conversation,
                call.input.clone(),
                method,
            );
            block.block_type = BlockType::ToolUse;
            block.tool_use_id = Some(call.id.clone());
            block.recount(method);
            block
        }
    }
}

fn user_blocks(record: &Record, method: TokenMethod) -> Vec<Block> {
    match record {
        Record::Prompt { text } => Vec::from([Block::text(
            "prompt",
            Category::Conversation,
            text.clone(),
            method,
        )]),
        Record::ToolResults { results } => results
            .iter()
            .map(|result| {
                let mut block = Block::text(
                    "tool",
                    Category::Conversation,
                    result.content.clone(),
                    method,
                );
                block.block_type = BlockType::ToolResult;
                block.tool_use_id = Some(result.tool_use_id.clone());
                block.is_error = result.is_error;
                block
            })
            .collect(),
        Record::Attachment(attachment) if !attachment.is_silent() => {
            attachment_blocks(attachment, method)
        }
        Record::Interruption => Vec::from([Block::text(
            "interruption",
            Category::Conversation,
            crate::transcript::INTERRUPTED_FOR_TOOL_USE.into(),
            method,
        )]),
        Record::Summary { text } => Vec::from([Block::text(
            "compact_summary",
            Category::Conversation,
            text.clone(),
            method,
        )]),
        Record::LocalCommand { text, .. } => Vec::from([Block::text(
            "local_command",
            Category::Conversation,
            text.clone(),
            method,
        )]),
        Record::Attachment(_)
        | Record::Assistant { .. }
        | Record::CompactBoundary { .. }
        | Record::Context { .. } => Vec::new(),
    }
}

/// One block per user message the attachment is sent as (§3.11: a file's call note and its
/// result apart, when it was made so).
fn attachment_blocks(attachment: &Attachment, method: TokenMethod) -> Vec<Block> {
    let category = attachment.kind.category();
    let mut blocks: Vec<Block> = attachment
        .messages()
        .into_iter()
        .map(|text| {
            let mut block = Block::text(attachment.kind.as_str(), category, text.into(), method);
            block.frequency = Some(attachment.frequency);
            block
        })
        .collect();
    let text_tokens: u64 = blocks.iter().map(|block| block.tokens).sum();
    if let Some(last) = blocks.last_mut() {
        // An image or a document costs more than the note that stands for it.
        last.media_tokens = attachment.tokens.saturating_sub(text_tokens);
        last.tokens += last.media_tokens;
    }
    blocks
}

/// An attachment sent as several user messages (§7.11): after an assistant message (or at
/// the start) each part is a message of its own, and what follows merges into the last;
/// after a user message the parts merge into it one after the other, each seam a `\n`.
fn push_parts(messages: &mut Vec<Message>, parts: Vec<Block>) {
    let after_user = messages.last().is_some_and(|last| last.role == Role::User);
    for part in parts {
        match after_user {
            true => push_user(messages, Vec::from([part])),
            false => messages.push(Message {
                role: Role::User,
                content: Vec::from([part]),
            }),
        }
    }
}

/// A context item as its own message: a developer bundle keeps one block per section (X23).
/// AGENTS.md counts as memory; the rest of the context is the harness's, counted as system.
fn context_message(source: ContextSource, item: &Item, method: TokenMethod) -> Message {
    let role = item.role().unwrap_or(Role::User);
    let Item::Message { content, .. } = item else {
        return Message {
            role,
            content: Vec::new(),
        };
    };
    let content = content
        .iter()
        .filter_map(Part::text)
        .map(|text| {
            let category = match text.starts_with(AGENTS_MD_HEADER) {
                true => Category::Memory,
                false => Category::System,
            };
            Block::text(source.as_str(), category, text.into(), method)
        })
        .collect();
    Message { role, content }
}

/// Appends a user message, merging it into a preceding user message.
fn push_user(messages: &mut Vec<Message>, mut content: Vec<Block>) {
    match messages.last_mut() {
        Some(last) if last.role == Role::User => {
            let seam = last
                .content
                .last()
                .is_some_and(|b| b.block_type == BlockType::Text)
                && content
                    .first()
                    .is_some_and(|b| b.block_type == BlockType::Text);
            if seam {
                if let Some(previous) = last.content.last_mut() {
                    previous.text.push('\n');
                }
            }
            last.content.append(&mut content);
        }
        _ => messages.push(Message {
            role: Role::User,
            content,
        }),
    }
}

/// Folds the reminder texts after the last tool result into it (Q50).
fn fold_reminders(message: &mut Message, rules: &AttachmentRules, method: TokenMethod) {
    if message.role != Role::User || rules.keep_mid_turn_blocks_separate {
        recount_all(message, method);
        return;
    }
    let Some(last_result) = message
        .content
        .iter()
        .rposition(|block| block.block_type == BlockType::ToolResult)
    else {
        recount_all(message, method);
        return;
    };
    let (kept, trailing): (Vec<Block>, Vec<Block>) = {
        let tail = message.content.split_off(last_result + 1);
        tail.into_iter().partition(|block| !block.reminder)
    };
    if let Some(result) = message.content.last_mut() {
        if !trailing.is_empty() {
            fold_into(result, trailing, method);
        }
    }
    message.content.extend(kept);
    recount_all(message, method);
}

fn fold_into(result: &mut Block, folded: Vec<Block>, method: TokenMethod) {
    let mut output = result.clone();
    output.text = String::from(output.text.trim());
    output.parts = Vec::new();
    let mut parts = Vec::from([output]);
    for mut block in folded {
        block.text = String::from(block.text.trim());
        if !block.text.is_empty() {
            parts.push(block);
        }
    }
    let texts: Vec<&str> = parts
        .iter()
        .map(|part| part.text.as_str())
        .filter(|text| !text.is_empty())
        .collect();
    result.text = texts.join("\n\n");
    for part in &mut parts {
        part.recount(method);
    }
    result.parts = parts;
}

fn recount_all(message: &mut Message, method: TokenMethod) {
    for block in &mut message.content {
        block.recount(method);
    }
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

    proptest::proptest! {
        #[test]
        fn the_cache_assembles_what_a_full_assembly_does(script in proptest::collection::vec(0u8..6, 0..40), fold in proptest::bool::ANY) {
            let t = scripted(&script);
            let rules = if fold { AttachmentRules::claude_code() } else { AttachmentRules::recommended() };
            let mut cache = MessageCache::default();
            for end in 0..=t.len() {
                let records = &t.messages()[..end];
                let (cached, cached_splice) = cache.assemble(records, &rules, TokenMethod::Codex);
                let (full, full_splice) = assemble_messages(records, &rules, TokenMethod::Codex);
                let cached: Vec<Message> = cached.iter().map(|m| (**m).clone()).collect();
                proptest::prop_assert_eq!(cached, full);
                proptest::prop_assert_eq!(cached_splice, full_splice);
            }
        }
    }
}
