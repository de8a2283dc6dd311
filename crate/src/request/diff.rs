//! What changed from one request to the next: the blocks aligned, the words changed inside
//! a changed block, and why the prompt cache's prefix did or did not survive.
//!
//! Blocks are compared in the order the prompt cache reads them ([`Request::cache_order`]:
//! tools, system, user context, messages), each identified by its role and text, so the
//! leading run of unchanged blocks is exactly the prefix a cache could still serve. Aligning
//! and the word diffs use `similar`'s Myers (no original must be matched here), through one
//! edit-script hook for both, so the module carries two instances of it and no more. The work is bounded:
//! a block pair longer than [`MAX_INLINE_WORDS`] words is reported changed without an inline
//! diff, and the decision says so.
//!
//! # Example
//! ```
//! use context_assembly::request::{request_diff, Block, Category, Channel, Request, RequestDiffOptions};
//! use context_assembly::tokens::TokenMethod;
//! let block = |text: &str| Block {
//!     channel: Channel::System,
//!     ..Block::text("system_static", Category::System, text.into(), TokenMethod::ClaudeCode)
//! };
//! let before = Request { system: vec![block("You help.")], ..Request::default() };
//! let after = Request { system: vec![block("You help."), block("Today is Monday.")], ..Request::default() };
//! let diff = request_diff(&before, &after, &RequestDiffOptions::default());
//! assert_eq!((diff.added, diff.unchanged), (1, 1));
//! assert_eq!(diff.cache.cause.as_str(), "none"); // the earlier request is this one's prefix
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use similar::algorithms::{myers, DiffHook};

use super::{cache_key, Block, Channel, Request};
use crate::codex::items::Role;

/// A changed block pair is diffed word by word only up to this many words on both sides
/// together: Myers' work grows with the product of length and distance, and a diff of two
/// unrelated 100 KB texts teaches nothing a "replaced" would not.
pub const MAX_INLINE_WORDS: usize = 6_000;

crate::vocabulary::named_enum! {
    /// What happened to a block between two requests.
    pub enum BlockChange {
    /// The same role and text, at the aligned place.
    Unchanged => "unchanged",
    /// Only in the later request.
    Added => "added",
    /// Only in the earlier request.
    Removed => "removed",
    /// In both, with the same role and source, and a different text.
    Changed => "changed",
    }
}

crate::vocabulary::named_enum! {
    /// One run of words of a changed block.
    pub enum WordOp {
    /// In both texts.
    Equal => "equal",
    /// Only in the later text.
    Insert => "insert",
    /// Only in the earlier text.
    Delete => "delete",
    }
}

crate::vocabulary::named_enum! {
    /// Why the later request cannot read the whole earlier one from the prompt cache.
    pub enum CacheBreak {
    /// It can: the earlier request is the later one's prefix.
    None => "none",
    /// The cache's entries expired between the two requests.
    TtlExpired => "ttl-expired",
    /// A compaction rewrote the conversation between the two requests.
    Compaction => "compaction",
    /// The tool definitions changed.
    ToolsChanged => "tools-changed",
    /// The system prompt changed (a setting, the environment, the date).
    SystemChanged => "system-changed",
    /// The user context changed (memory files, the date).
    ContextChanged => "context-changed",
    /// A block was inserted before the end of the earlier request (a reminder, an
    /// attachment).
    Inserted => "inserted",
    /// A block the earlier request sent was edited (pruned, masked, rewritten).
    Edited => "edited",
    /// A block the earlier request sent was left out.
    Removed => "removed",
    }
}

/// What the caller knows about the time between the two requests and what ran in between.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct RequestDiffOptions {
    /// Milliseconds between the two requests; `None` when unknown (no expiry is assumed).
    pub elapsed_ms: Option<u64>,
    /// How long a cache entry lives after its last use (Anthropic's default: 5 minutes).
    pub cache_ttl_ms: u64,
    /// A compaction ran between the two requests.
    pub compacted: bool,
}

impl Default for RequestDiffOptions {
    fn default() -> Self {
        RequestDiffOptions {
            elapsed_ms: None,
            cache_ttl_ms: crate::cache::Ttl::FiveMinutes.millis(),
            compacted: false,
        }
    }
}

/// A run of words of a changed block.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct WordSpan {
    /// Whether the run is in both texts or only one.
    pub op: WordOp,
    /// The words, with the whitespace between them.
    pub text: String,
}

/// One block of either request, aligned with its counterpart.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct AlignedBlock {
    /// What happened to it.
    pub change: BlockChange,
    /// The channel it travels in (the later request's, unless it was removed).
    pub channel: Channel,
    /// Who sends it, for a block of the messages.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub role: Option<Role>,
    /// What produced it (see [`Block::source`]).
    pub source: String,
    /// Its tokens in the earlier request (0 when added).
    pub tokens_before: u64,
    /// Its tokens in the later request (0 when removed).
    pub tokens_after: u64,
    /// The block is a `<system-reminder>`.
    pub reminder: bool,
    /// The text of an added or removed block.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub text: Option<String>,
    /// A changed block's words, earlier and later interleaved in reading order.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Vec::is_empty"))]
    pub words: Vec<WordSpan>,
    /// Why a changed block has no word diff.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub words_skipped: Option<String>,
}

/// How much of the earlier request the later one starts with.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct PrefixKept {
    /// Leading blocks identical in both.
    pub blocks: usize,
    /// Their tokens.
    pub tokens: u64,
}

/// Whether the prompt cache can serve the earlier request as the later one's prefix, and
/// if not, the first block that differs and why.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct CacheVerdict {
    /// What broke the prefix; `none` when nothing did.
    pub cause: CacheBreak,
    /// The index in `blocks` of the first block that differs, if any does.
    #[cfg_attr(feature = "serde", serde(skip_serializing_if = "Option::is_none"))]
    pub at: Option<usize>,
    /// The explanation, with the figures.
    pub reason: String,
}

/// What changed from one request to the next.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct RequestDiff {
    /// Both requests' blocks, aligned, in cache order.
    pub blocks: Vec<AlignedBlock>,
    /// Blocks only in the later request.
    pub added: usize,
    /// Blocks only in the earlier request.
    pub removed: usize,
    /// Blocks in both with a different text.
    pub changed: usize,
    /// Blocks in both, identical.
    pub unchanged: usize,
    /// The earlier request's tokens (its blocks' sum).
    pub tokens_before: u64,
    /// The later request's tokens (its blocks' sum).
    pub tokens_after: u64,
    /// The leading blocks the two share.
    pub prefix: PrefixKept,
    /// What the prompt cache can still serve, and why not more.
    pub cache: CacheVerdict,
}

/// A block as the diff sees it: who sends it, and the block.
struct Keyed<'a> {
    role: Option<Role>,
    block: &'a Block,
}

impl Keyed<'_> {
    /// Equal for blocks the cache would treat as the same content in the same place.
    fn key(&self) -> u64 {
        cache_key(self.role, self.block)
    }

    /// Two blocks are one block changed when the same role and source sent both.
    fn same_origin(&self, other: &Keyed<'_>) -> bool {
        self.role == other.role
            && self.block.channel == other.block.channel
            && self.block.source == other.block.source
    }
}

/// Compares two requests of a session: which blocks were added, removed or changed, the
/// words that changed inside each changed block, the tokens on both sides, and whether the
/// prompt cache can still serve the earlier request as a prefix (and if not, why).
pub fn request_diff(
    previous: &Request,
    next: &Request,
    options: &RequestDiffOptions,
) -> RequestDiff {
    let before: Vec<Keyed<'_>> = keyed(previous);
    let after: Vec<Keyed<'_>> = keyed(next);
    let before_keys: Vec<u64> = before.iter().map(Keyed::key).collect();
    let after_keys: Vec<u64> = after.iter().map(Keyed::key).collect();
    let blocks = align(&edit_script(&before_keys, &after_keys), &before, &after);
    let count = |change: BlockChange| blocks.iter().filter(|b| b.change == change).count();
    let prefix = prefix_kept(&blocks);
    let cache = cache_verdict(&blocks, prefix, before.len(), options);
    RequestDiff {
        added: count(BlockChange::Added),
        removed: count(BlockChange::Removed),
        changed: count(BlockChange::Changed),
        unchanged: count(BlockChange::Unchanged),
        tokens_before: before.iter().map(|keyed| keyed.block.tokens).sum(),
        tokens_after: after.iter().map(|keyed| keyed.block.tokens).sum(),
        prefix,
        cache,
        blocks,
    }
}

fn keyed(request: &Request) -> Vec<Keyed<'_>> {
    request
        .cache_order()
        .map(|(role, block)| Keyed { role, block })
        .collect()
}

/// One step of an edit script: a run of items in both sequences, or in one only.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Edit {
    Equal { old: usize, new: usize, len: usize },
    Delete { old: usize, len: usize },
    Insert { new: usize, len: usize },
}

/// Collects what Myers' search reports into an edit script.
#[derive(Default)]
struct EditScript(Vec<Edit>);

impl DiffHook for EditScript {
    type Error = core::convert::Infallible;

    fn equal(&mut self, old: usize, new: usize, len: usize) -> Result<(), Self::Error> {
        self.0.push(Edit::Equal { old, new, len });
        Ok(())
    }

    fn delete(&mut self, old: usize, len: usize, _new: usize) -> Result<(), Self::Error> {
        self.0.push(Edit::Delete { old, len });
        Ok(())
    }

    fn insert(&mut self, _old: usize, new: usize, len: usize) -> Result<(), Self::Error> {
        self.0.push(Edit::Insert { new, len });
        Ok(())
    }
}

/// The shortest edit script from `old` to `new` (Myers, without the heuristics that may
/// change which script is found).
fn edit_script<T: PartialEq>(old: &[T], new: &[T]) -> Vec<Edit> {
    let mut script = EditScript::default();
    let found = myers::diff_deadline_raw(&mut script, old, 0..old.len(), new, 0..new.len(), None);
    match found {
        Ok(()) => script.0,
        Err(never) => match never {},
    }
}

/// The blocks of both requests aligned along the edit script: equal runs unchanged, and
/// each run of deletions and insertions between two equal runs paired up.
fn align(script: &[Edit], before: &[Keyed<'_>], after: &[Keyed<'_>]) -> Vec<AlignedBlock> {
    let mut out = Vec::with_capacity(after.len());
    let (mut deleted, mut inserted) = (0..0, 0..0);
    for edit in script {
        match *edit {
            Edit::Equal { old, new, len } => {
                pair_replaced(&before[deleted.clone()], &after[inserted.clone()], &mut out);
                (deleted, inserted) = (old + len..old + len, new + len..new + len);
                let pairs = after[new..new + len].iter().zip(&before[old..old + len]);
                out.extend(pairs.map(|(later, earlier)| {
                    aligned(BlockChange::Unchanged, later, earlier.block.tokens)
                }));
            }
            Edit::Delete { old, len } => deleted = deleted.start.min(old)..old + len,
            Edit::Insert { new, len } => inserted = inserted.start.min(new)..new + len,
        }
    }
    pair_replaced(&before[deleted], &after[inserted], &mut out);
    out
}

/// A replaced run: each earlier block is paired with the first later block of the same
/// origin not yet paired (a changed block); the rest were removed or added, in order.
fn pair_replaced(earlier: &[Keyed<'_>], later: &[Keyed<'_>], out: &mut Vec<AlignedBlock>) {
    let mut next_later = 0;
    for old in earlier {
        let partner = later[next_later..]
            .iter()
            .position(|new| new.same_origin(old))
            .map(|offset| next_later + offset);
        match partner {
            Some(index) => {
                out.extend(later[next_later..index].iter().map(added));
                out.push(changed(old, &later[index]));
                next_later = index + 1;
            }
            None => out.push(removed(old)),
        }
    }
    out.extend(later[next_later..].iter().map(added));
}

fn aligned(change: BlockChange, keyed: &Keyed<'_>, tokens_before: u64) -> AlignedBlock {
    AlignedBlock {
        change,
        channel: keyed.block.channel,
        role: keyed.role,
        source: keyed.block.source.clone(),
        tokens_before,
        tokens_after: keyed.block.tokens,
        reminder: keyed.block.reminder,
        text: None,
        words: Vec::new(),
        words_skipped: None,
    }
}

fn added(keyed: &Keyed<'_>) -> AlignedBlock {
    AlignedBlock {
        text: Some(keyed.block.text.clone()),
        ..aligned(BlockChange::Added, keyed, 0)
    }
}

fn removed(keyed: &Keyed<'_>) -> AlignedBlock {
    AlignedBlock {
        tokens_after: 0,
        text: Some(keyed.block.text.clone()),
        ..aligned(BlockChange::Removed, keyed, keyed.block.tokens)
    }
}

fn changed(old: &Keyed<'_>, new: &Keyed<'_>) -> AlignedBlock {
    let mut block = aligned(BlockChange::Changed, new, old.block.tokens);
    let (earlier, later) = (old.block.text.as_str(), new.block.text.as_str());
    let words = word_count(earlier) + word_count(later);
    if words > MAX_INLINE_WORDS {
        block.words_skipped = Some(format!(
            "{words} words on both sides, over the inline diff's limit of {MAX_INLINE_WORDS}: \
             the block is shown as replaced"
        ));
    } else {
        block.words = word_spans(earlier, later);
    }
    block
}

fn word_count(text: &str) -> usize {
    text.split_whitespace().count()
}

/// The word diff of two texts: adjacent runs of one kind merged, and the whitespace
/// between two changes counted as changed, so a rewritten passage reads as one deletion
/// and one insertion rather than word-by-word alternation.
fn word_spans(earlier: &str, later: &str) -> Vec<WordSpan> {
    let (earlier_words, later_words) = (words(earlier), words(later));
    let mut runs: Vec<WordSpan> = Vec::new();
    for edit in edit_script(&earlier_words, &later_words) {
        let (op, texts) = match edit {
            Edit::Equal { old, len, .. } => (WordOp::Equal, &earlier_words[old..old + len]),
            Edit::Delete { old, len } => (WordOp::Delete, &earlier_words[old..old + len]),
            Edit::Insert { new, len } => (WordOp::Insert, &later_words[new..new + len]),
        };
        for text in texts {
            push_run(&mut runs, op, text);
        }
    }
    let mut spans = Vec::with_capacity(runs.len());
    let (mut deleted, mut inserted) = (String::new(), String::new());
    for (index, run) in runs.iter().enumerate() {
        let between_changes = index > 0 && index + 1 < runs.len() && run.text.trim().is_empty();
        match run.op {
            WordOp::Equal if !between_changes => {
                push_run(&mut spans, WordOp::Delete, &core::mem::take(&mut deleted));
                push_run(&mut spans, WordOp::Insert, &core::mem::take(&mut inserted));
                push_run(&mut spans, WordOp::Equal, &run.text);
            }
            WordOp::Equal => {
                deleted.push_str(&run.text);
                inserted.push_str(&run.text);
            }
            WordOp::Delete => deleted.push_str(&run.text),
            WordOp::Insert => inserted.push_str(&run.text),
        }
    }
    push_run(&mut spans, WordOp::Delete, &deleted);
    push_run(&mut spans, WordOp::Insert, &inserted);
    spans
}

/// `text` cut into words and the whitespace between them, each its own token.
fn words(text: &str) -> Vec<&str> {
    let mut tokens = Vec::new();
    let mut start = 0;
    let mut in_space = None;
    for (at, c) in text.char_indices() {
        let space = c.is_whitespace();
        if in_space.is_some_and(|was| was != space) {
            tokens.push(&text[start..at]);
            start = at;
        }
        in_space = Some(space);
    }
    if start < text.len() {
        tokens.push(&text[start..]);
    }
    tokens
}

/// Appends `text` as `op`, to the last run when it is of the same kind; empty text adds
/// nothing.
fn push_run(runs: &mut Vec<WordSpan>, op: WordOp, text: &str) {
    if text.is_empty() {
        return;
    }
    match runs.last_mut() {
        Some(last) if last.op == op => last.text.push_str(text),
        _ => runs.push(WordSpan {
            op,
            text: String::from(text),
        }),
    }
}

/// The leading unchanged blocks and their tokens.
fn prefix_kept(blocks: &[AlignedBlock]) -> PrefixKept {
    let leading = blocks
        .iter()
        .take_while(|block| block.change == BlockChange::Unchanged);
    PrefixKept {
        blocks: leading.clone().count(),
        tokens: leading.map(|block| block.tokens_before).sum(),
    }
}

fn cache_verdict(
    blocks: &[AlignedBlock],
    prefix: PrefixKept,
    earlier_blocks: usize,
    options: &RequestDiffOptions,
) -> CacheVerdict {
    let first_difference = blocks
        .iter()
        .position(|block| block.change != BlockChange::Unchanged);
    let kept = format!(
        "the first {} blocks ({} tokens) are unchanged",
        prefix.blocks, prefix.tokens
    );
    if let Some(elapsed) = options
        .elapsed_ms
        .filter(|elapsed| *elapsed > options.cache_ttl_ms)
    {
        return CacheVerdict {
            cause: CacheBreak::TtlExpired,
            at: first_difference,
            reason: format!(
                "{} s passed since the previous request, more than the cache's {} s lifetime: \
                 nothing cached is left to read, though {kept}",
                elapsed / 1_000,
                options.cache_ttl_ms / 1_000
            ),
        };
    }
    if prefix.blocks == earlier_blocks {
        return CacheVerdict {
            cause: CacheBreak::None,
            at: first_difference,
            reason: format!(
                "the previous request ({} blocks, {} tokens) is this one's prefix: a cache \
                 holding it serves all of it, and only what follows is new",
                prefix.blocks, prefix.tokens
            ),
        };
    }
    let at = first_difference.unwrap_or(prefix.blocks);
    let (cause, what) = match blocks.get(at) {
        _ if options.compacted => (
            CacheBreak::Compaction,
            String::from("compaction rewrote the conversation"),
        ),
        Some(block) => first_break(block),
        None => (
            CacheBreak::Removed,
            String::from("the previous request's last blocks were left out"),
        ),
    };
    CacheVerdict {
        cause,
        at: Some(at),
        reason: format!("{what}: {kept}, and everything after them is written to the cache anew"),
    }
}

/// What the first differing block did to the prefix.
fn first_break(block: &AlignedBlock) -> (CacheBreak, String) {
    let source = &block.source;
    match (block.channel, block.change) {
        (Channel::Tools, _) => (
            CacheBreak::ToolsChanged,
            format!("the tool definitions changed at `{source}`"),
        ),
        (Channel::System, _) => (
            CacheBreak::SystemChanged,
            format!("the system prompt changed at `{source}`"),
        ),
        (Channel::UserContext, _) => (
            CacheBreak::ContextChanged,
            format!("the user context changed at `{source}`"),
        ),
        (Channel::Messages, BlockChange::Added) => {
            let what = if block.reminder {
                "a reminder"
            } else {
                "a block"
            };
            (
                CacheBreak::Inserted,
                format!("{what} (`{source}`) was inserted before the end of the previous request"),
            )
        }
        (Channel::Messages, BlockChange::Removed) => (
            CacheBreak::Removed,
            format!("a block the previous request sent (`{source}`) was left out"),
        ),
        (Channel::Messages, _) => (
            CacheBreak::Edited,
            format!("a block the previous request sent (`{source}`) was edited"),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::request::{Category, Message};
    use crate::tokens::TokenMethod;
    use alloc::rc::Rc;
    use alloc::vec;

    fn text(source: &str, text: &str) -> Block {
        Block::text(
            source,
            Category::Conversation,
            text.into(),
            TokenMethod::ClaudeCode,
        )
    }

    fn request(system: &[&str], messages: &[(Role, Vec<Block>)]) -> Request {
        Request {
            system: system
                .iter()
                .map(|t| text("system_static", t).in_channel(Channel::System))
                .collect(),
            messages: messages
                .iter()
                .map(|(role, content)| {
                    Rc::new(Message {
                        role: *role,
                        content: content.clone(),
                    })
                })
                .collect(),
            ..Request::default()
        }
    }

    fn changes(diff: &RequestDiff) -> Vec<&'static str> {
        diff.blocks.iter().map(|b| b.change.as_str()).collect()
    }

    #[test]
    fn an_appended_turn_keeps_the_whole_prefix() {
        let first = request(&["sys"], &[(Role::User, vec![text("prompt", "hello")])]);
        let second = request(
            &["sys"],
            &[
                (Role::User, vec![text("prompt", "hello")]),
                (Role::Assistant, vec![text("assistant", "hi")]),
            ],
        );
        let diff = request_diff(&first, &second, &RequestDiffOptions::default());
        assert_eq!(changes(&diff), ["unchanged", "unchanged", "added"]);
        assert_eq!(diff.cache.cause, CacheBreak::None);
        assert_eq!(diff.prefix.blocks, 2);
    }

    #[test]
    fn a_reminder_inserted_mid_way_breaks_the_prefix_there() {
        let before = request(
            &["sys"],
            &[(Role::User, vec![text("prompt", "a"), text("prompt", "b")])],
        );
        let mut reminder = text("todo_reminder", "<system-reminder>todo</system-reminder>");
        reminder.reminder = true;
        let after = request(
            &["sys"],
            &[(
                Role::User,
                vec![text("prompt", "a"), reminder, text("prompt", "b")],
            )],
        );
        let diff = request_diff(&before, &after, &RequestDiffOptions::default());
        assert_eq!(diff.cache.cause, CacheBreak::Inserted);
        assert_eq!(diff.cache.at, Some(2));
        assert!(
            diff.cache.reason.contains("a reminder (`todo_reminder`)"),
            "{}",
            diff.cache.reason
        );
    }

    #[test]
    fn an_edited_block_carries_its_word_diff() {
        let before = request(
            &["sys"],
            &[(Role::User, vec![text("tool", "the old output here")])],
        );
        let after = request(
            &["sys"],
            &[(Role::User, vec![text("tool", "the new output here")])],
        );
        let diff = request_diff(&before, &after, &RequestDiffOptions::default());
        assert_eq!(changes(&diff), ["unchanged", "changed"]);
        assert_eq!(diff.cache.cause, CacheBreak::Edited);
        let ops: Vec<(&str, &str)> = diff.blocks[1]
            .words
            .iter()
            .map(|w| (w.op.as_str(), w.text.as_str()))
            .collect();
        assert_eq!(
            ops,
            [
                ("equal", "the "),
                ("delete", "old"),
                ("insert", "new"),
                ("equal", " output here")
            ]
        );
    }

    #[test]
    fn a_system_change_is_named_before_the_messages() {
        let before = request(
            &["sys", "date: Monday"],
            &[(Role::User, vec![text("prompt", "a")])],
        );
        let after = request(
            &["sys", "date: Tuesday"],
            &[(Role::User, vec![text("prompt", "a")])],
        );
        let diff = request_diff(&before, &after, &RequestDiffOptions::default());
        assert_eq!(diff.cache.cause, CacheBreak::SystemChanged);
        assert_eq!(
            (diff.prefix.blocks, diff.changed, diff.unchanged),
            (1, 1, 2)
        );
    }

    #[test]
    fn expiry_and_compaction_are_named_whatever_the_blocks_say() {
        let first = request(&["sys"], &[(Role::User, vec![text("prompt", "a")])]);
        let late = RequestDiffOptions {
            elapsed_ms: Some(400_000),
            ..RequestDiffOptions::default()
        };
        assert_eq!(
            request_diff(&first, &first, &late).cache.cause,
            CacheBreak::TtlExpired
        );
        let summary = request(&["sys"], &[(Role::User, vec![text("summary", "so far")])]);
        let compacted = RequestDiffOptions {
            compacted: true,
            ..RequestDiffOptions::default()
        };
        let diff = request_diff(&first, &summary, &compacted);
        assert_eq!(diff.cache.cause, CacheBreak::Compaction);
        assert_eq!(changes(&diff), ["unchanged", "removed", "added"]);
    }

    #[test]
    fn a_rewritten_passage_is_one_deletion_and_one_insertion() {
        let spans = word_spans("keep: one two three. end", "keep: uno dos tres. end");
        let ops: Vec<(&str, &str)> = spans
            .iter()
            .map(|w| (w.op.as_str(), w.text.as_str()))
            .collect();
        assert_eq!(
            ops,
            [
                ("equal", "keep: "),
                ("delete", "one two three."),
                ("insert", "uno dos tres."),
                ("equal", " end")
            ]
        );
    }

    #[test]
    fn long_blocks_are_replaced_without_a_word_diff() {
        let long_a = "a ".repeat(MAX_INLINE_WORDS);
        let long_b = "b ".repeat(MAX_INLINE_WORDS);
        let before = request(&[], &[(Role::User, vec![text("tool", &long_a)])]);
        let after = request(&[], &[(Role::User, vec![text("tool", &long_b)])]);
        let diff = request_diff(&before, &after, &RequestDiffOptions::default());
        assert!(diff.blocks[0].words.is_empty());
        assert!(diff.blocks[0]
            .words_skipped
            .as_deref()
            .is_some_and(|r| r.contains("limit of 6000")));
    }
}
