//! Finding the mentions: either the original's separate extractors, each with its own
//! regex pass (Q5), or one pass that classifies every token once.

use alloc::vec::Vec;
use core::ops::Range;

use super::lines::colon_range;
use super::scan::{
    cut, each_start, quoted_agent, quoted_content, run_end, unquoted_agent, AGENT_PREFIX,
    AGENT_SUFFIX,
};
use super::{MentionKind, MentionRules};

/// One mention found in the text, before it is interpreted.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct Found {
    pub(super) kind: MentionKind,
    /// Byte range of the extracted string (without `@` and quotes).
    pub(super) raw: Range<usize>,
    /// Byte range from the `@` through the end of the match.
    pub(super) span: Range<usize>,
    /// Written as `@"…"`.
    pub(super) quoted: bool,
}

/// Every mention in text order.
pub(super) fn find(text: &str, rules: &MentionRules) -> Vec<Found> {
    let mut found = Vec::new();
    if rules.classify_once {
        classify_tokens(text, rules, &mut found);
    } else {
        quoted_files(text, rules, &mut found);
        bare_tokens(text, rules, &mut found);
        agents(text, rules, &mut found);
        crate::sort::sort_by_key(&mut found, |found| found.span.start);
    }
    found
}

/// The original's quoted pass (§1.2 step 1).
fn quoted_files(text: &str, rules: &MentionRules, found: &mut Vec<Found>) {
    if !rules.quoted_paths {
        return;
    }
    each_start(text, rules, |at| {
        let content = quoted_content(text, at)?;
        let end = content.end + 1;
        let inner = text.get(content.clone()).unwrap_or("");
        if !inner.ends_with(AGENT_SUFFIX) {
            found.push(Found {
                kind: MentionKind::File,
                raw: content,
                span: at..end,
                quoted: true,
            });
        }
        Some(end)
    });
}

/// The original's regular and MCP passes (§1.2 step 2): one bare token feeds both.
fn bare_tokens(text: &str, rules: &MentionRules, found: &mut Vec<Found>) {
    each_start(text, rules, |at| {
        let run = run_end(text, at + 1, rules);
        if let Some(end) = cut(text, at + 1, run, rules.bare_end) {
            let raw = at + 1..end;
            let token = text.get(raw.clone()).unwrap_or("");
            if !(rules.quoted_paths && token.starts_with('"')) {
                found.push(bare(MentionKind::File, raw.clone()));
            }
            if rules.mcp_resources && has_inner_colon(token) {
                found.push(bare(MentionKind::McpResource, raw));
            }
        }
        Some(run)
    });
}

/// `[^\s]+:[^\s]+`: a colon with something on both sides.
fn has_inner_colon(token: &str) -> bool {
    let last = token.len().saturating_sub(1);
    token
        .bytes()
        .enumerate()
        .any(|(index, byte)| byte == b':' && index > 0 && index < last)
}

/// The original's agent passes: quoted, then unquoted (§1.2).
fn agents(text: &str, rules: &MentionRules, found: &mut Vec<Found>) {
    if !rules.agents {
        return;
    }
    each_start(text, rules, |at| {
        let name = quoted_agent(text, at)?;
        let end = name.end + AGENT_SUFFIX.len() + 1;
        found.push(Found {
            kind: MentionKind::Agent,
            raw: name,
            span: at..end,
            quoted: true,
        });
        Some(end)
    });
    each_start(text, rules, |at| {
        let end = unquoted_agent(text, at)?;
        let kept = if rules.trim_agent_names {
            cut(text, at + 1, end, rules.bare_end)
        } else {
            Some(end)
        };
        if let Some(kept) = kept.filter(|kept| *kept > at + 1 + AGENT_PREFIX.len()) {
            found.push(bare(MentionKind::Agent, at + 1..kept));
        }
        Some(end)
    });
}

fn bare(kind: MentionKind, raw: Range<usize>) -> Found {
    Found {
        kind,
        span: raw.start - 1..raw.end,
        raw,
        quoted: false,
    }
}

/// One pass, one meaning per token (Q5 fix): a quoted form, else a bare token that is an
/// agent (`agent-…`), else an MCP resource (`server:resource`), else a file.
fn classify_tokens(text: &str, rules: &MentionRules, found: &mut Vec<Found>) {
    each_start(text, rules, |at| {
        if rules.quoted_paths || rules.agents {
            if let Some(content) = quoted_content(text, at) {
                if let Some(end) = classify_quoted(text, at, content, rules, found) {
                    return Some(end);
                }
            }
        }
        let run = run_end(text, at + 1, rules);
        if let Some(end) = cut(text, at + 1, run, rules.bare_end) {
            let token = text.get(at + 1..end).unwrap_or("");
            if !(rules.quoted_paths && token.starts_with('"')) {
                let kind = classify(token, rules);
                let end = match kind {
                    MentionKind::Agent if !rules.trim_agent_names => run,
                    _ => end,
                };
                found.push(bare(kind, at + 1..end));
            }
        }
        Some(run)
    });
}

/// A quoted form: `@"name (agent)"` or a quoted path. `None` when the bare reading applies.
fn classify_quoted(
    text: &str,
    at: usize,
    content: Range<usize>,
    rules: &MentionRules,
    found: &mut Vec<Found>,
) -> Option<usize> {
    let end = content.end + 1;
    let span = at..end;
    let inner = text.get(content.clone()).unwrap_or("");
    if let Some(name) = inner.strip_suffix(AGENT_SUFFIX) {
        if rules.agents && !name.is_empty() {
            let raw = content.start..content.start + name.len();
            found.push(Found {
                kind: MentionKind::Agent,
                raw,
                span,
                quoted: true,
            });
        }
        return Some(end);
    }
    if !rules.quoted_paths {
        return None;
    }
    found.push(Found {
        kind: MentionKind::File,
        raw: content,
        span,
        quoted: true,
    });
    Some(end)
}

fn classify(token: &str, rules: &MentionRules) -> MentionKind {
    if rules.agents && token.len() > AGENT_PREFIX.len() && token.starts_with(AGENT_PREFIX) {
        MentionKind::Agent
    } else if rules.mcp_resources && is_mcp_resource(token) {
        MentionKind::McpResource
    } else {
        MentionKind::File
    }
}

/// `server:resource` where the server is a plain name and the resource is neither a line
/// range (`x:12` is a file and its line) nor the rest of a drive-letter path (`C:\x`).
fn is_mcp_resource(token: &str) -> bool {
    let Some((server, resource)) = token.split_once(':') else {
        return false;
    };
    let plain = |c: char| c.is_alphanumeric() || c == '_' || c == '-';
    let drive = server.len() == 1 && resource.starts_with(['/', '\\']);
    !server.is_empty()
        && server.chars().all(plain)
        && !resource.is_empty()
        && colon_range(resource).is_none()
        && !drive
}
