//! The scenario exports a session host needs: a JSON scenario replayed, a replayed request
//! exported as a provider's API body and compared with the one before it. Comparing,
//! compacting and redacting a scenario are `tools`' (a module loaded on first use).

use context_assembly::request::{api_body, request_diff};
use context_assembly::scenario::{
    account_trace, parse_api_body_options, parse_request, parse_request_diff_options,
    parse_scenario, prices_for, run_scenario_reporting, ProfileRun, Trace,
};
use context_assembly::session::PolicyId;
use context_assembly::{Profile, ProfileName};
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::args;
use crate::{export, Failure};

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
