//! Plan mode's tools as Claude Code 2.1.88 runs them (§7.5), each found by the conformance
//! lab: the plan file is editable in plan mode.

use context_assembly::session::{
    PermissionMode, ResponseBlock, Session, SessionConfig, SessionOptions, ToolCall, ToolInvocation,
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
