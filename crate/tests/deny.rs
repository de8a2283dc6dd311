//! Read deny rules against the shared fixture and their security properties.
//!
//! `tests/fixtures/deny.json` (written by `node tests/gen/deny-reference.mjs <ignore dir>`):
//!
//! * `roots`: `{ originalCwd, home, claudeConfigDir, flagSettingsDir }`, shared by every
//!   rule case.
//! * `cases`: `{ patterns, path, ignored, rule?, ignoreCase? }` — what npm `ignore@7.0.17`
//!   says of `path` for `ignore({ ignorecase }).add(patterns)`; `rule` is the pattern that
//!   ignored it, `ignoreCase` defaults to `true` (Claude Code's setting).
//! * `rules`: `{ name, preset, rules: [{ text, source }], cwd, path, denied | error }` —
//!   `preset` is `claude-code` or `recommended`; `denied` is `null` (allowed) or
//!   `{ rule, source, pattern, root }`; `error` is the config field an
//!   `Error::InvalidConfig` must name. Every `claude-code` expectation was checked by the
//!   generator against a port of the original's `matchingRuleForInput` on the real `ignore`.
//!
//! Callers must give `check` the path as the original's `expandPath` does: lexically
//! normalised and NFC. [`caller_path`] does exactly that; the properties below go through
//! it.

use context_assembly::deny::gitignore::Gitignore;
use context_assembly::deny::{DenyRules, DenyRulesSwitches, Roots, RuleSource, RuleSpec};
use context_assembly::path::lexical_normalize;
use context_assembly::Error;
use proptest::prelude::*;
use serde::Deserialize;

#[derive(Deserialize)]
struct Fixture {
    roots: FixtureRoots,
    cases: Vec<IgnoreCase>,
    rules: Vec<RuleCase>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct FixtureRoots {
    original_cwd: String,
    home: String,
    claude_config_dir: String,
    flag_settings_dir: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct IgnoreCase {
    patterns: Vec<String>,
    path: String,
    ignored: bool,
    rule: Option<String>,
    ignore_case: Option<bool>,
}

#[derive(Deserialize)]
struct RuleCase {
    name: String,
    preset: String,
    rules: Vec<FixtureRule>,
    cwd: String,
    path: String,
    #[serde(default)]
    denied: Option<FixtureDenial>,
    error: Option<String>,
}

#[derive(Deserialize)]
struct FixtureRule {
    text: String,
    source: String,
}

#[derive(Deserialize, Debug, PartialEq)]
struct FixtureDenial {
    rule: String,
    source: String,
    pattern: String,
    root: String,
}

fn fixture() -> Fixture {
    let path = format!("{}/../tests/fixtures/deny.json", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn source(name: &str) -> RuleSource {
    match name {
        "userSettings" => RuleSource::UserSettings,
        "projectSettings" => RuleSource::ProjectSettings,
        "localSettings" => RuleSource::LocalSettings,
        "policySettings" => RuleSource::PolicySettings,
        "flagSettings" => RuleSource::FlagSettings,
        "cliArg" => RuleSource::CliArg,
        "command" => RuleSource::Command,
        "session" => RuleSource::Session,
        other => panic!("unknown source {other:?}"),
    }
}

fn source_name(source: RuleSource) -> &'static str {
    match source {
        RuleSource::UserSettings => "userSettings",
        RuleSource::ProjectSettings => "projectSettings",
        RuleSource::LocalSettings => "localSettings",
        RuleSource::PolicySettings => "policySettings",
        RuleSource::FlagSettings => "flagSettings",
        RuleSource::CliArg => "cliArg",
        RuleSource::Command => "command",
        RuleSource::Session => "session",
    }
}

fn switches(preset: &str) -> DenyRulesSwitches {
    match preset {
        "claude-code" => DenyRulesSwitches::claude_code(),
        "recommended" => DenyRulesSwitches::recommended(),
        other => panic!("unknown preset {other:?}"),
    }
}

#[test]
fn gitignore_agrees_with_npm_ignore() {
    let fixture = fixture();
    let mut failures = Vec::new();
    for case in &fixture.cases {
        let ig = Gitignore::new(&case.patterns, case.ignore_case.unwrap_or(true));
        let got = ig.ignoring_pattern(&case.path);
        let got_rule = got.map(|index| case.patterns[index].as_str());
        if got.is_some() != case.ignored || got_rule != case.rule.as_deref() {
            failures.push(format!(
                "{:?} {:?} (ignoreCase {:?}): expected {:?} {:?}, got {:?}",
                case.patterns, case.path, case.ignore_case, case.ignored, case.rule, got_rule
            ));
        }
    }
    assert!(fixture.cases.len() >= 500, "too few cases");
    assert!(
        failures.is_empty(),
        "{} failures:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn deny_rules_fixture() {
    let fixture = fixture();
    let roots = Roots {
        original_cwd: fixture.roots.original_cwd.clone(),
        home: fixture.roots.home.clone(),
        claude_config_dir: fixture.roots.claude_config_dir.clone(),
        flag_settings_dir: Some(fixture.roots.flag_settings_dir.clone()),
        additional_directories: Vec::new(),
    };
    let mut failures = Vec::new();
    for case in &fixture.rules {
        let specs: Vec<RuleSpec> = case
            .rules
            .iter()
            .map(|r| RuleSpec::new(&r.text, source(&r.source)))
            .collect();
        let label = format!("{} [{}]", case.name, case.preset);
        match (
            DenyRules::new(&specs, &roots, &switches(&case.preset)),
            &case.error,
        ) {
            (Err(Error::InvalidConfig { field, .. }), Some(expected)) if field == *expected => {}
            (Err(err), _) => failures.push(format!("{label}: unexpected error {err}")),
            (Ok(_), Some(expected)) => failures.push(format!("{label}: no error for {expected}")),
            (Ok(rules), None) => {
                let got = rules.check(&case.path, &case.cwd).map(|d| FixtureDenial {
                    rule: d.rule,
                    source: source_name(d.source).to_string(),
                    pattern: d.pattern,
                    root: d.root,
                });
                if got != case.denied {
                    failures.push(format!("{label}: expected {:?}, got {got:?}", case.denied));
                }
            }
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

#[test]
fn errors_name_the_rule_and_what_is_allowed() {
    let rules = [
        RuleSpec::new("Read(.env)", RuleSource::ProjectSettings),
        RuleSpec::new("Read(a)b", RuleSource::ProjectSettings),
    ];
    let err = DenyRules::new(
        &rules,
        &Roots::new("/p", "/h"),
        &DenyRulesSwitches::claude_code(),
    )
    .unwrap_err()
    .to_string();
    assert!(err.starts_with("permissions.deny[1]: "), "{err}");
    assert!(err.contains("`Tool(content)`"), "{err}");
}

// ---- the caller's normalisation --------------------------------------------------------

/// Precomposed letters and their decompositions: the characters the properties generate.
/// A stand-in for Unicode NFC, which the crate leaves to its callers (JavaScript has
/// `String.prototype.normalize`).
const COMPOSITIONS: [(char, char, char); 6] = [
    ('é', 'e', '\u{301}'),
    ('è', 'e', '\u{300}'),
    ('ü', 'u', '\u{308}'),
    ('ñ', 'n', '\u{303}'),
    ('Å', 'A', '\u{30A}'),
    ('ç', 'c', '\u{327}'),
];

fn nfc(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        let last = out.chars().last();
        let composed = last.and_then(|base| {
            COMPOSITIONS
                .iter()
                .find(|(_, b, mark)| *b == base && *mark == c)
                .map(|(precomposed, _, _)| *precomposed)
        });
        match composed {
            Some(precomposed) => {
                out.pop();
                out.push(precomposed);
            }
            None => out.push(c),
        }
    }
    out
}

fn nfd(text: &str) -> String {
    let mut out = String::with_capacity(text.len() * 2);
    for c in text.chars() {
        match COMPOSITIONS
            .iter()
            .find(|(precomposed, _, _)| *precomposed == c)
        {
            Some((_, base, mark)) => {
                out.push(*base);
                out.push(*mark);
            }
            None => out.push(c),
        }
    }
    out
}

/// What every caller of [`DenyRules::check`] must do first, as the original's
/// `expandPath` does: normalise lexically, then NFC.
fn caller_path(path: &str) -> String {
    nfc(&lexical_normalize(path))
}

// ---- properties --------------------------------------------------------------------------

const CWD: &str = "/p";

fn protected_rules() -> Vec<RuleSpec> {
    [
        ("Read(.env)", RuleSource::ProjectSettings),
        ("Read(./secrets/**)", RuleSource::LocalSettings),
        ("Read(/config/*.key)", RuleSource::ProjectSettings),
        ("Read(//etc/passwd)", RuleSource::PolicySettings),
        ("Read(~/.ssh/**)", RuleSource::UserSettings),
        ("Read(café/**)", RuleSource::ProjectSettings),
        ("Read(**/*.pem)", RuleSource::Session),
    ]
    .iter()
    .map(|(text, source)| RuleSpec::new(text, *source))
    .collect()
}

/// Paths every preset denies with [`protected_rules`] and the cwd `/p`.
const DENIED: [&str; 8] = [
    "/p/.env",
    "/p/secrets/api.txt",
    "/p/secrets/deep/er/x",
    "/p/config/prod.key",
    "/etc/passwd",
    "/home/u/.ssh/id_ed25519",
    "/p/café/notes.md",
    "/p/src/ünïcode/cert.pem",
];

fn both_presets() -> [DenyRules; 2] {
    let roots = Roots::new(CWD, "/home/u");
    [
        DenyRulesSwitches::claude_code(),
        DenyRulesSwitches::recommended(),
    ]
    .map(|switches| DenyRules::new(&protected_rules(), &roots, &switches).unwrap())
}

/// A spelling of `path` with the same meaning: `./` and `x/../` detours, doubled
/// slashes, a trailing slash, decomposed accents.
fn respell(path: &str, edits: &[u8]) -> String {
    let segments: Vec<&str> = path.split('/').filter(|s| !s.is_empty()).collect();
    let mut out = String::new();
    for (i, segment) in segments.iter().enumerate() {
        let edit = edits.get(i).copied().unwrap_or(0);
        out.push('/');
        if edit & 1 != 0 {
            out.push_str("./");
        }
        if edit & 2 != 0 {
            out.push_str("detour/../");
        }
        if edit & 4 != 0 {
            out.push('/');
        }
        if edit & 8 != 0 && i > 0 {
            out.push_str("../");
            out.push_str(segments[i - 1]);
            out.push('/');
        }
        out.push_str(segment);
    }
    if edits.last().is_some_and(|e| e & 16 != 0) {
        out.push('/');
    }
    if edits.first().is_some_and(|e| e & 32 != 0) {
        out = nfd(&out);
    }
    out
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn no_spelling_bypasses_a_rule(
        which in 0..DENIED.len(),
        edits in proptest::collection::vec(any::<u8>(), 0..8),
    ) {
        let denied = DENIED[which];
        let spelling = respell(denied, &edits);
        for rules in both_presets() {
            prop_assert!(rules.check(denied, CWD).is_some(), "{denied} itself");
            let path = caller_path(&spelling);
            prop_assert!(rules.check(&path, CWD).is_some(), "{spelling:?} → {path:?}");
        }
    }

    #[test]
    fn mixed_case_names_another_file(which in 0..DENIED.len(), flips in any::<u64>()) {
        let denied = DENIED[which];
        // Roots compare exactly in both presets; the case of what lies below them is
        // what the patterns see.
        let root_len = ["/p/", "/etc/", "/home/u/"]
            .iter()
            .find(|root| denied.starts_with(**root))
            .map_or(0, |root| root.len());
        let (root, below) = denied.split_at(root_len);
        let flip = |c: char| if c.is_lowercase() { c.to_uppercase().next().unwrap_or(c) } else { c.to_lowercase().next().unwrap_or(c) };
        let all_flipped: String = root.chars().chain(below.chars().map(flip)).collect();
        let some_flipped: String = root
            .chars()
            .chain(below.chars().enumerate().map(|(i, c)| if flips >> (i % 64) & 1 == 1 { flip(c) } else { c }))
            .collect();
        let [original, recommended] = both_presets();
        // The denied spelling stays denied.
        prop_assert!(recommended.check(denied, CWD).is_some());
        prop_assert!(original.check(denied, CWD).is_some());
        // A case-sensitive workspace: the other spelling is another file, not denied.
        prop_assert!(recommended.check(&all_flipped, CWD).is_none(), "{all_flipped}");
        // The original folds case in patterns (npm `ignore`'s default): still denied.
        prop_assert!(original.check(&some_flipped, CWD).is_some(), "{some_flipped}");
        prop_assert!(original.check(&all_flipped, CWD).is_some(), "{all_flipped}");
    }

    #[test]
    fn arbitrary_patterns_and_paths_never_panic(
        patterns in proptest::collection::vec("[a*?/!\\\\\\[\\]:^\\-# .éZ]{0,12}", 0..5),
        path in "[a*?/\\\\\\[\\]. éZ]{0,24}",
        ignore_case in any::<bool>(),
    ) {
        let ig = Gitignore::new(&patterns, ignore_case);
        let _ = ig.ignoring_pattern(&path);
        let specs: Vec<RuleSpec> = patterns
            .iter()
            .map(|p| RuleSpec::new(&format!("Read({p})"), RuleSource::Session))
            .collect();
        for switches in [DenyRulesSwitches::claude_code(), DenyRulesSwitches::recommended()] {
            if let Ok(rules) = DenyRules::new(&specs, &Roots::new("/p", "/h"), &switches) {
                let _ = rules.check(&path, "/p/a");
            }
        }
    }

    #[test]
    fn arbitrary_rule_text_is_accepted_or_rejected_with_its_index(text in any::<String>()) {
        let specs = [RuleSpec::new("Read(.env)", RuleSource::Session), RuleSpec::new(&text, RuleSource::Session)];
        match DenyRules::new(&specs, &Roots::new("/p", "/h"), &DenyRulesSwitches::claude_code()) {
            Ok(rules) => { let _ = rules.check("/p/x", "/p"); }
            Err(Error::InvalidConfig { field, .. }) => prop_assert_eq!(field, "permissions.deny[1]"),
            Err(other) => prop_assert!(false, "unexpected {other}"),
        }
    }

    #[test]
    fn globstar_heavy_patterns_finish(
        pattern in "(\\*\\*/|\\*|a|/){1,40}",
        path in "(a/|a|b){1,200}",
    ) {
        // No timing: this would hang on exponential backtracking; it must simply finish.
        let ig = Gitignore::new(&[pattern.as_str()], true);
        let _ = ig.ignoring_pattern(&path);
    }
}
