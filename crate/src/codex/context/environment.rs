//! `<environment_context>` (spec codex.md §1.6) and its diff body (§2.4).
//!
//! One execution environment (`<cwd>`, `<shell>`) or, when the host gives several, the
//! `<environments>` form; `<current_date>`, `<timezone>`, `<network>`, `<filesystem>` (the
//! workspace roots and the permission profile, the only place Codex escapes XML) and the
//! sub-agents' `<subagents>`, which only a full injection states.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::settings::{
    ContextRules, ExecEnvironment, NetworkDomains, SandboxMode, Subagent, TurnSettings,
};

/// The fields one `<environment_context>` states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvironmentContext<'a> {
    /// cwd and shell; `None` in a diff whose cwd (or environments) did not change.
    pub cwd_and_shell: Option<(&'a str, &'a str)>,
    /// Several execution environments: when there are two or more, they are stated in
    /// place of cwd and shell (wherever those would be).
    pub environments: &'a [ExecEnvironment],
    /// The local date; left out when empty.
    pub current_date: &'a str,
    /// The IANA time zone.
    pub timezone: &'a str,
    /// The managed network domains, when configured.
    pub network: Option<&'a NetworkDomains>,
    /// The rendered `<filesystem>` element ([`filesystem`]).
    pub filesystem: String,
    /// The sub-agents; empty in a diff, which never states them (§2.4).
    pub subagents: &'a [Subagent],
}

impl<'a> EnvironmentContext<'a> {
    /// Everything a full injection states (§1.6).
    pub fn full(rules: &ContextRules, settings: &'a TurnSettings) -> Self {
        EnvironmentContext {
            cwd_and_shell: Some((&settings.cwd, &settings.shell)),
            current_date: &settings.current_date,
            timezone: settings.timezone(),
            network: settings.network.as_ref(),
            filesystem: filesystem_under(rules, settings),
            environments: &settings.environments,
            subagents: &settings.subagents,
        }
    }

    /// The diff body after `previous` (§2.4): `None` when nothing but the shell changed;
    /// otherwise cwd and shell only if the cwd changed, and always the new date, time
    /// zone, network and filesystem (so a date rollover alone sends a diff, a sandbox change
    /// sends one, and a configured network is re-stated every time).
    pub fn diff(
        rules: &ContextRules,
        previous: &TurnSettings,
        next: &'a TurnSettings,
    ) -> Option<Self> {
        if !previous.environment_differs(next) {
            return None;
        }
        let mut context = EnvironmentContext::full(rules, next);
        if !previous.location_differs(next) {
            context.cwd_and_shell = None;
        }
        context.subagents = &[];
        Some(context)
    }

    /// The tagged text: `"\n" + lines.join("\n") + "\n"` between the tags, each line
    /// indented two spaces; values are escaped only inside `<filesystem>`.
    ///
    /// # Example
    /// ```
    /// use context_assembly::codex::context::{ContextRules, EnvironmentContext, TurnSettings};
    /// let previous = TurnSettings::default();
    /// let next = TurnSettings { current_date: "2026-06-10".into(), ..TurnSettings::default() };
    /// // a date rollover alone is a diff, without cwd and shell
    /// let diff = EnvironmentContext::diff(&ContextRules::codex(), &previous, &next).unwrap().render();
    /// assert!(diff.starts_with("<environment_context>\n  <current_date>2026-06-10</current_date>\n  <timezone>Etc/UTC</timezone>\n  <filesystem>"));
    /// ```
    pub fn render(&self) -> String {
        let mut lines: Vec<String> = Vec::new();
        match self.cwd_and_shell {
            Some(_) if self.environments.len() >= 2 => {
                lines.push(format!("  {}", render_environments(self.environments)));
            }
            Some((cwd, shell)) => {
                lines.push(format!("  <cwd>{cwd}</cwd>"));
                lines.push(format!("  <shell>{shell}</shell>"));
            }
            None => {}
        }
        if !self.current_date.is_empty() {
            lines.push(format!(
                "  <current_date>{}</current_date>",
                self.current_date
            ));
        }
        lines.push(format!("  <timezone>{}</timezone>", self.timezone));
        if let Some(network) = self.network {
            lines.push(format!("  {}", render_network(network)));
        }
        lines.push(format!("  {}", self.filesystem));
        if !self.subagents.is_empty() {
            lines.push(String::from("  <subagents>"));
            for agent in self.subagents {
                lines.push(format!("    - {}: {}", agent.id, agent.name));
            }
            lines.push(String::from("  </subagents>"));
        }
        format!(
            "<environment_context>\n{}\n</environment_context>",
            lines.join("\n")
        )
    }
}

/// `<environments>`, one `<environment id="…">` with its `<cwd>` and `<shell>` per
/// environment, on one line, unescaped (only `<filesystem>` is escaped).
fn render_environments(environments: &[ExecEnvironment]) -> String {
    let mut out = String::from("<environments>");
    for environment in environments {
        out.push_str(&format!(
            "<environment id=\"{}\"><cwd>{}</cwd><shell>{}</shell></environment>",
            environment.id, environment.cwd, environment.shell
        ));
    }
    out.push_str("</environments>");
    out
}

/// `<network enabled="true">` with `<allowed>` and `<denied>` comma-joined, each left out
/// when empty.
fn render_network(network: &NetworkDomains) -> String {
    let mut out = String::from("<network enabled=\"true\">");
    for (tag, domains) in [("allowed", &network.allowed), ("denied", &network.denied)] {
        if !domains.is_empty() {
            out.push_str(&format!("<{tag}>{}</{tag}>", domains.join(",")));
        }
    }
    out.push_str("</network>");
    out
}

/// `<filesystem>`: the workspace roots (cwd, then the configured writable roots), then the
/// permission profile. Full access is `disabled` and `unrestricted`; the other modes are
/// `managed` and `restricted`: everything readable (`:root`) and, under workspace-write, the
/// roots writable, then `/tmp` (unless excluded) and `$TMPDIR` — named, not resolved, so a
/// `$TMPDIR` change is no new filesystem — then each root's `.git`, `.agents` and `.codex`
/// kept read-only, grouped by folder name. Paths are XML-escaped.
///
/// # Example
/// ```
/// use context_assembly::codex::context::{environment::filesystem, SandboxMode, TurnSettings};
/// let settings = TurnSettings { sandbox_mode: SandboxMode::DangerFullAccess, ..TurnSettings::default() };
/// assert_eq!(
///     filesystem(&settings),
///     "<filesystem><workspace_roots><root>/repo</root></workspace_roots><permission_profile \
///      type=\"disabled\"><file_system type=\"unrestricted\" /></permission_profile></filesystem>"
/// );
/// ```
pub fn filesystem(settings: &TurnSettings) -> String {
    filesystem_under(&ContextRules::codex(), settings)
}

/// [`filesystem`] under `rules`: with `protect_aws_folder`, each root's `.aws` is read-only
/// too, after `.codex`.
pub fn filesystem_under(rules: &ContextRules, settings: &TurnSettings) -> String {
    let mut roots: Vec<&str> = Vec::from([settings.cwd.as_str()]);
    roots.extend(settings.writable_roots.iter().map(String::as_str));
    roots.retain(|root| !root.is_empty());
    let mut out = String::from("<filesystem><workspace_roots>");
    for root in &roots {
        out.push_str(&format!("<root>{}</root>", escape_xml(root)));
    }
    out.push_str("</workspace_roots>");
    match settings.sandbox_mode {
        SandboxMode::DangerFullAccess => out.push_str(
            "<permission_profile type=\"disabled\"><file_system type=\"unrestricted\" />\
             </permission_profile>",
        ),
        mode => {
            out.push_str(
                "<permission_profile type=\"managed\"><file_system type=\"restricted\">\
                 <entry access=\"read\"><special>:root</special></entry>",
            );
            if mode == SandboxMode::WorkspaceWrite {
                for root in &roots {
                    push_entry(&mut out, "write", "path", &escape_xml(root));
                }
                if !settings.exclude_slash_tmp {
                    push_entry(&mut out, "write", "special", ":slash_tmp");
                }
                push_entry(&mut out, "write", "special", ":tmpdir");
                let aws = rules.protect_aws_folder.then_some(".aws");
                for folder in [".git", ".agents", ".codex"].into_iter().chain(aws) {
                    for root in &roots {
                        let path = format!("{}/{folder}", root.trim_end_matches('/'));
                        push_entry(&mut out, "read", "path", &escape_xml(&path));
                    }
                }
            }
            out.push_str("</file_system></permission_profile>");
        }
    }
    out.push_str("</filesystem>");
    out
}

fn push_entry(out: &mut String, access: &str, kind: &str, value: &str) {
    out.push_str(&format!(
        "<entry access=\"{access}\"><{kind}>{value}</{kind}></entry>"
    ));
}

fn escape_xml(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&apos;"),
            other => out.push(other),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn reference_rendering_of_the_modelled_fields() {
        let settings = TurnSettings {
            timezone: "America/Los_Angeles".into(),
            current_date: "2026-02-26".into(),
            network: Some(NetworkDomains {
                allowed: vec!["api.example.com".into(), "*.openai.com".into()],
                denied: vec!["blocked.example.com".into()],
            }),
            ..TurnSettings::default()
        };
        assert_eq!(
            EnvironmentContext::full(&ContextRules::codex(), &settings).render(),
            format!(
            "<environment_context>\n  <cwd>/repo</cwd>\n  <shell>bash</shell>\n  \
             <current_date>2026-02-26</current_date>\n  <timezone>America/Los_Angeles</timezone>\n  \
             <network enabled=\"true\"><allowed>api.example.com,*.openai.com</allowed>\
             <denied>blocked.example.com</denied></network>\n  {}\n</environment_context>",
            filesystem(&settings)
            )
        );
    }

    #[test]
    fn a_shell_change_alone_is_no_diff() {
        let previous = TurnSettings::default();
        let next = TurnSettings {
            shell: "zsh".into(),
            ..TurnSettings::default()
        };
        assert_eq!(
            EnvironmentContext::diff(&ContextRules::codex(), &previous, &next),
            None
        );
    }

    #[test]
    fn values_are_not_escaped_and_empty_timezone_is_utc() {
        let settings = TurnSettings {
            cwd: "/a&b".into(),
            timezone: String::new(),
            ..TurnSettings::default()
        };
        let text = EnvironmentContext::full(&ContextRules::codex(), &settings).render();
        assert!(text.contains("<cwd>/a&b</cwd>"));
        assert!(text.contains("<timezone>Etc/UTC</timezone>"));
    }
}
