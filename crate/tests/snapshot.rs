//! Sessions that outlive a page: a snapshot taken at any point restores a session whose
//! rest of the run is identical to the original's, act for act.

use context_assembly::scenario::{JournaledSession, SessionSpec, SNAPSHOT_FORMAT_VERSION};
use context_assembly::ProfileName;
use proptest::prelude::*;

const PATHS: [&str; 3] = ["src/a.ts", "src/b.md", "CLAUDE.md"];

/// One thing a host does to a session.
#[derive(Debug, Clone)]
enum Op {
    WriteFile(usize, String),
    WriteBytes(usize, Vec<u8>),
    DeleteFile(usize),
    Read(usize),
    Edit(usize, String),
    Submit(usize),
    ToolRound,
    AssistantRead(usize),
    SetMode(&'static str),
    Compact(&'static str),
    PlanAndApply,
    BackwardsTime,
}

fn op() -> impl Strategy<Value = Op> {
    let path = 0..PATHS.len();
    prop_oneof![
        (path.clone(), "[a-z\n]{0,40}").prop_map(|(p, text)| Op::WriteFile(p, text)),
        (path.clone(), proptest::collection::vec(any::<u8>(), 0..12))
            .prop_map(|(p, b)| Op::WriteBytes(p, b)),
        path.clone().prop_map(Op::DeleteFile),
        path.clone().prop_map(Op::Read),
        (path.clone(), "[a-z]{1,6}").prop_map(|(p, new)| Op::Edit(p, new)),
        path.clone().prop_map(Op::Submit),
        Just(Op::ToolRound),
        path.prop_map(Op::AssistantRead),
        prop_oneof![Just("plan"), Just("default"), Just("auto")].prop_map(Op::SetMode),
        prop_oneof![
            Just("claude-code.full"),
            Just("opencode.prune"),
            Just("swe.observation_mask")
        ]
        .prop_map(Op::Compact),
        Just(Op::PlanAndApply),
        Just(Op::BackwardsTime),
    ]
}

/// Runs `op` as act number `index`; the outcome as text, errors included.
fn run(session: &mut JournaledSession, op: &Op, index: usize) -> String {
    let at = 1_000 + 1_000 * index as u64;
    let outcome = match op {
        Op::WriteFile(p, text) => format!(
            "{:?}",
            session.write_file(PATHS[*p], text.as_str().into(), at)
        ),
        Op::WriteBytes(p, bytes) => format!(
            "{:?}",
            session.write_file(PATHS[*p], bytes.as_slice().into(), at)
        ),
        Op::DeleteFile(p) => format!("{:?}", session.delete_file(PATHS[*p], at)),
        Op::Read(p) => format!("{:?}", session.read(PATHS[*p], None, None, at)),
        Op::Edit(p, new) => format!("{:?}", session.edit(PATHS[*p], "a", new, at)),
        Op::Submit(p) => format!(
            "{:?}",
            session.submit(&format!("look at @{}", PATHS[*p]), at)
        ),
        Op::ToolRound => format!("{:?}", session.tool_round(at)),
        Op::AssistantRead(p) => {
            let step = format!(
                r#"{{"kind":"assistant","blocks":[{{"type":"tool_use","name":"Read","input":{{"file_path":"{}"}}}}]}}"#,
                PATHS[*p]
            );
            format!("{:?}", session.step(&step, at))
        }
        Op::SetMode(mode) => format!(
            "{:?}",
            session.step(&format!(r#"{{"kind":"setMode","mode":"{mode}"}}"#), at)
        ),
        Op::Compact(policy) => format!(
            "{:?}",
            session.step(&format!(r#"{{"kind":"compact","policy":"{policy}"}}"#), at)
        ),
        Op::PlanAndApply => {
            let plan = session.plan_compaction("{}", at);
            let applied = plan.as_ref().map(|plan| {
                session.apply_compaction(&format!(r#"{{"id":{}}}"#, plan.id), None, at)
            });
            format!("{plan:?} {applied:?}")
        }
        Op::BackwardsTime => format!("{:?}", session.submit("too early", 1)),
    };
    outcome
}

fn spec(profile: ProfileName) -> SessionSpec {
    SessionSpec {
        profile,
        cwd: "/p".into(),
        home: None,
        config: Some(r#"{"contextWindow": 20000, "outputReserve": 4000}"#.into()),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    #[test]
    fn a_restored_session_runs_on_exactly_as_the_original(
        ops in proptest::collection::vec(op(), 1..24),
        cut in any::<proptest::sample::Index>(),
        profile in prop_oneof![Just(ProfileName::ClaudeCode), Just(ProfileName::Codex), Just(ProfileName::Recommended)],
    ) {
        let cut = cut.index(ops.len() + 1);
        let mut original = JournaledSession::new(spec(profile)).unwrap();
        for (index, op) in ops[..cut].iter().enumerate() {
            run(&mut original, op, index);
        }
        let snapshot = original.snapshot();
        let mut restored = JournaledSession::restore(&snapshot).unwrap();
        prop_assert_eq!(restored.snapshot(), snapshot);
        for (index, op) in ops.iter().enumerate().skip(cut) {
            let expected = run(&mut original, op, index);
            prop_assert_eq!(run(&mut restored, op, index), expected, "op {} {:?}", index, op);
        }
        prop_assert_eq!(restored.snapshot(), original.snapshot());
    }
}

#[test]
fn a_snapshot_of_a_newer_format_is_refused_with_the_versions() {
    let session = JournaledSession::new(spec(ProfileName::ClaudeCode)).unwrap();
    let newer = session.snapshot().replace(
        &format!("\"formatVersion\":{SNAPSHOT_FORMAT_VERSION}"),
        "\"formatVersion\":99",
    );
    let error = JournaledSession::restore(&newer).unwrap_err().to_string();
    assert_eq!(
        error,
        "snapshot.formatVersion: 99 is newer than this engine reads (1): restore it with a newer context-assembly"
    );
}

#[test]
fn a_malformed_act_is_named_by_its_place() {
    let mut session = JournaledSession::new(spec(ProfileName::ClaudeCode)).unwrap();
    session.write_file("a.ts", "x".into(), 5).unwrap();
    let broken = session
        .snapshot()
        .replace("\"path\":\"a.ts\"", "\"path\":7");
    let error = JournaledSession::restore(&broken).unwrap_err().to_string();
    assert_eq!(error, "snapshot.acts[0].path: must be a string");
    let error = JournaledSession::restore("[1]").unwrap_err().to_string();
    assert!(
        error.starts_with("snapshot: is not a session snapshot"),
        "{error}"
    );
}

#[test]
fn an_act_that_no_longer_replays_as_it_ran_is_refused() {
    let mut session = JournaledSession::new(spec(ProfileName::ClaudeCode)).unwrap();
    session.write_file("a.ts", "x".into(), 5).unwrap();
    // A directory in the way: the replayed write fails where the original succeeded.
    let tampered = session.snapshot().replace(
        "\"acts\":[",
        "\"acts\":[{\"act\":\"mkdir\",\"path\":\"a.ts\",\"atMs\":1},",
    );
    let error = JournaledSession::restore(&tampered)
        .unwrap_err()
        .to_string();
    assert!(
        error.starts_with("snapshot.acts[1]: does not replay: "),
        "{error}"
    );
}
