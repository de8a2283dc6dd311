//! WebAssembly bindings of `context-assembly`: the only place wasm-bindgen appears.
//!
//! Every export takes one path, [`export`]: its arguments are read ([`args`]), the core is
//! called, and the core's value crosses back through one serialiser, [`to_js`]; any failure
//! becomes a thrown JS `Error` that names the function. Paths need nothing here: the core
//! puts every path it expands and every deny rule it compiles in NFC through the normaliser
//! [`start`] registers, whichever entry point they came through. Offsets cross in UTF-16
//! units, as JS indexes strings; the mention calls and `atToken` return them, converted by
//! the core (`Mentions::in_utf16`, `mention_spans_utf16`, `mention_at_utf16`,
//! `at_token_utf16`). The TypeScript declarations of the whole API are `api.d.ts`;
//! a parameter typed `JsString` or `Number` is so for its declaration only: wasm-bindgen
//! checks nothing, [`args`] does.

// The lite module (neither feature) and each of the other two use part of the argument
// readers.
#[cfg_attr(not(all(feature = "session", feature = "tools")), allow(dead_code))]
mod access;
#[cfg_attr(not(all(feature = "session", feature = "tools")), allow(dead_code))]
mod args;
#[cfg(feature = "tools")]
mod import;
mod mentions;
#[cfg(feature = "session")]
mod scenario;
#[cfg(feature = "session")]
mod session;
#[cfg(feature = "tools")]
mod tools;

use context_assembly::compact::model_window::WindowOverrides;
use context_assembly::compact::thresholds::{
    compaction_thresholds, ThresholdFormula, WindowInput, DEFAULT_MAX_OUTPUT_TOKENS,
    MAX_OUTPUT_TOKENS_FOR_SUMMARY,
};
use context_assembly::session::session_thresholds;
use context_assembly::tokens::{estimate_tokens, TokenMethod};
use context_assembly::{mention, search, Profile, ProfileName};
use core::any::Any;

use js_sys::JsString;
use serde::Serialize;
use wasm_bindgen::prelude::*;

use crate::args::Options;

/// Talc rather than Rust's default dlmalloc: lite is 3.6 KB smaller gzipped (82,534 → 78,917
/// bytes, under its 80 KB goal) and the session module 1.7 KB larger (talc's fast paths are
/// inlined where they are called); a submit with 100 tracked files takes 0.97 ms instead of
/// 1.2, and wasm memory grows 2.08 bytes per tracked byte instead of 2.05 (`make bench`).
#[cfg(target_family = "wasm")]
#[global_allocator]
static ALLOCATOR: talc::wasm::WasmDynamicTalc = talc::wasm::new_wasm_dynamic_allocator();

#[wasm_bindgen(typescript_custom_section)]
const TYPESCRIPT: &str = include_str!("api.d.ts");

#[wasm_bindgen]
extern "C" {
    #[wasm_bindgen(js_namespace = console, js_name = error)]
    fn console_error(message: &str);
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

/// Why an export failed: the message of the JS `Error` it throws.
pub struct Failure {
    message: String,
    /// The message names its place from the function's own argument already (`step.prompt:
    /// …`), so the function's name is not put in front.
    placed: bool,
}

impl Failure {
    fn new(message: String) -> Failure {
        Failure {
            message,
            placed: false,
        }
    }

    /// A core error that names its place from the function's argument.
    #[cfg(feature = "session")]
    fn placed(error: context_assembly::Error) -> Failure {
        Failure {
            message: error.to_string(),
            placed: true,
        }
    }

    /// The JS `Error` that `function` throws.
    fn thrown(self, function: &str) -> JsValue {
        let message = match self.placed {
            true => self.message,
            false => format!("{function}: {}", self.message),
        };
        js_sys::Error::new(&message).into()
    }
}

impl From<context_assembly::Error> for Failure {
    fn from(error: context_assembly::Error) -> Self {
        Failure::new(error.to_string())
    }
}

/// The one path of every export: `body` reads the arguments and calls the core, its value
/// crosses through [`to_js`], and a failure becomes a JS `Error` that names `function`.
fn export<T: Serialize + 'static>(
    function: &str,
    body: impl FnOnce() -> Result<T, Failure>,
) -> Result<JsValue, JsValue> {
    body()
        .and_then(|value| to_js(&value))
        .map_err(|failure| failure.thrown(function))
}

/// The longest JSON text that crosses: V8's longest string, `2^29 - 24` UTF-16 units (a
/// UTF-8 byte never makes more than one unit).
const MAX_RESULT_JSON: usize = (1 << 29) - 24;

/// Crosses the boundary once: a JSON string parsed by the engine's own `JSON.parse` is
/// several times faster than building each object field by field through the boundary. A
/// result too large for a JS string is an error, never `null`. A string or a number crosses
/// as it is: escaped and parsed again it would cost ten times as much (a 1 MB file's text:
/// 20 ms instead of 2); a `Vec<u32>` crosses as a `Uint32Array`, copied once.
fn to_js<T: Serialize + 'static>(value: &T) -> Result<JsValue, Failure> {
    let plain: &dyn Any = value;
    if plain.is::<()>() {
        return Ok(JsValue::UNDEFINED);
    }
    if let Some(text) = plain.downcast_ref::<String>() {
        return Ok(JsValue::from_str(text));
    }
    if let Some(text) = plain.downcast_ref::<Option<String>>() {
        return Ok(text.as_deref().map_or(JsValue::NULL, JsValue::from_str));
    }
    if let Some(numbers) = plain.downcast_ref::<Vec<u32>>() {
        return Ok(js_sys::Uint32Array::from(numbers.as_slice()).into());
    }
    if let Some(&count) = plain.downcast_ref::<u64>() {
        // Counts stay far below 2^53, where every whole number is exact.
        return Ok(JsValue::from_f64(count as f64));
    }
    let json = serde_json::to_string(value).map_err(|error| {
        Failure::new(format!("the result could not be written as JSON: {error}"))
    })?;
    if json.len() > MAX_RESULT_JSON {
        return Err(Failure::new(format!(
            "the result is {} bytes of JSON, more than a JavaScript string holds \
             ({MAX_RESULT_JSON}): ask for less at once",
            json.len()
        )));
    }
    js_sys::JSON::parse(&json)
        .map_err(|_| Failure::new("the result's JSON could not be parsed back".into()))
}

/// The engine's version, the npm package's and the crate's (`0.1.0`).
#[wasm_bindgen(unchecked_return_type = "string")]
pub fn version() -> Result<JsValue, JsValue> {
    export("version", || Ok(String::from(context_assembly::VERSION)))
}

/// The `@` token of a composer that the caret touches (Codex's rule, codex.md §6.1), with
/// UTF-16 offsets; `null` when the caret's token does not start with `@`.
#[wasm_bindgen(js_name = atToken, unchecked_return_type = "AtToken | null")]
pub fn at_token(
    text: JsString,
    #[wasm_bindgen(unchecked_param_type = "number")] caret: JsValue,
) -> Result<JsValue, JsValue> {
    export("atToken", || {
        let text = args::text("text", &text)?;
        let caret = args::offset("caret", &caret)?;
        Ok(search::composer::at_token_utf16(&text, caret))
    })
}

/// What replaces an accepted `@` token (codex.md §6.2), then a space: with `asMention`
/// (default: whether the profile attaches mentioned files), `@` and the path spelled so that
/// the profile's grammar (default `recommended`) reads it back as this path; without, the path
/// as Codex inserts it (quoted when it holds whitespace and no `"`).
#[wasm_bindgen(js_name = completionInsertion, unchecked_return_type = "string")]
pub fn completion_insertion(
    path: JsString,
    #[wasm_bindgen(js_name = asMention, unchecked_optional_param_type = "boolean | null")]
    as_mention: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "MentionOptions | null")] options: Option<
        JsValue,
    >,
) -> Result<JsValue, JsValue> {
    export("completionInsertion", || {
        let path = args::text("path", &path)?;
        let as_mention = match as_mention.is_undefined() || as_mention.is_null() {
            true => None,
            false => Some(args::flag("asMention", &as_mention)?),
        };
        let options = Options::parse(&options.unwrap_or_default(), &["profile"])?;
        let profile = Profile::preset(options.name("profile")?);
        Ok(profile.completion_insertion(&path, as_mention))
    })
}

/// Codex's fuzzy file search (codex.md §6.6) over a list of paths the host gives, relative
/// to its root; a path ending in `/` is a directory. The session form is `Session.searchFiles`.
#[wasm_bindgen(js_name = searchPaths, unchecked_return_type = "SearchResult")]
pub fn search_paths(
    #[wasm_bindgen(unchecked_param_type = "string[]")] paths: JsValue,
    query: JsString,
    #[wasm_bindgen(unchecked_optional_param_type = "SearchOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    export("searchPaths", || {
        let paths = args::string_list("paths", &paths)?;
        let query = args::text("query", &query)?;
        let limit = search_limit(&options)?;
        Ok(search::search_paths(&candidates(paths), &query, limit).in_utf16())
    })
}

/// The host's paths as candidates: a path ending in `/` is a directory.
fn candidates(paths: Vec<String>) -> Vec<search::Candidate> {
    paths
        .into_iter()
        .map(|path| match path.strip_suffix('/') {
            Some(dir) => search::Candidate {
                path: dir.into(),
                is_dir: true,
            },
            None => search::Candidate {
                path,
                is_dir: false,
            },
        })
        .collect()
}

/// The search limit of a `SearchOptions` argument.
fn search_limit(options: &JsValue) -> Result<usize, Failure> {
    let options = Options::parse(options, &["limit"])?;
    let limit = options.integer("limit", 0, search::MAX_LIMIT as u64)?;
    Ok(limit.map_or(search::DEFAULT_LIMIT, |n| n as usize))
}

/// `searchPaths` for a host that asks again on every keystroke: the paths are prepared once,
/// and a query that narrows the previous one scores only its matches. Results are
/// `searchPaths`'s for the same paths and query.
#[wasm_bindgen(js_name = FileSearcher)]
pub struct FileSearcherJs(search::FileSearcher);

#[wasm_bindgen(js_class = FileSearcher)]
impl FileSearcherJs {
    /// Prepares `paths` (relative to the host's root; a path ending in `/` is a directory).
    /// Throws when they would take more memory than a searcher holds (64 MiB prepared).
    #[wasm_bindgen(constructor)]
    pub fn new(
        #[wasm_bindgen(unchecked_param_type = "string[]")] paths: JsValue,
    ) -> Result<FileSearcherJs, JsValue> {
        // Like `new Session`, a value that stays in Rust: the arguments and errors are shared.
        let searcher = || {
            let paths = args::string_list("paths", &paths)?;
            Ok(search::FileSearcher::new(&candidates(paths))?)
        };
        searcher()
            .map(FileSearcherJs)
            .map_err(|failure: Failure| failure.thrown("new FileSearcher"))
    }

    /// The best `limit` (default 20) paths for `query`, as `searchPaths` finds them.
    #[wasm_bindgen(unchecked_return_type = "SearchResult")]
    pub fn search(
        &mut self,
        query: JsString,
        #[wasm_bindgen(unchecked_optional_param_type = "SearchOptions")] options: JsValue,
    ) -> Result<JsValue, JsValue> {
        export("search", || {
            let query = args::text("query", &query)?;
            Ok(self.0.search(&query, search_limit(&options)?).in_utf16())
        })
    }
}

/// Every collector of an attachment pass in the order their attachments are emitted (spec
/// claude-code.md §7.2), with its phase and the kinds it may produce: the table the engine
/// walks.
#[cfg(feature = "session")]
#[wasm_bindgen(js_name = emissionOrder, unchecked_return_type = "EmissionEntry[]")]
pub fn emission_order() -> Result<JsValue, JsValue> {
    export("emissionOrder", || {
        Ok(context_assembly::collectors::EMISSION_ORDER)
    })
}

/// The names of the preset profiles.
#[wasm_bindgen(js_name = profileNames, unchecked_return_type = "ProfileName[]")]
pub fn profile_names() -> Result<JsValue, JsValue> {
    export("profileNames", || Ok(ProfileName::ALL))
}

/// The preset profiles with the client release each reproduces (`null` for our own).
#[wasm_bindgen(js_name = profileReleases, unchecked_return_type = "ProfileRelease[]")]
pub fn profile_releases() -> Result<JsValue, JsValue> {
    export("profileReleases", || {
        Ok(ProfileName::ALL.map(context_assembly::profile::ProfileRelease::of))
    })
}

/// The compaction thresholds of a context window under a profile's formula (spec
/// claude-code.md §9.1, codex.md §4.1).
#[wasm_bindgen(js_name = compactionThresholds, unchecked_return_type = "WindowThresholds")]
pub fn compaction_thresholds_js(
    #[wasm_bindgen(unchecked_param_type = "ThresholdOptions")] options: JsValue,
) -> Result<JsValue, JsValue> {
    export("compactionThresholds", || {
        let allowed = [
            "profile",
            "contextWindow",
            "maxOutputTokens",
            "autocompactPctOverride",
            "autoCompactTokenLimit",
        ];
        let options = Options::parse(&options, &allowed)?;
        let profile = Profile::preset(options.name("profile")?);
        let context_window = options.integer("contextWindow", 1, args::MAX_SAFE_WHOLE)?;
        let context_window = context_window.ok_or_else(|| {
            Failure::new(
                "option `contextWindow` is required: the model's context window in tokens".into(),
            )
        })?;
        let max_output_tokens = options
            .integer("maxOutputTokens", 0, args::MAX_SAFE_WHOLE)?
            .unwrap_or(DEFAULT_MAX_OUTPUT_TOKENS);
        // What a Session's `outputReserve` would be for this model (Claude Code reserves at
        // most 20,000 of the output limit), so that the thresholds are the Session's.
        let output_reserve = max_output_tokens.min(MAX_OUTPUT_TOKENS_FOR_SUMMARY);
        let overrides = WindowOverrides {
            autocompact_pct_override: options.integer("autocompactPctOverride", 1, 100)?,
            ..WindowOverrides::default()
        };
        let mut thresholds =
            session_thresholds(&profile, &overrides, context_window, output_reserve);
        let token_limit = options.integer("autoCompactTokenLimit", 0, args::MAX_SAFE_WHOLE)?;
        if let (Some(limit), ThresholdFormula::Codex) = (token_limit, profile.thresholds) {
            // Codex's `model_auto_compact_token_limit` (X8), a setting of the client's own.
            let input = WindowInput {
                context_window,
                max_output_tokens,
                autocompact_pct_override: None,
                auto_compact_token_limit: Some(limit),
            };
            thresholds.autocompact =
                compaction_thresholds(ThresholdFormula::Codex, &input).autocompact;
        }
        Ok(thresholds)
    })
}

/// Finds the @-mentions in `text` under a profile's grammar (default `recommended`).
#[wasm_bindgen(js_name = extractMentions, unchecked_return_type = "Mentions")]
pub fn extract_mentions(
    text: JsString,
    #[wasm_bindgen(unchecked_optional_param_type = "MentionOptions | null")] options: Option<
        JsValue,
    >,
) -> Result<JsValue, JsValue> {
    export("extractMentions", || {
        let text = args::text("text", &text)?;
        let options = Options::parse(&options.unwrap_or_default(), &["profile"])?;
        let profile = Profile::preset(options.name("profile")?);
        let mentions = mention::extract_mentions(&text, &profile.mentions);
        Ok(mentions::MentionsJsShape(mentions.in_utf16(&text)))
    })
}

/// The mentions of `extractMentions` in compact form, as an editor highlights them: a
/// `Uint32Array` of `[start, end, kind]` triples (UTF-16 offsets; kind codes index
/// `mentionKinds()`), sorted by start and disjoint: a token read several ways is given once,
/// by the reading that starts first and, among those, the most specific. No JS string or
/// object is built: the cheap call for highlighting.
#[wasm_bindgen(js_name = extractMentionSpans, unchecked_return_type = "Uint32Array")]
pub fn extract_mention_spans(
    text: JsString,
    #[wasm_bindgen(unchecked_optional_param_type = "MentionOptions | null")] options: Option<
        JsValue,
    >,
) -> Result<JsValue, JsValue> {
    export("extractMentionSpans", || {
        let text = args::text("text", &text)?;
        let options = Options::parse(&options.unwrap_or_default(), &["profile"])?;
        let profile = Profile::preset(options.name("profile")?);
        let spans = mention::mention_spans_utf16(&text, &profile.mentions);
        Ok(mentions::flat_spans(&spans))
    })
}

/// The kinds of mention by their code in `extractMentionSpans`: `mentionKinds()[code]`.
#[wasm_bindgen(js_name = mentionKinds, unchecked_return_type = "MentionKind[]")]
pub fn mention_kinds() -> Result<JsValue, JsValue> {
    export("mentionKinds", || Ok(mention::MentionKind::ALL))
}

/// The one mention whose span touches `cursor` (a UTF-16 offset; both edges count), or
/// `null`; when one token reads as several kinds, the most specific: agent, MCP resource,
/// file.
#[wasm_bindgen(js_name = mentionAt, unchecked_return_type = "MentionAt | null")]
pub fn mention_at(
    text: JsString,
    #[wasm_bindgen(unchecked_param_type = "number")] cursor: JsValue,
    #[wasm_bindgen(unchecked_optional_param_type = "MentionOptions | null")] options: Option<
        JsValue,
    >,
) -> Result<JsValue, JsValue> {
    export("mentionAt", || {
        let text = args::text("text", &text)?;
        let cursor = args::offset("cursor", &cursor)?;
        let options = Options::parse(&options.unwrap_or_default(), &["profile"])?;
        let profile = Profile::preset(options.name("profile")?);
        let at = mention::mention_at_utf16(&text, &profile.mentions, cursor);
        Ok(mentions::MentionAtJsShape(at))
    })
}

/// Estimates the tokens of `text`: as the profile's requests count a prompt of it (default
/// `recommended`), or with one token method (`method`, with the file's extension `ext`).
#[wasm_bindgen(js_name = estimateTokens, unchecked_return_type = "number")]
pub fn estimate_tokens_js(
    text: JsString,
    #[wasm_bindgen(unchecked_optional_param_type = "TokenOptions | null")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    export("estimateTokens", || {
        let text = args::text("text", &text)?;
        let options = Options::parse(&options.unwrap_or_default(), &["profile", "method", "ext"])?;
        let profile: Option<ProfileName> = options.optional_name("profile")?;
        let method: Option<TokenMethod> = options.optional_name("method")?;
        let ext = options.string("ext")?;
        match (profile, method) {
            (None, Some(method)) => Ok(estimate_tokens(&text, method, ext.as_deref())),
            (Some(_), Some(_)) => Err(Failure::new(
                "options `profile` and `method` are exclusive: a profile counts with its own \
                 method"
                    .into(),
            )),
            (_, None) if ext.is_some() => Err(Failure::new(
                "option `ext` goes with `method`: a profile counts a prompt, which has no file \
                 extension"
                    .into(),
            )),
            (profile, None) => {
                Ok(Profile::preset(profile.unwrap_or_default()).prompt_tokens(&text))
            }
        }
    })
}

/// The change snippet the model would see for `before` → `after` (default `recommended`).
#[wasm_bindgen(js_name = diffSnippet, unchecked_return_type = "string")]
pub fn diff_snippet(
    before: JsString,
    after: JsString,
    #[wasm_bindgen(unchecked_optional_param_type = "DiffOptions | null")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    export("diffSnippet", || {
        Ok(snippet_report(&before, &after, options)?.text)
    })
}

/// Like `diffSnippet`, with how the snippet was made and why.
#[wasm_bindgen(js_name = diffSnippetReport, unchecked_return_type = "SnippetReport")]
pub fn diff_snippet_report(
    before: JsString,
    after: JsString,
    #[wasm_bindgen(unchecked_optional_param_type = "DiffOptions | null")] options: Option<JsValue>,
) -> Result<JsValue, JsValue> {
    export("diffSnippetReport", || {
        snippet_report(&before, &after, options)
    })
}

fn snippet_report(
    before: &JsValue,
    after: &JsValue,
    options: Option<JsValue>,
) -> Result<context_assembly::diff::SnippetReport, Failure> {
    let before = args::text("before", before)?;
    let after = args::text("after", after)?;
    let options = Options::parse(&options.unwrap_or_default(), &["profile"])?;
    let profile = Profile::preset(options.name("profile")?);
    Ok(profile.snippet_report(&before, &after))
}
