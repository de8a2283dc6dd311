//! Paths: lexical normalisation (what Node's `path.posix.normalize` does), the one
//! spelling every key and comparison in the engine uses; expansion of what a user or a
//! model wrote (`~`, relative paths) into that spelling, confined to the root; and the
//! relative display form.
//!
//! The spelling [`expand_path`] returns is *canonical*: absolute, NFC, no `.` or `..`
//! segment, no `//`, no trailing `/` (except the root itself). The virtual file system
//! accepts only that spelling, so two spellings of one file can never become two keys.

use alloc::borrow::Cow;
use alloc::string::String;
use alloc::vec;
use alloc::vec::Vec;

use crate::Error;

/// Normalises a POSIX path lexically, as Node's `path.posix.normalize`: collapses repeated
/// separators and `.` segments, resolves `..` against the preceding segment, keeps one
/// trailing `/`. Nothing is looked up: symlinks and case are left alone (spec
/// claude-code.md §4.2, Q29). An absolute path never rises above `/`; a relative one keeps
/// the `..` it cannot resolve. The empty path is `.`.
///
/// # Example
/// ```
/// use context_assembly::path::lexical_normalize;
/// assert_eq!(lexical_normalize("/a//b/./c/../d/"), "/a/b/d/");
/// assert_eq!(lexical_normalize("/../x"), "/x");       // nothing is above the root
/// assert_eq!(lexical_normalize("../a/../../b"), "../../b"); // a relative path keeps them
/// assert_eq!(lexical_normalize(""), ".");
/// ```
pub fn lexical_normalize(path: &str) -> String {
    let absolute = path.starts_with('/');
    let trailing = path.ends_with('/') && path.len() > 1;
    let mut segments: Vec<&str> = Vec::new();
    for segment in path.split('/') {
        match segment {
            "" | "." => {}
            ".." if segments.last().is_some_and(|last| *last != "..") => {
                segments.pop();
            }
            ".." if absolute => {}
            _ => segments.push(segment),
        }
    }
    let mut normal = String::with_capacity(path.len());
    if absolute {
        normal.push('/');
    }
    normal.push_str(&segments.join("/"));
    if normal.is_empty() {
        normal.push('.');
    }
    if trailing && !normal.ends_with('/') {
        normal.push('/');
    }
    normal
}

crate::switch::with_switches! {
    /// How [`expand_path`] reads the forms where the original is surprising.
    ///
    /// # Example
    /// ```
    /// use context_assembly::path::{expand_path, ExpandRules};
    /// let original = expand_path("~bob/x", "/p", "/home/u", &ExpandRules::claude_code());
    /// assert_eq!(original.unwrap(), "/p/~bob/x"); // a directory named `~bob` under cwd
    /// let fixed = expand_path("~bob/x", "/p", "/home/u", &ExpandRules::recommended());
    /// assert!(fixed.unwrap_err().to_string().contains("another user's home"));
    /// ```
    #[derive(Debug, Clone, Copy, PartialEq, Eq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    #[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
    pub struct ExpandRules {
        /// Q10: `~user` (another user's home) is an error. Off, as in the original, it is an
        /// ordinary relative path: `~bob/x` is `{cwd}/~bob/x`, which is rarely what was meant.
        /// There is one user in a virtual workspace, so the fix rejects rather than expands.
        pub reject_other_users_home: bool,
    }
}

impl ExpandRules {
    /// Claude Code's `expandPath` (spec claude-code.md §2.1).
    pub const fn claude_code() -> Self {
        ExpandRules {
            reject_other_users_home: false,
        }
    }

    /// The fixes on: `~user` is an error naming the path.
    pub const fn recommended() -> Self {
        ExpandRules {
            reject_other_users_home: true,
        }
    }
}

/// What a path climbing above `/` is told. Node clamps at the root silently, which turns a
/// mistake (`../../../etc` from a shallow cwd) into a different, valid-looking file.
const ABOVE_ROOT: &str = "its `..` segments climb above the root `/`; a path must stay inside it";

const NUL: &str = "it contains a NUL character, which no path may contain";

/// Expands a path as a user or the model wrote it into the canonical absolute spelling,
/// as Claude Code's `expandPath` (spec claude-code.md §2.1) with the root confined:
///
/// * the input is trimmed (JavaScript's `trim`); empty means `cwd`;
/// * `~` is `home`, `~/x` is `x` under `home`; `~user` follows [`ExpandRules`] (Q10);
/// * an absolute path is normalised, a relative one is resolved against `cwd`;
/// * the result is NFC, without `.`, `..`, `//` or a trailing `/`.
///
/// # Errors
/// [`Error::InvalidPath`] naming the path when it contains NUL, when its `..` segments
/// climb above `/` (Node would stop at the root silently), when it starts with `//` (a
/// network-style prefix, not a path in this workspace), for `~user` under
/// [`ExpandRules::recommended`], and when `cwd` or `home` is not absolute.
///
/// # Example
/// ```
/// use context_assembly::path::{expand_path, ExpandRules};
/// let rules = ExpandRules::claude_code();
/// assert_eq!(expand_path(" ~/notes/../a.md ", "/p", "/home/u", &rules).unwrap(), "/home/u/a.md");
/// assert_eq!(expand_path("src//x/", "/p", "/home/u", &rules).unwrap(), "/p/src/x");
/// let err = expand_path("../../etc", "/p", "/home/u", &rules).unwrap_err();
/// assert!(err.to_string().contains("above the root"));
/// assert!(expand_path("//server/share", "/p", "/home/u", &rules).is_err());
/// ```
pub fn expand_path(
    input: &str,
    cwd: &str,
    home: &str,
    rules: &ExpandRules,
) -> Result<String, Error> {
    let cwd = absolute_base(cwd, "working directory")?;
    let home = absolute_base(home, "home directory")?;
    if input.contains('\0') {
        return Err(invalid(input, NUL));
    }
    let trimmed = crate::js::trim(input);
    let resolved = if trimmed.is_empty() {
        Ok(cwd)
    } else if trimmed == "~" {
        Ok(home)
    } else if let Some(under_home) = trimmed.strip_prefix("~/") {
        resolve_confined(&home, under_home)
    } else if trimmed.starts_with('~') && rules.reject_other_users_home {
        Err(
            "`~name` means another user's home directory, and this workspace has one user; \
             write `~/…` for the home directory or `./~name` for a file named so",
        )
    } else if trimmed.starts_with("//") {
        Err("it starts with `//`, a network-style prefix; an absolute path starts with one `/`")
    } else if trimmed.starts_with('/') {
        resolve_confined("/", trimmed)
    } else {
        resolve_confined(&cwd, trimmed)
    };
    resolved.map(nfc).map_err(|reason| invalid(input, reason))
}

/// Checks that `cwd` or `home` is absolute and returns its canonical spelling.
fn absolute_base(path: &str, what: &str) -> Result<String, Error> {
    let checked = if path.contains('\0') {
        Err(NUL)
    } else if !path.starts_with('/') || path.starts_with("//") {
        Err("it must be an absolute path starting with one `/`")
    } else {
        resolve_confined("/", path)
    };
    checked.map(nfc).map_err(|reason| Error::InvalidPath {
        path: path.into(),
        reason: alloc::format!("the {what}: {reason}"),
    })
}

fn invalid(path: &str, reason: &str) -> Error {
    Error::InvalidPath {
        path: path.into(),
        reason: reason.into(),
    }
}

/// Joins an absolute canonical `base` and `rest` lexically, refusing to climb above `/`.
fn resolve_confined(base: &str, rest: &str) -> Result<String, &'static str> {
    let mut segments: Vec<&str> = Vec::new();
    for segment in base.split('/').chain(rest.split('/')) {
        match segment {
            "" | "." => {}
            ".." => {
                segments.pop().ok_or(ABOVE_ROOT)?;
            }
            _ => segments.push(segment),
        }
    }
    let mut path = String::with_capacity(base.len() + rest.len() + 1);
    for segment in &segments {
        path.push('/');
        path.push_str(segment);
    }
    if path.is_empty() {
        path.push('/');
    }
    Ok(path)
}

/// The original normalises every expanded path to NFC, so `café` typed on macOS (NFD)
/// and on Linux (NFC) is one file.
#[cfg(feature = "nfc")]
pub(crate) fn nfc(path: String) -> String {
    use unicode_normalization::UnicodeNormalization;
    if unicode_normalization::is_nfc(&path) {
        path
    } else {
        path.nfc().collect()
    }
}

/// Without the `nfc` feature the tables stay out of the binary: paths go through the
/// normaliser the platform registered with [`set_nfc_normaliser`] (the wasm package's
/// calls JavaScript's `String.prototype.normalize`, which costs nothing in size), and are
/// taken as given when none is registered. ASCII is always NFC, so it never crosses.
#[cfg(not(feature = "nfc"))]
pub(crate) fn nfc(path: String) -> String {
    #[cfg(feature = "std")]
    if !path.is_ascii() {
        if let Some(normalise) = NORMALISER.get() {
            return normalise(&path);
        }
    }
    path
}

#[cfg(feature = "std")]
static NORMALISER: std::sync::OnceLock<fn(&str) -> String> = std::sync::OnceLock::new();

/// Registers the function that puts text in Unicode Normalization Form C, for a build
/// without the `nfc` feature: every path the engine expands and every deny rule it compiles
/// goes through it, so scenario JSON, tool inputs and rules written in NFD name the same
/// files as in NFC, wherever they enter. The first registration wins; `false` when one was
/// already made. With the `nfc` feature the built-in tables serve and a registered
/// normaliser is never called.
#[cfg(feature = "std")]
pub fn set_nfc_normaliser(normalise: fn(&str) -> String) -> bool {
    NORMALISER.set(normalise).is_ok()
}

/// The path from `from` to `to`, as Node's `path.posix.relative` for absolute paths: `""`
/// when they are the same, `..` for each directory of `from` that `to` is not under.
///
/// # Example
/// ```
/// use context_assembly::path::relative;
/// assert_eq!(relative("/p/src", "/p/src/a.ts"), "a.ts");
/// assert_eq!(relative("/p/src", "/p/test/b.ts"), "../test/b.ts");
/// assert_eq!(relative("/p", "/p"), ""); // the same directory is the empty string
/// assert_eq!(relative("/p/a", "/p/ab"), "../ab"); // segments, not string prefixes
/// ```
pub fn relative(from: &str, to: &str) -> String {
    let from = lexical_normalize(from);
    let to = lexical_normalize(to);
    let from: Vec<&str> = segments(&from).collect();
    let to: Vec<&str> = segments(&to).collect();
    let common = from.iter().zip(&to).take_while(|(a, b)| a == b).count();
    let mut parts = vec![".."; from.len() - common];
    parts.extend(to.iter().skip(common));
    parts.join("/")
}

fn segments(path: &str) -> impl Iterator<Item = &str> {
    path.split('/')
        .filter(|segment| !segment.is_empty() && *segment != ".")
}

/// How a path is shown to the model next to its absolute form: relative to `cwd`, as the
/// original's `displayPath` (`path.relative(cwd, abs)`, spec claude-code.md §3.8). A path
/// outside `cwd` climbs with `..`; `cwd` itself is the empty string.
///
/// # Example
/// ```
/// use context_assembly::path::display_path;
/// assert_eq!(display_path("/p/src/a.ts", "/p"), "src/a.ts");
/// assert_eq!(display_path("/home/u/x", "/p"), "../home/u/x");
/// assert_eq!(display_path("/p", "/p"), "");
/// ```
pub fn display_path(abs: &str, cwd: &str) -> String {
    relative(cwd, abs)
}

/// The directory holding a canonical absolute path; `None` for the root `/` and for a path
/// with no `/` at all.
///
/// # Example
/// ```
/// use context_assembly::path::parent;
/// assert_eq!(parent("/p/src/a.ts"), Some("/p/src"));
/// assert_eq!(parent("/p"), Some("/"));
/// assert_eq!(parent("/"), None); // the root has no parent
/// ```
pub fn parent(abs: &str) -> Option<&str> {
    let path = match abs.strip_suffix('/') {
        Some(stripped) if !stripped.is_empty() => stripped,
        _ => abs,
    };
    match path.rfind('/')? {
        0 if path.len() > 1 => Some("/"),
        0 => None,
        slash => path.get(..slash),
    }
}

/// Joins two paths and normalises the result, as Node's `path.posix.join`: for a directory
/// and a name the engine itself produced. A `..` in `rest` is resolved, and stops at the
/// root silently; paths from users and the model go through [`expand_path`] instead.
///
/// # Example
/// ```
/// use context_assembly::path::join;
/// assert_eq!(join("/p/src", "a.ts"), "/p/src/a.ts");
/// assert_eq!(join("/", ".claude/CLAUDE.md"), "/.claude/CLAUDE.md");
/// assert_eq!(join("/p", ""), "/p"); // an empty part adds nothing
/// ```
pub fn join(base: &str, rest: &str) -> String {
    match (base.is_empty(), rest.is_empty()) {
        (_, true) => lexical_normalize(base),
        (true, false) => lexical_normalize(rest),
        (false, false) => lexical_normalize(&alloc::format!("{base}/{rest}")),
    }
}

/// `path` itself when [`lexical_normalize`] would return it unchanged, else the normalised
/// copy: keys that are already normal (every key the engine builds) cost no allocation.
///
/// # Example
/// ```
/// use context_assembly::path::normalized;
/// assert!(matches!(normalized("/p/src/a.ts"), std::borrow::Cow::Borrowed(_)));
/// assert_eq!(normalized("/p//src/./a.ts"), "/p/src/a.ts");
/// ```
pub fn normalized(path: &str) -> Cow<'_, str> {
    let body = path.strip_prefix('/').unwrap_or(path);
    let plain = !body.is_empty()
        && body
            .split('/')
            .all(|segment| !matches!(segment, "" | "." | ".."));
    if plain {
        Cow::Borrowed(path)
    } else {
        Cow::Owned(lexical_normalize(path))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn matches_node_path_posix_normalize() {
        // Expected values from Node 20's path.posix.normalize.
        let cases = [
            ("/", "/"),
            ("//", "/"),
            ("/a/b/../../..", "/"),
            ("a/..", "."),
            ("a/../", "./"),
            ("./", "./"),
            ("./a", "a"),
            ("a/./b/", "a/b/"),
            ("../../a", "../../a"),
            ("a/../../b", "../b"),
            ("/p/src/../x.ts", "/p/x.ts"),
            ("/p/café/日本.md", "/p/café/日本.md"),
        ];
        for (input, expected) in cases {
            assert_eq!(lexical_normalize(input), expected, "{input:?}");
        }
    }

    fn expand(input: &str) -> Result<String, Error> {
        expand_path(input, "/p", "/home/u", &ExpandRules::claude_code())
    }

    #[test]
    fn expands_like_the_original() {
        let cases = [
            ("", "/p"),
            ("  \t", "/p"),
            ("\u{feff}a\u{3000}", "/p/a"),
            ("~", "/home/u"),
            ("~/", "/home/u"),
            ("~/x/../y", "/home/u/y"),
            ("~//x", "/home/u/x"),
            ("~/../..", "/"),
            ("~bob", "/p/~bob"),
            ("a~/b", "/p/a~/b"),
            ("/", "/"),
            ("/a//b/./c/", "/a/b/c"),
            ("/a/..", "/"),
            ("..", "/"),
            ("./src/../x.ts", "/p/x.ts"),
            ("cafe\u{301}/x", "/p/caf\u{e9}/x"),
        ];
        for (input, expected) in cases {
            assert_eq!(expand(input).as_deref(), Ok(expected), "{input:?}");
        }
    }

    #[test]
    fn refuses_what_would_escape_or_is_malformed() {
        let cases = [
            ("a\0b", "NUL"),
            ("../..", "above the root"),
            ("/../x", "above the root"),
            ("~/../../..", "above the root"),
            ("//server/share", "network-style"),
            ("  ///x", "network-style"),
        ];
        for (input, fragment) in cases {
            let err = expand(input).unwrap_err();
            let message = err.to_string();
            assert!(message.contains(fragment), "{input:?}: {message}");
            assert!(matches!(err, Error::InvalidPath { path, .. } if path == input));
        }
    }

    #[test]
    fn refuses_a_relative_or_escaping_base() {
        let rules = ExpandRules::claude_code();
        for (cwd, home) in [
            ("p", "/h"),
            ("/p", "h"),
            ("//p", "/h"),
            ("/p/../..", "/h"),
            ("", "/h"),
        ] {
            let err = expand_path("x", cwd, home, &rules).unwrap_err();
            assert!(
                err.to_string().contains("directory"),
                "{cwd:?} {home:?}: {err}"
            );
        }
        assert_eq!(
            expand_path("x", "/p/../q/", "/h", &rules).as_deref(),
            Ok("/q/x")
        );
    }

    #[test]
    fn q10_other_users_home() {
        let recommended = ExpandRules::recommended();
        let err = expand_path("~bob/x", "/p", "/h", &recommended).unwrap_err();
        assert!(err.to_string().contains("\"~bob/x\""), "{err}");
        assert_eq!(
            expand_path("~/x", "/p", "/h", &recommended).as_deref(),
            Ok("/h/x")
        );
        assert_eq!(
            expand_path("./~bob", "/p", "/h", &recommended).as_deref(),
            Ok("/p/~bob")
        );
    }

    #[test]
    fn relative_matches_node() {
        // Expected values from Node 20's path.posix.relative.
        let cases = [
            ("/p", "/p", ""),
            ("/p", "/p/a/b", "a/b"),
            ("/p/a/b", "/p", "../.."),
            ("/p/a", "/q/b", "../../q/b"),
            ("/", "/a", "a"),
            ("/a", "/", ".."),
            ("/p/ab", "/p/a", "../a"),
        ];
        for (from, to, expected) in cases {
            assert_eq!(relative(from, to), expected, "{from:?} -> {to:?}");
        }
    }

    #[test]
    fn parent_and_join() {
        assert_eq!(parent("a"), None);
        assert_eq!(parent("a/b"), Some("a"));
        assert_eq!(parent("/a/"), Some("/"));
        assert_eq!(join("", "a/./b"), "a/b");
        assert_eq!(join("/a", "../../b"), "/b");
    }
}
