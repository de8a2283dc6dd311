//! Claude Code's project log: one line per record, linked by `parentUuid` into a tree.
//!
//! The conversation the client resumes is the chain from the last record back to the root.
//! One model response is written as several `assistant` lines (one per content block) that
//! share `message.id`, each the parent of the next, and the result of a call hangs off the
//! line that made it, so the results of a response's earlier calls sit beside the chain,
//! not on it: they are taken in by their `tool_use_id`. Whatever else is off the chain is a
//! branch the session left (`/rewind`, an edited prompt). Subagents' lines
//! (`isSidechain`) are counted and left out. After a compaction the client writes earlier
//! lines again; a `uuid` seen before is skipped.
//!
//! Records are held (parsed, as the scenario's terms) until the end, because only the last
//! line says which branch is the main thread; content past the format's size is not kept.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::parse::Json;
use super::super::MAX_INPUT_BYTES;
use super::builder::{bool_field, json_size, object, str_field, text, u64_field, Builder};
use super::time::parse_timestamp;
use super::{RecordedUsage, WarningKind};

/// Line types that carry nothing a scenario replays (queue bookkeeping, titles, file-history
/// snapshots, summaries of other sessions).
const IGNORED_TYPES: &[&str] = &[
    "summary",
    "file-history-snapshot",
    "queue-operation",
    "last-prompt",
    "progress",
    "custom-title",
];

/// Tools the engine runs itself against the workspace; the others get the log's output.
const ENGINE_TOOLS: &[&str] = &[
    "Read",
    "Edit",
    "Write",
    "Grep",
    "Glob",
    "TodoWrite",
    "TaskCreate",
    "TaskUpdate",
    "ExitPlanMode",
];

const PERMISSION_MODES: &[&str] = &[
    "default",
    "acceptEdits",
    "plan",
    "auto",
    "bypassPermissions",
];

/// The reader's state: every record of the main file so far, and the calls' results.
#[derive(Debug, Default)]
pub(super) struct ClaudeCodeReader {
    nodes: Vec<Node>,
    by_uuid: BTreeMap<String, usize>,
    results: BTreeMap<String, Outcome>,
    sidechain: Option<(usize, usize)>,
    kept_bytes: usize,
    over_budget: Option<usize>,
}

#[derive(Debug)]
struct Node {
    parent: Option<String>,
    line: usize,
    at_ms: Option<u64>,
    payload: Payload,
}

/// What a record means for the scenario.
#[derive(Debug)]
enum Payload {
    Prompt {
        text: String,
        mode: Option<String>,
    },
    Results(Vec<String>),
    Answer(Answer),
    Boundary {
        trigger: String,
    },
    Summary(String),
    Command {
        name: String,
        args: String,
    },
    /// Records that only link the chain (notices, meta lines, command output).
    Nothing,
    /// Content past the budget: counted, not kept.
    Dropped,
}

#[derive(Debug)]
struct Answer {
    message_id: String,
    blocks: Vec<Block>,
    usage: Option<RecordedUsage>,
}

#[derive(Debug)]
enum Block {
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
struct Outcome {
    /// The line the result was read from.
    line: usize,
    content: String,
    is_error: bool,
    knowledge: Knowledge,
}

#[derive(Debug)]
enum Knowledge {
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

impl ClaudeCodeReader {
    /// Reads one line; `Err` says why it cannot be used.
    pub(super) fn read(
        &mut self,
        number: usize,
        line: &Json,
        builder: &mut Builder,
    ) -> Result<(), String> {
        let kind = str_field(line, "type").ok_or("a line without a \"type\" string")?;
        if let Some(cwd) = str_field(line, "cwd") {
            builder.set_cwd(cwd);
        }
        match kind {
            "user" | "assistant" | "system" => self.read_record(number, line, kind, builder),
            _ if IGNORED_TYPES.contains(&kind) => Ok(()),
            other => {
                builder.warn(
                    number,
                    WarningKind::Unknown,
                    format!("unknown line type {other:?}; left out"),
                );
                Ok(())
            }
        }
    }

    fn read_record(
        &mut self,
        number: usize,
        line: &Json,
        kind: &str,
        builder: &mut Builder,
    ) -> Result<(), String> {
        let uuid =
            str_field(line, "uuid").ok_or_else(|| format!("a {kind:?} line without \"uuid\""))?;
        if self.by_uuid.contains_key(uuid) {
            return Ok(());
        }
        if bool_field(line, "isSidechain") {
            let (_, count) = self.sidechain.get_or_insert((number, 0));
            *count += 1;
            return Ok(());
        }
        let mut payload = match kind {
            "user" => self.user_record(number, line, builder)?,
            "assistant" => assistant_record(number, line, builder)?,
            _ => system_record(line),
        };
        let size = payload_size(&payload);
        if self.kept_bytes + size > MAX_INPUT_BYTES {
            self.over_budget.get_or_insert(number);
            payload = Payload::Dropped;
        } else {
            self.kept_bytes += size;
        }
        let parent = str_field(line, "parentUuid").or_else(|| str_field(line, "logicalParentUuid"));
        self.by_uuid.insert(uuid.into(), self.nodes.len());
        self.nodes.push(Node {
            parent: parent.map(String::from),
            line: number,
            at_ms: str_field(line, "timestamp").and_then(parse_timestamp),
            payload,
        });
        Ok(())
    }

    fn user_record(
        &mut self,
        number: usize,
        line: &Json,
        builder: &mut Builder,
    ) -> Result<Payload, String> {
        let content = line
            .get("message")
            .and_then(|m| m.get("content"))
            .ok_or("a \"user\" line without \"message.content\"")?;
        if bool_field(line, "isCompactSummary") {
            return Ok(Payload::Summary(plain_text(content)));
        }
        if bool_field(line, "isMeta") {
            return Ok(Payload::Nothing);
        }
        if let Json::Array(blocks) = content {
            let ids = self.tool_results(number, line, blocks, builder);
            if !ids.is_empty() {
                return Ok(Payload::Results(ids));
            }
            if blocks.iter().any(|b| str_field(b, "type") == Some("image")) {
                builder.warn(
                    number,
                    WarningKind::LeftOut,
                    String::from("an image in a prompt is left out"),
                );
            }
        }
        let prompt = plain_text(content);
        Ok(classify_prompt(
            number,
            prompt,
            str_field(line, "permissionMode"),
            builder,
        ))
    }

    /// Stores the line's tool results; their ids.
    fn tool_results(
        &mut self,
        number: usize,
        line: &Json,
        blocks: &[Json],
        builder: &mut Builder,
    ) -> Vec<String> {
        let mut ids = Vec::new();
        for block in blocks
            .iter()
            .filter(|b| str_field(b, "type") == Some("tool_result"))
        {
            let Some(id) = str_field(block, "tool_use_id") else {
                builder.warn(
                    number,
                    WarningKind::BadLine,
                    String::from("a tool result without \"tool_use_id\"; left out"),
                );
                continue;
            };
            let knowledge = if ids.is_empty() {
                line.get("toolUseResult")
                    .map_or(Knowledge::None, knowledge_of)
            } else {
                Knowledge::None
            };
            let outcome = Outcome {
                line: number,
                content: block.get("content").map(plain_text).unwrap_or_default(),
                is_error: bool_field(block, "is_error"),
                knowledge,
            };
            // Past the budget the line's record is dropped too, so its results go with it.
            if self.kept_bytes <= MAX_INPUT_BYTES {
                self.kept_bytes += outcome.content.len();
                self.results.entry(id.into()).or_insert(outcome);
            }
            ids.push(String::from(id));
        }
        ids
    }

    /// Builds the scenario from the main thread.
    pub(super) fn finish(self, builder: &mut Builder) {
        if let Some((line, count)) = self.sidechain {
            builder.warn(
                line,
                WarningKind::Sidechain,
                format!("{count} subagent lines (isSidechain) are left out of the main thread"),
            );
        }
        let Some(chain) = self.main_chain() else {
            return;
        };
        self.warn_abandoned(&chain, builder);
        if let Some(line) = self.over_budget {
            builder.warn(
                line,
                WarningKind::OverLimit,
                format!(
                    "the log holds more than one scenario's {} MiB: content from here on is \
                     not kept",
                    MAX_INPUT_BYTES >> 20
                ),
            );
        }
        let responses = self.responses();
        let mut convert = Convert {
            nodes: &self.nodes,
            results: &self.results,
            responses: &responses,
            emitted: BTreeSet::new(),
            builder,
            mode: None,
            compact: None,
        };
        for &index in &chain {
            convert.node(&self.nodes[index]);
        }
        convert.flush();
    }

    /// Each response's lines, in file order, by `message.id`.
    fn responses(&self) -> BTreeMap<&str, Vec<usize>> {
        let mut responses: BTreeMap<&str, Vec<usize>> = BTreeMap::new();
        for (index, node) in self.nodes.iter().enumerate() {
            if let Payload::Answer(answer) = &node.payload {
                responses
                    .entry(answer.message_id.as_str())
                    .or_default()
                    .push(index);
            }
        }
        responses
    }

    /// The chain from the last record back to the root, root first.
    fn main_chain(&self) -> Option<Vec<usize>> {
        let mut index = self.nodes.len().checked_sub(1)?;
        let mut seen = BTreeSet::new();
        let mut chain = Vec::new();
        while seen.insert(index) {
            chain.push(index);
            let parent = self.nodes[index].parent.as_ref();
            match parent.and_then(|uuid| self.by_uuid.get(uuid)) {
                Some(&next) => index = next,
                None => break,
            }
        }
        chain.reverse();
        Some(chain)
    }

    /// Whether a record belongs to the main thread: on the chain, or a line of a response
    /// that is (a response's blocks may branch off one another).
    fn in_thread(
        &self,
        index: usize,
        on_chain: &BTreeSet<usize>,
        chain_responses: &BTreeSet<&str>,
    ) -> bool {
        on_chain.contains(&index)
            || matches!(&self.nodes[index].payload, Payload::Answer(answer) if chain_responses.contains(answer.message_id.as_str()))
    }

    /// Records off the chain that carry content: a branch the session left.
    fn warn_abandoned(&self, chain: &[usize], builder: &mut Builder) {
        let on_chain: BTreeSet<usize> = chain.iter().copied().collect();
        let chain_responses: BTreeSet<&str> = chain
            .iter()
            .filter_map(|&i| match &self.nodes[i].payload {
                Payload::Answer(answer) => Some(answer.message_id.as_str()),
                _ => None,
            })
            .collect();
        let answered: BTreeSet<&str> = self
            .nodes
            .iter()
            .filter_map(|node| match &node.payload {
                Payload::Answer(answer) if chain_responses.contains(answer.message_id.as_str()) => {
                    Some(answer)
                }
                _ => None,
            })
            .flat_map(|answer| answer.blocks.iter())
            .filter_map(|block| match block {
                Block::ToolUse { id, .. } => Some(id.as_str()),
                _ => None,
            })
            .collect();
        let mut first = None;
        let mut count = 0;
        for (index, node) in self.nodes.iter().enumerate() {
            let off = !self.in_thread(index, &on_chain, &chain_responses)
                && match &node.payload {
                    Payload::Nothing => false,
                    Payload::Results(ids) => !ids.iter().all(|id| answered.contains(id.as_str())),
                    _ => true,
                };
            if off {
                first.get_or_insert(node.line);
                count += 1;
            }
        }
        if let Some(line) = first {
            builder.warn(
                line,
                WarningKind::AbandonedBranch,
                format!(
                    "{count} lines on branches the session left (a rewind or an edited prompt) \
                     are left out; the main thread ends at the log's last record"
                ),
            );
        }
    }
}

/// Turns the main thread's records into steps, in order.
struct Convert<'a> {
    nodes: &'a [Node],
    results: &'a BTreeMap<String, Outcome>,
    /// Each response's lines; a response is pushed whole at its first line on the chain.
    responses: &'a BTreeMap<&'a str, Vec<usize>>,
    emitted: BTreeSet<String>,
    builder: &'a mut Builder,
    mode: Option<String>,
    compact: Option<PendingCompact>,
}

struct PendingCompact {
    trigger: String,
    summary: Option<String>,
    instructions: Option<String>,
    line: usize,
    at_ms: Option<u64>,
}

impl Convert<'_> {
    fn node(&mut self, node: &Node) {
        match &node.payload {
            Payload::Answer(answer) => self.answer_line(answer, node),
            Payload::Results(_) | Payload::Nothing => {}
            Payload::Prompt { text, mode } => {
                self.flush();
                self.prompt(text, mode.as_deref(), node);
            }
            Payload::Boundary { trigger } => {
                self.flush();
                self.compact = Some(PendingCompact {
                    trigger: trigger.clone(),
                    summary: None,
                    instructions: None,
                    line: node.line,
                    at_ms: node.at_ms,
                });
            }
            Payload::Summary(message) => self.summary(message, node.line),
            Payload::Command { name, args } => self.command(name, args, node.line),
            Payload::Dropped => self.flush(),
        }
    }

    /// The whole response a chain line belongs to, the first time one of its lines comes.
    fn answer_line(&mut self, answer: &Answer, node: &Node) {
        if !self.emitted.insert(answer.message_id.clone()) {
            return;
        }
        self.flush();
        let lines = self
            .responses
            .get(answer.message_id.as_str())
            .map_or(&[][..], Vec::as_slice);
        let mut blocks = Vec::new();
        let mut usage = None;
        for &index in lines {
            if let Payload::Answer(part) = &self.nodes[index].payload {
                blocks.extend(part.blocks.iter().map(Block::clone_block));
                if part.usage.is_some() {
                    usage.clone_from(&part.usage);
                }
            }
        }
        let first = lines.first().map_or(node, |&i| &self.nodes[i]);
        self.push_answer(blocks, usage, first.line, first.at_ms);
    }

    fn prompt(&mut self, prompt: &str, mode: Option<&str>, node: &Node) {
        self.builder.time(node.at_ms, node.line);
        if let Some(mode) = mode {
            if !PERMISSION_MODES.contains(&mode) {
                self.builder.warn(
                    node.line,
                    WarningKind::Unknown,
                    format!("unknown permission mode {mode:?}; the mode is left as it was"),
                );
            } else if self.mode.is_none() {
                self.builder.set_initial_mode(mode);
                self.mode = Some(mode.into());
            } else if self.mode.as_deref() != Some(mode) {
                self.builder.push(
                    object([("kind", text("setMode")), ("mode", text(mode))]),
                    node.line,
                );
                self.mode = Some(mode.into());
            }
        }
        self.builder.push(
            object([("kind", text("user")), ("prompt", text(prompt))]),
            node.line,
        );
    }

    fn summary(&mut self, message: &str, line: usize) {
        let summary = self.summary_text(message);
        match &mut self.compact {
            Some(pending) => pending.summary = Some(summary),
            None => self.builder.warn(
                line,
                WarningKind::Unknown,
                String::from(
                    "a compaction summary without a compaction boundary before it; left out",
                ),
            ),
        }
    }

    /// The model's summary inside the client's summary message: the text after its
    /// `Summary:` line, without the closing paragraphs that point to the transcript (whose
    /// path also tells the home and the transcript's place), wrapped in `<summary>` tags
    /// as the model wrote it, so the engine's hand-off shows it as the client did.
    fn summary_text(&mut self, message: &str) -> String {
        let Some(start) = message.find("Summary:\n") else {
            return message.into();
        };
        let mut body = &message[start + "Summary:\n".len()..];
        if let Some(path) = body
            .split_whitespace()
            .find(|w| w.starts_with('/') && w.ends_with(".jsonl"))
        {
            self.builder.set_transcript_path(path);
            if let Some(home) = path
                .split("/.claude/projects/")
                .next()
                .filter(|h| *h != path)
            {
                self.builder.set_home(home);
            }
            if let Some(at) = body.find(path) {
                body = &body[..body[..at].rfind("\n\n").unwrap_or(at)];
            }
        }
        format!("<summary>{}</summary>", body.trim())
    }

    fn command(&mut self, name: &str, args: &str, line: usize) {
        if name == "/compact" {
            if let Some(pending) = &mut self.compact {
                if !args.is_empty() {
                    pending.instructions = Some(args.into());
                }
            }
            return;
        }
        self.builder.warn(
            line,
            WarningKind::LeftOut,
            format!(
                "the slash command {name} is left out (the scenario format has no step for it)"
            ),
        );
    }

    /// Pushes the compaction being gathered.
    fn flush(&mut self) {
        if let Some(pending) = self.compact.take() {
            self.builder.time(pending.at_ms, pending.line);
            let mut step = Vec::from([
                ("kind", text("compact")),
                (
                    "trigger",
                    text(if pending.trigger == "auto" {
                        "auto"
                    } else {
                        "manual"
                    }),
                ),
            ]);
            if let Some(instructions) = &pending.instructions {
                step.push(("instructions", text(instructions)));
            }
            if let Some(summary) = &pending.summary {
                step.push(("summary", text(summary)));
            }
            self.builder.push(object(step), pending.line);
        }
    }

    fn push_answer(
        &mut self,
        blocks: Vec<Block>,
        usage: Option<RecordedUsage>,
        line: usize,
        at_ms: Option<u64>,
    ) {
        self.builder.time(at_ms, line);
        for block in &blocks {
            if let Block::ToolUse { id, name, .. } = block {
                self.learn_before(id, name);
            }
        }
        let step_blocks: Vec<Json> = blocks.iter().map(|block| self.block(block)).collect();
        if step_blocks.is_empty() {
            return;
        }
        let step = self.builder.push(
            object([
                ("kind", text("assistant")),
                ("blocks", Json::Array(step_blocks)),
            ]),
            line,
        );
        if let Some(mut usage) = usage {
            usage.step = step;
            self.builder.record(usage);
        }
        for block in &blocks {
            if let Block::ToolUse { id, name, input } = block {
                self.learn_after(id, name, input);
            }
        }
    }

    fn block(&self, block: &Block) -> Json {
        match block {
            Block::Text(value) => object([("type", text("text")), ("text", text(value))]),
            Block::Thinking(value) => {
                object([("type", text("thinking")), ("thinking", text(value))])
            }
            Block::ToolUse { id, name, input } => {
                let mut fields = Vec::from([
                    ("type", text("tool_use")),
                    ("id", text(id)),
                    ("name", text(name)),
                    ("input", input.clone()),
                ]);
                let outcome = self.results.get(id);
                if name == "ExitPlanMode" {
                    if let Some(outcome) = outcome {
                        fields.push((
                            "approval",
                            object([("approved", Json::Bool(!outcome.is_error))]),
                        ));
                    }
                } else if !ENGINE_TOOLS.contains(&name.as_str()) {
                    if let Some(outcome) = outcome {
                        let output = match &outcome.knowledge {
                            Knowledge::Shell { output } => output,
                            _ => &outcome.content,
                        };
                        fields.push(("output", text(output)));
                    }
                }
                object(fields)
            }
        }
    }

    /// What a call's result showed of the workspace before the call ran.
    fn learn_before(&mut self, id: &str, name: &str) {
        let Some(outcome) = self.results.get(id) else {
            return;
        };
        let line = outcome.line;
        match &outcome.knowledge {
            Knowledge::Read {
                path,
                content,
                start,
                lines,
                total,
            } => {
                if *start <= 1 && total.is_none_or(|total| *lines >= total) {
                    self.builder.saw_file(path, content, line);
                } else {
                    self.builder.saw_part(path, content, *start, *total, line);
                }
            }
            Knowledge::Changed {
                path,
                original: Some(original),
            } if name == "Edit" || name == "Write" => {
                self.builder.saw_file(path, original, line);
            }
            _ => {}
        }
    }

    /// What the agent's own change left in the workspace, for later comparisons.
    fn learn_after(&mut self, id: &str, name: &str, input: &Json) {
        let Some(path) = str_field(input, "file_path") else {
            return;
        };
        if path.contains("/.claude/plans/") {
            self.builder.set_plan_file(path);
            if let Some(home) = path.split("/.claude/plans/").next() {
                self.builder.set_home(home);
            }
        }
        if self.results.get(id).is_none_or(|outcome| outcome.is_error) {
            return;
        }
        let after = match name {
            "Write" => str_field(input, "content").map(String::from),
            "Edit" => self
                .builder
                .current(path)
                .and_then(|before| edited(before, input)),
            _ => None,
        };
        if let Some(after) = after {
            self.builder.agent_wrote(path, after);
        }
    }
}

/// `before` with the Edit call's replacement made.
fn edited(before: &str, input: &Json) -> Option<String> {
    let old = str_field(input, "old_string")?;
    let new = str_field(input, "new_string")?;
    if old.is_empty() || !before.contains(old) {
        return None;
    }
    Some(if bool_field(input, "replace_all") {
        before.replace(old, new)
    } else {
        before.replacen(old, new, 1)
    })
}

impl Block {
    fn clone_block(&self) -> Block {
        match self {
            Block::Text(value) => Block::Text(value.clone()),
            Block::Thinking(value) => Block::Thinking(value.clone()),
            Block::ToolUse { id, name, input } => Block::ToolUse {
                id: id.clone(),
                name: name.clone(),
                input: input.clone(),
            },
        }
    }
}

/// A user line's text: a string, or its text blocks joined.
fn plain_text(content: &Json) -> String {
    match content {
        Json::String(value) => value.clone(),
        Json::Array(blocks) => {
            let texts: Vec<&str> = blocks.iter().filter_map(|b| str_field(b, "text")).collect();
            texts.join("\n")
        }
        _ => String::new(),
    }
}

/// A typed prompt, a slash command's record, or a line the client wrote around one.
fn classify_prompt(
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
        return Payload::Nothing;
    }
    Payload::Prompt {
        text: prompt,
        mode: mode.map(String::from),
    }
}

/// The text between `<name>` and `</name>`.
fn tag<'a>(text: &'a str, name: &str) -> Option<&'a str> {
    let open = format!("<{name}>");
    let close = format!("</{name}>");
    let start = text.find(&open)? + open.len();
    let end = text[start..].find(&close)? + start;
    Some(&text[start..end])
}

fn assistant_record(number: usize, line: &Json, builder: &mut Builder) -> Result<Payload, String> {
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
    Ok(Payload::Answer(Answer {
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
    }))
}

fn system_record(line: &Json) -> Payload {
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
fn knowledge_of(result: &Json) -> Knowledge {
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

fn payload_size(payload: &Payload) -> usize {
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
        _ => 0,
    }
}
