//! What kind of file a Read meets: refused binary extensions, blocked devices, images,
//! PDFs, notebooks and text (spec/claude-code.md §3.9).

use alloc::string::String;

use super::image::{image_info, ImageInfo};
use super::ReadError;
use crate::path::lexical_normalize;

/// Extensions the Read tool refuses as binary, lower-case with the dot: our reconstruction
/// of the original's `BINARY_EXTENSIONS` (`constants/files.ts`; the spec names the file,
/// not its list) — archives, executables and libraries, media, office documents, fonts,
/// bytecode, databases and design files. `.pdf` and the image extensions the tool reads
/// (png, jpg, jpeg, gif, webp) are in the original's list but exempted by the Read tool,
/// so they are left out here.
pub const BINARY_EXTENSIONS: &[&str] = &[
    // images the tool does not read
    ".bmp", ".ico", ".tiff", ".tif", ".heic", ".heif", ".avif", ".psd", ".raw",
    // video
    ".mp4", ".mov", ".avi", ".mkv", ".webm", ".wmv", ".flv", ".m4v", ".mpeg", ".mpg",
    // audio
    ".mp3", ".wav", ".ogg", ".flac", ".aac", ".m4a", ".wma", ".aiff", ".opus",
    // archives
    ".zip", ".tar", ".gz", ".bz2", ".7z", ".rar", ".xz", ".z", ".tgz", ".iso", ".zst",
    // executables and libraries
    ".exe", ".dll", ".so", ".dylib", ".bin", ".o", ".a", ".obj", ".lib", ".app", ".msi", ".deb",
    ".rpm", ".dmg", // office documents
    ".doc", ".docx", ".xls", ".xlsx", ".ppt", ".pptx", ".odt", ".ods", ".odp", // fonts
    ".ttf", ".otf", ".woff", ".woff2", ".eot", // bytecode and compiled artefacts
    ".pyc", ".pyo", ".class", ".jar", ".war", ".ear", ".node", ".wasm", ".rlib",
    // databases
    ".sqlite", ".sqlite3", ".db", ".mdb", ".idx", // design and 3D
    ".ai", ".eps", ".sketch", ".fig", ".xd", ".blend", ".3ds", ".max", // flash
    ".swf", ".fla", // lockfiles and data dumps in binary formats
    ".lockb", ".dat", ".data",
];

/// Extensions the Read tool reads as images (§3.9).
const IMAGE_EXTENSIONS: &[&str] = &[".png", ".jpg", ".jpeg", ".gif", ".webp"];

/// Devices whose reads never end or block (§3.9), besides `/proc/*/fd/0|1|2`.
const BLOCKED_DEVICES: &[&str] = &[
    "/dev/zero",
    "/dev/random",
    "/dev/urandom",
    "/dev/full",
    "/dev/stdin",
    "/dev/tty",
    "/dev/console",
    "/dev/stdout",
    "/dev/stderr",
    "/dev/fd/0",
    "/dev/fd/1",
    "/dev/fd/2",
];

/// How the Read tool treats a file.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileKind {
    /// Read as text with [`super::read_text`].
    Text,
    /// An image extension; `info` is `None` when the bytes are no PNG, JPEG, GIF or WebP.
    Image {
        /// Format and dimensions from the bytes.
        info: Option<ImageInfo>,
    },
    /// `.pdf`: see [`super::plan_pdf`].
    Pdf,
    /// `.ipynb`: its cells are mapped by the notebook reader.
    Notebook,
    /// Contents that are not UTF-8 under a text extension: refused as binary rather than
    /// read with replacement characters.
    NotUtf8 {
        /// Bytes before the first invalid sequence.
        valid_up_to: usize,
    },
}

/// The file's extension as the original computes it (`path.extname`, lower-cased): from
/// the last `.` of the last segment, unless that segment starts with it.
fn extension(path: &str) -> Option<String> {
    let name = path.rsplit('/').next().unwrap_or(path);
    let dot = name.rfind('.').filter(|&at| at > 0)?;
    name.get(dot..).map(str::to_ascii_lowercase)
}

/// Whether the Read tool refuses `path` for its extension (case-insensitive).
///
/// # Example
/// ```
/// use context_assembly::read::is_binary_extension;
/// assert!(is_binary_extension("/p/app.EXE"));
/// assert!(!is_binary_extension("/p/doc.pdf")); // read as a PDF
/// assert!(!is_binary_extension("/p/.zip"));    // a dotfile has no extension
/// ```
pub fn is_binary_extension(path: &str) -> bool {
    extension(path).is_some_and(|ext| BINARY_EXTENSIONS.contains(&ext.as_str()))
}

/// Whether `path` (lexically normalised first) is a device the Read tool refuses.
///
/// # Example
/// ```
/// use context_assembly::read::is_blocked_device;
/// assert!(is_blocked_device("/proc/self/fd/0"));
/// assert!(is_blocked_device("/dev//zero"));
/// assert!(!is_blocked_device("/dev/null")); // reads as empty: allowed
/// ```
pub fn is_blocked_device(path: &str) -> bool {
    let path = lexical_normalize(path);
    if BLOCKED_DEVICES.contains(&path.as_str()) {
        return true;
    }
    let mut segments = path.split('/');
    matches!(
        (
            segments.next(),
            segments.next(),
            segments.next(),
            segments.next(),
            segments.next(),
            segments.next()
        ),
        (Some(""), Some("proc"), Some(pid), Some("fd"), Some("0" | "1" | "2"), None) if !pid.is_empty()
    )
}

/// Classifies a file for the Read tool from its path and bytes: the validation of §3.9
/// (blocked devices, binary extensions), then the reader the extension selects, with the
/// image format and dimensions taken from the bytes.
///
/// # Errors
/// [`ReadError::BlockedDevice`] and [`ReadError::BinaryExtension`].
///
/// # Example
/// ```
/// use context_assembly::read::{classify, FileKind, ReadError};
/// assert_eq!(classify("/p/a.rs", b"fn main() {}"), Ok(FileKind::Text));
/// assert_eq!(classify("/p/a.txt", b"\xff\xfe"), Ok(FileKind::NotUtf8 { valid_up_to: 0 }));
/// // An image extension over bytes that are no image: no format, no dimensions.
/// assert_eq!(classify("/p/a.png", b"text"), Ok(FileKind::Image { info: None }));
/// assert!(matches!(classify("/p/a.zip", b""), Err(ReadError::BinaryExtension { .. })));
/// ```
pub fn classify(path: &str, bytes: &[u8]) -> Result<FileKind, ReadError> {
    if is_blocked_device(path) {
        return Err(ReadError::BlockedDevice { path: path.into() });
    }
    let ext = extension(path);
    match ext.as_deref() {
        Some(ext) if BINARY_EXTENSIONS.contains(&ext) => Err(ReadError::BinaryExtension {
            extension: ext.into(),
        }),
        Some(ext) if IMAGE_EXTENSIONS.contains(&ext) => Ok(FileKind::Image {
            info: image_info(bytes),
        }),
        Some(".pdf") => Ok(FileKind::Pdf),
        Some(".ipynb") => Ok(FileKind::Notebook),
        _ => match core::str::from_utf8(bytes) {
            Ok(_) => Ok(FileKind::Text),
            Err(err) => Ok(FileKind::NotUtf8 {
                valid_up_to: err.valid_up_to(),
            }),
        },
    }
}
