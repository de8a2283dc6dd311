//! A file's contents, shared rather than copied.

use alloc::rc::Rc;
use alloc::string::String;
use alloc::vec::Vec;

/// What a file holds: text when its bytes are valid UTF-8, binary otherwise. Cloning is
/// cheap (a reference count), so the file system, the read-file-state cache and the
/// transcript hold one copy of a file's text between them.
///
/// # Example
/// ```
/// use context_assembly::vfs::Content;
/// assert_eq!(Content::from("héllo").as_text(), Some("héllo"));
/// let latin1 = Content::from(vec![b'h', 0xe9]); // not UTF-8: binary, never a lossy text
/// assert_eq!(latin1.as_text(), None);
/// assert_eq!(latin1.len(), 2);
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Content {
    /// Valid UTF-8.
    Text(Rc<str>),
    /// Anything else, byte for byte.
    Binary(Rc<[u8]>),
}

impl Content {
    /// The size in bytes (UTF-8 bytes for text), as `stat` reports it.
    pub fn len(&self) -> usize {
        self.as_bytes().len()
    }

    /// Whether the file is empty.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The bytes, whatever the kind.
    pub fn as_bytes(&self) -> &[u8] {
        match self {
            Content::Text(text) => text.as_bytes(),
            Content::Binary(bytes) => bytes,
        }
    }

    /// The text, or `None` for binary content.
    pub fn as_text(&self) -> Option<&str> {
        match self {
            Content::Text(text) => Some(text),
            Content::Binary(_) => None,
        }
    }
}

impl From<Rc<str>> for Content {
    fn from(text: Rc<str>) -> Self {
        Content::Text(text)
    }
}

impl From<&str> for Content {
    fn from(text: &str) -> Self {
        Content::Text(text.into())
    }
}

impl From<String> for Content {
    fn from(text: String) -> Self {
        Content::Text(text.into())
    }
}

impl From<&[u8]> for Content {
    fn from(bytes: &[u8]) -> Self {
        match core::str::from_utf8(bytes) {
            Ok(text) => Content::Text(text.into()),
            Err(_) => Content::Binary(bytes.into()),
        }
    }
}

impl From<Vec<u8>> for Content {
    fn from(bytes: Vec<u8>) -> Self {
        match String::from_utf8(bytes) {
            Ok(text) => Content::Text(text.into()),
            Err(not_text) => Content::Binary(not_text.into_bytes().into()),
        }
    }
}
