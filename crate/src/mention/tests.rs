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
