//! The @-mention grammar against the shared fixtures (tests/fixtures/mentions*.json) and
//! against generated inputs.

use std::fs;
use std::ops::Range;
use std::path::PathBuf;

use context_assembly::mention::{
    extract_mentions, mention_at, mention_spans_utf16, BareEnd, Dedupe, LineFragments, MentionAt,
    MentionKind, MentionRules, Mentions, Whitespace,
};
use proptest::prelude::*;
use serde_json::{json, Map, Value};

fn fixture(name: &str) -> Value {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../tests/fixtures")
        .join(name);
    let text = fs::read_to_string(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    serde_json::from_str(&text).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn rules_named(profile: &str) -> MentionRules {
    match profile {
        "claude-code-2.1.88" => MentionRules::claude_code(),
        "codex" => MentionRules::codex(),
        "recommended" => MentionRules::recommended(),
        other => panic!("unknown profile {other:?}"),
    }
}

/// A byte offset in `text` as a UTF-16 code-unit offset (what JavaScript indexes by).
fn utf16(text: &str, byte: usize) -> usize {
    text[..byte].encode_utf16().count()
}

fn with_span(text: &str, span: &Range<usize>, mut entry: Map<String, Value>) -> Value {
    entry.insert("start".into(), json!(utf16(text, span.start)));
    entry.insert("end".into(), json!(utf16(text, span.end)));
    Value::Object(entry)
}

/// The fixture's JSON shape: optional keys omitted when absent, UTF-16 offsets.
fn as_json(text: &str, found: &Mentions) -> Value {
    let files = found.files.iter().map(|file| {
        let mut entry = Map::new();
        entry.insert("raw".into(), json!(file.raw));
        entry.insert("path".into(), json!(file.path));
        if let Some(line) = file.line_start {
            entry.insert("lineStart".into(), json!(line));
        }
        if let Some(line) = file.line_end {
            entry.insert("lineEnd".into(), json!(line));
        }
        if let Some(fragment) = &file.fragment {
            entry.insert("fragment".into(), json!(fragment));
        }
        entry.insert("quoted".into(), json!(file.quoted));
        if let Some(problem) = &file.problem {
            entry.insert("problem".into(), json!(problem));
        }
        with_span(text, &file.span, entry)
    });
    let mcp = found.mcp_resources.iter().map(|mcp| {
        let mut entry = Map::new();
        entry.insert("raw".into(), json!(mcp.raw));
        entry.insert("server".into(), json!(mcp.server));
        entry.insert("uri".into(), json!(mcp.uri));
        with_span(text, &mcp.span, entry)
    });
    let agents = found.agents.iter().map(|agent| {
        let mut entry = Map::new();
        entry.insert("raw".into(), json!(agent.raw));
        entry.insert("agentType".into(), json!(agent.agent_type));
        with_span(text, &agent.span, entry)
    });
    json!({
        "files": files.collect::<Vec<_>>(),
        "mcpResources": mcp.collect::<Vec<_>>(),
        "agents": agents.collect::<Vec<_>>(),
    })
}

#[test]
fn fixture_cases() {
    let fixture = fixture("mentions.json");
    let cases = fixture["cases"].as_array().expect("cases");
    let mut failures = Vec::new();
    for case in cases {
        let name = case["name"].as_str().expect("name");
        let text = case["text"].as_str().expect("text");
        let rules = rules_named(case["profile"].as_str().expect("profile"));
        let actual = as_json(text, &extract_mentions(text, &rules));
        if actual != case["expected"] {
            failures.push(format!(
                "{name}\n  text:     {text:?}\n  expected: {}\n  actual:   {actual}",
                case["expected"]
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

fn strings(value: &Value) -> Vec<&str> {
    let list = value.as_array().expect("list");
    list.iter()
        .map(|item| item.as_str().expect("string"))
        .collect()
}

/// What the original's `parseAtMentionedFileLines` gives, in the reference's shape.
fn parsed(found: &Mentions) -> Value {
    let parsed = found.files.iter().map(|file| {
        let mut entry = Map::new();
        entry.insert("filename".into(), json!(file.path));
        if let Some(line) = file.line_start {
            entry.insert("lineStart".into(), json!(line));
        }
        if let Some(line) = file.line_end {
            entry.insert("lineEnd".into(), json!(line));
        }
        Value::Object(entry)
    });
    Value::Array(parsed.collect())
}

#[test]
fn claude_code_agrees_with_the_original_regexes() {
    let fixture = fixture("mentions-differential.json");
    let cases = fixture["cases"].as_array().expect("cases");
    assert!(cases.len() >= 1000, "too few differential cases");
    let rules = MentionRules::claude_code();
    let mut failures = Vec::new();
    for case in cases {
        let text = case["text"].as_str().expect("text");
        let found = extract_mentions(text, &rules);
        let files: Vec<&str> = found.files.iter().map(|f| f.raw.as_str()).collect();
        let mcp: Vec<&str> = found.mcp_resources.iter().map(|m| m.raw.as_str()).collect();
        let agents: Vec<&str> = found.agents.iter().map(|a| a.raw.as_str()).collect();
        let same = files == strings(&case["files"])
            && mcp == strings(&case["mcp"])
            && agents == strings(&case["agents"])
            && case.get("parsed").is_none_or(|p| *p == parsed(&found));
        if !same {
            failures.push(format!(
                "{text:?}\n  reference: {} {} {} {}\n  ours:      {files:?} {mcp:?} {agents:?} {}",
                case["files"],
                case["mcp"],
                case["agents"],
                case["parsed"],
                parsed(&found)
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "{} of {} cases differ:\n{}",
        failures.len(),
        cases.len(),
        failures.join("\n")
    );
}

/// Texts rich in the grammar's special characters and in the whitespace look-alikes.
fn biased_text() -> impl Strategy<Value = String> {
    let pieces = prop::sample::select(vec![
        "@",
        "@",
        "@\"",
        "\"",
        "#L",
        "#l",
        "#",
        "-",
        ":",
        ".",
        "/",
        "~",
        "\\ ",
        "\\",
        "(",
        ")",
        "0",
        "10",
        "20",
        "a",
        "foo",
        "agent-",
        " (agent)\"",
        "é",
        "日本",
        "😀",
        " ",
        "\t",
        "\n",
        "\u{a0}",
        "\u{2028}",
        "\u{feff}",
        "\u{85}",
        "\u{3000}",
        "`",
        ",",
    ]);
    prop::collection::vec(pieces, 0..24).prop_map(|pieces| pieces.concat())
}

fn any_rules() -> impl Strategy<Value = MentionRules> {
    let enums = (
        prop::sample::select(vec![Whitespace::JavaScript, Whitespace::Unicode]),
        prop::sample::select(vec![
            BareEnd::LastAsciiWordChar,
            BareEnd::Whitespace,
            BareEnd::WhitespaceTrimmed,
        ]),
        prop::sample::select(vec![Dedupe::Off, Dedupe::ExactText, Dedupe::PathAndRange]),
        prop::sample::select(vec![
            LineFragments::Off,
            LineFragments::Strict,
            LineFragments::Lenient,
        ]),
    );
    (enums, prop::collection::vec(any::<bool>(), 11)).prop_map(|(enums, b)| MentionRules {
        whitespace: enums.0,
        bare_end: enums.1,
        dedupe: enums.2,
        line_fragments: enums.3,
        escaped_spaces: b[0],
        quoted_paths: b[1],
        mention_after_open_bracket: b[2],
        classify_once: b[3],
        quoted_first: b[4],
        colon_line_ranges: b[5],
        line_zero_is_line_one: b[6],
        report_reversed_ranges: b[7],
        mcp_resources: b[8],
        agents: b[9],
        trim_agent_names: b[10],
    })
}

fn check_span(text: &str, span: &Range<usize>) -> Result<(), TestCaseError> {
    prop_assert!(span.start < span.end && span.end <= text.len(), "{span:?}");
    prop_assert!(text.is_char_boundary(span.start) && text.is_char_boundary(span.end));
    prop_assert_eq!(text.as_bytes()[span.start], b'@');
    Ok(())
}

/// Invariants that hold under any rules.
fn check(text: &str, rules: &MentionRules) -> Result<(), TestCaseError> {
    let found = extract_mentions(text, rules);
    for file in &found.files {
        check_span(text, &file.span)?;
        prop_assert!(file.line_end.is_none() || file.line_start.is_some());
        if rules.report_reversed_ranges {
            if let (Some(start), Some(end)) = (file.line_start, file.line_end) {
                prop_assert!(start <= end || file.problem.is_some(), "{file:?}");
            }
        }
        if rules.line_zero_is_line_one {
            prop_assert!(file.line_start != Some(0) && file.line_end != Some(0));
        }
        let inner = if file.quoted {
            prop_assert!(text[file.span.clone()].ends_with('"'));
            file.span.start + 2..file.span.end - 1
        } else {
            file.span.start + 1..file.span.end
        };
        prop_assert_eq!(&text[inner], file.raw.as_str());
    }
    for mcp in &found.mcp_resources {
        check_span(text, &mcp.span)?;
        prop_assert_eq!(format!("{}:{}", mcp.server, mcp.uri), mcp.raw.clone());
    }
    for agent in &found.agents {
        check_span(text, &agent.span)?;
        prop_assert!(text[agent.span.clone()].contains(agent.raw.as_str()));
    }
    Ok(())
}

fn presets() -> [MentionRules; 3] {
    [
        MentionRules::claude_code(),
        MentionRules::codex(),
        MentionRules::recommended(),
    ]
}

proptest! {
    #[test]
    fn presets_hold_on_arbitrary_text(text in any::<String>()) {
        for rules in presets() {
            check(&text, &rules)?;
        }
    }

    #[test]
    fn presets_hold_on_biased_text(text in biased_text()) {
        for rules in presets() {
            check(&text, &rules)?;
        }
    }

    #[test]
    fn any_rules_hold_on_biased_text(text in biased_text(), rules in any_rules()) {
        check(&text, &rules)?;
    }

    #[test]
    fn codex_paths_are_the_tokens(text in biased_text()) {
        let found = extract_mentions(&text, &MentionRules::codex());
        prop_assert!(found.mcp_resources.is_empty() && found.agents.is_empty());
        for file in &found.files {
            prop_assert_eq!(&file.path, &file.raw);
            prop_assert!(!file.raw.is_empty() && !file.raw.chars().any(char::is_whitespace));
        }
    }

    #[test]
    fn the_mention_at_a_mentions_start_is_that_mention(text in biased_text()) {
        // One reading per token and one pass: each extracted mention (the first of its
        // equals) is what the cursor on its `@` finds.
        let rules = MentionRules::recommended();
        let found = extract_mentions(&text, &rules);
        let every = (found.files.into_iter().map(MentionAt::File))
            .chain(found.mcp_resources.into_iter().map(MentionAt::McpResource))
            .chain(found.agents.into_iter().map(MentionAt::Agent));
        for mention in every {
            prop_assert_eq!(mention_at(&text, &rules, mention.span().start), Some(mention));
        }
    }

    #[test]
    fn a_cursor_is_on_a_mention_only_inside_its_span(text in biased_text(), cursor in 0usize..64) {
        for rules in presets() {
            if let Some(at) = mention_at(&text, &rules, cursor) {
                prop_assert!(at.span().start <= cursor && cursor <= at.span().end);
            }
        }
    }

    #[test]
    fn the_spans_are_the_built_mentions_sorted_and_disjoint(text in biased_text(), rules in any_rules()) {
        let built: Vec<_> = extract_mentions(&text, &rules).in_utf16(&text).spans().collect();
        let spans = mention_spans_utf16(&text, &rules);
        for pair in spans.windows(2) {
            prop_assert!(pair[0].1.end <= pair[1].1.start, "sorted and disjoint: {:?}", pair);
        }
        for span in &spans {
            prop_assert!(built.contains(span), "{:?} is a mention's", span);
        }
        for (kind, span) in &built {
            // A reading left out overlaps the one that stands for its token.
            let kept = spans.iter().any(|(_, s)| s.start < span.end && span.start < s.end);
            prop_assert!(kept, "{:?} {:?} is covered", kind, span);
        }
        if rules.classify_once {
            // One reading per token: nothing overlaps, so every mention is highlighted.
            let mut sorted = built.clone();
            sorted.sort_by_key(|(_, span)| span.start);
            prop_assert_eq!(spans, sorted);
        }
    }
}

#[test]
fn a_token_read_several_ways_is_highlighted_once_by_its_most_specific_reading() {
    let text = "see @agent-reviewer, @srv:res/x and @\"a @b.ts\" then @c.ts";
    let spans = mention_spans_utf16(text, &MentionRules::claude_code());
    let kinds: Vec<(MentionKind, &str)> = spans
        .iter()
        .map(|(kind, span)| (*kind, &text[span.clone()]))
        .collect();
    assert_eq!(
        kinds,
        [
            (MentionKind::Agent, "@agent-reviewer"),
            (MentionKind::McpResource, "@srv:res/x"),
            (MentionKind::File, "@\"a @b.ts\""),
            (MentionKind::File, "@c.ts"),
        ]
    );
}
