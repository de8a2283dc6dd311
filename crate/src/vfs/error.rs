//! File-system errors, spelled as Node's so that the engine branches on the same codes as
//! the original (spec claude-code.md §5.1: only ENOENT evicts a tracked file).

use alloc::string::String;
use core::fmt;

/// What went wrong, one kind per Node error code the engine tells apart.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum FsErrorKind {
    /// `ENOENT`: nothing at the path (or at one of its directories).
    NotFound,
    /// `EACCES`: a simulated permission problem; the file is still there.
    PermissionDenied,
    /// `EBUSY`: a simulated busy file (an editor's atomic save), or the root being removed.
    Busy,
    /// `EISDIR`: a file operation on a directory.
    IsDirectory,
    /// `ENOTDIR`: a directory operation on a file, or a file used as a directory.
    NotDirectory,
    /// `ENOTEMPTY`: removing or replacing a directory that has entries.
    NotEmpty,
    /// `EEXIST`: creating a directory where a file is.
    AlreadyExists,
    /// `EINVAL`: moving a directory into itself.
    InvalidArgument,
    /// `EFBIG`: a file larger than [`MAX_FILE_BYTES`](super::MAX_FILE_BYTES).
    FileTooLarge,
    /// `ENOSPC`: the files would hold more than [`MAX_TOTAL_BYTES`](super::MAX_TOTAL_BYTES)
    /// together.
    NoSpace,
    /// `ERR_INVALID_ARG_VALUE`: a path that is not absolute and canonical (a caller's bug:
    /// paths reach the file system through `path::expand_path`).
    InvalidPath,
}

impl FsErrorKind {
    /// Node's `error.code`.
    pub const fn code(self) -> &'static str {
        match self {
            FsErrorKind::NotFound => "ENOENT",
            FsErrorKind::PermissionDenied => "EACCES",
            FsErrorKind::Busy => "EBUSY",
            FsErrorKind::IsDirectory => "EISDIR",
            FsErrorKind::NotDirectory => "ENOTDIR",
            FsErrorKind::NotEmpty => "ENOTEMPTY",
            FsErrorKind::AlreadyExists => "EEXIST",
            FsErrorKind::InvalidArgument => "EINVAL",
            FsErrorKind::FileTooLarge => "EFBIG",
            FsErrorKind::NoSpace => "ENOSPC",
            FsErrorKind::InvalidPath => "ERR_INVALID_ARG_VALUE",
        }
    }

    const fn description(self) -> &'static str {
        match self {
            FsErrorKind::NotFound => "no such file or directory",
            FsErrorKind::PermissionDenied => "permission denied",
            FsErrorKind::Busy => "resource busy or locked",
            FsErrorKind::IsDirectory => "illegal operation on a directory",
            FsErrorKind::NotDirectory => "not a directory",
            FsErrorKind::NotEmpty => "directory not empty",
            FsErrorKind::AlreadyExists => "file already exists",
            FsErrorKind::InvalidArgument => "invalid argument",
            FsErrorKind::FileTooLarge => "file too large (the limit is 32 MiB a file)",
            FsErrorKind::NoSpace => "no space left (the limit is 256 MiB of files in all)",
            FsErrorKind::InvalidPath => {
                "the path must be absolute and canonical (no `.` or `..` segment, no `//`, \
                 no trailing `/`, no NUL)"
            }
        }
    }
}

/// A transient failure set on a path with [`Vfs::set_transient_error`](super::Vfs::set_transient_error):
/// the file is (or is not) there, but cannot be looked at for now. Neither evicts a
/// tracked file (spec claude-code.md §5.1, Q39).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
pub enum TransientError {
    /// `EACCES`: a permission hiccup.
    PermissionDenied,
    /// `EBUSY`: the window of an editor's atomic save.
    Busy,
}

impl From<TransientError> for FsErrorKind {
    fn from(error: TransientError) -> Self {
        match error {
            TransientError::PermissionDenied => FsErrorKind::PermissionDenied,
            TransientError::Busy => FsErrorKind::Busy,
        }
    }
}

/// The system call Node names in its message, which tells `stat` from `open` failures.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub enum Syscall {
    /// `stat`.
    Stat,
    /// `open`: reading or writing a file.
    Open,
    /// `read`: reading a directory as a file.
    Read,
    /// `scandir`: listing a directory.
    Scandir,
    /// `unlink`: deleting a file.
    Unlink,
    /// `rmdir`: deleting a directory.
    Rmdir,
    /// `rename`.
    Rename,
    /// `mkdir`.
    Mkdir,
}

impl Syscall {
    /// The name as Node prints it.
    pub const fn as_str(self) -> &'static str {
        match self {
            Syscall::Stat => "stat",
            Syscall::Open => "open",
            Syscall::Read => "read",
            Syscall::Scandir => "scandir",
            Syscall::Unlink => "unlink",
            Syscall::Rmdir => "rmdir",
            Syscall::Rename => "rename",
            Syscall::Mkdir => "mkdir",
        }
    }
}

/// A failed file-system operation, displayed as Node displays it.
///
/// # Example
/// ```
/// use context_assembly::vfs::{FsErrorKind, Vfs};
/// let err = Vfs::new().stat("/p/x").unwrap_err();
/// assert_eq!(err.kind, FsErrorKind::NotFound);
/// assert_eq!(err.code(), "ENOENT"); // the only code that evicts a tracked file
/// assert_eq!(err.to_string(), "ENOENT: no such file or directory, stat '/p/x'");
/// ```
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct FsError {
    /// What went wrong.
    pub kind: FsErrorKind,
    /// The operation that failed.
    pub syscall: Syscall,
    /// The path operated on (the source of a rename).
    pub path: String,
    /// The destination of a rename.
    pub dest: Option<String>,
}

impl FsError {
    pub(super) fn new(kind: FsErrorKind, syscall: Syscall, path: &str) -> Self {
        FsError {
            kind,
            syscall,
            path: path.into(),
            dest: None,
        }
    }

    /// Node's `error.code` (`ENOENT`, `EACCES`…).
    pub const fn code(&self) -> &'static str {
        self.kind.code()
    }
}

impl fmt::Display for FsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: {}, {} '{}'",
            self.kind.code(),
            self.kind.description(),
            self.syscall.as_str(),
            self.path
        )?;
        match &self.dest {
            Some(dest) => write!(f, " -> '{dest}'"),
            None => Ok(()),
        }
    }
}

impl core::error::Error for FsError {}
