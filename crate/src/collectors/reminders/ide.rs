//! What the IDE reports: the selection, the file open in the editor, new diagnostics (spec
//! §7.8, Q52). Main thread only: nothing for a sub-agent.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::{utf16_len, utf16_prefix, PassInput, ReminderState};
use crate::attachment::AttachmentKind;
use crate::attachment::{AttachmentRules, Collected, Verdict};
use crate::host::{Diagnostic, DiagnosticFile, Severity};
use crate::tokens::TokenMethod;
use crate::wording::reminders::{self as wording, DIAGNOSTICS_TRUNCATED, SELECTION_TRUNCATED};

/// `selected_lines_in_ide` for a non-empty selection in a file no deny rule covers
/// (DENIED, with the rule, otherwise).
///
/// The last line is `lineStart + lineCount - 1`, one line fewer when the selection ends at
/// the start of a line; the original shows the IDE's 0-based lines as they are, and
/// `selection_one_based` (Q52) adds one. A selection of no whole line shows its first line
/// as the last (the original would show the line before). Text over `selection_cap` UTF-16
/// units keeps its first `selection_cap` units (a surrogate pair is never split) followed
/// by `\n... (truncated)` (TRUNCATED).
///
/// # Example
/// ```
/// use context_assembly::collectors::reminders::{ide_selection, PassInput, ReminderState};
/// use context_assembly::attachment::{AttachmentRules, Collected};
/// use context_assembly::host::IdeSelection;
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::Transcript;
///
/// // Lines 3 and 4 (0-based 2 and 3) selected, ending at column 0 of line 5.
/// let selection = IdeSelection {
///     path: "/w/a.rs".into(),
///     line_start: 2,
///     line_count: 3,
///     ends_at_line_start: true,
///     text: "fn a() {}\nfn b() {}\n".into(),
/// };
/// let transcript = Transcript::default();
/// let input = PassInput { selection: Some(&selection), ..PassInput::new(&transcript) };
/// let mut out = Collected::default();
/// let rules = AttachmentRules::recommended();
/// ide_selection(&input, &mut ReminderState::default(), &rules, TokenMethod::ClaudeCode, &mut out);
/// assert!(out.attachments[0].text.contains("lines 3 to 4 of /w/a.rs"));
/// ```
pub fn ide_selection(
    input: &PassInput<'_>,
    _state: &mut ReminderState,
    rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    let Some(selection) = input.selection else {
        return;
    };
    if input.is_sub_agent || selection.text.is_empty() {
        return;
    }
    if denied(input, &selection.path, "selected_lines_in_ide", out) {
        return;
    }
    let lines = if selection.ends_at_line_start {
        selection.line_count.saturating_sub(1)
    } else {
        selection.line_count
    };
    let first = selection
        .line_start
        .saturating_add(u64::from(rules.selection_one_based));
    let last = first.saturating_add(lines.saturating_sub(1));
    let (kept, cut) = utf16_prefix(&selection.text, rules.selection_cap);
    let content = if cut {
        out.decide(
            &selection.path,
            Verdict::Truncated,
            format!(
                "the IDE selection is cut to its first {} characters",
                rules.selection_cap
            ),
            Some(format!(
                "{} characters selected",
                utf16_len(&selection.text)
            )),
        );
        format!("{kept}{SELECTION_TRUNCATED}")
    } else {
        selection.text.clone()
    };
    out.attach(
        AttachmentKind::SelectedLinesInIde,
        Some(&selection.path),
        wording::selected_lines(&selection.path, first, last, &content),
        method,
    );
}

/// `opened_file_in_ide` when a file is open, nothing is selected in it and no deny rule
/// covers it. The session emits the file's nested memory before it.
pub fn ide_opened_file(
    input: &PassInput<'_>,
    _state: &mut ReminderState,
    _rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    let Some(path) = input.opened_file else {
        return;
    };
    let selected = input.selection.is_some_and(|s| !s.text.is_empty());
    if input.is_sub_agent || selected || denied(input, path, "opened_file_in_ide", out) {
        return;
    }
    out.attach(
        AttachmentKind::OpenedFileInIde,
        Some(path),
        wording::opened_file(path),
        method,
    );
}

/// `diagnostics`: the new diagnostics by file, `{basename}:` then one line per issue
/// (`  {sym} [Line {line+1}:{col+1}] {message}`, then ` [{code}]` and ` ({source})` when
/// given), files separated by a blank line. Symbols: error `✘`, warning `⚠`, info `ℹ`,
/// hint `★`. The summary is capped at `diagnostics_cap` UTF-16 units including the
/// `…[truncated]` marker (TRUNCATED). Needs the Bash tool, as the original (SKIPPED
/// otherwise).
pub fn diagnostics(
    input: &PassInput<'_>,
    _state: &mut ReminderState,
    rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    let files: Vec<&DiagnosticFile> = input
        .diagnostics
        .iter()
        .filter(|file| !file.items.is_empty())
        .collect();
    if input.is_sub_agent || files.is_empty() {
        return;
    }
    if !input.has_tool("Bash") {
        out.decide(
            "diagnostics",
            Verdict::Skipped,
            "diagnostics are only sent when the Bash tool is available to act on them".into(),
            None,
        );
        return;
    }
    let full = summary(&files);
    let summary = cap_summary(&full, rules.diagnostics_cap);
    // Compared whole, not by length: a cut near the cap can add more bytes (the marker) than
    // it removes.
    if summary != full {
        out.decide(
            "diagnostics",
            Verdict::Truncated,
            format!(
                "the diagnostics summary is cut to {} characters",
                rules.diagnostics_cap
            ),
            Some(format!("{} characters in full", utf16_len(&full))),
        );
    }
    out.attach(
        AttachmentKind::Diagnostics,
        None,
        wording::diagnostics(&summary),
        method,
    );
}

fn summary(files: &[&DiagnosticFile]) -> String {
    let blocks: Vec<String> = files
        .iter()
        .map(|file| {
            let lines: Vec<String> = file.items.iter().map(diagnostic_line).collect();
            format!("{}:\n{}", basename(&file.path), lines.join("\n"))
        })
        .collect();
    blocks.join("\n\n")
}

fn diagnostic_line(item: &Diagnostic) -> String {
    let symbol = match item.severity {
        Severity::Error => '✘',
        Severity::Warning => '⚠',
        Severity::Info => 'ℹ',
        Severity::Hint => '★',
    };
    let mut line = format!(
        "  {symbol} [Line {}:{}] {}",
        item.line.saturating_add(1),
        item.column.saturating_add(1),
        item.message
    );
    if let Some(code) = item.code.as_deref().filter(|c| !c.is_empty()) {
        line.push_str(&format!(" [{code}]"));
    }
    if let Some(source) = item.source.as_deref().filter(|s| !s.is_empty()) {
        line.push_str(&format!(" ({source})"));
    }
    line
}

/// The text after the last `/`, or the whole path when that is empty (`split('/').pop() ||
/// uri`).
fn basename(path: &str) -> &str {
    match path.rsplit('/').next() {
        Some(name) if !name.is_empty() => name,
        _ => path,
    }
}

/// `summary` when it fits `cap` units, else its head and the marker, `cap` units at most.
fn cap_summary(summary: &str, cap: usize) -> String {
    if utf16_len(summary) <= cap {
        return String::from(summary);
    }
    let (marker, _) = utf16_prefix(DIAGNOSTICS_TRUNCATED, cap);
    let (head, _) = utf16_prefix(summary, cap - utf16_len(marker));
    format!("{head}{marker}")
}

fn denied(input: &PassInput<'_>, path: &str, kind: &str, out: &mut Collected) -> bool {
    let Some(rule) = (input.is_denied)(path) else {
        return false;
    };
    out.decide(
        path,
        Verdict::Denied,
        format!("a Read deny rule keeps {kind} out"),
        Some(rule),
    );
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cap_includes_the_marker() {
        let text = "é".repeat(5000);
        let capped = cap_summary(&text, 4000);
        assert_eq!(utf16_len(&capped), 4000);
        assert!(capped.ends_with("é…[truncated]"));
        assert_eq!(cap_summary("short", 4000), "short");
        assert_eq!(cap_summary("abcdef", 3), "…[t");
    }

    #[test]
    fn a_line_shows_one_based_positions_code_and_source() {
        let item = Diagnostic {
            severity: Severity::Warning,
            line: 0,
            column: 4,
            message: "unused".into(),
            code: Some("W1".into()),
            source: Some("lint".into()),
        };
        assert_eq!(diagnostic_line(&item), "  ⚠ [Line 1:5] unused [W1] (lint)");
        assert_eq!(basename("/a/b/c.rs"), "c.rs");
        assert_eq!(basename("/a/b/"), "/a/b/");
    }
}
