//! Importing a real session log (Claude Code's `~/.claude/projects/…/<id>.jsonl`, Codex's
//! `$CODEX_HOME/sessions/…/rollout-*.jsonl`) as a scenario, with what the provider reported
//! for each request beside it.
//!
//! Both logs are one JSON object per line, unversioned, and change between releases, so
//! the reading is defensive: a line that cannot be read is a warning with its number, an
//! unknown line type is a warning, a truncated last line is a warning; only a log where no
//! line at all could be read is an error, naming the first bad line and what was expected.
//! A line's leading byte-order mark is skipped. A tool-call id seen twice keeps both calls
//! apart or the call once (`builder::calls`), and every step is checked as the scenario
//! reads and replays it (`builder::check`): what does not fit costs a warning, never the
//! import.
//!
//! [`SessionImporter`] reads a log as it streams (whole lines or chunks of bytes, cut
//! anywhere) and keeps only what the scenario will hold: a line is parsed, its content
//! turned into the scenario's terms, and dropped. Content past the scenario format's limits
//! ([`crate::scenario::MAX_STEPS`] steps, [`crate::scenario::MAX_INPUT_BYTES`] bytes) is counted, not kept, so
//! memory stays bounded whatever the log's size; a line past [`MAX_LINE_BYTES`] (or a long
//! one of more than [`MAX_LINE_VALUES`] JSON values) is refused without being held whole, so
//! it stays bounded whatever the lines' lengths. [`import_session`] is the one-call form.
//!
//! ```
//! use context_assembly::import::{import_session, LogFormat};
//! let log = concat!(
//!     r#"{"type":"user","uuid":"u1","parentUuid":null,"cwd":"/work","timestamp":"2025-12-01T10:00:00.000Z","message":{"role":"user","content":"Hello"}}"#, "\n",
//!     r#"{"type":"assistant","uuid":"a1","parentUuid":"u1","cwd":"/work","timestamp":"2025-12-01T10:00:02.000Z","message":{"id":"m1","role":"assistant","content":[{"type":"text","text":"Hi."}],"usage":{"input_tokens":12,"output_tokens":3}}}"#, "\n",
//! );
//! let imported = import_session(log, None).unwrap();
//! assert_eq!(imported.format, LogFormat::ClaudeCode);
//! assert_eq!(imported.scenario.cwd, "/work");
//! assert_eq!(imported.scenario.steps.len(), 3); // the prompt, the clock moving 2 s, the answer
//! assert_eq!(imported.recorded[0].input_tokens, 12);
//! assert!(imported.warnings.is_empty());
//! ```

mod builder;
mod claude_code;
mod codex;
mod lines;
mod time;

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::scenario::parse::{parse_json, Json};
use crate::scenario::{Scenario, StepsDone};
use crate::Error;
use builder::Builder;
use lines::{Line, LineSplitter, Refused};
pub use lines::{MAX_LINE_BYTES, MAX_LINE_VALUES};

crate::vocabulary::named_enum! {
    /// The session logs [`import_session`] reads.
    pub enum LogFormat {
        /// Claude Code's project log: lines with `type`, `uuid`, `parentUuid`, `message`.
        ClaudeCode => "claude-code",
        /// Codex's rollout: lines `{ timestamp, type, payload }`.
        Codex => "codex",
    }
}

impl LogFormat {
    /// The format a parsed line belongs to, if it is recognisably one of them.
    fn of_line(line: &Json) -> Option<LogFormat> {
        let kind = line.get("type").and_then(Json::as_str);
        if line.get("payload").is_some() && line.get("timestamp").is_some() {
            return Some(LogFormat::Codex);
        }
        let claude_kinds = ["user", "assistant", "system", "summary", "queue-operation"];
        if line.get("uuid").is_some()
            || line.get("sessionId").is_some()
            || kind.is_some_and(|kind| claude_kinds.contains(&kind))
        {
            return Some(LogFormat::ClaudeCode);
        }
        None
    }
}

impl core::str::FromStr for LogFormat {
    type Err = Error;

    fn from_str(name: &str) -> Result<Self, Error> {
        LogFormat::ALL
            .iter()
            .copied()
            .find(|format| format.as_str() == name)
            .ok_or_else(|| Error::InvalidConfig {
                field: "format".into(),
                reason: format!(
                    "unknown session log format {name:?}: expected \"claude-code\" or \"codex\""
                ),
            })
    }
}

/// What a session log gave.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Imported {
    /// The format read.
    pub format: LogFormat,
    /// The session as a scenario under the matching profile (serialised as `scenarioJson`).
    #[serde(skip)]
    pub scenario: Scenario,
    /// The same scenario as the JSON document the format describes (`web/scenarios/FORMAT.md`),
    /// for an editor or a file: one step per line, the log's order kept.
    pub scenario_json: String,
    /// What the provider reported for each request, in the log's order.
    pub recorded: Vec<RecordedUsage>,
    /// What could not be read or was left out, and what the scenario knows only in part.
    pub warnings: Vec<ImportWarning>,
}

/// What the provider reported for one request (one model response).
///
/// Claude Code's `message.usage` splits the prompt into uncached input, cache writes and
/// cache reads; Codex's `token_count` gives the whole input with its cached part, so its
/// `input_tokens` here is the uncached rest and `cache_creation_tokens` is 0.
#[derive(Debug, Clone, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RecordedUsage {
    /// The log line it was read from (1-based).
    pub line: usize,
    /// The scenario step this request produced: the assistant step that holds the answer,
    /// or the step of the compaction a summary request belongs to (a `compact` step, or the
    /// assistant step whose `compactBeforeToolRound` it is); `None` when the step was left
    /// out (past the format's limits).
    pub step: Option<usize>,
    /// Whether the request asked for a compaction summary rather than the next answer.
    pub summary: bool,
    /// Input tokens neither read from nor written to the cache.
    pub input_tokens: u64,
    /// Input tokens written to the cache.
    pub cache_creation_tokens: u64,
    /// Input tokens read from the cache.
    pub cache_read_tokens: u64,
    /// Output tokens (reasoning included).
    pub output_tokens: u64,
    /// Codex: the session's running total of tokens after this request.
    pub session_total_tokens: Option<u64>,
    /// Codex: the model's context window the client reported.
    pub context_window: Option<u64>,
    /// What the log shows was injected into this request since the previous one (context
    /// the client added around the prompt and the results); `None` when the log does not
    /// record it: Claude Code's log holds its attachments only in some releases (as
    /// `attachment` lines, listed with the meta user lines and `<system-reminder>` text
    /// blocks), and a log without `attachment` lines says nothing of them.
    pub injected: Option<Vec<InjectedItem>>,
}

/// One item the log shows was injected into a request.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct InjectedItem {
    /// What it is: an attachment's type as the log names it (Claude Code's `attachment`
    /// lines), `meta` (a meta user line), `reminder` (a `<system-reminder>` text block), or
    /// a Codex context message's tag (`environment_context`, `user_instructions`…).
    pub kind: String,
    /// A short label: the file it names, or the start of its text.
    pub label: String,
}

/// A release's `major.minor.patch` as numbers, for ordering (`"0.171.0-alpha.2"` →
/// `[0, 171, 0]`); `None` for a version that does not start with three numbers (`"dev"`).
fn release_numbers(version: &str) -> Option<[u64; 3]> {
    let mut parts = version
        .split(['.', '-'])
        .map(|part| part.parse::<u64>().ok());
    Some([parts.next()??, parts.next()??, parts.next()??])
}

/// A line that is a tag and nothing else (`<environment_context>`).
fn is_lone_tag(line: &str) -> bool {
    line.starts_with('<') && line.ends_with('>')
}

/// The longest label an [`InjectedItem`] keeps, in characters.
pub(crate) const MAX_LABEL_CHARS: usize = 60;

impl InjectedItem {
    /// An item whose label is the first line of `text` that is not empty or a tag alone
    /// (`<…>`), clipped; the kind when there is none.
    pub(crate) fn from_text(kind: &str, text: &str) -> InjectedItem {
        let stripped = text
            .replace("<system-reminder>", "")
            .replace("</system-reminder>", "");
        let first = stripped
            .lines()
            .map(str::trim)
            .find(|line| !(line.is_empty() || is_lone_tag(line)))
            .unwrap_or(kind);
        let mut label: String = first.chars().take(MAX_LABEL_CHARS).collect();
        if first.chars().count() > MAX_LABEL_CHARS {
            label.push('…');
        }
        InjectedItem {
            kind: kind.into(),
            label,
        }
    }
}

impl RecordedUsage {
    /// The whole prompt: uncached input, cache writes and cache reads.
    pub fn prompt_tokens(&self) -> u64 {
        self.input_tokens
            .saturating_add(self.cache_creation_tokens)
            .saturating_add(self.cache_read_tokens)
    }
}

/// Why a warning was given.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum WarningKind {
    /// A line that is not a JSON object, or lacks what its type needs.
    BadLine,
    /// The last line ends without a newline and is not valid JSON (the client was still
    /// writing it).
    TruncatedLine,
    /// A line type or content block this importer does not know.
    Unknown,
    /// Subagent lines (`isSidechain`): left out of the main thread.
    Sidechain,
    /// Lines on a branch the session left (`/rewind`, an edited prompt): left out.
    AbandonedBranch,
    /// Something the scenario format cannot hold (images, slash commands, a plan's feedback).
    LeftOut,
    /// A file the log shows only in part: the scenario has the lines it saw, blank lines
    /// elsewhere.
    PartialFile,
    /// The log goes past the scenario format's limits: the rest is not kept.
    OverLimit,
    /// A line past [`MAX_LINE_BYTES`] (or [`MAX_LINE_VALUES`]): not read.
    LineTooLong,
    /// A tool call's id (or its result) seen twice: the warning says which one was kept.
    DuplicateId,
    /// A tool call the log holds no result for: it replays with a stand-in the warning
    /// names.
    NoResult,
}

/// A line that could not be used as it was, or a note on what the scenario knows.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct ImportWarning {
    /// The log line (1-based); 0 for the log as a whole.
    pub line: usize,
    /// What kind of problem.
    pub kind: WarningKind,
    /// What happened, in a sentence.
    pub message: String,
}

/// How far a streamed import has got.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Progress {
    /// Complete lines read.
    pub lines: usize,
    /// Bytes consumed, the partial line held back included.
    pub bytes: u64,
}

/// Reads a session log line by line (or chunk by chunk) into a scenario.
///
/// ```
/// use context_assembly::import::{LogFormat, SessionImporter};
/// let mut importer = SessionImporter::new(Some(LogFormat::Codex));
/// let log = "{\"timestamp\":\"2025-12-01T10:00:00.000Z\",\"type\":\"session_meta\",\"payload\":{\"cwd\":\"/repo\"}}\n\
///            {\"timestamp\":\"2025-12-01T10:00:01.000Z\",\"type\":\"event_msg\",\"payload\":{\"type\":\"user_message\",\"message\":\"Hi\"}}\n";
/// // Chunks may cut a line anywhere, even inside a UTF-8 character.
/// for chunk in log.as_bytes().chunks(7) {
///     importer.push_chunk(chunk);
/// }
/// assert_eq!(importer.progress().lines, 2);
/// let imported = importer.finish().unwrap();
/// assert_eq!(imported.scenario.cwd, "/repo");
/// ```
pub struct SessionImporter {
    format: Option<LogFormat>,
    reader: Option<Reader>,
    /// Lines read before the format was known (none of them recognisable yet).
    undetected: Vec<(usize, String)>,
    splitter: LineSplitter,
    builder: Builder,
    lines: usize,
    used_lines: usize,
    first_bad: Option<(usize, String)>,
}

/// The format's own reader.
enum Reader {
    ClaudeCode(claude_code::ClaudeCodeReader),
    Codex(codex::CodexReader),
}

/// Lines tried before giving up on recognising the format.
const DETECTION_LINES: usize = 64;

impl SessionImporter {
    /// An importer for `format`, or for the format the first recognisable line shows.
    pub fn new(format: Option<LogFormat>) -> SessionImporter {
        SessionImporter {
            format,
            reader: format.map(Reader::new),
            undetected: Vec::new(),
            splitter: LineSplitter::default(),
            builder: Builder::default(),
            lines: 0,
            used_lines: 0,
            first_bad: None,
        }
    }

    /// Reads bytes of the log; a line cut at the chunk's end waits for the next chunk.
    pub fn push_chunk(&mut self, chunk: &[u8]) {
        let mut splitter = core::mem::take(&mut self.splitter);
        splitter.push(chunk, &mut |line| self.take_line(line, false));
        self.splitter = splitter;
    }

    /// Reads one whole line (without its newline).
    pub fn push_line(&mut self, line: &str) {
        let mut splitter = core::mem::take(&mut self.splitter);
        splitter.push_line(line, &mut |line| self.take_line(line, false));
        self.splitter = splitter;
    }

    /// How far the import has got.
    pub fn progress(&self) -> Progress {
        Progress {
            lines: self.lines,
            bytes: self.splitter.bytes(),
        }
    }

    /// Ends the import: the last line (if it had no newline), then the scenario.
    ///
    /// # Errors
    /// When no line at all could be read: the first bad line's number, what was wrong and
    /// what was expected.
    pub fn finish(mut self) -> Result<Imported, Error> {
        if let Some(last) = self.splitter.take_rest() {
            self.take_line(last, true);
        }
        if self.used_lines == 0 {
            return Err(self.nothing_read());
        }
        let format = self.format.unwrap_or(LogFormat::ClaudeCode);
        let reader = self.reader.take().unwrap_or_else(|| Reader::new(format));
        match reader {
            Reader::ClaudeCode(reader) => reader.finish(&mut self.builder),
            Reader::Codex(reader) => reader.finish(&mut self.builder),
        }
        let (scenario, scenario_json, recorded, warnings) = self.builder.finish(format)?;
        Ok(Imported {
            format,
            scenario,
            scenario_json,
            recorded,
            warnings,
        })
    }

    fn take_line(&mut self, line: Line, last_without_newline: bool) {
        self.lines += 1;
        match line {
            Line::Text(text) => self.read_line(text, last_without_newline),
            Line::Refused(refused) => self.refused_line(refused),
        }
    }

    fn read_line(&mut self, line: String, last_without_newline: bool) {
        let number = self.lines;
        // A byte-order mark (an editor's, or a log written through one) is not part of the
        // JSON; wherever a line starts with one, it is read without it.
        let text = line.strip_prefix('\u{feff}').unwrap_or(&line);
        if text.trim().is_empty() {
            return;
        }
        let parsed = parse_json(text);
        // The text is not needed once parsed: a long line's buffer goes before its content
        // is copied into the scenario's terms.
        drop(line);
        let parsed = match parsed {
            Ok(value @ Json::Object(_)) => value,
            Ok(other) => {
                self.bad_line(number, format!("a JSON {}, not an object", other.kind()));
                return;
            }
            Err(error) if last_without_newline => {
                self.builder.warn(
                    number,
                    WarningKind::TruncatedLine,
                    format!(
                        "the last line ends without a newline and is not complete JSON ({error}): \
                         the client was probably still writing it; left out"
                    ),
                );
                self.remember_first_bad(number, format!("invalid JSON: {error}"));
                return;
            }
            Err(error) => {
                self.bad_line(number, format!("invalid JSON: {error}"));
                return;
            }
        };
        if self.reader.is_none() {
            self.detect(number, parsed);
            return;
        }
        self.use_line(number, &parsed);
    }

    /// A line past the size limits: a warning, and what its outline tells the reader (a
    /// Claude Code record still links its thread).
    fn refused_line(&mut self, refused: Refused) {
        let number = self.lines;
        let size = match refused.values {
            Some(values) => format!(
                "{} bytes holding {values} JSON values, over the {MAX_LINE_VALUES} a line may hold",
                refused.bytes
            ),
            None => format!(
                "{} bytes, over the {} MiB a line may hold",
                refused.bytes,
                MAX_LINE_BYTES >> 20
            ),
        };
        if self.reader.is_none() {
            if let Some(format) = LogFormat::of_line(&refused.outline) {
                self.start(format);
            }
        }
        let kept = match self.reader.as_mut() {
            Some(Reader::ClaudeCode(reader)) => reader.refused(number, &refused.outline),
            _ => false,
        };
        let what = if kept {
            "its content is left out; the record keeps its place in the thread"
        } else {
            "the line is left out"
        };
        self.builder.warn(
            number,
            WarningKind::LineTooLong,
            format!("a line of {size}, not read: {what}"),
        );
        self.remember_first_bad(number, format!("a line of {size}"));
    }

    /// Holds lines back until one shows the format; then reads them all in order.
    fn detect(&mut self, number: usize, parsed: Json) {
        match LogFormat::of_line(&parsed) {
            Some(format) => {
                self.start(format);
                self.use_line(number, &parsed);
            }
            None if self.undetected.len() < DETECTION_LINES => {
                self.undetected.push((number, parsed.to_compact()));
            }
            None => self.bad_line(
                number,
                String::from("neither a Claude Code line nor a Codex rollout line"),
            ),
        }
    }

    /// The format is known: its reader reads the lines held back.
    fn start(&mut self, format: LogFormat) {
        self.format = Some(format);
        self.reader = Some(Reader::new(format));
        for (held, text) in core::mem::take(&mut self.undetected) {
            if let Ok(value) = parse_json(&text) {
                self.use_line(held, &value);
            }
        }
    }

    fn use_line(&mut self, number: usize, line: &Json) {
        let read = match self.reader.as_mut() {
            Some(Reader::ClaudeCode(reader)) => reader.read(number, line, &mut self.builder),
            Some(Reader::Codex(reader)) => reader.read(number, line, &mut self.builder),
            None => Err(String::from("no format")),
        };
        match read {
            Ok(()) => self.used_lines += 1,
            Err(reason) => self.bad_line(number, reason),
        }
    }

    fn bad_line(&mut self, number: usize, reason: String) {
        self.builder.warn(
            number,
            WarningKind::BadLine,
            format!("{reason}; the line is left out"),
        );
        self.remember_first_bad(number, reason);
    }

    fn remember_first_bad(&mut self, number: usize, reason: String) {
        if self.first_bad.is_none() {
            self.first_bad = Some((number, reason));
        }
    }

    fn nothing_read(&self) -> Error {
        let expected = match self.format {
            Some(LogFormat::ClaudeCode) => {
                "a Claude Code session line: a JSON object with \"type\" (user, assistant, \
                 system…), \"uuid\" and \"message\""
            }
            Some(LogFormat::Codex) => {
                "a Codex rollout line: a JSON object { \"timestamp\", \"type\", \"payload\" }"
            }
            None => {
                "one JSON object per line, as Claude Code (\"type\", \"uuid\", \"message\") or \
                 Codex (\"timestamp\", \"type\", \"payload\") write them"
            }
        };
        let (field, found) = match &self.first_bad {
            Some((line, reason)) => (format!("session log line {line}"), reason.clone()),
            None if !self.undetected.is_empty() => (
                format!("session log line {}", self.undetected[0].0),
                String::from("not recognisable as either format"),
            ),
            None => (String::from("session log"), String::from("no lines")),
        };
        Error::InvalidConfig {
            field,
            reason: format!("{found}; nothing could be read: expected {expected}"),
        }
    }
}

impl Reader {
    fn new(format: LogFormat) -> Reader {
        match format {
            LogFormat::ClaudeCode => Reader::ClaudeCode(claude_code::ClaudeCodeReader::default()),
            LogFormat::Codex => Reader::Codex(codex::CodexReader::default()),
        }
    }
}

/// Imports a whole session log held in memory; `format` `None` detects it from the first
/// recognisable lines.
///
/// # Errors
/// When no line at all could be read (see [`SessionImporter::finish`]).
pub fn import_session(text: &str, format: Option<LogFormat>) -> Result<Imported, Error> {
    import_session_reporting(text, format, &mut |_| Ok(()))
}

/// How many bytes of a log [`import_session_reporting`] reads between two reports.
pub const IMPORT_PROGRESS_BYTES: usize = 1 << 20;

/// [`import_session`], telling `progress` how many bytes of the log were read (`done` of
/// `total` bytes) after every [`IMPORT_PROGRESS_BYTES`] and at the end; an error from
/// `progress` stops the import with that error (a host's cancellation).
///
/// # Errors
/// As [`import_session`], or what `progress` returned.
pub fn import_session_reporting(
    text: &str,
    format: Option<LogFormat>,
    progress: &mut dyn FnMut(StepsDone) -> Result<(), Error>,
) -> Result<Imported, Error> {
    let mut importer = SessionImporter::new(format);
    let bytes = text.as_bytes();
    let mut done = 0;
    for chunk in bytes.chunks(IMPORT_PROGRESS_BYTES) {
        importer.push_chunk(chunk);
        done += chunk.len();
        progress(StepsDone {
            done,
            total: bytes.len(),
        })?;
    }
    importer.finish()
}
