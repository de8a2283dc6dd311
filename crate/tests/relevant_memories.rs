//! Relevant memories (spec claude-code.md §7.9): budgets under generated inputs, exclusions,
//! the host's selection, staleness headers at day boundaries, determinism, no panics.

use std::collections::BTreeSet;

use context_assembly::attachment::AttachmentKind;
use context_assembly::attachment::{AttachmentRules, Collected, Verdict};
use context_assembly::collectors::relevant_memories::*;
use context_assembly::tokens::TokenMethod;
use proptest::prelude::*;

const DAY: u64 = 86_400_000;
const NOW: u64 = 1_000 * DAY;

/// An owned candidate, for generated inputs.
#[derive(Debug, Clone)]
struct File {
    path: String,
    content: String,
    mtime_ms: u64,
}

impl File {
    fn new(path: &str, content: &str, mtime_ms: u64) -> File {
        File {
            path: path.into(),
            content: content.into(),
            mtime_ms,
        }
    }

    fn candidate(&self) -> MemoryCandidate<'_> {
        MemoryCandidate {
            path: &self.path,
            content: &self.content,
            mtime_ms: self.mtime_ms,
        }
    }
}

/// Everything a call takes, owned.
struct Case {
    prompt: String,
    files: Vec<File>,
    host: Option<Vec<String>>,
    surfaced: BTreeSet<String>,
    in_state: BTreeSet<String>,
    session_units: u64,
}

impl Case {
    fn new(prompt: &str, files: Vec<File>) -> Case {
        Case {
            prompt: prompt.into(),
            files,
            host: None,
            surfaced: BTreeSet::new(),
            in_state: BTreeSet::new(),
            session_units: 0,
        }
    }

    fn run(&self) -> (Vec<String>, Collected) {
        self.run_with(&AttachmentRules::claude_code())
    }

    fn run_with(&self, rules: &AttachmentRules) -> (Vec<String>, Collected) {
        let candidates: Vec<MemoryCandidate<'_>> = self.files.iter().map(File::candidate).collect();
        let in_state = |path: &str| self.in_state.contains(path);
        let input = RelevantMemoryInput {
            prompt: &self.prompt,
            candidates: &candidates,
            host_selection: self.host.as_deref(),
            now_ms: NOW,
            surfaced: &self.surfaced,
            in_file_state: &in_state,
            session_units: self.session_units,
        };
        let mut out = Collected::default();
        let paths = relevant_memories(&input, rules, TokenMethod::ClaudeCode, &mut out);
        (paths, out)
    }
}

fn verdict_of(out: &Collected, subject: &str) -> Vec<Verdict> {
    out.decisions
        .iter()
        .filter(|d| d.subject == subject)
        .map(|d| d.verdict)
        .collect()
}

/// The content of a surfaced memory: the text inside the wrapper, after the header.
fn content_of<'t>(text: &'t str, header: &str) -> &'t str {
    let inner = text
        .strip_prefix("<system-reminder>\n")
        .and_then(|t| t.strip_suffix("\n</system-reminder>"))
        .expect("wrapped");
    inner
        .strip_prefix(header)
        .and_then(|t| t.strip_prefix("\n\n"))
        .expect("header first")
}

#[test]
fn single_word_prompts_prefetch_nothing() {
    for prompt in ["deploy", "  deploy\n", ""] {
        let case = Case::new(prompt, vec![File::new("/m/deploy.md", "deploy", 0)]);
        let (paths, out) = case.run();
        assert!(paths.is_empty());
        assert_eq!(verdict_of(&out, "relevant_memories"), [Verdict::Skipped]);
    }
    let case = Case::new("deploy\tnow", vec![File::new("/m/deploy.md", "deploy", 0)]);
    assert_eq!(case.run().0, ["/m/deploy.md"]);
}

#[test]
fn surfaced_and_file_state_paths_are_excluded_each_with_a_decision() {
    let mut case = Case::new(
        "deploy notes please",
        vec![
            File::new("/m/a.md", "deploy", 3),
            File::new("/m/b.md", "deploy", 2),
            File::new("/m/c.md", "deploy", 1),
        ],
    );
    case.surfaced.insert("/m/a.md".into());
    case.in_state.insert("/m/b.md".into());
    let (paths, out) = case.run();
    assert_eq!(paths, ["/m/c.md"]);
    assert_eq!(verdict_of(&out, "/m/a.md"), [Verdict::Excluded]);
    assert_eq!(verdict_of(&out, "/m/b.md"), [Verdict::Excluded]);
    assert_eq!(verdict_of(&out, "/m/c.md"), [Verdict::Included]);
    // The host choosing an excluded file changes nothing.
    case.host = Some(vec!["/m/a.md".into(), "/m/b.md".into()]);
    let (paths, out) = case.run();
    assert!(paths.is_empty());
    assert_eq!(verdict_of(&out, "/m/a.md"), [Verdict::Excluded]);
    assert_eq!(verdict_of(&out, "/m/c.md"), [Verdict::Skipped]);
}

#[test]
fn the_host_selection_keeps_its_order_and_reports_unknown_and_extra_paths() {
    let files: Vec<File> = (0..8)
        .map(|i| File::new(&format!("/m/{i}.md"), "anything", i))
        .collect();
    let mut case = Case::new("two words", files);
    let host: Vec<String> = [
        "/m/2.md",
        "/m/nope.md",
        "/m/0.md",
        "/m/7.md",
        "/m/1.md",
        "/m/3.md",
        "/m/5.md",
        "/m/6.md",
    ]
    .iter()
    .map(|p| p.to_string())
    .collect();
    case.host = Some(host);
    let (paths, out) = case.run();
    assert_eq!(
        paths,
        ["/m/2.md", "/m/0.md", "/m/7.md", "/m/1.md", "/m/3.md"]
    );
    assert_eq!(verdict_of(&out, "/m/nope.md"), [Verdict::NotFound]);
    assert_eq!(verdict_of(&out, "/m/5.md"), [Verdict::OverBudget]);
    assert_eq!(verdict_of(&out, "/m/6.md"), [Verdict::OverBudget]);
    assert_eq!(verdict_of(&out, "/m/4.md"), [Verdict::Skipped], "not named");
    assert!(out
        .decisions
        .iter()
        .filter(|d| d.verdict == Verdict::Included)
        .all(|d| d.detail.as_deref() == Some("chosen by the host")));
}

#[test]
fn the_keyword_scorer_ranks_and_reports_scores() {
    let case = Case::new(
        "How do we deploy the billing service?",
        vec![
            File::new(
                "/m/billing.md",
                "---\nname: Billing service\ndescription: deploy steps\n---\nx",
                1,
            ),
            File::new("/m/deploy.md", "Run the deploy job.", 5),
            File::new("/m/style.md", "Tabs.", 9),
        ],
    );
    let (paths, out) = case.run();
    assert_eq!(paths, ["/m/billing.md", "/m/deploy.md"]);
    let style = out
        .decisions
        .iter()
        .find(|d| d.subject == "/m/style.md")
        .expect("decided");
    assert_eq!(
        (style.verdict, style.detail.as_deref()),
        (Verdict::Skipped, Some("score 0"))
    );
    let billing = out
        .decisions
        .iter()
        .find(|d| d.subject == "/m/billing.md")
        .expect("decided");
    // name: billing, service (4 each); description: deploy (3); file name: billing (2).
    assert_eq!(billing.detail.as_deref(), Some("score 13"));
}

#[test]
fn only_the_200_newest_markdown_files_are_scanned() {
    let files: Vec<File> = (0..230)
        .map(|i| File::new(&format!("/m/{i:03}.md"), "deploy", i))
        .collect();
    let mut case = Case::new("deploy now", files);
    case.host = Some(vec!["/m/000.md".into()]);
    let (paths, out) = case.run();
    assert!(paths.is_empty());
    assert_eq!(
        verdict_of(&out, "/m/000.md"),
        [Verdict::OverBudget],
        "too old to be scanned"
    );
    assert_eq!(
        verdict_of(&out, "/m/030.md"),
        [Verdict::Skipped],
        "scanned, not chosen"
    );
    assert_eq!(verdict_of(&out, "/m/029.md"), [Verdict::OverBudget]);
}

#[test]
fn staleness_headers_change_at_day_boundaries() {
    let cases = [
        (NOW, "Memory (saved today): /m/a.md:"),
        (NOW + 5 * DAY, "Memory (saved today): /m/a.md:"),
        (NOW - DAY + 1, "Memory (saved today): /m/a.md:"),
        (NOW - DAY, "Memory (saved yesterday): /m/a.md:"),
        (NOW - 2 * DAY + 1, "Memory (saved yesterday): /m/a.md:"),
    ];
    for (mtime, header) in cases {
        let mut case = Case::new("two words", vec![File::new("/m/a.md", "", mtime)]);
        case.host = Some(vec!["/m/a.md".into()]);
        let (_, out) = case.run();
        let text = &out.attachments[0].text;
        assert_eq!(content_of(text, header), "", "{text}");
    }
    let mut case = Case::new(
        "two words",
        vec![File::new("/m/a.md", "body", NOW - 2 * DAY)],
    );
    case.host = Some(vec!["/m/a.md".into()]);
    let (_, out) = case.run();
    let text = &out.attachments[0].text;
    assert!(text.contains("2 days ago"), "{text}");
    assert!(
        text.ends_with("\n\nMemory: /m/a.md:\n\nbody\n</system-reminder>"),
        "{text}"
    );
    assert_eq!(
        memory_header("/m/a.md", NOW - 365 * DAY - 1, NOW)
            .lines()
            .next()
            .map(|l| l.contains("365 days")),
        Some(true)
    );
}

#[test]
fn truncated_memories_say_why_and_where_the_whole_file_is() {
    let long_lines = "x".repeat(100) + &"\ny".repeat(300);
    let big = "é".repeat(3000);
    let mut case = Case::new(
        "two words",
        vec![
            File::new("/m/lines.md", &long_lines, 2),
            File::new("/m/bytes.md", &big, 1),
        ],
    );
    case.host = Some(vec!["/m/lines.md".into(), "/m/bytes.md".into()]);
    let (_, out) = case.run();
    let lines = &out.attachments[0];
    assert!(lines.text.contains("\n\n> "));
    assert!(lines.text.contains("(first 200 lines)"));
    assert!(lines.text.ends_with("/m/lines.md\n</system-reminder>"));
    let bytes = &out.attachments[1];
    assert!(bytes.text.contains("(4096 byte limit)"));
    assert_eq!(verdict_of(&out, "/m/bytes.md"), [Verdict::Truncated]);
    let excerpt = memory_excerpt("/m/lines.md", &long_lines, &AttachmentRules::claude_code());
    assert_eq!(excerpt.truncated_lines, Some(200));
    assert_eq!(
        lines.payload_units,
        Some(excerpt.content.encode_utf16().count() as u64)
    );
}

#[test]
fn a_memory_that_would_pass_the_session_cap_is_left_out_and_a_smaller_one_fits() {
    let big = "b".repeat(3000);
    let mut case = Case::new(
        "deploy notes",
        vec![
            File::new("/m/big.md", &big, 2),
            File::new("/m/small.md", "small", 1),
        ],
    );
    case.host = Some(vec!["/m/big.md".into(), "/m/small.md".into()]);
    case.session_units = 60 * 1024 - 100;
    let (paths, out) = case.run();
    assert_eq!(paths, ["/m/small.md"]);
    assert_eq!(verdict_of(&out, "/m/big.md"), [Verdict::OverBudget]);
    case.session_units = 60 * 1024;
    let (paths, out) = case.run();
    assert!(paths.is_empty());
    assert_eq!(verdict_of(&out, "relevant_memories"), [Verdict::OverBudget]);
}

/// Contents with long lines, many lines, multi-byte text and carriage returns.
fn content() -> impl Strategy<Value = String> {
    prop_oneof![
        ".{0,300}",
        "(deploy|billing|é日本|x{0,50}|\r|\n){0,400}",
        (1usize..3000).prop_map(|n| "ab\n".repeat(n)),
        (1usize..5000).prop_map(|n| "日".repeat(n)),
    ]
}

fn files() -> impl Strategy<Value = Vec<File>> {
    let path = prop::sample::select(vec![
        "/m/a.md",
        "/m/b.md",
        "/m/deploy.md",
        "/m/billing.md",
        "/m/c.md",
        "/m/d.md",
        "/m/e.md",
        "/m/f.md",
        "/m/g.md",
        "/m/MEMORY.md",
        "/m/h.txt",
    ]);
    let mtime = prop_oneof![0..NOW + 3 * DAY, Just(NOW), Just(NOW - DAY)];
    prop::collection::vec(
        (path, content(), mtime).prop_map(|(p, c, m)| File::new(p, &c, m)),
        0..12,
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(128))]

    #[test]
    fn budgets_hold_for_generated_inputs(
        files in files(),
        prompt in "(deploy|billing|the|a|日本語| |\n){0,12}",
        use_host in any::<bool>(),
        host_pick in prop::collection::vec(0usize..12, 0..9),
        session_units in prop_oneof![Just(0u64), 0..70_000u64],
        excluded in prop::collection::vec(0usize..12, 0..3),
    ) {
        let mut case = Case::new(&prompt, files.clone());
        case.session_units = session_units;
        if use_host {
            case.host = Some(host_pick.iter().filter_map(|&i| files.get(i)).map(|f| f.path.clone()).collect());
        }
        for (n, &i) in excluded.iter().enumerate() {
            if let Some(file) = files.get(i) {
                if n % 2 == 0 { case.surfaced.insert(file.path.clone()); } else { case.in_state.insert(file.path.clone()); }
            }
        }
        let rules = AttachmentRules::claude_code();
        let (paths, out) = case.run_with(&rules);
        prop_assert!(paths.len() <= rules.memories_per_turn);
        prop_assert_eq!(paths.len(), out.attachments.len());
        let distinct: BTreeSet<&String> = paths.iter().collect();
        prop_assert_eq!(distinct.len(), paths.len());
        let mut total = session_units;
        for (path, attachment) in paths.iter().zip(&out.attachments) {
            prop_assert!(!case.surfaced.contains(path) && !case.in_state.contains(path));
            prop_assert_eq!(attachment.kind, AttachmentKind::RelevantMemories);
            prop_assert_eq!(attachment.path.as_deref(), Some(path.as_str()));
            let file = files.iter().filter(|f| &f.path == path).min_by_key(|f| std::cmp::Reverse(f.mtime_ms)).expect("a candidate");
            let header = memory_header(path, file.mtime_ms, NOW);
            let content = content_of(&attachment.text, &header);
            let units = content.encode_utf16().count() as u64;
            prop_assert_eq!(attachment.payload_units, Some(units));
            total += units;
            let excerpt = memory_excerpt(path, &file.content, &rules);
            prop_assert_eq!(content, excerpt.content.as_str());
            let kept = match excerpt.truncation {
                Some(_) => content.rsplit_once("\n\n> ").expect("a note").0,
                None => content,
            };
            prop_assert!(kept.len() <= rules.memory_max_bytes);
            prop_assert!(kept.split('\n').count() <= rules.memory_max_lines);
        }
        if !paths.is_empty() {
            prop_assert!(total <= rules.memory_session_cap, "{} > cap", total);
        }
        // Determinism: the same input gives the same output.
        let (again, out_again) = case.run_with(&rules);
        prop_assert_eq!(paths, again);
        prop_assert_eq!(out, out_again);
    }

    #[test]
    fn no_panics_on_arbitrary_text(
        entries in prop::collection::vec((any::<String>(), any::<String>(), any::<u64>()), 0..8),
        prompt in any::<String>(),
        host in prop::option::of(prop::collection::vec(any::<String>(), 0..6)),
        now in any::<u64>(),
        session_units in any::<u64>(),
        max_bytes in 0usize..64,
        max_lines in 0usize..8,
    ) {
        let candidates: Vec<MemoryCandidate<'_>> = entries
            .iter()
            .map(|(p, c, m)| MemoryCandidate { path: p, content: c, mtime_ms: *m })
            .collect();
        let surfaced = BTreeSet::new();
        let input = RelevantMemoryInput {
            prompt: &prompt,
            candidates: &candidates,
            host_selection: host.as_deref(),
            now_ms: now,
            surfaced: &surfaced,
            in_file_state: &|_| false,
            session_units,
        };
        let rules = AttachmentRules { memory_max_bytes: max_bytes, memory_max_lines: max_lines, ..AttachmentRules::claude_code() };
        let mut out = Collected::default();
        let paths = relevant_memories(&input, &rules, TokenMethod::Calibrated, &mut out);
        prop_assert!(paths.len() <= rules.memories_per_turn);
        for (path, content, _) in &entries {
            let excerpt = memory_excerpt(path, content, &rules);
            if excerpt.truncation.is_none() {
                prop_assert!(excerpt.content.len() <= max_bytes);
            }
        }
    }
}
