//! Plan mode's tools as Claude Code 2.1.88 runs them (§7.5, §3.4, Q32), each found by the
//! conformance lab: the plan file is editable in plan mode, and an approved plan is written
//! back to its file.

use context_assembly::session::{
    PermissionMode, PlanApproval, ResponseBlock, Session, SessionConfig, SessionOptions, ToolCall,
    ToolInvocation, Turn, FILE_UNCHANGED_STUB,
};
use context_assembly::Profile;

const PLAN: &str = "/home/u/.claude/plans/plan.md";

fn session(profile: Profile) -> Session {
    Session::new(SessionOptions {
        profile,
        cwd: "/p".into(),
        home: Some("/home/u".into()),
        config: SessionConfig::default(),
    })
    .unwrap()
}

fn call(id: &str, name: &str, invocation: ToolInvocation) -> ResponseBlock {
    ResponseBlock::ToolUse(ToolCall {
        id: Some(id.into()),
        name: name.into(),
        input: "{}".into(),
        invocation,
    })
}

fn write(id: &str, path: &str, content: &str) -> ResponseBlock {
    let invocation = ToolInvocation::Write {
        file_path: path.into(),
        content: content.into(),
    };
    call(id, "Write", invocation)
}

fn edit(id: &str, path: &str, old: &str, new: &str) -> ResponseBlock {
    let invocation = ToolInvocation::Edit {
        file_path: path.into(),
        old_string: old.into(),
        new_string: new.into(),
    };
    call(id, "Edit", invocation)
}

fn read(id: &str, path: &str) -> ResponseBlock {
    let invocation = ToolInvocation::Read {
        file_path: path.into(),
        offset: None,
        limit: None,
    };
    call(id, "Read", invocation)
}

fn exit_plan(id: &str, approved: bool, feedback: Option<&str>) -> ResponseBlock {
    let approval = PlanApproval {
        approved,
        feedback: feedback.map(String::from),
    };
    call(
        id,
        "ExitPlanMode",
        ToolInvocation::ExitPlanMode { approval },
    )
}

fn kinds(turn: &Turn) -> Vec<&str> {
    turn.attachments.iter().map(|a| a.kind).collect()
}

#[test]
fn the_plan_file_can_be_edited_in_plan_mode_and_no_other_file() {
    for profile in [Profile::claude_code(), Profile::recommended()] {
        let mut session = session(profile);
        session.write_file("src/a.ts", "a\n", 500).unwrap();
        session.set_mode(PermissionMode::Plan);
        session.submit("plan it", 1_000);
        session
            .respond(vec![write("w", PLAN, "1. Rename.\n")], 2_000)
            .unwrap();
        let turn = session
            .respond(
                vec![
                    edit("e1", PLAN, "1. Rename.\n", "1. Rename.\n2. Test.\n"),
                    edit("e2", "src/a.ts", "a", "b"),
                ],
                3_000,
            )
            .unwrap();
        let plan_edit = &turn.tool_results[0];
        assert!(!plan_edit.is_error, "{}", plan_edit.content);
        assert!(plan_edit.content.contains(PLAN), "{}", plan_edit.content);
        assert_eq!(
            session.read_file_text(PLAN).unwrap().as_deref(),
            Some("1. Rename.\n2. Test.\n")
        );
        let other_edit = &turn.tool_results[1];
        assert!(other_edit.is_error);
        assert!(
            other_edit.content.contains("plan file"),
            "names what is allowed"
        );
        assert_eq!(
            session.read_file_text("src/a.ts").unwrap().as_deref(),
            Some("a\n")
        );
    }
}

#[test]
fn an_approved_plan_is_written_back_and_its_next_read_is_the_unchanged_stub() {
    let mut session = session(Profile::claude_code());
    session.set_mode(PermissionMode::Plan);
    session.submit("plan it", 1_000);
    session
        .respond(vec![write("w", PLAN, "1. Rename.\n")], 2_000)
        .unwrap();
    let approved = session
        .respond(vec![exit_plan("x", true, None)], 3_000)
        .unwrap();
    assert_eq!(session.mode(), PermissionMode::Default);
    // Written back unchanged, at the approval's time.
    assert_eq!(session.stat(PLAN).unwrap().mtime_ms, 3_000);
    assert_eq!(
        session.read_file_text(PLAN).unwrap().as_deref(),
        Some("1. Rename.\n")
    );
    // The tool round's scan re-read it: the same text, so no note, and a full read stored.
    assert!(!kinds(&approved).contains(&"edited_text_file"));
    let row = session
        .file_state()
        .into_iter()
        .find(|r| r.path == PLAN)
        .unwrap();
    assert_eq!((row.timestamp, row.offset), (3_000, Some(1)));
    let turn = session.respond(vec![read("r", PLAN)], 4_000).unwrap();
    assert_eq!(turn.tool_results[0].content, FILE_UNCHANGED_STUB);
}

#[test]
fn a_rejected_plan_is_not_written_back() {
    let mut session = session(Profile::claude_code());
    session.set_mode(PermissionMode::Plan);
    session.submit("plan it", 1_000);
    session
        .respond(vec![write("w", PLAN, "1. Rename.\n")], 2_000)
        .unwrap();
    session
        .respond(vec![exit_plan("x", false, Some("More detail."))], 3_000)
        .unwrap();
    assert_eq!(session.stat(PLAN).unwrap().mtime_ms, 2_000);
}
