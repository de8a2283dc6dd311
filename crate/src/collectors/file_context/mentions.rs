//! Phase 1 of a human turn: the prompt's @-mentions become attachments (spec §3.7–3.11,
//! §1.6–1.7), and everything that does not is a decision.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::{FileContext, FileContextRules};
use crate::attachment::{AttachmentKind, Collected, Verdict};
use crate::file_state::{Entry, FileStateCache};
use crate::mention::{extract_mentions, FileMention};
use crate::read::{
    format_file_size, list_directory, mention_window, plan_image, plan_pdf, DirEntry, FileKind,
    ImageInfo, PdfOutcome, ReadError,
};
use crate::vfs::{EntryKind, FsErrorKind, Stat};
use crate::wording::files::{
    self, agent_note, call_note, malware_reminder, mcp_resource_note, pdf_reference_note,
    tool_result, truncation_note,
};
use crate::wording::json_string;
use crate::workspace::{ReadFailure, TextFileRead};

/// The largest file (bytes on disk) a re-mention can find already in context under
/// `already_read_small_whole_files_only`: 4 KiB, the lab's probe of Claude Code 2.1.332
/// (4,096 bytes left out, 4,097 sent again, multi-byte text counted in bytes).
pub(crate) const ALREADY_READ_MAX_BYTES: u64 = 4096;

/// Lines the truncated fallback reads (`MAX_LINES_TO_READ`, §3.1).
const TRUNCATED_READ_LINES: i64 = 2000;

impl FileContext<'_> {
    /// Every mention of the prompt, in the original's order: files, MCP resources, agents.
    pub(crate) fn mentioned_files(&mut self, prompt: &str, turn: &mut Collected) {
        let mentions = extract_mentions(prompt, self.mentions);
        // Q2: the original reads a prompt's mentions in parallel, each checking "already
        // read" before any has recorded its read, so each one sees the state of before.
        let state_before = (self.rules.mentions_checked_together && mentions.files.len() > 1)
            .then(|| self.workspace.file_state.clone());
        for file in &mentions.files {
            let subject = format!("@{}", file.raw);
            if self.rules.attach_mentioned_files {
                self.mentioned_file(&subject, file, state_before.as_ref(), turn);
            } else {
                turn.decide(
                    &subject,
                    Verdict::Skipped,
                    "a mention is the path as plain text in the prompt; the model reads the \
                     file with its own tools (spec/codex.md X24)"
                        .into(),
                    None,
                );
            }
        }
        for mcp in &mentions.mcp_resources {
            let subject = format!("@{}", mcp.raw);
            let found = self
                .mcp_resources
                .iter()
                .find(|r| r.server == mcp.server && r.uri == mcp.uri);
            match found {
                Some(resource) => {
                    let text = mcp_resource_note(
                        &resource.server,
                        &resource.uri,
                        resource.text.as_deref(),
                    );
                    turn.attach(AttachmentKind::McpResource, None, text, self.token_method);
                    turn.decide(
                        &subject,
                        Verdict::Included,
                        "a resource of a connected MCP server".into(),
                        None,
                    );
                }
                None => turn.decide(
                    &subject,
                    Verdict::NotFound,
                    format!(
                        "no connected MCP server \"{}\" lists the resource \"{}\"",
                        mcp.server, mcp.uri
                    ),
                    None,
                ),
            }
        }
        for agent in &mentions.agents {
            let subject = format!("@{}", agent.raw);
            if self.agents.contains(&agent.agent_type) {
                turn.attach(
                    AttachmentKind::AgentMention,
                    None,
                    agent_note(&agent.agent_type),
                    self.token_method,
                );
                turn.decide(
                    &subject,
                    Verdict::Included,
                    format!("the agent \"{}\" exists", agent.agent_type),
                    None,
                );
            } else {
                turn.decide(
                    &subject,
                    Verdict::NotFound,
                    format!("no agent of type \"{}\" is defined", agent.agent_type),
                    None,
                );
            }
        }
    }

    /// One file mention; `state_before` is the read-file state "already read" is checked
    /// against when it is not the current one (Q2).
    fn mentioned_file(
        &mut self,
        subject: &str,
        file: &FileMention,
        state_before: Option<&FileStateCache>,
        turn: &mut Collected,
    ) {
        if let Some(problem) = &file.problem {
            turn.decide(subject, Verdict::Failed, problem.clone(), None);
            return;
        }
        let abs = match self.workspace.expand(&file.path) {
            Ok(abs) => abs,
            Err(error) => {
                turn.decide(subject, Verdict::Failed, error.to_string(), None);
                return;
            }
        };
        if let Some(denial) = self.workspace.deny.check(&abs, &self.workspace.cwd) {
            let reason = format!("{abs} is denied by the permission settings");
            turn.decide(subject, Verdict::Denied, reason, Some(denial.rule));
            if self.rules.denied_mentions_load_memory && self.workspace.vfs.stat(&abs).is_ok() {
                self.workspace.add_memory_trigger(&abs);
            }
            return;
        }
        match self.workspace.vfs.stat(&abs) {
            Ok(stat) if stat.kind == EntryKind::Directory => {
                self.mentioned_directory(subject, &abs, turn)
            }
            Ok(stat) => self.mentioned_regular_file(subject, &abs, &stat, file, state_before, turn),
            Err(error) if error.kind == FsErrorKind::NotFound => {
                turn.decide(
                    subject,
                    Verdict::NotFound,
                    format!("{abs} does not exist"),
                    None,
                );
            }
            Err(error) => turn.decide(
                subject,
                Verdict::Failed,
                format!("{abs} could not be read"),
                Some(error.to_string()),
            ),
        }
    }

    /// A directory: a simulated `ls` call and its listing (§3.8, §3.11).
    fn mentioned_directory(&mut self, subject: &str, abs: &str, turn: &mut Collected) {
        let entries = match self.workspace.vfs.list_dir(abs) {
            Ok(entries) => entries,
            Err(error) => {
                turn.decide(
                    subject,
                    Verdict::Failed,
                    format!("{abs} could not be listed"),
                    Some(error.to_string()),
                );
                return;
            }
        };
        let found = entries.len();
        let mut entries = entries;
        if self.rules.hide_denied_entries {
            let dir = abs.trim_end_matches('/');
            entries.retain(|entry| {
                let path = format!("{dir}/{}", entry.name);
                self.workspace
                    .deny
                    .check(&path, &self.workspace.cwd)
                    .is_none()
            });
        }
        let hidden = found - entries.len();
        if hidden > 0 {
            turn.decide(
                subject,
                Verdict::Denied,
                format!(
                    "{hidden} entries of {abs} are denied by the permission settings and left \
                     out of its listing"
                ),
                None,
            );
        }
        let listed: Vec<DirEntry<'_>> = entries
            .iter()
            .map(|entry| DirEntry {
                name: &entry.name,
                is_dir: entry.kind == EntryKind::Directory,
            })
            .collect();
        let listing = list_directory(&listed, &self.workspace.rules.read);
        let command = format!("ls {}", shell_quote(abs));
        let input = format!(
            "{{\"command\":{},\"description\":{}}}",
            json_string(&command),
            json_string(&files::list_directory_description(abs))
        );
        let parts = [
            call_note("Bash", &input),
            tool_result("Bash", listing.trim_end()),
        ];
        let apart = self.file_parts_as_messages;
        turn.attach_parts(
            AttachmentKind::Directory,
            Some(abs),
            &parts,
            apart,
            self.token_method,
        );
        let shown = entries
            .len()
            .min(self.workspace.rules.read.limits.max_dir_entries);
        let reason = format!("a directory: {shown} of {} entries listed", entries.len());
        turn.decide(subject, Verdict::Included, reason, None);
    }

    fn mentioned_regular_file(
        &mut self,
        subject: &str,
        abs: &str,
        stat: &Stat,
        file: &FileMention,
        state_before: Option<&FileStateCache>,
        turn: &mut Collected,
    ) {
        if !self.take_work(stat.size, subject, turn) {
            return;
        }
        let is_pdf = abs.to_ascii_lowercase().ends_with(".pdf");
        let max = self.workspace.rules.read.limits.max_size_bytes;
        let ranged = file.line_start.is_some();
        if !is_pdf && stat.size > max && !self.rules.read_oversized_mentions {
            let reason = format!(
                "{abs} is {} and a mention reads at most {}, even with a line range (Q18)",
                format_file_size(stat.size),
                format_file_size(max)
            );
            if self.rules.reference_oversized_mentions {
                let size = format_file_size(stat.size);
                let text = files::oversized_mention_reference(abs, &size);
                turn.attach(
                    AttachmentKind::AtMentionReference,
                    Some(abs),
                    text,
                    self.token_method,
                );
                let reason = format!("{reason}; a reference gives its path and size instead");
                turn.decide(subject, Verdict::TooLarge, reason, None);
            } else {
                turn.decide(subject, Verdict::TooLarge, reason, None);
            }
            return;
        }
        if is_pdf {
            self.mentioned_pdf(subject, abs, stat, turn);
            return;
        }
        let window = mention_window(file.line_start, file.line_end, &self.workspace.rules.read);
        let state = state_before.unwrap_or(&self.workspace.file_state);
        let rules = &self.rules;
        if already_read(state, abs, stat, window.offset, window.limit, rules) {
            self.already_in_context(abs, stat, turn, subject);
            return;
        }
        let oversized_unranged = stat.size > max && !ranged;
        let attempt = if oversized_unranged {
            Err(ReadFailure::Read(ReadError::FileTooLarge {
                size: stat.size,
                max,
            }))
        } else {
            self.workspace
                .read_text_file(abs, window.offset, window.limit)
        };
        match attempt {
            Ok(done) => {
                self.attach_file(abs, &done, window.offset, window.limit, None, turn);
                self.workspace
                    .remember_read(abs, &done, window.offset, window.limit);
                turn.decide(
                    subject,
                    Verdict::Included,
                    format!("{} lines of {abs}", done.read.num_lines),
                    None,
                );
            }
            Err(ReadFailure::Read(
                error @ (ReadError::FileTooLarge { .. }
                | ReadError::MaxFileReadTokenExceeded { .. }),
            )) => self.truncated_fallback(subject, abs, window.offset, &error, turn),
            Err(ReadFailure::NotText(FileKind::Image { info })) => {
                self.mentioned_image(subject, abs, stat, info.as_ref(), turn);
            }
            Err(failure) => turn.decide(subject, Verdict::Failed, failure.message(), None),
        }
    }

    /// An image (§3.9, §6.2): the call note and the image, whose size the downsampling
    /// ladder decides. Nothing is re-encoded: each step is a decision with its estimate.
    fn mentioned_image(
        &mut self,
        subject: &str,
        abs: &str,
        stat: &Stat,
        info: Option<&ImageInfo>,
        turn: &mut Collected,
    ) {
        let plan = plan_image(info, stat.size, &self.workspace.rules.read);
        for step in &plan.steps {
            let verdict = if step.accepted {
                Verdict::Included
            } else {
                Verdict::Skipped
            };
            let detail = format!(
                "{:?}, about {} bytes, {} tokens",
                step.action, step.estimated_bytes, step.tokens
            );
            turn.decide(
                &format!("{subject} (image)"),
                verdict,
                step.reason.clone(),
                Some(detail),
            );
        }
        let format = info.as_ref().map(|info| format!("{:?}", info.format));
        let dimensions = info.as_ref().and_then(|info| info.dimensions);
        let input = format!("{{\"file_path\":{}}}", json_string(abs));
        let parts = [
            call_note("Read", &input),
            files::image_summary(format.as_deref(), dimensions, &format_file_size(stat.size)),
        ];
        let apart = self.file_parts_as_messages;
        turn.attach_parts(
            AttachmentKind::File,
            Some(abs),
            &parts,
            apart,
            self.token_method,
        );
        if let Some(last) = turn.attachments.last_mut() {
            last.tokens += plan.tokens();
        }
        if let Ok(content) = self.workspace.vfs.read(abs) {
            if let Some(entry) = Entry::from_image_read(
                content.as_bytes(),
                stat.mtime_ms,
                &self.workspace.rules.file_state,
            ) {
                self.workspace.file_state.set(abs, entry);
            }
        }
    }

    /// §3.7 step 4: an unchanged file already in the read-file state sends nothing (Q20), or
    /// with the fix a short pointer to its contents above.
    fn already_in_context(&self, abs: &str, stat: &Stat, turn: &mut Collected, subject: &str) {
        let text = if self.rules.point_to_already_read {
            files::unchanged_pointer(abs)
        } else {
            String::new()
        };
        turn.attach(
            AttachmentKind::AlreadyReadFile,
            Some(abs),
            text,
            self.token_method,
        );
        let reason = format!(
            "{abs} is in the read-file state and unchanged since (mtime {}); the original sends \
             nothing for it (Q20)",
            stat.mtime_ms
        );
        turn.decide(subject, Verdict::AlreadyInContext, reason, None);
    }

    /// §3.7 step 7: too large or too many tokens → the first 2000 lines, with a note.
    fn truncated_fallback(
        &mut self,
        subject: &str,
        abs: &str,
        offset: Option<u64>,
        error: &ReadError,
        turn: &mut Collected,
    ) {
        if self
            .workspace
            .deny
            .check(abs, &self.workspace.cwd)
            .is_some()
        {
            turn.decide(
                subject,
                Verdict::Denied,
                format!("{abs} is denied by the permission settings"),
                None,
            );
            return;
        }
        let offset = Some(offset.unwrap_or(1));
        match self
            .workspace
            .read_text_file(abs, offset, Some(TRUNCATED_READ_LINES))
        {
            Ok(done) => {
                let first = done.read.start_line;
                let note = truncation_note(
                    abs,
                    first,
                    done.read.num_lines.min(TRUNCATED_READ_LINES as u64),
                    self.rules.truncation_note_states_range,
                );
                self.attach_file(
                    abs,
                    &done,
                    offset,
                    Some(TRUNCATED_READ_LINES),
                    Some(note),
                    turn,
                );
                self.workspace
                    .remember_read(abs, &done, offset, Some(TRUNCATED_READ_LINES));
                turn.decide(
                    subject,
                    Verdict::Truncated,
                    format!("{abs} was cut to its first lines"),
                    Some(error.to_string()),
                );
            }
            Err(failure) => turn.decide(
                subject,
                Verdict::TooLarge,
                failure.message(),
                Some(error.to_string()),
            ),
        }
    }

    /// The call note, the tool result and (when cut) the truncation note (§3.11).
    fn attach_file(
        &self,
        abs: &str,
        done: &TextFileRead,
        offset: Option<u64>,
        limit: Option<i64>,
        truncated: Option<String>,
        turn: &mut Collected,
    ) {
        let rules = &self.rules;
        let mut input = format!("{{\"file_path\":{}", json_string(abs));
        // Only a range the Read tool accepts (2.1.332 leaves `#L0` and reversed ranges out).
        let accepted = offset.is_none_or(|o| o >= 1) && limit.is_none_or(|l| l >= 1);
        if rules.call_note_shows_range && accepted {
            if let Some(offset) = offset {
                input.push_str(&format!(",\"offset\":{offset}"));
            }
            if let Some(limit) = limit {
                input.push_str(&format!(",\"limit\":{limit}"));
            }
        }
        input.push('}');
        let mut output = done.read.text.clone();
        if done.read.notice.is_none() && rules.malware_reminder_in_attachments {
            output.push_str(&malware_reminder());
        }
        let mut parts = Vec::from([call_note("Read", &input), tool_result("Read", &output)]);
        parts.extend(truncated);
        let apart = self.file_parts_as_messages;
        turn.attach_parts(
            AttachmentKind::File,
            Some(abs),
            &parts,
            apart,
            self.token_method,
        );
    }

    /// §3.7 step 3 and §3.9: a reference for a long PDF, a note (or the document) otherwise.
    fn mentioned_pdf(&mut self, subject: &str, abs: &str, stat: &Stat, turn: &mut Collected) {
        let content = match self.workspace.vfs.read(abs) {
            Ok(content) => content,
            Err(error) => {
                turn.decide(
                    subject,
                    Verdict::Failed,
                    format!("{abs} could not be read"),
                    Some(error.to_string()),
                );
                return;
            }
        };
        let plan = plan_pdf(
            abs,
            content.as_bytes(),
            stat.size,
            &self.workspace.rules.read,
        );
        let size = format_file_size(stat.size);
        let method = self.token_method;
        match plan.outcome {
            PdfOutcome::Reference => {
                let note = pdf_reference_note(abs, plan.effective_page_count, &size);
                turn.attach(AttachmentKind::PdfReference, Some(abs), note, method);
                let reason = format!(
                    "{} pages: more than a mention reads at once",
                    plan.effective_page_count
                );
                turn.decide(subject, Verdict::Included, reason, None);
            }
            PdfOutcome::Note { text } => {
                let input = format!("{{\"file_path\":{}}}", json_string(abs));
                let parts = [call_note("Read", &input), tool_result("Read", &text)];
                let apart = self.file_parts_as_messages;
                turn.attach_parts(AttachmentKind::File, Some(abs), &parts, apart, method);
                let reason = "a short PDF: only a one-line note reaches the model, the document is dropped (Q19)";
                turn.decide(subject, Verdict::Included, reason.into(), None);
            }
            PdfOutcome::Document => {
                turn.attach(
                    AttachmentKind::File,
                    Some(abs),
                    files::pdf_document_note(abs, &size),
                    method,
                );
                if let Some(last) = turn.attachments.last_mut() {
                    last.tokens += plan.tokens;
                }
                let reason = format!(
                    "a short PDF, sent as a document of {} pages",
                    plan.effective_page_count
                );
                turn.decide(subject, Verdict::Included, reason, None);
            }
        }
    }
}

/// §3.7 step 4: whether `state` holds `abs` unchanged since it was read (same mtime). The
/// original takes any entry (Q20); the fix only one whose read covered every line of the
/// mentioned range.
fn already_read(
    state: &FileStateCache,
    abs: &str,
    stat: &Stat,
    offset: Option<u64>,
    limit: Option<i64>,
    rules: &FileContextRules,
) -> bool {
    let Some(entry) = state.peek(abs) else {
        return false;
    };
    if entry.timestamp != stat.mtime_ms {
        return false;
    }
    // A range that ran past the last line of a file with text read the whole file too: its
    // slice is the file.
    let from_the_top = entry.offset.is_none_or(|offset| offset <= 1);
    let sliced_whole = stat.size > 0 && entry.content.len() as u64 == stat.size;
    let to_the_end = entry.limit.is_none() || sliced_whole;
    let whole_read = from_the_top && to_the_end && entry.digest.is_none();
    if rules.already_read_small_whole_files_only {
        return whole_read && stat.size <= ALREADY_READ_MAX_BYTES;
    }
    if !rules.already_read_respects_ranges {
        return true;
    }
    // Lines as half-open ranges, `None` running to the end; a whole read stored with
    // offset 1 (Q25) starts where one without an offset does.
    let span = |offset: Option<u64>, limit: Option<u64>| {
        let start = offset.unwrap_or(1).max(1);
        (start, limit.map(|limit| start.saturating_add(limit)))
    };
    let (read_start, read_end) = span(entry.offset, entry.limit);
    let wanted_limit = limit.map(|l| u64::try_from(l).unwrap_or(0));
    let (start, end) = span(offset, wanted_limit);
    let covers_end = match (read_end, end) {
        (None, _) => true,
        (Some(_), None) => false,
        (Some(read_end), Some(end)) => read_end >= end,
    };
    read_start <= start && covers_end
}

/// `shell-quote`'s quoting of one argument (§3.11): plain paths as they are; paths with
/// whitespace, `"` or `\` (and no `'`) in single quotes; otherwise special characters
/// backslash-escaped.
fn shell_quote(arg: &str) -> String {
    const SPECIAL: &str = "#!\"$&'()*,:;<=>?@[\\]^`{|}";
    let needs_single = arg
        .chars()
        .any(|c| c.is_whitespace() || c == '"' || c == '\\')
        && !arg.contains('\'');
    if needs_single {
        return format!("'{arg}'");
    }
    let mut out = String::with_capacity(arg.len());
    for c in arg.chars() {
        if SPECIAL.contains(c) || c.is_whitespace() {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::shell_quote;

    #[test]
    fn quotes_like_shell_quote() {
        assert_eq!(shell_quote("/p/src"), "/p/src");
        assert_eq!(shell_quote("/p/my dir"), "'/p/my dir'");
        assert_eq!(shell_quote("/p/a(1)"), "/p/a\\(1\\)");
    }
}
