//! The agent's Grep and Glob tools over the workspace: what they list, in which order, and
//! how they print it (as the lab saw the original's, which run ripgrep).

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;

use super::line_pattern::LinePattern;
use super::{ToolResult, Workspace};
use crate::deny::gitignore::Gitignore;
use crate::js::locale_compare;
use crate::path::relative;
use crate::vfs::{Content, EntryKind};
use crate::Error;

/// Files a Grep or Glob reports at most.
const MAX_SEARCH_RESULTS: usize = 100;

/// What Grep lists (its `output_mode` input).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum GrepOutputMode {
    /// `files_with_matches` (the default): `Found N files`, then the files' paths relative
    /// to the cwd, most recently modified first.
    #[default]
    FilesWithMatches,
    /// `content`: each matching line as `path:line:text`.
    Content,
}

impl GrepOutputMode {
    /// The modes by the names the tool's input uses.
    pub const NAMES: [(&'static str, GrepOutputMode); 2] = [
        ("files_with_matches", GrepOutputMode::FilesWithMatches),
        ("content", GrepOutputMode::Content),
    ];
}

impl Workspace {
    /// Lines of the files under `path` (default: the cwd) that match the regular expression
    /// `pattern`. Files mode: `Found N files`, then their paths relative to the cwd, most
    /// recently modified first; content mode: each matching line as `path:line:text`, in the
    /// tree's order; as the lab saw the original's Grep print them. An invalid pattern is an
    /// error result that names the problem, as ripgrep's is.
    pub(crate) fn grep(
        &self,
        pattern: &str,
        path: Option<&str>,
        output_mode: GrepOutputMode,
    ) -> Result<ToolResult, Error> {
        let root = self.expand(path.unwrap_or("."))?;
        let mut matcher = match LinePattern::new(pattern) {
            Ok(matcher) => matcher,
            Err(problem) => {
                return Ok(ToolResult::error(format!(
                    "{pattern:?} is not a valid regular expression: {problem}"
                )))
            }
        };
        let mut found = Vec::new();
        let mut lines = Vec::new();
        for file in self.files_under(&root) {
            if self.deny.check(&file, &self.cwd).is_some() {
                continue;
            }
            let Ok(Content::Text(text)) = self.vfs.read(&file) else {
                continue;
            };
            let mut matched = false;
            for (index, line) in text.split_terminator('\n').enumerate() {
                if !matcher.matches(line) {
                    continue;
                }
                matched = true;
                if output_mode == GrepOutputMode::Content {
                    let shown = relative(&self.cwd, &file);
                    lines.push(format!("{shown}:{}:{line}", index + 1));
                } else {
                    break;
                }
            }
            if matched {
                found.push(file);
            }
        }
        if output_mode == GrepOutputMode::Content {
            if lines.is_empty() {
                return Ok(ToolResult::ok(NO_MATCHES_FOUND.into()));
            }
            return Ok(ToolResult::ok(search_report(None, &lines)));
        }
        let mut found = self.with_mtimes(found);
        // Newest first; files modified at the same moment in the order of their absolute
        // paths by `localeCompare`, as the original sorts ripgrep's list (so `a/x.ts`,
        // `b.ts`, `Z.ts`, not the tree's or the bytes' order).
        crate::sort::sort_by(&mut found, |(a, a_mtime), (b, b_mtime)| {
            b_mtime.cmp(a_mtime).then_with(|| locale_compare(a, b))
        });
        let paths = self.display_paths(&found);
        if paths.is_empty() {
            return Ok(ToolResult::ok(NO_FILES_FOUND.into()));
        }
        let noun = if paths.len() == 1 { "file" } else { "files" };
        let header = format!("Found {} {noun}", paths.len());
        Ok(ToolResult::ok(search_report(Some(&header), &paths)))
    }

    /// Files under `path` (default: the cwd) whose path matches `pattern`: their paths
    /// relative to the cwd, least recently modified first, with no header, as the lab saw
    /// the original's Glob print them.
    ///
    /// The original runs ripgrep from the session's cwd with `path` as the root to search
    /// and the pattern as `--glob`, which ripgrep matches against each file's path relative
    /// to its own working directory: the pattern is relative to the cwd, never to `path`
    /// (`src/*` under `path: "src"` lists `src/main.ts`; `main.ts` there would need `*`). A
    /// pattern without a `/` matches a file's name at any depth; a file's own path must
    /// match (a matching directory lists nothing). An absolute pattern searches below its
    /// part before the first wildcard instead of `path`, and its rest is matched as above.
    /// Below a root outside the cwd only patterns that float (no `/`, or a leading `**/`)
    /// match, against the path from `/`, as ripgrep matches there. Files modified at the
    /// same moment keep the tree's order: ripgrep's are in the directory's on-disk order,
    /// which no workspace of ours has.
    pub(crate) fn glob(&self, pattern: &str, path: Option<&str>) -> Result<ToolResult, Error> {
        let (root, pattern) = match split_absolute_pattern(pattern) {
            Some((base, rest)) => (self.expand(base)?, rest),
            None => (self.expand(path.unwrap_or("."))?, pattern),
        };
        let matcher = Gitignore::new(&[pattern], false);
        let cwd = format!("{}/", self.cwd.trim_end_matches('/'));
        let floats = !pattern.trim_end_matches('/').contains('/') || pattern.starts_with("**/");
        // Denied files are hidden, as the original's Glob does (§2.5 item 4): a listed name
        // already tells the model something about a file it may not read.
        let found: Vec<String> = self
            .files_under(&root)
            .into_iter()
            .filter(|file| {
                let matched = match file.strip_prefix(&cwd) {
                    Some(relative) => matcher.matches_itself(relative),
                    None => floats && matcher.matches_itself(file.trim_start_matches('/')),
                };
                matched && self.deny.check(file, &self.cwd).is_none()
            })
            .collect();
        let mut found = self.with_mtimes(found);
        crate::sort::sort_by_key(&mut found, |(_, mtime)| *mtime);
        let paths = self.display_paths(&found);
        if paths.is_empty() {
            return Ok(ToolResult::ok(NO_FILES_FOUND.into()));
        }
        Ok(ToolResult::ok(search_report(None, &paths)))
    }

    /// Each file with its mtime (0 for one that cannot be stat'ed: it sorts as oldest).
    fn with_mtimes(&self, files: Vec<String>) -> Vec<(String, u64)> {
        files
            .into_iter()
            .map(|file| {
                let mtime = self.vfs.stat(&file).map_or(0, |stat| stat.mtime_ms);
                (file, mtime)
            })
            .collect()
    }

    /// The paths as the search tools print them: relative to the cwd.
    fn display_paths(&self, found: &[(String, u64)]) -> Vec<String> {
        found
            .iter()
            .map(|(file, _)| relative(&self.cwd, file))
            .collect()
    }

    /// Every file below `root`; `root` itself when it is a file (ripgrep searches a file
    /// it is given).
    fn files_under(&self, root: &str) -> Vec<String> {
        if self
            .vfs
            .stat(root)
            .is_ok_and(|stat| stat.kind == EntryKind::File)
        {
            return Vec::from([root.to_string()]);
        }
        // Depth first, each directory's entries in byte order: the listing is the tree's
        // order, a directory's files before its subdirectories' (no sort needed).
        let mut files = Vec::new();
        let mut pending = Vec::from([root.to_string()]);
        while let Some(dir) = pending.pop() {
            let Ok(entries) = self.vfs.list_dir(&dir) else {
                continue;
            };
            let mut subdirs = Vec::new();
            for entry in entries {
                let path = format!("{}/{}", dir.trim_end_matches('/'), entry.name);
                match entry.kind {
                    EntryKind::Directory => subdirs.push(path),
                    EntryKind::File => files.push(path),
                }
            }
            pending.extend(subdirs.into_iter().rev());
        }
        files
    }
}

/// An absolute Glob pattern split as the original splits it before calling ripgrep: the
/// directory before the first wildcard (`*`, `?`, `[`, `{`) to search, and the rest as the
/// glob; without a wildcard, the parent directory and the name. `None` for a relative
/// pattern.
fn split_absolute_pattern(pattern: &str) -> Option<(&str, &str)> {
    if !pattern.starts_with('/') {
        return None;
    }
    let fixed = pattern
        .find(['*', '?', '[', '{'])
        .map_or(pattern, |at| &pattern[..at]);
    // The pattern starts with `/`, so there is one.
    let slash = fixed.rfind('/').unwrap_or(0);
    let base = if slash == 0 { "/" } else { &pattern[..slash] };
    Some((base, &pattern[slash + 1..]))
}

/// What Grep and Glob answer when nothing matched.
const NO_FILES_FOUND: &str = "No files found";

/// Grep's answer in content mode when no line matched.
const NO_MATCHES_FOUND: &str = "No matches found";

/// The header, if any, then the first [`MAX_SEARCH_RESULTS`] paths, and a note when more
/// matched.
fn search_report(header: Option<&str>, paths: &[String]) -> String {
    let shown = &paths[..paths.len().min(MAX_SEARCH_RESULTS)];
    let mut lines: Vec<&str> = header.into_iter().collect();
    lines.extend(shown.iter().map(String::as_str));
    let mut report = lines.join("\n");
    if paths.len() > shown.len() {
        report.push_str(&format!(
            "\n(first {} of {} shown; narrow the search)",
            shown.len(),
            paths.len()
        ));
    }
    report
}
