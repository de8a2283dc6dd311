//! The cost table of issue 17: every long built-in scenario compared under `claude-code` and
//! `recommended` at equal prices (Anthropic's, both profiles meet the same cache), tokens
//! sent and cost, and the change from one to the other.
//!
//! ```text
//! cargo run --release -p context-assembly --features serde --example cost -- web/scenarios/*.json
//! ```
//!
//! With `--steps`, every request of both runs follows its scenario's row: where the
//! difference comes from; with `--blocks`, what each compaction left, by source. With
//! `--table`, one row per profile and compaction policy instead, summed over the scenarios
//! at equal (Anthropic) prices: cost, tokens sent, and where the scenarios' seeded facts
//! stand in the last request (the recall measure); with `--sessions` as well, one line per
//! scenario first (each variant's cost, tokens sent, facts kept and compactions).

use std::process::ExitCode;

use context_assembly::cache::PriceTable;
use context_assembly::scenario::{compare_profiles, parse_scenario, CompareStep, RecallCounts};
use context_assembly::ProfileName;

fn main() -> ExitCode {
    if std::env::args().any(|a| a == "--table") {
        return recall_table();
    }
    let pair = [ProfileName::ClaudeCode, ProfileName::Recommended];
    println!("| scenario | claude-code sent / cost | recommended sent / cost | recommended vs claude-code |");
    println!("|---|--:|--:|--:|");
    let mut worse = 0;
    let steps = std::env::args().any(|a| a == "--steps");
    let blocks = std::env::args().any(|a| a == "--blocks");
    for path in std::env::args().skip(1).filter(|a| !a.starts_with("--")) {
        let text = match std::fs::read_to_string(&path) {
            Ok(text) => text,
            Err(error) => {
                eprintln!("{path}: {error}");
                return ExitCode::FAILURE;
            }
        };
        // The presets as they ship: a scenario's own switches (cheap-stage's turn the
        // cache-aware variant on) are left out.
        let presets = parse_scenario(&text).map(|mut scenario| {
            scenario.switches.clear();
            scenario
        });
        let comparison = match presets.and_then(|s| compare_profiles(&s, &pair, &[])) {
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
        let name = std::path::Path::new(&path)
            .file_stem()
            .map_or(path.clone(), |s| s.to_string_lossy().into_owned());
        println!(
            "| {name} | {} / ${:.4} | {} / ${:.4} | {change:+.1} % |",
            a.sent,
            a.cost_micro_usd as f64 / 1e6,
            b.sent,
            b.cost_micro_usd as f64 / 1e6
        );
        if steps {
            print_steps(&theirs.steps, &ours.steps);
        }
        if blocks {
            print_compactions(&text);
        }
    }
    println!("\nrecommended above claude-code (cost or tokens) on {worse} scenario(s)");
    ExitCode::SUCCESS
}

fn print_steps(theirs: &[CompareStep], ours: &[CompareStep]) {
    let row = |s: Option<&CompareStep>| match s {
        Some(s) => format!(
            "{:>4} {:>8} c{:>8} w{:>7} u{:>7} ${:>8} {}",
            s.step,
            s.cost.sent,
            s.cost.cached,
            s.cost.written,
            s.cost.uncached,
            s.cost.cost_micro_usd,
            s.compacted.as_ref().map_or("", |c| c.policy.as_str())
        ),
        None => String::new(),
    };
    for i in 0..theirs.len().max(ours.len()) {
        println!("  {:<64} | {}", row(theirs.get(i)), row(ours.get(i)));
    }
}

/// After each compaction of each profile, the request's tokens by where its blocks came from.
fn print_compactions(text: &str) {
    for name in [ProfileName::ClaudeCode, ProfileName::Recommended] {
        let Ok(mut scenario) = parse_scenario(text) else {
            return;
        };
        scenario.profile = name;
        scenario.switches.clear();
        scenario.simulate_usage = true;
        let Ok(trace) = context_assembly::scenario::run_scenario(&scenario) else {
            return;
        };
        for (index, step) in trace.steps.iter().enumerate() {
            let applied: Vec<String> = step
                .turn
                .compaction
                .iter()
                .filter(|c| c.applied)
                .map(|c| {
                    format!(
                        "{} {}->{}",
                        c.policy.as_str(),
                        c.tokens_before,
                        c.tokens_after
                    )
                })
                .collect();
            let Some(request) = trace.request(index).filter(|_| !applied.is_empty()) else {
                continue;
            };
            let mut by_source: Vec<(String, u64, usize)> = Vec::new();
            for (role, block) in request.cache_order() {
                let key = format!("{}:{}", role.map_or("ctx", |r| r.as_str()), block.source);
                match by_source.iter_mut().find(|(k, _, _)| *k == key) {
                    Some(entry) => {
                        entry.1 += block.tokens;
                        entry.2 += 1;
                    }
                    None => by_source.push((key, block.tokens, 1)),
                }
            }
            by_source.sort_by_key(|entry| std::cmp::Reverse(entry.1));
            let parts: Vec<String> = by_source
                .iter()
                .take(8)
                .map(|(k, t, n)| format!("{k}={t}/{n}"))
                .collect();
            println!(
                "  {name} step {index}: {} | {}",
                applied.join(", "),
                parts.join("  ")
            );
        }
    }
}

/// A row of the `--table`: its label, the preset, and the switches changed from it.
type Variant = (&'static str, ProfileName, &'static [(&'static str, bool)]);

/// The variants of the `--table`: a preset with switches changed.
const VARIANTS: [Variant; 9] = [
    ("claude-code (full summary)", ProfileName::ClaudeCode, &[]),
    ("codex (local compaction)", ProfileName::Codex, &[]),
    (
        "world-state (Codex snapshot [C])",
        ProfileName::WorldState,
        &[],
    ),
    ("recommended", ProfileName::Recommended, &[]),
    (
        "recommended, cache-aware timing",
        ProfileName::Recommended,
        &[
            ("compaction.compactAtBlockingLimit", true),
            ("compaction.cheapStageFirst", true),
            ("compaction.pruneWhenCacheExpires", true),
        ],
    ),
    (
        "recommended without the Q20 fix",
        ProfileName::Recommended,
        &[("fileContext.alreadyReadRespectsRanges", false)],
    ),
    (
        "claude-code + prune first",
        ProfileName::ClaudeCode,
        &[("compaction.cheapStageFirst", true)],
    ),
    (
        "opencode-style (prune, then anchored summary)",
        ProfileName::OpenCode,
        &[],
    ),
    ("aider-style (history budget)", ProfileName::Aider, &[]),
];

#[derive(Default, Clone, Copy)]
struct Sums {
    cost: u64,
    sent: u64,
    counts: RecallCounts,
    facts: usize,
    above_claude_code: usize,
    kept_fewer: usize,
}

fn recall_table() -> ExitCode {
    let paths: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with("--"))
        .collect();
    let mut sums = [Sums::default(); VARIANTS.len()];
    for path in &paths {
        let Ok(text) = std::fs::read_to_string(path) else {
            eprintln!("{path}: cannot read");
            return ExitCode::FAILURE;
        };
        let mut runs = Vec::new();
        for (_, name, switches) in VARIANTS {
            let mut scenario = match parse_scenario(&text) {
                Ok(scenario) => scenario,
                Err(error) => {
                    eprintln!("{path}: {error}");
                    return ExitCode::FAILURE;
                }
            };
            scenario.profile = name;
            scenario.switches = switches.iter().map(|(k, v)| ((*k).into(), *v)).collect();
            let prices = [(name, PriceTable::claude_sonnet())];
            match compare_profiles(&scenario, &[name], &prices) {
                Ok(mut comparison) => runs.push(comparison.runs.remove(0).1),
                Err(error) => {
                    eprintln!("{path} ({}): {error}", name.as_str());
                    return ExitCode::FAILURE;
                }
            }
        }
        if std::env::args().any(|a| a == "--sessions") {
            print_session(path, &runs);
        }
        let most_kept = runs
            .iter()
            .map(|r| RecallCounts::of(&r.recall).kept())
            .max()
            .unwrap_or(0);
        for (sum, run) in sums.iter_mut().zip(&runs) {
            let counts = RecallCounts::of(&run.recall);
            sum.cost += run.totals.cost_micro_usd;
            sum.sent += run.totals.sent;
            sum.counts.verbatim += counts.verbatim;
            sum.counts.summary += counts.summary;
            sum.counts.referenced += counts.referenced;
            sum.counts.gone += counts.gone;
            sum.facts += run.recall.len();
            sum.above_claude_code +=
                usize::from(run.totals.cost_micro_usd > runs[0].totals.cost_micro_usd);
            sum.kept_fewer += usize::from(counts.kept() < most_kept);
        }
    }
    println!(
        "{} scenarios, Anthropic prices for every profile\n",
        paths.len()
    );
    println!("| profile and policy | cost | tokens sent | facts kept | verbatim / summary / referenced / gone | costlier than claude-code | kept fewer than the best |");
    println!("|---|--:|--:|--:|--:|--:|--:|");
    for ((label, _, _), sum) in VARIANTS.iter().zip(&sums) {
        let c = sum.counts;
        println!(
            "| {label} | ${:.2} | {} | {} of {} | {} / {} / {} / {} | {} | {} |",
            sum.cost as f64 / 1e6,
            sum.sent,
            c.kept(),
            sum.facts,
            c.verbatim,
            c.summary,
            c.referenced,
            c.gone,
            sum.above_claude_code,
            sum.kept_fewer
        );
    }
    ExitCode::SUCCESS
}

/// One line per scenario: each variant's cost, tokens sent, facts kept and compactions.
fn print_session(path: &str, runs: &[context_assembly::scenario::ProfileRun]) {
    let name = std::path::Path::new(path)
        .file_stem()
        .map_or(path.to_string(), |s| s.to_string_lossy().into_owned());
    let cells: Vec<String> = runs
        .iter()
        .map(|run| {
            let compactions: Vec<&str> = run
                .steps
                .iter()
                .filter_map(|s| s.compacted.as_ref().map(|c| c.policy.as_str()))
                .collect();
            format!(
                "{:>7.4} {:>8} k{} c{}",
                run.totals.cost_micro_usd as f64 / 1e6,
                run.totals.sent,
                RecallCounts::of(&run.recall).kept(),
                compactions.len()
            )
        })
        .collect();
    println!("{name:<20} {}", cells.join(" | "));
}
