//! Time-based microcompact: after a long pause, old tool results are cleared (spec
//! claude-code.md §9.6).
//!
//! When the last assistant record is at least `gap_threshold_minutes` old, the prompt cache
//! has expired anyway, so rewriting old messages costs no cache reuse. The tool calls of the
//! [`COMPACTABLE_TOOLS`] are collected in order of appearance; the results of all but the
//! last `keep_recent` of them get [`TIME_BASED_MC_CLEARED_MESSAGE`] as their content. Only
//! a result's content changes: every record, every tool call and every result's id stay, so
//! calls and results remain paired.
//!
//! The caller decides whether this pass applies (the original runs it on the main thread
//! only) and passes the time of the last assistant record explicitly, so that the function
//! needs no timestamps in the transcript.

use alloc::collections::{BTreeMap, BTreeSet};
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use crate::tokens::{estimate_tokens, TokenMethod};
use crate::transcript::{AssistantBlock, Message, Record};
use crate::vocabulary::{Decision, Verdict};

/// `COMPACTABLE_TOOLS`: the tools whose old results may be cleared.
pub const COMPACTABLE_TOOLS: [&str; 9] = [
    "Read",
    "Bash",
    "PowerShell",
    "Grep",
    "Glob",
    "WebSearch",
    "WebFetch",
    "Edit",
    "Write",
];

/// `TIME_BASED_MC_CLEARED_MESSAGE` (equal to `TOOL_RESULT_CLEARED_MESSAGE`): a cleared
/// result's content, byte-exact.
pub const TIME_BASED_MC_CLEARED_MESSAGE: &str = "[Old tool result content cleared]";

/// The subject of the pass's own decisions.
const SUBJECT: &str = "time-based microcompact";

const MS_PER_MINUTE: u64 = 60_000;

/// When time-based microcompact runs (GrowthBook `tengu_slate_heron`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize, serde::Deserialize))]
#[cfg_attr(feature = "serde", serde(rename_all = "camelCase"))]
pub struct MicrocompactRules {
    /// The pass runs at all (off in the original's default configuration, so external
    /// builds never microcompact).
    pub enabled: bool,
    /// Minutes since the last assistant record before old results are cleared.
    pub gap_threshold_minutes: u64,
    /// Compactable results kept as they are, newest first; at least one is always kept.
    pub keep_recent: u64,
}

impl MicrocompactRules {
    /// Claude Code's default configuration: switched off, 60 minutes, keep 5.
    pub const fn claude_code() -> MicrocompactRules {
        MicrocompactRules {
            enabled: false,
            gap_threshold_minutes: 60,
            keep_recent: 5,
        }
    }

    /// On: after an hour's pause the cache is cold, so clearing old results costs nothing
    /// in cache reuse and frees their tokens.
    pub const fn recommended() -> MicrocompactRules {
        MicrocompactRules {
            enabled: true,
            ..MicrocompactRules::claude_code()
        }
    }
}

/// The outcome of one pass.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Microcompaction {
    /// The records after the pass; a copy of the input when nothing was cleared.
    pub messages: Vec<Message>,
    /// Results whose content was replaced.
    pub cleared: usize,
    /// The estimated tokens of the contents cleared (the placeholders' own tokens are not
    /// subtracted).
    pub tokens_freed: u64,
    /// Why the pass did or did not fire, and one decision per result of a compactable call
    /// when it fired.
    pub decisions: Vec<Decision>,
}

/// Time-based microcompact over `messages` at `now_ms`, the last assistant record having
/// been written at `last_assistant_ms` (`None`: there is none yet, and nothing happens).
/// Token counts use `method`. As in the original, nothing changes when nothing would be
/// cleared or the estimated saving is zero.
///
/// # Example
/// ```
/// use context_assembly::compact::microcompact::{
///     time_based_microcompact, MicrocompactRules, TIME_BASED_MC_CLEARED_MESSAGE,
/// };
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{AssistantBlock, Record, ToolResultBlock, ToolUse, Transcript};
/// let mut transcript = Transcript::default();
/// for id in ["a", "b"] {
///     let response = transcript.next_response();
///     let call = ToolUse { id: id.into(), name: "Bash".into(), input: "{}".into() };
///     transcript.push(Record::Assistant { response, block: AssistantBlock::ToolUse(call) });
///     let content = "many lines of output".into();
///     let result = ToolResultBlock { tool_use_id: id.into(), content, is_error: false };
///     transcript.push(Record::ToolResults { results: vec![result] });
/// }
/// // keep_recent 0 still keeps one result: the newest.
/// let rules = MicrocompactRules { keep_recent: 0, ..MicrocompactRules::recommended() };
/// let hour = 60 * 60_000;
/// let out = time_based_microcompact(transcript.messages(), hour, Some(0), &rules, TokenMethod::ClaudeCode);
/// assert_eq!(out.cleared, 1);
/// let Record::ToolResults { results } = &out.messages[1].record else { unreachable!() };
/// assert_eq!(results[0].content, TIME_BASED_MC_CLEARED_MESSAGE);
/// // One millisecond short of the gap, nothing happens.
/// let out = time_based_microcompact(transcript.messages(), hour - 1, Some(0), &rules, TokenMethod::ClaudeCode);
/// assert_eq!(out.cleared, 0);
/// ```
pub fn time_based_microcompact(
    messages: &[Message],
    now_ms: u64,
    last_assistant_ms: Option<u64>,
    rules: &MicrocompactRules,
    method: TokenMethod,
) -> Microcompaction {
    if let Some(reason) = not_due(now_ms, last_assistant_ms, rules) {
        return unchanged(messages, Verdict::Skipped, reason);
    }
    let calls = compactable_calls(messages);
    let keep = kept_ids(&calls, rules.keep_recent);
    let mut out = Microcompaction {
        messages: messages.to_vec(),
        cleared: 0,
        tokens_freed: 0,
        decisions: Vec::new(),
    };
    for message in &mut out.messages {
        let Record::ToolResults { results } = &mut message.record else {
            continue;
        };
        for result in results {
            let Some(name) = calls.get(result.tool_use_id.as_str()).map(|call| call.1) else {
                continue;
            };
            let subject = result.tool_use_id.clone();
            let (verdict, reason) = if keep.contains(result.tool_use_id.as_str()) {
                (Verdict::Included, kept_reason(rules.keep_recent))
            } else if result.content == TIME_BASED_MC_CLEARED_MESSAGE {
                (Verdict::Unchanged, String::from("cleared already"))
            } else {
                let tokens = estimate_tokens(&result.content, method, None);
                out.tokens_freed = out.tokens_freed.saturating_add(tokens);
                out.cleared += 1;
                result.content = String::from(TIME_BASED_MC_CLEARED_MESSAGE);
                (
                    Verdict::Truncated,
                    format!("older than the {} most recent compactable results; ~{tokens} tokens cleared", keep_count(rules.keep_recent)),
                )
            };
            out.decisions.push(Decision {
                subject,
                verdict,
                reason,
                detail: Some(String::from(name)),
            });
        }
    }
    if out.cleared == 0 || out.tokens_freed == 0 {
        return unchanged(
            messages,
            Verdict::Unchanged,
            String::from(
                "nothing to clear: every old compactable result is empty or cleared already",
            ),
        );
    }
    out
}

/// Why the pass does not fire, if it does not.
fn not_due(
    now_ms: u64,
    last_assistant_ms: Option<u64>,
    rules: &MicrocompactRules,
) -> Option<String> {
    if !rules.enabled {
        return Some(String::from("switched off"));
    }
    let Some(last) = last_assistant_ms else {
        return Some(String::from("no assistant message yet"));
    };
    let gap_ms = rules.gap_threshold_minutes.saturating_mul(MS_PER_MINUTE);
    match now_ms.checked_sub(last) {
        Some(gap) if gap >= gap_ms => None,
        Some(gap) => Some(format!(
            "{} min since the last assistant message, below the {}-minute gap",
            gap / MS_PER_MINUTE,
            rules.gap_threshold_minutes
        )),
        None => Some(String::from("the last assistant message is later than now")),
    }
}

fn unchanged(messages: &[Message], verdict: Verdict, reason: String) -> Microcompaction {
    Microcompaction {
        messages: messages.to_vec(),
        cleared: 0,
        tokens_freed: 0,
        decisions: alloc::vec![Decision::new(String::from(SUBJECT), verdict, reason)],
    }
}

/// The calls of compactable tools: id → (order of appearance, tool name).
fn compactable_calls(messages: &[Message]) -> BTreeMap<&str, (usize, &str)> {
    let mut calls = BTreeMap::new();
    let uses = messages.iter().filter_map(|message| match &message.record {
        Record::Assistant {
            block: AssistantBlock::ToolUse(call),
            ..
        } => Some(call),
        _ => None,
    });
    for call in uses.filter(|call| COMPACTABLE_TOOLS.contains(&call.name.as_str())) {
        let order = calls.len();
        calls
            .entry(call.id.as_str())
            .or_insert((order, call.name.as_str()));
    }
    calls
}

/// The ids of the last `keep_recent` compactable calls (at least one).
fn kept_ids<'a>(calls: &BTreeMap<&'a str, (usize, &str)>, keep_recent: u64) -> BTreeSet<&'a str> {
    let keep = usize::try_from(keep_count(keep_recent)).unwrap_or(usize::MAX);
    let first_kept = calls.len().saturating_sub(keep);
    calls
        .iter()
        .filter(|(_, (order, _))| *order >= first_kept)
        .map(|(id, _)| *id)
        .collect()
}

/// `max(1, keepRecent)`.
fn keep_count(keep_recent: u64) -> u64 {
    keep_recent.max(1)
}

fn kept_reason(keep_recent: u64) -> String {
    format!(
        "one of the {} most recent compactable results",
        keep_count(keep_recent)
    )
}
