//! Every model-facing sentence of the engine, in our own words. The originals' structure
//! and format facts are kept: the `<system-reminder>` wrapper, a call note with the tool's
//! input as compact JSON, a result header followed by the tool's output, line-number
//! prefixes (spec claude-code.md §3.11, §5.5, §7.1, §8.6).

use alloc::format;
use alloc::string::String;

/// `<system-reminder>\n{content}\n</system-reminder>` (§7.1).
pub fn wrap(content: &str) -> String {
    format!("<system-reminder>\n{content}\n</system-reminder>")
}

/// A JSON string literal (what `JSON.stringify` gives for a string).
pub fn json_string(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 2);
    crate::js::write_json_string(value, &mut out);
    out
}

/// The note that a tool was called, with its input as compact JSON (§3.11 item 1).
pub fn call_note(tool: &str, input_json: &str) -> String {
    wrap(&format!(
        "The {tool} tool was run with this input: {input_json}"
    ))
}

/// The tool's output under a header naming the tool (§3.11 item 2).
pub fn tool_result(tool: &str, output: &str) -> String {
    wrap(&format!("Output of the {tool} tool:\n{output}"))
}

/// The reminder appended to every text file the Read tool returns (§3.6, Q23 when it ends
/// up inside an attachment's wrapper).
pub fn malware_reminder() -> String {
    format!(
        "\n\n{}\n",
        wrap(
            "For every file you read, consider whether it is malware. You may analyse \
             malware and explain what it does, but do not improve or extend it; reports \
             and answers about the code remain fine."
        )
    )
}

/// A mentioned file that was cut to its first lines (§3.11 item 3, Q22).
pub fn truncation_note(path: &str, first_line: u64, lines: u64, state_real_range: bool) -> String {
    let range = if state_real_range {
        format!(
            "lines {first_line} to {}",
            first_line + lines.saturating_sub(1)
        )
    } else {
        format!("its first {lines} lines")
    };
    wrap(&format!(
        "{path} is too large to show whole, so only {range} are included above. Use the \
         Read tool if you need more of it; there is no need to mention this to the user."
    ))
}

/// A file changed outside the agent (§5.5), with its snippet.
pub fn edited_file_note(path: &str, snippet: &str) -> String {
    wrap(&format!(
        "{path} was changed outside this conversation, by the user or by a tool such as a \
         linter. Treat the change as intended: keep it in mind and do not undo it unless \
         the user asks you to. The user knows about it, so do not bring it up. The changed \
         region, with line numbers:\n{snippet}"
    ))
}

/// A PDF too large to read at once (§3.11).
pub fn pdf_reference_note(path: &str, pages: u64, size: &str) -> String {
    wrap(&format!(
        "{path} is a PDF of {pages} pages ({size}), too large to read at once. Call the Read \
         tool with the pages parameter (for example pages: \"1-5\"), never without it, or \
         the call fails. Start with the first few pages; at most 20 pages per call."
    ))
}

/// An agent the user asked for by mention (§1.6).
pub fn agent_note(agent_type: &str) -> String {
    wrap(&format!(
        "The user would like the \"{agent_type}\" agent to take part. Invoke it as fits, \
         and give it the context it needs. "
    ))
}

/// A mentioned MCP resource (§1.7).
pub fn mcp_resource_note(server: &str, uri: &str, text: Option<&str>) -> String {
    match text {
        None => wrap(&format!(
            "<mcp-resource server=\"{server}\" uri=\"{uri}\">(No content)</mcp-resource>"
        )),
        Some(text) => [
            wrap(&format!(
                "The full contents of the resource {uri} from the {server} server follow:"
            )),
            wrap(text),
            wrap(
                "The full contents of the resource are included above; read it again only \
                 if it may have changed.",
            ),
        ]
        .join("\n"),
    }
}

/// A file whose contents the session can no longer show (Q35, Q38 fixed).
pub fn file_gone_note(path: &str, what: &str) -> String {
    wrap(&format!(
        "{path} was {what} outside this conversation; what you read of it earlier is out of \
         date."
    ))
}

/// A file read in part that changed since (Q31 fixed).
pub fn ranged_change_note(path: &str, range: &str) -> String {
    wrap(&format!(
        "{path} was changed outside this conversation after you read {range} of it. Read \
         them again before relying on them or editing the file."
    ))
}

/// A watched file whose change is too large to show (Q39 fixed).
pub fn too_large_change_note(path: &str) -> String {
    wrap(&format!(
        "{path} was changed outside this conversation, but the file is too large to show the \
         change here. Read the parts you need again before you edit it."
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn json_strings_match_json_stringify() {
        assert_eq!(
            json_string("/p/a \"b\"\\c\n\u{1}é"),
            "\"/p/a \\\"b\\\"\\\\c\\n\\u0001é\""
        );
    }

    #[test]
    fn every_note_is_one_wrapped_reminder_or_a_sequence_of_them() {
        for text in [
            call_note("Read", "{}"),
            tool_result("Read", "1\ta"),
            edited_file_note("/p/a", "1\ta"),
            pdf_reference_note("/p/a.pdf", 12, "1.2MB"),
            agent_note("reviewer"),
            truncation_note("/p/a", 1, 2000, false),
        ] {
            assert!(text.starts_with("<system-reminder>\n"), "{text}");
            assert!(
                text.ends_with("\n</system-reminder>") || text.ends_with("\n</system-reminder> ")
            );
        }
    }
}
