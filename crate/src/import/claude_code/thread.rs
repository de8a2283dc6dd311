//! The main thread's records turned into steps, in order: a response whole at its first
//! line, what its calls' results showed of the workspace learnt before it (a file changed
//! behind the agent's back becomes a `writeFile` step), the agent's own changes after it.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::builder::{bool_field, number, object, str_field, text, Builder, CallId};
use super::super::{InjectedItem, RecordedUsage, WarningKind};
use super::outside_edit::{rebuild, Rebuilt};
use super::records::{Answer, Block, Knowledge, Node, Outcome, Payload};
use crate::scenario::parse::{Json, MAX_WHOLE};

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
    results: &'a BTreeMap<String, Vec<Outcome>>,
    /// The results given to a call: the call id and the result's place among the id's.
    taken: BTreeSet<(&'a str, usize)>,
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
        results: &'a BTreeMap<String, Vec<Outcome>>,
        responses: &'a BTreeMap<&'a str, Vec<usize>>,
        builder: &'a mut Builder,
    ) -> Convert<'a> {
        Convert {
            nodes,
            results,
            taken: BTreeSet::new(),
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
            Payload::OutsideEdit {
                path,
                snippet,
                length,
                modified_ms,
            } => self.outside_edit(path, snippet, (*length, *modified_ms), node.line),
            Payload::Mentioned(knowledge) => self.mentioned(knowledge, node.line),
        }
    }

    /// A file the client read for a mention: the workspace starts with what it showed, and
    /// a file shown whole with other content than the session left there was changed outside
    /// the agent before the prompt.
    fn mentioned(&mut self, knowledge: &Knowledge, line: usize) {
        let Knowledge::Read {
            path,
            content,
            start,
            lines,
            total,
        } = knowledge
        else {
            return;
        };
        let whole = *start <= 1 && total.is_none_or(|total| *lines >= total);
        match self.builder.current(path) {
            None if whole => self.builder.saw_file(path, content, line),
            None => self.builder.saw_part(path, content, *start, *total, line),
            Some(known) if whole && known != content => {
                self.builder
                    .changed_outside(path, content.clone(), None, line);
            }
            Some(_) => {}
        }
    }

    /// A change note the client logged: the file as the note shows it now, changed just
    /// before the prompt that noticed it.
    fn outside_edit(
        &mut self,
        path: &str,
        snippet: &str,
        (length, modified_ms): (Option<u64>, Option<u64>),
        line: usize,
    ) {
        let Some(old) = self.builder.current(path) else {
            self.builder.warn(
                line,
                WarningKind::LeftOut,
                format!(
                    "{path}: a change note on a file the log never showed; the change is left out"
                ),
            );
            return;
        };
        match rebuild(old, snippet, length) {
            Some(Rebuilt::Exact(content)) => {
                self.builder
                    .changed_outside(path, content, modified_ms, line);
            }
            Some(Rebuilt::Approximate(content)) => {
                self.builder.warn(
                    line,
                    WarningKind::PartialFile,
                    format!(
                        "{path}: no reading of the change note's lines gives the length the client \
                         recorded; the scenario takes the likeliest (the old file around them)"
                    ),
                );
                self.builder
                    .changed_outside(path, content, modified_ms, line);
            }
            None => self.builder.warn(
                line,
                WarningKind::LeftOut,
                format!(
                    "{path}: the change note's snippet is not numbered lines that fit the file \
                     as the log showed it; the change is left out"
                ),
            ),
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
                blocks.extend(part.blocks.iter().map(|block| (block.clone(), index)));
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
                if self.builder.usable_summary(summary, pending.line) {
                    step.push(("summary", text(summary)));
                }
            }
            self.builder.push(object(step), pending.line);
        }
    }

    fn push_answer(
        &mut self,
        blocks: Vec<(Block, usize)>,
        usage: Option<RecordedUsage>,
        line: usize,
        at_ms: Option<u64>,
    ) {
        self.builder.time(at_ms, line);
        let mut parts = Vec::new();
        for (block, index) in blocks {
            let part = match block {
                Block::Text(value) => Part::Text(value),
                Block::Thinking(value) => Part::Thinking(value),
                Block::ToolUse {
                    id,
                    name,
                    mut input,
                } => {
                    let call_line = self.nodes[index].line;
                    let step_id = match self.builder.tool_call(call_line, &id, &name, &mut input) {
                        CallId::Repeat => continue,
                        CallId::Kept => id.clone(),
                        CallId::Renamed(renamed) => renamed,
                    };
                    let outcome = self.outcome(&id, index);
                    Part::Call(Call {
                        step_id,
                        name,
                        input,
                        outcome,
                        line: call_line,
                    })
                }
            };
            parts.push(part);
        }
        for part in &parts {
            if let Part::Call(call) = part {
                self.learn_before(call);
            }
        }
        let step_blocks: Vec<Json> = parts.iter().map(|part| self.block(part)).collect();
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
            match usage_object(usage) {
                Some(object) => fields.push(("usage", object)),
                None => self.builder.warn(
                    usage.line,
                    WarningKind::BadLine,
                    String::from(
                        "the usage recorded is past the largest whole number JSON holds \
                         exactly: the step replays without it",
                    ),
                ),
            }
        }
        let step = self.builder.push(object(fields), line);
        if let Some(mut usage) = usage {
            usage.step = step;
            let injected = core::mem::take(&mut self.injected);
            usage.injected = self.shows_injections.then_some(injected);
            self.builder.record(usage);
        }
        let replayed = step.map_or_else(Vec::new, |step| self.builder.call_ids(step));
        for part in &parts {
            if let Part::Call(call) = part {
                if replayed.contains(&call.step_id) {
                    self.learn_after(call);
                }
            }
        }
    }

    /// The result that answers the call `id` made on node `index`: the one written as that
    /// node's child, else the first not given to another call.
    fn outcome(&mut self, id: &str, index: usize) -> Option<&'a Outcome> {
        let (id, all) = self.results.get_key_value(id)?;
        let key = self.nodes[index].key;
        let free = |place: &usize| !self.taken.contains(&(id.as_str(), *place));
        let place = (0..all.len())
            .filter(free)
            .find(|&place| all[place].call == Some(key))
            .or_else(|| (0..all.len()).find(free))?;
        self.taken.insert((id.as_str(), place));
        all.get(place)
    }

    /// Ends the conversion: the compaction being gathered, and a warning for each result
    /// left over where another result for the same call was used.
    pub(super) fn finish(mut self) {
        self.flush();
        for (id, all) in self.results {
            let used: Vec<usize> = (0..all.len())
                .filter(|&place| self.taken.contains(&(id.as_str(), place)))
                .collect();
            let Some(&first) = used.first() else { continue };
            for (place, outcome) in all.iter().enumerate() {
                if !used.contains(&place) {
                    self.builder.warn(
                        outcome.line,
                        WarningKind::DuplicateId,
                        format!(
                            "a second result for tool call {id:?}: the one on line {} answers \
                             the call and is kept, this one is left out",
                            all[first].line
                        ),
                    );
                }
            }
        }
    }

    fn block(&mut self, part: &Part<'a>) -> Json {
        let call = match part {
            Part::Text(value) => return object([("type", text("text")), ("text", text(value))]),
            Part::Thinking(value) => {
                return object([("type", text("thinking")), ("thinking", text(value))])
            }
            Part::Call(call) => call,
        };
        let mut fields = Vec::from([
            ("type", text("tool_use")),
            ("id", text(&call.step_id)),
            ("name", text(&call.name)),
            ("input", call.input.clone()),
        ]);
        let outcome = call.outcome;
        if call.name == "ExitPlanMode" {
            match outcome {
                Some(outcome) => fields.push(("approval", approval(outcome))),
                None => {
                    self.builder.warn(
                        call.line,
                        WarningKind::NoResult,
                        format!(
                            "the log holds no answer to the plan of tool call {:?} \
                             (ExitPlanMode): it replays as rejected",
                            call.step_id
                        ),
                    );
                    fields.push(("approval", object([("approved", Json::Bool(false))])));
                }
            }
        } else if !ENGINE_TOOLS.contains(&call.name.as_str()) {
            let output = match outcome.map(|outcome| &outcome.knowledge) {
                Some(Knowledge::Shell { output }) => text(output),
                Some(_) => text(outcome.map_or("", |outcome| outcome.content.as_str())),
                None => {
                    self.builder.warn(
                        call.line,
                        WarningKind::NoResult,
                        format!(
                            "the log holds no result for tool call {:?} ({}): it replays with \
                             an empty output",
                            call.step_id, call.name
                        ),
                    );
                    text("")
                }
            };
            fields.push(("output", output));
        }
        object(fields)
    }

    /// What a call's result showed of the workspace before the call ran.
    fn learn_before(&mut self, call: &Call<'a>) {
        let Some(outcome) = call.outcome else {
            return;
        };
        let name = call.name.as_str();
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
    fn learn_after(&mut self, call: &Call<'a>) {
        let (name, input) = (call.name.as_str(), &call.input);
        let Some(path) = str_field(input, "file_path") else {
            return;
        };
        if path.contains("/.claude/plans/") {
            self.builder.set_plan_file(path);
            if let Some(home) = path.split("/.claude/plans/").next() {
                self.builder.set_home(home);
            }
        }
        if call.outcome.is_none_or(|outcome| outcome.is_error) {
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

/// An `assistant` step's `usage`: the four counts of the provider's `message.usage`;
/// `None` when one is past what the format's whole numbers hold.
fn usage_object(usage: &RecordedUsage) -> Option<Json> {
    let counts = [
        ("inputTokens", usage.input_tokens),
        ("cacheCreationTokens", usage.cache_creation_tokens),
        ("cacheReadTokens", usage.cache_read_tokens),
        ("outputTokens", usage.output_tokens),
    ];
    let max = MAX_WHOLE.unsigned_abs();
    counts
        .iter()
        .all(|(_, count)| *count <= max)
        .then(|| object(counts.map(|(name, count)| (name, number(count)))))
}

/// A block of a response as the step will hold it.
enum Part<'a> {
    Text(String),
    Thinking(String),
    Call(Call<'a>),
}

/// A tool call with the id its step gives it and the result that answers it.
struct Call<'a> {
    step_id: String,
    name: String,
    input: Json,
    outcome: Option<&'a Outcome>,
    /// The log line that made the call.
    line: usize,
}
