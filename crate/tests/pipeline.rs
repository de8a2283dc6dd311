//! The attachment pipeline inside a session: emission order, isolation of a failing
//! collector, the work budget, the attachments switch, and what the request makes of it.

use context_assembly::attachment::AttachmentKind;
use context_assembly::attachment::Verdict;
use context_assembly::session::{
    Diagnostic, DiagnosticFile, IdeSelection, McpServer, PermissionMode, ResponseBlock, Session,
    SessionConfig, SessionOptions, Severity, Skill, ToolCall, ToolInvocation, Turn,
};
use context_assembly::vfs::TransientError;
use context_assembly::Profile;

fn session_with(profile: Profile, config: SessionConfig) -> Session {
    Session::new(SessionOptions {
        profile,
        cwd: "/p".into(),
        home: None,
        config,
    })
    .unwrap()
}

fn kinds(turn: &Turn) -> Vec<&str> {
    turn.attachments.iter().map(|a| a.kind.as_str()).collect()
}

fn position(turn: &Turn, kind: &str) -> usize {
    kinds(turn)
        .iter()
        .position(|k| *k == kind)
        .unwrap_or_else(|| panic!("no {kind} in {:?}", kinds(turn)))
}

fn read_call(path: &str) -> ResponseBlock {
    ResponseBlock::ToolUse(ToolCall {
        id: None,
        name: "Read".into(),
        input: format!("{{\"file_path\":\"{path}\"}}"),
        invocation: ToolInvocation::Read {
            file_path: path.into(),
            offset: None,
            limit: None,
        },
    })
}

/// A session in which one human turn produces a kind of every phase.
fn busy_session() -> Session {
    let config = SessionConfig {
        skills: vec![Skill {
            name: "pdf".into(),
            description: "Reads PDFs.".into(),
        }],
        deferred_tools: vec!["WebFetch".into()],
        agents: vec!["reviewer".into()],
        mcp_servers: vec![McpServer {
            name: "docs".into(),
            instructions: Some("Search before you answer.".into()),
        }],
        output_style: Some("Explanatory".into()),
        ..SessionConfig::default()
    };
    let mut session = session_with(Profile::claude_code_2_1_88(), config);
    session
        .write_file("src/CLAUDE.md", "Nested rules.\n", 1_000)
        .unwrap();
    session.write_file("lib/b.ts", "two\n", 1_000).unwrap();
    session.write_file("docs/x.md", "x\n", 1_000).unwrap();
    session
        .write_file("lib/CLAUDE.md", "Lib rules.\n", 1_000)
        .unwrap();
    session.write("src/a.ts", "one\n", 2_000).unwrap(); // the agent's Write: watched
    session.submit("start", 3_000);
    session
        .write_file("src/a.ts", "one\nmore\n", 5_000)
        .unwrap();
    session.set_mode(PermissionMode::Plan);
    session.queue_command("also check the tests");
    session.set_critical_reminder(Some("Never push to main.".into()));
    session.set_ide(None, Some("lib/b.ts".into()));
    session.add_diagnostics(vec![DiagnosticFile {
        path: "/p/src/a.ts".into(),
        items: vec![Diagnostic {
            severity: Severity::Error,
            line: 0,
            column: 2,
            message: "unused".into(),
            code: None,
            source: Some("ts".into()),
        }],
    }]);
    session
}

#[test]
fn one_pass_emits_in_the_originals_order() {
    let mut session = busy_session();
    let turn = session.submit("what now, @docs/x.md?", 6_000);
    // Phase 1 (mentions), phase 2 (queued command, the change, the nested memory the change's
    // re-read brought in, plan mode, the critical reminder), phase 3 (the opened file's
    // nested memory, then the opened file, output style, diagnostics).
    assert_eq!(
        kinds(&turn),
        [
            "file",
            "queued_command",
            "edited_text_file",
            "nested_memory",
            "plan_mode",
            "critical_system_reminder",
            "nested_memory",
            "opened_file_in_ide",
            "output_style",
            "diagnostics",
        ]
    );
    // The opened file's nested memory comes right before the opened-file note (§7.8).
    let opened = position(&turn, "opened_file_in_ide");
    assert_eq!(
        turn.attachments[opened - 1].kind,
        AttachmentKind::NestedMemory
    );
    assert_eq!(
        turn.attachments[opened - 1].path.as_deref(),
        Some("/p/lib/CLAUDE.md")
    );
    // Delivered once: the queued command and the diagnostics are gone on the next pass.
    let next = session.tool_round(7_000);
    assert!(!kinds(&next).contains(&"queued_command"));
    assert!(!kinds(&next).contains(&"diagnostics"));
    assert!(
        kinds(&next).contains(&"critical_system_reminder"),
        "every pass"
    );
}

#[test]
fn listings_are_announced_once_and_a_selection_hides_the_opened_file() {
    let mut session = busy_session();
    let first = session.tool_round(6_000);
    for kind in [
        "deferred_tools_delta",
        "agent_listing_delta",
        "mcp_instructions_delta",
    ] {
        assert!(
            !kinds(&first).contains(&kind),
            "{kind} was announced on the first pass"
        );
    }
    session.set_ide(
        Some(IdeSelection {
            path: "lib/b.ts".into(),
            line_start: 0,
            line_count: 1,
            ends_at_line_start: false,
            text: "two".into(),
        }),
        Some("lib/b.ts".into()),
    );
    let turn = session.tool_round(7_000);
    assert!(kinds(&turn).contains(&"selected_lines_in_ide"));
    assert!(!kinds(&turn).contains(&"opened_file_in_ide"));
}

#[test]
fn a_failing_collector_is_a_decision_and_the_others_go_on() {
    let config = SessionConfig {
        memory_dir: Some("/home/user/memory".into()),
        ..SessionConfig::default()
    };
    let mut session = session_with(Profile::claude_code_2_1_88(), config);
    session
        .write_file(
            "/home/user/memory/deploys.md",
            "Deploys go through staging.\n",
            1_000,
        )
        .unwrap();
    session.write_file("notes.md", "n\n", 1_000).unwrap();
    session
        .set_transient_error("/home/user/memory", Some(TransientError::PermissionDenied))
        .unwrap();
    let turn = session.submit("how do deploys work? see @notes.md", 2_000);
    let failed = turn
        .decisions
        .iter()
        .find(|d| d.subject == "relevant_memories")
        .expect("a decision for the failed collector");
    assert_eq!(failed.verdict, Verdict::Failed);
    assert_eq!(kinds(&turn), ["file"], "the mention still arrives");
    session
        .set_transient_error("/home/user/memory", None)
        .unwrap();
    let turn = session.submit("and how do deploys get approved?", 3_000);
    assert_eq!(kinds(&turn), ["relevant_memories"]);
    let again = session.submit("deploys again, please", 4_000);
    assert!(
        !kinds(&again).contains(&"relevant_memories"),
        "surfaced once"
    );
}

#[test]
fn the_work_budget_cancels_file_work_and_says_so() {
    let mut profile = Profile::claude_code_2_1_88();
    profile.attachments.work_budget = 1_000;
    let mut session = session_with(profile, SessionConfig::default());
    let body = "x".repeat(600);
    for name in ["a", "b", "c"] {
        session
            .write_file(&format!("{name}.txt"), body.as_str(), 1_000)
            .unwrap();
    }
    let turn = session.submit("@a.txt @b.txt @c.txt", 2_000);
    assert_eq!(kinds(&turn), ["file"], "only the first fits in 1000 units");
    let over: Vec<&str> = turn
        .decisions
        .iter()
        .filter(|d| d.verdict == Verdict::OverBudget)
        .map(|d| d.subject.as_str())
        .collect();
    assert_eq!(over, ["@b.txt", "@c.txt", "attachment pass"]);
}

#[test]
fn switching_attachments_off_leaves_only_queued_commands() {
    let config = SessionConfig {
        disable_attachments: true,
        ..SessionConfig::default()
    };
    let mut session = session_with(Profile::claude_code_2_1_88(), config);
    session.write_file("a.txt", "a\n", 1_000).unwrap();
    session.queue_command("one more thing");
    session.set_critical_reminder(Some("Be careful.".into()));
    let turn = session.submit("look at @a.txt", 2_000);
    assert_eq!(kinds(&turn), ["queued_command"]);
    assert!(turn.decisions.iter().any(|d| d.subject == "attachments"));
}

#[test]
fn a_plan_rejected_without_feedback_ends_the_turn() {
    let mut session = session_with(Profile::claude_code_2_1_88(), SessionConfig::default());
    session.set_mode(PermissionMode::Plan);
    session.submit("plan it", 1_000);
    let reject = ResponseBlock::ToolUse(ToolCall {
        id: Some("exit".into()),
        name: "ExitPlanMode".into(),
        input: "{\"plan\":\"p\"}".into(),
        invocation: ToolInvocation::ExitPlanMode {
            approval: context_assembly::session::PlanApproval {
                approved: false,
                feedback: None,
            },
        },
    });
    let turn = session.respond(vec![reject], 2_000).unwrap();
    assert_eq!(turn.round.as_str(), "end-of-turn");
    assert!(turn.request.is_none());
    assert!(turn.tool_results[0].is_error);
    assert_eq!(session.mode(), PermissionMode::Plan);
}

#[test]
fn mid_turn_attachments_fold_into_the_last_tool_result() {
    let mut session = session_with(Profile::claude_code_2_1_88(), SessionConfig::default());
    session.write("a.txt", "a\n", 1_500).unwrap(); // the agent's Write: the file is watched
    session.submit("go", 2_000);
    session.write_file("a.txt", "changed\n", 2_500).unwrap();
    let turn = session.respond(vec![read_call("b.txt")], 3_000).unwrap();
    assert_eq!(kinds(&turn), ["edited_text_file"]);
    let request = turn.request.unwrap();
    let last = request.messages.last().unwrap();
    let result = &last.content[0];
    assert_eq!(result.block_type.as_str(), "tool_result");
    assert_eq!(result.parts[1].source, "edited_text_file");
    assert_eq!(
        result.tokens,
        result.parts.iter().map(|p| p.tokens).sum::<u64>()
    );
}

#[test]
fn host_run_tools_await_their_results_and_a_bad_batch_changes_nothing() {
    let mut session = session_with(Profile::claude_code_2_1_88(), SessionConfig::default());
    session.submit("run both", 1_000);
    let bash = |id: &str| {
        ResponseBlock::ToolUse(ToolCall {
            id: Some(id.into()),
            name: "Bash".into(),
            input: "{\"command\":\"true\"}".into(),
            invocation: ToolInvocation::External { output: None },
        })
    };
    let result = |id: &str| context_assembly::transcript::ToolResultBlock {
        tool_use_id: id.into(),
        content: format!("{id} done"),
        is_error: false,
    };
    let waiting = session
        .respond(vec![bash("b1"), bash("b2")], 2_000)
        .unwrap();
    assert_eq!(waiting.round.as_str(), "awaiting-tool-results");
    assert!(waiting.request.is_none());
    let partial = session
        .supply_tool_results(vec![result("b1")], 3_000)
        .unwrap();
    assert_eq!(partial.round.as_str(), "awaiting-tool-results");
    let error = session
        .supply_tool_results(vec![result("b2"), result("b9")], 4_000)
        .unwrap_err();
    assert_eq!(
        error.to_string(),
        "results[1].toolUseId: no call \"b9\" awaits a result: awaited are b2"
    );
    let done = session
        .supply_tool_results(vec![result("b2")], 5_000)
        .unwrap();
    assert_eq!(done.round.as_str(), "tool-round");
    let ids: Vec<&str> = done
        .tool_results
        .iter()
        .map(|r| r.tool_use_id.as_str())
        .collect();
    assert_eq!(ids, ["b1", "b2"], "in the order of the calls");
    let request = done.request.unwrap();
    assert_eq!(request.messages.last().unwrap().content.len(), 2);
}
