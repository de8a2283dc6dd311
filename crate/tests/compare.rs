//! The profile comparison: the cache split adds up at every request of every profile, the
//! first request reads nothing from a cache, Codex's settings diffs send fewer context
//! tokens than the full context every turn, bad input is named, and a comparison replayed as
//! the scenario says is, step for step, the accounting of the scenario's own replay.

use std::fs;
use std::path::PathBuf;

use context_assembly::scenario::{
    account_trace, compare_profiles, compare_profiles_reporting, parse_scenario, run_scenario,
    CompareOptions, Scenario, UsageSource,
};
use context_assembly::ProfileName;

const ALL: [ProfileName; 3] = [
    ProfileName::ClaudeCode,
    ProfileName::Codex,
    ProfileName::Recommended,
];

fn scenario(file: &str) -> Scenario {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../web/scenarios")
        .join(file);
    parse_scenario(&fs::read_to_string(path).unwrap()).unwrap()
}

#[test]
fn the_split_adds_up_and_nothing_is_cached_before_it_was_sent() {
    for file in [
        "long-settings.json",
        "codex-context.json",
        "auto-compaction.json",
    ] {
        let comparison = compare_profiles(&scenario(file), &ALL, &[]).unwrap();
        assert_eq!(comparison.runs.len(), 3);
        for (name, run) in &comparison.runs {
            let first = &run.steps[0];
            assert_eq!(
                first.cost.cached,
                0,
                "{file} {}: the first request",
                name.as_str()
            );
            for step in &run.steps {
                assert_eq!(
                    step.cost.cached + step.cost.written + step.cost.uncached,
                    step.cost.sent,
                    "{file} {}",
                    name.as_str()
                );
            }
            let sent: u64 = run.steps.iter().map(|s| s.cost.sent).sum();
            assert_eq!(run.totals.sent, sent);
        }
    }
}

#[test]
fn claude_code_2_1_88_compactions_are_reported_with_what_stays_visible() {
    let comparison = compare_profiles(
        &scenario("auto-compaction.json"),
        &[ProfileName::ClaudeCode2188],
        &[],
    )
    .unwrap();
    let compacted: Vec<_> = comparison.runs[0]
        .1
        .steps
        .iter()
        .filter_map(|s| s.compacted.as_ref())
        .collect();
    assert_eq!(compacted.len(), 1);
    assert_eq!(compacted[0].policy.as_str(), "claude-code.full");
    assert!(compacted[0]
        .files
        .contains(&"/work/shop/src/api/orders.ts".to_string()));
}

/// Tokens of Codex's context items over every request.
fn context_tokens(scenario: &Scenario, resend: bool) -> u64 {
    let mut scenario = scenario.clone();
    scenario.profile = ProfileName::Codex;
    scenario.switches = vec![("codex.resendFullContext".into(), resend)];
    let trace = run_scenario(&scenario).unwrap();
    (0..trace.steps.len())
        .filter_map(|index| trace.request(index))
        .flat_map(|r| r.messages.into_iter())
        .flat_map(|m| m.content.clone())
        .filter(|b| b.source == "initial-context" || b.source == "settings-update")
        .map(|b| b.tokens)
        .sum()
}

#[test]
fn codex_diffs_send_less_context_than_the_full_context_every_turn() {
    let long = scenario("long-short-prompts.json");
    let diffs = context_tokens(&long, false);
    let full = context_tokens(&long, true);
    assert!(diffs * 10 < full, "diffs {diffs}, full {full}");
}

#[test]
fn a_profile_named_twice_is_refused() {
    let error = compare_profiles(
        &scenario("codex-context.json"),
        &[ProfileName::Codex, ProfileName::Codex],
        &[],
    )
    .unwrap_err();
    assert_eq!(error.to_string(), "profiles[1]: codex is listed twice");
}

#[test]
fn codex_counts_each_block_as_the_item_it_is_sent_as() {
    use context_assembly::session::{Session, SessionConfig, SessionOptions};
    use context_assembly::Profile;
    let options = SessionOptions {
        profile: Profile::codex(),
        cwd: "/r".into(),
        home: None,
        config: SessionConfig::default(),
    };
    let mut session = Session::new(options).unwrap();
    let turn = session.submit("hi", 1_000);
    let request = turn.request.unwrap();
    let prompt = request
        .messages
        .iter()
        .flat_map(|m| m.content.iter())
        .find(|b| b.source == "prompt")
        .unwrap();
    // {"type":"message","role":"user","content":[{"type":"input_text","text":"hi"}]}: 78 bytes.
    assert_eq!(prompt.tokens, 20);
    let by_channel = &request.tokens.by_channel;
    assert_eq!(
        by_channel.system + by_channel.tools + by_channel.user_context + by_channel.messages,
        request.tokens.total
    );
}

#[test]
fn a_comparison_replayed_as_the_scenario_says_is_the_replay_s_own_accounting() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../web/scenarios");
    let as_written = CompareOptions {
        usage: UsageSource::Scenario,
        ..CompareOptions::default()
    };
    for entry in fs::read_dir(&dir).unwrap() {
        let file = entry.unwrap().file_name().into_string().unwrap();
        if !file.ends_with(".json") || file == "index.json" || file.contains("schema") {
            continue;
        }
        let mut scenario = scenario(&file);
        for name in [ProfileName::ClaudeCode, ProfileName::Codex] {
            if scenario.profile != name {
                scenario.profile = name;
                scenario.switches.clear();
            }
            let trace = run_scenario(&scenario).unwrap();
            let own = account_trace(&scenario, &trace);
            let compared =
                compare_profiles_reporting(&scenario, &[name], &as_written, &mut |_| Ok(()))
                    .unwrap();
            assert_eq!(compared.runs[0].1, own, "{file} under {}", name.as_str());
            let compactions: Vec<usize> = (trace.steps.iter().enumerate())
                .filter(|(_, step)| step.turn.compaction.iter().any(|c| c.applied))
                .map(|(index, _)| index)
                .collect();
            let compared: Vec<usize> = (own.steps.iter())
                .filter(|step| step.compacted.is_some())
                .map(|step| step.step)
                .collect();
            assert_eq!(compared, compactions, "{file} under {}", name.as_str());
        }
    }
}
