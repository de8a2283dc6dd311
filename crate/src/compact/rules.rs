//! The quirk switches of full compaction and the post-compact restore (spec claude-code.md
//! §9.3–§9.5, §6.5).

use super::auto_policy::AutoPolicy;

crate::switch::with_switches! {
    /// Quirk switches of the summary hand-off and the post-compact restore.
    /// `claude_code()` reproduces the original; `recommended()` turns every fix on.
    #[derive(Debug, Clone, PartialEq, Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    #[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
    pub struct CompactionRules {
        /// Q59: every memory file in the file state is kept out of the restore (original: only
        /// the five memory paths matched exactly, so nested CLAUDE.md files, rules and relevant
        /// memories can win restore slots).
        pub exclude_all_memory_files: bool,
        /// `CLAUDE.md` and `CLAUDE.local.md` in every directory above the working directory are
        /// kept out of the restore too, as the working directory's are (Claude Code 2.1.332:
        /// the memory loader brings them back); off, only the working directory's (2.1.88).
        pub exclude_ancestor_memory_files: bool,
        /// Q60: restore candidates are ranked by last access (original: by the stored timestamp,
        /// mostly the file's mtime).
        pub rank_by_last_access: bool,
        /// Q61: a restore slot whose file cannot be read is given to the next candidate
        /// (original: the first five are taken and a failed one is simply lost).
        pub backfill_failed_slots: bool,
        /// Q46: the restore budget counts the rendered text (original: the JSON-escaped
        /// attachment record with its metadata, which over-counts).
        pub measure_rendered_text: bool,
        /// §9.5: the plan file follows the summary only when the deny rules allow reading it
        /// (original: `plan_file_reference` reads the plan directly, with no deny check, so a
        /// denied plan file is sent in full).
        pub deny_plan_file: bool,
        /// Files the session edited are restored before files it only read (ours; the original
        /// has no such preference).
        pub restore_edited_first: bool,
        /// A cheap stage (OpenCode's prune) runs before a summary is asked for, and the summary
        /// is skipped when it frees enough (ours; the original summarises at once).
        pub cheap_stage_first: bool,
        /// Auto-compaction waits for the blocking limit instead of firing at the auto-compact
        /// threshold, so the cached prefix is read while the request still fits (ours; see
        /// [`timing`](super::timing)); when it compacts, it weighs the cheap stage against a
        /// summary by the cache's arithmetic.
        pub compact_at_blocking_limit: bool,
        /// While waiting for the blocking limit, the cheap stage runs as soon as the prompt
        /// cache has expired, when it costs no cached prefix (ours; it saves money but clears old
        /// tool outputs the model could still have read: the recall measure shows both).
        pub prune_when_cache_expires: bool,
        /// The host's pinned files are attached again after a summary (ours).
        pub reinsert_pinned: bool,
        /// The files restored after a summary may take this share of the effective window, in
        /// percent, never more than the original's budgets (ours; see
        /// [`RestoreBudget::for_window`](super::restore::RestoreBudget::for_window)); 0 keeps the
        /// original's fixed 50,000 and 5,000 a file.
        pub restore_budget_percent: u8,
        /// §9.2: after three failed auto-compactions in a row, auto-compaction stops trying
        /// (Codex has no such breaker: off).
        pub auto_compact_breaker: bool,
        /// The host's `auto_compact` switch is honoured: off, no auto-compaction runs (Claude
        /// Code's `autoCompactEnabled`). Off for Codex, which has no such setting — its limit can
        /// be lowered but never removed (codex.md §4.1, X8) — so a Codex session compacts at the
        /// limit whatever the host asked, and says so in a decision.
        pub honour_auto_compact_switch: bool,
        /// Q57: the breaker's count starts afresh with every human turn, because it lives in
        /// one `query()` call (original); off, it is the session's, so a conversation that cannot
        /// be compacted stops retrying for good.
        pub breaker_resets_each_human_turn: bool,
        /// §9.3 item 7: a typed `/compact` leaves its own messages after the summary — the
        /// local-command caveat, the command with its instructions, and its output — as user
        /// text before the next prompt (original); off, they are left out: the model needs
        /// none of them, and the two that are not meta count as human turns for plan mode.
        pub keep_command_messages: bool,
        /// §9.4, §8.1: the Reads of a typed `/compact`'s restore queue nested-memory triggers
        /// for the session, so the next turn loads the CLAUDE.md files and conditional rules of
        /// the restored files' directories (ours); off, they go to the command's own trigger
        /// set, created for it and dropped with it, so none loads (original).
        pub manual_restore_loads_nested_memory: bool,
        /// §6.3: the context size the thresholds read starts from the usage the provider
        /// reported for the last response, plus an estimate of the records after that
        /// response's first one (original); off, or while no response since the last summary
        /// reported usage, it is the estimate of the whole request.
        pub size_from_reported_usage: bool,
        /// The usage the session's first response reports is not read, so until a later one
        /// reports the size is the estimate (Claude Code 2.1.332, probed in the lab: a first
        /// response reporting 185,000 tokens of a 200,000-token window compacts nothing, a
        /// second reporting 95,253 of 128,000 does); off, every response's usage counts (2.1.88).
        pub first_response_usage_ignored: bool,
        /// The estimate of the records after the usage's response is padded by a third, as the
        /// kept tail's is (2.1.332: a tool round of about 3,000 estimated tokens on 91,303
        /// reported compacts at a threshold of 95,000); off, it is added as it is (2.1.88).
        pub pad_estimate_after_usage: bool,
        /// A response that comes without reported usage counts as reporting the engine's
        /// estimate of the request it answered, as the real client always has the API's count
        /// (2.1.332's rules for usage then apply to it); off, such a response reports nothing
        /// and the whole request's estimate stands in (2.1.88's reading).
        pub usage_from_own_estimate: bool,
        /// The window the thresholds are computed from is at least this many tokens (2.1.332
        /// floors its auto-compact window at 100,000, the lab found: a 95,000-token window
        /// compacts at 67,000 as a 100,000-token one does); 0, no floor.
        pub min_threshold_window: u64,
        /// An auto-compaction sends the session's context with its summary: the CLAUDE.md and
        /// repository reminders before it, the date note after it, the attribution and the
        /// environment note after the restored files (2.1.332, under
        /// `attachments.contextAsAttachments`); off, the next pass sends the context (a typed
        /// `/compact` always leaves it to the next pass).
        pub context_with_auto_summary: bool,
        /// A summary request refused as too long is asked again with one more human turn kept
        /// word for word after the summary: retry `n` summarises up to the `n`-th prompt from the
        /// end and keeps what follows it, whatever counts the refusal gave (2.1.332, the lab
        /// found); off, each retry leaves the oldest API rounds out of the summary (§9.3 item 4).
        pub prompt_too_long_keeps_turns: bool,
        /// Q45: the kept tail's estimate (`estimateMessageTokens`, §6.4) counts only user and
        /// assistant messages with block content: a prompt, a summary or a command message
        /// (string content) and an attachment count nothing (original); off, every record
        /// counts. Either way the estimate is padded by a third.
        pub kept_tail_ignores_string_content: bool,
        /// Records at the end kept verbatim by full compaction, moved earlier so no tool call
        /// loses its result (original: 0, the summary replaces everything).
        pub keep_recent_records: usize,
        /// Claude Code 2.1.332's summary message: a reminder after the preamble names the tools
        /// the summarised part called, the carry-on instruction follows every compaction (a typed
        /// `/compact` too), and then a note that the kept records follow word for word.
        pub summary_names_tools_used: bool,
        /// The strategy auto-compaction follows: the profile's own summary (Claude Code's,
        /// Codex's), OpenCode's or Aider's ([`AutoPolicy`]).
        pub auto_policy: AutoPolicy,
    }
}

impl CompactionRules {
    /// Claude Code v2.1.88.
    pub const fn claude_code() -> CompactionRules {
        CompactionRules {
            exclude_all_memory_files: false,
            exclude_ancestor_memory_files: false,
            rank_by_last_access: false,
            backfill_failed_slots: false,
            measure_rendered_text: false,
            deny_plan_file: false,
            restore_edited_first: false,
            cheap_stage_first: false,
            compact_at_blocking_limit: false,
            prune_when_cache_expires: false,
            reinsert_pinned: false,
            restore_budget_percent: 0,
            auto_compact_breaker: true,
            honour_auto_compact_switch: true,
            breaker_resets_each_human_turn: true,
            keep_command_messages: true,
            manual_restore_loads_nested_memory: false,
            size_from_reported_usage: true,
            first_response_usage_ignored: false,
            pad_estimate_after_usage: false,
            usage_from_own_estimate: false,
            min_threshold_window: 0,
            context_with_auto_summary: false,
            prompt_too_long_keeps_turns: false,
            kept_tail_ignores_string_content: true,
            keep_recent_records: 0,
            summary_names_tools_used: false,
            auto_policy: AutoPolicy::Summary,
        }
    }

    /// Every fix on, compacting at the original's threshold with no cheap stage, a small
    /// restore (5 % of the effective window) and no verbatim tail: the cheapest and
    /// leanest of the variants measured (README, "Is `recommended` better?").
    pub const fn recommended() -> CompactionRules {
        CompactionRules {
            exclude_all_memory_files: true,
            exclude_ancestor_memory_files: true,
            rank_by_last_access: true,
            backfill_failed_slots: true,
            measure_rendered_text: true,
            deny_plan_file: true,
            restore_edited_first: true,
            cheap_stage_first: false,
            compact_at_blocking_limit: false,
            prune_when_cache_expires: false,
            reinsert_pinned: true,
            restore_budget_percent: 5,
            auto_compact_breaker: true,
            honour_auto_compact_switch: true,
            breaker_resets_each_human_turn: false,
            keep_command_messages: false,
            manual_restore_loads_nested_memory: true,
            size_from_reported_usage: true,
            first_response_usage_ignored: false,
            pad_estimate_after_usage: false,
            usage_from_own_estimate: false,
            min_threshold_window: 0,
            context_with_auto_summary: false,
            prompt_too_long_keeps_turns: false,
            kept_tail_ignores_string_content: false,
            keep_recent_records: 0,
            summary_names_tools_used: false,
            auto_policy: AutoPolicy::Summary,
        }
    }

    /// [`recommended`](Self::recommended) with the cache-aware timing of
    /// [`timing`](super::timing): auto-compaction waits for the blocking limit, weighs
    /// OpenCode's prune against a summary, and prunes once the prompt cache has expired.
    /// Measured on the generated corpus it costs more than compacting at the threshold and
    /// sends more tokens (README, "Is `recommended` better?"), so it is a variant, not the
    /// preset.
    pub const fn cache_aware() -> CompactionRules {
        CompactionRules {
            cheap_stage_first: true,
            compact_at_blocking_limit: true,
            prune_when_cache_expires: true,
            ..CompactionRules::recommended()
        }
    }
}
