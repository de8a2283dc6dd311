//! Codex's initial context, settings diffs and AGENTS.md discovery (spec codex.md §1, §2,
//! §7): golden layouts, the diff invariant over random settings, and discovery trees.

use context_assembly::codex::agents_md::{load_agents_md, user_instructions, AgentsMdRules};
use context_assembly::codex::catalogue::ModelCatalogue;
use context_assembly::codex::context::environment::filesystem;
use context_assembly::codex::context::{
    build_initial_context, personality_message, ApprovalPolicy, BaseInstructions, ContextRules,
    EnvironmentContext, NetworkDomains, SandboxMode, Skill, TurnSettings,
};
use context_assembly::codex::items::{Item, Part, Role};
use context_assembly::codex::settings_diff::build_settings_update_items;
use context_assembly::vfs::{Content, TransientError, Vfs};
use proptest::prelude::*;

fn parts(item: &Item) -> (Role, Vec<String>) {
    match item {
        Item::Message { role, content } => (
            *role,
            content
                .iter()
                .filter_map(Part::text)
                .map(String::from)
                .collect(),
        ),
        other => panic!("not a message: {other:?}"),
    }
}

fn opening_tag(text: &str) -> &str {
    let end = text.find(['\n', ' ']).unwrap_or(text.len());
    &text[..end]
}

#[test]
fn reference_environment_context_for_the_modelled_fields() {
    let settings = TurnSettings {
        cwd: "/repo".into(),
        shell: "bash".into(),
        current_date: "2026-02-26".into(),
        timezone: "America/Los_Angeles".into(),
        network: Some(NetworkDomains {
            allowed: vec!["api.example.com".into(), "*.openai.com".into()],
            denied: vec!["blocked.example.com".into()],
        }),
        sandbox_mode: SandboxMode::ReadOnly,
        ..TurnSettings::default()
    };
    let expected = "<environment_context>
  <cwd>/repo</cwd>
  <shell>bash</shell>
  <current_date>2026-02-26</current_date>
  <timezone>America/Los_Angeles</timezone>
  <network enabled=\"true\"><allowed>api.example.com,*.openai.com</allowed><denied>blocked.example.com</denied></network>
  <filesystem><workspace_roots><root>/repo</root></workspace_roots><permission_profile type=\"managed\"><file_system type=\"restricted\"><entry access=\"read\"><special>:root</special></entry></file_system></permission_profile></filesystem>
</environment_context>";
    assert_eq!(
        EnvironmentContext::full(&ContextRules::codex(), &settings).render(),
        expected
    );
}

#[test]
fn first_turn_layout() {
    let settings = TurnSettings {
        cwd: "/cwd".into(),
        skills: vec![Skill {
            name: "pdf".into(),
            description: "Reads PDFs.".into(),
            path: "/skills/pdf/SKILL.md".into(),
            ..Skill::default()
        }],
        ..TurnSettings::default()
    };
    let items = build_initial_context(&settings, None, Some("Use tabs."));
    assert_eq!(items.len(), 2);
    let (role, developer) = parts(&items[0]);
    assert_eq!(role, Role::Developer);
    let tags: Vec<&str> = developer.iter().map(|p| opening_tag(p)).collect();
    assert_eq!(tags, ["<permissions", "<skills_instructions>"]);
    assert!(developer[1].contains("\n- pdf: Reads PDFs. (file: /skills/pdf/SKILL.md)\n"));
    let (role, user) = parts(&items[1]);
    assert_eq!(role, Role::User);
    assert_eq!(
        user[0],
        "# AGENTS.md instructions for /cwd\n\n<INSTRUCTIONS>\nUse tabs.\n</INSTRUCTIONS>"
    );
    assert_eq!(
        user[1],
        format!(
            "<environment_context>\n  <cwd>/cwd</cwd>\n  <shell>bash</shell>\n  \
             <current_date>2026-06-09</current_date>\n  <timezone>Etc/UTC</timezone>\n  {}\n\
             </environment_context>",
            filesystem(&settings)
        )
    );
}

#[test]
fn cwd_change_restates_cwd_and_shell_but_not_agents_md() {
    let before = TurnSettings::default();
    let after = TurnSettings {
        cwd: "/new".into(),
        ..TurnSettings::default()
    };
    let (items, decisions) = build_settings_update_items(&before, &after, Some(&before.model));
    assert_eq!(items.len(), 1);
    let (role, text) = parts(&items[0]);
    assert_eq!(role, Role::User);
    assert_eq!(
        text,
        [format!(
            "<environment_context>\n  <cwd>/new</cwd>\n  <shell>bash</shell>\n  \
             <current_date>2026-06-09</current_date>\n  <timezone>Etc/UTC</timezone>\n  {}\n\
             </environment_context>",
            filesystem(&after)
        )]
    );
    assert!(!text[0].contains("AGENTS.md"));
    let agents = decisions.iter().find(|d| d.subject == "agents_md").unwrap();
    assert_eq!(agents.verdict.as_str(), "skipped");
}

#[test]
fn date_rollover_alone_gives_an_environment_diff() {
    let before = TurnSettings::default();
    let after = TurnSettings {
        current_date: "2026-06-10".into(),
        ..TurnSettings::default()
    };
    let (items, _) = build_settings_update_items(&before, &after, Some(&before.model));
    assert_eq!(
        parts(&items[0]).1,
        [format!(
            "<environment_context>\n  <current_date>2026-06-10</current_date>\n  \
             <timezone>Etc/UTC</timezone>\n  {}\n</environment_context>",
            filesystem(&after)
        )]
    );
}

#[test]
fn cwd_and_personality_change_like_the_turn_overrides_snapshot() {
    let before = TurnSettings::default();
    let after = TurnSettings {
        cwd: "/new".into(),
        personality: Some("Be brief.".into()),
        sandbox_mode: SandboxMode::ReadOnly,
        ..TurnSettings::default()
    };
    let (items, _) = build_settings_update_items(&before, &after, Some(&before.model));
    let (_, developer) = parts(&items[0]);
    let tags: Vec<&str> = developer.iter().map(|p| opening_tag(p)).collect();
    assert_eq!(tags, ["<permissions", "<personality_spec>"]);
    assert!(parts(&items[1]).1[0].contains("<cwd>/new</cwd>"));
}

fn settings_strategy() -> impl Strategy<Value = TurnSettings> {
    let pick = |options: &'static [&'static str]| prop::sample::select(options);
    (
        (
            pick(&["/a", "/b"]),
            pick(&["bash", "zsh"]),
            pick(&["2026-01-01", "2026-01-02"]),
            pick(&["Etc/UTC", "Europe/Paris"]),
            0..4usize,
            0..3usize,
            any::<bool>(),
            prop::option::of(Just(NetworkDomains {
                allowed: vec!["x.com".into()],
                denied: vec![],
            })),
        ),
        (
            pick(&["m1", "m2"]),
            pick(&["", "BASE"]),
            prop::option::of(pick(&["", "p1", "none", "pragmatic", "friendly"])),
            prop::option::of(pick(&["", "plan", "pair"])),
            prop::option::of(pick(&["d1", "d2"])),
            0..2usize,
            prop::option::of(pick(&["/w"])),
        ),
    )
        .prop_map(
            |(
                (cwd, shell, date, tz, approval, sandbox, network_access, network),
                (model, instructions, personality, mode, developer, skills, root),
            )| TurnSettings {
                cwd: cwd.into(),
                shell: shell.into(),
                current_date: date.into(),
                timezone: tz.into(),
                approval_policy: [
                    ApprovalPolicy::Never,
                    ApprovalPolicy::UnlessTrusted,
                    ApprovalPolicy::OnFailure,
                    ApprovalPolicy::OnRequest,
                ][approval],
                sandbox_mode: [
                    SandboxMode::ReadOnly,
                    SandboxMode::WorkspaceWrite,
                    SandboxMode::DangerFullAccess,
                ][sandbox],
                network_access,
                network,
                writable_roots: root.into_iter().map(String::from).collect(),
                model: model.into(),
                model_instructions: instructions.into(),
                personality: personality.map(String::from),
                collaboration_mode: mode.map(String::from),
                developer_instructions: developer.map(String::from),
                skills: (0..skills)
                    .map(|_| Skill {
                        name: "s".into(),
                        ..Skill::default()
                    })
                    .collect(),
                ..TurnSettings::default()
            },
        )
}

/// The tags §2.2 says a diff from `previous` to `next` emits, in order.
fn expected_tags(
    previous: &TurnSettings,
    next: &TurnSettings,
    previous_model: &str,
) -> Vec<&'static str> {
    let mut tags = Vec::new();
    if previous_model != next.model && !next.model_instructions.is_empty() {
        tags.push("<model_switch>");
    }
    // Read-only never has the network, full access always does (the lab's finding).
    let network = |s: &TurnSettings| match s.sandbox_mode {
        SandboxMode::ReadOnly => false,
        SandboxMode::WorkspaceWrite => s.network_access,
        SandboxMode::DangerFullAccess => true,
    };
    let roots_changed = previous.writable_roots != next.writable_roots;
    if previous.approval_policy != next.approval_policy
        || previous.sandbox_mode != next.sandbox_mode
        || network(previous) != network(next)
        || (next.sandbox_mode == SandboxMode::WorkspaceWrite && roots_changed)
    {
        tags.push("<permissions");
    }
    if previous.collaboration_mode != next.collaboration_mode
        && next
            .collaboration_mode
            .as_deref()
            .is_some_and(|m| !m.is_empty())
    {
        tags.push("<collaboration_mode>");
    }
    if previous.effective_personality() != next.effective_personality()
        && previous.model == next.model
        && personality_message(next.effective_personality()).is_some()
        && ModelCatalogue::Codex0139.states_personality(&next.model)
    {
        tags.push("<personality_spec>");
    }
    if previous.cwd != next.cwd
        || previous.current_date != next.current_date
        || previous.timezone != next.timezone
        || previous.network != next.network
        || previous.sandbox_mode != next.sandbox_mode
        || roots_changed
    {
        tags.push("<environment_context>");
    }
    tags
}

proptest! {
    #[test]
    fn a_diff_is_emitted_iff_a_diffed_field_changed(
        sequence in prop::collection::vec(settings_strategy(), 2..8),
    ) {
        for pair in sequence.windows(2) {
            let (previous, next) = (&pair[0], &pair[1]);
            let (items, decisions) = build_settings_update_items(previous, next, Some(&previous.model));
            let emitted: Vec<&str> = items
                .iter()
                .flat_map(|item| parts(item).1)
                .map(|text| match opening_tag(&text) {
                    "<model_switch>" => "<model_switch>",
                    "<permissions" => "<permissions",
                    "<personality_spec>" => "<personality_spec>",
                    "<environment_context>" => "<environment_context>",
                    tag if tag.starts_with("<collaboration_mode>") => "<collaboration_mode>",
                    other => panic!("an undiffed section was sent: {other}"),
                })
                .collect();
            prop_assert_eq!(emitted, expected_tags(previous, next, &previous.model));
            for subject in ["agents_md", "developer_instructions", "skills"] {
                let decision = decisions.iter().find(|d| d.subject == subject).unwrap();
                prop_assert_eq!(decision.verdict.as_str(), "skipped");
            }
            prop_assert!(items.len() <= 2);
        }
    }
}

fn tree() -> Vfs {
    let mut vfs = Vfs::new();
    vfs.mkdir("/repo/.git", 1).unwrap();
    vfs.write_file("/repo/AGENTS.md", Content::from("root"), 1)
        .unwrap();
    vfs.write_file("/repo/pkg/AGENTS.md", Content::from("pkg primary"), 1)
        .unwrap();
    vfs.write_file(
        "/repo/pkg/AGENTS.override.md",
        Content::from("pkg override"),
        1,
    )
    .unwrap();
    vfs.write_file("/repo/pkg/app/AGENTS.md", Content::from("app\n"), 1)
        .unwrap();
    vfs.write_file("/AGENTS.md", Content::from("above the root"), 1)
        .unwrap();
    vfs
}

#[test]
fn root_mid_and_cwd_docs_with_override_beating_primary() {
    let vfs = tree();
    let loaded = load_agents_md(
        &vfs,
        "/home/u/.codex",
        "/repo/pkg/app",
        &AgentsMdRules::default(),
    );
    assert_eq!(loaded.project_root.as_deref(), Some("/repo"));
    let paths: Vec<&str> = loaded
        .project_docs
        .iter()
        .map(|d| d.path.as_str())
        .collect();
    assert_eq!(
        paths,
        [
            "/repo/AGENTS.md",
            "/repo/pkg/AGENTS.override.md",
            "/repo/pkg/app/AGENTS.md"
        ]
    );
    assert_eq!(
        loaded.text().as_deref(),
        Some("root\n\npkg override\n\napp\n")
    );
    let shadowed = loaded
        .decisions
        .iter()
        .find(|d| d.subject == "/repo/pkg/AGENTS.md")
        .unwrap();
    assert_eq!(shadowed.verdict.as_str(), "excluded");
}

#[test]
fn global_doc_is_trimmed_separated_and_outside_the_budget() {
    let mut vfs = tree();
    vfs.write_file("/home/u/.codex/AGENTS.override.md", Content::from(" \n"), 1)
        .unwrap();
    vfs.write_file(
        "/home/u/.codex/AGENTS.md",
        Content::from("\nglobal rules\n"),
        1,
    )
    .unwrap();
    let rules = AgentsMdRules {
        max_bytes: 4,
        ..AgentsMdRules::default()
    };
    let text = user_instructions(&vfs, "/home/u/.codex", "/repo/pkg/app", &rules);
    assert_eq!(
        text.as_deref(),
        Some("global rules\n\n--- project-doc ---\n\nroot")
    );
}

#[test]
fn the_budget_cuts_a_doc_then_stops() {
    let vfs = tree();
    let rules = AgentsMdRules {
        max_bytes: 10,
        ..AgentsMdRules::default()
    };
    let loaded = load_agents_md(&vfs, "/home/u/.codex", "/repo/pkg/app", &rules);
    // 4 bytes of "root", then 6 of "pkg override"; nothing left for app
    assert_eq!(loaded.text().as_deref(), Some("root\n\npkg ov"));
    assert!(loaded.project_docs[1].truncated);
    let verdict = |subject: &str| {
        loaded
            .decisions
            .iter()
            .find(|d| d.subject == subject)
            .map(|d| d.verdict.as_str())
    };
    assert_eq!(verdict("/repo/pkg/AGENTS.override.md"), Some("truncated"));
    assert_eq!(verdict("/repo/pkg/app/AGENTS.md"), Some("over-budget"));
}

#[test]
fn a_cut_inside_a_character_is_decoded_lossily_and_whitespace_costs_nothing() {
    let mut vfs = Vfs::new();
    vfs.mkdir("/r/.git", 1).unwrap();
    vfs.write_file("/r/AGENTS.md", Content::from("   \n"), 1)
        .unwrap();
    vfs.write_file("/r/a/AGENTS.md", Content::from("é€"), 1)
        .unwrap();
    let rules = AgentsMdRules {
        max_bytes: 3,
        ..AgentsMdRules::default()
    };
    let loaded = load_agents_md(&vfs, "/h", "/r/a", &rules);
    assert_eq!(loaded.text().as_deref(), Some("é\u{FFFD}"));
}

#[test]
fn without_a_marker_only_cwd_is_searched_and_errors_drop_project_docs() {
    let mut vfs = tree();
    let no_marker = AgentsMdRules {
        project_root_markers: vec![],
        ..AgentsMdRules::default()
    };
    let text = user_instructions(&vfs, "/h", "/repo/pkg/app", &no_marker);
    assert_eq!(text.as_deref(), Some("app\n"));
    vfs.set_transient_error(
        "/repo/pkg/AGENTS.override.md",
        Some(TransientError::PermissionDenied),
    )
    .unwrap();
    let loaded = load_agents_md(&vfs, "/h", "/repo/pkg/app", &AgentsMdRules::default());
    assert!(loaded.project_docs.is_empty());
    assert!(loaded
        .decisions
        .iter()
        .any(|d| d.verdict.as_str() == "failed"));
}

/// Codex 0.139.0 resolves an unset personality to `pragmatic` and writes the personality in
/// force into the base instructions at the session's start (the lab's personality-default
/// session): choosing `pragmatic` then changes nothing, `none` has no message to send, and a
/// full context under another model states the default although none was chosen.
#[test]
fn the_default_personality_is_pragmatic_and_baked_into_the_base_instructions() {
    let start = TurnSettings::default();
    let first = build_initial_context(&start, None, None);
    assert!(!first[0]
        .message_text()
        .unwrap()
        .contains("<personality_spec>"));

    let pragmatic = TurnSettings {
        personality: Some("pragmatic".into()),
        ..start.clone()
    };
    let (items, decisions) = build_settings_update_items(&start, &pragmatic, None);
    assert!(items.is_empty());
    let personality = decisions
        .iter()
        .find(|d| d.subject == "personality")
        .unwrap();
    assert_eq!(personality.reason, "same personality in force");
    let friendly = TurnSettings {
        personality: Some("friendly".into()),
        ..start.clone()
    };
    let (update, _) = build_settings_update_items(&pragmatic, &friendly, None);
    assert!(update[0]
        .message_text()
        .unwrap()
        .contains("<personality_spec>"));
    let none = TurnSettings {
        personality: Some("none".into()),
        ..start.clone()
    };
    assert!(build_settings_update_items(&friendly, &none, None)
        .0
        .is_empty());

    let switched = TurnSettings {
        model: "gpt-5.4".into(),
        ..start.clone()
    };
    let full = build_initial_context(&switched, Some("gpt-5.3-codex"), None);
    let developer = full[0].message_text().unwrap();
    assert!(developer.contains("<personality_spec>"));
    assert!(developer.contains(personality_message("pragmatic").unwrap()));

    let unbaked = TurnSettings {
        base_instructions: None::<BaseInstructions>,
        personality: Some("Be terse.".into()),
        ..start
    };
    let full = build_initial_context(&unbaked, None, None);
    assert!(full[0]
        .message_text()
        .unwrap()
        .contains("\nBe terse. </personality_spec>"));
}

fn realtime(active: bool) -> TurnSettings {
    TurnSettings {
        realtime_active: active,
        ..TurnSettings::default()
    }
}

fn decision_reason(decisions: &[context_assembly::vocabulary::Decision], subject: &str) -> String {
    let decision = decisions.iter().find(|d| d.subject == subject).unwrap();
    format!("{}: {}", decision.verdict.as_str(), decision.reason)
}

#[test]
fn a_voice_conversation_is_announced_when_it_starts_and_when_it_ends() {
    // codex.md §2.2 row 4: false → true sends the start, true → false the end, true → true
    // nothing; the fragment sits after the collaboration mode, before the personality.
    let (items, decisions) = build_settings_update_items(&realtime(false), &realtime(true), None);
    let (role, texts) = parts(&items[0]);
    assert_eq!(role, Role::Developer);
    assert_eq!(texts.len(), 1);
    assert!(
        texts[0].starts_with("<realtime_conversation>\n"),
        "{}",
        texts[0]
    );
    assert!(texts[0].ends_with("\n</realtime_conversation>"));
    assert!(!texts[0].contains("Reason: inactive"));
    assert!(decision_reason(&decisions, "realtime").starts_with("included"));
    let (items, decisions) = build_settings_update_items(&realtime(true), &realtime(true), None);
    assert!(items.is_empty());
    assert_eq!(
        decision_reason(&decisions, "realtime"),
        "unchanged: the voice conversation continues"
    );
    let friendly = TurnSettings {
        collaboration_mode: Some("Plan first.".into()),
        personality: Some("friendly".into()),
        ..realtime(false)
    };
    let (items, _) = build_settings_update_items(&realtime(true), &friendly, None);
    let (_, texts) = parts(&items[0]);
    let tags: Vec<&str> = texts.iter().map(|text| opening_tag(text)).collect();
    assert_eq!(
        tags,
        [
            "<collaboration_mode>Plan",
            "<realtime_conversation>",
            "<personality_spec>"
        ]
    );
    assert!(
        texts[1].ends_with("\n\nReason: inactive\n</realtime_conversation>"),
        "{}",
        texts[1]
    );
}

#[test]
fn a_full_context_starts_an_active_voice_conversation_and_ends_one_that_stopped() {
    // codex.md §1.3 row 5 with §2.2 row 4: without a baseline, an active conversation is
    // announced (the host's start text, trimmed, when it gives one), and one the previous
    // turn had and this one has not is ended.
    let host = TurnSettings {
        realtime_start_instructions: Some("  Speak slowly.\n".into()),
        ..realtime(true)
    };
    let items = build_initial_context(&host, None, None);
    let (_, texts) = parts(&items[0]);
    assert!(texts
        .contains(&"<realtime_conversation>\nSpeak slowly.\n</realtime_conversation>".to_string()));
    let stopped = TurnSettings {
        previous_realtime_active: Some(true),
        ..realtime(false)
    };
    let (_, texts) = parts(&build_initial_context(&stopped, None, None)[0]);
    assert!(texts.iter().any(|text| text.contains("Reason: inactive")));
    let (_, texts) = parts(&build_initial_context(&realtime(false), None, None)[0]);
    assert!(!texts
        .iter()
        .any(|text| text.contains("<realtime_conversation>")));
}

#[test]
fn a_scenario_switches_a_voice_conversation_on_and_off() {
    use context_assembly::scenario::{parse_scenario, run_scenario};
    // codex.md §2.2 row 4 through a session: the flag is the host's; after a manual
    // compaction (no baseline) the full context ends the conversation the previous turn had.
    let json = r#"{"profile": "codex-0.139.0", "steps": [
        {"kind": "turnSettings", "realtimeActive": true},
        {"kind": "user", "prompt": "one"},
        {"kind": "assistant", "blocks": [{"type": "text", "text": "ok"}]},
        {"kind": "turnSettings", "realtimeActive": false},
        {"kind": "compact", "policy": "codex.local"},
        {"kind": "user", "prompt": "two"}]}"#;
    let trace = run_scenario(&parse_scenario(json).unwrap()).unwrap();
    let count = |step: usize, needle: &str| {
        let request = trace.request(step).unwrap();
        (request.messages.iter())
            .flat_map(|message| &message.content)
            .filter(|block| {
                block.text.starts_with("<realtime_conversation>") && block.text.contains(needle)
            })
            .count()
    };
    assert_eq!(count(1, "</realtime_conversation>"), 1);
    assert_eq!(count(5, "Reason: inactive"), 1);
}
