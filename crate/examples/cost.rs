//! The cost table of issue 17: every long built-in scenario compared under `claude-code` and
//! `recommended` at equal prices (Anthropic's, both profiles meet the same cache), tokens
//! sent and cost, and the change from one to the other.
//!
//! ```text
//! cargo run --release -p context-assembly --features serde --example cost -- web/scenarios/*.json
//! ```

use std::process::ExitCode;

use context_assembly::scenario::{compare_profiles, parse_scenario};
use context_assembly::ProfileName;

fn main() -> ExitCode {
    let pair = [ProfileName::ClaudeCode, ProfileName::Recommended];
    println!("| scenario | claude-code sent / cost | recommended sent / cost | recommended vs claude-code |");
    println!("|---|--:|--:|--:|");
    let mut worse = 0;
    for path in std::env::args().skip(1) {
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) => {
                eprintln!("{path}: {error}");
                return ExitCode::FAILURE;
            }
        };
        let comparison = match parse_scenario(&text).and_then(|s| compare_profiles(&s, &pair, &[])) {
            Ok(comparison) => comparison,
            Err(error) => {
                eprintln!("{path}: {error}");
                return ExitCode::FAILURE;
            }
        };
        let [(_, theirs), (_, ours)] = &comparison.runs[..] else {
            unreachable!("two profiles asked, two runs")
        };
        let (a, b) = (&theirs.totals, &ours.totals);
        let change = (b.cost_micro_usd as f64 / a.cost_micro_usd.max(1) as f64 - 1.0) * 100.0;
        if b.cost_micro_usd > a.cost_micro_usd || b.sent > a.sent {
            worse += 1;
        }
        let name = std::path::Path::new(&path).file_stem().map_or(path.clone(), |s| s.to_string_lossy().into_owned());
        println!(
            "| {name} | {} / ${:.4} | {} / ${:.4} | {change:+.1} % |",
            a.sent,
            a.cost_micro_usd as f64 / 1e6,
            b.sent,
            b.cost_micro_usd as f64 / 1e6
        );
    }
    println!("\nrecommended above claude-code (cost or tokens) on {worse} scenario(s)");
    ExitCode::SUCCESS
}
