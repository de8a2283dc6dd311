//! Codex's `apply_patch` (spec codex.md §8.3–§8.5): the patch is parsed and verified against
//! the files before anything is written — every target read, every hunk located — and a
//! failure reaches the model as `apply_patch verification failed: {error}`.
//!
//! Patch grammar (the format facts Codex's model is trained on):
//!
//! ```text
//! *** Begin Patch
//! *** Add File: {path}            then `+` lines
//! *** Delete File: {path}
//! *** Update File: {path}         optionally `*** Move to: {path}`, then chunks:
//! @@ [change context]             ` ` context, `-` removed, `+` added lines;
//! *** End of File                 optional, anchors the chunk at the end
//! *** End Patch
//! ```

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

/// One file operation of a patch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum PatchOp {
    /// A new file with these contents.
    Add {
        /// Its path, as written.
        path: String,
        /// Its text.
        contents: String,
    },
    /// A file removed.
    Delete {
        /// Its path, as written.
        path: String,
    },
    /// A file changed (and maybe moved).
    Update {
        /// Its path, as written.
        path: String,
        /// Where it moves, if it does.
        move_to: Option<String>,
        /// The changes, in order.
        chunks: Vec<Chunk>,
    },
}

/// One `@@` chunk of an update.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct Chunk {
    /// The `@@ {context}` line to find first.
    pub change_context: Option<String>,
    /// The lines to replace (context and `-` lines).
    pub old_lines: Vec<String>,
    /// Their replacement (context and `+` lines).
    pub new_lines: Vec<String>,
    /// The chunk ends with `*** End of File`.
    pub is_end_of_file: bool,
}

const BEGIN: &str = "*** Begin Patch";
const END: &str = "*** End Patch";
const ADD: &str = "*** Add File: ";
const DELETE: &str = "*** Delete File: ";
const UPDATE: &str = "*** Update File: ";
const MOVE: &str = "*** Move to: ";
const END_OF_FILE: &str = "*** End of File";

/// Parses a patch.
///
/// # Errors
/// The first line is not `*** Begin Patch`, the last not `*** End Patch`, a line outside a
/// file operation, or an update without a chunk; the message names the line.
pub fn parse_patch(patch: &str) -> Result<Vec<PatchOp>, String> {
    let lines: Vec<&str> = patch.trim().lines().collect();
    match (lines.first(), lines.last()) {
        (Some(&BEGIN), Some(&END)) if lines.len() >= 2 => {}
        (Some(&BEGIN), _) => return Err(format!("the last line of the patch must be '{END}'")),
        _ => return Err(format!("the first line of the patch must be '{BEGIN}'")),
    }
    let body = &lines[1..lines.len() - 1];
    let mut ops = Vec::new();
    let mut at = 0;
    while at < body.len() {
        let line = body[at];
        at += 1;
        if let Some(path) = line.strip_prefix(ADD) {
            let mut contents = String::new();
            while let Some(added) = body.get(at).and_then(|l| l.strip_prefix('+')) {
                contents.push_str(added);
                contents.push('\n');
                at += 1;
            }
            ops.push(PatchOp::Add {
                path: path.into(),
                contents,
            });
        } else if let Some(path) = line.strip_prefix(DELETE) {
            ops.push(PatchOp::Delete { path: path.into() });
        } else if let Some(path) = line.strip_prefix(UPDATE) {
            let move_to = body
                .get(at)
                .and_then(|l| l.strip_prefix(MOVE))
                .map(String::from);
            at += usize::from(move_to.is_some());
            let chunks = parse_chunks(body, &mut at, path)?;
            ops.push(PatchOp::Update {
                path: path.into(),
                move_to,
                chunks,
            });
        } else {
            return Err(format!(
                "line {} is not a file operation ('{ADD}', '{DELETE}' or '{UPDATE}'): '{line}'",
                at + 1
            ));
        }
    }
    Ok(ops)
}

fn parse_chunks(body: &[&str], at: &mut usize, path: &str) -> Result<Vec<Chunk>, String> {
    let mut chunks: Vec<Chunk> = Vec::new();
    while let Some(&line) = body.get(*at) {
        if line.starts_with("*** ") && line != END_OF_FILE {
            break;
        }
        *at += 1;
        if line == "@@" || line.starts_with("@@ ") {
            chunks.push(Chunk {
                change_context: line.strip_prefix("@@ ").map(String::from),
                ..Chunk::default()
            });
            continue;
        }
        if chunks.is_empty() {
            chunks.push(Chunk::default());
        }
        let Some(chunk) = chunks.last_mut() else {
            break;
        };
        if line == END_OF_FILE {
            chunk.is_end_of_file = true;
        } else if let Some(removed) = line.strip_prefix('-') {
            chunk.old_lines.push(removed.into());
        } else if let Some(added) = line.strip_prefix('+') {
            chunk.new_lines.push(added.into());
        } else {
            // A context line; an empty line counts as an empty context line.
            let context = line.strip_prefix(' ').unwrap_or(line);
            chunk.old_lines.push(context.into());
            chunk.new_lines.push(context.into());
        }
    }
    match chunks.is_empty() {
        true => Err(format!("the update of {path} has no chunk")),
        false => Ok(chunks),
    }
}

/// Where `pattern` starts in `lines` at or after `start` (`seek_sequence`), trying four
/// passes of decreasing strictness: exact, equal after `trim_end`, after `trim`, and after
/// normalising Unicode punctuation (dashes, typographic quotes, unusual spaces). With `eof`
/// the end of the file is tried first.
///
/// # Example
/// ```
/// use context_assembly::codex::apply_patch::seek_sequence;
/// let lines: Vec<String> = ["let a = 1;", "let b = \u{201C}x\u{201D};"].map(String::from).to_vec();
/// assert_eq!(seek_sequence(&lines, &["let b = \"x\";".to_string()], 0, false), Some(1));
/// ```
pub fn seek_sequence(
    lines: &[String],
    pattern: &[String],
    start: usize,
    eof: bool,
) -> Option<usize> {
    if pattern.is_empty() {
        return Some(start);
    }
    let last_start = lines.len().checked_sub(pattern.len())?;
    if eof {
        if let Some(found) = seek_from(lines, pattern, last_start, last_start) {
            return Some(found);
        }
    }
    seek_from(lines, pattern, start, last_start)
}

fn seek_from(lines: &[String], pattern: &[String], from: usize, to: usize) -> Option<usize> {
    let passes: [fn(&str) -> String; 4] = [
        |s| String::from(s),
        |s| String::from(s.trim_end()),
        |s| String::from(s.trim()),
        normalise_punctuation,
    ];
    for pass in passes {
        let found = (from..=to).find(|&at| {
            (pattern.iter().zip(&lines[at..])).all(|(want, have)| pass(want) == pass(have))
        });
        if found.is_some() {
            return found;
        }
    }
    None
}

/// The fourth pass's comparison form: trimmed, with dashes as `-`, typographic quotes as `'`
/// or `"`, and non-breaking and other unusual spaces as a space.
fn normalise_punctuation(text: &str) -> String {
    text.trim()
        .chars()
        .map(|c| match c {
            '\u{2010}' | '\u{2011}' | '\u{2012}' | '\u{2013}' | '\u{2014}' | '\u{2015}'
            | '\u{2212}' => '-',
            '\u{2018}' | '\u{2019}' | '\u{201A}' | '\u{201B}' => '\'',
            '\u{201C}' | '\u{201D}' | '\u{201E}' | '\u{201F}' => '"',
            '\u{00A0}' | '\u{2002}'..='\u{200A}' | '\u{202F}' | '\u{205F}' | '\u{3000}' => ' ',
            other => other,
        })
        .collect()
}

/// `contents` after the `chunks` of an update of `path` (`compute_replacements`): each
/// chunk's context line is found first, then its old lines from there (an unmatched pattern
/// ending in an empty line is retried without it); a pure addition goes at the end; the
/// replacements are applied bottom-up and the file ends with a newline.
///
/// # Errors
/// `Failed to find context '{line}' in {path}` or
/// `Failed to find expected lines in {path}:\n{old lines}` (§8.3).
pub fn apply_chunks(contents: &str, chunks: &[Chunk], path: &str) -> Result<String, String> {
    let mut lines: Vec<String> = contents.split('\n').map(String::from).collect();
    if lines.last().is_some_and(String::is_empty) {
        lines.pop();
    }
    let mut replacements: Vec<(usize, usize, Vec<String>)> = Vec::new();
    let mut index = 0;
    for chunk in chunks {
        if let Some(context) = &chunk.change_context {
            let found = seek_sequence(&lines, core::slice::from_ref(context), index, false);
            let Some(at) = found else {
                return Err(format!("Failed to find context '{context}' in {path}"));
            };
            index = at + 1;
        }
        if chunk.old_lines.is_empty() {
            replacements.push((lines.len(), 0, chunk.new_lines.clone()));
            continue;
        }
        let mut pattern: &[String] = &chunk.old_lines;
        let mut new_lines: &[String] = &chunk.new_lines;
        let mut found = seek_sequence(&lines, pattern, index, chunk.is_end_of_file);
        if found.is_none() && pattern.last().is_some_and(String::is_empty) {
            pattern = &pattern[..pattern.len() - 1];
            if new_lines.last().is_some_and(String::is_empty) {
                new_lines = &new_lines[..new_lines.len() - 1];
            }
            found = seek_sequence(&lines, pattern, index, chunk.is_end_of_file);
        }
        let Some(at) = found else {
            return Err(format!(
                "Failed to find expected lines in {path}:\n{}",
                chunk.old_lines.join("\n")
            ));
        };
        replacements.push((at, pattern.len(), new_lines.to_vec()));
        index = at + pattern.len();
    }
    crate::sort::sort_by_key(&mut replacements, |(at, _, _)| *at);
    for (at, removed, added) in replacements.into_iter().rev() {
        let end = (at + removed).min(lines.len());
        lines.splice(at.min(lines.len())..end, added);
    }
    let mut out = lines.join("\n");
    out.push('\n');
    Ok(out)
}

/// One file as a verified patch leaves it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FileChange {
    /// Written with these contents (added, updated, or a move's destination).
    Write {
        /// The path, as written in the patch.
        path: String,
        /// The new text.
        contents: String,
    },
    /// Removed (deleted, or a move's source).
    Remove {
        /// The path, as written in the patch.
        path: String,
    },
}

/// A patch that passed verification: the changes to make, and what the model is told.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VerifiedPatch {
    /// The files to write and remove, in patch order.
    pub changes: Vec<FileChange>,
    /// `Success. Updated the following files:` then `A`, `M` and `D` lines (§8.5).
    pub summary: String,
}

/// The pre-flight (`maybe_parse_apply_patch_verified`, §8.3): parses `patch`, reads every
/// Delete and Update target through `read` (`None`: it cannot be read), computes each
/// update's new contents. Nothing is written.
///
/// # Errors
/// `apply_patch verification failed: {error}` — what the model receives.
///
/// # Example
/// ```
/// use context_assembly::codex::apply_patch::verify_patch;
/// let patch = "*** Begin Patch\n*** Update File: a.txt\n@@\n-one\n+uno\n*** End Patch";
/// let read = |path: &str| (path == "a.txt").then(|| String::from("one\ntwo\n"));
/// let verified = verify_patch(patch, read).unwrap();
/// assert_eq!(verified.summary, "Success. Updated the following files:\nM a.txt\n");
/// let error = verify_patch("*** Begin Patch\n*** Update File: a.txt\n-three\n*** End Patch", read);
/// assert_eq!(error.unwrap_err(), "apply_patch verification failed: Failed to find expected lines in a.txt:\nthree");
/// ```
pub fn verify_patch(
    patch: &str,
    read: impl Fn(&str) -> Option<String>,
) -> Result<VerifiedPatch, String> {
    verify(patch, read).map_err(|error| format!("apply_patch verification failed: {error}"))
}

fn verify(patch: &str, read: impl Fn(&str) -> Option<String>) -> Result<VerifiedPatch, String> {
    let mut changes = Vec::new();
    let (mut added, mut modified, mut deleted) = (Vec::new(), Vec::new(), Vec::new());
    let unreadable = |path: &str| format!("Failed to read {path}: the file does not exist");
    for op in parse_patch(patch)? {
        match op {
            PatchOp::Add { path, contents } => {
                added.push(path.clone());
                changes.push(FileChange::Write { path, contents });
            }
            PatchOp::Delete { path } => {
                read(&path).ok_or_else(|| unreadable(&path))?;
                deleted.push(path.clone());
                changes.push(FileChange::Remove { path });
            }
            PatchOp::Update {
                path,
                move_to,
                chunks,
            } => {
                let before = read(&path).ok_or_else(|| unreadable(&path))?;
                let contents = apply_chunks(&before, &chunks, &path)?;
                modified.push(move_to.clone().unwrap_or_else(|| path.clone()));
                match move_to {
                    Some(to) => {
                        changes.push(FileChange::Write { path: to, contents });
                        changes.push(FileChange::Remove { path });
                    }
                    None => changes.push(FileChange::Write { path, contents }),
                }
            }
        }
    }
    let mut summary = String::from("Success. Updated the following files:\n");
    for (mark, paths) in [("A", &added), ("M", &modified), ("D", &deleted)] {
        for path in paths {
            summary.push_str(&format!("{mark} {path}\n"));
        }
    }
    Ok(VerifiedPatch { changes, summary })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(text: &str) -> Vec<String> {
        text.lines().map(String::from).collect()
    }

    #[test]
    fn the_passes_go_from_exact_to_punctuation() {
        let file = lines("a  \n  b\nc \u{2014} d");
        assert_eq!(seek_sequence(&file, &lines("a"), 0, false), Some(0)); // trim_end
        assert_eq!(seek_sequence(&file, &lines("b"), 0, false), Some(1)); // trim
        assert_eq!(seek_sequence(&file, &lines("c - d"), 0, false), Some(2)); // dash
        assert_eq!(seek_sequence(&file, &lines("e"), 0, false), None);
    }

    #[test]
    fn end_of_file_chunks_match_the_last_occurrence() {
        let file = "x\nend\nx\nend\n";
        let chunk = Chunk {
            old_lines: lines("end"),
            new_lines: lines("END"),
            is_end_of_file: true,
            ..Chunk::default()
        };
        assert_eq!(
            apply_chunks(file, &[chunk], "f").unwrap(),
            "x\nend\nx\nEND\n"
        );
    }

    #[test]
    fn a_context_line_anchors_the_chunk_and_additions_go_at_the_end() {
        let file = "fn a() {\n    1\n}\nfn b() {\n    1\n}";
        let patch = "*** Begin Patch\n*** Update File: f.rs\n@@ fn b() {\n-    1\n+    2\n@@\n+// end\n*** End Patch";
        let verified = verify_patch(patch, |_| Some(file.into())).unwrap();
        let FileChange::Write { contents, .. } = &verified.changes[0] else {
            panic!("an update writes");
        };
        assert_eq!(contents, "fn a() {\n    1\n}\nfn b() {\n    2\n}\n// end\n");
    }

    #[test]
    fn a_missing_context_and_a_missing_file_are_verification_failures() {
        let patch = "*** Begin Patch\n*** Update File: f\n@@ nowhere\n-x\n*** End Patch";
        assert_eq!(
            verify_patch(patch, |_| Some("x\n".into())).unwrap_err(),
            "apply_patch verification failed: Failed to find context 'nowhere' in f"
        );
        let delete = "*** Begin Patch\n*** Delete File: gone\n*** End Patch";
        assert!(verify_patch(delete, |_| None).is_err());
    }

    #[test]
    fn the_summary_lists_added_modified_and_deleted_files_in_that_order() {
        let patch = "*** Begin Patch\n*** Delete File: old\n*** Add File: new\n+hi\n*** Update File: a\n*** Move to: b\n@@\n-x\n+y\n*** End Patch";
        let verified = verify_patch(patch, |_| Some("x\n".into())).unwrap();
        assert_eq!(
            verified.summary,
            "Success. Updated the following files:\nA new\nM b\nD old\n"
        );
        assert_eq!(verified.changes.len(), 4);
    }

    #[test]
    fn a_patch_needs_its_envelope() {
        assert!(parse_patch("*** Update File: a\n-x").is_err());
        assert!(parse_patch("*** Begin Patch\n*** Update File: a\n").is_err());
    }
}
