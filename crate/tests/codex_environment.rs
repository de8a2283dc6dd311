//! What the conformance lab showed Codex CLI 0.139.0 sends about the sandbox (docs/conformance.md,
//! "Codex"): the `<filesystem>` line of `<environment_context>`, a new environment after a
//! sandbox change, the network status per mode, and the writable roots with `/tmp` and `$TMPDIR`.

use context_assembly::codex::context::{
    permissions_instructions, ContextRules, EnvironmentContext, ExecEnvironment, SandboxMode,
    Subagent, TurnSettings,
};
use context_assembly::codex::items::{Item, Part, Role};
use context_assembly::codex::settings_diff::build_settings_update_items;

fn texts(items: &[Item]) -> Vec<(Role, Vec<String>)> {
    items
        .iter()
        .map(|item| match item {
            Item::Message { role, content } => (
                *role,
                content
                    .iter()
                    .filter_map(Part::text)
                    .map(String::from)
                    .collect(),
            ),
            other => panic!("not a message: {other:?}"),
        })
        .collect()
}

fn with_sandbox(sandbox_mode: SandboxMode) -> TurnSettings {
    TurnSettings {
        sandbox_mode,
        ..TurnSettings::default()
    }
}

const WORKSPACE_WRITE_FILESYSTEM: &str =
    "  <filesystem><workspace_roots><root>/repo</root></workspace_roots>\
<permission_profile type=\"managed\"><file_system type=\"restricted\">\
<entry access=\"read\"><special>:root</special></entry>\
<entry access=\"write\"><path>/repo</path></entry>\
<entry access=\"write\"><special>:slash_tmp</special></entry>\
<entry access=\"write\"><special>:tmpdir</special></entry>\
<entry access=\"read\"><path>/repo/.git</path></entry>\
<entry access=\"read\"><path>/repo/.agents</path></entry>\
<entry access=\"read\"><path>/repo/.codex</path></entry>\
</file_system></permission_profile></filesystem>";

#[test]
fn workspace_write_environment_states_the_filesystem_after_the_timezone() {
    let text = EnvironmentContext::full(&ContextRules::codex(), &TurnSettings::default()).render();
    let expected = format!(
        "<environment_context>\n  <cwd>/repo</cwd>\n  <shell>bash</shell>\n  \
         <current_date>2026-06-09</current_date>\n  <timezone>Etc/UTC</timezone>\n\
         {WORKSPACE_WRITE_FILESYSTEM}\n</environment_context>"
    );
    assert_eq!(text, expected);
}

#[test]
fn read_only_and_full_access_have_their_own_permission_profiles() {
    let read_only =
        EnvironmentContext::full(&ContextRules::codex(), &with_sandbox(SandboxMode::ReadOnly))
            .render();
    assert!(read_only.contains(
        "<filesystem><workspace_roots><root>/repo</root></workspace_roots>\
         <permission_profile type=\"managed\"><file_system type=\"restricted\">\
         <entry access=\"read\"><special>:root</special></entry>\
         </file_system></permission_profile></filesystem>"
    ));
    let full = EnvironmentContext::full(
        &ContextRules::codex(),
        &with_sandbox(SandboxMode::DangerFullAccess),
    )
    .render();
    assert!(full.contains(
        "<filesystem><workspace_roots><root>/repo</root></workspace_roots>\
         <permission_profile type=\"disabled\"><file_system type=\"unrestricted\" />\
         </permission_profile></filesystem>"
    ));
}

#[test]
fn extra_writable_roots_are_workspace_roots_with_their_protected_folders_grouped_by_name() {
    let settings = TurnSettings {
        writable_roots: vec!["/zzz".into(), "/aaa".into()],
        ..TurnSettings::default()
    };
    let text = EnvironmentContext::full(&ContextRules::codex(), &settings).render();
    assert!(text.contains(
        "<workspace_roots><root>/repo</root><root>/zzz</root><root>/aaa</root></workspace_roots>"
    ));
    assert!(text.contains(
        "<entry access=\"write\"><path>/repo</path></entry>\
         <entry access=\"write\"><path>/zzz</path></entry>\
         <entry access=\"write\"><path>/aaa</path></entry>\
         <entry access=\"write\"><special>:slash_tmp</special></entry>"
    ));
    assert!(text.contains(
        "<entry access=\"read\"><path>/aaa/.git</path></entry>\
         <entry access=\"read\"><path>/repo/.agents</path></entry>"
    ));
}

#[test]
fn only_the_filesystem_is_xml_escaped() {
    let settings = TurnSettings {
        cwd: "/a&b<c>".into(),
        ..TurnSettings::default()
    };
    let text = EnvironmentContext::full(&ContextRules::codex(), &settings).render();
    assert!(text.contains("<cwd>/a&b<c></cwd>"));
    assert!(text.contains("<root>/a&amp;b&lt;c&gt;</root>"));
}

#[test]
fn a_sandbox_change_sends_the_permissions_and_a_new_environment() {
    let previous = TurnSettings::default();
    let next = with_sandbox(SandboxMode::DangerFullAccess);
    let (items, _) = build_settings_update_items(&previous, &next, Some("gpt-5.3-codex"));
    let items = texts(&items);
    assert_eq!(items.len(), 2, "{items:?}");
    assert_eq!(items[0].0, Role::Developer);
    assert!(items[0].1[0].starts_with("<permissions instructions>"));
    assert_eq!(items[1].0, Role::User);
    assert_eq!(
        items[1].1,
        vec![String::from(
            "<environment_context>\n  <current_date>2026-06-09</current_date>\n  \
             <timezone>Etc/UTC</timezone>\n  <filesystem><workspace_roots><root>/repo</root>\
             </workspace_roots><permission_profile type=\"disabled\"><file_system \
             type=\"unrestricted\" /></permission_profile></filesystem>\n</environment_context>"
        )]
    );
}

#[test]
fn a_network_change_alone_sends_only_the_permissions() {
    let previous = TurnSettings::default();
    let next = TurnSettings {
        network_access: true,
        ..TurnSettings::default()
    };
    let (items, _) = build_settings_update_items(&previous, &next, Some("gpt-5.3-codex"));
    let items = texts(&items);
    assert_eq!(items.len(), 1, "{items:?}");
    assert!(items[0].1[0].starts_with("<permissions instructions>"));
}

#[test]
fn full_access_has_the_network_and_read_only_never_does() {
    let full = permissions_instructions(&with_sandbox(SandboxMode::DangerFullAccess));
    assert!(full.contains("Network access: enabled."), "{full}");
    let read_only = permissions_instructions(&TurnSettings {
        sandbox_mode: SandboxMode::ReadOnly,
        network_access: true,
        ..TurnSettings::default()
    });
    assert!(
        read_only.contains("Network access: restricted."),
        "{read_only}"
    );
    // so a network switch under read-only changes nothing the model is told
    let before = with_sandbox(SandboxMode::ReadOnly);
    let after = TurnSettings {
        network_access: true,
        ..before.clone()
    };
    assert!(!after.permissions_differ(&before));
}

#[test]
fn workspace_write_roots_add_slash_tmp_and_tmpdir_sorted_with_the_rest() {
    let settings = TurnSettings {
        writable_roots: vec!["/zzz".into(), "/aaa".into()],
        tmpdir: Some("/var/tmp".into()),
        ..TurnSettings::default()
    };
    assert!(permissions_instructions(&settings).ends_with(
        "\n The writable roots are `/aaa`, `/repo`, `/tmp`, `/var/tmp`, `/zzz`.\n</permissions instructions>"
    ));
    let plain = permissions_instructions(&TurnSettings::default());
    assert!(
        plain.ends_with("\n The writable roots are `/repo`, `/tmp`.\n</permissions instructions>")
    );
}

#[test]
fn exclude_slash_tmp_drops_tmp_from_the_roots_and_the_filesystem() {
    let settings = TurnSettings {
        exclude_slash_tmp: true,
        ..TurnSettings::default()
    };
    assert!(permissions_instructions(&settings)
        .ends_with("\n The writable root is `/repo`.\n</permissions instructions>"));
    let text = EnvironmentContext::full(&ContextRules::codex(), &settings).render();
    assert!(!text.contains(":slash_tmp"));
    assert!(text.contains(":tmpdir"));
    // and changing it is a new filesystem, so a new environment
    let (items, _) =
        build_settings_update_items(&TurnSettings::default(), &settings, Some("gpt-5.3-codex"));
    assert_eq!(texts(&items).len(), 2);
}

fn with_subagents() -> TurnSettings {
    TurnSettings {
        subagents: vec![
            Subagent {
                id: "agent-1".into(),
                name: "atlas".into(),
            },
            Subagent {
                id: "agent-2".into(),
                name: "borealis".into(),
            },
        ],
        ..TurnSettings::default()
    }
}

fn with_environments(second_cwd: &str) -> TurnSettings {
    let environment = |id: &str, cwd: &str, shell: &str| ExecEnvironment {
        id: id.into(),
        cwd: cwd.into(),
        shell: shell.into(),
    };
    TurnSettings {
        environments: vec![
            environment("local", "/repo", "bash"),
            environment("remote", second_cwd, "zsh"),
        ],
        ..TurnSettings::default()
    }
}

#[test]
fn subagents_close_the_full_environment_context_one_per_line() {
    // codex.md §1.6: `<subagents>` after `<filesystem>`, each agent `- id: name` indented
    // four spaces.
    let text = EnvironmentContext::full(&ContextRules::codex(), &with_subagents()).render();
    let expected = format!(
        "<environment_context>\n  <cwd>/repo</cwd>\n  <shell>bash</shell>\n  \
         <current_date>2026-06-09</current_date>\n  <timezone>Etc/UTC</timezone>\n\
         {WORKSPACE_WRITE_FILESYSTEM}\n  <subagents>\n    - agent-1: atlas\n    \
         - agent-2: borealis\n  </subagents>\n</environment_context>"
    );
    assert_eq!(text, expected);
    // none: no element at all
    let plain = EnvironmentContext::full(&ContextRules::codex(), &TurnSettings::default()).render();
    assert!(!plain.contains("subagents"));
}

#[test]
fn subagents_are_never_diffed() {
    // codex.md §2.4: a diff never states them, so a new sub-agent alone sends nothing, and a
    // date rollover's diff leaves them out.
    let previous = TurnSettings::default();
    let (items, _) =
        build_settings_update_items(&previous, &with_subagents(), Some("gpt-5.3-codex"));
    assert!(items.is_empty(), "{:?}", texts(&items));
    let next = TurnSettings {
        current_date: "2026-06-10".into(),
        ..with_subagents()
    };
    let (items, _) = build_settings_update_items(&previous, &next, Some("gpt-5.3-codex"));
    let texts = texts(&items);
    assert_eq!(texts.len(), 1);
    assert!(texts[0].1[0].contains("<current_date>2026-06-10</current_date>"));
    assert!(!texts[0].1[0].contains("subagents"));
}

#[test]
fn several_environments_replace_cwd_and_shell() {
    // codex.md §1.6: `<environments>` with one `<environment id>` each, where `<cwd>` and
    // `<shell>` would be.
    let text =
        EnvironmentContext::full(&ContextRules::codex(), &with_environments("/srv/app")).render();
    let lines: Vec<&str> = text.lines().collect();
    assert_eq!(
        lines[1],
        "  <environments><environment id=\"local\"><cwd>/repo</cwd><shell>bash</shell>\
         </environment><environment id=\"remote\"><cwd>/srv/app</cwd><shell>zsh</shell>\
         </environment></environments>"
    );
    assert_eq!(lines[2], "  <current_date>2026-06-09</current_date>");
    assert!(!text.contains("<cwd>/repo</cwd>\n"));
}

#[test]
fn an_environment_moved_is_a_diff_naming_all_environments_and_a_date_alone_names_none() {
    // codex.md §2.2 (the environment row) and §2.4: the ids and cwds are compared, shells
    // are not; the environments are stated only when they changed.
    let previous = with_environments("/srv/app");
    let moved = with_environments("/srv/other");
    let (items, _) = build_settings_update_items(&previous, &moved, Some("gpt-5.3-codex"));
    let body = &texts(&items)[0].1[0];
    assert!(
        body.contains("<environment id=\"remote\"><cwd>/srv/other</cwd>"),
        "{body}"
    );
    let mut reshelled = with_environments("/srv/app");
    reshelled.environments[1].shell = "fish".into();
    let (items, _) = build_settings_update_items(&previous, &reshelled, Some("gpt-5.3-codex"));
    assert!(items.is_empty());
    let next_day = TurnSettings {
        current_date: "2026-06-10".into(),
        ..with_environments("/srv/app")
    };
    let (items, _) = build_settings_update_items(&previous, &next_day, Some("gpt-5.3-codex"));
    let body = &texts(&items)[0].1[0];
    assert!(!body.contains("<environments>"), "{body}");
    assert!(!body.contains("<cwd>"), "{body}");
}

#[test]
fn a_scenario_gives_subagents_and_environments_as_turn_settings() {
    use context_assembly::scenario::{parse_scenario, run_scenario};
    // codex.md §1.6, through the scenario format: the first turn's context states both.
    let json = r#"{"profile": "codex", "cwd": "/repo", "steps": [
        {"kind": "turnSettings", "subagents": [{"id": "agent-1", "name": "atlas"}],
         "environments": [{"id": "local", "cwd": "/repo", "shell": "bash"},
                          {"id": "box", "cwd": "/box", "shell": "sh"}]},
        {"kind": "user", "prompt": "hi"}]}"#;
    let trace = run_scenario(&parse_scenario(json).unwrap()).unwrap();
    let request = trace.request(1).unwrap();
    let environment = (request.messages.iter())
        .flat_map(|message| &message.content)
        .find(|block| block.text.starts_with("<environment_context>"))
        .unwrap();
    assert!(environment
        .text
        .contains("<environment id=\"box\"><cwd>/box</cwd><shell>sh</shell>"));
    assert!(environment
        .text
        .contains("  <subagents>\n    - agent-1: atlas\n  </subagents>"));
    let one = r#"{"steps": [{"kind": "turnSettings",
        "environments": [{"id": "local", "cwd": "/repo", "shell": "bash"}]}]}"#;
    let error = parse_scenario(one).unwrap_err().to_string();
    assert!(error.contains("steps[0].environments"), "{error}");
    assert!(error.contains("two or more"), "{error}");
}
