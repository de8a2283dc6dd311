//! `aider.budgets`: Aider's repo-map and chat-history budgets, and its files re-read every
//! turn (spec/strategies.md §12).
//!
//! Aider keeps no file contents in its history: every turn re-reads the chat files from disk
//! and sends them in one block after the history, so an outside edit is seen at once and no
//! watcher is needed (§12.5). Its history is summarised once it exceeds
//! `clamp(max_input / 16, 1,024, 8,192)` tokens ([`max_chat_history_tokens`]): the newest
//! messages that sum to under half the budget stay verbatim, the split moves back until the
//! summarised head ends with an assistant message, and the head becomes one summary; while the
//! result is still over the budget the summariser runs again on it, summarising everything past
//! depth [`SUMMARY_MAX_DEPTH`] (§12.8).
//! The repo map gets `clamp(max_input / 8, 1,024, 4,096)` tokens ([`map_tokens`]), twice that
//! (up to the window less 4,096) with no files in the chat, and a binary search picks how many
//! ranked tags fill it to within 15 % ([`fit_map`]); the ranking's weights are
//! [`edge_multiplier`] and [`PERSONALISATION_TOTAL`].
//!
//! As a policy over a session's records: the history is summarised when over its budget (the
//! preview's summary is the extractive summariser's, Aider's is the weak model's), and the
//! decisions say which files Aider would re-read this turn, whether its large-chat warning
//! fires, and the map's budget. There is no tag graph here, so no map is rendered.

use alloc::string::String;
use alloc::vec::Vec;

use super::{decision, not_applied, outcome, record_tokens, summarised, thousands, PolicyOutcome};
use crate::compact::kept_tail::preserve_api_invariants;
use crate::tokens::TokenMethod;
use crate::transcript::{Message, Record};
use crate::vocabulary::{PolicyId, Verdict};

/// The policy's id.
pub const POLICY_ID: &str = PolicyId::AiderBudgets.as_str();

/// §12.1: the map budget's floor, and the budget when the window is unknown.
pub const MAP_TOKENS_MIN: u64 = 1_024;

/// §12.1: the map budget's ceiling.
pub const MAP_TOKENS_MAX: u64 = 4_096;

/// §12.1: `map_multiplier_no_files` (the CLI's value).
pub const MAP_MULTIPLIER_NO_FILES: u64 = 2;

/// §12.2: with no files in the chat the map stays this far below the window.
pub const MAP_WINDOW_MARGIN: u64 = 4_096;

/// §12.1 `ok_err`: a rendered map within this percentage of the budget is accepted.
pub const MAP_FIT_TOLERANCE_PERCENT: u64 = 15;

/// §12.2: the search's first guess is `budget / 25` tags.
pub const TOKENS_PER_TAG_GUESS: u64 = 25;

/// §12.1: the history budget's floor.
pub const HISTORY_TOKENS_MIN: u64 = 1_024;

/// §12.1: the history budget's ceiling.
pub const HISTORY_TOKENS_MAX: u64 = 8_192;

/// §12.7: the large-chat warning needs at least this many files…
pub const LARGE_CHAT_FILES: usize = 4;

/// §12.7: …and at least this many tokens in them.
pub const LARGE_CHAT_TOKENS: u64 = 20 * 1_024;

/// §12.8: up to this many messages are summarised whole.
pub const SUMMARISE_WHOLE_MAX_MESSAGES: usize = 4;

/// §12.8: the summariser recurses at most this deep.
pub const SUMMARY_MAX_DEPTH: usize = 3;

/// §12.3: the personalisation shared out among the files it favours (`100 / n_files` each).
pub const PERSONALISATION_TOTAL: u64 = 100;

/// §12.3: identifier mentioned in the chat.
pub const MENTIONED_MULTIPLIER: f64 = 10.0;

/// §12.3: snake, kebab or camel identifier of at least [`LONG_IDENTIFIER_CHARS`] characters.
pub const LONG_IDENTIFIER_MULTIPLIER: f64 = 10.0;

/// §12.3: what counts as a long identifier.
pub const LONG_IDENTIFIER_CHARS: usize = 8;

/// §12.3: `_private` identifier.
pub const PRIVATE_MULTIPLIER: f64 = 0.1;

/// §12.3: identifier defined in more than [`WIDELY_DEFINED_FILES`] files.
pub const WIDELY_DEFINED_MULTIPLIER: f64 = 0.1;

/// §12.3: the file count past which an identifier is widely defined.
pub const WIDELY_DEFINED_FILES: usize = 5;

/// §12.3: the referencing file is in the chat.
pub const IN_CHAT_REFERENCER_MULTIPLIER: f64 = 50.0;

/// §12.1 `get_repo_map_tokens`: `clamp(max_input / 8, 1,024, 4,096)`; 1,024 without a window.
///
/// ```
/// use context_assembly::compact::policies::aider_budgets::map_tokens;
/// assert_eq!(map_tokens(Some(200_000)), 4_096);
/// assert_eq!(map_tokens(Some(16_384)), 2_048);
/// assert_eq!(map_tokens(None), 1_024);
/// ```
pub fn map_tokens(max_input: Option<u64>) -> u64 {
    max_input.map_or(MAP_TOKENS_MIN, |w| {
        (w / 8).clamp(MAP_TOKENS_MIN, MAP_TOKENS_MAX)
    })
}

/// §12.2: the map's budget; with no files in the chat, `min(map_tokens × 2, window − 4,096)`.
///
/// ```
/// use context_assembly::compact::policies::aider_budgets::map_budget;
/// assert_eq!(map_budget(4_096, 0, 200_000), 8_192);
/// assert_eq!(map_budget(4_096, 3, 200_000), 4_096);
/// assert_eq!(map_budget(1_024, 0, 6_000), 1_904);
/// ```
pub fn map_budget(map_tokens: u64, files_in_chat: usize, max_context: u64) -> u64 {
    match files_in_chat {
        0 => (map_tokens * MAP_MULTIPLIER_NO_FILES)
            .min(max_context.saturating_sub(MAP_WINDOW_MARGIN)),
        _ => map_tokens,
    }
}

/// §12.1 `max_chat_history_tokens`: `clamp(max_input / 16, 1,024, 8,192)`; 1,024 without a
/// window.
///
/// ```
/// use context_assembly::compact::policies::aider_budgets::max_chat_history_tokens;
/// assert_eq!(max_chat_history_tokens(Some(200_000)), 8_192);
/// assert_eq!(max_chat_history_tokens(Some(32_768)), 2_048);
/// assert_eq!(max_chat_history_tokens(Some(8_192)), 1_024);
/// ```
pub fn max_chat_history_tokens(max_input: Option<u64>) -> u64 {
    max_input.map_or(HISTORY_TOKENS_MIN, |w| {
        (w / 16).clamp(HISTORY_TOKENS_MIN, HISTORY_TOKENS_MAX)
    })
}

/// §12.7: at least 4 files and at least 20 × 1,024 tokens in them.
pub fn large_chat_warning(files: usize, tokens: u64) -> bool {
    files >= LARGE_CHAT_FILES && tokens >= LARGE_CHAT_TOKENS
}

/// §12.2's binary search: how many of `num_tags` ranked tags to render so that the map's
/// tokens (`tokens_of(n)` for the top `n`) are at most `budget`, or within 15 % of it. Returns
/// the count and its tokens; `None` when no count was acceptable.
///
/// ```
/// use context_assembly::compact::policies::aider_budgets::fit_map;
/// // 30 tokens per tag and a budget of 1,000: the first guess (40 tags, 1,200 tokens) is
/// // over, 19 tags are under by too much, 29 tags (870 tokens) are within 15 %.
/// assert_eq!(fit_map(100, 1_000, |n| n as u64 * 30), Some((29, 870)));
/// ```
pub fn fit_map(
    num_tags: usize,
    budget: u64,
    tokens_of: impl Fn(usize) -> u64,
) -> Option<(usize, u64)> {
    if budget == 0 {
        return None;
    }
    let within = |t: u64| t.abs_diff(budget) * 100 < budget * MAP_FIT_TOLERANCE_PERCENT;
    let (mut lo, mut hi) = (0usize, num_tags);
    let mut mid = ((budget / TOKENS_PER_TAG_GUESS) as usize).min(num_tags);
    let mut best: Option<(usize, u64)> = None;
    while lo <= hi {
        let t = tokens_of(mid);
        let better = t <= budget && best.is_none_or(|(_, b)| t > b);
        if better || within(t) {
            best = Some((mid, t));
        }
        if within(t) {
            break;
        }
        if t < budget {
            lo = mid + 1;
        } else if mid == 0 {
            break;
        } else {
            hi = mid - 1;
        }
        mid = (lo + hi) / 2;
    }
    best
}

/// What the ranking knows about one identifier on one edge (§12.3).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct EdgeFacts<'a> {
    /// The identifier.
    pub ident: &'a str,
    /// It is mentioned in the chat.
    pub mentioned: bool,
    /// How many files define it.
    pub defining_files: usize,
    /// The referencing file is in the chat.
    pub referencer_in_chat: bool,
}

/// §12.3: the product of the multipliers that apply to an edge.
///
/// ```
/// use context_assembly::compact::policies::aider_budgets::{edge_multiplier, EdgeFacts};
/// let facts = EdgeFacts { ident: "parse_config", mentioned: true, ..EdgeFacts::default() };
/// assert_eq!(edge_multiplier(&facts), 100.0);
/// ```
pub fn edge_multiplier(facts: &EdgeFacts<'_>) -> f64 {
    let ident = facts.ident;
    let has_alpha = ident.chars().any(char::is_alphabetic);
    let snake = ident.contains('_') && has_alpha;
    let kebab = ident.contains('-') && has_alpha;
    let camel = ident.chars().any(char::is_uppercase) && ident.chars().any(char::is_lowercase);
    let mut multiplier = 1.0;
    if facts.mentioned {
        multiplier *= MENTIONED_MULTIPLIER;
    }
    if (snake || kebab || camel) && ident.chars().count() >= LONG_IDENTIFIER_CHARS {
        multiplier *= LONG_IDENTIFIER_MULTIPLIER;
    }
    if ident.starts_with('_') {
        multiplier *= PRIVATE_MULTIPLIER;
    }
    if facts.defining_files > WIDELY_DEFINED_FILES {
        multiplier *= WIDELY_DEFINED_MULTIPLIER;
    }
    if facts.referencer_in_chat {
        multiplier *= IN_CHAT_REFERENCER_MULTIPLIER;
    }
    multiplier
}

/// §12.8: where the verbatim tail of the history starts. `user[i]` says whether message `i` is
/// on the user side; `tokens[i]` is its size. The newest messages that sum to under half of
/// `max_tokens` stay; the split moves back until the head ends with an assistant message.
/// Up to four messages are summarised whole (the split is their count).
///
/// ```
/// use context_assembly::compact::policies::aider_budgets::history_split;
/// // user, assistant, user, assistant, user, assistant of 100 tokens each, budget 500:
/// // the tail may hold under 250, so two messages; the head ends with an assistant.
/// let user = [true, false, true, false, true, false];
/// assert_eq!(history_split(&user, &[100; 6], 500), 4);
/// ```
pub fn history_split(user: &[bool], tokens: &[u64], max_tokens: u64) -> usize {
    let len = user.len().min(tokens.len());
    if len <= SUMMARISE_WHOLE_MAX_MESSAGES {
        return len;
    }
    let half = max_tokens / 2;
    let mut tail = 0u64;
    let mut split = len;
    for index in (0..len).rev() {
        if tail + tokens[index] >= half {
            break;
        }
        tail += tokens[index];
        split = index;
    }
    while split > 1 && user[split - 1] {
        split -= 1;
    }
    split
}

/// A chat file Aider would re-read this turn.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ChatFile {
    /// The path.
    pub path: String,
    /// Its tokens as it is now.
    pub tokens: u64,
}

/// The knobs of `aider.budgets`; `Default` gives the reference's values for a 200K window.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AiderBudgetsParams {
    /// The model's input window (the session's); derives both budgets.
    pub max_input_tokens: u64,
    /// `--max-chat-history-tokens`; `None` derives it ([`max_chat_history_tokens`]).
    pub max_chat_history_tokens: Option<u64>,
    /// `--map-tokens`; `None` derives it ([`map_tokens`]); 0 disables the map.
    pub map_tokens: Option<u64>,
}

impl Default for AiderBudgetsParams {
    fn default() -> Self {
        AiderBudgetsParams {
            max_input_tokens: 200_000,
            max_chat_history_tokens: None,
            map_tokens: None,
        }
    }
}

/// The budgets over a session's records and chat files.
///
/// ```
/// use context_assembly::compact::policies::aider_budgets::{apply, AiderBudgetsParams};
/// use context_assembly::tokens::TokenMethod;
/// let outcome = apply(&[], &[], &AiderBudgetsParams::default(), TokenMethod::Calibrated);
/// assert!(outcome.decisions[0].reason.contains("8,192"));
/// ```
pub fn apply(
    records: &[Message],
    files: &[ChatFile],
    params: &AiderBudgetsParams,
    method: TokenMethod,
) -> PolicyOutcome {
    let budget = params
        .max_chat_history_tokens
        .unwrap_or_else(|| max_chat_history_tokens(Some(params.max_input_tokens)));
    let history: u64 = records.iter().map(|m| record_tokens(m, method)).sum();
    let mut decisions = file_decisions(files, params);
    if history <= budget {
        let reason = alloc::format!(
            "the history is {} tokens, within its budget of {}: not summarised",
            thousands(history),
            thousands(budget)
        );
        let mut out = not_applied(records, POLICY_ID, reason, method);
        out.decisions.extend(decisions);
        return out;
    }
    let (after, passes) = summarise_recursively(records, budget, method);
    decisions.splice(0..0, passes);
    outcome(records, after, decisions, method)
}

/// §12.8's `summarize(messages, depth)`: a pass summarises the head and keeps the newest
/// messages under half the budget; while the result is still at or over the budget it runs
/// again on the result, and past [`SUMMARY_MAX_DEPTH`] (or at four messages or fewer) it
/// summarises everything. One decision per pass.
fn summarise_recursively(
    records: &[Message],
    budget: u64,
    method: TokenMethod,
) -> (Vec<Message>, Vec<crate::vocabulary::Decision>) {
    let mut current = records.to_vec();
    let mut passes = Vec::new();
    for depth in 0.. {
        let tokens: Vec<u64> = current.iter().map(|m| record_tokens(m, method)).collect();
        let before: u64 = tokens.iter().sum();
        let whole = depth > SUMMARY_MAX_DEPTH || current.len() <= SUMMARISE_WHOLE_MAX_MESSAGES;
        let split = if whole {
            current.len()
        } else {
            let user: Vec<bool> = current
                .iter()
                .map(|m| !matches!(m.record, Record::Assistant { .. }))
                .collect();
            // A kept result keeps its call, and a kept block its whole response.
            preserve_api_invariants(&current, history_split(&user, &tokens, budget))
        };
        let next = summarised(&current, split);
        let after: u64 = next.iter().map(|m| record_tokens(m, method)).sum();
        passes.push(pass_decision(
            depth,
            before,
            budget,
            split,
            current.len() - split,
            whole,
        ));
        current = next;
        if whole || after < budget || split == 0 {
            break;
        }
    }
    (current, passes)
}

/// What one pass of the summariser did, and why it ran.
fn pass_decision(
    depth: usize,
    before: u64,
    budget: u64,
    split: usize,
    kept: usize,
    whole: bool,
) -> crate::vocabulary::Decision {
    let why = match depth {
        0 => alloc::format!(
            "{} tokens exceed the budget of {}",
            thousands(before),
            thousands(budget)
        ),
        _ => alloc::format!(
            "the previous pass left {} tokens, still at or over the budget of {}: summarised again at depth {depth}",
            thousands(before),
            thousands(budget)
        ),
    };
    let what = if whole {
        alloc::format!(
            "all {split} records become one summary (four or fewer, or past depth {SUMMARY_MAX_DEPTH})"
        )
    } else {
        alloc::format!(
            "the {split} oldest records become a summary, the newest under half the budget stay"
        )
    };
    decision(
        &match depth {
            0 => String::from("chat history"),
            _ => alloc::format!("chat history (pass {})", depth + 1),
        },
        Verdict::Replaced,
        alloc::format!("{why}: {what} (strategies.md §12.8)"),
        Some(alloc::format!("{kept} records kept verbatim")),
    )
}

/// What Aider does with the chat files and the map this turn.
fn file_decisions(
    files: &[ChatFile],
    params: &AiderBudgetsParams,
) -> Vec<crate::vocabulary::Decision> {
    let mut decisions = Vec::with_capacity(files.len() + 2);
    for file in files {
        decisions.push(decision(
            &file.path,
            Verdict::Included,
            String::from("re-read from disk this turn and sent after the history; never stored in it (strategies.md §12.5)"),
            Some(alloc::format!("{} tokens", thousands(file.tokens))),
        ));
    }
    let file_tokens: u64 = files.iter().map(|f| f.tokens).sum();
    if large_chat_warning(files.len(), file_tokens) {
        decisions.push(decision(
            "large chat",
            Verdict::TooLarge,
            alloc::format!(
                "{} files of {} tokens: Aider warns to add only the files that need changes (strategies.md §12.7)",
                files.len(),
                thousands(file_tokens)
            ),
            None,
        ));
    }
    let map = params
        .map_tokens
        .unwrap_or_else(|| map_tokens(Some(params.max_input_tokens)));
    let budget = map_budget(map, files.len(), params.max_input_tokens);
    decisions.push(decision(
        "repo map",
        if map == 0 { Verdict::Skipped } else { Verdict::Included },
        match map {
            0 => String::from("--map-tokens 0: no repo map"),
            _ => alloc::format!(
                "a budget of {} tokens{}, filled to within 15 % by ranked tags (no tag graph here, so none is rendered)",
                thousands(budget),
                if files.is_empty() { " (doubled: no files in the chat)" } else { "" }
            ),
        },
        None,
    ));
    decisions
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_map_search_accepts_a_fit_within_15_percent_or_the_largest_under() {
        // Exact fit on the first guess: 40 tags of 25 tokens.
        assert_eq!(fit_map(100, 1_000, |n| n as u64 * 25), Some((40, 1_000)));
        // Huge tags: only zero tags fit under the budget.
        assert_eq!(fit_map(10, 1_000, |n| n as u64 * 5_000), Some((0, 0)));
        // Few tags: all of them, far below the budget.
        assert_eq!(fit_map(3, 1_000, |n| n as u64 * 10), Some((3, 30)));
        assert_eq!(fit_map(3, 0, |n| n as u64), None);
    }

    #[test]
    fn the_ranking_multiplies_its_weights() {
        let facts = |ident, defining_files, referencer_in_chat| EdgeFacts {
            ident,
            mentioned: false,
            defining_files,
            referencer_in_chat,
        };
        assert_eq!(edge_multiplier(&facts("run", 1, false)), 1.0);
        assert_eq!(edge_multiplier(&facts("parseConfig", 1, true)), 500.0);
        assert!((edge_multiplier(&facts("_x", 6, false)) - 0.01).abs() < 1e-12);
        assert_eq!(edge_multiplier(&facts("kebab-case-name", 1, false)), 10.0);
    }

    #[test]
    fn the_warning_needs_both_limits() {
        assert!(large_chat_warning(4, 20_480));
        assert!(!large_chat_warning(3, 100_000));
        assert!(!large_chat_warning(9, 20_479));
    }

    fn exchange(records: &mut Vec<Message>, prompt: &str, answer: &str) {
        let id = records.len() as u64;
        records.push(Message {
            id,
            record: Record::Prompt {
                text: prompt.into(),
            },
        });
        records.push(Message {
            id: id + 1,
            record: Record::Assistant {
                response: id,
                block: crate::transcript::AssistantBlock::text(answer),
            },
        });
    }

    #[test]
    fn a_summary_still_over_the_budget_is_summarised_again_up_to_the_depth_limit() {
        // §12.8: the summariser recurses while its result is at or over the budget. Long
        // prompts make the preview's extractive summary (which quotes them) larger than the
        // budget, so one pass cannot be enough.
        let mut records = Vec::new();
        for turn in 0..12 {
            exchange(&mut records, &"word ".repeat(400 + turn), "done");
        }
        let params = AiderBudgetsParams {
            max_chat_history_tokens: Some(1_024),
            ..AiderBudgetsParams::default()
        };
        let outcome = apply(&records, &[], &params, TokenMethod::Calibrated);
        let passes: Vec<_> = outcome
            .decisions
            .iter()
            .filter(|d| d.subject.starts_with("chat history"))
            .collect();
        assert!(passes.len() > 1, "{passes:#?}");
        assert!(passes.len() <= SUMMARY_MAX_DEPTH + 2);
        assert!(passes[1].reason.contains("summarised again at depth 1"));
        let last = passes.last().unwrap();
        let ended_under_budget = outcome.tokens_after < 1_024;
        assert!(
            ended_under_budget || last.reason.contains("all "),
            "{last:#?}"
        );
    }

    #[test]
    fn a_short_history_is_summarised_whole_and_the_head_ends_with_an_assistant() {
        assert_eq!(history_split(&[true, false, true], &[1, 1, 1], 10), 3);
        // The tail would start after a user message: move back until the head ends with an
        // assistant one.
        let user = [true, false, true, true, true, false];
        assert_eq!(history_split(&user, &[100, 100, 100, 100, 10, 10], 300), 2);
    }
}
