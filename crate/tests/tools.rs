//! The agent's tools as the lab saw Claude Code 2.1.88 answer them: Bash's output tidied,
//! Grep's header and its ties, Glob's pattern relative to the cwd, TodoWrite's schema, and
//! tools removed by a tool-wide deny rule.

use context_assembly::session::{
    GrepOutputMode, ResponseBlock, Session, SessionConfig, SessionOptions, TodoItem, ToolCall,
    ToolInvocation,
};
use context_assembly::transcript::ToolResultBlock;
use context_assembly::{Profile, ProfileName};

/// A session in print mode (`claude -p`), where 2.1.88 offers TodoWrite (its terminal UI
/// offers the task tools instead).
fn session(profile: Profile, deny: &[&str]) -> Session {
    let config = SessionConfig {
        deny: deny.iter().map(|rule| rule.to_string()).collect(),
        print_mode: true,
        ..SessionConfig::default()
    };
    Session::new(SessionOptions {
        profile,
        cwd: "/p".into(),
        home: Some("/home/u".into()),
        config,
    })
    .expect("valid options")
}

fn call(name: &str, invocation: ToolInvocation) -> ResponseBlock {
    ResponseBlock::ToolUse(ToolCall {
        id: None,
        name: name.into(),
        input: "{}".into(),
        invocation,
    })
}

fn run(s: &mut Session, name: &str, invocation: ToolInvocation, at_ms: u64) -> ToolResultBlock {
    let turn = s.respond(vec![call(name, invocation)], at_ms).unwrap();
    turn.tool_results[0].clone()
}

fn bash(output: &str) -> ToolInvocation {
    ToolInvocation::External {
        output: Some(output.into()),
    }
}

fn glob(pattern: &str, path: Option<&str>) -> ToolInvocation {
    ToolInvocation::Glob {
        pattern: pattern.into(),
        path: path.map(Into::into),
    }
}

fn grep_files(pattern: &str) -> ToolInvocation {
    ToolInvocation::Grep {
        pattern: pattern.into(),
        path: None,
        output_mode: GrepOutputMode::FilesWithMatches,
    }
}

#[test]
fn bash_output_loses_leading_blank_lines_and_trailing_whitespace() {
    for name in [ProfileName::ClaudeCode, ProfileName::Recommended] {
        let mut s = session(Profile::preset(name), &[]);
        s.submit("test", 1_000);
        let cases = [
            ("1 passing\n", "1 passing"),
            ("\n  \n  indented\nnext  \n\n", "  indented\nnext"),
            ("   keep leading spaces", "   keep leading spaces"),
            ("", "(Bash completed with no output)"),
            (" \n\t\n", "(Bash completed with no output)"),
        ];
        for (index, (given, sent)) in cases.into_iter().enumerate() {
            let result = run(&mut s, "Bash", bash(given), 2_000 + index as u64);
            assert_eq!(result.content, sent, "{name}: {given:?}");
            assert!(!result.is_error);
        }
    }
}

#[test]
fn any_tool_with_an_empty_output_says_so() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    s.submit("ask", 1_000);
    let result = run(&mut s, "AskUserQuestion", bash("  "), 2_000);
    assert_eq!(result.content, "(AskUserQuestion completed with no output)");
    // Other tools' output is theirs: only Bash's is trimmed.
    let result = run(&mut s, "mcp__docs__read", bash("\nline\n"), 3_000);
    assert_eq!(result.content, "\nline\n");
}

#[test]
fn grep_names_one_file_in_the_singular() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    s.write_file("a.ts", "needle\n", 1_000).unwrap();
    s.write_file("b.ts", "needle\n", 1_000).unwrap();
    s.submit("search", 2_000);
    let only_a = ToolInvocation::Grep {
        pattern: "needle".into(),
        path: Some("a.ts".into()),
        output_mode: GrepOutputMode::FilesWithMatches,
    };
    let one = run(&mut s, "Grep", only_a, 3_000);
    assert_eq!(one.content, "Found 1 file\na.ts");
    let two = run(&mut s, "Grep", grep_files("needle"), 4_000);
    assert_eq!(two.content, "Found 2 files\na.ts\nb.ts");
}

#[test]
fn grep_breaks_mtime_ties_by_locale_order_of_the_paths() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    // Tree order (a directory's files before its subdirectories, bytes): Z.ts, b.ts, a/x.ts.
    for path in [
        "Z.ts", "b.ts", "a/x.ts", "A.ts", "a.ts", "a-b.ts", "a_b.ts", "new.ts",
    ] {
        let at = if path == "new.ts" { 2_000 } else { 1_000 };
        s.write_file(path, "needle\n", at).unwrap();
    }
    s.submit("search", 3_000);
    let result = run(&mut s, "Grep", grep_files("needle"), 4_000);
    assert_eq!(
        result.content,
        "Found 8 files\nnew.ts\na_b.ts\na-b.ts\na.ts\nA.ts\na/x.ts\nb.ts\nZ.ts"
    );
}

#[test]
fn glob_matches_its_pattern_relative_to_the_cwd_whatever_the_path() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    for (index, path) in ["src/main.ts", "src/util.ts", "src/lib/a.ts", "docs/x.md"]
        .into_iter()
        .enumerate()
    {
        s.write_file(path, "x\n", 1_000 + index as u64).unwrap();
    }
    s.submit("list", 5_000);
    let mut listed =
        |pattern: &str, path: Option<&str>| run(&mut s, "Glob", glob(pattern, path), 6_000).content;
    assert_eq!(listed("src/*", Some("/p/src")), "src/main.ts\nsrc/util.ts");
    assert_eq!(listed("src/*", Some("src")), "src/main.ts\nsrc/util.ts");
    assert_eq!(listed("docs/**", Some("/p/src")), "No files found");
    // Without a `/` the pattern matches a file's name at any depth below the path.
    assert_eq!(
        listed("*.ts", Some("/p/src")),
        "src/main.ts\nsrc/util.ts\nsrc/lib/a.ts"
    );
    assert_eq!(listed("lib/*", Some("/p/src")), "No files found");
    assert_eq!(listed("**/lib/*", Some("/p/src")), "src/lib/a.ts");
    // A directory's name lists nothing: only a file's own path is matched.
    assert_eq!(listed("src/lib", None), "No files found");
    // An absolute pattern searches below its fixed part, matching the rest from the cwd.
    assert_eq!(
        listed("/p/src/*.ts", None),
        "src/main.ts\nsrc/util.ts\nsrc/lib/a.ts"
    );
}

fn todo(content: &str, active_form: Option<&str>) -> TodoItem {
    TodoItem {
        content: content.into(),
        status: "pending".into(),
        active_form: active_form.map(Into::into),
    }
}

#[test]
fn todo_write_requires_an_active_form_on_every_item() {
    let mut s = session(Profile::claude_code_2_1_88(), &[]);
    s.submit("plan", 1_000);
    let todos = vec![
        todo("Run tests", Some("Running tests")),
        todo("Build", None),
    ];
    let result = run(
        &mut s,
        "TodoWrite",
        ToolInvocation::TodoWrite { todos },
        2_000,
    );
    assert!(result.is_error);
    assert!(
        result.content.contains("todos[1].activeForm"),
        "{}",
        result.content
    );
    let empty = vec![todo("", Some("Running"))];
    let result = run(
        &mut s,
        "TodoWrite",
        ToolInvocation::TodoWrite { todos: empty },
        3_000,
    );
    assert!(result.is_error);
    assert!(
        result.content.contains("todos[0].content"),
        "{}",
        result.content
    );
    let good = vec![todo("Run tests", Some("Running tests"))];
    let result = run(
        &mut s,
        "TodoWrite",
        ToolInvocation::TodoWrite { todos: good },
        4_000,
    );
    assert!(!result.is_error, "{}", result.content);
}

#[test]
fn a_tool_wide_deny_rule_removes_the_tool() {
    for name in [ProfileName::ClaudeCode, ProfileName::Recommended] {
        let mut s = session(Profile::preset(name), &["Read", "Bash(*)"]);
        s.write_file("a.ts", "secret\n", 1_000).unwrap();
        let turn = s.submit("look", 2_000);
        let tools: Vec<String> = (turn.request.unwrap().tools.iter())
            .map(|block| block.source.clone())
            .collect();
        assert!(
            !tools.iter().any(|t| t == "Read" || t == "Bash"),
            "{name}: {tools:?}"
        );
        assert!(tools.iter().any(|t| t == "Edit"), "{name}: {tools:?}");
        let read = ToolInvocation::Read {
            file_path: "/p/a.ts".into(),
            offset: None,
            limit: None,
        };
        let result = run(&mut s, "Read", read, 3_000);
        assert!(result.is_error, "{name}");
        assert!(result.content.contains("No such tool available: Read"));
        assert!(!result.content.contains("secret"));
        let result = run(&mut s, "Bash", bash("out"), 4_000);
        assert!(result.is_error, "{name}");
    }
}

#[test]
fn a_tool_wide_read_deny_stops_mentions_only_under_recommended() {
    let mut s = session(Profile::claude_code_2_1_88(), &["Read"]);
    s.write_file("a.ts", "secret\n", 1_000).unwrap();
    let turn = s.submit("look at @a.ts", 2_000);
    assert!(
        format!("{:?}", turn.request).contains("secret"),
        "Q11: attached"
    );
    let mut s = session(Profile::recommended(), &["Read"]);
    s.write_file("a.ts", "secret\n", 1_000).unwrap();
    let turn = s.submit("look at @a.ts", 2_000);
    assert!(!format!("{:?}", turn.request).contains("secret"));
}

#[test]
fn claude_code_2_1_88_s_terminal_offers_the_task_tools_in_place_of_todo_write() {
    let mut s = Session::new(SessionOptions {
        profile: Profile::claude_code_2_1_88(),
        cwd: "/p".into(),
        home: Some("/home/u".into()),
        config: SessionConfig::default(),
    })
    .expect("valid options");
    let request = s.submit("plan", 1_000).request.expect("a request");
    let offered: Vec<&str> = (request.tools.iter())
        .map(|tool| tool.source.as_str())
        .collect();
    assert!(offered.contains(&"TaskCreate") && offered.contains(&"TaskUpdate"));
    assert!(!offered.contains(&"TodoWrite"));
    assert_eq!(offered.len(), 25);
    let write_todos = |session: &mut Session| {
        let todos = vec![todo("Run tests", Some("Running tests"))];
        run(
            session,
            "TodoWrite",
            ToolInvocation::TodoWrite { todos },
            2_000,
        )
    };
    let refused = write_todos(&mut s);
    assert!(refused.is_error, "{}", refused.content);
    // Print mode offers TodoWrite, and its call applies.
    let mut print = session(Profile::claude_code_2_1_88(), &[]);
    print.submit("plan", 1_000);
    let applied = write_todos(&mut print);
    assert!(!applied.is_error, "{}", applied.content);
}
