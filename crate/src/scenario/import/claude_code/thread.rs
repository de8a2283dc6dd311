//! The main thread's records turned into steps, in order: a response whole at its first
//! line, what its calls' results showed of the workspace learnt before it (a file changed
//! behind the agent's back becomes a `writeFile` step), the agent's own changes after it.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::super::parse::Json;
use super::super::builder::{bool_field, number, object, str_field, text, Builder};
use super::super::{InjectedItem, RecordedUsage, WarningKind};
use super::records::{Answer, Block, Knowledge, Node, Outcome, Payload};

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
/// Turns the main thread's records into steps, in order.
pub(super) struct Convert<'a> {
    nodes: &'a [Node],
    results: &'a BTreeMap<String, Outcome>,
    /// Each response's lines; a response is pushed whole at its first line on the chain.
    responses: &'a BTreeMap<&'a str, Vec<usize>>,
    emitted: BTreeSet<String>,
    builder: &'a mut Builder,
    mode: Option<String>,
    compact: Option<PendingCompact>,
    /// Whether the log records injected items at all (else a request's list is unknown).
    shows_injections: bool,
    /// Items injected since the latest request.
    injected: Vec<InjectedItem>,
}

struct PendingCompact {
    trigger: String,
    summary: Option<String>,
    instructions: Option<String>,
    line: usize,
    at_ms: Option<u64>,
}

impl<'a> Convert<'a> {
    /// A conversion into `builder`.
    pub(super) fn new(
        nodes: &'a [Node],
        results: &'a BTreeMap<String, Outcome>,
        responses: &'a BTreeMap<&'a str, Vec<usize>>,
        builder: &'a mut Builder,
    ) -> Convert<'a> {
        Convert {
            nodes,
            results,
            responses,
            emitted: BTreeSet::new(),
            builder,
            mode: None,
            compact: None,
            shows_injections: false,
            injected: Vec::new(),
        }
    }

    /// Says whether the log records injected items at all.
    pub(super) fn shows_injections(&mut self, shows: bool) {
        self.shows_injections = shows;
    }

    /// One record of the main thread.
    pub(super) fn node(&mut self, node: &Node) {
        self.injected.extend(node.injected.iter().cloned());
        match &node.payload {
            Payload::Answer(answer) => self.answer_line(answer, node),
            Payload::Results(_) | Payload::Nothing | Payload::Interrupted => {}
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
                blocks.extend(part.blocks.iter().cloned());
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
    pub(super) fn flush(&mut self) {
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
        let mut fields = Vec::from([
            ("kind", text("assistant")),
            ("blocks", Json::Array(step_blocks)),
        ]);
        if let Some(usage) = &usage {
            // The step carries what the provider reported, which Claude Code's thresholds
            // read (§6.3).
            fields.push(("usage", usage_object(usage)));
        }
        let step = self.builder.push(object(fields), line);
        if let Some(mut usage) = usage {
            usage.step = step;
            let injected = core::mem::take(&mut self.injected);
            usage.injected = self.shows_injections.then_some(injected);
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
                        fields.push(("approval", approval(outcome)));
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

/// The user's answer to a plan: approved unless the result is an error; a rejection that
/// did not stop the turn carries the user's words, which the result holds.
fn approval(outcome: &Outcome) -> Json {
    let mut fields = Vec::from([("approved", Json::Bool(!outcome.is_error))]);
    if outcome.is_error && !outcome.interrupted && !outcome.content.is_empty() {
        fields.push(("feedback", text(&outcome.content)));
    }
    object(fields)
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

/// An `assistant` step's `usage`: the four counts of the provider's `message.usage`.
fn usage_object(usage: &RecordedUsage) -> Json {
    object([
        ("inputTokens", number(usage.input_tokens)),
        ("cacheCreationTokens", number(usage.cache_creation_tokens)),
        ("cacheReadTokens", number(usage.cache_read_tokens)),
        ("outputTokens", number(usage.output_tokens)),
    ])
}
