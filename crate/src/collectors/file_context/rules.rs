//! The file collectors' switches: what they do with mentions, changed files and memory.

crate::switch::with_switches! {
    /// Switches of the file-context pipeline that belong to no single module (§3.7, §5.1).
    /// `claude_code()` reproduces the original; `recommended()` turns every fix on.
    #[derive(Debug, Clone, PartialEq, Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    #[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
    pub struct FileContextRules {
        /// Mentioned files become attachments (Codex: a mention is only the path text, X24).
        pub attach_mentioned_files: bool,
        /// The read-file state is scanned for changes on every pass (Codex keeps no file
        /// state: spec/codex.md §8.1).
        pub detect_changes: bool,
        /// A Read brings in the CLAUDE.md and rules files of the file's directories (§8).
        pub load_nested_memory: bool,
        /// Q31: entries stored with an offset or limit are watched too (original: skipped, so
        /// with Q25 a file that was only Read is never watched).
        pub watch_ranged_entries: bool,
        /// Q40: a change is a change of content, found by comparing it: a touch without a
        /// change says nothing, a change that kept its mtime is still caught (original: only
        /// `mtime > timestamp`).
        pub compare_contents: bool,
        /// Q38: a watched file that was deleted gets a short note (original: evicted silently).
        pub note_deleted_files: bool,
        /// Q35: a watched file that was emptied gets a short note (original: the empty snippet
        /// sends nothing).
        pub note_emptied_files: bool,
        /// Q39: a watched file whose change is too large for the Read tool gets a short note
        /// once (original: skipped silently, on every pass).
        pub note_undiffable_changes: bool,
        /// Q20: an unchanged, already read file is "already in context" only when the earlier
        /// read covered the mentioned range (original: any entry counts).
        pub already_read_respects_ranges: bool,
        /// A file is "already in context" only when it was read whole and holds at most
        /// `ALREADY_READ_MAX_BYTES` (Claude Code
        /// 2.1.332, probed in the lab: a ranged read never counts, nor a larger file); it takes
        /// precedence over `already_read_respects_ranges`.
        pub already_read_small_whole_files_only: bool,
        /// A mention the deny rules refuse still loads the nested memory of its file's
        /// directory, as a mention that is read does (Claude Code 2.1.332); off, it loads
        /// nothing. The denied file itself is never read either way.
        pub denied_mentions_load_memory: bool,
        /// Q20: a re-mentioned file already in context gets a short pointer saying so (original:
        /// nothing; Claude Code 2.1.332 keeps sending nothing while it checks the range).
        pub point_to_already_read: bool,
        /// Q2: a prompt's mentions are checked against the read-file state as it was before
        /// any of them was read, because the original handles them together; so every spelling
        /// and every range of one file attaches (the lab saw `@src/app.ts` and `@./src/app.ts`
        /// both attach the whole file). Off, each mention sees what the mentions before it read.
        pub mentions_checked_together: bool,
        /// Q18: an oversized mention is still read: with a range, without the whole-file size
        /// check; without one, cut to its first lines (original: nothing).
        pub read_oversized_mentions: bool,
        /// An oversized mention that is not read gets a short reference: its path, its size and
        /// how to read it in parts (Claude Code 2.1.332; 2.1.88 sends nothing).
        pub reference_oversized_mentions: bool,
        /// Q21: the call note of a ranged mention shows its offset and limit (original: only
        /// the path).
        pub call_note_shows_range: bool,
        /// Q22: the truncation note names the range really shown (original: "first 2000
        /// lines" whatever the start).
        pub truncation_note_states_range: bool,
        /// Q23: the malware reminder stays inside each file attachment's wrapper (original);
        /// the fix leaves it out of attachments.
        pub malware_reminder_in_attachments: bool,
        /// Q15: memory files are checked against the deny rules: the eager `CLAUDE.md`
        /// hierarchy and what it `@include`s, nested memory loaded by a Read, and relevant
        /// memories (original: none of them is checked, so a denied file reaches the model in
        /// full; the lab saw an eager `@include` of a denied file sent).
        pub deny_memory_files: bool,
        /// §2.5: Edit and Write refuse a file the Read deny rules cover, with one answer
        /// whatever the file holds (original: Read rules gate reads only, so "updated", "not
        /// found" and "created" tell the model about a file it may not read).
        pub refuse_writes_to_denied_files: bool,
        /// §3.8: a mentioned directory's listing leaves out the entries the deny rules cover
        /// (original: the listing is `readdir`'s, denied names included; Glob and Grep hide
        /// them in both).
        pub hide_denied_entries: bool,
        /// §4.4 (the lab): the session runs headless (`claude -p`), which never seeds the
        /// read-file state with the eager memory files, so a changed CLAUDE.md is not reported
        /// (the interactive client seeds them and reports the change). A setting of the run,
        /// not a quirk: off in every preset.
        pub headless: bool,
        /// Q27: the change scan peeks at entries instead of refreshing their recency, which in
        /// the original reverses the LRU order on every pass.
        pub scan_without_refreshing: bool,
        /// §4.4, §9.11: when a compaction makes the user context be computed again, the eager
        /// memory files go back into the read-file state (a file already there keeps its
        /// entry), so a later edit of CLAUDE.md is still reported and a mention of it is already
        /// in context. Original: they are seeded once, at startup (REPL `onInit`); after a
        /// compaction an edit of CLAUDE.md reaches the model neither as a change nor in the user
        /// context, which stays cached until the next compaction.
        pub reseed_memory_after_compaction: bool,
        /// The lab: a tool's output reaches the model as Claude Code shapes it, not as the tool
        /// printed it: Bash's loses its leading blank lines and its trailing whitespace, and an
        /// output that is empty (or only whitespace) becomes a sentence saying the tool
        /// completed with no output. Not a quirk: on under `claude-code` and `recommended`,
        /// off under `codex`, whose exec output has its own layout (codex.md §3.3).
        pub tidy_tool_output: bool,
    }
}

impl FileContextRules {
    /// Claude Code v2.1.88.
    pub const fn claude_code() -> FileContextRules {
        FileContextRules {
            attach_mentioned_files: true,
            detect_changes: true,
            load_nested_memory: true,
            watch_ranged_entries: false,
            compare_contents: false,
            note_deleted_files: false,
            note_emptied_files: false,
            note_undiffable_changes: false,
            already_read_respects_ranges: false,
            already_read_small_whole_files_only: false,
            denied_mentions_load_memory: false,
            point_to_already_read: false,
            mentions_checked_together: true,
            read_oversized_mentions: false,
            reference_oversized_mentions: false,
            call_note_shows_range: false,
            truncation_note_states_range: false,
            malware_reminder_in_attachments: true,
            deny_memory_files: false,
            refuse_writes_to_denied_files: false,
            hide_denied_entries: false,
            scan_without_refreshing: false,
            headless: false,
            reseed_memory_after_compaction: false,
            tidy_tool_output: true,
        }
    }

    /// Codex CLI: no file context at all; the model reads files with its own tools.
    pub const fn codex() -> FileContextRules {
        FileContextRules {
            attach_mentioned_files: false,
            detect_changes: false,
            load_nested_memory: false,
            tidy_tool_output: false,
            ..FileContextRules::claude_code()
        }
    }

    /// Every fix on.
    pub const fn recommended() -> FileContextRules {
        FileContextRules {
            attach_mentioned_files: true,
            detect_changes: true,
            load_nested_memory: true,
            watch_ranged_entries: true,
            compare_contents: true,
            note_deleted_files: true,
            note_emptied_files: true,
            note_undiffable_changes: true,
            already_read_respects_ranges: true,
            already_read_small_whole_files_only: false,
            denied_mentions_load_memory: false,
            point_to_already_read: true,
            mentions_checked_together: false,
            read_oversized_mentions: true,
            reference_oversized_mentions: false,
            call_note_shows_range: true,
            truncation_note_states_range: true,
            malware_reminder_in_attachments: false,
            deny_memory_files: true,
            refuse_writes_to_denied_files: true,
            hide_denied_entries: true,
            scan_without_refreshing: true,
            headless: false,
            reseed_memory_after_compaction: true,
            tidy_tool_output: true,
        }
    }
}
