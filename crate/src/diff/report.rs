//! A snippet with the one sentence that says why it is what it is: the playground shows it
//! next to a diff, so that an empty or cut snippet is never a puzzle.

use alloc::format;
use alloc::string::String;

use super::{BudgetFallback, Snippet, SnippetRules};

/// A change snippet, how it was made, and why it is what it is.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct SnippetReport {
    /// The snippet the model would see; empty when there is nothing to show.
    pub text: String,
    /// Hunks in the snippet.
    pub hunks: usize,
    /// The count the truncation marker shows, when the snippet was cut.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub truncated_lines: Option<usize>,
    /// Units of diff work spent.
    pub work: u64,
    /// The work budget ran out before the diff finished.
    pub budget_exhausted: bool,
    /// Why the snippet is what it is, in one sentence.
    pub reason: String,
}

impl SnippetReport {
    /// The report of `snippet`, made under `rules`.
    pub fn new(snippet: Snippet, rules: &SnippetRules) -> SnippetReport {
        let reason = reason(&snippet, rules);
        SnippetReport {
            text: snippet.text,
            hunks: snippet.hunks,
            truncated_lines: snippet.truncated_lines,
            work: snippet.work,
            budget_exhausted: snippet.budget_exhausted,
            reason,
        }
    }

    /// The report when no snippet is ever made, `reason` saying why.
    pub fn never_sent(reason: String) -> SnippetReport {
        SnippetReport {
            text: String::new(),
            hunks: 0,
            truncated_lines: None,
            work: 0,
            budget_exhausted: false,
            reason,
        }
    }
}

fn reason(snippet: &Snippet, rules: &SnippetRules) -> String {
    let budget = rules.work_budget;
    if snippet.budget_exhausted {
        return match rules.on_budget_exhausted {
            BudgetFallback::NoSnippet => format!(
                "the diff's work budget ({budget} units, the stand-in for the original's 5 s \
                 timeout) ran out, and the original sends no snippet after a timeout"
            ),
            BudgetFallback::ReplaceMiddle => format!(
                "the diff's work budget ({budget} units) ran out, so everything between the \
                 common first and last lines is shown as replaced"
            ),
        };
    }
    if snippet.final_newline_only {
        return "only the final newline changed: the lines the model reads are the same, so \
                this is no change (Q37 fixed)"
            .into();
    }
    if snippet.text.is_empty() {
        return if snippet.hunks == 0 {
            "the two texts have the same lines: nothing changed".into()
        } else {
            "the change only deletes lines, and deleted lines are never shown (Q36), so the \
             snippet is empty and no note would be sent (Q35)"
                .into()
        };
    }
    let hunks = match snippet.hunks {
        1 => "1 hunk".into(),
        n => format!("{n} hunks"),
    };
    let removals = if rules.mark_removed_lines {
        ", removed lines marked -"
    } else {
        ""
    };
    let cap = if rules.cap_in_tokens {
        format!("{}-token cap", rules.max_tokens)
    } else {
        format!("{}-unit cap", rules.max_len)
    };
    match snippet.truncated_lines {
        Some(lines) => format!(
            "{hunks} with {} lines of context{removals}, cut at the {cap}; the marker counts \
             {lines} lines",
            rules.context_lines
        ),
        None => format!(
            "{hunks} with {} lines of context{removals}",
            rules.context_lines
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::diff::diff_snippet;

    fn report(before: &str, after: &str, rules: &SnippetRules) -> SnippetReport {
        SnippetReport::new(diff_snippet(before, after, rules), rules)
    }

    #[test]
    fn the_reason_says_what_shaped_the_snippet() {
        let rules = SnippetRules::claude_code();
        let same = report("a\n", "a\n", &rules);
        assert_eq!(
            same.reason,
            "the two texts have the same lines: nothing changed"
        );
        let emptied = report("a\nb\n", "", &rules);
        assert!(emptied
            .reason
            .contains("deleted lines are never shown (Q36)"));
        let one = report("a\nb\n", "a\nB\n", &rules);
        assert_eq!(one.reason, "1 hunk with 8 lines of context");
        let long: String = (0..3000).map(|n| format!("line {n}\n")).collect();
        let cut = report("", &long, &rules);
        assert!(cut.truncated_lines.is_some());
        assert!(cut
            .reason
            .contains("cut at the 8192-unit cap; the marker counts"));
    }

    #[test]
    fn an_exhausted_budget_is_explained_by_the_fallback() {
        for (rules, says) in [
            (SnippetRules::claude_code(), "the original sends no snippet"),
            (SnippetRules::recommended(), "shown as replaced"),
        ] {
            let starved = SnippetRules {
                work_budget: 1,
                ..rules
            };
            let starved = report("a\nb\nc\n", "a\nB\nc\n", &starved);
            assert!(starved.budget_exhausted);
            assert!(starved.reason.contains(says), "{}", starved.reason);
        }
    }

    #[test]
    fn recommended_says_what_it_fixed() {
        let rules = SnippetRules::recommended();
        assert!(report("x\n", "x", &rules)
            .reason
            .contains("only the final newline"));
        assert_eq!(
            report("a\nb\n", "a\n", &rules).reason,
            "1 hunk with 8 lines of context, removed lines marked -"
        );
        let long: String = (0..3000).map(|n| format!("line {n}\n")).collect();
        assert!(report("", &long, &rules)
            .reason
            .contains("cut at the 2048-token cap"));
    }
}
