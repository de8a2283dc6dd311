//! YAML frontmatter of memory files and the `paths:` globs of conditional rules (spec
//! claude-code.md §8.4–8.5).

use alloc::string::{String, ToString};
use alloc::vec::Vec;

/// Most patterns one `paths:` value may expand to; braces multiply, so this bounds the
/// work on a hostile `{a,b}{a,b}{a,b}…`.
pub const MAX_PATH_PATTERNS: usize = 256;

/// Splits `FRONTMATTER_REGEX = /^---\s*\n([\s\S]*?)---\s*\n?/` off `text`: returns the
/// frontmatter and the byte offset where the body starts.
///
/// The regex's backtracking reduces to this: after the opening `---`, the whitespace run
/// must hold a newline and the content starts after its last newline; the content ends at
/// the first `---` anywhere after that (even mid-line), and the greedy `\s*` then eats
/// every whitespace character that follows, blank lines included.
pub(crate) fn split_frontmatter(text: &str) -> Option<(&str, usize)> {
    let after_open = text.strip_prefix("---")?;
    let run = whitespace_run(after_open);
    let last_newline = after_open[..run].rfind('\n')?;
    let content_start = 3 + last_newline + 1;
    let rest = &text[content_start..];
    let close = rest.find("---")?;
    let after_close = content_start + close + 3;
    let body_start = after_close + whitespace_run(&text[after_close..]);
    Some((&rest[..close], body_start))
}

fn whitespace_run(text: &str) -> usize {
    text.char_indices()
        .find(|(_, c)| !crate::js::is_whitespace(*c))
        .map_or(text.len(), |(i, _)| i)
}

/// The globs of a rule's `paths:` key, after comma splitting, brace expansion, removal of
/// a trailing `/**` and of empty patterns. `None` when the file is unconditional: no
/// `paths:` key, no pattern left, or only `**`.
pub(super) fn paths_globs(frontmatter: &str) -> Option<Vec<String>> {
    let values = paths_values(frontmatter)?;
    let mut patterns = Vec::new();
    for value in values {
        for pattern in split_path_list(&value) {
            if patterns.len() >= MAX_PATH_PATTERNS {
                break;
            }
            let pattern = pattern.strip_suffix("/**").unwrap_or(&pattern);
            if !pattern.is_empty() {
                patterns.push(pattern.to_string());
            }
        }
    }
    let conditional = patterns.iter().any(|p| p != "**");
    conditional.then_some(patterns)
}

/// The raw values of the top-level `paths:` key: a scalar, a flow list `[a, b]` or a
/// block list of `- item` lines. Only this key is read, so a full YAML parser is not
/// needed; quotes around values are removed.
fn paths_values(frontmatter: &str) -> Option<Vec<String>> {
    let mut lines = frontmatter.lines();
    let inline = lines
        .by_ref()
        .find_map(|line| line.strip_prefix("paths:"))?;
    let inline = inline.trim();
    if let Some(flow) = inline.strip_prefix('[').and_then(|s| s.strip_suffix(']')) {
        return Some(split_outside_braces(flow).map(unquote).collect());
    }
    if !inline.is_empty() {
        return Some(alloc::vec![unquote(inline)]);
    }
    let items = lines
        .map(str::trim)
        .take_while(|line| line.is_empty() || line.starts_with('-'))
        .filter_map(|line| line.strip_prefix('-'))
        .map(|item| unquote(item.trim()))
        .collect();
    Some(items)
}

fn unquote(value: &str) -> String {
    let value = value.trim();
    for quote in ['"', '\''] {
        if let Some(inner) = value
            .strip_prefix(quote)
            .and_then(|v| v.strip_suffix(quote))
        {
            return inner.to_string();
        }
    }
    value.to_string()
}

/// `splitPathInFrontmatter`: commas outside braces split, parts are trimmed, empty parts
/// dropped, and each part's braces expanded.
fn split_path_list(value: &str) -> Vec<String> {
    let mut out = Vec::new();
    for part in split_outside_braces(value) {
        let part = part.trim();
        if !part.is_empty() {
            expand_braces(part, &mut out);
        }
    }
    out
}

fn split_outside_braces(value: &str) -> impl Iterator<Item = &str> {
    let mut depth = 0i32;
    value.split(move |c| {
        match c {
            '{' => depth += 1,
            '}' => depth -= 1,
            _ => {}
        }
        c == ',' && depth <= 0
    })
}

/// Expands `{a,b}` groups, nested ones included (`{a,{b,c}}` → `a`, `b`, `c`); each
/// alternative is trimmed, a group with one alternative loses its braces, and `{}` or an
/// unclosed `{` stays literal. Stops at [`MAX_PATH_PATTERNS`] results.
fn expand_braces(pattern: &str, out: &mut Vec<String>) {
    let mut pending = alloc::vec![pattern.to_string()];
    while let Some(current) = pending.pop() {
        if out.len() + pending.len() >= MAX_PATH_PATTERNS {
            break;
        }
        let Some((open, close)) = first_group(&current) else {
            out.push(current);
            continue;
        };
        let (prefix, suffix) = (&current[..open], &current[close + 1..]);
        let alternatives: Vec<&str> = split_outside_braces(&current[open + 1..close]).collect();
        for alternative in alternatives.iter().rev() {
            let mut expanded = String::with_capacity(current.len());
            expanded.push_str(prefix);
            expanded.push_str(alternative.trim());
            expanded.push_str(suffix);
            pending.push(expanded);
        }
    }
}

/// Byte offsets of the first `{` that has a matching `}` with something between them.
fn first_group(pattern: &str) -> Option<(usize, usize)> {
    let bytes = pattern.as_bytes();
    let mut search = 0;
    while let Some(offset) = bytes.get(search..)?.iter().position(|&b| b == b'{') {
        let open = search + offset;
        let mut depth = 0usize;
        for (i, &b) in bytes.iter().enumerate().skip(open) {
            match b {
                b'{' => depth += 1,
                b'}' => {
                    depth -= 1;
                    if depth == 0 {
                        if i > open + 1 {
                            return Some((open, i));
                        }
                        break;
                    }
                }
                _ => {}
            }
        }
        search = open + 1;
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec;

    fn globs(frontmatter: &str) -> Option<Vec<String>> {
        paths_globs(frontmatter)
    }

    #[test]
    fn frontmatter_variants() {
        assert_eq!(
            split_frontmatter("---\na: 1\n---\nbody"),
            Some(("a: 1\n", 13))
        );
        // Spaces after the fences, CRLF, and blank lines after the closing fence.
        let text = "---  \r\na: 1\r\n---  \r\n\r\n\nbody";
        let (fm, start) = split_frontmatter(text).unwrap();
        assert_eq!((fm, &text[start..]), ("a: 1\r\n", "body"));
        // The closing `---` may sit mid-line.
        assert_eq!(split_frontmatter("---\na: x---y"), Some(("a: x", 11)));
        // Empty frontmatter, and blank lines before its content.
        assert_eq!(split_frontmatter("---\n---\nb"), Some(("", 8)));
        assert_eq!(split_frontmatter("---\n\n\na\n---\nb").unwrap().0, "a\n");
        assert_eq!(split_frontmatter("--- x\na\n---\n"), None);
        assert_eq!(split_frontmatter("---\nnever closed"), None);
        assert_eq!(split_frontmatter(" ---\na\n---\n"), None);
        assert_eq!(split_frontmatter("---"), None);
    }

    #[test]
    fn comma_list_and_braces() {
        assert_eq!(
            globs("paths: src/*.ts, lib/**"),
            Some(vec!["src/*.ts".into(), "lib".into()])
        );
        assert_eq!(
            globs("paths: src/*.{ts,tsx}, docs"),
            Some(vec!["src/*.ts".into(), "src/*.tsx".into(), "docs".into()])
        );
        assert_eq!(
            globs("paths: \"{a,{b,c}}/x\""),
            Some(vec!["a/x".into(), "b/x".into(), "c/x".into()])
        );
        assert_eq!(globs("paths: {x}.md"), Some(vec!["x.md".into()]));
        assert_eq!(globs("paths: a{}b"), Some(vec!["a{}b".into()]));
        assert_eq!(globs("paths: a{b,c"), Some(vec!["a{b,c".into()]));
    }

    #[test]
    fn yaml_lists() {
        let block = "name: x\npaths:\n  - \"src/**/*.rs\"\n  - 'tests/{a,b}.rs'\nother: 1";
        assert_eq!(
            globs(block),
            Some(vec![
                "src/**/*.rs".into(),
                "tests/a.rs".into(),
                "tests/b.rs".into()
            ])
        );
        assert_eq!(
            globs("paths: [a.md, \"b/*.md\"]"),
            Some(vec!["a.md".into(), "b/*.md".into()])
        );
    }

    #[test]
    fn unconditional_when_nothing_or_only_double_star_is_left() {
        assert_eq!(globs("name: x"), None);
        assert_eq!(globs("paths:"), None);
        assert_eq!(globs("paths: ,  ,"), None);
        assert_eq!(globs("paths: **, /**"), None);
        assert_eq!(
            globs("paths: **/**"),
            None,
            "`**/**` loses `/**` and is `**`"
        );
    }

    #[test]
    fn brace_expansion_is_bounded() {
        let bomb = "{a,b}".repeat(40);
        let expanded = globs(&alloc::format!("paths: {bomb}")).unwrap();
        assert!(expanded.len() <= MAX_PATH_PATTERNS);
        assert!(!expanded.is_empty());
    }
}
