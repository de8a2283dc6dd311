//! What a compaction plans and what it did: the plan a host previews, and the report that
//! accounts for every item of the root set (spec claude-code.md §9.3–§9.5).

use alloc::string::String;
use alloc::vec::Vec;

use super::options::CompactionOptions;
use crate::attachment::{AttachmentKind, Decision};
use crate::vocabulary::{PolicyId, Trigger};

/// An attachment the compaction will add after the summary, in order (§9.3 item 6).
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct PlannedAttachment {
    /// The attachment's kind (`file`, `compact_file_reference`, `plan_file_reference`,
    /// `plan_mode`, `invoked_skills`, a delta), or the Codex history item's.
    pub kind: PlannedKind,
    /// The file it is about, when it is about one.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub path: Option<String>,
    /// Its tokens.
    pub tokens: u64,
}

/// What follows a summary: an attachment of Claude Code's, or an item of Codex's history.
/// Serialised as the kind's name alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(untagged))]
pub enum PlannedKind {
    /// An attachment.
    Attachment(AttachmentKind),
    /// An item of Codex's replacement history.
    CodexItem(CodexItemKind),
}

impl PlannedKind {
    /// The kind's name, as serialised.
    pub const fn as_str(self) -> &'static str {
        match self {
            PlannedKind::Attachment(kind) => kind.as_str(),
            PlannedKind::CodexItem(kind) => kind.as_str(),
        }
    }
}

crate::vocabulary::named_enum! {
    /// The items of Codex's replacement history, as a compaction plan lists them.
    pub enum CodexItemKind {
    /// A user message that carries context (instructions, the environment).
    ContextualUserMessage => "contextual_user_message",
    /// The summary message.
    Summary => "summary",
    /// A retained user message.
    UserMessage => "user_message",
    /// A developer message.
    DeveloperMessage => "developer_message",
    /// Remote compaction's opaque item.
    Compaction => "compaction",
    /// Any other item.
    Item => "item",
    }
}

crate::vocabulary::named_enum! {
    /// Where a compaction's summary came from.
    pub enum SummarySource {
    /// The host wrote it (the model's answer to the summary request).
    Host => "host",
    /// Built from the records themselves, when the host gave none.
    Extractive => "extractive",
    /// The policy writes no summary.
    None => "none",
    }
}

/// What a compaction forgets besides the messages (§9.3 item 5).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Cleared {
    /// Keys of the read-file state, most recently used first.
    pub read_files: Vec<String>,
    /// Nested-memory paths loaded so far: they load again when a file beneath them is read.
    pub nested_memory: Vec<String>,
}

/// A compaction as it would run now. Apply it with
/// [`Session::apply_compaction`](crate::session::Session::apply_compaction) before the
/// session changes; a plan made before a change is refused.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct CompactionPlan {
    /// Which plan this is: plans of one session are numbered from 1.
    pub id: u64,
    /// The policy's id (`claude-code.full`, `opencode.prune`…).
    pub policy: PolicyId,
    /// `auto` or `manual`.
    pub trigger: Trigger,
    /// Whether applying it changes anything; `reason` says why not.
    pub applies: bool,
    /// One sentence: what it will do, or why it will do nothing.
    pub reason: String,
    /// Tokens of the request as it stands.
    pub tokens_before: u64,
    /// The request that asks for the summary (summary policies only).
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub summary_request: Option<String>,
    /// Records the summary replaces.
    pub summarised_records: usize,
    /// Records kept verbatim.
    pub kept_records: usize,
    /// State cleared when the summary arrives.
    pub cleared: Cleared,
    /// The attachments that follow the summary, in order.
    pub post_compact: Vec<PlannedAttachment>,
    /// Everything considered, and why.
    pub decisions: Vec<Decision>,
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) options: CompactionOptions,
    #[cfg_attr(feature = "serde", serde(skip))]
    pub(crate) stamp: (usize, u64),
}

impl CompactionPlan {
    /// Plan `id` for `options`, on the records of `stamp`, before anything is decided: it
    /// applies nothing until a policy fills it in.
    pub(crate) fn new(
        id: u64,
        options: CompactionOptions,
        tokens_before: u64,
        stamp: (usize, u64),
    ) -> CompactionPlan {
        CompactionPlan {
            id,
            policy: options.policy.id(),
            trigger: options.trigger,
            applies: false,
            reason: String::new(),
            tokens_before,
            summary_request: None,
            summarised_records: 0,
            kept_records: 0,
            cleared: Cleared::default(),
            post_compact: Vec::new(),
            decisions: Vec::new(),
            options,
            stamp,
        }
    }
}

/// A file restored after the compaction.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Restored {
    /// The file.
    pub path: String,
    /// Tokens of its attachment.
    pub tokens: u64,
}

/// Something put back after the compaction that is not a restored file.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Reinjected {
    /// The attachment's kind.
    pub kind: AttachmentKind,
    /// The file it is about, when it is about one.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub path: Option<String>,
    /// Its tokens.
    pub tokens: u64,
}

/// Something the model no longer sees.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Dropped {
    /// What it was.
    pub subject: String,
    /// Why it is gone.
    pub reason: String,
}

/// What happened to one item of the root set.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct Survival {
    /// The item: a path, or a name such as `conversation`.
    pub item: String,
    /// Its class.
    pub kind: ItemKind,
    /// What happened: see [`Fate`].
    pub fate: Fate,
    /// Why, in one sentence.
    pub reason: String,
    /// Tokens it took in the request before.
    pub tokens_before: u64,
    /// Tokens it takes after.
    pub tokens_after: u64,
}

crate::vocabulary::named_enum! {
    /// The classes of the root set (the list).
    pub enum ItemKind {
    /// The system prompt's static part and environment.
    SystemPrompt => "system-prompt",
    /// A CLAUDE.md or CLAUDE.local.md loaded at startup.
    ProjectMemory => "project-memory",
    /// An unconditional `.claude/rules` file loaded at startup.
    UnconditionalRule => "unconditional-rule",
    /// A rule with `paths:` globs, loaded when a matching file was read.
    PathScopedRule => "path-scoped-rule",
    /// A CLAUDE.md below the cwd, loaded when a file beneath it was read.
    NestedMemory => "nested-memory",
    /// A file of the auto-memory directory.
    AutoMemory => "auto-memory",
    /// A skill the model invoked.
    InvokedSkill => "invoked-skill",
    /// The plan file.
    PlanFile => "plan-file",
    /// A file of the read-file state.
    ReadFile => "read-file",
    /// The todo list.
    Todos => "todos",
    /// The messages.
    Conversation => "conversation",
    }
}

pub use crate::vocabulary::Fate;

/// Paths and shell commands the model can still see in full.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct Visible {
    /// Files whose content is in the request (a Read result or a file attachment).
    pub paths: Vec<String>,
    /// Bash commands whose output is in the request.
    pub commands: Vec<String>,
}

/// What a compaction did.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct CompactionReport {
    /// The policy that ran.
    pub policy: PolicyId,
    /// `auto` or `manual`.
    pub trigger: Trigger,
    /// Whether anything changed.
    pub applied: bool,
    /// One sentence: what it did, or why it did nothing.
    pub reason: String,
    /// Tokens of the request before.
    pub tokens_before: u64,
    /// Tokens of the request after.
    pub tokens_after: u64,
    /// Tokens of the previous request's leading blocks that are unchanged: the part of the
    /// prompt cache the compaction keeps.
    pub prefix_kept: u64,
    /// Where the summary came from: `host`, `extractive`, or `none`.
    pub summary_source: SummarySource,
    /// The summary message, when there is one.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub summary: Option<String>,
    /// Records kept verbatim (a summary's kept tail, Codex's retained user messages, or
    /// every record for a policy that only clears content).
    pub kept_records: usize,
    /// Files attached again after the summary.
    pub restored: Vec<Restored>,
    /// Other attachments put back.
    pub reinjected: Vec<Reinjected>,
    /// Tool results whose content became a placeholder.
    pub masked: Vec<Dropped>,
    /// What is gone, and why.
    pub dropped: Vec<Dropped>,
    /// Every item of the root set, with its fate.
    pub survival: Vec<Survival>,
    /// What the model can still see in full.
    pub visible: Visible,
    /// Everything decided, in order.
    pub decisions: Vec<Decision>,
}
