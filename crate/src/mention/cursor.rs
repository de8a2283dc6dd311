//! The one mention under an editor's cursor: what a host asks on a keystroke to show a hover
//! or a completion, without building every mention of the prompt.

use core::ops::Range;

use super::collect::{find, Found};
use super::{
    agent_mention, file_mention, mcp_mention, specificity, AgentMention, FileMention, McpMention,
    MentionKind, MentionRules,
};
use crate::js::{byte_offset_of_utf16, utf16_len};

/// A mention of any kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum MentionAt {
    /// A file or directory.
    File(FileMention),
    /// An MCP resource.
    McpResource(McpMention),
    /// An agent.
    Agent(AgentMention),
}

impl MentionAt {
    /// What it names.
    pub fn kind(&self) -> MentionKind {
        match self {
            MentionAt::File(_) => MentionKind::File,
            MentionAt::McpResource(_) => MentionKind::McpResource,
            MentionAt::Agent(_) => MentionKind::Agent,
        }
    }

    /// Where it is in the text.
    pub fn span(&self) -> &Range<usize> {
        match self {
            MentionAt::File(m) => &m.span,
            MentionAt::McpResource(m) => &m.span,
            MentionAt::Agent(m) => &m.span,
        }
    }

    fn span_mut(&mut self) -> &mut Range<usize> {
        match self {
            MentionAt::File(m) => &mut m.span,
            MentionAt::McpResource(m) => &mut m.span,
            MentionAt::Agent(m) => &mut m.span,
        }
    }
}

/// The mention whose span touches byte `cursor` (from its `@` through its end, both edges
/// included, as a caret right after `@foo` is still on it), built as
/// [`super::extract_mentions`] builds it; `None` when the cursor is on none. Every
/// occurrence counts, also one that extraction de-duplicates away. When the rules read one
/// token several ways (claude-code: `@agent-x` is a file and an agent), the most specific
/// reading wins: an agent, then an MCP resource, then a file.
///
/// ```
/// use context_assembly::mention::{mention_at, MentionAt, MentionRules};
/// let text = "see @agent-x and @a.ts";
/// let at = mention_at(text, &MentionRules::claude_code(), 6).unwrap();
/// assert!(matches!(at, MentionAt::Agent(ref agent) if agent.agent_type == "x"));
/// assert_eq!(mention_at(text, &MentionRules::claude_code(), 13), None);
/// assert_eq!(mention_at(text, &MentionRules::claude_code(), text.len()).unwrap().span(), &(17..22));
/// ```
pub fn mention_at(text: &str, rules: &MentionRules, cursor: usize) -> Option<MentionAt> {
    let found = find(text, rules);
    let under = |found: &&Found| found.span.start <= cursor && cursor <= found.span.end;
    let chosen = (found.iter().filter(under)).min_by_key(|found| specificity(found.kind))?;
    Some(match chosen.kind {
        MentionKind::File => MentionAt::File(file_mention(text, chosen, rules)),
        MentionKind::McpResource => MentionAt::McpResource(mcp_mention(text, chosen)),
        MentionKind::Agent => MentionAt::Agent(agent_mention(text, chosen)),
    })
}

/// [`mention_at`] with the cursor and the span in UTF-16 units, as a JS string is indexed. A
/// cursor inside a surrogate pair counts from its character's start; one past the end is on
/// nothing.
///
/// ```
/// use context_assembly::mention::{mention_at_utf16, MentionRules};
/// let at = mention_at_utf16("😀 @café", &MentionRules::recommended(), 8).unwrap();
/// assert_eq!(at.span(), &(3..8));
/// assert_eq!(mention_at_utf16("😀 @café", &MentionRules::recommended(), 9), None);
/// ```
pub fn mention_at_utf16(text: &str, rules: &MentionRules, cursor: usize) -> Option<MentionAt> {
    let mut at = mention_at(text, rules, byte_offset_of_utf16(text, cursor)?)?;
    let span = at.span_mut();
    let units_before = |byte: usize| text.get(..byte).map_or(0, utf16_len);
    *span = units_before(span.start)..units_before(span.end);
    Some(at)
}
