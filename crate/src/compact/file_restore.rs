//! The post-compact file restore (§9.4): which files of the pre-compact read-file state are
//! read again, within which limits, and how a restored or re-attached file is rendered. The
//! selection rule itself is [`super::restore::select_restores`]; this unit gathers its
//! candidates from the workspace and attaches what it chose.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::restore::{select_restores, select_skills, RestoreBudget, RestoreCandidate};
use super::rules::CompactionRules;
use super::summary::json;
use crate::attachment::{AttachmentKind, Collected, Verdict};
use crate::read::{ReadError, ReadLimits};
use crate::tokens::{estimate_tokens, TokenMethod};
use crate::transcript::{AssistantBlock, Message, Record};
use crate::vfs::Content;
use crate::wording::files::{call_note, malware_reminder, tool_result};
use crate::wording::{self, json_string};
use crate::workspace::{ReadFailure, TextFileRead, Workspace, FILE_UNCHANGED_STUB};

/// Tokens a restored file may take when it is read (`fileReadingLimits.maxTokens`).
const RESTORE_READ_MAX_TOKENS: u64 = 5_000;

/// How a file reads for the restore.
enum RestoreRead {
    Fits(TextFileRead),
    TooLarge,
    Unreadable,
}

/// A restore candidate's read and sizes (see [`RestoreCandidate`]).
struct SizedCandidate {
    read: Option<TextFileRead>,
    content_tokens: u64,
    tokens_rendered: u64,
    record_json_tokens: u64,
    readable: bool,
}

/// What the file restore reads: the workspace after the compaction and the profile's rules.
pub(crate) struct FileRestore<'a> {
    /// The files, the deny rules and the read-file state.
    pub(crate) workspace: &'a Workspace,
    /// How attachments are counted.
    pub(crate) token_method: TokenMethod,
    /// The restore's budgets and switches.
    pub(crate) compaction: &'a CompactionRules,
    /// A restored file carries the malware note, as a mention's does (Q23).
    pub(crate) malware_note: bool,
    /// A file's call and result go as two messages (the original's form).
    pub(crate) file_parts_as_messages: bool,
    /// The auto-memory directory, expanded (its files are memory, not restored).
    pub(crate) auto_memory_dir: Option<String>,
    /// The plan file's absolute path (restored by its own reference, not here).
    pub(crate) plan_file: String,
    /// What the restored files may take.
    pub(crate) budget: RestoreBudget,
}

impl FileRestore<'_> {
    /// §9.4: up to five files of the pre-compact file state (`(key, timestamp, stamp
    /// order)`, most recently used first), read again within 5,000 tokens each.
    pub(crate) fn restore_files(
        &self,
        file_state: &[(String, u64, u32)],
        kept: &[Message],
        out: &mut Collected,
    ) -> Vec<(String, TextFileRead)> {
        let preserved: Vec<String> = preserved_read_paths(kept)
            .iter()
            .filter_map(|path| self.workspace.expand(path).ok())
            .collect();
        let count = file_state.len() as u64;
        let auto_memory_dir = self.auto_memory_dir.as_deref();
        let mut reads: Vec<(String, Option<TextFileRead>)> = Vec::new();
        let mut candidates = Vec::new();
        for (rank, (path, timestamp, stamp_order)) in file_state.iter().cloned().enumerate() {
            let sized = self.restore_candidate(&path);
            candidates.push(RestoreCandidate {
                timestamp,
                stamp_order,
                last_access: count - rank as u64,
                is_memory_file: is_memory_path(&path, auto_memory_dir),
                was_edited: self.workspace.edited.contains(&path),
                content_tokens: sized.content_tokens,
                tokens_rendered: sized.tokens_rendered,
                record_json_tokens: sized.record_json_tokens,
                readable: sized.readable,
                preserved_in_tail: preserved.contains(&path),
                path: path.clone(),
            });
            reads.push((path, sized.read));
        }
        let plan_file = &self.plan_file;
        let selection = select_restores(
            &candidates,
            &self.exact_memory_paths(),
            Some(plan_file),
            self.compaction,
            self.budget,
        );
        out.decisions.extend(selection.decisions);
        let method = self.token_method;
        let malware_note = self.malware_note;
        let mut remembered = Vec::new();
        // In the ranking's order, a reference in its file's place (§9.4 steps 3-4).
        for path in &selection.order {
            if selection.references.iter().any(|(p, _)| p == path) {
                out.attach(
                    AttachmentKind::CompactFileReference,
                    Some(path),
                    wording::compaction::compact_file_reference(path),
                    method,
                );
                continue;
            }
            let Some(done) = reads
                .iter_mut()
                .find(|(p, _)| p == path)
                .and_then(|(_, read)| read.take())
            else {
                continue;
            };
            let apart = self.file_parts_as_messages;
            out.attach_parts(
                AttachmentKind::File,
                Some(path),
                &restored_parts(path, &done, malware_note),
                apart,
                method,
            );
            remembered.push((path.clone(), done));
        }
        remembered
    }

    /// `plan_file_reference` when the plan file exists (§9.5). The original reads the plan
    /// with no deny check; `deny_plan_file` adds one.
    pub(crate) fn plan_file_reference(&self, out: &mut Collected) {
        let path = &self.plan_file;
        if !self.workspace.is_file(path) {
            return;
        }
        let denial = self.workspace.deny.check(path, &self.workspace.cwd);
        if let Some(denial) = denial.as_ref().filter(|_| self.compaction.deny_plan_file) {
            out.decide(
                "plan file",
                Verdict::Denied,
                "the plan file exists, but the permission settings deny reading it: no \
                 reference follows the summary (§9.5 fixed)"
                    .into(),
                Some(denial.rule.clone()),
            );
            return;
        }
        let Ok(Content::Text(content)) = self.workspace.vfs.read(path) else {
            return;
        };
        let text = wording::compaction::plan_file_reference(path, &content);
        out.attach(
            AttachmentKind::PlanFileReference,
            Some(path),
            text,
            self.token_method,
        );
        let reason = match denial {
            None => {
                "the plan file exists: a reference with its contents follows the summary".into()
            }
            Some(denial) => format!(
                "the plan file exists: a reference with its contents follows the summary, \
                 although {} covers it, because the original reads the plan with no deny \
                 check (§9.5)",
                denial.rule
            ),
        };
        out.decide("plan file", Verdict::Included, reason, Some(path.clone()));
    }

    /// `invoked_skills` (§9.5): the skills the model invoked (`(name, content)`, oldest
    /// first), newest first, each within 5,000 tokens, 25,000 in all.
    pub(crate) fn invoked_skills(&self, invoked: &[(String, String)], out: &mut Collected) {
        if invoked.is_empty() {
            return;
        }
        let newest_first: Vec<(String, String)> = invoked.iter().rev().cloned().collect();
        let selection = select_skills(&newest_first, self.token_method);
        out.decisions.extend(selection.decisions);
        if selection.skills.is_empty() {
            return;
        }
        let skills: Vec<String> = (selection.skills.iter())
            .map(|(name, content, _)| {
                let path = self.workspace.skill_path(name);
                wording::compaction::invoked_skill(name, &path, content)
            })
            .collect();
        let text = wording::compaction::invoked_skills(&skills);
        out.attach(AttachmentKind::InvokedSkills, None, text, self.token_method);
    }

    /// The host's pinned files, attached again (ours: `reinsert_pinned`).
    pub(crate) fn pinned_files(&self, pinned: &[String], out: &mut Collected) {
        for path in pinned {
            let reason = "pinned by the host: attached again after the summary";
            self.reattach_file(path, reason, out);
        }
    }

    /// One restore candidate: the read (when it fits), its content's tokens, what its
    /// attachment (the file, or the reference when it is too large) costs rendered and as a
    /// record, and whether the file can be read at all. A file too large to read counts one
    /// token over the limit at least, which makes it a reference.
    fn restore_candidate(&self, abs: &str) -> SizedCandidate {
        let method = self.token_method;
        let record = |kind: &str, field: &str, text: &str| {
            let json = format!(
                "{{\"type\":\"{kind}\",\"filename\":{},\"{field}\":{}}}",
                json_string(abs),
                json_string(text)
            );
            estimate_tokens(&json, method, None)
        };
        match self.restore_read(abs) {
            RestoreRead::Fits(done) => {
                let text = restored_text(abs, &done);
                let extension = abs.rsplit_once('.').map(|(_, ext)| ext);
                let content = done.read.slice.as_str(&done.text);
                SizedCandidate {
                    content_tokens: estimate_tokens(
                        content,
                        self.workspace.rules.read.token_method,
                        extension,
                    ),
                    tokens_rendered: estimate_tokens(&text, method, None),
                    record_json_tokens: record("file", "content", &text),
                    readable: true,
                    read: Some(done),
                }
            }
            RestoreRead::TooLarge => {
                let text = wording::compaction::compact_file_reference(abs);
                SizedCandidate {
                    content_tokens: self.whole_file_tokens(abs).max(RESTORE_READ_MAX_TOKENS + 1),
                    tokens_rendered: estimate_tokens(&text, method, None),
                    record_json_tokens: record(
                        "compact_file_reference",
                        "displayPath",
                        &crate::path::relative(&self.workspace.cwd, abs),
                    ),
                    readable: true,
                    read: None,
                }
            }
            RestoreRead::Unreadable => SizedCandidate {
                content_tokens: 0,
                tokens_rendered: 0,
                record_json_tokens: 0,
                readable: false,
                read: None,
            },
        }
    }

    /// The estimate of a whole text file, for the reason a file is too large to restore.
    fn whole_file_tokens(&self, abs: &str) -> u64 {
        match self.workspace.vfs.read(abs) {
            Ok(crate::vfs::Content::Text(text)) => estimate_tokens(&text, self.token_method, None),
            _ => 0,
        }
    }

    /// The file as a restore reads it: whole, within 256 KiB and 5,000 tokens.
    fn restore_read(&self, abs: &str) -> RestoreRead {
        if self.is_denied(abs) {
            return RestoreRead::Unreadable;
        }
        let mut limits: ReadLimits = self.workspace.rules.read.limits.clone();
        limits.max_tokens = RESTORE_READ_MAX_TOKENS;
        match self.workspace.read_text_file_within(abs, limits) {
            Ok(done) => RestoreRead::Fits(done),
            Err(ReadFailure::Read(
                ReadError::FileTooLarge { .. } | ReadError::MaxFileReadTokenExceeded { .. },
            )) => RestoreRead::TooLarge,
            Err(_) => RestoreRead::Unreadable,
        }
    }

    /// Reads `path` within the restore's limits and attaches it, saying `reason`; a file
    /// that cannot be read that way is a failed decision.
    pub(crate) fn reattach_file(&self, path: &str, reason: &str, out: &mut Collected) {
        let subject = format!("re-attach {path}");
        let Ok(abs) = self.workspace.expand(path) else {
            out.decide(
                &subject,
                Verdict::Failed,
                "the path cannot be used".into(),
                None,
            );
            return;
        };
        match self.restore_read(&abs) {
            RestoreRead::Fits(done) => {
                let malware_note = self.malware_note;
                let parts = restored_parts(&abs, &done, malware_note);
                let apart = self.file_parts_as_messages;
                out.attach_parts(
                    AttachmentKind::File,
                    Some(&abs),
                    &parts,
                    apart,
                    self.token_method,
                );
                out.decide(&subject, Verdict::Included, reason.into(), Some(abs));
            }
            _ => out.decide(
                &subject,
                Verdict::Failed,
                "it cannot be read within 5,000 tokens (missing, denied, binary or too large)"
                    .into(),
                Some(abs),
            ),
        }
    }

    fn is_denied(&self, abs: &str) -> bool {
        self.workspace
            .deny
            .check(abs, &self.workspace.cwd)
            .is_some()
    }

    /// The memory paths the original excludes from the restore, by exact match (§9.4 item 2).
    fn exact_memory_paths(&self) -> Vec<String> {
        let home = self.workspace.home.trim_end_matches('/');
        let cwd = self.workspace.cwd.trim_end_matches('/');
        let mut paths = Vec::from([
            format!("{home}/.claude/CLAUDE.md"),
            format!("{cwd}/CLAUDE.md"),
            format!("{cwd}/CLAUDE.local.md"),
            String::from("/etc/claude-code/CLAUDE.md"),
        ]);
        if let Some(dir) = &self.auto_memory_dir {
            paths.push(format!("{}/MEMORY.md", dir.trim_end_matches('/')));
        }
        if self.compaction.exclude_ancestor_memory_files {
            let mut dir = cwd;
            while let Some(slash) = dir.rfind('/') {
                dir = &dir[..slash];
                paths.push(format!("{dir}/CLAUDE.md"));
                paths.push(format!("{dir}/CLAUDE.local.md"));
            }
        }
        paths
    }
}

/// A restored file, rendered like an @-mentioned one (§3.11, §9.4 item 6): the call note,
/// then the result, which carries the malware note as a mention's does when `malware_note`
/// (Q23: the profile's `malware_reminder_in_attachments`).
fn restored_parts(abs: &str, done: &TextFileRead, malware_note: bool) -> [String; 2] {
    let input = format!("{{\"file_path\":{}}}", json_string(abs));
    let mut output = done.read.text.clone();
    if malware_note && done.read.notice.is_none() {
        output.push_str(&malware_reminder());
    }
    [call_note("Read", &input), tool_result("Read", &output)]
}

/// The restored file's text as one block, without the malware note: what its budget
/// measures, since the original's budget measures the attachment's record, which holds the
/// file and not the note added when it is rendered (§6.5).
fn restored_text(abs: &str, done: &TextFileRead) -> String {
    restored_parts(abs, done, false).join("\n")
}

/// Paths of the Reads among `kept` whose results show the file (§9.4 item 1).
fn preserved_read_paths(kept: &[Message]) -> Vec<String> {
    let mut calls: Vec<(&str, String)> = Vec::new();
    let mut paths = Vec::new();
    for message in kept {
        match &message.record {
            Record::Assistant {
                block: AssistantBlock::ToolUse(call),
                ..
            } if call.name == "Read" => {
                if let Some(path) = json::parse(&call.input).and_then(|v| {
                    v.get("file_path")
                        .and_then(|p| p.as_str().map(String::from))
                }) {
                    calls.push((call.id.as_str(), path));
                }
            }
            Record::ToolResults { results } => {
                for result in results {
                    let shows_file = !result.content.starts_with(FILE_UNCHANGED_STUB);
                    if let Some((_, path)) = calls.iter().find(|(id, _)| *id == result.tool_use_id)
                    {
                        if shows_file && !paths.contains(path) {
                            paths.push(path.clone());
                        }
                    }
                }
            }
            _ => {}
        }
    }
    paths
}

/// A file of the auto-memory directory `dir` (expanded).
pub fn is_auto_memory(abs: &str, dir: Option<&str>) -> bool {
    dir.is_some_and(|dir| abs.starts_with(&format!("{}/", dir.trim_end_matches('/'))))
}

/// A memory file at any level: CLAUDE.md, CLAUDE.local.md, a rule, an auto-memory file.
pub fn is_memory_path(abs: &str, auto_memory_dir: Option<&str>) -> bool {
    let name = abs.rsplit('/').next().unwrap_or(abs);
    name == "CLAUDE.md"
        || name == "CLAUDE.local.md"
        || (abs.contains("/.claude/rules/") && name.ends_with(".md"))
        || is_auto_memory(abs, auto_memory_dir)
}
