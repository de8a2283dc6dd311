//! The Read tool's semantics as pure functions over contents the caller supplies: line
//! ranges and numbering, the size and token limits, binary / image / PDF classification,
//! directory listings, and the read window an @-mention asks for (spec/claude-code.md §3).
//!
//! Nothing here touches a file system: the virtual FS hands over a file's text or bytes and
//! these functions say what the Read tool returns, or why it refuses.

mod classify;
mod image;
mod listing;
mod pdf;
mod size;
mod text;

pub use classify::{classify, is_binary_extension, is_blocked_device, FileKind, BINARY_EXTENSIONS};
pub use image::{
    image_info, plan_image, ImageAction, ImageFormat, ImageInfo, ImageLimits, ImagePlan, ImageStep,
    JpegStep,
};
pub use listing::{list_directory, DirEntry};
pub use pdf::{pdf_page_count, plan_pdf, PdfOutcome, PdfPlan};
pub use size::format_file_size;
pub use text::{number_lines, read_text, ReadNotice, ReadRequest, SliceText, TextRead};

/// What the Read tool answers when the same range of an unchanged file is read again
/// (§3.4). One constant, so that other code can recognise it.
pub const FILE_UNCHANGED_STUB: &str =
    "The file has not changed since your last Read of it; the earlier Read result in this \
     conversation is still current, so refer to it instead of reading again.";

use alloc::string::String;
use core::fmt;

use crate::tokens::TokenMethod;

/// How each line of a Read result is prefixed with its number (§3.5).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "kebab-case"))]
pub enum LineFormat {
    /// `{n}\t{line}`: the default.
    Compact,
    /// The number right-aligned to width 6, then `→` (the killswitch's legacy format).
    Legacy,
}

/// The numeric limits of a Read (§3.1), with the original's defaults.
#[derive(Debug, Clone, PartialEq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ReadLimits {
    /// Whole-file size cap in bytes, applied only when no `limit` is given: 256 KiB.
    pub max_size_bytes: u64,
    /// Token cap on the estimate of the text read: 25,000 (5,000 for the post-compact
    /// restore).
    pub max_tokens: u64,
    /// Names listed for a directory before the `… and {n} more entries` line: 1000.
    pub max_dir_entries: usize,
    /// PDFs with more pages than this become a `pdf_reference` when mentioned: 10.
    pub pdf_inline_max_pages: u64,
    /// Bytes per page assumed when a PDF's page count cannot be read: 100 KiB.
    pub pdf_bytes_per_page: u64,
    /// The image downsampling ladder's limits.
    pub image: ImageLimits,
}

impl Default for ReadLimits {
    fn default() -> Self {
        ReadLimits {
            max_size_bytes: 256 * 1024,
            max_tokens: 25_000,
            max_dir_entries: 1000,
            pdf_inline_max_pages: 10,
            pdf_bytes_per_page: 100 * 1024,
            image: ImageLimits::default(),
        }
    }
}

crate::switch::with_switches! {
    /// Every knob of the Read tool: its limits, its token method and one switch per quirk.
    /// Each switch is named after the fix; `false` keeps the original's behaviour.
    ///
    /// # Example
    /// ```
    /// use context_assembly::read::{read_text, ReadRequest, ReadRules};
    /// let mut rules = ReadRules::claude_code();
    /// rules.drop_trailing_empty_line = true; // Q16 fixed, every other quirk kept
    /// let read = read_text("a\nb\n", &ReadRequest::default(), &rules).unwrap();
    /// assert_eq!(read.text, "1\ta\n2\tb");
    /// ```
    #[derive(Debug, Clone, PartialEq)]
    #[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
    #[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
    pub struct ReadRules {
        /// Size, token, listing, PDF and image limits.
        pub limits: ReadLimits,
        /// The estimate the token gate uses (§3.3); set it from the profile's `token_method`.
        pub token_method: TokenMethod,
        /// How lines are numbered (§3.5).
        pub line_format: LineFormat,
        /// Q16: the empty fragment after a final `\n` is not a line (original: `"a\nb\n"` has
        /// 3 lines and an empty file has 1).
        pub drop_trailing_empty_line: bool,
        /// Q17: an empty file gets the empty-file warning (original: it has 1 line, so it gets
        /// "shorter than the offset (1)").
        pub warn_empty_file: bool,
        /// Q8: a mention's `#L0` reads from line 1 (original: the whole file numbered from 0).
        pub line_zero_as_one: bool,
        /// Q9: a reversed range `#L20-10` reads lines 10–20 (original: a negative limit, an
        /// empty read and the "shorter than the offset" warning).
        pub swap_reversed_range: bool,
        /// Q19: a small mentioned PDF is forwarded as a document (original: a one-line note,
        /// the contents never reach the model).
        pub forward_small_pdfs: bool,
        /// Q44: images and PDFs are estimated from their dimensions and pages (original: a flat
        /// 2000 tokens each).
        pub media_tokens_from_size: bool,
        /// Q24: directory names end with `/` in listings (original: no marker).
        pub mark_directories: bool,
        /// The Read tool's result ends with the note that asks the model to consider whether
        /// the file is malware (§3.5; Claude Code 2.1.332 no longer sends it).
        pub malware_note: bool,
        /// A re-read of a file unchanged since the agent's last full read of it gets a short
        /// stub instead of the contents (§3.4; Claude Code 2.1.332 sends the contents again, as
        /// the original does with its dedup kill switch on).
        pub unchanged_stub: bool,
        /// A range that selects only the empty piece after the final line break shows it as a
        /// numbered empty line (Claude Code 2.1.332), not the "shorter than the offset" warning
        /// (2.1.88).
        pub number_empty_last_line: bool,
        /// An offset past the last line gets the "shorter than the offset" warning even in an
        /// empty file (Claude Code 2.1.332's order of checks); otherwise Q17's fix gives an
        /// empty file the empty-file warning whatever the offset.
        pub past_end_warned_first: bool,
    }
}

impl ReadRules {
    /// Claude Code's Read tool, quirks included.
    pub fn claude_code() -> ReadRules {
        ReadRules {
            limits: ReadLimits::default(),
            token_method: TokenMethod::ClaudeCode,
            line_format: LineFormat::Compact,
            drop_trailing_empty_line: false,
            warn_empty_file: false,
            line_zero_as_one: false,
            swap_reversed_range: false,
            forward_small_pdfs: false,
            media_tokens_from_size: false,
            mark_directories: false,
            malware_note: true,
            unchanged_stub: true,
            number_empty_last_line: false,
            past_end_warned_first: false,
        }
    }

    /// Every fix switched on, with the calibrated token estimate.
    pub fn recommended() -> ReadRules {
        ReadRules {
            limits: ReadLimits::default(),
            token_method: TokenMethod::Calibrated,
            line_format: LineFormat::Compact,
            drop_trailing_empty_line: true,
            warn_empty_file: true,
            line_zero_as_one: true,
            swap_reversed_range: true,
            forward_small_pdfs: true,
            media_tokens_from_size: true,
            mark_directories: true,
            // The current release dropped the note; it only cost tokens.
            malware_note: false,
            unchanged_stub: true,
            number_empty_last_line: false,
            past_end_warned_first: false,
        }
    }
}

/// Why the Read tool refused. These are tool results the model sees, not misuse of this
/// API, so they are values of their own rather than [`crate::Error`]s. The messages are in
/// our words and name what was wrong and what is allowed.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(tag = "kind", rename_all = "camelCase"))]
pub enum ReadError {
    /// The whole file is larger than `max_size_bytes` and no `limit` was given (§3.2).
    FileTooLarge {
        /// The file's size in bytes.
        size: u64,
        /// The cap in bytes.
        max: u64,
    },
    /// The text read is estimated above `max_tokens` (§3.3).
    MaxFileReadTokenExceeded {
        /// The estimate.
        tokens: u64,
        /// The cap.
        max: u64,
    },
    /// The extension is one of [`BINARY_EXTENSIONS`] (§3.9).
    BinaryExtension {
        /// The extension, lower-cased, with its dot.
        extension: String,
    },
    /// The path is a device that never ends or blocks (§3.9).
    BlockedDevice {
        /// The path as given.
        path: String,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::FileTooLarge { size, max } => write!(
                f,
                "File content ({}) exceeds the maximum allowed size ({}). Read a part of it \
                 with offset and limit, or search it for what you need.",
                format_file_size(*size),
                format_file_size(*max)
            ),
            ReadError::MaxFileReadTokenExceeded { tokens, max } => write!(
                f,
                "File content ({tokens} tokens) exceeds the maximum allowed tokens ({max}). \
                 Read a part of it with offset and limit, or search it for what you need."
            ),
            ReadError::BinaryExtension { extension } => write!(
                f,
                "This tool cannot read binary files: the extension {extension} is binary. \
                 Text files, images (png, jpg, jpeg, gif, webp) and PDFs can be read."
            ),
            ReadError::BlockedDevice { path } => write!(
                f,
                "Cannot read {path}: the device would block or never end. Regular files can \
                 be read."
            ),
        }
    }
}

impl core::error::Error for ReadError {}

/// The window a Read is asked for: `offset` is the first line (1-based; `None` means the
/// tool's default 1), `limit` the number of lines (`None` means to the end). `limit` is
/// signed because a reversed mention range gives a negative one (Q9).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub struct ReadWindow {
    /// First line, 1-based; 0 reads from the start numbered from 0 (Q8).
    pub offset: Option<u64>,
    /// Number of lines; zero or negative reads nothing.
    pub limit: Option<i64>,
}

/// The read window for a mention's line range (§3.7 step 4):
/// `offset = lineStart`, `limit = lineEnd && lineStart ? lineEnd - lineStart + 1 : undefined`.
///
/// # Example
/// ```
/// use context_assembly::read::{mention_window, ReadRules, ReadWindow};
/// let original = ReadRules::claude_code();
/// assert_eq!(mention_window(Some(10), Some(20), &original), ReadWindow { offset: Some(10), limit: Some(11) });
/// // `#L0` is falsy: the whole file, numbered from 0 (Q8).
/// assert_eq!(mention_window(Some(0), Some(0), &original), ReadWindow { offset: Some(0), limit: None });
/// // `#L20-10` reads nothing (Q9); the fix swaps the bounds.
/// assert_eq!(mention_window(Some(20), Some(10), &original).limit, Some(-9));
/// let fixed = ReadRules::recommended();
/// assert_eq!(mention_window(Some(20), Some(10), &fixed), ReadWindow { offset: Some(10), limit: Some(11) });
/// ```
pub fn mention_window(
    line_start: Option<u64>,
    line_end: Option<u64>,
    rules: &ReadRules,
) -> ReadWindow {
    let (mut start, mut end) = (line_start, line_end);
    if rules.swap_reversed_range {
        if let (Some(s), Some(e)) = (start, end) {
            if e < s {
                (start, end) = (Some(e), Some(s));
            }
        }
    }
    if rules.line_zero_as_one && start == Some(0) {
        start = Some(1);
        if end == Some(0) {
            end = Some(1);
        }
    }
    let limit = match (start, end) {
        (Some(s), Some(e)) if s != 0 && e != 0 => {
            let span = i128::from(e) - i128::from(s) + 1;
            Some(i64::try_from(span).unwrap_or(if span < 0 { i64::MIN } else { i64::MAX }))
        }
        _ => None,
    };
    ReadWindow {
        offset: start,
        limit,
    }
}

#[cfg(test)]
mod tests;
