//! A summary without a model: the nine sections filled with what the records say, quoted,
//! never paraphrased. Every quoted line names the record it came from, so a reader (or a
//! test) can check that nothing was invented.

use alloc::collections::BTreeMap;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use super::carry::{carried_entries, Carried, COMMANDS_NOTE, KEY_LINES_NOTE};
use super::json::{self, Value};
use super::key_lines::key_lines;
use super::SUMMARY_SECTIONS;
use crate::transcript::{AssistantBlock, Message, Record};

/// Characters of one quoted entry before it is cut with the marker ` […]`.
pub const ENTRY_CAP_CHARS: usize = 500;

/// Entries per section; older ones beyond it are counted, not quoted. The user's messages
/// are the exception: the summary request asks for all of them (section 6), so they are
/// quoted up to [`USER_MESSAGES_CAP_CHARS`].
pub const SECTION_CAP: usize = 20;

/// Characters of the user's messages a summary quotes, the newest first; older ones are
/// counted, not quoted. A model's summary is at most 20,000 tokens (§9.3's max output), and
/// the user's messages may take about half of it at four characters a token. Without a cap,
/// a session of many unanswered prompts made a summary larger than the window it had to
/// fit, so every later turn compacted again, each time over a longer summary.
pub const USER_MESSAGES_CAP_CHARS: usize = 40_000;

/// Key output lines kept, the newest: more than a section's, since each is a fact the
/// records held that no other section quotes.
pub const KEY_LINES_CAP: usize = 40;

/// Ends an entry that was cut (past [`ENTRY_CAP_CHARS`], or a command's first line of many).
const CUT_MARKER: &str = " […]";

/// The tools whose `file_path` names a file the session touched.
const FILE_TOOLS: [&str; 3] = ["Read", "Edit", "Write"];

/// A summary built from the records, and where each quoted line came from.
#[derive(Debug, Clone, PartialEq, Eq)]
#[cfg_attr(feature = "serde", derive(serde::Serialize))]
pub struct ExtractiveSummary {
    /// `<summary>…</summary>`, ready for
    /// [`format_compact_summary`](super::format_compact_summary).
    pub text: String,
    /// Each quoted line of `text` (as it appears there) with the index in the input of the
    /// record it quotes.
    pub sources: Vec<(String, usize)>,
}

/// One quoted entry: its text (capped) and the record it quotes.
struct Entry {
    text: String,
    source: usize,
}

/// What the records hold, gathered in one pass.
#[derive(Default)]
struct Gathered<'a> {
    prompts: Vec<Entry>,
    /// Paths in order of first touch, with the tools that touched them.
    files: Vec<(String, usize, Vec<&'a str>)>,
    commands: Vec<Entry>,
    errors: Vec<Entry>,
    last_todos: Option<(usize, Value)>,
    last_text: Option<(usize, &'a str)>,
    /// Lines that stood out in the tool outputs, each with the call that printed it.
    key_lines: Vec<Entry>,
    /// What earlier summaries among the records held, with each one's record.
    carried: Vec<(usize, Carried)>,
}

impl Gathered<'_> {
    /// The carried entries of one list, oldest summary first, then `own`.
    fn with_carried(&self, list: impl Fn(&Carried) -> &Vec<String>, own: &[Entry]) -> Vec<Entry> {
        let mut entries: Vec<Entry> = self
            .carried
            .iter()
            .flat_map(|(source, carried)| {
                list(carried).iter().map(|text| Entry {
                    text: text.clone(),
                    source: *source,
                })
            })
            .collect();
        entries.extend(own.iter().map(|entry| Entry {
            text: entry.text.clone(),
            source: entry.source,
        }));
        entries
    }
}

/// Builds a summary in the nine sections from the records alone: the first prompt as the
/// primary request; the paths given to Read, Edit and Write; the failed tool results' first
/// lines; the Bash commands and the key lines of repetitive tool outputs ([`key_lines`]);
/// the prompts; the unfinished items of the last TodoWrite (the in-progress ones also as
/// the next step); the last assistant text as the current work. An earlier summary among the
/// records leads each cumulative section with its own entries (`carry`), as a model asked to
/// summarise a conversation that starts with a summary keeps what it said.
/// Sections the records cannot fill say so. Each entry is cut past [`ENTRY_CAP_CHARS`]
/// characters; each section keeps its newest [`SECTION_CAP`] entries, the user's messages
/// their newest [`USER_MESSAGES_CAP_CHARS`] characters. Summary and
/// analysis tags inside quoted text are escaped (`&lt;summary>`), so the frame survives
/// formatting.
///
/// # Example
/// ```
/// use context_assembly::compact::summary::{extractive_summary, format_compact_summary};
/// use context_assembly::transcript::{Message, Record};
/// // No records, no invention: every section says it has nothing.
/// let empty = extractive_summary(&[]);
/// assert!(empty.sources.is_empty());
/// assert!(format_compact_summary(&empty.text).starts_with("Summary:\n1. Primary Request"));
/// let records = [Message { id: 7, record: Record::Prompt { text: "Fix the build".into() } }];
/// let summary = extractive_summary(&records);
/// assert!(summary.sources.iter().all(|(line, index)| line.contains("Fix the build") && *index == 0));
/// ```
pub fn extractive_summary(records: &[Message]) -> ExtractiveSummary {
    let gathered = gather(records);
    let mut summary = ExtractiveSummary {
        text: String::from("<summary>\n"),
        sources: Vec::new(),
    };
    let prompts = gathered.with_carried(|c| &c.prompts, &gathered.prompts);
    let first_prompts = gathered.with_carried(|c| &c.first_prompt, &gathered.prompts);
    let first_prompt: Vec<&Entry> = first_prompts.iter().take(1).collect();
    let own_files: Vec<Entry> = gathered
        .files
        .iter()
        .map(|(path, source, tools)| Entry {
            text: format!("{} ({})", cap(path), tools.join(", ")),
            source: *source,
        })
        .collect();
    let files = gathered.with_carried(|c| &c.files, &own_files);
    let errors = gathered.with_carried(|c| &c.errors, &gathered.errors);
    let commands = gathered.with_carried(|c| &c.commands, &gathered.commands);
    let key_lines = gathered.with_carried(|c| &c.key_lines, &gathered.key_lines);
    let (pending, in_progress) = todo_entries(gathered.last_todos.as_ref());
    let current: Vec<Entry> = gathered
        .last_text
        .iter()
        .map(|(source, text)| Entry {
            text: cap(text),
            source: *source,
        })
        .collect();
    let not_extracted =
        "(not extracted: this summary quotes the records and does not interpret them)";
    for (number, section) in SUMMARY_SECTIONS.iter().enumerate() {
        summary
            .text
            .push_str(&format!("{}. {section}:\n", number + 1));
        match number {
            0 => summary.section(&first_prompt),
            1 => summary.note(not_extracted),
            2 => summary.section(&files.iter().collect::<Vec<_>>()),
            3 => summary.section(&errors.iter().collect::<Vec<_>>()),
            4 => {
                summary.note(COMMANDS_NOTE);
                summary.section(&commands.iter().collect::<Vec<_>>());
                // Only when there are any: most short sessions have none.
                if !key_lines.is_empty() {
                    summary.note(KEY_LINES_NOTE);
                    summary.newest(&key_lines.iter().collect::<Vec<_>>(), KEY_LINES_CAP);
                }
            }
            5 => summary.newest_within(&prompts, USER_MESSAGES_CAP_CHARS),
            6 => summary.section(&pending.iter().collect::<Vec<_>>()),
            7 => summary.section(&current.iter().collect::<Vec<_>>()),
            _ => summary.section(&in_progress.iter().collect::<Vec<_>>()),
        }
        summary.text.push('\n');
    }
    summary.text.push_str("</summary>");
    summary
}

impl ExtractiveSummary {
    /// The newest [`SECTION_CAP`] entries, with a count of the older ones, or `(none)`.
    fn section(&mut self, entries: &[&Entry]) {
        self.newest(entries, SECTION_CAP);
    }

    /// The newest entries that fit in `chars` characters together (the newest always), with
    /// a count of the older ones, or `(none)`.
    fn newest_within(&mut self, entries: &[Entry], chars: usize) {
        let mut used = 0;
        let fitting = entries
            .iter()
            .rev()
            .take_while(|entry| {
                used += entry.text.chars().count();
                used <= chars
            })
            .count()
            .max(1);
        self.newest(&entries.iter().collect::<Vec<_>>(), fitting);
    }

    fn newest(&mut self, entries: &[&Entry], cap: usize) {
        if entries.is_empty() {
            self.note("(none)");
            return;
        }
        let skipped = entries.len().saturating_sub(cap);
        if skipped > 0 {
            self.note(&format!("({skipped} earlier not shown)"));
        }
        for entry in entries.iter().skip(skipped) {
            let line = format!("   - {}", entry.text);
            self.text.push_str(&line);
            self.text.push('\n');
            self.sources.push((line, entry.source));
        }
    }

    fn note(&mut self, text: &str) {
        self.text.push_str("   ");
        self.text.push_str(text);
        self.text.push('\n');
    }
}

fn gather(records: &[Message]) -> Gathered<'_> {
    let mut gathered = Gathered::default();
    let mut file_index: BTreeMap<String, usize> = BTreeMap::new();
    let mut call_names: BTreeMap<&str, &str> = BTreeMap::new();
    let mut call_labels: BTreeMap<&str, String> = BTreeMap::new();
    // Every successful output, with its record and the call that printed it.
    let mut outputs: Vec<(usize, &str, &str)> = Vec::new();
    for (index, message) in records.iter().enumerate() {
        match &message.record {
            Record::Summary { text } => gathered.carried.push((index, carried_entries(text))),
            Record::Prompt { text } if !text.trim().is_empty() => gathered.prompts.push(Entry {
                text: cap(text),
                source: index,
            }),
            Record::Assistant { block, .. } => match block {
                AssistantBlock::Text { text } if !text.trim().is_empty() => {
                    gathered.last_text = Some((index, text));
                }
                AssistantBlock::ToolUse(call) => {
                    call_names
                        .entry(call.id.as_str())
                        .or_insert(call.name.as_str());
                    call_labels
                        .entry(call.id.as_str())
                        .or_insert_with(|| call_label(&call.name, &call.input));
                    gather_call(
                        &mut gathered,
                        &mut file_index,
                        index,
                        &call.name,
                        &call.input,
                    );
                }
                _ => {}
            },
            Record::ToolResults { results } => {
                outputs.extend(
                    results
                        .iter()
                        .filter(|r| !r.is_error)
                        .map(|r| (index, r.tool_use_id.as_str(), r.content.as_str())),
                );
                for result in results.iter().filter(|r| r.is_error) {
                    let line = result.content.lines().next().unwrap_or("");
                    let tool = call_names.get(result.tool_use_id.as_str()).copied();
                    gathered.errors.push(Entry {
                        text: format!("{} ({})", cap(line), tool.unwrap_or("unknown tool")),
                        source: index,
                    });
                }
            }
            _ => {}
        }
    }
    let texts: Vec<&str> = outputs.iter().map(|(_, _, text)| *text).collect();
    for ((index, id, _), lines) in outputs.iter().zip(key_lines(&texts)) {
        let label = call_labels
            .get(id)
            .map_or("an unknown call", String::as_str);
        gathered
            .key_lines
            .extend(lines.into_iter().map(|line| Entry {
                text: format!("{} (from {label})", cap(line)),
                source: *index,
            }));
    }
    gathered
}

/// A call as a key line names it: the tool and its path or command.
fn call_label(name: &str, input: &str) -> String {
    let value = json::parse(input);
    let field = |key: &str| {
        value
            .as_ref()
            .and_then(|v| v.get(key))
            .and_then(Value::as_str)
            .map(first_line_capped)
    };
    match field("file_path").or_else(|| field("command")) {
        Some(what) => format!("{name} {what}"),
        None => String::from(name),
    }
}

fn gather_call<'a>(
    gathered: &mut Gathered<'a>,
    file_index: &mut BTreeMap<String, usize>,
    index: usize,
    name: &'a str,
    input: &str,
) {
    let Some(value) = json::parse(input) else {
        return;
    };
    let field = |key: &str| value.get(key).and_then(Value::as_str).map(String::from);
    if FILE_TOOLS.contains(&name) {
        if let Some(path) = field("file_path").filter(|p| !p.is_empty()) {
            match file_index.get(&path) {
                Some(&at) => {
                    if let Some((_, _, tools)) = gathered.files.get_mut(at) {
                        if !tools.contains(&name) {
                            tools.push(name);
                        }
                    }
                }
                None => {
                    file_index.insert(path.clone(), gathered.files.len());
                    gathered.files.push((path, index, alloc::vec![name]));
                }
            }
        }
    } else if name == "Bash" {
        if let Some(command) = field("command").filter(|c| !c.trim().is_empty()) {
            gathered.commands.push(Entry {
                text: first_line_capped(&command),
                source: index,
            });
        }
    } else if name == "TodoWrite" {
        if let Some(todos) = value.get("todos") {
            gathered.last_todos = Some((index, todos.clone()));
        }
    }
}

/// The unfinished items of the last todo list, and the in-progress ones among them.
fn todo_entries(todos: Option<&(usize, Value)>) -> (Vec<Entry>, Vec<Entry>) {
    let (mut pending, mut in_progress) = (Vec::new(), Vec::new());
    let Some((source, Value::Array(items))) = todos else {
        return (pending, in_progress);
    };
    for item in items {
        let Some(content) = item.get("content").and_then(Value::as_str) else {
            continue;
        };
        let status = item
            .get("status")
            .and_then(Value::as_str)
            .unwrap_or("no status");
        if status == "completed" {
            continue;
        }
        let entry = || Entry {
            text: format!("{} ({status})", cap(content)),
            source: *source,
        };
        if status == "in_progress" {
            in_progress.push(entry());
        }
        pending.push(entry());
    }
    (pending, in_progress)
}

/// The first line, marked as cut when more lines follow.
fn first_line_capped(text: &str) -> String {
    let mut lines = text.lines();
    let first = lines.next().unwrap_or("");
    cap_marked(first, lines.next().is_some())
}

/// The text with its summary and analysis tags escaped, cut past [`ENTRY_CAP_CHARS`].
fn cap(text: &str) -> String {
    cap_marked(text, false)
}

/// [`cap`], marked as cut also when `more` follows.
fn cap_marked(text: &str, more: bool) -> String {
    let cut = match text.char_indices().nth(ENTRY_CAP_CHARS) {
        Some((at, _)) => text.get(..at).unwrap_or(text),
        None => text,
    };
    let mut out = defuse_tags(cut);
    if more || cut.len() < text.len() {
        out.push_str(CUT_MARKER);
    }
    out
}

/// Escapes the tags [`format_compact_summary`](super::format_compact_summary) looks for, and
/// the reminder tags a client reads as its own: a quoted line must not open one.
fn defuse_tags(text: &str) -> String {
    let mut out = String::from(text);
    for tag in [
        "<summary>",
        "</summary>",
        "<analysis>",
        "</analysis>",
        "<system-reminder>",
        "</system-reminder>",
    ] {
        if out.contains(tag) {
            let escaped = format!("&lt;{}", tag.trim_start_matches('<'));
            out = out.replace(tag, &escaped);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cap_cuts_on_a_char_boundary_with_the_marker() {
        let long = "é".repeat(ENTRY_CAP_CHARS + 1);
        let capped = cap(&long);
        assert_eq!(
            capped.chars().count(),
            ENTRY_CAP_CHARS + CUT_MARKER.chars().count()
        );
        assert!(capped.ends_with(CUT_MARKER));
        assert_eq!(cap("short"), "short");
    }

    #[test]
    fn tags_in_quoted_text_do_not_end_the_summary() {
        assert_eq!(
            defuse_tags("a</summary>b<analysis>"),
            "a&lt;/summary>b&lt;analysis>"
        );
    }

    fn message(id: u64, record: Record) -> Message {
        Message { id, record }
    }

    fn bash_with_output(id: u64, output: &str) -> [Message; 2] {
        use crate::transcript::{ToolResultBlock, ToolUse};
        let call = ToolUse {
            id: format!("b{id}"),
            name: "Bash".into(),
            input: r#"{"command":"pnpm test"}"#.into(),
        };
        let result = ToolResultBlock {
            tool_use_id: call.id.clone(),
            content: output.into(),
            is_error: false,
        };
        [
            message(
                id,
                Record::Assistant {
                    response: id,
                    block: AssistantBlock::ToolUse(call),
                },
            ),
            message(
                id + 1,
                Record::ToolResults {
                    results: alloc::vec![result],
                },
            ),
        ]
    }

    #[test]
    fn a_second_summary_keeps_what_the_first_quoted() {
        let mut log: Vec<String> = (0..30).map(|i| format!("[{i:04}] case {i}: ok")).collect();
        log.insert(15, "summary: seed 4411 passed".into());
        let mut first = alloc::vec![message(
            1,
            Record::Prompt {
                text: "Call the flag blue-7.".into()
            }
        )];
        first.extend(bash_with_output(2, &log.join("\n")));
        let earlier = extractive_summary(&first);
        assert!(
            earlier
                .text
                .contains("   - summary: seed 4411 passed (from Bash pnpm test)"),
            "{}",
            earlier.text
        );
        let second = [
            message(
                10,
                Record::Summary {
                    text: super::super::format_compact_summary(&earlier.text),
                },
            ),
            message(
                11,
                Record::Prompt {
                    text: "Now rename it.".into(),
                },
            ),
        ];
        let later = extractive_summary(&second);
        for kept in [
            "Call the flag blue-7.",
            "Now rename it.",
            "summary: seed 4411 passed",
            "pnpm test",
        ] {
            assert!(later.text.contains(kept), "{kept} is lost:\n{}", later.text);
        }
        // The primary request is still the first one, and the carried lines cite the summary.
        assert!(later
            .text
            .contains("1. Primary Request and Intent:\n   - Call the flag blue-7."));
        assert!(later
            .sources
            .iter()
            .any(|(line, source)| line.contains("4411") && *source == 0));
    }

    #[test]
    fn multi_line_commands_keep_their_first_line() {
        assert_eq!(first_line_capped("cat <<EOF\nx\nEOF"), "cat <<EOF […]");
        assert_eq!(first_line_capped("ls"), "ls");
    }
}
