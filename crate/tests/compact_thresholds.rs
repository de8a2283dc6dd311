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

// ------------------------------------------- a model's window and output limit (§9.1)

mod model_windows {
    use context_assembly::compact::model_window::*;
    use context_assembly::compact::thresholds::*;
    use context_assembly::scenario::parse_session_config;
    use context_assembly::session::SessionConfig;
    use proptest::prelude::*;

    fn window(model: &str, overrides: WindowOverrides) -> ModelWindow {
        claude_code_model_window(model, &overrides)
    }

    fn plain(model: &str) -> ModelWindow {
        window(model, WindowOverrides::default())
    }

    #[test]
    fn the_constants_are_the_specs() {
        assert_eq!(ONE_MILLION_CONTEXT_WINDOW, 1_000_000);
        assert_eq!(CAPPED_DEFAULT_MAX_TOKENS, 8_000);
        assert_eq!(CAPABILITY_WINDOW_FLOOR, 100_000);
        assert_eq!(ONE_MILLION_BETA_MODELS, ["claude-sonnet-4", "opus-4-6"]);
        assert_eq!(ONE_MILLION_EXPERIMENT_MODELS, ["sonnet-4-6"]);
        assert_eq!(
            (OTHER_MODEL_OUTPUT.default, OTHER_MODEL_OUTPUT.upper),
            (32_000, 64_000)
        );
    }

    /// claude-code.md §9.1: `getMaxOutputTokensForModel`'s per-model default (upper limit),
    /// and the reserve it leaves: 20,000 for every Claude 4.x model, 8,192 for 3.5.
    #[test]
    fn every_output_row_of_the_spec() {
        let rows: [(&str, u64, u64, u64); 14] = [
            ("claude-opus-4-6", 64_000, 128_000, 20_000),
            ("claude-sonnet-4-6", 32_000, 128_000, 20_000),
            ("claude-opus-4-5-20251101", 32_000, 64_000, 20_000),
            ("claude-sonnet-4-5-20250929", 32_000, 64_000, 20_000),
            ("claude-sonnet-4-20250514", 32_000, 64_000, 20_000),
            ("claude-haiku-4-5", 32_000, 64_000, 20_000),
            ("claude-opus-4-1-20250805", 32_000, 32_000, 20_000),
            ("claude-opus-4-20250514", 32_000, 32_000, 20_000),
            ("claude-3-7-sonnet-20250219", 32_000, 64_000, 20_000),
            ("claude-3-5-sonnet-20241022", 8_192, 8_192, 8_192),
            ("claude-3-5-haiku-20241022", 8_192, 8_192, 8_192),
            // Provider spellings and capitals land on their row.
            ("us.anthropic.claude-opus-4-6-v1", 64_000, 128_000, 20_000),
            ("Claude-Sonnet-4-6[1M]", 32_000, 128_000, 20_000),
            ("claude-opus-4-6[1m]", 64_000, 128_000, 20_000),
        ];
        for (model, default, upper, reserve) in rows {
            let w = plain(model);
            assert_eq!(
                (
                    w.max_output_tokens,
                    w.output_upper_limit,
                    w.output_reserve(),
                    w.known_model
                ),
                (default, upper, reserve, true),
                "{model}"
            );
            assert!(
                w.output_reason.contains("row"),
                "{model}: {}",
                w.output_reason
            );
        }
    }

    /// claude-code.md §9.1: an id no row names gets the fallback row (32k, 64k), a 200,000
    /// window, and reasons that say so.
    #[test]
    fn an_unknown_model_falls_back_with_a_reason() {
        for model in ["gpt-5.5", "my-local-model", "", "claude-next"] {
            let w = plain(model);
            assert_eq!(
                (
                    w.context_window,
                    w.max_output_tokens,
                    w.output_upper_limit,
                    w.known_model
                ),
                (200_000, 32_000, 64_000, false),
                "{model:?}"
            );
            assert!(
                w.output_reason.contains("no row of the output table"),
                "{}",
                w.output_reason
            );
            assert!(
                w.window_reason.contains("the default of 200000"),
                "{}",
                w.window_reason
            );
            assert_eq!(w.output_reserve(), 20_000);
        }
    }

    /// claude-code.md §9.1, the window's first match: (1) the host's override, (2) `[1m]`,
    /// (3) the capability table from 100k, (4) the 1M beta for a model that takes it, (5) the
    /// Sonnet 4.6 experiment, (6) 200,000.
    #[test]
    fn the_window_is_the_first_rule_that_applies() {
        let o = WindowOverrides::default;
        // (2) the suffix, in any case, whatever the model.
        assert_eq!(plain("claude-opus-4-6[1m]").context_window, 1_000_000);
        assert_eq!(plain("claude-sonnet-4-5[1M]").context_window, 1_000_000);
        assert_eq!(plain("my-model[1m]").context_window, 1_000_000);
        assert_eq!(plain("claude-opus-4-6").context_window, 200_000);
        // (1) beats (2).
        let host = WindowOverrides {
            max_context_tokens: Some(50_000),
            ..o()
        };
        let w = window("claude-opus-4-6[1m]", host);
        assert_eq!(w.context_window, 50_000);
        assert!(w.window_reason.contains("override"));
        // (2) beats (3); (3) counts from 100k only.
        let cap = |tokens| WindowOverrides {
            capability_max_input_tokens: Some(tokens),
            ..o()
        };
        assert_eq!(
            window("claude-opus-4-6[1m]", cap(300_000)).context_window,
            1_000_000
        );
        assert_eq!(
            window("claude-opus-4-6", cap(300_000)).context_window,
            300_000
        );
        assert_eq!(
            window("claude-opus-4-6", cap(100_000)).context_window,
            100_000
        );
        assert_eq!(
            window("claude-opus-4-6", cap(99_999)).context_window,
            200_000
        );
        // (4) the beta, for `claude-sonnet-4*` and `opus-4-6` only.
        let beta = WindowOverrides {
            context_1m_beta: true,
            ..o()
        };
        for (model, expected) in [
            ("claude-sonnet-4-20250514", 1_000_000),
            ("claude-sonnet-4-6", 1_000_000),
            ("claude-opus-4-6", 1_000_000),
            ("claude-opus-4-5", 200_000),
            ("claude-haiku-4-5", 200_000),
            ("claude-3-7-sonnet-20250219", 200_000),
        ] {
            assert_eq!(window(model, beta).context_window, expected, "{model}");
        }
        // (3) beats (4).
        let both = WindowOverrides {
            capability_max_input_tokens: Some(150_000),
            ..beta
        };
        assert_eq!(window("claude-sonnet-4-6", both).context_window, 150_000);
        // (5) the experiment, for sonnet-4-6 only.
        let experiment = WindowOverrides {
            sonnet_1m_experiment: true,
            ..o()
        };
        assert_eq!(
            window("claude-sonnet-4-6", experiment).context_window,
            1_000_000
        );
        assert_eq!(
            window("claude-sonnet-4-5", experiment).context_window,
            200_000
        );
    }

    /// claude-code.md §9.1 and §10.1: `CLAUDE_CODE_DISABLE_1M_CONTEXT` turns every 1M route
    /// off and cuts a capability limit above 200,000 to 200,000.
    #[test]
    fn disabling_the_1m_context_closes_every_route() {
        let off = WindowOverrides {
            disable_1m_context: true,
            context_1m_beta: true,
            sonnet_1m_experiment: true,
            ..WindowOverrides::default()
        };
        assert_eq!(window("claude-sonnet-4-6[1m]", off).context_window, 200_000);
        let capped = WindowOverrides {
            capability_max_input_tokens: Some(1_000_000),
            ..off
        };
        let w = window("claude-sonnet-4-6", capped);
        assert_eq!(w.context_window, 200_000);
        assert!(w.window_reason.contains("disabled"), "{}", w.window_reason);
        let small = WindowOverrides {
            capability_max_input_tokens: Some(150_000),
            ..off
        };
        assert_eq!(window("claude-sonnet-4-6", small).context_window, 150_000);
        // The host's own window is not a 1M route.
        let host = WindowOverrides {
            max_context_tokens: Some(1_000_000),
            ..off
        };
        assert_eq!(window("claude-sonnet-4-6", host).context_window, 1_000_000);
    }

    /// claude-code.md §9.1: the capped slot lowers the default to 8k; the env override
    /// sets the limit within the upper limit; a limit that is not positive is ignored.
    #[test]
    fn output_overrides_stay_within_the_upper_limit() {
        let o = WindowOverrides::default;
        let capped = WindowOverrides {
            capped_output_slot: true,
            ..o()
        };
        assert_eq!(window("claude-opus-4-6", capped).max_output_tokens, 8_000);
        assert_eq!(window("claude-3-5-sonnet", capped).max_output_tokens, 8_000);
        assert_eq!(window("claude-opus-4-6", capped).output_reserve(), 8_000);
        let set = |tokens| WindowOverrides {
            max_output_tokens: Some(tokens),
            ..o()
        };
        assert_eq!(
            window("claude-opus-4-6", set(100_000)).max_output_tokens,
            100_000
        );
        let over = window("claude-opus-4-6", set(500_000));
        assert_eq!(over.max_output_tokens, 128_000);
        assert!(over.output_reason.contains("cut to the upper limit"));
        assert_eq!(
            window("claude-opus-4-1", set(40_000)).max_output_tokens,
            32_000
        );
        assert_eq!(
            window("claude-3-5-haiku", set(4_000)).output_reserve(),
            4_000
        );
        let zero = window("claude-opus-4-6", set(0));
        assert_eq!(zero.max_output_tokens, 64_000);
        assert!(zero.output_reason.contains("ignored"));
        // The override replaces the capped default too.
        let both = WindowOverrides {
            max_output_tokens: Some(30_000),
            ..capped
        };
        assert_eq!(window("claude-opus-4-6", both).max_output_tokens, 30_000);
    }

    /// claude-code.md §9.1: the thresholds of a model the tables resolve, with
    /// `CLAUDE_CODE_AUTO_COMPACT_WINDOW`, `CLAUDE_AUTOCOMPACT_PCT_OVERRIDE` and
    /// `CLAUDE_CODE_BLOCKING_LIMIT_OVERRIDE`.
    #[test]
    fn a_model_s_thresholds_with_the_host_s_overrides() {
        let (config, _) =
            SessionConfig::for_model("claude-opus-4-6[1m]", WindowOverrides::default());
        let t = config.thresholds(ThresholdFormula::ClaudeCode);
        assert_eq!(
            (t.effective_window, t.autocompact, t.blocking),
            (980_000, 967_000, Some(977_000))
        );
        let (config, why) =
            SessionConfig::for_model("claude-3-5-sonnet-20241022", WindowOverrides::default());
        assert_eq!(
            (config.model.as_deref(), config.output_reserve),
            (Some("claude-3-5-sonnet-20241022"), 8_192)
        );
        assert!(why.known_model);
        let t = config.thresholds(ThresholdFormula::ClaudeCode);
        assert_eq!((t.effective_window, t.autocompact), (191_808, 178_808));
        let overrides = WindowOverrides {
            auto_compact_window: Some(300_000),
            autocompact_pct_override: Some(50),
            blocking_limit_override: Some(250_000),
            ..WindowOverrides::default()
        };
        let (config, _) = SessionConfig::for_model("claude-sonnet-4-6[1m]", overrides);
        assert_eq!(
            config.context_window, 1_000_000,
            "the cap is the thresholds', not the window's"
        );
        let t = config.thresholds(ThresholdFormula::ClaudeCode);
        assert_eq!(
            (t.effective_window, t.autocompact, t.blocking),
            (280_000, 140_000, Some(250_000))
        );
        // A cap above the window changes nothing; Codex's formula has no blocking level.
        let wide = WindowOverrides {
            auto_compact_window: Some(5_000_000),
            ..overrides
        };
        let (config, _) = SessionConfig::for_model("claude-sonnet-4-6", wide);
        assert_eq!(
            config
                .thresholds(ThresholdFormula::ClaudeCode)
                .effective_window,
            180_000
        );
        assert_eq!(config.thresholds(ThresholdFormula::Codex).blocking, None);
        // Zero stands for "not set", as the original ignores a value that is not positive.
        let zeros = WindowOverrides {
            auto_compact_window: Some(0),
            blocking_limit_override: Some(0),
            ..WindowOverrides::default()
        };
        let (config, _) = SessionConfig::for_model("claude-opus-4-6", zeros);
        let t = config.thresholds(ThresholdFormula::ClaudeCode);
        assert_eq!((t.effective_window, t.blocking), (180_000, Some(177_000)));
    }

    /// claude-code.md §9.1: a configuration that names a model but no window takes the
    /// tables'; one that gives a window or a reserve keeps it.
    #[test]
    fn a_config_naming_a_model_takes_its_window() {
        let config = parse_session_config(r#"{ "model": "claude-opus-4-6[1m]" }"#).unwrap();
        assert_eq!(
            (config.context_window, config.output_reserve),
            (1_000_000, 20_000)
        );
        let config = parse_session_config(r#"{ "model": "claude-3-5-haiku-20241022" }"#).unwrap();
        assert_eq!(
            (config.context_window, config.output_reserve),
            (200_000, 8_192)
        );
        let config = parse_session_config(
            r#"{ "model": "claude-opus-4-6[1m]", "contextWindow": 300000, "outputReserve": 1000 }"#,
        )
        .unwrap();
        assert_eq!(
            (config.context_window, config.output_reserve),
            (300_000, 1_000)
        );
        let config = parse_session_config(
            r#"{ "model": "claude-sonnet-4-6", "windowOverrides": { "context1mBeta": true, "maxOutputTokens": 5000, "blockingLimitOverride": 900000 } }"#,
        )
        .unwrap();
        assert_eq!(
            (config.context_window, config.output_reserve),
            (1_000_000, 5_000)
        );
        assert_eq!(
            config.thresholds(ThresholdFormula::ClaudeCode).blocking,
            Some(900_000)
        );
        let config = parse_session_config(
            r#"{ "model": "claude-sonnet-4-6[1m]", "windowOverrides": { "disable1mContext": true } }"#,
        )
        .unwrap();
        assert_eq!(config.context_window, 200_000);
        // Without a model, the overrides still shape the thresholds.
        let config =
            parse_session_config(r#"{ "windowOverrides": { "autocompactPctOverride": 50 } }"#)
                .unwrap();
        assert_eq!(
            config.thresholds(ThresholdFormula::ClaudeCode).autocompact,
            90_000
        );
    }

    #[test]
    fn bad_overrides_say_what_is_allowed() {
        let error = |json: &str| parse_session_config(json).unwrap_err().to_string();
        assert_eq!(
            error(r#"{ "windowOverrides": { "autocompactPctOverride": 0 } }"#),
            "config.windowOverrides.autocompactPctOverride: expected a whole number from 1 to 100, got 0"
        );
        assert!(error(r#"{ "windowOverrides": { "maxContextTokens": 10 } }"#)
            .starts_with("config.windowOverrides.maxContextTokens: expected a whole number from 1000 to 10000000"));
        assert!(error(r#"{ "windowOverrides": { "disable1M": true } }"#)
            .starts_with("config.windowOverrides.disable1M: unknown field; expected one of \"maxContextTokens\""));
        assert_eq!(
            error(r#"{ "model": "" }"#),
            parse_session_config(r#"{ "memoryDir": "" }"#)
                .unwrap_err()
                .to_string()
                .replace("memoryDir", "model")
        );
    }

    proptest! {
        /// claude-code.md §9.1: any id resolves, never panics, and within the bounds the
        /// spec gives: 200k or 1M (or what the host set), an output limit within its upper
        /// limit, a reserve of at most 20,000.
        #[test]
        fn any_id_resolves_within_bounds(
            model in "[a-zA-Z0-9.\\-\\[\\]]{0,40}",
            beta: bool,
            experiment: bool,
            disable: bool,
            capped: bool,
            output in proptest::option::of(0u64..300_000),
        ) {
            let overrides = WindowOverrides {
                context_1m_beta: beta,
                sonnet_1m_experiment: experiment,
                disable_1m_context: disable,
                capped_output_slot: capped,
                max_output_tokens: output,
                ..WindowOverrides::default()
            };
            let w = claude_code_model_window(&model, &overrides);
            prop_assert!(w.context_window == 200_000 || (!disable && w.context_window == 1_000_000));
            prop_assert!(w.max_output_tokens <= w.output_upper_limit);
            prop_assert!(w.output_reserve() <= MAX_OUTPUT_TOKENS_FOR_SUMMARY);
            prop_assert!(!w.window_reason.is_empty() && !w.output_reason.is_empty());
            if model.to_lowercase().contains("[1m]") && !disable {
                prop_assert_eq!(w.context_window, 1_000_000);
            }
        }
    }
}
