//! Sessions that outlive a page: a snapshot taken at any point restores a session whose
//! rest of the run is identical to the original's, act for act.

use context_assembly::snapshot::{
    JournaledSession, RestoreOptions, SessionSpec, SNAPSHOT_FORMAT_VERSION,
};
use context_assembly::vfs::TransientError;
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
    /// Looks at a file's and its directory's kind, size and mtime.
    Stat(usize),
    /// Renames one file over another (an editor's atomic save).
    Rename(usize, usize),
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
        (0..PATHS.len()).prop_map(Op::Stat),
        (0..PATHS.len(), 0..PATHS.len()).prop_map(|(from, to)| Op::Rename(from, to)),
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
        Op::Stat(p) => {
            let file = session.session().stat(PATHS[*p]);
            let dir = PATHS[*p]
                .rsplit_once('/')
                .map(|(dir, _)| session.session().stat(dir));
            let cwd = session.session().stat("/p");
            format!(
                "{file:?} {dir:?} {cwd:?} {:?}",
                session.session().read_file_text(PATHS[*p])
            )
        }
        Op::Rename(from, to) => format!("{:?}", session.rename(PATHS[*from], PATHS[*to], at)),
    };
    outcome
}

/// A host's save: the writes that coalesce in the journal.
fn save() -> impl Strategy<Value = Op> {
    (0..PATHS.len(), "[a-z\n]{0,12}").prop_map(|(p, text)| Op::WriteFile(p, text))
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
        ops in proptest::collection::vec(prop_oneof![3 => op(), 2 => save()], 1..32),
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
fn a_snapshot_of_another_format_is_refused_with_its_version_and_the_ones_read() {
    let session = JournaledSession::new(spec(ProfileName::ClaudeCode)).unwrap();
    let version = format!("\"formatVersion\":{SNAPSHOT_FORMAT_VERSION}");
    let engine = context_assembly::VERSION;
    let newer = session.snapshot().replace(&version, "\"formatVersion\":99");
    let error = JournaledSession::restore(&newer).unwrap_err().to_string();
    assert_eq!(
        error,
        format!("snapshot.formatVersion: 99 is newer than this engine (context-assembly {engine}) reads formats 1 to 2: restore it with a newer context-assembly")
    );
    let older = session.snapshot().replace(&version, "\"formatVersion\":0");
    let error = JournaledSession::restore(&older).unwrap_err().to_string();
    assert_eq!(
        error,
        format!("snapshot.formatVersion: 0 is not a format this engine (context-assembly {engine}) reads formats 1 to 2")
    );
}

#[test]
fn a_version_1_snapshot_restores_and_its_saves_coalesce() {
    // Written by the engine before coalescing: three saves of one file, then a turn.
    let v1 = r#"{"snapshot":"context-assembly session","formatVersion":1,"engine":"0.1.0","session":{"profile":"recommended","cwd":"/p","home":null,"config":null},"acts":[{"act":"writeFile","path":"a.ts","text":"one","mtimeMs":1},{"act":"writeFile","path":"a.ts","text":"two","mtimeMs":2},{"act":"writeFile","path":"a.ts","text":"three","mtimeMs":3},{"act":"submit","prompt":"look at @a.ts","atMs":4}]}"#;
    let restored = JournaledSession::restore(v1).unwrap();
    assert_eq!(
        restored
            .session()
            .read_file_text("a.ts")
            .unwrap()
            .as_deref(),
        Some("three")
    );
    let snapshot = restored.snapshot();
    assert!(snapshot.contains("\"formatVersion\":2"), "{snapshot}");
    assert_eq!(restored.acts(), 3, "{snapshot}");
    assert!(!snapshot.contains("\"two\""), "{snapshot}");
    assert_eq!(
        JournaledSession::restore(&snapshot).unwrap().snapshot(),
        snapshot
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
    assert_eq!(
        error,
        "snapshot.acts[0]: invalid type: integer `7`, expected a string"
    );
    let error = JournaledSession::restore("[1]").unwrap_err().to_string();
    assert!(
        error.starts_with("snapshot: is not a session snapshot"),
        "{error}"
    );
}

#[test]
fn a_write_gives_its_text_or_its_bytes_exactly() {
    let mut session = JournaledSession::new(spec(ProfileName::ClaudeCode)).unwrap();
    session.write_file("a.ts", "x".into(), 5).unwrap();
    let snapshot = session.snapshot();
    let expected = "snapshot.acts[0].text: give the file's text, or its bytes in base64";
    let both = snapshot.replace("\"text\":\"x\"", "\"text\":\"x\",\"bytes\":\"eA==\"");
    let neither = snapshot.replace("\"text\":\"x\",", "");
    for tampered in [both, neither] {
        assert_ne!(tampered, snapshot);
        let error = JournaledSession::restore(&tampered)
            .unwrap_err()
            .to_string();
        assert_eq!(error, expected);
    }
    let bytes = snapshot.replace("\"text\":\"x\"", "\"bytes\":\"eA==\"");
    let restored = JournaledSession::restore(&bytes).unwrap();
    assert_eq!(restored.acts(), 1);
}

#[test]
fn an_unknown_field_is_refused_naming_it_and_its_act() {
    let mut session = JournaledSession::new(spec(ProfileName::Recommended)).unwrap();
    session.write_file("a.ts", "x".into(), 5).unwrap();
    session.submit("hi", 6).unwrap();
    let snapshot = session.snapshot();
    let extra = snapshot.replace("\"prompt\":\"hi\"", "\"prompt\":\"hi\",\"deny\":[]");
    let error = JournaledSession::restore(&extra).unwrap_err().to_string();
    assert_eq!(
        error,
        "snapshot.acts[1]: unknown field `deny`, expected `prompt` or `atMs`"
    );
    let extra = snapshot.replace("\"cwd\":\"/p\"", "\"cwd\":\"/p\",\"trusted\":true");
    let error = JournaledSession::restore(&extra).unwrap_err().to_string();
    assert!(
        error.starts_with("snapshot.session.trusted: is not a field"),
        "{error}"
    );
    let extra = snapshot.replace("\"acts\":[", "\"extra\":1,\"acts\":[");
    let error = JournaledSession::restore(&extra).unwrap_err().to_string();
    assert!(
        error.starts_with("snapshot.extra: is not a field"),
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

/// Issue 28: an editor that autosaves one 200 KB file 500 times leaves a journal, and a
/// snapshot, the size of the file, not of its history; the restored session is equal.
#[test]
fn saves_the_session_never_looked_at_cost_one_copy_of_the_file() {
    let mut session = JournaledSession::new(spec(ProfileName::Recommended)).unwrap();
    let line = "export const value = 1234567890; // a line of a large file\n";
    let base = line.repeat(200_000 / line.len());
    session.write_file("src/other.ts", "b".into(), 1).unwrap();
    for save in 0..500u64 {
        let text = format!("{base}// save {save}\n");
        session
            .write_file("src/big.ts", text.as_str().into(), 10 + save)
            .unwrap();
        // A second file saved in turn with the first: the two runs interleave.
        session
            .write_file(
                "src/other.ts",
                format!("b{save}").as_str().into(),
                10 + save,
            )
            .unwrap();
    }
    let snapshot = session.snapshot();
    assert!(snapshot.len() < 2 * base.len(), "{} bytes", snapshot.len());
    assert!(session.acts() <= 4, "{} acts", session.acts());
    let mut restored = JournaledSession::restore(&snapshot).unwrap();
    assert_eq!(restored.snapshot(), snapshot);
    assert_eq!(
        restored.session().stat("src"),
        session.session().stat("src")
    );
    let prompt = "look at @src/big.ts and @src/other.ts";
    assert_eq!(
        restored.submit(prompt, 600).unwrap(),
        session.submit(prompt, 600).unwrap()
    );
    // A save the session looked at is kept: the turn saw it.
    session
        .write_file("src/big.ts", "short\n".into(), 700)
        .unwrap();
    assert!(session.snapshot().len() > snapshot.len());
}

#[test]
fn a_host_restores_a_snapshot_it_did_not_write_under_its_own_rules() {
    let mut written = JournaledSession::new(SessionSpec {
        config: Some(r#"{"deny": ["Read(./.env)"]}"#.into()),
        ..spec(ProfileName::Recommended)
    })
    .unwrap();
    written
        .write_file(".env", "TOKEN=s3cret\n".into(), 1)
        .unwrap();
    let snapshot = written.snapshot();
    // Snapshots hold every file the host wrote, denied ones included: a replay must be exact.
    assert!(snapshot.contains("s3cret"));
    let prompt = "what is in @.env?";
    let sent =
        |turn: &context_assembly::session::Turn| serde_json::to_string(&turn.request).unwrap();
    let turn = JournaledSession::restore(&snapshot)
        .unwrap()
        .submit(prompt, 2)
        .unwrap();
    assert!(!sent(&turn).contains("s3cret"));

    // Edited to drop the rule: restored as written, the file reaches the request.
    let edited = snapshot.replace(r#"Read(./.env)"#, r#"Read(./.nothing)"#);
    let turn = JournaledSession::restore(&edited)
        .unwrap()
        .submit(prompt, 2)
        .unwrap();
    assert!(sent(&turn).contains("s3cret"));

    // Under the host's own configuration, it does not, and a later snapshot records that.
    let host = RestoreOptions {
        profile: Some(ProfileName::Recommended),
        config: Some(r#"{"deny": ["Read(./.env)"]}"#.into()),
    };
    let mut restored = JournaledSession::restore_with(&edited, &host).unwrap();
    let turn = restored.submit(prompt, 2).unwrap();
    assert!(!sent(&turn).contains("s3cret"), "{}", sent(&turn));
    assert!(restored.snapshot().contains(r#"Read(./.env)"#));

    let bad = RestoreOptions {
        profile: None,
        config: Some(r#"{"deny": [7]}"#.into()),
    };
    let error = JournaledSession::restore_with(&edited, &bad)
        .unwrap_err()
        .to_string();
    assert!(error.starts_with("config.deny[0]"), "{error}");
}

#[test]
fn a_transient_error_needs_a_path() {
    let mut session = JournaledSession::new(spec(ProfileName::Recommended)).unwrap();
    session.write_file("a.ts", "x".into(), 1).unwrap();
    let error = session
        .set_transient_error("", Some(TransientError::Busy))
        .unwrap_err()
        .to_string();
    assert!(error.starts_with("path \"\": is empty"), "{error}");
    assert_eq!(session.acts(), 1);
    let turn = session.submit("look at @a.ts", 2).unwrap();
    assert_eq!(turn.attachments.len(), 1, "{:?}", turn.decisions);
}
