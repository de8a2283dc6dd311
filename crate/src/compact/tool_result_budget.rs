//! The per-message tool-result budget: oversized results are saved aside and replaced by a
//! preview (spec claude-code.md §9.7).
//!
//! When the results of one fresh tool-results message exceed
//! [`MAX_TOOL_RESULTS_PER_MESSAGE_CHARS`] in total, the largest are replaced first until
//! the total fits. A replacement names where the full output was saved and shows its first
//! [`PREVIEW_SIZE_BYTES`], cut at a line break when one falls in the preview's second half.
//! The original decides once, when the message is fresh, and never revisits the decision,
//! so the prompt cache stays stable: call [`apply_tool_result_budget`] once per message.
//!
//! Sizes are UTF-16 code units, what the original's `String.length` counts. The saved file
//! is virtual: [`persisted_path`] gives `/tool-results/{tool_use_id}.txt`, and the caller
//! may store the full output there (the original writes it under the session's directory).

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::js::utf16_units;
use crate::transcript::{ToolResultBlock, ToolUse};
use crate::vocabulary::{Decision, Verdict};

/// `MAX_TOOL_RESULTS_PER_MESSAGE_CHARS` (GrowthBook `tengu_hawthorn_window`).
pub const MAX_TOOL_RESULTS_PER_MESSAGE_CHARS: u64 = 200_000;
/// `DEFAULT_MAX_RESULT_SIZE_CHARS`: no tool's own persistence threshold is above this.
pub const DEFAULT_MAX_RESULT_SIZE_CHARS: u64 = 50_000;
/// `PREVIEW_SIZE_BYTES`: the length of a preview (counted in UTF-16 units, as the original
/// slices strings).
pub const PREVIEW_SIZE_BYTES: u64 = 2_000;
/// Opens a replacement, byte-exact.
pub const PERSISTED_OUTPUT_TAG: &str = "<persisted-output>";
/// Closes a replacement, byte-exact.
pub const PERSISTED_OUTPUT_CLOSING_TAG: &str = "</persisted-output>";
/// The virtual directory persisted outputs are saved in.
pub const TOOL_RESULTS_DIR: &str = "/tool-results";

/// The subject of the pass's own decisions.
const SUBJECT: &str = "tool-result budget";

/// The per-message budget (GrowthBook `tengu_hawthorn_steeple` gates it; its default is
/// unverified, spec §10).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct ToolResultBudgetRules {
    /// The budget is enforced.
    pub enabled: bool,
    /// UTF-16 units the results of one message may total.
    pub per_message_chars: u64,
    /// UTF-16 units of a replacement's preview.
    pub preview_chars: u64,
}

impl ToolResultBudgetRules {
    /// Claude Code: on, 200 000 per message, 2 000 of preview.
    pub const fn claude_code() -> ToolResultBudgetRules {
        ToolResultBudgetRules {
            enabled: true,
            per_message_chars: MAX_TOOL_RESULTS_PER_MESSAGE_CHARS,
            preview_chars: PREVIEW_SIZE_BYTES,
        }
    }

    /// The same: the budget has no known defect.
    pub const fn recommended() -> ToolResultBudgetRules {
        ToolResultBudgetRules::claude_code()
    }
}

/// A tool's own `maxResultSizeChars`: `None` for Read (never persisted, since reading the
/// saved file back would be persisted again), 20 000 for Grep, 100 000 for the others.
pub fn max_result_size_chars(tool_name: &str) -> Option<u64> {
    match tool_name {
        "Read" => None,
        "Grep" => Some(20_000),
        _ => Some(100_000),
    }
}

/// The size above which one result of `tool_name` is persisted on its own:
/// `min(maxResultSizeChars, DEFAULT_MAX_RESULT_SIZE_CHARS)`; `None`: never.
pub fn persistence_threshold(tool_name: &str) -> Option<u64> {
    max_result_size_chars(tool_name).map(|size| size.min(DEFAULT_MAX_RESULT_SIZE_CHARS))
}

/// Where the full output of `tool_use_id` is saved: `/tool-results/{tool_use_id}.txt`.
pub fn persisted_path(tool_use_id: &str) -> String {
    format!("{TOOL_RESULTS_DIR}/{tool_use_id}.txt")
}

/// A result saved aside.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct PersistedOutput {
    /// The call the result answers.
    pub tool_use_id: String,
    /// Where the full output is saved.
    pub path: String,
    /// The full output.
    pub content: String,
    /// What the model sees instead.
    pub replacement: String,
}

/// Saves `content` aside: the replacement the model sees and the file to store.
///
/// The replacement is `<persisted-output>\n`, a line naming the size and the path, a blank
/// line, a line naming the preview's size, `:\n`, the preview, `\n...\n` when the preview
/// is not the whole output (`\n` otherwise), and `</persisted-output>`.
///
/// # Example
/// ```
/// use context_assembly::compact::tool_result_budget::persist_output;
/// let content = format!("{}\n{}", "a".repeat(1_500), "b".repeat(1_000));
/// let persisted = persist_output("t1", &content, 2_000);
/// assert_eq!(persisted.path, "/tool-results/t1.txt");
/// // The line break at 1 500 is past half of the preview: the preview stops there.
/// let preview = format!(":\n{}\n...\n</persisted-output>", "a".repeat(1_500));
/// assert!(persisted.replacement.ends_with(&preview));
/// ```
pub fn persist_output(tool_use_id: &str, content: &str, preview_chars: u64) -> PersistedOutput {
    let path = persisted_path(tool_use_id);
    let (preview, has_more) = preview(content, preview_chars);
    let tail = if has_more { "\n...\n" } else { "\n" };
    let replacement = format!(
        "{PERSISTED_OUTPUT_TAG}\n\
         The output was too large to include ({size}); the full text is saved at {path}\n\n\
         Its first {preview_size}:\n{preview}{tail}{PERSISTED_OUTPUT_CLOSING_TAG}",
        size = format_size(utf16_units(content)),
        preview_size = format_size(preview_chars),
    );
    PersistedOutput {
        tool_use_id: String::from(tool_use_id),
        path,
        content: String::from(content),
        replacement,
    }
}

/// The first `max` UTF-16 units of `content`, cut at its last line break when that falls
/// past half of them, and whether anything was left out. A character that would straddle
/// the limit (half of a surrogate pair) is left out whole.
fn preview(content: &str, max: u64) -> (&str, bool) {
    let mut units = 0u64;
    let mut cut = content.len();
    let mut last_newline = None;
    for (at, ch) in content.char_indices() {
        let width = ch.len_utf16() as u64;
        if units + width > max {
            cut = at;
            break;
        }
        if ch == '\n' {
            last_newline = Some((at, units));
        }
        units += width;
    }
    if cut == content.len() {
        return (content, false);
    }
    let cut = match last_newline {
        // `lastNewline > maxBytes * 0.5`, in integers.
        Some((at, position)) if position * 2 > max => at,
        _ => cut,
    };
    (content.get(..cut).unwrap_or(""), true)
}

/// A size in the original's style: `512 bytes`, `2KB`, `1.5MB`, one decimal at most.
fn format_size(units: u64) -> String {
    if units < 1024 {
        return format!("{units} bytes");
    }
    let mut scale = 1024u128;
    for suffix in ["KB", "MB"] {
        if u128::from(units) < scale * 1024 {
            return tenths(units, scale, suffix);
        }
        scale *= 1024;
    }
    tenths(units, scale, "GB")
}

/// `units / scale` with one decimal, rounded half up, a trailing `.0` dropped.
fn tenths(units: u64, scale: u128, suffix: &str) -> String {
    let tenths = (u128::from(units) * 10 + scale / 2) / scale;
    match tenths % 10 {
        0 => format!("{}{suffix}", tenths / 10),
        digit => format!("{}.{digit}{suffix}", tenths / 10),
    }
}

/// One message's results after the budget.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct BudgetedResults {
    /// The results, in their order, oversized ones replaced.
    pub results: Vec<ToolResultBlock>,
    /// What was saved aside, largest first.
    pub persisted: Vec<PersistedOutput>,
    /// UTF-16 units of all contents before the budget.
    pub total_before: u64,
    /// UTF-16 units of all contents after it.
    pub total_after: u64,
    /// Why the budget did or did not act, and one decision per result it considered.
    pub decisions: Vec<Decision>,
}

/// Enforces the per-message budget on the `results` of one fresh message; `calls` are the
/// tool calls they answer (a result whose call is not among them is treated as any tool's).
/// Read's results and results persisted already are never replaced.
///
/// # Example
/// ```
/// use context_assembly::compact::tool_result_budget::{
///     apply_tool_result_budget, ToolResultBudgetRules,
/// };
/// use context_assembly::transcript::{ToolResultBlock, ToolUse};
/// let result = |id: &str, size| ToolResultBlock {
///     tool_use_id: id.into(),
///     content: "x".repeat(size),
///     is_error: false,
/// };
/// let call = |id: &str, name: &str| ToolUse { id: id.into(), name: name.into(), input: "{}".into() };
/// let results = [result("r", 150_000), result("b", 120_000), result("g", 40_000)];
/// let calls = [call("r", "Read"), call("b", "Bash"), call("g", "Grep")];
/// let out = apply_tool_result_budget(&results, &calls, &ToolResultBudgetRules::claude_code());
/// // Read's result is the largest but is never persisted: Bash's goes, and that suffices.
/// assert_eq!(out.persisted.len(), 1);
/// assert_eq!(out.persisted[0].tool_use_id, "b");
/// assert!(out.total_after <= 200_000);
/// ```
pub fn apply_tool_result_budget(
    results: &[ToolResultBlock],
    calls: &[ToolUse],
    rules: &ToolResultBudgetRules,
) -> BudgetedResults {
    let sizes: Vec<u64> = results.iter().map(|r| utf16_units(&r.content)).collect();
    let total_before = sizes.iter().sum();
    let mut out = BudgetedResults {
        results: results.to_vec(),
        persisted: Vec::new(),
        total_before,
        total_after: total_before,
        decisions: Vec::new(),
    };
    if !rules.enabled {
        out.decide(SUBJECT, Verdict::Skipped, String::from("switched off"));
        return out;
    }
    if total_before <= rules.per_message_chars {
        let reason = format!("{total_before} of {} characters", rules.per_message_chars);
        out.decide(SUBJECT, Verdict::Unchanged, reason);
        return out;
    }
    let mut largest_first: Vec<usize> = (0..results.len()).collect();
    crate::sort::sort_by(&mut largest_first, |&a, &b| {
        sizes[b].cmp(&sizes[a]).then(a.cmp(&b))
    });
    for index in largest_first {
        if out.total_after <= rules.per_message_chars {
            break;
        }
        out.consider(index, sizes[index], calls, rules);
    }
    if out.total_after > rules.per_message_chars {
        let reason = format!(
            "still {} of {} characters: nothing else may be persisted",
            out.total_after, rules.per_message_chars
        );
        out.decide(SUBJECT, Verdict::OverBudget, reason);
    }
    out
}

impl BudgetedResults {
    /// Replaces result `index` (of `size` units) if it may and should be.
    fn consider(
        &mut self,
        index: usize,
        size: u64,
        calls: &[ToolUse],
        rules: &ToolResultBudgetRules,
    ) {
        let Some(result) = self.results.get_mut(index) else {
            return;
        };
        let id = result.tool_use_id.clone();
        let name = calls
            .iter()
            .find(|call| call.id == id)
            .map(|call| call.name.as_str());
        if name.is_some_and(|name| max_result_size_chars(name).is_none()) {
            self.decide(
                &id,
                Verdict::Skipped,
                String::from("Read results are never persisted"),
            );
            return;
        }
        if result.content.starts_with(PERSISTED_OUTPUT_TAG) {
            self.decide(&id, Verdict::Unchanged, String::from("persisted already"));
            return;
        }
        let persisted = persist_output(&id, &result.content, rules.preview_chars);
        let new_size = utf16_units(&persisted.replacement);
        if new_size >= size {
            self.decide(
                &id,
                Verdict::Skipped,
                String::from("a preview would not be shorter"),
            );
            return;
        }
        result.content = persisted.replacement.clone();
        self.total_after = self.total_after - size + new_size;
        let reason = format!(
            "the message's results exceed {} characters; {size} characters saved to {}",
            rules.per_message_chars, persisted.path
        );
        self.persisted.push(persisted);
        self.decide(&id, Verdict::Truncated, reason);
    }

    fn decide(&mut self, subject: &str, verdict: Verdict, reason: String) {
        self.decisions
            .push(Decision::new(String::from(subject), verdict, reason));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_read_like_the_original() {
        assert_eq!(format_size(0), "0 bytes");
        assert_eq!(format_size(1023), "1023 bytes");
        assert_eq!(format_size(1024), "1KB");
        assert_eq!(format_size(PREVIEW_SIZE_BYTES), "2KB");
        assert_eq!(format_size(1536), "1.5KB");
        assert_eq!(format_size(200_000), "195.3KB");
        assert_eq!(format_size(3 * 1024 * 1024 / 2), "1.5MB");
        assert_eq!(format_size(5 * 1024 * 1024 * 1024), "5GB");
        assert_eq!(format_size(u64::MAX), "17179869184GB");
    }

    #[test]
    fn a_preview_never_splits_a_character() {
        let content = "😀".repeat(1_500); // 3 000 units
        let (preview, more) = preview(&content, 2_001);
        assert!(more);
        assert_eq!(utf16_units(preview), 2_000);
    }

    #[test]
    fn a_line_break_in_the_first_half_does_not_cut() {
        let content = format!("{}\n{}", "a".repeat(1_000), "b".repeat(5_000));
        let (preview, more) = preview(&content, 2_000);
        assert!(more);
        assert_eq!(utf16_units(preview), 2_000);
        let (short, more) = preview_of_short();
        assert!(!more);
        assert_eq!(short, "short\n");
    }

    fn preview_of_short() -> (&'static str, bool) {
        preview("short\n", 2_000)
    }

    #[test]
    fn the_replacement_has_the_original_frame() {
        let persisted = persist_output("id", "small", 2_000);
        assert!(persisted.replacement.starts_with("<persisted-output>\n"));
        assert!(persisted
            .replacement
            .ends_with(":\nsmall\n</persisted-output>"));
        let lines: Vec<&str> = persisted.replacement.split('\n').collect();
        assert_eq!(lines[2], "");
        assert!(lines[1].contains("/tool-results/id.txt") && lines[1].contains("5 bytes"));
        assert!(lines[3].contains("2KB"));
    }
}
