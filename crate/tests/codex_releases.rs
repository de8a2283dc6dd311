//! What Codex CLI 0.171.0 (`codex`) sends differently from 0.139.0 (`codex-0.139.0`), each
//! as the conformance lab recorded it (docs/versions.md, "Codex CLI"): the same scenario
//! under both profiles, and the one difference asserted on each side.

use context_assembly::codex::wording::SUMMARY_PREFIX;
use context_assembly::request::Request;
use context_assembly::scenario::{parse_scenario, run_scenario, Trace};
use serde_json::{json, Value};

fn run(profile: &str, mut scenario: Value) -> Trace {
    scenario["profile"] = json!(profile);
    run_scenario(&parse_scenario(&scenario.to_string()).unwrap()).unwrap()
}

const RELEASES: [&str; 2] = ["codex-0.139.0", "codex"];

/// The requests of a trace, in order.
fn requests(trace: &Trace) -> Vec<Request> {
    (0..trace.steps.len())
        .filter_map(|i| trace.request(i))
        .collect()
}

/// The texts of the trace's `n`th request's messages, in order, as `role: text`.
fn texts(trace: &Trace, n: usize) -> Vec<String> {
    let request = &requests(trace)[n];
    (request.messages.iter())
        .flat_map(|m| {
            let role = m.role.as_str();
            m.content.iter().map(move |b| format!("{role}: {}", b.text))
        })
        .collect()
}

fn one_prompt(settings: Value) -> Value {
    json!({
        "cwd": "/repo",
        "config": { "skills": [{ "name": "pdf", "description": "Reads PDF files." }] },
        "files": { "/repo/.git/HEAD": "ref: refs/heads/main\n" },
        "steps": [settings, { "kind": "user", "prompt": "Start." }],
    })
}

#[test]
fn each_release_sends_the_stand_ins_of_its_measured_prefix() {
    let measured = [(12_377, 9_635, 11), (17_119, 18_188, 9)];
    for (profile, (instructions, tools, count)) in RELEASES.into_iter().zip(measured) {
        let trace = run(profile, one_prompt(json!({ "kind": "turnSettings" })));
        let request = &requests(&trace)[0];
        let system: usize = request.system.iter().map(|b| b.text.len()).sum();
        let offered: usize = request.tools.iter().map(|b| b.text.len()).sum();
        assert_eq!(
            (system, offered, request.tools.len()),
            (instructions, tools, count),
            "{profile}"
        );
        assert!(request.system[0]
            .text
            .starts_with("Stand-in for the base instructions"));
    }
}

#[test]
fn the_current_release_lists_developer_instructions_and_skills_before_the_permissions() {
    let settings =
        json!({ "kind": "turnSettings", "developerInstructions": "Prefer small commits." });
    let order = |profile| {
        let texts = texts(&run(profile, one_prompt(settings.clone())), 0);
        let at = |needle: &str| texts.iter().position(|t| t.contains(needle)).unwrap();
        let mut sections = [
            ("instructions", at("Prefer small commits.")),
            ("skills", at("<skills_instructions>")),
            ("permissions", at("<permissions instructions>")),
        ];
        sections.sort_by_key(|(_, at)| *at);
        sections.map(|(name, _)| name)
    };
    assert_eq!(
        order("codex-0.139.0"),
        ["permissions", "instructions", "skills"]
    );
    assert_eq!(order("codex"), ["instructions", "skills", "permissions"]);
}

#[test]
fn the_current_release_keeps_each_roots_aws_folder_read_only() {
    for (profile, protected) in RELEASES.into_iter().zip([false, true]) {
        let texts = texts(
            &run(profile, one_prompt(json!({ "kind": "turnSettings" }))),
            0,
        );
        let environment = texts
            .iter()
            .find(|t| t.contains("<environment_context>"))
            .unwrap();
        assert!(environment.contains("<entry access=\"read\"><path>/repo/.codex</path></entry>"));
        assert_eq!(
            environment.contains("<entry access=\"read\"><path>/repo/.aws</path></entry>"),
            protected,
            "{profile}"
        );
    }
}

#[test]
fn a_personality_is_stated_only_to_a_model_the_releases_catalogue_gives_messages() {
    let scenario = |model: &str| {
        json!({
            "cwd": "/repo",
            "files": { "/repo/.git/HEAD": "ref: refs/heads/main\n" },
            "steps": [
                { "kind": "turnSettings", "model": model, "modelInstructions": "Ours." },
                { "kind": "user", "prompt": "Start." },
                { "kind": "assistant", "blocks": [{ "type": "text", "text": "Started." }] },
                { "kind": "turnSettings", "personality": "friendly" },
                { "kind": "user", "prompt": "Be friendly." },
            ],
        })
    };
    let states = |profile, model| {
        let trace = run(profile, scenario(model));
        texts(&trace, 1)
            .iter()
            .any(|t| t.contains("<personality_spec>"))
    };
    assert!(states("codex-0.139.0", "gpt-5.3-codex"));
    assert!(
        !states("codex-0.139.0", "my-local-llm"),
        "0.139.0 has no messages for a model it does not know"
    );
    assert!(
        !states("codex", "gpt-5.3-codex"),
        "0.171.0 no longer lists gpt-5.3-codex"
    );
    assert!(
        !states("codex", "gpt-5.5"),
        "0.171.0 stated no personality to a model it lists"
    );
}

#[test]
fn the_current_release_cuts_a_model_it_does_not_list_in_bytes_with_a_warning() {
    let output: String = (1..=7000).map(|i| format!("{i}\n")).collect();
    let scenario = json!({
        "cwd": "/repo",
        "steps": [
            { "kind": "user", "prompt": "Count." },
            { "kind": "assistant", "blocks": [{ "type": "tool_use", "id": "call_1", "name": "exec_command",
              "input": { "cmd": "seq 7000" }, "output": output }] },
        ],
    });
    let recorded = |profile| {
        run(profile, scenario.clone()).steps[1].turn.tool_results[0]
            .content
            .clone()
    };
    let seed = recorded("codex-0.139.0");
    assert!(seed.contains("\nOutput:\n1\n2\n"), "{seed}");
    assert!(
        !seed.contains("truncated"),
        "8,474 tokens fit 0.139.0's 10,000-token policy"
    );
    let current = recorded("codex");
    let body = current.split_once("\nOutput:\n").unwrap().1;
    assert!(body.starts_with("Warning: truncated output (original token count: 8474)\nTotal output lines: 7000\n\n1\n2\n"), "{}", &body[..80]);
    assert!(body.contains("chars truncated\u{2026}"));
}

#[test]
fn after_a_pre_turn_compaction_the_current_release_puts_the_context_before_the_kept_prompt() {
    let rules: String = (0..60)
        .map(|i| format!("Rule {i}: keep the build green and the tests fast.\n"))
        .collect();
    let scenario = json!({
        "cwd": "/repo",
        "config": { "contextWindow": 1000, "outputReserve": 100 },
        "files": { "/repo/.git/HEAD": "ref: refs/heads/main\n", "/repo/AGENTS.md": rules },
        "steps": [
            { "kind": "user", "prompt": "Hello there." },
            { "kind": "assistant", "blocks": [{ "type": "text", "text": "Hello." }] },
            { "kind": "user", "prompt": "Second question." },
        ],
    });
    let layout = |profile| {
        let trace = run(profile, scenario.clone());
        texts(&trace, requests(&trace).len() - 1)
            .iter()
            .map(|t| match t {
                t if t.contains("<permissions instructions>") => "permissions",
                t if t == "user: Hello there." => "kept prompt",
                t if t == "user: Second question." => "new prompt",
                t if t.starts_with(&format!("user: {SUMMARY_PREFIX}")) => "summary",
                _ => "",
            })
            .filter(|s| !s.is_empty())
            .collect::<Vec<_>>()
    };
    let seed = layout("codex-0.139.0");
    let current = layout("codex");
    assert_eq!(
        seed,
        ["kept prompt", "summary", "permissions", "new prompt"],
        "X10: the next turn sends it whole"
    );
    assert_eq!(
        current,
        ["permissions", "kept prompt", "summary", "new prompt"]
    );
}

#[test]
fn a_model_switch_before_a_pre_turn_compaction_is_announced_once() {
    let rules: String = (0..60)
        .map(|i| format!("Rule {i}: keep the build green and the tests fast.\n"))
        .collect();
    let scenario = json!({
        "cwd": "/repo",
        "config": { "contextWindow": 1000, "outputReserve": 100 },
        "files": { "/repo/.git/HEAD": "ref: refs/heads/main\n", "/repo/AGENTS.md": rules },
        "steps": [
            { "kind": "user", "prompt": "Hello there." },
            { "kind": "assistant", "blocks": [{ "type": "text", "text": "Hello." }] },
            { "kind": "turnSettings", "model": "gpt-5.4", "modelInstructions": "Ours.", "sandboxMode": "danger-full-access" },
            { "kind": "user", "prompt": "Second question." },
        ],
    });
    for profile in RELEASES {
        let trace = run(profile, scenario.clone());
        let last = texts(&trace, requests(&trace).len() - 1);
        let switches = last.iter().filter(|t| t.contains("<model_switch>")).count();
        assert_eq!(switches, 1, "{profile}: {last:#?}");
    }
}

#[test]
fn the_web_search_tool_grows_with_image_search_and_shrinks_with_web_access() {
    let offered = |profile, settings: Value| {
        let trace = run(profile, one_prompt(settings));
        let request = &requests(&trace)[0];
        request.tools.iter().map(|b| b.text.len()).sum::<usize>()
    };
    let gpt_5_4 =
        json!({ "kind": "turnSettings", "model": "gpt-5.4", "modelInstructions": "Ours." });
    let full_access = json!({ "kind": "turnSettings", "sandboxMode": "danger-full-access" });
    assert_eq!(offered("codex-0.139.0", gpt_5_4.clone()), 9_635 + 40);
    assert_eq!(
        offered("codex", gpt_5_4),
        18_188,
        "0.171.0 does not list gpt-5.4"
    );
    assert_eq!(offered("codex-0.139.0", full_access.clone()), 9_635 - 1);
    assert_eq!(offered("codex", full_access), 18_188 - 1);
}

#[test]
fn the_oldest_release_writes_a_personality_chosen_first_into_its_base_instructions() {
    // Measured: 0.139.0's base instructions are 12,943 bytes for `friendly`, 10,524 for
    // `none`, 12,377 for the default (`pragmatic`); 0.171.0's 17,119 whatever it is.
    let sizes = [
        ("friendly", 12_943, 17_119),
        ("none", 10_524, 17_119),
        ("pragmatic", 12_377, 17_119),
    ];
    for (personality, oldest, current) in sizes {
        for (profile, expected) in RELEASES.into_iter().zip([oldest, current]) {
            let chosen = json!({ "kind": "turnSettings", "personality": personality });
            let trace = run(profile, one_prompt(chosen));
            let system: usize = requests(&trace)[0]
                .system
                .iter()
                .map(|b| b.text.len())
                .sum();
            assert_eq!(system, expected, "{profile} with {personality}");
        }
    }
}

#[test]
fn the_current_release_heads_a_global_agents_md_alone_without_the_cwd() {
    let scenario = |files: Value| {
        json!({
            "cwd": "/repo",
            "home": "/home/u",
            "files": files,
            "steps": [{ "kind": "user", "prompt": "Start." }],
        })
    };
    let global_only = json!({ "/home/u/.codex/AGENTS.md": "Be brief." });
    let with_project = json!({
        "/home/u/.codex/AGENTS.md": "Be brief.",
        "/repo/AGENTS.md": "Use tabs.",
    });
    let heading = |profile: &str, files: &Value| {
        let trace = run(profile, scenario(files.clone()));
        texts(&trace, 0)
            .into_iter()
            .find_map(|text| {
                let rest = text.strip_prefix("user: # AGENTS.md instructions")?;
                Some(String::from(rest.split("\n\n").next().unwrap_or_default()))
            })
            .unwrap()
    };
    assert_eq!(heading("codex", &global_only), "");
    assert_eq!(heading("codex", &with_project), " for /repo");
    assert_eq!(heading("codex-0.139.0", &global_only), " for /repo");
}

#[test]
fn a_compaction_that_puts_the_context_back_in_a_resumed_thread_reads_agents_md_again() {
    // The lab's scenario: AGENTS.md changes, the thread is resumed, and the next turn
    // compacts first; 0.171.0 puts the context back before the kept prompt, with the file
    // as it is now (the resumed process reads it from disk).
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../tests/conformance/codex-scenarios/resume-agents-reload.json"
    );
    let scenario: Value = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let trace = run("codex", scenario);
    let after_resume = texts(&trace, 1);
    let agents_md = after_resume
        .iter()
        .find(|text| text.starts_with("user: # AGENTS.md instructions for /repo"));
    assert!(
        agents_md.is_some_and(|text| text.contains("New rule 0")),
        "{after_resume:#?}"
    );
    let loads = trace.steps.iter().flat_map(|step| &step.turn.decisions);
    assert!(loads
        .into_iter()
        .any(|decision| decision.subject.ends_with("AGENTS.md")));
}
