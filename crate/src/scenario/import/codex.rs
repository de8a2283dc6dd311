//! Codex's rollout: `{ timestamp, type, payload }` lines, in the order things happened, so
//! the scenario is built as the lines come and nothing is held but the response being
//! gathered.
//!
//! The prompt is the `user_message` event (the `user` response items also hold the
//! client's own context messages); a response is the `response_item`s between two
//! `token_count` events, its calls' outputs attached by `call_id`; `turn_context` becomes
//! a `turnSettings` step with what changed (with the new model's instructions from the
//! `<model_switch>` message and the developer instructions from the developer message the
//! client records before it); `compacted` becomes a compaction whose summary is the answer
//! to the summary request just before it (that answer is not a turn of the conversation):
//! in the middle of a turn, right after a response's calls, the `compactBeforeToolRound` of
//! that response's step (the client compacts before the request that sends the outputs);
//! otherwise a `compact` step.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::super::parse::{parse_json, Json};
use super::super::MAX_STRING_BYTES;
use super::builder::{bool_field, object, str_field, text, u64_field, Builder};
use super::time::parse_timestamp;
use super::{InjectedItem, RecordedUsage, WarningKind};
use crate::codex::agents_md::PROJECT_DOC_SEPARATOR;

/// Line types that carry nothing a scenario replays.
const IGNORED_TYPES: &[&str] = &["session_state"];

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
    /// Calls already pushed whose output may still come: call id → (step, block).
    open_calls: BTreeMap<String, (usize, usize)>,
    in_turn_after_prompt: bool,
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

#[derive(Debug)]
struct Gathered {
    blocks: Vec<Json>,
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
                    if let Some(tag) = leading_tag(&said) {
                        self.injected.push(InjectedItem::from_text(tag, &said));
                    }
                    learn_agents_md(&said, builder);
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
        let input = match parse_json(raw) {
            Ok(input @ Json::Object(_)) => input,
            _ => object([("input", text(raw))]),
        };
        let block = object([
            ("type", text("tool_use")),
            ("id", text(id)),
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
        if let Some(gathered) = &mut self.answer {
            if let Some(block) = gathered
                .blocks
                .iter_mut()
                .find(|b| str_field(b, "id") == Some(id))
            {
                set_output(block, output);
                return;
            }
        }
        if let Some((step, block)) = self.open_calls.remove(id) {
            if let Some(Json::Object(fields)) = builder.step_mut(step) {
                if let Some((_, Json::Array(blocks))) =
                    fields.iter_mut().find(|(k, _)| k == "blocks")
                {
                    if let Some(block) = blocks.get_mut(block) {
                        set_output(block, output);
                    }
                }
            }
            return;
        }
        builder.warn(
            number,
            WarningKind::BadLine,
            format!("an output for call {id:?}, which no call before it made; left out"),
        );
    }

    fn event(&mut self, number: usize, payload: &Json, at_ms: Option<u64>, builder: &mut Builder) {
        match str_field(payload, "type") {
            Some("user_message") => {
                self.push_answer(builder);
                let prompt = str_field(payload, "message").unwrap_or_default();
                builder.time(at_ms, number);
                builder.push(
                    object([("kind", text("user")), ("prompt", text(prompt))]),
                    number,
                );
                self.in_turn_after_prompt = true;
            }
            Some("token_count") => self.token_count(number, payload, builder),
            Some("task_started") => {
                self.push_answer(builder);
                self.in_turn_after_prompt = false;
                if let Some(window) = u64_field(payload, "model_context_window") {
                    builder.set_context_window(window * 100 / EFFECTIVE_WINDOW_PERCENT);
                }
            }
            Some("task_complete") | Some("turn_aborted") => {
                self.push_answer(builder);
                self.in_turn_after_prompt = false;
            }
            _ => {}
        }
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
        } else {
            compaction.push(("summary", text(&summary)));
        }
        compaction.push(("params", object([("midTurn", Json::Bool(mid_turn))])));
        // In the middle of a turn the client compacts after the calls' outputs and before
        // the request that sends them: on the step of those calls, before its tool round.
        let placed = match mid_turn {
            true => builder.compact_before_tool_round(object(compaction.clone())),
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
        if self.answer.as_ref().is_some_and(|g| g.usage.is_some()) {
            self.push_answer(builder);
        }
        let gathered = self.answer.get_or_insert_with(|| Gathered {
            blocks: Vec::new(),
            line: number,
            at_ms,
            usage: None,
        });
        gathered.blocks.push(block);
    }

    fn push_answer(&mut self, builder: &mut Builder) {
        let Some(gathered) = self.answer.take() else {
            return;
        };
        builder.time(gathered.at_ms, gathered.line);
        let calls: Vec<(usize, String)> = gathered
            .blocks
            .iter()
            .enumerate()
            .filter(|(_, b)| b.get("output").is_none())
            .filter_map(|(i, b)| str_field(b, "id").map(|id| (i, String::from(id))))
            .collect();
        let step = builder.push(
            object([
                ("kind", text("assistant")),
                ("blocks", Json::Array(gathered.blocks)),
            ]),
            gathered.line,
        );
        if let Some(step) = step {
            for (block, id) in calls {
                self.open_calls.insert(id, (step, block));
            }
        }
        if let Some(mut usage) = gathered.usage {
            usage.step = step;
            builder.record(usage);
        }
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
    if let Some(model) = str_field(payload, "model") {
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
    if let Some(zone) = str_field(payload, "timezone") {
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
/// long output was cut already (`Total output lines: N`, a blank line, head, marker, tail):
/// see [`stand_in_for_cut`].
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
    match token_count.and_then(|tokens| stand_in_for_cut(body, tokens)) {
        Some((output, lines)) => ExecOutput::Cut { output, lines },
        None => ExecOutput::Whole(String::from(body)),
    }
}

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

fn set_output(block: &mut Json, output: String) {
    if let Json::Object(fields) = block {
        fields.push((String::from("output"), Json::String(output)));
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

/// The AGENTS.md text the client sends (`# AGENTS.md instructions for <cwd>` with the text
/// inside `<INSTRUCTIONS>`) becomes the cwd's AGENTS.md when the workspace has none yet:
/// the log does not say which files the project docs were joined from. The user's global
/// doc, before the project-doc separator, is outside the project docs' budget: it becomes
/// the global AGENTS.md in the Codex home.
fn learn_agents_md(message: &str, builder: &mut Builder) {
    let Some(rest) = message.strip_prefix("# AGENTS.md instructions for ") else {
        return;
    };
    let Some((cwd, body)) = rest.split_once('\n') else {
        return;
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
    let path = format!("{}/AGENTS.md", cwd.trim_end_matches('/'));
    if builder.current(&path).is_some() {
        return;
    }
    let text = &body[start..end];
    let project_docs = match text.split_once(PROJECT_DOC_SEPARATOR) {
        Some((global, project_docs)) => {
            let global_path = format!("{}/.codex/AGENTS.md", builder.home());
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
