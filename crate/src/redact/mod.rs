//! Redaction for sharing: a scenario whose text is replaced by stand-ins that replay to the
//! same meter.
//!
//! [`redact_scenario`] walks every string of the scenario by [`FIELD_RULES`], the one table
//! that says what each field of the format is: structure (step kinds, enum values, tool
//! names, ids, model and shell names), text, a prompt, a path, a permission rule, a file's
//! content, a tool input, or dropped (the recall measure's `facts`). A string at a place the
//! table does not name is redacted as text.
//!
//! In a text every word is replaced by a stand-in of the same shape (`cipher.rs`): each
//! character keeps its class and its size and differs from the original, so every token
//! method counts each text, and each line of it, exactly as before, whatever the profile.
//! Common short words standing alone and the engine's keywords stay, digits never do, and a
//! token holding several words (an address, a credential, `snake_case`) loses all of them
//! (`text.rs`). The markup the engine reads stays: @-mentions still resolve, tags and paste
//! placeholders are kept, a rule's frontmatter keeps its keys, a Grep pattern its regex
//! syntax and a patch its markers (`values.rs`).
//!
//! Paths are kept ([`PathMode::Keep`], but for the home directory's user name) or hashed
//! component by component ([`PathMode::Hash`], but for the names the engine looks for and the
//! extensions of a short list: `paths.rs`).
//!
//! Stand-ins derive from a [`RedactionKey`] the host passes: without it nobody can recompute
//! them to confirm a guess. Without a key the result says it is open to guessing
//! ([`Redacted::warning`]).
//!
//! Where the replay can still differ: a substring cut inside a word (an Edit's `old_string`
//! or a Grep pattern that starts mid-identifier) no longer matches, since words are
//! replaced whole; two non-ASCII words of the same shape may share a stand-in; and under
//! [`PathMode::Hash`] a name that sorts differently hashed can change an order the engine
//! lists files in (the totals stay: the lengths are the same).

mod cipher;
mod fields;
mod paths;
mod text;
mod values;

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::str::FromStr;

use crate::scenario::parse::{parse_json, Json};
use crate::scenario::{parse_scenario, Scenario};
use crate::{Error, Profile};
use cipher::WordCipher;
use paths::PathCipher;
use text::TextCipher;
use values::ValueCipher;

pub use cipher::{RedactionKey, MIN_KEY_CHARS};
pub use fields::{Counted, FieldRule, FIELD_RULES};
pub use paths::{is_kept_extension, COMMON_EXTENSIONS, RESERVED_NAMES};
pub use text::{may_stay, COMMON_WORDS, ENGINE_KEYWORDS, TAG_NAMES};
pub use values::FRONTMATTER_KEYS;

crate::vocabulary::named_enum! {
    /// What [`redact_scenario`] does to paths.
    pub enum PathMode {
        /// Paths stay as written (the default) but for the home directory's user name: the
        /// file tree is visible, the contents not.
        Keep => "keep",
        /// Every component of a path is replaced as a text's words are, extensions and
        /// dot-names included, but for [`RESERVED_NAMES`] and kept extensions.
        Hash => "hash",
    }
}

impl FromStr for PathMode {
    type Err = Error;

    fn from_str(name: &str) -> Result<PathMode, Error> {
        PathMode::ALL
            .iter()
            .copied()
            .find(|mode| mode.as_str() == name)
            .ok_or_else(|| Error::InvalidConfig {
                field: "paths".into(),
                reason: format!("unknown path mode {name:?}: expected \"keep\" or \"hash\""),
            })
    }
}

/// How to redact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct RedactOptions {
    /// Keep the paths or hash them.
    pub paths: PathMode,
    /// The host's secret; `None` leaves the stand-ins open to guessing.
    pub key: Option<RedactionKey>,
}

impl Default for PathMode {
    /// Paths kept.
    fn default() -> PathMode {
        PathMode::Keep
    }
}

/// What [`Redacted::warning`] says when no key was given.
pub const UNKEYED_WARNING: &str = "no key was given: a stand-in is a public function of its word, so anyone can confirm a guess (a PIN, a password, a name) by redacting the candidate and comparing; pass a random key to prevent it";

/// A redacted scenario and what was replaced.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Redacted {
    /// The redacted scenario (serialised as `scenarioJson`).
    #[serde(skip)]
    pub scenario: Scenario,
    /// The redacted scenario as a JSON document: one file and one step per line.
    pub scenario_json: String,
    /// What was done to paths.
    pub paths: PathMode,
    /// Whether the stand-ins came from the host's key.
    pub keyed: bool,
    /// Why the result is weaker than it could be: [`UNKEYED_WARNING`] without a key.
    pub warning: Option<String>,
    /// What was replaced.
    pub replaced: Replaced,
}

/// How many texts of each kind had words replaced.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Replaced {
    /// File contents: the initial files and `writeFile` steps.
    pub files: usize,
    /// Prompts, queued commands and pastes.
    pub prompts: usize,
    /// The assistant's text and thinking blocks.
    pub assistant_texts: usize,
    /// Tool calls whose input held text.
    pub tool_inputs: usize,
    /// Tool outputs and tool results.
    pub tool_outputs: usize,
    /// Every other text: the scenario's name and description, the configuration's texts
    /// (system prompt, git status, output style, tools', skills' and servers' descriptions,
    /// MCP resources), summaries, compaction instructions, diagnostics, IDE selections,
    /// reminders, task descriptions, plan feedback, turn settings' instructions.
    pub other_texts: usize,
    /// Distinct words replaced.
    pub words: usize,
    /// Paths changed: hashed, or holding the home directory's user name.
    pub paths: usize,
}

/// Redacts a scenario (its JSON text) for sharing: see the module's documentation for what is
/// replaced and what is kept.
///
/// # Errors
/// When `json` is not a valid scenario (the error [`parse_scenario`] gives).
///
/// # Example
/// ```
/// use context_assembly::scenario::run_scenario;
/// use context_assembly::redact::{redact_scenario, RedactOptions, RedactionKey};
/// let original = r#"{ "profile": "claude-code", "name": "demo ghp_16C7e42F292c6912E7710c838347Ae178B4a",
///   "files": { "notes/plan.md": "Ship the parser before Friday. PIN 4821, pw Ge4.Drq-ZAI_Mr!\n" },
///   "steps": [ { "kind": "user", "prompt": "Summarise @notes/plan.md for Alice" } ] }"#;
/// let key = RedactionKey::new("3f1c9a0e77b2d4a85c6e1f0b9d2a7c43").unwrap();
/// let redacted = redact_scenario(original, RedactOptions { key: Some(key), ..RedactOptions::default() }).unwrap();
/// for secret in ["Friday", "Alice", "ghp_16C7", "4821", "Ge4.", "Drq", "ZAI_Mr"] {
///     assert!(!redacted.scenario_json.contains(secret), "{secret}");
/// }
/// assert!(redacted.scenario_json.contains("@notes/plan.md")); // the mention still resolves
/// assert!(redacted.keyed && redacted.warning.is_none());
/// let before = run_scenario(&context_assembly::scenario::parse_scenario(original).unwrap()).unwrap();
/// let after = run_scenario(&redacted.scenario).unwrap();
/// let total = |trace: &context_assembly::scenario::Trace| trace.request(0).map(|r| r.tokens.total);
/// assert!(total(&before).is_some());
/// assert_eq!(total(&after), total(&before));
/// ```
pub fn redact_scenario(json: &str, options: RedactOptions) -> Result<Redacted, Error> {
    let parsed = parse_scenario(json)?;
    let mut root = parse_json(json).map_err(|reason| Error::InvalidConfig {
        field: "scenario".into(),
        reason,
    })?;
    let user = root
        .get("home")
        .and_then(Json::as_str)
        .and_then(|home| home.trim_end_matches('/').rsplit('/').next())
        .filter(|name| !name.is_empty())
        .map(str::to_ascii_lowercase);
    let mut words = BTreeSet::new();
    words_of(&root, &mut words);
    let kept = words.iter().filter(|w| may_stay(w)).cloned().collect();
    let key = options.key.unwrap_or(RedactionKey::UNKEYED);
    let mut walk = Walk {
        cipher: ValueCipher {
            text: TextCipher {
                words: WordCipher::new(key, words, kept),
                never_kept: user.iter().cloned().collect(),
            },
            paths: PathCipher {
                mode: options.paths,
                user,
            },
            mentions: Profile::preset(parsed.profile).mentions,
            agents: defined_agents(&parsed),
        },
        replaced: Replaced::default(),
    };
    if options.paths == PathMode::Hash {
        add_default_directories(&mut root, &parsed);
    }
    walk.value(&mut root, &mut String::new(), &Siblings::default());
    let scenario_json = document(&root);
    let scenario = parse_scenario(&scenario_json)?;
    let mut replaced = walk.replaced;
    replaced.words = walk.cipher.text.words.words_replaced();
    Ok(Redacted {
        scenario,
        scenario_json,
        paths: options.paths,
        keyed: options.key.is_some(),
        warning: options.key.is_none().then(|| String::from(UNKEYED_WARNING)),
        replaced,
    })
}

/// Files given relative to the default directories must move with them when paths are
/// hashed: the defaults are written out.
fn add_default_directories(root: &mut Json, parsed: &Scenario) {
    let Json::Object(entries) = root else { return };
    for (key, value) in [("cwd", &parsed.cwd), ("home", &parsed.home)] {
        if !entries.iter().any(|(k, _)| k == key) {
            entries.push((key.into(), Json::String(value.clone())));
        }
    }
}

/// The agents the scenario defines (configured, or registered by a step).
fn defined_agents(parsed: &Scenario) -> BTreeSet<String> {
    let mut agents: BTreeSet<String> = parsed.config.agents.iter().cloned().collect();
    for step in &parsed.steps {
        if let crate::scenario::Action::Registry {
            agents: Some(registered),
            ..
        } = &step.action
        {
            agents.extend(registered.iter().cloned());
        }
    }
    agents
}

/// The strings of an object a field's rule reads: the file a `content` belongs to, the tool
/// an `input` is given to.
#[derive(Default)]
struct Siblings {
    path: Option<String>,
    tool: Option<String>,
}

impl Siblings {
    fn of(entries: &[(String, Json)]) -> Siblings {
        let string = |key: &str| {
            entries
                .iter()
                .find(|(k, _)| k == key)
                .and_then(|(_, v)| v.as_str())
                .map(String::from)
        };
        Siblings {
            path: string("path"),
            tool: string("name"),
        }
    }
}

/// The walk over a scenario's JSON tree, by [`FIELD_RULES`].
struct Walk {
    cipher: ValueCipher,
    replaced: Replaced,
}

impl Walk {
    /// `value` at `place` (see [`fields`] for how places are named).
    fn value(&mut self, value: &mut Json, place: &mut String, siblings: &Siblings) {
        let nested = matches!(value, Json::Object(_) | Json::Array(_));
        if nested && fields::rule_at(place) == FieldRule::Structure {
            return;
        }
        if matches!(value, Json::Object(_)) && fields::rule_at(place) == FieldRule::ToolInput {
            let tool = siblings.tool.as_deref().unwrap_or_default();
            if self.cipher.tool_input(tool, None, value) {
                self.replaced.tool_inputs += 1;
            }
            return;
        }
        match value {
            Json::String(text) => self.string(text, place, siblings),
            Json::Array(items) => {
                for item in items {
                    let length = place.len();
                    place.push_str(&item_place(place, item));
                    self.value(item, place, siblings);
                    place.truncate(length);
                }
            }
            Json::Object(entries) if place == "files" => self.file_map(entries),
            Json::Object(entries) => {
                let own = Siblings::of(entries);
                entries.retain(|(key, _)| {
                    fields::rule_at(&field_place(place, key)) != FieldRule::Dropped
                });
                for (key, item) in entries.iter_mut() {
                    let mut inner = field_place(place, key);
                    self.value(item, &mut inner, &own);
                }
            }
            Json::Null | Json::Bool(_) | Json::Number(_) => {}
        }
    }

    /// The `files` object: its keys are paths, its values their contents.
    fn file_map(&mut self, entries: &mut [(String, Json)]) {
        for (path, content) in entries.iter_mut() {
            if let Json::String(text) = content {
                let redacted = self.cipher.file_content(path, text);
                replace(text, redacted, &mut self.replaced.files);
            }
            let redacted = self.cipher.path(path);
            replace(path, redacted, &mut self.replaced.paths);
        }
    }

    fn string(&mut self, text: &mut String, place: &str, siblings: &Siblings) {
        let (redacted, count) = match fields::rule_at(place) {
            FieldRule::Structure | FieldRule::Dropped => return,
            FieldRule::TextUnlessOneOf(kept) if kept.contains(&text.as_str()) => return,
            FieldRule::Text(counted) => (self.cipher.text(text), self.count(counted)),
            FieldRule::TextUnlessOneOf(_) => {
                (self.cipher.text(text), &mut self.replaced.other_texts)
            }
            FieldRule::Prompt => (self.cipher.prompt(text), &mut self.replaced.prompts),
            FieldRule::Path => (self.cipher.path(text), &mut self.replaced.paths),
            FieldRule::DenyRule => (self.cipher.deny_rule(text), &mut self.replaced.paths),
            FieldRule::FileContent => {
                let path = siblings.path.as_deref().unwrap_or_default();
                (
                    self.cipher.file_content(path, text),
                    &mut self.replaced.files,
                )
            }
            FieldRule::ToolInput => {
                let tool = siblings.tool.as_deref().unwrap_or_default();
                let mut value = Json::String(core::mem::take(text));
                let changed = self.cipher.tool_input(tool, None, &mut value);
                if let Json::String(redacted) = value {
                    *text = redacted;
                }
                self.replaced.tool_inputs += usize::from(changed);
                return;
            }
        };
        replace(text, redacted, count);
    }

    fn count(&mut self, counted: Counted) -> &mut usize {
        match counted {
            Counted::Files => &mut self.replaced.files,
            Counted::Prompts => &mut self.replaced.prompts,
            Counted::AssistantTexts => &mut self.replaced.assistant_texts,
            Counted::ToolOutputs => &mut self.replaced.tool_outputs,
            Counted::OtherTexts => &mut self.replaced.other_texts,
        }
    }
}

/// Replaces `text` and counts it when the redaction changed it.
fn replace(text: &mut String, redacted: String, count: &mut usize) {
    if redacted != *text {
        *text = redacted;
        *count += 1;
    }
}

/// The place of an object's field.
fn field_place(place: &str, key: &str) -> String {
    if place.is_empty() {
        String::from(key)
    } else {
        format!("{place}.{key}")
    }
}

/// How an array's item extends its place: `[kind]` for a step, `[type]` for a block, `[]`
/// for anything else.
fn item_place(place: &str, item: &Json) -> String {
    let discriminant = match place {
        "steps" => item.get("kind"),
        _ if place.ends_with(".blocks") => item.get("type"),
        _ => None,
    };
    format!(
        "[{}]",
        discriminant.and_then(Json::as_str).unwrap_or_default()
    )
}

/// Every word, in every string of the tree (keys included), lowercased.
fn words_of(value: &Json, into: &mut BTreeSet<String>) {
    match value {
        Json::String(text) => into.extend(text::words(text)),
        Json::Array(items) => items.iter().for_each(|item| words_of(item, into)),
        Json::Object(entries) => {
            for (key, item) in entries {
                into.extend(text::words(key));
                words_of(item, into);
            }
        }
        _ => {}
    }
}

/// The scenario as a document: one root field per line, and one file and one step per line.
fn document(root: &Json) -> String {
    let Json::Object(entries) = root else {
        return root.to_compact();
    };
    let mut out = String::from("{");
    for (index, (key, value)) in entries.iter().enumerate() {
        out.push_str(if index == 0 { "\n  " } else { ",\n  " });
        out.push_str(&Json::String(key.clone()).to_compact());
        out.push_str(": ");
        match value {
            Json::Object(items) if key == "files" && !items.is_empty() => {
                let lines: Vec<String> = items
                    .iter()
                    .map(|(path, content)| {
                        format!(
                            "{}: {}",
                            Json::String(path.clone()).to_compact(),
                            content.to_compact()
                        )
                    })
                    .collect();
                out.push_str(&format!("{{\n    {}\n  }}", lines.join(",\n    ")));
            }
            Json::Array(items) if (key == "files" || key == "steps") && !items.is_empty() => {
                let lines: Vec<String> = items.iter().map(Json::to_compact).collect();
                out.push_str(&format!("[\n    {}\n  ]", lines.join(",\n    ")));
            }
            _ => out.push_str(&value.to_compact()),
        }
    }
    out.push_str("\n}\n");
    out
}
