//! What a compaction hands the next request, as Claude Code 2.1.88 does it (the conformance
//! lab's findings, docs/conformance.md): restored files carry the malware note like mentions
//! (Q23), references keep their file's place in the ranking (§9.4), the summary names the
//! transcript (§9.3 item 8), a typed `/compact` leaves its own messages (§9.3 item 7) and
//! drops the nested-memory triggers of its restore (§8.1, §9.4) — and what `recommended`
//! does instead.

mod common;

use common::read;
use context_assembly::request::Request;
use context_assembly::session::{
    CompactionOptions, ResponseBlock, Session, SessionConfig, Trigger, FILE_UNCHANGED_STUB,
};
use context_assembly::wording::files::malware_reminder;
use context_assembly::Profile;

fn session(profile: Profile, config: SessionConfig) -> Session {
    common::session_in(profile, None, config)
}

/// A turn that reads `paths`, in one round.
fn read_turn(s: &mut Session, paths: &[&str], at_ms: u64) {
    s.submit("look", at_ms);
    let reads = paths
        .iter()
        .enumerate()
        .map(|(i, p)| read(&format!("r{at_ms}_{i}"), p))
        .collect();
    s.respond(reads, at_ms + 1).unwrap();
    s.respond(vec![ResponseBlock::Text("Read.".into())], at_ms + 2)
        .unwrap();
}

/// Question-and-answer turns, enough that `recommended`'s kept tail holds no Read.
fn chatter(s: &mut Session, at_ms: u64) {
    for i in 0..6 {
        s.submit(&format!("question {i}"), at_ms + i * 10);
        s.respond(
            vec![ResponseBlock::Text("answer".into())],
            at_ms + i * 10 + 5,
        )
        .unwrap();
    }
}

/// The sources and texts of a request's message blocks, in order.
fn blocks(request: &Request) -> Vec<(String, String)> {
    request
        .messages
        .iter()
        .flat_map(|m| m.content.iter())
        .map(|b| (b.source.clone(), b.text.clone()))
        .collect()
}

fn typed(instructions: Option<&str>) -> CompactionOptions {
    CompactionOptions {
        instructions: instructions.map(String::from),
        ..CompactionOptions::default()
    }
}

#[test]
fn q23_a_restored_file_carries_the_malware_note_as_a_mention_does() {
    for (profile, noted) in [
        (Profile::claude_code_2_1_88(), true),
        (Profile::recommended(), false),
    ] {
        let mut s = session(profile, SessionConfig::default());
        s.write_file("src/a.ts", "export const a = 1;\n", 1_000)
            .unwrap();
        read_turn(&mut s, &["src/a.ts"], 10_000);
        chatter(&mut s, 11_000);
        s.compact(typed(None), None, 20_000).unwrap();
        let request = s.current_request(20_000);
        let result = blocks(&request)
            .into_iter()
            .find(|(source, text)| source == "file" && text.contains("export const a"))
            .expect("the file is restored");
        assert_eq!(
            result.1.contains(&malware_reminder()),
            noted,
            "{}",
            result.1
        );
    }
}

#[test]
fn a_reference_keeps_its_place_among_the_restored_files() {
    // Ranked by mtime: c (newest), big (too large: a reference), a.
    let mut s = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    s.write_file("src/a.ts", "export const a = 1;\n", 1_000)
        .unwrap();
    let big = "export const padding = 'padding padding padding padding padding';\n".repeat(700);
    s.write_file("src/big.ts", big.as_str(), 2_000).unwrap();
    s.write_file("src/c.ts", "export const c = 3;\n", 3_000)
        .unwrap();
    read_turn(&mut s, &["src/a.ts", "src/big.ts", "src/c.ts"], 10_000);
    let plan = s.plan_compaction(typed(None), 20_000);
    let restored: Vec<(&str, Option<&str>)> = plan
        .post_compact
        .iter()
        .map(|a| (a.kind.as_str(), a.path.as_deref()))
        .collect();
    assert_eq!(
        restored,
        [
            ("file", Some("/p/src/c.ts")),
            ("compact_file_reference", Some("/p/src/big.ts")),
            ("file", Some("/p/src/a.ts")),
        ]
    );
}

#[test]
fn the_summary_names_the_transcript_when_the_host_keeps_one() {
    let path = "~/.claude/projects/-p/0000.jsonl";
    for transcript_path in [Some(path), None] {
        let config = SessionConfig {
            transcript_path: transcript_path.map(String::from),
            ..SessionConfig::default()
        };
        let mut s = session(Profile::claude_code_2_1_88(), config);
        s.write_file("a.txt", "a\n", 1_000).unwrap();
        read_turn(&mut s, &["a.txt"], 10_000);
        let report = s.compact(typed(None), None, 20_000).unwrap();
        let summary = report.summary.unwrap();
        assert_eq!(
            summary.contains(path),
            transcript_path.is_some(),
            "{summary}"
        );
    }
}

#[test]
fn a_typed_compact_leaves_its_own_messages_before_the_next_prompt() {
    for (profile, kept) in [
        (Profile::claude_code_2_1_88(), true),
        (Profile::recommended(), false),
    ] {
        let mut s = session(profile, SessionConfig::default());
        s.write_file("a.txt", "a\n", 1_000).unwrap();
        read_turn(&mut s, &["a.txt"], 10_000);
        chatter(&mut s, 11_000);
        s.compact(typed(Some("Keep the names.")), None, 20_000)
            .unwrap();
        let turn = s.submit("What next?", 21_000);
        let sources: Vec<String> = blocks(turn.request.as_ref().unwrap())
            .into_iter()
            .map(|(source, text)| match source.as_str() {
                "local_command" => text,
                _ => source,
            })
            .collect();
        let summary = sources.iter().position(|s| s == "compact_summary");
        let summary = summary.unwrap_or_else(|| panic!("{sources:?}"));
        let after: Vec<&str> = sources[summary + 1..].iter().map(String::as_str).collect();
        match kept {
            true => {
                assert_eq!(after.len(), 4, "{after:?}");
                assert!(after[0].starts_with("<local-command-caveat>"));
                assert!(after[1].starts_with("<command-name>/compact</command-name>"));
                assert!(after[1].contains("<command-args>Keep the names.</command-args>"));
                // The terminal UI's output, dimmed (print mode's is plain).
                assert!(after[2].starts_with("<local-command-stdout>\u{1b}[2mCompacted"));
                assert_eq!(after[3], "prompt");
            }
            // recommended keeps a tail after the summary, but no command message.
            false => assert!(after.iter().all(|s| !s.starts_with('<')), "{after:?}"),
        }
    }
}

#[test]
fn an_auto_compaction_leaves_no_command_messages() {
    let mut s = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    s.write_file("a.txt", "a\n", 1_000).unwrap();
    read_turn(&mut s, &["a.txt"], 10_000);
    let auto = CompactionOptions {
        trigger: Trigger::Auto,
        ..CompactionOptions::default()
    };
    s.compact(auto, None, 20_000).unwrap();
    let request = s.current_request(20_000);
    assert!(blocks(&request)
        .iter()
        .all(|(source, _)| source != "local_command"));
}

#[test]
fn a_typed_compact_drops_the_nested_memory_triggers_of_its_restore() {
    let mut switched = Profile::claude_code_2_1_88();
    switched.compaction.manual_restore_loads_nested_memory = true;
    for (profile, loads) in [
        (Profile::claude_code_2_1_88(), false),
        (switched, true),
        (Profile::recommended(), true),
    ] {
        let mut s = session(profile, SessionConfig::default());
        s.write_file("src/CLAUDE.md", "Sources use tabs.\n", 1_000)
            .unwrap();
        s.write_file("src/a.ts", "a\n", 1_000).unwrap();
        // The first read loads src/CLAUDE.md (stamped 10_002); the five files read later are
        // newer and take every restore slot.
        read_turn(&mut s, &["src/a.ts"], 10_000);
        let later: Vec<String> = (0..5).map(|i| format!("src/f{i}.ts")).collect();
        for (i, path) in later.iter().enumerate() {
            s.write_file(path, "f\n", 30_000 + i as u64).unwrap();
        }
        let paths: Vec<&str> = later.iter().map(String::as_str).collect();
        read_turn(&mut s, &paths, 40_000);
        chatter(&mut s, 41_000);
        let report = s.compact(typed(None), None, 50_000).unwrap();
        assert!(report.restored.iter().all(|r| r.path != "/p/src/CLAUDE.md"));
        // The next turn's first request: nested memory for the restored files, or none.
        let turn = s.submit("go on", 51_000);
        let request = turn.request.unwrap();
        let loaded = blocks(&request)
            .iter()
            .any(|(_, text)| text.contains("Sources use tabs."));
        assert_eq!(loaded, loads, "{:?}", blocks(&request));
    }
}

#[test]
fn a_reread_answered_with_the_stub_still_counts_as_a_use_of_the_file() {
    // a and b share an mtime, so the restore keeps the file state's recency order. Each
    // round's change scan reverses it (Q27): read a → [a]; read b → [b, a] → [a, b]; the
    // unchanged b again: its lookup moves it first → [b, a] → [a, b]. Without the move the
    // scan leaves [b, a].
    let mut s = session(Profile::claude_code_2_1_88(), SessionConfig::default());
    s.write_file("a.txt", "a\n", 1_000).unwrap();
    s.write_file("b.txt", "b\n", 1_000).unwrap();
    s.submit("look", 10_000);
    s.respond(vec![read("r1", "a.txt")], 10_001).unwrap();
    s.respond(vec![read("r2", "b.txt")], 10_002).unwrap();
    let stub = s.respond(vec![read("r3", "b.txt")], 10_003).unwrap();
    assert_eq!(stub.tool_results[0].content, FILE_UNCHANGED_STUB);
    s.respond(vec![ResponseBlock::Text("Read.".into())], 10_004)
        .unwrap();
    let report = s.compact(typed(None), None, 20_000).unwrap();
    let order: Vec<&str> = report.restored.iter().map(|r| r.path.as_str()).collect();
    assert_eq!(order, ["/p/a.txt", "/p/b.txt"]);
}
