//! The `Session` class: a virtual workspace a web IDE drives (its files, the agent's Read,
//! Edit and Write tools, human turns and tool rounds), with each turn's attachments and
//! decisions crossing back as plain objects.

use context_assembly::scenario::{apply_step, parse_compaction_options, parse_session_config};
use context_assembly::search::DEFAULT_LIMIT;
use context_assembly::session::{
    CompactionPlan, FileStateRow, Session, SessionConfig, SessionOptions, ToolResult, Turn,
};
use context_assembly::vfs::{Content, EntryKind, TransientError, MAX_FILE_BYTES};
use context_assembly::Profile;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::access;
use crate::options::{
    describe, is_integer_in, string_argument, type_name, OptionsObject, MAX_SAFE,
};
use crate::{to_js, BindingError, JsResult};

#[wasm_bindgen(typescript_custom_section)]
const SESSION_TYPESCRIPT: &str = r#"
/** What a session knows besides its files; every field may be left out. */
export interface SessionConfig {
  /** `permissions.deny` rule texts, e.g. `"Read(./.env)"`. */
  deny?: string[];
  /** Resources of the connected MCP servers, for `@server:uri` mentions. */
  mcpResources?: McpResourceConfig[];
  /** Known agent types, for `@agent-…` mentions. */
  agents?: string[];
  /** Directories outside `cwd` the agent may read. */
  additionalDirectories?: string[];
  /** Tool definitions; absent or empty: the built-in set. `deferred` tools are only announced by name. */
  tools?: { name: string; description: string; inputSchema: { [key: string]: Json }; deferred?: boolean }[];
  /** Names of tools loaded on demand (announced by `deferred_tools_delta`). */
  deferredTools?: string[];
  /** Skills the Skill tool can run (listed by `skill_listing`). */
  skills?: { name: string; description: string }[];
  /** Connected MCP servers and their instructions (`mcp_instructions_delta`). */
  mcpServers?: { name: string; instructions?: string }[];
  /** The model's context window in tokens (default 200000). */
  contextWindow?: number;
  /** Tokens reserved for output: the effective window is the window minus this (default 20000). */
  outputReserve?: number;
  /** The system prompt's static part; absent: the built-in one. */
  systemPrompt?: string;
  platform?: "linux" | "darwin" | "win32";
  /** `git status` at the start; null: not a repository. */
  gitStatus?: string | null;
  /** The local time zone's offset from UTC in minutes (dates are local). */
  utcOffsetMinutes?: number;
  outputStyle?: string;
  /** Send `token_usage` reminders (CLAUDE_CODE_ENABLE_TOKEN_USAGE_ATTACHMENT). */
  tokenUsageReminder?: boolean;
  budgetUsdCents?: number;
  outputTokenBudget?: number;
  /** CLAUDE_CODE_DISABLE_ATTACHMENTS: only queued commands are attached. */
  disableAttachments?: boolean;
  autoModeAvailable?: boolean;
  compactionReminders?: boolean;
  interviewMode?: boolean;
  /** The plan file; absent: `~/.claude/plans/plan.md`. */
  planFile?: string;
  /** The auto-memory directory relevant memories come from. */
  memoryDir?: string;
  /** Where the host keeps the full transcript; a compaction's summary message points to it. */
  transcriptPath?: string;
  permissionMode?: PermissionModeName;
}
/** One resource of a connected MCP server. */
export interface McpResourceConfig { server: string; uri: string; name?: string; description?: string; text?: string }
/** The options of `new Session`. `cwd` and `home` are absolute paths. */
export interface SessionOptions { profile?: ProfileName; cwd: string; home?: string; config?: SessionConfig }
/** A simulated transient failure: a permission hiccup or an editor's atomic-save window. */
export type TransientErrorKind = "EACCES" | "EBUSY";
/** One entry of a directory listing. */
export interface DirEntry { name: string; kind: "file" | "directory" }
/** What `stat` reports; `size` is 0 for a directory. */
export interface Stat { kind: "file" | "directory"; size: number; mtimeMs: number }
/** The Read tool's range: `offset` is the first line (1-based), `limit` the number of lines. */
export interface ReadOptions { offset?: number; limit?: number }
/** What a tool call returns to the model. */
export interface ToolResult { isError: boolean; content: string }
/** How often a kind of attachment is produced. */
export type Frequency = "throttled" | "delta" | "first-then-incremental" | "event" | "prefetch";
/** Something added to the model's context, rendered as the model sees it ("" for kinds that render to nothing). */
export interface Attachment { kind: string; frequency: Frequency; path?: string; tokens: number; text: string; payloadUnits?: number }
/** What a decision concluded. */
export type Verdict = "included" | "truncated" | "silent" | "denied" | "too-large" | "already-in-context" | "unchanged" | "evicted" | "skipped" | "not-found" | "failed" | "throttled" | "over-budget" | "excluded" | "cleared" | "masked" | "dropped" | "replaced" | "not-applied" | "needed" | "kept" | "moved";
/** Something considered, with what was decided and why (denied, too large, unchanged…). */
export interface Decision { subject: string; verdict: Verdict; reason: string; detail?: string }
/** Which kind of round a step was. */
export type Round = "human-turn" | "tool-round" | "end-of-turn" | "awaiting-tool-results" | "compaction" | "event";
/** The result of one tool call. */
export interface ToolResultBlock { toolUseId: string; content: string; isError: boolean }
/** What a block's tokens are spent on: the segments of the context meter. */
export type Category = "system" | "tools" | "memory" | "attachments" | "conversation";
/** One content block of a request. */
export interface Block {
  type: "text" | "thinking" | "tool_use" | "tool_result" | "tool_definition";
  /** What produced it: "prompt", "assistant", "tool", "interruption" (the user stopped the turn), "user_context", "system_static", "environment", a tool's name, or an attachment kind. */
  source: string;
  /** The channel it travels in. */
  channel: "system" | "tools" | "userContext" | "messages";
  category: Category;
  /** An attachment's frequency class. */
  frequency?: Frequency;
  text: string;
  /** Tokens under the profile's counter; for a block with parts, their sum. */
  tokens: number;
  /** Tokens of the images or documents the block carries besides its text (included in `tokens`). */
  mediaTokens?: number;
  /** The text is a `<system-reminder>`. */
  reminder: boolean;
  /** The prompt cache's boundary lies before this block. */
  cacheBoundary?: boolean;
  toolUseId?: string;
  isError?: boolean;
  /** A tool result with attachments folded into it (Q50): the output, then each attachment. */
  parts?: Block[];
}
/** A message of the request (`developer`: the harness's instructions in a Codex request). */
export interface RequestMessage { role: "developer" | "user" | "assistant"; content: Block[] }
/** Tokens per channel; they sum to `total`. */
export interface ByChannel { system: number; tools: number; userContext: number; messages: number }
/** Tokens per category; they sum to `total`. */
export interface ByCategory { system: number; tools: number; memory: number; attachments: number; conversation: number }
/** The request the model receives on one round. */
export interface Request {
  system: Block[];
  tools: Block[];
  /** Prepended to the messages as a meta user message, never stored in the transcript. */
  userContext: Block[];
  /** Where the user context sits: before block `block` of message `message`. */
  userContextAt: { message: number; block: number };
  messages: RequestMessage[];
  tokens: { total: number; byChannel: ByChannel; byCategory: ByCategory };
  /** The context window; `free` + `total` = `context` when the request fits, else `over` says by how much it does not. `effective`: the window less the output reserve; `autocompact`: where auto-compaction fires (the profile's formula). */
  window: { context: number; free: number; over: number; effective: number; autocompact: number };
}
/** What one step produced: attachments in emission order, every decision, tool results, the compactions that ran before the request (auto-compaction, or a `compact` step), and the request. */
export interface Turn { round: Round; attachments: Attachment[]; decisions: Decision[]; toolResults: ToolResultBlock[]; compaction?: CompactionReport[]; request?: Request }
/** A compaction policy's id. */
export type PolicyId = "claude-code.full" | "claude-code.session_memory" | "claude-code.partial" | "claude-code.microcompact" | "claude-code.tool_result_budget" | "opencode.prune" | "swe.observation_mask" | "anthropic.clear_tool_uses" | "cline.truncate" | "codex.local" | "codex.remote";
/** What to compact with (web/scenarios/FORMAT.md, the `compact` step): the policy's knobs go in `params` under their camelCase names. */
export interface CompactionOptions { policy?: PolicyId; trigger?: Trigger; instructions?: string; pivot?: number; direction?: "from" | "upTo"; params?: { [key: string]: Json } }
/** An attachment a summary policy adds after the summary. */
export interface PlannedAttachment { kind: string; path?: string; tokens: number }
/** A compaction as it would run now. */
export interface CompactionPlan {
  id: number; policy: PolicyId; trigger: Trigger;
  /** Whether applying it changes anything; `reason` says what it will do or why not. */
  applies: boolean; reason: string;
  tokensBefore: number;
  /** The request that asks the model for a summary (summary policies). */
  summaryRequest?: string;
  summarisedRecords: number; keptRecords: number;
  /** What the summary clears: the read-file state's keys and the loaded nested-memory paths. */
  cleared: { readFiles: string[]; nestedMemory: string[] };
  postCompact: PlannedAttachment[];
  decisions: Decision[];
}
/** What happened to an item of the root set. */
export type Trigger = "auto" | "manual";
export type Fate = "kept" | "restored" | "referenced" | "reinjected" | "reloaded" | "summarised" | "masked" | "dropped";
/** One item of the root set and its fate. */
export interface Survival { item: string; kind: "system-prompt" | "project-memory" | "unconditional-rule" | "path-scoped-rule" | "nested-memory" | "auto-memory" | "invoked-skill" | "plan-file" | "read-file" | "todos" | "conversation"; fate: Fate; reason: string; tokensBefore: number; tokensAfter: number }
/** What a compaction did. */
export interface CompactionReport {
  policy: PolicyId; trigger: Trigger; applied: boolean; reason: string;
  tokensBefore: number; tokensAfter: number;
  /** Tokens of the previous request's leading blocks still unchanged: the prompt cache kept. */
  prefixKept: number;
  summarySource: "host" | "extractive" | "none";
  summary?: string;
  restored: { path: string; tokens: number }[];
  reinjected: { kind: string; path?: string; tokens: number }[];
  masked: { subject: string; reason: string }[];
  dropped: { subject: string; reason: string }[];
  survival: Survival[];
  /** What the model can still see in full: files and Bash commands. */
  visible: { paths: string[]; commands: string[] };
  decisions: Decision[];
}
/** The options of `searchFiles`: how many matches to return (default 20). */
export interface SearchOptions { limit?: number }
/** One match of `searchFiles`: the path relative to the cwd, and the character positions that matched. */
export interface SearchMatch { path: string; kind: "file" | "directory"; score: number; indices: number[] }
/** What a query past the search's caps (1,024 characters, 8 atoms) had left out, and why. */
export interface QueryCut { charsIgnored: number; atomsIgnored: number; reason: string }
/** The best matches, best first, and how many paths matched in all; `queryCut` when part of the query was ignored. */
export interface SearchResult { matches: SearchMatch[]; totalMatchCount: number; queryCut?: QueryCut }
/** A compaction tried on a replayed scenario. */
export interface CompactionPreview { before: Request; plan: CompactionPlan; report: CompactionReport; after: Request }
/** One entry of the read-file state. */
export interface FileStateRow { path: string; timestamp: number; offset?: number; limit?: number; bytes: number; partialView: boolean }
"#;

#[wasm_bindgen]
extern "C" {
    /// The `SessionOptions` TypeScript interface.
    #[wasm_bindgen(typescript_type = "SessionOptions")]
    pub type SessionOptionsJs;

    /// The `ReadOptions` TypeScript interface.
    #[wasm_bindgen(typescript_type = "ReadOptions")]
    pub type ReadOptionsJs;

    /// A `DirEntry[]`.
    #[wasm_bindgen(typescript_type = "DirEntry[]")]
    pub type DirEntriesJs;

    /// The `Stat` TypeScript interface.
    #[wasm_bindgen(typescript_type = "Stat")]
    pub type StatJs;

    /// The `ToolResult` TypeScript interface.
    #[wasm_bindgen(typescript_type = "ToolResult")]
    pub type ToolResultJs;

    /// The `Turn` TypeScript interface.
    #[wasm_bindgen(typescript_type = "Turn")]
    pub type TurnJs;

    /// A `FileStateRow[]`.
    #[wasm_bindgen(typescript_type = "FileStateRow[]")]
    pub type FileStateJs;

    /// The `CompactionPlan` TypeScript interface.
    #[wasm_bindgen(typescript_type = "CompactionPlan")]
    pub type CompactionPlanJs;

    /// The `CompactionReport` TypeScript interface.
    #[wasm_bindgen(typescript_type = "CompactionReport")]
    pub type CompactionReportJs;

    /// The `Request` TypeScript interface.
    #[wasm_bindgen(typescript_type = "Request")]
    pub type RequestJs;

    /// The `SearchResult` TypeScript interface.
    #[wasm_bindgen(typescript_type = "SearchResult")]
    pub type SearchResultJs;
}

/// A virtual workspace and the agent working in it. Times are logical milliseconds given
/// by the caller; paths may be absolute, relative to `cwd`, or `~/…`.
#[wasm_bindgen(js_name = Session)]
pub struct SessionJs {
    inner: Session,
    /// The latest plans, newest last: `applyCompaction` takes one back by its id.
    plans: Vec<CompactionPlan>,
}

/// Plans kept for `applyCompaction`; older ones are forgotten.
const KEPT_PLANS: usize = 8;

#[wasm_bindgen(js_class = Session)]
impl SessionJs {
    /// A session over an empty workspace (default profile `recommended`).
    #[wasm_bindgen(constructor)]
    pub fn new(options: SessionOptionsJs) -> Result<SessionJs, JsValue> {
        let run = || -> JsResult<SessionJs> {
            let options = session_options(JsValue::from(options))?;
            let inner = Session::new(options).map_err(core_error("new Session"))?;
            Ok(SessionJs {
                inner,
                plans: Vec::new(),
            })
        };
        run().map_err(JsValue::from)
    }

    /// Creates or overwrites a file; bytes that are not UTF-8 make a binary file.
    #[wasm_bindgen(js_name = writeFile)]
    pub fn write_file(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | Uint8Array")] content: JsValue,
        #[wasm_bindgen(js_name = mtimeMs, unchecked_param_type = "number")] mtime_ms: JsValue,
    ) -> Result<(), JsValue> {
        const METHOD: &str = "writeFile";
        let mut run = || -> JsResult<()> {
            let path = string_argument(METHOD, "path", &path)?;
            let content = content_argument(METHOD, &content)?;
            let mtime_ms = time_argument(METHOD, "mtimeMs", &mtime_ms)?;
            let written = self.inner.write_file(&path, content, mtime_ms);
            written.map_err(core_error(METHOD))
        };
        run().map_err(JsValue::from)
    }

    /// Deletes a file or an empty directory.
    #[wasm_bindgen(js_name = deleteFile)]
    pub fn delete_file(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
        #[wasm_bindgen(js_name = atMs, unchecked_param_type = "number")] at_ms: JsValue,
    ) -> Result<(), JsValue> {
        const METHOD: &str = "deleteFile";
        let mut run = || -> JsResult<()> {
            let path = string_argument(METHOD, "path", &path)?;
            let at_ms = time_argument(METHOD, "atMs", &at_ms)?;
            self.inner
                .delete_file(&path, at_ms)
                .map_err(core_error(METHOD))
        };
        run().map_err(JsValue::from)
    }

    /// Renames a file or directory, replacing a file at `to` (an editor's atomic save).
    #[wasm_bindgen(js_name = rename)]
    pub fn rename(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] from: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] to: JsValue,
        #[wasm_bindgen(js_name = atMs, unchecked_param_type = "number")] at_ms: JsValue,
    ) -> Result<(), JsValue> {
        const METHOD: &str = "rename";
        let mut run = || -> JsResult<()> {
            let from = string_argument(METHOD, "from", &from)?;
            let to = string_argument(METHOD, "to", &to)?;
            let at_ms = time_argument(METHOD, "atMs", &at_ms)?;
            self.inner
                .rename(&from, &to, at_ms)
                .map_err(core_error(METHOD))
        };
        run().map_err(JsValue::from)
    }

    /// Creates a directory and its missing parents.
    #[wasm_bindgen(js_name = mkdir)]
    pub fn mkdir(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
        #[wasm_bindgen(js_name = atMs, unchecked_param_type = "number")] at_ms: JsValue,
    ) -> Result<(), JsValue> {
        const METHOD: &str = "mkdir";
        let mut run = || -> JsResult<()> {
            let path = string_argument(METHOD, "path", &path)?;
            let at_ms = time_argument(METHOD, "atMs", &at_ms)?;
            self.inner.mkdir(&path, at_ms).map_err(core_error(METHOD))
        };
        run().map_err(JsValue::from)
    }

    /// Makes every look at `path` fail with `kind` until it is cleared with `null`.
    #[wasm_bindgen(js_name = setTransientError)]
    pub fn set_transient_error(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
        #[wasm_bindgen(unchecked_param_type = "TransientErrorKind | null")] kind: JsValue,
    ) -> Result<(), JsValue> {
        const METHOD: &str = "setTransientError";
        let mut run = || -> JsResult<()> {
            let path = string_argument(METHOD, "path", &path)?;
            let kind = transient_error_argument(METHOD, &kind)?;
            let set = self.inner.set_transient_error(&path, kind);
            set.map_err(core_error(METHOD))
        };
        run().map_err(JsValue::from)
    }

    /// The entries of a directory, in byte order of their names.
    #[wasm_bindgen(js_name = listDir)]
    pub fn list_dir(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    ) -> Result<DirEntriesJs, JsValue> {
        const METHOD: &str = "listDir";
        let run = || -> JsResult<DirEntriesJs> {
            let path = string_argument(METHOD, "path", &path)?;
            let entries = self.inner.list_dir(&path).map_err(core_error(METHOD))?;
            let entries: Vec<DirEntryDto> = entries
                .iter()
                .map(|entry| DirEntryDto {
                    name: &entry.name,
                    kind: kind_name(entry.kind),
                })
                .collect();
            Ok(to_js(&entries)?.unchecked_into())
        };
        run().map_err(JsValue::from)
    }

    /// Codex's `@` file search over the workspace below the cwd: the best `limit` (default
    /// 20) files and directories for `query`, with the positions that matched, and how many
    /// matched in all.
    #[wasm_bindgen(js_name = searchFiles)]
    pub fn search_files(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] query: JsValue,
        #[wasm_bindgen(unchecked_param_type = "SearchOptions | undefined")] options: JsValue,
    ) -> Result<SearchResultJs, JsValue> {
        const METHOD: &str = "searchFiles";
        let run = || -> JsResult<SearchResultJs> {
            let query = string_argument(METHOD, "query", &query)?;
            let options = OptionsObject::parse(METHOD, Some(options), &["limit"])?;
            let limit = options
                .integer("limit", 0.0, 10_000.0)?
                .map_or(DEFAULT_LIMIT, |n| n as usize);
            Ok(to_js(&self.inner.search_files(&query, limit))?.unchecked_into())
        };
        run().map_err(JsValue::from)
    }

    /// The kind, size and mtime of a file or directory.
    #[wasm_bindgen(js_name = stat)]
    pub fn stat(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    ) -> Result<StatJs, JsValue> {
        const METHOD: &str = "stat";
        let run = || -> JsResult<StatJs> {
            let path = string_argument(METHOD, "path", &path)?;
            let stat = self.inner.stat(&path).map_err(core_error(METHOD))?;
            let stat = StatDto {
                kind: kind_name(stat.kind),
                size: stat.size,
                mtime_ms: stat.mtime_ms,
            };
            Ok(to_js(&stat)?.unchecked_into())
        };
        run().map_err(JsValue::from)
    }

    /// A file's text as an editor shows it, or `null` for a binary file.
    #[wasm_bindgen(js_name = readFileText, unchecked_return_type = "string | null")]
    pub fn read_file_text(
        &self,
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
    ) -> Result<JsValue, JsValue> {
        const METHOD: &str = "readFileText";
        let run = || -> JsResult<JsValue> {
            let path = string_argument(METHOD, "path", &path)?;
            let text = self.inner.read_file_text(&path);
            let text = text.map_err(core_error(METHOD))?;
            Ok(text.map_or(JsValue::NULL, |text| JsValue::from_str(&text)))
        };
        run().map_err(JsValue::from)
    }

    /// The agent's Read tool: a failed read is a result with `isError`, not a throw.
    #[wasm_bindgen(js_name = read)]
    pub fn read(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
        options: Option<ReadOptionsJs>,
        #[wasm_bindgen(js_name = atMs, unchecked_param_type = "number")] at_ms: JsValue,
    ) -> Result<ToolResultJs, JsValue> {
        const METHOD: &str = "read";
        let run = || -> JsResult<ToolResultJs> {
            let path = string_argument(METHOD, "path", &path)?;
            let options =
                OptionsObject::parse(METHOD, options.map(JsValue::from), &["offset", "limit"])?;
            // Whole numbers within ±2^53 convert exactly.
            let offset = options.integer("offset", 0.0, MAX_SAFE)?.map(|n| n as u64);
            // The same range a scenario's Read input takes: a whole number of lines ≥ 0.
            let limit = options.integer("limit", 0.0, MAX_SAFE)?.map(|n| n as i64);
            let at_ms = self.clock(METHOD, &at_ms)?;
            let result = self.inner.read(&path, offset, limit, at_ms);
            tool_result(&result.map_err(core_error(METHOD))?)
        };
        run().map_err(JsValue::from)
    }

    /// The agent's Edit tool: replaces `oldString` with `newString`.
    #[wasm_bindgen(js_name = edit)]
    pub fn edit(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
        #[wasm_bindgen(js_name = oldString, unchecked_param_type = "string")] old_string: JsValue,
        #[wasm_bindgen(js_name = newString, unchecked_param_type = "string")] new_string: JsValue,
        #[wasm_bindgen(js_name = atMs, unchecked_param_type = "number")] at_ms: JsValue,
    ) -> Result<ToolResultJs, JsValue> {
        const METHOD: &str = "edit";
        let mut run = || -> JsResult<ToolResultJs> {
            let path = string_argument(METHOD, "path", &path)?;
            let old_string = string_argument(METHOD, "oldString", &old_string)?;
            let new_string = string_argument(METHOD, "newString", &new_string)?;
            let at_ms = self.clock(METHOD, &at_ms)?;
            let result = self.inner.edit(&path, &old_string, &new_string, at_ms);
            tool_result(&result.map_err(core_error(METHOD))?)
        };
        run().map_err(JsValue::from)
    }

    /// The agent's Write tool: creates or overwrites a whole file.
    #[wasm_bindgen(js_name = write)]
    pub fn write(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] path: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string")] content: JsValue,
        #[wasm_bindgen(js_name = atMs, unchecked_param_type = "number")] at_ms: JsValue,
    ) -> Result<ToolResultJs, JsValue> {
        const METHOD: &str = "write";
        let mut run = || -> JsResult<ToolResultJs> {
            let path = string_argument(METHOD, "path", &path)?;
            let content = string_argument(METHOD, "content", &content)?;
            let at_ms = self.clock(METHOD, &at_ms)?;
            let result = self.inner.write(&path, &content, at_ms);
            tool_result(&result.map_err(core_error(METHOD))?)
        };
        run().map_err(JsValue::from)
    }

    /// A human turn: the prompt's mentions, changed files and nested memory.
    #[wasm_bindgen(js_name = submit)]
    pub fn submit(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "string")] prompt: JsValue,
        #[wasm_bindgen(js_name = atMs, unchecked_param_type = "number")] at_ms: JsValue,
    ) -> Result<TurnJs, JsValue> {
        const METHOD: &str = "submit";
        let mut run = || -> JsResult<TurnJs> {
            let prompt = string_argument(METHOD, "prompt", &prompt)?;
            let at_ms = self.clock(METHOD, &at_ms)?;
            turn_js(&self.inner.submit(&prompt, at_ms))
        };
        run().map_err(JsValue::from)
    }

    /// A tool round: changed files and the rest, but no mentions.
    #[wasm_bindgen(js_name = toolRound)]
    pub fn tool_round(
        &mut self,
        #[wasm_bindgen(js_name = atMs, unchecked_param_type = "number")] at_ms: JsValue,
    ) -> Result<TurnJs, JsValue> {
        let mut run = || -> JsResult<TurnJs> {
            let at_ms = self.clock("toolRound", &at_ms)?;
            turn_js(&self.inner.tool_round(at_ms))
        };
        run().map_err(JsValue::from)
    }

    /// Applies one step written as in a scenario's `steps` (a prompt, the model's response
    /// with tool calls, tool results, an edit, a mode change, the IDE's state…) and returns
    /// its turn, with the request when the step sends one.
    #[wasm_bindgen(js_name = step)]
    pub fn step(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "ScenarioStep")] step: JsValue,
        #[wasm_bindgen(js_name = atMs, unchecked_param_type = "number")] at_ms: JsValue,
    ) -> Result<TurnJs, JsValue> {
        const METHOD: &str = "step";
        let mut run = || -> JsResult<TurnJs> {
            let json = crate::scenario::json_text(METHOD, "step", &step)?;
            let at_ms = self.clock(METHOD, &at_ms)?;
            let turn = apply_step(&mut self.inner, &json, at_ms);
            // The core's errors name their place from `step` already (`step.prompt: …`).
            turn_js(&turn.map_err(|error| BindingError(error.to_string()))?)
        };
        run().map_err(JsValue::from)
    }

    /// What a compaction would do now (nothing changes): the summary request, what would be
    /// cleared, the post-compact attachments, every decision.
    #[wasm_bindgen(js_name = planCompaction)]
    pub fn plan_compaction(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "CompactionOptions")] options: JsValue,
        #[wasm_bindgen(js_name = atMs, unchecked_param_type = "number")] at_ms: JsValue,
    ) -> Result<CompactionPlanJs, JsValue> {
        const METHOD: &str = "planCompaction";
        let mut run = || -> JsResult<CompactionPlanJs> {
            let json = match options.is_undefined() {
                true => String::from("{}"),
                false => crate::scenario::json_text(METHOD, "options", &options)?,
            };
            let at_ms = self.clock(METHOD, &at_ms)?;
            let (options, summary) = parse_compaction_options(&json).map_err(core_error(METHOD))?;
            if summary.is_some() {
                return Err(BindingError(format!(
                    "{METHOD}: options.summary: a summary is given to applyCompaction, not to the plan"
                )));
            }
            let plan = self.inner.plan_compaction(options, at_ms);
            let js = to_js(&plan)?.unchecked_into();
            self.plans.push(plan);
            if self.plans.len() > KEPT_PLANS {
                self.plans.remove(0);
            }
            Ok(js)
        };
        run().map_err(JsValue::from)
    }

    /// Carries out a plan from `planCompaction`; `summary` is the model's answer to the plan's
    /// summary request (absent: the extractive summariser writes one).
    #[wasm_bindgen(js_name = applyCompaction)]
    pub fn apply_compaction(
        &mut self,
        #[wasm_bindgen(unchecked_param_type = "CompactionPlan")] plan: JsValue,
        #[wasm_bindgen(js_name = atMs, unchecked_param_type = "number")] at_ms: JsValue,
        #[wasm_bindgen(unchecked_param_type = "string | undefined")] summary: JsValue,
    ) -> Result<CompactionReportJs, JsValue> {
        const METHOD: &str = "applyCompaction";
        let mut run = || -> JsResult<CompactionReportJs> {
            let plan = self.kept_plan(&plan)?;
            let at_ms = self.clock(METHOD, &at_ms)?;
            let summary = match summary.is_undefined() || summary.is_null() {
                true => None,
                false => Some(string_argument(METHOD, "summary", &summary)?),
            };
            let report = self
                .inner
                .apply_compaction(&plan, summary.as_deref(), at_ms)
                .map_err(core_error(METHOD))?;
            Ok(to_js(&report)?.unchecked_into())
        };
        run().map_err(JsValue::from)
    }

    /// The request the next round would send, as things stand.
    #[wasm_bindgen(js_name = currentRequest)]
    pub fn current_request(
        &mut self,
        #[wasm_bindgen(js_name = atMs, unchecked_param_type = "number")] at_ms: JsValue,
    ) -> Result<RequestJs, JsValue> {
        let mut run = || -> JsResult<RequestJs> {
            let at_ms = self.clock("currentRequest", &at_ms)?;
            Ok(to_js(&self.inner.current_request(at_ms))?.unchecked_into())
        };
        run().map_err(JsValue::from)
    }

    /// The read-file state, most recently used first.
    #[wasm_bindgen(js_name = fileState)]
    pub fn file_state(&self) -> Result<FileStateJs, JsValue> {
        let rows = self.inner.file_state();
        let rows: Vec<FileStateRowDto> = rows.iter().map(FileStateRowDto::new).collect();
        Ok(to_js(&rows)?.unchecked_into())
    }
}

impl SessionJs {
    /// The kept plan that `plan` is, unchanged: a plan is carried out as it was shown, so
    /// one whose fields were edited is refused rather than half-honoured.
    fn kept_plan(&self, plan: &JsValue) -> JsResult<CompactionPlan> {
        const METHOD: &str = "applyCompaction";
        let not_a_plan = || {
            BindingError(format!(
                "{METHOD}: argument `plan` must be a plan from planCompaction (an object with \
                 a whole-number `id`)"
            ))
        };
        if !plan.is_object() {
            return Err(not_a_plan());
        }
        let given = crate::scenario::json_text(METHOD, "plan", plan)?;
        let given: serde_json::Value = serde_json::from_str(&given).map_err(|_| not_a_plan())?;
        let id = given
            .get("id")
            .and_then(serde_json::Value::as_u64)
            .ok_or_else(not_a_plan)?;
        let Some(kept) = self.plans.iter().find(|p| p.id == id) else {
            return Err(BindingError(format!(
                "{METHOD}: plan {id} is not one of the {KEPT_PLANS} latest plans of this session"
            )));
        };
        let expected = serde_json::to_value(kept)
            .map_err(|error| BindingError(format!("{METHOD}: {error}")))?;
        if given != expected {
            let changed = changed_fields(&given, &expected);
            return Err(BindingError(format!(
                "{METHOD}: plan {id} differs from the plan planCompaction returned (field{} \
                 {}): pass the plan unchanged, or plan again",
                if changed.len() == 1 { "" } else { "s" },
                changed.join(", ")
            )));
        }
        Ok(kept.clone())
    }

    /// An act's time: a valid time, not before the session's clock.
    fn clock(&mut self, method: &str, value: &JsValue) -> JsResult<u64> {
        let at_ms = time_argument(method, "atMs", value)?;
        self.inner
            .advance_clock(at_ms)
            .map_err(|error| BindingError(format!("{method}: {error}")))?;
        Ok(at_ms)
    }
}

/// The top-level fields in which two JSON objects differ, each in backquotes.
fn changed_fields(given: &serde_json::Value, expected: &serde_json::Value) -> Vec<String> {
    let empty = serde_json::Map::new();
    let given = given.as_object().unwrap_or(&empty);
    let expected = expected.as_object().unwrap_or(&empty);
    let mut keys: Vec<&String> = given.keys().chain(expected.keys()).collect();
    keys.sort();
    keys.dedup();
    keys.into_iter()
        .filter(|key| given.get(*key) != expected.get(*key))
        .map(|key| format!("`{key}`"))
        .collect()
}

/// A core error, with the method that raised it in front.
fn core_error(method: &'static str) -> impl Fn(context_assembly::Error) -> BindingError {
    move |error| BindingError(format!("{method}: {error}"))
}

fn session_options(value: JsValue) -> JsResult<SessionOptions> {
    const FUNCTION: &str = "new Session";
    let given = (!value.is_undefined()).then_some(value);
    let options = OptionsObject::parse(FUNCTION, given, &["profile", "cwd", "home", "config"])?;
    let profile = Profile::preset(options.profile()?);
    let cwd = options.required_string("cwd", "the working directory, an absolute path")?;
    let home = options.string("home")?;
    let config = match options.value("config")? {
        None => SessionConfig::default(),
        Some(config) => {
            // The same configuration a scenario's `config` takes (web/scenarios/FORMAT.md).
            let json = crate::scenario::json_text(FUNCTION, "config", &config)?;
            parse_session_config(&json).map_err(core_error(FUNCTION))?
        }
    };
    Ok(SessionOptions {
        profile,
        cwd,
        home,
        config,
    })
}

/// A logical time: a whole number of milliseconds from 0 to 2^53.
fn time_argument(function: &str, name: &str, value: &JsValue) -> JsResult<u64> {
    match value.as_f64() {
        // Exact: a whole number up to 2^53 converts without loss.
        Some(ms) if is_integer_in(ms, 0.0, MAX_SAFE) => Ok(ms as u64),
        _ => Err(BindingError(format!(
            "{function}: argument `{name}` must be a time in milliseconds, an integer from 0 \
             to 9007199254740992 (2^53), got {}",
            describe(value)
        ))),
    }
}

fn content_argument(function: &str, value: &JsValue) -> JsResult<Content> {
    let what = "argument `content`";
    if let Some(bytes) = access::uint8_bytes(function, what, value, MAX_FILE_BYTES)? {
        return Ok(Content::from(bytes));
    }
    if value.is_string() {
        return string_argument(function, "content", value).map(Content::from);
    }
    Err(BindingError(format!(
        "{function}: argument `content` must be a string or a Uint8Array, got {}",
        type_name(value)
    )))
}

fn transient_error_argument(function: &str, value: &JsValue) -> JsResult<Option<TransientError>> {
    if value.is_null() {
        return Ok(None);
    }
    match value.as_string().as_deref() {
        Some("EACCES") => Ok(Some(TransientError::PermissionDenied)),
        Some("EBUSY") => Ok(Some(TransientError::Busy)),
        _ => {
            let given = value
                .as_string()
                .map_or_else(|| type_name(value), |text| format!("{text:?}"));
            Err(BindingError(format!(
                "{function}: argument `kind` must be \"EACCES\", \"EBUSY\" or null (to clear), \
                 got {given}"
            )))
        }
    }
}

fn kind_name(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::File => "file",
        EntryKind::Directory => "directory",
    }
}

#[derive(Serialize)]
struct DirEntryDto<'a> {
    name: &'a str,
    kind: &'static str,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StatDto {
    kind: &'static str,
    size: u64,
    mtime_ms: u64,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct ToolResultDto<'a> {
    is_error: bool,
    content: &'a str,
}

fn tool_result(result: &ToolResult) -> JsResult<ToolResultJs> {
    let dto = ToolResultDto {
        is_error: result.is_error,
        content: &result.content,
    };
    Ok(to_js(&dto)?.unchecked_into())
}

fn turn_js(turn: &Turn) -> JsResult<TurnJs> {
    Ok(to_js(turn)?.unchecked_into())
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FileStateRowDto<'a> {
    path: &'a str,
    timestamp: u64,
    #[serde(skip_serializing_if = "Option::is_none")]
    offset: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    limit: Option<u64>,
    bytes: u64,
    partial_view: bool,
}

impl<'a> FileStateRowDto<'a> {
    fn new(row: &'a FileStateRow) -> Self {
        FileStateRowDto {
            path: &row.path,
            timestamp: row.timestamp,
            offset: row.offset,
            limit: row.limit,
            bytes: row.bytes,
            partial_view: row.partial_view,
        }
    }
}
