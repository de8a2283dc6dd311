//! The scenario exports: a JSON scenario replayed, compared across profiles, or compacted
//! by the core, and a replayed request exported as a provider's API body.

use context_assembly::request::{api_body, request_diff};
use context_assembly::scenario::{
    account_trace, compaction_preview, compare_profiles_reporting, parse_api_body_options,
    parse_compaction_options, parse_compare_options, parse_profile_names, parse_request,
    parse_request_diff_options, parse_scenario, prices_for, redact_scenario,
    run_scenario_reporting, CompareOptions, PathMode, ProfileRun, RedactOptions, RedactionKey,
    Trace,
};
use context_assembly::session::PolicyId;
use context_assembly::{Profile, ProfileName};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::args::{self, type_name};
use crate::{access, export, Failure};

#[wasm_bindgen(module = "/src/trace.js")]
extern "C" {
    #[wasm_bindgen(js_name = lazyTrace)]
    fn lazy_trace(shared: &JsValue) -> JsValue;
}

/// Replays a scenario (a JSON string, or an object that is serialised with `JSON.stringify`)
/// and returns one step per scenario step, each with its turn and request; with
/// `options.cacheAccount`, also its requests priced as `compareProfiles` prices them, each
/// with why it read what it read from the prompt cache.
#[wasm_bindgen(js_name = runScenario, unchecked_return_type = "Trace")]
pub fn run_scenario_js(
    #[wasm_bindgen(unchecked_param_type = "string | ScenarioInput")] scenario: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "RunOptions")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    let options = options.unwrap_or(JsValue::UNDEFINED);
    let shared = export("runScenario", || {
        let scenario = parse_scenario(&args::json("scenario", &scenario)?)?;
        let account = args::Options::parse(&options, &["onProgress", "cacheAccount"])?
            .flag("cacheAccount")?;
        let callback = args::progress_callback(&options)?;
        let mut progress = |done| args::report_progress(callback.as_ref(), done, "step");
        let trace = run_scenario_reporting(&scenario, &mut progress)?;
        let account = account.then(|| account_trace(&scenario, &trace));
        Ok(SharedTrace { trace, account })
    })?;
    Ok(lazy_trace(&shared))
}

/// A trace that crosses shared: every message once, each request by reference; with its
/// cache accounting when asked for.
struct SharedTrace {
    trace: Trace,
    account: Option<ProfileRun>,
}

impl Serialize for SharedTrace {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        #[derive(Serialize)]
        #[serde(rename_all = "camelCase")]
        struct View<'a, T: Serialize> {
            #[serde(flatten)]
            trace: T,
            #[serde(skip_serializing_if = "Option::is_none")]
            cache_account: Option<&'a ProfileRun>,
        }
        View {
            trace: self.trace.shared(),
            cache_account: self.account.as_ref(),
        }
        .serialize(serializer)
    }
}

/// `scenario` for sharing: its text replaced by stand-ins that every token method counts
/// alike, so it replays to the same totals; `options.paths` keeps (default) or hashes the
/// paths, `options.key` (at least 16 characters, drawn at random) keys the stand-ins so they
/// cannot be recomputed to confirm a guess.
#[wasm_bindgen(js_name = redactScenario, unchecked_return_type = "Redaction")]
pub fn redact_scenario_js(
    #[wasm_bindgen(unchecked_param_type = "string | ScenarioInput")] scenario: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "RedactOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    export("redactScenario", || {
        let scenario = args::json("scenario", &scenario)?;
        let options = args::Options::parse(&options, &["paths", "key"])?;
        let paths = options
            .string("paths")?
            .as_deref()
            .map(str::parse::<PathMode>)
            .transpose()?;
        let key = options
            .string("key")?
            .as_deref()
            .map(RedactionKey::new)
            .transpose()?;
        let options = RedactOptions {
            paths: paths.unwrap_or_default(),
            key,
        };
        Ok(redact_scenario(&scenario, options)?)
    })
}

/// Replays `scenario` up to `steps` steps (all when absent), then plans and applies a
/// compaction: the request before and after, the plan and the report.
#[wasm_bindgen(js_name = compactScenario, unchecked_return_type = "CompactionPreview")]
pub fn compact_scenario_js(
    #[wasm_bindgen(unchecked_param_type = "string | ScenarioInput")] scenario: JsValue,
    #[wasm_bindgen(unchecked_param_type = "CompactionOptions & { summary?: string }")]
    options: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "number")] steps: JsValue,
) -> Result<JsValue, JsValue> {
    export("compactScenario", || {
        let scenario = args::json("scenario", &scenario)?;
        let options = args::json_or_empty("options", &options)?;
        let steps = args::optional_count("steps", "a whole number of steps", &steps)?;
        let scenario = parse_scenario(&scenario)?;
        let (options, summary) = parse_compaction_options(&options)?;
        Ok(compaction_preview(
            &scenario,
            options,
            summary.as_deref(),
            steps,
        )?)
    })
}

/// Replays `scenario` under each of `profiles` and prices every request with the profile's
/// provider cache (Anthropic's breakpoints for Claude Code's profiles, OpenAI's automatic
/// prefix cache for Codex's); `options.prices` replaces a profile's default price table.
#[wasm_bindgen(js_name = compareProfiles, unchecked_return_type = "Comparison")]
pub fn compare_profiles_js(
    #[wasm_bindgen(unchecked_param_type = "string | ScenarioInput")] scenario: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ProfileName[]")] profiles: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "CompareOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    export("compareProfiles", || {
        let scenario = parse_scenario(&args::json("scenario", &scenario)?)?;
        let names = profile_list(&profiles)?;
        let callback = args::progress_callback(&options)?;
        let options = match options.is_undefined() || options.is_null() {
            true => CompareOptions::default(),
            false => parse_compare_options(&args::json("options", &options)?)?,
        };
        let mut progress = |done| args::report_progress(callback.as_ref(), done, "step");
        Ok(compare_profiles_reporting(
            &scenario,
            &names,
            &options,
            &mut progress,
        )?)
    })
}

/// One of our requests (a trace step's `turn.request`, a session's answer) as the JSON body
/// the provider's API would receive: `options.api` names which.
#[wasm_bindgen(js_name = toApiRequest, unchecked_return_type = "ApiRequestBody")]
pub fn to_api_request_js(
    #[wasm_bindgen(unchecked_param_type = "Request")] request: JsValue,
    #[wasm_bindgen(unchecked_param_type = "ApiRequestOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    export("toApiRequest", || {
        let request = parse_request(&args::json("request", &request)?)?;
        let options = parse_api_body_options(&args::json_or_empty("options", &options)?)?;
        Ok(api_body(&request, &options)?)
    })
}

/// What changed from one request to the next (two trace steps' `turn.request`): blocks
/// aligned, words changed inside a changed block, tokens on both sides, and whether the
/// prompt cache can still serve the earlier request as a prefix (and if not, why).
#[wasm_bindgen(js_name = requestDiff, unchecked_return_type = "RequestDiff")]
pub fn request_diff_js(
    #[wasm_bindgen(unchecked_param_type = "Request")] previous: JsValue,
    #[wasm_bindgen(unchecked_param_type = "Request")] next: JsValue,
    #[wasm_bindgen(unchecked_param_type = "RequestDiffOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    export("requestDiff", || {
        let read = |name: &str, value: &JsValue| {
            parse_request(&args::json(name, value)?)
                .map_err(|error| Failure::new(format!("argument `{name}`: {error}")))
        };
        let (previous, next) = (read("previous", &previous)?, read("next", &next)?);
        let options = parse_request_diff_options(&args::json_or_empty("options", &options)?)?;
        Ok(request_diff(&previous, &next, &options))
    })
}

/// The prices `compareProfiles` charges a profile by default (its provider's: Claude Sonnet
/// for Claude Code's profiles, GPT-5 for Codex's), in micro-dollars per million tokens.
#[wasm_bindgen(js_name = defaultPrices, unchecked_return_type = "PriceTableInput")]
pub fn default_prices(
    #[wasm_bindgen(unchecked_param_type = "ProfileName")] profile: JsValue,
) -> Result<JsValue, JsValue> {
    export("defaultPrices", || {
        let name = args::text("profile", &profile)?;
        let profile = Profile::preset(name.parse::<ProfileName>()?);
        Ok(prices_for(&profile))
    })
}

/// The compaction policies, in the order the playground lists them.
#[wasm_bindgen(js_name = compactionPolicies, unchecked_return_type = "PolicyId[]")]
pub fn compaction_policies() -> Result<JsValue, JsValue> {
    export("compactionPolicies", || Ok(PolicyId::ALL))
}

/// The profile names of an array argument.
fn profile_list(value: &JsValue) -> Result<Vec<ProfileName>, Failure> {
    if !value.is_object() || !access::is_array("argument `profiles`", value)? {
        return Err(Failure::new(format!(
            "argument `profiles` must be an array of profile names, got {}",
            type_name(value)
        )));
    }
    Ok(parse_profile_names(&args::json("profiles", value)?)?)
}
