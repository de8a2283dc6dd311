//! Every model-facing sentence of the codex family (spec codex.md §0.4): the tagged
//! fragments of its context (§1.4), the skills list's framing, the personality presets, and
//! local compaction's prompt and summary prefix (§4.4). Tags, layout and separators are the
//! original's byte for byte; the sentences are our own. The claude-code family's wording is
//! in [`crate::wording`]; `crate/tests/wording.rs` snapshots both.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::context::settings::{ApprovalPolicy, ContextRules, SandboxMode, TurnSettings};

/// `<permissions instructions>`: the sandbox section (with the network status filled in),
/// the approval section and, under workspace-write, the writable-roots sentence. Each
/// section starts on a new line; the body starts and ends with `\n`.
///
/// # Example
/// ```
/// use context_assembly::codex::context::{permissions_instructions, TurnSettings};
/// let settings = TurnSettings { writable_roots: vec!["/tmp/out".into()], ..TurnSettings::default() };
/// let text = permissions_instructions(&settings);
/// assert!(text.starts_with("<permissions instructions>\n"));
/// // cwd and /tmp count as roots, roots sorted, each in backticks, joined by `, `
/// assert!(text.ends_with("\n The writable roots are `/repo`, `/tmp`, `/tmp/out`.\n</permissions instructions>"));
/// ```
pub fn permissions_instructions(settings: &TurnSettings) -> String {
    let mut body = String::new();
    append_section(
        &mut body,
        &sandbox_section(settings.sandbox_mode, settings.network_enabled()),
    );
    append_section(&mut body, approval_section(settings.approval_policy));
    if let Some(roots) = writable_roots_sentence(settings) {
        append_section(&mut body, &roots);
    }
    if !body.ends_with('\n') {
        body.push('\n');
    }
    format!("<permissions instructions>{body}</permissions instructions>")
}

/// Starts `section` on a new line, as Codex joins its permission templates (the first
/// section too, so the body opens with `\n`).
fn append_section(body: &mut String, section: &str) {
    if !body.ends_with('\n') {
        body.push('\n');
    }
    body.push_str(section);
}

fn sandbox_section(mode: SandboxMode, network_access: bool) -> String {
    let network = if network_access {
        "enabled"
    } else {
        "restricted"
    };
    let mode_name = mode.as_str();
    match mode {
        SandboxMode::ReadOnly => format!(
            "## Filesystem sandbox\nThe sandbox decides which files your commands may read and write. \
             `sandbox_mode` is `{mode_name}`: you may read files, but changing any file needs the \
             user's approval first. Network access: {network}."
        ),
        SandboxMode::WorkspaceWrite => format!(
            "## Filesystem sandbox\nThe sandbox decides which files your commands may read and write. \
             `sandbox_mode` is `{mode_name}`: you may read any file and edit files inside `cwd` and \
             the `writable_roots`; editing anywhere else needs the user's approval first. \
             Network access: {network}."
        ),
        SandboxMode::DangerFullAccess => format!(
            "## Filesystem sandbox\n`sandbox_mode` is `{mode_name}`: commands run without a \
             sandbox and may read and write any file. Network access: {network}."
        ),
    }
}

fn approval_section(policy: ApprovalPolicy) -> &'static str {
    match policy {
        ApprovalPolicy::Never => {
            "## Approvals\n`approval_policy` is `never`: the user will not be asked to approve \
             anything. Work within the sandbox; when a command fails for lack of permission, \
             find another way or report it."
        }
        ApprovalPolicy::UnlessTrusted => {
            "## Approvals\n`approval_policy` is `unless-trusted`: every command outside a small \
             set of known-safe read-only commands is shown to the user for approval first."
        }
        ApprovalPolicy::OnFailure => {
            "## Approvals\n`approval_policy` is `on-failure`: commands run in the sandbox; when one \
             fails because of it, the user is asked whether to retry it without the sandbox."
        }
        ApprovalPolicy::OnRequest => {
            "## Approvals\n`approval_policy` is `on-request`: commands run in the sandbox, and you \
             may ask to run one outside it (with `sandbox_permissions` set to \
             `require_escalated` and a one-sentence justification) when the task needs it."
        }
    }
}

/// The writable roots under workspace-write ([`TurnSettings::listed_writable_roots`]); one
/// root reads singular, several are joined with `, `. The leading space is part of the
/// reference format.
fn writable_roots_sentence(settings: &TurnSettings) -> Option<String> {
    let quoted: Vec<String> = settings
        .listed_writable_roots()
        .iter()
        .map(|root| format!("`{root}`"))
        .collect();
    match quoted.as_slice() {
        [] => None,
        [one] => Some(format!(" The writable root is {one}.")),
        many => Some(format!(" The writable roots are {}.", many.join(", "))),
    }
}

/// `<collaboration_mode>{instructions}</collaboration_mode>`, no newlines added (§1.4).
pub fn collaboration_mode_instructions(instructions: &str) -> String {
    format!("<collaboration_mode>{instructions}</collaboration_mode>")
}

/// The X21 notice (option `announce_mode_clear`): the previous collaboration mode's
/// instructions no longer apply.
pub fn collaboration_mode_cleared() -> String {
    collaboration_mode_instructions(
        "The collaboration mode set earlier has ended; its instructions no longer apply. \
         Continue in the default mode.",
    )
}

/// `<personality_spec> {notice}: \n{spec} </personality_spec>`: the single spaces after
/// the opening tag and before the closing one are the reference's (§1.4).
pub fn personality_spec(spec: &str) -> String {
    format!(
        "<personality_spec> The user asked for a different communication style; write \
         every later reply in the personality described below: \n{spec} </personality_spec>"
    )
}

/// The start of a voice (realtime) conversation (§1.4 "Realtime"):
/// `<realtime_conversation>\n{text, trimmed}\n</realtime_conversation>`, the text being the
/// host's (`experimental_realtime_start_instructions`) or ours.
pub fn realtime_start(instructions: Option<&str>) -> String {
    let text = instructions.unwrap_or(
        "A voice conversation has started: from here on the user's messages are transcribed \
         speech. Expect recognition errors and missing punctuation, read them for what was \
         meant, and answer briefly, in a way that reads well aloud.",
    );
    format!(
        "<realtime_conversation>\n{}\n</realtime_conversation>",
        text.trim()
    )
}

/// The end of a voice conversation (§1.4 "Realtime"): two paragraphs, then the reason line
/// `Reason: inactive`.
pub fn realtime_end() -> String {
    String::from(
        "<realtime_conversation>\nThe voice conversation has ended.\n\nFrom here on the \
         user's messages are typed, not transcribed: stop allowing for recognition errors or \
         missing punctuation, and reply as in an ordinary chat.\n\nReason: inactive\n\
         </realtime_conversation>",
    )
}

/// `<model_switch>\n{notice}\n\n{instructions}\n</model_switch>`, carrying the new
/// model's full base instructions (§1.4, X22).
pub fn model_switch(instructions: &str) -> String {
    format!(
        "<model_switch>\nAnother model handled this conversation until now. From here on, \
         continue it under the instructions below.\n\n{instructions}\n</model_switch>"
    )
}

/// The AGENTS.md fragment, labelled with the turn's cwd (§1.4, §7.6, X19).
///
/// # Example
/// ```
/// use context_assembly::codex::context::agents_md_instructions;
/// assert_eq!(
///     agents_md_instructions("/repo/app", "Use tabs."),
///     "# AGENTS.md instructions for /repo/app\n\n<INSTRUCTIONS>\nUse tabs.\n</INSTRUCTIONS>"
/// );
/// ```
pub fn agents_md_instructions(cwd: &str, text: &str) -> String {
    format!("# AGENTS.md instructions for {cwd}\n\n<INSTRUCTIONS>\n{text}\n</INSTRUCTIONS>")
}

/// The AGENTS.md fragment of the user's global doc alone, which names no directory
/// (Codex 0.171.0).
///
/// ```
/// use context_assembly::codex::context::untitled_agents_md_instructions;
/// assert_eq!(
///     untitled_agents_md_instructions("Be brief."),
///     "# AGENTS.md instructions\n\n<INSTRUCTIONS>\nBe brief.\n</INSTRUCTIONS>"
/// );
/// ```
pub fn untitled_agents_md_instructions(text: &str) -> String {
    format!("# AGENTS.md instructions\n\n<INSTRUCTIONS>\n{text}\n</INSTRUCTIONS>")
}

/// The AGENTS.md fragment `rules` give for a turn in `settings`: untitled for a global doc
/// alone where the release does so, else labelled with the turn's cwd.
pub fn agents_md_fragment(rules: &ContextRules, settings: &TurnSettings, text: &str) -> String {
    if rules.untitled_global_agents_md && settings.agents_md_global_only {
        untitled_agents_md_instructions(text)
    } else {
        agents_md_instructions(&settings.cwd, text)
    }
}

/// What opens `<skills_instructions>`: what a skill is and what the list shows.
pub const SKILLS_INTRO: &str =
    "A skill is a packaged set of local instructions kept in a `SKILL.md` file. \
The skills you can use are listed below, each with its name, what it is for, and the path of \
its `SKILL.md`.";

/// The list's `How to use skills` bullets.
pub const SKILLS_GUIDANCE: &str =
    "- When to use one: if the user names a skill (as `$name` or in plain \
words), or the task plainly matches a skill's description, use that skill for this turn. Use \
every skill that is named. A skill does not carry over to later turns unless named again.
- If a named skill is not listed, or its file cannot be read, say so in a sentence and carry on \
as well as you can.
- How: open the skill's `SKILL.md` and read only as much as the task needs. Resolve relative \
paths it mentions against the skill's directory. Load referenced files only when needed, run \
or adapt bundled scripts instead of retyping them, and reuse bundled templates and assets.
- Several skills: pick the fewest that cover the request, and say in one line which you use, \
in what order, and why.
- Keep the context small: summarise long files rather than pasting them, and do not follow \
chains of references you do not need.
- If a skill cannot be applied cleanly, say what is wrong and continue with the next best \
approach.";

/// The message of Codex's `friendly` personality preset.
pub const FRIENDLY_PERSONALITY: &str = "Be warm and encouraging. Explain your reasoning in \
plain words and check in with the user when a choice is theirs to make.";

/// The message of Codex's `pragmatic` personality preset.
pub const PRAGMATIC_PERSONALITY: &str = "Be direct and efficient. Lead with what you did and \
what is left, and skip what the user does not need.";

/// The compaction prompt (`SUMMARIZATION_PROMPT`, §4.4): appended as the **last user message**
/// of the compaction request, not as a system prompt (X3). Layout as the original's: an opening
/// paragraph, a blank line, an `Include:` heading, four bullets, a blank line, one closing line.
pub const SUMMARIZATION_PROMPT: &str = "\
You are at a context checkpoint: the conversation so far is about to be compacted. Write a \
handoff summary that another model can use to pick up this task exactly where it stands.

Include:
- What has been done so far, and the key decisions taken
- Important context, constraints and preferences the user stated
- What is left to do, as clear next steps
- Critical data, examples or references needed to carry on

Keep it concise and structured, so the next model can continue without missing a beat.
";

/// The prefix of an installed summary (`SUMMARY_PREFIX`, §4.4): one paragraph ending in a colon,
/// with no trailing newline. A summary message is this prefix, `"\n"`, then the summary text;
/// [`is_summary_message`](super::compact::is_summary_message) recognises it by exactly that start.
pub const SUMMARY_PREFIX: &str = "\
An earlier model run worked on this same task and left the summary below. The tool state it \
produced (files, processes, changes) is still in place, so build on that work rather than \
repeating it. Its summary:";

/// What the summary message says when the summary text is empty (§4.3 step 7). Unreachable in
/// the original, whose summary text always starts with the prefix (X4).
pub const NO_SUMMARY_AVAILABLE: &str = "(no summary available)";

/// Snapshot \[C\] (§10.8): the sentence that opens a changed AGENTS.md block, saying it
/// replaces every AGENTS.md block sent before.
pub const AGENTS_MD_SUPERSEDES: &str =
    "These AGENTS.md instructions replace all AGENTS.md instructions given earlier in this conversation.";

/// Snapshot \[C\] (§10.8): the text of the AGENTS.md block sent when the files are gone,
/// saying the earlier instructions no longer apply.
pub const AGENTS_MD_WITHDRAWN: &str =
    "The AGENTS.md instructions given earlier in this conversation no longer apply.";

/// What an image becomes in a request to a model without image input (§5.3,
/// `strip_images_when_unsupported`): a text part saying it was left out and why.
pub const IMAGE_LEFT_OUT: &str =
    "[An image was here; it was left out because this model cannot read images.]";

/// What the remote pre-trim puts in place of a tool output's body (§4.6 step 1, X13): one
/// sentence saying the output was removed because it did not fit the model's context.
pub const TRIMMED_TOOL_OUTPUT: &str =
    "This tool output was removed to make the conversation fit the model's context window.";

/// The first line of a stand-in for a release's vendor text the library does not copy (its
/// base instructions, a tool's description): what it stands for, and the size the
/// conformance lab measured, which the rest of the stand-in fills exactly
/// ([`crate::codex::prefix`]).
///
/// ```
/// use context_assembly::codex::wording::stand_in_label;
/// assert_eq!(
///     stand_in_label("0.171.0", "base instructions", 17_119),
///     "Stand-in for the base instructions of Codex CLI 0.171.0: 17119 bytes, as the conformance lab measured them; the original text is not reproduced here."
/// );
/// ```
pub fn stand_in_label(release: &str, what: &str, bytes: u64) -> String {
    format!(
        "Stand-in for the {what} of Codex CLI {release}: {bytes} bytes, as the conformance lab \
         measured them; the original text is not reproduced here."
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    #[test]
    fn permissions_body_opens_and_ends_with_a_newline_in_every_mode() {
        for sandbox_mode in [
            SandboxMode::ReadOnly,
            SandboxMode::WorkspaceWrite,
            SandboxMode::DangerFullAccess,
        ] {
            for approval_policy in [
                ApprovalPolicy::Never,
                ApprovalPolicy::UnlessTrusted,
                ApprovalPolicy::OnFailure,
                ApprovalPolicy::OnRequest,
            ] {
                let settings = TurnSettings {
                    sandbox_mode,
                    approval_policy,
                    ..TurnSettings::default()
                };
                let text = permissions_instructions(&settings);
                assert!(text.starts_with("<permissions instructions>\n## Filesystem sandbox\n"));
                assert!(text.ends_with(".\n</permissions instructions>"));
                assert!(text.contains(approval_policy.as_str()));
                assert!(text.contains(sandbox_mode.as_str()));
                assert_eq!(
                    text.contains("writable root"),
                    sandbox_mode == SandboxMode::WorkspaceWrite
                );
            }
        }
    }

    #[test]
    fn network_placeholder_and_singular_root() {
        let settings = TurnSettings {
            network_access: true,
            exclude_slash_tmp: true,
            ..TurnSettings::default()
        };
        let text = permissions_instructions(&settings);
        assert!(text.contains("Network access: enabled."));
        assert!(text.ends_with("\n The writable root is `/repo`.\n</permissions instructions>"));
        let restricted = permissions_instructions(&TurnSettings::default());
        assert!(restricted.contains("Network access: restricted."));
    }

    #[test]
    fn duplicate_roots_are_named_once() {
        let settings = TurnSettings {
            writable_roots: vec!["/repo".into(), "/a".into(), "/a".into()],
            ..TurnSettings::default()
        };
        assert!(permissions_instructions(&settings)
            .contains(" The writable roots are `/a`, `/repo`, `/tmp`.\n"));
    }

    #[test]
    fn wrappers_keep_the_reference_spacing() {
        assert_eq!(
            collaboration_mode_instructions("plan"),
            "<collaboration_mode>plan</collaboration_mode>"
        );
        let personality = personality_spec("Be terse.");
        assert!(personality.starts_with("<personality_spec> "));
        assert!(personality.ends_with(": \nBe terse. </personality_spec>"));
        let switch = model_switch("BASE");
        assert!(switch.starts_with("<model_switch>\n"));
        assert!(switch.ends_with(".\n\nBASE\n</model_switch>"));
        assert_eq!(switch.lines().count(), 5);
    }
}
