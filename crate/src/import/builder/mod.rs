//! The scenario an import builds, whatever the log's format: the workspace as far as the
//! log shows it, the steps with the clock between them, the provider's figures and the
//! warnings. Every step is checked against the format's limits as it comes, so what is kept
//! never outgrows what one scenario may hold, and read as the scenario will read and replay
//! it, so a line of an odd shape costs its own step (with a warning), never the import.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

mod calls;
mod check;

use super::{ImportWarning, LogFormat, RecordedUsage, WarningKind};
use crate::compact::summary::format_compact_summary;
use crate::scenario::parse::Json;
use crate::scenario::{
    parse_scenario, Scenario, FORMAT_VERSION, MAX_INPUT_BYTES, MAX_STEPS, MAX_STRING_BYTES,
};
use crate::Error;
use calls::UsedId;
pub(super) use calls::{fnv, CallId, FNV_START};

/// Room left in the document for everything but the steps and files (the head, config,
/// separators), so the finished text stays under [`MAX_INPUT_BYTES`].
const DOCUMENT_HEADROOM: usize = 1 << 20;
/// The home a scenario without `home` has.
const DEFAULT_HOME: &str = "/home/user";
/// The working directory a scenario without `cwd` has.
const DEFAULT_CWD: &str = "/project";
/// Warnings kept; past this many, one more says how many were dropped.
const MAX_WARNINGS: usize = 500;
/// A clock gap below this is not worth an `advanceTime` step.
const MIN_CLOCK_STEP_MS: u64 = 1_000;

/// The scenario under construction.
#[derive(Debug, Default)]
pub(super) struct Builder {
    cwd: Option<String>,
    home: Option<String>,
    transcript_path: Option<String>,
    plan_file: Option<String>,
    permission_mode: Option<String>,
    git_status: Option<String>,
    headless: bool,
    client_version: Option<String>,
    context_window: Option<u64>,
    start_ms: Option<u64>,
    clock_ms: u64,
    steps: Vec<Json>,
    files: Vec<(String, String)>,
    /// What the session's files hold now, as far as the log showed them.
    current: BTreeMap<String, String>,
    partial: BTreeSet<String>,
    /// Files whose initial content is a memory file as the client rendered it: a read that
    /// shows them otherwise tells what the file held from the start.
    rendered: BTreeSet<String>,
    compactions: usize,
    kept_bytes: usize,
    left_out: Option<(usize, usize)>,
    warnings: Vec<ImportWarning>,
    dropped_warnings: usize,
    recorded: Vec<RecordedUsage>,
    notes: Vec<String>,
    /// Every tool-call id the steps use, with the call that first used it.
    calls: BTreeMap<String, UsedId>,
}

/// The finished import's parts.
pub(super) type Finished = (Scenario, String, Vec<RecordedUsage>, Vec<ImportWarning>);

impl Builder {
    /// The working directory, from the first line that names one.
    pub(super) fn set_cwd(&mut self, cwd: &str) {
        if self.cwd.is_none() && cwd.starts_with('/') {
            self.cwd = Some(cwd.into());
        }
    }

    /// The user's home, when a path reveals it.
    pub(super) fn set_home(&mut self, home: &str) {
        if self.home.is_none() && home.starts_with('/') && home.len() > 1 {
            self.home = Some(home.into());
        }
    }

    /// The user's home: the one a path revealed, or the scenario format's default.
    pub(super) fn home(&self) -> &str {
        self.home.as_deref().unwrap_or(DEFAULT_HOME)
    }

    /// Where the client keeps the transcript (Claude Code names it in its summaries).
    pub(super) fn set_transcript_path(&mut self, path: &str) {
        if self.transcript_path.is_none() && path.starts_with('/') {
            self.transcript_path = Some(path.into());
        }
    }

    /// The plan file the session wrote to.
    pub(super) fn set_plan_file(&mut self, path: &str) {
        if self.plan_file.is_none() {
            self.plan_file = Some(path.into());
        }
    }

    /// The client ran headless (`claude -p`, the SDK): the scenario turns
    /// `fileContext.headless` and `config.printMode` on.
    pub(super) fn set_headless(&mut self) {
        self.headless = true;
    }

    /// The permission mode at the start.
    pub(super) fn set_initial_mode(&mut self, mode: &str) {
        if self.permission_mode.is_none() {
            self.permission_mode = Some(mode.into());
        }
    }

    /// The model's context window, as the client reported it.
    pub(super) fn set_context_window(&mut self, window: u64) {
        if self.context_window.is_none() {
            self.context_window = Some(window);
        }
    }

    /// The client's version, from the first line that names it.
    pub(super) fn set_client_version(&mut self, version: &str) {
        if self.client_version.is_none() && !version.is_empty() {
            self.client_version = Some(version.into());
        }
    }

    /// A sentence for the scenario's description.
    pub(super) fn note(&mut self, note: String) {
        if !self.notes.contains(&note) {
            self.notes.push(note);
        }
    }

    /// Moves the clock to `at_ms` (never back): the first time sets the start, a later gap
    /// of a second or more becomes an `advanceTime` step.
    pub(super) fn time(&mut self, at_ms: Option<u64>, line: usize) {
        let Some(at_ms) = at_ms else { return };
        let Some(_) = self.start_ms else {
            self.start_ms = Some(at_ms);
            self.clock_ms = at_ms;
            return;
        };
        let gap = at_ms.saturating_sub(self.clock_ms);
        if gap >= MIN_CLOCK_STEP_MS {
            self.clock_ms = at_ms;
            self.push(
                object([("kind", text("advanceTime")), ("ms", number(gap))]),
                line,
            );
        }
    }

    /// Appends a step; its index, or `None` when it is past the format's limits.
    pub(super) fn push(&mut self, mut step: Json, line: usize) -> Option<usize> {
        let size = json_size(&step);
        let full = self.steps.len() >= MAX_STEPS
            || self.kept_bytes + size > MAX_INPUT_BYTES - DOCUMENT_HEADROOM;
        if full || self.left_out.is_some() {
            match &mut self.left_out {
                Some((_, count)) => *count += 1,
                None => self.left_out = Some((line, 1)),
            }
            return None;
        }
        self.clip_strings(&mut step, line);
        let step = self.checked(step, line)?;
        if let Json::Object(entries) = &step {
            if entries.first().and_then(|(_, v)| v.as_str()) == Some("compact") {
                self.compactions += 1;
            }
        }
        self.kept_bytes += size;
        self.steps.push(step);
        Some(self.steps.len() - 1)
    }

    /// Whether a compaction's summary is one the engine takes: text left once its
    /// `<analysis>` block is removed. An empty one gets a warning naming `line`, and the
    /// engine's extractive summary stands in.
    pub(super) fn usable_summary(&mut self, summary: &str, line: usize) -> bool {
        if !format_compact_summary(summary).is_empty() {
            return true;
        }
        self.warn(
            line,
            WarningKind::LeftOut,
            String::from(
                "the compaction's summary is empty once its <analysis> block is removed: the \
                 engine's extractive summary stands in",
            ),
        );
        false
    }

    /// A tool's output for a step: cut at the format's limit on a string, with a warning.
    pub(super) fn output(&mut self, output: String, line: usize) -> Json {
        let mut output = Json::String(output);
        self.clip_strings(&mut output, line);
        output
    }

    /// Cuts the strings of `value` at the format's limit on a string, with a warning naming
    /// `line`.
    fn clip_strings(&mut self, value: &mut Json, line: usize) {
        if clip_strings(value) {
            self.warn_cut(line);
        }
    }

    /// Says that a text of `line` was cut at the format's limit on a string.
    pub(super) fn warn_cut(&mut self, line: usize) {
        self.warn(
            line,
            WarningKind::OverLimit,
            format!(
                "a text over the format's {} MiB per string is cut there",
                MAX_STRING_BYTES >> 20
            ),
        );
    }

    /// Whether step `index` is an assistant step that calls tools.
    fn calls_tools(&self, index: usize) -> bool {
        let Some(Json::Object(fields)) = self.steps.get(index) else {
            return false;
        };
        let is_assistant = fields
            .iter()
            .any(|(key, value)| key == "kind" && value.as_str() == Some("assistant"));
        is_assistant
            && fields.iter().any(|(key, value)| {
                key == "blocks"
                    && matches!(value, Json::Array(blocks)
                        if blocks.iter().any(|b| str_field(b, "type") == Some("tool_use")))
            })
    }

    /// Puts `compaction` (a `compact` step's fields but `kind`) on the last step as its
    /// `compactBeforeToolRound`, when that step is an assistant step that calls tools and has
    /// none yet: the step's index, or `None` when it is not one.
    pub(super) fn compact_before_tool_round(
        &mut self,
        mut compaction: Json,
        line: usize,
    ) -> Option<usize> {
        if self.left_out.is_some() {
            return None;
        }
        let index = self.steps.len().checked_sub(1)?;
        if !self.calls_tools(index) {
            return None;
        }
        self.clip_strings(&mut compaction, line);
        let Json::Object(fields) = &mut self.steps[index] else {
            return None;
        };
        if fields
            .iter()
            .any(|(key, _)| key == "compactBeforeToolRound")
        {
            return None;
        }
        self.kept_bytes += json_size(&compaction);
        fields.push((String::from("compactBeforeToolRound"), compaction));
        self.compactions += 1;
        Some(index)
    }

    /// The ids of the tool calls a step kept.
    pub(super) fn call_ids(&self, step: usize) -> Vec<String> {
        let Some(Json::Object(fields)) = self.steps.get(step) else {
            return Vec::new();
        };
        let blocks = fields.iter().find(|(key, _)| key == "blocks");
        let Some((_, Json::Array(blocks))) = blocks else {
            return Vec::new();
        };
        blocks
            .iter()
            .filter_map(|block| str_field(block, "id").map(String::from))
            .collect()
    }

    /// The calls of a step pushed without an output: their block's place and id.
    pub(super) fn calls_without_output(&self, step: usize) -> Vec<(usize, String)> {
        let Some(Json::Object(fields)) = self.steps.get(step) else {
            return Vec::new();
        };
        let Some((_, Json::Array(blocks))) = fields.iter().find(|(key, _)| key == "blocks") else {
            return Vec::new();
        };
        blocks
            .iter()
            .enumerate()
            .filter(|(_, block)| block.get("output").is_none())
            .filter_map(|(place, block)| str_field(block, "id").map(|id| (place, String::from(id))))
            .collect()
    }

    /// A block of a step already pushed, to add what comes later (a call's output).
    pub(super) fn step_block(&mut self, step: usize, block: usize) -> Option<&mut Json> {
        blocks_mut(self.steps.get_mut(step)?)?.get_mut(block)
    }

    /// The whole content of `path`, as a result showed it: a file not seen before starts
    /// with it; a file whose content differs from what the session last left there was
    /// changed outside the agent, which a `writeFile` step says.
    pub(super) fn saw_file(&mut self, path: &str, content: &str, line: usize) {
        // A blank path would name the working directory itself.
        let usable = match self.expand(path) {
            Ok(_) if crate::js::trim(path).is_empty() => Err(String::from("a blank path")),
            Ok(_) => Ok(()),
            Err(error) => Err(error.to_string()),
        };
        if let Err(reason) = usable {
            self.warn(
                line,
                WarningKind::BadLine,
                format!(
                    "a file the log shows at a path the session cannot use ({reason}); left out"
                ),
            );
            return;
        }
        if content.len() > MAX_STRING_BYTES {
            self.warn(
                line,
                WarningKind::OverLimit,
                format!(
                    "{path}: {} bytes, over the format's 8 MiB per string; left out",
                    content.len()
                ),
            );
            return;
        }
        match self.current.get(path) {
            None => {
                self.add_initial_file(path, content);
                self.current.insert(path.into(), content.into());
            }
            Some(known) if known == content => {}
            Some(_)
                if (self.partial.remove(path) | self.rendered.remove(path))
                    && self.is_untouched_initial(path) =>
            {
                self.replace_initial_file(path, content);
                self.current.insert(path.into(), content.into());
            }
            Some(_) => {
                self.current.insert(path.into(), content.into());
                self.push(
                    object([
                        ("kind", text("writeFile")),
                        ("path", text(path)),
                        ("content", text(content)),
                    ]),
                    line,
                );
            }
        }
    }

    /// A memory file the client loaded, as its log recorded it: the workspace starts with it
    /// unless the log showed the file already.
    pub(super) fn saw_memory(&mut self, path: &str, content: &str, line: usize) {
        if !self.current.contains_key(path) {
            self.saw_file(path, content, line);
            self.rendered.insert(path.into());
        }
    }

    /// Part of `path`: `lines` starting at line `start` (1-based) of `total` lines. A file
    /// not seen before starts with these lines in place and blank lines around them.
    pub(super) fn saw_part(
        &mut self,
        path: &str,
        lines: &str,
        start: u64,
        total: Option<u64>,
        line: usize,
    ) {
        if self.current.contains_key(path) {
            return;
        }
        let Ok(before) = usize::try_from(start.saturating_sub(1)) else {
            return;
        };
        let shown = lines.split('\n').count();
        let after = total
            .and_then(|t| usize::try_from(t).ok())
            .map_or(0, |t| t.saturating_sub(before.saturating_add(shown)));
        if before.saturating_add(after) > MAX_STRING_BYTES {
            return;
        }
        let mut content = "\n".repeat(before);
        content.push_str(lines);
        content.push_str(&"\n".repeat(after));
        self.saw_file(path, &content, line);
        self.partial.insert(path.into());
        self.warn(
            line,
            WarningKind::PartialFile,
            format!(
                "{path}: the log shows lines {start} to {} only; the scenario starts the file \
                 with them and blank lines elsewhere",
                start.saturating_add(shown as u64 - 1)
            ),
        );
    }

    /// `path` was changed outside the agent to `content`, as a change note the client logged
    /// after the prompt that noticed it showed it: the change goes before that prompt, so
    /// that the replay notices it where the client did. The clock moves to the file's
    /// modification time (`modified_ms`), and at least a millisecond past the reads before
    /// it, which the client compares the modification time against.
    pub(super) fn changed_outside(
        &mut self,
        path: &str,
        content: String,
        modified_ms: Option<u64>,
        line: usize,
    ) {
        if self.current.get(path) == Some(&content) {
            return;
        }
        self.partial.remove(path);
        let prompt = self
            .steps
            .len()
            .checked_sub(1)
            .filter(|&last| step_kind(&self.steps[last]) == Some("user"));
        let advance = modified_ms
            .filter(|&at| at > self.clock_ms)
            .map_or(1, |at| at - self.clock_ms);
        self.clock_ms += advance;
        self.push(
            object([("kind", text("advanceTime")), ("ms", number(advance))]),
            line,
        );
        self.push(
            object([
                ("kind", text("writeFile")),
                ("path", text(path)),
                ("content", text(&content)),
            ]),
            line,
        );
        self.current.insert(path.into(), content);
        if let Some(prompt) = prompt {
            self.steps[prompt..].rotate_left(1);
        }
    }

    /// The git status the session began with, as the log recorded it (the first one).
    pub(super) fn set_git_status(&mut self, status: &str) {
        self.git_status.get_or_insert_with(|| status.into());
    }

    /// The agent changed `path` to `content` (an Edit or Write the scenario replays).
    pub(super) fn agent_wrote(&mut self, path: &str, content: String) {
        self.partial.remove(path);
        self.current.insert(path.into(), content);
    }

    /// What `path` holds now, as far as the log showed.
    pub(super) fn current(&self, path: &str) -> Option<&str> {
        self.current.get(path).map(String::as_str)
    }

    /// Whether steps are still kept: false once the log went past the format's limits.
    pub(super) fn keeps_steps(&self) -> bool {
        self.left_out.is_none()
    }

    /// What the provider reported for one request.
    ///
    /// Past the format's limits (no step kept), the figures are not kept either.
    pub(super) fn record(&mut self, usage: RecordedUsage) {
        if self.left_out.is_none() {
            self.recorded.push(usage);
        }
    }

    /// A warning (past [`MAX_WARNINGS`], counted only).
    pub(super) fn warn(&mut self, line: usize, kind: WarningKind, message: String) {
        if self.warnings.len() < MAX_WARNINGS {
            self.warnings.push(ImportWarning {
                line,
                kind,
                message,
            });
        } else {
            self.dropped_warnings += 1;
        }
    }

    /// The scenario document, parsed back as the engine reads it.
    pub(super) fn finish(mut self, format: LogFormat) -> Result<Finished, Error> {
        if let Some((first, count)) = self.left_out {
            self.warn(
                first,
                WarningKind::OverLimit,
                format!(
                    "the session goes past what one scenario holds ({MAX_STEPS} steps, \
                     {} MiB): {count} steps from here on are left out",
                    MAX_INPUT_BYTES >> 20
                ),
            );
        }
        crate::sort::sort_by_key(&mut self.warnings, |warning| warning.line);
        if self.dropped_warnings > 0 {
            let dropped = self.dropped_warnings;
            self.warnings.push(ImportWarning {
                line: 0,
                kind: WarningKind::OverLimit,
                message: format!("{dropped} more warnings not listed"),
            });
        }
        let document = self.document(format);
        let scenario = parse_scenario(&document).map_err(|error| Error::InvalidConfig {
            field: String::from("imported scenario"),
            reason: format!("the scenario built from the log does not read back: {error}"),
        })?;
        Ok((scenario, document, self.recorded, self.warnings))
    }

    fn document(&self, format: LogFormat) -> String {
        let profile = match format {
            LogFormat::Codex => super::codex::profile_for(self.client_version.as_deref()).as_str(),
            LogFormat::ClaudeCode => {
                super::claude_code::profile_for(self.client_version.as_deref()).as_str()
            }
        };
        let mut head: Vec<(&str, Json)> = Vec::from([
            ("formatVersion", number(FORMAT_VERSION)),
            (
                "name",
                text(&format!("Imported {} session", client_name(format))),
            ),
            ("description", text(&self.description(format))),
            ("profile", text(profile)),
        ]);
        if self.headless {
            head.push((
                "switches",
                object([("fileContext.headless", Json::Bool(true))]),
            ));
        }
        if let Some(cwd) = &self.cwd {
            head.push(("cwd", text(cwd)));
        }
        if let Some(home) = &self.home {
            head.push(("home", text(home)));
        }
        if let Some(start) = self.start_ms {
            head.push(("startMs", number(start)));
        }
        head.push(("stepMs", number(0)));
        let config = self.config();
        if !matches!(&config, Json::Object(entries) if entries.is_empty()) {
            head.push(("config", config));
        }
        let mut out = String::from("{\n");
        for (key, value) in head {
            out.push_str(&format!("  \"{key}\": {},\n", value.to_compact()));
        }
        out.push_str("  \"files\": {");
        for (i, (path, content)) in self.files.iter().enumerate() {
            out.push_str(if i == 0 { "\n    " } else { ",\n    " });
            out.push_str(&text(path).to_compact());
            out.push_str(": ");
            out.push_str(&text(content).to_compact());
        }
        out.push_str(if self.files.is_empty() {
            "},\n"
        } else {
            "\n  },\n"
        });
        out.push_str("  \"steps\": [");
        for (i, step) in self.steps.iter().enumerate() {
            out.push_str(if i == 0 { "\n    " } else { ",\n    " });
            out.push_str(&step.to_compact());
        }
        out.push_str(if self.steps.is_empty() {
            "]\n}\n"
        } else {
            "\n  ]\n}\n"
        });
        out
    }

    fn config(&self) -> Json {
        let mut entries: Vec<(&str, Json)> = Vec::new();
        if let Some(window) = self.context_window {
            if (1_000..=10_000_000).contains(&window) {
                entries.push(("contextWindow", number(window)));
                if window <= 20_000 {
                    entries.push(("outputReserve", number(window / 10)));
                }
            }
        }
        if let Some(plan) = &self.plan_file {
            entries.push(("planFile", text(plan)));
        }
        if let Some(mode) = &self.permission_mode {
            entries.push(("permissionMode", text(mode)));
        }
        if self.compactions > 0 {
            // The log says where the client compacted; the steps put the compactions there,
            // so the engine must not add its own at other places.
            entries.push(("autoCompact", Json::Bool(false)));
        }
        if let Some(path) = &self.transcript_path {
            entries.push(("transcriptPath", text(path)));
        }
        if self.headless {
            entries.push(("printMode", Json::Bool(true)));
        }
        if let Some(status) = &self.git_status {
            entries.push(("gitStatus", text(status)));
        }
        object(entries)
    }

    fn description(&self, format: LogFormat) -> String {
        let recorded_by = match &self.client_version {
            Some(version) => format!(" (written by {} {version})", client_name(format)),
            None => String::new(),
        };
        let mut sentences = Vec::from([format!(
            "Imported from a {} session log{recorded_by}: the workspace holds only the files \
             the log showed (from read results and edited files' originals).",
            client_name(format)
        )]);
        if !self.partial.is_empty() {
            let names: Vec<&str> = self.partial.iter().map(String::as_str).collect();
            sentences.push(format!(
                "Known only in part (blank lines stand for what the log did not show): {}.",
                names.join(", ")
            ));
        }
        if self.compactions > 0 {
            sentences.push(String::from(
                "Compactions happen where the log shows them, with the recorded summaries \
                 (autoCompact is off).",
            ));
        }
        sentences.extend(self.notes.iter().cloned());
        sentences.join(" ")
    }

    fn add_initial_file(&mut self, path: &str, content: &str) {
        self.kept_bytes += path.len() + content.len();
        self.files.push((path.into(), content.into()));
    }

    fn is_untouched_initial(&self, path: &str) -> bool {
        let initial = self.files.iter().find(|(p, _)| p == path);
        initial.is_some_and(|(_, content)| self.current.get(path) == Some(content))
    }

    fn replace_initial_file(&mut self, path: &str, content: &str) {
        if let Some(entry) = self.files.iter_mut().find(|(p, _)| p == path) {
            entry.1 = content.into();
        }
    }
}

fn client_name(format: LogFormat) -> &'static str {
    match format {
        LogFormat::ClaudeCode => "Claude Code",
        LogFormat::Codex => "Codex",
    }
}

/// A JSON object with keys in the order given.
pub(super) fn object<'a>(entries: impl IntoIterator<Item = (&'a str, Json)>) -> Json {
    Json::Object(
        entries
            .into_iter()
            .map(|(key, value)| (key.to_string(), value))
            .collect(),
    )
}

/// A JSON string.
pub(super) fn text(value: &str) -> Json {
    Json::String(value.into())
}

/// A JSON whole number.
pub(super) fn number(value: u64) -> Json {
    Json::Number(value.into())
}

/// Cuts a text longer than [`MAX_STRING_BYTES`] at a character boundary below it; whether it
/// was.
pub(super) fn clip(text: &mut String) -> bool {
    if text.len() <= MAX_STRING_BYTES {
        return false;
    }
    let mut end = MAX_STRING_BYTES;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    text.truncate(end);
    true
}

/// Cuts every string longer than [`MAX_STRING_BYTES`] at a character boundary below it;
/// whether any was.
pub(super) fn clip_strings(value: &mut Json) -> bool {
    match value {
        Json::String(s) => clip(s),
        Json::Array(items) => items
            .iter_mut()
            .fold(false, |any, item| clip_strings(item) | any),
        Json::Object(entries) => entries
            .iter_mut()
            .fold(false, |any, (_, item)| clip_strings(item) | any),
        _ => false,
    }
}

/// An assistant step's blocks.
/// A step's `kind`.
fn step_kind(step: &Json) -> Option<&str> {
    str_field(step, "kind")
}

fn blocks_mut(step: &mut Json) -> Option<&mut Vec<Json>> {
    let Json::Object(fields) = step else {
        return None;
    };
    let is_assistant = fields
        .iter()
        .any(|(key, value)| key == "kind" && value.as_str() == Some("assistant"));
    fields
        .iter_mut()
        .find(|(key, _)| key == "blocks")
        .and_then(|(_, blocks)| match blocks {
            Json::Array(blocks) if is_assistant => Some(blocks),
            _ => None,
        })
}

/// About the size of a value's compact JSON (strings counted unescaped).
pub(super) fn json_size(value: &Json) -> usize {
    match value {
        Json::Null | Json::Bool(_) | Json::Number(_) => 8,
        Json::String(s) => s.len() + 2,
        Json::Array(items) => items.iter().map(json_size).sum::<usize>() + items.len() + 2,
        Json::Object(entries) => {
            entries
                .iter()
                .map(|(key, value)| key.len() + 3 + json_size(value))
                .sum::<usize>()
                + 2
        }
    }
}

/// A string field of an object.
pub(super) fn str_field<'a>(value: &'a Json, key: &str) -> Option<&'a str> {
    value.get(key).and_then(Json::as_str)
}

/// A whole-number field of an object.
pub(super) fn u64_field(value: &Json, key: &str) -> Option<u64> {
    match value.get(key) {
        Some(Json::Number(n)) => n.as_u64(),
        _ => None,
    }
}

/// A boolean field of an object (absent: false).
pub(super) fn bool_field(value: &Json, key: &str) -> bool {
    matches!(value.get(key), Some(Json::Bool(true)))
}
