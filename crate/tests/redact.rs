//! Redaction keeps the meter and leaks nothing it promises to hide:
//! - every teaching scenario, every imported fixture log and generated scenarios replay
//!   redacted to the same per-request token totals, and no content word that is not kept by
//!   design survives;
//! - secrets of every shape (tokens, keys, JWTs, passwords, IPs, e-mails, URLs with user-info
//!   and query values, phone and card numbers, PINs, names, a user's name in paths) placed in
//!   every text field of the format, in both path modes, leave no substring of four characters
//!   and no two of their digit groups in order, and the result replays alike;
//! - every string field of `web/scenarios/scenario.schema.json` has a rule, and the README
//!   names every field kept as structure.

use std::collections::BTreeSet;
use std::fs;
use std::path::PathBuf;

use context_assembly::import::import_session;
use context_assembly::redact::{may_stay, FieldRule, FIELD_RULES, FRONTMATTER_KEYS, TAG_NAMES};
use context_assembly::redact::{
    redact_scenario, PathMode, RedactOptions, RedactionKey, UNKEYED_WARNING,
};
use context_assembly::scenario::{parse_scenario, run_scenario};
use proptest::prelude::*;
use serde_json::{json, Value};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("..")
}

/// Every scenario of `web/scenarios` and the scenarios the fixture logs import as.
fn corpus() -> Vec<(String, String)> {
    let index = fs::read_to_string(root().join("web/scenarios/index.json")).unwrap();
    let index: Value = serde_json::from_str(&index).unwrap();
    let mut out: Vec<(String, String)> = index
        .as_array()
        .unwrap()
        .iter()
        .map(|entry| {
            let file = entry["file"].as_str().unwrap().to_string();
            let text = fs::read_to_string(root().join("web/scenarios").join(&file)).unwrap();
            (file, text)
        })
        .collect();
    for log in ["claude-code-session.jsonl", "codex-rollout.jsonl"] {
        let text = fs::read_to_string(root().join("tests/fixtures/import").join(log)).unwrap();
        out.push((
            log.into(),
            import_session(&text, None).unwrap().scenario_json,
        ));
    }
    out
}

fn key(text: &str) -> RedactionKey {
    RedactionKey::new(text).unwrap()
}

/// Each step's request total (`None` for a step without a request).
fn request_totals(json: &str) -> Vec<Option<u64>> {
    let scenario = parse_scenario(json).unwrap();
    let trace = run_scenario(&scenario).unwrap();
    (0..trace.steps.len())
        .map(|index| trace.request(index).map(|request| request.tokens.total))
        .collect()
}

/// The largest difference between two replays' request totals, in tokens.
fn deviation(original: &[Option<u64>], redacted: &[Option<u64>]) -> u64 {
    assert_eq!(original.len(), redacted.len(), "the step count changed");
    assert!(
        original.iter().any(Option::is_some),
        "no request to compare"
    );
    original
        .iter()
        .zip(redacted)
        .map(|(a, b)| {
            assert_eq!(a.is_some(), b.is_some(), "a request appeared or vanished");
            a.unwrap_or(0).abs_diff(b.unwrap_or(0))
        })
        .max()
        .unwrap_or(0)
}

/// Every string of a JSON value.
fn strings(value: &Value, into: &mut Vec<String>) {
    match value {
        Value::String(text) => into.push(text.clone()),
        Value::Array(items) => items.iter().for_each(|item| strings(item, into)),
        Value::Object(entries) => entries.values().for_each(|item| strings(item, into)),
        _ => {}
    }
}

/// The values of a JSON object in the order written (`serde_json::Value` sorts its keys,
/// and hashing paths changes their order).
struct InOrder(Vec<Value>);

impl<'de> serde::Deserialize<'de> for InOrder {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<InOrder, D::Error> {
        struct Entries;
        impl<'de> serde::de::Visitor<'de> for Entries {
            type Value = InOrder;
            fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
                f.write_str("an object")
            }
            fn visit_map<A: serde::de::MapAccess<'de>>(
                self,
                mut map: A,
            ) -> Result<InOrder, A::Error> {
                let mut values = Vec::new();
                while let Some((_, value)) = map.next_entry::<String, Value>()? {
                    values.push(value);
                }
                Ok(InOrder(values))
            }
        }
        deserializer.deserialize_map(Entries)
    }
}

/// The scenario's file contents (in the order written), prompts, answers and tool texts.
fn content_texts(json: &str) -> Vec<String> {
    #[derive(serde::Deserialize)]
    struct Files {
        files: Option<Value>,
    }
    let scenario: Value = serde_json::from_str(json).unwrap();
    let mut texts = Vec::new();
    match serde_json::from_str::<Files>(json).unwrap().files {
        Some(Value::Object(_)) => {
            #[derive(serde::Deserialize)]
            struct Map {
                files: InOrder,
            }
            let map: Map = serde_json::from_str(json).unwrap();
            map.files
                .0
                .iter()
                .for_each(|value| strings(value, &mut texts));
        }
        Some(other) => strings(&other, &mut texts),
        None => {}
    }
    for step in scenario["steps"].as_array().into_iter().flatten() {
        for key in ["prompt", "content"] {
            strings(&step[key], &mut texts);
        }
        for block in step["blocks"].as_array().into_iter().flatten() {
            for key in ["text", "thinking", "output"] {
                strings(&block[key], &mut texts);
            }
        }
        for result in step["results"].as_array().into_iter().flatten() {
            strings(&result["content"], &mut texts);
        }
    }
    texts
}

/// Words a redaction keeps by design: [`may_stay`]'s, the frontmatter keys and tag names the
/// engine reads, and the words of Codex's paste placeholder.
fn kept_by_design(word: &str) -> bool {
    let lower = word.to_ascii_lowercase();
    may_stay(&lower)
        || FRONTMATTER_KEYS.contains(&lower.as_str())
        || TAG_NAMES
            .iter()
            .any(|tag| tag.split(['-', '_']).any(|part| part == lower))
        || ["pasted", "content", "chars"].contains(&lower.as_str())
}

/// The words of `original` that stand, in the same place, in `redacted` (a redaction keeps
/// every text's length): mentions (tokens opening with `@`) and words kept by design aside.
fn survivors(original: &str, redacted: &str) -> Vec<String> {
    assert_eq!(original.len(), redacted.len(), "a text changed its length");
    let is_word = |c: char| c.is_ascii_alphanumeric() || (!c.is_ascii() && c.is_alphabetic());
    let mut out = Vec::new();
    let mut at = 0;
    for token in original.split_inclusive(char::is_whitespace) {
        if !token.starts_with('@') {
            let mut offset = 0;
            for piece in token.split(|c: char| !is_word(c)) {
                let (start, end) = (at + offset, at + offset + piece.len());
                let same = redacted
                    .get(start..end)
                    .is_some_and(|r| r.eq_ignore_ascii_case(piece));
                if !piece.is_empty() && same && !kept_by_design(piece) {
                    out.push(piece.to_string());
                }
                offset += piece.len()
                    + token[offset + piece.len()..]
                        .chars()
                        .next()
                        .map_or(0, char::len_utf8);
            }
        }
        at += token.len();
    }
    out
}

fn redact(json: &str, paths: PathMode, with_key: Option<&str>) -> String {
    let options = RedactOptions {
        paths,
        key: with_key.map(key),
    };
    redact_scenario(json, options)
        .unwrap_or_else(|error| panic!("{error}"))
        .scenario_json
}

fn check(name: &str, json: &str, paths: PathMode) -> u64 {
    let redacted = redact(json, paths, Some("corpus-key-0123456789"));
    let before = content_texts(json);
    let after = content_texts(&redacted);
    assert_eq!(before.len(), after.len());
    for (original, replaced) in before.iter().zip(&after) {
        let survived = survivors(original, replaced);
        assert!(
            survived.is_empty(),
            "{name} ({paths:?}): words survived: {survived:?}"
        );
    }
    deviation(&request_totals(json), &request_totals(&redacted))
}

#[test]
fn every_scenario_replays_redacted_to_the_same_totals() {
    for paths in PathMode::ALL.iter().copied() {
        for (name, json) in corpus() {
            let tokens = check(&name, &json, paths);
            assert_eq!(
                tokens,
                0,
                "{name} ({}): request totals moved",
                paths.as_str()
            );
        }
    }
}

#[test]
fn redaction_is_deterministic_per_key_and_says_when_it_is_open_to_guessing() {
    let json = fs::read_to_string(root().join("web/scenarios/external-edit.json")).unwrap();
    let open = redact_scenario(&json, RedactOptions::default()).unwrap();
    assert_eq!(
        open.scenario_json,
        redact_scenario(&json, RedactOptions::default())
            .unwrap()
            .scenario_json
    );
    assert!(!open.keyed);
    assert_eq!(open.warning.as_deref(), Some(UNKEYED_WARNING));
    assert!(open.replaced.files > 0 && open.replaced.prompts > 0 && open.replaced.words > 0);
    assert_eq!(open.replaced.paths, 0);
    let keyed = |text: &str| {
        redact_scenario(
            &json,
            RedactOptions {
                paths: PathMode::Hash,
                key: Some(key(text)),
            },
        )
        .unwrap()
    };
    let first = keyed("a key drawn at random, 1");
    assert!(first.keyed && first.warning.is_none());
    assert_eq!(
        first.scenario_json,
        keyed("a key drawn at random, 1").scenario_json
    );
    assert_ne!(
        first.scenario_json,
        keyed("a key drawn at random, 2").scenario_json
    );
    assert!(first.replaced.paths > 0);
    assert!(!first.scenario_json.contains("src/util.ts"));
}

#[test]
fn a_bad_scenario_or_a_short_key_is_refused_with_what_was_wrong() {
    let error = redact_scenario(
        r#"{"steps": [{"kind": "dance"}]}"#,
        RedactOptions::default(),
    )
    .unwrap_err()
    .to_string();
    assert!(error.contains("steps[0].kind"), "{error}");
    let short = RedactionKey::new("0123456789").unwrap_err().to_string();
    assert!(
        short.contains("key") && short.contains("10 characters"),
        "{short}"
    );
}

/// The places of every string a schema allows, named as `FIELD_RULES` names them, with
/// whether the schema closes the place to a list of values; and the free-form objects.
fn schema_places(schema: &Value) -> Vec<(String, bool)> {
    fn walk(
        node: &Value,
        place: &str,
        defs: &Value,
        seen: &[String],
        out: &mut Vec<(String, bool)>,
    ) {
        let Some(node) = node.as_object() else {
            return;
        };
        if let Some(reference) = node.get("$ref").and_then(Value::as_str) {
            let name = reference.rsplit('/').next().unwrap().to_string();
            if !seen.contains(&name) {
                let mut seen = seen.to_vec();
                seen.push(name.clone());
                walk(&defs[&name], place, defs, &seen, out);
            }
            return;
        }
        for key in ["oneOf", "anyOf"] {
            for sub in node
                .get(key)
                .and_then(Value::as_array)
                .into_iter()
                .flatten()
            {
                walk(sub, place, defs, seen, out);
            }
        }
        for sub in node
            .get("allOf")
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
        {
            let condition = &sub["if"]["properties"];
            let kind = condition["kind"]["const"]
                .as_str()
                .or(condition["type"]["const"].as_str());
            match (kind, place.strip_suffix("[]")) {
                (Some(kind), Some(array)) => {
                    walk(&sub["then"], &format!("{array}[{kind}]"), defs, seen, out)
                }
                _ => walk(sub, place, defs, seen, out),
            }
        }
        let join = |key: &str| {
            if place.is_empty() {
                key.to_string()
            } else {
                format!("{place}.{key}")
            }
        };
        let properties = node.get("properties").and_then(Value::as_object);
        for (key, sub) in properties.into_iter().flatten() {
            walk(sub, &join(key), defs, seen, out);
        }
        if let Some(extra) = node.get("additionalProperties").filter(|v| v.is_object()) {
            walk(extra, &format!("{place}.*"), defs, seen, out);
        }
        if let Some(items) = node.get("items").filter(|v| v.is_object()) {
            walk(items, &format!("{place}[]"), defs, seen, out);
        }
        let types: Vec<&str> = match node.get("type") {
            Some(Value::String(one)) => vec![one.as_str()],
            Some(Value::Array(many)) => many.iter().filter_map(Value::as_str).collect(),
            _ => Vec::new(),
        };
        let closed = node.contains_key("enum") || node.contains_key("const");
        let string_values = node
            .get("enum")
            .and_then(Value::as_array)
            .is_some_and(|values| values.iter().any(Value::is_string))
            || node.get("const").is_some_and(Value::is_string);
        let free_object = types.contains(&"object")
            && properties.is_none()
            && !node.contains_key("additionalProperties")
            && !place.is_empty();
        if types.contains(&"string") || string_values || free_object {
            out.push((place.to_string(), closed));
        }
    }
    let mut out = Vec::new();
    walk(schema, "", &schema["$defs"], &[], &mut out);
    out.sort();
    out.dedup();
    out
}

#[test]
fn every_string_field_of_the_schema_has_a_rule_and_every_rule_a_field() {
    let schema: Value = serde_json::from_str(
        &fs::read_to_string(root().join("web/scenarios/scenario.schema.json")).unwrap(),
    )
    .unwrap();
    let places = schema_places(&schema);
    assert!(places.len() > 100, "the walk found {} places", places.len());
    for (place, closed) in &places {
        let rule = FIELD_RULES.iter().find(|(known, _)| known == place);
        let Some((_, rule)) = rule else {
            panic!("{place}: a string field of the schema with no row in FIELD_RULES");
        };
        if *closed {
            assert!(
                matches!(rule, FieldRule::Structure | FieldRule::Dropped),
                "{place}: the schema closes it to a list of values, but its rule is {rule:?}"
            );
        }
    }
    for (place, _) in FIELD_RULES {
        let named = places.iter().any(|(known, _)| known == place)
            || places
                .iter()
                .any(|(known, _)| known.starts_with(&format!("{place}[]")));
        assert!(
            named,
            "{place}: a row of FIELD_RULES the schema does not have"
        );
    }
}

#[test]
fn the_readme_lists_exactly_the_fields_kept_as_structure() {
    let readme = fs::read_to_string(root().join("README.md")).unwrap();
    let (_, rest) = readme.split_once("<!-- redaction-structure -->").unwrap();
    let (list, _) = rest.split_once("<!-- /redaction-structure -->").unwrap();
    let listed: BTreeSet<&str> = list.split('`').skip(1).step_by(2).collect();
    let structure: BTreeSet<&str> = FIELD_RULES
        .iter()
        .filter(|(_, rule)| *rule == FieldRule::Structure)
        .map(|(place, _)| *place)
        .collect();
    assert_eq!(
        listed, structure,
        "README.md's list of the fields redaction keeps and FIELD_RULES differ"
    );
}

// ---- generated sessions ------------------------------------------------------------------

const WORDS: &[&str] = &[
    "alpha",
    "parseConfig",
    "naïve",
    "日本語の",
    "Привет",
    "x",
    "if",
    "let",
    "42",
    "2024",
    "UUID",
    "a1b2c3d4",
    "render",
    "Render",
    "RENDER",
    "über",
    "한국어",
    "snake_case_name",
    "ok",
];

fn line() -> impl Strategy<Value = String> {
    (
        prop::collection::vec(prop::sample::select(WORDS), 0..8),
        prop::sample::select(&["", "  ", "\t"][..]),
    )
        .prop_map(|(words, indent)| format!("{indent}{}", words.join(" ")))
}

fn content() -> impl Strategy<Value = Vec<String>> {
    prop::collection::vec(line(), 1..12)
}

/// A generated scenario: two files, a prompt mentioning one (with a line range), Reads, an
/// Edit of a whole line, an external rewrite, a tool with its own output, a final answer.
fn scenario() -> impl Strategy<Value = String> {
    (
        prop::sample::select(&["claude-code", "codex", "claude-code-2.1.88", "codex-0.139.0", "recommended", "world-state", "opencode-style", "aider-style"][..]),
        content(),
        content(),
        line(),
        line(),
        1u64..4,
    )
        .prop_map(|(profile, a, b, prompt, answer, offset)| {
            let file_a = a.join("\n") + "\n";
            let file_b = b.join("\n") + "\n";
            let old_line = a.iter().find(|l| !l.trim().is_empty()).cloned();
            let mut rewritten = b.clone();
            rewritten.push("render alpha über".into());
            let mut steps = vec![
                json!({"kind": "user", "prompt": format!("{prompt} @src/one.ts#L1-2 and @lib/two.md")}),
                json!({"kind": "assistant", "blocks": [
                    {"type": "thinking", "thinking": answer},
                    {"type": "tool_use", "name": "Read", "input": {"file_path": "/project/src/one.ts", "offset": offset, "limit": 3}},
                    {"type": "tool_use", "name": "Bash", "input": {"command": format!("grep {prompt}")}, "output": file_b.clone()}
                ]}),
            ];
            if let Some(old) = old_line {
                steps.push(json!({"kind": "assistant", "blocks": [
                    {"type": "tool_use", "name": "Read", "input": {"file_path": "/project/src/one.ts"}},
                    {"type": "tool_use", "name": "Edit", "input": {"file_path": "/project/src/one.ts", "old_string": old, "new_string": "render Render"}}
                ]}));
            }
            steps.push(json!({"kind": "writeFile", "path": "lib/two.md", "content": rewritten.join("\n")}));
            steps.push(json!({"kind": "user", "prompt": format!("{answer} again")}));
            steps.push(json!({"kind": "assistant", "blocks": [{"type": "text", "text": answer}]}));
            json!({
                "profile": profile,
                "files": {"src/one.ts": file_a, "lib/two.md": file_b, "CLAUDE.md": "Prefer parseConfig over Render.\n"},
                "steps": steps,
            })
            .to_string()
        })
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn generated_scenarios_replay_redacted_to_the_same_totals(json in scenario(), hash in any::<bool>()) {
        let paths = if hash { PathMode::Hash } else { PathMode::Keep };
        prop_assert_eq!(check("generated", &json, paths), 0);
    }
}

// ---- secrets in every field ----------------------------------------------------------------

/// Characters of a password: letters, digits and the punctuation people put in them (not
/// `@`, which would open a mention, nor JSON's `"` and `\`).
const PASSWORD_PUNCTUATION: &str = ".-_!#$%^&*+=?~";

fn chars_from(
    alphabet: &'static str,
    length: std::ops::RangeInclusive<usize>,
) -> impl Strategy<Value = String> {
    let alphabet: Vec<char> = alphabet.chars().collect();
    prop::collection::vec(prop::sample::select(alphabet), length)
        .prop_map(|c| c.into_iter().collect())
}

const LOWER: &str = "abcdefghijklmnopqrstuvwxyz";
const ALNUM: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789";
const DIGITS: &str = "0123456789";
const HEX: &str = "0123456789abcdef";
const BASE64URL: &str = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_";

fn digits(count: usize) -> impl Strategy<Value = String> {
    chars_from(DIGITS, count..=count)
}

/// A password: every class, punctuation between its pieces.
fn password() -> impl Strategy<Value = String> {
    (
        chars_from(ALNUM, 2..=4),
        chars_from(PASSWORD_PUNCTUATION, 1..=1),
        chars_from(ALNUM, 2..=4),
        chars_from(PASSWORD_PUNCTUATION, 1..=1),
        chars_from(ALNUM, 2..=4),
        digits(1),
    )
        .prop_map(|(a, p, b, q, c, d)| format!("{a}{p}{b}{q}{c}{d}"))
}

/// One secret of each shape the issue lists, as written in a text.
fn secrets() -> impl Strategy<Value = Vec<String>> {
    let token = chars_from(ALNUM, 36..=36).prop_map(|s| format!("ghp_{s}"));
    let aws =
        chars_from("ABCDEFGHIJKLMNOPQRSTUVWXYZ234567", 16..=16).prop_map(|s| format!("AKIA{s}"));
    let openai = chars_from(ALNUM, 24..=24).prop_map(|s| format!("sk-proj-{s}"));
    let jwt = (
        chars_from(BASE64URL, 12..=20),
        chars_from(BASE64URL, 20..=30),
        chars_from(BASE64URL, 22..=22),
    )
        .prop_map(|(a, b, c)| format!("eyJ{a}.eyJ{b}.{c}"));
    let hex = chars_from(HEX, 32..=32);
    let base64 = chars_from(
        "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+/",
        22..=22,
    )
    .prop_map(|s| format!("{s}=="));
    let ip = (1u8..=254, 0u8..=255, 0u8..=255, 1u8..=254)
        .prop_map(|(a, b, c, d)| format!("{a}.{b}.{c}.{d}"));
    let phone = (digits(1), digits(3), digits(3), digits(4))
        .prop_map(|(a, b, c, d)| format!("+{a} ({b}) {c}-{d}"));
    let ssn = (digits(3), digits(2), digits(4)).prop_map(|(a, b, c)| format!("{a}-{b}-{c}"));
    let card = (digits(4), digits(4), digits(4), digits(4))
        .prop_map(|(a, b, c, d)| format!("{a} {b} {c} {d}"));
    let email = (
        chars_from(LOWER, 4..=8),
        chars_from(LOWER, 4..=8),
        chars_from(LOWER, 2..=3),
    )
        .prop_map(|(name, domain, tld)| format!("{name}.x@{domain}-corp.{tld}"));
    let url = (
        chars_from(LOWER, 4..=8),
        password(),
        chars_from(LOWER, 4..=8),
        chars_from(ALNUM, 12..=20),
    )
        .prop_map(|(user, pass, host, value)| {
            format!("https://{user}:{pass}@{host}.example.com/v1?token={value}&id=77")
        });
    let pin = digits(4);
    let name = (chars_from(LOWER, 4..=7), chars_from(LOWER, 4..=7))
        .prop_map(|(a, b)| format!("Q{a} Z{b}"));
    let three = chars_from(ALNUM, 3..=3).prop_filter("a kept word is no secret", |s| {
        !may_stay(&s.to_ascii_lowercase())
    });
    (
        (token, aws, openai, jwt, hex, base64, password()),
        (ip, phone, ssn, card, email, url, pin, name, three),
    )
        .prop_map(|((a, b, c, d, e, f, g), (h, i, j, k, l, m, n, o, p))| {
            vec![a, b, c, d, e, f, g, h, i, j, k, l, m, n, p, o]
        })
}

/// A secret that can stand in a path's component (no `/`, spaces or glob characters).
fn path_secret() -> impl Strategy<Value = String> {
    password().prop_map(|p| p.replace(['*', '?', '#', '%', '^', '&', '$', '!', '~', '=', '+'], "x"))
}

/// Secrets of every shape, and where they go.
#[derive(Debug, Clone)]
struct Secrets {
    /// Placed in every text field.
    texts: Vec<String>,
    /// The home directory's user name.
    user: String,
    /// Placed in paths (checked under hash mode).
    path: String,
}

fn planted() -> impl Strategy<Value = Secrets> {
    (
        secrets(),
        chars_from(LOWER, 4..=8).prop_filter("a kept word is no user name", |s| !may_stay(s)),
        path_secret(),
    )
        .prop_map(|(texts, user, path)| Secrets { texts, user, path })
}

/// A claude-code-family scenario with a secret in every text field it can hold, and the
/// secrets in the paths when `in_paths`.
fn claude_code_session(profile: &str, s: &Secrets, in_paths: bool) -> String {
    let t = format!("note {} end", s.texts.join(" and "));
    let summary = format!("<summary>{t}</summary>");
    let user = &s.user;
    let home = format!("/home/{user}");
    let cwd = format!("{home}/app");
    let memory_dir = format!("{home}/.claude/projects/-home-{user}-app/memory");
    let secret_dir = if in_paths {
        s.path.clone()
    } else {
        "notes".into()
    };
    let env_file = if in_paths {
        format!(".env.{}", s.path)
    } else {
        ".env.local".into()
    };
    let backup = if in_paths {
        format!("backup.{}", s.path)
    } else {
        "backup.sql".into()
    };
    json!({
        "name": t, "description": t, "profile": profile, "cwd": cwd, "home": home,
        "config": {
            "deny": [format!("Read(./{env_file})")],
            "mcpResources": [{ "server": "docs", "uri": "guide://intro", "name": t, "description": t, "text": t }],
            "agents": ["reviewer"],
            "additionalDirectories": [format!("{home}/{secret_dir}")],
            "tools": [{ "name": "Lookup", "description": t, "inputSchema": { "type": "object", "description": t }, "deferred": true }],
            "deferredTools": ["WebFetch"],
            "skills": [{ "name": "pdf", "description": t }],
            "mcpServers": [{ "name": "docs", "instructions": t }],
            "systemPrompt": t, "gitStatus": t, "outputStyle": t,
            "planFile": format!("{home}/.claude/plans/{secret_dir}.md"),
            "memoryDir": memory_dir,
            "pinned": ["src/app.ts"],
            "transcriptPath": format!("{home}/.claude/projects/-home-{user}-app/{secret_dir}.jsonl"),
        },
        "files": [
            { "path": "src/app.ts", "content": format!("const key = \"{}\";\nexport const port = 8080;\n// {t}\n", s.texts[0]) },
            { "path": "CLAUDE.md", "content": format!("Rules: {t}\n@docs/guide.md\n") },
            { "path": "docs/guide.md", "content": format!("---\nname: {t}\ndescription: {t}\n---\n{t}\n") },
            { "path": "docs/old.md", "content": t },
            { "path": format!(".claude/rules/{secret_dir}.md"), "content": format!("---\npaths: src/**/*.ts\n---\n{t}\n") },
            { "path": env_file.clone(), "content": t },
            { "path": backup.clone(), "content": t },
            { "path": format!("{memory_dir}/MEMORY.md"), "content": "- [note](note.md)\n" },
            { "path": format!("{memory_dir}/note.md"), "content": format!("---\nname: {t}\ndescription: {t}\n---\n{t}\n") },
        ],
        "facts": [{ "id": "f", "kind": "decision", "text": t, "reference": t }],
        "steps": [
            { "kind": "user", "prompt": format!("{t} @src/app.ts @agent-reviewer @docs:guide://intro ultrathink"), "memories": [format!("{memory_dir}/note.md")] },
            { "kind": "assistant", "blocks": [
                { "type": "thinking", "thinking": t },
                { "type": "text", "text": t },
                { "type": "tool_use", "id": "r1", "name": "Read", "input": { "file_path": "src/app.ts" } },
                { "type": "tool_use", "name": "Bash", "input": { "command": format!("echo {t}"), "description": t }, "output": t },
                { "type": "tool_use", "name": "Grep", "input": { "pattern": r"port\s*=", "path": "src", "output_mode": "content" } },
                { "type": "tool_use", "name": "Glob", "input": { "pattern": "**/*.ts" } },
                { "type": "tool_use", "name": "Edit", "input": { "file_path": "src/app.ts", "old_string": "export const port = 8080;", "new_string": format!("export const port = {};", s.texts[12]) } },
                { "type": "tool_use", "name": "mcp__docs__search", "input": { "query": t, "filters": [t] }, "output": t },
                { "type": "tool_use", "name": "TodoWrite", "input": { "todos": [{ "content": t, "status": "pending", "activeForm": t }] } }
            ], "compactBeforeToolRound": { "instructions": t, "summary": summary } },
            { "kind": "assistant", "blocks": [{ "type": "tool_use", "id": "b2", "name": "Bash", "input": { "command": t } }] },
            { "kind": "toolResults", "results": [{ "toolUseId": "b2", "content": t }] },
            { "kind": "writeFile", "path": env_file, "content": t },
            { "kind": "rename", "from": backup, "to": format!("{backup}.old") },
            { "kind": "touch", "path": "src/app.ts" },
            { "kind": "deleteFile", "path": "docs/old.md" },
            { "kind": "ide", "selection": { "path": format!("{cwd}/src/app.ts"), "lineStart": 0, "lineCount": 1, "text": t }, "openedFile": format!("{cwd}/src/app.ts") },
            { "kind": "diagnostics", "files": [{ "path": "src/app.ts", "items": [{ "severity": "error", "line": 0, "column": 0, "message": t, "code": s.texts[6], "source": t }] }] },
            { "kind": "registry", "skills": [{ "name": "pdf", "description": t }], "agents": ["reviewer"], "mcpServers": [{ "name": "docs", "instructions": t }], "deferredTools": ["WebFetch"] },
            { "kind": "queueCommand", "prompt": t },
            { "kind": "criticalReminder", "text": t },
            { "kind": "taskStatus", "taskId": "b2", "description": t, "status": "running" },
            { "kind": "setMode", "mode": "plan" },
            { "kind": "assistant", "blocks": [{ "type": "tool_use", "name": "ExitPlanMode", "input": { "plan": t }, "approval": { "approved": false, "feedback": t } }] },
            { "kind": "setMode", "mode": "default" },
            { "kind": "compact", "instructions": t, "summary": summary },
            { "kind": "user", "prompt": t },
            { "kind": "assistant", "blocks": [{ "type": "text", "text": t }] }
        ]
    })
    .to_string()
}

/// A codex scenario: turn settings, a paste and a patch, with the secrets in each text.
fn codex_session(s: &Secrets, in_paths: bool) -> String {
    let t = format!("note {} end", s.texts.join(" and "));
    let paste = format!("{t}\n").repeat(1 + 1_200 / t.len().max(1));
    let placeholder = format!("[Pasted Content {} chars]", paste.chars().count());
    let home = format!("/home/{}", s.user);
    let module = if in_paths {
        format!("src/{}.rs", s.path)
    } else {
        "src/lib.rs".into()
    };
    let patch = format!(
        "*** Begin Patch\n*** Update File: {module}\n@@\n-fn main() {{}}\n+fn main() {{ let s = \"{}\"; }}\n*** End Patch\n",
        s.texts[6]
    );
    json!({
        "name": t, "profile": "codex", "cwd": format!("{home}/app"), "home": home,
        "files": [
            { "path": "AGENTS.md", "content": t },
            { "path": module.clone(), "content": format!("fn main() {{}}\n// {t}\n") },
        ],
        "steps": [
            { "kind": "turnSettings", "modelInstructions": t, "personality": t, "collaborationMode": t, "developerInstructions": t, "shell": "zsh", "timezone": t,
              "environments": [{ "id": t, "cwd": format!("{home}/app"), "shell": "bash" }, { "id": "box", "cwd": format!("{home}/box"), "shell": "sh" }],
              "subagents": [{ "id": "agent-1", "name": t }], "realtimeActive": true, "realtimeStartInstructions": t },
            { "kind": "user", "prompt": format!("{t} {placeholder}"), "pastes": [paste] },
            { "kind": "assistant", "blocks": [{ "type": "tool_use", "name": "apply_patch", "input": { "input": patch } }] },
            { "kind": "assistant", "blocks": [{ "type": "text", "text": t }] }
        ]
    })
    .to_string()
}

/// The pieces of `secret` nobody may find again where they stood, with their offsets: its
/// substrings of four characters that hold a letter or a digit, and each two of its digit
/// groups in their order with the punctuation between them (`767) 188`, `10.209`).
fn pieces(secret: &str) -> Vec<(usize, &str)> {
    let starts: Vec<usize> = secret
        .char_indices()
        .map(|(at, _)| at)
        .chain([secret.len()])
        .collect();
    // A window of punctuation alone (a base64 token's `++==` padding) tells nothing: the
    // redaction keeps punctuation, as the README says, so it is not a piece.
    let mut out: Vec<(usize, &str)> = starts
        .windows(5)
        .map(|w| (w[0], &secret[w[0]..w[4]]))
        .filter(|(_, piece)| piece.chars().any(char::is_alphanumeric))
        .collect();
    let mut at = 0;
    let mut previous: Option<usize> = None;
    while let Some(start) = secret[at..]
        .find(|c: char| c.is_ascii_digit())
        .map(|n| at + n)
    {
        let separator = &secret[at..start];
        let end = secret[start..]
            .find(|c: char| !c.is_ascii_digit())
            .map_or(secret.len(), |n| start + n);
        let formatting = separator.len() <= 3 && !separator.chars().any(char::is_alphanumeric);
        if let (Some(before), true) = (previous, formatting) {
            out.push((before, &secret[before..end]));
        }
        previous = Some(start);
        at = end;
    }
    out
}

/// Fails when a piece of `secret` (see [`pieces`]) is still where it stood in `original`: a
/// redaction keeps each text's length, so every character keeps its place.
fn assert_nothing_survives(secret: &str, original: &str, redacted: &str, context: &str) {
    assert_eq!(
        original.len(),
        redacted.len(),
        "{context}: a text changed its length"
    );
    let counted = paste_placeholder_spans(original);
    for (at, _) in original.match_indices(secret) {
        // A paste placeholder's number is the paste's length, which the engine reads: a
        // secret of digits may equal it by chance, and there it is no leak.
        if counted.iter().any(|span| span.contains(&at)) {
            continue;
        }
        for (offset, piece) in pieces(secret) {
            let start = at + offset;
            let there = redacted.get(start..start + piece.len());
            assert!(
                there != Some(piece),
                "{context}: {piece:?} of {secret:?} survived in {:?}",
                redacted.get(at..at + secret.len())
            );
        }
    }
}

/// The byte ranges of Codex's paste placeholders (`[Pasted Content 1491 chars]`) in `text`.
fn paste_placeholder_spans(text: &str) -> Vec<std::ops::Range<usize>> {
    const OPEN: &str = "[Pasted Content ";
    text.match_indices(OPEN)
        .filter_map(|(at, _)| {
            let rest = &text[at + OPEN.len()..];
            let digits = rest.find(|c: char| !c.is_ascii_digit())?;
            rest[digits..]
                .starts_with(" chars]")
                .then(|| at..at + OPEN.len() + digits + " chars]".len())
        })
        .collect()
}

/// The secrets placed in a string at `place`, and whether they must be gone from it: texts
/// always, paths under hash mode, the user's name everywhere.
fn secrets_at(s: &Secrets, rule: Option<FieldRule>, paths: PathMode) -> Vec<&str> {
    let user = std::iter::once(s.user.as_str());
    match rule {
        Some(FieldRule::Structure | FieldRule::Dropped) => Vec::new(),
        Some(FieldRule::Path | FieldRule::DenyRule) if paths == PathMode::Keep => user.collect(),
        _ => s
            .texts
            .iter()
            .map(String::as_str)
            .chain(user)
            .chain([s.path.as_str()])
            .collect(),
    }
}

/// Walks a scenario and its redaction side by side (their objects have the same keys but
/// for `files` as an object, which the generated sessions do not use) and checks each string.
fn walk_pair(original: &Value, redacted: &Value, place: &str, s: &Secrets, paths: PathMode) {
    let rule = FIELD_RULES
        .iter()
        .find(|(known, _)| *known == place)
        .map(|(_, rule)| *rule);
    match (original, redacted) {
        (Value::String(original), Value::String(redacted)) => {
            for secret in secrets_at(s, rule, paths) {
                assert_nothing_survives(secret, original, redacted, &format!("{paths:?} {place}"));
            }
        }
        (Value::Array(originals), Value::Array(redacted)) => {
            assert_eq!(originals.len(), redacted.len(), "{place}");
            for (original, redacted) in originals.iter().zip(redacted) {
                let discriminant = match place {
                    "steps" => original["kind"].as_str(),
                    _ if place.ends_with(".blocks") => original["type"].as_str(),
                    _ => None,
                };
                let inner = format!("{place}[{}]", discriminant.unwrap_or_default());
                walk_pair(original, redacted, &inner, s, paths);
            }
        }
        (Value::Object(_), _) if rule == Some(FieldRule::Structure) => {}
        (Value::Object(originals), Value::Object(redacted)) => {
            for (key, original) in originals {
                let inner = if place.is_empty() {
                    key.clone()
                } else {
                    format!("{place}.{key}")
                };
                if rule == Some(FieldRule::Dropped) || redacted.get(key).is_none() {
                    let dropped = FIELD_RULES
                        .iter()
                        .any(|(p, r)| *p == inner && *r == FieldRule::Dropped);
                    assert!(dropped, "{inner} vanished");
                    continue;
                }
                walk_pair(original, &redacted[key], &inner, s, paths);
            }
        }
        _ => {}
    }
}

/// Redacts `json` in `paths` mode with `key`, checks that no secret survives where it stood
/// and that the result replays to the same totals.
fn check_secrets(json: &str, s: &Secrets, paths: PathMode, key: &str) -> Result<(), TestCaseError> {
    let redacted = redact(json, paths, Some(key));
    walk_pair(
        &serde_json::from_str(json).unwrap(),
        &serde_json::from_str(&redacted).unwrap(),
        "",
        s,
        paths,
    );
    prop_assert_eq!(
        deviation(&request_totals(json), &request_totals(&redacted)),
        0
    );
    Ok(())
}

/// The places of a scenario's strings, named as `FIELD_RULES` names them.
fn places(value: &Value, place: &str, out: &mut BTreeSet<String>) {
    match value {
        Value::String(_) => {
            out.insert(place.to_string());
        }
        Value::Array(items) => {
            for item in items {
                let discriminant = match place {
                    "steps" => item["kind"].as_str(),
                    _ if place.ends_with(".blocks") => item["type"].as_str(),
                    _ => None,
                };
                places(
                    item,
                    &format!("{place}[{}]", discriminant.unwrap_or_default()),
                    out,
                );
            }
        }
        Value::Object(entries) => {
            if matches!(place, "files" | "config.tools[].inputSchema")
                || place.ends_with("[tool_use].input")
            {
                out.insert(if place == "files" {
                    "files.*".into()
                } else {
                    place.into()
                });
                return;
            }
            for (key, item) in entries {
                let inner = if place.is_empty() {
                    key.clone()
                } else {
                    format!("{place}.{key}")
                };
                places(item, &inner, out);
            }
        }
        _ => {}
    }
}

#[test]
fn the_generated_sessions_hold_a_secret_in_every_text_field() {
    let s = Secrets {
        texts: vec!["Ge4.Drq-ZAI_Mr!".into(); 16],
        user: "quimby".into(),
        path: "p4ss.w0rd".into(),
    };
    let mut seen = BTreeSet::new();
    for json in [
        claude_code_session("claude-code", &s, true),
        codex_session(&s, true),
    ] {
        places(&serde_json::from_str(&json).unwrap(), "", &mut seen);
    }
    for (place, rule) in FIELD_RULES {
        let text = !matches!(rule, FieldRule::Structure | FieldRule::Dropped);
        let alternative = *place == "files.*";
        if text && !alternative {
            assert!(seen.contains(*place), "no generated secret at {place}");
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn secrets_in_every_field_leave_nothing_in_either_mode(
        s in planted(),
        key in chars_from(ALNUM, 16..=32),
        profile in prop::sample::select(&["claude-code", "recommended", "opencode-style"][..]),
    ) {
        for paths in PathMode::ALL.iter().copied() {
            let in_paths = paths == PathMode::Hash;
            check_secrets(&claude_code_session(profile, &s, in_paths), &s, paths, &key)?;
            check_secrets(&codex_session(&s, in_paths), &s, paths, &key)?;
        }
    }
}

#[test]
fn files_given_as_an_object_hash_their_paths_and_redact_their_contents() {
    let s = Secrets {
        texts: vec!["Ge4.Drq-ZAI_Mr!".into()],
        user: "quimby".into(),
        path: "Ge4xDrq".into(),
    };
    let json = json!({
        "home": "/home/quimby",
        "files": { "/home/quimby/app/.env.Ge4xDrq": "pw Ge4.Drq-ZAI_Mr!\n" },
        "steps": [{ "kind": "user", "prompt": "read @/home/quimby/app/.env.Ge4xDrq" }]
    })
    .to_string();
    let redacted = redact(&json, PathMode::Hash, Some("an object key, 0123456789"));
    let original: Value = serde_json::from_str(&json).unwrap();
    let after: Value = serde_json::from_str(&redacted).unwrap();
    let (path, content) = after["files"].as_object().unwrap().iter().next().unwrap();
    assert_nothing_survives(
        "/home/quimby/app/.env.Ge4xDrq",
        "/home/quimby/app/.env.Ge4xDrq",
        path,
        "key",
    );
    assert_nothing_survives(
        "Ge4.Drq-ZAI_Mr!",
        "pw Ge4.Drq-ZAI_Mr!\n",
        content.as_str().unwrap(),
        "content",
    );
    walk_pair(
        &original["steps"],
        &after["steps"],
        "steps",
        &s,
        PathMode::Hash,
    );
    assert_eq!(
        deviation(&request_totals(&json), &request_totals(&redacted)),
        0
    );
}
