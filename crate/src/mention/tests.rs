use alloc::vec;
use alloc::vec::Vec;

use super::*;

fn files(text: &str, rules: &MentionRules) -> Vec<String> {
    extract_mentions(text, rules)
        .files
        .into_iter()
        .map(|file| file.raw)
        .collect()
}

#[test]
fn normalise_removes_dot_segments() {
    assert_eq!(normalise("./foo"), "foo");
    assert_eq!(normalise("a//b/"), "a/b");
    assert_eq!(normalise("a/../b"), "b");
    assert_eq!(normalise("../../x"), "../../x");
    assert_eq!(normalise("/../x"), "/x");
    assert_eq!(normalise("./"), ".");
    assert_eq!(normalise("~/x/./y"), "~/x/y");
}

#[test]
fn claude_code_lists_quoted_first_and_dedupes_exact_text() {
    let rules = MentionRules::claude_code();
    assert_eq!(files("@b @\"a\" @b @./b", &rules), vec!["a", "b", "./b"]);
}

#[test]
fn a_token_feeds_several_extractors_in_claude_code() {
    let found = extract_mentions("@agent-asana:proj", &MentionRules::claude_code());
    assert_eq!(found.files.len(), 1);
    assert_eq!(found.mcp_resources[0].server, "agent-asana");
    assert_eq!(found.agents[0].agent_type, "asana:proj");
}

#[test]
fn recommended_classifies_each_token_once() {
    let found = extract_mentions(
        "@agent-asana:proj @srv:res/x. @a.ts:12 @C:\\x",
        &MentionRules::recommended(),
    );
    assert_eq!(found.agents.len(), 1);
    assert_eq!(found.mcp_resources.len(), 1);
    assert_eq!(found.mcp_resources[0].uri, "res/x");
    let paths: Vec<_> = found.files.iter().map(|f| f.path.as_str()).collect();
    assert_eq!(paths, vec!["a.ts", "C:\\x"]);
}

#[test]
fn recommended_dedupes_by_normalised_path_and_range() {
    let rules = MentionRules::recommended();
    assert_eq!(
        files("@foo @./foo @foo#L1 @a/../foo:1 @foo#x", &rules),
        vec!["foo", "foo#L1", "foo#x"]
    );
}

#[test]
fn escaped_spaces_join_a_path() {
    let found = extract_mentions("see @my\\ file.txt, then", &MentionRules::recommended());
    assert_eq!(found.files[0].path, "my file.txt");
    assert_eq!(found.files[0].raw, "my\\ file.txt");
}

#[test]
fn codex_takes_every_token_verbatim() {
    let rules = MentionRules::codex();
    assert_eq!(
        files("@a.ts, @a.ts @ @@b \"@c\" x@d @e#L1\u{85}@f", &rules),
        vec!["a.ts,", "a.ts", "@b", "e#L1", "f"]
    );
}

#[test]
fn spans_in_utf16_are_where_javascript_finds_the_mentions() {
    let utf16 = |text: &str, byte: usize| text[..byte].encode_utf16().count();
    let text = "日本 @\"a b.md\" 😀 @srv:res://x @agent-日本 @é\\ f.md @x";
    for rules in [MentionRules::claude_code(), MentionRules::recommended()] {
        let bytes = extract_mentions(text, &rules);
        let units = bytes.clone().in_utf16(text);
        let spans = |m: &Mentions| -> Vec<core::ops::Range<usize>> {
            (m.files.iter().map(|f| f.span.clone()))
                .chain(m.mcp_resources.iter().map(|r| r.span.clone()))
                .chain(m.agents.iter().map(|a| a.span.clone()))
                .collect()
        };
        let expected: Vec<_> = spans(&bytes)
            .into_iter()
            .map(|s| utf16(text, s.start)..utf16(text, s.end))
            .collect();
        assert!(expected.len() >= 4);
        assert_eq!(spans(&units), expected);
    }
}
