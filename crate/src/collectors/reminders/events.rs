//! Reminders sent whenever their condition holds on a pass: queued input, the date, the
//! effort keyword, the agent's critical reminder, the compaction reminder, the output style,
//! usage and budgets, background tasks (spec §7.7, §7.10, §9.10, Q62).

use alloc::format;
use alloc::string::String;

use super::{PassInput, ReminderState};
use crate::attachment::{AttachmentKind, AttachmentRules, Collected, Verdict};
use crate::host::BackgroundStatus;
use crate::tokens::TokenMethod;
use crate::wording::reminders as wording;
use crate::wording::wrap;

/// One `queued_command` per message the user typed while the agent worked, oldest first.
pub fn queued_commands(
    input: &PassInput<'_>,
    _state: &mut ReminderState,
    _rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    for raw in input.queued {
        out.attach(
            AttachmentKind::QueuedCommand,
            None,
            wording::queued_command(raw),
            method,
        );
    }
}

/// `date_change` when the local date differs from the one seen on the previous pass. The
/// first pass only records it: the request's first message already states the date.
pub fn date_change(
    input: &PassInput<'_>,
    state: &mut ReminderState,
    _rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    let previous = state.last_date.replace(String::from(input.today));
    let Some(previous) = previous.filter(|previous| previous != input.today) else {
        return;
    };
    out.attach(
        AttachmentKind::DateChange,
        None,
        wording::date_change(input.today),
        method,
    );
    out.decide(
        "date_change",
        Verdict::Included,
        "the local date changed since the last pass".into(),
        Some(format!("{previous} → {}", input.today)),
    );
}

/// `ultrathink_effort` (level `high`) on a human turn whose prompt contains the word
/// `ultrathink` in any ASCII case, as `/\bultrathink\b/i` finds it: ASCII word boundaries,
/// so `ultrathink_mode` does not match and `é-ultrathink` does.
///
/// # Example
/// ```
/// use context_assembly::collectors::reminders::{ultrathink_effort, PassInput, ReminderState};
/// use context_assembly::attachment::{AttachmentRules, Collected};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::Transcript;
///
/// let transcript = Transcript::default();
/// let rules = AttachmentRules::claude_code();
/// let mut out = Collected::default();
/// for prompt in ["please ULTRATHINK.", "ultrathinking", "éultrathink"] {
///     let input = PassInput { prompt: Some(prompt), ..PassInput::new(&transcript) };
///     ultrathink_effort(&input, &mut ReminderState::default(), &rules, TokenMethod::ClaudeCode, &mut out);
/// }
/// // The first and the third: `é` is not a word character for a JavaScript `\b`.
/// assert_eq!(out.attachments.len(), 2);
/// ```
pub fn ultrathink_effort(
    input: &PassInput<'_>,
    _state: &mut ReminderState,
    _rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    if input.prompt.is_some_and(has_ultrathink) {
        out.attach(
            AttachmentKind::UltrathinkEffort,
            None,
            wording::ultrathink_effort("high"),
            method,
        );
    }
}

fn has_ultrathink(prompt: &str) -> bool {
    const WORD: &[u8] = b"ultrathink";
    let bytes = prompt.as_bytes();
    let is_word = |at: Option<&u8>| at.is_some_and(|b| b.is_ascii_alphanumeric() || *b == b'_');
    (0..bytes.len()).any(|at| {
        let end = at + WORD.len();
        bytes
            .get(at..end)
            .is_some_and(|window| window.eq_ignore_ascii_case(WORD))
            && !is_word(at.checked_sub(1).and_then(|before| bytes.get(before)))
            && !is_word(bytes.get(end))
    })
}

/// `critical_system_reminder`: the agent definition's text, wrapped, on every pass.
pub fn critical_system_reminder(
    input: &PassInput<'_>,
    _state: &mut ReminderState,
    _rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    if let Some(text) = input.critical_reminder.filter(|text| !text.is_empty()) {
        out.attach(
            AttachmentKind::CriticalSystemReminder,
            None,
            wrap(text),
            method,
        );
    }
}

/// `compaction_reminder` while the conversation holds at least
/// `compaction_reminder_percent` % of the effective window, when compaction reminders are
/// on and (with `compaction_reminder_needs_1m`) the window is at least 1,000,000 tokens.
/// The original sends it on every pass above the threshold; with
/// `compaction_reminder_once` (Q62) once per crossing, re-armed when the conversation
/// falls below (or is compacted).
pub fn compaction_reminder(
    input: &PassInput<'_>,
    state: &mut ReminderState,
    rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    if !input.compaction_reminders
        || (rules.compaction_reminder_needs_1m && input.context_window < 1_000_000)
    {
        return;
    }
    let tokens = u128::from(input.context_tokens) * 100;
    let threshold =
        u128::from(input.effective_window) * u128::from(rules.compaction_reminder_percent);
    if tokens < threshold {
        state.compaction_reminded = false;
        return;
    }
    let detail = Some(format!(
        "{} tokens of an effective window of {}",
        input.context_tokens, input.effective_window
    ));
    if rules.compaction_reminder_once && state.compaction_reminded {
        out.decide(
            "compaction_reminder",
            Verdict::Throttled,
            "already sent since the conversation crossed its threshold".into(),
            detail,
        );
        return;
    }
    state.compaction_reminded = true;
    out.attach(
        AttachmentKind::CompactionReminder,
        None,
        wording::compaction_reminder(),
        method,
    );
    out.decide(
        "compaction_reminder",
        Verdict::Included,
        format!(
            "the conversation holds at least {}% of the effective window",
            rules.compaction_reminder_percent
        ),
        detail,
    );
}

/// `output_style` on every pass while a style other than `default` is active (main thread).
pub fn output_style(
    input: &PassInput<'_>,
    _state: &mut ReminderState,
    _rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    let Some(name) = input.output_style else {
        return;
    };
    if input.is_sub_agent || name.is_empty() || name == "default" {
        return;
    }
    out.attach(
        AttachmentKind::OutputStyle,
        None,
        wording::output_style(name),
        method,
    );
}

/// `token_usage` when enabled (main thread): `used` = the last request's input tokens (0
/// before the first), `total` = the effective window, `remaining = total - used`, shown
/// negative when the request went past the window rather than clamped.
pub fn token_usage(
    input: &PassInput<'_>,
    _state: &mut ReminderState,
    _rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    if !input.token_usage_reminder || input.is_sub_agent {
        return;
    }
    let used = input.last_request_tokens.unwrap_or(0);
    let total = input.effective_window;
    let text = wording::token_usage(used, total, difference(total, used));
    out.attach(AttachmentKind::TokenUsage, None, text, method);
}

/// `budget_usd` while a spending limit is set (main thread), amounts in dollars with two
/// decimals; `remaining` negative once the limit is exceeded.
///
/// # Example
/// ```
/// use context_assembly::collectors::reminders::{budget_usd, PassInput, ReminderState};
/// use context_assembly::attachment::{AttachmentRules, Collected};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::Transcript;
///
/// let transcript = Transcript::default();
/// let input = PassInput {
///     budget_usd_cents: Some(500),
///     spent_usd_cents: 505,
///     ..PassInput::new(&transcript)
/// };
/// let mut out = Collected::default();
/// let rules = AttachmentRules::claude_code();
/// budget_usd(&input, &mut ReminderState::default(), &rules, TokenMethod::ClaudeCode, &mut out);
/// assert!(out.attachments[0].text.contains("USD budget: $5.05/$5.00; $-0.05 remaining"));
/// ```
pub fn budget_usd(
    input: &PassInput<'_>,
    _state: &mut ReminderState,
    _rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    let Some(total) = input.budget_usd_cents else {
        return;
    };
    if input.is_sub_agent {
        return;
    }
    let used = input.spent_usd_cents;
    let text = wording::budget_usd(
        &dollars(i128::from(used)),
        &dollars(i128::from(total)),
        &dollars(difference(total, used)),
    );
    out.attach(AttachmentKind::BudgetUsd, None, text, method);
}

/// `output_token_usage` while an output-token budget is set (main thread): used, budget and
/// what remains (negative once exceeded).
pub fn output_token_usage(
    input: &PassInput<'_>,
    _state: &mut ReminderState,
    _rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    let Some(budget) = input.output_token_budget else {
        return;
    };
    if input.is_sub_agent {
        return;
    }
    let used = input.output_tokens;
    let text = wording::output_token_usage(used, budget, difference(budget, used));
    out.attach(AttachmentKind::OutputTokenUsage, None, text, method);
}

/// One `task_status` per background task reported: still running, or stopped by the user
/// (main thread).
pub fn task_status(
    input: &PassInput<'_>,
    _state: &mut ReminderState,
    _rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    if input.is_sub_agent {
        return;
    }
    for (id, description, status) in input.task_statuses {
        let text = match status {
            BackgroundStatus::Running => wording::task_running(id, description),
            BackgroundStatus::Killed => wording::task_killed(id, description),
        };
        out.attach(AttachmentKind::TaskStatus, None, text, method);
    }
}

fn difference(total: u64, used: u64) -> i128 {
    i128::from(total) - i128::from(used)
}

/// Cents as dollars with two decimals: `-5` → `-0.05`.
fn dollars(cents: i128) -> String {
    let sign = if cents < 0 { "-" } else { "" };
    let abs = cents.unsigned_abs();
    format!("{sign}{}.{:02}", abs / 100, abs % 100)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ultrathink_needs_ascii_word_boundaries() {
        for hit in [
            "ultrathink",
            "ULTRAthink now",
            "(ultrathink)",
            "日本ultrathink語",
            "x ultrathink",
        ] {
            assert!(has_ultrathink(hit), "{hit}");
        }
        for miss in [
            "ultrathinking",
            "_ultrathink",
            "ultrathink9",
            "ultra think",
            "ultrathin",
            "",
        ] {
            assert!(!has_ultrathink(miss), "{miss}");
        }
    }

    #[test]
    fn dollars_have_two_decimals() {
        assert_eq!(dollars(0), "0.00");
        assert_eq!(dollars(1234), "12.34");
        assert_eq!(dollars(-5), "-0.05");
    }
}
