//! The `Session` class: a virtual workspace a web IDE drives (its files, the agent's Read,
//! Edit and Write tools, human turns and tool rounds), with each turn's attachments and
//! decisions crossing back as plain objects.

use context_assembly::search::{DEFAULT_LIMIT, MAX_LIMIT};
use context_assembly::session::TurnFigures;
use context_assembly::snapshot::{JournaledSession, RestoreOptions, SessionSpec};
use js_sys::{JsString, Number};
use wasm_bindgen::prelude::*;

use crate::args::{self, Options};
use crate::{export, Failure};

/// A virtual workspace and the agent working in it. Times are logical milliseconds given
/// by the caller; paths may be absolute, relative to `cwd`, or `~/…`.
#[wasm_bindgen(js_name = Session)]
pub struct SessionJs(JournaledSession);

#[wasm_bindgen(js_class = Session)]
impl SessionJs {
    /// A session over an empty workspace (default profile `recommended`).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "SessionOptions")] options: JsValue,
    ) -> Result<SessionJs, JsValue> {
        // The one export whose value stays in Rust: it shares the arguments and the errors.
        let session = || {
            let options = Options::parse(&options, &["profile", "cwd", "home", "config"])?;
            let spec = SessionSpec {
                profile: options.name("profile")?,
                cwd: options.required_string("cwd", "the working directory, an absolute path")?,
                home: options.string("home")?,
                // The same configuration a scenario's `config` takes (web/scenarios/FORMAT.md).
                config: match options.value("config")? {
                    None => None,
                    Some(config) => Some(args::json("config", &config)?),
                },
            };
            Ok(JournaledSession::new(spec)?)
        };
        session()
            .map(SessionJs)
            .map_err(|failure: Failure| failure.thrown("new Session"))
    }

    /// Creates or overwrites a file; bytes that are not UTF-8 make a binary file.
    #[wasm_bindgen(js_name = writeFile)]
    pub fn write_file(
        &mut self,
        path: JsString,
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] content: JsValue,
        #[wasm_bindgen(js_name = mtimeMs)] mtime_ms: Number,
    ) -> Result<(), JsValue> {
        export("writeFile", || {
            let path = args::text("path", &path)?;
            let content = args::content(&content)?;
            let mtime_ms = args::time("mtimeMs", &mtime_ms)?;
            Ok(self.0.write_file(&path, content, mtime_ms)?)
        })
        .map(drop)
    }

    /// Deletes a file or an empty directory.
    #[wasm_bindgen(js_name = deleteFile)]
    pub fn delete_file(
        &mut self,
        path: JsString,
        #[wasm_bindgen(js_name = atMs)] at_ms: Number,
    ) -> Result<(), JsValue> {
        export("deleteFile", || {
            let path = args::text("path", &path)?;
            Ok(self.0.delete_file(&path, args::time("atMs", &at_ms)?)?)
        })
        .map(drop)
    }

    /// Renames a file or directory, replacing a file at `to` (an editor's atomic save).
    pub fn rename(
        &mut self,
        from: JsString,
        to: JsString,
        #[wasm_bindgen(js_name = atMs)] at_ms: Number,
    ) -> Result<(), JsValue> {
        export("rename", || {
            let from = args::text("from", &from)?;
            let to = args::text("to", &to)?;
            Ok(self.0.rename(&from, &to, args::time("atMs", &at_ms)?)?)
        })
        .map(drop)
    }

    /// Creates a directory and its missing parents.
    pub fn mkdir(
        &mut self,
        path: JsString,
        #[wasm_bindgen(js_name = atMs)] at_ms: Number,
    ) -> Result<(), JsValue> {
        export("mkdir", || {
            let path = args::text("path", &path)?;
            Ok(self.0.mkdir(&path, args::time("atMs", &at_ms)?)?)
        })
        .map(drop)
    }

    /// Makes every look at `path` fail with `kind` until it is cleared with `null`.
    #[wasm_bindgen(js_name = setTransientError)]
    pub fn set_transient_error(
        &mut self,
        path: JsString,
        #[wasm_bindgen(unchecked_param_type = "TransientErrorKind | null")] kind: JsValue,
    ) -> Result<(), JsValue> {
        export("setTransientError", || {
            let path = args::text("path", &path)?;
            let kind = args::transient_error(&kind)?;
            Ok(self.0.set_transient_error(&path, kind)?)
        })
        .map(drop)
    }

    /// The entries of a directory, in byte order of their names.
    #[wasm_bindgen(js_name = listDir, unchecked_return_type = "DirEntry[]")]
    pub fn list_dir(&self, path: JsString) -> Result<JsValue, JsValue> {
        export("listDir", || {
            Ok(self.0.session().list_dir(&args::text("path", &path)?)?)
        })
    }

    /// Codex's `@` file search over the workspace below the cwd: the best `limit` (default
    /// 20) files and directories for `query`, with the positions that matched, and how many
    /// matched in all.
    #[wasm_bindgen(js_name = searchFiles, unchecked_return_type = "SearchResult")]
    pub fn search_files(
        &mut self,
        query: JsString,
        #[wasm_bindgen(unchecked_optional_param_type = "SearchOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        export("searchFiles", || {
            let query = args::text("query", &query)?;
            let options = Options::parse(&options, &["limit"])?;
            let limit = options.integer("limit", 0, MAX_LIMIT as u64)?;
            let limit = limit.map_or(DEFAULT_LIMIT, |n| n as usize);
            Ok(self.0.search_files(&query, limit).in_utf16())
        })
    }

    /// A path as the session spells it: `~`, relative and `..` spellings expanded against
    /// the cwd and home, in NFC, confined to the root (what every other method does first).
    #[wasm_bindgen(unchecked_return_type = "string")]
    pub fn expand(&self, path: JsString) -> Result<JsValue, JsValue> {
        export("expand", || {
            Ok(self.0.session().expand(&args::text("path", &path)?)?)
        })
    }

    /// The kind, size and mtime of a file or directory.
    #[wasm_bindgen(unchecked_return_type = "Stat")]
    pub fn stat(&self, path: JsString) -> Result<JsValue, JsValue> {
        export("stat", || {
            Ok(self.0.session().stat(&args::text("path", &path)?)?)
        })
    }

    /// A file's text as an editor shows it, or `null` for a binary file.
    #[wasm_bindgen(js_name = readFileText, unchecked_return_type = "string | null")]
    pub fn read_file_text(&self, path: JsString) -> Result<JsValue, JsValue> {
        export("readFileText", || {
            Ok(self
                .0
                .session()
                .read_file_text(&args::text("path", &path)?)?)
        })
    }

    /// The agent's Read tool: a failed read is a result with `isError`, not a throw.
    #[wasm_bindgen(unchecked_return_type = "ToolResult")]
    pub fn read(
        &mut self,
        path: JsString,
        #[wasm_bindgen(unchecked_param_type = "ReadOptions | null | undefined")] options: JsValue,
        #[wasm_bindgen(js_name = atMs)] at_ms: Number,
    ) -> Result<JsValue, JsValue> {
        export("read", || {
            let path = args::text("path", &path)?;
            let options = Options::parse(&options, &["offset", "limit"])?;
            let offset = options.integer("offset", 0, args::MAX_SAFE_WHOLE)?;
            // The same range a scenario's Read input takes: a whole number of lines ≥ 0.
            let limit = options
                .integer("limit", 0, args::MAX_SAFE_WHOLE)?
                .map(|n| n as i64);
            let at_ms = args::time("atMs", &at_ms)?;
            Ok(self.0.read(&path, offset, limit, at_ms)?)
        })
    }

    /// The agent's Edit tool: replaces `oldString` with `newString`.
    #[wasm_bindgen(unchecked_return_type = "ToolResult")]
    pub fn edit(
        &mut self,
        path: JsString,
        #[wasm_bindgen(js_name = oldString)] old_string: JsString,
        #[wasm_bindgen(js_name = newString)] new_string: JsString,
        #[wasm_bindgen(js_name = atMs)] at_ms: Number,
    ) -> Result<JsValue, JsValue> {
        export("edit", || {
            let path = args::text("path", &path)?;
            let old_string = args::text("oldString", &old_string)?;
            let new_string = args::text("newString", &new_string)?;
            let at_ms = args::time("atMs", &at_ms)?;
            Ok(self.0.edit(&path, &old_string, &new_string, at_ms)?)
        })
    }

    /// The agent's Write tool: creates or overwrites a whole file.
    #[wasm_bindgen(unchecked_return_type = "ToolResult")]
    pub fn write(
        &mut self,
        path: JsString,
        content: JsString,
        #[wasm_bindgen(js_name = atMs)] at_ms: Number,
    ) -> Result<JsValue, JsValue> {
        export("write", || {
            let path = args::text("path", &path)?;
            let content = args::text("content", &content)?;
            let at_ms = args::time("atMs", &at_ms)?;
            Ok(self.0.write(&path, &content, at_ms)?)
        })
    }

    /// A human turn: the prompt's mentions, changed files and nested memory.
    #[wasm_bindgen(unchecked_return_type = "Turn")]
    pub fn submit(
        &mut self,
        prompt: JsString,
        #[wasm_bindgen(js_name = atMs)] at_ms: Number,
    ) -> Result<JsValue, JsValue> {
        export("submit", || {
            let prompt = args::text("prompt", &prompt)?;
            Ok(self.0.submit(&prompt, args::time("atMs", &at_ms)?)?)
        })
    }

    /// `submit` for a host that does not render the request: the same turn, crossing
    /// without its request, with the request's `tokens` and `window` beside the attachments
    /// (a long session's request is most of what a turn costs to cross).
    #[wasm_bindgen(js_name = submitFigures, unchecked_return_type = "TurnFigures")]
    pub fn submit_figures(
        &mut self,
        prompt: JsString,
        #[wasm_bindgen(js_name = atMs)] at_ms: Number,
    ) -> Result<JsValue, JsValue> {
        export("submitFigures", || {
            let prompt = args::text("prompt", &prompt)?;
            let turn = self.0.submit(&prompt, args::time("atMs", &at_ms)?)?;
            Ok(TurnFigures::from(turn))
        })
    }

    /// A tool round: changed files and the rest, but no mentions.
    #[wasm_bindgen(js_name = toolRound, unchecked_return_type = "Turn")]
    pub fn tool_round(
        &mut self,
        #[wasm_bindgen(js_name = atMs)] at_ms: Number,
    ) -> Result<JsValue, JsValue> {
        export("toolRound", || {
            Ok(self.0.tool_round(args::time("atMs", &at_ms)?)?)
        })
    }

    /// Applies one step written as in a scenario's `steps` (a prompt, the model's response
    /// with tool calls, tool results, an edit, a mode change, the IDE's state…) and returns
    /// its turn, with the request when the step sends one.
    #[wasm_bindgen(unchecked_return_type = "Turn")]
    pub fn step(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ScenarioStep")] step: JsValue,
        #[wasm_bindgen(js_name = atMs)] at_ms: Number,
    ) -> Result<JsValue, JsValue> {
        export("step", || {
            let step = args::json("step", &step)?;
            let at_ms = args::time("atMs", &at_ms)?;
            // The core's errors name their place from `step` already (`step.prompt: …`).
            self.0.step(&step, at_ms).map_err(Failure::placed)
        })
    }

    /// What a compaction would do now (nothing changes): the summary request, what would be
    /// cleared, the post-compact attachments, every decision.
    #[wasm_bindgen(js_name = planCompaction, unchecked_return_type = "CompactionPlan")]
    pub fn plan_compaction(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "CompactionOptions")] options: JsValue,
        #[wasm_bindgen(js_name = atMs)] at_ms: Number,
    ) -> Result<JsValue, JsValue> {
        export("planCompaction", || {
            let options = args::json_or_empty("options", &options)?;
            let at_ms = args::time("atMs", &at_ms)?;
            Ok(self.0.plan_compaction(&options, at_ms)?)
        })
    }

    /// Carries out a plan from `planCompaction`; `summary` is the model's answer to the plan's
    /// summary request (absent: the extractive summariser writes one).
    #[wasm_bindgen(js_name = applyCompaction, unchecked_return_type = "CompactionReport")]
    pub fn apply_compaction(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "CompactionPlan")] plan: JsValue,
        #[wasm_bindgen(js_name = atMs)] at_ms: Number,
        #[wasm_bindgen(unchecked_optional_param_type = "string")] summary: JsValue,
    ) -> Result<JsValue, JsValue> {
        export("applyCompaction", || {
            // A plan is the object planCompaction returned, never its JSON text.
            let plan = match plan.is_object() {
                true => args::json("plan", &plan)?,
                false => String::new(),
            };
            let at_ms = args::time("atMs", &at_ms)?;
            let summary = args::optional_text("summary", &summary)?;
            Ok(self.0.apply_compaction(&plan, summary.as_deref(), at_ms)?)
        })
    }

    /// The request the next round would send, as things stand.
    #[wasm_bindgen(js_name = currentRequest, unchecked_return_type = "Request")]
    pub fn current_request(
        &mut self,
        #[wasm_bindgen(js_name = atMs)] at_ms: Number,
    ) -> Result<JsValue, JsValue> {
        export("currentRequest", || {
            Ok(self.0.current_request(args::time("atMs", &at_ms)?)?)
        })
    }

    /// The session as JSON text: how it started and every act since, versioned
    /// (`formatVersion`). `Session.restore` brings back an equal session, in this page or
    /// another; the text grows with the session's turns (it holds every act's input; saves
    /// of a file nothing looked at in between coalesce).
    #[wasm_bindgen(unchecked_return_type = "string")]
    pub fn snapshot(&self) -> Result<JsValue, JsValue> {
        export("snapshot", || Ok(self.0.snapshot()))
    }

    /// The session a `snapshot()` was taken of, replayed act by act. The snapshot is trusted
    /// (its profile, config and deny rules) unless `options` gives the host's own `profile`
    /// or `config`, which then replace the snapshot's.
    pub fn restore(
        snapshot: JsString,
        #[wasm_bindgen(unchecked_optional_param_type = "RestoreOptions")] options: JsValue,
    ) -> Result<SessionJs, JsValue> {
        let restored = || {
            let snapshot = args::text("snapshot", &snapshot)?;
            let options = Options::parse(&options, &["profile", "config"])?;
            let host = RestoreOptions {
                profile: match options.string("profile")? {
                    None => None,
                    Some(name) => Some(name.parse()?),
                },
                config: match options.value("config")? {
                    None => None,
                    Some(config) => Some(args::json("config", &config)?),
                },
            };
            Ok(JournaledSession::restore_with(&snapshot, &host)?)
        };
        restored()
            .map(SessionJs)
            .map_err(|failure: Failure| failure.thrown("Session.restore"))
    }

    /// The read-file state, most recently used first.
    #[wasm_bindgen(js_name = fileState, unchecked_return_type = "FileStateRow[]")]
    pub fn file_state(&self) -> Result<JsValue, JsValue> {
        export("fileState", || Ok(self.0.session().file_state()))
    }
}
