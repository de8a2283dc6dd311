//! Fixture cases (shared with the wasm package's JS tests) and invariants of token estimation.

use context_assembly::tokens::{estimate_tokens, TokenMethod};
use proptest::prelude::*;
use serde::Deserialize;

#[derive(Deserialize)]
struct Fixture {
    cases: Vec<Case>,
}

#[derive(Deserialize)]
struct Case {
    text: String,
    method: String,
    ext: Option<String>,
    expected: u64,
}

#[test]
fn fixture_cases() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/fixtures/tokens.json");
    let json = std::fs::read_to_string(path).expect("read tokens.json");
    let fixture: Fixture = serde_json::from_str(&json).expect("parse tokens.json");
    assert!(fixture.cases.len() >= 40);
    for case in &fixture.cases {
        let method: TokenMethod = case.method.parse().expect("known method");
        let got = estimate_tokens(&case.text, method, case.ext.as_deref());
        assert_eq!(
            got, case.expected,
            "{} {:?} ext {:?}",
            case.method, case.text, case.ext
        );
    }
}

fn any_method() -> impl Strategy<Value = TokenMethod> {
    prop::sample::select(TokenMethod::ALL.to_vec())
}

fn any_ext() -> impl Strategy<Value = Option<String>> {
    prop::option::of(prop::sample::select(vec![
        "json".to_owned(),
        ".jsonl".to_owned(),
        "jsonc".to_owned(),
        "rs".to_owned(),
        String::new(),
    ]))
}

/// Text mixing the classes the calibrated estimator distinguishes, plus arbitrary characters.
fn any_text() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<String>(),
        "[a-zA-Z0-9 _.,:;{}()\\[\\]\"'\\-\t\r\n]{0,60}",
        "[ \t\r\na;]{0,300}",
        "[0-9a-f\\-]{0,60}",
        "[\\p{Han}\\p{Hiragana}\\p{Katakana}\\p{Hangul}、。 a-z]{0,40}",
        "[àéîõüßЖжΩ😀🚀—“” x]{0,30}",
    ]
}

proptest! {
    #[test]
    fn monotone_under_appending(a in any_text(), b in any_text(), method in any_method(), ext in any_ext()) {
        let ext = ext.as_deref();
        let whole = format!("{a}{b}");
        prop_assert!(estimate_tokens(&whole, method, ext) >= estimate_tokens(&a, method, ext));
    }

    #[test]
    fn empty_is_zero_and_calibrated_non_empty_is_at_least_one(text in any_text(), method in any_method(), ext in any_ext()) {
        prop_assert_eq!(estimate_tokens("", method, ext.as_deref()), 0);
        if !text.is_empty() {
            prop_assert!(estimate_tokens(&text, TokenMethod::Calibrated, ext.as_deref()) >= 1);
        }
    }

    #[test]
    fn calibrated_never_exceeds_the_utf8_length(text in any_text()) {
        prop_assert!(estimate_tokens(&text, TokenMethod::Calibrated, None) <= text.len() as u64);
    }

    #[test]
    fn calibrated_never_exceeds_the_utf8_length_of_whitespace_and_punctuation(text in "[ \t\r\n!-/:-@]{0,200}") {
        prop_assert!(estimate_tokens(&text, TokenMethod::Calibrated, None) <= text.len() as u64);
    }

    #[test]
    fn claude_code_matches_utf16_rounding(text in any::<String>(), ext in any_ext()) {
        let units = text.encode_utf16().count() as u64;
        let divisor = match ext.as_deref().map(|e| e.trim_start_matches('.')) {
            Some("json" | "jsonl" | "jsonc") => 2,
            _ => 4,
        };
        prop_assert_eq!(estimate_tokens(&text, TokenMethod::ClaudeCode, ext.as_deref()), (2 * units + divisor) / (2 * divisor));
        prop_assert_eq!(estimate_tokens(&text, TokenMethod::Codex, ext.as_deref()), (text.len() as u64).div_ceil(4));
    }
}
