//! `@` completion over the virtual workspace, as Codex's file search walks a tree (spec
//! codex.md §6.6): files and directories below the cwd, hidden ones included; `.gitignore`
//! honoured only inside a git repository (a directory holding `.git` at or above the cwd),
//! `.ignore` files always; ignored directories are not entered.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::Workspace;
use crate::deny::gitignore::Gitignore;
use crate::search::{search_paths, Candidate, SearchResult};
use crate::vfs::{Content, EntryKind};

/// The ignore files of one directory, matched against paths relative to it.
struct Rules {
    base: String,
    matcher: Gitignore,
}

impl Workspace {
    /// The best `limit` paths for `query`, relative to the cwd, and how many matched.
    ///
    /// ```
    /// use context_assembly::session::{Session, SessionConfig, SessionOptions};
    /// use context_assembly::Profile;
    /// let mut s = Session::new(SessionOptions { profile: Profile::codex(), cwd: "/r".into(), home: None, config: SessionConfig::default() }).unwrap();
    /// s.write_file(".git/HEAD", "ref: main\n", 0).unwrap();
    /// s.write_file(".gitignore", "dist/\n", 0).unwrap();
    /// s.write_file("dist/app.js", "", 0).unwrap();
    /// s.write_file("src/app.ts", "", 0).unwrap();
    /// let found = s.search_files("app", 20);
    /// // Inside a repository the ignored build output is not offered.
    /// assert_eq!(found.matches[0].path, "src/app.ts");
    /// assert_eq!(found.total_match_count, 1);
    /// ```
    pub fn search_files(&mut self, query: &str, limit: usize) -> SearchResult {
        let generation = self.vfs.generation();
        let fresh = matches!(&self.search_cache, Some((g, _)) if *g == generation);
        if !fresh {
            // The walk is reused while the workspace is unchanged: keystrokes only re-score.
            self.search_cache = Some((generation, self.search_candidates()));
        }
        let candidates = self
            .search_cache
            .as_ref()
            .map_or(&[][..], |(_, c)| c.as_slice());
        search_paths(candidates, query, limit)
    }

    /// Every file and directory below the cwd that the walk visits, in walk order.
    fn search_candidates(&self) -> Vec<Candidate> {
        let in_repository = self.repository_root().is_some();
        let root = self.cwd.trim_end_matches('/');
        let mut candidates = Vec::new();
        let mut rules: Vec<Rules> = Vec::new();
        self.walk(root, "", in_repository, &mut rules, &mut candidates);
        candidates
    }

    fn walk(
        &self,
        dir: &str,
        relative: &str,
        git: bool,
        rules: &mut Vec<Rules>,
        out: &mut Vec<Candidate>,
    ) {
        let Ok(entries) = self.vfs.list_dir(if dir.is_empty() { "/" } else { dir }) else {
            return;
        };
        let added = self.push_rules(dir, relative, git, rules);
        for entry in entries {
            let path = join(relative, &entry.name);
            let is_dir = entry.kind == EntryKind::Directory;
            if ignored(rules, &path, is_dir) {
                continue;
            }
            out.push(Candidate {
                path: path.clone(),
                is_dir,
            });
            if is_dir {
                self.walk(&format!("{dir}/{}", entry.name), &path, git, rules, out);
            }
        }
        rules.truncate(rules.len() - added);
    }

    /// Compiles the directory's `.ignore` (always) and `.gitignore` (inside a repository).
    fn push_rules(&self, dir: &str, relative: &str, git: bool, rules: &mut Vec<Rules>) -> usize {
        let mut added = 0;
        let files: &[&str] = if git {
            &[".gitignore", ".ignore"]
        } else {
            &[".ignore"]
        };
        for name in files {
            if let Ok(Content::Text(text)) = self.vfs.read(&format!("{dir}/{name}")) {
                let lines: Vec<&str> = text.lines().collect();
                rules.push(Rules {
                    base: String::from(relative),
                    matcher: Gitignore::new(&lines, false),
                });
                added += 1;
            }
        }
        added
    }

    /// The nearest directory at or above the cwd that holds `.git`.
    fn repository_root(&self) -> Option<String> {
        let mut dir = String::from(self.cwd.trim_end_matches('/'));
        loop {
            if self.vfs.stat(&format!("{dir}/.git")).is_ok() {
                return Some(if dir.is_empty() {
                    String::from("/")
                } else {
                    dir
                });
            }
            let parent = dir.rfind('/')?;
            dir.truncate(parent);
        }
    }
}

fn join(relative: &str, name: &str) -> String {
    match relative.is_empty() {
        true => String::from(name),
        false => format!("{relative}/{name}"),
    }
}

/// Whether any ignore file above `path` ignores it (a directory is matched with its `/`).
fn ignored(rules: &[Rules], path: &str, is_dir: bool) -> bool {
    rules.iter().any(|rule| {
        let inner = match rule.base.is_empty() {
            true => path,
            false => path
                .strip_prefix(&rule.base)
                .and_then(|p| p.strip_prefix('/'))
                .unwrap_or(path),
        };
        let candidate = if is_dir {
            format!("{inner}/")
        } else {
            String::from(inner)
        };
        rule.matcher.ignores(&candidate)
    })
}
