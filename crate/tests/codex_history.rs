//! Codex's truncation, history token estimate and local compaction (spec codex.md §3, §4.3–§4.6):
//! golden vectors from the spec and invariants over generated inputs.

use context_assembly::codex::compact::{
    build_compacted_history_within, collect_user_messages, insert_initial_context,
    is_summary_message, process_remote_compacted_history, remove_first_item, summary_text,
    InitialContextPlacement, SUMMARIZATION_PROMPT, SUMMARY_PREFIX,
};
use context_assembly::codex::history_tokens::{estimate_history_tokens, estimate_item_tokens};
use context_assembly::codex::items::{Item, Part, Role};
use context_assembly::codex::truncate::{
    approx_token_count, check_user_input, format_shell_output, formatted_truncate_text,
    truncate_for_record, truncate_middle, truncation_policy_for_model, TruncationPolicy,
};
use context_assembly::Error;
use proptest::prelude::*;

// ---------------------------------------------------------------- golden vectors

#[test]
fn both_modes_cut_the_same_bytes_and_count_differently() {
    let text = "The quick brown fox jumps over the lazy dog"; // 43 bytes
    let tokens = truncate_middle(text, TruncationPolicy::Tokens(5)); // 20 bytes
    assert_eq!(tokens.text, "The quick …6 tokens truncated…e lazy dog");
    let bytes = truncate_middle(text, TruncationPolicy::Bytes(20));
    assert_eq!(bytes.text, "The quick …23 chars truncated…e lazy dog");
    assert_eq!(tokens.removed_bytes, 23);
}

#[test]
fn token_mode_counts_bytes_not_characters() {
    // 10 × "ü" (2 bytes each) then ASCII: a token-mode marker estimates from bytes removed
    // against the budget, a bytes-mode marker counts the characters actually removed.
    let text = format!("{}{}", "ü".repeat(10), "abcdefghij"); // 30 bytes
    let tokens = truncate_middle(&text, TruncationPolicy::Tokens(3)); // 12 bytes
    assert_eq!(tokens.text, "üüü…5 tokens truncated…efghij");
    let bytes = truncate_middle(&text, TruncationPolicy::Bytes(12));
    assert_eq!(bytes.text, "üüü…11 chars truncated…efghij");
}

#[test]
fn record_time_pass_is_one_point_two_times_the_policy() {
    assert_eq!(
        TruncationPolicy::Tokens(10_000).for_record().byte_budget(),
        48_000
    );
    assert_eq!(
        TruncationPolicy::Bytes(10_000).for_record(),
        TruncationPolicy::Bytes(12_000)
    );
    // A first pass at the policy leaves the text under the second pass's budget (X15).
    let raw = "line of output\n".repeat(10_000);
    let policy = truncation_policy_for_model("gpt-5.5");
    let shell = format_shell_output(0, 3_210, &raw, policy);
    assert_eq!(truncate_for_record(&shell, policy), shell);
    assert!(shell.starts_with(
        "Exit code: 0\nWall time: 3.2 seconds\nTotal output lines: 10000\nOutput:\nline of output\n"
    ));
    assert!(shell.contains("…27500 tokens truncated…"));
}

#[test]
fn formatted_truncation_prefixes_the_line_count() {
    let text = "a\nb\nc\nd\ne\nf\n";
    assert_eq!(
        formatted_truncate_text(text, TruncationPolicy::Tokens(1)),
        "Total output lines: 6\n\na\n…2 tokens truncated…f\n"
    );
}

#[test]
fn oversized_input_is_rejected_with_the_limit_and_the_count() {
    assert!(check_user_input(&"x".repeat(1 << 20)).is_ok());
    let err = check_user_input(&"x".repeat(1_048_580)).unwrap_err();
    let Error::InvalidConfig { field, reason } = &err else {
        panic!("{err:?}");
    };
    assert_eq!(field, "prompt");
    assert!(
        reason.contains("1048580") && reason.contains("1048576"),
        "{reason}"
    );
}

#[test]
fn history_estimate_counts_json_and_base_instructions() {
    let items = [
        Item::text(Role::User, "hi"), // 79 bytes of JSON → 20 tokens
        Item::Compaction {
            encrypted_content: "e".repeat(2_000), // 1500 − 650 = 850 bytes → 213 tokens
        },
    ];
    assert_eq!(estimate_item_tokens(&items[0]), 20);
    assert_eq!(estimate_item_tokens(&items[1]), 213);
    assert_eq!(estimate_history_tokens("12345", &items), 2 + 20 + 213);
}

#[test]
fn texts_keep_the_spec_layout() {
    let paragraphs: Vec<&str> = SUMMARIZATION_PROMPT.trim_end().split("\n\n").collect();
    assert_eq!(paragraphs.len(), 3);
    let list: Vec<&str> = paragraphs[1].lines().collect();
    assert_eq!(list[0], "Include:");
    assert_eq!(list[1..].iter().filter(|l| l.starts_with("- ")).count(), 4);
    assert_eq!(list.len(), 5);
    assert!(!paragraphs[2].contains('\n'));
    assert!(SUMMARY_PREFIX.ends_with(':') && !SUMMARY_PREFIX.contains('\n'));
}

/// The mid-turn layout of §4.5 end to end: history → summary → rebuilt history → context.
#[test]
fn local_compaction_mid_turn_matches_the_reference_layout() {
    let history = vec![
        Item::text(
            Role::Developer,
            "<permissions instructions>old</permissions instructions>",
        ),
        Item::text(
            Role::User,
            "<environment_context>\n  <cwd>/r</cwd>\n</environment_context>",
        ),
        Item::text(Role::User, "function call limit push"),
        Item::FunctionCall {
            name: "shell".into(),
            arguments: "{}".into(),
            call_id: "c1".into(),
        },
        Item::FunctionCallOutput {
            call_id: "c1".into(),
            output: "ok".into(),
        },
        Item::text(Role::User, SUMMARIZATION_PROMPT),
        Item::text(Role::Assistant, "AUTO_SUMMARY"),
    ];
    let mut messages = collect_user_messages(&history);
    // The compaction prompt is recorded only in the request's clone: drop it as Codex does by
    // collecting from the live history, which never had it.
    messages.retain(|message| message != SUMMARIZATION_PROMPT);
    let summary = summary_text(&history);
    let edit = build_compacted_history_within(&messages, &summary, 20_000);
    let context = vec![
        Item::text(
            Role::Developer,
            "<permissions instructions>new</permissions instructions>",
        ),
        Item::text(
            Role::User,
            "<environment_context>\n  <cwd>/r</cwd>\n</environment_context>",
        ),
    ];
    let out = insert_initial_context(
        edit.items,
        context.clone(),
        InitialContextPlacement::BeforeLastUserMessage,
    );
    assert_eq!(out[0], context[0]);
    assert_eq!(out[1], context[1]);
    assert_eq!(out[2], Item::text(Role::User, "function call limit push"));
    assert_eq!(
        out[3],
        Item::text(Role::User, &format!("{SUMMARY_PREFIX}\nAUTO_SUMMARY"))
    );
    assert_eq!(out.len(), 4);
    // Pre-turn: nothing is injected; the summary is last.
    let edit = build_compacted_history_within(&messages, &summary, 20_000);
    let pre_turn = insert_initial_context(
        edit.items.clone(),
        context,
        InitialContextPlacement::DoNotInject,
    );
    assert_eq!(pre_turn, edit.items);
    // The next compaction does not carry this summary forward as a user message (X7).
    assert_eq!(
        collect_user_messages(&pre_turn),
        ["function call limit push"]
    );
}

#[test]
fn remote_output_keeps_users_assistants_and_compaction_items() {
    let output = vec![
        Item::text(Role::Developer, "dev"),
        Item::text(Role::User, "<environment_context>\n</environment_context>"),
        Item::text(Role::User, "USER_ONE"),
        Item::text(Role::Assistant, "reply"),
        Item::FunctionCall {
            name: "shell".into(),
            arguments: "{}".into(),
            call_id: "c".into(),
        },
        Item::Compaction {
            encrypted_content: "opaque".into(),
        },
    ];
    let edit = process_remote_compacted_history(output);
    assert_eq!(
        edit.items,
        [
            Item::text(Role::User, "USER_ONE"),
            Item::text(Role::Assistant, "reply"),
            Item::Compaction {
                encrypted_content: "opaque".into()
            },
        ]
    );
    assert_eq!(edit.decisions.len(), 3);
    assert!(edit
        .decisions
        .iter()
        .all(|d| d.verdict.as_str() == "excluded"));
}

#[test]
fn user_images_are_lost_in_local_compaction() {
    let message = Item::Message {
        role: Role::User,
        content: vec![
            Part::InputText {
                text: "see ".into(),
            },
            Part::InputImage {
                image_url: "data:image/png;base64,AAAA".into(),
            },
            Part::InputText {
                text: "this".into(),
            },
        ],
    };
    assert_eq!(collect_user_messages(&[message]), ["see this"]);
}

// ---------------------------------------------------------------- invariants

fn policy() -> impl Strategy<Value = TruncationPolicy> {
    prop_oneof![
        (0u64..64).prop_map(TruncationPolicy::Tokens),
        (0u64..256).prop_map(TruncationPolicy::Bytes),
    ]
}

fn item() -> impl Strategy<Value = Item> {
    let id = 0u8..6;
    prop_oneof![
        "[a-z ]{0,12}".prop_map(|text| Item::text(Role::User, &text)),
        "[a-z ]{0,12}".prop_map(|text| Item::text(Role::Assistant, &text)),
        id.clone().prop_map(|id| Item::FunctionCall {
            name: "shell".into(),
            arguments: "{}".into(),
            call_id: format!("c{id}"),
        }),
        id.prop_map(|id| Item::FunctionCallOutput {
            call_id: format!("c{id}"),
            output: "out".into(),
        }),
    ]
}

/// A well-formed history: each call id used by at most one call and one output.
fn paired_history() -> impl Strategy<Value = Vec<Item>> {
    prop::collection::vec(item(), 0..16).prop_map(|items| {
        let mut calls = std::collections::HashSet::new();
        let mut outputs = std::collections::HashSet::new();
        let mut kept: Vec<Item> = items
            .into_iter()
            .filter(|item| match item {
                Item::FunctionCall { call_id, .. } => calls.insert(call_id.clone()),
                Item::FunctionCallOutput { call_id, .. } => outputs.insert(call_id.clone()),
                _ => true,
            })
            .collect();
        kept.retain(|item| match item {
            Item::FunctionCall { call_id, .. } => outputs.contains(call_id),
            Item::FunctionCallOutput { call_id, .. } => calls.contains(call_id),
            _ => true,
        });
        kept
    })
}

fn call_ids(items: &[Item]) -> (Vec<String>, Vec<String>) {
    let mut calls = Vec::new();
    let mut outputs = Vec::new();
    for item in items {
        match item {
            Item::FunctionCall { call_id, .. } => calls.push(call_id.clone()),
            Item::FunctionCallOutput { call_id, .. } => outputs.push(call_id.clone()),
            _ => {}
        }
    }
    calls.sort();
    outputs.sort();
    (calls, outputs)
}

proptest! {
    #[test]
    fn truncation_stays_within_budget_plus_marker(text in "\\PC{0,80}", policy in policy()) {
        let cut = truncate_middle(&text, policy);
        let budget = usize::try_from(policy.byte_budget()).unwrap();
        match cut.marker_count {
            None => {
                prop_assert_eq!(&cut.text, &text);
                prop_assert!(text.is_empty() || text.len() <= budget);
            }
            Some(count) => {
                let unit = match policy {
                    TruncationPolicy::Tokens(_) => "tokens",
                    TruncationPolicy::Bytes(_) => "chars",
                };
                let marker = format!("…{count} {unit} truncated…");
                let at = cut.text.find(&marker).unwrap();
                let (head, tail) = (&cut.text[..at], &cut.text[at + marker.len()..]);
                prop_assert!(head.len() + tail.len() <= budget);
                prop_assert!(text.starts_with(head));
                prop_assert!(text.ends_with(tail));
                prop_assert_eq!(head.len() + tail.len() + cut.removed_bytes as usize, text.len());
                prop_assert_eq!(
                    cut.removed_chars as usize + head.chars().count() + tail.chars().count(),
                    text.chars().count()
                );
                if matches!(policy, TruncationPolicy::Tokens(_)) {
                    prop_assert_eq!(count, (text.len() as u64 - budget as u64).div_ceil(4));
                } else {
                    prop_assert_eq!(count, cut.removed_chars);
                }
            }
        }
    }

    #[test]
    fn compacted_history_keeps_newest_messages_within_budget(
        messages in prop::collection::vec("[a-z]{0,60}", 0..12),
        budget in 0u64..60,
    ) {
        let edit = build_compacted_history_within(&messages, "S", budget);
        let (summary, kept) = edit.items.split_last().unwrap();
        prop_assert_eq!(summary.message_text(), Some(String::from("S")));
        prop_assert_eq!(edit.decisions.len(), messages.len() + 1);
        let kept: Vec<String> = kept.iter().map(|item| item.message_text().unwrap()).collect();
        // The kept messages are a suffix of the input; only the oldest kept one may be cut.
        let first = messages.len() - kept.len();
        for (offset, text) in kept.iter().enumerate() {
            let original = &messages[first + offset];
            if offset == 0 && text != original {
                prop_assert!(text.contains("tokens truncated"));
            } else {
                prop_assert_eq!(text, original);
            }
        }
        let whole: u64 = kept
            .iter()
            .zip(&messages[first..])
            .filter(|(text, original)| text == original)
            .map(|(text, _)| approx_token_count(text))
            .sum();
        prop_assert!(whole <= budget);
        for item in &edit.items {
            prop_assert_eq!(item.role(), Some(Role::User));
        }
    }

    #[test]
    fn removing_the_first_item_never_orphans_a_call(history in paired_history()) {
        let mut items = history.clone();
        let decisions = remove_first_item(&mut items);
        prop_assert_eq!(decisions.len(), history.len() - items.len());
        let (calls, outputs) = call_ids(&items);
        prop_assert_eq!(calls, outputs);
    }

    #[test]
    fn summaries_are_recognised_and_never_collected(text in "\\PC{0,40}") {
        let summary = format!("{SUMMARY_PREFIX}\n{text}");
        prop_assert!(is_summary_message(&summary));
        let items = [Item::text(Role::User, &summary)];
        prop_assert!(collect_user_messages(&items).is_empty());
    }
}

#[test]
fn a_thinking_block_counts_as_an_encrypted_reasoning_item() {
    use context_assembly::request::BlockType;
    use context_assembly::scenario::{parse_scenario, run_scenario};
    // codex.md §3.5: a reasoning item counts `len × 3/4 − 650` bytes of its encrypted
    // content, the reasoning taken as its text in base64: 3,000 bytes of reasoning count
    // (4,000 × 3/4 − 650) / 4 = 588 tokens, a short one none.
    let json = format!(
        r#"{{"profile": "codex", "steps": [
            {{"kind": "user", "prompt": "one"}},
            {{"kind": "assistant", "blocks": [{{"type": "thinking", "thinking": "{long}"}},
                                             {{"type": "thinking", "thinking": "brief"}},
                                             {{"type": "text", "text": "done"}}]}},
            {{"kind": "user", "prompt": "two"}}]}}"#,
        long = "r".repeat(3_000)
    );
    let trace = run_scenario(&parse_scenario(&json).unwrap()).unwrap();
    let request = trace.request(2).unwrap();
    let thinking: Vec<u64> = (request.messages.iter())
        .flat_map(|message| &message.content)
        .filter(|block| block.block_type == BlockType::Thinking)
        .map(|block| block.tokens)
        .collect();
    assert_eq!(thinking, [588, 0]);
}
