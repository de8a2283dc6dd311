//! `extractMentions`'s result in the shape the TypeScript `Mentions` declares.

use context_assembly::mention::Mentions;
use serde::Serialize;

/// Mentions whose spans are in UTF-16 units ([`Mentions::in_utf16`]), serialised in JS
/// shape: each mention's fields with its `start` and `end`, absent ones left out.
pub struct MentionsJsShape(pub Mentions);

impl Serialize for MentionsJsShape {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        js_shape(&self.0).serialize(serializer)
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct MentionsJs<'a> {
    files: Vec<FileMentionJs<'a>>,
    mcp_resources: Vec<McpMentionJs<'a>>,
    agents: Vec<AgentMentionJs<'a>>,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct FileMentionJs<'a> {
    raw: &'a str,
    path: &'a str,
    #[serde(skip_serializing_if = "Option::is_none")]
    line_start: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    line_end: Option<u64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    fragment: Option<&'a str>,
    quoted: bool,
    start: usize,
    end: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    problem: Option<&'a str>,
}

#[derive(Serialize)]
struct McpMentionJs<'a> {
    raw: &'a str,
    server: &'a str,
    uri: &'a str,
    start: usize,
    end: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AgentMentionJs<'a> {
    raw: &'a str,
    agent_type: &'a str,
    start: usize,
    end: usize,
}

/// The mentions in the shape of the `Mentions` interface.
fn js_shape<'a>(mentions: &'a Mentions) -> MentionsJs<'a> {
    let files = mentions.files.iter().map(|m| FileMentionJs {
        raw: &m.raw,
        path: &m.path,
        line_start: m.line_start,
        line_end: m.line_end,
        fragment: m.fragment.as_deref(),
        quoted: m.quoted,
        start: m.span.start,
        end: m.span.end,
        problem: m.problem.as_deref(),
    });
    let mcp_resources = mentions.mcp_resources.iter().map(|m| McpMentionJs {
        raw: &m.raw,
        server: &m.server,
        uri: &m.uri,
        start: m.span.start,
        end: m.span.end,
    });
    let agents = mentions.agents.iter().map(|m| AgentMentionJs {
        raw: &m.raw,
        agent_type: &m.agent_type,
        start: m.span.start,
        end: m.span.end,
    });
    MentionsJs {
        files: files.collect(),
        mcp_resources: mcp_resources.collect(),
        agents: agents.collect(),
    }
}
