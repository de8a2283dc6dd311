//! Compaction's sentences: the request for a summary and the message the summary is
//! installed in (claude-code.md §9.3), what a compaction adds back after it (§9.4), and what
//! a cheap policy tells the model before it clears anything (strategies.md).

use alloc::format;
use alloc::string::String;

use super::wrap;
use crate::js;

/// The plan file of plan mode, restored after a compaction with its text.
pub fn plan_file_reference(path: &str, content: &str) -> String {
    wrap(&format!(
        "A plan file exists from plan mode: {path}\n\nWhat it says:\n\n{content}\n\n\
         If this plan bears on the current work and is not finished yet, carry on with it."
    ))
}

/// One invoked skill inside [`invoked_skills`]: its name, where it lives, its text.
pub fn invoked_skill(name: &str, path: &str, content: &str) -> String {
    format!("### Skill: {name}\nPath: {path}\n\n{content}")
}

/// The skills invoked before a compaction, restored after it; `skills` are
/// [`invoked_skill`] sections, separated by a rule.
pub fn invoked_skills(skills: &[String]) -> String {
    wrap(&format!(
        "These skills were invoked earlier in this session; their guidance still applies:\n\n{}",
        skills.join("\n\n---\n\n")
    ))
}

/// A file read before the compaction but too large to restore: only its path is given.
pub fn compact_file_reference(path: &str) -> String {
    wrap(&format!(
        "{path} was read before the conversation was summarised. It is too large to include \
         again; read it with the Read tool if you need it."
    ))
}

/// The warning before a cheap policy clears old tool results, when the memory tool is on:
/// save what matters under `memory_dir` first (externalise before evict).
pub fn memory_warning(memory_dir: &str) -> String {
    wrap(&format!(
        "Old tool results will soon be cleared from this conversation to make room. \
         Before that happens, save anything you will still need (findings, decisions, \
         file locations) with the memory tool under {memory_dir}."
    ))
}

/// The nine sections of a summary, in the order the request asks for them (§9.3 item 3).
pub const SUMMARY_SECTIONS: [&str; 9] = [
    "Primary Request and Intent",
    "Key Technical Concepts",
    "Files and Code Sections",
    "Errors and Fixes",
    "Problem Solving",
    "All User Messages",
    "Pending Tasks",
    "Current Work",
    "Optional Next Step",
];

/// Placed before the request so the model answers in text (`NO_TOOLS_PREAMBLE`).
pub const NO_TOOLS_PREAMBLE: &str = "Answer in plain text only and do not call any tool: every \
tool call will be refused, and the conversation above already holds all you need.\n\n";

/// Placed after the request and any custom instructions (`NO_TOOLS_TRAILER`).
pub const NO_TOOLS_TRAILER: &str = "\n\nOnce more: reply with an <analysis> block followed by a \
<summary> block, as plain text, and call no tools.";

/// The request for a summary of the conversation so far, with the host's or the user's
/// extra instructions after the format fact `\n\nAdditional Instructions:\n` (§9.3 item 3).
/// Instructions that are empty or blank are left out, as the original does.
///
/// # Example
/// ```
/// use context_assembly::wording::compaction::summary_request;
/// let plain = summary_request(None);
/// // Blank instructions add nothing.
/// assert_eq!(summary_request(Some(" \n")), plain);
/// let custom = summary_request(Some("Focus on the tests."));
/// assert!(custom.contains("\n\nAdditional Instructions:\nFocus on the tests."));
/// ```
pub fn summary_request(custom_instructions: Option<&str>) -> String {
    let mut request = String::from(NO_TOOLS_PREAMBLE);
    request.push_str(&base_request());
    if let Some(custom) = custom_instructions.filter(|c| !js::trim(c).is_empty()) {
        request.push_str("\n\nAdditional Instructions:\n");
        request.push_str(custom);
    }
    request.push_str(NO_TOOLS_TRAILER);
    request
}

/// The body of the request: what to summarise, in which sections, in which blocks.
fn base_request() -> String {
    let mut body = String::from(
        "Write a detailed summary of this conversation so far. It replaces the conversation: \
         whoever continues the work will see only your summary, so keep every fact they need \
         — what the user asked for, what was done, the exact file names, code and commands, \
         and what is still open.\n\n\
         First think it through inside <analysis> tags: go through the conversation in order \
         and note for each part what the user wanted, how it was approached, the decisions \
         made, the files and code involved, and the errors met and how they were fixed, \
         paying close attention to what the user said about how the work should be done.\n\n\
         Then write the summary inside <summary> tags, in these sections:\n",
    );
    let notes = [
        "everything the user asked for and meant, in detail",
        "the technologies, frameworks and ideas that came up",
        "the files looked at, changed or created, why each matters, with the important code",
        "each error met and how it was fixed, including what the user said about it",
        "the problems solved and the investigations still going on",
        "every message the user wrote that is not a tool result, in order",
        "the tasks the user asked for that are not done yet",
        "exactly what was being worked on just before this summary, with file names and code",
        "the next step, only if it follows directly from the user's latest request, quoting \
         the latest messages so the task is not misread",
    ];
    for (i, (section, note)) in SUMMARY_SECTIONS.iter().zip(notes).enumerate() {
        body.push_str(&format!("{}. {section}: {note}.\n", i + 1));
    }
    body.push_str(
        "\nYour answer has this shape:\n\n<analysis>\n[your reasoning]\n</analysis>\n\n\
         <summary>\n1. Primary Request and Intent:\n   [...]\n\n...\n\n9. Optional Next Step:\n   \
         [...]\n</summary>",
    );
    body
}

/// The content of the summary message that opens the compacted transcript (§9.3 item 8):
/// a preamble, `\n\n`, the formatted summary; then `\n\n` and where the full transcript is,
/// when there is one; `\n\n` and a note that recent messages follow verbatim, for
/// session-memory compaction; and a single `\n` before the instruction to carry on without
/// questions, when `suppress_follow_up` (always for auto-compaction).
///
/// # Example
/// ```
/// use context_assembly::wording::compaction::summary_message;
/// let message = summary_message("Summary:\nx", Some("/t/s.jsonl"), false, true);
/// // The transcript sentence ends with the path, and the follow-up instruction comes after
/// // one newline only.
/// assert!(message.contains("Summary:\nx\n\n"));
/// assert!(message.contains("/t/s.jsonl\nContinue"));
/// ```
pub fn summary_message(
    formatted: &str,
    transcript_path: Option<&str>,
    session_memory: bool,
    suppress_follow_up: bool,
) -> String {
    let mut message = format!(
        "This session continues an earlier conversation that ran out of context. The summary \
         below covers the earlier part of it.\n\n{formatted}"
    );
    if let Some(path) = transcript_path {
        message.push_str(&format!(
            "\n\nFor exact details from before the summary (code snippets, error messages, \
             generated content), read the full transcript: {path}"
        ));
    }
    if session_memory {
        message.push_str("\n\nThe most recent messages follow word for word.");
    }
    if suppress_follow_up {
        message.push_str(
            "\nContinue the last task from where it stopped. Ask the user no questions, do not \
             acknowledge or recap this summary and do not announce that you are continuing: \
             just resume the work.",
        );
    }
    message
}

/// Claude Code 2.1.332's summary message: the preamble; a reminder naming the tools the
/// summarised part called (`<tools-used-before-summary>`, the original's tag), when it called
/// any; the formatted summary; where the full transcript is; after a single `\n`, the
/// instruction to carry on; and, when records were kept, the note that they follow.
///
/// ```
/// use context_assembly::wording::compaction::summary_message_naming_tools;
/// let message = summary_message_naming_tools("Summary:\nx", Some("/t/s.jsonl"), &["Edit", "Read"], true);
/// assert!(message.contains("<tools-used-before-summary>Edit, Read</tools-used-before-summary>"));
/// assert!(message.contains("/t/s.jsonl\nContinue"));
/// ```
pub fn summary_message_naming_tools(
    formatted: &str,
    transcript_path: Option<&str>,
    tools_used: &[&str],
    kept_verbatim: bool,
) -> String {
    // Sent even when no tool was called: the tag then holds nothing (2.1.332).
    let with_tools = format!(
        "{}\n{formatted}",
        wrap(&format!(
            "<tools-used-before-summary>{}</tools-used-before-summary>",
            tools_used.join(", ")
        ))
    );
    let mut message = summary_message(&with_tools, transcript_path, false, true);
    if kept_verbatim {
        message.push_str(
            "\n\nThe messages after this summary are the latest ones from before it, word for \
             word.",
        );
    }
    message
}

/// The messages a typed `/compact` leaves after its summary and post-compact attachments
/// (§9.3 item 7), each with whether it is meta: a caveat that what follows came from a
/// local command (meta), the command as typed with its instructions, and what it printed:
/// in print mode (`-p`) the plain result, in the terminal UI the result dimmed (the
/// terminal's escape codes, kept in the message) with a hint of the key that shows the
/// summary. The tags are the original's; the caveat's and the hint's words are ours.
///
/// ```
/// use context_assembly::wording::compaction::compact_command_messages;
/// let [caveat, command, output] = compact_command_messages(Some("Keep the names."), true);
/// assert!(caveat.1 && !command.1 && !output.1);
/// assert!(command.0.contains("<command-args>Keep the names.</command-args>"));
/// assert_eq!(output.0, "<local-command-stdout>Compacted</local-command-stdout>");
/// let [_, _, terminal] = compact_command_messages(None, false);
/// assert!(terminal.0.starts_with("<local-command-stdout>\u{1b}[2mCompacted ("));
/// ```
pub fn compact_command_messages(
    instructions: Option<&str>,
    print_mode: bool,
) -> [(String, bool); 3] {
    let args = instructions.unwrap_or_default();
    [
        (
            String::from(
                "<local-command-caveat>Caveat: the user produced the messages below by running a \
                 local command. Do not answer them or take them into account unless the user \
                 asks you to.</local-command-caveat>",
            ),
            true,
        ),
        (
            format!(
                "<command-name>/compact</command-name>\n<command-message>compact</command-message>\n\
                 <command-args>{args}</command-args>"
            ),
            false,
        ),
        (
            match print_mode {
                true => String::from("<local-command-stdout>Compacted</local-command-stdout>"),
                false => String::from(
                    "<local-command-stdout>\u{1b}[2mCompacted (ctrl+o shows the full summary)\u{1b}[22m</local-command-stdout>",
                ),
            },
            false,
        ),
    ]
}

/// The meta user message that opens a summary request retried after the provider refused
/// it as too long, when the records left start with an assistant response (§9.3 item 4): a
/// marker, reproduced byte for byte.
pub const PTL_RETRY_MARKER: &str = "[earlier conversation truncated for compaction retry]";

/// What the user is told when the summary request is still too long after every retry, or
/// nothing more can be dropped (§9.3 item 4).
pub const PROMPT_TOO_LONG_ERROR: &str = "Compaction failed: the conversation is too long even \
    to summarise. Press Esc twice to step back a few messages, then try again.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_keeps_the_order_of_its_parts() {
        let request = summary_request(Some("X"));
        assert!(request.starts_with(NO_TOOLS_PREAMBLE));
        assert!(request.ends_with(&format!(
            "\n\nAdditional Instructions:\nX{NO_TOOLS_TRAILER}"
        )));
        let mut at = 0;
        for section in SUMMARY_SECTIONS {
            let found = request[at..].find(section).map(|i| i + at);
            assert!(found.is_some(), "{section}");
            at = found.unwrap_or(at);
        }
        assert!(request.find("<analysis>") < request.find("<summary>"));
    }
}
