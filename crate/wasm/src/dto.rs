//! The values that cross to JS, in the shapes of the TypeScript interfaces in `lib.rs`.

use context_assembly::diff::{BudgetFallback, Snippet, SnippetRules};
use context_assembly::mention::Mentions;
use context_assembly::ProfileName;
use serde::Serialize;

use crate::utf16::Utf16Offsets;

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct FileMentionDto<'a> {
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
#[serde(rename_all = "camelCase")]
pub struct McpMentionDto<'a> {
    raw: &'a str,
    server: &'a str,
    uri: &'a str,
    start: usize,
    end: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct AgentMentionDto<'a> {
    raw: &'a str,
    agent_type: &'a str,
    start: usize,
    end: usize,
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct MentionsDto<'a> {
    files: Vec<FileMentionDto<'a>>,
    mcp_resources: Vec<McpMentionDto<'a>>,
    agents: Vec<AgentMentionDto<'a>>,
}

impl<'a> MentionsDto<'a> {
    /// Moves the mentions of `text` into JS shape, byte spans becoming UTF-16 offsets.
    pub fn new(text: &str, mentions: &'a Mentions) -> Self {
        let spans = mentions
            .files
            .iter()
            .map(|m| &m.span)
            .chain(mentions.mcp_resources.iter().map(|m| &m.span))
            .chain(mentions.agents.iter().map(|m| &m.span));
        let offsets = Utf16Offsets::new(text, spans.flat_map(|s| [s.start, s.end]).collect());
        MentionsDto {
            files: mentions
                .files
                .iter()
                .map(|m| FileMentionDto {
                    raw: &m.raw,
                    path: &m.path,
                    line_start: m.line_start,
                    line_end: m.line_end,
                    fragment: m.fragment.as_deref(),
                    quoted: m.quoted,
                    start: offsets.get(m.span.start),
                    end: offsets.get(m.span.end),
                    problem: m.problem.as_deref(),
                })
                .collect(),
            mcp_resources: mentions
                .mcp_resources
                .iter()
                .map(|m| McpMentionDto {
                    raw: &m.raw,
                    server: &m.server,
                    uri: &m.uri,
                    start: offsets.get(m.span.start),
                    end: offsets.get(m.span.end),
                })
                .collect(),
            agents: mentions
                .agents
                .iter()
                .map(|m| AgentMentionDto {
                    raw: &m.raw,
                    agent_type: &m.agent_type,
                    start: offsets.get(m.span.start),
                    end: offsets.get(m.span.end),
                })
                .collect(),
        }
    }
}

#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SnippetReportDto {
    pub text: String,
    hunks: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    truncated_lines: Option<usize>,
    work: u64,
    budget_exhausted: bool,
    reason: String,
}

impl SnippetReportDto {
    pub fn new(snippet: &Snippet, rules: &SnippetRules) -> Self {
        SnippetReportDto {
            text: snippet.text.clone(),
            hunks: snippet.hunks,
            truncated_lines: snippet.truncated_lines,
            work: snippet.work,
            budget_exhausted: snippet.budget_exhausted,
            reason: snippet_reason(snippet, rules),
        }
    }

    /// The report of a profile that sends no change snippets at all.
    pub fn not_tracked(profile: ProfileName) -> Self {
        SnippetReportDto {
            text: String::new(),
            hunks: 0,
            truncated_lines: None,
            work: 0,
            budget_exhausted: false,
            reason: format!(
                "the {profile} profile keeps no file state, so it never sends change snippets \
                 (spec/codex.md §8.1, X2)"
            ),
        }
    }
}

fn snippet_reason(snippet: &Snippet, rules: &SnippetRules) -> String {
    let budget = rules.work_budget;
    if snippet.budget_exhausted {
        return match rules.on_budget_exhausted {
            BudgetFallback::NoSnippet => format!(
                "the diff's work budget ({budget} units, the stand-in for the original's 5 s \
                 timeout) ran out, and the original sends no snippet after a timeout"
            ),
            BudgetFallback::ReplaceMiddle => format!(
                "the diff's work budget ({budget} units) ran out, so everything between the \
                 common first and last lines is shown as replaced"
            ),
        };
    }
    if snippet.text.is_empty() {
        return if snippet.hunks == 0 {
            "the two texts have the same lines: nothing changed".into()
        } else {
            "the change only deletes lines, and deleted lines are never shown (Q36), so the \
             snippet is empty and no note would be sent (Q35)"
                .into()
        };
    }
    let hunks = match snippet.hunks {
        1 => "1 hunk".into(),
        n => format!("{n} hunks"),
    };
    match snippet.truncated_lines {
        Some(lines) => format!(
            "{hunks} with {} lines of context, cut at the {}-unit cap; the marker counts {lines} \
             lines",
            rules.context_lines, rules.max_len
        ),
        None => format!("{hunks} with {} lines of context", rules.context_lines),
    }
}
