//! Notes about files and tools: the call and result notes of a Read the engine performs
//! for a mention, file changes seen on disk, truncation, images, PDFs, agents and MCP
//! resources (spec claude-code.md §3.11, §5.5, §7.1, §8.6).

use alloc::format;
use alloc::string::String;

use super::wrap;

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
pub fn edited_file_note(path: &str, snippet: &str, removals_marked: bool) -> String {
    let numbers = if removals_marked {
        "with line numbers (a removed line shows - in place of its number)"
    } else {
        "with line numbers"
    };
    wrap(&format!(
        "{path} was changed outside this conversation, by the user or by a tool such as a \
         linter. Treat the change as intended: keep it in mind and do not undo it unless \
         the user asks you to. The user knows about it, so do not bring it up. The changed \
         region, {numbers}:\n{snippet}"
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

/// A mentioned file too large to attach (over the Read tool's size limit): its path and
/// size, and how to read it (Claude Code 2.1.332; 2.1.88 sent nothing, Q18).
pub fn oversized_mention_reference(path: &str, size: &str) -> String {
    wrap(&format!(
        "{path} ({size}) was mentioned but is too large to attach whole. Read the part you \
         need with the Read tool's offset and limit, or search it first."
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

/// An image that changed on disk since it was read: the model is asked to read it again.
pub fn edited_image_note(path: &str) -> String {
    wrap(&format!(
        "The image {path} was changed outside this conversation; read it again to see it."
    ))
}

/// What the model reads in place of a mentioned image: its format (`Png`, …; `None` when
/// unknown), its size in pixels when known, and its file size.
pub fn image_summary(format: Option<&str>, dimensions: Option<(u32, u32)>, size: &str) -> String {
    let shape = match (format, dimensions) {
        (Some(format), Some((width, height))) => format!("{format} image, {width}×{height} pixels"),
        (Some(format), None) => format!("{format} image"),
        (None, _) => String::from("image of an unknown format"),
    };
    wrap(&format!("[{shape}, {size}]"))
}

/// A mentioned PDF sent as a document block: the note standing for it in the text.
pub fn pdf_document_note(path: &str, size: &str) -> String {
    wrap(&format!("[the PDF document {path}, {size}]"))
}

/// A file mentioned again while unchanged: a pointer to the copy already above (Q20 fixed).
pub fn unchanged_pointer(path: &str) -> String {
    wrap(&format!(
        "{path} is unchanged since it was last read; its contents are already above."
    ))
}

/// The description of the `ls` call that lists a mentioned directory.
pub fn list_directory_description(path: &str) -> String {
    format!("Lists files in {path}")
}

/// Read's warning for a file that exists but is empty.
pub const EMPTY_FILE_WARNING: &str =
    "<system-reminder>Warning: this file exists but is empty.</system-reminder>";

/// Read's warning when the requested offset is past the file's end.
pub fn shorter_than_offset_warning(start_line: u64, total_lines: u64) -> String {
    format!(
        "<system-reminder>Warning: this file exists but is shorter than the offset given \
         ({start_line}); it has {total_lines} lines.</system-reminder>"
    )
}

/// Read's error for a path that does not exist.
pub const FILE_MISSING: &str = "The file does not exist.";

/// Read's error for a file that is not valid UTF-8.
pub fn not_utf8_error(valid_up_to: usize) -> String {
    format!(
        "The file is not UTF-8 text (invalid byte at offset {valid_up_to}): it is read as \
         binary, which the Read tool does not show."
    )
}

/// Read's error for a file that is not text (`kind` names what it is).
pub fn not_text_error(kind: &str) -> String {
    format!("The file is not text ({kind}).")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_note_is_one_wrapped_reminder_or_a_sequence_of_them() {
        for text in [
            call_note("Read", "{}"),
            tool_result("Read", "1\ta"),
            edited_file_note("/p/a", "1\ta", false),
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
