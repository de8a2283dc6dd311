//! `runScenario`: a JSON scenario replayed by the core, its trace returned as plain objects.

use context_assembly::cache::{parse_price_table, PriceTable};
use context_assembly::scenario::compare_profiles;
use context_assembly::scenario::{
    compaction_preview, parse_compaction_options, parse_scenario, run_scenario,
};
use context_assembly::session::PolicyId;
use context_assembly::ProfileName;
use core::str::FromStr;
use wasm_bindgen::prelude::*;

use crate::access;
use crate::options::{string_argument, type_name};
use crate::{to_js, BindingError, JsResult};

#[wasm_bindgen(typescript_custom_section)]
const SCENARIO_TYPESCRIPT: &str = r#"
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
/** One step of a scenario (see web/scenarios/FORMAT.md). */
export type ScenarioStep =
  | { kind: "user"; prompt: string; memories?: string[] }
  | { kind: "assistant"; blocks: AssistantStepBlock[] }
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
  | ({ kind: "compact"; summary?: string } & CompactionOptions)
  | { kind: "turnSettings"; model?: string; modelInstructions?: string; approvalPolicy?: "never" | "unless-trusted" | "on-failure" | "on-request"; sandboxMode?: "read-only" | "workspace-write" | "danger-full-access"; networkAccess?: boolean; personality?: string | null; collaborationMode?: string | null; developerInstructions?: string | null; shell?: string; timezone?: string };
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
}
/** One replayed step: the step as given, the clock, the mode after it, and what it produced. */
export interface StepTrace { input: ScenarioStep; atMs: number; mode: PermissionModeName; turn: Turn }
/** A price table in micro-dollars per million tokens. */
export interface PriceTableInput { inputPerMTok: number; cachedInputPerMTok: number; cacheWrite5mPerMTok: number; cacheWrite1hPerMTok: number; outputPerMTok: number }
/** The options of `compareProfiles`. */
export interface CompareOptions { prices?: { [profile: string]: PriceTableInput } }
/** The input tokens of requests split by how the provider's prompt cache charges them; `cached + written + uncached = sent`. */
export interface StepCost { sent: number; cached: number; written: number; uncached: number; output: number; costMicroUsd: number }
/** What a profile can still see after a compaction. */
export interface CompactionSeen { policy: PolicyId; tokensBefore: number; tokensAfter: number; files: string[]; instructions: string[]; recentMessages: number }
/** One request of one profile. */
export interface CompareStep extends StepCost { step: number; atMs: number; attachments: number; compacted?: CompactionSeen }
/** Each profile's requests and totals. */
export type Comparison = { [profile: string]: { steps: CompareStep[]; totals: StepCost } };
/** A replayed scenario. A step's `turn.request` is built when it is read (the trace holds each message once), so read it where it is needed rather than copying every step's. */
export interface Trace { steps: StepTrace[] }
"#;

// A trace crosses shared (every message once; each request as "the first `keep` messages of
// step `base`'s request, then `tail`") and is unfolded here: each step's `turn.request` is an
// enumerable getter that builds the request when it is read, from the same message objects,
// so a trace costs memory in proportion to its steps, while reading it (and
// `JSON.stringify`) sees the full request as before.
#[wasm_bindgen(inline_js = r#"
export function lazyTrace(shared) {
  const { steps, messages, blockLists } = shared;
  const lists = steps.map((step) => (step.request === undefined ? undefined : step.request.messages));
  function messagesOf(list) {
    const parts = [];
    let limit = list.keep + list.tail.length;
    for (let current = list; current !== undefined && limit > 0;) {
      const fromTail = Math.min(Math.max(0, limit - current.keep), current.tail.length);
      parts.push(current.tail.slice(0, fromTail));
      limit = Math.min(limit, current.keep);
      current = current.base === null ? undefined : lists[current.base];
    }
    const ids = parts.reverse().flat();
    return ids.map((id) => messages[id]);
  }
  for (const step of steps) {
    const request = step.request;
    delete step.request;
    if (request === undefined) continue;
    Object.defineProperty(step.turn, 'request', {
      enumerable: true,
      configurable: true,
      get() {
        return {
          system: blockLists[request.system],
          tools: blockLists[request.tools],
          userContext: blockLists[request.userContext],
          userContextAt: request.userContextAt,
          messages: messagesOf(request.messages),
          tokens: request.tokens,
          window: request.window,
        };
      },
    });
  }
  return { steps };
}
"#)]
extern "C" {
    #[wasm_bindgen(js_name = lazyTrace)]
    fn lazy_trace(shared: &JsValue) -> JsValue;
}

#[wasm_bindgen]
extern "C" {
    /// The `Trace` TypeScript interface.
    #[wasm_bindgen(typescript_type = "Trace")]
    pub type TraceJs;

    /// The `Comparison` TypeScript type.
    #[wasm_bindgen(typescript_type = "Comparison")]
    pub type ComparisonJs;

    /// The `CompactionPreview` TypeScript interface.
    #[wasm_bindgen(typescript_type = "CompactionPreview")]
    pub type CompactionPreviewJs;
}

/// Replays a scenario (a JSON string, or an object that is serialised with `JSON.stringify`)
/// and returns one step per scenario step, each with its turn and request.
#[wasm_bindgen(js_name = runScenario)]
pub fn run_scenario_js(
    #[wasm_bindgen(unchecked_param_type = "string | ScenarioInput")] scenario: JsValue,
) -> Result<TraceJs, JsValue> {
    let run = || -> JsResult<TraceJs> {
        let json = json_text("runScenario", "scenario", &scenario)?;
        let parsed = parse_scenario(&json).map_err(prefixed)?;
        let trace = run_scenario(&parsed).map_err(prefixed)?;
        let shared = to_js(&trace.shared())?;
        Ok(lazy_trace(&shared).unchecked_into())
    };
    run().map_err(JsValue::from)
}

/// Replays `scenario` up to `steps` steps (all when absent), then plans and applies a
/// compaction: the request before and after, the plan and the report.
#[wasm_bindgen(js_name = compactScenario)]
pub fn compact_scenario_js(
    #[wasm_bindgen(unchecked_param_type = "string | ScenarioInput")] scenario: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CompactionOptions & { summary?: string }")]
    options: JsValue,
    #[wasm_bindgen(unchecked_param_type = "number | undefined")] steps: JsValue,
) -> Result<CompactionPreviewJs, JsValue> {
    const FUNCTION: &str = "compactScenario";
    let run = || -> JsResult<CompactionPreviewJs> {
        let json = json_text(FUNCTION, "scenario", &scenario)?;
        let options_json = match options.is_undefined() {
            true => String::from("{}"),
            false => json_text(FUNCTION, "options", &options)?,
        };
        let steps = match steps.as_f64() {
            None if steps.is_undefined() || steps.is_null() => None,
            Some(n) if crate::options::is_integer_in(n, 0.0, crate::options::MAX_SAFE) => {
                Some(n as usize)
            }
            _ => {
                return Err(BindingError(format!(
                    "{FUNCTION}: argument `steps` must be a whole number of steps, got {}",
                    crate::options::describe(&steps)
                )))
            }
        };
        let error = |e: context_assembly::Error| BindingError(format!("{FUNCTION}: {e}"));
        let parsed = parse_scenario(&json).map_err(error)?;
        let (options, summary) = parse_compaction_options(&options_json).map_err(error)?;
        let preview =
            compaction_preview(&parsed, options, summary.as_deref(), steps).map_err(error)?;
        Ok(to_js(&preview)?.unchecked_into())
    };
    run().map_err(JsValue::from)
}

/// Replays `scenario` under each of `profiles` and prices every request with the profile's
/// provider cache (Anthropic's breakpoints for Claude Code's profiles, OpenAI's automatic
/// prefix cache for Codex's); `options.prices` replaces a profile's default price table.
#[wasm_bindgen(js_name = compareProfiles)]
pub fn compare_profiles_js(
    #[wasm_bindgen(unchecked_param_type = "string | ScenarioInput")] scenario: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ProfileName[]")] profiles: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CompareOptions | undefined")] options: JsValue,
) -> Result<ComparisonJs, JsValue> {
    const FUNCTION: &str = "compareProfiles";
    let run = || -> JsResult<ComparisonJs> {
        let error = |e: context_assembly::Error| BindingError(format!("{FUNCTION}: {e}"));
        let json = json_text(FUNCTION, "scenario", &scenario)?;
        let parsed = parse_scenario(&json).map_err(error)?;
        let names = profile_list(FUNCTION, &profiles)?;
        let prices = price_tables(FUNCTION, &options)?;
        let comparison = compare_profiles(&parsed, &names, &prices).map_err(error)?;
        Ok(to_js(&comparison)?.unchecked_into())
    };
    run().map_err(JsValue::from)
}

/// The profile names of an array argument.
fn profile_list(function: &str, value: &JsValue) -> JsResult<Vec<ProfileName>> {
    let not_an_array = || {
        BindingError(format!(
            "{function}: argument `profiles` must be an array of profile names, got {}",
            type_name(value)
        ))
    };
    if !value.is_object() || !access::is_array(function, "argument `profiles`", value)? {
        return Err(not_an_array());
    }
    let json = json_text(function, "profiles", value)?;
    let serde_json::Value::Array(items) =
        serde_json::from_str(&json).map_err(|_| not_an_array())?
    else {
        return Err(not_an_array());
    };
    items
        .iter()
        .enumerate()
        .map(|(index, item)| {
            let name = item.as_str().unwrap_or_default();
            ProfileName::from_str(name).map_err(|_| {
                BindingError(format!(
                    "{function}: profiles[{index}]: unknown profile {item}; expected one of \"claude-code\", \"codex\", \"recommended\""
                ))
            })
        })
        .collect()
}

/// `options.prices`: a price table per profile name.
fn price_tables(function: &str, options: &JsValue) -> JsResult<Vec<(ProfileName, PriceTable)>> {
    if options.is_undefined() || options.is_null() {
        return Ok(Vec::new());
    }
    let text = json_text(function, "options", options)?;
    let tree: serde_json::Value = serde_json::from_str(&text)
        .map_err(|e| BindingError(format!("{function}: options: {e}")))?;
    let serde_json::Value::Object(fields) = tree else {
        return Err(BindingError(format!(
            "{function}: options must be an object"
        )));
    };
    let mut tables = Vec::new();
    for (key, value) in fields {
        if key != "prices" {
            return Err(BindingError(format!(
                "{function}: options.{key}: unknown field; expected \"prices\""
            )));
        }
        let serde_json::Value::Object(per_profile) = value else {
            return Err(BindingError(format!(
                "{function}: options.prices must be an object of price tables by profile name"
            )));
        };
        for (name, table) in per_profile {
            let profile = ProfileName::from_str(&name).map_err(|_| {
                BindingError(format!("{function}: options.prices.{name}: unknown profile; expected one of \"claude-code\", \"codex\", \"recommended\""))
            })?;
            let parsed = parse_price_table(&table.to_string())
                .map_err(|e| BindingError(format!("{function}: options.prices.{name}: {e}")))?;
            tables.push((profile, parsed));
        }
    }
    Ok(tables)
}

/// The compaction policies, in the order the playground lists them.
#[wasm_bindgen(js_name = compactionPolicies, unchecked_return_type = "PolicyId[]")]
pub fn compaction_policies() -> Result<JsValue, JsValue> {
    Ok(to_js(&PolicyId::ALL)?)
}

/// A JSON argument: a string as given, an object through `JSON.stringify` (whose getters,
/// traps and `toJSON` methods may throw: that is an error naming the argument).
pub(crate) fn json_text(function: &str, name: &str, value: &JsValue) -> JsResult<String> {
    if value.is_string() {
        return string_argument(function, name, value);
    }
    if value.is_object() && !value.is_function() {
        let what = format!("argument `{name}`");
        return access::json_text(function, &what, value)?.ok_or_else(|| {
            BindingError(format!(
                "{function}: argument `{name}` cannot be serialised to JSON"
            ))
        });
    }
    Err(BindingError(format!(
        "{function}: argument `{name}` must be a JSON string or an object, got {}",
        type_name(value)
    )))
}

fn prefixed(error: context_assembly::Error) -> BindingError {
    BindingError(format!("runScenario: {error}"))
}
