//! `opencode.prune`: erase old tool outputs, keeping the newest 40K tokens of them
//! (spec/strategies.md §6).
//!
//! Walking from the newest record back, outside the last two user turns, tool outputs are
//! summed; every output that takes the sum past [`PROTECT_RECENT_TOKENS`] is marked, and the
//! marks are applied only if they free more than [`PRUNE_MINIMUM_TOKENS`]. A marked output is
//! replaced by [`PLACEHOLDER`]; the call, its input and the result's id stay. The walk stops at
//! a compaction's summary (what came before it is no longer sent, §6.3) and at an output already
//! replaced, as the reference stops at one already compacted, so applying the policy to its own
//! outcome changes nothing. An output no larger than the placeholder is
//! left as it is (our guard, so that pruning never costs tokens).
//!
//! The reference estimates with `round(UTF-16 length / 4)` (§6.6): pass
//! [`TokenMethod::ClaudeCode`] to reproduce its sizes exactly.

use alloc::string::String;
use alloc::vec::Vec;

use super::{decision, not_applied, outcome, result_subject, thousands, tool_names, PolicyOutcome};
use crate::tokens::{estimate_tokens, TokenMethod};
use crate::transcript::{Message, Record};
use crate::vocabulary::{PolicyId, Verdict};

/// The policy's id.
pub const POLICY_ID: &str = PolicyId::Prune.as_str();

/// §6.2 `PRUNE_MINIMUM`: prune only if more than this many tokens would be freed.
pub const PRUNE_MINIMUM_TOKENS: u64 = 20_000;

/// §6.2 `PRUNE_PROTECT`: the most recent tool-output tokens are never pruned.
pub const PROTECT_RECENT_TOKENS: u64 = 40_000;

/// §6.2: outputs inside the last two user turns are never pruned.
pub const PROTECT_RECENT_USER_TURNS: usize = 2;

/// §6.2 `PRUNE_PROTECTED_TOOLS`: outputs of these tools are never pruned.
pub const PROTECTED_TOOLS: [&str; 1] = ["skill"];

/// §6.4: what a pruned output is replaced by, byte-exact.
pub const PLACEHOLDER: &str = "[Old tool result content cleared]";

/// The knobs of `opencode.prune`; `Default` gives the reference's values (§6.2).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PruneParams {
    /// Act only if the marked outputs sum to more than this (reference: 20,000).
    pub minimum_tokens: u64,
    /// The newest tool-output tokens that are never pruned (reference: 40,000).
    pub protect_recent_tokens: u64,
    /// User turns, counted back from the newest, whose outputs are never pruned (reference: 2).
    pub protect_recent_user_turns: usize,
    /// Tools whose outputs are never pruned, by exact name (reference: `skill`).
    pub protected_tools: Vec<String>,
}

impl Default for PruneParams {
    fn default() -> Self {
        PruneParams {
            minimum_tokens: PRUNE_MINIMUM_TOKENS,
            protect_recent_tokens: PROTECT_RECENT_TOKENS,
            protect_recent_user_turns: PROTECT_RECENT_USER_TURNS,
            protected_tools: PROTECTED_TOOLS.iter().map(|t| String::from(*t)).collect(),
        }
    }
}

impl PruneParams {
    /// The reference's values, its protections scaled to `effective_window`: OpenCode's 40K
    /// protected and 20K minimum assume a 200K window and never act in a small one, so this
    /// protects a quarter of the window and acts from a tenth of it, up to the reference's
    /// values (`recommended`'s cheap stage).
    pub fn scaled_to(effective_window: u64) -> PruneParams {
        let base = PruneParams::default();
        PruneParams {
            protect_recent_tokens: base.protect_recent_tokens.min(effective_window / 4),
            minimum_tokens: base.minimum_tokens.min(effective_window / 10),
            ..base
        }
    }
}

/// An output marked for pruning: record index, result index, its tokens.
struct Mark {
    record: usize,
    result: usize,
    tokens: u64,
}

/// Prunes old tool outputs (§6.3).
///
/// # Example
/// ```
/// use context_assembly::compact::policies::prune::{apply, PruneParams};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{Message, Record};
/// // A single turn is always protected, however large its outputs.
/// let records = vec![Message { id: 0, record: Record::Prompt { text: "go".into() } }];
/// let outcome = apply(&records, &PruneParams::default(), TokenMethod::ClaudeCode);
/// assert_eq!(outcome.records, records);
/// assert!(outcome.decisions[0].reason.contains("needs more than 20,000"));
/// ```
pub fn apply(records: &[Message], params: &PruneParams, method: TokenMethod) -> PolicyOutcome {
    if records.is_empty() {
        return not_applied(records, POLICY_ID, "the transcript is empty".into(), method);
    }
    let marks = mark(records, params, method);
    let freed: u64 = marks.iter().map(|m| m.tokens).sum();
    if freed <= params.minimum_tokens {
        let reason = alloc::format!(
            "would free only {} tokens; needs more than {}",
            thousands(freed),
            thousands(params.minimum_tokens)
        );
        return not_applied(records, POLICY_ID, reason, method);
    }
    let names = tool_names(records);
    let mut after = records.to_vec();
    let mut decisions = Vec::with_capacity(marks.len());
    // Marks were found newest first; report them oldest first, like every other policy.
    for m in marks.iter().rev() {
        let Some(Message {
            record: Record::ToolResults { results },
            ..
        }) = after.get_mut(m.record)
        else {
            continue;
        };
        let Some(result) = results.get_mut(m.result) else {
            continue;
        };
        result.content = PLACEHOLDER.into();
        let tool = names.get(result.tool_use_id.as_str()).copied();
        decisions.push(decision(
            &result_subject(&result.tool_use_id, tool),
            Verdict::Cleared,
            alloc::format!(
                "older than the newest {} tokens of tool output",
                thousands(params.protect_recent_tokens)
            ),
            Some(alloc::format!("{} tokens freed", thousands(m.tokens))),
        ));
    }
    outcome(records, after, decisions, method)
}

/// The reference's walk: newest to oldest, skipping the protected turns, stopping at a
/// summary or at an output already pruned.
fn mark(records: &[Message], params: &PruneParams, method: TokenMethod) -> Vec<Mark> {
    let names = tool_names(records);
    let mut turns = 0usize;
    let mut total = 0u64;
    let mut marks = Vec::new();
    let placeholder_tokens = estimate_tokens(PLACEHOLDER, method, None);
    for (index, message) in records.iter().enumerate().rev() {
        let results = match &message.record {
            Record::Prompt { .. } => {
                turns = turns.saturating_add(1);
                continue;
            }
            // A summary stands for the reference's summary reply and the compaction request
            // before it: the walk stops at the reply once past the protected turns (what it
            // replaced is no longer sent), and the request counts as a user turn.
            Record::Summary { .. } if turns >= params.protect_recent_user_turns => return marks,
            Record::Summary { .. } => {
                turns = turns.saturating_add(1);
                continue;
            }
            Record::ToolResults { results } => results,
            _ => continue,
        };
        if turns < params.protect_recent_user_turns {
            continue;
        }
        for (position, result) in results.iter().enumerate().rev() {
            if result.content == PLACEHOLDER {
                return marks;
            }
            // The reference prunes completed outputs only; a failed call's error stays.
            let tool = names.get(result.tool_use_id.as_str()).copied();
            let protected = tool.is_some_and(|t| params.protected_tools.iter().any(|p| p == t));
            if result.is_error || protected {
                continue;
            }
            let tokens = estimate_tokens(&result.content, method, None);
            total = total.saturating_add(tokens);
            // An output no larger than the placeholder would grow if replaced: leave it.
            if total > params.protect_recent_tokens && tokens > placeholder_tokens {
                marks.push(Mark {
                    record: index,
                    result: position,
                    tokens,
                });
            }
        }
    }
    marks
}
