//! Change snippets against the shared fixtures and their invariants.
//!
//! `tests/fixtures/diff.json` holds curated cases (the spec's golden vectors and the edge
//! cases), `tests/fixtures/diff-differential.json` random pairs with the snippet the
//! JavaScript reference on jsdiff gives (`node tests/gen/diff-differential.mjs`).

use context_assembly::diff::{diff_snippet, BudgetFallback, SnippetRules};
use context_assembly::tokens::{estimate_tokens, TokenMethod};
use proptest::prelude::*;
use serde::Deserialize;

#[derive(Deserialize)]
struct Curated {
    cases: Vec<CuratedCase>,
}

#[derive(Deserialize)]
struct CuratedCase {
    name: String,
    profile: String,
    before: String,
    after: String,
    expected: String,
}

#[derive(Deserialize)]
struct Differential {
    cases: Vec<DifferentialCase>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct DifferentialCase {
    before: String,
    after: String,
    claude_code: String,
    recommended: String,
}

fn fixture<T: for<'de> Deserialize<'de>>(name: &str) -> T {
    let path = format!("{}/../tests/fixtures/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn rules(profile: &str) -> SnippetRules {
    match profile {
        "claude-code" => SnippetRules::claude_code(),
        "recommended" => SnippetRules::recommended(),
        other => panic!("unknown profile {other:?}"),
    }
}

#[test]
fn curated_cases() {
    let curated: Curated = fixture("diff.json");
    let mut failures = Vec::new();
    for case in &curated.cases {
        let got = diff_snippet(&case.before, &case.after, &rules(&case.profile)).text;
        if got != case.expected {
            failures.push(format!(
                "{} [{}]\n  got      {got:?}\n  expected {:?}",
                case.name, case.profile, case.expected
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} failing:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn differential_against_jsdiff() {
    let differential: Differential = fixture("diff-differential.json");
    assert!(differential.cases.len() >= 500);
    let mut failures = Vec::new();
    for (index, case) in differential.cases.iter().enumerate() {
        for (profile, expected) in [
            ("claude-code", &case.claude_code),
            ("recommended", &case.recommended),
        ] {
            let snippet = diff_snippet(&case.before, &case.after, &rules(profile));
            assert!(!snippet.budget_exhausted, "case {index} ran out of work");
            if &snippet.text != expected {
                failures.push(format!(
                    "case {index} [{profile}] {:?} -> {:?}\n  got      {:?}\n  expected {expected:?}",
                    case.before, case.after, snippet.text
                ));
            }
        }
    }
    let shown: Vec<_> = failures.iter().take(5).collect();
    assert!(
        failures.is_empty(),
        "{} failing, first:\n{:#?}",
        failures.len(),
        shown
    );
}

fn utf16_len(text: &str) -> usize {
    text.encode_utf16().count()
}

/// Files made of few distinct lines (so equally short scripts abound), mixed line endings,
/// with or without a final line break.
fn file() -> impl Strategy<Value = String> {
    let line = prop::sample::select(vec!["a", "b", "", "}", "é😀", "x\ry", "long line of text"]);
    let eol = prop::sample::select(vec!["\n", "\n", "\n", "\r\n", ""]);
    prop::collection::vec((line, eol), 0..60).prop_map(|parts| {
        parts
            .into_iter()
            .map(|(line, eol)| format!("{line}{eol}"))
            .collect()
    })
}

fn any_rules() -> impl Strategy<Value = SnippetRules> {
    (
        (0usize..10, 0usize..400, 0u64..120),
        (any::<bool>(), any::<bool>(), 0u64..3000, any::<bool>()),
        (any::<bool>(), any::<bool>(), any::<bool>()),
    )
        .prop_map(
            |(
                (context_lines, max_len, max_tokens),
                (number_from_new_file, exact_truncated_count, work_budget, keep),
                (mark_removed_lines, ignore_final_newline_change, cap_in_tokens),
            )| {
                SnippetRules {
                    context_lines,
                    max_len,
                    number_from_new_file,
                    exact_truncated_count,
                    work_budget,
                    on_budget_exhausted: if keep {
                        BudgetFallback::ReplaceMiddle
                    } else {
                        BudgetFallback::NoSnippet
                    },
                    mark_removed_lines,
                    ignore_final_newline_change,
                    cap_in_tokens,
                    max_tokens,
                }
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(400))]

    #[test]
    fn invariants_hold(before in file(), after in file(), rules in any_rules()) {
        let snippet = diff_snippet(&before, &after, &rules);
        prop_assert!(snippet.work <= rules.work_budget);
        let marker = snippet
            .truncated_lines
            .map(|n| format!("\n\n... [{n} lines truncated] ..."));
        let kept = snippet.text.strip_suffix(marker.as_deref().unwrap_or_default()).unwrap_or(&snippet.text);
        if rules.cap_in_tokens {
            prop_assert!(estimate_tokens(kept, TokenMethod::Calibrated, None) <= rules.max_tokens);
        } else {
            prop_assert!(utf16_len(kept) <= rules.max_len);
        }
        prop_assert_eq!(&snippet, &diff_snippet(&before, &after, &rules));
        prop_assert_eq!(diff_snippet(&before, &before, &rules).text, "");
    }

    #[test]
    fn arbitrary_text_does_not_panic(before in ".{0,200}", after in ".{0,200}", rules in any_rules()) {
        let snippet = diff_snippet(&before, &after, &rules);
        prop_assert!(snippet.work <= rules.work_budget);
    }

    #[test]
    fn a_sufficient_budget_does_not_change_the_snippet(before in file(), after in file(), budget in 0u64..2000) {
        let unlimited = SnippetRules { work_budget: u64::MAX, ..SnippetRules::claude_code() };
        let limited = SnippetRules { work_budget: budget, ..SnippetRules::claude_code() };
        let snippet = diff_snippet(&before, &after, &limited);
        let reference = diff_snippet(&before, &after, &unlimited);
        if snippet.budget_exhausted {
            prop_assert_eq!(snippet.text, "");
            prop_assert!(reference.work > budget);
        } else {
            prop_assert_eq!(snippet, reference);
        }
    }

    /// A line of the new file that the old one lacks is added by any script, so it shows,
    /// whether the search finished or the fallback replaced the middle.
    #[test]
    fn no_added_line_is_lost(before in file(), after in file(), work_budget in 0u64..500) {
        let rules = SnippetRules { work_budget, max_len: usize::MAX, max_tokens: u64::MAX, ..SnippetRules::recommended() };
        let snippet = diff_snippet(&before, &after, &rules);
        for line in after.split_inclusive('\n') {
            if !before.split_inclusive('\n').any(|old| old == line) {
                let shown = line.trim_end_matches('\n').trim_end_matches('\r');
                prop_assert!(snippet.text.contains(shown), "{line:?} missing from {:?}", snippet.text);
            }
        }
    }

    /// Q36 fixed: a line of the old file whose text the new one lacks shows, marked, whatever
    /// the script (when the search finished: a replaced middle is not marked).
    #[test]
    fn no_removed_line_is_hidden_when_marked(before in file(), after in file(), work_budget in 0u64..500) {
        let rules = SnippetRules { work_budget, max_len: usize::MAX, max_tokens: u64::MAX, ..SnippetRules::recommended() };
        let snippet = diff_snippet(&before, &after, &rules);
        prop_assume!(!snippet.budget_exhausted);
        let text_of = |line: &str| line.trim_end_matches('\n').trim_end_matches('\r').to_string();
        let same_but_final_newline = before.strip_suffix('\n').unwrap_or(&before) == after.strip_suffix('\n').unwrap_or(&after);
        for line in before.split_inclusive('\n') {
            // A line whose text is still in the file may have changed its line break alone.
            let still_there = after.split_inclusive('\n').any(|new| text_of(new) == text_of(line));
            if !still_there && !same_but_final_newline {
                let shown = format!("-\t{}", line.trim_end_matches('\n').trim_end_matches('\r'));
                prop_assert!(snippet.text.contains(&shown), "{line:?} missing from {:?}", snippet.text);
            }
        }
    }

    /// Q37 fixed: a final newline added or removed is no change.
    #[test]
    fn a_final_newline_alone_is_no_change(body in file()) {
        let rules = SnippetRules::recommended();
        let without = body.trim_end_matches(['\n', '\r']).to_string();
        let with = format!("{without}\n");
        let snippet = diff_snippet(&without, &with, &rules);
        prop_assert_eq!(snippet.text, "");
        prop_assert!(snippet.final_newline_only);
    }
}
