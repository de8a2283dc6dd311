//! What one value becomes: a text, a prompt, a path, a rule, a file's content, a tool input.
//! Each keeps what the engine reads in it (mentions, frontmatter keys, regex syntax, patch
//! markers) so the redacted scenario replays alike.

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::ops::Range;

use super::paths::PathCipher;
use super::text::{markup_spans, TextCipher};
use crate::memory::split_frontmatter;
use crate::mention::{extract_mentions, FileMention, MentionRules};
use crate::scenario::parse::Json;

/// Tool input fields that hold a path (or, for `Glob`, its `pattern`).
const PATH_FIELDS: [&str; 4] = ["file_path", "path", "notebook_path", "glob"];

/// Tool input fields whose values are names the engine acts on, not content.
const KEPT_FIELDS: [&str; 2] = ["output_mode", "status"];

/// The lines of Codex's patch format that open a file's section (spec codex.md §8.3): the
/// path after them is a path.
const PATCH_FILE_MARKERS: [&str; 4] = [
    "*** Add File: ",
    "*** Delete File: ",
    "*** Update File: ",
    "*** Move to: ",
];

/// The frontmatter keys the engine reads: a rule's `paths:` (spec claude-code.md §8.5) and a
/// memory's `name:` and `description:`, which the relevant-memory scorer weighs. Other keys
/// are text.
pub const FRONTMATTER_KEYS: [&str; 3] = ["description", "name", "paths"];

/// Marker lines of the patch format, kept whole.
const PATCH_MARKERS: [&str; 3] = ["*** Begin Patch", "*** End Patch", "*** End of File"];

/// The ciphers of one redaction, and what the scenario configures (which mentions resolve).
pub(super) struct ValueCipher {
    pub(super) text: TextCipher,
    pub(super) paths: PathCipher,
    pub(super) mentions: MentionRules,
    /// Agent names the scenario defines: `@agent-x` mentions them before any file.
    pub(super) agents: BTreeSet<String>,
}

impl ValueCipher {
    pub(super) fn text(&mut self, text: &str) -> String {
        self.text.text(text)
    }

    pub(super) fn path(&mut self, path: &str) -> String {
        self.paths.path(&mut self.text, path)
    }

    /// A permission rule: `Read(./secret/**)` keeps `Read(` and `)`, its pattern as a path.
    pub(super) fn deny_rule(&mut self, rule: &str) -> String {
        match (rule.find('('), rule.strip_suffix(')')) {
            (Some(open), Some(inner)) if open < inner.len() => {
                let pattern = self.path(&inner[open + 1..]);
                format!("{}({pattern})", &rule[..open])
            }
            _ => self.path(rule),
        }
    }

    /// A prompt (or a memory file's body): its mentions rewritten so that they still resolve,
    /// its markup kept, every other word replaced.
    pub(super) fn prompt(&mut self, text: &str) -> String {
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (span, mention) in self.mention_spans(text) {
            let Some(before) = text.get(at..span.start) else {
                continue;
            };
            self.text
                .text_keeping(before, &markup_spans(before), &mut out);
            out.push_str(&self.mention(&text[span.clone()], mention));
            at = span.end;
        }
        let rest = text.get(at..).unwrap_or_default();
        self.text.text_keeping(rest, &markup_spans(rest), &mut out);
        out
    }

    /// The mentions of `text`, sorted and disjoint: where an agent the scenario defines and a
    /// file overlap (`@agent-x` under claude-code), the agent.
    fn mention_spans(&self, text: &str) -> Vec<(Range<usize>, Mention)> {
        let found = extract_mentions(text, &self.mentions);
        let mut spans: Vec<(Range<usize>, Mention, bool)> = Vec::new();
        for agent in found.agents {
            let defined = self.agents.contains(&agent.agent_type);
            spans.push((agent.span, Mention::Agent(agent.agent_type), defined));
        }
        for resource in found.mcp_resources {
            let mention = Mention::Resource(resource.server, resource.uri);
            spans.push((resource.span, mention, true));
        }
        for file in found.files {
            spans.push((file.span.clone(), Mention::File(file), false));
        }
        // Preferred mentions first, then by position; a span overlapping a kept one goes.
        crate::sort::sort_by_key(&mut spans, |(span, _, preferred)| (!*preferred, span.start));
        let mut kept: Vec<(Range<usize>, Mention)> = Vec::new();
        for (span, mention, _) in spans {
            if kept
                .iter()
                .all(|(other, _)| span.end <= other.start || other.end <= span.start)
            {
                kept.push((span, mention));
            }
        }
        crate::sort::sort_by_key(&mut kept, |(span, _)| span.start);
        kept
    }

    /// One mention as written, its names redacted the way the configuration's are.
    fn mention(&mut self, written: &str, mention: Mention) -> String {
        match mention {
            Mention::File(file) => self.file_mention(written, &file),
            Mention::Agent(name) => match written.rfind(name.as_str()) {
                Some(at) if !name.is_empty() => {
                    let redacted = self.text(&name);
                    format!(
                        "{}{redacted}{}",
                        &written[..at],
                        &written[at + name.len()..]
                    )
                }
                _ => self.text(written),
            },
            Mention::Resource(server, uri) => {
                if written == format!("@{server}:{uri}") {
                    format!("@{}:{}", self.text(&server), self.text(&uri))
                } else {
                    self.text(written)
                }
            }
        }
    }

    /// A file mention: its path as the files' paths, its line range kept, a heading anchor
    /// as text.
    fn file_mention(&mut self, written: &str, file: &FileMention) -> String {
        let raw = file.raw.as_str();
        let path_end = if file.line_start.is_some() {
            raw.rfind(['#', ':']).unwrap_or(raw.len())
        } else if let Some(fragment) = &file.fragment {
            raw.len().saturating_sub(fragment.len() + 1)
        } else {
            raw.len()
        };
        let (Some(path), Some(suffix)) = (raw.get(..path_end), raw.get(path_end..)) else {
            return self.text(written);
        };
        let suffix = match &file.fragment {
            Some(_) => format!("#{}", self.text(suffix.get(1..).unwrap_or_default())),
            None => String::from(suffix),
        };
        let quote = if file.quoted { "\"" } else { "" };
        let prefix_end = written.find(raw).unwrap_or(1 + quote.len());
        format!(
            "{}{}{suffix}{quote}",
            &written[..prefix_end],
            self.path(path)
        )
    }

    /// A file's text: Markdown keeps its frontmatter's keys (the frontmatter as the memory
    /// loader splits it off) (and a rule's `paths:` as paths),
    /// memory files keep their @-imports resolvable, any other file is text.
    pub(super) fn file_content(&mut self, path: &str, content: &str) -> String {
        let name = path.rsplit('/').next().unwrap_or(path);
        let memory = matches!(name, "CLAUDE.md" | "CLAUDE.local.md" | "AGENTS.md")
            || path.contains("/rules/");
        let markdown = name.to_ascii_lowercase().ends_with(".md");
        let (frontmatter, body) = match markdown.then(|| split_frontmatter(content)).flatten() {
            Some((_, body_start)) => content.split_at(body_start),
            None => ("", content),
        };
        let mut out = self.frontmatter(frontmatter);
        out.push_str(&if memory {
            self.prompt(body)
        } else {
            self.text(body)
        });
        out
    }

    /// A Markdown file's frontmatter, line by line: the keys of [`FRONTMATTER_KEYS`] stay,
    /// the values of `paths:` are path patterns, everything else is text.
    fn frontmatter(&mut self, frontmatter: &str) -> String {
        let mut out = String::with_capacity(frontmatter.len());
        let mut in_paths = false;
        for line in frontmatter.split_inclusive('\n') {
            let trimmed = line.trim_start();
            let indent = &line[..line.len() - trimmed.len()];
            if let Some(item) = trimmed.strip_prefix('-').filter(|_| in_paths) {
                out.push_str(indent);
                out.push('-');
                out.push_str(&self.path_list(item));
            } else if let Some((key, value)) =
                yaml_key(trimmed).filter(|(key, _)| FRONTMATTER_KEYS.contains(key))
            {
                in_paths = key == "paths";
                out.push_str(indent);
                out.push_str(key);
                out.push(':');
                out.push_str(&if in_paths {
                    self.path_list(value)
                } else {
                    self.text(value)
                });
            } else {
                in_paths = false;
                out.push_str(&self.text(line));
            }
        }
        out
    }

    /// A list of path patterns as a rule's frontmatter writes them (`"src/**", lib/*.ts`):
    /// quotes, commas, brackets and spaces stay, each pattern is a path.
    fn path_list(&mut self, list: &str) -> String {
        let mut out = String::with_capacity(list.len());
        let mut rest = list;
        while !rest.is_empty() {
            let start = rest
                .find(|c: char| !is_list_punctuation(c))
                .unwrap_or(rest.len());
            out.push_str(&rest[..start]);
            rest = &rest[start..];
            let end = rest.find(is_list_punctuation).unwrap_or(rest.len());
            out.push_str(&self.path(&rest[..end]));
            rest = &rest[end..];
        }
        out
    }

    /// A tool call's input: see [`super::FieldRule::ToolInput`]. True when a text changed.
    pub(super) fn tool_input(&mut self, tool: &str, key: Option<&str>, input: &mut Json) -> bool {
        match input {
            Json::Object(entries) => entries.iter_mut().fold(false, |changed, (key, value)| {
                self.tool_input(tool, Some(key.as_str()), value) | changed
            }),
            Json::Array(items) => items.iter_mut().fold(false, |changed, item| {
                self.tool_input(tool, key, item) | changed
            }),
            Json::String(text) => {
                let redacted = match key {
                    Some(key) if PATH_FIELDS.contains(&key) => self.path(text),
                    Some("pattern") if tool == "Glob" => self.path(text),
                    Some("pattern") if tool == "Grep" => self.regex(text),
                    Some("input") if tool == "apply_patch" => self.patch(text),
                    Some(key) if KEPT_FIELDS.contains(&key) => return false,
                    _ => self.text(text),
                };
                let changed = redacted != *text;
                *text = redacted;
                changed
            }
            _ => false,
        }
    }

    /// A regular expression (Grep's pattern): its syntax stays (escapes, classes, groups'
    /// flags and names, repetition counts), its literal words are replaced as in the files,
    /// so it matches the redacted files where it matched the originals.
    pub(super) fn regex(&mut self, pattern: &str) -> String {
        let syntax = regex_syntax_spans(pattern);
        let mut out = String::with_capacity(pattern.len());
        self.text.text_keeping(pattern, &syntax, &mut out);
        out
    }

    /// Codex's patch: marker lines stay, the paths after a file's marker are paths, context
    /// and changed lines keep their first character and have their words replaced.
    pub(super) fn patch(&mut self, patch: &str) -> String {
        let mut out = String::with_capacity(patch.len());
        for line in patch.split_inclusive('\n') {
            let content = line.trim_end_matches(['\n', '\r']);
            let ending = &line[content.len()..];
            if let Some(marker) = PATCH_FILE_MARKERS.iter().find(|m| content.starts_with(**m)) {
                out.push_str(marker);
                out.push_str(&self.path(&content[marker.len()..]));
            } else if PATCH_MARKERS.contains(&content.trim_end()) {
                out.push_str(content);
            } else if let Some(context) = content.strip_prefix("@@") {
                out.push_str("@@");
                out.push_str(&self.text(context));
            } else if let Some(first) = content.chars().next().filter(|c| "+- ".contains(*c)) {
                out.push(first);
                out.push_str(&self.text(&content[first.len_utf8()..]));
            } else {
                out.push_str(&self.text(content));
            }
            out.push_str(ending);
        }
        out
    }
}

/// A mention, as the redaction rewrites it.
enum Mention {
    File(FileMention),
    Agent(String),
    /// Server and URI.
    Resource(String, String),
}

/// `key: value` at the start of a YAML line: a key of letters, digits, `_` and `-`.
fn yaml_key(line: &str) -> Option<(&str, &str)> {
    let (key, value) = line.split_once(':')?;
    let is_key = !key.is_empty()
        && key
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
    is_key.then_some((key, value))
}

fn is_list_punctuation(c: char) -> bool {
    matches!(c, '"' | '\'' | ',' | '[' | ']' | ' ' | '\t' | '\n' | '\r')
}

/// The syntax of a regular expression, as byte spans: escapes (`\s`, `\p{Greek}`,
/// `\x{263a}`), bracket classes (`[a-z_]`), group openings with their flags or names
/// (`(?i)`, `(?P<name>`), and repetition counts (`{2,3}`).
fn regex_syntax_spans(pattern: &str) -> Vec<Range<usize>> {
    let bytes = pattern.as_bytes();
    let mut spans = Vec::new();
    let mut at = 0;
    while at < bytes.len() {
        let end = match bytes[at] {
            b'\\' => escape_end(pattern, at),
            b'[' => class_end(bytes, at),
            b'(' if bytes.get(at + 1) == Some(&b'?') => Some(
                pattern[at..]
                    .find([':', ')', '>'])
                    .map_or(bytes.len(), |close| at + close + 1),
            ),
            b'{' => pattern[at..]
                .find('}')
                .filter(|&close| {
                    pattern[at + 1..at + close]
                        .chars()
                        .all(|c| c.is_ascii_digit() || c == ',')
                })
                .map(|close| at + close + 1),
            _ => None,
        };
        match end {
            Some(end) => {
                spans.push(at..end);
                at = end;
            }
            None => at += pattern[at..].chars().next().map_or(1, char::len_utf8),
        }
    }
    spans
}

/// The end of the escape at `at` (a backslash): the next character, or a braced argument
/// (`\p{…}`, `\x{…}`, `\u{…}`).
fn escape_end(pattern: &str, at: usize) -> Option<usize> {
    let next = pattern[at + 1..].chars().next()?;
    let after = at + 1 + next.len_utf8();
    if matches!(next, 'p' | 'P' | 'x' | 'u') && pattern[after..].starts_with('{') {
        return pattern[after..].find('}').map(|close| after + close + 1);
    }
    Some(after)
}

/// The end of the bracket class opening at `at`: past its `]`, where `]` first (or after
/// `^`) is a member and `\]` is escaped.
fn class_end(bytes: &[u8], at: usize) -> Option<usize> {
    let mut index = at + 1;
    if bytes.get(index) == Some(&b'^') {
        index += 1;
    }
    if bytes.get(index) == Some(&b']') {
        index += 1;
    }
    while index < bytes.len() {
        match bytes[index] {
            b'\\' => index += 2,
            b']' => return Some(index + 1),
            _ => index += 1,
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn regex_syntax_is_found() {
        let pattern = r"fn\s+parse_(?P<name>\w+)[a-z\]]{2,3}(?i)x";
        let spans: Vec<&str> = regex_syntax_spans(pattern)
            .into_iter()
            .map(|span| &pattern[span])
            .collect();
        assert_eq!(
            spans,
            [r"\s", "(?P<name>", r"\w", r"[a-z\]]", "{2,3}", "(?i)"]
        );
    }
}
