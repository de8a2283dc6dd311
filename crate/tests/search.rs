//! `@` file search: the reference scores, the ordering, the atoms, and the walk over the
//! virtual workspace (hidden files, ignore files only inside a repository).

use context_assembly::mention::{extract_mentions, MentionRules};
use context_assembly::search::composer::insertion;
use context_assembly::search::score::{fuzzy_bound, fuzzy_score, PreparedPath, Rows};
use context_assembly::search::{
    prepared_bytes, search_paths, Candidate, FileSearcher, MAX_PREPARED_BYTES, MAX_QUERY_ATOMS,
    MAX_QUERY_CHARS,
};
use context_assembly::session::{Session, SessionConfig, SessionOptions};
use context_assembly::Profile;
use proptest::prelude::*;

fn files(paths: &[&str]) -> Vec<Candidate> {
    paths
        .iter()
        .map(|p| Candidate {
            path: (*p).into(),
            is_dir: false,
        })
        .collect()
}

fn found(paths: &[&str], query: &str) -> Vec<String> {
    search_paths(&files(paths), query, 20)
        .matches
        .into_iter()
        .map(|m| m.path)
        .collect()
}

#[test]
fn the_atoms_filter_and_their_scores_add_up() {
    let paths = [
        "src/main.rs",
        "src/main_test.rs",
        "docs/main.md",
        "README.md",
    ];
    assert_eq!(found(&paths, "main !test"), ["src/main.rs", "docs/main.md"]);
    assert_eq!(found(&paths, "^src"), ["src/main.rs", "src/main_test.rs"]);
    assert_eq!(found(&paths, ".md$"), ["README.md", "docs/main.md"]);
    assert_eq!(found(&paths, "^readme.md$"), ["README.md"]);
    assert_eq!(
        found(&paths, "!main"),
        ["README.md"],
        "a query of negations only lists what they do not exclude"
    );
}

#[test]
fn a_bare_at_lists_the_shortest_paths_first() {
    let paths = [
        "src/main_test.rs",
        "src/main.rs",
        "README.md",
        "docs/main.md",
    ];
    let shortest_first = [
        "README.md",
        "src/main.rs",
        "docs/main.md",
        "src/main_test.rs",
    ];
    assert_eq!(found(&paths, ""), shortest_first);
    let result = search_paths(&files(&paths), "", 2);
    assert_eq!(result.total_match_count, 4);
    assert!(result
        .matches
        .iter()
        .all(|m| m.score == 0 && m.indices.is_empty()));
    let mut searcher = FileSearcher::new(&files(&paths)).unwrap();
    for query in ["", "m", "", "!test", "main"] {
        assert_eq!(
            searcher.search(query, 3),
            search_paths(&files(&paths), query, 3),
            "{query:?}"
        );
    }
}

#[test]
fn positions_cross_to_javascript_in_utf16_units() {
    let paths = files(&["src/😀/ünï/xyz.ts", "x😀yz"]);
    let found = search_paths(&paths, "xyz", 20).in_utf16();
    assert_eq!(found.matches[0].path, "src/😀/ünï/xyz.ts");
    assert_eq!(found.matches[0].indices, [11, 12, 13]);
    assert_eq!(found.matches[1].path, "x😀yz");
    assert_eq!(found.matches[1].indices, [0, 3, 4]);
}

#[test]
fn ties_go_to_the_shorter_path_then_to_walk_order() {
    let paths = ["b/x.ts", "a/x.ts", "x.ts"];
    let result = search_paths(&files(&paths), "x", 20);
    let shown: Vec<(&str, u32)> = result
        .matches
        .iter()
        .map(|m| (m.path.as_str(), m.score))
        .collect();
    assert_eq!(shown[0].0, "x.ts");
    assert_eq!(shown[1].0, "b/x.ts", "equal score and length: walk order");
    assert_eq!(shown[1].1, shown[2].1);
}

#[test]
fn the_walk_offers_hidden_files_and_honours_ignore_files_only_in_a_repository() {
    let mut s = Session::new(SessionOptions {
        profile: Profile::codex(),
        cwd: "/w/app".into(),
        home: None,
        config: SessionConfig::default(),
    })
    .unwrap();
    s.write_file(".env.example", "", 0).unwrap();
    s.write_file(".gitignore", "build/\n*.log\n", 0).unwrap();
    s.write_file("build/out.js", "", 0).unwrap();
    s.write_file("debug.log", "", 0).unwrap();
    s.write_file("src/build.ts", "", 0).unwrap();
    // No repository: .gitignore is not read, everything is offered.
    assert_eq!(s.search_files("build", 20).total_match_count, 3);
    assert_eq!(s.search_files("env", 20).matches[0].path, ".env.example");
    // A repository above the cwd: the ignore file counts, and the ignored directory is not entered.
    s.write_file("/w/.git/HEAD", "", 0).unwrap();
    let result = s.search_files("build", 20);
    let paths: Vec<&str> = result.matches.iter().map(|m| m.path.as_str()).collect();
    assert_eq!(paths, ["src/build.ts"]);
    assert!(s.search_files("debug", 20).matches.is_empty());
    assert_eq!(
        s.search_files("src", 20).matches[0].kind.as_str(),
        "directory"
    );
}

#[test]
fn atoms_past_the_cap_are_left_out_with_a_reason() {
    let paths = [
        "src/a/b/c/d/e/f/g/h/x.rs",
        "src/a/b/c/d/e/f/g/h/y.rs",
        "docs/a.md",
    ];
    let kept = "s a b c d e f g";
    let capped = format!("{kept} x !y z");
    let result = search_paths(&files(&paths), &capped, 20);
    // `x`, `!y` and `z` are not matched: the result is the first eight atoms' result.
    let whole = search_paths(&files(&paths), kept, 20);
    assert_eq!(result.matches, whole.matches);
    assert_eq!(result.total_match_count, 2);
    let cut = result.query_cut.expect("three atoms past the cap");
    assert_eq!((cut.chars_ignored, cut.atoms_ignored), (0, 3));
    assert_eq!(
        cut.reason,
        format!("the query has 11 atoms; only the first {MAX_QUERY_ATOMS} are matched")
    );
    assert_eq!(whole.query_cut, None);
}

#[test]
fn characters_past_the_cap_are_ignored_as_if_never_typed() {
    let long = "a".repeat(MAX_QUERY_CHARS);
    let paths = [long.clone(), format!("{long}b")];
    let paths: Vec<&str> = paths.iter().map(String::as_str).collect();
    let result = search_paths(&files(&paths), &format!("{long}bbb"), 20);
    assert_eq!(result.total_match_count, 2, "the b's are past the cap");
    let cut = result.query_cut.expect("three characters past the cap");
    assert_eq!((cut.chars_ignored, cut.atoms_ignored), (3, 0));
    assert_eq!(
        cut.reason,
        format!(
            "the query has {} characters; only the first {MAX_QUERY_CHARS} are read",
            MAX_QUERY_CHARS + 3
        )
    );
}

#[test]
fn a_session_search_reports_the_cut_too() {
    let mut s = Session::new(SessionOptions {
        profile: Profile::codex(),
        cwd: "/w".into(),
        home: None,
        config: SessionConfig::default(),
    })
    .unwrap();
    s.write_file("src/main.rs", "", 0).unwrap();
    let result = s.search_files(&"m ".repeat(2_000), 20);
    assert_eq!(result.matches[0].path, "src/main.rs");
    assert!(result.query_cut.is_some_and(|cut| cut.atoms_ignored > 0));
}

proptest! {
    #[test]
    fn results_are_ordered_limited_and_point_at_matching_characters(
        paths in proptest::collection::vec("[a-cA-C/._]{1,12}", 0..60),
        query in "[a-c]{1,3}",
        limit in 0usize..10,
    ) {
        let result = search_paths(&files(&paths.iter().map(String::as_str).collect::<Vec<_>>()), &query, limit);
        prop_assert!(result.matches.len() <= limit);
        prop_assert!(result.matches.len() <= result.total_match_count);
        for pair in result.matches.windows(2) {
            let (a, b) = (&pair[0], &pair[1]);
            prop_assert!(a.score > b.score || (a.score == b.score && a.path.chars().count() <= b.path.chars().count()));
        }
        let needle: Vec<char> = query.chars().collect();
        for m in &result.matches {
            let chars: Vec<char> = m.path.chars().map(|c| c.to_ascii_lowercase()).collect();
            let picked: Vec<char> = m.indices.iter().map(|&i| chars[i]).collect();
            prop_assert_eq!(&picked, &needle, "{} in {}", query, m.path);
        }
        let expected = paths.iter().filter(|p| {
            let mut wanted = needle.iter().peekable();
            for c in p.chars().map(|c| c.to_ascii_lowercase()) {
                if wanted.peek() == Some(&&c) { wanted.next(); }
            }
            wanted.peek().is_none()
        }).count();
        prop_assert_eq!(result.total_match_count, expected);
    }
}

proptest! {
    /// The bounded two-row score every candidate gets equals the full alignment's.
    #[test]
    fn the_fast_score_equals_the_full_alignment(path in "[a-dA-D/._ ]{0,24}", needle in "[a-d/]{1,5}") {
        use context_assembly::search::score::{fuzzy, fuzzy_score, PreparedPath, Rows};
        let prepared = PreparedPath::new(&path);
        let haystack = prepared.haystack();
        let needle: Vec<char> = needle.chars().collect();
        let full = fuzzy(&haystack, &needle).map(|(score, _)| score);
        prop_assert_eq!(fuzzy_score(&haystack, &needle, &mut Rows::default()), full);
    }
}

/// A query as a user types it: each step adds a character (an atom's marker, a letter, a
/// space that starts the next atom) or deletes the last one.
fn typing() -> impl Strategy<Value = Vec<String>> {
    let key = prop_oneof![
        4 => "[a-cA-C/._]",
        1 => Just(" ".to_string()),
        1 => "[!'^$]",
        1 => Just("\u{8}".to_string()),
    ];
    proptest::collection::vec(key, 1..14).prop_map(|keys| {
        let mut query = String::new();
        keys.iter()
            .map(|key| {
                match key.as_str() {
                    "\u{8}" => drop(query.pop()),
                    typed => query.push_str(typed),
                }
                query.clone()
            })
            .collect()
    })
}

proptest! {
    #[test]
    fn the_searcher_answers_each_keystroke_as_a_fresh_search(
        paths in proptest::collection::vec(("[a-cA-C/._é]{1,12}", any::<bool>()), 0..60),
        queries in typing(),
        limit in 0usize..8,
    ) {
        let candidates: Vec<Candidate> = paths
            .into_iter()
            .map(|(path, is_dir)| Candidate { path, is_dir })
            .collect();
        let mut searcher = FileSearcher::new(&candidates).unwrap();
        for query in &queries {
            prop_assert_eq!(searcher.search(query, limit), search_paths(&candidates, query, limit));
        }
    }
}

#[test]
fn a_searcher_past_its_memory_budget_says_how_large_it_would_be() {
    let path = "d/".repeat(1024);
    let count = MAX_PREPARED_BYTES / prepared_bytes(&path) + 1;
    let candidates = vec![
        Candidate {
            path,
            is_dir: false
        };
        count
    ];
    let error = FileSearcher::new(&candidates)
        .err()
        .expect("over the budget");
    let message = error.to_string();
    assert!(
        message.starts_with(&format!("paths: {count} paths would take ")),
        "{message}"
    );
    assert!(
        message.contains("a searcher holds at most 67108864"),
        "{message}"
    );
}

proptest! {
    #[test]
    fn a_fuzzy_bound_is_never_below_the_score_and_matches_when_the_score_does(
        path in "[a-cA-C/._é ]{0,16}",
        needle in "[a-c/é]{1,4}",
    ) {
        let prepared = PreparedPath::new(&path);
        let needle: Vec<char> = needle.chars().collect();
        let score = fuzzy_score(&prepared.haystack(), &needle, &mut Rows::default());
        let bound = fuzzy_bound(&prepared.haystack(), &needle);
        prop_assert_eq!(score.is_some(), bound.is_some());
        if let (Some(score), Some(bound)) = (score, bound) {
            prop_assert!(bound >= score, "bound {} below score {}", bound, score);
        }
    }
}

/// A path as a completion offers it: letters, digits, accents, an emoji, punctuation, spaces
/// and tabs inside a segment, but no `#` or `:` (which every mention grammar reads as a line
/// range or heading anchor) and no `"`.
fn completion_path() -> impl Strategy<Value = String> {
    let segment = "[a-zA-Z0-9é😀._(),'!\\-]{1,6}([ \t][a-zA-Z0-9é😀._(),'!\\-]{1,6}){0,2}";
    proptest::collection::vec(segment, 1..4)
        .prop_map(|segments| segments.join("/"))
        .prop_filter("an agent's quoted form", |path| !path.ends_with(" (agent)"))
}

/// A path that holds a `"` (not first) and spaces between its words, ending in a letter.
fn quoting_path() -> impl Strategy<Value = String> {
    "[a-zé][a-zé\"./]{0,4}( [a-zé\"./]{1,4}){1,3}[a-z]"
        .prop_filter("a quote", |path| path.contains('"'))
}

/// The file mentions `rules` read in a prompt where `inserted` replaced an `@` token.
fn paths_read(inserted: &str, rules: &MentionRules) -> Vec<String> {
    let prompt = format!("see {inserted}and more");
    let files = extract_mentions(&prompt, rules).files;
    let whole = 4..4 + inserted.len() - 1;
    (files.into_iter())
        .filter(|file| file.span == whole && file.line_start.is_none() && file.fragment.is_none())
        .map(|file| file.path)
        .collect()
}

proptest! {
    #[test]
    fn every_mention_insertion_reads_back_as_its_path(path in completion_path()) {
        for rules in [MentionRules::recommended(), MentionRules::claude_code()] {
            let inserted = insertion(&path, true, &rules);
            prop_assert_eq!(paths_read(&inserted, &rules), [path.clone()], "{}", inserted);
        }
    }

    #[test]
    fn a_path_with_a_quote_reads_back_under_recommended(path in quoting_path()) {
        let rules = MentionRules::recommended();
        let inserted = insertion(&path, true, &rules);
        prop_assert_eq!(paths_read(&inserted, &rules), [path.clone()], "{}", inserted);
    }
}

#[test]
fn an_insertion_is_bare_when_that_reads_back_and_quoted_or_escaped_when_not() {
    let recommended = MentionRules::recommended();
    let claude_code = MentionRules::claude_code();
    assert_eq!(insertion("src/app.ts", true, &recommended), "@src/app.ts ");
    assert_eq!(
        insertion("a \"b\".ts", true, &recommended),
        "@a\\ \"b\".ts "
    );
    assert_eq!(insertion("notes.", true, &recommended), "@\"notes.\" ");
    assert_eq!(
        insertion("agent-x.md", true, &recommended),
        "@\"agent-x.md\" "
    );
    assert_eq!(insertion("café", true, &claude_code), "@\"café\" ");
    assert_eq!(insertion("café", true, &recommended), "@café ");
    // Codex inserts the path as text: quoted only when it holds whitespace and no `"`.
    assert_eq!(insertion("a \"b\".ts", false, &recommended), "a \"b\".ts ");
    assert_eq!(insertion("a b.ts", false, &recommended), "\"a b.ts\" ");
}
