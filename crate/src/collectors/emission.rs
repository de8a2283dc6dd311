//! The emission order (spec claude-code.md §7.2): every collector of one pass, in the order
//! the original emits their attachments, with its phase and the attachment kinds it may
//! produce. The session walks [`EMISSION_ORDER`] and runs each collector it names; the
//! playground shows the same table.
//!
//! The relevant-memory prefetch ([`super::relevant_memories`]) is not in it: its result is
//! consumed after the pass, once the prompt is stored (§7.9).

use crate::attachment::AttachmentKind;
use crate::vocabulary::named_enum;

use super::reminders::{self, Producer};
use AttachmentKind as K;
use CollectorId as C;
use Phase::{AllThreads, MainThread, Prompt};

named_enum! {
    /// A collector of the attachment pass.
    pub enum CollectorId {
    /// The prompt's @-mentions (§3.7–3.11, §1.6–1.7).
    Mentions => "mentions",
    /// Prompts queued while the agent worked (§7.10).
    QueuedCommands => "queued_commands",
    /// The local date moved on (§7.7).
    DateChange => "date_change",
    /// The prompt asks for more thinking.
    UltrathinkEffort => "ultrathink_effort",
    /// 2.1.332: the environment, on the session's first pass (after a compaction the
    /// compaction attaches it).
    Environment => "environment",
    /// Tools loaded on demand, announced by name.
    DeferredToolsDelta => "deferred_tools_delta",
    /// Agent types added or removed.
    AgentListingDelta => "agent_listing_delta",
    /// MCP servers' instructions added or removed.
    McpInstructionsDelta => "mcp_instructions_delta",
    /// Files changed on disk since the model saw them (§5.1).
    ChangedFiles => "changed_files",
    /// CLAUDE.md and rules of the directories the agent touched (§8.1).
    NestedMemory => "nested_memory",
    /// The skills the Skill tool can run.
    SkillListing => "skill_listing",
    /// Plan mode's reminders, throttled by human turns (§7.5).
    PlanMode => "plan_mode",
    /// 2.1.332: the session's context when it is built (the first pass, the first after a
    /// compaction): CLAUDE.md, the repository's state, the date, the attribution.
    SessionContext => "session_context",
    /// Leaving plan mode.
    PlanModeExit => "plan_mode_exit",
    /// Auto mode's reminders.
    AutoMode => "auto_mode",
    /// Leaving auto mode.
    AutoModeExit => "auto_mode_exit",
    /// The todo and task nudges (§7.6).
    TodoReminders => "todo_reminders",
    /// The host's critical reminder, every pass.
    CriticalSystemReminder => "critical_system_reminder",
    /// The context is filling up (§9.10).
    CompactionReminder => "compaction_reminder",
    /// The lines selected in the IDE (§7.8).
    IdeSelection => "ide_selection",
    /// The nested memory of the file open in the IDE, before its note (§7.8, §8.1).
    OpenedFileMemory => "opened_file_memory",
    /// The file open in the IDE (§7.8).
    IdeOpenedFile => "ide_opened_file",
    /// The active output style.
    OutputStyle => "output_style",
    /// New IDE diagnostics (§7.8).
    Diagnostics => "diagnostics",
    /// Tokens used so far.
    TokenUsage => "token_usage",
    /// Money spent against the budget.
    BudgetUsd => "budget_usd",
    /// Output tokens against the turn's budget.
    OutputTokenUsage => "output_token_usage",
    /// Background tasks that finished (where the original's `unified_tasks` runs).
    TaskStatus => "task_status",
    /// With the `cline.file_tracker` policy on: the files changed outside the agent since
    /// the last request, in the environment details (strategies.md §4.3–§4.4).
    RecentlyModifiedFiles => "recently_modified_files",
    }
}

named_enum! {
    /// When a collector runs in a pass.
    pub enum Phase {
    /// On a human turn only, before the others (phase 1).
    Prompt => "prompt",
    /// On every thread, the main agent's and sub-agents' (phase 2).
    AllThreads => "all-threads",
    /// On the main thread only (phase 3).
    MainThread => "main-thread",
    }
}

/// One row of the emission order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct EmissionEntry {
    /// The collector.
    pub collector: CollectorId,
    /// When it runs.
    pub phase: Phase,
    /// The attachment kinds it may produce.
    pub kinds: &'static [AttachmentKind],
}

const fn entry(
    collector: CollectorId,
    phase: Phase,
    kinds: &'static [AttachmentKind],
) -> EmissionEntry {
    EmissionEntry {
        collector,
        phase,
        kinds,
    }
}

/// Every collector of a pass, in emission order (§7.2).
pub const EMISSION_ORDER: &[EmissionEntry] = &[
    entry(
        C::Mentions,
        Prompt,
        &[
            K::File,
            K::Directory,
            K::AlreadyReadFile,
            K::PdfReference,
            K::McpResource,
            K::AgentMention,
        ],
    ),
    entry(C::QueuedCommands, AllThreads, &[K::QueuedCommand]),
    entry(C::DateChange, AllThreads, &[K::DateChange]),
    entry(C::UltrathinkEffort, AllThreads, &[K::UltrathinkEffort]),
    entry(C::Environment, AllThreads, &[K::Environment]),
    entry(C::DeferredToolsDelta, AllThreads, &[K::DeferredToolsDelta]),
    entry(C::AgentListingDelta, AllThreads, &[K::AgentListingDelta]),
    entry(
        C::McpInstructionsDelta,
        AllThreads,
        &[K::McpInstructionsDelta],
    ),
    entry(
        C::ChangedFiles,
        AllThreads,
        &[
            K::EditedTextFile,
            K::EditedImageFile,
            K::DeletedFile,
            K::EmptiedFile,
            K::ChangedFileTooLarge,
        ],
    ),
    entry(C::NestedMemory, AllThreads, &[K::NestedMemory]),
    entry(C::SkillListing, AllThreads, &[K::SkillListing]),
    entry(C::PlanMode, AllThreads, &[K::PlanMode, K::PlanModeReentry]),
    entry(
        C::SessionContext,
        AllThreads,
        &[
            K::Instructions,
            K::SessionContext,
            K::Date,
            K::RemoteSessionChange,
        ],
    ),
    entry(C::PlanModeExit, AllThreads, &[K::PlanModeExit]),
    entry(C::AutoMode, AllThreads, &[K::AutoMode]),
    entry(C::AutoModeExit, AllThreads, &[K::AutoModeExit]),
    entry(
        C::TodoReminders,
        AllThreads,
        &[K::TodoReminder, K::TaskReminder],
    ),
    entry(
        C::CriticalSystemReminder,
        AllThreads,
        &[K::CriticalSystemReminder],
    ),
    entry(C::CompactionReminder, AllThreads, &[K::CompactionReminder]),
    entry(C::IdeSelection, MainThread, &[K::SelectedLinesInIde]),
    entry(C::OpenedFileMemory, MainThread, &[K::NestedMemory]),
    entry(C::IdeOpenedFile, MainThread, &[K::OpenedFileInIde]),
    entry(C::OutputStyle, MainThread, &[K::OutputStyle]),
    entry(C::Diagnostics, MainThread, &[K::Diagnostics]),
    entry(C::TokenUsage, MainThread, &[K::TokenUsage]),
    entry(C::BudgetUsd, MainThread, &[K::BudgetUsd]),
    entry(C::OutputTokenUsage, MainThread, &[K::OutputTokenUsage]),
    entry(C::TaskStatus, MainThread, &[K::TaskStatus]),
    entry(
        C::RecentlyModifiedFiles,
        MainThread,
        &[K::RecentlyModifiedFiles],
    ),
];

impl CollectorId {
    /// The reminder producer behind this collector (§7.3–7.10); `None` for the file
    /// collectors, which run over the workspace ([`super::file_context`]), and for the
    /// session's own (the environment, its context, the file tracker's list).
    pub fn reminder(self) -> Option<Producer> {
        let producer: Producer = match self {
            C::Mentions
            | C::ChangedFiles
            | C::NestedMemory
            | C::OpenedFileMemory
            | C::Environment
            | C::SessionContext
            | C::RecentlyModifiedFiles => return None,
            C::QueuedCommands => reminders::queued_commands,
            C::DateChange => reminders::date_change,
            C::UltrathinkEffort => reminders::ultrathink_effort,
            C::DeferredToolsDelta => reminders::deferred_tools_delta,
            C::AgentListingDelta => reminders::agent_listing_delta,
            C::McpInstructionsDelta => reminders::mcp_instructions_delta,
            C::SkillListing => reminders::skill_listing,
            C::PlanMode => reminders::plan_mode,
            C::PlanModeExit => reminders::plan_mode_exit,
            C::AutoMode => reminders::auto_mode,
            C::AutoModeExit => reminders::auto_mode_exit,
            C::TodoReminders => reminders::todo_reminders,
            C::CriticalSystemReminder => reminders::critical_system_reminder,
            C::CompactionReminder => reminders::compaction_reminder,
            C::IdeSelection => reminders::ide_selection,
            C::IdeOpenedFile => reminders::ide_opened_file,
            C::OutputStyle => reminders::output_style,
            C::Diagnostics => reminders::diagnostics,
            C::TokenUsage => reminders::token_usage,
            C::BudgetUsd => reminders::budget_usd,
            C::OutputTokenUsage => reminders::output_token_usage,
            C::TaskStatus => reminders::task_status,
        };
        Some(producer)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_collector_is_listed_once() {
        let listed: alloc::vec::Vec<CollectorId> =
            EMISSION_ORDER.iter().map(|entry| entry.collector).collect();
        assert_eq!(listed.len(), CollectorId::ALL.len());
        for id in CollectorId::ALL {
            assert_eq!(
                listed.iter().filter(|known| *known == id).count(),
                1,
                "{id}"
            );
        }
    }

    #[cfg(feature = "serde")]
    #[test]
    fn an_entry_serialises_with_its_names() {
        let json = serde_json::to_string(&EMISSION_ORDER[1]).unwrap();
        assert_eq!(
            json,
            r#"{"collector":"queued_commands","phase":"all-threads","kinds":["queued_command"]}"#
        );
    }

    #[test]
    fn phases_are_contiguous_and_in_order() {
        let phases: alloc::vec::Vec<Phase> =
            EMISSION_ORDER.iter().map(|entry| entry.phase).collect();
        assert!(phases.windows(2).all(|pair| pair[0] <= pair[1]));
    }
}
