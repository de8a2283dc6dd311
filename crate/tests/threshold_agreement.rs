//! `compactionThresholds` and a Session agree (issue 27): both come from
//! `session::session_thresholds`, and a Session's first auto-compaction, under every profile
//! and window, names the threshold that function gives — the auto-compact level, OpenCode's
//! overflow limit, or Aider's history budget (spec claude-code.md §9.1, codex.md §4.1,
//! strategies.md §6.1, §12.8).

use context_assembly::attachment::Verdict;
use context_assembly::compact::model_window::WindowOverrides;
use context_assembly::session::{session_thresholds, Session, SessionConfig, SessionOptions};
use context_assembly::{Profile, ProfileName};
use proptest::prelude::*;

/// A number as the engine's reasons print it: with or without thousands separators.
fn spellings(n: u64) -> [String; 2] {
    let plain = n.to_string();
    let mut grouped = String::new();
    for (i, digit) in plain.chars().enumerate() {
        if i > 0 && (plain.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    [plain, grouped]
}

/// Why a session of growing prompts first decided to compact on its own, if it did. The
/// prompts are sized by `effective` (the window the thresholds read, which a profile may
/// floor above the session's).
fn first_auto_compaction(
    name: ProfileName,
    window: u64,
    reserve: u64,
    effective: u64,
) -> Option<String> {
    let config = SessionConfig {
        context_window: window,
        output_reserve: reserve,
        ..SessionConfig::default()
    };
    let mut session = Session::new(SessionOptions {
        profile: Profile::preset(name),
        cwd: "/p".into(),
        home: None,
        config,
    })
    .unwrap();
    let words = (effective / 40) as usize;
    for turn in 0..60u64 {
        let prompt = format!(
            "turn {turn}: {}",
            "lorem ipsum dolor ".repeat(words / 3 + 1)
        );
        let result = session.submit(&prompt, 1_000 + turn * 1_000);
        if let Some(decision) = result
            .decisions
            .iter()
            .find(|d| d.subject == "auto-compaction" && d.verdict == Verdict::Needed)
        {
            return Some(decision.reason.clone());
        }
    }
    None
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(12))]

    #[test]
    fn a_session_compacts_at_the_threshold_compaction_thresholds_reports(
        window in 24_000u64..240_000,
        reserve in 2_000u64..20_000,
    ) {
        for name in ProfileName::ALL {
            let thresholds = session_thresholds(&Profile::preset(name), &WindowOverrides::default(), window, reserve);
            let level = thresholds.history_budget.unwrap_or(thresholds.autocompact);
            let reason = first_auto_compaction(name, window, reserve, thresholds.effective_window);
            let reason = reason.unwrap_or_else(|| panic!("{}: no auto-compaction at a window of {window}", name.as_str()));
            let [plain, grouped] = spellings(level);
            prop_assert!(
                reason.contains(&plain) || reason.contains(&grouped),
                "{} at a window of {window}, reserve {reserve}: the threshold {level} is not in {reason:?}",
                name.as_str()
            );
        }
    }
}
