//! STUB — to be replaced by the mention helper. Interface contract only.
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

/// The @-mention grammar's switches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MentionRules {}

impl MentionRules {
    /// Claude Code's grammar, quirks included.
    pub fn claude_code() -> MentionRules { MentionRules {} }
    /// Codex: `@token` is the plain path text.
    pub fn codex() -> MentionRules { MentionRules {} }
    /// All fixes on.
    pub fn recommended() -> MentionRules { MentionRules {} }
}

/// A file mention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FileMention {
    /// What the original extracts.
    pub raw: String,
    /// The path.
    pub path: String,
    /// First line.
    pub line_start: Option<u64>,
    /// Last line.
    pub line_end: Option<u64>,
    /// Non-line fragment.
    pub fragment: Option<String>,
    /// Written as `@"…"`.
    pub quoted: bool,
    /// Byte span of the whole mention in the text.
    pub span: Range<usize>,
    /// Why this mention cannot be used as written.
    pub problem: Option<String>,
}

/// An MCP mention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct McpMention {
    /// raw
    pub raw: String,
    /// server
    pub server: String,
    /// uri
    pub uri: String,
    /// span
    pub span: Range<usize>,
}

/// An agent mention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AgentMention {
    /// raw
    pub raw: String,
    /// agent type
    pub agent_type: String,
    /// span
    pub span: Range<usize>,
}

/// All mentions.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Mentions {
    /// files
    pub files: Vec<FileMention>,
    /// mcp
    pub mcp_resources: Vec<McpMention>,
    /// agents
    pub agents: Vec<AgentMention>,
}

/// Extract.
pub fn extract_mentions(_text: &str, _rules: &MentionRules) -> Mentions { Mentions::default() }
