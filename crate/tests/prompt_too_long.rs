//! Full compaction whose summary request the provider refuses as too long (spec
//! claude-code.md §9.3 item 4), through the `compact` step's `promptTooLong`.
#![cfg(feature = "serde")]

use context_assembly::compact::prompt_too_long::{PROMPT_TOO_LONG_ERROR, PTL_RETRY_MARKER};
use context_assembly::scenario::{parse_scenario, run_scenario};
use context_assembly::session::CompactionReport;
use context_assembly::vocabulary::Verdict;

/// Ten rounds: a prompt of 100 tokens naming its number, answered in a few words; then a
/// `/compact` refused as given, summarised by the extractive summariser.
fn compact_after(refusals: &str) -> (CompactionReport, String) {
    let mut steps = Vec::new();
    for i in 0..10 {
        let prompt = format!("PROMPT-{i} {}", "x".repeat(391));
        steps.push(serde_json::json!({"kind": "user", "prompt": prompt}));
        steps.push(
            serde_json::json!({"kind": "assistant", "blocks": [{"type": "text", "text": "ok"}]}),
        );
    }
    let refusals: serde_json::Value = serde_json::from_str(refusals).unwrap();
    steps.push(serde_json::json!({"kind": "compact", "promptTooLong": refusals}));
    let json = serde_json::json!({"profile": "claude-code-2.1.88", "config": {"autoCompact": false}, "steps": steps});
    let trace = run_scenario(&parse_scenario(&json.to_string()).unwrap()).unwrap();
    let last = trace.steps.len() - 1;
    let report = trace.steps[last].turn.compaction[0].clone();
    let request = serde_json::to_string(&trace.request(last)).unwrap();
    (report, request)
}

fn verdicts(report: &CompactionReport) -> Vec<Verdict> {
    report
        .decisions
        .iter()
        .filter(|d| d.subject.starts_with("summary request"))
        .map(|d| d.verdict)
        .collect()
}

#[test]
fn without_counts_each_retry_drops_a_fifth_of_the_rounds() {
    let (report, _) = compact_after("[]");
    let summary = report.summary.clone().unwrap();
    assert!(
        summary.contains("PROMPT-0"),
        "nothing refused: all is summarised"
    );
    // 11 rounds (the first prompt alone, nine answer-and-prompt pairs, the last answer):
    // 2 dropped, the first two prompts with them.
    let (report, _) = compact_after("[{}]");
    assert!(report.applied);
    assert_eq!(verdicts(&report), [Verdict::Dropped]);
    let dropped = &report
        .decisions
        .iter()
        .find(|d| d.verdict == Verdict::Dropped);
    let dropped = dropped.unwrap();
    assert_eq!(dropped.subject, "summary request: records 0 to 2");
    assert!(dropped
        .reason
        .contains("retry 1 of 3 leaves out the oldest 2 of 11 API rounds"));
    assert!(
        dropped.reason.contains(PTL_RETRY_MARKER),
        "an answer comes first"
    );
    assert!(
        report
            .reason
            .starts_with("20 records were replaced by a summary")
            && report
                .reason
                .contains("the oldest 3 were left out of the summary request"),
        "{}",
        report.reason
    );
    let summary = report.summary.unwrap();
    assert!(!summary.contains("PROMPT-1") && summary.contains("PROMPT-2"));
}

#[test]
fn the_reported_excess_decides_how_many_rounds_go() {
    // The first round is the first prompt (100 tokens, "ok" answers weigh 1): a 150-token
    // excess takes it and the next pair (101).
    let (report, _) = compact_after(r#"[{"tokens": 200150, "maximum": 200000}]"#);
    let dropped = report
        .decisions
        .iter()
        .find(|d| d.verdict == Verdict::Dropped)
        .unwrap();
    assert!(
        dropped
            .reason
            .contains("200150 tokens > 200000 maximum: 150 too many")
            && dropped
                .reason
                .contains("the oldest 2 of 11 API rounds (3 records, 201 tokens"),
        "{}",
        dropped.reason
    );
    assert!(report.applied);
}

#[test]
fn a_fourth_refusal_fails_the_compaction_and_changes_nothing() {
    let (report, request) = compact_after("[{}, {}, {}, {}]");
    assert!(!report.applied);
    assert_eq!(report.reason, PROMPT_TOO_LONG_ERROR);
    assert_eq!(
        verdicts(&report),
        [
            Verdict::Dropped,
            Verdict::Dropped,
            Verdict::Dropped,
            Verdict::Failed
        ]
    );
    // The conversation is whole: the first prompt is still sent.
    assert!(request.contains("PROMPT-0"));
    // Three refusals are retried, and the compaction goes through.
    let (report, request) = compact_after("[{}, {}, {}]");
    assert!(report.applied);
    assert!(!request.contains("PROMPT-0"));
}
