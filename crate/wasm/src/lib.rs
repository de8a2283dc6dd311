//! WebAssembly bindings of `context-assembly`: the only place wasm-bindgen appears.
//!
//! Every export has a camelCase `js_name`, takes and returns the precise TypeScript types
//! declared in [`TYPESCRIPT`], and turns a core [`context_assembly::Error`] (or a bad
//! argument) into a thrown JS `Error` through one adapter, [`BindingError`].

mod access;
mod dto;
mod options;
mod scenario;
mod session;
mod utf16;

use context_assembly::{compact, diff, mention, tokens, Profile};
use wasm_bindgen::prelude::*;

use crate::dto::{MentionsDto, SnippetReportDto};
use crate::options::{string_argument, OptionsObject, ProfileOptions, TokenOptions, MAX_SAFE};

#[wasm_bindgen(typescript_custom_section)]
const TYPESCRIPT: &str = r#"
/** A preset profile. */
export type ProfileName = "claude-code" | "codex" | "recommended";
/** A token-counting method. */
export type TokenMethod = "claude-code" | "codex" | "calibrated";

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
export interface TokenOptions { method?: TokenMethod; ext?: string }
export interface DiffOptions { profile?: ProfileName }

/** The options of `compactionThresholds`. */
export interface ThresholdOptions {
  /** Whose formula: claude-code and recommended use Claude Code's, codex Codex's (default recommended). */
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
/** A window's thresholds in tokens; Codex has no warning, error or blocking level (absent). */
export interface WindowThresholds { effectiveWindow: number; autocompact: number; warning?: number; error?: number; blocking?: number }

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
"#;

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);

    /// The `Mentions` TypeScript interface.
    #[wasm_bindgen(typescript_type = "Mentions")]
    pub type MentionsJs;

    /// The `SnippetReport` TypeScript interface.
    #[wasm_bindgen(typescript_type = "SnippetReport")]
    pub type SnippetReportJs;

    /// The `MentionOptions` TypeScript interface.
    #[wasm_bindgen(typescript_type = "MentionOptions")]
    pub type MentionOptionsJs;

    /// The `TokenOptions` TypeScript interface.
    #[wasm_bindgen(typescript_type = "TokenOptions")]
    pub type TokenOptionsJs;

    /// The `DiffOptions` TypeScript interface.
    #[wasm_bindgen(typescript_type = "DiffOptions")]
    pub type DiffOptionsJs;

    /// The `ThresholdOptions` TypeScript interface.
    #[wasm_bindgen(typescript_type = "ThresholdOptions")]
    pub type ThresholdOptionsJs;

    /// The `WindowThresholds` TypeScript interface.
    #[wasm_bindgen(typescript_type = "WindowThresholds")]
    pub type WindowThresholdsJs;

    /// A `ProfileName[]`.
    #[wasm_bindgen(typescript_type = "ProfileName[]")]
    pub type ProfileNamesJs;
}

/// Registers the engine's NFC normaliser for paths and rules, and installs the panic hook.
/// A panic is a bug: it is logged with its message and location,
/// and the page's loader (`web/engine.js`) re-instantiates the module after the trap.
#[wasm_bindgen(start)]
fn start() {
    context_assembly::path::set_nfc_normaliser(access::str_to_nfc);
    std::panic::set_hook(Box::new(|info| {
        console_error(&format!(
            "context-assembly panicked (a bug; the module will be re-initialised): {info}"
        ));
    }));
}

/// The one adapter from any failure to a thrown JS `Error`.
struct BindingError(String);

impl From<context_assembly::Error> for BindingError {
    fn from(error: context_assembly::Error) -> Self {
        BindingError(error.to_string())
    }
}

impl From<BindingError> for JsValue {
    fn from(error: BindingError) -> JsValue {
        js_sys::Error::new(&error.0).into()
    }
}

type JsResult<T> = Result<T, BindingError>;

/// The longest JSON text that crosses: V8's longest string, `2^29 - 24` UTF-16 units (a
/// UTF-8 byte never makes more than one unit).
const MAX_RESULT_JSON: usize = (1 << 29) - 24;

/// Crosses the boundary once: a JSON string parsed by the engine's own `JSON.parse` is
/// several times faster than building each object field by field through the boundary. A
/// result too large for a JS string is an error, never `null`.
fn to_js<T: serde::Serialize>(value: &T) -> JsResult<JsValue> {
    let json = serde_json::to_string(value).map_err(|error| {
        BindingError(format!("the result could not be written as JSON: {error}"))
    })?;
    if json.len() > MAX_RESULT_JSON {
        return Err(BindingError(format!(
            "the result is {} bytes of JSON, more than a JavaScript string holds \
             ({MAX_RESULT_JSON}): ask for less at once",
            json.len()
        )));
    }
    js_sys::JSON::parse(&json)
        .map_err(|_| BindingError("the result's JSON could not be parsed back".into()))
}

/// The names of the preset profiles.
#[wasm_bindgen(js_name = profileNames)]
pub fn profile_names() -> Result<ProfileNamesJs, JsValue> {
    let names: Vec<&str> = context_assembly::ProfileName::ALL
        .iter()
        .map(|name| name.as_str())
        .collect();
    Ok(to_js(&names)?.unchecked_into())
}

/// The compaction thresholds of a context window under a profile's formula (spec
/// claude-code.md §9.1, codex.md §4.1).
#[wasm_bindgen(js_name = compactionThresholds)]
pub fn compaction_thresholds(options: ThresholdOptionsJs) -> Result<WindowThresholdsJs, JsValue> {
    const FUNCTION: &str = "compactionThresholds";
    let run = || -> JsResult<WindowThresholdsJs> {
        let allowed = [
            "profile",
            "contextWindow",
            "maxOutputTokens",
            "autocompactPctOverride",
            "autoCompactTokenLimit",
        ];
        let options = OptionsObject::parse(FUNCTION, Some(JsValue::from(options)), &allowed)?;
        let profile = Profile::preset(options.profile()?);
        let whole = |key: &str, min: f64| -> JsResult<Option<u64>> {
            // Whole numbers up to 2^53 convert exactly.
            Ok(options.integer(key, min, MAX_SAFE)?.map(|n| n as u64))
        };
        let context_window = whole("contextWindow", 1.0)?.ok_or_else(|| {
            BindingError(format!(
                "{FUNCTION}: option `contextWindow` is required: the model's context window in tokens"
            ))
        })?;
        let percent = options.integer("autocompactPctOverride", 1.0, 100.0)?;
        let input = compact::thresholds::WindowInput {
            context_window,
            max_output_tokens: whole("maxOutputTokens", 0.0)?.unwrap_or(32_000),
            autocompact_pct_override: percent.map(|n| n as u64),
            auto_compact_token_limit: whole("autoCompactTokenLimit", 0.0)?,
        };
        let thresholds = compact::thresholds::compaction_thresholds(profile.thresholds, &input);
        Ok(to_js(&thresholds)?.unchecked_into())
    };
    run().map_err(JsValue::from)
}

/// Finds the @-mentions in `text` under a profile's grammar (default `recommended`).
#[wasm_bindgen(js_name = extractMentions)]
pub fn extract_mentions(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    options: Option<MentionOptionsJs>,
) -> Result<MentionsJs, JsValue> {
    let run = || -> JsResult<MentionsJs> {
        let text = string_argument("extractMentions", "text", &text)?;
        let options = ProfileOptions::parse("extractMentions", options.map(JsValue::from))?;
        let profile = Profile::preset(options.profile);
        let mentions = mention::extract_mentions(&text, &profile.mentions);
        Ok(to_js(&MentionsDto::new(&text, &mentions))?.unchecked_into())
    };
    run().map_err(JsValue::from)
}

/// Estimates the tokens of `text` (default method `calibrated`).
#[wasm_bindgen(js_name = estimateTokens)]
pub fn estimate_tokens(
    #[wasm_bindgen(unchecked_param_type = "string")] text: JsValue,
    options: Option<TokenOptionsJs>,
) -> Result<f64, JsValue> {
    let run = || -> JsResult<f64> {
        let text = string_argument("estimateTokens", "text", &text)?;
        let options = TokenOptions::parse("estimateTokens", options.map(JsValue::from))?;
        let count = tokens::estimate_tokens(&text, options.method, options.ext.as_deref());
        // Counts of any text a JS string can hold stay far below 2^53.
        Ok(count as f64)
    };
    run().map_err(JsValue::from)
}

/// The change snippet the model would see for `before` → `after` (default `recommended`).
#[wasm_bindgen(js_name = diffSnippet)]
pub fn diff_snippet(
    #[wasm_bindgen(unchecked_param_type = "string")] before: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] after: JsValue,
    options: Option<DiffOptionsJs>,
) -> Result<String, JsValue> {
    snippet_report("diffSnippet", before, after, options.map(JsValue::from))
        .map(|report| report.text)
        .map_err(JsValue::from)
}

/// Like `diffSnippet`, with how the snippet was made and why.
#[wasm_bindgen(js_name = diffSnippetReport)]
pub fn diff_snippet_report(
    #[wasm_bindgen(unchecked_param_type = "string")] before: JsValue,
    #[wasm_bindgen(unchecked_param_type = "string")] after: JsValue,
    options: Option<DiffOptionsJs>,
) -> Result<SnippetReportJs, JsValue> {
    snippet_report(
        "diffSnippetReport",
        before,
        after,
        options.map(JsValue::from),
    )
    .and_then(|report| to_js(&report))
    .map(JsCast::unchecked_into)
    .map_err(JsValue::from)
}

fn snippet_report(
    function: &str,
    before: JsValue,
    after: JsValue,
    options: Option<JsValue>,
) -> JsResult<SnippetReportDto> {
    let before = string_argument(function, "before", &before)?;
    let after = string_argument(function, "after", &after)?;
    let options = ProfileOptions::parse(function, options)?;
    let profile = Profile::preset(options.profile);
    Ok(match &profile.change_snippets {
        Some(rules) => SnippetReportDto::new(&diff::diff_snippet(&before, &after, rules), rules),
        None => SnippetReportDto::not_tracked(profile.name),
    })
}
