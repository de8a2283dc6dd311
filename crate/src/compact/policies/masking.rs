//! `swe.observation_mask`: all but the last N observations become a one-line placeholder
//! (spec/strategies.md §9, SWE-agent's `LastNObservations`).
//!
//! An observation is one tool result. Only observations are masked: prompts, reasoning and
//! calls stay, and a masked result keeps its `tool_use_id`. The placeholder says how many lines
//! the output had, byte-exact to the reference: `Old environment output: (N lines omitted)`,
//! where N counts lines as Python's `str.splitlines` does.
//!
//! Two adaptations, each a knob:
//! * SWE-agent never masks its first observation because that is the task (the instance
//!   template). Here the task is a prompt, which is never masked, so
//!   [`MaskingParams::keep_first_observation`] is off and exactly `n` observations are kept;
//!   turn it on for hosts that deliver the task as a tool result.
//! * The reference's tags (`keep_output`, `remove_output`) are set per tool by
//!   `TagToolCallObservations` (§9.3); here they are lists of tool names. When both apply,
//!   keep wins (§9.2).
//!
//! An observation no larger than its placeholder, or already a placeholder, is left as it is
//! (our guard: masking never costs tokens, and masking twice changes nothing).

use alloc::string::String;
use alloc::vec::Vec;

use super::{decision, not_applied, outcome, result_subject, thousands, tool_names, PolicyOutcome};
use crate::tokens::{estimate_tokens, TokenMethod};
use crate::transcript::{Message, Record};
use crate::vocabulary::{PolicyId, Verdict};

/// The policy's id.
pub const POLICY_ID: &str = PolicyId::ObservationMask.as_str();

/// §9.1 / §9.5: observations kept verbatim, as in "The Complexity Trap" (n = 10).
pub const KEEP_LAST_OBSERVATIONS: usize = 10;

/// §9.1: `n` of the classic SWE-agent 0.7 configuration.
pub const CLASSIC_KEEP_LAST_OBSERVATIONS: usize = 5;

/// §9.1: the cut moves every `polling` observations.
pub const POLLING: usize = 1;

/// §9.1: the placeholder's text before the line count, byte-exact.
pub const PLACEHOLDER_PREFIX: &str = "Old environment output: (";

/// §9.1: the placeholder's text after the line count, byte-exact.
pub const PLACEHOLDER_SUFFIX: &str = " lines omitted)";

/// The knobs of `swe.observation_mask`; `Default` gives the Complexity Trap's values (§9.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaskingParams {
    /// Observations kept verbatim, counted from the newest (reference: 10; classic: 5).
    pub n: usize,
    /// The cut moves only every `polling` observations, so between `n` and `n + polling − 1`
    /// are kept and the prefix stays stable in between (reference: 1; 0 is read as 1).
    pub polling: usize,
    /// Never mask the first observation (SWE-agent's instance template, §9.2); off because
    /// here the task is a prompt.
    pub keep_first_observation: bool,
    /// Tools whose outputs are never masked (the `keep_output` tag).
    pub always_keep_tools: Vec<String>,
    /// Tools whose outputs are always masked (the `remove_output` tag).
    pub always_remove_tools: Vec<String>,
}

impl Default for MaskingParams {
    fn default() -> Self {
        MaskingParams {
            n: KEEP_LAST_OBSERVATIONS,
            polling: POLLING,
            keep_first_observation: false,
            always_keep_tools: Vec::new(),
            always_remove_tools: Vec::new(),
        }
    }
}

/// The placeholder for an output of `lines` lines.
///
/// # Example
/// ```
/// use context_assembly::compact::policies::masking::placeholder;
/// assert_eq!(placeholder(1), "Old environment output: (1 lines omitted)");
/// ```
pub fn placeholder(lines: usize) -> String {
    alloc::format!("{PLACEHOLDER_PREFIX}{lines}{PLACEHOLDER_SUFFIX}")
}

/// Lines as Python's `str.splitlines` counts them: a final line break opens no new line, and
/// `\r\n`, `\r`, `\v`, `\f`, `\x1c`–`\x1e`, NEL and the Unicode separators all break lines.
///
/// # Example
/// ```
/// use context_assembly::compact::policies::masking::line_count;
/// assert_eq!(line_count(""), 0);
/// assert_eq!(line_count("a\n"), 1);
/// assert_eq!(line_count("a\r\nb\rc"), 3);
/// ```
pub fn line_count(text: &str) -> usize {
    let mut lines = 0;
    let mut open = false;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        let breaks = matches!(
            c,
            '\n' | '\r'
                | '\x0b'
                | '\x0c'
                | '\x1c'
                | '\x1d'
                | '\x1e'
                | '\u{85}'
                | '\u{2028}'
                | '\u{2029}'
        );
        if breaks {
            if c == '\r' && chars.peek() == Some(&'\n') {
                chars.next();
            }
            lines += 1;
            open = false;
        } else {
            open = true;
        }
    }
    lines + usize::from(open)
}

fn is_placeholder(text: &str) -> bool {
    text.strip_prefix(PLACEHOLDER_PREFIX)
        .and_then(|rest| rest.strip_suffix(PLACEHOLDER_SUFFIX))
        .is_some_and(|n| !n.is_empty() && n.bytes().all(|b| b.is_ascii_digit()))
}

/// Masks all but the last `n` observations (§9.2).
///
/// # Example
/// ```
/// use context_assembly::compact::policies::masking::{apply, MaskingParams};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{Message, Record, ToolResultBlock};
/// let result = |id: &str| ToolResultBlock {
///     tool_use_id: id.into(),
///     content: "one line of a long directory listing, with sizes and dates\n".repeat(2),
///     is_error: false,
/// };
/// let records = vec![Message {
///     id: 0,
///     record: Record::ToolResults { results: vec![result("a"), result("b")] },
/// }];
/// let params = MaskingParams { n: 1, ..MaskingParams::default() };
/// let outcome = apply(&records, &params, TokenMethod::Calibrated);
/// let Record::ToolResults { results } = &outcome.records[0].record else { unreachable!() };
/// assert_eq!(results[0].content, "Old environment output: (2 lines omitted)");
/// assert_eq!(results[0].tool_use_id, "a");
/// assert_eq!(results[1], result("b"));
/// ```
pub fn apply(records: &[Message], params: &MaskingParams, method: TokenMethod) -> PolicyOutcome {
    let total = records
        .iter()
        .map(|m| match &m.record {
            Record::ToolResults { results } => results.len(),
            _ => 0,
        })
        .sum::<usize>();
    let polling = params.polling.max(1);
    let cut = (total / polling * polling).saturating_sub(params.n);
    let names = tool_names(records);
    let mut after = records.to_vec();
    let mut decisions = Vec::new();
    let mut position = 0usize;
    for message in &mut after {
        let Record::ToolResults { results } = &mut message.record else {
            continue;
        };
        for result in results {
            let index = position;
            position += 1;
            let tool = names.get(result.tool_use_id.as_str()).copied();
            let listed = |list: &[String]| tool.is_some_and(|t| list.iter().any(|l| l == t));
            let reason = if (index == 0 && params.keep_first_observation)
                || listed(&params.always_keep_tools)
            {
                continue;
            } else if listed(&params.always_remove_tools) {
                String::from("its tool's outputs are always masked")
            } else if index < cut {
                alloc::format!("older than the last {} observations", params.n)
            } else {
                continue;
            };
            if is_placeholder(&result.content) {
                continue;
            }
            let lines = line_count(&result.content);
            let text = placeholder(lines);
            let before = estimate_tokens(&result.content, method, None);
            let subject = result_subject(&result.tool_use_id, tool);
            if estimate_tokens(&text, method, None) > before {
                decisions.push(decision(
                    &subject,
                    Verdict::NotApplied,
                    String::from("shorter than its placeholder"),
                    None,
                ));
                continue;
            }
            result.content = text;
            decisions.push(decision(
                &subject,
                Verdict::Masked,
                reason,
                Some(alloc::format!(
                    "{lines} lines, {} tokens",
                    thousands(before)
                )),
            ));
        }
    }
    if decisions.is_empty() {
        let reason = if total == 0 {
            String::from("no observations")
        } else {
            alloc::format!(
                "{total} observations; the last {} are kept and none is tagged for removal",
                params.n
            )
        };
        return not_applied(records, POLICY_ID, reason, method);
    }
    outcome(records, after, decisions, method)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lines_follow_python_splitlines() {
        assert_eq!(line_count("a"), 1);
        assert_eq!(line_count("\n"), 1);
        assert_eq!(line_count("\n\n"), 2);
        assert_eq!(line_count("a\r\n"), 1);
        assert_eq!(line_count("a\u{2028}b"), 2);
        assert_eq!(line_count("a\x0cb\x1e"), 2);
    }

    #[test]
    fn placeholders_are_recognised() {
        assert!(is_placeholder(&placeholder(12)));
        assert!(!is_placeholder("Old environment output: ( lines omitted)"));
        assert!(!is_placeholder("Old environment output: (x lines omitted)"));
    }
}
