//! Redaction for sharing: a scenario whose text is replaced by placeholders that replay to
//! the same meter.
//!
//! [`redact_scenario`] replaces every word of four characters or more in the scenario's
//! content (file contents, prompts, assistant text and thinking, tool inputs and outputs,
//! summaries, diagnostics, selections, reminders, the description) by a stand-in of the same
//! shape (see `cipher.rs`): each character keeps its class and its size, so every token
//! method counts each text, and each line of it, exactly as before, whatever the profile.
//! The structure stays: the same files, steps, tool calls and ids, line breaks, indentation
//! and punctuation; the same word always gets the same stand-in, so diffs, Edit's search and
//! Grep keep their matches; a prompt's @-mentions of files stay resolvable.
//!
//! What is kept as written: words of one to three characters, punctuation and numbers in
//! JSON fields (Read's `offset` and `limit`), tool names and ids, the mode names a tool input
//! holds (`status`, `output_mode`), `config` and `registry` steps (settings and registries:
//! redact them by hand if they hold anything private), `turnSettings`, the mentions of MCP
//! resources and agents, and tag names (`<summary>`: a compaction summary's markup). Paths
//! are kept ([`PathMode::Keep`]) or hashed word by word ([`PathMode::Hash`]: the extension,
//! dot-names and the memory files' names stay; the paths `config` names are hashed alike).
//!
//! Left out: the scenario's `facts` (the recall measure's seeded texts are exactly what
//! redaction hides, so a shared scenario carries none).
//!
//! Where the replay can still differ: a substring cut inside a word (an Edit's `old_string`
//! or a Grep pattern that starts mid-identifier) no longer matches, since words are
//! replaced whole; two non-ASCII words of the same shape may share a stand-in; and under
//! [`PathMode::Hash`] a name that sorts differently hashed can change an order the engine
//! lists files in (the totals stay: the lengths are the same).

mod cipher;

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::str::FromStr;

use super::parse::{parse_json, Json};
use super::{parse_scenario, Scenario};
use crate::{Error, Profile};
use cipher::Cipher;

crate::vocabulary::named_enum! {
    /// What [`redact_scenario`] does to paths.
    pub enum PathMode {
        /// Paths stay as written (the default): the file tree is visible, the contents not.
        Keep => "keep",
        /// Every word of a path is replaced as in the text (deterministically: the same
        /// name, the same stand-in); extensions, dot-names and memory files' names stay.
        Hash => "hash",
    }
}

impl FromStr for PathMode {
    type Err = Error;

    fn from_str(name: &str) -> Result<PathMode, Error> {
        PathMode::ALL
            .iter()
            .copied()
            .find(|mode| mode.as_str() == name)
            .ok_or_else(|| Error::InvalidConfig {
                field: "paths".into(),
                reason: format!("unknown path mode {name:?}: expected \"keep\" or \"hash\""),
            })
    }
}

/// How to redact.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RedactOptions {
    /// Keep the paths or hash them.
    pub paths: PathMode,
}

impl Default for RedactOptions {
    /// Paths kept.
    fn default() -> RedactOptions {
        RedactOptions {
            paths: PathMode::Keep,
        }
    }
}

/// A redacted scenario and what was replaced.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Redacted {
    /// The redacted scenario (serialised as `scenarioJson`).
    #[serde(skip)]
    pub scenario: Scenario,
    /// The redacted scenario as a JSON document: one file and one step per line.
    pub scenario_json: String,
    /// What was done to paths.
    pub paths: PathMode,
    /// What was replaced.
    pub replaced: Replaced,
}

/// How many texts of each kind had words replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Replaced {
    /// File contents: the initial files and `writeFile` steps.
    pub files: usize,
    /// Prompts and queued commands.
    pub prompts: usize,
    /// The assistant's text and thinking blocks.
    pub assistant_texts: usize,
    /// Tool calls whose input held text.
    pub tool_inputs: usize,
    /// Tool outputs and tool results.
    pub tool_outputs: usize,
    /// Summaries, compaction instructions, diagnostics, IDE selections, reminders, task
    /// descriptions, plan feedback and the scenario's description.
    pub other_texts: usize,
    /// Distinct words replaced.
    pub words: usize,
    /// Paths hashed (0 when they are kept).
    pub paths: usize,
}

/// Tool input fields that hold a path (or, for `Glob`, its `pattern`).
const PATH_FIELDS: [&str; 4] = ["file_path", "path", "notebook_path", "glob"];

/// Tool input fields whose values are names the engine acts on, not content.
const KEPT_FIELDS: [&str; 2] = ["output_mode", "status"];

/// Redacts a scenario (its JSON text) for sharing: see the module's documentation for what is
/// replaced and what is kept.
///
/// # Errors
/// When `json` is not a valid scenario (the error [`parse_scenario`] gives).
///
/// # Example
/// ```
/// use context_assembly::scenario::{redact_scenario, run_scenario, RedactOptions};
/// let original = r#"{ "profile": "claude-code",
///   "files": { "notes/plan.md": "Ship the parser before Friday.\n" },
///   "steps": [ { "kind": "user", "prompt": "Summarise @notes/plan.md for Alice" } ] }"#;
/// let redacted = redact_scenario(original, RedactOptions::default()).unwrap();
/// assert!(!redacted.scenario_json.contains("Friday") && !redacted.scenario_json.contains("Alice"));
/// assert!(redacted.scenario_json.contains("@notes/plan.md")); // the mention still resolves
/// let before = run_scenario(&context_assembly::scenario::parse_scenario(original).unwrap()).unwrap();
/// let after = run_scenario(&redacted.scenario).unwrap();
/// let total = |trace: &context_assembly::scenario::Trace| trace.request(0).map(|r| r.tokens.total);
/// assert!(total(&before).is_some());
/// assert_eq!(total(&after), total(&before));
/// ```
pub fn redact_scenario(json: &str, options: RedactOptions) -> Result<Redacted, Error> {
    let parsed = parse_scenario(json)?;
    let mut root = parse_json(json).map_err(|reason| Error::InvalidConfig {
        field: "scenario".into(),
        reason,
    })?;
    let mut originals = BTreeSet::new();
    words_of(&root, &mut originals);
    let mut redactor = Redactor {
        cipher: Cipher::new(
            options.paths,
            Profile::preset(parsed.profile).mentions,
            originals,
        ),
        paths: options.paths,
        replaced: Replaced::default(),
    };
    redactor.root(&mut root, &parsed);
    let scenario_json = document(&root);
    let scenario = parse_scenario(&scenario_json)?;
    let mut replaced = redactor.replaced;
    replaced.words = redactor.cipher.words_replaced();
    Ok(Redacted {
        scenario,
        scenario_json,
        paths: options.paths,
        replaced,
    })
}

/// Which count a replaced text adds to.
#[derive(Clone, Copy)]
enum Counted {
    Files,
    Prompts,
    AssistantTexts,
    ToolOutputs,
    OtherTexts,
}

/// The walk over a scenario's JSON tree.
struct Redactor {
    cipher: Cipher,
    paths: PathMode,
    replaced: Replaced,
}

impl Redactor {
    fn root(&mut self, root: &mut Json, parsed: &Scenario) {
        let Json::Object(entries) = root else { return };
        entries.retain(|(key, _)| key != "facts");
        if self.paths == PathMode::Hash {
            // Files given relative to the default directories must move with them.
            for (key, value) in [("cwd", &parsed.cwd), ("home", &parsed.home)] {
                if !entries.iter().any(|(k, _)| k == key) {
                    entries.push((key.into(), Json::String(value.clone())));
                }
            }
        }
        for (key, value) in entries.iter_mut() {
            match key.as_str() {
                "description" => self.text(value, Counted::OtherTexts),
                "cwd" | "home" => self.path(value),
                "config" if self.paths == PathMode::Hash => self.config_paths(value),
                "files" => self.files(value),
                "steps" => each(value, |step| self.step(step)),
                _ => {}
            }
        }
    }

    /// Under [`PathMode::Hash`], the paths `config` names: deny rules' patterns, extra
    /// directories, the memory directory, the plan file and the transcript.
    fn config_paths(&mut self, config: &mut Json) {
        let Json::Object(entries) = config else {
            return;
        };
        for (key, value) in entries.iter_mut() {
            match key.as_str() {
                "deny" => each(value, |rule| {
                    if let Json::String(rule) = rule {
                        *rule = self.deny_rule(rule);
                    }
                }),
                "additionalDirectories" => each(value, |path| self.path(path)),
                "memoryDir" | "planFile" | "transcriptPath" => self.path(value),
                _ => {}
            }
        }
    }

    /// A deny rule with its pattern hashed: `Read(./secret/**)` keeps `Read(`, `./`, `**`.
    fn deny_rule(&mut self, rule: &str) -> String {
        match (rule.find('('), rule.strip_suffix(')')) {
            (Some(open), Some(inner)) if open < inner.len() => {
                format!(
                    "{}({})",
                    &rule[..open],
                    self.cipher.path(&inner[open + 1..])
                )
            }
            _ => self.cipher.path(rule),
        }
    }

    fn files(&mut self, files: &mut Json) {
        match files {
            Json::Object(entries) => {
                for (path, content) in entries.iter_mut() {
                    self.file_content(path, content);
                    *path = self.cipher.path(path);
                    self.count_path();
                }
            }
            Json::Array(items) => {
                for item in items {
                    let path = item
                        .get("path")
                        .and_then(Json::as_str)
                        .map(String::from)
                        .unwrap_or_default();
                    if let Some(content) = field_mut(item, "content") {
                        self.file_content(&path, content);
                    }
                    self.path_field(item, "path");
                }
            }
            _ => {}
        }
    }

    /// A file's content; memory files keep their `@` imports, as prompts keep mentions.
    fn file_content(&mut self, path: &str, content: &mut Json) {
        let name = path.rsplit('/').next().unwrap_or(path);
        let memory = matches!(name, "CLAUDE.md" | "CLAUDE.local.md" | "AGENTS.md")
            || path.contains("/rules/");
        if memory {
            self.text_with_mentions(content, Counted::Files);
        } else {
            self.text(content, Counted::Files);
        }
    }

    fn step(&mut self, step: &mut Json) {
        let kind = step.get("kind").and_then(Json::as_str).map(String::from);
        match kind.as_deref() {
            Some("user" | "queueCommand") => {
                if let Some(prompt) = field_mut(step, "prompt") {
                    self.text_with_mentions(prompt, Counted::Prompts);
                }
                if let Some(memories) = field_mut(step, "memories") {
                    each(memories, |path| self.path(path));
                }
            }
            Some("assistant") => {
                if let Some(blocks) = field_mut(step, "blocks") {
                    each(blocks, |block| self.block(block));
                }
            }
            Some("toolResults") => {
                if let Some(results) = field_mut(step, "results") {
                    each(results, |result| {
                        self.text_field(result, "content", Counted::ToolOutputs);
                    });
                }
            }
            Some("writeFile") => {
                let path = step.get("path").and_then(Json::as_str).map(String::from);
                if let Some(content) = field_mut(step, "content") {
                    self.file_content(path.as_deref().unwrap_or_default(), content);
                }
                self.path_field(step, "path");
            }
            Some("deleteFile" | "touch") => self.path_field(step, "path"),
            Some("rename") => {
                self.path_field(step, "from");
                self.path_field(step, "to");
            }
            Some("ide") => {
                if let Some(selection) = field_mut(step, "selection") {
                    self.path_field(selection, "path");
                    self.text_field(selection, "text", Counted::OtherTexts);
                }
                self.path_field(step, "openedFile");
            }
            Some("diagnostics") => self.diagnostics(step),
            Some("criticalReminder") => self.text_field(step, "text", Counted::OtherTexts),
            Some("taskStatus") => self.text_field(step, "description", Counted::OtherTexts),
            Some("compact") => {
                self.text_field(step, "summary", Counted::OtherTexts);
                self.text_field(step, "instructions", Counted::OtherTexts);
            }
            _ => {}
        }
    }

    fn block(&mut self, block: &mut Json) {
        match block.get("type").and_then(Json::as_str) {
            Some("text") => self.text_field(block, "text", Counted::AssistantTexts),
            Some("thinking") => self.text_field(block, "thinking", Counted::AssistantTexts),
            Some("tool_use") => {
                let tool = block
                    .get("name")
                    .and_then(Json::as_str)
                    .map(String::from)
                    .unwrap_or_default();
                if let Some(input) = field_mut(block, "input") {
                    if self.tool_input(&tool, input) {
                        self.replaced.tool_inputs += 1;
                    }
                }
                self.text_field(block, "output", Counted::ToolOutputs);
                if let Some(approval) = field_mut(block, "approval") {
                    self.text_field(approval, "feedback", Counted::OtherTexts);
                }
            }
            _ => {}
        }
    }

    /// A tool input's strings: paths as paths, the names the engine acts on kept, the rest
    /// as text. True when some text was replaced.
    fn tool_input(&mut self, tool: &str, input: &mut Json) -> bool {
        match input {
            Json::Object(entries) => {
                let mut changed = false;
                for (key, value) in entries.iter_mut() {
                    let is_path =
                        PATH_FIELDS.contains(&key.as_str()) || (tool == "Glob" && key == "pattern");
                    if is_path {
                        self.path(value);
                    } else if !KEPT_FIELDS.contains(&key.as_str()) {
                        changed |= self.tool_input(tool, value);
                    }
                }
                changed
            }
            Json::Array(items) => items
                .iter_mut()
                .fold(false, |changed, item| self.tool_input(tool, item) | changed),
            Json::String(text) => {
                let redacted = self.cipher.text(text);
                let changed = redacted != *text;
                *text = redacted;
                changed
            }
            _ => false,
        }
    }

    fn diagnostics(&mut self, step: &mut Json) {
        let Some(files) = field_mut(step, "files") else {
            return;
        };
        each(files, |file| {
            self.path_field(file, "path");
            if let Some(items) = field_mut(file, "items") {
                each(items, |item| {
                    self.text_field(item, "message", Counted::OtherTexts);
                });
            }
        });
    }

    fn text_field(&mut self, object: &mut Json, key: &str, counted: Counted) {
        if let Some(value) = field_mut(object, key) {
            self.text(value, counted);
        }
    }

    fn path_field(&mut self, object: &mut Json, key: &str) {
        if let Some(value) = field_mut(object, key) {
            self.path(value);
        }
    }

    fn text(&mut self, value: &mut Json, counted: Counted) {
        if let Json::String(text) = value {
            let redacted = self.cipher.text(text);
            self.replace(text, redacted, counted);
        }
    }

    fn text_with_mentions(&mut self, value: &mut Json, counted: Counted) {
        if let Json::String(text) = value {
            let redacted = self.cipher.text_with_mentions(text);
            self.replace(text, redacted, counted);
        }
    }

    fn replace(&mut self, text: &mut String, redacted: String, counted: Counted) {
        if redacted == *text {
            return;
        }
        *text = redacted;
        let count = match counted {
            Counted::Files => &mut self.replaced.files,
            Counted::Prompts => &mut self.replaced.prompts,
            Counted::AssistantTexts => &mut self.replaced.assistant_texts,
            Counted::ToolOutputs => &mut self.replaced.tool_outputs,
            Counted::OtherTexts => &mut self.replaced.other_texts,
        };
        *count += 1;
    }

    fn path(&mut self, value: &mut Json) {
        if let Json::String(path) = value {
            *path = self.cipher.path(path);
            self.count_path();
        }
    }

    fn count_path(&mut self) {
        if self.paths == PathMode::Hash {
            self.replaced.paths += 1;
        }
    }
}

/// Every word, in every string of the tree (keys included).
fn words_of(value: &Json, into: &mut BTreeSet<String>) {
    match value {
        Json::String(text) => into.extend(cipher::words(text)),
        Json::Array(items) => items.iter().for_each(|item| words_of(item, into)),
        Json::Object(entries) => {
            for (key, item) in entries {
                into.extend(cipher::words(key));
                words_of(item, into);
            }
        }
        _ => {}
    }
}

fn field_mut<'a>(object: &'a mut Json, key: &str) -> Option<&'a mut Json> {
    match object {
        Json::Object(entries) => entries.iter_mut().find(|(k, _)| k == key).map(|(_, v)| v),
        _ => None,
    }
}

fn each(array: &mut Json, mut visit: impl FnMut(&mut Json)) {
    if let Json::Array(items) = array {
        items.iter_mut().for_each(&mut visit);
    }
}

/// The scenario as a document: one root field per line, and one file and one step per line.
fn document(root: &Json) -> String {
    let Json::Object(entries) = root else {
        return root.to_compact();
    };
    let mut out = String::from("{");
    for (index, (key, value)) in entries.iter().enumerate() {
        out.push_str(if index == 0 { "\n  " } else { ",\n  " });
        out.push_str(&Json::String(key.clone()).to_compact());
        out.push_str(": ");
        match value {
            Json::Object(items) if key == "files" && !items.is_empty() => {
                let lines: Vec<String> = items
                    .iter()
                    .map(|(path, content)| {
                        format!(
                            "{}: {}",
                            Json::String(path.clone()).to_compact(),
                            content.to_compact()
                        )
                    })
                    .collect();
                out.push_str(&format!("{{\n    {}\n  }}", lines.join(",\n    ")));
            }
            Json::Array(items) if (key == "files" || key == "steps") && !items.is_empty() => {
                let lines: Vec<String> = items.iter().map(Json::to_compact).collect();
                out.push_str(&format!("[\n    {}\n  ]", lines.join(",\n    ")));
            }
            _ => out.push_str(&value.to_compact()),
        }
    }
    out.push_str("\n}\n");
    out
}
