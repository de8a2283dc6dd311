//! What the session's own tools answer the model: Read, Edit and Write over the virtual
//! workspace, the todo and task lists, plan approval, and the calls that never ran. Their
//! descriptions in the built-in tool list are here too.

use alloc::format;
use alloc::string::String;

/// The built-in tools' names and descriptions, in the order the tool list offers them.
pub const DEFAULT_TOOL_DESCRIPTIONS: [(&str, &str); 10] = [
    ("Read", "Reads a file of the workspace, with line numbers; offset and limit select lines."),
    ("Edit", "Replaces one exact occurrence of old_string with new_string in a file read before."),
    ("Write", "Creates a file, or replaces a file read before, with content."),
    ("Grep", "Searches file contents for a regular expression: lists the matching files, or with output_mode \"content\" the matching lines as path:line:text."),
    ("Glob", "Lists the files whose paths match a glob pattern."),
    ("Bash", "Runs a shell command and returns its output."),
    ("TodoWrite", "Replaces the session's todo list: items with content, status (pending, in_progress, completed) and activeForm (the content in the present continuous)."),
    ("ExitPlanMode", "Presents the plan to the user for approval and leaves plan mode if approved."),
    ("AskUserQuestion", "Asks the user a question and waits for the answer."),
    ("Skill", "Runs one of the skills listed in the skill listing."),
];

/// Read refused by a deny rule.
pub fn read_denied(abs: &str, rule: &str) -> String {
    format!("Reading {abs} is not allowed: the permission settings deny it ({rule}).")
}

/// A file that vanished or failed between its stat and its read.
pub fn unreadable(abs: &str) -> String {
    format!("{abs} could not be read.")
}

/// An image as the Read tool's text result describes it.
pub fn image_read(abs: &str, tokens: u64) -> String {
    format!("[image {abs}: about {tokens} tokens]")
}

/// Edit found no occurrence (`0`) or several (`n`) of the text to replace.
pub fn edit_not_unique(abs: &str, occurrences: usize) -> String {
    match occurrences {
        0 => format!("The text to replace was not found in {abs}."),
        n => format!(
            "The text to replace occurs {n} times in {abs}; give more context so that it \
             occurs exactly once."
        ),
    }
}

/// Edit or Write succeeded: `created` for a new file.
pub fn file_written(abs: &str, created: bool) -> String {
    let verb = if created { "created" } else { "updated" };
    format!("{abs} has been {verb}.")
}

/// After a successful Edit or Write (`writesNeedRead` off) that leaves the agent seeing the
/// whole current file, so it need not read the file back.
pub const VIEW_IS_CURRENT: &str =
    "(Your view of this file is current: there is no need to read it back.)";

/// After an Edit of a file changed on disk since the agent read it (`writesNeedRead` off).
pub const EDITED_FILE_CHANGED_ON_DISK: &str = "(Note: the file had changed on disk since you \
    last read it. The edit applied cleanly, but the file holds other changes you have not \
    seen: read it before an edit that depends on the text around it.)";

/// Edit or Write refused for a path the Read deny rules cover (`refuse_writes_to_denied_files`).
pub fn write_denied(abs: &str, rule: &str) -> String {
    format!("Changing {abs} is not allowed: the permission settings deny reading it ({rule}).")
}

/// Edit or Write of a file the agent has not read (fully) yet.
pub fn not_read_yet(abs: &str) -> String {
    format!("{abs} has not been read yet in this conversation. Read it first, then write.")
}

/// Edit or Write of a file that holds no text.
pub fn not_text(abs: &str) -> String {
    format!("{abs} is not a text file.")
}

/// Edit or Write of a file changed on disk since the agent read it.
pub fn changed_since_read(abs: &str) -> String {
    format!(
        "{abs} was changed since it was read, by the user or a linter. Read it again before \
         writing to it."
    )
}

/// TodoWrite's input broke a rule (`problem` names the item and field).
pub fn todos_invalid(problem: &str) -> String {
    format!(
        "TodoWrite's input is invalid: {problem}. Every item needs a non-empty content (what to \
         do, e.g. \"Run tests\"), a status (pending, in_progress or completed) and a non-empty \
         activeForm (the same in the present continuous, e.g. \"Running tests\"). The todo list \
         is unchanged."
    )
}

/// TodoWrite succeeded.
pub const TODOS_UPDATED: &str =
    "The todo list is updated. Keep working through it and mark items as they are done.";

/// TaskCreate succeeded.
pub fn task_created(id: u64, subject: &str) -> String {
    format!("Task #{id} created: {subject}")
}

/// TaskUpdate succeeded.
pub fn task_updated(id: u64, status: &str) -> String {
    format!("Task #{id} is now {status}.")
}

/// TaskUpdate of an unknown task.
pub fn no_such_task(id: u64) -> String {
    format!("There is no task #{id}.")
}

/// A call to a tool a deny rule removes from the tools offered.
pub fn no_such_tool(name: &str, rule: &str) -> String {
    format!(
        "No such tool available: {name}. The deny rule `{rule}` removes it from the tools \
         offered."
    )
}

/// A call to a tool the client release does not offer (Claude Code 2.1.332 dropped Glob,
/// Grep and TodoWrite).
pub fn tool_not_offered(name: &str, release: &str) -> String {
    format!("No such tool available: {name}. {release} does not offer it in this session.")
}

/// Edit or Write of a file other than the plan file while plan mode is on.
pub fn plan_mode_blocks_change(plan_file: &str) -> String {
    format!(
        "Plan mode is active: only the plan file ({plan_file}) can be changed until the user \
         approves a plan."
    )
}

/// ExitPlanMode outside plan mode.
pub const NO_PLAN_TO_APPROVE: &str = "Plan mode is not active, so there is no plan to approve.";

/// The user approved the plan, with their words if they added any.
pub fn plan_approved(plan_file: &str, feedback: Option<&str>) -> String {
    let mut text = format!(
        "The user approved the plan; you may now edit files and run tools. The plan is saved \
         at {plan_file}."
    );
    if let Some(feedback) = feedback {
        text.push_str(&format!("\n\nThe user added: {feedback}"));
    }
    text
}

/// The user did not approve the plan and said what to change.
pub fn plan_revision_requested(feedback: &str) -> String {
    format!(
        "The user did not approve the plan and is still in plan mode. Their feedback: \
         {feedback}\nRevise the plan accordingly."
    )
}

/// The user rejected the plan without a word: the turn stops.
pub const PLAN_REJECTED: &str =
    "The user rejected the plan and stopped here. Wait for their next message.";

/// The result of a call queued after the one at which the user stopped the turn.
pub const CANCELLED_AFTER_STOP: &str =
    "Not run: the user stopped the turn at an earlier tool call. Wait for their next message.";

/// The result of a call still running when the user sent a new prompt.
pub const INTERRUPTED_CALL: &str = "The user interrupted this tool call before it finished.";

/// A tool's empty output, as the model receives it (the model is never sent an empty result).
pub fn no_output(tool: &str) -> String {
    format!("({tool} completed with no output)")
}
