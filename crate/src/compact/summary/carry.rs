//! What an earlier summary said, carried into the next one.
//!
//! The second compaction of a session summarises a transcript that starts with the first
//! one's summary. A model asked for a summary keeps what that summary held (the user's
//! messages above all: the request asks for every one of them); a summariser that skipped
//! it would lose, at the second compaction, everything the first one kept. So the quoted
//! entries of the earlier summary's cumulative sections are read back, section by section,
//! and lead the new summary's.

use alloc::string::String;
use alloc::vec::Vec;

use super::SUMMARY_SECTIONS;

/// The heading of section 5's list of lines that stood out in tool outputs.
pub(super) const KEY_LINES_NOTE: &str = "Key output lines:";

/// The heading of section 5's list of commands.
pub(super) const COMMANDS_NOTE: &str = "Commands run:";

/// The entries of an earlier summary's sections that accumulate over a session; the
/// sections that describe the present (pending tasks, current work, next step) are not
/// carried: the records after that summary say what they are now.
#[derive(Debug, Default, PartialEq, Eq)]
pub(super) struct Carried {
    /// Section 1: the primary request.
    pub first_prompt: Vec<String>,
    /// Section 3: files and the tools that touched them.
    pub files: Vec<String>,
    /// Section 4: errors.
    pub errors: Vec<String>,
    /// Section 5: commands run.
    pub commands: Vec<String>,
    /// Section 5: lines that stood out in tool outputs.
    pub key_lines: Vec<String>,
    /// Section 6: the user's messages.
    pub prompts: Vec<String>,
}

/// Which list an entry line belongs to.
#[derive(Clone, Copy, PartialEq, Eq)]
enum List {
    None,
    FirstPrompt,
    Files,
    Errors,
    Commands,
    KeyLines,
    Prompts,
}

/// The entries of the summary in `text` (a summary message, preamble and all): every
/// `   - ` line under a section heading, with the lines that continue it (a quoted prompt
/// of several lines).
pub(super) fn carried_entries(text: &str) -> Carried {
    let mut carried = Carried::default();
    let mut list = List::None;
    let mut in_entry = false;
    for line in text.lines() {
        if let Some(section) = section_number(line) {
            list = match section {
                1 => List::FirstPrompt,
                3 => List::Files,
                4 => List::Errors,
                5 => List::Commands,
                6 => List::Prompts,
                _ => List::None,
            };
            in_entry = false;
            continue;
        }
        let Some(target) = carried.list(list) else {
            continue;
        };
        if let Some(entry) = line.strip_prefix("   - ") {
            target.push(String::from(entry));
            in_entry = true;
        } else if line.trim() == KEY_LINES_NOTE {
            list = List::KeyLines;
            in_entry = false;
        } else if is_note(line) {
            in_entry = false;
        } else if let (true, Some(last)) = (in_entry, target.last_mut()) {
            last.push('\n');
            last.push_str(line);
        }
    }
    carried
}

impl Carried {
    fn list(&mut self, list: List) -> Option<&mut Vec<String>> {
        match list {
            List::None => None,
            List::FirstPrompt => Some(&mut self.first_prompt),
            List::Files => Some(&mut self.files),
            List::Errors => Some(&mut self.errors),
            List::Commands => Some(&mut self.commands),
            List::KeyLines => Some(&mut self.key_lines),
            List::Prompts => Some(&mut self.prompts),
        }
    }
}

/// `N. Title:` for one of the nine sections.
fn section_number(line: &str) -> Option<usize> {
    let (number, title) = line.split_once(". ")?;
    let number: usize = number.parse().ok()?;
    let expected = SUMMARY_SECTIONS.get(number.checked_sub(1)?)?;
    (title.strip_suffix(':') == Some(expected)).then_some(number)
}

/// A line the summariser writes between entries: `(none)`, a count of entries not shown,
/// a list's heading, a section it does not fill.
fn is_note(line: &str) -> bool {
    let Some(note) = line.strip_prefix("   ") else {
        return line.trim().is_empty();
    };
    note == COMMANDS_NOTE || (note.starts_with('(') && note.ends_with(')'))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::compact::summary::extractive_summary;
    use crate::transcript::{Message, Record};

    #[test]
    fn every_prompt_of_an_earlier_summary_comes_back_whole() {
        let records = [
            Message {
                id: 1,
                record: Record::Prompt {
                    text: "first\nsecond line".into(),
                },
            },
            Message {
                id: 2,
                record: Record::Prompt {
                    text: "   (looks like a note)".into(),
                },
            },
        ];
        let summary = extractive_summary(&records);
        let carried = carried_entries(&summary.text);
        assert_eq!(
            carried.prompts,
            ["first\nsecond line", "   (looks like a note)"]
        );
        assert_eq!(carried.first_prompt, ["first\nsecond line"]);
    }

    #[test]
    fn text_outside_any_section_is_not_carried() {
        let carried = carried_entries("   - loose\n7. Pending Tasks:\n   - stale");
        assert_eq!(carried, Carried::default());
    }
}
