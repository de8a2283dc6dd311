//! Claude Code 2.1.332 (the `claude-code` preset) as the conformance lab found it
//! (docs/versions.md), against 2.1.88:
//! the tools it dropped are refused, the deferred tools and agent types are listed, a Read
//! carries no malware note, an unchanged re-read gets the contents again, and the repository's
//! state comes under its `# gitStatus` heading.

use context_assembly::session::{
    ResponseBlock, Session, SessionConfig, SessionOptions, ToolCall, ToolInvocation, Turn,
};
use context_assembly::transcript::ToolResultBlock;
use context_assembly::Profile;

fn session(profile: Profile, config: SessionConfig) -> Session {
    let mut session = Session::new(SessionOptions {
        profile,
        cwd: "/p".into(),
        home: Some("/home/u".into()),
        config,
    })
    .expect("valid options");
    session
        .write_file("a.ts", "export const a = 1;\n", 1_000)
        .unwrap();
    session
}

fn respond(s: &mut Session, name: &str, invocation: ToolInvocation, at_ms: u64) -> ToolResultBlock {
    let call = ResponseBlock::ToolUse(ToolCall {
        id: None,
        name: name.into(),
        input: "{}".into(),
        invocation,
    });
    s.respond(vec![call], at_ms).unwrap().tool_results[0].clone()
}

fn read_a() -> ToolInvocation {
    ToolInvocation::Read {
        file_path: "/p/a.ts".into(),
        offset: None,
        limit: None,
    }
}

fn attachment_text<'a>(turn: &'a Turn, kind: &str) -> Option<&'a str> {
    (turn.attachments.iter())
        .find(|attachment| attachment.kind.as_str() == kind)
        .map(|attachment| attachment.text.as_str())
}

#[test]
fn the_tools_2_1_332_dropped_are_refused_and_2_1_88_runs_them() {
    let glob = || ToolInvocation::Glob {
        pattern: "*.ts".into(),
        path: None,
    };
    let mut current = session(Profile::claude_code(), SessionConfig::default());
    current.submit("list", 2_000);
    let refused = respond(&mut current, "Glob", glob(), 3_000);
    assert!(refused.is_error);
    assert!(refused.content.contains("No such tool available: Glob"));
    assert!(refused.content.contains("Claude Code 2.1.332"));
    let mut seed = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    seed.submit("list", 2_000);
    let listed = respond(&mut seed, "Glob", glob(), 3_000);
    assert!(!listed.is_error);
    assert!(listed.content.contains("a.ts"));
}

#[test]
fn a_host_that_declares_its_tools_keeps_them() {
    let config = SessionConfig {
        tools: vec![context_assembly::request::ToolDefinition {
            name: "Glob".into(),
            description: "lists files".into(),
            input_schema: "{}".into(),
            deferred: false,
        }],
        ..SessionConfig::default()
    };
    let mut s = session(Profile::claude_code(), config);
    let turn = s.submit("list", 2_000);
    assert_eq!(attachment_text(&turn, "agent_listing_delta"), None);
    let result = respond(
        &mut s,
        "Glob",
        ToolInvocation::Glob {
            pattern: "*.ts".into(),
            path: None,
        },
        3_000,
    );
    assert!(!result.is_error);
}

#[test]
fn the_first_pass_lists_the_deferred_tools_and_the_agent_types() {
    let mut current = session(Profile::claude_code(), SessionConfig::default());
    let turn = current.submit("hello", 2_000);
    let deferred = attachment_text(&turn, "deferred_tools_delta").expect("listed");
    assert!(deferred.contains("\nWebFetch\n"), "{deferred}");
    let agents = attachment_text(&turn, "agent_listing_delta").expect("listed");
    assert!(agents.contains("\n- Explore: "), "{agents}");
    assert!(agents.contains("(Tools: Read, Edit)"), "{agents}");
    // Listed once: the next pass announces nothing new.
    let next = current.submit("again", 3_000);
    assert_eq!(attachment_text(&next, "deferred_tools_delta"), None);
    let mut seed = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    let turn = seed.submit("hello", 2_000);
    assert_eq!(attachment_text(&turn, "deferred_tools_delta"), None);
    assert_eq!(attachment_text(&turn, "agent_listing_delta"), None);
}

#[test]
fn a_read_has_no_malware_note_and_an_unchanged_re_read_gets_the_contents() {
    let mut current = session(Profile::claude_code(), SessionConfig::default());
    current.submit("read it", 2_000);
    let first = respond(&mut current, "Read", read_a(), 3_000);
    assert!(
        !first.content.contains("system-reminder"),
        "{}",
        first.content
    );
    let again = respond(&mut current, "Read", read_a(), 4_000);
    assert_eq!(again.content, first.content);
    let mut seed = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    seed.submit("read it", 2_000);
    let first = respond(&mut seed, "Read", read_a(), 3_000);
    assert!(first.content.contains("malware"));
    let again = respond(&mut seed, "Read", read_a(), 4_000);
    assert!(!again.content.contains("export const a"), "the stub");
}

#[test]
fn the_repository_state_comes_under_its_heading() {
    let config = SessionConfig {
        git_status: Some("Current branch: main".into()),
        ..SessionConfig::default()
    };
    let mut current = session(Profile::claude_code(), config);
    let turn = current.submit("hello", 2_000);
    let state = attachment_text(&turn, "session_context").expect("sent");
    assert!(state.contains("\n# gitStatus\n"), "{state}");
    assert!(state.contains("Current branch: main"));
}
