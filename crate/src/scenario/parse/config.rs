//! The `config` object: settings and registries, over [`SessionConfig::default`].

use alloc::string::String;
use alloc::vec::Vec;

use super::json::Json;
use super::path::Path;
use super::path::Quoted;
use super::read::{
    boolean, compact_object, each, list, name, names, natural, one_of, string, string_or_null,
    strings, whole, Fields, MAX_WHOLE,
};
use super::CONFIG_KEYS;
use crate::compact::model_window::{claude_code_model_window, WindowOverrides};
use crate::request::ToolDefinition;
use crate::session::{
    McpResource, McpServer, PermissionMode, PolicyId, SessionConfig, Skill, SESSION_POLICIES,
};
use crate::Error;

/// The permission modes by their names in settings files.
pub(crate) fn permission_modes() -> Vec<(&'static str, PermissionMode)> {
    PermissionMode::ALL
        .iter()
        .map(|mode| (mode.as_str(), *mode))
        .collect()
}

const PLATFORMS: &[(&str, &str)] = &[("linux", "linux"), ("darwin", "darwin"), ("win32", "win32")];

/// The context windows a scenario may give, in tokens.
pub(super) const CONTEXT_WINDOW: (u64, u64) = (1_000, 10_000_000);
const UTC_OFFSET_MINUTES: i64 = 14 * 60;

/// The keys of `config.windowOverrides`.
pub(crate) const WINDOW_OVERRIDE_KEYS: &[&str] = &[
    "maxContextTokens",
    "disable1mContext",
    "capabilityMaxInputTokens",
    "context1mBeta",
    "sonnet1mExperiment",
    "cappedOutputSlot",
    "maxOutputTokens",
    "autoCompactWindow",
    "autocompactPctOverride",
    "blockingLimitOverride",
];

/// Reads `config`; a field not given keeps its default. With a `model`, the window and
/// the output reserve not given come from Claude Code's tables (§9.1).
pub(crate) fn config(value: &Json, path: &Path<'_>) -> Result<SessionConfig, Error> {
    let fields = Fields::new(value, path, CONFIG_KEYS)?;
    let mut default = SessionConfig::default();
    let max = MAX_WHOLE.unsigned_abs();
    let model = fields.optional("model", name)?;
    let window_overrides = fields.or(
        "windowOverrides",
        WindowOverrides::default(),
        window_overrides,
    )?;
    if let Some(model) = &model {
        let window = claude_code_model_window(model, &window_overrides);
        default.context_window = window.context_window;
        default.output_reserve = window.output_reserve();
    }
    let context_window = fields.or(
        "contextWindow",
        default.context_window,
        natural(CONTEXT_WINDOW.0, CONTEXT_WINDOW.1),
    )?;
    Ok(SessionConfig {
        deny: fields.or("deny", default.deny, strings)?,
        mcp_resources: fields.or("mcpResources", default.mcp_resources, |v, p| {
            each(v, p, mcp_resource)
        })?,
        agents: fields.or("agents", default.agents, names)?,
        additional_directories: fields.or(
            "additionalDirectories",
            default.additional_directories,
            names,
        )?,
        tools: fields.or("tools", default.tools, |v, p| each(v, p, tool))?,
        deferred_tools: fields.or("deferredTools", default.deferred_tools, names)?,
        skills: fields.or("skills", default.skills, |v, p| each(v, p, skill))?,
        skill_listing_char_budget: fields.optional("skillListingCharBudget", natural(1, max))?,
        mcp_servers: fields.or("mcpServers", default.mcp_servers, |v, p| {
            each(v, p, mcp_server)
        })?,
        model,
        context_window,
        output_reserve: output_reserve(&fields, path, context_window, default.output_reserve)?,
        window_overrides,
        system_prompt: fields.optional("systemPrompt", string)?,
        platform: fields
            .optional("platform", one_of("platform", PLATFORMS))?
            .map_or(default.platform, String::from),
        git_status: fields.or("gitStatus", default.git_status, string_or_null)?,
        utc_offset_minutes: fields.or("utcOffsetMinutes", default.utc_offset_minutes, |v, p| {
            let minutes = whole(-UTC_OFFSET_MINUTES, UTC_OFFSET_MINUTES)(v, p)?;
            Ok(i32::try_from(minutes).unwrap_or_default())
        })?,
        output_style: fields.optional("outputStyle", string)?,
        token_usage_reminder: fields.or("tokenUsageReminder", false, boolean)?,
        budget_usd_cents: fields.optional("budgetUsdCents", natural(0, max))?,
        output_token_budget: fields.optional("outputTokenBudget", natural(0, max))?,
        disable_attachments: fields.or("disableAttachments", false, boolean)?,
        auto_mode_available: fields.or("autoModeAvailable", false, boolean)?,
        compaction_reminders: fields.or("compactionReminders", false, boolean)?,
        interview_mode: fields.or("interviewMode", false, boolean)?,
        print_mode: fields.or("printMode", false, boolean)?,
        auto_compact: fields.or("autoCompact", default.auto_compact, boolean)?,
        pinned: fields.or("pinned", default.pinned, names)?,
        plan_file: fields.optional("planFile", name)?,
        memory_dir: fields.optional("memoryDir", name)?,
        transcript_path: fields.optional("transcriptPath", name)?,
        permission_mode: fields.or(
            "permissionMode",
            default.permission_mode,
            one_of("permission mode", &permission_modes()),
        )?,
        policies: fields.or("policies", default.policies, policies)?,
    })
}

/// `policies`: the policies a session keeps on, each named once; a compaction policy's id
/// is refused with where such a policy goes instead.
fn policies(value: &Json, path: &Path<'_>) -> Result<Vec<PolicyId>, Error> {
    let allowed = || {
        let names: Vec<&str> = SESSION_POLICIES.iter().map(|p| p.as_str()).collect();
        list(&names)
    };
    let mut chosen: Vec<PolicyId> = Vec::new();
    each(value, path, |item, here| {
        let id = string(item, here)?;
        let policy = match PolicyId::ALL.iter().find(|p| p.as_str() == id) {
            Some(policy) if SESSION_POLICIES.contains(policy) => *policy,
            Some(_) => {
                return Err(here.error(alloc::format!(
                    "{} is a compaction policy, run by a `compact` step; a session keeps on \
                     only {}",
                    Quoted(&id),
                    allowed()
                )))
            }
            None => {
                return Err(here.error(alloc::format!(
                    "unknown policy {}: expected one of {}",
                    Quoted(&id),
                    allowed()
                )))
            }
        };
        if chosen.contains(&policy) {
            return Err(here.error(alloc::format!("{} is named twice", Quoted(&id))));
        }
        chosen.push(policy);
        Ok(policy)
    })
}

/// The output reserve must leave some of the window for input, the default reserve too.
fn output_reserve(
    fields: &Fields<'_, '_>,
    path: &Path<'_>,
    context_window: u64,
    default: u64,
) -> Result<u64, Error> {
    let largest = context_window.saturating_sub(1);
    let given = fields.optional("outputReserve", |value, here| {
        natural(0, largest)(value, here).map_err(|err| match err {
            Error::InvalidConfig { field, reason } => Error::InvalidConfig {
                field,
                reason: alloc::format!(
                    "{reason}; it must be less than contextWindow ({context_window})"
                ),
            },
            other => other,
        })
    })?;
    match given {
        Some(reserve) => Ok(reserve),
        None if default < context_window => Ok(default),
        None => Err(path.key("outputReserve").error(alloc::format!(
            "required field is missing: the default, {default}, is not less than contextWindow ({context_window})"
        ))),
    }
}

/// `config.windowOverrides`: the host's stand-ins for the original's environment
/// (§9.1, §10.1). A window is in the range `contextWindow` takes, so that a window the
/// tables derive from it is one too.
fn window_overrides(value: &Json, path: &Path<'_>) -> Result<WindowOverrides, Error> {
    let fields = Fields::new(value, path, WINDOW_OVERRIDE_KEYS)?;
    let window = || natural(CONTEXT_WINDOW.0, CONTEXT_WINDOW.1);
    let max = MAX_WHOLE.unsigned_abs();
    Ok(WindowOverrides {
        max_context_tokens: fields.optional("maxContextTokens", window())?,
        disable_1m_context: fields.or("disable1mContext", false, boolean)?,
        capability_max_input_tokens: fields
            .optional("capabilityMaxInputTokens", natural(0, CONTEXT_WINDOW.1))?,
        context_1m_beta: fields.or("context1mBeta", false, boolean)?,
        sonnet_1m_experiment: fields.or("sonnet1mExperiment", false, boolean)?,
        capped_output_slot: fields.or("cappedOutputSlot", false, boolean)?,
        max_output_tokens: fields.optional("maxOutputTokens", natural(1, max))?,
        auto_compact_window: fields.optional("autoCompactWindow", window())?,
        autocompact_pct_override: fields.optional("autocompactPctOverride", natural(1, 100))?,
        blocking_limit_override: fields.optional("blockingLimitOverride", natural(1, max))?,
    })
}

fn mcp_resource(value: &Json, path: &Path<'_>) -> Result<McpResource, Error> {
    let fields = Fields::new(
        value,
        path,
        &["server", "uri", "name", "description", "text"],
    )?;
    Ok(McpResource {
        server: fields.required("server", name)?,
        uri: fields.required("uri", name)?,
        name: fields.optional("name", string)?,
        description: fields.optional("description", string)?,
        text: fields.optional("text", string)?,
    })
}

fn tool(value: &Json, path: &Path<'_>) -> Result<ToolDefinition, Error> {
    let fields = Fields::new(
        value,
        path,
        &["name", "description", "inputSchema", "deferred"],
    )?;
    Ok(ToolDefinition {
        name: fields.required("name", name)?,
        description: fields.required("description", string)?,
        input_schema: fields.required("inputSchema", compact_object)?,
        deferred: fields.or("deferred", false, boolean)?,
    })
}

/// A skill, in `config.skills` and in `registry` steps.
pub(crate) fn skill(value: &Json, path: &Path<'_>) -> Result<Skill, Error> {
    let fields = Fields::new(value, path, &["name", "description"])?;
    Ok(Skill {
        name: fields.required("name", name)?,
        description: fields.required("description", string)?,
    })
}

/// An MCP server, in `config.mcpServers` and in `registry` steps.
pub(crate) fn mcp_server(value: &Json, path: &Path<'_>) -> Result<McpServer, Error> {
    let fields = Fields::new(value, path, &["name", "instructions"])?;
    Ok(McpServer {
        name: fields.required("name", name)?,
        instructions: fields.optional("instructions", string)?,
    })
}
