//! The JSON path of a value, as error messages name it: `steps[3].blocks[0].input`.

use alloc::string::String;
use core::fmt;

use crate::Error;

/// Where a value sits in the document. Built on the stack as the walk descends, and only
/// rendered when something is wrong.
#[derive(Debug, Clone, Copy)]
pub(crate) enum Path<'a> {
    /// The document itself, named `scenario`.
    Root,
    /// A member of an object.
    Key(&'a Path<'a>, &'a str),
    /// An element of an array.
    Index(&'a Path<'a>, usize),
}

/// Keys longer than this are cut in paths and quoted values are cut in messages, so that
/// an 8 MiB key does not make an 8 MiB message.
const QUOTE_CHARS: usize = 40;

impl Path<'_> {
    /// The member `key` of this object.
    pub(crate) fn key<'b>(&'b self, key: &'b str) -> Path<'b> {
        Path::Key(self, key)
    }

    /// The element `i` of this array.
    pub(crate) fn index(&self, i: usize) -> Path<'_> {
        Path::Index(self, i)
    }

    /// The error for a bad value here.
    pub(crate) fn error(&self, reason: impl Into<String>) -> Error {
        Error::InvalidConfig {
            field: alloc::format!("{self}"),
            reason: reason.into(),
        }
    }

    fn write_under(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => Ok(()),
            Path::Key(parent, key) => {
                parent.write_under(f)?;
                if !is_identifier(key) || key.len() > QUOTE_CHARS {
                    write!(f, "[{}]", Quoted(key))
                } else if matches!(parent, Path::Root) {
                    f.write_str(key)
                } else {
                    write!(f, ".{key}")
                }
            }
            Path::Index(parent, i) => {
                parent.write_under(f)?;
                write!(f, "[{i}]")
            }
        }
    }
}

impl fmt::Display for Path<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Path::Root => f.write_str("scenario"),
            _ => self.write_under(f),
        }
    }
}

/// A key that reads unambiguously after a dot: ASCII letters, digits, `_` and `$`, not
/// starting with a digit. Any other key (a file path, a switch such as
/// `attachments.planCountsNewPrompt`), and any key too long to show whole, is written
/// `["…"]`.
fn is_identifier(key: &str) -> bool {
    let mut chars = key.chars();
    chars
        .next()
        .is_some_and(|c| c.is_ascii_alphabetic() || c == '_' || c == '$')
        && chars.all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '$')
}

/// A string in double quotes with Rust's escapes, cut after [`QUOTE_CHARS`] characters
/// with `…` inside the quotes.
pub(crate) struct Quoted<'a>(pub(crate) &'a str);

impl fmt::Display for Quoted<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let cut = self.0.char_indices().nth(QUOTE_CHARS).map(|(at, _)| at);
        match cut.and_then(|at| self.0.get(..at)) {
            Some(head) => write!(f, "{:?}", alloc::format!("{head}…")),
            None => write!(f, "{:?}", self.0),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn paths_read_like_javascript_accessors() {
        let root = Path::Root;
        let steps = root.key("steps");
        let step = steps.index(3);
        let input = step.key("input");
        let file = input.key("file_path");
        assert_eq!(file.to_string(), "steps[3].input.file_path");
        assert_eq!(root.to_string(), "scenario");
        assert_eq!(steps.to_string(), "steps");
        let files = root.key("files");
        assert_eq!(files.key("src/a.ts").to_string(), r#"files["src/a.ts"]"#);
        assert_eq!(root.key("$schema").to_string(), "$schema");
        assert_eq!(root.key("1a").to_string(), r#"["1a"]"#);
    }

    #[test]
    fn long_keys_are_cut_on_a_character_boundary() {
        let key = "é".repeat(50);
        let root = Path::Root;
        let shown = root.key(&key).to_string();
        assert_eq!(shown, alloc::format!("[\"{}…\"]", "é".repeat(40)));
    }
}
