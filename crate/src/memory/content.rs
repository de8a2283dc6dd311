//! What a memory file's text becomes before the model sees it (spec claude-code.md §8.4):
//! frontmatter and block-level HTML comments stripped, `@include` references found outside
//! code, and non-text files recognised.
//!
//! Claude Code runs the `marked` lexer; a line scanner over the block structure that
//! matters here (fenced and indented code, comment blocks, inline code spans) gives the
//! same answers for memory files as people write them, in linear time.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::frontmatter::{paths_globs, split_frontmatter};
use crate::js::is_whitespace as is_js_space;

/// A memory file's text after the transforms, with what the transforms found.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(super) struct ParsedMemory {
    /// The text the model sees.
    pub content: String,
    /// The `paths:` globs; `None` for an unconditional file.
    pub globs: Option<Vec<String>>,
    /// `@` references as written (fragment cut, `\ ` unescaped), first occurrence order.
    pub includes: Vec<String>,
}

/// `parseMemoryFileContent`: frontmatter off, block comments out, includes found.
pub(super) fn parse_memory(raw: &str) -> ParsedMemory {
    let (globs, body) = match split_frontmatter(raw) {
        Some((frontmatter, start)) => (paths_globs(frontmatter), &raw[start..]),
        None => (None, raw),
    };
    let mut content = String::with_capacity(body.len());
    let mut includes = Vec::new();
    for block in blocks(body) {
        match block {
            Block::Code(text) => content.push_str(text),
            Block::Text(text) => {
                content.push_str(text);
                find_includes(text, &mut includes);
            }
            Block::Comment(raw) => {
                let residue = strip_comment_block(raw);
                content.push_str(&residue);
                find_includes(&residue, &mut includes);
            }
        }
    }
    let mut seen = BTreeSet::new();
    includes.retain(|path| seen.insert(path.clone()));
    ParsedMemory {
        content,
        globs,
        includes,
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Block<'a> {
    /// Fenced or indented code: kept verbatim, never read for includes.
    Code(&'a str),
    /// A comment block from a line starting with `<!--` through the line holding its
    /// `-->` and the newlines after it; an unclosed one runs to the end of the text.
    Comment(&'a str),
    Text(&'a str),
}

/// Cuts `body` into consecutive blocks covering all of it.
fn blocks(body: &str) -> Vec<Block<'_>> {
    let mut out = Vec::new();
    let (mut pos, mut text_start) = (0, 0);
    let mut in_paragraph = false;
    while pos < body.len() {
        let line = line_at(body, pos);
        let block_end = if let Some((fence, count)) = opening_fence(line) {
            Some((fence_end(body, pos + line.len(), fence, count), true))
        } else if let Some(offset) = comment_opening(line) {
            Some((comment_end(body, pos + offset), false))
        } else if !in_paragraph && is_indented_code(line) {
            Some((indented_code_end(body, pos), true))
        } else {
            None
        };
        match block_end {
            Some((end, is_code)) => {
                if text_start < pos {
                    out.push(Block::Text(&body[text_start..pos]));
                }
                let text = &body[pos..end];
                out.push(if is_code {
                    Block::Code(text)
                } else {
                    Block::Comment(text)
                });
                (pos, text_start, in_paragraph) = (end, end, false);
            }
            None => {
                in_paragraph = !line.trim().is_empty();
                pos += line.len();
            }
        }
    }
    if text_start < body.len() {
        out.push(Block::Text(&body[text_start..]));
    }
    out
}

/// The line starting at `pos`, with its newline.
fn line_at(body: &str, pos: usize) -> &str {
    let rest = &body[pos..];
    rest.find('\n').map_or(rest, |i| &rest[..=i])
}

/// Up to three spaces of indentation, as CommonMark allows for block starts.
fn strip_block_indent(line: &str) -> Option<&str> {
    let indent = line.bytes().take_while(|&b| b == b' ').count();
    (indent <= 3).then(|| &line[indent..])
}

fn opening_fence(line: &str) -> Option<(u8, usize)> {
    let rest = strip_block_indent(line)?;
    let fence = *rest
        .as_bytes()
        .first()
        .filter(|&&b| b == b'`' || b == b'~')?;
    let count = rest.bytes().take_while(|&b| b == fence).count();
    let info = &rest[count..];
    (count >= 3 && !(fence == b'`' && info.contains('`'))).then_some((fence, count))
}

fn fence_end(body: &str, mut pos: usize, fence: u8, count: usize) -> usize {
    while pos < body.len() {
        let line = line_at(body, pos);
        pos += line.len();
        if let Some(rest) = strip_block_indent(line) {
            let run = rest.bytes().take_while(|&b| b == fence).count();
            if run >= count && rest[run..].trim().is_empty() {
                return pos;
            }
        }
    }
    body.len()
}

fn comment_opening(line: &str) -> Option<usize> {
    let rest = strip_block_indent(line)?;
    rest.starts_with("<!--").then(|| line.len() - rest.len())
}

/// `marked`'s comment block: `<!--` then `>`, `->` or anything up to `-->`, then the rest
/// of that line and the newlines after it; unclosed, the rest of the text.
fn comment_end(body: &str, open: usize) -> usize {
    let after = &body[open + 4..];
    let close = if after.starts_with('>') {
        Some(1)
    } else if after.starts_with("->") {
        Some(2)
    } else {
        after.find("-->").map(|i| i + 3)
    };
    let Some(close) = close else {
        return body.len();
    };
    let close = open + 4 + close;
    let line_end = body[close..].find('\n').map_or(body.len(), |i| close + i);
    line_end + body[line_end..].bytes().take_while(|&b| b == b'\n').count()
}

fn is_indented_code(line: &str) -> bool {
    let spaces = line.bytes().take_while(|&b| b == b' ').count();
    let indented = spaces >= 4 || line[spaces.min(3)..].starts_with('\t');
    indented && !line.trim().is_empty()
}

fn indented_code_end(body: &str, mut pos: usize) -> usize {
    while pos < body.len() {
        let line = line_at(body, pos);
        if !(is_indented_code(line) || line.trim().is_empty()) {
            break;
        }
        pos += line.len();
    }
    pos
}

/// Claude Code's rule for an HTML block: when it opens a comment and holds a `-->`, every
/// complete `<!--…-->` is removed and what remains is kept only if it is not blank. An
/// unclosed comment is kept whole.
fn strip_comment_block(raw: &str) -> String {
    if !raw.contains("-->") {
        return raw.to_string();
    }
    let residue = remove_comments(raw);
    if residue.trim_matches(is_js_space).is_empty() {
        String::new()
    } else {
        residue
    }
}

/// `raw.replace(/<!--[\s\S]*?-->/g, '')`.
fn remove_comments(raw: &str) -> String {
    let mut out = String::with_capacity(raw.len());
    let mut rest = raw;
    while let Some(open) = rest.find("<!--") {
        let Some(close) = rest[open + 4..].find("-->") else {
            break;
        };
        out.push_str(&rest[..open]);
        rest = &rest[open + 4 + close + 3..];
    }
    out.push_str(rest);
    out
}

/// `@path` references: an `@` at the start of the text or after whitespace, outside code
/// spans and inline comments; the path runs over non-space characters and `\ `, loses a
/// `#fragment`, and must look like a path (`./`, `~/`, `/x`, or a name character first).
fn find_includes(text: &str, out: &mut Vec<String>) {
    let skipped = inline_code_and_comments(text);
    let mut previous: Option<char> = None;
    let mut resume = 0;
    let mut next_skip = 0;
    for (i, c) in text.char_indices() {
        let after_space = previous.is_none_or(is_js_space);
        previous = Some(c);
        while skipped.get(next_skip).is_some_and(|r| r.end <= i) {
            next_skip += 1;
        }
        let in_code = skipped.get(next_skip).is_some_and(|r| r.contains(&i));
        if c != '@' || i < resume || !after_space || in_code {
            continue;
        }
        let raw = include_token(&text[i + 1..]);
        resume = i + 1 + raw.len();
        let path = raw.split('#').next().unwrap_or("").replace("\\ ", " ");
        if is_include_path(&path) {
            out.push(path);
        }
    }
}

fn include_token(text: &str) -> &str {
    let mut end = 0;
    let mut chars = text.char_indices().peekable();
    while let Some((i, c)) = chars.next() {
        if c == '\\' && matches!(chars.peek(), Some((_, ' '))) {
            chars.next();
            end = i + 2;
        } else if c == '\\' || is_js_space(c) {
            break;
        } else {
            end = i + c.len_utf8();
        }
    }
    &text[..end]
}

fn is_include_path(path: &str) -> bool {
    path.starts_with("./")
        || path.starts_with("~/")
        || (path.starts_with('/') && path != "/")
        || path
            .bytes()
            .next()
            .is_some_and(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// Byte ranges of inline code spans (a run of n backticks up to the next run of exactly
/// n) and of complete inline comments. The runs are indexed by length first, so that a
/// text full of unmatched runs is not rescanned for each one.
fn inline_code_and_comments(text: &str) -> Vec<core::ops::Range<usize>> {
    let bytes = text.as_bytes();
    let runs = backtick_runs(bytes);
    let mut by_len: BTreeMap<usize, Vec<usize>> = BTreeMap::new();
    for (index, &(_, len)) in runs.iter().enumerate() {
        by_len.entry(len).or_default().push(index);
    }
    let mut ranges = Vec::new();
    let (mut i, mut run) = (0, 0);
    let mut comments_may_close = true;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            while runs.get(run).is_some_and(|&(start, _)| start < i) {
                run += 1;
            }
            let len = runs.get(run).map_or(1, |&(_, len)| len);
            let close = by_len.get(&len).and_then(|same| {
                let after = same.partition_point(|&other| other <= run);
                same.get(after).and_then(|&other| runs.get(other))
            });
            match close {
                Some(&(start, len)) => {
                    ranges.push(i..start + len);
                    i = start + len;
                }
                None => i += len,
            }
        } else if comments_may_close && bytes[i..].starts_with(b"<!--") {
            match text[i + 4..].find("-->") {
                Some(close) => {
                    let end = i + 4 + close + 3;
                    ranges.push(i..end);
                    i = end;
                }
                None => comments_may_close = false,
            }
        } else {
            i += 1;
        }
    }
    ranges
}

/// Every maximal run of backticks as (start, length), in text order.
fn backtick_runs(bytes: &[u8]) -> Vec<(usize, usize)> {
    let mut runs = Vec::new();
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'`' {
            let len = bytes[i..].iter().take_while(|&&b| b == b'`').count();
            runs.push((i, len));
            i += len;
        } else {
            i += 1;
        }
    }
    runs
}

/// Extensions (lower case, with the dot) of files a memory include may load; Claude Code
/// keeps a list of text formats and skips anything else (an image, an archive). Ours
/// covers documentation, configuration and common source files.
const TEXT_EXTENSIONS: &[&str] = &[
    ".md",
    ".mdx",
    ".markdown",
    ".txt",
    ".text",
    ".rst",
    ".adoc",
    ".org",
    ".json",
    ".jsonc",
    ".json5",
    ".yaml",
    ".yml",
    ".toml",
    ".ini",
    ".cfg",
    ".conf",
    ".env",
    ".properties",
    ".xml",
    ".html",
    ".htm",
    ".css",
    ".scss",
    ".sass",
    ".less",
    ".csv",
    ".tsv",
    ".sql",
    ".graphql",
    ".gql",
    ".proto",
    ".js",
    ".mjs",
    ".cjs",
    ".jsx",
    ".ts",
    ".mts",
    ".cts",
    ".tsx",
    ".vue",
    ".svelte",
    ".py",
    ".pyi",
    ".rb",
    ".go",
    ".rs",
    ".java",
    ".kt",
    ".kts",
    ".scala",
    ".swift",
    ".m",
    ".mm",
    ".c",
    ".h",
    ".cc",
    ".cpp",
    ".cxx",
    ".hpp",
    ".hh",
    ".cs",
    ".fs",
    ".php",
    ".pl",
    ".pm",
    ".lua",
    ".r",
    ".jl",
    ".dart",
    ".ex",
    ".exs",
    ".erl",
    ".hs",
    ".ml",
    ".mli",
    ".clj",
    ".cljs",
    ".elm",
    ".zig",
    ".nim",
    ".sh",
    ".bash",
    ".zsh",
    ".fish",
    ".ps1",
    ".bat",
    ".cmd",
    ".mk",
    ".cmake",
    ".gradle",
    ".tf",
    ".hcl",
    ".nix",
    ".dockerfile",
    ".gitignore",
    ".editorconfig",
    ".lock",
    ".log",
    ".diff",
    ".patch",
    ".tex",
    ".bib",
];

/// Whether a file may be loaded as memory: no extension, or one of the text extensions.
/// The extension is Node's `extname` (a leading dot of the name is not one), lower-cased.
pub(super) fn has_text_extension(path: &str) -> bool {
    let name = path.rsplit('/').next().unwrap_or(path);
    match name.rfind('.') {
        None | Some(0) => true,
        Some(dot) => {
            let extension = name[dot..].to_ascii_lowercase();
            TEXT_EXTENSIONS.contains(&extension.as_str())
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn content(raw: &str) -> String {
        parse_memory(raw).content
    }

    fn includes(raw: &str) -> Vec<String> {
        parse_memory(raw).includes
    }

    #[test]
    fn frontmatter_is_stripped_and_paths_read() {
        let parsed = parse_memory("---\npaths: src/**\n---\n\nRule text\n");
        assert_eq!(parsed.content, "Rule text\n");
        assert_eq!(parsed.globs, Some(vec!["src".into()]));
        assert_eq!(content("no frontmatter\n---\n"), "no frontmatter\n---\n");
    }

    #[test]
    fn block_comments_are_stripped() {
        assert_eq!(content("a\n<!-- note -->\nb\n"), "a\nb\n");
        assert_eq!(content("a\n\n<!-- x\ny -->\n\n\nb"), "a\n\nb");
        assert_eq!(content("   <!-- indented up to 3 -->\nb"), "b");
        // Text after the comment on its closing line keeps the block (minus the comment).
        assert_eq!(content("<!-- c --> tail\nb"), " tail\nb");
        assert_eq!(content("<!-- a --><!-- b -->\nc"), "c");
        assert_eq!(content("<!-- a --> x <!-- b -->\nc"), " x \nc");
    }

    #[test]
    fn comments_in_code_inline_or_unclosed_are_kept() {
        let fenced = "```md\n<!-- kept -->\n```\n";
        assert_eq!(content(fenced), fenced);
        let tilde = "~~~~\n<!-- kept -->\n~~~\n~~~~\nafter\n<!-- gone -->\n";
        assert_eq!(content(tilde), "~~~~\n<!-- kept -->\n~~~\n~~~~\nafter\n");
        let indented = "para\n\n    <!-- code -->\n";
        assert_eq!(content(indented), indented);
        assert_eq!(
            content("text <!-- inline --> more\n"),
            "text <!-- inline --> more\n"
        );
        assert_eq!(
            content("a\n<!-- never closed\nb\n"),
            "a\n<!-- never closed\nb\n"
        );
        let unclosed_fence = "```\n<!-- in code to the end -->\n";
        assert_eq!(content(unclosed_fence), unclosed_fence);
        let too_indented = "    <!-- four spaces: code -->\n";
        assert_eq!(content(too_indented), too_indented);
    }

    #[test]
    fn include_syntax() {
        assert_eq!(
            includes("See @./a.md and @b.md.\n"),
            vec!["./a.md", "b.md."]
        );
        assert_eq!(
            includes("@~/x.md @/abs/y.md @/ @#x @!y"),
            vec!["~/x.md", "/abs/y.md"]
        );
        assert_eq!(includes("@docs/a.md#section"), vec!["docs/a.md"]);
        assert_eq!(includes("@my\\ file.md"), vec!["my file.md"]);
        assert_eq!(includes("mail user@host.com"), Vec::<String>::new());
        assert_eq!(includes("@a.md @a.md"), vec!["a.md"]);
    }

    #[test]
    fn includes_in_code_are_ignored() {
        assert_eq!(includes("`@a.md` @b.md"), vec!["b.md"]);
        assert_eq!(includes("``x ` @a.md`` @b.md"), vec!["b.md"]);
        assert_eq!(includes("```\n@a.md\n```\n@b.md"), vec!["b.md"]);
        assert_eq!(includes("x\n\n    @a.md\n"), Vec::<String>::new());
        assert_eq!(includes("<!-- @a.md -->\n@b.md"), vec!["b.md"]);
        assert_eq!(includes("text <!-- @a.md --> @b.md"), vec!["b.md"]);
    }

    #[test]
    fn unmatched_backtick_runs_and_comments_stay_linear() {
        let mut text = String::new();
        for n in 1..400 {
            text.push_str(&"`".repeat(n));
            text.push_str(" <!-- x ");
        }
        text.push_str("@a.md");
        assert_eq!(includes(&text), vec!["a.md"]);
    }

    #[test]
    fn text_extensions() {
        assert!(has_text_extension("/p/CLAUDE.md"));
        assert!(has_text_extension("/p/Makefile"));
        assert!(has_text_extension("/p/.bashrc"));
        assert!(has_text_extension("/p/a.TS"));
        assert!(!has_text_extension("/p/logo.png"));
        assert!(!has_text_extension("/p/a.zip"));
    }
}
