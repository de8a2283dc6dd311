//! Files changed on disk since the model saw them (§5.1): a snippet of the change, or a
//! note that the file is gone, emptied, too large or no longer text.

use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::FileContext;
use crate::attachment::{AttachmentKind, Collected, Verdict};
use crate::diff::diff_snippet;
use crate::file_state::{ContentDigest, Entry};
use crate::read::FileKind;
use crate::vfs::{Content, EntryKind, FsErrorKind};
use crate::wording::files::{
    self, edited_file_note, file_gone_note, ranged_change_note, too_large_change_note,
};
use crate::workspace::ReadFailure;

impl FileContext<'_> {
    /// §5.1: every watched entry whose file changed gets a snippet of the change.
    pub(crate) fn changed_files(&mut self, turn: &mut Collected) {
        if !self.rules.detect_changes {
            return;
        }
        // One pass over the entries (MRU first), not a lookup per key: the scan's cost
        // follows the number of entries, and only changed files are read.
        let entries: Vec<(String, Entry)> = self
            .workspace
            .file_state
            .entries()
            .map(|(key, entry)| (String::from(key), entry.clone()))
            .collect();
        // The original calls `get()` on every key, MRU first, before any read: the order
        // ends up reversed (Q27).
        if !self.rules.scan_without_refreshing {
            self.workspace.file_state.reverse_recency();
        }
        for (key, entry) in entries {
            self.check_changed(&key, entry, turn);
        }
    }

    fn check_changed(&mut self, key: &str, entry: Entry, turn: &mut Collected) {
        let rules = self.rules;
        if (entry.offset.is_some() || entry.limit.is_some()) && !rules.watch_ranged_entries {
            self.note_unwatched_change(key, &entry, turn);
            return;
        }
        if let Some(denial) = self.workspace.deny.check(key, &self.workspace.cwd) {
            turn.decide(
                key,
                Verdict::Denied,
                "a watched file that the permission settings deny".into(),
                Some(denial.rule),
            );
            return;
        }
        let stat = match self.workspace.vfs.stat(key) {
            Ok(stat) => stat,
            Err(error) if error.kind == FsErrorKind::NotFound => {
                self.workspace.file_state.delete(key);
                if rules.note_deleted_files {
                    turn.attach(
                        AttachmentKind::DeletedFile,
                        Some(key),
                        file_gone_note(key, "deleted"),
                        self.token_method,
                    );
                }
                turn.decide(
                    key,
                    Verdict::Evicted,
                    "the file is gone, so its entry was dropped (the original says nothing, Q38)"
                        .into(),
                    None,
                );
                return;
            }
            Err(error) => {
                let reason =
                    "the file could not be checked; its entry is kept and checked again next pass"
                        .into();
                turn.decide(key, Verdict::Failed, reason, Some(error.to_string()));
                return;
            }
        };
        if stat.kind == EntryKind::Directory {
            return;
        }
        let mtime_moved = stat.mtime_ms > entry.timestamp;
        let ranged = entry.offset.is_some() || entry.limit.is_some();
        if ranged {
            // A ranged entry holds a slice, not the file: only its mtime can say it changed.
            if mtime_moved {
                self.report_ranged_change(key, &entry, stat.mtime_ms, turn);
            }
            return;
        }
        let changed = mtime_moved || (rules.compare_contents && self.content_differs(key, &entry));
        if !changed {
            return;
        }
        self.report_change(key, &entry, turn);
    }

    /// Q31: a ranged entry is not watched. When its file did change on disk, the decision
    /// says the model is not told (an unchanged file says nothing, as on every pass).
    fn note_unwatched_change(&self, key: &str, entry: &Entry, turn: &mut Collected) {
        let changed =
            self.workspace.vfs.stat(key).is_ok_and(|stat| {
                stat.kind != EntryKind::Directory && stat.mtime_ms > entry.timestamp
            });
        if changed {
            let reason = "changed on disk, but not watched: its entry holds a line range (a \
                          Read stores one even for the whole file, Q25) and ranged entries are \
                          never checked (Q31), so the model is not told"
                .into();
            turn.decide(key, Verdict::Skipped, reason, None);
        }
    }

    /// Q31 fixed: part of the file was read and the file changed since. A snippet of the
    /// whole file would compare the slice with the file, so the note names the range to
    /// read again; the entry takes the new mtime, so it is said once per change.
    fn report_ranged_change(
        &mut self,
        key: &str,
        entry: &Entry,
        mtime_ms: u64,
        turn: &mut Collected,
    ) {
        let first = entry.offset.unwrap_or(1);
        let range = match entry.limit {
            Some(limit) => format!("lines {first} to {}", first + limit.saturating_sub(1)),
            None => format!("lines {first} to the end"),
        };
        let mut updated = entry.clone();
        updated.timestamp = mtime_ms;
        self.workspace.file_state.set(key, updated);
        turn.attach(
            AttachmentKind::EditedTextFile,
            Some(key),
            ranged_change_note(key, &range),
            self.token_method,
        );
        let reason =
            format!("changed on disk after {range} were read; the note asks to read them again");
        turn.decide(key, Verdict::Included, reason, None);
    }

    fn content_differs(&self, key: &str, entry: &Entry) -> bool {
        match self.workspace.vfs.read(key) {
            // Contents are shared, not copied: the same allocation is the same text, so an
            // untouched file costs nothing to check, whatever its size.
            Ok(Content::Text(text)) => {
                !Rc::ptr_eq(&text, &entry.content) && *text != *entry.content
            }
            Ok(Content::Binary(bytes)) => entry.digest != Some(ContentDigest::of(&bytes)),
            Err(_) => false,
        }
    }

    /// Re-reads the file as the Read tool does (overwriting the entry, Q32) and diffs.
    fn report_change(&mut self, key: &str, entry: &Entry, turn: &mut Collected) {
        let size = self.workspace.vfs.stat(key).map_or(0, |stat| stat.size);
        // Reading and diffing cost about twice the file's size.
        if !self.take_work(size.saturating_mul(2), key, turn) {
            return;
        }
        let done = match self.workspace.read_text_file(key, None, None) {
            Ok(done) => done,
            Err(ReadFailure::NotText(kind)) => {
                self.report_binary_change(key, turn, &kind);
                return;
            }
            Err(ReadFailure::Read(error)) if self.rules.note_undiffable_changes => {
                self.report_undiffable_change(key, &error.to_string(), turn);
                return;
            }
            Err(failure) => {
                let reason =
                    "the changed file could not be read; its entry is kept unchanged (Q39)".into();
                turn.decide(key, Verdict::Failed, reason, Some(failure.message()));
                return;
            }
        };
        let rules = self.rules;
        let snippet = match self.change_snippets {
            Some(snippet_rules) => diff_snippet(&entry.content, &done.text, snippet_rules),
            None => return,
        };
        self.workspace.remember_read(key, &done, None, None);
        if snippet.budget_exhausted && snippet.text.is_empty() {
            turn.decide(
                key,
                Verdict::Unchanged,
                "the diff ran out of its work budget (the original's timeout): nothing is sent"
                    .into(),
                Some(format!("work {}", snippet.work)),
            );
        } else if done.text.is_empty() && rules.note_emptied_files {
            // A short note rather than every removed line: the whole file went.
            turn.attach(
                AttachmentKind::EmptiedFile,
                Some(key),
                file_gone_note(key, "emptied"),
                self.token_method,
            );
            turn.decide(key, Verdict::Included, "the file was emptied".into(), None);
        } else if snippet.text.is_empty() {
            let reason = if snippet.final_newline_only {
                "only the final newline changed: the lines are the same, so nothing is sent (Q37 fixed)"
            } else if done.text.is_empty() {
                "the file was emptied; deleted lines are not shown, so the original sends nothing (Q35)"
            } else {
                "touched, or only lines deleted: the snippet shows nothing, so nothing is sent"
            };
            turn.decide(key, Verdict::Unchanged, reason.into(), None);
        } else {
            let marks_removals = self
                .change_snippets
                .is_some_and(|snippet_rules| snippet_rules.mark_removed_lines)
                && snippet.text.lines().any(|line| line.starts_with("-\t"));
            turn.attach(
                AttachmentKind::EditedTextFile,
                Some(key),
                edited_file_note(key, &snippet.text, marks_removals),
                self.token_method,
            );
            let hunks = match snippet.hunks {
                1 => String::from("1 hunk"),
                n => format!("{n} hunks"),
            };
            let reason = format!("changed on disk since it was read or written ({hunks})");
            turn.decide(
                key,
                Verdict::Included,
                reason,
                snippet
                    .truncated_lines
                    .map(|n| format!("{n} lines truncated")),
            );
        }
    }

    /// Q39 fixed: a change too large to diff gets a short note once. The entry takes the new
    /// text as a partial view: the change is not reported again, and the agent must read
    /// the file before it may edit it.
    fn report_undiffable_change(&mut self, key: &str, error: &str, turn: &mut Collected) {
        let (Ok(stat), Ok(Content::Text(text))) =
            (self.workspace.vfs.stat(key), self.workspace.vfs.read(key))
        else {
            return;
        };
        self.workspace
            .file_state
            .set(key, Entry::from_memory(text, stat.mtime_ms, true));
        let note = too_large_change_note(key);
        turn.attach(
            AttachmentKind::ChangedFileTooLarge,
            Some(key),
            note,
            self.token_method,
        );
        let reason = "changed on disk, but too large for the Read tool, so no snippet".into();
        turn.decide(key, Verdict::Truncated, reason, Some(error.into()));
    }

    /// An image (tracked with Q42 fixed) or a file that stopped being text.
    fn report_binary_change(&mut self, key: &str, turn: &mut Collected, kind: &FileKind) {
        let tracked =
            self.workspace.rules.file_state.track_images && matches!(kind, FileKind::Image { .. });
        let (Ok(stat), Ok(content)) = (self.workspace.vfs.stat(key), self.workspace.vfs.read(key))
        else {
            return;
        };
        let entry = tracked
            .then(|| {
                Entry::from_image_read(
                    content.as_bytes(),
                    stat.mtime_ms,
                    &self.workspace.rules.file_state,
                )
            })
            .flatten();
        match entry {
            Some(entry) => {
                self.workspace.file_state.set(key, entry);
                let note = files::edited_image_note(key);
                turn.attach(
                    AttachmentKind::EditedImageFile,
                    Some(key),
                    note,
                    self.token_method,
                );
                turn.decide(
                    key,
                    Verdict::Included,
                    "a tracked image changed (Q42 fixed)".into(),
                    None,
                );
            }
            None => {
                let reason = format!("the file is not text ({kind:?}): nothing is sent (an edited image renders to nothing, Q42)");
                turn.decide(key, Verdict::Skipped, reason, None);
            }
        }
    }
}
