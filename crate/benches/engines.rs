//! Native figures for the three pure engines (`cargo bench -p context-assembly --bench
//! engines`). Prints medians; asserts nothing. The wasm figures against the JS references
//! come from `tests/bench/run.mjs`; both run under `make bench`.

use std::hint::black_box;
use std::time::Instant;

use context_assembly::diff::{diff_snippet, SnippetRules};
use context_assembly::mention::{extract_mentions, MentionRules};
use context_assembly::scenario::{compare_profiles, parse_scenario, run_scenario, Scenario};
use context_assembly::search::{search_paths, Candidate};
use context_assembly::session::{
    CompactionOptions, Policy, ResponseBlock, Session, SessionConfig, SessionOptions, ToolCall,
    ToolInvocation,
};
use context_assembly::tokens::{estimate_tokens, TokenMethod};
use context_assembly::{Profile, ProfileName};

/// A linear congruential generator: the same inputs on every run.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

fn median_ms(runs: usize, mut work: impl FnMut()) -> f64 {
    work();
    let mut samples: Vec<f64> = (0..runs)
        .map(|_| {
            let start = Instant::now();
            work();
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn code_lines(random: &mut Lcg, count: usize, tag: &str) -> Vec<String> {
    (0..count)
        .map(|i| {
            format!(
                "    let {tag}{i} = compute({}, \"{tag}-{i}\"); // step {i}",
                random.below(1_000_000)
            )
        })
        .collect()
}

fn edited(lines: &[String], random: &mut Lcg, edits: usize) -> Vec<String> {
    let mut after = lines.to_vec();
    for e in 0..edits {
        let at = random.below(after.len() as u64) as usize;
        after[at] = format!("{} // edited {e}", after[at]);
    }
    after
}

fn bench_diff(random: &mut Lcg) {
    println!(
        "\n## diff_snippet (claude-code), native\n\n| case | ms | work units |\n|---|--:|--:|"
    );
    let small = code_lines(random, 2000, "a");
    let large = code_lines(random, 20000, "b");
    let cases = [
        (
            "2,000 lines, 10 edits",
            small.join("\n"),
            edited(&small, random, 10).join("\n"),
        ),
        (
            "20,000 lines, 50 edits",
            large.join("\n"),
            edited(&large, random, 50).join("\n"),
        ),
        (
            "20,000 lines, identical",
            large.join("\n"),
            large.join("\n"),
        ),
        (
            "two unrelated 5,000-line files",
            code_lines(random, 5000, "c").join("\n"),
            code_lines(random, 5000, "d").join("\n"),
        ),
    ];
    let rules = SnippetRules::claude_code();
    // SKIP_SLOW leaves out the unrelated files, whose budget-bound search dominates a profile.
    let skip_slow = std::env::var_os("SKIP_SLOW").is_some();
    for (name, before, after) in cases
        .iter()
        .filter(|c| !(skip_slow && c.0.contains("unrelated")))
    {
        let ms = median_ms(5, || {
            black_box(diff_snippet(black_box(before), black_box(after), &rules));
        });
        let work = diff_snippet(before, after, &rules).work;
        println!("| {name} | {ms:.2} | {work} |");
    }
}

fn bench_tokens(random: &mut Lcg) {
    let pieces = [
        "fn handle(input: &str) -> Result<usize, Error> { Ok(input.len()) }\n",
        "The quick brown fox jumps over the lazy dog, and then writes a paragraph.\n",
        "{\"id\": 12345, \"name\": \"item\", \"tags\": [\"a\", \"b\"], \"ok\": true}\n",
        "日本語の文章と中文的句子が混ざったテキストです。\n",
        "commit 9fceb02d0ae598e95dc970b74767f19372d61af8 2026-11-29T15:29:33Z\n",
    ];
    let mut text = String::new();
    while text.len() < 1_000_000 {
        text.push_str(pieces[random.below(pieces.len() as u64) as usize]);
    }
    println!(
        "\n## estimate_tokens, native, {} bytes\n\n| method | ms | MB/s |\n|---|--:|--:|",
        text.len()
    );
    for method in TokenMethod::ALL {
        let ms = median_ms(20, || {
            black_box(estimate_tokens(black_box(&text), method, None));
        });
        println!(
            "| {} | {ms:.2} | {:.0} |",
            method.as_str(),
            text.len() as f64 / 1e3 / ms
        );
    }
}

fn bench_mentions(random: &mut Lcg) {
    let words = [
        "please",
        "look",
        "at",
        "the",
        "function",
        "and",
        "fix",
        "it",
        "user@x.com",
        "(@not)",
    ];
    let mentions = [
        "@src/app.ts",
        "@\"docs/my notes.md\"",
        "@file.txt#L10-20",
        "@server:res/a.",
        "@agent-reviewer",
        "@café.txt",
    ];
    let mut text = String::new();
    while text.len() < 100_000 {
        if random.below(10) == 0 {
            text.push_str(mentions[random.below(mentions.len() as u64) as usize]);
            text.push_str(&random.below(500).to_string());
        } else {
            text.push_str(words[random.below(words.len() as u64) as usize]);
        }
        text.push(' ');
    }
    println!(
        "\n## extract_mentions, native, {} bytes\n\n| rules | ms |\n|---|--:|",
        text.len()
    );
    for (name, rules) in [
        ("claude-code", MentionRules::claude_code()),
        ("codex", MentionRules::codex()),
        ("recommended", MentionRules::recommended()),
    ] {
        let ms = median_ms(20, || {
            black_box(extract_mentions(black_box(&text), &rules));
        });
        println!("| {name} | {ms:.3} |");
    }
}

/// `submit` with `tracked` watched files of `lines` × 50 bytes, `changed` of them edited outside the
/// agent before each timed call (the agent's own write re-arms them first, untimed).
fn submit_ms(tracked: usize, changed: usize, lines: usize, profile: Profile) -> f64 {
    let file: String = (0..lines)
        .map(|i| format!("{:.<49}\n", format!("line {i:>5} of a tracked file")))
        .collect();
    let edited = file.replacen("line  2000", "LINE  2000", 1);
    let mut session = Session::new(SessionOptions {
        profile,
        cwd: "/p".into(),
        home: None,
        config: SessionConfig::default(),
    })
    .expect("valid options");
    for i in 0..tracked {
        session
            .write(&format!("src/f{i}.txt"), &file, 1_000)
            .expect("write");
    }
    let mut now = 1_000;
    let mut samples: Vec<f64> = (0..41)
        .map(|_| {
            for i in 0..changed {
                now += 10;
                session
                    .write(&format!("src/f{i}.txt"), &file, now)
                    .expect("write");
                session
                    .write_file(&format!("src/f{i}.txt"), edited.as_str(), now + 1)
                    .expect("edit");
            }
            now += 10;
            let start = Instant::now();
            black_box(session.submit("go on", now));
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn bench_session(_: &mut Lcg) {
    println!("\n## Session::submit, native\n\n| profile | file size | tracked | changed | ms |\n|---|--:|--:|--:|--:|");
    // 200 KB files are over the Read tool's 25,000-token gate, so a changed one is re-read
    // and refused (Q39: no note); 80 KB files go through the diff.
    for (lines, size) in [(4000, "200 KB"), (1600, "80 KB")] {
        for profile in [Profile::claude_code(), Profile::recommended()] {
            let mut one_changed = Vec::new();
            for (tracked, changed) in [(100, 0), (100, 1), (100, 10), (10, 1)] {
                let ms = submit_ms(tracked, changed, lines, profile.clone());
                if changed == 1 {
                    one_changed.push(ms);
                }
                println!(
                    "| {} | {size} | {tracked} | {changed} | {ms:.3} |",
                    profile.name
                );
            }
            let ratio = one_changed[0] / one_changed[1];
            println!("| {} | {size} | ratio t(100 tracked, 1 changed) / t(10 tracked, 1 changed) | | {ratio:.2} |", profile.name);
        }
    }
}

/// A session with `tracked` watched files whose transcript has grown to `records` records
/// through prompts, Read calls and answers.
fn grown_session(tracked: usize, records: usize) -> (Session, u64) {
    let file: String = (0..200)
        .map(|i| format!("line {i:>4} of a tracked source file\n"))
        .collect();
    let mut session = Session::new(SessionOptions {
        profile: Profile::claude_code(),
        cwd: "/p".into(),
        home: None,
        config: SessionConfig::default(),
    })
    .expect("valid options");
    for i in 0..tracked {
        session
            .write(&format!("src/f{i}.txt"), &file, 1_000)
            .expect("write");
    }
    // The conversation reads other files, so that the written ones stay watched (a Read
    // entry is not watched under claude-code, Q31) and every turn checks all of them.
    for i in 0..10 {
        session
            .write_file(&format!("docs/d{i}.txt"), file.as_str(), 1_000)
            .expect("write");
    }
    let mut now = 2_000;
    let mut round = 0;
    while session.transcript_len() < records {
        now += 1_000;
        session.submit(&format!("step {round}: look at the next file"), now);
        let read = ResponseBlock::ToolUse(ToolCall {
            id: None,
            name: "Read".into(),
            input: format!("{{\"file_path\":\"/p/docs/d{}.txt\"}}", round % 10),
            invocation: ToolInvocation::Read {
                file_path: format!("docs/d{}.txt", round % 10),
                offset: None,
                limit: None,
            },
        });
        now += 1_000;
        session
            .respond(vec![ResponseBlock::Text("Reading it.".into()), read], now)
            .expect("respond");
        now += 1_000;
        session
            .respond(vec![ResponseBlock::Text("It looks fine.".into())], now)
            .expect("respond");
        round += 1;
    }
    (session, now)
}

/// Median ms of one human turn (every collector and the request) on a grown session.
fn turn_ms(tracked: usize, records: usize) -> (f64, usize) {
    let (mut session, mut now) = grown_session(tracked, records);
    let size = session.transcript_len();
    let mut samples: Vec<f64> = (0..31)
        .map(|i| {
            now += 1_000;
            let start = Instant::now();
            black_box(session.submit(&format!("one more question {i}"), now));
            let ms = start.elapsed().as_secs_f64() * 1e3;
            now += 1_000;
            session
                .respond(vec![ResponseBlock::Text("Answered.".into())], now)
                .expect("respond");
            ms
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    (samples[samples.len() / 2], size)
}

fn bench_turns(_: &mut Lcg) {
    println!("\n## One human turn (collectors + request), claude-code, 100 tracked files\n\n| transcript records | ms per turn |\n|--:|--:|");
    let (small, small_size) = turn_ms(100, 50);
    let (large, large_size) = turn_ms(100, 500);
    println!("| {small_size} | {small:.3} |\n| {large_size} | {large:.3} |");
    println!("\nratio t(500) / t(50): {:.2} (goal ≤ 2)", large / small);
}

/// The policies the compaction benchmark runs, by id.
fn bench_policies() -> Vec<Policy> {
    use context_assembly::compact::microcompact::MicrocompactRules;
    use context_assembly::compact::tool_result_budget::ToolResultBudgetRules;
    Vec::from([
        Policy::Full,
        Policy::SessionMemory,
        Policy::Microcompact(MicrocompactRules::recommended()),
        Policy::ToolResultBudget(ToolResultBudgetRules::claude_code()),
        Policy::Prune(Default::default()),
        Policy::Masking(Default::default()),
        Policy::ClearToolUses {
            params: Default::default(),
            memory_tool: false,
        },
        Policy::Truncate {
            params: Default::default(),
            dedupe: Default::default(),
        },
        Policy::Codex {
            remote: false,
            mid_turn: false,
        },
    ])
}

/// Median ms of planning, and of applying, `policy` on a session of `records` records.
fn compaction_ms(policy: &Policy, records: usize) -> (f64, f64, usize) {
    let mut plans = Vec::new();
    let mut applies = Vec::new();
    let mut size = 0;
    for _ in 0..3 {
        let (mut session, now) = grown_session(10, records);
        size = session.transcript_len();
        let options = CompactionOptions {
            policy: policy.clone(),
            ..CompactionOptions::default()
        };
        let start = Instant::now();
        let plan = black_box(session.plan_compaction(options, now + 7_200_000));
        plans.push(start.elapsed().as_secs_f64() * 1e3);
        let start = Instant::now();
        black_box(
            session
                .apply_compaction(&plan, None, now + 7_200_000)
                .expect("apply"),
        );
        applies.push(start.elapsed().as_secs_f64() * 1e3);
    }
    plans.sort_by(f64::total_cmp);
    applies.sort_by(f64::total_cmp);
    (plans[1], applies[1], size)
}

fn bench_compaction(_: &mut Lcg) {
    println!("\n## Compaction on a live session, claude-code (median of 3; plan and apply in ms)\n\n| policy | plan 500 | apply 500 | plan 5000 | apply 5000 | ratio (plan+apply) |\n|---|--:|--:|--:|--:|--:|");
    for policy in bench_policies() {
        let (plan_small, apply_small, _) = compaction_ms(&policy, 500);
        let (plan_large, apply_large, _) = compaction_ms(&policy, 5_000);
        let ratio = (plan_large + apply_large) / (plan_small + apply_small);
        println!(
            "| {} | {plan_small:.2} | {apply_small:.2} | {plan_large:.2} | {apply_large:.2} | {ratio:.1} |",
            policy.id()
        );
    }
    println!("\n10× the records; linear is a ratio of about 10.");
}

/// 50,000 paths in a tree of 50 packages, each with 20 directories of 50 files.
fn search_corpus() -> Vec<Candidate> {
    let mut paths = Vec::with_capacity(50_000);
    for package in 0..50 {
        for dir in 0..20 {
            for file in 0..50 {
                let path = format!("packages/pkg{package}/src/module{dir}/component_{file}.tsx");
                paths.push(Candidate {
                    path,
                    is_dir: false,
                });
            }
        }
    }
    paths
}

fn bench_search(_: &mut Lcg) {
    let paths = search_corpus();
    println!("\n## @ file search over {} paths (median of 15, ms per keystroke)\n\n| query | matched | ms |\n|---|--:|--:|", paths.len());
    for query in ["c", "co", "com", "comp", "compo12", "pkg4/mod7/comp3"] {
        let mut samples: Vec<f64> = (0..15)
            .map(|_| {
                let start = Instant::now();
                black_box(search_paths(&paths, query, 20));
                start.elapsed().as_secs_f64() * 1e3
            })
            .collect();
        samples.sort_by(f64::total_cmp);
        let matched = search_paths(&paths, query, 20).total_match_count;
        println!("| `{query}` | {matched} | {:.2} |", samples[7]);
    }
    // Queries past the caps (MAX_QUERY_ATOMS, MAX_QUERY_CHARS): `c` matches every path, so
    // every atom is scored on every path; `f` matches none, so the first atom ends each one.
    println!("\n### queries past the caps (median of 15, ms per keystroke)\n\n| query | atoms left out | matched | ms |\n|---|--:|--:|--:|");
    for (label, query) in [
        ("`f ` × 100", "f ".repeat(100)),
        ("`c ` × 100", "c ".repeat(100)),
        ("`f ` × 2,000", "f ".repeat(2_000)),
        ("`c ` × 2,000", "c ".repeat(2_000)),
    ] {
        let ms = median_ms(15, || {
            black_box(search_paths(&paths, &query, 20));
        });
        let result = search_paths(&paths, &query, 20);
        let left_out = result.query_cut.map_or(0, |cut| cut.atoms_ignored);
        println!(
            "| {label} | {left_out} | {} | {ms:.2} |",
            result.total_match_count
        );
    }
}

/// The long measuring scenarios of the playground.
const LONG_SCENARIOS: [(&str, &str); 3] = [
    (
        "32 short prompts",
        include_str!("../../web/scenarios/long-short-prompts.json"),
    ),
    (
        "30 turns of heavy tool output",
        include_str!("../../web/scenarios/long-tool-output.json"),
    ),
    (
        "33 turns, many settings changes",
        include_str!("../../web/scenarios/long-settings.json"),
    ),
];

/// Tokens of Codex's context items (initial context and settings updates) over every
/// request of a run.
fn codex_context_tokens(scenario: &Scenario, resend: bool) -> (u64, u64) {
    let mut scenario = scenario.clone();
    scenario.profile = ProfileName::Codex;
    scenario.switches = vec![("codex.resendFullContext".into(), resend)];
    let trace = run_scenario(&scenario).expect("replays");
    let mut context = 0;
    let mut sent = 0;
    for index in 0..trace.steps.len() {
        if let Some(request) = trace.request(index) {
            sent += request.tokens.total;
            context += request
                .messages
                .iter()
                .flat_map(|m| m.content.iter())
                .filter(|b| b.source == "initial-context" || b.source == "settings-update")
                .map(|b| b.tokens)
                .sum::<u64>();
        }
    }
    (context, sent)
}

fn bench_compare(_: &mut Lcg) {
    let all = [
        ProfileName::ClaudeCode,
        ProfileName::Codex,
        ProfileName::Recommended,
    ];
    println!("\n## Codex: settings diffs against re-sending the whole initial context every turn\n\n| scenario | context tokens, diffs | context tokens, full every turn | context saved | all input saved |\n|---|--:|--:|--:|--:|");
    for (label, json) in LONG_SCENARIOS {
        let scenario = parse_scenario(json).expect("a valid scenario");
        let (diff, diff_sent) = codex_context_tokens(&scenario, false);
        let (full, full_sent) = codex_context_tokens(&scenario, true);
        println!(
            "| {label} | {diff} | {full} | {:.1} % | {:.1} % |",
            100.0 * (1.0 - diff as f64 / full.max(1) as f64),
            100.0 * (1.0 - diff_sent as f64 / full_sent.max(1) as f64)
        );
    }
    let mut long = parse_scenario(LONG_SCENARIOS[2].1).expect("a valid scenario");
    while long.steps.len() < 200 {
        let more = long.steps.clone();
        long.steps.extend(more);
    }
    long.steps.truncate(200);
    let mut samples: Vec<f64> = (0..5)
        .map(|_| {
            let start = Instant::now();
            black_box(compare_profiles(&long, &all, &[]).expect("compares"));
            start.elapsed().as_secs_f64() * 1e3
        })
        .collect();
    samples.sort_by(f64::total_cmp);
    println!(
        "\ncompareProfiles, 200 steps, three profiles: {:.1} ms (median of 5)",
        samples[2]
    );
}

/// A named part of the benchmark.
type Section = (&'static str, fn(&mut Lcg));

fn main() {
    let mut random = Lcg(20261129);
    // `cargo bench … -- diff mentions` runs some sections; none runs all.
    let chosen: Vec<String> = std::env::args()
        .skip(1)
        .filter(|a| !a.starts_with('-'))
        .collect();
    let wants = |name: &str| chosen.is_empty() || chosen.iter().any(|c| c == name);
    println!("# native engines (cargo bench profile: opt-level 3, thin LTO)");
    let sections: [Section; 8] = [
        ("diff", bench_diff),
        ("tokens", bench_tokens),
        ("mentions", bench_mentions),
        ("session", bench_session),
        ("turns", bench_turns),
        ("compaction", bench_compaction),
        ("search", bench_search),
        ("compare", bench_compare),
    ];
    for (name, run) in sections {
        if wants(name) {
            run(&mut random);
        }
    }
}
