//! Session-memory compaction's kept tail (claude-code.md §9.8), the partial compaction split
//! (§9.9) and Cline's duplicate-read removal (strategies.md §3): the invariants over
//! generated transcripts.

use std::collections::{BTreeMap, BTreeSet};

use context_assembly::attachment::Attachment;
use context_assembly::attachment::AttachmentKind;
use context_assembly::compact::kept_tail::{
    estimate_message_tokens, kept_tail_start, preserve_api_invariants, KeptTailConfig,
};
use context_assembly::compact::partial::{split_at_pivot, PartialDirection};
use context_assembly::compact::policies::dedupe_reads::{self, notice, DedupeReadsParams};
use context_assembly::session::FILE_UNCHANGED_STUB;
use context_assembly::tokens::TokenMethod;
use context_assembly::transcript::{
    AssistantBlock, Message, Record, ToolResultBlock, ToolUse, Transcript,
};
use context_assembly::vocabulary::Verdict;
use context_assembly::Error;
use proptest::prelude::*;

const METHOD: TokenMethod = TokenMethod::ClaudeCode;

/// What a generated tool call returns.
#[derive(Debug, Clone)]
enum Outcome {
    Content,
    Error,
    Unchanged,
}

/// One step of a generated session.
#[derive(Debug, Clone)]
enum Step {
    Prompt(usize),
    /// A response: thinking, a text of that many chars, then calls (Read of file k, or Bash)
    /// with the size of their output; their results come in one record after the response.
    Response {
        thinking: bool,
        text: Option<usize>,
        calls: Vec<(Option<u8>, usize, Outcome)>,
    },
    /// An @-mention of file k.
    Mention(u8, usize),
}

fn step() -> impl Strategy<Value = Step> {
    let outcome = prop_oneof![
        6 => Just(Outcome::Content),
        1 => Just(Outcome::Error),
        1 => Just(Outcome::Unchanged),
    ];
    let call = (proptest::option::of(0u8..4), 0usize..600, outcome);
    prop_oneof![
        2 => (0usize..300).prop_map(Step::Prompt),
        4 => (
            any::<bool>(),
            proptest::option::of(0usize..300),
            proptest::collection::vec(call, 0..4),
        )
            .prop_map(|(thinking, text, calls)| Step::Response { thinking, text, calls }),
        1 => (0u8..4, 0usize..600).prop_map(|(k, n)| Step::Mention(k, n)),
    ]
}

fn path(k: u8) -> String {
    format!("/w/f{k}.rs")
}

/// Builds the transcript as a session would, with unique contents so copies can be told apart.
fn build(steps: &[Step]) -> Transcript {
    let mut t = Transcript::default();
    let mut serial = 0u64;
    let mut filler = |n: usize| {
        serial += 1;
        format!("#{serial} {}", "word ".repeat(n / 5))
    };
    for step in steps {
        match step {
            Step::Prompt(n) => {
                t.push(Record::Prompt { text: filler(*n) });
            }
            Step::Mention(k, n) => {
                let text = filler(*n);
                t.push(Record::Attachment(Attachment::new(
                    AttachmentKind::File,
                    Some(&path(*k)),
                    text,
                    METHOD,
                )));
            }
            Step::Response {
                thinking,
                text,
                calls,
            } => {
                let response = t.next_response();
                if *thinking {
                    let thinking = filler(40);
                    t.push(Record::Assistant {
                        response,
                        block: AssistantBlock::Thinking { thinking },
                    });
                }
                if let Some(n) = text {
                    let block = AssistantBlock::text(&filler(*n));
                    t.push(Record::Assistant { response, block });
                }
                let mut results = Vec::new();
                for (file, n, outcome) in calls {
                    let id = format!("toolu_{}", t.len());
                    let (name, input) = match file {
                        Some(k) => ("Read", format!("{{\"file_path\":\"{}\"}}", path(*k))),
                        None => ("Bash", String::from("{\"command\":\"ls\"}")),
                    };
                    let call = ToolUse {
                        id: id.clone(),
                        name: name.into(),
                        input,
                    };
                    t.push(Record::Assistant {
                        response,
                        block: AssistantBlock::ToolUse(call),
                    });
                    let content = match outcome {
                        Outcome::Content => filler(*n),
                        Outcome::Error => format!("no such file {}", filler(0)),
                        Outcome::Unchanged => FILE_UNCHANGED_STUB.into(),
                    };
                    results.push(ToolResultBlock {
                        tool_use_id: id,
                        content,
                        is_error: matches!(outcome, Outcome::Error),
                    });
                }
                if !results.is_empty() {
                    t.push(Record::ToolResults { results });
                }
            }
        }
    }
    t
}

fn call_ids(records: &[Message]) -> BTreeSet<&str> {
    records
        .iter()
        .filter_map(|m| match &m.record {
            Record::Assistant {
                block: AssistantBlock::ToolUse(call),
                ..
            } => Some(call.id.as_str()),
            _ => None,
        })
        .collect()
}

fn responses(records: &[Message]) -> BTreeSet<u64> {
    records
        .iter()
        .filter_map(|m| match &m.record {
            Record::Assistant { response, .. } => Some(*response),
            _ => None,
        })
        .collect()
}

/// No tool result after `split` answers a call before it, and no response has records on
/// both sides.
fn split_keeps_pairs_and_responses(records: &[Message], split: usize) -> Result<(), String> {
    let (earlier, later) = records.split_at(split);
    let earlier_calls = call_ids(earlier);
    for message in later {
        if let Record::ToolResults { results } = &message.record {
            for result in results {
                if earlier_calls.contains(result.tool_use_id.as_str()) {
                    return Err(format!("result {} cut from its call", result.tool_use_id));
                }
            }
        }
    }
    let shared: Vec<_> = responses(earlier)
        .intersection(&responses(later))
        .copied()
        .collect();
    if shared.is_empty() {
        Ok(())
    } else {
        Err(format!("responses {shared:?} split at {split}"))
    }
}

fn has_text(message: &Message) -> bool {
    match &message.record {
        Record::Prompt { text } => !text.is_empty(),
        Record::Assistant { block, .. } => matches!(block, AssistantBlock::Text { .. }),
        _ => false,
    }
}

// ---- examples -------------------------------------------------------------------------------

#[test]
fn default_tail_keeps_the_last_40k_tokens_at_most_before_the_invariants() {
    let steps: Vec<Step> = (0..30)
        .map(|_| Step::Response {
            thinking: false,
            text: None,
            calls: vec![(None, 24_000, Outcome::Content)],
        })
        .collect();
    let t = build(&steps);
    let tail = kept_tail_start(t.messages(), None, &KeptTailConfig::default(), METHOD);
    // Each output is about 6,000 tokens, 8,000 with §6.4's ×4/3 padding: five reach 40,000;
    // the first of them pulls its call.
    let results = t.messages()[tail.start..]
        .iter()
        .filter(|m| matches!(m.record, Record::ToolResults { .. }))
        .count();
    assert_eq!(results, 5);
    assert!(matches!(
        t.messages()[tail.start].record,
        Record::Assistant { .. }
    ));
    assert!(tail.tokens >= 40_000);
    assert!(tail.decisions[0]
        .reason
        .contains("reach the maximum of 40000"));
}

#[test]
fn an_unknown_pivot_names_the_field_and_the_ids_allowed() {
    let t = build(&[Step::Prompt(5), Step::Prompt(5)]);
    let err = split_at_pivot(t.messages(), 9, PartialDirection::UpTo);
    assert!(matches!(
        &err,
        Err(Error::InvalidConfig { field, reason }) if field == "pivot" && reason.contains("ids 0 to 1")
    ));
}

#[test]
fn dedupe_keeps_the_latest_read_and_needs_truncation_below_30_percent() {
    let steps = [
        Step::Response {
            thinking: false,
            text: None,
            calls: vec![(Some(1), 100, Outcome::Content)],
        },
        Step::Prompt(1_000),
        Step::Response {
            thinking: false,
            text: None,
            calls: vec![(Some(1), 100, Outcome::Content)],
        },
    ];
    let t = build(&steps);
    let dedupe = dedupe_reads::apply(t.messages(), &DedupeReadsParams::default(), METHOD);
    let Record::ToolResults { results } = &dedupe.outcome.records[1].record else {
        panic!("record 1 holds the first result");
    };
    assert_eq!(results[0].content, notice("/w/f1.rs"));
    assert_eq!(dedupe.outcome.records[4], t.messages()[4]);
    assert!(dedupe.need_to_truncate);
    let last = dedupe.outcome.decisions.last().cloned();
    assert_eq!(
        last.map(|d| (d.subject, d.verdict)),
        Some(("truncation".to_string(), Verdict::Needed))
    );
}

/// A session-memory compaction of three 10,000-token prompts, each answered "ok", under
/// `claude-code` with the Q45 switch as given.
#[cfg(feature = "serde")]
fn session_memory_compaction(ignores_string_content: bool) -> (bool, usize, String) {
    let prompt = "p".repeat(40_000);
    let mut steps = Vec::new();
    for _ in 0..3 {
        steps.push(serde_json::json!({"kind": "user", "prompt": prompt}));
        steps.push(
            serde_json::json!({"kind": "assistant", "blocks": [{"type": "text", "text": "ok"}]}),
        );
    }
    steps.push(serde_json::json!({"kind": "compact", "policy": "claude-code.session_memory"}));
    let json = serde_json::json!({
        "profile": "claude-code",
        "switches": {"compaction.keptTailIgnoresStringContent": ignores_string_content},
        "config": {"autoCompact": false},
        "steps": steps,
    });
    let scenario = context_assembly::scenario::parse_scenario(&json.to_string()).unwrap();
    let trace = context_assembly::scenario::run_scenario(&scenario).unwrap();
    let report = &trace.steps.last().unwrap().turn.compaction[0];
    (report.applied, report.kept_records, report.reason.clone())
}

#[cfg(feature = "serde")]
#[test]
fn q45_on_claude_code_s_tail_weighs_string_prompts_as_nothing() {
    // The original: the prompts count 0, the answers 2 each (ceil(1 × 4/3)); the tail never
    // reaches 10,000 tokens, grows to the first record and leaves nothing to summarise.
    let (applied, _, reason) = session_memory_compaction(true);
    assert!(!applied);
    assert!(reason.contains("nothing to summarise"), "{reason}");
    // Fixed: each prompt weighs 13,334 (10,000 × 4/3, rounded up); the tail stops at the
    // fifth record with text, 26,674 tokens: the first prompt is summarised, five kept.
    let (applied, kept, _) = session_memory_compaction(false);
    assert!(applied);
    assert_eq!(kept, 5);
}

// ---- invariants -----------------------------------------------------------------------------

fn config() -> impl Strategy<Value = KeptTailConfig> {
    (0u64..400, 0usize..7, 0u64..1_500, any::<bool>()).prop_map(
        |(min, texts, max, ignores_string_content)| KeptTailConfig {
            min_tokens: min,
            min_text_block_messages: texts,
            max_tokens: max,
            ignores_string_content,
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn kept_tail_keeps_pairs_and_responses_and_obeys_the_stop_rule(
        steps in proptest::collection::vec(step(), 0..30),
        config in config(),
        summarised in proptest::option::of(0u64..80),
    ) {
        let t = build(&steps);
        let records = t.messages();
        let tail = kept_tail_start(records, summarised, &config, METHOD);
        prop_assert!(tail.start <= records.len());
        prop_assert!(!tail.decisions.is_empty());
        split_keeps_pairs_and_responses(records, tail.start).map_err(TestCaseError::fail)?;
        let kept = &records[tail.start..];
        prop_assert_eq!(tail.tokens, kept.iter().map(|m| estimate_message_tokens(m, METHOD, config.ignores_string_content)).sum::<u64>());
        prop_assert_eq!(tail.text_messages, kept.iter().filter(|m| has_text(m)).count());
        let stopped = tail.tokens >= config.max_tokens
            || (tail.tokens >= config.min_tokens
                && tail.text_messages >= config.min_text_block_messages)
            || tail.start == 0;
        prop_assert!(stopped, "{:?}", tail);
        // Everything after the last summarised record is kept.
        if let Some(at) = summarised.and_then(|id| records.iter().position(|m| m.id == id)) {
            prop_assert!(tail.start <= at + 1);
        }
        // The invariants are a fixed point.
        prop_assert_eq!(preserve_api_invariants(records, tail.start), tail.start);
    }

    #[test]
    fn partial_split_conserves_records_and_keeps_pairs(
        steps in proptest::collection::vec(step(), 1..30),
        pick in any::<prop::sample::Index>(),
        up_to in any::<bool>(),
    ) {
        let t = build(&steps);
        let records = t.messages();
        prop_assume!(!records.is_empty());
        let pivot = &records[pick.index(records.len())];
        let direction = if up_to { PartialDirection::UpTo } else { PartialDirection::From };
        let split = split_at_pivot(records, pivot.id, direction)
            .map_err(|e| TestCaseError::fail(e.to_string()))?;
        let (earlier, later) = match direction {
            PartialDirection::UpTo => (&split.summarised, &split.kept),
            PartialDirection::From => (&split.kept, &split.summarised),
        };
        let joined: Vec<Message> = earlier.iter().chain(later.iter()).cloned().collect();
        prop_assert_eq!(&joined[..], records);
        // The chosen record stays in the later part.
        prop_assert!(later.iter().any(|m| m.id == pivot.id));
        split_keeps_pairs_and_responses(records, earlier.len()).map_err(TestCaseError::fail)?;
        prop_assert!(split.decisions.iter().all(|d| d.verdict != Verdict::Dropped));
    }

    #[test]
    fn dedupe_keeps_exactly_the_latest_copy_of_each_file(
        steps in proptest::collection::vec(step(), 0..30),
        gate in 0u64..101,
    ) {
        let t = build(&steps);
        let records = t.messages();
        let params = DedupeReadsParams { min_savings_fraction_percent: gate };
        let dedupe = dedupe_reads::apply(records, &params, METHOD);
        let after = &dedupe.outcome.records;
        prop_assert_eq!(after.len(), records.len());
        // Copies of each file, oldest first: (record, result position).
        let read_paths: BTreeMap<&str, String> = records.iter().filter_map(|m| match &m.record {
            Record::Assistant { block: AssistantBlock::ToolUse(call), .. } if call.name == "Read" => {
                let path = call.input.trim_start_matches("{\"file_path\":\"").trim_end_matches("\"}");
                Some((call.id.as_str(), path.to_string()))
            }
            _ => None,
        }).collect();
        let mut copies: BTreeMap<String, Vec<(usize, Option<usize>)>> = BTreeMap::new();
        for (index, (before, now)) in records.iter().zip(after).enumerate() {
            prop_assert_eq!(before.id, now.id);
            match (&before.record, &now.record) {
                (Record::ToolResults { results: old }, Record::ToolResults { results: new }) => {
                    prop_assert_eq!(old.len(), new.len());
                    for (position, (o, n)) in old.iter().zip(new).enumerate() {
                        prop_assert_eq!(&o.tool_use_id, &n.tool_use_id);
                        prop_assert_eq!(o.is_error, n.is_error);
                        let read = read_paths.get(o.tool_use_id.as_str());
                        match read {
                            Some(path) if !o.is_error && o.content != FILE_UNCHANGED_STUB => {
                                copies.entry(path.clone()).or_default().push((index, Some(position)));
                            }
                            _ => prop_assert_eq!(&o.content, &n.content),
                        }
                    }
                }
                (Record::Attachment(old), Record::Attachment(_)) => {
                    if let Some(path) = &old.path {
                        copies.entry(path.clone()).or_default().push((index, None));
                    }
                }
                (old, new) => prop_assert_eq!(old, new),
            }
        }
        let content = |records: &[Message], (index, position): (usize, Option<usize>)| {
            match (&records[index].record, position) {
                (Record::ToolResults { results }, Some(p)) => results[p].content.clone(),
                (Record::Attachment(a), None) => a.text.clone(),
                _ => String::new(),
            }
        };
        let mut replaced = 0;
        for (path, places) in &copies {
            let (latest, earlier) = places.split_last().expect("a file has a copy");
            prop_assert_eq!(content(after, *latest), content(records, *latest));
            for place in earlier {
                prop_assert_eq!(content(after, *place), notice(path));
                replaced += 1;
            }
        }
        let decisions = &dedupe.outcome.decisions;
        prop_assert_eq!(
            decisions.iter().filter(|d| d.verdict == Verdict::Replaced).count(),
            replaced
        );
        let last = decisions.last().map(|d| d.subject.as_str());
        prop_assert_eq!(last, Some(dedupe_reads::TRUNCATION_SUBJECT));
        prop_assert_eq!(
            dedupe.need_to_truncate,
            u128::from(dedupe.chars_saved) * 100 < u128::from(dedupe.chars_before) * u128::from(gate)
        );
        prop_assert!(dedupe.saved_percent <= 100);
        // Applying it again changes nothing.
        let again = dedupe_reads::apply(after, &params, METHOD);
        prop_assert_eq!(&again.outcome.records, after);
    }
}
