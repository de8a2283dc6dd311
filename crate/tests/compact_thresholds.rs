//! Compaction thresholds, time-based microcompact and the tool-result budget
//! (spec claude-code.md §9.1, §9.2, §9.6, §9.7; codex.md §4.1).

use context_assembly::attachment::Verdict;
use context_assembly::compact::microcompact::{
    time_based_microcompact, MicrocompactRules, COMPACTABLE_TOOLS, TIME_BASED_MC_CLEARED_MESSAGE,
};
use context_assembly::compact::thresholds::*;
use context_assembly::compact::tool_result_budget::*;
use context_assembly::tokens::{estimate_tokens, TokenMethod};
use context_assembly::transcript::{
    AssistantBlock, Message, Record, ToolResultBlock, ToolUse, Transcript,
};
use proptest::prelude::*;

const HOUR_MS: u64 = 60 * 60_000;

#[test]
fn constants_are_the_specs() {
    assert_eq!(MAX_OUTPUT_TOKENS_FOR_SUMMARY, 20_000);
    assert_eq!(AUTOCOMPACT_BUFFER_TOKENS, 13_000);
    assert_eq!(WARNING_THRESHOLD_BUFFER_TOKENS, 20_000);
    assert_eq!(ERROR_THRESHOLD_BUFFER_TOKENS, 20_000);
    assert_eq!(MANUAL_COMPACT_BUFFER_TOKENS, 3_000);
    assert_eq!(MAX_CONSECUTIVE_AUTOCOMPACT_FAILURES, 3);
    assert_eq!(MODEL_CONTEXT_WINDOW_DEFAULT, 200_000);
    assert_eq!(COMPACT_MAX_OUTPUT_TOKENS, 20_000);
    assert_eq!(CODEX_AUTO_COMPACT_PERCENT, 90);
    assert_eq!(CODEX_EFFECTIVE_WINDOW_PERCENT, 95);
    assert_eq!(
        COMPACTABLE_TOOLS,
        [
            "Read",
            "Bash",
            "PowerShell",
            "Grep",
            "Glob",
            "WebSearch",
            "WebFetch",
            "Edit",
            "Write"
        ]
    );
    assert_eq!(
        TIME_BASED_MC_CLEARED_MESSAGE,
        "[Old tool result content cleared]"
    );
    assert_eq!(
        MicrocompactRules::claude_code(),
        MicrocompactRules {
            enabled: false,
            gap_threshold_minutes: 60,
            keep_recent: 5,
        }
    );
    assert_eq!(MAX_TOOL_RESULTS_PER_MESSAGE_CHARS, 200_000);
    assert_eq!(DEFAULT_MAX_RESULT_SIZE_CHARS, 50_000);
    assert_eq!(PREVIEW_SIZE_BYTES, 2_000);
    assert_eq!(PERSISTED_OUTPUT_TAG, "<persisted-output>");
    assert_eq!(PERSISTED_OUTPUT_CLOSING_TAG, "</persisted-output>");
}

#[test]
fn golden_thresholds_of_a_200k_and_a_1m_model() {
    let t = claude_code_thresholds(&ThresholdInput::claude_code_default());
    assert_eq!(
        (
            t.effective_window,
            t.autocompact,
            t.warning,
            t.error,
            t.blocking
        ),
        (180_000, 167_000, 147_000, 147_000, 177_000)
    );
    let t = claude_code_thresholds(&ThresholdInput {
        context_window: 1_000_000,
        ..ThresholdInput::claude_code_default()
    });
    assert_eq!((t.effective_window, t.autocompact), (980_000, 967_000));
    assert_eq!(t.blocking, 977_000);
}

#[test]
fn a_small_output_limit_reserves_less() {
    // Claude 3.5 models reserve their 8 192 output tokens, not 20 000.
    let t = claude_code_thresholds(&ThresholdInput {
        max_output_tokens: 8_192,
        ..ThresholdInput::claude_code_default()
    });
    assert_eq!(t.effective_window, 191_808);
    assert_eq!(t.autocompact, 178_808);
}

#[test]
fn without_auto_compaction_the_warnings_count_to_the_effective_window() {
    let t = claude_code_thresholds(&ThresholdInput {
        auto_compact_enabled: false,
        ..ThresholdInput::claude_code_default()
    });
    assert_eq!(
        (t.autocompact, t.warning, t.error),
        (167_000, 160_000, 160_000)
    );
    let state = token_warning(170_000, &t);
    assert!(!state.above_autocompact);
    assert!(state.warning && state.error && !state.at_blocking_limit);
    assert_eq!(state.percent_left, 6); // 10 000 / 180 000 = 5.6 %
}

#[test]
fn the_warning_state_at_each_threshold() {
    let t = claude_code_thresholds(&ThresholdInput::claude_code_default());
    let at = |tokens| token_warning(tokens, &t);
    assert_eq!(at(0).percent_left, 100);
    assert!(!at(146_999).warning && at(147_000).warning && at(147_000).error);
    assert!(!at(166_999).above_autocompact && at(167_000).above_autocompact);
    assert!(!at(176_999).at_blocking_limit && at(177_000).at_blocking_limit);
    assert_eq!(at(167_000).percent_left, 0);
    assert_eq!(at(500_000).percent_left, 0);
    // Math.round: 0.5 % left rounds up to 1.
    let half = claude_code_thresholds(&ThresholdInput {
        context_window: 233_000, // effective 213 000, threshold 200 000
        ..ThresholdInput::claude_code_default()
    });
    assert_eq!(token_warning(199_000, &half).percent_left, 1);
    assert_eq!(token_warning(199_001, &half).percent_left, 0);
}

#[test]
fn tiny_windows_saturate_to_zero() {
    for window in [0, 8_000, 8_192, 20_000, 32_000] {
        let t = claude_code_thresholds(&ThresholdInput {
            context_window: window,
            ..ThresholdInput::claude_code_default()
        });
        assert_eq!(t.autocompact, window.saturating_sub(33_000));
        let state = token_warning(0, &t);
        // Auto-compaction and the warning fire on an empty conversation; the blocking limit
        // only once the window cannot hold the 3 000-token buffer either.
        assert!(state.warning && state.above_autocompact);
        assert_eq!(state.at_blocking_limit, window <= 23_000);
    }
}

#[test]
fn percent_left_rounds_the_float_the_original_computes() {
    // (167,000 − 119,405) / 167,000 × 100 is 28.5 exactly, but 28.499999999999996 in
    // double precision, which Math.round takes down.
    let thresholds = claude_code_thresholds(&ThresholdInput::claude_code_default());
    assert_eq!(token_warning(119_405, &thresholds).percent_left, 28);
    assert_eq!(token_warning(0, &thresholds).percent_left, 100);
    assert_eq!(token_warning(167_000, &thresholds).percent_left, 0);
}

#[test]
fn the_breaker_opens_after_three_failures() {
    for resets in [true, false] {
        let mut breaker = CompactionBreaker::new(resets);
        breaker.record_failure();
        breaker.record_failure();
        assert!(breaker.allows());
        breaker.record_success();
        assert_eq!(breaker.consecutive_failures(), 0);
        for _ in 0..3 {
            breaker.record_failure();
        }
        assert!(!breaker.allows());
        breaker.on_human_turn();
        assert_eq!(breaker.allows(), resets); // Q57
    }
    assert!(CompactionBreaker::claude_code().breaker_resets_each_human_turn);
    assert!(!CompactionBreaker::recommended().breaker_resets_each_human_turn);
}

#[test]
fn codex_thresholds_by_scope_and_window() {
    let base = CodexThresholdInput::codex_default();
    let t = codex_thresholds(&base);
    assert_eq!(
        (t.resolved_window, t.autocompact, t.effective_window),
        (272_000, 244_800, 258_400)
    );
    let lower = CodexThresholdInput {
        auto_compact_token_limit: Some(100_000),
        ..base
    };
    assert_eq!(codex_thresholds(&lower).autocompact, 100_000);
    let above = CodexThresholdInput {
        auto_compact_token_limit: Some(260_000),
        ..base
    };
    assert_eq!(codex_thresholds(&above).autocompact, 244_800);
    let unclamped = CodexThresholdInput {
        scope: CodexLimitScope::BodyAfterPrefix,
        ..above
    };
    assert_eq!(codex_thresholds(&unclamped).autocompact, 260_000);
    let big = CodexThresholdInput {
        context_window: None,
        max_context_window: 1_000_000,
        ..base
    };
    assert_eq!(codex_thresholds(&big).autocompact, 900_000);
    let overridden = CodexThresholdInput {
        context_window_override: Some(2_000_000),
        ..big
    };
    assert_eq!(codex_thresholds(&overridden).resolved_window, 1_000_000);
    let smaller = CodexThresholdInput {
        context_window_override: Some(100_000),
        ..base
    };
    assert_eq!(codex_thresholds(&smaller).effective_window, 95_000);
}

proptest! {
    #[test]
    fn claude_code_formulas_hold(
        window in 8_000u64..=1_000_000,
        output in 0u64..=128_000,
        pct in proptest::option::of(1u64..=100),
        enabled: bool,
    ) {
        let input = ThresholdInput {
            context_window: window,
            max_output_tokens: output,
            autocompact_pct_override: pct,
            auto_compact_enabled: enabled,
        };
        let t = claude_code_thresholds(&input);
        let effective = window.saturating_sub(output.min(20_000));
        prop_assert_eq!(t.effective_window, effective);
        let plain = effective.saturating_sub(13_000);
        match pct {
            Some(p) => prop_assert_eq!(t.autocompact, (effective * p / 100).min(plain)),
            None => prop_assert_eq!(t.autocompact, plain),
        }
        prop_assert!(t.autocompact <= t.effective_window);
        prop_assert!(t.autocompact <= plain, "the override never raises the threshold");
        let base = if enabled { t.autocompact } else { effective };
        prop_assert_eq!(t.warning, base.saturating_sub(20_000));
        prop_assert_eq!(t.error, t.warning);
        prop_assert_eq!(t.blocking, effective.saturating_sub(3_000));
    }

    #[test]
    fn out_of_range_overrides_are_ignored(window in 8_000u64..=1_000_000, pct in 101u64..) {
        let plain = ThresholdInput { context_window: window, ..ThresholdInput::claude_code_default() };
        let zero = ThresholdInput { autocompact_pct_override: Some(0), ..plain };
        let high = ThresholdInput { autocompact_pct_override: Some(pct), ..plain };
        prop_assert_eq!(claude_code_thresholds(&zero), claude_code_thresholds(&plain));
        prop_assert_eq!(claude_code_thresholds(&high), claude_code_thresholds(&plain));
    }

    #[test]
    fn the_warning_state_is_monotone(window in 8_000u64..=1_000_000, a: u64, b: u64) {
        let t = claude_code_thresholds(&ThresholdInput {
            context_window: window,
            ..ThresholdInput::claude_code_default()
        });
        let (low, high) = (a.min(b), a.max(b));
        let (low, high) = (token_warning(low, &t), token_warning(high, &t));
        prop_assert!(low.percent_left >= high.percent_left && low.percent_left <= 100);
        prop_assert!(!low.warning || high.warning);
        prop_assert!(!low.above_autocompact || high.above_autocompact);
        prop_assert!(!low.at_blocking_limit || high.at_blocking_limit);
    }

    #[test]
    fn codex_limit_never_exceeds_ninety_percent_in_total_scope(
        window in 1u64..=2_000_000,
        limit in proptest::option::of(any::<u64>()),
    ) {
        let input = CodexThresholdInput {
            context_window: Some(window),
            max_context_window: window,
            auto_compact_token_limit: limit,
            ..CodexThresholdInput::codex_default()
        };
        let t = codex_thresholds(&input);
        prop_assert!(t.autocompact <= window * 9 / 10);
        prop_assert_eq!(t.effective_window, window * 95 / 100);
    }
}

// ---- microcompact ----

/// One step of a generated transcript.
#[derive(Debug, Clone)]
enum Step {
    Prompt(String),
    Text(String),
    /// A tool round: the tool's index in `TOOLS`, the result's content.
    Call(usize, String),
}

const TOOLS: [&str; 5] = ["Read", "Bash", "TodoWrite", "Grep", "Task"];

fn transcript_of(steps: &[Step]) -> Vec<Message> {
    let mut transcript = Transcript::default();
    for (n, step) in steps.iter().enumerate() {
        match step {
            Step::Prompt(text) => {
                transcript.push(Record::Prompt { text: text.clone() });
            }
            Step::Text(text) => {
                let response = transcript.next_response();
                transcript.push(Record::Assistant {
                    response,
                    block: AssistantBlock::text(text),
                });
            }
            Step::Call(tool, content) => {
                let response = transcript.next_response();
                let id = format!("toolu_{n}");
                let call = ToolUse {
                    id: id.clone(),
                    name: TOOLS[*tool].into(),
                    input: "{}".into(),
                };
                transcript.push(Record::Assistant {
                    response,
                    block: AssistantBlock::ToolUse(call),
                });
                let result = ToolResultBlock {
                    tool_use_id: id,
                    content: content.clone(),
                    is_error: false,
                };
                transcript.push(Record::ToolResults {
                    results: vec![result],
                });
            }
        }
    }
    transcript.messages().to_vec()
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    let step = prop_oneof![
        "[a-z ]{0,12}".prop_map(Step::Prompt),
        "[a-z ]{0,12}".prop_map(Step::Text),
        (0..TOOLS.len(), "[a-z\n]{0,40}").prop_map(|(tool, content)| Step::Call(tool, content)),
    ];
    proptest::collection::vec(step, 0..40)
}

/// (tool name, content) of every result, in order.
fn results_of(messages: &[Message]) -> Vec<(String, String)> {
    let mut names = std::collections::HashMap::new();
    let mut out = Vec::new();
    for message in messages {
        match &message.record {
            Record::Assistant {
                block: AssistantBlock::ToolUse(call),
                ..
            } => {
                names.insert(call.id.clone(), call.name.clone());
            }
            Record::ToolResults { results } => {
                for result in results {
                    out.push((names[&result.tool_use_id].clone(), result.content.clone()));
                }
            }
            _ => {}
        }
    }
    out
}

fn without_results(messages: &[Message]) -> Vec<Message> {
    let mut messages = messages.to_vec();
    for message in &mut messages {
        if let Record::ToolResults { results } = &mut message.record {
            for result in results {
                result.content.clear();
            }
        }
    }
    messages
}

fn microcompact(messages: &[Message], keep_recent: u64) -> Vec<Message> {
    let rules = MicrocompactRules {
        keep_recent,
        ..MicrocompactRules::recommended()
    };
    time_based_microcompact(messages, HOUR_MS, Some(0), &rules, TokenMethod::ClaudeCode).messages
}

proptest! {
    #[test]
    fn microcompact_keeps_exactly_the_last_n_compactable_results(
        steps in steps(),
        keep_recent in 0u64..8,
    ) {
        let before = transcript_of(&steps);
        let after = microcompact(&before, keep_recent);
        // Records, calls, ids and every non-result field are untouched: pairs stay paired.
        prop_assert_eq!(without_results(&after), without_results(&before));
        let (old, new) = (results_of(&before), results_of(&after));
        let compactable: Vec<usize> = (0..old.len())
            .filter(|&i| COMPACTABLE_TOOLS.contains(&old[i].0.as_str()))
            .collect();
        let first_kept = compactable.len().saturating_sub(keep_recent.max(1) as usize);
        // A zero saving changes nothing, as in the original (`"\n"` is 0 tokens).
        let anything_cleared = compactable[..first_kept]
            .iter()
            .any(|&i| {
                old[i].1 != TIME_BASED_MC_CLEARED_MESSAGE
                    && estimate_tokens(&old[i].1, TokenMethod::ClaudeCode, None) > 0
            });
        for (i, ((name, old_content), (_, new_content))) in old.iter().zip(&new).enumerate() {
            let position = compactable.iter().position(|&c| c == i);
            let cleared = anything_cleared && position.is_some_and(|p| p < first_kept);
            if cleared {
                prop_assert_eq!(new_content, TIME_BASED_MC_CLEARED_MESSAGE, "{}", name);
            } else {
                prop_assert_eq!(new_content, old_content);
            }
        }
    }

    #[test]
    fn microcompact_is_idempotent(steps in steps(), keep_recent in 0u64..8) {
        let once = microcompact(&transcript_of(&steps), keep_recent);
        let twice = microcompact(&once, keep_recent);
        prop_assert_eq!(twice, once);
    }

    #[test]
    fn microcompact_never_fires_before_the_gap(steps in steps(), gap in 0u64..HOUR_MS) {
        let before = transcript_of(&steps);
        let rules = MicrocompactRules::recommended();
        let out = time_based_microcompact(&before, 1_000 + gap, Some(1_000), &rules, TokenMethod::Codex);
        prop_assert_eq!(out.messages, before);
        prop_assert_eq!(out.cleared, 0);
        prop_assert_eq!(out.decisions[0].verdict, Verdict::Skipped);
    }
}

#[test]
fn microcompact_reports_each_result_and_the_tokens_freed() {
    let steps = [
        Step::Call(0, "a".repeat(400)),
        Step::Call(2, "todo".into()),
        Step::Call(1, "b".repeat(40)),
        Step::Call(3, "c".repeat(8)),
    ];
    let messages = transcript_of(&steps);
    let rules = MicrocompactRules {
        keep_recent: 1,
        ..MicrocompactRules::recommended()
    };
    let out = time_based_microcompact(
        &messages,
        2 * HOUR_MS,
        Some(HOUR_MS),
        &rules,
        TokenMethod::ClaudeCode,
    );
    assert_eq!(out.cleared, 2);
    assert_eq!(out.tokens_freed, 100 + 10);
    let verdicts: Vec<(&str, Verdict)> = out
        .decisions
        .iter()
        .map(|d| (d.subject.as_str(), d.verdict))
        .collect();
    assert_eq!(
        verdicts,
        [
            ("toolu_0", Verdict::Truncated),
            ("toolu_2", Verdict::Truncated),
            ("toolu_3", Verdict::Included),
        ]
    );
    assert_eq!(out.decisions[0].detail.as_deref(), Some("Read"));
}

#[test]
fn microcompact_does_nothing_when_off_or_without_an_assistant_message() {
    let messages = transcript_of(&[Step::Call(0, "x".repeat(100)), Step::Call(0, "y".into())]);
    let off = MicrocompactRules {
        keep_recent: 1,
        ..MicrocompactRules::claude_code()
    };
    let on = MicrocompactRules {
        enabled: true,
        ..off
    };
    for (rules, last, now) in [
        (off, Some(0), HOUR_MS),
        (on, None, HOUR_MS),
        (on, Some(HOUR_MS), 0),
    ] {
        let out = time_based_microcompact(&messages, now, last, &rules, TokenMethod::ClaudeCode);
        assert_eq!(out.messages, messages);
        assert_eq!(out.decisions.len(), 1);
        assert_eq!(out.decisions[0].verdict, Verdict::Skipped);
    }
    // Only empty results to clear: the saving is zero and nothing changes.
    let empty = transcript_of(&[Step::Call(0, String::new()), Step::Call(0, "y".into())]);
    let out = time_based_microcompact(&empty, HOUR_MS, Some(0), &on, TokenMethod::ClaudeCode);
    assert_eq!(out.messages, empty);
    assert_eq!(out.decisions[0].verdict, Verdict::Unchanged);
}

// ---- tool-result budget ----

fn result(id: &str, content: String) -> ToolResultBlock {
    ToolResultBlock {
        tool_use_id: id.into(),
        content,
        is_error: false,
    }
}

fn call(id: &str, name: &str) -> ToolUse {
    ToolUse {
        id: id.into(),
        name: name.into(),
        input: "{}".into(),
    }
}

#[test]
fn per_tool_persistence_thresholds() {
    assert_eq!(persistence_threshold("Read"), None);
    assert_eq!(persistence_threshold("Grep"), Some(20_000));
    assert_eq!(persistence_threshold("Bash"), Some(50_000));
    assert_eq!(max_result_size_chars("Bash"), Some(100_000));
    assert_eq!(persisted_path("toolu_1"), "/tool-results/toolu_1.txt");
}

#[test]
fn the_largest_results_go_first_until_the_message_fits() {
    let results = [
        result("a", "a".repeat(130_000)),
        result("b", "b\n".repeat(60_000)),
        result("c", "c".repeat(70_000)),
        result("d", "d".repeat(10_000)),
    ];
    let calls = [call("a", "Bash"), call("b", "Grep"), call("c", "WebFetch")];
    let out = apply_tool_result_budget(&results, &calls, &ToolResultBudgetRules::claude_code());
    assert_eq!(out.total_before, 330_000);
    let ids: Vec<&str> = out
        .persisted
        .iter()
        .map(|p| p.tool_use_id.as_str())
        .collect();
    assert_eq!(ids, ["a", "b"]);
    assert!(out.total_after <= MAX_TOOL_RESULTS_PER_MESSAGE_CHARS);
    let sizes: u64 = out
        .results
        .iter()
        .map(|r| r.content.encode_utf16().count() as u64)
        .sum();
    assert_eq!(sizes, out.total_after);
    assert_eq!(out.results[2], results[2]);
    assert_eq!(out.persisted[1].content, results[1].content);
    let replacement = &out.results[1].content;
    assert_eq!(replacement, &out.persisted[1].replacement);
    // The preview of b stops at its last line break in the first 2 000 units.
    let tail = format!(":\n{}\n...\n</persisted-output>", "b\n".repeat(999) + "b");
    assert!(replacement.ends_with(&tail), "{replacement}");
    assert!(replacement.starts_with("<persisted-output>\n"));
}

#[test]
fn within_budget_or_switched_off_nothing_changes() {
    let results = [result("a", "a".repeat(200_000))];
    let out = apply_tool_result_budget(&results, &[], &ToolResultBudgetRules::claude_code());
    assert_eq!(out.results, results);
    assert_eq!(out.decisions[0].verdict, Verdict::Unchanged);
    let big = [result("a", "a".repeat(300_000))];
    let off = ToolResultBudgetRules {
        enabled: false,
        ..ToolResultBudgetRules::claude_code()
    };
    let out = apply_tool_result_budget(&big, &[], &off);
    assert_eq!(out.results, big);
    assert_eq!(out.decisions[0].verdict, Verdict::Skipped);
}

#[test]
fn read_and_persisted_results_stay_and_the_shortfall_is_reported() {
    let persisted = persist_output("p", &"p".repeat(5_000), PREVIEW_SIZE_BYTES).replacement;
    let results = [result("r", "r".repeat(250_000)), result("p", persisted)];
    let out = apply_tool_result_budget(
        &results,
        &[call("r", "Read")],
        &ToolResultBudgetRules::claude_code(),
    );
    assert_eq!(out.results, results);
    let verdicts: Vec<Verdict> = out.decisions.iter().map(|d| d.verdict).collect();
    assert_eq!(
        verdicts,
        [Verdict::Skipped, Verdict::Unchanged, Verdict::OverBudget]
    );
}

proptest! {
    #[test]
    fn the_budget_holds_whenever_it_can(sizes in proptest::collection::vec(0usize..120_000, 0..6)) {
        let results: Vec<ToolResultBlock> = sizes
            .iter()
            .enumerate()
            .map(|(i, &n)| result(&format!("t{i}"), "é".repeat(n)))
            .collect();
        let out = apply_tool_result_budget(&results, &[], &ToolResultBudgetRules::claude_code());
        prop_assert_eq!(out.results.len(), results.len());
        prop_assert!(out.total_after <= out.total_before);
        prop_assert!(out.total_after <= MAX_TOOL_RESULTS_PER_MESSAGE_CHARS);
        for (before, after) in results.iter().zip(&out.results) {
            prop_assert_eq!(&before.tool_use_id, &after.tool_use_id);
        }
        // Applying it again changes nothing: decisions are frozen.
        let again = apply_tool_result_budget(&out.results, &[], &ToolResultBudgetRules::claude_code());
        prop_assert_eq!(again.results, out.results);
    }
}
