/** A preset profile. */
export type ProfileName = "claude-code" | "codex" | "claude-code-2.1.88" | "codex-0.139.0" | "recommended" | "world-state" | "opencode-style" | "aider-style";
/** A client whose releases the presets reproduce. */
export type Client = "claude-code" | "codex";
/** A preset and the client release it reproduces: `claude-code` and `codex` follow the current releases, the versioned names keep earlier ones; our own profiles name none. */
export interface ProfileRelease { name: ProfileName; client?: Client; version?: string }
/** A token-counting method. */
export type TokenMethod = "claude-code" | "codex" | "calibrated" | "cl100k";

/** A file mention. `start`/`end`: UTF-16 offsets of the whole mention (from `@`, quotes included). */
export interface FileMention {
  raw: string;
  path: string;
  lineStart?: number;
  lineEnd?: number;
  fragment?: string;
  quoted: boolean;
  start: number;
  end: number;
  /** Why the mention cannot be used as written (recommended profile only), e.g. a reversed range. */
  problem?: string;
}
/** An MCP resource mention, `@server:uri`. */
export interface McpMention { raw: string; server: string; uri: string; start: number; end: number }
/** An agent mention, `@agent-name` or `@"name (agent)"`. */
export interface AgentMention { raw: string; agentType: string; start: number; end: number }
/** Every mention found in a text. */
export interface Mentions { files: FileMention[]; mcpResources: McpMention[]; agents: AgentMention[] }

export interface MentionOptions { profile?: ProfileName }
/** What a mention names. Its position in this union, and in `mentionKinds()`, is its code in `extractMentionSpans`: file 0, mcpResource 1, agent 2. */
export type MentionKind = "file" | "mcpResource" | "agent";
/** The mention under a cursor (`mentionAt`): its kind, then its fields as in `Mentions`. */
export type MentionAt =
  | ({ kind: "file" } & FileMention)
  | ({ kind: "mcpResource" } & McpMention)
  | ({ kind: "agent" } & AgentMention);
/** How `estimateTokens` counts: as `profile`'s requests count a prompt of the text (default `recommended`), or with one token `method`, to which alone the file's extension `ext` applies (claude-code halves the divisor for JSON). */
export interface TokenOptions { profile?: ProfileName; method?: TokenMethod; ext?: string }
export interface DiffOptions { profile?: ProfileName }

/** The options of `compactionThresholds`. */
export interface ThresholdOptions {
  /** Whose thresholds: the profile's formula (Claude Code's or Codex's) and the strategy its auto-compaction follows (OpenCode's overflow limit for opencode-style, Aider's history budget for aider-style), as a Session under it compacts (default recommended). */
  profile?: ProfileName;
  /** The model's context window in tokens. */
  contextWindow: number;
  /** The model's output limit; Claude Code reserves up to 20000 of it (default 32000). */
  maxOutputTokens?: number;
  /** Claude Code's CLAUDE_AUTOCOMPACT_PCT_OVERRIDE, 1–100: it can only lower the threshold. */
  autocompactPctOverride?: number;
  /** Codex's model_auto_compact_token_limit: capped at 90 % of the window (X8). */
  autoCompactTokenLimit?: number;
}
/** A window's thresholds in tokens; Codex has no warning, error or blocking level (absent). `historyBudget`: under a strategy that compacts by the conversation's history (aider-style), its budget. */
export interface WindowThresholds { effectiveWindow: number; autocompact: number; warning?: number; error?: number; blocking?: number; historyBudget?: number }

/** A change snippet and how it was made. */
export interface SnippetReport {
  /** The snippet the model would see; "" when there is nothing to show. */
  text: string;
  /** Hunks in the snippet. */
  hunks: number;
  /** The count the truncation marker shows, when the snippet was cut. */
  truncatedLines?: number;
  /** Units of diff work spent (deterministic; the budget stands in for a timeout). */
  work: number;
  /** The work budget ran out before the diff finished. */
  budgetExhausted: boolean;
  /** Why the snippet is what it is, in one sentence. */
  reason: string;
}

/** A JSON value, as tool inputs and schemas are given. */
export type Json = string | number | boolean | null | Json[] | { [key: string]: Json };
/** One block of an assistant step. */
export type AssistantStepBlock =
  | { type: "text"; text: string }
  | { type: "thinking"; thinking: string }
  | { type: "tool_use"; name: string; input: { [key: string]: Json }; id?: string; output?: string; approval?: { approved: boolean; feedback?: string } };
/** An IDE selection; `lineStart` as the IDE reports it (probably 0-based, Q52). */
export interface ScenarioSelection { path: string; lineStart: number; lineCount: number; endsAtLineStart?: boolean; text: string }
/** One diagnostic; `line` and `column` 0-based. */
export interface ScenarioDiagnostic { severity: "error" | "warning" | "info" | "hint"; line: number; column: number; message: string; code?: string; source?: string }
/** A permission mode. */
export type PermissionModeName = "default" | "acceptEdits" | "plan" | "auto" | "bypassPermissions";
/** What the provider reported for the request an `assistant` step answers (Anthropic's `message.usage`); each count 0 when left out. */
export interface ProviderUsage { inputTokens?: number; cacheCreationTokens?: number; cacheReadTokens?: number; outputTokens?: number }
/** One step of a scenario (see web/scenarios/FORMAT.md). */
export type ScenarioStep =
  | { kind: "user"; prompt: string; memories?: string[]; pastes?: string[] }
  | { kind: "assistant"; blocks: AssistantStepBlock[]; usage?: ProviderUsage; compactBeforeToolRound?: { summary?: string } & CompactionOptions }
  | { kind: "toolResults"; results: { toolUseId: string; content: string; isError?: boolean }[] }
  | { kind: "writeFile"; path: string; content: string }
  | { kind: "deleteFile"; path: string }
  | { kind: "rename"; from: string; to: string }
  | { kind: "touch"; path: string }
  | { kind: "setMode"; mode: PermissionModeName }
  | { kind: "ide"; selection?: ScenarioSelection | null; openedFile?: string | null }
  | { kind: "diagnostics"; files: { path: string; items: ScenarioDiagnostic[] }[] }
  | { kind: "advanceTime"; ms: number }
  | { kind: "registry"; skills?: { name: string; description: string }[]; agents?: string[]; mcpServers?: { name: string; instructions?: string }[]; deferredTools?: string[] }
  | { kind: "queueCommand"; prompt: string }
  | { kind: "criticalReminder"; text: string | null }
  | { kind: "usage"; spentUsdCents?: number; outputTokens?: number }
  | { kind: "taskStatus"; taskId: string; description: string; status: "running" | "killed" }
  | ({ kind: "compact"; summary?: string; promptTooLong?: { tokens?: number; maximum?: number }[] } & CompactionOptions)
  | { kind: "turnSettings"; model?: string; modelInstructions?: string; approvalPolicy?: "never" | "unless-trusted" | "on-failure" | "on-request"; sandboxMode?: "read-only" | "workspace-write" | "danger-full-access"; networkAccess?: boolean; personality?: string | null; collaborationMode?: string | null; developerInstructions?: string | null; shell?: string; timezone?: string; contextWindow?: number; environments?: { id: string; cwd: string; shell: string }[]; subagents?: { id: string; name: string }[]; realtimeActive?: boolean; realtimeStartInstructions?: string | null }
  | { kind: "resume" }
  | { kind: "fork"; beforeUserTurn: number }
  | { kind: "rollback"; turns: number };
/** A scenario: initial files and configuration, then steps (web/scenarios/scenario.schema.json). */
export interface ScenarioInput {
  name?: string;
  description?: string;
  profile?: ProfileName;
  /** Quirk switches changed from the preset, `"section.field": bool`. */
  switches?: { [name: string]: boolean };
  cwd?: string;
  home?: string;
  startMs?: number;
  stepMs?: number;
  config?: { [key: string]: Json };
  files?: { [path: string]: string } | { path: string; content: string }[];
  steps: ScenarioStep[];
  /** Facts seeded in the session, for the recall measure of `compareProfiles`. */
  facts?: Fact[];
}
/** What a seeded fact is. */
export type FactKind = "file" | "decision" | "command" | "instruction";
/** Where a fact stands in a request: outside any summary, only in a compaction's summary, only its reference (a path, a command), or not at all. */
export type FactState = "verbatim" | "summary" | "referenced" | "gone";
/** A fact seeded in a scenario: `text` is looked for as written. */
export interface Fact { id: string; kind: FactKind; text: string; reference?: string }
/** One fact's state in a profile's last request, and why. */
export interface FactRecall { fact: string; state: FactState; reason: string }
/** How many facts are in each state. */
export interface RecallCounts { verbatim: number; summary: number; referenced: number; gone: number }
/** One replayed step: the step as given, the clock, the mode after it, and what it produced. */
export interface StepTrace { input: ScenarioStep; atMs: number; mode: PermissionModeName; turn: Turn }
/** A price table in micro-dollars per million tokens. */
export interface PriceTableInput { inputPerMTok: number; cachedInputPerMTok: number; cacheWrite5mPerMTok: number; cacheWrite1hPerMTok: number; outputPerMTok: number }
/** The options of `compareProfiles`. */
/** Called after every replayed step with how many are done of how many (in a comparison, every profile's steps); a callback that throws stops the call with an Error. */
export type ProgressCallback = (done: number, total: number) => void;
/** The options of `runScenario`. */
export interface RunOptions {
  onProgress?: ProgressCallback;
  /** Also price the replay's requests as `compareProfiles` does (the trace's `cacheAccount`), each with why it read what it read from the prompt cache. */
  cacheAccount?: boolean;
}
/** Where the usage a profile's client reads comes from in a comparison: `simulated` (the default) reports the billed count of each request as the provider would; `scenario` replays as the scenario's own `simulateUsage` says, exactly as `runScenario` under that profile does. */
export type UsageSource = "simulated" | "scenario";
export interface CompareOptions { prices?: { [profile: string]: PriceTableInput }; usage?: UsageSource; onProgress?: ProgressCallback }
/** The input tokens of requests split by how the provider's prompt cache charges them; `cached + written + uncached = sent`. */
export interface StepCost { sent: number; cached: number; written: number; uncached: number; output: number; costMicroUsd: number }
/** What a profile can still see after a compaction. */
export interface CompactionSeen { policy: PolicyId; tokensBefore: number; tokensAfter: number; files: string[]; instructions: string[]; recentMessages: number }
/** Why a request read what it read from the prompt cache. */
export type CacheRead = "hit" | "first-request" | "below-minimum" | "expired" | "prefix-changed" | "beyond-lookback" | "no-breakpoint";
/** What became of the prefix a breakpoint ends: read from the cache, written to it, or under the provider's minimum and not cached. */
export type BreakpointState = "read" | "written" | "too-small";
/** A breakpoint of a request: its block in the order the provider renders the request (tools, system, user context, then the messages' blocks), the tokens of the prefix up to it, and what became of that prefix. */
export interface CacheBreakpoint { block: number; tokens: number; state: BreakpointState }
/** Why one request's input split as it did. */
export interface CacheExplanation {
  read: CacheRead;
  /** The reading and the writing, with the figures. */
  reason: string;
  /** The last block of the part read (OpenAI: of the prefix shared with an earlier request, before rounding), in the order the provider renders the request. */
  readThrough?: number;
  /** The breakpoints honoured (Anthropic); absent for OpenAI. */
  breakpoints?: CacheBreakpoint[];
}
/** One request of one profile. */
export interface CompareStep extends StepCost {
  step: number; atMs: number; attachments: number; compacted?: CompactionSeen;
  /** After a compaction: where the facts seen before it stand in this request. */
  recall?: RecallCounts;
  /** The request that asked the model for this step's compaction summary (included in the step's figures). */
  summaryCall?: StepCost;
  /** Why the request's own input split as it did (its summary call's aside). */
  cache: CacheExplanation;
}
/** One profile's requests and totals. */
export interface ProfileRun { steps: CompareStep[]; totals: StepCost; recall: FactRecall[] }
/** Each profile's requests and totals. */
export type Comparison = { [profile: string]: ProfileRun };
/** A replayed scenario. A step's `turn.request` is built when it is read (the trace holds each message once), so read it where it is needed rather than copying every step's. */
export interface Trace {
  steps: StepTrace[];
  /** With `cacheAccount`: the requests priced as `compareProfiles` prices them under the scenario's own profile, with `usage: "scenario"`. */
  cacheAccount?: ProfileRun;
}

/** What a session knows besides its files; every field may be left out. */
/** The host's stand-ins for Claude Code's window variables and flags (claude-code.md §9.1, §10.1). */
export interface WindowOverrides {
  /** CLAUDE_CODE_MAX_CONTEXT_TOKENS: replaces the model's window. */
  maxContextTokens?: number;
  /** CLAUDE_CODE_DISABLE_1M_CONTEXT: no million-token window. */
  disable1mContext?: boolean;
  /** The capability table's `max_input_tokens`, used from 100000 on. */
  capabilityMaxInputTokens?: number;
  /** The request carries the 1M-context beta header. */
  context1mBeta?: boolean;
  /** The Sonnet 4.6 1M experiment's treatment is on. */
  sonnet1mExperiment?: boolean;
  /** tengu_otk_slot_v1: the default output limit is capped at 8000. */
  cappedOutputSlot?: boolean;
  /** CLAUDE_CODE_MAX_OUTPUT_TOKENS: the output limit, at most the model's upper limit. */
  maxOutputTokens?: number;
  /** CLAUDE_CODE_AUTO_COMPACT_WINDOW: caps the window the thresholds are computed from. */
  autoCompactWindow?: number;
  /** CLAUDE_AUTOCOMPACT_PCT_OVERRIDE: the auto-compact threshold as a percentage; only lowers it. */
  autocompactPctOverride?: number;
  /** CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE: the blocking limit in tokens. */
  blockingLimitOverride?: number;
}

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
  /** SLASH_COMMAND_TOOL_CHAR_BUDGET: the skill listing's budget in characters (default: 1% of the window at 4 characters a token). */
  skillListingCharBudget?: number;
  /** Connected MCP servers and their instructions (`mcp_instructions_delta`). */
  mcpServers?: { name: string; instructions?: string }[];
  /** The model's id; with it, `contextWindow` and `outputReserve` default to Claude Code's tables (claude-code.md §9.1). */
  model?: string;
  /** The model's context window in tokens (default 200000, or the `model`'s). */
  contextWindow?: number;
  /** Tokens reserved for output: the effective window is the window minus this (default 20000, or the `model`'s). */
  outputReserve?: number;
  /** What Claude Code reads from its environment and flags about windows and thresholds. */
  windowOverrides?: WindowOverrides;
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
  /** Print mode (`claude -p`, the SDK), not the terminal UI: its own prefix sizes and tool offer. */
  printMode?: boolean;
  /** The plan file; absent: `~/.claude/plans/plan.md`. */
  planFile?: string;
  /** The auto-memory directory relevant memories come from. */
  memoryDir?: string;
  /** Where the host keeps the full transcript; a compaction's summary message points to it. */
  transcriptPath?: string;
  permissionMode?: PermissionModeName;
  /** Policies kept on for the whole session (each once): `cline.file_tracker` lists the files changed outside the agent in the next request; `opencode.read_guard` refuses an Edit or Write of a file not read, or changed since it was read. */
  policies?: SessionPolicyId[];
}
/** A policy a session keeps on (`SessionConfig.policies`), rather than runs as a compaction. */
export type SessionPolicyId = "cline.file_tracker" | "opencode.read_guard";
/** One resource of a connected MCP server. */
export interface McpResourceConfig { server: string; uri: string; name?: string; description?: string; text?: string }
/** The options of `new Session`. `cwd` and `home` are absolute paths. */
export interface SessionOptions { profile?: ProfileName; cwd: string; home?: string; config?: SessionConfig }
/** What a host imposes on a snapshot it restores: each given field replaces the snapshot's whole (its deny rules, window, every setting). */
export interface RestoreOptions { profile?: ProfileName; config?: SessionConfig }
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
export type Frequency = "throttled" | "delta" | "first-then-incremental" | "event" | "prefetch" | "session-start";
/** Something added to the model's context, rendered as the model sees it ("" for kinds that render to nothing). */
/** The kind of an attachment, as the original names it (a closed catalogue). */
export type AttachmentKind = "agent_listing_delta" | "agent_mention" | "already_read_file" | "at_mention_reference" | "auto_mode" | "auto_mode_exit" | "budget_usd" | "changed_file_too_large" | "compact_file_reference" | "compaction_reminder" | "critical_system_reminder" | "date" | "date_change" | "deferred_tools_delta" | "deleted_file" | "diagnostics" | "directory" | "dynamic_skill" | "edited_image_file" | "edited_text_file" | "emptied_file" | "environment" | "file" | "instructions" | "invoked_skills" | "mcp_instructions_delta" | "mcp_resource" | "memory_warning" | "nested_memory" | "opened_file_in_ide" | "output_style" | "output_token_usage" | "pdf_reference" | "plan_file_reference" | "plan_mode" | "plan_mode_exit" | "plan_mode_reentry" | "queued_command" | "recently_modified_files" | "relevant_memories" | "remote_session_change" | "selected_lines_in_ide" | "session_context" | "skill_listing" | "task_reminder" | "task_status" | "todo_reminder" | "token_usage" | "ultrathink_effort";
export interface Attachment { kind: AttachmentKind; frequency: Frequency; path?: string; tokens: number; text: string; payloadUnits?: number }
/** What a decision concluded. */
export type Verdict = "included" | "truncated" | "silent" | "denied" | "too-large" | "already-in-context" | "unchanged" | "evicted" | "skipped" | "not-found" | "failed" | "throttled" | "over-budget" | "excluded" | "cleared" | "masked" | "dropped" | "replaced" | "not-applied" | "deferred" | "needed" | "kept" | "moved";
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
  /** The block stands in for text a client release sends that we may not copy (its system prompt, its tools' descriptions): `text` is ours, `tokens` the size measured on `release`. */
  standIn?: StandIn;
}
/** What a stand-in block stands for: the client release (`Claude Code 2.1.332`) and the size its own text measured. */
export interface StandIn { release: string; tokens: number }
/** A message of the request (`developer`: the harness's instructions in a Codex request). */
export interface RequestMessage { role: "developer" | "user" | "assistant" | "system"; content: Block[] }
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
  /** The context window; `free` + `total` = `context` when the request fits, else `over` says by how much it does not. `effective`: the window less the output reserve; `autocompact`: where auto-compaction fires (the profile's formula; under `opencode-style`, OpenCode's overflow limit, the window less the output reserve; `aider-style` summarises by its history budget instead). */
  window: { context: number; free: number; over: number; effective: number; autocompact: number };
}
/** A provider's HTTP API a request can be exported for (`toApiRequest`). */
export type ApiName = "anthropic-messages" | "openai-responses";
/** The options of `toApiRequest`: the API, the model to name (default: the profile's release's, else a current model of the client that calls the API), Anthropic's `max_tokens` (default: the release's, else 32000), and the profile whose Claude Code release adds its own fields to a Messages body (`thinking`, `context_management`, `output_config`). */
export interface ApiRequestOptions { api: ApiName; model?: string; maxTokens?: number; profile?: ProfileName }
/** An Anthropic content block; `cache_control` marks a prompt-cache breakpoint (the end of the static system prompt, the last block of the last message). */
export type AnthropicContentBlock = ({ type: "text"; text: string } | { type: "thinking"; thinking: string } | { type: "tool_use"; id: string; name: string; input: Json } | { type: "tool_result"; tool_use_id: string; content: string; is_error?: true }) & { cache_control?: { type: "ephemeral" } };
/** The body of `POST /v1/messages` for one of our requests (the user context spliced into the messages; a `developer` message sent as `user`). */
export interface AnthropicMessagesBody { model: string; max_tokens: number; system: AnthropicContentBlock[]; tools: { name: string; description: string; input_schema: Json }[]; messages: { role: "user" | "assistant" | "system"; content: AnthropicContentBlock[] }[]; thinking?: { type: "adaptive"; display?: string }; context_management?: { edits: { type: string; keep: string }[] }; output_config?: { effort: string }; stream: true }
/** An input item of the Responses API. */
export type ResponsesInputItem =
  | { type: "message"; role: "developer" | "user" | "assistant" | "system"; content: { type: "input_text" | "output_text"; text: string }[] }
  | { type: "function_call"; call_id: string; name: string; arguments: string }
  | { type: "function_call_output"; call_id: string; output: string }
  | { type: "reasoning"; summary: { type: "summary_text"; text: string }[] };
/** The body of `POST /v1/responses` for one of our requests, as Codex sends it (the system blocks joined as `instructions`). */
export interface OpenAiResponsesBody { model: string; instructions: string; input: ResponsesInputItem[]; tools: { type: "function"; name: string; description: string; strict: false; parameters: Json }[]; tool_choice: "auto"; store: false; stream: true }
/** What `toApiRequest` returns: the body of the API `options.api` names. */
export type ApiRequestBody = AnthropicMessagesBody | OpenAiResponsesBody;
/** The options of `requestDiff`: the milliseconds between the two requests (absent: unknown, no expiry assumed), the cache entries' lifetime (default 300000, Anthropic's 5 minutes), and whether a compaction ran in between. */
export interface RequestDiffOptions { elapsedMs?: number; cacheTtlMs?: number; compacted?: boolean }
/** What happened to a block between two requests. */
export type BlockChange = "unchanged" | "added" | "removed" | "changed";
/** One run of a changed block's words. */
export type WordOp = "equal" | "insert" | "delete";
/** Why the later request cannot read the whole earlier one from the prompt cache (`none`: it can). */
export type CacheBreak = "none" | "ttl-expired" | "compaction" | "tools-changed" | "system-changed" | "context-changed" | "inserted" | "edited" | "removed";
/** A block of either request aligned with its counterpart: `text` for an added or removed block, `words` (or `wordsSkipped`, why not) for a changed one. */
export interface AlignedBlock { change: BlockChange; channel: Block["channel"]; role?: RequestMessage["role"]; source: string; tokensBefore: number; tokensAfter: number; reminder: boolean; text?: string; words?: { op: WordOp; text: string }[]; wordsSkipped?: string }
/** What `requestDiff` returns: both requests' blocks aligned in the order the prompt cache reads them (tools, system, user context, messages), the counts, the tokens on both sides, the leading blocks they share, and the cache's verdict (`at`: the index in `blocks` of the first difference). */
export interface RequestDiff {
  blocks: AlignedBlock[];
  added: number; removed: number; changed: number; unchanged: number;
  tokensBefore: number; tokensAfter: number;
  prefix: { blocks: number; tokens: number };
  cache: { cause: CacheBreak; at?: number; reason: string };
}
/** What one step produced: attachments in emission order, every decision, tool results, the compactions that ran before the request (auto-compaction, or a `compact` step), and the request. */
export interface Turn { round: Round; attachments: Attachment[]; decisions: Decision[]; toolResults: ToolResultBlock[]; compaction?: CompactionReport[]; request?: Request }
/** What `Session.submitFigures` returns: the turn without its request, and the request's token totals and window. */
export type TurnFigures = Omit<Turn, "request"> & { tokens?: Request["tokens"]; window?: Request["window"] };
/** A compaction policy's id. */
export type PolicyId = "claude-code.full" | "claude-code.session_memory" | "claude-code.partial" | "claude-code.microcompact" | "claude-code.tool_result_budget" | "opencode.prune" | "swe.observation_mask" | "anthropic.clear_tool_uses" | "anthropic.clear_thinking" | "cline.truncate" | "codex.local" | "codex.remote" | "opencode.summary" | "cline.file_tracker" | "opencode.read_guard" | "aider.budgets" | "continue.counting" | "cline.condense" | "openai.compaction";
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
  /** Records kept verbatim: a summary's kept tail, Codex's retained user messages, or every record for a policy that only clears content. */
  keptRecords: number;
  restored: { path: string; tokens: number }[];
  reinjected: { kind: string; path?: string; tokens: number }[];
  masked: { subject: string; reason: string }[];
  dropped: { subject: string; reason: string }[];
  survival: Survival[];
  /** What the model can still see in full: files and Bash commands. */
  visible: { paths: string[]; commands: string[] };
  decisions: Decision[];
}
/** The `@` token a composer's caret touches: UTF-16 offsets of the whole token (`@` included) and the query after the `@`. */
export interface AtToken { start: number; end: number; query: string }
/** The options of `searchFiles` and `searchPaths`: how many matches to return (default 20). */
export interface SearchOptions { limit?: number }
/** One match of `searchFiles`: the path relative to the cwd, and the positions of the path that matched, in UTF-16 code units as JS strings index (`path[i]`; a character outside the BMP takes two). */
export interface SearchMatch { path: string; kind: "file" | "directory"; score: number; indices: number[] }
/** What a query past the search's caps (1,024 characters, 8 atoms) had left out, and why. */
export interface QueryCut { charsIgnored: number; atomsIgnored: number; reason: string }
/** The best matches, best first, and how many paths matched in all; `queryCut` when part of the query was ignored. */
export interface SearchResult { matches: SearchMatch[]; totalMatchCount: number; queryCut?: QueryCut }
/** A compaction tried on a replayed scenario. */
export interface CompactionPreview { before: Request; plan: CompactionPlan; report: CompactionReport; after: Request }
/** One entry of the read-file state. */
export interface FileStateRow { path: string; timestamp: number; offset?: number; limit?: number; bytes: number; partialView: boolean }
/** The options of `importSession` and `new SessionImport`: the log's format, recognised from its first lines when left out. */
export interface ImportOptions { format?: "claude-code" | "codex" }
/** The options of `importSession`: `ImportOptions`, and `onProgress` called with the bytes read and the log's bytes in all (every MiB and at the end). */
export interface ImportSessionOptions extends ImportOptions { onProgress?: ProgressCallback }
/** What the provider reported for one request of an imported log; `step` is the scenario step it produced. */
export interface RecordedUsage { line: number; step: number | null; summary: boolean; inputTokens: number; cacheCreationTokens: number; cacheReadTokens: number; outputTokens: number; sessionTotalTokens: number | null; contextWindow: number | null; injected: InjectedItem[] | null }
/** An item an imported log shows was injected into a request: its kind as the log names it (an attachment's type, `meta`, `reminder`, a Codex context tag) and a short label. `injected` is `null` where the log does not record injected items. */
export interface InjectedItem { kind: string; label: string }
/** A log line that could not be used as it was, or a note on what the scenario knows only in part; the message says what was kept. `line-too-long`: a line over 32 MiB (`MAX_LINE_BYTES`), or over 1 MiB and holding more than 524,288 JSON values (`MAX_LINE_VALUES`), is not read and never held whole, so a line costs the import a bounded amount of memory whatever its length (a Claude Code record refused so still keeps its place in the thread); `duplicate-id`: a tool call (or its result) seen twice under one id, kept once when it is the same call written again, else both kept with the later renamed `<id>~2`; `no-result`: a call the log holds no result for, replayed with an empty output. */
export interface ImportWarning { line: number; kind: "bad-line" | "truncated-line" | "unknown" | "sidechain" | "abandoned-branch" | "left-out" | "partial-file" | "over-limit" | "line-too-long" | "duplicate-id" | "no-result"; message: string }
/** An imported session log: the scenario as JSON text (for the player's editor), the usage per request, and warnings. */
export interface ImportResult { format: "claude-code" | "codex"; scenarioJson: string; recorded: RecordedUsage[]; warnings: ImportWarning[] }
/** The options of `redactScenario`: keep the paths as written but for the home directory's user name (the default) or hash every component (the engine's own names and a short list of extensions stay); `key`, at least 16 characters drawn at random (e.g. 16 bytes of `crypto.getRandomValues` as hex), keys the stand-ins so that nobody can recompute one to confirm a guess. */
export interface RedactOptions { paths?: "keep" | "hash"; key?: string }
/** A scenario redacted for sharing: the JSON text, what was done to paths, whether a key was used (without one, `warning` says the result is open to guessing), and how many texts of each kind had words replaced. */
export interface Redaction { scenarioJson: string; paths: "keep" | "hash"; keyed: boolean; warning: string | null; replaced: { files: number; prompts: number; assistantTexts: number; toolInputs: number; toolOutputs: number; otherTexts: number; words: number; paths: number } }
/** How far a streamed import has got. */
export interface ImportProgress { lines: number; bytes: number }
/** A collector of the attachment pass. */
export type CollectorId = "mentions" | "queued_commands" | "date_change" | "ultrathink_effort" | "environment" | "deferred_tools_delta" | "agent_listing_delta" | "mcp_instructions_delta" | "changed_files" | "nested_memory" | "skill_listing" | "plan_mode" | "session_context" | "plan_mode_exit" | "auto_mode" | "auto_mode_exit" | "todo_reminders" | "critical_system_reminder" | "compaction_reminder" | "ide_selection" | "opened_file_memory" | "ide_opened_file" | "output_style" | "diagnostics" | "token_usage" | "budget_usd" | "output_token_usage" | "task_status" | "recently_modified_files";
/** When a collector runs: on a human turn only before the others, on every thread, or on the main thread only. */
export type Phase = "prompt" | "all-threads" | "main-thread";
/** One row of the emission order: the collector, its phase, the attachment kinds it may produce. */
export interface EmissionEntry { collector: CollectorId; phase: Phase; kinds: AttachmentKind[] }
