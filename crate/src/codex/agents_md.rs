//! AGENTS.md discovery (spec codex.md §7): the user's global doc, then one doc per
//! directory from the project root down to cwd, within a 32 KiB total budget.
//!
//! * Global: in `CODEX_HOME` (`~/.codex`), the first of `AGENTS.override.md`, `AGENTS.md`
//!   that is non-empty once trimmed; trimmed; outside the project budget (§7.1, X19).
//! * Project root: the nearest ancestor of cwd (cwd included) holding a marker (`.git`,
//!   file or directory); without one, only cwd is searched (§7.2).
//! * Per directory, root first: the first existing regular file among
//!   `AGENTS.override.md`, `AGENTS.md`, then the fallback names (§7.3).
//! * Budget: each doc is cut to the bytes left (decoded lossily), a whitespace-only doc is
//!   skipped and costs nothing, reading stops at 0 (§7.4).
//! * Text: the global doc, `\n\n--- project-doc ---\n\n`, then the project docs joined
//!   with `\n\n` (§7.5). Codex computes it once per session (§7.7).
//!
//! ```
//! use context_assembly::codex::agents_md::{user_instructions, AgentsMdRules};
//! use context_assembly::vfs::{Content, Vfs};
//! let mut vfs = Vfs::new();
//! vfs.mkdir("/repo/.git", 1).unwrap();
//! vfs.write_file("/repo/AGENTS.md", Content::from("Root rules."), 1).unwrap();
//! vfs.write_file("/repo/app/AGENTS.md", Content::from("App rules."), 1).unwrap();
//! vfs.write_file("/home/u/.codex/AGENTS.md", Content::from("  Mine.\n"), 1).unwrap();
//! let text = user_instructions(&vfs, "/home/u/.codex", "/repo/app", &AgentsMdRules::default());
//! assert_eq!(text.as_deref(), Some("Mine.\n\n--- project-doc ---\n\nRoot rules.\n\nApp rules."));
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::path::{join, parent};
use crate::vfs::{EntryKind, FsError, FsErrorKind, Vfs};
use crate::vocabulary::{Decision, Verdict};

/// The per-directory override, preferred to [`PRIMARY_FILENAME`].
pub const OVERRIDE_FILENAME: &str = "AGENTS.override.md";
/// The usual name.
pub const PRIMARY_FILENAME: &str = "AGENTS.md";
/// Between the user's instructions and the first project doc (§7.5).
pub const PROJECT_DOC_SEPARATOR: &str = "\n\n--- project-doc ---\n\n";
/// `project_doc_max_bytes`' default: the total for all project docs (§7.4).
pub const DEFAULT_MAX_BYTES: u64 = 32 * 1024;

/// The configuration of the discovery.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct AgentsMdRules {
    /// Names whose presence makes a directory the project root; `[".git"]` by default,
    /// empty for cwd only.
    pub project_root_markers: Vec<String>,
    /// `project_doc_fallback_filenames`: tried after the two standard names; empty by
    /// default. Empty names and repeats are ignored.
    pub fallback_filenames: Vec<String>,
    /// `project_doc_max_bytes`: the total for project docs; 0 disables them.
    pub max_bytes: u64,
}

impl Default for AgentsMdRules {
    fn default() -> Self {
        AgentsMdRules {
            project_root_markers: Vec::from([String::from(".git")]),
            fallback_filenames: Vec::new(),
            max_bytes: DEFAULT_MAX_BYTES,
        }
    }
}

/// One project doc as loaded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ProjectDoc {
    /// Its path.
    pub path: String,
    /// Its text (not trimmed), cut to the budget.
    pub text: String,
    /// Whether the budget cut it.
    pub truncated: bool,
}

/// What the discovery found, and a decision for every file considered.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct LoadedAgentsMd {
    /// The user's global doc, trimmed.
    pub global: Option<String>,
    /// The directory holding a root marker, if any.
    pub project_root: Option<String>,
    /// The project docs, root first.
    pub project_docs: Vec<ProjectDoc>,
    /// Loaded, truncated, skipped (empty), shadowed, over budget, missing or failed.
    pub decisions: Vec<Decision>,
}

impl LoadedAgentsMd {
    /// The combined text (§7.5); `None` when nothing was loaded.
    pub fn text(&self) -> Option<String> {
        let mut out = self.global.clone().unwrap_or_default();
        let mut has_previous = self.global.is_some();
        for (index, doc) in self.project_docs.iter().enumerate() {
            if has_previous {
                out.push_str(if index == 0 {
                    PROJECT_DOC_SEPARATOR
                } else {
                    "\n\n"
                });
            }
            out.push_str(&doc.text);
            has_previous = true;
        }
        has_previous.then_some(out)
    }
}

/// The combined AGENTS.md text for a session started in `cwd`, the user's docs in
/// `codex_home`; `None` when there is none.
pub fn user_instructions(
    vfs: &Vfs,
    codex_home: &str,
    cwd: &str,
    rules: &AgentsMdRules,
) -> Option<String> {
    load_agents_md(vfs, codex_home, cwd, rules).text()
}

/// Discovers and loads the global and project docs.
///
/// A file-system error other than a missing path (a transient `EACCES`, `EBUSY`) while
/// looking for the root or the docs drops every project doc, as Codex's discovery fails
/// as a whole; the global doc is kept.
///
/// # Example
/// ```
/// use context_assembly::codex::agents_md::{load_agents_md, AgentsMdRules};
/// use context_assembly::vfs::{Content, Vfs};
/// let mut vfs = Vfs::new();
/// vfs.write_file("/repo/.git", Content::from("gitdir: ../x"), 1).unwrap(); // a worktree: .git is a file
/// vfs.write_file("/repo/AGENTS.md", Content::from("abcdef"), 1).unwrap();
/// vfs.write_file("/repo/app/AGENTS.md", Content::from("xyz"), 1).unwrap();
/// let rules = AgentsMdRules { max_bytes: 8, ..AgentsMdRules::default() };
/// let loaded = load_agents_md(&vfs, "/home/u/.codex", "/repo/app", &rules);
/// assert_eq!(loaded.project_root.as_deref(), Some("/repo"));
/// assert_eq!(loaded.project_docs[1].text, "xy"); // 6 + 2 bytes: the second doc is cut
/// assert_eq!(loaded.text().as_deref(), Some("abcdef\n\nxy")); // no separator without a global doc
/// ```
pub fn load_agents_md(
    vfs: &Vfs,
    codex_home: &str,
    cwd: &str,
    rules: &AgentsMdRules,
) -> LoadedAgentsMd {
    let mut loaded = LoadedAgentsMd::default();
    loaded.global = load_global(vfs, codex_home, &mut loaded.decisions);
    let project_start = loaded.decisions.len();
    if rules.max_bytes == 0 {
        decide(
            &mut loaded.decisions,
            cwd,
            Verdict::Skipped,
            "project docs are disabled (project_doc_max_bytes = 0)",
            None,
        );
        return loaded;
    }
    let found = project_root(vfs, cwd, rules).and_then(|root| {
        let paths = doc_paths(vfs, cwd, root.as_deref(), rules, &mut loaded.decisions)?;
        Ok((root, paths))
    });
    match found {
        Ok((root, paths)) => {
            loaded.project_root = root;
            if let Err(error) = read_docs(vfs, &paths, rules.max_bytes, &mut loaded) {
                fail(&mut loaded, project_start, &error);
            }
        }
        Err(error) => fail(&mut loaded, project_start, &error),
    }
    loaded
}

fn load_global(vfs: &Vfs, codex_home: &str, decisions: &mut Vec<Decision>) -> Option<String> {
    for name in [OVERRIDE_FILENAME, PRIMARY_FILENAME] {
        let path = join(codex_home, name);
        match vfs.read(&path) {
            Ok(content) => match content.as_text().map(str::trim) {
                Some("") => decide(
                    decisions,
                    &path,
                    Verdict::Skipped,
                    "empty once trimmed",
                    None,
                ),
                Some(text) => {
                    decide(
                        decisions,
                        &path,
                        Verdict::Included,
                        "the global doc, outside the project budget",
                        None,
                    );
                    return Some(String::from(text));
                }
                None => decide(decisions, &path, Verdict::Failed, "not UTF-8 text", None),
            },
            Err(error) if is_missing(&error) => {
                decide(decisions, &path, Verdict::NotFound, "no such file", None);
            }
            Err(error) => decide(
                decisions,
                &path,
                Verdict::Failed,
                "could not be read",
                Some(error.code().into()),
            ),
        }
    }
    None
}

/// The nearest ancestor of `cwd` (itself included) holding a marker.
fn project_root(vfs: &Vfs, cwd: &str, rules: &AgentsMdRules) -> Result<Option<String>, FsError> {
    let mut directory = Some(cwd);
    while let Some(current) = directory {
        for marker in &rules.project_root_markers {
            match vfs.stat(&join(current, marker)) {
                Ok(_) => return Ok(Some(String::from(current))),
                Err(error) if is_missing(&error) => {}
                Err(error) => return Err(error),
            }
        }
        directory = parent(current);
    }
    Ok(None)
}

/// The chosen doc of each directory from the root down to cwd.
fn doc_paths(
    vfs: &Vfs,
    cwd: &str,
    root: Option<&str>,
    rules: &AgentsMdRules,
    decisions: &mut Vec<Decision>,
) -> Result<Vec<String>, FsError> {
    let mut directories = Vec::from([cwd]);
    if let Some(root) = root {
        let mut current = cwd;
        while current != root {
            let Some(up) = parent(current) else { break };
            directories.push(up);
            current = up;
        }
    }
    directories.reverse();
    let names = candidate_names(rules);
    let mut chosen = Vec::new();
    for directory in directories {
        let mut first: Option<String> = None;
        for name in &names {
            let path = join(directory, name);
            match vfs.stat(&path) {
                Ok(stat) if stat.kind == EntryKind::File => match &first {
                    None => first = Some(path),
                    Some(winner) => decide(
                        decisions,
                        &path,
                        Verdict::Excluded,
                        "shadowed: one doc per directory",
                        Some(format!("{winner} comes first")),
                    ),
                },
                Ok(_) => {}
                Err(error) if is_missing(&error) => {}
                Err(error) => return Err(error),
            }
        }
        match first {
            Some(path) => chosen.push(path),
            None => decide(
                decisions,
                &join(directory, PRIMARY_FILENAME),
                Verdict::NotFound,
                "no AGENTS.override.md, AGENTS.md or fallback in this directory",
                None,
            ),
        }
    }
    Ok(chosen)
}

fn candidate_names(rules: &AgentsMdRules) -> Vec<&str> {
    let mut names = Vec::from([OVERRIDE_FILENAME, PRIMARY_FILENAME]);
    for name in &rules.fallback_filenames {
        if !name.is_empty() && !names.contains(&name.as_str()) {
            names.push(name);
        }
    }
    names
}

fn read_docs(
    vfs: &Vfs,
    paths: &[String],
    max_bytes: u64,
    loaded: &mut LoadedAgentsMd,
) -> Result<(), FsError> {
    let mut remaining = max_bytes;
    for path in paths {
        if remaining == 0 {
            decide(
                &mut loaded.decisions,
                path,
                Verdict::OverBudget,
                "the project docs' byte budget is spent",
                Some(format!("budget {max_bytes} bytes")),
            );
            continue;
        }
        let content = match vfs.read(path) {
            Ok(content) => content,
            Err(error) if is_missing(&error) => {
                decide(
                    &mut loaded.decisions,
                    path,
                    Verdict::NotFound,
                    "gone before it was read",
                    None,
                );
                continue;
            }
            Err(error) => return Err(error),
        };
        let bytes = content.as_bytes();
        let size = u64::try_from(bytes.len()).unwrap_or(u64::MAX);
        let kept = bytes
            .get(..usize::try_from(remaining).unwrap_or(usize::MAX))
            .unwrap_or(bytes);
        let text = String::from_utf8_lossy(kept).into_owned();
        if text.trim().is_empty() {
            decide(
                &mut loaded.decisions,
                path,
                Verdict::Skipped,
                "whitespace only: no budget used",
                None,
            );
            continue;
        }
        let kept_len = u64::try_from(kept.len()).unwrap_or(u64::MAX);
        let truncated = kept_len < size;
        let detail =
            format!("{kept_len} of {size} bytes, {remaining} of {max_bytes} left before it");
        if truncated {
            decide(
                &mut loaded.decisions,
                path,
                Verdict::Truncated,
                "cut to the bytes left in the project docs' budget",
                Some(detail),
            );
        } else {
            decide(
                &mut loaded.decisions,
                path,
                Verdict::Included,
                "a project doc",
                Some(detail),
            );
        }
        remaining = remaining.saturating_sub(kept_len);
        loaded.project_docs.push(ProjectDoc {
            path: path.clone(),
            text,
            truncated,
        });
    }
    Ok(())
}

/// Codex's discovery fails as a whole: no project doc is kept.
fn fail(loaded: &mut LoadedAgentsMd, project_start: usize, error: &FsError) {
    loaded.project_docs.clear();
    let project = loaded
        .decisions
        .get_mut(project_start..)
        .unwrap_or_default();
    for decision in project {
        if decision.verdict == Verdict::Included || decision.verdict == Verdict::Truncated {
            decision.verdict = Verdict::Excluded;
            decision.reason = "dropped: the project docs' discovery failed".into();
        }
    }
    decide(
        &mut loaded.decisions,
        &error.path,
        Verdict::Failed,
        "a file-system error stops the project docs' discovery: none is loaded",
        Some(String::from(error.code())),
    );
}

fn is_missing(error: &FsError) -> bool {
    matches!(
        error.kind,
        FsErrorKind::NotFound | FsErrorKind::NotDirectory
    )
}

fn decide(
    decisions: &mut Vec<Decision>,
    subject: &str,
    verdict: Verdict,
    reason: &str,
    detail: Option<String>,
) {
    decisions.push(Decision::new(subject, verdict, reason).with_detail(detail));
}
