//! The catalogue of attachment kinds (spec §7.3): each kind's name, how often it is produced,
//! what its tokens count as, and whether the original renders it to nothing.

use crate::vocabulary::{named_enum, Category};

named_enum! {
    /// How often a kind of attachment is produced.
    pub enum Frequency {
    /// Held back by a turn-counting cadence (plan mode, auto mode, todo reminders).
    Throttled => "throttled",
    /// Sent once per new item (deferred tools, agents, MCP instructions).
    Delta => "delta",
    /// A full listing first, then only what is new (skills).
    FirstThenIncremental => "first-then-incremental",
    /// Sent whenever its condition holds on a pass (a change, a mention, a selection).
    Event => "event",
    /// Prefetched once per submitted prompt and consumed after the pass (relevant memories).
    Prefetch => "prefetch",
    /// Sent when the session's context is built: on the first turn and again after a
    /// compaction (2.1.332's environment, instructions and date).
    SessionStart => "session-start",
    }
}

/// Declares [`AttachmentKind`] from one row per kind: its variant, its name, its
/// [`Frequency`], its [`Category`], whether the original renders it to nothing, and whether
/// it is the harness's own note (`note`) rather than something the user brought in (`user`).
macro_rules! attachment_kinds {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident => $name:literal, $frequency:ident, $category:ident, $silent:literal, $author:ident;
    )*) => {
        named_enum! {
            /// The kind of an attachment, as the original names it. The catalogue is closed:
            /// a kind outside it is a compile error, not an event. Declared in the order of
            /// the names, so that kinds sort as their names do.
            ///
            /// ```
            /// use context_assembly::attachment::{AttachmentKind, Frequency};
            /// use context_assembly::vocabulary::Category;
            /// assert_eq!(AttachmentKind::PlanMode.frequency(), Frequency::Throttled);
            /// assert_eq!(AttachmentKind::SkillListing.frequency(), Frequency::FirstThenIncremental);
            /// assert_eq!(AttachmentKind::EditedTextFile.frequency(), Frequency::Event);
            /// assert_eq!(AttachmentKind::NestedMemory.category(), Category::Memory);
            /// assert_eq!(AttachmentKind::File.as_str(), "file");
            /// ```
            pub enum AttachmentKind {
                $($(#[doc = $doc])* $variant => $name,)*
            }
        }

        impl AttachmentKind {
            /// How often the kind is produced.
            pub const fn frequency(self) -> Frequency {
                match self {
                    $(AttachmentKind::$variant => Frequency::$frequency,)*
                }
            }

            /// What its tokens are spent on in a request: `memory`, `attachments`, or `system`
            /// for the session's context that 2.1.332 sends as attachments.
            pub const fn category(self) -> Category {
                match self {
                    $(AttachmentKind::$variant => Category::$category,)*
                }
            }

            /// Its content is memory (instructions and remembered notes), counted in the
            /// `memory` category of a request rather than `attachments`.
            pub const fn is_memory(self) -> bool {
                matches!(self.category(), Category::Memory)
            }

            /// The original renders it to nothing (§7.12): it is produced and recorded, and
            /// the model sees no text. A profile that fixes the quirk may give it text.
            pub const fn renders_to_nothing(self) -> bool {
                match self {
                    $(AttachmentKind::$variant => $silent,)*
                }
            }

            /// The harness's own note about the session (a mode, a change, a listing, the
            /// environment), as opposed to content the user brought in (a mentioned file, a
            /// memory file, the instructions). Claude Code 2.1.332 sends the notes in a
            /// `system`-role message after the turn's user message
            /// ([`AttachmentRules::notes_as_system_messages`](super::AttachmentRules)); the
            /// lab saw it for the environment, the listings, the date, plan mode, change
            /// notes, compaction references and oversized mentions, and the other notes are
            /// classed with them.
            pub const fn is_harness_note(self) -> bool {
                match self {
                    $(AttachmentKind::$variant => attachment_kinds!(@note $author),)*
                }
            }
        }
    };
    (@note note) => { true };
    (@note user) => { false };
}

attachment_kinds! {
    /// The agents that became available or went away.
    AgentListingDelta => "agent_listing_delta", Delta, Attachments, false, note;
    /// A mentioned agent.
    AgentMention => "agent_mention", Event, Attachments, false, user;
    /// A mentioned file the read-file state holds unchanged (Q20).
    AlreadyReadFile => "already_read_file", Event, Attachments, true, user;
    /// A mentioned file too large to attach: its path and size, and how to read it in
    /// parts (2.1.332; 2.1.88 sent nothing).
    AtMentionReference => "at_mention_reference", Event, Attachments, false, note;
    /// Auto mode's reminder.
    AutoMode => "auto_mode", Throttled, Attachments, false, note;
    /// Auto mode was left.
    AutoModeExit => "auto_mode_exit", Event, Attachments, false, note;
    /// The USD budget and what is left of it.
    BudgetUsd => "budget_usd", Event, Attachments, false, note;
    /// A changed file too large to diff: a short note, once (Q39 fixed).
    ChangedFileTooLarge => "changed_file_too_large", Event, Attachments, false, note;
    /// A file too large to restore after a compaction: a reference to its path.
    CompactFileReference => "compact_file_reference", Event, Attachments, false, note;
    /// Context is running out: compaction is near.
    CompactionReminder => "compaction_reminder", Event, Attachments, false, note;
    /// The agent definition's critical reminder, sent on every pass.
    CriticalSystemReminder => "critical_system_reminder", Event, Attachments, false, note;
    /// Today's date, with the session's context (2.1.332; 2.1.88 sent it in the user
    /// context).
    Date => "date", SessionStart, System, false, note;
    /// The date changed since the conversation started.
    DateChange => "date_change", Event, Attachments, false, note;
    /// Deferred tools that became available or went away.
    DeferredToolsDelta => "deferred_tools_delta", Delta, Attachments, false, note;
    /// A file of the read-file state was deleted.
    DeletedFile => "deleted_file", Event, Attachments, false, note;
    /// New diagnostics from the IDE.
    Diagnostics => "diagnostics", Event, Attachments, false, user;
    /// A mentioned directory: its listing.
    Directory => "directory", Event, Attachments, false, user;
    /// A skill discovered beneath a path the agent touched (the original's; no collector
    /// here produces it).
    DynamicSkill => "dynamic_skill", Event, Attachments, true, user;
    /// A tracked image changed (Q42).
    EditedImageFile => "edited_image_file", Event, Attachments, true, note;
    /// A file of the read-file state changed: its snippet.
    EditedTextFile => "edited_text_file", Event, Attachments, false, note;
    /// A file of the read-file state was emptied.
    EmptiedFile => "emptied_file", Event, Attachments, false, note;
    /// The environment: working directory, platform, whether it is a repository (2.1.332;
    /// 2.1.88 sent it in the system prompt).
    Environment => "environment", SessionStart, System, false, note;
    /// A mentioned or restored file: its contents.
    File => "file", Event, Attachments, false, user;
    /// The CLAUDE.md files and rules of the session's start, with a preamble (2.1.332;
    /// 2.1.88 sent them in the user context).
    Instructions => "instructions", SessionStart, Memory, false, user;
    /// The skills the model invoked, put back after a compaction.
    InvokedSkills => "invoked_skills", Event, Attachments, false, user;
    /// MCP servers' instructions that became available or went away.
    McpInstructionsDelta => "mcp_instructions_delta", Delta, Attachments, false, note;
    /// A mentioned MCP resource.
    McpResource => "mcp_resource", Event, Attachments, false, user;
    /// The memory tool is on: save what matters before tool results are cleared.
    MemoryWarning => "memory_warning", Event, Attachments, false, note;
    /// A CLAUDE.md or rule that loaded for a path the agent touched.
    NestedMemory => "nested_memory", Event, Memory, false, user;
    /// The file open in the IDE.
    OpenedFileInIde => "opened_file_in_ide", Event, Attachments, false, user;
    /// The output style in force.
    OutputStyle => "output_style", Event, Attachments, false, note;
    /// The output tokens spent this turn.
    OutputTokenUsage => "output_token_usage", Event, Attachments, false, note;
    /// A PDF too large to read whole: a reference to it.
    PdfReference => "pdf_reference", Event, Attachments, false, user;
    /// The plan file, referenced after a compaction.
    PlanFileReference => "plan_file_reference", Event, Attachments, false, note;
    /// Plan mode's reminder.
    PlanMode => "plan_mode", Throttled, Attachments, false, note;
    /// Plan mode was left.
    PlanModeExit => "plan_mode_exit", Event, Attachments, false, note;
    /// Plan mode was entered again.
    PlanModeReentry => "plan_mode_reentry", Event, Attachments, false, note;
    /// A command the user queued while the model worked.
    QueuedCommand => "queued_command", Event, Attachments, false, user;
    /// Files changed outside the agent since it last read or wrote them, as Cline's
    /// environment details list them (strategies.md §4.4; the `cline.file_tracker`
    /// policy): paths only.
    RecentlyModifiedFiles => "recently_modified_files", Event, Attachments, false, note;
    /// Memories relevant to the prompt (§8).
    RelevantMemories => "relevant_memories", Prefetch, Memory, false, user;
    /// The attribution lines the agent adds to commits and pull requests it writes
    /// (2.1.332, whose name for it this is).
    RemoteSessionChange => "remote_session_change", SessionStart, System, false, user;
    /// Lines selected in the IDE.
    SelectedLinesInIde => "selected_lines_in_ide", Event, Attachments, false, user;
    /// The repository's state at the session's start (`git status`): 2.1.332 sends it as
    /// a reminder of its own, and nothing outside a repository.
    SessionContext => "session_context", SessionStart, System, false, user;
    /// The skills the model may invoke.
    SkillListing => "skill_listing", FirstThenIncremental, Attachments, false, note;
    /// The task list's reminder.
    TaskReminder => "task_reminder", Throttled, Attachments, false, note;
    /// A background task still running, or stopped by the user.
    TaskStatus => "task_status", Event, Attachments, false, note;
    /// The todo list's reminder.
    TodoReminder => "todo_reminder", Throttled, Attachments, false, note;
    /// The tokens used of the window.
    TokenUsage => "token_usage", Event, Attachments, false, note;
    /// The effort `ultrathink` asks for.
    UltrathinkEffort => "ultrathink_effort", Event, Attachments, false, note;
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_are_declared_in_the_order_of_their_distinct_names() {
        for pair in AttachmentKind::ALL.windows(2) {
            assert!(
                pair[0].as_str() < pair[1].as_str(),
                "{} {}",
                pair[0],
                pair[1]
            );
        }
    }

    #[test]
    fn memory_is_what_counts_as_memory() {
        let memory: alloc::vec::Vec<AttachmentKind> = AttachmentKind::ALL
            .iter()
            .copied()
            .filter(|kind| kind.category() == Category::Memory)
            .collect();
        assert_eq!(
            memory,
            [
                AttachmentKind::Instructions,
                AttachmentKind::NestedMemory,
                AttachmentKind::RelevantMemories
            ]
        );
    }
}
