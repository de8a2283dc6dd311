//! `<environment_context>` (spec codex.md §1.6) and its diff body (§2.4).
//!
//! Modelled: one execution environment (`<cwd>`, `<shell>`), `<current_date>`,
//! `<timezone>` and `<network>`. Not modelled: `<filesystem>` (the permission profile as
//! XML, the only place Codex escapes XML), `<subagents>` and the multi-environment
//! `<environments>` form; they are never rendered.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::settings::{NetworkDomains, TurnSettings};

/// The fields one `<environment_context>` states.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EnvironmentContext<'a> {
    /// cwd and shell; `None` in a diff whose cwd did not change.
    pub cwd_and_shell: Option<(&'a str, &'a str)>,
    /// The local date; left out when empty.
    pub current_date: &'a str,
    /// The IANA time zone.
    pub timezone: &'a str,
    /// The managed network domains, when configured.
    pub network: Option<&'a NetworkDomains>,
}

impl<'a> EnvironmentContext<'a> {
    /// Everything a full injection states (§1.6).
    pub fn full(settings: &'a TurnSettings) -> Self {
        EnvironmentContext {
            cwd_and_shell: Some((&settings.cwd, &settings.shell)),
            current_date: &settings.current_date,
            timezone: settings.timezone(),
            network: settings.network.as_ref(),
        }
    }

    /// The diff body after `previous` (§2.4): `None` when nothing but the shell changed;
    /// otherwise cwd and shell only if the cwd changed, and always the new date, time
    /// zone and network (so a date rollover alone sends a diff, and a configured network
    /// is re-stated every time).
    pub fn diff(previous: &TurnSettings, next: &'a TurnSettings) -> Option<Self> {
        if !previous.environment_differs(next) {
            return None;
        }
        let mut context = EnvironmentContext::full(next);
        if previous.cwd == next.cwd {
            context.cwd_and_shell = None;
        }
        Some(context)
    }

    /// The tagged text: `"\n" + lines.join("\n") + "\n"` between the tags, each line
    /// indented two spaces; values are not escaped.
    ///
    /// # Example
    /// ```
    /// use context_assembly::codex::context::{EnvironmentContext, TurnSettings};
    /// let previous = TurnSettings::default();
    /// let next = TurnSettings { current_date: "2026-06-10".into(), ..TurnSettings::default() };
    /// // a date rollover alone is a diff, without cwd and shell
    /// let diff = EnvironmentContext::diff(&previous, &next).unwrap().render();
    /// assert_eq!(diff, "<environment_context>\n  <current_date>2026-06-10</current_date>\n  <timezone>Etc/UTC</timezone>\n</environment_context>");
    /// ```
    pub fn render(&self) -> String {
        let mut lines: Vec<String> = Vec::new();
        if let Some((cwd, shell)) = self.cwd_and_shell {
            lines.push(format!("  <cwd>{cwd}</cwd>"));
            lines.push(format!("  <shell>{shell}</shell>"));
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
        format!(
            "<environment_context>\n{}\n</environment_context>",
            lines.join("\n")
        )
    }
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
            EnvironmentContext::full(&settings).render(),
            "<environment_context>\n  <cwd>/repo</cwd>\n  <shell>bash</shell>\n  \
             <current_date>2026-02-26</current_date>\n  <timezone>America/Los_Angeles</timezone>\n  \
             <network enabled=\"true\"><allowed>api.example.com,*.openai.com</allowed>\
             <denied>blocked.example.com</denied></network>\n</environment_context>"
        );
    }

    #[test]
    fn a_shell_change_alone_is_no_diff() {
        let previous = TurnSettings::default();
        let next = TurnSettings {
            shell: "zsh".into(),
            ..TurnSettings::default()
        };
        assert_eq!(EnvironmentContext::diff(&previous, &next), None);
    }

    #[test]
    fn values_are_not_escaped_and_empty_timezone_is_utc() {
        let settings = TurnSettings {
            cwd: "/a&b".into(),
            timezone: String::new(),
            ..TurnSettings::default()
        };
        let text = EnvironmentContext::full(&settings).render();
        assert!(text.contains("<cwd>/a&b</cwd>"));
        assert!(text.contains("<timezone>Etc/UTC</timezone>"));
    }
}
