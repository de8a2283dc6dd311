//! Plan mode's tools as Claude Code 2.1.88 runs them (§7.5, §3.4, Q32), each found by the
//! conformance lab: the plan file is editable in plan mode, a plan rejected without
//! feedback interrupts the turn, and an approved plan is written back to its file.

use context_assembly::session::{
    PermissionMode, PlanApproval, ResponseBlock, Session, SessionConfig, SessionOptions, ToolCall,
    ToolInvocation, Turn, FILE_UNCHANGED_STUB,
};
use context_assembly::Profile;

/// The marker the original sends after the results of a turn the user stopped.
const INTERRUPTED: &str = "[Request interrupted by user for tool use]";

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
    turn.attachments.iter().map(|a| a.kind.as_str()).collect()
}

#[test]
fn the_plan_file_can_be_edited_in_plan_mode_and_no_other_file() {
    for profile in [Profile::claude_code_2_1_88(), Profile::recommended()] {
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

/// The session after a plan rejected without feedback, and the next human turn.
fn rejected_then_prompt() -> (Session, Turn) {
    let mut session = session(Profile::claude_code_2_1_88());
    session.set_mode(PermissionMode::Plan);
    session.submit("plan it", 1_000);
    let stopped = session
        .respond(vec![exit_plan("x", false, None)], 2_000)
        .unwrap();
    assert_eq!(stopped.round.as_str(), "end-of-turn");
    assert!(stopped.request.is_none());
    let next = session.submit("one question first", 3_000);
    (session, next)
}

#[test]
fn a_plan_rejected_without_feedback_interrupts_the_turn() {
    let (_, next) = rejected_then_prompt();
    let request = next.request.unwrap();
    let last = request.messages.last().unwrap();
    let blocks: Vec<(&str, &str)> = last
        .content
        .iter()
        .map(|b| (b.block_type.as_str(), b.text.as_str()))
        .filter(|(_, text)| !text.starts_with("<system-reminder>"))
        .collect();
    // One user message: the rejected result, the marker, then the new prompt; the marker
    // gets the seam's `\n`, as any text merged before another text does (§7.11).
    assert_eq!(blocks.len(), 3, "{blocks:?}");
    assert_eq!(blocks[0].0, "tool_result");
    assert_eq!(blocks[1], ("text", format!("{INTERRUPTED}\n").as_str()));
    assert_eq!(blocks[2], ("text", "one question first"));
}

#[test]
fn a_rejection_with_feedback_or_an_approval_does_not_interrupt() {
    for (approved, feedback) in [(false, Some("Also the README.")), (true, None)] {
        let mut session = session(Profile::claude_code_2_1_88());
        session.set_mode(PermissionMode::Plan);
        session.submit("plan it", 1_000);
        let turn = session
            .respond(vec![exit_plan("x", approved, feedback)], 2_000)
            .unwrap();
        let request = turn.request.unwrap();
        let texts: Vec<&str> = request
            .messages
            .iter()
            .flat_map(|m| m.content.iter().map(|b| b.text.as_str()))
            .collect();
        assert!(!texts.contains(&INTERRUPTED), "{approved} {feedback:?}");
    }
}

#[test]
fn the_interruption_counts_as_a_human_turn_for_plan_mode() {
    // The first plan_mode reminder came with "plan it"; the next one is due when five
    // human turns (plan mode's definition, §7.4) lie between: the interruption and the
    // four prompts after "one question first" make five.
    let (mut session, next) = rejected_then_prompt();
    assert!(!kinds(&next).contains(&"plan_mode"));
    let mut due = None;
    for n in 1..=6_u64 {
        let turn = session.submit("more", 4_000 + n * 1_000);
        if kinds(&turn).contains(&"plan_mode") {
            due = Some(n);
            break;
        }
    }
    assert_eq!(
        due,
        Some(4),
        "one prompt earlier than without the interruption"
    );
}

#[test]
fn an_approved_plan_is_written_back_and_its_next_read_is_the_unchanged_stub() {
    let mut session = session(Profile::claude_code_2_1_88());
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
    let mut session = session(Profile::claude_code_2_1_88());
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

#[test]
fn calls_after_a_stopping_rejection_are_not_run() {
    // The original cancels the calls queued after the one the user stopped at: they get an
    // error result and do nothing, and a host-run call is not waited for.
    let mut session = session(Profile::claude_code_2_1_88());
    session.set_mode(PermissionMode::Plan);
    session.submit("plan it", 1_000);
    let bash = ResponseBlock::ToolUse(ToolCall {
        id: Some("b".into()),
        name: "Bash".into(),
        input: "{\"command\":\"true\"}".into(),
        invocation: ToolInvocation::External { output: None },
    });
    let turn = session
        .respond(
            vec![
                exit_plan("x", false, None),
                write("w", PLAN, "1. Late.\n"),
                bash,
            ],
            2_000,
        )
        .unwrap();
    assert_eq!(turn.round.as_str(), "end-of-turn");
    assert_eq!(turn.tool_results.len(), 3);
    assert!(turn.tool_results.iter().all(|r| r.is_error));
    assert!(
        session.stat(PLAN).is_err(),
        "the Write after the stop did not run"
    );
    let next = session.submit("sorry", 3_000).request.unwrap();
    let texts: Vec<&str> = next
        .messages
        .last()
        .unwrap()
        .content
        .iter()
        .map(|b| b.text.as_str())
        .collect();
    assert_eq!(
        texts.iter().filter(|t| t.starts_with(INTERRUPTED)).count(),
        1,
        "one interruption for the turn: {texts:?}"
    );
}
