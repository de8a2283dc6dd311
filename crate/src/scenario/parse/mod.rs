//! Parsing a scenario from JSON, with the JSON path of every bad value.
//!
//! The text is parsed by serde_json into a tree that keeps keys in the order written
//! ([`json`]), checked as a whole (no duplicate key, no string over the limit), then walked
//! field by field with typed readers ([`read`]) that know the path of the value they read
//! ([`path`]). Fields are read in the order the format documents them, whatever order
//! they are written in, so a scenario's first error does not depend on how a serialiser
//! ordered its keys; only duplicate keys, over-long strings and unknown keys, looked for
//! first, are found in document order.
//!
//! The format is described for users in `web/scenarios/FORMAT.md` and for editors in
//! `web/scenarios/scenario.schema.json`.

mod compaction;
mod compare;
mod config;
mod json;
mod path;
mod read;
mod request;
mod steps;

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{Fact, FactKind, InitialFile, Scenario};
use crate::{Error, ProfileName};
pub use compaction::parse_compaction_options;
pub use compare::{parse_compare_options, parse_profile_names};
use json::check_tree;
pub(crate) use json::{parse_json, Json};
use path::{Path, Quoted};
pub(crate) use read::MAX_WHOLE;
use read::{absolute, array, boolean, each, mismatch, name, natural, one_of, string, Fields};
pub use request::{parse_api_body_options, parse_request, parse_request_diff_options};

/// The largest scenario text accepted, in bytes (64 MiB).
pub const MAX_INPUT_BYTES: usize = 64 << 20;
/// The largest string (or object key) accepted anywhere in a scenario, in UTF-8 bytes
/// (8 MiB).
pub const MAX_STRING_BYTES: usize = 8 << 20;
/// The most steps a scenario may have.
pub const MAX_STEPS: usize = 10_000;

/// The keys of the scenario object, in the order the format documents them.
pub const ROOT_KEYS: &[&str] = &[
    "$schema",
    "formatVersion",
    "name",
    "description",
    "profile",
    "switches",
    "cwd",
    "home",
    "startMs",
    "stepMs",
    "config",
    "files",
    "steps",
    "facts",
    "simulateUsage",
];

/// The keys of the `config` object, in the order the format documents them.
pub const CONFIG_KEYS: &[&str] = &[
    "deny",
    "mcpResources",
    "agents",
    "additionalDirectories",
    "tools",
    "deferredTools",
    "skills",
    "skillListingCharBudget",
    "mcpServers",
    "model",
    "contextWindow",
    "outputReserve",
    "windowOverrides",
    "systemPrompt",
    "platform",
    "gitStatus",
    "utcOffsetMinutes",
    "outputStyle",
    "tokenUsageReminder",
    "budgetUsdCents",
    "outputTokenBudget",
    "disableAttachments",
    "autoModeAvailable",
    "compactionReminders",
    "interviewMode",
    "printMode",
    "planFile",
    "memoryDir",
    "permissionMode",
    "autoCompact",
    "pinned",
    "transcriptPath",
    "policies",
];

/// The step kinds, in the order the format documents them.
pub const STEP_KINDS: &[&str] = &steps::KIND_NAMES;

/// 2025-12-01T00:00:00Z: a fixed start, so that dates in the trace never depend on when
/// the scenario is run.
const DEFAULT_START_MS: u64 = 1_764_547_200_000;
const DEFAULT_STEP_MS: u64 = 1_000;

const PROFILES: [(&str, ProfileName); ProfileName::ALL.len()] = {
    let mut table = [("", ProfileName::Recommended); ProfileName::ALL.len()];
    let mut index = 0;
    while index < table.len() {
        table[index] = (ProfileName::ALL[index].as_str(), ProfileName::ALL[index]);
        index += 1;
    }
    table
};

/// Parses a scenario.
///
/// Every field but `steps` is optional; unknown keys are errors, and so are numbers
/// written with a decimal point where a whole number is expected.
///
/// # Errors
/// [`Error::InvalidConfig`] whose `field` is the JSON path of the bad value (`steps[3].kind`,
/// `files["src/a.ts"]`, or `scenario` for the document itself) and whose `reason` says what
/// was found and what is allowed. Invalid JSON is reported at `scenario` with serde_json's
/// line and column.
///
/// # Example
/// ```
/// use context_assembly::scenario::parse_scenario;
/// let err = parse_scenario(r#"{ "steps": [ { "kind": "user", "promt": "hi" } ] }"#).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     r#"steps[0].promt: unknown field; expected one of "kind", "prompt", "memories", "pastes""#
/// );
/// // JSON has no integer type, but a whole number must be written as one.
/// let err = parse_scenario(r#"{ "stepMs": 1.0, "steps": [] }"#).unwrap_err();
/// assert_eq!(
///     err.to_string(),
///     "stepMs: expected a whole number from 0 to 9007199254740991, got 1.0 \
///      (write whole numbers without a decimal point or exponent)"
/// );
/// ```
pub fn parse_scenario(json: &str) -> Result<Scenario, Error> {
    let root = Path::Root;
    scenario(&parse_tree(json, &root)?, &root)
}

/// JSON text read into a tree within the input limits, its errors placed at `path`.
pub(super) fn parse_tree(json: &str, path: &Path<'_>) -> Result<Json, Error> {
    if json.len() > MAX_INPUT_BYTES {
        return Err(path.error(format!(
            "the input is {} bytes; at most {MAX_INPUT_BYTES} (64 MiB) are allowed",
            json.len()
        )));
    }
    let tree: Json =
        serde_json::from_str(json).map_err(|err| path.error(format!("invalid JSON: {err}")))?;
    check_tree(&tree, path)?;
    Ok(tree)
}

/// Parses a session's configuration alone: the `config` object of a scenario, as a host
/// gives it to a live session. Errors name the path under `config`.
///
/// # Errors
/// Invalid JSON, or a bad value (its path and what is allowed).
///
/// # Example
/// ```
/// use context_assembly::scenario::parse_session_config;
/// let config = parse_session_config(r#"{ "contextWindow": 1000000, "skills": [] }"#).unwrap();
/// assert_eq!(config.context_window, 1_000_000);
/// let error = parse_session_config(r#"{ "deny": "Read(.env)" }"#).unwrap_err();
/// assert_eq!(error.to_string(), "config.deny: expected an array, got string");
/// ```
pub fn parse_session_config(json: &str) -> Result<crate::session::SessionConfig, Error> {
    let root = Path::Root;
    let path = root.key("config");
    config::config(&parse_tree(json, &path)?, &path)
}

/// The newest scenario format this engine reads; a scenario without `formatVersion` is
/// format 1. A later format may add fields an older engine would reject one by one, so the
/// version is checked before anything else and named in the error.
pub const FORMAT_VERSION: u64 = 1;

/// Refuses a scenario written in a format newer than [`FORMAT_VERSION`], before its fields
/// are read.
fn check_format_version(value: &Json, path: &Path<'_>) -> Result<(), Error> {
    let Json::Object(entries) = value else {
        return Ok(());
    };
    let Some((_, version)) = entries.iter().find(|(key, _)| key == "formatVersion") else {
        return Ok(());
    };
    let path = path.key("formatVersion");
    let version = natural(1, MAX_WHOLE.unsigned_abs())(version, &path)?;
    if version > FORMAT_VERSION {
        return Err(path.error(format!(
            "this scenario is written in format {version}, and this engine (context-assembly \
             {}) reads formats 1 to {FORMAT_VERSION}: update the engine, or write the \
             scenario in format {FORMAT_VERSION}",
            env!("CARGO_PKG_VERSION")
        )));
    }
    Ok(())
}

fn scenario(value: &Json, path: &Path<'_>) -> Result<Scenario, Error> {
    check_format_version(value, path)?;
    let fields = Fields::new(value, path, ROOT_KEYS)?;
    fields.optional("$schema", string)?;
    fields.optional("formatVersion", natural(1, FORMAT_VERSION))?;
    let max = MAX_WHOLE.unsigned_abs();
    let scenario = Scenario {
        name: fields.or("name", String::new(), string)?,
        description: fields.or("description", String::new(), string)?,
        profile: fields.or(
            "profile",
            ProfileName::Recommended,
            one_of("profile", &PROFILES),
        )?,
        switches: fields.or("switches", Vec::new(), switches)?,
        cwd: fields.or("cwd", "/project".into(), absolute)?,
        home: fields.or("home", "/home/user".into(), absolute)?,
        start_ms: fields.or("startMs", DEFAULT_START_MS, natural(0, max))?,
        step_ms: fields.or("stepMs", DEFAULT_STEP_MS, natural(0, max))?,
        config: fields.or("config", Default::default(), config::config)?,
        files: fields.or("files", Vec::new(), files)?,
        steps: fields.required("steps", steps)?,
        facts: fields.or("facts", Vec::new(), facts)?,
        simulate_usage: fields.or("simulateUsage", false, boolean)?,
    };
    steps::check_tool_ids(&scenario.steps)?;
    Ok(scenario)
}

/// Reads one step as a scenario's `steps` reads it, with the checks every value of a
/// document gets (no key twice, no string over the limit); error paths start at the step.
pub(crate) fn read_step(value: &Json) -> Result<super::Step, Error> {
    let root = Path::Root;
    check_tree(value, &root)?;
    steps::step(value, &root)
}

fn switches(value: &Json, path: &Path<'_>) -> Result<Vec<(String, bool)>, Error> {
    match value {
        Json::Object(entries) => entries
            .iter()
            .map(|(key, on)| Ok((key.clone(), boolean(on, &path.key(key))?)))
            .collect(),
        other => Err(mismatch(
            path,
            "an object of \"section.field\": true or false",
            other,
        )),
    }
}

/// `files` as an object (path → content) or as an array of `{ path, content }`; both keep
/// the order written.
fn files(value: &Json, path: &Path<'_>) -> Result<Vec<InitialFile>, Error> {
    match value {
        Json::Object(entries) => entries
            .iter()
            .map(|(key, content)| {
                let here = path.key(key);
                if key.is_empty() {
                    return Err(here.error("expected a file path, got an empty key"));
                }
                Ok(InitialFile {
                    path: key.clone(),
                    content: string(content, &here)?,
                })
            })
            .collect(),
        Json::Array(_) => file_list(value, path),
        other => Err(mismatch(
            path,
            "an object (path → content) or an array of { path, content }",
            other,
        )),
    }
}

fn file_list(value: &Json, path: &Path<'_>) -> Result<Vec<InitialFile>, Error> {
    let mut first_place: BTreeMap<&str, usize> = BTreeMap::new();
    let items = array(value, path)?;
    let mut files = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let here = path.index(i);
        let fields = Fields::new(item, &here, &["path", "content"])?;
        let file = InitialFile {
            path: fields.required("path", name)?,
            content: fields.required("content", string)?,
        };
        let key = fields
            .get("path")
            .and_then(Json::as_str)
            .unwrap_or_default();
        if let Some(first) = first_place.insert(key, i) {
            return Err(here.key("path").error(format!(
                "duplicate path {}: already given at {}",
                Quoted(&file.path),
                path.index(first).key("path")
            )));
        }
        files.push(file);
    }
    Ok(files)
}

const FACT_KINDS: [(&str, FactKind); 4] = [
    (FactKind::File.as_str(), FactKind::File),
    (FactKind::Decision.as_str(), FactKind::Decision),
    (FactKind::Command.as_str(), FactKind::Command),
    (FactKind::Instruction.as_str(), FactKind::Instruction),
];

/// `facts`: an array of `{ id, kind, text, reference? }`, ids unique, texts not empty.
fn facts(value: &Json, path: &Path<'_>) -> Result<Vec<Fact>, Error> {
    let mut facts: Vec<Fact> = Vec::new();
    for (i, item) in array(value, path)?.iter().enumerate() {
        let here = path.index(i);
        let fields = Fields::new(item, &here, &["id", "kind", "text", "reference"])?;
        let fact = Fact {
            id: fields.required("id", name)?,
            kind: fields.required("kind", one_of("fact kind", &FACT_KINDS))?,
            text: fields.required("text", name)?,
            reference: fields.optional("reference", name)?,
        };
        if let Some(first) = facts.iter().position(|f| f.id == fact.id) {
            return Err(here.key("id").error(format!(
                "duplicate fact id {}: already given at {}",
                Quoted(&fact.id),
                path.index(first).key("id")
            )));
        }
        facts.push(fact);
    }
    Ok(facts)
}

fn steps(value: &Json, path: &Path<'_>) -> Result<Vec<super::Step>, Error> {
    let count = array(value, path)?.len();
    if count > MAX_STEPS {
        return Err(path.error(format!(
            "{count} steps given; at most {MAX_STEPS} are allowed"
        )));
    }
    each(value, path, steps::step)
}
