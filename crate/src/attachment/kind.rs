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
    }
}

/// Declares [`AttachmentKind`] from one row per kind: its variant, its name, its
/// [`Frequency`], its [`Category`], and whether the original renders it to nothing.
macro_rules! attachment_kinds {
    ($(
        $(#[doc = $doc:literal])*
        $variant:ident => $name:literal, $frequency:ident, $category:ident, $silent:literal;
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

            /// What its tokens are spent on in a request: `memory` or `attachments`.
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
        }
    };
}

attachment_kinds! {
    /// The agents that became available or went away.
    AgentListingDelta => "agent_listing_delta", Delta, Attachments, false;
    /// A mentioned agent.
    AgentMention => "agent_mention", Event, Attachments, false;
    /// A mentioned file the read-file state holds unchanged (Q20).
    AlreadyReadFile => "already_read_file", Event, Attachments, true;
    /// Auto mode's reminder.
    AutoMode => "auto_mode", Throttled, Attachments, false;
    /// Auto mode was left.
    AutoModeExit => "auto_mode_exit", Event, Attachments, false;
    /// The USD budget and what is left of it.
    BudgetUsd => "budget_usd", Event, Attachments, false;
    /// A changed file too large to diff: a short note, once (Q39 fixed).
    ChangedFileTooLarge => "changed_file_too_large", Event, Attachments, false;
    /// A file too large to restore after a compaction: a reference to its path.
    CompactFileReference => "compact_file_reference", Event, Attachments, false;
    /// Context is running out: compaction is near.
    CompactionReminder => "compaction_reminder", Event, Attachments, false;
    /// The agent definition's critical reminder, sent on every pass.
    CriticalSystemReminder => "critical_system_reminder", Event, Attachments, false;
    /// The date changed since the conversation started.
    DateChange => "date_change", Event, Attachments, false;
    /// Deferred tools that became available or went away.
    DeferredToolsDelta => "deferred_tools_delta", Delta, Attachments, false;
    /// A file of the read-file state was deleted.
    DeletedFile => "deleted_file", Event, Attachments, false;
    /// New diagnostics from the IDE.
    Diagnostics => "diagnostics", Event, Attachments, false;
    /// A mentioned directory: its listing.
    Directory => "directory", Event, Attachments, false;
    /// A skill discovered beneath a path the agent touched (the original's; no collector
    /// here produces it).
    DynamicSkill => "dynamic_skill", Event, Attachments, true;
    /// A tracked image changed (Q42).
    EditedImageFile => "edited_image_file", Event, Attachments, true;
    /// A file of the read-file state changed: its snippet.
    EditedTextFile => "edited_text_file", Event, Attachments, false;
    /// A file of the read-file state was emptied.
    EmptiedFile => "emptied_file", Event, Attachments, false;
    /// A mentioned or restored file: its contents.
    File => "file", Event, Attachments, false;
    /// The skills the model invoked, put back after a compaction.
    InvokedSkills => "invoked_skills", Event, Attachments, false;
    /// MCP servers' instructions that became available or went away.
    McpInstructionsDelta => "mcp_instructions_delta", Delta, Attachments, false;
    /// A mentioned MCP resource.
    McpResource => "mcp_resource", Event, Attachments, false;
    /// The memory tool is on: save what matters before tool results are cleared.
    MemoryWarning => "memory_warning", Event, Attachments, false;
    /// A CLAUDE.md or rule that loaded for a path the agent touched.
    NestedMemory => "nested_memory", Event, Memory, false;
    /// The file open in the IDE.
    OpenedFileInIde => "opened_file_in_ide", Event, Attachments, false;
    /// The output style in force.
    OutputStyle => "output_style", Event, Attachments, false;
    /// The output tokens spent this turn.
    OutputTokenUsage => "output_token_usage", Event, Attachments, false;
    /// A PDF too large to read whole: a reference to it.
    PdfReference => "pdf_reference", Event, Attachments, false;
    /// The plan file, referenced after a compaction.
    PlanFileReference => "plan_file_reference", Event, Attachments, false;
    /// Plan mode's reminder.
    PlanMode => "plan_mode", Throttled, Attachments, false;
    /// Plan mode was left.
    PlanModeExit => "plan_mode_exit", Event, Attachments, false;
    /// Plan mode was entered again.
    PlanModeReentry => "plan_mode_reentry", Event, Attachments, false;
    /// A command the user queued while the model worked.
    QueuedCommand => "queued_command", Event, Attachments, false;
    /// Memories relevant to the prompt (§8).
    RelevantMemories => "relevant_memories", Prefetch, Memory, false;
    /// Lines selected in the IDE.
    SelectedLinesInIde => "selected_lines_in_ide", Event, Attachments, false;
    /// The skills the model may invoke.
    SkillListing => "skill_listing", FirstThenIncremental, Attachments, false;
    /// The task list's reminder.
    TaskReminder => "task_reminder", Throttled, Attachments, false;
    /// A background task still running, or stopped by the user.
    TaskStatus => "task_status", Event, Attachments, false;
    /// The todo list's reminder.
    TodoReminder => "todo_reminder", Throttled, Attachments, false;
    /// The tokens used of the window.
    TokenUsage => "token_usage", Event, Attachments, false;
    /// The effort `ultrathink` asks for.
    UltrathinkEffort => "ultrathink_effort", Event, Attachments, false;
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
                AttachmentKind::NestedMemory,
                AttachmentKind::RelevantMemories
            ]
        );
    }
}
