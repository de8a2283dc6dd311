//! How peer tools expand an @-mention (spec/strategies.md §14): reference behaviour to compare
//! our grammar with, not a policy.
//!
//! * **Cline** ([`cline_mentions`]): a regular grammar of seven alternatives, tried in order
//!   (§14.1); each mention's text is rewritten inline and a block is appended to the message.
//! * **OpenCode** ([`opencode_expansion`]): `@file` becomes a file part, expanded at send time
//!   as a synthetic call of its Read tool (§14.2); a range comes from `?start=&end=`.
//! * **Continue** ([`continue_provider`]): `@` opens a mention node in the editor, not text the
//!   model parses; each provider attaches context items (§14.3).
//! * **Aider** ([`aider_file_mentions`]): no @-mentions; file names written in the text are
//!   offered for adding (§14.4).
//!
//! [`expand`] says, for any mention and peer, what that peer would do with it.

use alloc::string::String;
use alloc::vec::Vec;

/// A peer tool.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Peer {
    /// cline/cline (classic extension).
    Cline,
    /// anomalyco/opencode.
    OpenCode,
    /// continuedev/continue.
    Continue,
    /// Aider-AI/aider.
    Aider,
}

/// What a Cline mention names (§14.1's alternatives).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ClineTarget {
    /// A file, relative to the workspace named (or the cwd).
    File {
        /// The workspace prefix, if any.
        workspace: Option<String>,
        /// The path as written (starting with `/`).
        path: String,
    },
    /// A folder (a path ending in `/`).
    Folder {
        /// The workspace prefix, if any.
        workspace: Option<String>,
        /// The path as written.
        path: String,
    },
    /// A URL.
    Url(String),
    /// A git commit hash (7–40 lowercase hex digits).
    GitCommit(String),
    /// `problems`, `terminal` or `git-changes`.
    Keyword(&'static str),
}

/// §14.1: Cline's keywords.
pub const CLINE_KEYWORDS: [&str; 3] = ["problems", "terminal", "git-changes"];

/// §14.1: trailing punctuation that may follow a mention without being part of it.
pub const CLINE_TRAILING_PUNCTUATION: &str = ".,;:!?()";

/// §14.1: file content above this many bytes is truncated (`MAX_CONTENT_SIZE_BYTES`).
pub const CLINE_MAX_CONTENT_BYTES: u64 = 400 * 1024;

/// §14.1: files larger than this are refused.
pub const CLINE_MAX_FILE_BYTES: u64 = 20 * 1024 * 1024;

/// §14.3 `MAX_SUBMENU_ITEMS`.
pub const CONTINUE_MAX_SUBMENU_ITEMS: usize = 10_000;

/// §14.3: Continue's registered context providers.
pub const CONTINUE_PROVIDERS: [&str; 30] = [
    "file",
    "diff",
    "tree",
    "issue",
    "google",
    "terminal",
    "debugger",
    "open",
    "http",
    "search",
    "os",
    "problems",
    "folder",
    "docs",
    "gitlab-mr",
    "jira",
    "postgres",
    "database",
    "codebase",
    "code",
    "currentFile",
    "url",
    "repo-map",
    "discord",
    "greptile",
    "web",
    "mcp",
    "commit",
    "clipboard",
    "rules",
];

/// §14.3: the providers that open a submenu of items.
pub const CONTINUE_SUBMENU_PROVIDERS: [&str; 2] = ["file", "folder"];

/// The mentions of `text` under Cline's grammar, in first-occurrence order, each once; a bare
/// `@/` is ignored.
///
/// ```
/// use context_assembly::mention::peers::{cline_mentions, ClineTarget};
/// let found = cline_mentions("fix @/src/a.ts, then @problems.");
/// assert_eq!(found[0], ClineTarget::File { workspace: None, path: "/src/a.ts".into() });
/// assert_eq!(found[1], ClineTarget::Keyword("problems"));
/// ```
pub fn cline_mentions(text: &str) -> Vec<ClineTarget> {
    let mut found: Vec<ClineTarget> = Vec::new();
    for (at, _) in text.match_indices('@') {
        let Some(target) = cline_mention_at(&text[at + 1..]) else {
            continue;
        };
        if !found.contains(&target) {
            found.push(target);
        }
    }
    found
}

/// The mention right after an `@`, if one of the alternatives matches and is followed by
/// optional trailing punctuation and then whitespace or the end.
fn cline_mention_at(rest: &str) -> Option<ClineTarget> {
    let token_end = rest.find(char::is_whitespace).unwrap_or(rest.len());
    let token = &rest[..token_end];
    let unquoted = token.trim_end_matches(|c| CLINE_TRAILING_PUNCTUATION.contains(c));
    let workspace_len = rest
        .find(|c: char| !(c.is_ascii_alphanumeric() || c == '_' || c == '-'))
        .unwrap_or(rest.len());
    if workspace_len > 0 && rest[workspace_len..].starts_with(':') {
        let name = &rest[..workspace_len];
        let after = &rest[workspace_len + 1..];
        if let Some(path) = quoted_path(after) {
            return Some(path_target(Some(name), path));
        }
        // `word://` is a URL, not a workspace path.
        if after.starts_with('/') && !after.starts_with("//") {
            let path = &unquoted[workspace_len + 1..];
            return (path.len() > 1).then(|| path_target(Some(name), path));
        }
    }
    if let Some(path) = quoted_path(rest) {
        return Some(path_target(None, path));
    }
    if unquoted.starts_with('/') {
        return (unquoted.len() > 1).then(|| path_target(None, unquoted));
    }
    if let Some((scheme, after)) = unquoted.split_once("://") {
        let is_word = !scheme.is_empty()
            && scheme
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_');
        if is_word && !after.is_empty() {
            return Some(ClineTarget::Url(String::from(unquoted)));
        }
    }
    let hex = (7..=40).contains(&unquoted.len())
        && unquoted
            .bytes()
            .all(|b| b.is_ascii_digit() || (b'a'..=b'f').contains(&b));
    if hex {
        return Some(ClineTarget::GitCommit(String::from(unquoted)));
    }
    CLINE_KEYWORDS
        .iter()
        .find(|k| **k == unquoted)
        .map(|k| ClineTarget::Keyword(k))
}

/// `"/…"` with no inner quote, followed by optional punctuation and whitespace or the end.
fn quoted_path(text: &str) -> Option<&str> {
    let inner = text.strip_prefix("\"/")?;
    let close = inner.find('"')?;
    let after = inner[close + 1..].trim_start_matches(|c| CLINE_TRAILING_PUNCTUATION.contains(c));
    let ends = after.is_empty() || after.starts_with(char::is_whitespace);
    ends.then(|| &text[1..close + 2])
}

fn path_target(workspace: Option<&str>, path: &str) -> ClineTarget {
    let workspace = workspace.map(String::from);
    let path = String::from(path);
    match path.ends_with('/') {
        true => ClineTarget::Folder { workspace, path },
        false => ClineTarget::File { workspace, path },
    }
}

/// What a peer does with one mention.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PeerExpansion {
    /// What the mention names, in the peer's terms (`file`, `folder`, `url`, `range`…).
    pub kind: &'static str,
    /// The text that replaces the mention inline, when the spec gives it.
    pub inline: Option<String>,
    /// What is added for the model: the block's opening tag, the synthetic call's input, or
    /// the context item.
    pub added: Option<String>,
    /// What else holds (limits, tracking), in a sentence.
    pub note: &'static str,
}

/// How Cline expands one target (§14.1).
///
/// ```
/// use context_assembly::mention::peers::{cline_expansion, ClineTarget};
/// let file = ClineTarget::File { workspace: None, path: "/src/a.ts".into() };
/// let expansion = cline_expansion(&file);
/// assert_eq!(expansion.inline.as_deref(), Some("'src/a.ts' (see below for file content)"));
/// assert_eq!(expansion.added.as_deref(), Some("<file_content path=\"src/a.ts\">"));
/// ```
pub fn cline_expansion(target: &ClineTarget) -> PeerExpansion {
    match target {
        ClineTarget::File { path, .. } => {
            let relative = path.trim_start_matches('/');
            PeerExpansion {
                kind: "file",
                inline: Some(alloc::format!("'{relative}' (see below for file content)")),
                added: Some(alloc::format!("<file_content path=\"{relative}\">")),
                note: "binary files are not shown, files over 20 MB are refused, content over 400 KB is truncated with a footer; no line ranges; the file is then tracked for outside edits",
            }
        }
        ClineTarget::Folder { path, .. } => {
            let relative = path.trim_start_matches('/');
            PeerExpansion {
                kind: "folder",
                inline: None,
                added: Some(alloc::format!("<folder_content path=\"{relative}\">")),
                note: "one level, not recursive: a tree listing and the full contents of every non-binary file directly inside",
            }
        }
        ClineTarget::Url(url) => PeerExpansion {
            kind: "url",
            inline: None,
            added: Some(alloc::format!("<url_content url=\"{url}\">")),
            note: "the page as Markdown, fetched by a headless browser launched only when a URL is mentioned",
        },
        ClineTarget::GitCommit(hash) => PeerExpansion {
            kind: "git commit",
            inline: None,
            added: Some(alloc::format!("<git_commit hash=\"{hash}\">")),
            note: "the commit's information",
        },
        ClineTarget::Keyword(keyword) => keyword_expansion(keyword),
    }
}

fn keyword_expansion(keyword: &str) -> PeerExpansion {
    match keyword {
        "problems" => PeerExpansion {
            kind: "problems",
            inline: Some(String::from(
                "Workspace Problems (see below for diagnostics)",
            )),
            added: Some(String::from("<workspace_diagnostics>")),
            note: "errors and warnings only",
        },
        "terminal" => PeerExpansion {
            kind: "terminal",
            inline: None,
            added: Some(String::from("<terminal_output>")),
            note: "the latest terminal output",
        },
        _ => PeerExpansion {
            kind: "git changes",
            inline: None,
            added: Some(String::from("<git_working_state>")),
            note: "the working tree's changes",
        },
    }
}

/// How OpenCode expands `@path` (§14.2): a synthetic Read call with its JSON input; a range
/// from `?start=&end=`; a trailing `/` is a directory, listed.
///
/// ```
/// use context_assembly::mention::peers::opencode_expansion;
/// let read = opencode_expansion("src/a.ts?start=59&end=66").unwrap();
/// assert_eq!(read.kind, "range");
/// assert_eq!(read.added.as_deref(), Some("src/a.ts, lines 59 to 66, in <results>"));
/// ```
pub fn opencode_expansion(mention: &str) -> Option<PeerExpansion> {
    let mention = mention.strip_prefix('@').unwrap_or(mention);
    if mention.is_empty() {
        return None;
    }
    let (path, query) = mention.split_once('?').unwrap_or((mention, ""));
    let field = |name: &str| {
        query
            .split('&')
            .find_map(|pair| pair.strip_prefix(name)?.strip_prefix('='))
            .and_then(|v| v.parse::<u64>().ok())
    };
    if path.ends_with('/') {
        return Some(PeerExpansion {
            kind: "directory",
            inline: None,
            added: Some(alloc::format!("{{\"filePath\":\"{path}\"}}")),
            note: "a directory part: its entries are listed",
        });
    }
    let expansion = match (field("start"), field("end")) {
        (Some(start), Some(end)) if end >= start => PeerExpansion {
            kind: "range",
            inline: None,
            added: Some(alloc::format!("{path}, lines {start} to {end}, in <results>")),
            note: "a line saying the Read tool was called on the path, then its output in <results>",
        },
        _ => PeerExpansion {
            kind: "file",
            inline: None,
            added: Some(alloc::format!("{{\"filePath\":\"{path}\"}}")),
            note: "a line saying the Read tool was called with this input, then the Read tool's own output, so the model sees a real read",
        },
    };
    Some(expansion)
}

/// Continue's provider for `@name` (§14.3): `None` when no provider is registered under it.
///
/// ```
/// use context_assembly::mention::peers::continue_provider;
/// assert_eq!(continue_provider("@folder").unwrap().kind, "submenu");
/// assert_eq!(continue_provider("@problems").unwrap().kind, "normal");
/// assert!(continue_provider("@nothing").is_none());
/// ```
pub fn continue_provider(mention: &str) -> Option<PeerExpansion> {
    let name = mention.strip_prefix('@').unwrap_or(mention);
    let provider = CONTINUE_PROVIDERS.iter().find(|p| **p == name)?;
    let submenu = CONTINUE_SUBMENU_PROVIDERS.contains(provider);
    Some(PeerExpansion {
        kind: if submenu { "submenu" } else { "normal" },
        inline: None,
        added: Some(alloc::format!(
            "ContextItem {{ name, description, content, uri }} from the {provider} provider"
        )),
        note: if submenu {
            "an editor mention node, not parsed text; its submenu lists up to 10,000 items"
        } else {
            "an editor mention node, not parsed text; the items are attached to the user message"
        },
    })
}

/// The repository files Aider offers to add for `text` (§14.4 `get_file_mentions`): words
/// stripped of `,.!;:?` and quotes that name a file's path, or its base name when that base
/// name is unique and contains `/`, `.`, `_` or `-`.
///
/// ```
/// use context_assembly::mention::peers::aider_file_mentions;
/// let files = ["src/app.py", "src/util_io.py", "a/run.sh", "b/run.sh", "docs/README"];
/// let offered = aider_file_mentions("Fix util_io.py, then \"src/app.py\"; run.sh and README?", &files);
/// assert_eq!(offered, ["src/util_io.py", "src/app.py"]);
/// ```
pub fn aider_file_mentions<'a>(text: &str, files: &[&'a str]) -> Vec<&'a str> {
    let mut offered: Vec<&str> = Vec::new();
    for word in text.split_whitespace() {
        let word = word.trim_matches(|c| ",.!;:?\"'`".contains(c));
        let by_path = files.iter().find(|f| **f == word).copied();
        let by_name = || {
            let special = word.contains(['/', '.', '_', '-']);
            let mut named = files.iter().filter(|f| base_name(f) == word);
            match (special, named.next(), named.next()) {
                (true, Some(only), None) => Some(*only),
                _ => None,
            }
        };
        if let Some(file) = by_path.or_else(by_name) {
            if !offered.contains(&file) {
                offered.push(file);
            }
        }
    }
    offered
}

fn base_name(path: &str) -> &str {
    path.rsplit('/').next().unwrap_or(path)
}

/// What `peer` does with `mention` (written with its `@`, or a bare word for Aider).
///
/// ```
/// use context_assembly::mention::peers::{expand, Peer};
/// assert_eq!(expand(Peer::Cline, "@a1b2c3d").unwrap().kind, "git commit");
/// assert!(expand(Peer::Aider, "@src/a.ts").is_none());
/// ```
pub fn expand(peer: Peer, mention: &str) -> Option<PeerExpansion> {
    match peer {
        Peer::Cline => cline_mentions(mention).first().map(cline_expansion),
        Peer::OpenCode => opencode_expansion(mention),
        Peer::Continue => continue_provider(mention),
        Peer::Aider => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn file(workspace: Option<&str>, path: &str) -> ClineTarget {
        ClineTarget::File {
            workspace: workspace.map(String::from),
            path: path.into(),
        }
    }

    #[test]
    fn the_spec_examples_match_their_alternatives() {
        let cases: [(&str, ClineTarget); 8] = [
            ("@frontend:/src/a.ts", file(Some("frontend"), "/src/a.ts")),
            ("@frontend:\"/a b.ts\"", file(Some("frontend"), "/a b.ts")),
            ("@/src/a.ts", file(None, "/src/a.ts")),
            (
                "@/src/",
                ClineTarget::Folder {
                    workspace: None,
                    path: "/src/".into(),
                },
            ),
            ("@\"/My Docs/a.md\"", file(None, "/My Docs/a.md")),
            (
                "@https://example.com/x",
                ClineTarget::Url("https://example.com/x".into()),
            ),
            ("@a1b2c3d", ClineTarget::GitCommit("a1b2c3d".into())),
            ("@problems", ClineTarget::Keyword("problems")),
        ];
        for (text, target) in cases {
            assert_eq!(
                cline_mentions(text),
                core::slice::from_ref(&target),
                "{text}"
            );
            assert_eq!(
                cline_mentions(&alloc::format!("see {text}).")),
                [target],
                "{text}"
            );
        }
    }

    #[test]
    fn cline_ignores_bare_slashes_and_repeats_and_needs_an_end() {
        assert!(cline_mentions("@/ and @ and @abc").is_empty());
        assert!(cline_mentions("@a1b2c3").is_empty());
        assert!(cline_mentions("@A1B2C3D").is_empty());
        assert!(cline_mentions("@\"/a\"x").is_empty());
        assert_eq!(cline_mentions("@terminal @/x @terminal").len(), 2);
        assert_eq!(
            cline_mentions("@git-changes"),
            [ClineTarget::Keyword("git-changes")]
        );
    }

    #[test]
    fn each_target_has_its_block() {
        let tags: Vec<Option<String>> =
            cline_mentions("@/d/ @https://x.io @0123abc @problems @terminal @git-changes")
                .iter()
                .map(|t| cline_expansion(t).added)
                .collect();
        assert_eq!(
            tags,
            [
                Some("<folder_content path=\"d/\">".into()),
                Some("<url_content url=\"https://x.io\">".into()),
                Some("<git_commit hash=\"0123abc\">".into()),
                Some("<workspace_diagnostics>".into()),
                Some("<terminal_output>".into()),
                Some("<git_working_state>".into()),
            ]
        );
    }

    #[test]
    fn opencode_reads_files_ranges_and_directories() {
        assert_eq!(opencode_expansion("@src/").unwrap().kind, "directory");
        assert_eq!(
            opencode_expansion("@a.ts").unwrap().added.as_deref(),
            Some(r#"{"filePath":"a.ts"}"#)
        );
        assert_eq!(
            opencode_expansion("a.ts?start=9&end=2").unwrap().kind,
            "file"
        );
        assert!(opencode_expansion("@").is_none());
    }
}
