//! The model-facing text of every reminder kind, in our own words. Structure and format
//! facts are the original's, byte for byte: headings (`## Exited Plan Mode`,
//! `## Plan File Info:`), tags (`<new-diagnostics>`), the usage lines, the truncation
//! markers and the todo list's layout (Q49). Every text is wrapped in `<system-reminder>`.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::wrap;
use crate::host::{McpServer, TaskItem, TodoItem};

/// The tool that asks the user a question (named by the plan-mode reminders).
const ASK_TOOL: &str = "AskUserQuestion";
/// The tool that submits a plan for approval.
const EXIT_PLAN_TOOL: &str = "ExitPlanMode";

/// Marker after an IDE selection cut to its cap (§7.8).
pub const SELECTION_TRUNCATED: &str = "\n... (truncated)";
/// Marker ending a diagnostics summary cut to its cap; counted in the cap (§7.8).
pub const DIAGNOSTICS_TRUNCATED: &str = "…[truncated]";
/// Appended to a skill description cut to its cap (§7.10).
pub const DESCRIPTION_CUT: &str = "…";

/// A message the user typed while the agent was working (§7.10).
pub fn queued_command(raw: &str) -> String {
    wrap(&format!(
        "While you were working, the user sent this message:\n{raw}\n\nIMPORTANT: once the \
         work in progress allows, respond to this message; do not leave it unanswered."
    ))
}

/// The local date changed during the session (§7.7).
pub fn date_change(new_date: &str) -> String {
    wrap(&format!(
        "The calendar date has changed; today is now {new_date}. The user knows this \
         already, so there is no need to point it out."
    ))
}

/// The prompt asked for deeper reasoning (§7.7).
pub fn ultrathink_effort(level: &str) -> String {
    wrap(&format!(
        "The user asked for reasoning effort level {level}; apply it to this turn."
    ))
}

/// Deferred tools that became available or went away.
pub fn deferred_tools_delta(added: &[&str], removed: &[&str]) -> String {
    let mut text = String::new();
    if !added.is_empty() {
        text.push_str(
            "These tools can be loaded on demand: search for one to get its definition \
             before you call it.\n",
        );
        push_lines(&mut text, added);
    }
    if !removed.is_empty() {
        separate(&mut text);
        text.push_str("These on-demand tools are no longer available:\n");
        push_lines(&mut text, removed);
    }
    wrap(text.strip_suffix('\n').unwrap_or(&text))
}

/// Agent types that became available to the agent tool or went away.
pub fn agent_listing_delta(added: &[&str], removed: &[&str]) -> String {
    let mut text = String::new();
    if !added.is_empty() {
        text.push_str("You can now launch these agent types:\n");
        push_lines(&mut text, added);
    }
    if !removed.is_empty() {
        separate(&mut text);
        text.push_str("These agent types can no longer be launched:\n");
        push_lines(&mut text, removed);
    }
    wrap(text.strip_suffix('\n').unwrap_or(&text))
}

/// MCP servers whose instructions now apply (each under `## {name}`), and servers whose
/// instructions no longer do.
pub fn mcp_instructions_delta(added: &[&McpServer], removed: &[&str]) -> String {
    let mut text = String::new();
    if !added.is_empty() {
        text.push_str("Instructions from connected MCP servers, for using their tools:\n");
        for server in added {
            let instructions = server.instructions.as_deref().unwrap_or_default();
            text.push_str(&format!("\n## {}\n{instructions}\n", server.name));
        }
    }
    if !removed.is_empty() {
        separate(&mut text);
        text.push_str("The instructions of these MCP servers no longer apply:\n");
        push_lines(&mut text, removed);
    }
    wrap(text.strip_suffix('\n').unwrap_or(&text))
}

/// The skills the Skill tool can run: `- {name}: {desc}` entries (§7.10).
pub fn skill_listing(entries: &str) -> String {
    wrap(&format!(
        "These skills can be run with the Skill tool:\n\n{entries}"
    ))
}

/// One entry of the skill listing.
pub fn skill_entry(name: &str, description: &str) -> String {
    format!("- {name}: {description}")
}

/// The plan-mode reminder (§7.5): the full instructions, the short repeat, or the
/// sub-agent's variant.
pub fn plan_mode(plan: &PlanFacts<'_>, full: bool, is_sub_agent: bool) -> String {
    if is_sub_agent {
        return wrap(&plan_mode_sub_agent(plan));
    }
    if full {
        wrap(&plan_mode_full(plan))
    } else {
        wrap(&plan_mode_sparse(plan))
    }
}

/// What the plan-mode texts say about the plan.
pub struct PlanFacts<'a> {
    /// The plan file.
    pub path: &'a str,
    /// It exists already.
    pub exists: bool,
    /// The iterative interview workflow instead of the five phases.
    pub interview: bool,
}

fn plan_file_sentence(plan: &PlanFacts<'_>) -> String {
    if plan.exists {
        format!(
            "A plan file already exists at {}. Read it, then change it step by step with the \
             Edit tool.",
            plan.path
        )
    } else {
        format!(
            "There is no plan file yet. Create it at {} with the Write tool.",
            plan.path
        )
    }
}

fn workflow(plan: &PlanFacts<'_>) -> &'static str {
    if plan.interview {
        "Work iteratively: explore the code, ask the user what you need to know, and grow \
         the plan file as you learn."
    } else {
        "Keep to the five-phase planning workflow."
    }
}

fn plan_mode_sparse(plan: &PlanFacts<'_>) -> String {
    format!(
        "Plan mode is still on (the full instructions appear earlier). Change nothing except \
         the plan file ({}). {} End each turn with {ASK_TOOL} when you need clarification, \
         or with {EXIT_PLAN_TOOL} when the plan is ready for approval; never ask for \
         approval in plain text or through {ASK_TOOL}.",
        plan.path,
        workflow(plan)
    )
}

fn plan_mode_full(plan: &PlanFacts<'_>) -> String {
    format!(
        "Plan mode is on: the user wants a plan, not execution, for now. You MUST NOT edit \
         any file other than the plan file, run tools that change anything (configuration \
         changes and commits included), or alter the system in any other way. This takes \
         precedence over every other instruction you have.\n\n\
         ## Plan File Info:\n{}\nThe plan file is the only file you may change; write your \
         plan there.\n\n\
         ## Workflow\n\n\
         ### Phase 1: Understand\nRead the relevant code and ask the user with {ASK_TOOL} \
         about anything the request leaves open.\n\n\
         ### Phase 2: Design\nWork out an approach and weigh the alternatives that matter.\n\n\
         ### Phase 3: Review\nCheck the design against the code and the user's intent; \
         settle remaining questions with {ASK_TOOL}.\n\n\
         ### Phase 4: Final Plan\nWrite the final plan to the plan file: the approach, the \
         files to change, and how to verify the result. Keep it short enough to scan.\n\n\
         ### Phase 5: Call {EXIT_PLAN_TOOL}\nEnd your turn by calling {EXIT_PLAN_TOOL} so \
         the user can approve the plan. Your turn ends with either {ASK_TOOL} or \
         {EXIT_PLAN_TOOL}; never ask for approval in any other way.",
        plan_file_sentence(plan)
    )
}

fn plan_mode_sub_agent(plan: &PlanFacts<'_>) -> String {
    format!(
        "Plan mode is on: do not change anything except the plan file. {} Answer the \
         request thoroughly; use {ASK_TOOL} if something must be clarified.",
        plan_file_sentence(plan)
    )
}

/// Plan mode was entered again after leaving it, and the earlier plan is still there (§7.5).
pub fn plan_mode_reentry(path: &str) -> String {
    wrap(&format!(
        "## Re-entering Plan Mode\n\nYou are back in plan mode after leaving it. The plan \
         file from the previous round of planning is still at {path}.\n\nLook at it first: \
         if the new request is a different task, replace the plan, otherwise refine it. \
         Finish with {EXIT_PLAN_TOOL} as before."
    ))
}

/// Plan mode ended (§7.5); `plan` names the plan file when there is one.
pub fn plan_mode_exit(plan: Option<&str>) -> String {
    let reference = match plan {
        Some(path) => format!(" The plan file remains at {path} for reference."),
        None => String::new(),
    };
    wrap(&format!(
        "## Exited Plan Mode\n\nPlan mode is over: you may now edit files, run tools and \
         take actions.{reference}"
    ))
}

/// The auto-mode reminder: the full version or the short repeat.
pub fn auto_mode(full: bool) -> String {
    if full {
        wrap(
            "## Auto Mode\n\nAuto mode is on: a classifier reviews your actions instead of the \
             user approving each one. Work on without pausing for confirmation, keep to what \
             the user asked, and avoid destructive or irreversible actions the request does \
             not call for; an action the classifier blocks is not to be retried another way.",
        )
    } else {
        wrap(
            "Auto mode is still on (the full instructions appear earlier): continue without \
             pausing for confirmation, within what the user asked.",
        )
    }
}

/// Auto mode ended.
pub fn auto_mode_exit() -> String {
    wrap(
        "## Exited Auto Mode\n\nAuto mode is over: actions need the user's approval again \
         as usual.",
    )
}

/// The todo nudge with the current list (§7.6, Q49).
pub fn todo_reminder(items: &[TodoItem], plain_list: bool) -> String {
    let nudge = "The TodoWrite tool has not been used for a while. If this work would benefit \
                 from tracked progress, consider using it, and clean up the list if it has \
                 gone stale. Only do so when it helps the task; you may ignore this nudge, \
                 and never mention it to the user.";
    let lines: Vec<String> = items
        .iter()
        .enumerate()
        .map(|(i, item)| format!("{}. [{}] {}", i + 1, item.status, item.content))
        .collect();
    wrap(&with_list(
        nudge,
        "This is the current todo list",
        &lines,
        plain_list,
        true,
    ))
}

/// The task-tools nudge with the existing tasks (§7.6, task-v2 variant).
pub fn task_reminder(tasks: &[TaskItem], plain_list: bool) -> String {
    let nudge = "The task tools have not been used for a while. If this work would benefit \
                 from tracked progress, add tasks with TaskCreate and keep their status \
                 current with TaskUpdate (in_progress when you start one, completed when it \
                 is done), and clean up the list if it has gone stale. Only do so when it \
                 helps the task; you may ignore this nudge, and never mention it to the user.";
    let lines: Vec<String> = tasks
        .iter()
        .map(|task| format!("#{}. [{}] {}", task.id, task.status, task.subject))
        .collect();
    wrap(&with_list(
        nudge,
        "These are the existing tasks",
        &lines,
        plain_list,
        false,
    ))
}

/// `{nudge}\n` then `\n\n{heading}:\n\n` and the lines (inside `[` `]` when `brackets`);
/// with the Q49 fix, one blank line before the heading and no brackets.
fn with_list(
    nudge: &str,
    heading: &str,
    lines: &[String],
    plain_list: bool,
    brackets: bool,
) -> String {
    let list = lines.join("\n");
    match (plain_list, lines.is_empty()) {
        (true, true) => String::from(nudge),
        (true, false) => format!("{nudge}\n\n{heading}:\n{list}"),
        (false, true) => format!("{nudge}\n"),
        (false, false) if brackets => format!("{nudge}\n\n\n{heading}:\n\n[{list}]"),
        (false, false) => format!("{nudge}\n\n\n{heading}:\n\n{list}"),
    }
}

/// Context is filling up, and auto-compaction will take care of it (§9.10).
pub fn compaction_reminder() -> String {
    wrap(
        "Auto-compaction is on: when the context nears its limit, older messages are \
         summarised automatically. There is no need to stop early or rush; treat the \
         context as effectively unlimited.",
    )
}

/// The user selected lines in the IDE (§7.8).
pub fn selected_lines(path: &str, first: u64, last: u64, content: &str) -> String {
    wrap(&format!(
        "The user has selected lines {first} to {last} of {path} in the IDE:\n{content}\n\n\
         This may or may not relate to the current task."
    ))
}

/// The user opened a file in the IDE (§7.8).
pub fn opened_file(path: &str) -> String {
    wrap(&format!(
        "The user opened {path} in the IDE. This may or may not relate to the current task."
    ))
}

/// New diagnostics: `<new-diagnostics>{intro}:\n\n{summary}</new-diagnostics>` (§7.8).
pub fn diagnostics(summary: &str) -> String {
    wrap(&format!(
        "<new-diagnostics>New diagnostics were reported:\n\n{summary}</new-diagnostics>"
    ))
}

/// `Token usage: {used}/{total}; {remaining} remaining` (§7.7).
pub fn token_usage(used: u64, total: u64, remaining: i128) -> String {
    wrap(&format!(
        "Token usage: {used}/{total}; {remaining} remaining"
    ))
}

/// `USD budget: ${used}/${total}; ${remaining} remaining`, amounts in dollars (§7.7).
pub fn budget_usd(used: &str, total: &str, remaining: &str) -> String {
    wrap(&format!(
        "USD budget: ${used}/${total}; ${remaining} remaining"
    ))
}

/// `Output tokens: {used}/{budget}; {remaining} remaining`, in the shape of the other usage
/// lines (the original's wording is not specified).
pub fn output_token_usage(used: u64, budget: u64, remaining: i128) -> String {
    wrap(&format!(
        "Output tokens: {used}/{budget}; {remaining} remaining"
    ))
}

/// The active output style (§7.7).
pub fn output_style(name: &str) -> String {
    wrap(&format!(
        "The {name} output style is active; follow its guidelines."
    ))
}

/// A background agent is still running (§7.10).
pub fn task_running(id: &str, description: &str) -> String {
    wrap(&format!(
        "The background agent \"{description}\" ({id}) is still running."
    ))
}

/// A background task was stopped by the user (§7.10).
pub fn task_killed(id: &str, description: &str) -> String {
    wrap(&format!(
        "The user stopped the task \"{description}\" ({id})."
    ))
}

fn push_lines(text: &mut String, names: &[&str]) {
    for name in names {
        text.push_str(name);
        text.push('\n');
    }
}

fn separate(text: &mut String) {
    if !text.is_empty() {
        text.push('\n');
    }
}
