//! What the conformance lab showed Codex CLI 0.139.0 sends about the sandbox (docs/conformance.md,
//! "Codex"): the `<filesystem>` line of `<environment_context>`, a new environment after a
//! sandbox change, the network status per mode, and the writable roots with `/tmp` and `$TMPDIR`.

use context_assembly::codex::context::{
    permissions_instructions, ContextRules, EnvironmentContext, SandboxMode, TurnSettings,
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
