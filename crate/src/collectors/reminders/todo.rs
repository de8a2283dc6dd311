//! The todo and task nudges, throttled by the model's activity since the list was last
//! written and since the last nudge (spec §7.6, Q47, Q49).

use alloc::collections::BTreeSet;
use alloc::format;
use alloc::string::String;

use super::{PassInput, ReminderState};
use crate::attachment::{AttachmentKind, AttachmentRules, Collected, Verdict};
use crate::tokens::TokenMethod;
use crate::transcript::{AssistantBlock, Message, Record, Transcript};
use crate::wording::reminders as wording;

/// The tool whose presence switches the nudges off (the Brief tool).
const BRIEF_TOOL: &str = "SendUserMessage";

/// Which list the nudge is about.
struct Variant {
    kind: AttachmentKind,
    writers: &'static [&'static str],
}

const TODO: Variant = Variant {
    kind: AttachmentKind::TodoReminder,
    writers: &["TodoWrite"],
};

const TASKS: Variant = Variant {
    kind: AttachmentKind::TaskReminder,
    writers: &["TaskCreate", "TaskUpdate"],
};

/// `todo_reminder`, or `task_reminder` when TaskCreate and TaskUpdate are available (the
/// task-v2 variant, which counts their uses). Needs TodoWrite (or the task tools)
/// available, the Brief tool (`SendUserMessage`) not, and a non-empty transcript.
///
/// Counted units are assistant records that are not thinking-only (one per content block,
/// as the original streams them); with `todo_counts_responses` (Q47) whole responses. The
/// nudge goes out when at least `todo_turns_since_write` units follow the last use of a
/// writing tool (the unit holding it not counted; all units when there is none) and at
/// least `todo_turns_between` follow the last nudge. It carries the list as it is now.
pub fn todo_reminders(
    input: &PassInput<'_>,
    _state: &mut ReminderState,
    rules: &AttachmentRules,
    method: TokenMethod,
    out: &mut Collected,
) {
    let variant = if input.has_tool("TaskCreate") && input.has_tool("TaskUpdate") {
        &TASKS
    } else if input.has_tool("TodoWrite") {
        &TODO
    } else {
        return;
    };
    if input.has_tool(BRIEF_TOOL) || input.transcript.is_empty() {
        return;
    }
    let counts = count(input.transcript, variant, rules.todo_counts_responses);
    let unit = if rules.todo_counts_responses {
        "assistant responses"
    } else {
        "assistant records"
    };
    if counts.since_write < rules.todo_turns_since_write
        || counts.since_reminder < rules.todo_turns_between
    {
        out.decide(
            variant.kind.as_str(),
            Verdict::Throttled,
            throttled_reason(&counts, rules, unit),
            None,
        );
        return;
    }
    let text = if variant.kind == TASKS.kind {
        wording::task_reminder(input.tasks, rules.todo_plain_list)
    } else {
        wording::todo_reminder(input.todos, rules.todo_plain_list)
    };
    out.attach(variant.kind, None, text, method);
    out.decide(
        variant.kind.as_str(),
        Verdict::Included,
        format!(
            "{} {unit} since the list was last written (or since the start), {} since the last \
             nudge",
            counts.since_write, counts.since_reminder
        ),
        None,
    );
}

/// Which of the two waits held the nudge back, each with its figure and its minimum.
fn throttled_reason(counts: &Counts, rules: &AttachmentRules, unit: &str) -> String {
    let wait = |count: u64, minimum: u64, since: &str| {
        let verdict = if count < minimum { "too few" } else { "enough" };
        format!("{count} {unit} since {since} ({verdict}: {minimum} needed)")
    };
    format!(
        "held back: {}; {}",
        wait(
            counts.since_write,
            rules.todo_turns_since_write,
            "the list was last written or the session began"
        ),
        wait(
            counts.since_reminder,
            rules.todo_turns_between,
            "the last nudge"
        )
    )
}

/// Units after the last write and after the last nudge.
#[derive(Debug, PartialEq, Eq)]
struct Counts {
    since_write: u64,
    since_reminder: u64,
}

fn count(transcript: &Transcript, variant: &Variant, by_response: bool) -> Counts {
    let messages = transcript.messages();
    let last_write = messages
        .iter()
        .rposition(|message| writes_list(message, variant.writers));
    let last_reminder = messages
        .iter()
        .rposition(|message| message.attachment().is_some_and(|a| a.kind == variant.kind));
    let unit = |message: &Message| match message.record {
        Record::Assistant { response, .. } if by_response => response,
        _ => message.id,
    };
    let write_unit = last_write.and_then(|at| messages.get(at)).map(unit);
    let units_after = |start: Option<usize>, skip: Option<u64>| {
        let from = start.map_or(0, |at| at + 1);
        messages
            .get(from..)
            .unwrap_or_default()
            .iter()
            .filter(|message| message.is_counted_assistant_record())
            .map(unit)
            .filter(|&u| Some(u) != skip)
            .collect::<BTreeSet<u64>>()
            .len() as u64
    };
    Counts {
        since_write: units_after(last_write, write_unit),
        since_reminder: units_after(last_reminder, None),
    }
}

fn writes_list(message: &Message, writers: &[&str]) -> bool {
    matches!(
        &message.record,
        Record::Assistant { block: AssistantBlock::ToolUse(call), .. }
            if writers.contains(&call.name.as_str())
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::transcript::ToolUse;

    fn call(name: &str) -> AssistantBlock {
        AssistantBlock::ToolUse(ToolUse {
            id: "t".into(),
            name: name.into(),
            input: "{}".into(),
        })
    }

    #[test]
    fn a_response_with_three_calls_counts_three_records_or_one_response() {
        let mut transcript = Transcript::default();
        transcript.push(Record::Prompt { text: "go".into() });
        let response = transcript.next_response();
        transcript.push(Record::Assistant {
            response,
            block: AssistantBlock::Thinking {
                thinking: "hm".into(),
            },
        });
        for _ in 0..3 {
            transcript.push(Record::Assistant {
                response,
                block: call("Read"),
            });
        }
        let per_record = count(&transcript, &TODO, false);
        assert_eq!(per_record.since_write, 3);
        assert_eq!(count(&transcript, &TODO, true).since_write, 1);
    }

    #[test]
    fn the_writing_response_is_not_counted_even_by_its_later_blocks() {
        let mut transcript = Transcript::default();
        let response = transcript.next_response();
        transcript.push(Record::Assistant {
            response,
            block: call("TodoWrite"),
        });
        transcript.push(Record::Assistant {
            response,
            block: AssistantBlock::text("done"),
        });
        assert_eq!(count(&transcript, &TODO, true).since_write, 0);
        let by_record = count(&transcript, &TODO, false);
        assert_eq!(
            by_record,
            Counts {
                since_write: 1,
                since_reminder: 2
            }
        );
    }
}
