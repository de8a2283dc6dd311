//! Every route by which a file can reach the model, against the Read deny rules.
//!
//! Each denied file holds a marker (`SECRET-MARKER-<route>`). Under `recommended` no marker
//! may appear in any block of any request channel (system, tools, user context, messages)
//! nor in any tool result. Under `claude-code` the routes where the original lets a denied
//! file through (memory files, Q15; the plan file after a summary, §9.5) must send it, and
//! a decision must say that a deny rule covers what was sent.

use context_assembly::attachment::AttachmentKind;
use context_assembly::attachment::{Decision, Verdict};
use context_assembly::session::{
    CompactionOptions, GrepOutputMode, PermissionMode, ResponseBlock, Session, SessionConfig,
    SessionOptions, ToolCall, ToolInvocation, ToolResult, Turn,
};
use context_assembly::Profile;
use proptest::prelude::*;

const HOME: &str = "/home/user";

fn session(profile: Profile, deny: &[&str]) -> Session {
    session_with(profile, deny, SessionConfig::default())
}

fn session_with(profile: Profile, deny: &[&str], config: SessionConfig) -> Session {
    Session::new(SessionOptions {
        profile,
        cwd: "/p".into(),
        home: Some(HOME.into()),
        config: SessionConfig {
            deny: deny.iter().map(|rule| String::from(*rule)).collect(),
            ..config
        },
    })
    .unwrap()
}

fn marker(route: &str) -> String {
    format!("SECRET-MARKER-{route}")
}

/// Everything of a turn the model receives: every channel of its request, and the tool
/// results of the response that led to it.
fn seen(turn: &Turn) -> String {
    format!("{:?}\n{:?}", turn.request, turn.tool_results)
}

fn assert_unseen(turn: &Turn, marker: &str) {
    assert!(
        !seen(turn).contains(marker),
        "{marker} reached the model:\n{}",
        seen(turn)
    );
}

fn decision<'t>(decisions: &'t [Decision], subject: &str, verdict: Verdict) -> &'t Decision {
    decisions
        .iter()
        .find(|d| d.subject == subject && d.verdict == verdict)
        .unwrap_or_else(|| panic!("no {verdict} decision for {subject}: {decisions:#?}"))
}

/// The decision that says a covered file was sent anyway, as the original does.
fn assert_sent_anyway(decisions: &[Decision], subject: &str, spec_entry: &str) {
    let says_so = |d: &&Decision| {
        d.subject == subject
            && d.verdict == Verdict::Included
            && d.reason.contains("covers")
            && d.reason.contains(spec_entry)
    };
    assert!(
        decisions.iter().any(|d| says_so(&d)),
        "no decision says {subject} was sent although denied: {decisions:#?}"
    );
}

fn call(name: &str, input: &str, invocation: ToolInvocation) -> ResponseBlock {
    ResponseBlock::ToolUse(ToolCall {
        id: None,
        name: name.into(),
        input: input.into(),
        invocation,
    })
}

fn read(path: &str) -> ResponseBlock {
    let invocation = ToolInvocation::Read {
        file_path: path.into(),
        offset: None,
        limit: None,
    };
    call("Read", &format!("{{\"file_path\":{path:?}}}"), invocation)
}

fn grep(pattern: &str) -> ResponseBlock {
    let invocation = ToolInvocation::Grep {
        pattern: pattern.into(),
        path: None,
        output_mode: GrepOutputMode::FilesWithMatches,
    };
    call("Grep", &format!("{{\"pattern\":{pattern:?}}}"), invocation)
}

fn glob(pattern: &str) -> ResponseBlock {
    let invocation = ToolInvocation::Glob {
        pattern: pattern.into(),
        path: None,
    };
    call("Glob", &format!("{{\"pattern\":{pattern:?}}}"), invocation)
}

fn first_result(turn: &Turn) -> &str {
    &turn.tool_results[0].content
}

// ---------------------------------------------------------------------------------------
// F4: eager memory

/// The `CLAUDE.md` hierarchy, loaded on the first turn, under both profiles: the marker of
/// each covered file is kept out by `recommended`, and sent with a Q15 decision by
/// `claude-code`.
fn eager_case(files: &[(&str, &str)], deny: &[&str], config: SessionConfig, covered: &[&str]) {
    for (profile, denies) in [
        (Profile::recommended(), true),
        (Profile::claude_code_2_1_88(), false),
    ] {
        let mut s = session_with(profile, deny, config.clone());
        for (path, text) in files {
            s.write_file(path, *text, 1_000).unwrap();
        }
        let turn = s.submit("hello", 2_000);
        for path in covered {
            let route = marker(path.rsplit('/').next().unwrap());
            if denies {
                assert_unseen(&turn, &route);
                decision(&turn.decisions, path, Verdict::Denied);
            } else {
                let request = turn.request.as_ref().unwrap();
                let user_context = format!("{:?}", request.user_context);
                assert!(
                    user_context.contains(&route),
                    "{route} is sent, as the original does"
                );
                assert_sent_anyway(&turn.decisions, path, "Q15");
            }
        }
    }
}

#[test]
fn eager_include_of_a_denied_project_file() {
    eager_case(
        &[
            ("CLAUDE.md", "Use tabs.\n@./secrets/key.txt\n"),
            ("secrets/key.txt", "SECRET-MARKER-key.txt\n"),
        ],
        &["Read(./secrets/**)"],
        SessionConfig::default(),
        &["/p/secrets/key.txt"],
    );
}

#[test]
fn eager_user_memory_including_home_and_system_files() {
    eager_case(
        &[
            (
                "~/.claude/CLAUDE.md",
                "Mine.\n@~/.ssh/id_rsa\n@/etc/passwd\n",
            ),
            ("~/.ssh/id_rsa", "SECRET-MARKER-id_rsa\n"),
            ("/etc/passwd", "SECRET-MARKER-passwd\n"),
        ],
        &["Read(~/.ssh/**)", "Read(//etc/passwd)"],
        SessionConfig::default(),
        &["/home/user/.ssh/id_rsa", "/etc/passwd"],
    );
}

#[test]
fn eager_denied_claude_md_and_rules_files() {
    eager_case(
        &[
            ("CLAUDE.md", "SECRET-MARKER-CLAUDE.md\n"),
            (".claude/rules/ops.md", "SECRET-MARKER-ops.md\n"),
        ],
        &["Read(./CLAUDE.md)", "Read(./.claude/rules/**)"],
        SessionConfig::default(),
        &["/p/CLAUDE.md", "/p/.claude/rules/ops.md"],
    );
}

#[test]
fn eager_memory_of_a_denied_additional_directory() {
    let config = SessionConfig {
        additional_directories: vec!["/etc".into()],
        ..SessionConfig::default()
    };
    eager_case(
        &[("/etc/CLAUDE.md", "SECRET-MARKER-CLAUDE.md\n")],
        &["Read(//etc/**)"],
        config,
        &["/etc/CLAUDE.md"],
    );
}

#[test]
fn eager_include_of_an_include() {
    eager_case(
        &[
            ("CLAUDE.md", "@./docs/style.md\n"),
            ("docs/style.md", "Style.\n@../secrets/deep.txt\n"),
            ("secrets/deep.txt", "SECRET-MARKER-deep.txt\n"),
        ],
        &["Read(./secrets/**)"],
        SessionConfig::default(),
        &["/p/secrets/deep.txt"],
    );
}

#[test]
fn what_a_denied_memory_file_includes_is_left_out_with_it() {
    let deny = ["Read(./CLAUDE.local.md)"];
    let mut s = session(Profile::recommended(), &deny);
    s.write_file("CLAUDE.local.md", "@./notes/private.md\n", 1_000)
        .unwrap();
    s.write_file("notes/private.md", "SECRET-MARKER-included\n", 1_000)
        .unwrap();
    let turn = s.submit("hello", 2_000);
    assert_unseen(&turn, &marker("included"));
    let left_out = decision(&turn.decisions, "/p/notes/private.md", Verdict::Denied);
    assert_eq!(left_out.detail.as_deref(), Some("/p/CLAUDE.local.md"));
}

// ---------------------------------------------------------------------------------------
// Nested memory (Q15)

#[test]
fn nested_memory_of_a_denied_directory() {
    for (profile, denies) in [
        (Profile::recommended(), true),
        (Profile::claude_code_2_1_88(), false),
    ] {
        let mut s = session(profile, &["Read(./src/CLAUDE.md)"]);
        s.write_file("src/CLAUDE.md", "SECRET-MARKER-nested\n", 1_000)
            .unwrap();
        s.write_file("src/main.rs", "fn main() {}\n", 1_000)
            .unwrap();
        s.submit("look", 2_000);
        let turn = s.respond(vec![read("src/main.rs")], 3_000).unwrap();
        if denies {
            assert_unseen(&turn, &marker("nested"));
            decision(&turn.decisions, "/p/src/CLAUDE.md", Verdict::Denied);
        } else {
            assert!(seen(&turn).contains(&marker("nested")));
            assert_sent_anyway(&turn.decisions, "/p/src/CLAUDE.md", "Q15");
        }
    }
}

// ---------------------------------------------------------------------------------------
// F5: relevant memories

#[test]
fn relevant_memories_in_a_denied_directory() {
    let config = SessionConfig {
        memory_dir: Some("~/memory".into()),
        ..SessionConfig::default()
    };
    for (profile, denies) in [
        (Profile::recommended(), true),
        (Profile::claude_code_2_1_88(), false),
    ] {
        let mut s = session_with(profile, &["Read(~/memory/**)"], config.clone());
        s.write_file(
            "~/memory/deploys.md",
            "Deploys go through staging. SECRET-MARKER-memory\n",
            1_000,
        )
        .unwrap();
        let turn = s.submit("how do deploys work?", 2_000);
        let path = "/home/user/memory/deploys.md";
        if denies {
            assert_unseen(&turn, &marker("memory"));
            decision(&turn.decisions, path, Verdict::Denied);
            assert!(turn
                .attachments
                .iter()
                .all(|a| a.kind != AttachmentKind::RelevantMemories));
        } else {
            assert!(seen(&turn).contains(&marker("memory")));
            assert_sent_anyway(&turn.decisions, path, "Q15");
        }
    }
}

// ---------------------------------------------------------------------------------------
// F7: the plan file after a summary

/// Enough turns that a summary replaces some records under every profile (`recommended`
/// keeps the last eight verbatim).
fn worked(s: &mut Session) {
    for turn in 0..6u64 {
        let path = format!("f{turn}.txt");
        s.write_file(&path, "alpha\n", 1_000).unwrap();
        let at = 2_000 + turn * 1_000;
        s.submit(&format!("read {path}"), at);
        s.respond(vec![read(&path)], at + 100).unwrap();
        s.respond(vec![ResponseBlock::Text("Done.".into())], at + 200)
            .unwrap();
    }
}

#[test]
fn a_denied_plan_file_after_a_summary() {
    for (profile, denies) in [
        (Profile::recommended(), true),
        (Profile::claude_code_2_1_88(), false),
    ] {
        let mut s = session(profile, &["Read(~/.claude/plans/**)"]);
        s.write_file("~/.claude/plans/plan.md", "1. SECRET-MARKER-plan\n", 1_000)
            .unwrap();
        worked(&mut s);
        s.set_mode(PermissionMode::Plan);
        let report = s
            .compact(CompactionOptions::default(), None, 10_000)
            .unwrap();
        assert!(report.applied, "{report:?}");
        let decisions = report.decisions.clone();
        let turn = s.after_compaction(report, 10_000);
        if denies {
            assert_unseen(&turn, &marker("plan"));
            decision(&decisions, "plan file", Verdict::Denied);
        } else {
            assert!(seen(&turn).contains(&marker("plan")));
            assert_sent_anyway(&decisions, "plan file", "§9.5");
        }
    }
}

// ---------------------------------------------------------------------------------------
// Glob, Grep, Edit, Write

fn tool_session(profile: Profile) -> Session {
    let mut s = session(profile, &["Read(./secrets/**)"]);
    s.write_file("secrets/key.txt", "token SECRET-MARKER-tools\n", 1_000)
        .unwrap();
    s.write_file("src/app.txt", "token public\n", 1_000)
        .unwrap();
    s.submit("search", 2_000);
    s
}

#[test]
fn glob_and_grep_never_name_or_match_denied_files() {
    // The original hides denied files from both tools (§2.5 item 4): no switch.
    for profile in [Profile::recommended(), Profile::claude_code_2_1_88()] {
        let mut s = tool_session(profile);
        let listed = s.respond(vec![glob("**/*.txt")], 3_000).unwrap();
        assert_eq!(first_result(&listed), "src/app.txt");
        assert!(!first_result(&listed).contains("key.txt"), "{listed:?}");
        let matched = s.respond(vec![grep("token")], 4_000).unwrap();
        assert_eq!(first_result(&matched), "Found 1 file\nsrc/app.txt");
        assert!(!first_result(&matched).contains("key.txt"));
        let marker_search = s.respond(vec![grep("SECRET-MARKER")], 5_000).unwrap();
        assert_eq!(first_result(&marker_search), "No files found");
        assert_unseen(&marker_search, &marker("tools"));
    }
}

fn edit(s: &mut Session, path: &str, old: &str) -> ToolResult {
    s.edit(path, old, "changed", 3_000).unwrap()
}

#[test]
fn edit_and_write_answer_alike_whatever_a_denied_file_holds() {
    let mut s = tool_session(Profile::recommended());
    let present = edit(&mut s, "secrets/key.txt", "token");
    let absent = edit(&mut s, "secrets/key.txt", "not there");
    assert!(present.is_error);
    assert_eq!(present, absent);
    let existing = s.write("secrets/key.txt", "x", 3_000).unwrap();
    let missing = s.write("secrets/new.txt", "x", 3_000).unwrap();
    assert!(existing.is_error && missing.is_error);
    assert_eq!(
        existing.content.replace("key.txt", "new.txt"),
        missing.content
    );
    let on_disk = s.read_file_text("secrets/key.txt").unwrap().unwrap();
    assert!(on_disk.contains(&marker("tools")), "nothing was changed");
}

#[test]
fn claude_code_edits_a_denied_memory_file_it_seeded_as_the_original_does() {
    // The original's Read rules gate reads only; a CLAUDE.md seeded into the read-file
    // state is editable, so Edit's answer depends on the text (refuse_writes_to_denied_files
    // off).
    let mut s = session(Profile::claude_code_2_1_88(), &["Read(./CLAUDE.md)"]);
    s.write_file("CLAUDE.md", "Use tabs.\n", 1_000).unwrap();
    s.submit("hello", 2_000);
    let absent = edit(&mut s, "CLAUDE.md", "spaces");
    let present = edit(&mut s, "CLAUDE.md", "tabs");
    assert!(
        absent.is_error && !present.is_error,
        "{absent:?} {present:?}"
    );
    let mut fixed = session(Profile::recommended(), &["Read(./CLAUDE.md)"]);
    fixed.write_file("CLAUDE.md", "Use tabs.\n", 1_000).unwrap();
    fixed.submit("hello", 2_000);
    assert!(edit(&mut fixed, "CLAUDE.md", "tabs").is_error);
}

// ---------------------------------------------------------------------------------------
// Mentions, Read, changed files, renames, restore

#[test]
fn mentions_of_a_denied_file_directory_or_range() {
    for profile in [Profile::recommended(), Profile::claude_code_2_1_88()] {
        let mut s = session(profile, &["Read(./secrets/**)"]);
        s.write_file("secrets/key.txt", "a\nSECRET-MARKER-mention\n", 1_000)
            .unwrap();
        let turn = s.submit(
            "see @secrets/key.txt and @secrets/key.txt#L2-2 and @secrets and @./secrets//key.txt",
            2_000,
        );
        assert_unseen(&turn, &marker("mention"));
        decision(&turn.decisions, "@secrets", Verdict::Denied);
    }
}

#[test]
fn a_directory_listing_hides_denied_names_under_recommended() {
    // `secrets/` denies the contents, not the directory, so the directory can be listed.
    for (profile, hides) in [
        (Profile::recommended(), true),
        (Profile::claude_code_2_1_88(), false),
    ] {
        let mut s = session(profile, &["Read(secrets/)"]);
        s.write_file("secrets/SECRET-MARKER-name.txt", "x\n", 1_000)
            .unwrap();
        let turn = s.submit("list @secrets", 2_000);
        let listed = turn
            .attachments
            .iter()
            .any(|a| a.kind == AttachmentKind::Directory);
        assert!(listed, "{:?}", turn.decisions);
        assert_eq!(!seen(&turn).contains(&marker("name")), hides);
        if hides {
            decision(&turn.decisions, "@secrets", Verdict::Denied);
        }
    }
}

#[test]
fn the_read_tool_refuses_every_spelling() {
    let spellings = [
        "secrets/key.txt",
        "./secrets/key.txt",
        "secrets//key.txt",
        "src/../secrets/key.txt",
        "/p/secrets/key.txt",
        "secrets/key.txt/",
        "/p/./secrets/./key.txt",
    ];
    for profile in [Profile::recommended(), Profile::claude_code_2_1_88()] {
        let mut s = tool_session(profile);
        for (i, spelling) in spellings.iter().enumerate() {
            let turn = s.respond(vec![read(spelling)], 3_000 + i as u64).unwrap();
            assert!(turn.tool_results[0].is_error, "{spelling}");
            assert_unseen(&turn, &marker("tools"));
        }
    }
}

#[test]
fn case_is_not_folded_on_linux() {
    // A case-sensitive disk: `Secrets/` is another directory, which `Read(./secrets/**)`
    // does not name (recommended matches case-sensitively).
    let mut s = tool_session(Profile::recommended());
    s.write_file("Secrets/other.txt", "visible\n", 1_000)
        .unwrap();
    let turn = s.respond(vec![read("Secrets/other.txt")], 3_000).unwrap();
    assert!(!turn.tool_results[0].is_error);
}

#[test]
fn a_changed_denied_memory_file_sends_no_snippet() {
    // claude-code seeds the denied CLAUDE.md into the read-file state (and sends it, Q15);
    // a later change to it is checked against the deny rules, as the original's
    // getChangedFiles does.
    for profile in [Profile::recommended(), Profile::claude_code_2_1_88()] {
        let mut s = session(profile, &["Read(./CLAUDE.md)"]);
        s.write_file("CLAUDE.md", "Use tabs.\n", 1_000).unwrap();
        s.submit("hello", 2_000);
        s.write_file("CLAUDE.md", "Use tabs.\nSECRET-MARKER-change\n", 3_000)
            .unwrap();
        let turn = s.submit("again", 4_000);
        assert_unseen(&turn, &marker("change"));
    }
}

#[test]
fn a_file_renamed_into_a_denied_directory_is_not_followed() {
    for profile in [Profile::recommended(), Profile::claude_code_2_1_88()] {
        let mut s = session(profile, &["Read(./secrets/**)"]);
        s.mkdir("secrets", 1_000).unwrap();
        s.write_file("notes.txt", "plain\n", 1_000).unwrap();
        s.submit("read it", 2_000);
        s.respond(vec![read("notes.txt")], 3_000).unwrap();
        s.rename("notes.txt", "secrets/notes.txt", 4_000).unwrap();
        s.write_file("secrets/notes.txt", "SECRET-MARKER-rename\n", 5_000)
            .unwrap();
        // An atomic save inside the denied directory: write a temporary file, rename it.
        s.write_file("secrets/.key.tmp", "SECRET-MARKER-rename\n", 5_000)
            .unwrap();
        s.rename("secrets/.key.tmp", "secrets/key.txt", 5_100)
            .unwrap();
        let turn = s.submit("what changed? @secrets/key.txt", 6_000);
        assert_unseen(&turn, &marker("rename"));
        let report = s
            .compact(CompactionOptions::default(), None, 7_000)
            .unwrap();
        let after = s.after_compaction(report, 7_000);
        assert_unseen(&after, &marker("rename"));
    }
}

#[test]
fn the_restore_after_a_summary_skips_a_denied_memory_file() {
    // claude-code seeds the denied `.claude/CLAUDE.md`, which the restore's exact memory
    // paths do not exclude (Q59); the restore reads through the deny check (§2.5 item 5),
    // so no restored `file` attachment carries it.
    for (profile, seeded) in [
        (Profile::recommended(), false),
        (Profile::claude_code_2_1_88(), true),
    ] {
        let mut s = session(profile, &["Read(./.claude/**)"]);
        s.write_file(".claude/CLAUDE.md", "SECRET-MARKER-restore\n", 1_000)
            .unwrap();
        worked(&mut s);
        let report = s
            .compact(CompactionOptions::default(), None, 10_000)
            .unwrap();
        if seeded {
            // It was a candidate, and its slot failed on the deny check.
            decision(&report.decisions, "/p/.claude/CLAUDE.md", Verdict::Failed);
        }
        let turn = s.after_compaction(report, 10_000);
        // Under claude-code the user context carries it anyway (Q15); the messages, where
        // restored files go, must not.
        let messages = format!("{:?}", turn.request.as_ref().unwrap().messages);
        assert!(!messages.contains(&marker("restore")), "{messages}");
    }
}

// ---------------------------------------------------------------------------------------
// F6: NFC and NFD

const NFC_DIR: &str = "na\u{ef}ve";
const NFD_DIR: &str = "nai\u{308}ve";
/// Whether the crate normalises to NFC itself (the `nfc` feature).
const NFC: bool = cfg!(feature = "nfc");

/// Without the `nfc` feature the crate takes paths and rules as given (the wasm package
/// normalises them in JavaScript before they cross).
#[cfg(feature = "nfc")]
#[test]
fn an_nfd_rule_denies_the_nfc_path_and_an_nfc_rule_an_nfd_spelling() {
    for (rule_dir, spelt_dir) in [(NFD_DIR, NFC_DIR), (NFC_DIR, NFD_DIR), (NFD_DIR, NFD_DIR)] {
        for profile in [Profile::recommended(), Profile::claude_code_2_1_88()] {
            let rule = format!("Read(./{rule_dir}/**)");
            let mut s = session(profile, &[rule.as_str()]);
            s.write_file(&format!("{NFC_DIR}/key.txt"), "SECRET-MARKER-nfc\n", 1_000)
                .unwrap();
            s.submit("start", 2_000);
            let path = format!("{spelt_dir}/key.txt");
            let turn = s.respond(vec![read(&path)], 3_000).unwrap();
            assert!(turn.tool_results[0].is_error, "{rule} against {path:?}");
            assert_unseen(&turn, &marker("nfc"));
        }
    }
}

// ---------------------------------------------------------------------------------------
// Generated spellings through every tool route

#[derive(Debug, Clone, Copy)]
enum Route {
    Mention,
    Read,
    Glob,
    Grep,
}

/// A spelling of the denied directory and one of the denied file in it: NFC or NFD,
/// with `./`, `//`, `..`, `/./` and a trailing `/` in any mix.
fn spelling() -> impl Strategy<Value = (String, String)> {
    let dirs = if NFC {
        vec![NFC_DIR, NFD_DIR]
    } else {
        vec![NFC_DIR]
    };
    let dir = prop::sample::select(dirs);
    let prefix = prop_oneof![
        Just(""),
        Just("./"),
        Just("/p/"),
        Just("src/../"),
        Just(".//"),
        Just("src/./../")
    ];
    let join = prop_oneof![Just("/"), Just("//"), Just("/./")];
    let suffix = prop_oneof![Just(""), Just("/")];
    (prefix, dir, join, suffix).prop_map(|(prefix, dir, join, suffix)| {
        (
            format!("{prefix}{dir}{suffix}"),
            format!("{prefix}{dir}{join}key.txt{suffix}"),
        )
    })
}

fn search(name: &str, pattern: &str, path: &str) -> ResponseBlock {
    let (pattern, path) = (String::from(pattern), Some(String::from(path)));
    let invocation = match name {
        "Glob" => ToolInvocation::Glob { pattern, path },
        _ => ToolInvocation::Grep {
            pattern,
            path,
            output_mode: GrepOutputMode::FilesWithMatches,
        },
    };
    call(name, "{}", invocation)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn no_spelling_of_a_denied_file_reaches_a_recommended_request(
        rule_in_nfd in any::<bool>(),
        (dir, file) in spelling(),
        route in prop_oneof![
            Just(Route::Mention), Just(Route::Read), Just(Route::Glob), Just(Route::Grep)
        ],
    ) {
        let rule_dir = if rule_in_nfd && NFC { NFD_DIR } else { NFC_DIR };
        let rule = format!("Read(./{rule_dir}/**)");
        let mut s = session(Profile::recommended(), &[rule.as_str()]);
        s.write_file(&format!("{NFC_DIR}/key.txt"), "SECRET-MARKER-spelling\n", 1_000)
            .unwrap();
        s.write_file("src/keep.txt", "kept SECRET\n", 1_000).unwrap();
        let turn = match route {
            Route::Mention => s.submit(&format!("look at @{file} and @{dir}"), 2_000),
            Route::Read | Route::Glob | Route::Grep => {
                s.submit("look", 2_000);
                let block = match route {
                    Route::Read => read(&file),
                    Route::Glob => search("Glob", "**", &dir),
                    _ => search("Grep", "SECRET", &dir),
                };
                s.respond(vec![block], 3_000).unwrap()
            }
        };
        prop_assert!(!seen(&turn).contains("SECRET-MARKER-spelling"), "{}", seen(&turn));
        if matches!(route, Route::Glob | Route::Grep) {
            prop_assert!(!turn.tool_results[0].content.contains("key.txt"), "{:?}", turn.tool_results);
        }
    }
}

// ---------------------------------------------------------------------------------------
// The IDE

#[test]
fn an_ide_selection_or_opened_file_in_a_denied_file_is_not_sent() {
    use context_assembly::session::IdeSelection;
    for profile in [Profile::recommended(), Profile::claude_code_2_1_88()] {
        let mut s = session(profile, &["Read(~/.ssh/**)"]);
        s.write_file("~/.ssh/id_rsa", "SECRET-MARKER-ide\n", 1_000)
            .unwrap();
        let selection = IdeSelection {
            path: "~/.ssh//id_rsa".into(),
            line_start: 0,
            line_count: 1,
            ends_at_line_start: false,
            text: "SECRET-MARKER-ide".into(),
        };
        s.set_ide(Some(selection), None);
        let turn = s.submit("what is this?", 2_000);
        assert_unseen(&turn, &marker("ide"));
        decision(&turn.decisions, "~/.ssh//id_rsa", Verdict::Denied);
        s.set_ide(None, Some("~/.ssh/id_rsa".into()));
        let turn = s.submit("and this?", 3_000);
        assert!(turn
            .attachments
            .iter()
            .all(|a| a.kind != AttachmentKind::OpenedFileInIde));
        decision(&turn.decisions, "~/.ssh/id_rsa", Verdict::Denied);
    }
}
