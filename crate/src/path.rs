//! Paths: lexical normalisation (what Node's `path.posix.normalize` does), the one
//! spelling every key and comparison in the engine uses.

use alloc::string::String;
use alloc::vec::Vec;

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
}
