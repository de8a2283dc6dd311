//! The exports a session does not need, built into a module of their own (feature `tools`)
//! that the package loads on first use: a scenario redacted for sharing, compared across
//! profiles or compacted by every policy, and session logs imported (`import`).

use context_assembly::redact::{redact_scenario, PathMode, RedactOptions, RedactionKey};
use context_assembly::scenario::{
    compaction_preview, compare_profiles_reporting, parse_compaction_options,
    parse_compare_options, parse_profile_names, parse_scenario, CompareOptions,
};
use context_assembly::ProfileName;
use wasm_bindgen::prelude::*;

use crate::args::{self, type_name};
use crate::{access, export, Failure};

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
