//! Quirk switches a scenario changes from its preset: `"section.field": bool`.
//!
//! Each section's switches are its boolean fields under their camelCase names, listed here
//! once; a test checks the lists against the sections' serde form, so none is missed.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::{Error, Profile};

/// The profile sections a switch can name, as scenarios spell them.
pub const SECTIONS: [&str; 12] = [
    "mentions",
    "changeSnippets",
    "paths",
    "deny",
    "read",
    "fileState",
    "memory",
    "fileContext",
    "attachments",
    "compaction",
    "codex",
    "codexContext",
];

/// The boolean switches of a section of the profile, by their camelCase names.
pub trait Switches {
    /// Every switch's name.
    const NAMES: &'static [&'static str];
    /// The switch called `name`.
    fn switch_mut(&mut self, name: &str) -> Option<&mut bool>;
}

macro_rules! switches {
    ($ty:path { $($field:ident => $name:literal),* $(,)? }) => {
        impl Switches for $ty {
            const NAMES: &'static [&'static str] = &[$($name),*];
            fn switch_mut(&mut self, name: &str) -> Option<&mut bool> {
                match name {
                    $($name => Some(&mut self.$field),)*
                    _ => None,
                }
            }
        }
    };
}

switches!(crate::mention::MentionRules {
    escaped_spaces => "escapedSpaces",
    quoted_paths => "quotedPaths",
    mention_after_open_bracket => "mentionAfterOpenBracket",
    classify_once => "classifyOnce",
    quoted_first => "quotedFirst",
    colon_line_ranges => "colonLineRanges",
    line_zero_is_line_one => "lineZeroIsLineOne",
    report_reversed_ranges => "reportReversedRanges",
    mcp_resources => "mcpResources",
    agents => "agents",
    trim_agent_names => "trimAgentNames",
});

switches!(crate::diff::SnippetRules {
    number_from_new_file => "numberFromNewFile",
    exact_truncated_count => "exactTruncatedCount",
    mark_removed_lines => "markRemovedLines",
    ignore_final_newline_change => "ignoreFinalNewlineChange",
    cap_in_tokens => "capInTokens",
});

switches!(crate::path::ExpandRules {
    reject_other_users_home => "rejectOtherUsersHome",
});

switches!(crate::deny::DenyRulesSwitches {
    tool_wide_rules_deny_attachments => "toolWideRulesDenyAttachments",
    anchor_dot_slash_patterns => "anchorDotSlashPatterns",
    case_insensitive_patterns => "caseInsensitivePatterns",
    floating_rules_cover_additional_directories => "floatingRulesCoverAdditionalDirectories",
});

switches!(crate::read::ReadRules {
    drop_trailing_empty_line => "dropTrailingEmptyLine",
    warn_empty_file => "warnEmptyFile",
    line_zero_as_one => "lineZeroAsOne",
    swap_reversed_range => "swapReversedRange",
    forward_small_pdfs => "forwardSmallPdfs",
    media_tokens_from_size => "mediaTokensFromSize",
    mark_directories => "markDirectories",
    malware_note => "malwareNote",
    unchanged_stub => "unchangedStub",
    number_empty_last_line => "numberEmptyLastLine",
    past_end_warned_first => "pastEndWarnedFirst",
});

switches!(crate::file_state::FileStateRules {
    full_read_without_offset => "fullReadWithoutOffset",
    keep_oversized_digest => "keepOversizedDigest",
    resume_like_live_reads => "resumeLikeLiveReads",
    track_images => "trackImages",
    writes_need_read => "writesNeedRead",
});

switches!(crate::memory::MemoryRules {
    string_prefix_dirs => "stringPrefixDirs",
    trigger_on_writes => "triggerOnWrites",
    suppress_on_partial_view => "suppressOnPartialView",
    render_like_eager => "renderLikeEager",
    nested_stamped_with_mtime => "nestedStampedWithMtime",
});

switches!(crate::session::FileContextRules {
    attach_mentioned_files => "attachMentionedFiles",
    detect_changes => "detectChanges",
    load_nested_memory => "loadNestedMemory",
    watch_ranged_entries => "watchRangedEntries",
    compare_contents => "compareContents",
    note_deleted_files => "noteDeletedFiles",
    note_emptied_files => "noteEmptiedFiles",
    note_undiffable_changes => "noteUndiffableChanges",
    already_read_respects_ranges => "alreadyReadRespectsRanges",
    already_read_small_whole_files_only => "alreadyReadSmallWholeFilesOnly",
    denied_mentions_load_memory => "deniedMentionsLoadMemory",
    point_to_already_read => "pointToAlreadyRead",
    mentions_checked_together => "mentionsCheckedTogether",
    read_oversized_mentions => "readOversizedMentions",
    reference_oversized_mentions => "referenceOversizedMentions",
    call_note_shows_range => "callNoteShowsRange",
    truncation_note_states_range => "truncationNoteStatesRange",
    malware_reminder_in_attachments => "malwareReminderInAttachments",
    deny_memory_files => "denyMemoryFiles",
    refuse_writes_to_denied_files => "refuseWritesToDeniedFiles",
    hide_denied_entries => "hideDeniedEntries",
    scan_without_refreshing => "scanWithoutRefreshing",
    headless => "headless",
    reseed_memory_after_compaction => "reseedMemoryAfterCompaction",
    tidy_tool_output => "tidyToolOutput",
});

switches!(crate::attachment::AttachmentRules {
    reminders => "reminders",
    plan_counts_new_prompt => "planCountsNewPrompt",
    plan_reentry_unthrottled => "planReentryUnthrottled",
    todo_counts_responses => "todoCountsResponses",
    todo_plain_list => "todoPlainList",
    selection_one_based => "selectionOneBased",
    compaction_reminder_needs_1m => "compactionReminderNeeds1m",
    compaction_reminder_once => "compactionReminderOnce",
    keep_mid_turn_blocks_separate => "keepMidTurnBlocksSeparate",
    file_parts_as_messages => "filePartsAsMessages",
    attachments_after_summary => "attachmentsAfterSummary",
    merge_user_messages => "mergeUserMessages",
    user_context_without_indent => "userContextWithoutIndent",
    user_context_kept_through_turn => "userContextKeptThroughTurn",
    notes_as_system_messages => "notesAsSystemMessages",
    context_as_attachments => "contextAsAttachments",
});

switches!(crate::compact::rules::CompactionRules {
    exclude_all_memory_files => "excludeAllMemoryFiles",
    rank_by_last_access => "rankByLastAccess",
    backfill_failed_slots => "backfillFailedSlots",
    measure_rendered_text => "measureRenderedText",
    deny_plan_file => "denyPlanFile",
    restore_edited_first => "restoreEditedFirst",
    cheap_stage_first => "cheapStageFirst",
    compact_at_blocking_limit => "compactAtBlockingLimit",
    prune_when_cache_expires => "pruneWhenCacheExpires",
    reinsert_pinned => "reinsertPinned",
    auto_compact_breaker => "autoCompactBreaker",
    honour_auto_compact_switch => "honourAutoCompactSwitch",
    breaker_resets_each_human_turn => "breakerResetsEachHumanTurn",
    keep_command_messages => "keepCommandMessages",
    manual_restore_loads_nested_memory => "manualRestoreLoadsNestedMemory",
    size_from_reported_usage => "sizeFromReportedUsage",
    first_response_usage_ignored => "firstResponseUsageIgnored",
    pad_estimate_after_usage => "padEstimateAfterUsage",
    usage_from_own_estimate => "usageFromOwnEstimate",
    context_with_auto_summary => "contextWithAutoSummary",
    prompt_too_long_keeps_turns => "promptTooLongKeepsTurns",
    kept_tail_ignores_string_content => "keptTailIgnoresStringContent",
    summary_names_tools_used => "summaryNamesToolsUsed",
    exclude_ancestor_memory_files => "excludeAncestorMemoryFiles",
});

switches!(crate::codex::rules::CodexRules {
    turn_context => "turnContext",
    truncate_tool_output => "truncateToolOutput",
    wrap_exec_command_output => "wrapExecCommandOutput",
    wrap_shell_output => "wrapShellOutput",
    local_compaction => "localCompaction",
    context_before_last_user_message => "contextBeforeLastUserMessage",
    remote_compaction => "remoteCompaction",
    remote_compaction_v2 => "remoteCompactionV2",
    reread_edited_after_compaction => "rereadEditedAfterCompaction",
    pin_first_user_message => "pinFirstUserMessage",
    truncate_oversize_input => "truncateOversizeInput",
    fork_full_context => "forkFullContext",
    truncation_warning => "truncationWarning",
    agents_md_world_state => "agentsMdWorldState",
    world_state_step_capture => "worldStateStepCapture",
    resend_full_context => "resendFullContext",
    item_tokens => "itemTokens",
});

switches!(crate::codex::context::ContextRules {
    join_context_parts => "joinContextParts",
    announce_mode_clear => "announceModeClear",
    granular_diffs => "granularDiffs",
    developer_instructions_first => "developerInstructionsFirst",
    skills_before_permissions => "skillsBeforePermissions",
    protect_aws_folder => "protectAwsFolder",
    untitled_global_agents_md => "untitledGlobalAgentsMd",
});

/// Sets each `(section.field, value)` on `profile`.
///
/// # Errors
/// An unknown section or switch (the error lists the allowed ones).
///
/// # Example
/// ```
/// use context_assembly::scenario::apply_switches;
/// use context_assembly::Profile;
/// let mut profile = Profile::claude_code();
/// apply_switches(&mut profile, &[("attachments.planCountsNewPrompt".into(), true)]).unwrap();
/// assert!(profile.attachments.plan_counts_new_prompt);
/// let error = apply_switches(&mut profile, &[("attachments.workBudget".into(), true)]);
/// assert!(error.unwrap_err().to_string().starts_with("switches.attachments.workBudget: unknown switch"));
/// ```
pub fn apply_switches(profile: &mut Profile, switches: &[(String, bool)]) -> Result<(), Error> {
    for (name, value) in switches {
        let error = |reason: String| Error::InvalidConfig {
            field: format!("switches.{name}"),
            reason,
        };
        let Some((section, field)) = name.split_once('.') else {
            return Err(error(format!(
                "a switch is named section.field, with section one of {}",
                quoted(&SECTIONS)
            )));
        };
        let outcome = match section {
            "mentions" => set(&mut profile.mentions, field, *value),
            "changeSnippets" => match profile.change_snippets.as_mut() {
                Some(rules) => set(rules, field, *value),
                None => Err("this profile sends no change snippets".into()),
            },
            "paths" => set(&mut profile.paths, field, *value),
            "deny" => set(&mut profile.deny, field, *value),
            "read" => set(&mut profile.read, field, *value),
            "fileState" => set(&mut profile.file_state, field, *value),
            "memory" => set(&mut profile.memory, field, *value),
            "fileContext" => set(&mut profile.file_context, field, *value),
            "attachments" => set(&mut profile.attachments, field, *value),
            "compaction" => set(&mut profile.compaction, field, *value),
            "codex" => set(&mut profile.codex, field, *value),
            "codexContext" => set(&mut profile.codex.context, field, *value),
            _ => Err(format!(
                "unknown section: expected one of {}",
                quoted(&SECTIONS)
            )),
        };
        outcome.map_err(error)?;
    }
    Ok(())
}

fn set<T: Switches>(rules: &mut T, field: &str, value: bool) -> Result<(), String> {
    match rules.switch_mut(field) {
        Some(slot) => {
            *slot = value;
            Ok(())
        }
        None => Err(format!(
            "unknown switch: expected one of {}",
            quoted(T::NAMES)
        )),
    }
}

fn quoted(names: &[&str]) -> String {
    let quoted: Vec<String> = names.iter().map(|name| format!("\"{name}\"")).collect();
    quoted.join(", ")
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    /// The boolean fields of a section's serde form, sorted.
    fn serde_switches<T: serde::Serialize>(rules: &T) -> Vec<String> {
        let serde_json::Value::Object(map) = serde_json::to_value(rules).unwrap() else {
            panic!("a section serialises to an object");
        };
        let mut names: Vec<String> = map
            .into_iter()
            .filter(|(_, value)| value.is_boolean())
            .map(|(name, _)| name)
            .collect();
        crate::sort::sort(&mut names);
        names
    }

    fn listed<T: Switches>() -> Vec<String> {
        let mut names: Vec<String> = T::NAMES.iter().map(|n| String::from(*n)).collect();
        crate::sort::sort(&mut names);
        names
    }

    #[test]
    fn every_boolean_field_of_every_section_is_a_switch() {
        let p = Profile::recommended();
        assert_eq!(
            listed::<crate::mention::MentionRules>(),
            serde_switches(&p.mentions)
        );
        let snippets = p.change_snippets.as_ref().unwrap();
        assert_eq!(
            listed::<crate::diff::SnippetRules>(),
            serde_switches(snippets)
        );
        assert_eq!(
            listed::<crate::path::ExpandRules>(),
            serde_switches(&p.paths)
        );
        assert_eq!(
            listed::<crate::deny::DenyRulesSwitches>(),
            serde_switches(&p.deny)
        );
        assert_eq!(listed::<crate::read::ReadRules>(), serde_switches(&p.read));
        assert_eq!(
            listed::<crate::file_state::FileStateRules>(),
            serde_switches(&p.file_state)
        );
        assert_eq!(
            listed::<crate::memory::MemoryRules>(),
            serde_switches(&p.memory)
        );
        assert_eq!(
            listed::<crate::session::FileContextRules>(),
            serde_switches(&p.file_context)
        );
        assert_eq!(
            listed::<crate::attachment::AttachmentRules>(),
            serde_switches(&p.attachments)
        );
        assert_eq!(
            listed::<crate::compact::rules::CompactionRules>(),
            serde_switches(&p.compaction)
        );
        let codex = Profile::codex().codex;
        assert_eq!(
            listed::<crate::codex::rules::CodexRules>(),
            serde_switches(&codex)
        );
        assert_eq!(
            listed::<crate::codex::context::ContextRules>(),
            serde_switches(&codex.context)
        );
    }
}
