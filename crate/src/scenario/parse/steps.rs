//! Steps: one reader per kind, and the assistant's blocks.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::config::{mcp_server, permission_modes, skill, CONTEXT_WINDOW};
use super::json::Json;
use super::path::{Path, Quoted};
use super::read::{
    absolute, boolean, compact_object, each, list, mismatch, name, names, natural, object, one_of,
    string, string_or_null, Fields, MAX_WHOLE,
};
use super::STEP_KINDS;
use crate::codex::context::{ApprovalPolicy, ExecEnvironment, SandboxMode, Subagent};
use crate::compact::context_size::ProviderUsage;
use crate::compact::prompt_too_long::PromptTooLong;
use crate::scenario::{Action, AssistantStep, Step, ToolCall, TurnSettingsChange};
use crate::session::{
    BackgroundStatus, Diagnostic, DiagnosticFile, IdeSelection, PlanApproval, Severity,
};
use crate::transcript::ToolResultBlock;
use crate::Error;

type ReadStep = fn(&Fields<'_, '_>) -> Result<Action, Error>;

/// Each kind with the fields it allows (after `kind`) and its reader.
const KINDS: [(&str, &[&str], ReadStep); 21] = [
    ("user", &["prompt", "memories", "pastes"], user),
    (
        "assistant",
        &["blocks", "usage", "compactBeforeToolRound"],
        assistant,
    ),
    ("toolResults", &["results"], tool_results),
    ("writeFile", &["path", "content"], write_file),
    ("deleteFile", &["path"], delete_file),
    ("rename", &["from", "to"], rename),
    ("touch", &["path"], touch),
    ("setMode", &["mode"], set_mode),
    ("ide", &["selection", "openedFile"], ide),
    ("diagnostics", &["files"], diagnostics),
    ("advanceTime", &["ms"], advance_time),
    ("registry", REGISTRY_LISTS, registry),
    ("queueCommand", &["prompt"], queue_command),
    ("criticalReminder", &["text"], critical_reminder),
    ("usage", &["spentUsdCents", "outputTokens"], usage),
    (
        "taskStatus",
        &["taskId", "description", "status"],
        task_status,
    ),
    ("compact", COMPACT_STEP_KEYS, compact),
    ("turnSettings", TURN_SETTINGS_KEYS, turn_settings),
    ("resume", &[], |_| Ok(Action::Resume)),
    ("fork", &["beforeUserTurn"], fork),
    ("rollback", &["turns"], rollback),
];

/// More turns than any scenario holds.
const MAX_TURNS: u64 = 1_000_000;

const TURN_SETTINGS_KEYS: &[&str] = &[
    "model",
    "modelInstructions",
    "approvalPolicy",
    "sandboxMode",
    "networkAccess",
    "personality",
    "collaborationMode",
    "developerInstructions",
    "shell",
    "timezone",
    "contextWindow",
    "environments",
    "subagents",
    "realtimeActive",
    "realtimeStartInstructions",
];

const APPROVAL_POLICIES: &[(&str, ApprovalPolicy)] = &[
    ("never", ApprovalPolicy::Never),
    ("unless-trusted", ApprovalPolicy::UnlessTrusted),
    ("on-failure", ApprovalPolicy::OnFailure),
    ("on-request", ApprovalPolicy::OnRequest),
];

const SANDBOX_MODES: &[(&str, SandboxMode)] = &[
    ("read-only", SandboxMode::ReadOnly),
    ("workspace-write", SandboxMode::WorkspaceWrite),
    ("danger-full-access", SandboxMode::DangerFullAccess),
];

/// The kinds' names, for [`super::STEP_KINDS`].
pub(super) const KIND_NAMES: [&str; KINDS.len()] = kind_names(&KINDS);

const fn kind_names<const N: usize>(
    table: &[(&'static str, &'static [&'static str], ReadStep); N],
) -> [&'static str; N] {
    let mut names = [""; N];
    let mut i = 0;
    while i < N {
        names[i] = table[i].0;
        i += 1;
    }
    names
}

const REGISTRY_LISTS: &[&str] = &["skills", "agents", "mcpServers", "deferredTools"];

/// The one tool whose call carries the user's answer.
const PLAN_TOOL: &str = "ExitPlanMode";

/// Reads one step, keeping its JSON for the trace.
pub(crate) fn step(value: &Json, path: &Path<'_>) -> Result<Step, Error> {
    let entries = object(value, path)?;
    let kind_path = path.key("kind");
    let kind = match entries.iter().find(|(key, _)| key == "kind") {
        Some((_, kind)) => kind,
        None => return Err(kind_path.error("required field is missing")),
    };
    let Some((_, fields, read)) = KINDS
        .iter()
        .find(|(name, _, _)| Some(*name) == kind.as_str())
    else {
        return Err(match kind {
            Json::String(s) => kind_path.error(format!(
                "unknown step kind {}: expected one of {}",
                Quoted(s),
                list(STEP_KINDS)
            )),
            other => mismatch(&kind_path, &format!("one of {}", list(STEP_KINDS)), other),
        });
    };
    let allowed: Vec<&str> = core::iter::once("kind")
        .chain(fields.iter().copied())
        .collect();
    let action = read(&Fields::new(value, path, &allowed)?)?;
    Ok(Step {
        action,
        source: value.to_compact(),
    })
}

/// Tool-use ids must be unique across the scenario: the first place each id was given.
pub(crate) fn check_tool_ids(steps: &[Step]) -> Result<(), Error> {
    let mut seen: BTreeMap<&str, String> = BTreeMap::new();
    for (i, step) in steps.iter().enumerate() {
        let Action::Assistant { blocks, .. } = &step.action else {
            continue;
        };
        for (j, block) in blocks.iter().enumerate() {
            let AssistantStep::ToolUse(ToolCall { id: Some(id), .. }) = block else {
                continue;
            };
            let root = Path::Root;
            let steps_path = root.key("steps");
            let step_path = steps_path.index(i);
            let blocks_path = step_path.key("blocks");
            let block_path = blocks_path.index(j);
            let here = block_path.key("id");
            if let Some(first) = seen.get(id.as_str()) {
                return Err(here.error(format!(
                    "duplicate tool-use id {}: already used at {first}",
                    Quoted(id)
                )));
            }
            seen.insert(id, format!("{here}"));
        }
    }
    Ok(())
}

fn turn_settings(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    let changes = TurnSettingsChange {
        model: fields.optional("model", name)?,
        model_instructions: fields.optional("modelInstructions", string)?,
        approval_policy: fields.optional(
            "approvalPolicy",
            one_of("approval policy", APPROVAL_POLICIES),
        )?,
        sandbox_mode: fields.optional("sandboxMode", one_of("sandbox mode", SANDBOX_MODES))?,
        network_access: fields.optional("networkAccess", boolean)?,
        personality: fields.optional("personality", string_or_null)?,
        collaboration_mode: fields.optional("collaborationMode", string_or_null)?,
        developer_instructions: fields.optional("developerInstructions", string_or_null)?,
        shell: fields.optional("shell", name)?,
        timezone: fields.optional("timezone", name)?,
        context_window: fields
            .optional("contextWindow", natural(CONTEXT_WINDOW.0, CONTEXT_WINDOW.1))?,
        environments: fields.optional("environments", environments)?,
        subagents: fields.optional("subagents", |v, p| each(v, p, subagent))?,
        realtime_active: fields.optional("realtimeActive", boolean)?,
        realtime_start_instructions: fields
            .optional("realtimeStartInstructions", string_or_null)?,
    };
    Ok(Action::TurnSettings { changes })
}

/// `environments`: none (the turn's cwd and shell are the one environment) or two or more,
/// their ids distinct.
fn environments(value: &Json, path: &Path<'_>) -> Result<Vec<ExecEnvironment>, Error> {
    let list = each(value, path, |value, path| {
        let fields = Fields::new(value, path, &["id", "cwd", "shell"])?;
        Ok(ExecEnvironment {
            id: fields.required("id", name)?,
            cwd: fields.required("cwd", absolute)?,
            shell: fields.required("shell", name)?,
        })
    })?;
    if list.len() == 1 {
        return Err(path.error(
            "expected none or two or more environments, got one: a single environment is the \
             turn's cwd and shell",
        ));
    }
    for (i, environment) in list.iter().enumerate() {
        if list[..i].iter().any(|earlier| earlier.id == environment.id) {
            let here = path.index(i);
            return Err(here.key("id").error(format!(
                "duplicate environment id {}",
                Quoted(&environment.id)
            )));
        }
    }
    Ok(list)
}

/// A sub-agent: its id and name.
fn subagent(value: &Json, path: &Path<'_>) -> Result<Subagent, Error> {
    let fields = Fields::new(value, path, &["id", "name"])?;
    Ok(Subagent {
        id: fields.required("id", name)?,
        name: fields.required("name", name)?,
    })
}

fn fork(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    let turn = fields.required("beforeUserTurn", natural(0, MAX_TURNS))?;
    Ok(Action::Fork {
        before_user_turn: usize::try_from(turn).unwrap_or(usize::MAX),
    })
}

fn rollback(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    let turns = fields.required("turns", natural(1, MAX_TURNS))?;
    Ok(Action::Rollback {
        turns: usize::try_from(turns).unwrap_or(usize::MAX),
    })
}

fn compact(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    let (options, summary) = super::compaction::compaction(fields)?;
    let prompt_too_long = fields
        .optional("promptTooLong", |value, path| {
            if options.policy != crate::session::Policy::Full {
                return Err(path.error(format!(
                    "only full compaction ({}) retries a summary request refused as too long",
                    crate::session::PolicyId::Full
                )));
            }
            each(value, path, refusal)
        })?
        .unwrap_or_default();
    Ok(Action::Compact {
        options,
        summary,
        prompt_too_long,
    })
}

/// The keys of a `compact` step: a compaction request's and the summary request's refusals.
const COMPACT_STEP_KEYS: &[&str] = &[
    "policy",
    "trigger",
    "instructions",
    "summary",
    "promptTooLong",
    "pivot",
    "direction",
    "params",
];

/// One refusal of the summary request as too long: the counts the provider gave, if any.
fn refusal(value: &Json, path: &Path<'_>) -> Result<PromptTooLong, Error> {
    let fields = Fields::new(value, path, &["tokens", "maximum"])?;
    let count = natural(0, MAX_WHOLE.unsigned_abs());
    Ok(PromptTooLong {
        tokens: fields.optional("tokens", &count)?,
        maximum: fields.optional("maximum", &count)?,
    })
}

fn user(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    Ok(Action::User {
        prompt: fields.required("prompt", string)?,
        memories: fields.optional("memories", |v, p| each(v, p, absolute))?,
        pastes: (fields.optional("pastes", |v, p| each(v, p, string))?).unwrap_or_default(),
    })
}

fn assistant(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    let blocks = fields.required("blocks", |value, path| {
        let blocks = each(value, path, block)?;
        if blocks.is_empty() {
            return Err(path.error("expected at least one block, got an empty array"));
        }
        Ok(blocks)
    })?;
    let usage = fields.optional("usage", provider_usage)?;
    let compact_before_tool_round = fields.optional("compactBeforeToolRound", |value, path| {
        if !blocks
            .iter()
            .any(|b| matches!(b, AssistantStep::ToolUse(_)))
        {
            return Err(path.error(
                "allowed only in a step that calls tools: without calls there is no tool round",
            ));
        }
        super::compaction::compaction(&Fields::new(
            value,
            path,
            super::compaction::COMPACTION_KEYS,
        )?)
    })?;
    Ok(Action::Assistant {
        blocks,
        usage,
        compact_before_tool_round,
    })
}

/// What the provider reported for the request an `assistant` step answers: four counts, each
/// 0 when left out.
fn provider_usage(value: &Json, path: &Path<'_>) -> Result<ProviderUsage, Error> {
    let fields = Fields::new(value, path, USAGE_KEYS)?;
    let count = |key: &str| fields.or(key, 0, natural(0, MAX_WHOLE.unsigned_abs()));
    Ok(ProviderUsage {
        input_tokens: count("inputTokens")?,
        cache_creation_tokens: count("cacheCreationTokens")?,
        cache_read_tokens: count("cacheReadTokens")?,
        output_tokens: count("outputTokens")?,
    })
}

const USAGE_KEYS: &[&str] = &[
    "inputTokens",
    "cacheCreationTokens",
    "cacheReadTokens",
    "outputTokens",
];

#[derive(Clone, Copy)]
enum BlockType {
    Text,
    Thinking,
    ToolUse,
}

const BLOCK_TYPES: &[(&str, BlockType)] = &[
    ("text", BlockType::Text),
    ("thinking", BlockType::Thinking),
    ("tool_use", BlockType::ToolUse),
];

fn block(value: &Json, path: &Path<'_>) -> Result<AssistantStep, Error> {
    let entries = object(value, path)?;
    let block_type = match entries.iter().find(|(key, _)| key == "type") {
        Some((_, given)) => one_of("block type", BLOCK_TYPES)(given, &path.key("type"))?,
        None => return Err(path.key("type").error("required field is missing")),
    };
    match block_type {
        BlockType::Text => {
            let fields = Fields::new(value, path, &["type", "text"])?;
            Ok(AssistantStep::Text(fields.required("text", string)?))
        }
        BlockType::Thinking => {
            let fields = Fields::new(value, path, &["type", "thinking"])?;
            Ok(AssistantStep::Thinking(
                fields.required("thinking", string)?,
            ))
        }
        BlockType::ToolUse => tool_use(value, path).map(AssistantStep::ToolUse),
    }
}

fn tool_use(value: &Json, path: &Path<'_>) -> Result<ToolCall, Error> {
    let allowed = ["type", "name", "input", "id", "output", "approval"];
    let fields = Fields::new(value, path, &allowed)?;
    let tool = fields.required("name", name)?;
    let input = fields.required("input", compact_object)?;
    let id = fields.optional("id", name)?;
    let output = fields.optional("output", string)?;
    let approval = fields.optional("approval", |value, here| {
        if tool != PLAN_TOOL {
            return Err(here.error(format!(
                "only allowed on an {PLAN_TOOL:?} call; this call is to {}",
                Quoted(&tool)
            )));
        }
        let fields = Fields::new(value, here, &["approved", "feedback"])?;
        Ok(PlanApproval {
            approved: fields.required("approved", boolean)?,
            feedback: fields.optional("feedback", string)?,
        })
    })?;
    Ok(ToolCall {
        id,
        name: tool,
        input,
        output,
        approval,
    })
}

fn write_file(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    Ok(Action::WriteFile {
        path: fields.required("path", name)?,
        content: fields.required("content", string)?,
    })
}

fn delete_file(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    Ok(Action::DeleteFile {
        path: fields.required("path", name)?,
    })
}

fn rename(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    Ok(Action::Rename {
        from: fields.required("from", name)?,
        to: fields.required("to", name)?,
    })
}

fn touch(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    Ok(Action::Touch {
        path: fields.required("path", name)?,
    })
}

fn set_mode(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    Ok(Action::SetMode {
        mode: fields.required("mode", one_of("permission mode", &permission_modes()))?,
    })
}

fn ide(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    Ok(Action::Ide {
        selection: fields.or("selection", None, selection)?,
        opened_file: fields.or("openedFile", None, string_or_null)?,
    })
}

fn selection(value: &Json, path: &Path<'_>) -> Result<Option<IdeSelection>, Error> {
    if matches!(value, Json::Null) {
        return Ok(None);
    }
    if !matches!(value, Json::Object(_)) {
        return Err(mismatch(path, "an object or null", value));
    }
    let allowed = ["path", "lineStart", "lineCount", "endsAtLineStart", "text"];
    let fields = Fields::new(value, path, &allowed)?;
    Ok(Some(IdeSelection {
        path: fields.required("path", name)?,
        line_start: fields.required("lineStart", natural(0, MAX_WHOLE.unsigned_abs()))?,
        line_count: fields.required("lineCount", natural(1, MAX_WHOLE.unsigned_abs()))?,
        ends_at_line_start: fields.or("endsAtLineStart", false, boolean)?,
        text: fields.required("text", string)?,
    }))
}

fn diagnostics(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    Ok(Action::Diagnostics {
        files: fields.required("files", |v, p| each(v, p, diagnostic_file))?,
    })
}

fn diagnostic_file(value: &Json, path: &Path<'_>) -> Result<DiagnosticFile, Error> {
    let fields = Fields::new(value, path, &["path", "items"])?;
    Ok(DiagnosticFile {
        path: fields.required("path", name)?,
        items: fields.required("items", |v, p| each(v, p, diagnostic))?,
    })
}

const SEVERITIES: &[(&str, Severity)] = &[
    ("error", Severity::Error),
    ("warning", Severity::Warning),
    ("info", Severity::Info),
    ("hint", Severity::Hint),
];

fn diagnostic(value: &Json, path: &Path<'_>) -> Result<Diagnostic, Error> {
    let allowed = ["severity", "line", "column", "message", "code", "source"];
    let fields = Fields::new(value, path, &allowed)?;
    let position = natural(0, MAX_WHOLE.unsigned_abs());
    Ok(Diagnostic {
        severity: fields.required("severity", one_of("severity", SEVERITIES))?,
        line: fields.required("line", &position)?,
        column: fields.required("column", &position)?,
        message: fields.required("message", string)?,
        code: fields.optional("code", string)?,
        source: fields.optional("source", string)?,
    })
}

fn tool_results(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    Ok(Action::ToolResults {
        results: fields.required("results", |v, p| each(v, p, tool_result))?,
    })
}

fn tool_result(value: &Json, path: &Path<'_>) -> Result<ToolResultBlock, Error> {
    let fields = Fields::new(value, path, &["toolUseId", "content", "isError"])?;
    Ok(ToolResultBlock {
        tool_use_id: fields.required("toolUseId", name)?,
        content: fields.required("content", string)?,
        is_error: fields.or("isError", false, boolean)?,
    })
}

fn advance_time(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    Ok(Action::AdvanceTime {
        ms: fields.required("ms", natural(0, MAX_WHOLE.unsigned_abs()))?,
    })
}

fn registry(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    let action = Action::Registry {
        skills: fields.optional("skills", |v, p| each(v, p, skill))?,
        agents: fields.optional("agents", names)?,
        mcp_servers: fields.optional("mcpServers", |v, p| each(v, p, mcp_server))?,
        deferred_tools: fields.optional("deferredTools", names)?,
    };
    if REGISTRY_LISTS.iter().all(|key| fields.get(key).is_none()) {
        return Err(fields.error(format!(
            "a \"registry\" step needs at least one of {}",
            list(REGISTRY_LISTS)
        )));
    }
    Ok(action)
}

fn queue_command(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    Ok(Action::QueueCommand {
        prompt: fields.required("prompt", string)?,
    })
}

fn critical_reminder(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    Ok(Action::CriticalReminder {
        text: fields.required("text", string_or_null)?,
    })
}

fn usage(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    let amount = natural(0, MAX_WHOLE.unsigned_abs());
    Ok(Action::Usage {
        spent_usd_cents: fields.optional("spentUsdCents", &amount)?,
        output_tokens: fields.optional("outputTokens", &amount)?,
    })
}

const TASK_STATUSES: &[(&str, BackgroundStatus)] = &[
    ("running", BackgroundStatus::Running),
    ("killed", BackgroundStatus::Killed),
];

fn task_status(fields: &Fields<'_, '_>) -> Result<Action, Error> {
    Ok(Action::TaskStatus {
        task_id: fields.required("taskId", name)?,
        description: fields.required("description", string)?,
        status: fields.required("status", one_of("task status", TASK_STATUSES))?,
    })
}
