//! Plan mode and auto mode: reminders throttled by human turns, and one-shot notes on
//! re-entering and leaving (spec §7.5, Q48).

use alloc::format;
use alloc::string::String;

use super::{PassInput, ReminderState};
use crate::attachment::AttachmentKind;
use crate::attachment::{AttachmentRules, Collected, Verdict};
use crate::host::PermissionMode;
use crate::tokens::TokenMethod;
use crate::transcript::Transcript;
use crate::wording::reminders::{self as wording, PlanFacts};

/// The plan-mode reminder while the mode is `plan`, preceded by `plan_mode_reentry` when
/// plan mode was left earlier in the session and the plan file still exists.
///
/// Throttle: walking back to the latest `plan_mode` or `plan_mode_reentry` attachment, fewer
/// than `plan_turns_between` human turns → nothing (THROTTLED). The original counts the
/// transcript without the prompt being submitted, so a reminder can land on a tool round;
/// with `plan_counts_new_prompt` (Q48) that prompt counts too. The n-th reminder since plan
/// mode was last left is the full one when n is 1, 1 + `plan_full_every`, …; the others
/// are sparse.
pub fn plan_mode(
    input: &PassInput<'_>,
    state: &mut ReminderState,
    rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    if input.mode != PermissionMode::Plan {
        return;
    }
    let reminders = [AttachmentKind::PlanMode, AttachmentKind::PlanModeReentry];
    let reentry = state.exited_plan_mode && input.plan_exists;
    let unthrottled = reentry && rules.plan_reentry_unthrottled;
    if !unthrottled && throttled("plan_mode", input, rules, &reminders, out) {
        return;
    }
    let plan = PlanFacts {
        path: input.plan_file,
        exists: input.plan_exists,
        interview: input.interview_mode,
    };
    if reentry {
        state.exited_plan_mode = false;
        out.attach(
            AttachmentKind::PlanModeReentry,
            None,
            wording::plan_mode_reentry(input.plan_file),
            method,
        );
        out.decide(
            "plan_mode_reentry",
            Verdict::Included,
            "plan mode was entered again and the earlier plan file still exists".into(),
            Some(String::from(input.plan_file)),
        );
    }
    let count = count_since(
        input.transcript,
        AttachmentKind::PlanMode,
        AttachmentKind::PlanModeExit,
    ) + 1;
    let full = is_full(count, rules.plan_full_every);
    out.attach(
        AttachmentKind::PlanMode,
        None,
        wording::plan_mode(&plan, full, input.is_sub_agent),
        method,
    );
    included("plan_mode", "plan mode was last left", count, full, out);
}

/// The one-shot note that plan mode is over, on the first pass outside plan mode after
/// [`ReminderState::exit_plan_mode`]. Dropped when the pass finds plan mode on again.
pub fn plan_mode_exit(
    input: &PassInput<'_>,
    state: &mut ReminderState,
    _rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    let Some(plan_existed) = state.pending_plan_exit.take() else {
        return;
    };
    if input.mode == PermissionMode::Plan {
        out.decide(
            "plan_mode_exit",
            Verdict::Skipped,
            "plan mode is on again, so its exit is not announced".into(),
            None,
        );
        return;
    }
    let plan = plan_existed.then_some(input.plan_file);
    out.attach(
        AttachmentKind::PlanModeExit,
        None,
        wording::plan_mode_exit(plan),
        method,
    );
    out.decide(
        "plan_mode_exit",
        Verdict::Included,
        "plan mode was left since the last pass".into(),
        None,
    );
}

/// The auto-mode reminder while the mode is `auto` and auto mode exists in the build, with
/// plan mode's cadence over `auto_mode` attachments (counted since the last
/// `auto_mode_exit`).
pub fn auto_mode(
    input: &PassInput<'_>,
    _state: &mut ReminderState,
    rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    if !input.auto_mode_available || input.mode != PermissionMode::Auto {
        return;
    }
    if throttled("auto_mode", input, rules, &[AttachmentKind::AutoMode], out) {
        return;
    }
    let count = count_since(
        input.transcript,
        AttachmentKind::AutoMode,
        AttachmentKind::AutoModeExit,
    ) + 1;
    let full = is_full(count, rules.plan_full_every);
    out.attach(
        AttachmentKind::AutoMode,
        None,
        wording::auto_mode(full),
        method,
    );
    included("auto_mode", "auto mode was last left", count, full, out);
}

/// The one-shot note that auto mode is over, on the first pass outside auto mode after
/// [`ReminderState::exit_auto_mode`].
pub fn auto_mode_exit(
    input: &PassInput<'_>,
    state: &mut ReminderState,
    _rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    if !state.pending_auto_exit {
        return;
    }
    state.pending_auto_exit = false;
    if input.mode == PermissionMode::Auto {
        return;
    }
    out.attach(
        AttachmentKind::AutoModeExit,
        None,
        wording::auto_mode_exit(),
        method,
    );
    out.decide(
        "auto_mode_exit",
        Verdict::Included,
        "auto mode was left since the last pass".into(),
        None,
    );
}

/// Records THROTTLED and returns true when the latest reminder of `kinds` is fewer than
/// `plan_turns_between` human turns back.
fn throttled(
    subject: &str,
    input: &PassInput<'_>,
    rules: &AttachmentRules,
    kinds: &[AttachmentKind],
    out: &mut Collected,
) -> bool {
    let Some(mut turns) = human_turns_since(input.transcript, kinds) else {
        return false;
    };
    if rules.plan_counts_new_prompt && input.prompt.is_some() {
        turns += 1;
    }
    if turns >= rules.plan_turns_between {
        return false;
    }
    out.decide(
        subject,
        Verdict::Throttled,
        format!(
            "{turns} of {} human turns since the last reminder",
            rules.plan_turns_between
        ),
        None,
    );
    true
}

fn included(subject: &str, since: &str, count: u64, full: bool, out: &mut Collected) {
    let variant = if full { "full" } else { "sparse" };
    out.decide(
        subject,
        Verdict::Included,
        format!("{variant} reminder, number {count} since {since}"),
        None,
    );
}

/// Human turns (plan mode's definition, §7.4) after the latest attachment of `kinds`;
/// `None` when there is none.
fn human_turns_since(transcript: &Transcript, kinds: &[AttachmentKind]) -> Option<u64> {
    let mut turns = 0;
    for message in transcript.messages().iter().rev() {
        if message.is_human_turn_for_plan_mode() {
            turns += 1;
        } else if message
            .attachment()
            .is_some_and(|attachment| kinds.contains(&attachment.kind))
        {
            return Some(turns);
        }
    }
    None
}

/// Attachments of `kind` after the latest attachment of `reset`.
fn count_since(transcript: &Transcript, kind: AttachmentKind, reset: AttachmentKind) -> u64 {
    let mut count = 0;
    for attachment in transcript.attachments().rev() {
        if attachment.kind == reset {
            break;
        }
        if attachment.kind == kind {
            count += 1;
        }
    }
    count
}

/// The original's `count % every == 1`, read as "the first of every `every`" so that
/// `every` = 1 means always full and 0 means only the first.
fn is_full(count: u64, every: u64) -> bool {
    match count.saturating_sub(1).checked_rem(every) {
        Some(rest) => rest == 0,
        None => count == 1,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attachment::Attachment;
    use crate::transcript::Record;

    fn attachment(kind: AttachmentKind) -> Record {
        Record::Attachment(Attachment::new(
            kind,
            None,
            "x".into(),
            TokenMethod::ClaudeCode,
        ))
    }

    #[test]
    fn full_on_the_first_of_every_five() {
        let fulls: alloc::vec::Vec<u64> = (1..=12).filter(|&n| is_full(n, 5)).collect();
        assert_eq!(fulls, [1, 6, 11]);
        assert!(is_full(3, 1));
        assert!(is_full(1, 0) && !is_full(2, 0));
    }

    #[test]
    fn turns_stop_at_the_reentry_reminder_and_skip_tool_rounds() {
        let mut transcript = Transcript::default();
        transcript.push(Record::Prompt { text: "a".into() });
        transcript.push(attachment(AttachmentKind::PlanMode));
        transcript.push(Record::Prompt { text: "b".into() });
        transcript.push(attachment(AttachmentKind::PlanModeReentry));
        transcript.push(Record::Prompt { text: "c".into() });
        transcript.push(Record::ToolResults {
            results: alloc::vec![],
        });
        transcript.push(Record::Prompt { text: "d".into() });
        let kinds = [AttachmentKind::PlanMode, AttachmentKind::PlanModeReentry];
        assert_eq!(human_turns_since(&transcript, &kinds), Some(2));
        assert_eq!(
            human_turns_since(&transcript, &[AttachmentKind::AutoMode]),
            None
        );
    }

    #[test]
    fn reminders_are_counted_since_the_last_exit() {
        let mut transcript = Transcript::default();
        for kind in [
            AttachmentKind::PlanMode,
            AttachmentKind::PlanMode,
            AttachmentKind::PlanModeExit,
            AttachmentKind::PlanMode,
            AttachmentKind::PlanModeReentry,
        ] {
            transcript.push(attachment(kind));
        }
        assert_eq!(
            count_since(
                &transcript,
                AttachmentKind::PlanMode,
                AttachmentKind::PlanModeExit
            ),
            1
        );
    }

    #[test]
    fn reentry_comes_first_and_only_with_a_plan() {
        let transcript = Transcript::default();
        let rules = AttachmentRules::claude_code();
        let mut state = ReminderState::default();
        state.exit_plan_mode(false);
        state.enter_plan_mode();
        let mut out = Collected::default();
        let input = PassInput {
            mode: PermissionMode::Plan,
            plan_file: "/p/plan.md",
            ..PassInput::new(&transcript)
        };
        plan_mode(
            &input,
            &mut state,
            &rules,
            TokenMethod::ClaudeCode,
            &mut out,
        );
        assert_eq!(out.attachments.len(), 1);
        assert!(state.exited_plan_mode, "kept until a plan exists");
        let input = PassInput {
            plan_exists: true,
            ..input
        };
        let mut out = Collected::default();
        plan_mode(
            &input,
            &mut state,
            &rules,
            TokenMethod::ClaudeCode,
            &mut out,
        );
        let kinds: alloc::vec::Vec<AttachmentKind> =
            out.attachments.iter().map(|a| a.kind).collect();
        assert_eq!(
            kinds,
            [AttachmentKind::PlanModeReentry, AttachmentKind::PlanMode]
        );
        assert!(out.attachments[0]
            .text
            .contains("## Re-entering Plan Mode\n\n"));
        assert!(out.attachments[1].text.contains("## Plan File Info:\n"));
    }

    #[test]
    fn the_exit_is_announced_once_outside_plan_mode() {
        let transcript = Transcript::default();
        let rules = AttachmentRules::claude_code();
        let mut state = ReminderState::default();
        state.exit_plan_mode(true);
        let input = PassInput {
            plan_file: "/p/plan.md",
            ..PassInput::new(&transcript)
        };
        let mut out = Collected::default();
        for _ in 0..2 {
            plan_mode_exit(
                &input,
                &mut state,
                &rules,
                TokenMethod::ClaudeCode,
                &mut out,
            );
        }
        assert_eq!(out.attachments.len(), 1);
        let text = &out.attachments[0].text;
        assert!(text.starts_with("<system-reminder>\n## Exited Plan Mode\n\n"));
        assert!(text.contains(" The plan file remains at /p/plan.md"));
    }
}
