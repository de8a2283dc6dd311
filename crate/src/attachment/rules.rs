//! The pipeline's constants and the switches of its quirks (spec §7, §9.10).

crate::switch::with_switches! {
    /// Constants and quirk switches of the attachment pipeline and request assembly.
    /// `claude_code()` reproduces the original; `recommended()` turns every fix on.
    #[derive(Debug, Clone, PartialEq, Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    #[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
    pub struct AttachmentRules {
        /// The reminder collectors run (plan mode, todo, listings, IDE, date… and the relevant
        /// memories). Codex CLI has none of them: its per-turn context is the subject of
        /// spec/codex.md.
        pub reminders: bool,
        /// Work units one pass may spend on file reads and diffs before the remaining
        /// file work is cancelled; stands in for the original's 1000 ms deadline (§7.2).
        pub work_budget: u64,
        /// Human turns between two plan-mode (and auto-mode) reminders (`TURNS_BETWEEN_ATTACHMENTS`).
        pub plan_turns_between: u64,
        /// Every n-th plan-mode reminder is the full one (`FULL_REMINDER_EVERY_N_ATTACHMENTS`).
        pub plan_full_every: u64,
        /// Q48: the cadence counts the prompt being submitted, so reminders land on human turns
        /// (original: history without the new prompt, so a reminder can fire mid-turn).
        pub plan_counts_new_prompt: bool,
        /// Plan mode entered again while its plan file exists gets its re-entry and full
        /// reminders on the first pass, whatever the cadence (Claude Code 2.1.332; 2.1.88 waits
        /// for the cadence, counted across the exit).
        pub plan_reentry_unthrottled: bool,
        /// Assistant records since the last TodoWrite before a todo reminder (`TURNS_SINCE_WRITE`).
        pub todo_turns_since_write: u64,
        /// Assistant records since the last todo reminder (`TURNS_BETWEEN_REMINDERS`).
        pub todo_turns_between: u64,
        /// Q47: the todo cadence counts assistant responses (original: one record per content
        /// block, so a response with three tool calls counts three).
        pub todo_counts_responses: bool,
        /// Q49: the todo list is set off by a single blank line, without brackets (original:
        /// three newlines and the list inside `[` `]`).
        pub todo_plain_list: bool,
        /// Percent of the context window the skill listing may use (×4 chars per token).
        pub skill_budget_percent: u64,
        /// Characters of a skill's description before it is cut with `…`.
        pub skill_description_cap: usize,
        /// UTF-16 units of an IDE selection before it is cut (`maxSelectionLength`).
        pub selection_cap: usize,
        /// Q52: the IDE's 0-based line numbers are shown 1-based (original: as given).
        pub selection_one_based: bool,
        /// UTF-16 units of the diagnostics summary, marker included.
        pub diagnostics_cap: usize,
        /// Relevant memories surfaced per prompt at most.
        pub memories_per_turn: usize,
        /// Bytes of one relevant memory (`MAX_MEMORY_BYTES`).
        pub memory_max_bytes: usize,
        /// Lines of one relevant memory (`MAX_MEMORY_LINES`).
        pub memory_max_lines: usize,
        /// Units of relevant memories the transcript may hold (`MAX_SESSION_BYTES`).
        pub memory_session_cap: u64,
        /// Percent of the effective window above which the compaction reminder is sent.
        pub compaction_reminder_percent: u64,
        /// The compaction reminder needs a window of at least 1,000,000 tokens (original);
        /// off: any window.
        pub compaction_reminder_needs_1m: bool,
        /// Q62: the compaction reminder is sent once per crossing of its threshold (original:
        /// on every pass above it).
        pub compaction_reminder_once: bool,
        /// Q50: attachments of a tool round stay separate blocks after the tool results
        /// (original: folded into the last tool_result's text).
        pub keep_mid_turn_blocks_separate: bool,
        /// §3.11 (the lab): a file attachment is sent as the original sends it, one user message
        /// per part: the call note, the result, a truncation note. After an assistant message
        /// they are separate messages; after a user message they merge into it (off: one block).
        pub file_parts_as_messages: bool,
        /// Q58: post-compact attachments are placed after the compaction summary (original:
        /// finding no assistant message or tool result, they float above the summary and the
        /// user context into the first user message).
        pub attachments_after_summary: bool,
        /// Consecutive user records merge into one user message, as the Anthropic API wants
        /// (Codex sends each item as its own message: off).
        pub merge_user_messages: bool,
        /// Q51: the user-context block has no template indentation (original: six spaces
        /// before its closing caveat).
        pub user_context_without_indent: bool,
        /// 2.1.332: the harness's notes ([`AttachmentKind::is_harness_note`]) are sent in a
        /// `system`-role message placed after the turn's user message, one message for the notes
        /// of a turn or tool round, each note without its `<system-reminder>` wrapper and
        /// joined to the next by a blank line (2.1.88: every attachment is a reminder in a user
        /// message).
        ///
        /// [`AttachmentKind::is_harness_note`]: super::AttachmentKind::is_harness_note
        pub notes_as_system_messages: bool,
        /// 2.1.332: the session's context travels as attachments of the first pass, and again
        /// after a compaction: the environment (a note), the CLAUDE.md instructions, the
        /// repository's state, the date (a note) and the commit attribution; the system prompt
        /// keeps no environment and no user context is prepended (2.1.88: the environment after
        /// the system prompt's cache boundary, CLAUDE.md and the date in the prepended user
        /// context, no attribution).
        pub context_as_attachments: bool,
        /// §9.11, §7.11: the user context (CLAUDE.md, the date) is computed when a human turn
        /// begins and kept for the whole turn, so an auto-compaction inside the turn does not
        /// refresh it and the model keeps seeing memory the agent edited before the compaction
        /// as it was (original: the query takes it once; the compaction only clears the cache
        /// for the next turn). Off: the request after the compaction carries it afresh.
        pub user_context_kept_through_turn: bool,
    }
}

impl AttachmentRules {
    /// Claude Code 2.1.88.
    pub const fn claude_code() -> AttachmentRules {
        AttachmentRules {
            reminders: true,
            work_budget: 64_000_000,
            plan_turns_between: 5,
            plan_full_every: 5,
            plan_counts_new_prompt: false,
            plan_reentry_unthrottled: false,
            todo_turns_since_write: 10,
            todo_turns_between: 10,
            todo_counts_responses: false,
            todo_plain_list: false,
            skill_budget_percent: 1,
            skill_description_cap: 250,
            selection_cap: 2000,
            selection_one_based: false,
            diagnostics_cap: 4000,
            memories_per_turn: 5,
            memory_max_bytes: 4096,
            memory_max_lines: 200,
            memory_session_cap: 60 * 1024,
            compaction_reminder_percent: 25,
            compaction_reminder_needs_1m: true,
            compaction_reminder_once: false,
            keep_mid_turn_blocks_separate: false,
            file_parts_as_messages: true,
            attachments_after_summary: false,
            merge_user_messages: true,
            user_context_without_indent: false,
            user_context_kept_through_turn: true,
            notes_as_system_messages: false,
            context_as_attachments: false,
        }
    }

    /// Claude Code 2.1.332: the notes in `system`-role messages, the context as attachments,
    /// the attachments of a tool round left beside its results (Q50 no longer holds) and
    /// the post-compact attachments after the summary (Q58 no longer holds).
    pub const fn claude_code_2_1_332() -> AttachmentRules {
        AttachmentRules {
            plan_reentry_unthrottled: true,
            notes_as_system_messages: true,
            context_as_attachments: true,
            keep_mid_turn_blocks_separate: true,
            attachments_after_summary: true,
            ..AttachmentRules::claude_code()
        }
    }

    /// Codex CLI: no Claude Code reminders.
    pub const fn codex() -> AttachmentRules {
        AttachmentRules {
            reminders: false,
            merge_user_messages: false,
            ..AttachmentRules::claude_code()
        }
    }

    /// Every fix on.
    pub const fn recommended() -> AttachmentRules {
        AttachmentRules {
            plan_counts_new_prompt: true,
            plan_reentry_unthrottled: false,
            todo_counts_responses: true,
            todo_plain_list: true,
            selection_one_based: true,
            compaction_reminder_needs_1m: false,
            compaction_reminder_once: true,
            keep_mid_turn_blocks_separate: true,
            file_parts_as_messages: false,
            attachments_after_summary: true,
            user_context_without_indent: true,
            user_context_kept_through_turn: false,
            ..AttachmentRules::claude_code()
        }
    }
}
