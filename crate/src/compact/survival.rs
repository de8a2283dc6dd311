//! The survival report: for every item of the root set, what a compaction did to it and why,
//! with its tokens before and after.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::report::{
    CompactionReport, Dropped, Fate, ItemKind, Reinjected, Restored, Survival, Visible,
};
use crate::attachment::Attachment;
use crate::attachment::AttachmentKind;
use crate::compact::file_restore::{is_auto_memory, is_memory_path};
use crate::compact::policies::{clear_tool_uses, masking, prune};
use crate::compact::summary::json;
use crate::memory::{eager_memory, MemoryKind, MemoryRules};
use crate::tokens::{estimate_tokens, TokenMethod};
use crate::transcript::{AssistantBlock, Message, Record};
use crate::vocabulary::Verdict;
use crate::workspace::Workspace;

/// A request's figures the report compares: its system channel and its conversation.
#[derive(Debug, Clone, Copy)]
pub(crate) struct RequestTokens {
    /// Tokens of the system channel.
    pub(crate) system: u64,
    /// Tokens of the conversation category.
    pub(crate) conversation: u64,
}

/// The state a report compares against.
pub(crate) struct Snapshot {
    system_tokens: u64,
    conversation_tokens: u64,
    records: Vec<Message>,
    read_files: Vec<String>,
    memory_attachments: Vec<(String, AttachmentKind)>,
}

/// Who holds what in a list of records: tokens per item key, what is visible in full.
#[derive(Default)]
struct Scan {
    tokens: BTreeMap<String, u64>,
    visible: Visible,
}

impl Snapshot {
    /// Captures the state before a compaction: the messages, the read-file state's keys and
    /// the request's figures.
    pub(crate) fn of(
        records: &[Message],
        workspace: &Workspace,
        before: RequestTokens,
    ) -> Snapshot {
        let records = records.to_vec();
        let memory_attachments = records
            .iter()
            .filter_map(Message::attachment)
            .filter(|a| a.kind.is_memory())
            .filter_map(|a| a.path.clone().map(|p| (p, a.kind)))
            .collect();
        Snapshot {
            system_tokens: before.system,
            conversation_tokens: before.conversation,
            records,
            read_files: workspace.file_state.keys().map(String::from).collect(),
            memory_attachments,
        }
    }
}

/// What the survival report reads besides the report itself: the session's state after the
/// compaction, passed explicitly.
pub(crate) struct SurvivalInputs<'a> {
    pub(crate) token_method: TokenMethod,
    pub(crate) memory_rules: &'a MemoryRules,
    /// Pinned files come back after a summary (`reinsert_pinned`).
    pub(crate) reinsert_pinned: bool,
    pub(crate) workspace: &'a Workspace,
    /// The transcript's messages after the compaction.
    pub(crate) messages: &'a [Message],
    pub(crate) invoked_skills: &'a [(String, String)],
    pub(crate) pinned: &'a [String],
    /// The auto-memory directory, expanded.
    pub(crate) auto_memory_dir: Option<String>,
    pub(crate) plan_file: String,
}

impl SurvivalInputs<'_> {
    /// Fills the survival list, the dropped and masked lists and what is visible.
    pub(crate) fn finish_report(
        &self,
        report: &mut CompactionReport,
        snapshot: &Snapshot,
        after: RequestTokens,
    ) {
        let method = self.token_method;
        let old = self.scan(&snapshot.records, method);
        let new = self.scan(self.messages, method);
        let summarised = report.summary.is_some();
        let mut survival = Vec::from([Survival {
            item: "system prompt".into(),
            kind: ItemKind::SystemPrompt,
            fate: Fate::Kept,
            reason: "the system prompt is outside the messages; no policy touches it".into(),
            tokens_before: snapshot.system_tokens,
            tokens_after: after.system,
        }]);
        survival.extend(self.eager_survival(summarised));
        let mut seen: Vec<String> = survival.iter().map(|s| s.item.clone()).collect();
        for (path, kind) in &snapshot.memory_attachments {
            if seen.contains(path) {
                continue;
            }
            seen.push(path.clone());
            let item_kind = self.memory_item_kind(path, Some(*kind));
            survival.push(self.path_fate(report, path, item_kind, &old, &new, summarised));
        }
        for skill in self.invoked_skills.iter().map(|(name, _)| name) {
            survival.push(self.skill_fate(report, skill, &old, &new));
        }
        let plan_file = self.plan_file.clone();
        if old.tokens.contains_key(&plan_file)
            || report
                .reinjected
                .iter()
                .any(|r| r.kind == AttachmentKind::PlanFileReference)
        {
            seen.push(plan_file.clone());
            survival.push(self.path_fate(
                report,
                &plan_file,
                ItemKind::PlanFile,
                &old,
                &new,
                summarised,
            ));
        }
        let mut files: Vec<&String> = snapshot.read_files.iter().collect();
        files.extend(old.tokens.keys().filter(|k| k.starts_with('/')));
        for path in files {
            if seen.contains(path) {
                continue;
            }
            seen.push(path.clone());
            let kind = match is_memory_path(path, self.auto_memory_dir.as_deref()) {
                true => self.memory_item_kind(path, None),
                false => ItemKind::ReadFile,
            };
            survival.push(self.path_fate(report, path, kind, &old, &new, summarised));
        }
        survival.push(keyed_fate("todos", ItemKind::Todos, "todos", &old, &new, summarised, "the list lives in the session's state: the summary's pending tasks and the next todo reminder bring it back"));
        survival.push(Survival {
            item: "conversation".into(),
            kind: ItemKind::Conversation,
            fate: fate_of_tokens(snapshot.conversation_tokens, after.conversation, summarised),
            reason: match summarised {
                true => "the messages were replaced by the summary (and any kept tail)".into(),
                false => {
                    "the messages stay; only what the policy cleared or dropped changed".into()
                }
            },
            tokens_before: snapshot.conversation_tokens,
            tokens_after: after.conversation,
        });
        report.dropped = survival
            .iter()
            .filter(|s| s.fate == Fate::Dropped)
            .map(|s| Dropped {
                subject: s.item.clone(),
                reason: s.reason.clone(),
            })
            .collect();
        report.masked = report
            .decisions
            .iter()
            .filter(|d| {
                matches!(
                    d.verdict,
                    Verdict::Cleared | Verdict::Masked | Verdict::Dropped | Verdict::Replaced
                )
            })
            .map(|d| Dropped {
                subject: d.subject.clone(),
                reason: d.reason.clone(),
            })
            .collect();
        report.survival = survival;
        report.visible = new.visible;
    }

    /// Lists the restored files and the other attachments a summary added.
    pub(crate) fn account_attachments(
        &self,
        report: &mut CompactionReport,
        attachments: &[Attachment],
    ) {
        for attachment in attachments {
            match (attachment.kind, &attachment.path) {
                (AttachmentKind::File, Some(path)) if !self.is_pinned(path) => {
                    report.restored.push(Restored {
                        path: path.clone(),
                        tokens: attachment.tokens,
                    })
                }
                (kind, path) => report.reinjected.push(Reinjected {
                    kind,
                    path: path.clone(),
                    tokens: attachment.tokens,
                }),
            }
        }
    }

    fn is_pinned(&self, abs: &str) -> bool {
        self.reinsert_pinned
            && self
                .pinned
                .iter()
                .any(|p| self.workspace.expand(p).ok().as_deref() == Some(abs))
    }

    /// The files of the user context: computed again after a summary, untouched otherwise.
    fn eager_survival(&self, summarised: bool) -> Vec<Survival> {
        let method = self.token_method;
        let eager = eager_memory(
            &self.workspace.memory_roots,
            &self.workspace.memory_source(),
            self.memory_rules,
        );
        eager
            .files
            .iter()
            .map(|file| {
                let kind = match file.kind {
                    MemoryKind::Project | MemoryKind::Local => ItemKind::ProjectMemory,
                    MemoryKind::ProjectRule => ItemKind::UnconditionalRule,
                    _ if is_auto_memory(&file.path, self.auto_memory_dir.as_deref()) => ItemKind::AutoMemory,
                    _ => ItemKind::PathScopedRule,
                };
                let tokens = estimate_tokens(&file.content, method, None);
                let (fate, reason) = match summarised {
                    true => (Fate::Reloaded, "the user context is computed again for the next request, from the file as it is on disk"),
                    false => (Fate::Kept, "it is in the user context, which this policy does not touch"),
                };
                Survival { item: file.path.clone(), kind, fate, reason: reason.into(), tokens_before: tokens, tokens_after: tokens }
            })
            .collect()
    }

    fn memory_item_kind(&self, path: &str, attachment: Option<AttachmentKind>) -> ItemKind {
        if attachment == Some(AttachmentKind::RelevantMemories)
            || is_auto_memory(path, self.auto_memory_dir.as_deref())
        {
            ItemKind::AutoMemory
        } else if path.contains("/.claude/rules/") {
            ItemKind::PathScopedRule
        } else {
            ItemKind::NestedMemory
        }
    }

    /// A file's fate: restored, referenced, kept, masked or dropped, with the restore's reason.
    fn path_fate(
        &self,
        report: &CompactionReport,
        path: &str,
        kind: ItemKind,
        old: &Scan,
        new: &Scan,
        summarised: bool,
    ) -> Survival {
        let before = old.tokens.get(path).copied().unwrap_or(0);
        let restored = report.restored.iter().find(|r| r.path == path);
        let reinjected = report
            .reinjected
            .iter()
            .find(|r| r.path.as_deref() == Some(path));
        let after = new.tokens.get(path).copied().unwrap_or(0);
        let restore_reason = report
            .decisions
            .iter()
            .rev()
            .find(|d| d.subject == path)
            .map(|d| d.reason.clone());
        let (fate, reason) = if let Some(restored) = restored {
            (
                Fate::Restored,
                format!("read again after the summary ({} tokens)", restored.tokens),
            )
        } else if let Some(item) = reinjected {
            match item.kind {
                AttachmentKind::CompactFileReference => (
                    Fate::Referenced,
                    restore_reason.unwrap_or_else(|| {
                        "too large to restore: its path is given instead".into()
                    }),
                ),
                _ => (Fate::Reinjected, format!("attached again as {}", item.kind)),
            }
        } else if after >= before && after > 0 {
            (Fate::Kept, "its content is still in the messages".into())
        } else if after > 0 || (!summarised && before > 0) {
            (Fate::Masked, "the policy replaced its content by a placeholder; the call that produced it is still there".into())
        } else if summarised {
            let why = restore_reason.unwrap_or_else(|| {
                "it was not in the file state, so nothing could restore it".into()
            });
            (Fate::Dropped, format!("the summary replaced it: {why}"))
        } else {
            (
                Fate::Kept,
                "it was not in the messages; the policy did not change that".into(),
            )
        };
        Survival {
            item: path.into(),
            kind,
            fate,
            reason,
            tokens_before: before,
            tokens_after: after,
        }
    }

    fn skill_fate(
        &self,
        report: &CompactionReport,
        name: &str,
        old: &Scan,
        new: &Scan,
    ) -> Survival {
        let key = format!("skill:{name}");
        let before = old.tokens.get(&key).copied().unwrap_or(0);
        let after = new.tokens.get(&key).copied().unwrap_or(0);
        let subject = format!("skill {name}");
        let decision = report.decisions.iter().find(|d| d.subject == subject);
        let reinjected = report
            .reinjected
            .iter()
            .any(|r| r.kind == AttachmentKind::InvokedSkills);
        let (fate, reason, after) = match decision {
            Some(d) if d.verdict == crate::attachment::Verdict::OverBudget => {
                (Fate::Dropped, d.reason.clone(), after)
            }
            Some(d) if reinjected => {
                let invoked: Vec<(String, String)> =
                    self.invoked_skills.iter().rev().cloned().collect();
                let selection = crate::compact::restore::select_skills(&invoked, self.token_method);
                let tokens = selection
                    .skills
                    .iter()
                    .find(|(n, _, _)| n == name)
                    .map_or(0, |(_, _, t)| *t);
                (Fate::Reinjected, d.reason.clone(), after + tokens)
            }
            _ if report.summary.is_some() && after == 0 => (
                Fate::Summarised,
                String::from(
                    "its output was in the summarised messages and it was not re-injected",
                ),
                after,
            ),
            _ => (
                fate_of_tokens(before, after, false),
                String::from("its output stays in its tool result unless the policy cleared it"),
                after,
            ),
        };
        Survival {
            item: name.into(),
            kind: ItemKind::InvokedSkill,
            fate,
            reason,
            tokens_before: before,
            tokens_after: after,
        }
    }

    /// Tokens per item in `records`, and the paths and commands shown in full.
    fn scan(&self, records: &[Message], method: TokenMethod) -> Scan {
        let mut scan = Scan::default();
        let mut calls: BTreeMap<&str, (String, Option<String>)> = BTreeMap::new();
        let count = |text: &str| estimate_tokens(text, method, None);
        for message in records {
            match &message.record {
                Record::Assistant {
                    block: AssistantBlock::ToolUse(call),
                    ..
                } => {
                    let input = json::parse(&call.input);
                    let field = |key: &str| {
                        input
                            .as_ref()
                            .and_then(|v| v.get(key))
                            .and_then(|v| v.as_str())
                            .map(String::from)
                    };
                    let key = match call.name.as_str() {
                        "Read" | "Edit" | "Write" => {
                            field("file_path").and_then(|p| self.workspace.expand(&p).ok())
                        }
                        "Skill" => field("skill").map(|s| format!("skill:{s}")),
                        "TodoWrite" => Some("todos".into()),
                        _ => None,
                    };
                    if let Some(key) = &key {
                        *scan.tokens.entry(key.clone()).or_default() += count(&call.input);
                    }
                    let command = (call.name == "Bash").then(|| field("command")).flatten();
                    calls.insert(call.id.as_str(), (key.unwrap_or_default(), command));
                }
                Record::ToolResults { results } => {
                    for result in results {
                        let Some((key, command)) = calls.get(result.tool_use_id.as_str()) else {
                            continue;
                        };
                        let intact = !is_placeholder(&result.content);
                        if !key.is_empty() {
                            *scan.tokens.entry(key.clone()).or_default() += count(&result.content);
                            if intact && key.starts_with('/') && !scan.visible.paths.contains(key) {
                                scan.visible.paths.push(key.clone());
                            }
                        }
                        if let Some(command) = command.as_ref().filter(|_| intact) {
                            if !scan.visible.commands.contains(command) {
                                scan.visible.commands.push(command.clone());
                            }
                        }
                    }
                }
                Record::Attachment(attachment) => {
                    let key = match (attachment.kind, &attachment.path) {
                        (AttachmentKind::TodoReminder, _) => Some(String::from("todos")),
                        (_, Some(path)) => Some(path.clone()),
                        _ => None,
                    };
                    if let Some(key) = key {
                        *scan.tokens.entry(key.clone()).or_default() += attachment.tokens;
                        let shows = matches!(
                            attachment.kind,
                            AttachmentKind::File
                                | AttachmentKind::NestedMemory
                                | AttachmentKind::RelevantMemories
                                | AttachmentKind::PlanFileReference
                        );
                        if shows && !scan.visible.paths.contains(&key) {
                            scan.visible.paths.push(key);
                        }
                    }
                }
                _ => {}
            }
        }
        scan
    }
}

/// A fate from tokens alone: summarised, masked or kept.
fn fate_of_tokens(before: u64, after: u64, summarised: bool) -> Fate {
    match (summarised, after < before) {
        (true, _) => Fate::Summarised,
        (false, true) => Fate::Masked,
        (false, false) => Fate::Kept,
    }
}

/// The survival entry of a keyed item (the todo list) that the scan counts.
fn keyed_fate(
    item: &str,
    kind: ItemKind,
    key: &str,
    old: &Scan,
    new: &Scan,
    summarised: bool,
    summarised_reason: &str,
) -> Survival {
    let before = old.tokens.get(key).copied().unwrap_or(0);
    let after = new.tokens.get(key).copied().unwrap_or(0);
    let fate = fate_of_tokens(before, after, summarised);
    let reason = match fate {
        Fate::Summarised => summarised_reason.into(),
        Fate::Masked => String::from("the policy cleared some of its tool calls or results"),
        _ => String::from("untouched"),
    };
    Survival {
        item: item.into(),
        kind,
        fate,
        reason,
        tokens_before: before,
        tokens_after: after,
    }
}

/// A tool result some policy replaced: its content is gone.
fn is_placeholder(content: &str) -> bool {
    content == prune::PLACEHOLDER
        || content == clear_tool_uses::RESULT_PLACEHOLDER
        || (content.starts_with(masking::PLACEHOLDER_PREFIX)
            && content.ends_with(masking::PLACEHOLDER_SUFFIX))
        || content.starts_with("<persisted-output>")
        || content.starts_with("[[NOTE]")
}
