//! The agent's Read, Edit and Write tools over the workspace (spec §3.1–3.6, §4.4–4.5).

use alloc::format;
use alloc::rc::Rc;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::Workspace;
use crate::file_state::Entry;
use crate::read::{
    classify, plan_image, read_text, FileKind, ImageInfo, ReadError, ReadRequest, TextRead,
};
use crate::vfs::{Content, EntryKind, FsError, FsErrorKind, Stat, Syscall};
use crate::wording::files::{malware_reminder, not_text_error, not_utf8_error, FILE_MISSING};
use crate::wording::tools;
use crate::Error;

/// What a tool returns to the model.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ToolResult {
    /// The call failed; `content` says why.
    pub is_error: bool,
    /// The tool's output.
    pub content: String,
}

impl ToolResult {
    pub(crate) fn ok(content: String) -> ToolResult {
        ToolResult {
            is_error: false,
            content,
        }
    }

    pub(crate) fn error(content: String) -> ToolResult {
        ToolResult {
            is_error: true,
            content,
        }
    }
}

pub use crate::read::FILE_UNCHANGED_STUB;

/// Why a text read over the VFS produced no text.
#[derive(Debug)]
pub(crate) enum ReadFailure {
    /// The file system refused (missing, transient error, a directory).
    Fs(FsError),
    /// The Read tool refused (too large, too many tokens, binary extension, device).
    Read(ReadError),
    /// The file is an image, a PDF, a notebook or not UTF-8.
    NotText(FileKind),
}

impl ReadFailure {
    pub(crate) fn message(&self) -> String {
        match self {
            ReadFailure::Fs(error) if error.kind == FsErrorKind::NotFound => FILE_MISSING.into(),
            ReadFailure::Fs(error) => error.to_string(),
            ReadFailure::Read(error) => error.to_string(),
            ReadFailure::NotText(FileKind::NotUtf8 { valid_up_to }) => not_utf8_error(*valid_up_to),
            ReadFailure::NotText(kind) => not_text_error(&format!("{kind:?}")),
        }
    }
}

/// A successful text read: the tool's result, the whole file's shared text, its stat.
pub(crate) struct TextFileRead {
    pub(crate) read: TextRead,
    pub(crate) text: Rc<str>,
    pub(crate) stat: Stat,
}

impl Workspace {
    /// The Read tool's text path over the VFS (no deny check, no state written).
    pub(crate) fn read_text_file(
        &self,
        abs: &str,
        offset: Option<u64>,
        limit: Option<i64>,
    ) -> Result<TextFileRead, ReadFailure> {
        self.read_text_with(abs, offset, limit, &self.rules.read)
    }

    /// A whole-file read within other limits (the post-compact restore reads within 5,000
    /// tokens, §9.4).
    pub(crate) fn read_text_file_within(
        &self,
        abs: &str,
        limits: crate::read::ReadLimits,
    ) -> Result<TextFileRead, ReadFailure> {
        let mut rules = self.rules.read.clone();
        rules.limits = limits;
        self.read_text_with(abs, None, None, &rules)
    }

    fn read_text_with(
        &self,
        abs: &str,
        offset: Option<u64>,
        limit: Option<i64>,
        rules: &crate::read::ReadRules,
    ) -> Result<TextFileRead, ReadFailure> {
        let stat = self.vfs.stat(abs).map_err(ReadFailure::Fs)?;
        if stat.kind == EntryKind::Directory {
            return Err(ReadFailure::Fs(FsError {
                kind: FsErrorKind::IsDirectory,
                syscall: Syscall::Read,
                path: abs.into(),
                dest: None,
            }));
        }
        let content = self.vfs.read(abs).map_err(ReadFailure::Fs)?;
        match classify(abs, content.as_bytes()).map_err(ReadFailure::Read)? {
            FileKind::Text => {}
            other => return Err(ReadFailure::NotText(other)),
        }
        let Content::Text(text) = content else {
            return Err(ReadFailure::NotText(FileKind::NotUtf8 { valid_up_to: 0 }));
        };
        let extension = abs.rsplit_once('.').map(|(_, ext)| ext);
        let request = ReadRequest {
            offset,
            limit,
            extension,
        };
        let read = read_text(&text, &request, rules).map_err(ReadFailure::Read)?;
        Ok(TextFileRead { read, text, stat })
    }

    /// Files a compaction restored, remembered as full reads; with `drop_triggers` the
    /// nested-memory triggers their reads add are dropped (they were another context's).
    pub(crate) fn remember_restored(
        &mut self,
        reads: Vec<(String, TextFileRead)>,
        drop_triggers: bool,
    ) {
        let kept_triggers = drop_triggers.then(|| self.memory_triggers.clone());
        for (abs, done) in reads {
            self.remember_read(&abs, &done, Some(1), None);
        }
        if let Some(triggers) = kept_triggers {
            self.memory_triggers = triggers;
        }
    }

    /// Writes what a Read saw into the read-file state and registers the nested-memory
    /// trigger every Read adds (§3.4, §8.1).
    pub(crate) fn remember_read(
        &mut self,
        abs: &str,
        done: &TextFileRead,
        offset: Option<u64>,
        limit: Option<i64>,
    ) {
        let content = done.read.slice.share(&done.text);
        let entry = Entry::from_read(
            content,
            done.stat.mtime_ms,
            offset,
            limit,
            &self.rules.file_state,
        );
        self.file_state.set(abs, entry);
        self.add_memory_trigger(abs);
    }

    /// The agent's Read tool (§3): a numbered text, the unchanged-file stub, or an error the
    /// model sees.
    ///
    /// # Errors
    /// Only for a path that cannot be used at all (NUL, above the root).
    pub fn read(
        &mut self,
        path: &str,
        offset: Option<u64>,
        limit: Option<i64>,
        _at_ms: u64,
    ) -> Result<ToolResult, Error> {
        let abs = self.expand(path)?;
        if let Some(denial) = self.deny.check(&abs, &self.cwd) {
            return Ok(ToolResult::error(tools::read_denied(&abs, &denial.rule)));
        }
        if self.is_unchanged_reread(&abs, offset, limit) && self.rules.read.unchanged_stub {
            return Ok(ToolResult::ok(FILE_UNCHANGED_STUB.into()));
        }
        match self.read_text_file(&abs, offset, limit) {
            Ok(done) => {
                let mut content = done.read.text.clone();
                if done.read.notice.is_none() && self.rules.read.malware_note {
                    content.push_str(&malware_reminder());
                }
                self.remember_read(&abs, &done, offset, limit);
                Ok(ToolResult::ok(content))
            }
            Err(ReadFailure::NotText(FileKind::Image { info })) => Ok(self.read_image(&abs, info)),
            Err(failure) => Ok(ToolResult::error(failure.message())),
        }
    }

    /// An image read by the tool: the model gets the image (described here), and the
    /// read-file state gets nothing unless images are tracked (Q42).
    fn read_image(&mut self, abs: &str, info: Option<ImageInfo>) -> ToolResult {
        let (Ok(stat), Ok(content)) = (self.vfs.stat(abs), self.vfs.read(abs)) else {
            return ToolResult::error(tools::unreadable(abs));
        };
        let plan = plan_image(info.as_ref(), stat.size, &self.rules.read);
        if let Some(entry) =
            Entry::from_image_read(content.as_bytes(), stat.mtime_ms, &self.rules.file_state)
        {
            self.file_state.set(abs, entry);
        }
        self.add_memory_trigger(abs);
        ToolResult::ok(tools::image_read(abs, plan.tokens()))
    }

    /// §3.4's de-duplication: a full view with a defined offset, the same offset and limit,
    /// and a timestamp equal to the file's mtime.
    fn is_unchanged_reread(&mut self, abs: &str, offset: Option<u64>, limit: Option<i64>) -> bool {
        // The original looks the entry up with `get()`, which makes it the most recently used
        // whether or not the stub is sent: a re-read moves the file ahead of the others in
        // the post-compact restore's tie order (§9.4 step 3, Q27).
        let Some(entry) = self.file_state.get(abs).cloned() else {
            return false;
        };
        let Ok(stat) = self.vfs.stat(abs) else {
            return false;
        };
        // A full Read stored without an offset (Q25 fixed) is the same view as offset 1.
        let requested = (
            offset.unwrap_or(1),
            limit.map(|l| u64::try_from(l).unwrap_or(0)),
        );
        let stored = (entry.offset.unwrap_or(1), entry.limit);
        !entry.is_partial_view
            && entry.from_read
            && stored == requested
            && entry.timestamp == stat.mtime_ms
    }

    /// The agent's Edit tool: replaces the one occurrence of `old` with `new` (§4.5).
    ///
    /// # Errors
    /// Only for a path that cannot be used at all.
    pub fn edit(
        &mut self,
        path: &str,
        old: &str,
        new: &str,
        at_ms: u64,
    ) -> Result<ToolResult, Error> {
        let abs = self.expand(path)?;
        if let Some(refusal) = self.write_refusal(&abs) {
            return Ok(refusal);
        }
        let (current, view) = match self.text_to_change(&abs) {
            Ok(found) => found,
            Err(refusal) => return Ok(ToolResult::error(refusal)),
        };
        let matches = if old.is_empty() {
            0
        } else {
            current.matches(old).count()
        };
        if matches != 1 {
            return Ok(ToolResult::error(tools::edit_not_unique(&abs, matches)));
        }
        let updated = current.replacen(old, new, 1);
        if let Err(refusal) = self.store_agent_write(&abs, updated, at_ms) {
            return Ok(ToolResult::error(refusal));
        }
        let written = tools::file_written(&abs, false);
        let note = match view {
            _ if self.rules.file_state.writes_need_read => None,
            View::Stale => Some(tools::EDITED_FILE_CHANGED_ON_DISK),
            View::Complete => Some(tools::VIEW_IS_CURRENT),
            View::Unread | View::Partial => None,
        };
        Ok(ToolResult::ok(match note {
            Some(note) => format!("{written} {note}"),
            None => written,
        }))
    }

    /// The agent's Write tool: creates a file, or replaces one it has read (§4.5).
    ///
    /// # Errors
    /// Only for a path that cannot be used at all.
    pub fn write(&mut self, path: &str, content: &str, at_ms: u64) -> Result<ToolResult, Error> {
        let abs = self.expand(path)?;
        if let Some(refusal) = self.write_refusal(&abs) {
            return Ok(refusal);
        }
        let exists = self.vfs.stat(&abs).is_ok();
        if exists {
            // Write replaces what it cannot see, so a change since the read refuses it
            // under either rule.
            let refusal = match self.text_to_change(&abs) {
                Ok((_, View::Stale)) => Some(tools::changed_since_read(&abs)),
                Err(refusal) if self.rules.file_state.writes_need_read => Some(refusal),
                _ => None,
            };
            if let Some(refusal) = refusal {
                return Ok(ToolResult::error(refusal));
            }
        }
        if let Err(refusal) = self.store_agent_write(&abs, content.into(), at_ms) {
            return Ok(ToolResult::error(refusal));
        }
        let written = tools::file_written(&abs, !exists);
        Ok(ToolResult::ok(
            match self.rules.file_state.writes_need_read {
                true => written,
                false => format!("{written} {}", tools::VIEW_IS_CURRENT),
            },
        ))
    }

    /// With `refuse_writes_to_denied_files`, the one answer Edit and Write give for a path
    /// the Read deny rules cover, decided before the file is looked at: whether it exists
    /// or holds the text to replace must not change what the model is told.
    fn write_refusal(&self, abs: &str) -> Option<ToolResult> {
        if !self.rules.refuse_writes_to_denied_files {
            return None;
        }
        let denial = self.deny.check(abs, &self.cwd)?;
        Some(ToolResult::error(tools::write_denied(abs, &denial.rule)))
    }

    /// The file's text on disk and how the agent's read-file state sees it (§4.5). With
    /// `writes_need_read`, a file not read (fully untransformed) or changed since is
    /// refused: error codes 6 and 7, in that order.
    fn text_to_change(&self, abs: &str) -> Result<(Rc<str>, View), String> {
        let need_read = self.rules.file_state.writes_need_read;
        let entry = self.file_state.peek(abs).filter(|e| !e.is_partial_view);
        if need_read && entry.is_none() {
            return Err(tools::not_read_yet(abs));
        }
        let stat = self.vfs.stat(abs).map_err(|error| error.to_string())?;
        let content = self.vfs.read(abs).map_err(|error| error.to_string())?;
        let Content::Text(text) = content else {
            return Err(tools::not_text(abs));
        };
        let view = entry.map_or(View::Unread, |entry| {
            // The Windows timestamp-churn fallback: a full view whose text equals the
            // disk's is not stale.
            let same_full_view = entry.is_full_view() && *entry.content == *text;
            let whole_file = entry.limit.is_none() && entry.offset.is_none_or(|o| o <= 1);
            match () {
                _ if stat.mtime_ms > entry.timestamp && !same_full_view => View::Stale,
                _ if whole_file => View::Complete,
                _ => View::Partial,
            }
        });
        if need_read && view == View::Stale {
            return Err(tools::changed_since_read(abs));
        }
        Ok((text, view))
    }

    /// A write by an agent tool that keeps no read-before-write rule (Codex's
    /// `apply_patch`): the file is stored and tracked as the agent's edit; a write the file
    /// system refuses is the tool's error message.
    ///
    /// # Errors
    /// A path that cannot be used at all.
    pub fn agent_write(
        &mut self,
        path: &str,
        text: String,
        at_ms: u64,
    ) -> Result<Result<(), String>, Error> {
        let abs = self.expand(path)?;
        Ok(self.store_agent_write(&abs, text, at_ms))
    }

    /// A write the file system refuses (too large, no space left) is the tool's error
    /// message for the model, and changes nothing.
    fn store_agent_write(&mut self, abs: &str, text: String, at_ms: u64) -> Result<(), String> {
        let text: Rc<str> = text.into();
        self.vfs
            .write_file(abs, Content::Text(text.clone()), at_ms)
            .map_err(|error| error.to_string())?;
        self.file_state.set(abs, Entry::from_edit(text, at_ms));
        self.edited.insert(abs.into());
        if self.rules.memory.trigger_on_writes {
            self.add_memory_trigger(abs);
        }
        Ok(())
    }
}

/// How the agent's read-file state sees a file it is about to change.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum View {
    /// Never read, or seen only transformed (a stripped `CLAUDE.md`).
    Unread,
    /// Changed on disk since the agent's view of it.
    Stale,
    /// A ranged read, current.
    Partial,
    /// The whole file, current.
    Complete,
}
