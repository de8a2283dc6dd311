//! `cline.dedupe_reads`: when a file was read more than once, every copy but the latest
//! becomes a short notice (spec/strategies.md §3, Cline's `attemptFileReadOptimizationCore`).
//!
//! It runs before truncation and decides whether truncation is still needed: it is when the
//! replacements saved less than [`DedupeReadsParams::min_savings_fraction_percent`] of the
//! characters (`needToTruncate`). [`apply`] returns a [`DedupeOutcome`]: the policy's usual
//! outcome, with that verdict also recorded as a decision about [`TRUNCATION_SUBJECT`].
//!
//! What counts as a read of a file here:
//! * the result of a `Read` call (not an error, not the unchanged-file stub), keyed by the
//!   call's `file_path` as given, trimmed — no normalisation, so `./a.rs` and `/w/a.rs` are
//!   different files. Edit and Write results are confirmations, not file contents (Cline's
//!   write results carry the final file; ours do not).
//! * a `file` attachment with a path (an @-mention), keyed by that path.
//!
//! Our Read takes a line range, which Cline's `read_file` does not: a read's range (its
//! `offset` and `limit`, also for a mention, read from its call note) is part of the key, so
//! only reads of the same lines supersede each other and a partial read never elides a whole
//! one.
//!
//! Characters are UTF-16 units (JavaScript's `length`, what Cline measures), over every
//! record's text: prompts, assistant blocks, calls (name and input), results, attachments.
//! A replaced copy keeps its `tool_use_id`; records are never added or removed.

use alloc::collections::BTreeMap;
use alloc::string::String;
use alloc::vec::Vec;

use super::{decision, not_applied, outcome, result_subject, PolicyOutcome};
use crate::attachment::AttachmentKind;
use crate::js::utf16_units;
use crate::read::FILE_UNCHANGED_STUB;
use crate::tokens::{estimate_tokens, TokenMethod};
use crate::transcript::{AssistantBlock, Message, Record};
use crate::vocabulary::Decision;
use crate::vocabulary::Verdict;
use crate::wording::files::call_note;

/// The policy's id.
pub const POLICY_ID: &str = "cline.dedupe_reads";

/// §3.1: truncation proceeds only when less than 30 % of the characters were saved.
pub const MIN_SAVINGS_FRACTION_PERCENT: u64 = 30;

/// The subject of the decision that says whether truncation is still needed.
pub const TRUNCATION_SUBJECT: &str = "truncation";

/// The tool whose results are file contents.
const READ_TOOL: &str = "Read";

/// The attachment kind of an @-mentioned file.
const MENTION_KIND: AttachmentKind = AttachmentKind::File;

/// The knobs of `cline.dedupe_reads`; `Default` gives the reference's gate (§3.1).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DedupeReadsParams {
    /// Truncation is still needed when the replacements saved less than this percentage of
    /// the characters (reference: 30).
    pub min_savings_fraction_percent: u64,
}

impl Default for DedupeReadsParams {
    fn default() -> Self {
        DedupeReadsParams {
            min_savings_fraction_percent: MIN_SAVINGS_FRACTION_PERCENT,
        }
    }
}

/// What `cline.dedupe_reads` did, and whether truncation must follow.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct DedupeOutcome {
    /// The records with superseded copies replaced, and a decision for each; the last
    /// decision is about [`TRUNCATION_SUBJECT`].
    pub outcome: PolicyOutcome,
    /// Characters (UTF-16 units) of all the input records.
    pub chars_before: u64,
    /// Characters the replacements removed, net of the notices.
    pub chars_saved: u64,
    /// `chars_saved` as a percentage of `chars_before`, rounded down.
    pub saved_percent: u64,
    /// Cline's `needToTruncate`: the saving is below the gate.
    pub need_to_truncate: bool,
}

/// The notice that replaces a superseded copy of `path` (§3.3): `[[NOTE] …]` around our
/// wording of the reference's two points.
///
/// # Example
/// ```
/// use context_assembly::compact::policies::dedupe_reads::notice;
/// let text = notice("/w/a.rs");
/// assert!(text.starts_with("[[NOTE] ") && text.ends_with(']'));
/// assert!(text.contains("/w/a.rs"));
/// ```
pub fn notice(path: &str) -> String {
    alloc::format!(
        "[[NOTE] This copy of {path} was elided to save space. The latest read of the file, further down, is its current version.]"
    )
}

/// Which read a copy belongs to: the path and the lines read.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord)]
struct ReadKey {
    path: String,
    offset: Option<String>,
    limit: Option<String>,
}

/// Where a copy is: a record, and the result's position in it (`None` for an attachment).
#[derive(Debug, Clone, Copy)]
struct Place {
    record: usize,
    result: Option<usize>,
}

/// Replaces all but the latest copy of every file read more than once (§3.3).
///
/// # Example
/// ```
/// use context_assembly::compact::policies::dedupe_reads::{apply, DedupeReadsParams};
/// use context_assembly::tokens::TokenMethod;
/// use context_assembly::transcript::{Message, Record};
/// // Nothing read twice: nothing saved, so truncation is still needed.
/// let records = vec![Message { id: 0, record: Record::Prompt { text: "hi".into() } }];
/// let dedupe = apply(&records, &DedupeReadsParams::default(), TokenMethod::Calibrated);
/// assert_eq!(dedupe.outcome.records, records);
/// assert!(dedupe.need_to_truncate);
/// assert_eq!(dedupe.outcome.decisions[1].subject, "truncation");
/// ```
pub fn apply(
    records: &[Message],
    params: &DedupeReadsParams,
    method: TokenMethod,
) -> DedupeOutcome {
    let copies = copies_by_read(records);
    let mut after = records.to_vec();
    let mut decisions = Vec::new();
    for (key, places) in &copies {
        let Some((latest, earlier)) = places.split_last() else {
            continue;
        };
        let latest_id = records.get(latest.record).map_or(0, |m| m.id);
        for place in earlier {
            if let Some(decision) = replace(&mut after, *place, key, latest_id, method) {
                decisions.push(decision);
            }
        }
    }
    let chars_before = total_chars(records);
    let chars_saved = chars_before.saturating_sub(total_chars(&after));
    let mut outcome = if decisions.is_empty() {
        let reason = String::from("no file is read more than once");
        not_applied(records, POLICY_ID, reason, method)
    } else {
        outcome(records, after, decisions, method)
    };
    let saved_percent = percent(chars_saved, chars_before);
    let gate = params.min_savings_fraction_percent;
    let need_to_truncate =
        u128::from(chars_saved) * 100 < u128::from(chars_before) * u128::from(gate);
    outcome.decisions.push(truncation_decision(
        need_to_truncate,
        saved_percent,
        gate,
        chars_saved,
    ));
    DedupeOutcome {
        outcome,
        chars_before,
        chars_saved,
        saved_percent,
        need_to_truncate,
    }
}

fn percent(part: u64, whole: u64) -> u64 {
    match whole {
        0 => 0,
        _ => u64::try_from(u128::from(part) * 100 / u128::from(whole)).unwrap_or(u64::MAX),
    }
}

fn truncation_decision(need: bool, saved_percent: u64, gate: u64, saved: u64) -> Decision {
    let (verdict, reason) = if need {
        let reason = alloc::format!(
            "removing duplicate reads saved {saved_percent}% of the characters, less than {gate}%: truncation is still needed"
        );
        (Verdict::Needed, reason)
    } else {
        let reason = alloc::format!(
            "removing duplicate reads saved {saved_percent}% of the characters, at least {gate}%: no truncation"
        );
        (Verdict::NotApplied, reason)
    };
    decision(
        TRUNCATION_SUBJECT,
        verdict,
        reason,
        Some(alloc::format!("{saved} characters saved")),
    )
}

/// Every copy of every read, oldest first.
fn copies_by_read(records: &[Message]) -> BTreeMap<ReadKey, Vec<Place>> {
    let mut keys_of_calls: BTreeMap<&str, Option<ReadKey>> = BTreeMap::new();
    let mut copies: BTreeMap<ReadKey, Vec<Place>> = BTreeMap::new();
    for (index, message) in records.iter().enumerate() {
        match &message.record {
            Record::Assistant {
                block: AssistantBlock::ToolUse(call),
                ..
            } if call.name == READ_TOOL => {
                keys_of_calls
                    .entry(call.id.as_str())
                    .or_insert_with(|| read_key(&call.input, None));
            }
            Record::ToolResults { results } => {
                for (position, result) in results.iter().enumerate() {
                    let key = keys_of_calls.get(result.tool_use_id.as_str()).cloned();
                    let Some(key) = key.flatten() else {
                        continue;
                    };
                    if result.is_error
                        || result.content == FILE_UNCHANGED_STUB
                        || result.content == notice(&key.path)
                    {
                        continue;
                    }
                    let copy = Place {
                        record: index,
                        result: Some(position),
                    };
                    copies.entry(key).or_default().push(copy);
                }
            }
            Record::Attachment(attachment) if attachment.kind == MENTION_KIND => {
                let Some(path) = attachment.path.as_deref() else {
                    continue;
                };
                let Some(key) = mention_key(path, &attachment.text) else {
                    continue;
                };
                if attachment.text != notice(&key.path) {
                    let copy = Place {
                        record: index,
                        result: None,
                    };
                    copies.entry(key).or_default().push(copy);
                }
            }
            _ => {}
        }
    }
    copies
}

/// The read a mention stands for: its path, and the range of the call note its text opens
/// with, if it has one (an image or a PDF may not).
fn mention_key(path: &str, text: &str) -> Option<ReadKey> {
    // The note's text around an empty input gives its prefix without repeating its wording.
    let empty_note = call_note(READ_TOOL, "");
    let input = empty_note
        .split_once('\n')
        .and_then(|(wrapper, _)| text.strip_prefix(wrapper))
        .and_then(|rest| rest.strip_prefix('\n'))
        .and_then(|rest| {
            let sentence = empty_note.lines().nth(1)?;
            rest.strip_prefix(sentence)
        })
        .and_then(|rest| rest.lines().next());
    let whole = || {
        let path = path.trim();
        (!path.is_empty()).then(|| ReadKey {
            path: path.into(),
            offset: None,
            limit: None,
        })
    };
    match input {
        Some(json) => read_key(json, Some(path)).or_else(whole),
        None => whole(),
    }
}

/// The read a `Read` input stands for; `path` overrides its `file_path`.
fn read_key(input: &str, path: Option<&str>) -> Option<ReadKey> {
    let fields = super::json_fields::top_level(input)?;
    let field = |name: &str| {
        fields
            .iter()
            .rev()
            .find(|(key, _)| key == name)
            .map(|(_, value)| value.clone())
    };
    let path = match path {
        Some(path) => String::from(path.trim()),
        None => String::from(field("file_path")?.trim()),
    };
    (!path.is_empty()).then(|| ReadKey {
        path,
        offset: field("offset"),
        limit: field("limit"),
    })
}

/// Replaces the copy at `place` by the notice and says why.
fn replace(
    after: &mut [Message],
    place: Place,
    key: &ReadKey,
    latest_id: u64,
    method: TokenMethod,
) -> Option<Decision> {
    let message = after.get_mut(place.record)?;
    let id = message.id;
    let text = notice(&key.path);
    let reason = alloc::format!(
        "{} is read again later, in record {latest_id}; the latest copy is kept",
        key.path
    );
    let (subject, old) = match (&mut message.record, place.result) {
        (Record::ToolResults { results }, Some(position)) => {
            let result = results.get_mut(position)?;
            let subject = result_subject(&result.tool_use_id, Some(READ_TOOL));
            (subject, core::mem::replace(&mut result.content, text))
        }
        (Record::Attachment(attachment), None) => {
            attachment.tokens = estimate_tokens(&text, method, None);
            // The notice is one block: the parts it replaces are gone.
            attachment.message_breaks.clear();
            let subject = alloc::format!("record {id} (file {})", key.path);
            (subject, core::mem::replace(&mut attachment.text, text))
        }
        _ => return None,
    };
    let detail = alloc::format!("{} characters elided", utf16_units(&old));
    Some(decision(&subject, Verdict::Replaced, reason, Some(detail)))
}

/// Characters of one record's text, as the savings count them.
fn record_chars(message: &Message) -> u64 {
    match &message.record {
        Record::Prompt { text } | Record::Summary { text } | Record::LocalCommand { text, .. } => {
            utf16_units(text)
        }
        Record::Interruption => utf16_units(crate::transcript::INTERRUPTED_FOR_TOOL_USE),
        Record::CompactBoundary { .. } => 0,
        Record::Context { item, .. } => utf16_units(&item.message_text().unwrap_or_default()),
        Record::Assistant { block, .. } => match block {
            AssistantBlock::Text { text } => utf16_units(text),
            AssistantBlock::Thinking { thinking } => utf16_units(thinking),
            AssistantBlock::ToolUse(call) => utf16_units(&call.name) + utf16_units(&call.input),
        },
        Record::ToolResults { results } => results.iter().map(|r| utf16_units(&r.content)).sum(),
        Record::Attachment(attachment) => utf16_units(&attachment.text),
    }
}

fn total_chars(records: &[Message]) -> u64 {
    records.iter().map(record_chars).sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::attachment::Attachment;
    use crate::transcript::{ToolResultBlock, ToolUse};
    use crate::wording::files::tool_result;

    #[test]
    fn a_mention_reads_its_range_from_its_call_note() {
        let text = [
            call_note(READ_TOOL, r#"{"file_path":"/w/a.rs","offset":3,"limit":2}"#),
            tool_result(READ_TOOL, "3\tx"),
        ]
        .join("\n");
        let key = mention_key("/w/a.rs", &text);
        assert_eq!(
            key.map(|k| (k.offset, k.limit)),
            Some((Some("3".into()), Some("2".into())))
        );
        let whole = mention_key("/w/a.rs", "[the PDF document]");
        assert_eq!(whole.map(|k| k.offset), Some(None));
    }

    #[test]
    fn mentions_and_reads_of_one_file_supersede_each_other() {
        let method = TokenMethod::Codex;
        let mention = Attachment::new(
            MENTION_KIND,
            Some("/w/a.rs"),
            [
                call_note(READ_TOOL, r#"{"file_path":"/w/a.rs"}"#),
                tool_result(READ_TOOL, &"old line\n".repeat(50)),
            ]
            .join("\n"),
            method,
        );
        let records = alloc::vec![
            Message {
                id: 0,
                record: Record::Attachment(mention),
            },
            Message {
                id: 1,
                record: Record::Assistant {
                    response: 0,
                    block: AssistantBlock::ToolUse(ToolUse {
                        id: "r".into(),
                        name: READ_TOOL.into(),
                        input: r#"{"file_path":" /w/a.rs "}"#.into(),
                    }),
                },
            },
            Message {
                id: 2,
                record: Record::ToolResults {
                    results: alloc::vec![ToolResultBlock {
                        tool_use_id: "r".into(),
                        content: "new line\n".repeat(50),
                        is_error: false,
                    }],
                },
            },
        ];
        let dedupe = apply(&records, &DedupeReadsParams::default(), method);
        let Record::Attachment(replaced) = &dedupe.outcome.records[0].record else {
            panic!("record 0 is an attachment");
        };
        assert_eq!(replaced.text, notice("/w/a.rs"));
        assert_eq!(
            replaced.tokens,
            estimate_tokens(&replaced.text, method, None)
        );
        assert_eq!(dedupe.outcome.records[1..], records[1..]);
        assert!(!dedupe.need_to_truncate);
        assert!(dedupe.saved_percent >= 30);
        assert_eq!(dedupe.outcome.decisions[0].verdict, Verdict::Replaced);
        assert_eq!(dedupe.outcome.decisions[1].verdict, Verdict::NotApplied);
        // Applying it again finds one copy left: nothing to do.
        let again = apply(
            &dedupe.outcome.records,
            &DedupeReadsParams::default(),
            method,
        );
        assert_eq!(again.outcome.records, dedupe.outcome.records);
        assert_eq!(again.chars_saved, 0);
    }
}
