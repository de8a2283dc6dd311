//! Paths: kept as written or hashed component by component; the home directory's user name
//! never stays.
//!
//! Under [`PathMode::Hash`] every word of every component is replaced, extensions and
//! dot-names included, except [`RESERVED_NAMES`] (the names the engine looks for: memory
//! files, the clients' own directories) and the extensions of [`is_kept_extension`] (those the
//! engine reads differently, and a short list of common languages'). Under [`PathMode::Keep`]
//! paths stay but for the home directory's user name, wherever it stands as a word of a
//! component (`/home/ana/…`, `-home-ana-project`).

use alloc::string::String;

use super::text::{is_word_char, TextCipher};
use super::PathMode;
use crate::read::{is_blocked_device, BINARY_EXTENSIONS};

/// Path components kept under [`PathMode::Hash`]: the names the engine finds files by, so
/// the hashed workspace loads the same memory, rules, plans and project root.
pub const RESERVED_NAMES: [&str; 13] = [
    ".agents",
    ".claude",
    ".codex",
    ".git",
    ".gitignore",
    "AGENTS.md",
    "AGENTS.override.md",
    "CLAUDE.local.md",
    "CLAUDE.md",
    "MEMORY.md",
    "plan.md",
    "plans",
    "rules",
];

/// Extensions the engine reads differently from text: images, PDFs, notebooks, JSON (which
/// Claude Code's estimate counts at 2 characters a token) and Markdown (rules); the binary
/// extensions of [`BINARY_EXTENSIONS`] are kept too.
const ENGINE_EXTENSIONS: [&str; 11] = [
    "gif", "ipynb", "jpeg", "jpg", "json", "jsonc", "jsonl", "md", "pdf", "png", "webp",
];

/// Common languages' and formats' extensions, kept because they say what a file is written
/// in, not what it holds.
pub const COMMON_EXTENSIONS: [&str; 35] = [
    "c", "cc", "cjs", "cpp", "cs", "css", "go", "h", "hpp", "html", "java", "js", "jsx", "kt",
    "lock", "mdx", "mjs", "php", "py", "rb", "rs", "scss", "sh", "sql", "svelte", "swift", "toml",
    "ts", "tsx", "txt", "vue", "xml", "yaml", "yml", "zsh",
];

/// Whether an extension (without its dot, any case) stays under [`PathMode::Hash`]: a brace
/// list of them (`{ts,tsx}`, a glob's) stays when each alternative would.
pub fn is_kept_extension(extension: &str) -> bool {
    let alternatives = extension
        .strip_prefix('{')
        .and_then(|inner| inner.strip_suffix('}'))
        .unwrap_or(extension);
    alternatives.split(',').all(|alternative| {
        let lower = alternative.trim().to_ascii_lowercase();
        !lower.is_empty()
            && (ENGINE_EXTENSIONS.contains(&lower.as_str())
                || COMMON_EXTENSIONS.contains(&lower.as_str())
                || BINARY_EXTENSIONS
                    .iter()
                    .any(|binary| binary.strip_prefix('.') == Some(lower.as_str())))
    })
}

/// Replaces paths as the mode says.
pub(super) struct PathCipher {
    pub(super) mode: PathMode,
    /// The home directory's last component, lowercased: the user's name.
    pub(super) user: Option<String>,
}

impl PathCipher {
    /// `path` redacted; devices (`/dev/…`, `/proc/…/fd/0`) stay, since the engine refuses
    /// some by name.
    pub(super) fn path(&self, text: &mut TextCipher, path: &str) -> String {
        if is_blocked_device(path) || path.starts_with("/dev/") {
            return String::from(path);
        }
        let mut out = String::with_capacity(path.len());
        for (index, component) in path.split('/').enumerate() {
            if index > 0 {
                out.push('/');
            }
            match self.mode {
                PathMode::Keep => self.user_name_replaced(text, component, &mut out),
                PathMode::Hash => hashed_component(text, component, &mut out),
            }
        }
        out
    }

    /// `component` as written but for the user's name among its words.
    fn user_name_replaced(&self, text: &mut TextCipher, component: &str, out: &mut String) {
        let Some(user) = &self.user else {
            out.push_str(component);
            return;
        };
        let mut rest = component;
        while let Some(start) = rest.find(is_word_char) {
            out.push_str(&rest[..start]);
            rest = &rest[start..];
            let end = rest.find(|c| !is_word_char(c)).unwrap_or(rest.len());
            let word = &rest[..end];
            if word.eq_ignore_ascii_case(user) {
                text.every_word(word, out);
            } else {
                out.push_str(word);
            }
            rest = &rest[end..];
        }
        out.push_str(rest);
    }
}

/// One component under [`PathMode::Hash`]: reserved names and kept extensions stay, every
/// other word is replaced.
fn hashed_component(text: &mut TextCipher, component: &str, out: &mut String) {
    if matches!(component, "" | "." | ".." | "~") || RESERVED_NAMES.contains(&component) {
        out.push_str(component);
        return;
    }
    match component.rfind('.').filter(|&dot| dot > 0) {
        Some(dot) if is_kept_extension(&component[dot + 1..]) => {
            text.every_word(&component[..dot], out);
            out.push_str(&component[dot..]);
        }
        _ => text.every_word(component, out),
    }
}

#[cfg(test)]
mod tests {
    use alloc::collections::BTreeSet;

    use super::*;
    use crate::redact::cipher::{RedactionKey, WordCipher};
    use crate::redact::text::words;

    fn ciphers(mode: PathMode, paths: &[&str]) -> (PathCipher, TextCipher) {
        let all: BTreeSet<String> = paths.iter().flat_map(|p| words(p)).collect();
        let text = TextCipher {
            words: WordCipher::new(RedactionKey::UNKEYED, all, BTreeSet::new()),
            never_kept: alloc::vec!["ana".into()],
        };
        let path = PathCipher {
            mode,
            user: Some("ana".into()),
        };
        (path, text)
    }

    #[test]
    fn hash_mode_hashes_extensions_and_dot_names_but_not_the_engine_s_names() {
        let paths = [
            "/home/ana/.env.backup",
            "/home/ana/.claude/rules/acme.md",
            "src/a.secretext",
        ];
        let (path, mut text) = ciphers(PathMode::Hash, &paths);
        let env = path.path(&mut text, paths[0]);
        assert!(
            !env.contains("env") && !env.contains("backup") && !env.contains("ana"),
            "{env}"
        );
        assert!(!env.contains("home"), "{env}");
        let rule = path.path(&mut text, paths[1]);
        assert!(
            rule.contains("/.claude/rules/") && rule.ends_with(".md") && !rule.contains("acme")
        );
        let other = path.path(&mut text, paths[2]);
        assert!(
            !other.contains("secretext") && !other.contains("src"),
            "{other}"
        );
        assert_eq!(path.path(&mut text, "/dev/zero"), "/dev/zero");
    }

    #[test]
    fn keep_mode_replaces_only_the_user_name() {
        let paths = [
            "/home/ana/project/src/x.ts",
            "/home/ana/.claude/projects/-home-ana-project/memory",
        ];
        let (path, mut text) = ciphers(PathMode::Keep, &paths);
        let kept = path.path(&mut text, paths[0]);
        assert!(kept.starts_with("/home/") && kept.ends_with("/project/src/x.ts"));
        assert!(!kept.contains("ana"));
        let memory = path.path(&mut text, paths[1]);
        assert!(
            !memory.contains("ana")
                && memory.contains("-home-")
                && memory.contains("-project/memory")
        );
        assert_eq!(memory.len(), paths[1].len());
    }

    #[test]
    fn a_glob_s_brace_list_of_kept_extensions_stays() {
        assert!(is_kept_extension("{ts,tsx}"));
        assert!(is_kept_extension("JSON"));
        assert!(!is_kept_extension("{ts,secret}"));
        assert!(!is_kept_extension("env"));
    }
}
