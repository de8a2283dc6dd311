//! Codex's rollout: `{ timestamp, type, payload }` lines, in the order things happened, so
//! the scenario is built as the lines come and nothing is held but the response being
//! gathered.
//!
//! The prompt is the `user_message` event, or a `user` response item that is neither a
//! tagged context message nor the AGENTS.md text: 0.139.0 records both, one after the
//! other, 0.171.0 only the item, so a second record of the prompt before any answer is the
//! same prompt. A response is the `response_item`s between two
//! `token_count` events, its calls' outputs attached by `call_id`; `turn_context` becomes
//! a `turnSettings` step with what changed (with the new model's instructions from the
//! `<model_switch>` message and the developer instructions from the developer message the
//! client records before it); `compacted` becomes a compaction whose summary is the answer
//! to the summary request just before it (that answer is not a turn of the conversation):
//! in the middle of a turn, right after a response's calls, the `compactBeforeToolRound` of
//! that response's step (the client compacts before the request that sends the outputs);
//! otherwise a `compact` step. The scenario replays under the preset of the release that
//! wrote the log ([`profile_for`]).

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::builder::{bool_field, object, str_field, text, u64_field, Builder, CallId};
use super::time::parse_timestamp;
use super::{InjectedItem, RecordedUsage, WarningKind};
use crate::codex::agents_md::PROJECT_DOC_SEPARATOR;
use crate::profile::ProfileName;
use crate::scenario::parse::{parse_json, Json};
use crate::scenario::MAX_STRING_BYTES;

/// Line types that carry nothing a scenario replays: 0.171.0's `world_state` restates what
/// the context messages beside it send, and its `token_usage_record` the usage its
/// `token_count` events report.
const IGNORED_TYPES: &[&str] = &["session_state", "world_state", "token_usage_record"];

/// The engine's Codex settings before any `turnSettings` step (`TurnSettings::default`),
/// under the step's field names; a turn context that differs sets the field.
const DEFAULT_SETTINGS: &[(&str, &str)] = &[
    ("model", "gpt-5.3-codex"),
    ("approvalPolicy", "on-request"),
    ("sandboxMode", "workspace-write"),
    ("networkAccess", "false"),
    ("personality", "pragmatic"),
    ("developerInstructions", ""),
    ("timezone", "Etc/UTC"),
];

const APPROVAL_POLICIES: &[(&str, &str)] = &[
    ("never", "never"),
    ("on-request", "on-request"),
    ("on-failure", "on-failure"),
    ("unless-trusted", "unless-trusted"),
    ("untrusted", "unless-trusted"),
];

/// Codex reports the window it uses, 95% of the model's (codex.md §4.1).
const EFFECTIVE_WINDOW_PERCENT: u64 = 95;

/// The reader's state.
#[derive(Debug, Default)]
pub(super) struct CodexReader {
    settings: BTreeMap<&'static str, String>,
    /// The response being gathered, and whether its `token_count` came (it is complete).
    answer: Option<Gathered>,
    /// Calls already pushed whose output may still come: call id → (step, block, line).
    open_calls: BTreeMap<String, (usize, usize, usize)>,
    /// The line of each call's output, by the call's id in the log.
    answered: BTreeMap<String, usize>,
    in_turn_after_prompt: bool,
    /// The prompt pushed since the last answer began: the other record of it (the
    /// `user_message` event beside the response item) is not a new prompt.
    unanswered_prompt: Option<String>,
    last_total: Option<u64>,
    reasoning_seen: bool,
    /// The new model's instructions from the `<model_switch>` message the client records
    /// before the turn context that changes the model.
    model_instructions: Option<String>,
    /// Developer instructions the client sent in a developer message (an untagged part):
    /// the turn context does not carry them.
    developer_instructions: Option<String>,
    /// The context messages sent since the latest request (tagged user and developer parts).
    injected: Vec<InjectedItem>,
}

/// Where a call waits for its output: a block of the response being gathered, or a step's
/// block.
enum Waiting {
    Gathered(usize),
    Pushed(usize, usize),
}

#[derive(Debug)]
struct Gathered {
    blocks: Vec<Json>,
    /// The line of each block.
    lines: Vec<usize>,
    line: usize,
    at_ms: Option<u64>,
    usage: Option<RecordedUsage>,
}

impl CodexReader {
    /// Reads one line; `Err` says why it cannot be used.
    pub(super) fn read(
        &mut self,
        number: usize,
        line: &Json,
        builder: &mut Builder,
    ) -> Result<(), String> {
        let kind = str_field(line, "type").ok_or("a line without a \"type\" string")?;
        let payload = line.get("payload").ok_or("a line without \"payload\"")?;
        let at_ms = str_field(line, "timestamp").and_then(parse_timestamp);
        match kind {
            "session_meta" => {
                if let Some(cwd) = str_field(payload, "cwd") {
                    builder.set_cwd(cwd);
                }
                if let Some(version) = str_field(payload, "cli_version") {
                    builder.set_client_version(version);
                }
            }
            "turn_context" => self.turn_context(number, payload, at_ms, builder),
            "response_item" => self.response_item(number, payload, at_ms, builder),
            "event_msg" => self.event(number, payload, at_ms, builder),
            "compacted" => self.compacted(number, payload, at_ms, builder),
            _ if IGNORED_TYPES.contains(&kind) => {}
            other => builder.warn(
                number,
                WarningKind::Unknown,
                format!("unknown line type {other:?}; left out"),
            ),
        }
        Ok(())
    }

    /// Pushes the response still being gathered.
    pub(super) fn finish(mut self, builder: &mut Builder) {
        self.push_answer(builder);
        if self.reasoning_seen {
            builder.note(String::from(
                "The model's reasoning items are encrypted in the log and left out.",
            ));
        }
    }

    fn turn_context(
        &mut self,
        number: usize,
        payload: &Json,
        at_ms: Option<u64>,
        builder: &mut Builder,
    ) {
        self.push_answer(builder);
        if let Some(cwd) = str_field(payload, "cwd") {
            builder.set_cwd(cwd);
        }
        let mut settings = settings_of(number, payload, builder);
        if let Some(developer) = self.developer_instructions.take() {
            settings.retain(|(field, _)| *field != "developerInstructions");
            settings.push(("developerInstructions", developer));
        }
        let mut changes = Vec::new();
        for (field, value) in settings {
            let before = self
                .settings
                .get(field)
                .map(String::as_str)
                .or_else(|| default_setting(field));
            if before != Some(value.as_str()) {
                changes.push((field, setting_json(field, &value)));
                self.settings.insert(field, value);
            }
        }
        let instructions = self.model_instructions.take();
        if let Some(instructions) =
            instructions.filter(|_| changes.iter().any(|(f, _)| *f == "model"))
        {
            changes.push(("modelInstructions", text(&instructions)));
        }
        if !changes.is_empty() {
            builder.time(at_ms, number);
            let mut step = Vec::from([("kind", text("turnSettings"))]);
            step.extend(changes);
            builder.push(object(step), number);
        }
    }

    fn response_item(
        &mut self,
        number: usize,
        item: &Json,
        at_ms: Option<u64>,
        builder: &mut Builder,
    ) {
        match str_field(item, "type") {
            Some("message") => match str_field(item, "role") {
                Some("assistant") => {
                    let said = content_text(item, "output_text");
                    self.add_block(
                        object([("type", text("text")), ("text", text(&said))]),
                        number,
                        at_ms,
                        builder,
                    );
                }
                Some("user") => {
                    let said = content_text(item, "input_text");
                    match leading_tag(&said) {
                        Some(tag) => self.injected.push(InjectedItem::from_text(tag, &said)),
                        None if said.starts_with(AGENTS_MD_HEADING) => {
                            learn_agents_md(&said, builder)
                        }
                        None => self.prompt(number, &said, at_ms, builder),
                    }
                }
                Some("developer") => self.developer_message(item),
                _ => {}
            },
            Some("function_call") | Some("custom_tool_call") => {
                self.call(number, item, at_ms, builder)
            }
            Some("function_call_output") | Some("custom_tool_call_output") => {
                self.output(number, item, builder)
            }
            Some("reasoning") => self.reasoning_seen = true,
            Some(other) => builder.warn(
                number,
                WarningKind::Unknown,
                format!("unknown response item {other:?}; left out"),
            ),
            None => builder.warn(
                number,
                WarningKind::BadLine,
                String::from("a response item without \"type\"; left out"),
            ),
        }
    }

    /// The client's developer message: its tagged blocks are the client's own context,
    /// except a `<model_switch>`, whose instructions the next model change carries; an
    /// untagged part is the developer instructions.
    fn developer_message(&mut self, item: &Json) {
        let Some(Json::Array(parts)) = item.get("content") else {
            return;
        };
        for part in parts.iter().filter_map(|p| str_field(p, "text")) {
            let kind = leading_tag(part).unwrap_or("developer_instructions");
            self.injected.push(InjectedItem::from_text(kind, part));
            if let Some(instructions) = model_switch(part) {
                self.model_instructions = Some(instructions);
            } else if !part.starts_with('<') {
                self.developer_instructions = Some(String::from(part));
            }
        }
    }

    fn call(&mut self, number: usize, item: &Json, at_ms: Option<u64>, builder: &mut Builder) {
        let (Some(id), Some(name)) = (str_field(item, "call_id"), str_field(item, "name")) else {
            builder.warn(
                number,
                WarningKind::BadLine,
                String::from("a function call without call_id or name; left out"),
            );
            return;
        };
        let raw = str_field(item, "arguments")
            .or_else(|| str_field(item, "input"))
            .unwrap_or("{}");
        let mut input = match parse_json(raw) {
            Ok(input @ Json::Object(_)) => input,
            _ => object([("input", text(raw))]),
        };
        let id = match builder.tool_call(number, id, name, &mut input) {
            CallId::Repeat => return,
            CallId::Kept => String::from(id),
            CallId::Renamed(renamed) => renamed,
        };
        let block = object([
            ("type", text("tool_use")),
            ("id", text(&id)),
            ("name", text(name)),
            ("input", input),
        ]);
        self.add_block(block, number, at_ms, builder);
    }

    /// A call's output: on the block of the response still gathered, or of one already
    /// pushed.
    fn output(&mut self, number: usize, item: &Json, builder: &mut Builder) {
        let Some(id) = str_field(item, "call_id") else {
            builder.warn(
                number,
                WarningKind::BadLine,
                String::from("a call output without call_id; left out"),
            );
            return;
        };
        let output = match exec_output(&output_text(item.get("output"))) {
            ExecOutput::Whole(output) => output,
            ExecOutput::Cut { output, lines } => {
                builder.warn(
                    number,
                    WarningKind::LeftOut,
                    format!(
                        "the output of call {id:?} ({lines} lines) was cut by the client before \
                         it was recorded: the scenario keeps its head and tail, with blank lines \
                         standing for the middle, so the engine cuts it the same way"
                    ),
                );
                output
            }
        };
        let output = builder.output(output, number);
        // The call under its own id, or a later call that reused it (renamed).
        let ids: Vec<String> = core::iter::once(String::from(id))
            .chain(builder.renamed_ids(id).iter().cloned())
            .collect();
        let block = match ids.iter().find_map(|call| self.waiting(call)) {
            Some(Waiting::Gathered(block)) => self
                .answer
                .as_mut()
                .and_then(|gathered| gathered.blocks.get_mut(block)),
            Some(Waiting::Pushed(step, block)) => builder.step_block(step, block),
            None => {
                let (kind, reason) = match self.answered.get(id) {
                    Some(first) => (
                        WarningKind::DuplicateId,
                        format!(
                            "a second output for call {id:?}: the first, on line {first}, is \
                             kept; this one is left out"
                        ),
                    ),
                    None => (
                        WarningKind::BadLine,
                        format!(
                            "an output for call {id:?}, which no call before it made; left out"
                        ),
                    ),
                };
                builder.warn(number, kind, reason);
                return;
            }
        };
        if let Some(block) = block {
            set_output(block, output);
        }
        // Past the format's limits nothing is kept, so no output needs telling apart.
        if builder.keeps_steps() {
            self.answered.entry(String::from(id)).or_insert(number);
        }
    }

    /// Where the call `id` waits for its output: in the response being gathered, or in a
    /// step already pushed (then it waits no more).
    fn waiting(&mut self, id: &str) -> Option<Waiting> {
        let gathered = self.answer.as_ref().and_then(|gathered| {
            gathered.blocks.iter().position(|block| {
                str_field(block, "id") == Some(id) && block.get("output").is_none()
            })
        });
        match gathered {
            Some(block) => Some(Waiting::Gathered(block)),
            None => self
                .open_calls
                .remove(id)
                .map(|(step, block, _)| Waiting::Pushed(step, block)),
        }
    }

    /// The calls pushed before whose outputs never came get an empty one (but a patch, which
    /// the engine applies): the engine replays the next response only once every call has
    /// its result.
    fn close_open_calls(&mut self, builder: &mut Builder) {
        for (id, (step, block, line)) in core::mem::take(&mut self.open_calls) {
            let Some(block) = builder.step_block(step, block) else {
                continue;
            };
            // A patch without its output is one the engine applies itself.
            if str_field(block, "name") == Some("apply_patch") {
                continue;
            }
            set_output(block, text(""));
            builder.warn(
                line,
                WarningKind::NoResult,
                format!("the log holds no output for call {id:?}: it replays with an empty one"),
            );
        }
    }

    fn event(&mut self, number: usize, payload: &Json, at_ms: Option<u64>, builder: &mut Builder) {
        match str_field(payload, "type") {
            Some("user_message") => {
                let prompt = str_field(payload, "message").unwrap_or_default();
                self.prompt(number, prompt, at_ms, builder);
            }
            Some("token_count") => self.token_count(number, payload, builder),
            Some("task_started") => {
                self.push_answer(builder);
                self.in_turn_after_prompt = false;
                self.unanswered_prompt = None;
                if let Some(window) = u64_field(payload, "model_context_window") {
                    builder
                        .set_context_window(window.saturating_mul(100) / EFFECTIVE_WINDOW_PERCENT);
                }
            }
            Some("task_complete") | Some("turn_aborted") => {
                self.push_answer(builder);
                self.in_turn_after_prompt = false;
                self.unanswered_prompt = None;
            }
            _ => {}
        }
    }

    /// A user prompt, from either of its records; the second record of a prompt not yet
    /// answered is skipped.
    fn prompt(&mut self, number: usize, prompt: &str, at_ms: Option<u64>, builder: &mut Builder) {
        if self.unanswered_prompt.take().as_deref() == Some(prompt) {
            return;
        }
        self.push_answer(builder);
        self.close_open_calls(builder);
        builder.time(at_ms, number);
        builder.push(
            object([("kind", text("user")), ("prompt", text(prompt))]),
            number,
        );
        self.in_turn_after_prompt = true;
        self.unanswered_prompt = Some(String::from(prompt));
    }

    /// One request's usage: the figures of the response gathered. A count that repeats the
    /// running total, or reports no input, is the client refreshing its estimate, not a
    /// request.
    fn token_count(&mut self, number: usize, payload: &Json, builder: &mut Builder) {
        let Some(info) = payload.get("info").filter(|i| !matches!(i, Json::Null)) else {
            return;
        };
        let total = info
            .get("total_token_usage")
            .and_then(|t| u64_field(t, "total_tokens"));
        let last = info.get("last_token_usage");
        let input = last.and_then(|l| u64_field(l, "input_tokens")).unwrap_or(0);
        if total.is_some() && total == self.last_total || input == 0 {
            return;
        }
        self.last_total = total;
        let cached = last
            .and_then(|l| u64_field(l, "cached_input_tokens"))
            .unwrap_or(0);
        let usage = RecordedUsage {
            line: number,
            input_tokens: input.saturating_sub(cached),
            cache_read_tokens: cached,
            output_tokens: last
                .and_then(|l| u64_field(l, "output_tokens"))
                .unwrap_or(0),
            session_total_tokens: total,
            context_window: u64_field(info, "model_context_window"),
            injected: Some(core::mem::take(&mut self.injected)),
            ..RecordedUsage::default()
        };
        match &mut self.answer {
            Some(gathered) if gathered.usage.is_none() => gathered.usage = Some(usage),
            _ => builder.record(usage),
        }
    }

    fn compacted(
        &mut self,
        number: usize,
        payload: &Json,
        at_ms: Option<u64>,
        builder: &mut Builder,
    ) {
        // A remote compaction's history holds the server's opaque compaction item, and no
        // summary request came before it (codex.md §4.6-4.7).
        let remote = matches!(payload.get("replacement_history"), Some(Json::Array(items))
        if items.iter().any(|item| {
            matches!(str_field(item, "type"), Some("compaction" | "context_compaction"))
        }));
        // Locally, the answer just before is the summary request's, when it is text alone.
        let summary_answer = match remote {
            true => None,
            false => self.answer.take_if(|g| {
                g.blocks
                    .iter()
                    .all(|b| str_field(b, "type") == Some("text"))
            }),
        };
        self.push_answer(builder);
        let summary = match &summary_answer {
            Some(gathered) => gathered
                .blocks
                .iter()
                .filter_map(|b| str_field(b, "text"))
                .collect::<Vec<_>>()
                .join("\n"),
            None => String::from(str_field(payload, "message").unwrap_or_default()),
        };
        let mid_turn = self.in_turn_after_prompt;
        let policy = if remote {
            "codex.remote"
        } else {
            "codex.local"
        };
        let mut compaction = Vec::from([("policy", text(policy)), ("trigger", text("auto"))]);
        if remote {
            builder.note(String::from(
                "The server's summaries of remote compactions are encrypted in the log: the \
                 engine's extractive summary stands in for them.",
            ));
        } else if builder.usable_summary(&summary, number) {
            compaction.push(("summary", text(&summary)));
        }
        compaction.push(("params", object([("midTurn", Json::Bool(mid_turn))])));
        // In the middle of a turn the client compacts after the calls' outputs and before
        // the request that sends them: on the step of those calls, before its tool round.
        let placed = match mid_turn {
            true => builder.compact_before_tool_round(object(compaction.clone()), number),
            false => None,
        };
        let step = match placed {
            Some(step) => Some(step),
            None => {
                builder.time(at_ms, number);
                let mut step = Vec::from([("kind", text("compact"))]);
                step.extend(compaction);
                builder.push(object(step), number)
            }
        };
        if let Some(mut usage) = summary_answer.and_then(|g| g.usage) {
            usage.step = step;
            usage.summary = true;
            builder.record(usage);
        }
    }

    fn add_block(&mut self, block: Json, number: usize, at_ms: Option<u64>, builder: &mut Builder) {
        self.unanswered_prompt = None;
        if self.answer.as_ref().is_some_and(|g| g.usage.is_some()) {
            self.push_answer(builder);
        }
        let gathered = self.answer.get_or_insert_with(|| Gathered {
            blocks: Vec::new(),
            lines: Vec::new(),
            line: number,
            at_ms,
            usage: None,
        });
        gathered.blocks.push(block);
        gathered.lines.push(number);
    }

    fn push_answer(&mut self, builder: &mut Builder) {
        let Some(gathered) = self.answer.take() else {
            return;
        };
        self.close_open_calls(builder);
        builder.time(gathered.at_ms, gathered.line);
        let lines: BTreeMap<String, usize> = gathered
            .blocks
            .iter()
            .zip(&gathered.lines)
            .filter_map(|(block, line)| str_field(block, "id").map(|id| (String::from(id), *line)))
            .collect();
        let step = builder.push(
            object([
                ("kind", text("assistant")),
                ("blocks", Json::Array(gathered.blocks)),
            ]),
            gathered.line,
        );
        if let Some(step) = step {
            for (block, id) in builder.calls_without_output(step) {
                let line = lines.get(&id).copied().unwrap_or(gathered.line);
                self.open_calls.insert(id, (step, block, line));
            }
        }
        if let Some(mut usage) = gathered.usage {
            usage.step = step;
            builder.record(usage);
        }
    }
}

/// The first release with the layout the `codex` preset reproduces: the base instructions
/// as a developer message and the initial context before the last kept prompt after a
/// compaction, the last of the changes from 0.139.0 to arrive (docs/versions.md, "Codex CLI").
const CURRENT_LAYOUT_FROM: [u64; 3] = [0, 162, 0];

/// The preset that replays a log written by Codex `version`: `codex-0.139.0` for a release
/// before [`CURRENT_LAYOUT_FROM`], `codex` for a later one or when the log does not say.
pub(super) fn profile_for(version: Option<&str>) -> ProfileName {
    match version.and_then(super::release_numbers) {
        Some(release) if release < CURRENT_LAYOUT_FROM => ProfileName::Codex0139,
        _ => ProfileName::Codex,
    }
}

fn default_setting(field: &str) -> Option<&'static str> {
    DEFAULT_SETTINGS
        .iter()
        .find(|(f, _)| *f == field)
        .map(|(_, v)| *v)
}

/// A setting's value in the step: booleans as booleans, an empty developer text as `null`.
fn setting_json(field: &str, value: &str) -> Json {
    match (field, value) {
        ("networkAccess", v) => Json::Bool(v == "true"),
        ("developerInstructions", "") => Json::Null,
        _ => text(value),
    }
}

/// The settings a turn context states, under the `turnSettings` step's names.
fn settings_of(
    number: usize,
    payload: &Json,
    builder: &mut Builder,
) -> Vec<(&'static str, String)> {
    let mut settings = Vec::new();
    if let Some(model) = str_field(payload, "model").filter(|model| !model.is_empty()) {
        settings.push(("model", String::from(model)));
    }
    if let Some(policy) = str_field(payload, "approval_policy") {
        match APPROVAL_POLICIES.iter().find(|(name, _)| *name == policy) {
            Some((_, ours)) => settings.push(("approvalPolicy", String::from(*ours))),
            None => builder.warn(
                number,
                WarningKind::Unknown,
                format!("unknown approval policy {policy:?}; left as it was"),
            ),
        }
    }
    if let Some(sandbox) = payload.get("sandbox_policy") {
        match str_field(sandbox, "type") {
            Some(mode @ ("read-only" | "workspace-write" | "danger-full-access")) => {
                settings.push(("sandboxMode", String::from(mode)));
                if mode == "workspace-write" {
                    let network = bool_field(sandbox, "network_access");
                    settings.push((
                        "networkAccess",
                        String::from(if network { "true" } else { "false" }),
                    ));
                }
            }
            other => builder.warn(
                number,
                WarningKind::Unknown,
                format!(
                    "unknown sandbox policy {:?}; left as it was",
                    other.unwrap_or("(none)")
                ),
            ),
        }
    }
    if let Some(personality) = str_field(payload, "personality") {
        settings.push(("personality", String::from(personality)));
    }
    let developer = payload
        .get("collaboration_mode")
        .and_then(|mode| mode.get("settings"))
        .and_then(|settings| str_field(settings, "developer_instructions"));
    if let Some(developer) = developer {
        settings.push(("developerInstructions", String::from(developer)));
    }
    if let Some(zone) = str_field(payload, "timezone").filter(|zone| !zone.is_empty()) {
        settings.push(("timezone", String::from(zone)));
    }
    settings
}

/// A message's text parts of `kind`, joined.
/// The name of the tag a context message opens with (`<environment_context>` gives
/// `environment_context`); `None` for untagged text (a prompt).
fn leading_tag(text: &str) -> Option<&str> {
    let rest = text.trim_start().strip_prefix('<')?;
    let end = rest.find(|c: char| c == '>' || c.is_whitespace())?;
    let tag = &rest[..end];
    let named = !tag.is_empty()
        && tag
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    named.then_some(tag)
}

fn content_text(item: &Json, kind: &str) -> String {
    let Some(Json::Array(parts)) = item.get("content") else {
        return String::new();
    };
    let texts: Vec<&str> = parts
        .iter()
        .filter(|p| str_field(p, "type") == Some(kind))
        .filter_map(|p| str_field(p, "text"))
        .collect();
    texts.join("\n")
}

/// A call output's text: a string, or `{ content }`, or text parts.
fn output_text(output: Option<&Json>) -> String {
    match output {
        Some(Json::String(s)) => s.clone(),
        Some(Json::Array(parts)) => parts
            .iter()
            .filter_map(|p| str_field(p, "text"))
            .collect::<Vec<_>>()
            .join("\n"),
        Some(value) => str_field(value, "content")
            .map(String::from)
            .unwrap_or_default(),
        None => String::new(),
    }
}

/// A call output as the engine needs it.
enum ExecOutput {
    /// What the tool printed (for an exec output, without the client's header).
    Whole(String),
    /// The client cut the middle of a long exec output; `output` stands in for what the
    /// command printed, `lines` is its line count.
    Cut { output: String, lines: u64 },
}

/// What the command printed: unified exec puts a header (chunk id, wall time, exit code,
/// token count) before an `Output:` line; the engine adds its own, so the header goes. A
/// long output was cut already (0.171.0's warning line, `Total output lines: N`, a blank
/// line, head, marker, tail): see [`stand_in_for_cut`].
fn exec_output(output: &str) -> ExecOutput {
    let labelled = |line: &str| {
        line.split_once(": ")
            .is_some_and(|(label, _)| !label.is_empty())
    };
    let body = match output.find("\nOutput:\n") {
        Some(at) if output.lines().next().is_some_and(labelled) => {
            &output[at + "\nOutput:\n".len()..]
        }
        _ => return ExecOutput::Whole(String::from(output)),
    };
    let header = &output[..output.len() - body.len()];
    let token_count = header
        .lines()
        .find_map(|line| line.strip_prefix("Original token count: "))
        .and_then(|count| count.trim().parse::<u64>().ok());
    // 0.171.0 opens a cut output with a warning line, which the engine writes again under
    // its `truncation_warning` rule.
    let cut = (body.strip_prefix(TRUNCATION_WARNING))
        .and_then(|rest| rest.split_once('\n'))
        .map_or(body, |(_, rest)| rest);
    match token_count.and_then(|tokens| stand_in_for_cut(cut, tokens)) {
        Some((output, lines)) => ExecOutput::Cut { output, lines },
        None => ExecOutput::Whole(String::from(body)),
    }
}

/// How the warning line 0.171.0 puts before a cut output opens.
const TRUNCATION_WARNING: &str = "Warning: truncated output (";

/// The log keeps only the head and tail of an output the client cut (codex.md §3.3):
/// `Total output lines: N`, a blank line, then the head, the marker (`…K tokens truncated…`
/// or `…K chars truncated…`), the tail. The stand-in is the head, blank lines (spaces when
/// the original's lines were fewer than its bytes) as long as the part that was cut, and
/// the tail: the original's length (`original_tokens` × 4 bytes, or the head, tail and `K`
/// characters) and line count, so the engine's own cut keeps exactly the recorded head and
/// tail and writes the same counts. `None` when the text does not have that layout, or the
/// stand-in would pass the format's limit on a string.
fn stand_in_for_cut(body: &str, original_tokens: u64) -> Option<(String, u64)> {
    let rest = body.strip_prefix("Total output lines: ")?;
    let (lines, cut) = rest.split_once("\n\n")?;
    let lines: u64 = lines.parse().ok()?;
    let (head, unit, count, tail) = cut.match_indices('\u{2026}').find_map(|(at, _)| {
        let (head, marker) = cut.split_at(at);
        let marker = &marker['\u{2026}'.len_utf8()..];
        let (count, rest) = marker.split_once(' ')?;
        let (unit, tail) = rest.split_once(" truncated\u{2026}")?;
        Some((head, unit, count.parse::<u64>().ok()?, tail))
    })?;
    let kept = (head.len() + tail.len()) as u64;
    let middle = match unit {
        "tokens" => original_tokens.saturating_mul(4).saturating_sub(kept),
        "chars" => count,
        _ => return None,
    };
    if kept.saturating_add(middle) > MAX_STRING_BYTES as u64 {
        return None;
    }
    let joined_lines = format!("{head}{tail}").lines().count() as u64;
    let breaks = lines.saturating_sub(joined_lines).min(middle);
    let middle = usize::try_from(middle).ok()?;
    let breaks = usize::try_from(breaks).ok()?;
    let mut output = String::with_capacity(head.len() + middle + tail.len());
    output.push_str(head);
    output.push_str(&"\n".repeat(breaks));
    output.push_str(&" ".repeat(middle - breaks));
    output.push_str(tail);
    Some((output, lines))
}

fn set_output(block: &mut Json, output: Json) {
    if let Json::Object(fields) = block {
        fields.push((String::from("output"), output));
    }
}

/// The instructions inside a `<model_switch>` block: after its first paragraph (the notice
/// that the model changed), up to the closing tag.
fn model_switch(message: &str) -> Option<String> {
    let start = message.find("<model_switch>\n")? + "<model_switch>\n".len();
    let end = message[start..].find("</model_switch>")? + start;
    let (_, instructions) = message[start..end].split_once("\n\n")?;
    Some(String::from(instructions.trim_end_matches('\n')))
}

/// How the client's AGENTS.md message opens: then ` for <cwd>`, or nothing when 0.171.0 sends
/// the global doc alone.
const AGENTS_MD_HEADING: &str = "# AGENTS.md instructions";

/// The AGENTS.md text the client sends (`# AGENTS.md instructions for <cwd>` with the text
/// inside `<INSTRUCTIONS>`) becomes the cwd's AGENTS.md when the workspace has none yet:
/// the log does not say which files the project docs were joined from. The user's global
/// doc, before the project-doc separator, is outside the project docs' budget: it becomes
/// the global AGENTS.md in the Codex home, as does the text of a message without a cwd
/// (0.171.0 names none when there is no project doc).
fn learn_agents_md(message: &str, builder: &mut Builder) {
    let Some(rest) = message.strip_prefix(AGENTS_MD_HEADING) else {
        return;
    };
    let (cwd, body) = match rest.strip_prefix(" for ") {
        Some(named) => match named.split_once('\n') {
            Some((cwd, body)) => (Some(cwd), body),
            None => return,
        },
        None => (None, rest),
    };
    let (Some(start), Some(end)) = (
        body.find("<INSTRUCTIONS>\n"),
        body.rfind("\n</INSTRUCTIONS>"),
    ) else {
        return;
    };
    let start = start + "<INSTRUCTIONS>\n".len();
    if start > end {
        return;
    }
    let text = &body[start..end];
    let global_path = format!("{}/.codex/AGENTS.md", builder.home());
    let Some(cwd) = cwd else {
        if builder.current(&global_path).is_none() {
            builder.saw_file(&global_path, text, 0);
        }
        return;
    };
    let path = format!("{}/AGENTS.md", cwd.trim_end_matches('/'));
    if builder.current(&path).is_some() {
        return;
    }
    let project_docs = match text.split_once(PROJECT_DOC_SEPARATOR) {
        Some((global, project_docs)) => {
            builder.saw_file(&global_path, global, 0);
            project_docs
        }
        None => text,
    };
    builder.saw_file(&path, project_docs, 0);
    builder.note(format!(
        "{path} holds the project docs' AGENTS.md text the log shows, which the client may \
         have joined from several files."
    ));
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_log_replays_under_the_preset_of_its_release() {
        let cases = [
            (Some("0.139.0"), ProfileName::Codex0139),
            (Some("0.161.0"), ProfileName::Codex0139),
            (Some("0.0.0-test"), ProfileName::Codex0139),
            (Some("0.162.0"), ProfileName::Codex),
            (Some("0.171.0"), ProfileName::Codex),
            (Some("1.0.0-alpha.1"), ProfileName::Codex),
            (Some("dev"), ProfileName::Codex),
            (None, ProfileName::Codex),
        ];
        for (version, profile) in cases {
            assert_eq!(profile_for(version), profile, "{version:?}");
        }
    }
}
