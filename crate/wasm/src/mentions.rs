//! The mention results in the shapes the TypeScript `Mentions` and `MentionAt` declare, and
//! in the compact form of `extractMentionSpans`.

use core::ops::Range;

use context_assembly::mention::{
    AgentMention, FileMention, McpMention, MentionAt, MentionKind, Mentions,
};
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
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
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
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    raw: &'a str,
    server: &'a str,
    uri: &'a str,
    start: usize,
    end: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct AgentMentionJs<'a> {
    #[serde(skip_serializing_if = "Option::is_none")]
    kind: Option<&'static str>,
    raw: &'a str,
    agent_type: &'a str,
    start: usize,
    end: usize,
}

/// The mentions in the shape of the `Mentions` interface.
fn js_shape<'a>(mentions: &'a Mentions) -> MentionsJs<'a> {
    MentionsJs {
        files: mentions.files.iter().map(|m| file_js(m, None)).collect(),
        mcp_resources: (mentions.mcp_resources.iter())
            .map(|m| mcp_js(m, None))
            .collect(),
        agents: mentions.agents.iter().map(|m| agent_js(m, None)).collect(),
    }
}

/// A mention in JS shape; with `kind`, as `mentionAt` gives it.
fn file_js<'a>(m: &'a FileMention, kind: Option<&'static str>) -> FileMentionJs<'a> {
    FileMentionJs {
        kind,
        raw: &m.raw,
        path: &m.path,
        line_start: m.line_start,
        line_end: m.line_end,
        fragment: m.fragment.as_deref(),
        quoted: m.quoted,
        start: m.span.start,
        end: m.span.end,
        problem: m.problem.as_deref(),
    }
}

fn mcp_js<'a>(m: &'a McpMention, kind: Option<&'static str>) -> McpMentionJs<'a> {
    McpMentionJs {
        kind,
        raw: &m.raw,
        server: &m.server,
        uri: &m.uri,
        start: m.span.start,
        end: m.span.end,
    }
}

fn agent_js<'a>(m: &'a AgentMention, kind: Option<&'static str>) -> AgentMentionJs<'a> {
    AgentMentionJs {
        kind,
        raw: &m.raw,
        agent_type: &m.agent_type,
        start: m.span.start,
        end: m.span.end,
    }
}

/// The mention under a cursor (spans in UTF-16 units), serialised as `MentionAt`: `kind`
/// beside the mention's own fields.
pub struct MentionAtJsShape(pub Option<MentionAt>);

/// One of the mention shapes, each carrying its `kind` (an untagged enum serialises as the
/// shape it holds, with no code of its own).
#[derive(Serialize)]
#[serde(untagged)]
enum MentionAtJs<'a> {
    File(FileMentionJs<'a>),
    McpResource(McpMentionJs<'a>),
    Agent(AgentMentionJs<'a>),
}

impl Serialize for MentionAtJsShape {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        let shaped = self.0.as_ref().map(|at| {
            let kind = Some(at.kind().as_str());
            match at {
                MentionAt::File(m) => MentionAtJs::File(file_js(m, kind)),
                MentionAt::McpResource(m) => MentionAtJs::McpResource(mcp_js(m, kind)),
                MentionAt::Agent(m) => MentionAtJs::Agent(agent_js(m, kind)),
            }
        });
        shaped.serialize(serializer)
    }
}

/// The compact form of `extractMentionSpans`: `[start, end, kind code]` for each mention
/// (spans in UTF-16 units, `mention_spans_utf16`). Offsets fit: a text is at most
/// `MAX_TEXT_UNITS` (2^25) units long.
pub fn flat_spans(spans: &[(MentionKind, Range<usize>)]) -> Vec<u32> {
    (spans.iter())
        .flat_map(|(kind, span)| [span.start as u32, span.end as u32, kind.code()])
        .collect()
}
