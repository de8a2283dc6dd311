//! Every model-facing sentence, rendered with fixed arguments into one snapshot
//! (`snapshots/wording.txt`), so a wording change is a reviewed diff rather than a surprise in
//! a golden trace. After an intended change:
//! `UPDATE_SNAPSHOTS=1 cargo test -p context-assembly --test wording`, then review the diff.

use std::fs;
use std::path::PathBuf;

use context_assembly::codex::context::{SandboxMode, TurnSettings};
use context_assembly::codex::wording as codex;
use context_assembly::host::{McpServer, TaskItem, TodoItem};
use context_assembly::wording::{compaction, context, files, memory, reminders, tools};

/// Every sentence, named after the function or constant that writes it.
fn rendered() -> Vec<(&'static str, String)> {
    let mut all = Vec::new();
    all.extend(file_notes());
    all.extend(reminder_texts());
    all.extend(compaction_texts());
    all.extend(memory_and_context());
    all.extend(codex_texts());
    all.extend(tool_answers());
    all
}

fn file_notes() -> Vec<(&'static str, String)> {
    vec![
        (
            "files::call_note",
            files::call_note("Read", "{\"file_path\":\"/p/a.ts\"}"),
        ),
        (
            "files::tool_result",
            files::tool_result("Read", "1\tconst a = 1;"),
        ),
        ("files::malware_reminder", files::malware_reminder()),
        (
            "files::truncation_note (first lines)",
            files::truncation_note("/p/big.ts", 1, 2000, false),
        ),
        (
            "files::truncation_note (real range)",
            files::truncation_note("/p/big.ts", 10, 2000, true),
        ),
        (
            "files::edited_file_note",
            files::edited_file_note("/p/a.ts", "3\tconst b = 2;", false),
        ),
        (
            "files::edited_file_note (removals marked)",
            files::edited_file_note("/p/a.ts", "3\tconst b = 2;\n-\tconst c = 3;", true),
        ),
        (
            "files::pdf_reference_note",
            files::pdf_reference_note("/p/r.pdf", 40, "3.1MB"),
        ),
        (
            "files::oversized_mention_reference",
            files::oversized_mention_reference("/p/data/huge.txt", "1.2MB"),
        ),
        ("files::agent_note", files::agent_note("reviewer")),
        (
            "files::mcp_resource_note (empty)",
            files::mcp_resource_note("docs", "doc://a", None),
        ),
        (
            "files::mcp_resource_note",
            files::mcp_resource_note("docs", "doc://a", Some("Body")),
        ),
        (
            "files::file_gone_note",
            files::file_gone_note("/p/a.ts", "deleted"),
        ),
        (
            "files::ranged_change_note",
            files::ranged_change_note("/p/a.ts", "lines 10 to 20"),
        ),
        (
            "files::too_large_change_note",
            files::too_large_change_note("/p/a.ts"),
        ),
        (
            "files::edited_image_note",
            files::edited_image_note("/p/logo.png"),
        ),
        (
            "files::image_summary",
            files::image_summary(Some("Png"), Some((64, 32)), "1.2KB"),
        ),
        (
            "files::image_summary (no size)",
            files::image_summary(Some("Gif"), None, "1.2KB"),
        ),
        (
            "files::image_summary (unknown)",
            files::image_summary(None, None, "1.2KB"),
        ),
        (
            "files::pdf_document_note",
            files::pdf_document_note("/p/r.pdf", "80KB"),
        ),
        (
            "files::unchanged_pointer",
            files::unchanged_pointer("/p/a.ts"),
        ),
        (
            "files::list_directory_description",
            files::list_directory_description("/p/src"),
        ),
        (
            "files::EMPTY_FILE_WARNING",
            files::EMPTY_FILE_WARNING.into(),
        ),
        (
            "files::shorter_than_offset_warning",
            files::shorter_than_offset_warning(50, 12),
        ),
        ("files::FILE_MISSING", files::FILE_MISSING.into()),
        ("files::not_utf8_error", files::not_utf8_error(7)),
        ("files::not_text_error", files::not_text_error("Image")),
    ]
}

fn reminder_texts() -> Vec<(&'static str, String)> {
    let plan = |exists, interview| reminders::PlanFacts {
        path: "/h/plans/p.md",
        exists,
        interview,
    };
    let todos = [
        TodoItem {
            content: "Write tests".into(),
            status: "in_progress".into(),
            active_form: Some("Writing tests".into()),
        },
        TodoItem {
            content: "Ship".into(),
            status: "pending".into(),
            active_form: None,
        },
    ];
    let tasks = [TaskItem {
        id: 1,
        subject: "Fix the parser".into(),
        status: "pending".into(),
    }];
    let servers = [McpServer {
        name: "docs".into(),
        instructions: Some("Search before reading.".into()),
    }];
    vec![
        (
            "reminders::queued_command",
            reminders::queued_command("also run lint"),
        ),
        (
            "reminders::date_change",
            reminders::date_change("2026-12-02"),
        ),
        (
            "reminders::ultrathink_effort",
            reminders::ultrathink_effort("high"),
        ),
        (
            "reminders::deferred_tools_delta",
            reminders::deferred_tools_delta(&["WebFetch"], &["NotebookEdit"]),
        ),
        (
            "reminders::agent_listing_delta",
            reminders::agent_listing_delta(&["reviewer"], &["planner"]),
        ),
        (
            "reminders::mcp_instructions_delta",
            reminders::mcp_instructions_delta(&servers.iter().collect::<Vec<_>>(), &["old"]),
        ),
        (
            "reminders::skill_listing",
            reminders::skill_listing(&reminders::skill_entry("pdf", "Reads PDFs")),
        ),
        (
            "reminders::plan_mode (sparse)",
            reminders::plan_mode(&plan(true, false), false, false),
        ),
        (
            "reminders::plan_mode (full, five phases)",
            reminders::plan_mode(&plan(false, false), true, false),
        ),
        (
            "reminders::plan_mode (full, interview)",
            reminders::plan_mode(&plan(true, true), true, false),
        ),
        (
            "reminders::plan_mode (sub-agent)",
            reminders::plan_mode(&plan(false, false), true, true),
        ),
        (
            "reminders::plan_mode_reentry",
            reminders::plan_mode_reentry("/h/plans/p.md"),
        ),
        (
            "reminders::plan_mode_exit",
            reminders::plan_mode_exit(Some("/h/plans/p.md")),
        ),
        (
            "reminders::plan_mode_exit (no plan)",
            reminders::plan_mode_exit(None),
        ),
        ("reminders::auto_mode (full)", reminders::auto_mode(true)),
        ("reminders::auto_mode (sparse)", reminders::auto_mode(false)),
        ("reminders::auto_mode_exit", reminders::auto_mode_exit()),
        (
            "reminders::todo_reminder",
            reminders::todo_reminder(&todos, false),
        ),
        (
            "reminders::todo_reminder (plain list)",
            reminders::todo_reminder(&todos, true),
        ),
        (
            "reminders::todo_reminder (empty)",
            reminders::todo_reminder(&[], false),
        ),
        (
            "reminders::task_reminder",
            reminders::task_reminder(&tasks, false),
        ),
        (
            "reminders::compaction_reminder",
            reminders::compaction_reminder(),
        ),
        (
            "reminders::selected_lines",
            reminders::selected_lines("/p/a.ts", 3, 4, "let x;\nlet y;"),
        ),
        ("reminders::opened_file", reminders::opened_file("/p/a.ts")),
        (
            "reminders::diagnostics",
            reminders::diagnostics("a.ts:3 error"),
        ),
        (
            "reminders::token_usage",
            reminders::token_usage(1200, 200_000, 198_800),
        ),
        (
            "reminders::budget_usd",
            reminders::budget_usd("0.50", "5.00", "4.50"),
        ),
        (
            "reminders::output_token_usage",
            reminders::output_token_usage(900, 1000, 100),
        ),
        (
            "reminders::output_style",
            reminders::output_style("Explanatory"),
        ),
        (
            "reminders::task_running",
            reminders::task_running("t1", "run the suite"),
        ),
        (
            "reminders::task_killed",
            reminders::task_killed("t1", "run the suite"),
        ),
    ]
}

fn compaction_texts() -> Vec<(&'static str, String)> {
    let skills = [compaction::invoked_skill(
        "pdf",
        "/p/.claude/skills/pdf/SKILL.md",
        "Use pdftotext.",
    )];
    let [caveat, command, output] =
        compaction::compact_command_messages(Some("Keep the names."), true);
    let [_, _, terminal_output] = compaction::compact_command_messages(None, false);
    vec![
        (
            "compaction::plan_file_reference",
            compaction::plan_file_reference("/h/plans/p.md", "1. Parse"),
        ),
        (
            "compaction::invoked_skills",
            compaction::invoked_skills(&skills),
        ),
        (
            "compaction::compact_file_reference",
            compaction::compact_file_reference("/p/big.ts"),
        ),
        (
            "compaction::memory_warning",
            compaction::memory_warning("/memories"),
        ),
        (
            "compaction::summary_request",
            compaction::summary_request(Some("Focus on the tests.")),
        ),
        (
            "compaction::summary_message",
            compaction::summary_message("Summary:\nx", Some("/t/s.jsonl"), true, true),
        ),
        ("compaction::compact_command_messages (caveat)", caveat.0),
        ("compaction::compact_command_messages (command)", command.0),
        ("compaction::compact_command_messages (output)", output.0),
        (
            "compaction::compact_command_messages (output in the terminal)",
            terminal_output.0,
        ),
        (
            "compaction::PTL_RETRY_MARKER",
            compaction::PTL_RETRY_MARKER.into(),
        ),
        (
            "compaction::PROMPT_TOO_LONG_ERROR",
            compaction::PROMPT_TOO_LONG_ERROR.into(),
        ),
    ]
}

fn memory_and_context() -> Vec<(&'static str, String)> {
    const DAY: u64 = 86_400_000;
    vec![
        (
            "memory::memory_header (today)",
            memory::memory_header("/m/a.md", 10 * DAY, 10 * DAY),
        ),
        (
            "memory::memory_header (old)",
            memory::memory_header("/m/a.md", DAY, 10 * DAY),
        ),
        (
            "memory::truncation_note",
            memory::truncation_note("first 200 lines", "/m/a.md"),
        ),
        (
            "memory::memory_contents",
            memory::memory_contents("/p/CLAUDE.md", None, "Use tabs."),
        ),
        (
            "memory::memory_contents (described)",
            memory::memory_contents(
                "/p/CLAUDE.md",
                Some(memory::PROJECT_INSTRUCTIONS),
                "Use tabs.",
            ),
        ),
        (
            "memory::CLAUDE_MD_PREAMBLE",
            memory::CLAUDE_MD_PREAMBLE.into(),
        ),
        (
            "memory::LOCAL_INSTRUCTIONS",
            memory::LOCAL_INSTRUCTIONS.into(),
        ),
        (
            "memory::USER_INSTRUCTIONS",
            memory::USER_INSTRUCTIONS.into(),
        ),
        (
            "memory::MANAGED_INSTRUCTIONS",
            memory::MANAGED_INSTRUCTIONS.into(),
        ),
        (
            "memory::index_truncation_warning",
            memory::index_truncation_warning("longer than 200 lines"),
        ),
        ("context::SYSTEM_PROMPT", context::SYSTEM_PROMPT.into()),
        (
            "context::USER_CONTEXT_INTRO",
            context::USER_CONTEXT_INTRO.into(),
        ),
        ("context::current_date", context::current_date("2026-12-01")),
        (
            "context::stand_in_label",
            context::stand_in_label("2.1.88", "system prompt", 11_843),
        ),
        (
            "context::USER_CONTEXT_CAUTION",
            context::USER_CONTEXT_CAUTION.into(),
        ),
        (
            "context::environment_note",
            context::environment_note(&context::EnvironmentFacts {
                cwd: "/project",
                platform: "linux",
                git_repository: true,
            }),
        ),
        (
            "context::instructions_note",
            context::instructions_note("Contents of /project/CLAUDE.md:\n\nUse tabs."),
        ),
        (
            "context::session_context_note",
            context::session_context_note("Current branch: main\n\nStatus:\n(clean)"),
        ),
        ("context::attribution_note", context::attribution_note()),
    ]
}

fn codex_texts() -> Vec<(&'static str, String)> {
    let settings = |sandbox_mode| TurnSettings {
        sandbox_mode,
        ..TurnSettings::default()
    };
    vec![
        (
            "codex::permissions_instructions (workspace-write)",
            codex::permissions_instructions(&settings(SandboxMode::WorkspaceWrite)),
        ),
        (
            "codex::permissions_instructions (read-only)",
            codex::permissions_instructions(&settings(SandboxMode::ReadOnly)),
        ),
        (
            "codex::permissions_instructions (full access)",
            codex::permissions_instructions(&settings(SandboxMode::DangerFullAccess)),
        ),
        (
            "codex::collaboration_mode_cleared",
            codex::collaboration_mode_cleared(),
        ),
        (
            "codex::personality_spec",
            codex::personality_spec(codex::FRIENDLY_PERSONALITY),
        ),
        (
            "codex::PRAGMATIC_PERSONALITY",
            codex::PRAGMATIC_PERSONALITY.into(),
        ),
        (
            "codex::model_switch",
            codex::model_switch("Base instructions."),
        ),
        ("codex::realtime_start", codex::realtime_start(None)),
        ("codex::realtime_end", codex::realtime_end()),
        (
            "codex::agents_md_instructions",
            codex::agents_md_instructions("/repo", "Use tabs."),
        ),
        ("codex::SKILLS_INTRO", codex::SKILLS_INTRO.into()),
        ("codex::SKILLS_GUIDANCE", codex::SKILLS_GUIDANCE.into()),
        (
            "codex::SUMMARIZATION_PROMPT",
            codex::SUMMARIZATION_PROMPT.into(),
        ),
        ("codex::SUMMARY_PREFIX", codex::SUMMARY_PREFIX.into()),
        (
            "codex::NO_SUMMARY_AVAILABLE",
            codex::NO_SUMMARY_AVAILABLE.into(),
        ),
        ("codex::IMAGE_LEFT_OUT", codex::IMAGE_LEFT_OUT.into()),
        (
            "codex::AGENTS_MD_SUPERSEDES",
            codex::AGENTS_MD_SUPERSEDES.into(),
        ),
        (
            "codex::AGENTS_MD_WITHDRAWN",
            codex::AGENTS_MD_WITHDRAWN.into(),
        ),
        (
            "codex::TRIMMED_TOOL_OUTPUT",
            codex::TRIMMED_TOOL_OUTPUT.into(),
        ),
    ]
}

fn tool_answers() -> Vec<(&'static str, String)> {
    let descriptions = tools::DEFAULT_TOOL_DESCRIPTIONS
        .iter()
        .map(|(name, description)| format!("{name}: {description}"))
        .collect::<Vec<_>>()
        .join("\n");
    vec![
        ("tools::DEFAULT_TOOL_DESCRIPTIONS", descriptions),
        (
            "tools::read_denied",
            tools::read_denied("/p/.env", "Read(./.env)"),
        ),
        ("tools::unreadable", tools::unreadable("/p/a.ts")),
        ("tools::image_read", tools::image_read("/p/logo.png", 1_600)),
        (
            "tools::edit_not_unique (none)",
            tools::edit_not_unique("/p/a.ts", 0),
        ),
        (
            "tools::edit_not_unique (several)",
            tools::edit_not_unique("/p/a.ts", 3),
        ),
        (
            "tools::file_written (created)",
            tools::file_written("/p/a.ts", true),
        ),
        (
            "tools::file_written (updated)",
            tools::file_written("/p/a.ts", false),
        ),
        (
            "tools::write_denied",
            tools::write_denied("/p/.env", "Read(./.env)"),
        ),
        ("tools::not_read_yet", tools::not_read_yet("/p/a.ts")),
        ("tools::not_text", tools::not_text("/p/logo.png")),
        (
            "tools::changed_since_read",
            tools::changed_since_read("/p/a.ts"),
        ),
        (
            "tools::todos_invalid",
            tools::todos_invalid("todos[0].content is empty"),
        ),
        ("tools::TODOS_UPDATED", tools::TODOS_UPDATED.into()),
        (
            "tools::task_created",
            tools::task_created(1, "Run the tests"),
        ),
        ("tools::task_updated", tools::task_updated(1, "completed")),
        ("tools::no_such_task", tools::no_such_task(7)),
        ("tools::no_such_tool", tools::no_such_tool("Bash", "Bash")),
        (
            "tools::tool_not_offered",
            tools::tool_not_offered("Glob", "Claude Code 2.1.332"),
        ),
        (
            "tools::plan_mode_blocks_change",
            tools::plan_mode_blocks_change("/home/user/.claude/plans/plan.md"),
        ),
        (
            "tools::NO_PLAN_TO_APPROVE",
            tools::NO_PLAN_TO_APPROVE.into(),
        ),
        (
            "tools::plan_approved",
            tools::plan_approved("/home/user/.claude/plans/plan.md", None),
        ),
        (
            "tools::plan_approved (feedback)",
            tools::plan_approved(
                "/home/user/.claude/plans/plan.md",
                Some("Keep the old API."),
            ),
        ),
        (
            "tools::plan_revision_requested",
            tools::plan_revision_requested("Split step 2."),
        ),
        ("tools::PLAN_REJECTED", tools::PLAN_REJECTED.into()),
        (
            "tools::CANCELLED_AFTER_STOP",
            tools::CANCELLED_AFTER_STOP.into(),
        ),
        ("tools::INTERRUPTED_CALL", tools::INTERRUPTED_CALL.into()),
        ("tools::no_output", tools::no_output("Bash")),
    ]
}

fn snapshot_text() -> String {
    rendered()
        .iter()
        .map(|(name, text)| format!("=== {name} ===\n{text}\n"))
        .collect::<Vec<_>>()
        .join("\n")
}

fn snapshot_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/snapshots/wording.txt")
}

#[test]
fn every_sentence_matches_its_reviewed_snapshot() {
    let actual = snapshot_text();
    let path = snapshot_path();
    if std::env::var_os("UPDATE_SNAPSHOTS").is_some() {
        fs::write(&path, &actual).expect("the snapshot file is writable");
        return;
    }
    let expected = fs::read_to_string(&path).unwrap_or_default();
    if actual == expected {
        return;
    }
    let changed = rendered()
        .into_iter()
        .find(|(name, text)| !expected.contains(&format!("=== {name} ===\n{text}\n")))
        .map_or("(the order or the set of entries)", |(name, _)| name);
    panic!(
        "the wording changed, first at {changed}: review it, then run \
         `UPDATE_SNAPSHOTS=1 cargo test -p context-assembly --test wording`"
    );
}

/// A run of spaces inside a line is a broken line continuation in a string literal, never
/// intended wording; indentation at a line's start is layout.
#[test]
fn no_sentence_has_a_run_of_spaces_inside_a_line() {
    for (name, text) in rendered() {
        for line in text.lines() {
            let body = line.trim_start_matches(' ');
            assert!(!body.contains("  "), "{name}: a run of spaces in {line:?}");
        }
    }
}

/// The claude-code family's notes reach the model inside `<system-reminder>` tags (§7.1).
#[test]
fn every_file_note_is_wrapped_as_a_reminder() {
    for (name, text) in file_notes() {
        let plain = ["description", "WARNING", "warning", "MISSING", "error"];
        if plain.iter().any(|word| name.contains(word)) {
            continue;
        }
        let note = text.trim_start_matches('\n');
        assert!(note.starts_with("<system-reminder>\n"), "{name}: {text}");
        assert!(
            note.trim_end().ends_with("</system-reminder>"),
            "{name}: {text}"
        );
    }
}
