//! One line of Claude Code's log as a record of the scenario's terms: a prompt, a
//! response's blocks, calls' results and what they showed of the workspace, a compaction's
//! boundary and summary, a slash command.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::builder::{clip, clip_strings, json_size, str_field, u64_field, Builder};
use super::super::{InjectedItem, RecordedUsage, WarningKind};
use crate::scenario::parse::Json;

#[derive(Debug)]
pub(super) struct Node {
    /// The record's `uuid` hash.
    pub(super) key: u64,
    /// The parent's `uuid` hash.
    pub(super) parent: Option<u64>,
    pub(super) line: usize,
    pub(super) at_ms: Option<u64>,
    pub(super) payload: Payload,
    /// What the record shows was injected into the next request (attachment lines, meta
    /// lines, `<system-reminder>` text blocks).
    pub(super) injected: Vec<InjectedItem>,
}

/// What a record means for the scenario.
#[derive(Debug)]
pub(super) enum Payload {
    Prompt {
        text: String,
        mode: Option<String>,
    },
    Results(Vec<String>),
    /// Boxed: every line of the log has a record, most of them small.
    Answer(Box<Answer>),
    Boundary {
        trigger: String,
    },
    Summary(String),
    Command {
        name: String,
        args: String,
    },
    /// The client's note that the user stopped the turn.
    Interrupted,
    /// A file changed outside the agent, as the client's change note showed it: the file,
    /// a snippet of its new content as numbered lines, the new content's length and the
    /// file's modification time.
    OutsideEdit {
        path: String,
        snippet: String,
        length: Option<u64>,
        modified_ms: Option<u64>,
    },
    /// A file the client read for a mention (a `file` or `already_read_file` attachment):
    /// what it held when the prompt was sent.
    Mentioned(Knowledge),
    /// Records that only link the chain (notices, meta lines, command output).
    Nothing,
    /// Content past the budget: counted, not kept.
    Dropped,
}

#[derive(Debug, Clone)]
pub(super) struct Answer {
    pub(super) message_id: String,
    pub(super) blocks: Vec<Block>,
    pub(super) usage: Option<RecordedUsage>,
}

#[derive(Debug, Clone)]
pub(super) enum Block {
    Text(String),
    Thinking(String),
    ToolUse {
        id: String,
        name: String,
        input: Json,
    },
}

/// A call's result, and what its `toolUseResult` showed of the workspace.
#[derive(Debug)]
pub(super) struct Outcome {
    /// The line the result was read from.
    pub(super) line: usize,
    /// The `uuid` hash of the record it answers (its parent: the line that made the call).
    pub(super) call: Option<u64>,
    pub(super) content: String,
    pub(super) is_error: bool,
    /// The user stopped the turn right after it (a plan rejected without feedback).
    pub(super) interrupted: bool,
    pub(super) knowledge: Knowledge,
}

#[derive(Debug)]
pub(super) enum Knowledge {
    None,
    Read {
        path: String,
        content: String,
        start: u64,
        lines: u64,
        total: Option<u64>,
    },
    Changed {
        path: String,
        original: Option<String>,
    },
    Shell {
        output: String,
    },
}

/// A user line's text: a string, or its text blocks joined.
pub(super) fn plain_text(content: &Json) -> String {
    match content {
        Json::String(value) => value.clone(),
        Json::Array(blocks) => {
            let texts: Vec<&str> = blocks.iter().filter_map(|b| str_field(b, "text")).collect();
            texts.join("\n")
        }
        _ => String::new(),
    }
}

/// A prompt line's text without the `<system-reminder>` text blocks the client put beside
/// the prompt, and those blocks as injected items.
pub(super) fn prompt_and_reminders(content: &Json) -> (String, Vec<InjectedItem>) {
    let Json::Array(blocks) = content else {
        return (plain_text(content), Vec::new());
    };
    let mut texts = Vec::new();
    let mut reminders = Vec::new();
    for text in blocks.iter().filter_map(|b| str_field(b, "text")) {
        if text.trim_start().starts_with("<system-reminder>") {
            reminders.push(InjectedItem::from_text("reminder", text));
        } else {
            texts.push(text);
        }
    }
    (texts.join("\n"), reminders)
}

/// What an `attachment` line means for the scenario: a change note is a file changed
/// outside the agent, a mentioned file shows what the file held; the others are only what
/// was injected.
pub(super) fn attachment_payload(line: &Json) -> Payload {
    let attachment = line.get("attachment");
    let read =
        attachment.filter(|a| matches!(str_field(a, "type"), Some("file" | "already_read_file")));
    if let Some(knowledge) = read.and_then(|a| a.get("content")).map(knowledge_of) {
        return match knowledge {
            Knowledge::Read { .. } => Payload::Mentioned(knowledge),
            _ => Payload::Nothing,
        };
    }
    let edited = attachment.filter(|a| str_field(a, "type") == Some("edited_text_file"));
    let Some(note) = edited else {
        return Payload::Nothing;
    };
    match (str_field(note, "filename"), str_field(note, "snippet")) {
        (Some(path), Some(snippet)) => {
            let entry = note.get("rereadEntry");
            Payload::OutsideEdit {
                path: path.into(),
                snippet: snippet.into(),
                length: entry.and_then(|entry| u64_field(entry, "contentLength")),
                modified_ms: entry.and_then(|entry| u64_field(entry, "timestamp")),
            }
        }
        _ => Payload::Nothing,
    }
}

/// Attachment types a log records that are not a message sent to the model: the system
/// prompt the request had (`prompt_snapshot`).
const NOT_INJECTED: &[&str] = &["prompt_snapshot"];

/// Attachment types the engine sends as part of another item: 2.1.332's model identity is
/// a line of the environment note.
const PART_OF: &[(&str, &str)] = &[("model", "environment")];

/// An `attachment` line as an injected item: its type (as the engine names the item it is
/// part of), and the file it names if any; `None` for what is not sent as a message.
pub(super) fn attachment_item(line: &Json) -> Option<InjectedItem> {
    let attachment = line.get("attachment");
    let logged = attachment
        .and_then(|a| str_field(a, "type"))
        .unwrap_or("attachment");
    if NOT_INJECTED.contains(&logged) {
        return None;
    }
    let kind = PART_OF
        .iter()
        .find(|(part, _)| *part == logged)
        .map_or(logged, |(_, whole)| whole);
    let named = ["filename", "path", "displayPath", "filePath"]
        .iter()
        .find_map(|key| attachment.and_then(|a| str_field(a, key)));
    Some(match named {
        Some(path) => InjectedItem::from_text(kind, path),
        None => InjectedItem {
            kind: kind.into(),
            label: logged.into(),
        },
    })
}

/// A memory file a 2.1.332 attachment recorded, with its content.
pub(super) struct RecordedMemory<'a> {
    pub(super) path: &'a str,
    pub(super) content: &'a str,
    /// The user's own memory (`~/.claude/CLAUDE.md`), which tells where the home is.
    pub(super) user: bool,
}

/// The memory files an `instructions` attachment (the files loaded as the session began,
/// as the client rendered them) or a `nested_memory` one (a file as it is on disk) recorded.
pub(super) fn recorded_memory(line: &Json) -> Vec<RecordedMemory<'_>> {
    let Some(attachment) = line.get("attachment") else {
        return Vec::new();
    };
    match str_field(attachment, "type") {
        Some("instructions") => match attachment.get("files") {
            Some(Json::Array(files)) => files
                .iter()
                .filter_map(|file| {
                    Some(RecordedMemory {
                        path: str_field(file, "path")?,
                        content: str_field(file, "rawContent")
                            .or_else(|| str_field(file, "content"))?,
                        user: str_field(file, "type") == Some("User"),
                    })
                })
                .collect(),
            _ => Vec::new(),
        },
        Some("nested_memory") => attachment
            .get("content")
            .and_then(|file| {
                Some(RecordedMemory {
                    path: str_field(file, "path")?,
                    content: str_field(file, "rawContent")
                        .or_else(|| str_field(file, "content"))?,
                    user: false,
                })
            })
            .into_iter()
            .collect(),
        _ => Vec::new(),
    }
}

/// The git status a 2.1.332 `session_context` attachment recorded, without the client's
/// opening paragraph (its own words about the snapshot): the branch, status and commits.
pub(super) fn recorded_git_status(line: &Json) -> Option<&str> {
    let attachment = line.get("attachment")?;
    if str_field(attachment, "type") != Some("session_context") {
        return None;
    }
    let status = str_field(attachment.get("context")?, "gitStatus")?;
    let facts = status.split_once("\n\n").map_or(status, |(_, rest)| rest);
    Some(facts.trim_end()).filter(|facts| !facts.is_empty())
}

/// A typed prompt, a slash command's record, or a line the client wrote around one.
pub(super) fn classify_prompt(
    number: usize,
    prompt: String,
    mode: Option<&str>,
    builder: &mut Builder,
) -> Payload {
    let trimmed = prompt.trim_start();
    if trimmed.starts_with("<command-name>") {
        return Payload::Command {
            name: tag(trimmed, "command-name").unwrap_or_default().into(),
            args: tag(trimmed, "command-args")
                .unwrap_or_default()
                .trim()
                .into(),
        };
    }
    if ["<local-command-", "<command-message>"]
        .iter()
        .any(|p| trimmed.starts_with(p))
    {
        return Payload::Nothing;
    }
    if trimmed.starts_with("<bash-") {
        builder.warn(
            number,
            WarningKind::LeftOut,
            String::from("a shell command the user ran (!) is left out"),
        );
        return Payload::Nothing;
    }
    if trimmed.starts_with("[Request interrupted") {
        return Payload::Interrupted;
    }
    Payload::Prompt {
        text: prompt,
        mode: mode.map(String::from),
    }
}

/// The text between `<name>` and `</name>`.
pub(super) fn tag<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find(&close)? + start;
    Some(&text[start..end])
}

pub(super) fn assistant_record(
    number: usize,
    line: &Json,
    builder: &mut Builder,
) -> Result<Payload, String> {
    let message = line
        .get("message")
        .ok_or("an \"assistant\" line without \"message\"")?;
    if str_field(message, "model") == Some("<synthetic>") {
        // The client's own notices (an API error, an interruption), not the model's.
        return Ok(Payload::Nothing);
    }
    let Some(Json::Array(content)) = message.get("content") else {
        return Err(String::from(
            "an \"assistant\" line whose \"message.content\" is not an array",
        ));
    };
    let mut blocks = Vec::new();
    for block in content {
        match str_field(block, "type") {
            Some("text") => blocks.push(Block::Text(
                str_field(block, "text").unwrap_or_default().into(),
            )),
            Some("thinking") => blocks.push(Block::Thinking(
                str_field(block, "thinking").unwrap_or_default().into(),
            )),
            Some("redacted_thinking") => {}
            Some("tool_use") => {
                let (Some(id), Some(name), Some(input @ Json::Object(_))) = (
                    str_field(block, "id"),
                    str_field(block, "name"),
                    block.get("input"),
                ) else {
                    builder.warn(
                        number,
                        WarningKind::BadLine,
                        String::from(
                            "a tool_use block without id, name or an input object; left out",
                        ),
                    );
                    continue;
                };
                blocks.push(Block::ToolUse {
                    id: id.into(),
                    name: name.into(),
                    input: input.clone(),
                });
            }
            Some(
                other @ ("server_tool_use" | "web_search_tool_result" | "web_fetch_tool_result"),
            ) => {
                builder.warn(
                    number,
                    WarningKind::LeftOut,
                    format!("a {other} block (a tool the provider ran) is left out"),
                );
            }
            other => builder.warn(
                number,
                WarningKind::Unknown,
                format!(
                    "unknown assistant block type {:?}; left out",
                    other.unwrap_or("(none)")
                ),
            ),
        }
    }
    let message_id = str_field(message, "id")
        .or_else(|| str_field(line, "uuid"))
        .unwrap_or_default();
    Ok(Payload::Answer(Box::new(Answer {
        message_id: message_id.into(),
        blocks,
        usage: message.get("usage").map(|usage| RecordedUsage {
            line: number,
            input_tokens: u64_field(usage, "input_tokens").unwrap_or(0),
            cache_creation_tokens: u64_field(usage, "cache_creation_input_tokens").unwrap_or(0),
            cache_read_tokens: u64_field(usage, "cache_read_input_tokens").unwrap_or(0),
            output_tokens: u64_field(usage, "output_tokens").unwrap_or(0),
            ..RecordedUsage::default()
        }),
    })))
}

pub(super) fn system_record(line: &Json) -> Payload {
    if str_field(line, "subtype") != Some("compact_boundary") {
        return Payload::Nothing;
    }
    let trigger = line
        .get("compactMetadata")
        .and_then(|m| str_field(m, "trigger"))
        .unwrap_or("manual");
    Payload::Boundary {
        trigger: trigger.into(),
    }
}

/// What a `toolUseResult` shows: a Read's lines, an Edit's or Write's original, a shell's
/// output.
pub(super) fn knowledge_of(result: &Json) -> Knowledge {
    if let Some(file) = result.get("file") {
        if let (Some(path), Some(content)) =
            (str_field(file, "filePath"), str_field(file, "content"))
        {
            return Knowledge::Read {
                path: path.into(),
                content: content.into(),
                start: u64_field(file, "startLine").unwrap_or(1),
                lines: u64_field(file, "numLines").unwrap_or(0),
                total: u64_field(file, "totalLines"),
            };
        }
        return Knowledge::None;
    }
    if let Some(path) = str_field(result, "filePath") {
        if result.get("structuredPatch").is_some() || result.get("originalFile").is_some() {
            return Knowledge::Changed {
                path: path.into(),
                original: str_field(result, "originalFile").map(String::from),
            };
        }
    }
    if let Some(stdout) = str_field(result, "stdout") {
        let stderr = str_field(result, "stderr").unwrap_or_default();
        let output = match (stdout.is_empty(), stderr.is_empty()) {
            (_, true) => String::from(stdout),
            (true, false) => String::from(stderr),
            (false, false) => format!("{stdout}\n{stderr}"),
        };
        return Knowledge::Shell { output };
    }
    Knowledge::None
}

impl Outcome {
    /// Cuts the result's text and a shell's output at the format's limit on a string; whether
    /// either was. A file's content is left whole: the workspace takes a file whole or not at
    /// all.
    pub(super) fn clip(&mut self) -> bool {
        let output = match &mut self.knowledge {
            Knowledge::Shell { output } => clip(output),
            _ => false,
        };
        clip(&mut self.content) | output
    }

    /// About the bytes it holds.
    pub(super) fn size(&self) -> usize {
        self.content.len()
            + match &self.knowledge {
                Knowledge::Read { content, .. } => content.len(),
                Knowledge::Changed { original, .. } => original.as_ref().map_or(0, String::len),
                Knowledge::Shell { output } => output.len(),
                Knowledge::None => 0,
            }
    }
}

impl Payload {
    /// Cuts its texts at the format's limit on a string, since no step holds more: a long
    /// line's record is held until the end of the log; whether any was.
    pub(super) fn clip(&mut self) -> bool {
        match self {
            Payload::Prompt { text, .. } | Payload::Summary(text) => clip(text),
            Payload::Command { args, .. } => clip(args),
            Payload::Answer(answer) => answer.blocks.iter_mut().fold(false, |any, block| {
                let cut = match block {
                    Block::Text(text) | Block::Thinking(text) => clip(text),
                    Block::ToolUse { input, .. } => clip_strings(input),
                };
                cut | any
            }),
            _ => false,
        }
    }
}

pub(super) fn payload_size(payload: &Payload) -> usize {
    match payload {
        Payload::Prompt { text, .. } | Payload::Summary(text) => text.len(),
        Payload::Answer(answer) => answer
            .blocks
            .iter()
            .map(|block| match block {
                Block::Text(value) | Block::Thinking(value) => value.len(),
                Block::ToolUse { input, .. } => json_size(input),
            })
            .sum(),
        Payload::Command { args, .. } => args.len(),
        Payload::OutsideEdit { snippet, .. } => snippet.len(),
        Payload::Mentioned(Knowledge::Read { content, .. }) => content.len(),
        _ => 0,
    }
}
